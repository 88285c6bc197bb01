//! `veletas.DecisionState`: a position plus the part of the turn chosen so
//! far, stepped one action id at a time.

use std::hash::{DefaultHasher, Hash, Hasher};

use numpy::{PyArray1, PyArrayMethods};
use pyo3::IntoPyObjectExt;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::base;
use super::board::PyBoard;
use super::board::{parse_setup_rule, position_from_fen};
use super::error::{CoreError, IllegalMoveError};
use super::moves::PyMove;
use crate::py::errors::shown;
use crate::veletas::decision::{Action, square_id};
use crate::veletas::observation::{PLANES, observation_len, write_mask};
use crate::veletas::{DecisionState, Lines, Move, SetupRule, Square, Stage};

/// A decision of a game: the position at the start of the turn, the partial
/// turn, and whether the pie swap was played.
#[pyclass(name = "DecisionState", module = "veletas._veletas")]
#[derive(Clone, Copy)]
pub struct PyDecisionState(pub DecisionState);

/// The type name of `value`, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// `action` (any object with `__index__`) as an id, if it is one of the
/// N * N + 2 ids at all; `Ok(None)` for an integer that is not.
fn action_id(action: &Bound<'_, PyAny>, num_actions: usize) -> PyResult<Option<Action>> {
    match action.extract::<i64>() {
        Ok(id) => Ok(usize::try_from(id)
            .ok()
            .filter(|&id| id < num_actions)
            .map(|id| id as Action)),
        Err(err) if err.is_instance_of::<PyOverflowError>(action.py()) => Ok(None),
        Err(_) => Err(PyTypeError::new_err(format!(
            "an action is an int, not {}",
            type_name(action)
        ))),
    }
}

impl PyDecisionState {
    fn stage_name(&self) -> &'static str {
        match self.0.stage() {
            Stage::Start => "start",
            Stage::Destination { .. } => "destination",
            Stage::Target { .. } => "target",
        }
    }

    /// The partial turn as the actions that led to it from the turn's start.
    fn partial_actions(&self) -> Vec<Action> {
        let size = self.0.size();
        match self.0.stage() {
            Stage::Start => vec![],
            Stage::Destination { origin } => vec![square_id(origin, size)],
            Stage::Target { moved: None } => vec![(size * size) as Action],
            Stage::Target {
                moved: Some((origin, destination)),
            } => vec![square_id(origin, size), square_id(destination, size)],
        }
    }

    /// Where the turn stands, for messages: the fen and the partial turn.
    fn describe(&self) -> String {
        let name = |square: Square| square.to_string();
        let partial = match self.0.stage() {
            Stage::Start => String::new(),
            Stage::Destination { origin } => format!(", shooter {} chosen", name(origin)),
            Stage::Target { moved: None } => ", PASS chosen".to_owned(),
            Stage::Target {
                moved: Some((origin, destination)),
            } => format!(", shooter {} to {} chosen", name(origin), name(destination)),
        };
        format!("'{}'{partial}", self.0.position().fen())
    }

    fn illegal(&self, action: &Bound<'_, PyAny>) -> PyErr {
        let legal: Vec<Action> = self.0.legal_actions().iter().collect();
        IllegalMoveError::new_err(format!(
            "illegal action {} in {}: legal actions are {legal:?}",
            shown(action),
            self.describe()
        ))
    }
}

#[pymethods]
impl PyDecisionState {
    #[new]
    #[pyo3(signature = (board, *, swapped = None))]
    fn new(board: &Bound<'_, PyAny>, swapped: Option<bool>) -> PyResult<PyDecisionState> {
        let board = board.cast::<PyBoard>().map_err(|_| {
            PyTypeError::new_err(format!(
                "a DecisionState starts from a veletas Board, not {}",
                type_name(board)
            ))
        })?;
        let board = board.try_borrow()?;
        let swapped = swapped.unwrap_or_else(|| board.swap_in_stack());
        Ok(PyDecisionState(DecisionState::with_swapped(
            *board.position(),
            swapped,
        )))
    }

    /// A copy of the position at the start of the turn (with no move stack).
    #[getter]
    fn board(&self) -> PyBoard {
        PyBoard::from_position(*self.0.position())
    }

    /// N: the board has N x N squares.
    #[getter]
    fn size(&self) -> u32 {
        self.0.size()
    }

    /// The number of action ids, N * N + 2.
    #[getter]
    fn num_actions(&self) -> u32 {
        self.0.size() * self.0.size() + 2
    }

    /// The id of "no shooter move", N * N.
    #[getter]
    fn pass_action(&self) -> u32 {
        self.0.size() * self.0.size()
    }

    /// The id of the pie swap, N * N + 1.
    #[getter]
    fn swap_action(&self) -> u32 {
        self.0.size() * self.0.size() + 1
    }

    /// How far the turn has got: "start", "destination" or "target".
    #[getter]
    fn stage(&self) -> &'static str {
        self.stage_name()
    }

    /// The square of the shooter chosen this turn, or None.
    #[getter]
    fn origin(&self) -> Option<u32> {
        match self.0.stage() {
            Stage::Destination { origin }
            | Stage::Target {
                moved: Some((origin, _)),
            } => Some(origin.number()),
            _ => None,
        }
    }

    /// The destination chosen this turn, or None.
    #[getter]
    fn destination(&self) -> Option<u32> {
        match self.0.stage() {
            Stage::Target {
                moved: Some((_, destination)),
            } => Some(destination.number()),
            _ => None,
        }
    }

    /// The legal action ids of this decision, ascending.
    fn legal_actions(&self) -> Vec<Action> {
        self.0.legal_actions().iter().collect()
    }

    /// 1 for each legal action id, 0 for the others (int8, N * N + 2 entries).
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = vec![0; self.num_actions() as usize];
        write_mask(&self.0.legal_actions(), &mut mask);
        PyArray1::from_vec(py, mask)
    }

    /// Takes `action`; returns the completed move when it ends the turn,
    /// otherwise None.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<Option<PyMove>> {
        let Some(id) = action_id(action, self.num_actions() as usize)? else {
            return Err(self.illegal(action));
        };
        if !self.0.legal_actions().contains(id) {
            return Err(self.illegal(action));
        }
        let completed = self.0.move_of(id);
        self.0.apply_unchecked(id);
        Ok(completed.map(PyMove))
    }

    /// Whether the game is over: a colour has won, or (only in hand-made
    /// positions) there is no legal action.
    fn is_terminal(&self) -> bool {
        self.0.is_terminal()
    }

    /// The colour holding K // 2 + 1 claims, or None.
    #[getter]
    fn winner<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::optional_color(py, self.0.position().winner())
    }

    /// The colour to act.
    #[getter]
    fn turn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::color(py, self.0.position().turn())
    }

    /// The seat to act: 0 for the first player, 1 for the second.
    #[getter]
    fn seat_to_act(&self) -> usize {
        self.0.seat_to_act()
    }

    /// Whether the pie swap was played (the first player is then White).
    #[getter]
    fn swapped(&self) -> bool {
        self.0.swapped()
    }

    /// The actions that play `move` from the start of the turn.
    fn actions_of(&self, r#move: &Bound<'_, PyAny>) -> PyResult<Vec<Action>> {
        let m = r#move.cast::<PyMove>().map_err(|_| {
            PyTypeError::new_err(format!("expected a Move, not {}", type_name(r#move)))
        })?;
        let m: Move = m.get().0;
        let mut position = *self.0.position();
        position.play(m).map_err(CoreError::from)?;
        Ok(self.0.actions_of(m))
    }

    /// The observation planes (float32, shape (12, N, N)) seen from the
    /// player to act; the table is in docs/rl.md.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let size = self.0.size() as usize;
        let mut planes = vec![0.0; observation_len(self.0.size())];
        self.0.write_observation(&mut planes);
        Ok(PyArray1::from_vec(py, planes)
            .reshape([PLANES, size, size])?
            .into_any())
    }

    /// An independent copy.
    fn copy(&self) -> PyDecisionState {
        *self
    }

    fn __copy__(&self) -> PyDecisionState {
        *self
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyDecisionState {
        *self
    }

    fn __richcmp__(
        &self,
        other: &Bound<'_, PyAny>,
        op: CompareOp,
        py: Python<'_>,
    ) -> PyResult<Py<PyAny>> {
        let Ok(other) = other.cast::<PyDecisionState>() else {
            return Ok(py.NotImplemented());
        };
        let equal = self.0 == other.try_borrow()?.0;
        match op {
            CompareOp::Eq => equal.into_py_any(py),
            CompareOp::Ne => (!equal).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.0.hash(&mut hasher);
        hasher.finish()
    }

    fn __repr__(&self) -> String {
        let rules = self.0.position().rules();
        let mut options = String::new();
        if rules.setup_rule() == SetupRule::Spacing {
            options.push_str(", setup_rule='spacing'");
        }
        if rules.lines().shooters_block() {
            options.push_str(", shooters_block=True");
        }
        if rules.claimed_shooters_block() {
            options.push_str(", claimed_shooters_block=True");
        }
        format!(
            "<DecisionState of Board('{}'{options}), swapped={}, stage='{}', partial actions {:?}>",
            self.0.position().fen(),
            if self.0.swapped() { "True" } else { "False" },
            self.stage_name(),
            self.partial_actions()
        )
    }

    /// Pickles as the position string, options, swap flag and partial turn.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        let rules = this.0.position().rules();
        let args = (
            this.0.position().fen(),
            rules.setup_rule().name(),
            rules.lines().shooters_block(),
            this.0.swapped(),
            this.partial_actions(),
            rules.claimed_shooters_block(),
        );
        (slf.get_type().getattr("_restore")?, args).into_pyobject(py)
    }

    /// The state `__reduce__` describes (not for direct use).
    #[staticmethod]
    #[pyo3(signature = (fen, setup_rule, shooters_block, swapped, actions, claimed_shooters_block = false))]
    fn _restore(
        fen: &Bound<'_, PyString>,
        setup_rule: &str,
        shooters_block: bool,
        swapped: bool,
        actions: Vec<Action>,
        claimed_shooters_block: bool,
    ) -> PyResult<PyDecisionState> {
        let setup_rule = parse_setup_rule(setup_rule)?;
        let lines = Lines::from_shooters_block(shooters_block);
        let position = position_from_fen(fen, setup_rule, lines)?
            .with_claimed_shooters_block(claimed_shooters_block);
        let mut state = DecisionState::with_swapped(position, swapped);
        for action in actions {
            state.apply(action).map_err(|error| {
                IllegalMoveError::new_err(format!("cannot restore a DecisionState: {error}"))
            })?;
        }
        Ok(PyDecisionState(state))
    }
}
