//! The one mapping from the Veletas core's errors to the exceptions of `veletas.errors`.

use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::veletas::{FenError, ParseMoveError, Piece, PlayError, RulesError};

pub use crate::py::errors::{
    IllegalMoveError, InvalidFenError, InvalidMoveError, InvalidRulesError, fen_text,
};

/// An error of the core, with the input it refused where the message quotes it.
#[derive(Debug)]
pub enum CoreError {
    /// A refused position string, with the message that quotes it.
    Fen(String),
    /// Text that is not a move; `text` is its Python `repr`.
    ParseMove { text: String, error: ParseMoveError },
    /// A move that is not legal.
    Play(PlayError),
    /// A refused size or shooter count.
    Rules(RulesError),
}

impl CoreError {
    /// A refused position string: `fen` as given, `text` as the parser read
    /// it (see [`fen_text`]). The message quotes the string, and the part of
    /// it that is refused, from `fen` itself with Python's `repr`.
    pub fn fen(fen: &Bound<'_, PyString>, text: &str, error: &FenError) -> PyResult<CoreError> {
        let refused = refused_part(fen, text, error)?;
        let py = fen.py();
        let quote = |part: &str| {
            let part = refused
                .clone()
                .unwrap_or_else(|| PyString::new(py, part).into_any());
            part.repr()
                .map_or_else(|_| format!("{part}"), |r| r.to_string())
        };
        Ok(CoreError::Fen(format!(
            "invalid fen {}: {}",
            fen.repr()?,
            error.message(&quote)
        )))
    }

    /// Text that is not a move, quoted as Python quotes it.
    pub fn parse_move(text: &Bound<'_, PyString>, error: ParseMoveError) -> PyResult<CoreError> {
        Ok(CoreError::ParseMove {
            text: text.repr()?.to_string(),
            error,
        })
    }
}

/// The refused part of `fen` as given, when the parser read it altered (see
/// [`fen_text`]); `None` when the part the error holds is exact.
fn refused_part<'py>(
    fen: &Bound<'py, PyString>,
    text: &str,
    error: &FenError,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if fen.to_str().is_ok() {
        return Ok(None);
    }
    let fields = fen.call_method1("split", (" ",))?;
    let part = match *error {
        FenError::Turn(_) => fields.get_item(1)?,
        FenError::Phase(_) => fields.get_item(2)?,
        FenError::KNotANumber(_) => fields.get_item(3)?,
        // "0" starts no run; any other refused letter is the first character
        // of its rank that is neither a digit nor a piece letter.
        FenError::Letter { rank, letter } if letter != '0' => {
            let ranks: Vec<&str> = text.split(' ').next().unwrap_or("").split('/').collect();
            let row = ranks.len() - rank;
            let Some(index) = ranks[row]
                .chars()
                .position(|c| !c.is_ascii_digit() && Piece::from_char(c).is_none())
            else {
                return Ok(None);
            };
            fields
                .get_item(0)?
                .call_method1("split", ("/",))?
                .get_item(row)?
                .get_item(index)?
        }
        _ => return Ok(None),
    };
    Ok(Some(part))
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
            CoreError::Fen(message) => InvalidFenError::new_err(message),
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
