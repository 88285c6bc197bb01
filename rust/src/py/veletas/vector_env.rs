//! `veletas.VectorEnv`: many games of Veletas stepped at once, into numpy
//! buffers, with the GIL released.

use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use super::base;
use super::board::{Given, PyBoard, parse_setup_rule, position_from_fen};
use super::decision::PyDecisionState;
use super::error::CoreError;
use crate::py::args::swap_in_move_stack;
use crate::py::errors::{InvalidFenError, InvalidRulesError};
use crate::py::vector::{
    Envs, env_args, env_methods, opponent_arg, python_bool, seat_arg, seat_repr,
};
use crate::vector_env::VectorEnv;
use crate::veletas::{DecisionState, Lines, Position, Rules, Stage};

/// The decision state a start of an env of `rules` names: a position string
/// (read under the rules' options), a board of either backend, or a
/// `DecisionState`; refused unless it is of these rules.
fn parse_start(value: &Bound<'_, PyAny>, rules: Rules) -> PyResult<DecisionState> {
    let state = if let Ok(state) = value.extract::<PyRef<'_, PyDecisionState>>() {
        state.0
    } else if let Ok(fen) = value.cast::<PyString>() {
        let position = position_from_fen(fen, rules.setup_rule(), rules.lines())?
            .with_claimed_shooters_block(rules.claimed_shooters_block());
        DecisionState::new(position)
    } else if let Ok(board) = value.extract::<PyRef<'_, PyBoard>>() {
        DecisionState::with_swapped(*board.position(), board.swap_in_stack())
    } else if value.hasattr("fen")? && value.hasattr("move_stack")? {
        // A board of the reference engine: its position string and swap.
        let fen = value.call_method0("fen")?;
        let position =
            position_from_fen(fen.cast::<PyString>()?, rules.setup_rule(), rules.lines())?
                .with_claimed_shooters_block(rules.claimed_shooters_block());
        DecisionState::with_swapped(position, swap_in_move_stack(value)?)
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a start is a position string, a Board or a DecisionState, not {}",
            value.get_type().name()?
        )));
    };
    let theirs = state.position().rules();
    if theirs != rules {
        return Err(InvalidRulesError::new_err(format!(
            "start {} is of other rules (size {}, {} shooters, setup rule '{}', shooters_block={}, \
             claimed_shooters_block={}) than the env's (size {}, {} shooters, setup rule '{}', \
             shooters_block={}, claimed_shooters_block={})",
            value.repr()?,
            theirs.size(),
            theirs.shooters(),
            theirs.setup_rule().name(),
            python_bool(theirs.lines().shooters_block()),
            python_bool(theirs.claimed_shooters_block()),
            rules.size(),
            rules.shooters(),
            rules.setup_rule().name(),
            python_bool(rules.lines().shooters_block()),
            python_bool(rules.claimed_shooters_block()),
        )));
    }
    Ok(state)
}

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
    claimed_shooters_block: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
    shooters: Option<&Bound<'py, PyAny>>,
) -> PyResult<Rules> {
    let kwargs = PyDict::new(py);
    kwargs.set_item("size", size)?;
    kwargs.set_item("shooters", shooters)?;
    kwargs.set_item("setup_rule", setup_rule)?;
    kwargs.set_item("shooters_block", shooters_block)?;
    kwargs.set_item("claimed_shooters_block", claimed_shooters_block)?;
    let made = base::rules_type(py)?.call_method("make", (variant,), Some(&kwargs))?;
    let setup_rule = parse_setup_rule(&made.getattr("setup_rule")?.extract::<String>()?)?;
    let lines = Lines::from_shooters_block(made.getattr("shooters_block")?.extract()?);
    let rules = Rules::new(
        made.getattr("size")?.extract()?,
        made.getattr("shooters")?.extract()?,
        setup_rule,
        lines,
    )
    .map_err(CoreError::from)?
    .with_claimed_shooters_block(made.getattr("claimed_shooters_block")?.extract()?);
    Ok(rules)
}

/// [`parse_start`], refused in the middle of a turn: the opponents choose
/// whole turns, from their start.
fn turn_start(value: &Bound<'_, PyAny>, rules: Rules) -> PyResult<DecisionState> {
    let state = parse_start(value, rules)?;
    if state.stage() != Stage::Start {
        return Err(InvalidFenError::new_err(format!(
            "start {}: a decision state in the middle of a turn; episodes start at the start \
             of a turn",
            value.repr()?
        )));
    }
    Ok(state)
}

env_methods!(PyVectorEnv, DecisionState, {
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
        opponent = None,
        learner_seat = Given::Default,
        start = None,
        claimed_shooters_block = Given::Default,
    ), text_signature = "(num_envs, *, variant='standard', seed=0, auto_reset=True, \
                          setup_rule='perimeter', shooters_block=False, size=None, shooters=None, \
                          opponent=None, learner_seat=0, start=None, \
                          claimed_shooters_block=False)")]
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
        opponent: Option<&Bound<'py, PyAny>>,
        learner_seat: Given<'py>,
        start: Option<&Bound<'py, PyAny>>,
        claimed_shooters_block: Given<'py>,
    ) -> PyResult<PyVectorEnv> {
        let (num_envs, seed) = env_args(num_envs, &seed.or(py, 0)?)?;
        let rules = make_rules(
            py,
            &variant.or(py, "standard")?,
            &setup_rule.or(py, "perimeter")?,
            &shooters_block.or(py, false)?,
            &claimed_shooters_block.or(py, false)?,
            size,
            shooters,
        )?;
        let opponent = opponent_arg::<DecisionState>(py, opponent)?;
        let learner_seat = seat_arg(&learner_seat.or(py, 0)?)?;
        let starts = start
            .map(|s| crate::py::vector::starts_arg(Some(s), num_envs, |v| turn_start(v, rules)))
            .transpose()?
            .flatten();
        let start = DecisionState::new(Position::new(rules));
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
        let rules = this.rules_core();
        let kwargs = PyDict::new(py);
        kwargs.set_item("size", rules.size())?;
        kwargs.set_item("shooters", rules.shooters())?;
        kwargs.set_item("setup_rule", rules.setup_rule().name())?;
        kwargs.set_item("shooters_block", rules.lines().shooters_block())?;
        kwargs.set_item("claimed_shooters_block", rules.claimed_shooters_block())?;
        kwargs.set_item("seed", this.env().seed())?;
        kwargs.set_item("auto_reset", this.env().auto_reset())?;
        kwargs.set_item("opponent", this.envs.opponent_spec())?;
        kwargs.set_item("learner_seat", this.envs.learner_seat(py)?)?;
        let saved = this
            .envs
            .saved(py, |state| PyDecisionState(*state).into_bound_py_any(py))?;
        let restore = slf.get_type().getattr("_restore")?;
        (restore, (this.env().num_envs(), kwargs, saved)).into_pyobject(py)
    }

    /// A copy of env `index`'s current decision state.
    fn state(&self, index: &Bound<'_, PyAny>) -> PyResult<PyDecisionState> {
        Ok(PyDecisionState(*self.envs.state(index)?))
    }

    /// The rules of every env's game.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::rules(py, self.env().state(0).position().rules())
    }

    fn __repr__(&self) -> String {
        let rules = self.rules_core();
        let opponent = self.envs.opponent_spec().map_or_else(String::new, |spec| {
            format!(
                ", opponent='{spec}', learner_seat={}",
                seat_repr(self.env().learner_seat())
            )
        });
        format!(
            "VectorEnv({}, size={}, shooters={}, setup_rule='{}', shooters_block={}, \
             claimed_shooters_block={}, seed={}, auto_reset={}{opponent})",
            self.env().num_envs(),
            rules.size(),
            rules.shooters(),
            rules.setup_rule().name(),
            python_bool(rules.lines().shooters_block()),
            python_bool(rules.claimed_shooters_block()),
            self.env().seed(),
            python_bool(self.env().auto_reset()),
        )
    }
});

impl PyVectorEnv {
    /// What reads an episode's start: [`turn_start`] under the envs' rules.
    fn episode_start_reader(
        &self,
    ) -> impl Fn(&Bound<'_, PyAny>) -> PyResult<DecisionState> + use<> {
        let rules = self.rules_core();
        move |value| turn_start(value, rules)
    }

    /// What reads a saved env's start: [`parse_start`] under the envs' rules.
    fn start_reader(&self) -> impl Fn(&Bound<'_, PyAny>) -> PyResult<DecisionState> + use<> {
        let rules = self.rules_core();
        move |value| parse_start(value, rules)
    }

    fn env(&self) -> &VectorEnv<DecisionState> {
        self.envs.env()
    }

    /// The rules of every env.
    fn rules_core(&self) -> Rules {
        self.env().start(0).position().rules()
    }
}
