//! `veletas.VectorEnv`: many games of Veletas stepped at once, into numpy
//! buffers, with the GIL released.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::base;
use super::board::{Given, parse_setup_rule};
use super::decision::PyDecisionState;
use super::error::CoreError;
use crate::py::vector::{Envs, env_args, python_bool};
use crate::vector_env::VectorEnv;
use crate::veletas::{DecisionState, Lines, Position, Rules};

/// `num_envs` games of the same rules, stepped together.
///
/// The env writes into arrays of its own and hands out read-only views of
/// them: observations are updated in place, one changed rank at a time, so
/// they must not change between steps.
#[pyclass(name = "VectorEnv", module = "veletas._veletas")]
pub struct PyVectorEnv {
    envs: Envs<DecisionState>,
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
        let (num_envs, seed) = env_args(num_envs, &seed.or(py, 0)?)?;
        let rules = make_rules(
            py,
            &variant.or(py, "standard")?,
            &setup_rule.or(py, "perimeter")?,
            &shooters_block.or(py, false)?,
            size,
            shooters,
        )?;
        let start = DecisionState::new(Position::new(rules));
        let envs = Envs::new(py, start, num_envs, seed, auto_reset)?;
        Ok(PyVectorEnv { envs })
    }

    /// Puts every env at the start of episode 0 (with a new `seed` if given);
    /// returns `(obs, mask, current_player)`.
    #[pyo3(signature = (*, seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.envs.reset(py, seed)
    }

    /// Takes `actions[k]` in env `k`, for every env; returns `(obs, mask,
    /// rewards, terminated, current_player)`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        self.envs.step(py, actions, |state| state.position().fen())
    }

    /// Each env's random action for its current decision, drawn from its
    /// episode's stream as the "micro" policy draws (-1 for a finished env);
    /// a new int64 array, the same until the next step or reset.
    fn random_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.envs.random_actions(py)
    }

    /// A copy of env `index`'s current decision state.
    fn state(&self, index: &Bound<'_, PyAny>) -> PyResult<PyDecisionState> {
        Ok(PyDecisionState(*self.envs.state(index)?))
    }

    /// The episode env `index` is in, counted from 0 at the last reset.
    fn episode(&self, index: &Bound<'_, PyAny>) -> PyResult<u64> {
        self.envs.episode(index)
    }

    /// The number of envs.
    #[getter]
    fn num_envs(&self) -> usize {
        self.env().num_envs()
    }

    fn __len__(&self) -> usize {
        self.env().num_envs()
    }

    /// The number of action ids, N * N + 2.
    #[getter]
    fn num_actions(&self) -> usize {
        self.env().num_actions()
    }

    /// The shape of one observation, (12, N, N).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        self.envs.observation_shape()
    }

    /// The seed of the random streams of `random_actions`.
    #[getter]
    fn seed(&self) -> u64 {
        self.env().seed()
    }

    /// Whether a finished env restarts in the step that ends it.
    #[getter]
    fn auto_reset(&self) -> bool {
        self.env().auto_reset()
    }

    /// The rules of every env's game.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::rules(py, self.env().state(0).position().rules())
    }

    fn __repr__(&self) -> String {
        let rules = self.env().state(0).position().rules();
        format!(
            "VectorEnv({}, size={}, shooters={}, setup_rule='{}', shooters_block={}, seed={}, \
             auto_reset={})",
            self.env().num_envs(),
            rules.size(),
            rules.shooters(),
            rules.setup_rule().name(),
            python_bool(rules.lines().shooters_block()),
            self.env().seed(),
            python_bool(self.env().auto_reset()),
        )
    }
}

impl PyVectorEnv {
    fn env(&self) -> &VectorEnv<DecisionState> {
        self.envs.env()
    }
}
