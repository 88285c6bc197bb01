//! `veletas._veletas.meridians_playouts`: random Meridians games (the
//! room's loop, [`crate::meridians::playout`]) through the generic batch
//! runner ([`crate::playout`]), as numpy arrays.

use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::board::position_from_fen;
use super::types;
use crate::meridians::playout::play_random_game;
use crate::meridians::{Color, DecisionState, Move};
use crate::py::args::batch_args;

/// The record of a move: its point number (`rank * 14 + file`), or
/// [`SWAP_RECORD`] / [`KEEP_RECORD`].
fn record_of(m: Move) -> i16 {
    match m {
        Move::Place(point) => point.number() as i16,
        Move::Swap => SWAP_RECORD,
        Move::Keep => KEEP_RECORD,
    }
}

/// The record of `swap`.
const SWAP_RECORD: i16 = -1;
/// The record of `keep`.
const KEEP_RECORD: i16 = -2;

/// Plays games `first_game .. first_game + n_games` of the run `seed` from
/// the position `fen` (under `pie`; `swapped` says whether the pie swap led
/// to it), each a uniformly random choice among the legal moves at every
/// turn ([`crate::game::random_action`]: the `k`-th legal move in ascending
/// action id, `k = below(count)`), on `threads` threads (None: every core),
/// without the GIL.
///
/// Returns a dict of numpy arrays: `winner` (int8: 0 Light, 1 Dark),
/// `swapped` (bool), `plies` (int32), `stones` (int8, shape (n, 2): Light's
/// and Dark's stones at the end), and with `record`, `moves` (int16 point
/// numbers, -1 for swap, -2 for keep) and `offsets` (int64, n + 1 entries).
#[pyfunction]
#[pyo3(signature = (fen, *, pie, swapped, seed, first_game, n_games, threads, record))]
#[allow(clippy::too_many_arguments)]
pub fn meridians_playouts<'py>(
    py: Python<'py>,
    fen: &Bound<'py, PyAny>,
    pie: &Bound<'py, PyAny>,
    swapped: bool,
    seed: u64,
    first_game: u64,
    n_games: usize,
    threads: Option<usize>,
    record: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let start =
        DecisionState::with_swapped(position_from_fen(fen, types::check_pie(pie)?)?, swapped);
    let (batch, threads) = batch_args(seed, first_game, n_games, threads)?;
    let games = py
        .detach(|| {
            batch.run(threads, |rng| {
                let mut state = start;
                let mut moves = Vec::new();
                let plies = if record {
                    play_random_game(&mut state, rng, |state, action| {
                        let m = state.move_of(action).expect("a legal action");
                        moves.push(record_of(m));
                    })
                } else {
                    play_random_game(&mut state, rng, |_, _| {})
                };
                let position = state.position();
                let stones = [Color::Light, Color::Dark].map(|c| position.stone_count(c) as i8);
                let winner = position.winner().map_or(-1, |color| color.index() as i8);
                (winner, state.swapped(), plies as i32, stones, moves)
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
    if record {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0_i64);
        let mut moves = Vec::with_capacity(games.iter().map(|g| g.4.len()).sum());
        for game in &games {
            moves.extend_from_slice(&game.4);
            offsets.push(moves.len() as i64);
        }
        out.set_item("moves", moves.into_pyarray(py))?;
        out.set_item("offsets", offsets.into_pyarray(py))?;
    }
    Ok(out)
}
