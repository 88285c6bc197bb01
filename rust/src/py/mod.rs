//! The Python bindings: the only module that uses pyo3.
//!
//! Each game has its own room here (`veletas`, later others), one file per
//! exposed type: they extract their inputs, call the game's core, and convert
//! the results to the game's plain Python types and the exceptions of
//! `veletas.errors` ([`errors`], shared by every game).

mod args;
mod errors;
mod meridians;
mod stop;
mod vector;
mod veletas;

use pyo3::prelude::*;

/// The native half of the `veletas` package: `Board`, `Move`, `LegalMoves`,
/// `DecisionState`, `VectorEnv`, the batch playouts and the bots' search, and
/// the same for Meridians (prefixed with the game's name).
#[pymodule(gil_used = false)]
mod _veletas {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::stop::PyStopFlag;
    #[pymodule_export]
    use super::veletas::board::PyBoard;
    #[pymodule_export]
    use super::veletas::bots::{PyMctsPlayer, greedy_move, random_move};
    #[pymodule_export]
    use super::veletas::decision::PyDecisionState;
    #[pymodule_export]
    use super::veletas::legal_moves::PyLegalMoves;
    #[pymodule_export]
    use super::veletas::moves::PyMove;
    #[pymodule_export]
    use super::veletas::playouts::run_playouts;
    #[pymodule_export]
    use super::veletas::vector_env::PyVectorEnv;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        use super::meridians;

        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        // Each game's classes keep their public names (`veletas.meridians.Board`
        // pickles as such); here they are prefixed with the game.
        let py = m.py();
        m.add("MeridiansBoard", py.get_type::<meridians::board::PyBoard>())?;
        m.add("MeridiansMove", py.get_type::<meridians::moves::PyMove>())?;
        m.add(
            "MeridiansLegalMoves",
            py.get_type::<meridians::legal_moves::PyLegalMoves>(),
        )?;
        m.add_class::<meridians::vector_env::PyVectorEnv>()?;
        m.add_class::<meridians::bots::PyMctsPlayer>()?;
        m.add_function(pyo3::wrap_pyfunction!(
            meridians::bots::meridians_random_move,
            m
        )?)?;
        m.add_function(pyo3::wrap_pyfunction!(
            meridians::bots::meridians_greedy_move,
            m
        )?)?;
        m.add_function(pyo3::wrap_pyfunction!(
            meridians::playouts::meridians_playouts,
            m
        )?)
    }
}
