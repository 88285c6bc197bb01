//! `veletas._veletas.canonical_fen`: one key for a position string and its
//! images under the board's symmetries.

use pyo3::prelude::*;

use crate::py::errors::InvalidFenError;
use crate::quote::Quoted;
use crate::veletas::square::MAX_SIZE;
use crate::veletas::symmetry;

/// The least of the images of `fen` under the eight symmetries
/// ([`symmetry::canonical_fen`]); `InvalidFenError` naming `fen` where its
/// board field is not square.
#[pyfunction]
pub fn canonical_fen(fen: &str) -> PyResult<String> {
    symmetry::canonical_fen(fen).ok_or_else(|| {
        InvalidFenError::new_err(format!(
            "not a square board field of at most {MAX_SIZE} ranks in ASCII: {}",
            Quoted(fen)
        ))
    })
}
