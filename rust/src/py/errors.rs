//! The Python exceptions of `veletas.errors`, defined once in Python and
//! raised by the bindings of every game, and what their messages share.

use std::borrow::Cow;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

pyo3::import_exception!(veletas.errors, IllegalMoveError);
pyo3::import_exception!(veletas.errors, InvalidFenError);
pyo3::import_exception!(veletas.errors, InvalidMoveError);
pyo3::import_exception!(veletas.errors, InvalidRulesError);
pyo3::import_exception!(veletas.errors, KernelError);
pyo3::import_exception!(veletas.errors, LimitError);

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

/// Where lone surrogates go in [`text_keeping_surrogates`]: the start of a
/// private-use plane, one code point for each of the 2,048 surrogates.
const SURROGATE_STAND_IN: u32 = 0xF_0000;

/// The text of `value` for a parser, with each lone surrogate (which UTF-8
/// cannot hold) replaced by a private-use stand-in that no parser accepts,
/// so that the parser refuses the same token at the same place, and
/// [`python_text`] can quote it as given.
pub fn text_keeping_surrogates<'a>(value: &'a Bound<'_, PyString>) -> PyResult<Cow<'a, str>> {
    if let Ok(text) = value.to_str() {
        return Ok(Cow::Borrowed(text));
    }
    let builtins = value.py().import("builtins")?;
    let points: Vec<u32> = builtins
        .getattr("map")?
        .call1((builtins.getattr("ord")?, value))?
        .try_iter()?
        .map(|code| code?.extract::<u32>())
        .collect::<PyResult<_>>()?;
    Ok(Cow::Owned(
        points
            .into_iter()
            .map(|code| match code {
                0xD800..=0xDFFF => char::from_u32(SURROGATE_STAND_IN + code - 0xD800),
                _ => char::from_u32(code),
            })
            .map(|ch| ch.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect(),
    ))
}

/// A part of a text read by [`text_keeping_surrogates`] as the Python `str`
/// it came from, stand-ins turned back into surrogates.
pub fn python_text<'py>(py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyString>> {
    let stand_ins = SURROGATE_STAND_IN..SURROGATE_STAND_IN + 0x800;
    if !text.chars().any(|ch| stand_ins.contains(&u32::from(ch))) {
        return Ok(PyString::new(py, text));
    }
    let chr = py.import("builtins")?.getattr("chr")?;
    let parts = text
        .chars()
        .map(|ch| {
            let code = u32::from(ch);
            let code = if stand_ins.contains(&code) {
                code - SURROGATE_STAND_IN + 0xD800
            } else {
                code
            };
            chr.call1((code,))
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyString::new(py, "")
        .call_method1("join", (parts,))?
        .cast_into::<PyString>()?)
}

/// A bad value for a message, as `veletas._checks.shown` writes it (its
/// `repr`, or for an int too long to print, its number of digits); `?`
/// where even that fails.
pub fn shown(value: &Bound<'_, PyAny>) -> String {
    value
        .py()
        .import("veletas._checks")
        .and_then(|checks| checks.call_method1("shown", (value,)))
        .and_then(|text| text.extract::<String>())
        .unwrap_or_else(|_| "?".to_owned())
}

/// The `repr` of a part of a text, as Python writes it.
pub fn python_repr(py: Python<'_>, text: &str) -> String {
    python_text(py, text)
        .and_then(|part| part.repr())
        .map_or_else(|_| format!("{text:?}"), |r| r.to_string())
}
