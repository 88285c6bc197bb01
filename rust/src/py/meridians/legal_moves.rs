//! `veletas.meridians.LegalMoves`: a live view of a board's legal moves.

use pyo3::prelude::*;

use super::board::PyBoard;
use super::moves::PyMove;
use crate::meridians::Move;

/// The legal moves of a board, read when asked: it follows the board as
/// moves are pushed and popped.
#[pyclass(name = "LegalMoves", module = "veletas.meridians")]
pub struct PyLegalMoves {
    board: Py<PyBoard>,
}

impl PyLegalMoves {
    /// The view of `board`.
    pub fn new(board: Py<PyBoard>) -> PyLegalMoves {
        PyLegalMoves { board }
    }

    fn moves(&self, py: Python<'_>) -> Vec<Move> {
        self.board.borrow(py).position().legal_moves()
    }
}

#[pymethods]
impl PyLegalMoves {
    fn __len__(&self, py: Python<'_>) -> usize {
        self.board.borrow(py).position().count_legal_moves() as usize
    }

    /// The number of legal moves.
    fn count(&self, py: Python<'_>) -> usize {
        self.__len__(py)
    }

    fn __bool__(&self, py: Python<'_>) -> bool {
        self.__len__(py) > 0
    }

    fn __contains__(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> bool {
        r#move
            .cast::<PyMove>()
            .is_ok_and(|m| self.board.borrow(py).position().is_legal(m.get().m))
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let moves: Vec<PyMove> = self.moves(py).into_iter().map(|m| PyMove { m }).collect();
        Ok(moves.into_pyobject(py)?.try_iter()?.into_any().unbind())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let names: Vec<String> = self.moves(py).iter().map(ToString::to_string).collect();
        format!("<LegalMoves ({})>", names.join(", "))
    }
}
