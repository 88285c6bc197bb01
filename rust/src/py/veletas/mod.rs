//! The bindings of Veletas: one file per exposed type, plus the playouts,
//! bots, `VectorEnv` and symmetries instantiated for the game.

pub mod base;
pub mod board;
pub mod bots;
pub mod decision;
pub mod error;
pub mod legal_moves;
pub mod moves;
pub mod playouts;
pub mod symmetry;
pub mod vector_env;

use pyo3::prelude::*;

/// Adds Veletas's classes and functions to the extension module; the
/// default game, it has no prefix (`Board`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    super::add_game(
        m,
        "",
        &[
            ("Board", py.get_type::<board::PyBoard>()),
            ("Move", py.get_type::<moves::PyMove>()),
            ("LegalMoves", py.get_type::<legal_moves::PyLegalMoves>()),
            ("DecisionState", py.get_type::<decision::PyDecisionState>()),
            ("VectorEnv", py.get_type::<vector_env::PyVectorEnv>()),
            ("MctsPlayer", py.get_type::<bots::PyMctsPlayer>()),
        ],
        &[
            pyo3::wrap_pyfunction!(bots::random_move, m)?,
            pyo3::wrap_pyfunction!(bots::greedy_move, m)?,
            pyo3::wrap_pyfunction!(bots::solve, m)?,
            pyo3::wrap_pyfunction!(playouts::run_playouts, m)?,
            pyo3::wrap_pyfunction!(symmetry::canonical_fen, m)?,
        ],
    )
}
