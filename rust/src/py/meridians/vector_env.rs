//! `veletas.VectorEnv(..., game="meridians")`: many games of Meridians
//! stepped at once, into numpy buffers, with the GIL released.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

use super::board::PyBoard;
use super::types;
use crate::meridians::{GameState, Position, Size};
use crate::py::args::Given;
use crate::py::vector::{Envs, env_args, python_bool};
use crate::vector_env::VectorEnv;

/// The module of the decision states that `state(k)` returns.
const ENCODING: &str = "veletas.games.meridians.encoding";

static DECISION_STATE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RULES: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `num_envs` games of Meridians of the same size and pie option, stepped
/// together.
///
/// The env writes into arrays of its own and hands out read-only views of
/// them: observations are updated in place, so they must not change between
/// steps.
#[pyclass(name = "MeridiansVectorEnv", module = "veletas._veletas")]
pub struct PyVectorEnv {
    envs: Envs<GameState>,
}

impl PyVectorEnv {
    fn env(&self) -> &VectorEnv<GameState> {
        self.envs.env()
    }

    /// A state of the envs' game: the size and the pie option never change.
    fn start(&self) -> &GameState {
        self.env().state(0)
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (num_envs, *, size = Given::Default, pie = Given::Default,
                        seed = Given::Default, auto_reset = true),
           text_signature = "(num_envs, *, size='6-7', pie=False, seed=0, auto_reset=True)")]
    fn new<'py>(
        py: Python<'py>,
        num_envs: &Bound<'py, PyAny>,
        size: Given<'py>,
        pie: Given<'py>,
        seed: Given<'py>,
        auto_reset: bool,
    ) -> PyResult<PyVectorEnv> {
        let (num_envs, seed) = env_args(num_envs, &seed.or(py, 0)?)?;
        let size = types::check_size(&size.or(py, Size::default().name())?)?;
        let pie = types::check_pie(&pie.or(py, false)?)?;
        let start = GameState::new(Position::new(size).with_pie(pie));
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
    /// episode's stream as the playouts draw (-1 for a finished env); a new
    /// int64 array, the same until the next step or reset.
    fn random_actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.envs.random_actions(py)
    }

    /// Env `index`'s current decision, as a
    /// `veletas.games.meridians.encoding.DecisionState` on a native board.
    fn state<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let state = self.envs.state(index)?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("swapped", state.swapped())?;
        DECISION_STATE
            .import(py, ENCODING, "DecisionState")?
            .call((PyBoard::from_position(*state.position()),), Some(&kwargs))
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

    /// The shape of one observation, (8, N, N).
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

    /// The rules of every env's game, a `veletas.games.meridians.types.Rules`.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let position = self.start().position();
        RULES
            .import(py, "veletas.games.meridians.types", "Rules")?
            .call1((position.size().name(), position.pie()))
    }

    fn __repr__(&self) -> String {
        let position = self.start().position();
        format!(
            "VectorEnv({}, game='meridians', size='{}', pie={}, seed={}, auto_reset={})",
            self.env().num_envs(),
            position.size(),
            python_bool(position.pie()),
            self.env().seed(),
            python_bool(self.env().auto_reset()),
        )
    }
}
