//! `veletas._veletas.run_playouts`: a batch of random games as numpy arrays.
//!
//! The Python function `veletas.playouts` checks and converts its arguments,
//! then calls this once per range of games.

use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use super::board::{parse_setup_rule, position_from_fen};
use crate::py::args::batch_args;
use crate::veletas::Lines;
use crate::veletas::playout::{Policy, playouts};

/// Play games `first_game .. first_game + n_games` of the run `seed` from the
/// position `fen` (under `setup_rule`, `shooters_block` and
/// `claimed_shooters_block`; `swapped` says
/// whether the pie swap led to it) with `policy`, on `threads` threads (None:
/// every core), with the GIL released.
///
/// Returns a dict of numpy arrays: `winner` (int8), `swapped` (bool),
/// `plies` (int32), `claims` (int8, shape (n, 2)), and with `record`, `moves`
/// (int8, shape (m, 4): kind, origin, destination, target) and `offsets`
/// (int64, n + 1 entries).
#[pyfunction]
#[pyo3(signature = (
    fen, *, setup_rule, shooters_block, swapped, policy, seed, first_game, n_games, threads, record,
    claimed_shooters_block = false
))]
#[allow(clippy::too_many_arguments)]
#[expect(
    clippy::fn_params_excessive_bools,
    reason = "the keyword arguments of the Python function"
)]
pub fn run_playouts<'py>(
    py: Python<'py>,
    fen: &Bound<'py, PyString>,
    setup_rule: &str,
    shooters_block: bool,
    swapped: bool,
    policy: &str,
    seed: u64,
    first_game: u64,
    n_games: usize,
    threads: Option<usize>,
    record: bool,
    claimed_shooters_block: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let setup_rule = parse_setup_rule(setup_rule)?;
    let lines = Lines::from_shooters_block(shooters_block);
    let start = position_from_fen(fen, setup_rule, lines)?
        .with_claimed_shooters_block(claimed_shooters_block);
    let policy: Policy = policy.parse().map_err(|_| {
        PyValueError::new_err(format!(
            "unknown policy '{policy}'; expected 'micro' or 'uniform'"
        ))
    })?;
    let (batch, threads) = batch_args(seed, first_game, n_games, threads)?;
    let games = py
        .detach(|| playouts(start, swapped, policy, batch, threads, record))
        .map_err(|err| PyRuntimeError::new_err(format!("no thread pool: {err}")))?;

    let n = games.winner.len();
    let out = PyDict::new(py);
    out.set_item("winner", games.winner.into_pyarray(py))?;
    out.set_item("swapped", games.swapped.into_pyarray(py))?;
    out.set_item("plies", games.plies.into_pyarray(py))?;
    let claims: Vec<i8> = games.claims.into_iter().flatten().collect();
    out.set_item("claims", claims.into_pyarray(py).reshape([n, 2])?)?;
    if record {
        let m = games.moves.len();
        let moves: Vec<i8> = games.moves.into_iter().flatten().collect();
        out.set_item("moves", moves.into_pyarray(py).reshape([m, 4])?)?;
        out.set_item("offsets", games.offsets.into_pyarray(py))?;
    }
    Ok(out)
}
