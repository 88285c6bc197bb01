//! `veletas.VectorEnv`: many games of Veletas stepped at once, into numpy
//! buffers, with the GIL released.

use numpy::{
    PyArray1, PyArray2, PyArray4, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::base;
use super::board::{Given, parse_setup_rule};
use super::decision::PyDecisionState;
use super::error::{CoreError, IllegalMoveError};
use crate::game::Game;
use crate::vector_env::{Observe, Outputs, VectorEnv};
use crate::veletas::{DecisionState, Lines, Position, Rules};

/// `num_envs` games of the same rules, stepped together.
///
/// The env writes into arrays of its own and hands out read-only views of
/// them: observations are updated in place, one changed rank at a time, so
/// they must not change between steps.
#[pyclass(name = "VectorEnv", module = "veletas._veletas")]
pub struct PyVectorEnv {
    env: VectorEnv<DecisionState>,
    observations: Py<PyArray4<f32>>,
    masks: Py<PyArray2<i8>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    current_player: Py<PyArray1<i8>>,
    views: Views,
}

/// Read-only views of the buffers, as `reset` and `step` return them.
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

/// `value` as a u64, or a `ValueError` naming `what`.
fn unsigned(value: &Bound<'_, PyAny>, what: &str, least: u64) -> PyResult<u64> {
    let refuse = || {
        PyValueError::new_err(format!(
            "{what} must be an int from {least} to 2**64 - 1, got {}",
            value
                .repr()
                .map_or_else(|_| "?".to_owned(), |r| r.to_string())
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

/// The core rules of `Rules.make(variant, ...)`, which validates them.
fn make_rules<'py>(
    py: Python<'py>,
    variant: &Bound<'py, PyAny>,
    setup_rule: &Bound<'py, PyAny>,
    shooters_block: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
    shooters: Option<&Bound<'py, PyAny>>,
) -> PyResult<Rules> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("size", size)?;
    kwargs.set_item("shooters", shooters)?;
    kwargs.set_item("setup_rule", setup_rule)?;
    kwargs.set_item("shooters_block", shooters_block)?;
    let made = base::rules_type(py)?.call_method("make", (variant,), Some(&kwargs))?;
    let setup_rule = parse_setup_rule(&made.getattr("setup_rule")?.extract::<String>()?)?;
    let lines = Lines::from_shooters_block(made.getattr("shooters_block")?.extract()?);
    let rules = Rules::new(
        made.getattr("size")?.extract()?,
        made.getattr("shooters")?.extract()?,
        setup_rule,
        lines,
    )
    .map_err(CoreError::from)?;
    Ok(rules)
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

impl PyVectorEnv {
    /// Runs `f` on the core env and the buffers, with the GIL released.
    fn with_buffers<T: Send>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut VectorEnv<DecisionState>, &mut Outputs<'_>) -> T + Send,
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

    fn env_index(&self, index: &Bound<'_, PyAny>) -> PyResult<usize> {
        let n = self.env.num_envs();
        index
            .extract::<i64>()
            .ok()
            .and_then(|i| usize::try_from(i).ok())
            .filter(|&i| i < n)
            .ok_or_else(|| {
                PyIndexError::new_err(format!(
                    "env index {} is not in 0..{n}",
                    index
                        .repr()
                        .map_or_else(|_| "?".to_owned(), |r| r.to_string())
                ))
            })
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (
        num_envs,
        *,
        variant = Given::Default,
        seed = Given::Default,
        auto_reset = true,
        setup_rule = Given::Default,
        shooters_block = Given::Default,
        size = None,
        shooters = None,
    ), text_signature = "(num_envs, *, variant='standard', seed=0, auto_reset=True, \
                          setup_rule='perimeter', shooters_block=False, size=None, shooters=None)")]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
        py: Python<'py>,
        num_envs: &Bound<'py, PyAny>,
        variant: Given<'py>,
        seed: Given<'py>,
        auto_reset: bool,
        setup_rule: Given<'py>,
        shooters_block: Given<'py>,
        size: Option<&Bound<'py, PyAny>>,
        shooters: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyVectorEnv> {
        let num_envs = usize::try_from(unsigned(num_envs, "num_envs", 1)?)
            .map_err(|_| PyValueError::new_err("num_envs is too large"))?;
        let seed = unsigned(&seed.or(py, 0)?, "seed", 0)?;
        let rules = make_rules(
            py,
            &variant.or(py, "standard")?,
            &setup_rule.or(py, "perimeter")?,
            &shooters_block.or(py, false)?,
            size,
            shooters,
        )?;
        let start = DecisionState::new(Position::new(rules));
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
        let env = VectorEnv::new(start, num_envs, seed, auto_reset);
        let mut this = PyVectorEnv {
            env,
            observations: Bound::unbind(observations),
            masks: Bound::unbind(masks),
            rewards: Bound::unbind(rewards),
            terminated: Bound::unbind(terminated),
            current_player: Bound::unbind(current_player),
            views,
        };
        this.with_buffers(py, |env, out| env.reset(None, out))?;
        Ok(this)
    }

    /// Puts every env at the start of episode 0 (with a new `seed` if given);
    /// returns `(obs, mask, current_player)`.
    #[pyo3(signature = (*, seed = None))]
    fn reset<'py>(
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

    /// Takes `actions[k]` in env `k`, for every env; returns `(obs, mask,
    /// rewards, terminated, current_player)`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
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
                    .and_then(|s| s.repr())
                    .map_or_else(|_| "?".to_owned(), |r| r.to_string())
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
            let fen = self.env.state(bad.env).position().fen();
            return Err(IllegalMoveError::new_err(format!(
                "illegal action {} in env {} at '{fen}': legal actions are {:?}",
                bad.action, bad.env, bad.legal
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

    /// Each env's random action for its current decision, drawn from its
    /// episode's stream as the "micro" policy draws (-1 for a finished env);
    /// a new int64 array, the same until the next step or reset.
    fn random_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut actions = vec![0; self.env.num_envs()];
        self.env.random_actions(&mut actions);
        PyArray1::from_vec(py, actions)
    }

    /// A copy of env `index`'s current decision state.
    fn state(&self, index: &Bound<'_, PyAny>) -> PyResult<PyDecisionState> {
        Ok(PyDecisionState(*self.env.state(self.env_index(index)?)))
    }

    /// The episode env `index` is in, counted from 0 at the last reset.
    fn episode(&self, index: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.env.episode(self.env_index(index)?))
    }

    /// The number of envs.
    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }

    fn __len__(&self) -> usize {
        self.env.num_envs()
    }

    /// The number of action ids, N * N + 2.
    #[getter]
    fn num_actions(&self) -> usize {
        self.env.num_actions()
    }

    /// The shape of one observation, (12, N, N).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let [planes, height, width] = self.env.observation_shape();
        (planes, height, width)
    }

    /// The seed of the random streams of `random_actions`.
    #[getter]
    fn seed(&self) -> u64 {
        self.env.seed()
    }

    /// Whether a finished env restarts in the step that ends it.
    #[getter]
    fn auto_reset(&self) -> bool {
        self.env.auto_reset()
    }

    /// The rules of every env's game.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::rules(py, self.env.state(0).position().rules())
    }

    fn __repr__(&self) -> String {
        let rules = self.env.state(0).position().rules();
        format!(
            "VectorEnv({}, size={}, shooters={}, setup_rule='{}', shooters_block={}, seed={}, \
             auto_reset={})",
            self.env.num_envs(),
            rules.size(),
            rules.shooters(),
            rules.setup_rule().name(),
            if rules.lines().shooters_block() {
                "True"
            } else {
                "False"
            },
            self.env.seed(),
            if self.env.auto_reset() {
                "True"
            } else {
                "False"
            },
        )
    }
}
