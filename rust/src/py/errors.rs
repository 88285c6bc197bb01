//! The Python exceptions of `veletas.errors`, defined once in Python and
//! raised by the bindings of every game, and what their messages share.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

pyo3::import_exception!(veletas.errors, IllegalMoveError);
pyo3::import_exception!(veletas.errors, InvalidFenError);
pyo3::import_exception!(veletas.errors, InvalidMoveError);
pyo3::import_exception!(veletas.errors, InvalidRulesError);

/// The text of a position string for the parser. A `str` with lone
/// surrogates is not UTF-8: each surrogate becomes a `?`, one character for
/// one, which no field accepts either, so the parser refuses the same field
/// at the same place.
pub fn fen_text<'a>(fen: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    if let Ok(text) = fen.to_str() {
        return Ok(Cow::Borrowed(text));
    }
    let bytes = fen.call_method1("encode", ("utf-8", "replace"))?;
    Ok(Cow::Owned(
        String::from_utf8_lossy(bytes.cast::<PyBytes>()?.as_bytes()).into_owned(),
    ))
}
