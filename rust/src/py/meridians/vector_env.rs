//! `veletas.VectorEnv(..., game="meridians")`: many games of Meridians
//! stepped at once, into numpy buffers, with the GIL released.

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

use super::board::{PyBoard, position_from_fen};
use super::types;
use crate::meridians::{DecisionState, Position, Size};
use crate::py::args::{Given, swap_in_move_stack};
use crate::py::errors::InvalidRulesError;
use crate::py::vector::{
    Envs, env_args, env_methods, opponent_arg, python_bool, seat_arg, seat_repr, starts_arg,
};
use crate::vector_env::VectorEnv;

/// The decision a start of an env of `size` and `pie` names: a position
/// string, a board of either engine, a decision state of the encoding, or
/// (as pickles save them) a `(fen, swapped)` pair; refused unless it is of
/// the env's size and pie option.
fn parse_start(value: &Bound<'_, PyAny>, size: Size, pie: bool) -> PyResult<DecisionState> {
    let state = if value.is_instance_of::<PyString>() {
        DecisionState::new(position_from_fen(value, pie)?)
    } else if let Ok(board) = value.extract::<PyRef<'_, PyBoard>>() {
        let swapped = swap_in_move_stack(value)?;
        DecisionState::with_swapped(*board.position(), swapped)
    } else if let Ok((fen, swapped)) = value.extract::<(Bound<'_, PyString>, bool)>() {
        DecisionState::with_swapped(position_from_fen(fen.as_any(), pie)?, swapped)
    } else if value.hasattr("fen")? && value.hasattr("move_stack")? {
        // A board of the reference engine.
        let fen = value.call_method0("fen")?;
        let swapped = swap_in_move_stack(value)?;
        DecisionState::with_swapped(position_from_fen(&fen, pie)?, swapped)
    } else if value.hasattr("board")? && value.hasattr("swapped")? {
        // A decision state of the encoding: its board and swap.
        let board = value.getattr("board")?;
        let fen = board.call_method0("fen")?;
        let swapped = value.getattr("swapped")?.is_truthy()?;
        DecisionState::with_swapped(position_from_fen(&fen, pie)?, swapped)
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a start is a position string or a meridians Board, not {}",
            value.get_type().name()?
        )));
    };
    let position = state.position();
    if position.size() != size || position.pie() != pie {
        return Err(InvalidRulesError::new_err(format!(
            "start {} is of other rules (size '{}', pie={}) than the env's (size '{}', pie={})",
            value.repr()?,
            position.size(),
            python_bool(position.pie()),
            size,
            python_bool(pie),
        )));
    }
    Ok(state)
}

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
    envs: Envs<DecisionState>,
}

impl PyVectorEnv {
    /// What reads an episode's start: the same as a saved start.
    fn episode_start_reader(
        &self,
    ) -> impl Fn(&Bound<'_, PyAny>) -> PyResult<DecisionState> + use<> {
        self.start_reader()
    }

    /// What reads a saved env's start: [`parse_start`] for the envs' size
    /// and pie option.
    fn start_reader(&self) -> impl Fn(&Bound<'_, PyAny>) -> PyResult<DecisionState> + use<> {
        let (size, pie) = self.size_and_pie();
        move |value| parse_start(value, size, pie)
    }

    fn env(&self) -> &VectorEnv<DecisionState> {
        self.envs.env()
    }

    /// A state of the envs' game: the size and the pie option never change.
    fn start(&self) -> &DecisionState {
        self.env().start(0)
    }

    /// The envs' board size and pie option.
    fn size_and_pie(&self) -> (Size, bool) {
        let position = self.start().position();
        (position.size(), position.pie())
    }
}

env_methods!(PyVectorEnv, DecisionState, {
    #[new]
    #[pyo3(signature = (num_envs, *, size = Given::Default, pie = Given::Default,
                        seed = Given::Default, auto_reset = true, opponent = None,
                        learner_seat = Given::Default, start = None),
           text_signature = "(num_envs, *, size='6-7', pie=False, seed=0, auto_reset=True, \
                             opponent=None, learner_seat=0, start=None)")]
    #[allow(clippy::too_many_arguments)]
    fn new<'py>(
        py: Python<'py>,
        num_envs: &Bound<'py, PyAny>,
        size: Given<'py>,
        pie: Given<'py>,
        seed: Given<'py>,
        auto_reset: bool,
        opponent: Option<&Bound<'py, PyAny>>,
        learner_seat: Given<'py>,
        start: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<PyVectorEnv> {
        let (num_envs, seed) = env_args(num_envs, &seed.or(py, 0)?)?;
        let size = types::check_size(&size.or(py, Size::default().name())?)?;
        let pie = types::check_pie(&pie.or(py, false)?)?;
        let opponent = opponent_arg::<DecisionState>(py, opponent)?;
        let learner_seat = seat_arg(&learner_seat.or(py, 0)?)?;
        let starts = starts_arg(start, num_envs, |v| parse_start(v, size, pie))?;
        let start = DecisionState::new(Position::new(size).with_pie(pie));
        let envs = Envs::new(
            py,
            start,
            num_envs,
            seed,
            auto_reset,
            opponent,
            learner_seat,
            starts,
        )?;
        Ok(PyVectorEnv { envs })
    }

    /// Pickles as the constructor's arguments and every env's start, state,
    /// episode and streams: unpickled, it steps on as this one would (but
    /// for a search opponent, which starts from empty trees).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.try_borrow()?;
        let (size, pie) = this.size_and_pie();
        let kwargs = PyDict::new(py);
        kwargs.set_item("size", size.name())?;
        kwargs.set_item("pie", pie)?;
        kwargs.set_item("seed", this.env().seed())?;
        kwargs.set_item("auto_reset", this.env().auto_reset())?;
        kwargs.set_item("opponent", this.envs.opponent_spec())?;
        kwargs.set_item("learner_seat", this.envs.learner_seat(py)?)?;
        let saved = this.envs.saved(py, |state| {
            (state.position().fen(), state.swapped()).into_bound_py_any(py)
        })?;
        let restore = slf.get_type().getattr("_restore")?;
        (restore, (this.env().num_envs(), kwargs, saved)).into_pyobject(py)
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
        let opponent = self.envs.opponent_spec().map_or_else(String::new, |spec| {
            format!(
                ", opponent='{spec}', learner_seat={}",
                seat_repr(self.env().learner_seat())
            )
        });
        format!(
            "VectorEnv({}, game='meridians', size='{}', pie={}, seed={}, auto_reset={}{opponent})",
            self.env().num_envs(),
            position.size(),
            python_bool(position.pie()),
            self.env().seed(),
            python_bool(self.env().auto_reset()),
        )
    }
});
