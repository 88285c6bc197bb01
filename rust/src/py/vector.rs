//! What the `VectorEnv` bindings of every game share: a core
//! [`VectorEnv`] with the numpy arrays it writes into, their read-only
//! views, and the checks of the arguments.
//!
//! Each game's `VectorEnv` class holds an [`Envs`] of its state type and adds
//! its own constructor (the game's rules), `state` and `rules`.

use numpy::{
    PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::py::errors::IllegalMoveError;
use crate::vector_env::{Observe, Outputs, VectorEnv};

/// A core env and the numpy arrays it writes into.
///
/// The env writes into arrays of its own and hands out read-only views of
/// them: observations are updated in place, so they must not change between
/// steps.
pub struct Envs<G: Observe> {
    env: VectorEnv<G>,
    observations: Py<PyArray4<f32>>,
    masks: Py<PyArray2<i8>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    current_player: Py<PyArray1<i8>>,
    views: Views,
}

/// Read-only views of the arrays, as `reset` and `step` return them.
struct Views {
    observations: Py<PyAny>,
    masks: Py<PyAny>,
    rewards: Py<PyAny>,
    terminated: Py<PyAny>,
    current_player: Py<PyAny>,
}

/// A read-only view of `array`.
fn read_only(array: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let view = array.call_method0("view")?;
    view.getattr("flags")?.setattr("writeable", false)?;
    Ok(view.unbind())
}

/// The `repr` of `value`, for a message.
fn repr(value: &Bound<'_, PyAny>) -> String {
    value
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string())
}

/// `value` as a u64 of at least `least`, or a `ValueError` naming `what`.
pub fn unsigned(value: &Bound<'_, PyAny>, what: &str, least: u64) -> PyResult<u64> {
    let refuse = || {
        PyValueError::new_err(format!(
            "{what} must be an int from {least} to 2**64 - 1, got {}",
            repr(value)
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
    let num_envs = usize::try_from(unsigned(num_envs, "num_envs", 1)?)
        .map_err(|_| PyValueError::new_err("num_envs is too large"))?;
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
    G: Observe,
    G::Actions: Send,
{
    /// `num_envs` envs from `start`, reset: the arrays hold their first
    /// decisions.
    pub fn new(
        py: Python<'_>,
        start: G,
        num_envs: usize,
        seed: u64,
        auto_reset: bool,
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
        let views = Views {
            observations: read_only(observations.as_any())?,
            masks: read_only(masks.as_any())?,
            rewards: read_only(rewards.as_any())?,
            terminated: read_only(terminated.as_any())?,
            current_player: read_only(current_player.as_any())?,
        };
        let mut envs = Envs {
            env: VectorEnv::new(start, num_envs, seed, auto_reset),
            observations: Bound::unbind(observations),
            masks: Bound::unbind(masks),
            rewards: Bound::unbind(rewards),
            terminated: Bound::unbind(terminated),
            current_player: Bound::unbind(current_player),
            views,
        };
        envs.with_buffers(py, |env, out| env.reset(None, out))?;
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
        let mut outputs = Outputs {
            observations: observations.as_slice_mut()?,
            masks: masks.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            current_player: current_player.as_slice_mut()?,
        };
        let env = &mut self.env;
        Ok(py.detach(move || f(env, &mut outputs)))
    }

    /// `reset(*, seed=None)`: every env at the start of episode 0 (with a
    /// new seed if given); returns `(obs, mask, current_player)`.
    pub fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seed = seed.map(|s| unsigned(s, "seed", 0)).transpose()?;
        self.with_buffers(py, |env, out| env.reset(seed, out))?;
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
                    .map_or_else(|_| "?".to_owned(), |s| repr(&s))
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
        // A refused step changes nothing, so the env is as it was to describe.
        if let Err(bad) = self.with_buffers(py, |env, out| env.step(actions, out))? {
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
                PyIndexError::new_err(format!("env index {} is not in 0..{n}", repr(index)))
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
}

/// `True` or `False`, as a `repr` writes them.
pub fn python_bool(value: bool) -> &'static str {
    if value { "True" } else { "False" }
}
