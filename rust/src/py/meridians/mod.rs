//! The bindings of Meridians: `veletas.meridians.Board`, `Move` and
//! `LegalMoves` on the core of [`crate::meridians`], returning the plain
//! types of `veletas.games.meridians.types`.

pub mod board;
pub mod bots;
pub mod legal_moves;
pub mod moves;
pub mod playouts;
pub mod types;
pub mod vector_env;

use pyo3::prelude::*;

/// Adds Meridians's classes and functions to the extension module, prefixed
/// with the game (`MeridiansBoard`).
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    super::add_game(
        m,
        "Meridians",
        &[
            ("Board", py.get_type::<board::PyBoard>()),
            ("Move", py.get_type::<moves::PyMove>()),
            ("LegalMoves", py.get_type::<legal_moves::PyLegalMoves>()),
            ("VectorEnv", py.get_type::<vector_env::PyVectorEnv>()),
            ("MctsPlayer", py.get_type::<bots::PyMctsPlayer>()),
        ],
        &[
            pyo3::wrap_pyfunction!(bots::meridians_random_move, m)?,
            pyo3::wrap_pyfunction!(bots::meridians_greedy_move, m)?,
            pyo3::wrap_pyfunction!(bots::meridians_solve, m)?,
            pyo3::wrap_pyfunction!(playouts::meridians_playouts, m)?,
        ],
    )
}
