//! The Python bindings: the only module that uses pyo3.
//!
//! Each game has its own room here (`veletas`, `meridians`), one file per
//! exposed type: they extract their inputs, call the game's core, and convert
//! the results to the game's plain Python types and the exceptions of
//! `veletas.errors` ([`errors`], shared by every game). What the games
//! expose alike is written once ([`bots`], [`vector`]) and each room
//! registers itself the same way ([`add_game`]).

mod args;
mod bots;
mod errors;
mod kernel;
mod meridians;
mod solve;
mod stop;
mod vector;
mod veletas;

use pyo3::prelude::*;

/// The native half of the `veletas` package: for each game, its `Board`,
/// `Move`, `LegalMoves`, `VectorEnv`, batch playouts and the bots' search
/// (and Veletas's `DecisionState`), each game registered by its room under
/// its prefix; and the generic `StopFlag` and kernel back-end choice.
#[pymodule(gil_used = false)]
mod _veletas {
    use pyo3::prelude::*;

    #[pymodule_export]
    use super::stop::PyStopFlag;

    #[pymodule_export]
    use super::solve::PySolverTable;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        super::kernel::register(m)?;
        super::veletas::register(m)?;
        super::meridians::register(m)
    }
}

/// Adds a game's classes and functions to the extension module: each class
/// as `prefix` + its role (`MeridiansBoard`), so that the class keeps its
/// public name (`veletas.meridians.Board` pickles as such); each function
/// under its own name.
fn add_game<'py>(
    m: &Bound<'py, PyModule>,
    prefix: &str,
    classes: &[(&str, Bound<'py, pyo3::types::PyType>)],
    functions: &[Bound<'py, pyo3::types::PyCFunction>],
) -> PyResult<()> {
    for (role, class) in classes {
        m.add(format!("{prefix}{role}"), class)?;
    }
    for function in functions {
        m.add_function(function.clone())?;
    }
    Ok(())
}
