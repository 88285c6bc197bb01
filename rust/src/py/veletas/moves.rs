//! `veletas.Move`: an immutable, hashable, ordered move value.

use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::error::{CoreError, InvalidMoveError};
use crate::py::errors::shown;
use crate::veletas::{Move, Square};

/// A move: a stone onto `target`, after an optional shooter move.
#[pyclass(name = "Move", module = "veletas._veletas", frozen)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyMove(pub Move);

impl PyMove {
    /// A new `Move` object for `m`, left out of the cycle collector.
    ///
    /// `PyO3` makes every class a GC type, so each new move would join the
    /// youngest generation, and building the 1,428 moves of a 10x10 play
    /// position would run that generation's collection twice, each time
    /// walking every move made so far. A move holds no reference to any
    /// object, so it can be in no cycle: untracked, as `CPython` untracks
    /// tuples of atoms, it costs the collector nothing.
    pub fn untracked(py: Python<'_>, m: Move) -> PyResult<Bound<'_, PyMove>> {
        let object = Bound::new(py, PyMove(m))?;
        // SAFETY: `object` is a live object of a GC type (every `#[pyclass]`
        // type is one), and untracking such an object is always allowed.
        unsafe { pyo3::ffi::PyObject_GC_UnTrack(object.as_ptr().cast()) };
        Ok(object)
    }

    /// A list of new `Move` objects for `moves`, in order (see
    /// [`PyMove::untracked`]).
    pub fn list<'py>(py: Python<'py>, moves: &[Move]) -> PyResult<Bound<'py, PyList>> {
        let objects = moves
            .iter()
            .map(|&m| PyMove::untracked(py, m))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, objects)
    }
}

/// `value` (any object with `__index__`) as a square 0..=99; `role` names
/// it in the message.
fn move_square(value: &Bound<'_, PyAny>, role: &str) -> PyResult<Square> {
    let number = match value.extract::<i64>() {
        Ok(number) => Some(number),
        Err(err) if err.is_instance_of::<PyOverflowError>(value.py()) => None,
        Err(err) => return Err(err),
    };
    number
        .and_then(|n| u32::try_from(n).ok())
        .and_then(Square::from_number)
        .ok_or_else(|| {
            InvalidMoveError::new_err(format!(
                "invalid {role} square {}: expected 0..99",
                shown(value)
            ))
        })
}

/// The text of `text`, which must be a `str`, for parsing.
pub fn move_text<'a, 'py>(text: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyString>> {
    text.cast::<PyString>().map_err(|_| {
        let name = text
            .get_type()
            .name()
            .map_or_else(|_| "?".to_owned(), |n| n.to_string());
        PyTypeError::new_err(format!("a move is read from a str, not {name}"))
    })
}

/// Parses a Python `str` in move notation.
pub fn parse_move(text: &Bound<'_, PyString>) -> PyResult<Move> {
    // A str that is not valid UTF-8 (lone surrogates) is no move either.
    let parsed = text.to_str().ok().map(str::parse::<Move>);
    match parsed {
        Some(Ok(m)) => Ok(m),
        Some(Err(error)) => Err(CoreError::parse_move(text, error)?.into()),
        None => Err(CoreError::parse_move(text, crate::veletas::ParseMoveError)?.into()),
    }
}

fn number(square: Option<Square>) -> Option<u32> {
    square.map(Square::number)
}

#[pymethods]
impl PyMove {
    #[new]
    #[pyo3(signature = (target, origin = None, destination = None))]
    fn new(
        target: &Bound<'_, PyAny>,
        origin: Option<&Bound<'_, PyAny>>,
        destination: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMove> {
        match (origin, destination) {
            (None, None) => Ok(PyMove(Move::Stone(move_square(target, "target")?))),
            (Some(origin), Some(destination)) => {
                let target = move_square(target, "target")?;
                Ok(PyMove(Move::Shot {
                    origin: move_square(origin, "origin")?,
                    destination: move_square(destination, "destination")?,
                    target,
                }))
            }
            (origin, destination) => {
                let show = |value: Option<&Bound<'_, PyAny>>| {
                    PyResult::Ok(value.map_or_else(|| "None".to_owned(), shown))
                };
                Err(InvalidMoveError::new_err(format!(
                    "a shooter move needs both origin and destination, got origin {} and \
                     destination {}",
                    show(origin)?,
                    show(destination)?
                )))
            }
        }
    }

    /// Setup: place a shooter on `square` (`*e5`).
    #[staticmethod]
    fn shooter(square: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        Ok(PyMove(Move::Shooter(move_square(square, "shooter")?)))
    }

    /// The pie rule's `swap`.
    #[staticmethod]
    fn swap() -> PyMove {
        PyMove(Move::Swap)
    }

    /// Read a move in the notation of RULES.md section 5.
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        parse_move(move_text(text)?).map(PyMove)
    }

    /// The square that receives the stone or the placed shooter; None for `swap`.
    #[getter]
    fn target(&self) -> Option<u32> {
        number(self.0.target())
    }

    /// The square the shooter moves from, or None when no shooter moves.
    #[getter]
    fn origin(&self) -> Option<u32> {
        number(self.0.origin())
    }

    /// The square the shooter moves to, or None when no shooter moves.
    #[getter]
    fn destination(&self) -> Option<u32> {
        number(self.0.destination())
    }

    /// Whether this is the pie rule's `swap`.
    #[getter]
    fn is_swap(&self) -> bool {
        self.0.is_swap()
    }

    /// Whether this places a shooter in setup.
    #[getter]
    fn is_shooter(&self) -> bool {
        self.0.is_shooter()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.parse('{}')", self.0)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyMove>, op: CompareOp) -> bool {
        op.matches(self.0.cmp(&other.get().0))
    }

    fn __hash__(&self) -> u64 {
        let square = |s: Option<Square>| s.map_or(0, |s| u64::from(s.number()) + 1);
        let kind = match self.0 {
            Move::Swap => 0,
            Move::Shooter(_) => 1,
            Move::Stone(_) | Move::Shot { .. } => 2,
        };
        kind << 24
            | square(self.0.origin()) << 16
            | square(self.0.destination()) << 8
            | square(self.0.target())
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let parse = slf.get_type().getattr("parse")?;
        let text = slf.get().0.to_string();
        PyTuple::new(
            slf.py(),
            [parse, PyTuple::new(slf.py(), [text])?.into_any()],
        )
    }
}
