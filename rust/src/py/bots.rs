//! The engines behind `veletas.bots`, written once for every game: the
//! Monte Carlo tree search player ([`crate::player::MctsPlayer`]) as a
//! class, and the random and greedy move choices as functions.
//!
//! Positions arrive as a position string with the game's rule options (so
//! boards of either backend can be played), and moves leave as notation.
//! A game's bindings instantiate the two macros with its names, its rule
//! options and how they make its decision state.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use pyo3::prelude::*;

use crate::mcts::Budget;
use crate::player::{MctsPlayer, Turns};
use crate::py::args::search_budget;
use crate::py::stop::PyStopFlag;
use crate::solver::Solvable;

/// What a search reports: the move, the iterations, the estimated chance of
/// winning, whether earlier statistics were reused, and the nodes held.
pub type Choice = (String, u64, f64, bool, usize);

/// What an analysis reports: each move with its visits, value and what is
/// proven of it (`Some(true)` a win for the player to act), the visits of
/// the position, the iterations this call ran, and the principal variation.
pub type Analysed = (Vec<(String, u64, f64, Option<bool>)>, u64, u64, Vec<String>);

/// The budget and the stop flag of a search call.
fn budget_and_stop(
    iterations: Option<u64>,
    seconds: Option<f64>,
    stop: Option<PyRef<'_, PyStopFlag>>,
) -> PyResult<(Budget, Arc<AtomicBool>)> {
    let budget = search_budget(iterations, seconds)?;
    let stop = stop.map_or_else(|| Arc::new(AtomicBool::new(false)), |s| s.shared());
    Ok((budget, stop))
}

/// [`MctsPlayer::choose_until`] of `state`, without the GIL.
pub fn choose<G: Turns + Solvable>(
    py: Python<'_>,
    player: &mut MctsPlayer<G>,
    state: G,
    iterations: Option<u64>,
    seconds: Option<f64>,
    stop: Option<PyRef<'_, PyStopFlag>>,
) -> PyResult<Option<Choice>> {
    let (budget, stop) = budget_and_stop(iterations, seconds, stop)?;
    let info = py.detach(|| player.choose_until(state, budget, &stop));
    Ok(info.map(|info| {
        (
            info.chosen.to_string(),
            info.iterations(),
            info.value(),
            info.reused,
            player.node_count(),
        )
    }))
}

/// [`MctsPlayer::analyse`] of `state`, without the GIL.
#[allow(clippy::too_many_arguments)]
pub fn analyse<G: Turns + Solvable>(
    py: Python<'_>,
    player: &mut MctsPlayer<G>,
    state: G,
    iterations: Option<u64>,
    seconds: Option<f64>,
    stop: Option<PyRef<'_, PyStopFlag>>,
    top: usize,
) -> PyResult<Option<Analysed>> {
    let (budget, stop) = budget_and_stop(iterations, seconds, stop)?;
    let analysis = py.detach(|| player.analyse(state, budget, &stop, top));
    Ok(analysis.map(|analysis| {
        let iterations = analysis.iterations();
        let moves = analysis
            .moves
            .into_iter()
            .map(|s| (s.chosen.to_string(), s.visits, s.value, s.proven))
            .collect();
        let line = analysis
            .principal_variation
            .iter()
            .map(ToString::to_string)
            .collect();
        (moves, analysis.visits, iterations, line)
    }))
}

/// Defines a game's two searches, which read a position alike: its exact
/// solver, the function `$solve` ([`crate::py::solve::solve_function`]),
/// and `PyMctsPlayer`, the class of its search player under its Python
/// name; given the decision state they search and the arguments that give
/// the position (`fen`, the game's rule options and `swapped`), with the
/// expression that makes the state of them.
macro_rules! search_bindings {
    (
        $name:literal,
        $solve:ident,
        $state:ty,
        ($($arg:ident: $arg_ty:ty),+) => $state_of:expr
    ) => {
        $crate::py::solve::solve_function!($solve, ($($arg: $arg_ty),+) => $state_of);

        /// The Monte Carlo tree search player; it keeps its trees between
        /// calls.
        #[pyo3::pyclass(name = $name, module = "veletas._veletas")]
        pub struct PyMctsPlayer {
            player: $crate::player::MctsPlayer<$state>,
        }

        #[pyo3::pymethods]
        impl PyMctsPlayer {
            /// The UCT constant when none is given: the game's, for the
            /// default search (`mcts` with its cutoff).
            #[classattr]
            const DEFAULT_EXPLORATION: f64 = $crate::mcts::Config::default_exploration::<$state>(
                $crate::mcts::Algorithm::Solver,
                <$state as $crate::evaluate::Evaluate>::CUTOFF,
            );

            /// The UCT constant when none is given to a search whose
            /// playouts run to the end (`uct`, or `mcts` with a cutoff of
            /// 0): the game's.
            #[classattr]
            const UCT_EXPLORATION: f64 = <$state as $crate::game::Game>::EXPLORATION;

            /// The random decisions of a cut playout when no `cutoff` is
            /// given: the game's.
            #[classattr]
            const DEFAULT_CUTOFF: u32 = <$state as $crate::evaluate::Evaluate>::CUTOFF;

            #[new]
            #[pyo3(signature = (
                *,
                algorithm = "mcts",
                threads = 1,
                seed = 0,
                exploration = None,
                max_nodes = $crate::mcts::DEFAULT_MAX_NODES,
                solve_share = $crate::mcts::DEFAULT_SOLVE_SHARE,
                cutoff = Self::DEFAULT_CUTOFF,
            ))]
            fn new(
                algorithm: &str,
                threads: usize,
                seed: u64,
                exploration: Option<f64>,
                max_nodes: usize,
                solve_share: f64,
                cutoff: u32,
            ) -> pyo3::PyResult<PyMctsPlayer> {
                Ok(PyMctsPlayer {
                    player: $crate::player::MctsPlayer::new($crate::py::args::search_config(
                        algorithm,
                        threads,
                        seed,
                        exploration,
                        max_nodes,
                        solve_share,
                        cutoff,
                    )?),
                })
            }

            /// Searches the turn of `fen` (`swapped`: whether the pie swap
            /// was played) and returns `(move, iterations, value, reused,
            /// nodes)`, or None at the end of the game. The search runs
            /// without the GIL, and ends early once `stop` is raised.
            #[pyo3(signature = ($($arg),+, *, iterations = None, seconds = None, stop = None))]
            #[allow(clippy::too_many_arguments)]
            fn choose(
                &mut self,
                py: pyo3::Python<'_>,
                $($arg: $arg_ty,)+
                iterations: Option<u64>,
                seconds: Option<f64>,
                stop: Option<pyo3::PyRef<'_, $crate::py::stop::PyStopFlag>>,
            ) -> pyo3::PyResult<Option<$crate::py::bots::Choice>> {
                let state: $state = $state_of;
                $crate::py::bots::choose(py, &mut self.player, state, iterations, seconds, stop)
            }

            /// Searches the turn of `fen` without playing and returns
            /// `(moves, visits, iterations, line)`: the `top` most visited
            /// whole moves, each as `(move, visits, value, proven)` (value:
            /// the estimated chance that the player to act wins after it;
            /// proven: True a proven win for that player, False a proven
            /// loss, None neither), the visits of the position, the
            /// iterations this call ran, and the principal variation as
            /// moves. None at the end of the game. The trees stay at `fen`.
            #[pyo3(signature = ($($arg),+, *, iterations = None, seconds = None, stop = None, top = 5))]
            #[allow(clippy::too_many_arguments)]
            fn analyse(
                &mut self,
                py: pyo3::Python<'_>,
                $($arg: $arg_ty,)+
                iterations: Option<u64>,
                seconds: Option<f64>,
                stop: Option<pyo3::PyRef<'_, $crate::py::stop::PyStopFlag>>,
                top: usize,
            ) -> pyo3::PyResult<Option<$crate::py::bots::Analysed>> {
                let state: $state = $state_of;
                $crate::py::bots::analyse(py, &mut self.player, state, iterations, seconds, stop, top)
            }

            /// Forgets the trees.
            fn clear(&mut self) {
                self.player.clear();
            }
        }
    };
}

/// Defines a game's random and greedy move functions under their Python
/// names: the arguments that give the position (`fen` and the game's rule
/// options), the expression that makes the position of them, and the
/// game's `random_move` and `greedy_move`.
macro_rules! move_choices {
    (
        $random:ident, $greedy:ident,
        ($($arg:ident: $arg_ty:ty),+) => $position_of:expr,
        $core_random:path, $core_greedy:path
    ) => {
        /// A uniformly random legal move of `fen`, drawn from stream
        /// `(seed, index)`; None at the end of the game.
        #[pyo3::pyfunction]
        pub fn $random(
            $($arg: $arg_ty,)+
            seed: u64,
            index: u64,
        ) -> pyo3::PyResult<Option<String>> {
            let position = $position_of;
            let mut rng = $crate::rng::Rng::for_game(seed, index);
            Ok($core_random(&position, &mut rng).map(|m| m.to_string()))
        }

        /// The one-ply greedy move of `fen`, ties broken from stream
        /// `(seed, index)`; None at the end of the game.
        #[pyo3::pyfunction]
        pub fn $greedy(
            py: pyo3::Python<'_>,
            $($arg: $arg_ty,)+
            seed: u64,
            index: u64,
        ) -> pyo3::PyResult<Option<String>> {
            let position = $position_of;
            let mut rng = $crate::rng::Rng::for_game(seed, index);
            Ok(py
                .detach(|| $core_greedy(&position, &mut rng))
                .map(|m| m.to_string()))
        }
    };
}

pub(crate) use {move_choices, search_bindings};
