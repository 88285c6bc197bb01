//! Arguments that the bindings of every game read alike.

use std::num::NonZeroUsize;
use std::time::Duration;

use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::mcts::{Algorithm, Budget, Config};
use crate::playout::Batch;
use crate::py::errors::{LimitError, shown};

/// An optional keyword argument whose every given value, `None` included,
/// is checked (unlike `Option`, which would take `None` for "not given").
pub enum Given<'py> {
    /// Not passed: the default applies.
    Default,
    /// Passed, with this value.
    Value(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Given<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Given<'py>> {
        Ok(Given::Value(obj.to_owned()))
    }
}

impl<'py> Given<'py> {
    pub fn or(
        self,
        py: Python<'py>,
        default: impl IntoPyObject<'py>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Given::Value(value) => Ok(value),
            Given::Default => Ok(default.into_bound_py_any(py)?),
        }
    }
}

/// Whether the pie swap is among the moves of `board`'s `move_stack` (a
/// board of either engine: the reference's has no native position to ask).
pub fn swap_in_move_stack(board: &Bound<'_, PyAny>) -> PyResult<bool> {
    let mut swapped = false;
    for m in board.getattr("move_stack")?.try_iter()? {
        swapped |= m?.getattr("is_swap")?.is_truthy()?;
    }
    Ok(swapped)
}

/// The most threads a search may ask for (`veletas.limits.MAX_THREADS`).
pub const MAX_THREADS: usize = 256;

/// The most envs of one vector env (`veletas.limits.MAX_ENVS`).
pub const MAX_ENVS: u64 = 100_000;

/// A checked search configuration of the bots of every game; without an
/// `exploration`, the search takes the one tuned for the game, the
/// algorithm and the cutoff ([`Config::default_exploration`]).
pub fn search_config(
    algorithm: &str,
    threads: usize,
    seed: u64,
    exploration: Option<f64>,
    max_nodes: usize,
    solve_share: f64,
    cutoff: u32,
) -> PyResult<Config> {
    let Some(algorithm) = Algorithm::from_name(algorithm) else {
        return Err(PyValueError::new_err(format!(
            "algorithm must be 'mcts' or 'uct', not {algorithm:?}"
        )));
    };
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1, got 0"));
    }
    if threads > MAX_THREADS {
        return Err(PyValueError::new_err(format!(
            "threads must be 1 to {MAX_THREADS}, not {threads}"
        )));
    }
    if let Some(exploration) = exploration
        && !(exploration.is_finite() && exploration >= 0.0)
    {
        return Err(PyValueError::new_err(format!(
            "exploration must be a finite number of 0 or more, got {exploration}"
        )));
    }
    if !(1..=MAX_TREE_NODES).contains(&max_nodes) {
        return Err(LimitError::new_err(format!(
            "max_nodes must be 1 to {MAX_TREE_NODES}, not {max_nodes}"
        )));
    }
    if !(0.0..=1.0).contains(&solve_share) {
        return Err(PyValueError::new_err(format!(
            "solve_share must be a number of 0 to 1, got {solve_share}"
        )));
    }
    if cutoff > MAX_CUTOFF {
        return Err(LimitError::new_err(format!(
            "cutoff must be 0 to {MAX_CUTOFF}, not {cutoff}"
        )));
    }
    Ok(Config {
        algorithm,
        exploration,
        threads,
        seed,
        max_nodes,
        solve_share,
        cutoff,
    })
}

/// The most random decisions of a playout before the estimate scores it
/// (`veletas.limits.MAX_CUTOFF`).
pub const MAX_CUTOFF: u32 = 1_000_000;

/// The most nodes of one search tree (`veletas.limits.MAX_TREE_NODES`):
/// the tree numbers its nodes in 32 bits.
pub const MAX_TREE_NODES: usize = 1 << 31;

/// The shortest search budget in seconds (`veletas.limits.MIN_SECONDS`).
pub const MIN_SECONDS: f64 = 1e-6;

/// The longest search budget in seconds (`veletas.limits.MAX_SECONDS`).
pub const MAX_SECONDS: f64 = 1e6;

/// The most iterations of one search (`veletas.limits.MAX_ITERATIONS`).
pub const MAX_ITERATIONS: u64 = 1_000_000_000_000;

/// A search budget: iterations, seconds, or both (whichever runs out first),
/// each within the limits of `veletas.limits` (a `LimitError` otherwise).
pub fn search_budget(iterations: Option<u64>, seconds: Option<f64>) -> PyResult<Budget> {
    let time = match seconds {
        None => None,
        Some(s) => match Duration::try_from_secs_f64(s) {
            Ok(time) if (MIN_SECONDS..=MAX_SECONDS).contains(&s) => Some(time),
            _ => {
                return Err(LimitError::new_err(format!(
                    "seconds must be a number of {MIN_SECONDS:e} to {MAX_SECONDS:e}, not {s:e}"
                )));
            }
        },
    };
    if let Some(count) = iterations
        && !(1..=MAX_ITERATIONS).contains(&count)
    {
        return Err(LimitError::new_err(format!(
            "iterations must be 1 to {MAX_ITERATIONS}, not {count}"
        )));
    }
    if iterations.is_none() && time.is_none() {
        return Err(PyValueError::new_err(
            "a search needs a budget: iterations of 1 or more, or seconds above 0",
        ));
    }
    Ok(Budget { iterations, time })
}

/// The games `first_game .. first_game + n_games` of the run `seed`, and
/// the threads to play them on (None: every core), of a playouts call.
pub fn batch_args(
    seed: u64,
    first_game: u64,
    n_games: usize,
    threads: Option<usize>,
) -> PyResult<(Batch, Option<NonZeroUsize>)> {
    if n_games > 0 && first_game.checked_add(n_games as u64 - 1).is_none() {
        return Err(PyValueError::new_err(format!(
            "games {first_game} .. {first_game} + {n_games} go past the last game index 2**64 - 1"
        )));
    }
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
    Ok((batch, threads))
}

/// A `perft` depth (any Python integer) of at least `least`, else a
/// `ValueError` saying `what`; beyond `u32::MAX` it is clamped,
/// which changes nothing since a game ends long before.
pub fn depth_arg(depth: &Bound<'_, PyAny>, least: i64, what: &str) -> PyResult<u32> {
    let depth = depth
        .py()
        .import("operator")?
        .call_method1("index", (depth,))?;
    if depth.lt(least)? {
        return Err(PyValueError::new_err(format!(
            "{what}, got {}",
            shown(&depth)
        )));
    }
    Ok(depth
        .extract::<u64>()
        .map_or(u32::MAX, |d| u32::try_from(d).unwrap_or(u32::MAX)))
}
