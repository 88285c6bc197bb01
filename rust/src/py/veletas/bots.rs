//! The engines behind `veletas.bots`: the Monte Carlo tree search player and
//! the random and greedy move choices.
//!
//! Positions arrive as a position string with the rule options (so boards of
//! either backend can be played), and moves leave as notation text.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pyo3::prelude::*;
use pyo3::types::PyString;

use super::super::stop::PyStopFlag;
use super::board::{parse_setup_rule, position_from_fen};
use crate::game::Game;
use crate::mcts::DEFAULT_MAX_NODES;
use crate::py::args::{search_budget, search_config};
use crate::rng::Rng;
use crate::veletas::bots::{MctsPlayer, greedy_move as core_greedy, random_move as core_random};
use crate::veletas::{DecisionState, Lines, Position};

/// The position of `fen` under the given options.
fn position(
    fen: &Bound<'_, PyString>,
    setup_rule: &str,
    shooters_block: bool,
    claimed_shooters_block: bool,
) -> PyResult<Position> {
    let setup_rule = parse_setup_rule(setup_rule)?;
    let position = position_from_fen(fen, setup_rule, Lines::from_shooters_block(shooters_block))?;
    Ok(position.with_claimed_shooters_block(claimed_shooters_block))
}

/// What a search reports: the move, the iterations, the estimated chance of
/// winning, whether earlier statistics were reused, and the nodes held.
type Choice = (String, u64, f64, bool, usize);

/// What an analysis reports: each move with its visits and value, the
/// visits of the position, and the iterations this call ran.
type Analysed = (Vec<(String, u64, f64)>, u64, u64);

/// The Monte Carlo tree search player; it keeps its trees between calls.
#[pyclass(name = "MctsPlayer", module = "veletas._veletas")]
pub struct PyMctsPlayer {
    player: MctsPlayer,
}

#[pymethods]
impl PyMctsPlayer {
    #[new]
    #[pyo3(signature = (*, threads = 1, seed = 0, exploration = DecisionState::EXPLORATION, max_nodes = DEFAULT_MAX_NODES))]
    fn new(
        threads: usize,
        seed: u64,
        exploration: f64,
        max_nodes: usize,
    ) -> PyResult<PyMctsPlayer> {
        Ok(PyMctsPlayer {
            player: MctsPlayer::new(search_config(threads, seed, exploration, max_nodes)?),
        })
    }

    /// Searches the turn of `fen` and returns `(move, iterations, value,
    /// reused, nodes)`, or None at the end of the game. The search runs
    /// without the GIL, and ends early once `stop` is raised.
    #[pyo3(signature = (fen, setup_rule, shooters_block, claimed_shooters_block, swapped, *, iterations = None, seconds = None, stop = None))]
    #[allow(clippy::too_many_arguments)]
    fn choose(
        &mut self,
        py: Python<'_>,
        fen: &Bound<'_, PyString>,
        setup_rule: &str,
        shooters_block: bool,
        claimed_shooters_block: bool,
        swapped: bool,
        iterations: Option<u64>,
        seconds: Option<f64>,
        stop: Option<PyRef<'_, PyStopFlag>>,
    ) -> PyResult<Option<Choice>> {
        let position = position(fen, setup_rule, shooters_block, claimed_shooters_block)?;
        let budget = search_budget(iterations, seconds)?;
        let state = DecisionState::with_swapped(position, swapped);
        let stop = stop.map_or_else(|| Arc::new(AtomicBool::new(false)), |s| s.shared());
        let player = &mut self.player;
        let info = py.detach(|| player.choose_until(state, budget, &stop));
        Ok(info.map(|info| {
            (
                info.chosen.to_string(),
                info.iterations(),
                info.value(),
                info.reused,
                self.player.node_count(),
            )
        }))
    }

    /// Searches the turn of `fen` without playing and returns `(moves,
    /// visits, iterations)`: the `top` most visited whole moves, each as
    /// `(move, visits, value)` (value: the estimated chance that the player
    /// to act wins after it), the visits of the position, and the iterations
    /// this call ran. None at the end of the game. The trees stay at `fen`.
    #[pyo3(signature = (fen, setup_rule, shooters_block, claimed_shooters_block, swapped, *, iterations = None, seconds = None, stop = None, top = 5))]
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &mut self,
        py: Python<'_>,
        fen: &Bound<'_, PyString>,
        setup_rule: &str,
        shooters_block: bool,
        claimed_shooters_block: bool,
        swapped: bool,
        iterations: Option<u64>,
        seconds: Option<f64>,
        stop: Option<PyRef<'_, PyStopFlag>>,
        top: usize,
    ) -> PyResult<Option<Analysed>> {
        let position = position(fen, setup_rule, shooters_block, claimed_shooters_block)?;
        let budget = search_budget(iterations, seconds)?;
        let state = DecisionState::with_swapped(position, swapped);
        let stop = stop.map_or_else(|| Arc::new(AtomicBool::new(false)), |s| s.shared());
        let player = &mut self.player;
        let analysis = py.detach(|| player.analyse(state, budget, &stop, top));
        Ok(analysis.map(|analysis| {
            let moves = analysis
                .moves
                .into_iter()
                .map(|(m, visits, value)| (m.to_string(), visits, value))
                .collect();
            (moves, analysis.visits, analysis.search.iterations)
        }))
    }

    /// Forgets the trees.
    fn clear(&mut self) {
        self.player.clear();
    }
}

/// A uniformly random legal move of `fen`, drawn from stream `(seed, index)`;
/// None at the end of the game.
#[pyfunction]
pub fn random_move(
    fen: &Bound<'_, PyString>,
    setup_rule: &str,
    shooters_block: bool,
    claimed_shooters_block: bool,
    seed: u64,
    index: u64,
) -> PyResult<Option<String>> {
    let position = position(fen, setup_rule, shooters_block, claimed_shooters_block)?;
    let mut rng = Rng::for_game(seed, index);
    Ok(core_random(&position, &mut rng).map(|m| m.to_string()))
}

/// The one-ply greedy move of `fen`, ties broken from stream `(seed,
/// index)`; None at the end of the game.
#[pyfunction]
pub fn greedy_move(
    py: Python<'_>,
    fen: &Bound<'_, PyString>,
    setup_rule: &str,
    shooters_block: bool,
    claimed_shooters_block: bool,
    seed: u64,
    index: u64,
) -> PyResult<Option<String>> {
    let position = position(fen, setup_rule, shooters_block, claimed_shooters_block)?;
    let mut rng = Rng::for_game(seed, index);
    Ok(py
        .detach(|| core_greedy(&position, &mut rng))
        .map(|m| m.to_string()))
}
