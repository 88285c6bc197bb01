//! The Python exceptions of `veletas.errors`, and the one mapping from core errors.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::veletas::{FenError, ParseMoveError, PlayError, RulesError};

pyo3::import_exception!(veletas.errors, IllegalMoveError);
pyo3::import_exception!(veletas.errors, InvalidFenError);
pyo3::import_exception!(veletas.errors, InvalidMoveError);
pyo3::import_exception!(veletas.errors, InvalidRulesError);

/// An error of the core, with the input it refused where the message quotes it.
#[derive(Debug)]
pub enum CoreError {
    /// A refused position string; `fen` is its Python `repr`.
    Fen { fen: String, error: FenError },
    /// Text that is not a move; `text` is its Python `repr`.
    ParseMove { text: String, error: ParseMoveError },
    /// A move that is not legal.
    Play(PlayError),
    /// A refused size or shooter count.
    Rules(RulesError),
}

impl CoreError {
    /// A refused position string, quoted as Python quotes it.
    pub fn fen(fen: &Bound<'_, PyString>, error: FenError) -> PyResult<CoreError> {
        Ok(CoreError::Fen {
            fen: fen.repr()?.to_string(),
            error,
        })
    }

    /// Text that is not a move, quoted as Python quotes it.
    pub fn parse_move(text: &Bound<'_, PyString>, error: ParseMoveError) -> PyResult<CoreError> {
        Ok(CoreError::ParseMove {
            text: text.repr()?.to_string(),
            error,
        })
    }
}

impl From<PlayError> for CoreError {
    fn from(error: PlayError) -> CoreError {
        CoreError::Play(error)
    }
}

impl From<RulesError> for CoreError {
    fn from(error: RulesError) -> CoreError {
        CoreError::Rules(error)
    }
}

impl From<CoreError> for PyErr {
    fn from(error: CoreError) -> PyErr {
        match error {
            CoreError::Fen { fen, error } => {
                InvalidFenError::new_err(format!("invalid fen {fen}: {error}"))
            }
            CoreError::ParseMove {
                text,
                error: ParseMoveError,
            } => InvalidMoveError::new_err(format!(
                "invalid move {text}: {}",
                ParseMoveError::EXPECTED
            )),
            CoreError::Play(error) => IllegalMoveError::new_err(error.to_string()),
            CoreError::Rules(error) => InvalidRulesError::new_err(error.to_string()),
        }
    }
}
