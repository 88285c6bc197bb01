//! `veletas._veletas.meridians_playouts`: random Meridians games through the
//! generic runner ([`crate::playout`]), as numpy arrays.

use std::num::NonZeroUsize;

use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::types;
use crate::meridians::{Color, GameState, Position};
use crate::playout::{Batch, play_micro};

/// Plays games `first_game .. first_game + n_games` of the run `seed` from
/// the start of `size` (under `pie`), each a uniformly random choice among
/// the legal moves at every turn (`crate::game::random_action`), on
/// `threads` threads (None: every core), without the GIL.
///
/// Returns a dict of numpy arrays: `winner` (int8: the seat that won, 0 for
/// the first player), `swapped` (bool), `plies` (int32) and `stones` (int8,
/// shape (n, 2): Light's and Dark's stones at the end).
#[pyfunction]
#[pyo3(signature = (*, size, pie, seed, first_game, n_games, threads))]
pub fn meridians_playouts<'py>(
    py: Python<'py>,
    size: &Bound<'py, PyAny>,
    pie: &Bound<'py, PyAny>,
    seed: u64,
    first_game: u64,
    n_games: usize,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let start =
        GameState::new(Position::new(types::check_size(size)?).with_pie(types::check_pie(pie)?));
    let threads = match threads {
        None => None,
        Some(0) => return Err(PyValueError::new_err("threads must be at least 1, not 0")),
        Some(t) => NonZeroUsize::new(t),
    };
    let batch = Batch {
        seed,
        first_game,
        n_games,
    };
    let games = py
        .detach(|| {
            batch.run(threads, |rng| {
                let mut state = start;
                let plies = play_micro(&mut state, rng, |_, _| {});
                let position = state.position();
                let stones = [Color::Light, Color::Dark].map(|c| position.stone_count(c) as i8);
                (
                    state.winner().map_or(-1, |seat| seat as i8),
                    state.swapped(),
                    plies as i32,
                    stones,
                )
            })
        })
        .map_err(|err| PyRuntimeError::new_err(format!("no thread pool: {err}")))?;
    let n = games.len();
    let out = PyDict::new(py);
    out.set_item(
        "winner",
        games
            .iter()
            .map(|g| g.0)
            .collect::<Vec<_>>()
            .into_pyarray(py),
    )?;
    out.set_item(
        "swapped",
        games
            .iter()
            .map(|g| g.1)
            .collect::<Vec<_>>()
            .into_pyarray(py),
    )?;
    out.set_item(
        "plies",
        games
            .iter()
            .map(|g| g.2)
            .collect::<Vec<_>>()
            .into_pyarray(py),
    )?;
    let stones: Vec<i8> = games.iter().flat_map(|g| g.3).collect();
    out.set_item("stones", stones.into_pyarray(py).reshape([n, 2])?)?;
    Ok(out)
}
