//! The Python bindings: the only module that uses pyo3.
//!
//! Each exposed type has its own file; they extract their inputs, call the
//! core in [`crate::veletas`], and convert the results to the shared types of
//! `veletas.base` and the exceptions of `veletas.errors`.

mod base;
mod board;
mod bots;
mod decision;
mod error;
mod legal_moves;
mod moves;
mod playouts;
mod vector_env;

use pyo3::prelude::*;

/// The native half of the `veletas` package: `Board`, `Move`, `LegalMoves`,
/// `DecisionState`, `VectorEnv`, the batch playouts and the bots' search.
#[pymodule(gil_used = false)]
mod _veletas {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::board::PyBoard;
    #[pymodule_export]
    use super::bots::{PyMctsPlayer, greedy_move, random_move};
    #[pymodule_export]
    use super::decision::PyDecisionState;
    #[pymodule_export]
    use super::legal_moves::PyLegalMoves;
    #[pymodule_export]
    use super::moves::PyMove;
    #[pymodule_export]
    use super::playouts::run_playouts;
    #[pymodule_export]
    use super::vector_env::PyVectorEnv;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))
    }
}
