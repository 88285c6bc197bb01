//! `Board.legal_moves`: a live view of a board's legal moves.

use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PyTuple};

use super::board::PyBoard;
use super::moves::PyMove;
use crate::veletas::Position;

/// The legal moves of a board: iterable in canonical order, sized, and
/// supporting `in`. It always shows the board's current position.
#[pyclass(name = "LegalMoves", module = "veletas._veletas", frozen)]
pub struct PyLegalMoves {
    board: Py<PyBoard>,
}

impl PyLegalMoves {
    /// The view of `board`.
    pub fn new(board: Py<PyBoard>) -> PyLegalMoves {
        PyLegalMoves { board }
    }

    /// The board's position now.
    fn position(&self, py: Python<'_>) -> PyResult<Position> {
        Ok(*self.board.bind(py).try_borrow()?.position())
    }

    /// The legal moves as a new list of `Move` objects.
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyMove::list(py, &self.position(py)?.legal_moves())
    }
}

#[pymethods]
impl PyLegalMoves {
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.moves(py)?.try_iter()
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.position(py)?.count_legal_moves())
    }

    /// The number of legal moves.
    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        self.__len__(py)
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.position(py)?.count_legal_moves() > 0)
    }

    fn __contains__(&self, py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        match m.cast::<PyMove>() {
            Ok(m) => Ok(self.position(py)?.is_legal(m.get().0)),
            Err(_) => Ok(false),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let moves: Vec<String> = self
            .position(py)?
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        Ok(format!("<LegalMoves ({})>", moves.join(", ")))
    }

    /// Pickles as the view of its pickled board: `getattr(board, "legal_moves")`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let getattr = py.import("builtins")?.getattr("getattr")?;
        (getattr, (self.board.bind(py), "legal_moves")).into_pyobject(py)
    }
}
