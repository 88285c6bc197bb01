//! What the `VectorEnv` bindings of every game share: a core
//! [`VectorEnv`] with the numpy arrays it writes into, their read-only
//! views, and the checks of the arguments.
//!
//! Each game's `VectorEnv` class holds an [`Envs`] of its state type and adds
//! its own constructor (the game's rules), `state` and `rules`.

use numpy::{
    PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::evaluate::Evaluate;
use crate::game::Game;
use crate::mcts::{Algorithm, Config, DEFAULT_MAX_NODES, DEFAULT_SOLVE_SHARE};
use crate::py::args::search_budget;
use crate::py::errors::{IllegalMoveError, InvalidFenError, shown};
use crate::rng::Rng;
use crate::vector_env::{EnvState, LearnerSeat, Observe, Opponent, Opponents, Outputs, VectorEnv};

/// A core env and the numpy arrays it writes into.
///
/// The env writes into arrays of its own and hands out read-only views of
/// them: observations are updated in place, so they must not change between
/// steps.
pub struct Envs<G: Observe + Opponents> {
    env: VectorEnv<G>,
    observations: Py<PyArray4<f32>>,
    masks: Py<PyArray2<i8>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    current_player: Py<PyArray1<i8>>,
    final_observations: Py<PyArray4<f32>>,
    views: Views,
    /// The opponent as its spec, for `repr` and pickling.
    opponent_spec: Option<String>,
}

/// Read-only views of the arrays, as `reset` and `step` return them.
struct Views {
    observations: Py<PyAny>,
    masks: Py<PyAny>,
    rewards: Py<PyAny>,
    terminated: Py<PyAny>,
    current_player: Py<PyAny>,
    final_observations: Py<PyAny>,
}

/// A read-only view of `array`.
fn read_only(array: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let view = array.call_method0("view")?;
    view.getattr("flags")?.setattr("writeable", false)?;
    Ok(view.unbind())
}

/// `value` as a u64 of at least `least`, or a `ValueError` naming `what`.
pub fn unsigned(value: &Bound<'_, PyAny>, what: &str, least: u64) -> PyResult<u64> {
    let refuse = || {
        PyValueError::new_err(format!(
            "{what} must be an int from {least} to 2**64 - 1, got {}",
            shown(value)
        ))
    };
    match value.extract::<u64>() {
        Ok(n) if n >= least => Ok(n),
        Ok(_) => Err(refuse()),
        Err(err) if err.is_instance_of::<PyOverflowError>(value.py()) => Err(refuse()),
        Err(_) if value.extract::<i64>().is_ok() => Err(refuse()),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what} must be an int, not {}",
            value
                .get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |n| n.to_string())
        ))),
    }
}

/// The checked `num_envs` (at least 1) and `seed` of a constructor.
pub fn env_args(num_envs: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>) -> PyResult<(usize, u64)> {
    let num_envs = unsigned(num_envs, "num_envs", 1)?;
    if num_envs > crate::py::args::MAX_ENVS {
        return Err(PyValueError::new_err(format!(
            "num_envs must be 1 to {}, not {num_envs}",
            crate::py::args::MAX_ENVS
        )));
    }
    let num_envs =
        usize::try_from(num_envs).map_err(|_| PyValueError::new_err("num_envs is too large"))?;
    Ok((num_envs, unsigned(seed, "seed", 0)?))
}

/// `actions` as an int64 numpy array, or a `TypeError` if they are not
/// integers.
fn int64_array<'py>(py: Python<'py>, actions: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let numpy = py.import("numpy")?;
    let array = numpy.call_method1("asarray", (actions,))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(PyTypeError::new_err(format!(
            "actions must be integers, got an array of dtype {}",
            array.getattr("dtype")?.str()?
        )));
    }
    array.call_method1("astype", (numpy.getattr("int64")?,))
}

impl<G> Envs<G>
where
    G: Observe + Opponents,
    G::Actions: Send,
{
    /// `num_envs` envs from `start` (or from `starts`, one per env), with
    /// `opponent` (its spec) and the learner's seat, reset: the arrays hold
    /// their first decisions.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        py: Python<'_>,
        start: G,
        num_envs: usize,
        seed: u64,
        auto_reset: bool,
        opponent: Option<(Opponent, String)>,
        learner_seat: LearnerSeat,
        starts: Option<Vec<G>>,
    ) -> PyResult<Envs<G>> {
        let [planes, height, width] = start.observation_shape();
        let actions = start.num_actions();
        // numpy allocates first: a size too large for memory is a
        // MemoryError there, before the envs are built.
        let numpy = py.import("numpy")?;
        let zeros = |shape: Vec<usize>, dtype: &str| numpy.call_method1("zeros", (shape, dtype));
        let observations = zeros(vec![num_envs, planes, height, width], "float32")?.cast_into()?;
        let masks = zeros(vec![num_envs, actions], "int8")?.cast_into()?;
        let rewards = zeros(vec![num_envs, 2], "float32")?.cast_into()?;
        let terminated = zeros(vec![num_envs], "bool")?.cast_into()?;
        let current_player = zeros(vec![num_envs], "int8")?.cast_into()?;
        let final_observations =
            zeros(vec![num_envs, planes, height, width], "float32")?.cast_into()?;
        let views = Views {
            observations: read_only(observations.as_any())?,
            masks: read_only(masks.as_any())?,
            rewards: read_only(rewards.as_any())?,
            terminated: read_only(terminated.as_any())?,
            current_player: read_only(current_player.as_any())?,
            final_observations: read_only(final_observations.as_any())?,
        };
        let (opponent, opponent_spec) = opponent.unzip();
        let env =
            VectorEnv::with_opponent(start, num_envs, seed, auto_reset, opponent, learner_seat);
        let mut envs = Envs {
            env,
            observations: Bound::unbind(observations),
            masks: Bound::unbind(masks),
            rewards: Bound::unbind(rewards),
            terminated: Bound::unbind(terminated),
            current_player: Bound::unbind(current_player),
            final_observations: Bound::unbind(final_observations),
            views,
            opponent_spec,
        };
        envs.with_buffers(py, |env, out| env.reset(None, None, starts, out))?;
        Ok(envs)
    }

    /// The core env.
    pub fn env(&self) -> &VectorEnv<G> {
        &self.env
    }

    /// Runs `f` on the core env and the arrays, with the GIL released.
    fn with_buffers<T: Send>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut VectorEnv<G>, &mut Outputs<'_>) -> T + Send,
    ) -> PyResult<T> {
        let mut observations = self.observations.bind(py).readwrite();
        let mut masks = self.masks.bind(py).readwrite();
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut terminated = self.terminated.bind(py).readwrite();
        let mut current_player = self.current_player.bind(py).readwrite();
        let mut final_observations = self.final_observations.bind(py).readwrite();
        let mut outputs = Outputs {
            observations: observations.as_slice_mut()?,
            masks: masks.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            current_player: current_player.as_slice_mut()?,
            final_observations: final_observations.as_slice_mut()?,
        };
        let env = &mut self.env;
        Ok(py.detach(move || f(env, &mut outputs)))
    }

    /// `reset(*, seed=None, mask=None, start=None)`: every env (or those of
    /// `mask`) at the start of an episode, from `start` if given (read by
    /// `parse`); returns `(obs, mask, current_player)`. Every argument is
    /// checked before anything changes.
    pub fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        mask: Option<&Bound<'py, PyAny>>,
        start: Option<&Bound<'py, PyAny>>,
        parse: impl Fn(&Bound<'py, PyAny>) -> PyResult<G>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.env.num_envs();
        let seed = seed.map(|s| unsigned(s, "seed", 0)).transpose()?;
        let mask = mask.map(|m| bool_mask(py, m, n, "mask")).transpose()?;
        let starts = starts_arg(start, n, parse)?;
        self.with_buffers(py, |env, out| {
            env.reset(seed, mask.as_deref(), starts, out);
        })?;
        (
            self.views.observations.bind(py),
            self.views.masks.bind(py),
            self.views.current_player.bind(py),
        )
            .into_pyobject(py)
    }

    /// `step(actions)`: `actions[k]` in env `k`; returns `(obs, mask,
    /// rewards, terminated, current_player)`. An illegal action is an
    /// `IllegalMoveError` naming the env, the action and the env's position
    /// as `position` writes it, and changes nothing.
    pub fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        active: Option<&Bound<'py, PyAny>>,
        position: impl FnOnce(&G) -> String,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // The common case, a contiguous int64 array such as `random_actions()`
        // gives, is read as it is; anything else is converted first.
        let converted;
        let ready = actions
            .cast::<PyArray1<i64>>()
            .is_ok_and(PyUntypedArrayMethods::is_contiguous);
        let array = if ready {
            actions
        } else {
            converted = int64_array(py, actions)?;
            &converted
        };
        let actions: PyReadonlyArray1<'_, i64> = array.extract().map_err(|_| {
            PyValueError::new_err(format!(
                "actions must be one-dimensional, got shape {}",
                array
                    .getattr("shape")
                    .map_or_else(|_| "?".to_owned(), |s| shown(&s))
            ))
        })?;
        if actions.len() != self.env.num_envs() {
            return Err(PyValueError::new_err(format!(
                "expected one action per env ({}), got {}",
                self.env.num_envs(),
                actions.len()
            )));
        }
        let actions = actions.as_slice()?;
        let active = active
            .map(|a| bool_mask(py, a, self.env.num_envs(), "active"))
            .transpose()?;
        let stepped = self.with_buffers(py, |env, out| match &active {
            None => env.step(actions, out),
            Some(active) => env.step_some(actions, active, out),
        })?;
        // A refused step changes nothing, so the env is as it was to describe.
        if let Err(bad) = stepped {
            return Err(IllegalMoveError::new_err(format!(
                "illegal action {} in env {} at '{}': legal actions are {:?}",
                bad.action,
                bad.env,
                position(self.env.state(bad.env)),
                bad.legal
            )));
        }
        (
            self.views.observations.bind(py),
            self.views.masks.bind(py),
            self.views.rewards.bind(py),
            self.views.terminated.bind(py),
            self.views.current_player.bind(py),
        )
            .into_pyobject(py)
    }

    /// Each env's random action for its current decision (-1 for a finished
    /// env), as a new int64 array.
    pub fn random_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut actions = vec![0; self.env.num_envs()];
        self.env.random_actions(&mut actions);
        PyArray1::from_vec(py, actions)
    }

    /// The env `index` names, or an `IndexError`.
    pub fn env_index(&self, index: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n = self.env.num_envs();
        index
            .extract::<i64>()
            .ok()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < n)
            .ok_or_else(|| {
                PyIndexError::new_err(format!("env index {} is not in 0..{n}", shown(index)))
            })
    }

    /// The current state of env `index`.
    pub fn state(&self, index: &Bound<'_, PyAny>) -> PyResult<&G> {
        Ok(self.env.state(self.env_index(index)?))
    }

    /// The episode env `index` is in, counted from 0 at the last reset.
    pub fn episode(&self, index: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.env.episode(self.env_index(index)?))
    }

    /// The shape of one observation, as a tuple.
    pub fn observation_shape(&self) -> (usize, usize, usize) {
        let [planes, height, width] = self.env.observation_shape();
        (planes, height, width)
    }
    /// The observations of the final states of the episodes that ended in
    /// the last step (rows of the envs that did not end hold older data).
    pub fn final_observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        self.views.final_observations.bind(py).clone()
    }

    /// The opponent's spec, or `None` in self-play.
    pub fn opponent_spec(&self) -> Option<&str> {
        self.opponent_spec.as_deref()
    }

    /// The learner's seat: 0, 1 or `"alternate"`.
    pub fn learner_seat<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.env.learner_seat() {
            LearnerSeat::Fixed(seat) => seat.into_bound_py_any(py),
            LearnerSeat::Alternate => "alternate".into_bound_py_any(py),
        }
    }

    /// The learner's seat in env `index`'s current episode (with an
    /// opponent).
    pub fn seat(&self, index: &Bound<'_, PyAny>) -> PyResult<u8> {
        Ok(self.env.seat(self.env_index(index)?))
    }

    /// What `__reduce__` saves besides the constructor's arguments: each
    /// env's start and state (as `dump` writes them), episode, stream,
    /// random action, learner seat and opponent stream.
    pub fn saved<'py>(
        &self,
        py: Python<'py>,
        dump: impl Fn(&G) -> PyResult<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.env.num_envs();
        let starts = PyList::empty(py);
        let states = PyList::empty(py);
        let mut numbers: Vec<Saved> = Vec::with_capacity(n);
        for k in 0..n {
            let saved = self.env.env_state(k);
            starts.append(dump(self.env.start(k))?)?;
            states.append(dump(&saved.state)?)?;
            numbers.push((
                saved.episode,
                saved.rng.state(),
                saved.random_action,
                saved.seat,
                saved.opponent_rng.as_ref().map(Rng::state),
            ));
        }
        (starts, states, numbers).into_pyobject(py)
    }

    /// Puts back what [`Envs::saved`] saved, read by `load`, with
    /// `opponent`, and writes
    /// every env's outputs in full; a `ValueError` (and nothing changes)
    /// if it does not fit these envs.
    pub fn restore<'py>(
        &mut self,
        py: Python<'py>,
        opponent: Option<(Opponent, String)>,
        saved: &Bound<'py, PyAny>,
        load: impl Fn(&Bound<'py, PyAny>) -> PyResult<G>,
    ) -> PyResult<()> {
        let refuse =
            |why: &str| PyValueError::new_err(format!("cannot restore a VectorEnv: {why}"));
        let (starts, states, numbers): (
            Vec<Bound<'py, PyAny>>,
            Vec<Bound<'py, PyAny>>,
            Vec<Saved>,
        ) = saved.extract()?;
        let n = self.env.num_envs();
        if [starts.len(), states.len(), numbers.len()] != [n; 3] {
            return Err(refuse("one start, state and stream per env"));
        }
        let mut envs = Vec::with_capacity(n);
        for ((start, state), (episode, rng, random_action, seat, opponent_rng)) in
            starts.iter().zip(&states).zip(numbers)
        {
            let saved = EnvState {
                state: load(state)?,
                episode,
                rng: Rng::from_state(rng),
                random_action,
                seat,
                opponent_rng: opponent_rng.map(Rng::from_state),
            };
            envs.push((load(start)?, saved));
        }
        let (opponent, opponent_spec) = opponent.unzip();
        let mut restored = VectorEnv::with_opponent(
            envs[0].0.clone(),
            n,
            self.env.seed(),
            self.env.auto_reset(),
            opponent,
            self.env.learner_seat(),
        );
        for (k, (start, saved)) in envs.into_iter().enumerate() {
            if !restored.restore(k, start, saved) {
                return Err(refuse("an env state that no env gave"));
            }
        }
        self.env = restored;
        self.opponent_spec = opponent_spec;
        self.with_buffers(py, VectorEnv::rewrite)?;
        Ok(())
    }
}

/// What [`Envs::saved`] keeps of one env besides its start and state: its
/// episode, stream, random action, learner seat and opponent stream.
type Saved = (u64, u64, i64, u8, Option<u64>);

/// `value` as a bool array of `n` entries, or a typed error naming `what`.
fn bool_mask(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    n: usize,
    what: &str,
) -> PyResult<Vec<bool>> {
    let array = py.import("numpy")?.call_method1("asarray", (value,))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if kind != "b" {
        return Err(PyTypeError::new_err(format!(
            "{what} must be booleans, got an array of dtype {}",
            array.getattr("dtype")?.str()?
        )));
    }
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    if shape != [n] {
        return Err(PyValueError::new_err(format!(
            "{what} must have one entry per env ({n}), got shape {}",
            shown(&array.getattr("shape")?)
        )));
    }
    array.call_method0("tolist")?.extract()
}

/// The starts of `start`: `None`, one position (a `str`, a board or a
/// decision state) for every env, or a sequence of one per env; each read by `parse` and
/// refused if the game is over there.
pub fn starts_arg<'py, G: Game>(
    start: Option<&Bound<'py, PyAny>>,
    n: usize,
    parse: impl Fn(&Bound<'py, PyAny>) -> PyResult<G>,
) -> PyResult<Option<Vec<G>>> {
    let Some(start) = start else {
        return Ok(None);
    };
    let check = |value: &Bound<'py, PyAny>| -> PyResult<G> {
        let state = parse(value)?;
        if state.is_terminal() {
            return Err(InvalidFenError::new_err(format!(
                "start {}: the game is over there, so there is no decision to learn",
                shown(value)
            )));
        }
        Ok(state)
    };
    // A board has `fen`, a decision state `board`: one position for all.
    let single =
        start.is_instance_of::<PyString>() || start.hasattr("fen")? || start.hasattr("board")?;
    if single {
        return Ok(Some(vec![check(start)?; n]));
    }
    let Ok(items) = start.try_iter() else {
        return Err(PyTypeError::new_err(format!(
            "start must be a position string, a board or a sequence of one per env, not {}",
            shown(start)
        )));
    };
    let items: Vec<Bound<'py, PyAny>> = items.collect::<PyResult<_>>()?;
    if items.len() != n {
        return Err(PyValueError::new_err(format!(
            "start must give one position per env ({n}), got {}",
            items.len()
        )));
    }
    items.iter().map(check).collect::<PyResult<_>>().map(Some)
}

/// The opponent of `opponent`: `None`, or a spec of `veletas match`
/// (`"random"`, `"greedy"`, `"mcts"`, `"mcts:iterations=100,..."`) or its
/// `BotSpec`, with the spec as written.
pub fn opponent_arg<G: Evaluate>(
    py: Python<'_>,
    opponent: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<(Opponent, String)>> {
    let Some(opponent) = opponent else {
        return Ok(None);
    };
    let bot_spec = py.import("veletas.match")?.getattr("BotSpec")?;
    let spec = if opponent.is_instance_of::<PyString>() {
        bot_spec.call_method1("parse", (opponent,))?
    } else if opponent.is_instance(&bot_spec)? {
        opponent.clone()
    } else if opponent.is_callable() {
        return Err(PyTypeError::new_err(
            "a VectorEnv plays built-in opponents only ('random', 'greedy' or an mcts spec); \
             veletas.gymnasium.make_vec also takes a callable",
        ));
    } else {
        return Err(PyTypeError::new_err(format!(
            "opponent must be None, 'random', 'greedy' or an mcts spec such as \
             'mcts:iterations=100', not {}",
            shown(opponent)
        )));
    };
    let kind: String = spec.getattr("kind")?.extract()?;
    let written: String = spec.str()?.extract()?;
    let opponent = match kind.as_str() {
        "random" => Opponent::Random,
        "greedy" => Opponent::Greedy,
        _ => {
            let iterations: Option<u64> = spec.getattr("iterations")?.extract()?;
            let mut seconds: Option<f64> = spec.getattr("seconds")?.extract()?;
            if iterations.is_none() && seconds.is_none() {
                // `mcts` alone: the bots' default thinking time.
                seconds = Some(
                    py.import("veletas.bots")?
                        .getattr("DEFAULT_SECONDS")?
                        .extract()?,
                );
            }
            let exploration: Option<f64> = spec.getattr("exploration")?.extract()?;
            let cutoff: Option<u32> = spec.getattr("cutoff")?.extract()?;
            let algorithm = if kind == "uct" {
                Algorithm::Uct
            } else {
                Algorithm::Solver
            };
            let cutoff = cutoff.unwrap_or(G::CUTOFF);
            Opponent::Search {
                config: Config {
                    algorithm,
                    exploration,
                    threads: 1,
                    seed: 0,
                    max_nodes: DEFAULT_MAX_NODES,
                    solve_share: DEFAULT_SOLVE_SHARE,
                    cutoff,
                },
                budget: search_budget(iterations, seconds)?,
            }
        }
    };
    Ok(Some((opponent, written)))
}

/// The learner's seat of `seat`: 0, 1 or `"alternate"`.
pub fn seat_arg(seat: &Bound<'_, PyAny>) -> PyResult<LearnerSeat> {
    if let Ok(text) = seat.cast::<PyString>() {
        if text.to_str()? == "alternate" {
            return Ok(LearnerSeat::Alternate);
        }
    } else if !seat.is_instance_of::<pyo3::types::PyBool>() {
        if let Ok(n) = seat.extract::<i64>() {
            if let Ok(s @ 0..=1) = u8::try_from(n) {
                return Ok(LearnerSeat::Fixed(s));
            }
        }
    }
    Err(PyValueError::new_err(format!(
        "learner_seat must be 0, 1 or 'alternate', got {}",
        shown(seat)
    )))
}

/// The `repr` of a learner seat, as the constructor takes it.
pub fn seat_repr(seat: LearnerSeat) -> String {
    match seat {
        LearnerSeat::Fixed(seat) => seat.to_string(),
        LearnerSeat::Alternate => "'alternate'".to_owned(),
    }
}

/// `True` or `False`, as a `repr` writes them.
pub fn python_bool(value: bool) -> &'static str {
    if value { "True" } else { "False" }
}

/// The `#[pymethods]` of a game's env class, which has its [`Envs`] in the
/// field `envs`, reads an episode's start with `episode_start_reader()` and
/// a saved start with `start_reader()`: the game's own methods, given in
/// braces (the constructor, `state`, `rules`, `__reduce__`, `__repr__`), and
/// those every game's env has, written here once.
macro_rules! env_methods {
    ($class:ty, $game:ty, { $($own:tt)* }) => {
        #[::pyo3::pymethods]
        impl $class {
            $($own)*

            /// Puts every env (or those where `mask` is true) at the start of
            /// an episode, from `start` if given; returns `(obs, mask,
            /// current_player)`.
            #[pyo3(signature = (*, seed = None, mask = None, start = None))]
            fn reset<'py>(
                &mut self,
                py: ::pyo3::Python<'py>,
                seed: Option<&::pyo3::Bound<'py, ::pyo3::PyAny>>,
                mask: Option<&::pyo3::Bound<'py, ::pyo3::PyAny>>,
                start: Option<&::pyo3::Bound<'py, ::pyo3::PyAny>>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::types::PyTuple>> {
                let read = self.episode_start_reader();
                self.envs.reset(py, seed, mask, start, read)
            }

            /// Takes `actions[k]` in env `k`, for every env (or those where
            /// `active` is true); returns `(obs, mask, rewards, terminated,
            /// current_player)`.
            #[pyo3(signature = (actions, *, active = None))]
            fn step<'py>(
                &mut self,
                py: ::pyo3::Python<'py>,
                actions: &::pyo3::Bound<'py, ::pyo3::PyAny>,
                active: Option<&::pyo3::Bound<'py, ::pyo3::PyAny>>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::types::PyTuple>> {
                self.envs.step(py, actions, active, |state| state.position().fen())
            }

            /// The env `__reduce__` describes (not for direct use).
            #[staticmethod]
            fn _restore<'py>(
                py: ::pyo3::Python<'py>,
                num_envs: &::pyo3::Bound<'py, ::pyo3::PyAny>,
                kwargs: &::pyo3::Bound<'py, ::pyo3::types::PyDict>,
                saved: &::pyo3::Bound<'py, ::pyo3::PyAny>,
            ) -> ::pyo3::PyResult<::pyo3::Py<$class>> {
                use ::pyo3::types::{PyAnyMethods, PyDictMethods};
                // Built without its opponent, whose first turns a reset would
                // play for nothing, then given it back with the saved envs.
                let opponent = kwargs.get_item("opponent")?;
                let plain = kwargs.copy()?;
                plain.set_item("opponent", py.None())?;
                let env = py
                    .get_type::<$class>()
                    .call((num_envs,), Some(&plain))?
                    .cast_into::<$class>()?;
                {
                    let mut this = env.try_borrow_mut()?;
                    let read = this.start_reader();
                    let opponent = $crate::py::vector::opponent_arg::<$game>(
                        py,
                        opponent.as_ref().filter(|o| !o.is_none()),
                    )?;
                    this.envs.restore(py, opponent, saved, read)?;
                }
                Ok(env.unbind())
            }

            /// Each env's random action for its current decision, drawn
            /// from its episode's stream as the game's playouts draw (-1 for
            /// a finished env); a new int64 array, the same until the next
            /// step or reset.
            fn random_actions<'py>(
                &self,
                py: ::pyo3::Python<'py>,
            ) -> ::pyo3::Bound<'py, ::numpy::PyArray1<i64>> {
                self.envs.random_actions(py)
            }

            /// The episode env `index` is in, counted from 0 at the last reset.
            fn episode(&self, index: &::pyo3::Bound<'_, ::pyo3::PyAny>) -> ::pyo3::PyResult<u64> {
                self.envs.episode(index)
            }

            /// The observations of the final states of the episodes that
            /// ended in the last step, in the rows of the envs that ended.
            #[getter]
            fn final_observations<'py>(
                &self,
                py: ::pyo3::Python<'py>,
            ) -> ::pyo3::Bound<'py, ::pyo3::PyAny> {
                self.envs.final_observations(py)
            }

            /// The opponent's spec, or None in self-play.
            #[getter]
            fn opponent(&self) -> Option<&str> {
                self.envs.opponent_spec()
            }

            /// The learner's seat against the opponent: 0, 1 or "alternate".
            #[getter]
            fn learner_seat<'py>(
                &self,
                py: ::pyo3::Python<'py>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::PyAny>> {
                self.envs.learner_seat(py)
            }

            /// The learner's seat in env `index`'s current episode.
            fn seat(&self, index: &::pyo3::Bound<'_, ::pyo3::PyAny>) -> ::pyo3::PyResult<u8> {
                self.envs.seat(index)
            }

            /// The number of envs.
            #[getter]
            fn num_envs(&self) -> usize {
                self.envs.env().num_envs()
            }

            fn __len__(&self) -> usize {
                self.envs.env().num_envs()
            }

            /// The number of action ids.
            #[getter]
            fn num_actions(&self) -> usize {
                self.envs.env().num_actions()
            }

            /// The shape of one observation: (planes, height, width).
            #[getter]
            fn observation_shape(&self) -> (usize, usize, usize) {
                self.envs.observation_shape()
            }

            /// The seed of the random streams of `random_actions`.
            #[getter]
            fn seed(&self) -> u64 {
                self.envs.env().seed()
            }

            /// Whether a finished env restarts in the step that ends it.
            #[getter]
            fn auto_reset(&self) -> bool {
                self.envs.env().auto_reset()
            }
        }
    };
}

pub(crate) use env_methods;
