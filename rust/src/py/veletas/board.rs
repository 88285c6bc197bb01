//! `veletas.Board`: a position with its rule options and move stack.

use std::hash::{Hash, Hasher};

use pyo3::IntoPyObjectExt;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::base;
use super::error::{CoreError, InvalidMoveError, InvalidRulesError, fen_text};
use super::legal_moves::PyLegalMoves;
use super::moves::{PyMove, move_text, parse_move};
use crate::py::args::depth_arg;
use crate::py::errors::shown;
use crate::veletas::{Lines, Move, Piece, Position, Rules, SetupRule, Square, perft, perft_divide};

pub use crate::py::args::Given;

/// The type name of `value`, for messages.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A position of Veletas with its rule options and the moves that led to it.
#[pyclass(name = "Board", module = "veletas._veletas")]
#[derive(Clone)]
pub struct PyBoard {
    position: Position,
    /// Each pushed move with the position before it.
    stack: Vec<(Move, Position)>,
}

impl PyBoard {
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// A board in `position`, with an empty move stack.
    pub fn from_position(position: Position) -> PyBoard {
        PyBoard {
            position,
            stack: Vec::new(),
        }
    }

    /// Whether the pie swap is among the pushed moves.
    pub fn swap_in_stack(&self) -> bool {
        self.stack.iter().any(|(m, _)| m.is_swap())
    }

    /// `square` (a name, or any object with `__index__`) if it lies on this
    /// board; otherwise a `ValueError` naming it.
    fn board_square(&self, square: &Bound<'_, PyAny>) -> PyResult<Square> {
        let size = self.position.rules().size();
        if square.is_instance_of::<PyString>() {
            // One parser of names, with its errors, shared with the reference.
            let number: u32 = base::types_module(square.py())?
                .call_method1("parse_square", (square,))?
                .extract()?;
            let sq = Square::from_number(number).expect("parse_square gives a square");
            return if sq.is_on(size) {
                Ok(sq)
            } else {
                Err(InvalidMoveError::new_err(format!(
                    "square '{sq}' is not on this {size}x{size} board"
                )))
            };
        }
        let number = match square.extract::<i64>() {
            Ok(number) => number,
            Err(err) if err.is_instance_of::<PyOverflowError>(square.py()) => {
                return Err(PyValueError::new_err(format!(
                    "square {} is not on this {size}x{size} board",
                    shown(&square.call_method0("__index__")?)
                )));
            }
            Err(err) => return Err(err),
        };
        let on_grid = u32::try_from(number).ok().and_then(Square::from_number);
        match on_grid {
            Some(sq) if sq.is_on(size) => Ok(sq),
            Some(sq) => Err(PyValueError::new_err(format!(
                "square {number} ({sq}) is not on this {size}x{size} board"
            ))),
            None => Err(PyValueError::new_err(format!(
                "square {number} is not on this {size}x{size} board"
            ))),
        }
    }

    fn push_move(&mut self, m: Move) -> PyResult<()> {
        let before = self.position;
        self.position.play(m).map_err(CoreError::from)?;
        self.stack.push((m, before));
        Ok(())
    }
}

/// The options of `Board(fen, ...)`, checked by the one check of
/// `veletas.games.veletas.types`; returns the setup rule and line rule.
fn check_options(
    py: Python<'_>,
    variant: &Bound<'_, PyAny>,
    setup_rule: &Bound<'_, PyAny>,
    shooters_block: &Bound<'_, PyAny>,
    claimed_shooters_block: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    shooters: Option<&Bound<'_, PyAny>>,
) -> PyResult<(SetupRule, Lines)> {
    base::types_module(py)?.call_method1(
        "check_board_options",
        (
            variant,
            setup_rule,
            shooters_block,
            size,
            shooters,
            claimed_shooters_block,
        ),
    )?;
    rule_options(setup_rule, shooters_block)
}

/// The core options of validated Python options.
fn rule_options(
    setup_rule: &Bound<'_, PyAny>,
    shooters_block: &Bound<'_, PyAny>,
) -> PyResult<(SetupRule, Lines)> {
    let setup_rule = parse_setup_rule(&setup_rule.extract::<String>()?)?;
    Ok((
        setup_rule,
        Lines::from_shooters_block(shooters_block.is_truthy()?),
    ))
}

/// Refuses `size`, `shooters` or a non-default `variant` that contradict the
/// fen, by the one check of `veletas.games.veletas.types`.
fn check_agreement(
    py: Python<'_>,
    fen: &Bound<'_, PyString>,
    rules: Rules,
    variant: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    shooters: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    base::types_module(py)?.call_method1(
        "check_fen_agreement",
        (fen, rules.size(), rules.shooters(), variant, size, shooters),
    )?;
    Ok(())
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (
        fen = None,
        *,
        variant = Given::Default,
        setup_rule = Given::Default,
        shooters_block = Given::Default,
        size = None,
        shooters = None,
        claimed_shooters_block = Given::Default,
    ), text_signature = "(fen=None, *, variant='standard', setup_rule='perimeter', \
                          shooters_block=False, size=None, shooters=None, \
                          claimed_shooters_block=False)")]
    #[expect(clippy::too_many_arguments, reason = "the keyword options of Board")]
    fn new<'py>(
        py: Python<'py>,
        fen: Option<&Bound<'py, PyAny>>,
        variant: Given<'py>,
        setup_rule: Given<'py>,
        shooters_block: Given<'py>,
        size: Option<&Bound<'py, PyAny>>,
        shooters: Option<&Bound<'py, PyAny>>,
        claimed_shooters_block: Given<'py>,
    ) -> PyResult<PyBoard> {
        let variant = variant.or(py, "standard")?;
        let setup_rule = setup_rule.or(py, "perimeter")?;
        let shooters_block = shooters_block.or(py, false)?;
        let claimed_shooters_block = claimed_shooters_block.or(py, false)?;
        let position = match fen {
            None => {
                let kwargs = PyDict::new(py);
                kwargs.set_item("size", size)?;
                kwargs.set_item("shooters", shooters)?;
                kwargs.set_item("setup_rule", &setup_rule)?;
                kwargs.set_item("shooters_block", &shooters_block)?;
                kwargs.set_item("claimed_shooters_block", &claimed_shooters_block)?;
                let made = base::rules_type(py)?.call_method("make", (&variant,), Some(&kwargs))?;
                let (setup_rule, lines) = rule_options(&setup_rule, &shooters_block)?;
                let n: u32 = made.getattr("size")?.extract()?;
                let k: u32 = made.getattr("shooters")?.extract()?;
                Position::new(Rules::new(n, k, setup_rule, lines).map_err(CoreError::from)?)
            }
            Some(fen) => {
                let (setup_rule, lines) = check_options(
                    py,
                    &variant,
                    &setup_rule,
                    &shooters_block,
                    &claimed_shooters_block,
                    size,
                    shooters,
                )?;
                let fen = fen.cast::<PyString>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "a position string is a str, not {}",
                        type_name(fen)
                    ))
                })?;
                let position = position_from_fen(fen, setup_rule, lines)?;
                check_agreement(py, fen, position.rules(), &variant, size, shooters)?;
                position
            }
        }
        .with_claimed_shooters_block(claimed_shooters_block.is_truthy()?);
        Ok(PyBoard {
            position,
            stack: Vec::new(),
        })
    }

    /// The picture of the position for Jupyter, last move marked
    /// (`veletas.svg.board`).
    fn _repr_svg_<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let last = slf.borrow().stack.last().map(|&(m, _)| PyMove(m));
        let kwargs = PyDict::new(py);
        kwargs.set_item("lastmove", last)?;
        py.import("veletas.svg")?
            .call_method("board", (slf,), Some(&kwargs))
    }

    /// The position string of RULES.md section 5.
    fn fen(&self) -> String {
        self.position.fen()
    }

    fn __str__(&self) -> String {
        self.position.to_string()
    }

    fn __repr__(&self) -> String {
        let rules = self.position.rules();
        let setup_rule = match rules.setup_rule() {
            SetupRule::Perimeter => String::new(),
            SetupRule::Spacing => ", setup_rule='spacing'".to_owned(),
        };
        let lines = if rules.lines().shooters_block() {
            ", shooters_block=True"
        } else {
            ""
        };
        let claimed = if rules.claimed_shooters_block() {
            ", claimed_shooters_block=True"
        } else {
            ""
        };
        format!(
            "Board('{}'{setup_rule}{lines}{claimed})",
            self.position.fen()
        )
    }

    /// The rules of this game: size, shooter count and options.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::rules(py, self.position.rules())
    }

    /// N: the board has N x N squares.
    #[getter]
    fn size(&self) -> u32 {
        self.position.rules().size()
    }

    /// The colour that acts next (in setup: the colour that places).
    #[getter]
    fn turn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::color(py, self.position.turn())
    }

    /// Setup, pie or play.
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::phase(py, self.position.phase())
    }

    /// The shooters claimed by each colour.
    #[getter]
    fn claims<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::claims(py, &self.position)
    }

    /// The piece on `square` (a number or a name), or None when it is empty.
    fn piece_at<'py>(
        &self,
        py: Python<'py>,
        square: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let square = self.board_square(square)?;
        match self.position.piece_at(square) {
            Some(piece) => base::piece(py, piece),
            None => Ok(py.None().into_bound(py)),
        }
    }

    /// The squares holding `piece`, ascending.
    fn pieces(&self, py: Python<'_>, piece: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let letter: String = base::piece_type(py)?
            .call1((piece,))?
            .getattr("value")?
            .extract()?;
        let piece = letter
            .chars()
            .next()
            .and_then(Piece::from_char)
            .ok_or_else(|| PyValueError::new_err(format!("{letter:?} is not a piece")))?;
        Ok(self
            .position
            .pieces(piece)
            .iter()
            .map(Square::number)
            .collect())
    }

    /// The pieces on the board: square number to piece, ascending.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let size = self.position.rules().size();
        let on_board = (0..100)
            .filter_map(Square::from_number)
            .filter(|sq| sq.is_on(size));
        for sq in on_board {
            if let Some(piece) = self.position.piece_at(sq) {
                out.set_item(sq.number(), base::piece(py, piece)?)?;
            }
        }
        Ok(out)
    }

    /// The empty squares reachable from `square` (a number or a name) along
    /// its 8 lines, ascending.
    fn reach(&self, square: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
        let square = self.board_square(square)?;
        Ok(self
            .position
            .reach(square)
            .iter()
            .map(Square::number)
            .collect())
    }

    /// The colour holding K // 2 + 1 claims, or None.
    #[getter]
    fn winner<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        base::optional_color(py, self.position.winner())
    }

    /// Whether a colour has won, or the player to act has no legal move.
    fn is_game_over(&self) -> bool {
        self.position.is_game_over()
    }

    /// The outcome of a finished game, or None while it goes on.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        if self.position.is_game_over() {
            base::outcome(py, &self.position)
        } else {
            Ok(py.None().into_bound(py))
        }
    }

    /// The legal moves, as a live view in canonical order.
    #[getter]
    fn legal_moves(slf: Bound<'_, Self>) -> PyLegalMoves {
        PyLegalMoves::new(slf.unbind())
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.position.is_legal(expect_move(r#move)?))
    }

    /// Play `move`: the placement, swap, or shooter move, shot and claims.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.push_move(expect_move(r#move)?)
    }

    /// Parse `text` in move notation and push it; returns the move.
    fn push_str(&mut self, text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let m = parse_move(move_text(text)?)?;
        self.push_move(m)?;
        Ok(PyMove(m))
    }

    /// Take back the last move and return it.
    fn pop(&mut self) -> PyResult<PyMove> {
        let (m, before) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from a board with an empty move stack"))?;
        self.position = before;
        Ok(PyMove(m))
    }

    /// The last move pushed.
    fn peek(&self) -> PyResult<PyMove> {
        self.stack
            .last()
            .map(|&(m, _)| PyMove(m))
            .ok_or_else(|| PyIndexError::new_err("peek at a board with an empty move stack"))
    }

    /// The moves pushed so far, oldest first (a copy).
    #[getter]
    fn move_stack<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let moves: Vec<Move> = self.stack.iter().map(|&(m, _)| m).collect();
        PyMove::list(py, &moves)
    }

    /// An independent board in the same position, with the move stack unless
    /// `stack` is false.
    #[pyo3(signature = (*, stack = Given::Default), text_signature = "($self, *, stack=True)")]
    fn copy(&self, stack: Given<'_>) -> PyResult<PyBoard> {
        let keep = match stack {
            Given::Default => true,
            Given::Value(value) => value.is_truthy()?,
        };
        Ok(PyBoard {
            position: self.position,
            stack: if keep { self.stack.clone() } else { Vec::new() },
        })
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.clone()
    }

    /// Pickles as the position before the first pushed move, the rule
    /// options and the pushed moves, which unpickling plays again.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.try_borrow()?;
        let start = this
            .stack
            .first()
            .map_or(&this.position, |(_, before)| before);
        let rules = start.rules();
        let moves: Vec<String> = this.stack.iter().map(|(m, _)| m.to_string()).collect();
        let args = (
            start.fen(),
            rules.setup_rule().name(),
            rules.lines().shooters_block(),
            moves,
            rules.claimed_shooters_block(),
        );
        (slf.get_type().getattr("_restore")?, args).into_pyobject(py)
    }

    /// The board `__reduce__` describes (not for direct use).
    #[staticmethod]
    #[pyo3(signature = (fen, setup_rule, shooters_block, moves, claimed_shooters_block = false))]
    fn _restore(
        fen: &Bound<'_, PyString>,
        setup_rule: &str,
        shooters_block: bool,
        moves: Vec<String>,
        claimed_shooters_block: bool,
    ) -> PyResult<PyBoard> {
        let setup_rule = parse_setup_rule(setup_rule)?;
        let lines = Lines::from_shooters_block(shooters_block);
        let position = position_from_fen(fen, setup_rule, lines)?
            .with_claimed_shooters_block(claimed_shooters_block);
        let mut board = PyBoard::from_position(position);
        for text in moves {
            let m = text.parse::<Move>().map_err(|_| {
                InvalidMoveError::new_err(format!("cannot restore a Board: {text:?} is not a move"))
            })?;
            board.push_move(m)?;
        }
        Ok(board)
    }

    fn __richcmp__(
        &self,
        other: &Bound<'_, PyBoard>,
        op: CompareOp,
        py: Python<'_>,
    ) -> PyResult<Py<PyAny>> {
        // Like a chess board, equality ignores the move stack.
        match op {
            CompareOp::Eq => (self.position == other.try_borrow()?.position).into_py_any(py),
            CompareOp::Ne => (self.position != other.try_borrow()?.position).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = std::hash::DefaultHasher::new();
        self.position.zobrist_hash().hash(&mut hasher);
        self.position.rules().hash(&mut hasher);
        hasher.finish()
    }

    /// The number of move sequences of length exactly `depth` (RULES.md section 6).
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = depth_arg(depth, 0, "perft depth must not be negative")?;
        let position = self.position;
        Ok(py.detach(|| perft(&position, depth)))
    }

    /// `perft(depth - 1)` after each legal move, in canonical order.
    fn perft_divide<'py>(
        &self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = depth_arg(depth, 1, "perft_divide depth must be at least 1")?;
        let position = self.position;
        let divide = py.detach(|| perft_divide(&position, depth));
        let dict = PyDict::new(py);
        for (m, nodes) in divide {
            dict.set_item(PyMove::untracked(py, m)?, nodes)?;
        }
        Ok(dict)
    }
}

/// `value` as a move, or the `TypeError` of the reference.
fn expect_move(value: &Bound<'_, PyAny>) -> PyResult<Move> {
    value
        .cast::<PyMove>()
        .map(|m| m.get().0)
        .map_err(|_| PyTypeError::new_err(format!("expected a Move, not {}", type_name(value))))
}

/// The setup rule called `name`, or the `InvalidRulesError` that quotes it.
pub(crate) fn parse_setup_rule(name: &str) -> PyResult<SetupRule> {
    name.parse()
        .map_err(|err: crate::veletas::rules::ParseSetupRuleError| {
            InvalidRulesError::new_err(err.to_string())
        })
}

/// The position of the Python string `fen`, or the `InvalidFenError` that
/// quotes the refused part as Python would.
pub(crate) fn position_from_fen(
    fen: &Bound<'_, PyString>,
    setup_rule: SetupRule,
    lines: Lines,
) -> PyResult<Position> {
    let text = fen_text(fen)?;
    Position::from_fen(&text, setup_rule, lines)
        .or_else(|error| Err(CoreError::fen(fen, &text, &error)?.into()))
}
