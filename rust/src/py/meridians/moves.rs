//! `veletas.meridians.Move`: a placement on a point, `swap` or `keep`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::meridians::{Move, ParseMoveError, Point};
use crate::py::errors::{InvalidMoveError, shown};

/// The type name of `value`, for messages.
pub fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A move of Meridians; immutable and hashable.
#[pyclass(name = "Move", module = "veletas.meridians", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub m: Move,
}

/// Reads `text` in the notation.
pub fn parse_move(text: &Bound<'_, PyAny>) -> PyResult<Move> {
    let Ok(text) = text.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "a move is read from a str, not {}",
            type_name(text)
        )));
    };
    text.to_str()
        .ok()
        .and_then(|t| t.parse().ok())
        .ok_or_else(|| match text.repr() {
            Ok(repr) => InvalidMoveError::new_err(format!(
                "invalid move {repr}: {}",
                ParseMoveError::EXPECTED
            )),
            Err(err) => err,
        })
}

/// A point number in `0..196`, from any Python integer.
pub fn point_number(point: &Bound<'_, PyAny>) -> PyResult<Point> {
    let index = point
        .py()
        .import("operator")?
        .call_method1("index", (point,))?;
    index
        .extract::<u32>()
        .ok()
        .and_then(Point::from_number)
        .ok_or_else(|| {
            InvalidMoveError::new_err(format!(
                "invalid point number {}: expected 0..195",
                shown(point)
            ))
        })
}

// A move is two bytes, but pyo3 methods take `&self`.
#[allow(clippy::trivially_copy_pass_by_ref)]
#[pymethods]
impl PyMove {
    #[new]
    fn new() -> PyResult<PyMove> {
        Err(PyTypeError::new_err(
            "build a Move with Move.parse, Move.place, Move.swap or Move.keep",
        ))
    }

    /// Reads a move: a point name such as `f7`, `swap` or `keep`.
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        Ok(PyMove {
            m: parse_move(text)?,
        })
    }

    /// A stone placed on the point with this number (`rank * 14 + file`).
    #[staticmethod]
    fn place(point: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        Ok(PyMove {
            m: Move::Place(point_number(point)?),
        })
    }

    /// The pie rule's `swap`.
    #[staticmethod]
    fn swap() -> PyMove {
        PyMove { m: Move::Swap }
    }

    /// The pie rule's `keep`.
    #[staticmethod]
    fn keep() -> PyMove {
        PyMove { m: Move::Keep }
    }

    /// The point number of a placement; None for `swap` and `keep`.
    #[getter]
    fn point(&self) -> Option<u32> {
        self.m.point().map(Point::number)
    }

    /// Whether this is the pie rule's `swap`.
    #[getter]
    fn is_swap(&self) -> bool {
        self.m.is_swap()
    }

    /// Whether this is the pie rule's `keep`.
    #[getter]
    fn is_keep(&self) -> bool {
        self.m.is_keep()
    }

    fn __str__(&self) -> String {
        self.m.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.parse('{}')", self.m)
    }

    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }

    /// Pickles as `Move.parse(text)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let parse = slf.get_type().getattr("parse")?;
        PyTuple::new(
            slf.py(),
            [
                parse,
                PyTuple::new(slf.py(), [slf.get().m.to_string()])?.into_any(),
            ],
        )
    }
}
