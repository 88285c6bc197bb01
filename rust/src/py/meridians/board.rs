//! `veletas.meridians.Board`: a position with its rules and move stack.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::IntoPyObjectExt;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::legal_moves::PyLegalMoves;
use super::moves::{PyMove, parse_move, point_number, type_name};
use super::types;
use crate::meridians::{
    Bitboard, FenError, Move, PlayError, Point, Position, Size, perft, perft_divide,
};
use crate::py::args::Given;
use crate::py::args::depth_arg;
use crate::py::errors::{
    IllegalMoveError, InvalidFenError, InvalidMoveError, InvalidRulesError, python_repr,
    text_keeping_surrogates,
};

/// A pushed move, with the position before it and the points it removed.
#[derive(Clone, Copy)]
struct Pushed {
    m: Move,
    before: Position,
    removed: Bitboard,
}

/// A position of Meridians with its rules and the moves that led to it.
#[pyclass(name = "Board", module = "veletas.meridians")]
#[derive(Clone)]
pub struct PyBoard {
    position: Position,
    stack: Vec<Pushed>,
}

/// Reads a position string under the pie option.
pub fn position_from_fen(fen: &Bound<'_, PyAny>, pie: bool) -> PyResult<Position> {
    let Ok(text) = fen.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "a position string is a str, not {}",
            type_name(fen)
        )));
    };
    let read = text_keeping_surrogates(text)?;
    Position::from_fen(&read, pie).map_err(|err: FenError| {
        let py = fen.py();
        InvalidFenError::new_err(format!(
            "invalid fen {}: {}",
            text.repr()
                .map_or_else(|_| "?".to_owned(), |r| r.to_string()),
            err.message(&|part| python_repr(py, part))
        ))
    })
}

/// The names of `points`, sorted as strings (as the vectors write them).
fn sorted_names(points: Bitboard) -> Vec<String> {
    let mut names: Vec<String> = points.iter().map(|p| p.to_string()).collect();
    names.sort_unstable();
    names
}

/// The ASCII drawing: one line per rank from the top, each point at column
/// `2c - r + B - 1` after the rank number, so that the lines draw the hexagon.
fn drawing(position: &Position) -> String {
    let size = position.size();
    let (b, n) = (size.b(), size.n());
    let mut lines = Vec::with_capacity(n as usize);
    for rank in (0..n).rev() {
        let files = size.rank_files(rank);
        let indent = (2 * files.start() + b - 1 - rank) as usize;
        let cells: Vec<String> = files
            .map(|file| {
                let point = Point::new(file, rank).expect("a point of the board");
                match position.piece_at(point) {
                    Some(color) => color.stone_char().to_string(),
                    None => ".".to_owned(),
                }
            })
            .collect();
        lines.push(format!(
            "{:>2} {}{}",
            rank + 1,
            " ".repeat(indent),
            cells.join(" ")
        ));
    }
    lines.join("\n")
}

impl PyBoard {
    /// A board at `position`, with no moves.
    pub fn from_position(position: Position) -> PyBoard {
        PyBoard {
            position,
            stack: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    fn play(&mut self, m: Move) -> PyResult<()> {
        let before = self.position;
        let removed = self
            .position
            .play(m)
            .map_err(|err: PlayError| IllegalMoveError::new_err(err.to_string()))?;
        self.stack.push(Pushed { m, before, removed });
        Ok(())
    }

    /// The position before the first move of the stack.
    fn root(&self) -> Position {
        self.stack
            .first()
            .map_or(self.position, |pushed| pushed.before)
    }

    fn point_arg(&self, point: &Bound<'_, PyAny>) -> PyResult<Point> {
        let point = if point.is_instance_of::<PyString>() {
            Point::from_number(types::parse_point(point)?).expect("parse_point gives a point")
        } else {
            point_number(point)?
        };
        if point.is_on(self.position.size()) {
            Ok(point)
        } else {
            Err(InvalidMoveError::new_err(format!(
                "point '{point}' is not on the {} board",
                self.position.size()
            )))
        }
    }
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (fen = None, *, size = None, pie = Given::Default),
           text_signature = "(fen=None, *, size=None, pie=False)")]
    fn new<'py>(
        py: Python<'py>,
        fen: Option<&Bound<'py, PyAny>>,
        size: Option<&Bound<'py, PyAny>>,
        pie: Given<'py>,
    ) -> PyResult<PyBoard> {
        let size = size.map(types::check_size).transpose()?;
        let pie = types::check_pie(&pie.or(py, false)?)?;
        let position = match fen {
            None => Position::new(size.unwrap_or(Size::default())).with_pie(pie),
            Some(fen) => {
                let position = position_from_fen(fen, pie)?;
                if let Some(size) = size
                    && size != position.size()
                {
                    return Err(InvalidRulesError::new_err(format!(
                        "size '{size}' does not match the position string, which is '{}'",
                        position.size()
                    )));
                }
                position
            }
        };
        Ok(PyBoard {
            position,
            stack: Vec::new(),
        })
    }

    /// The board as SVG, for Jupyter (`veletas.svg.board`).
    fn _repr_svg_<'py>(slf: &Bound<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let last = slf
            .borrow()
            .stack
            .last()
            .map(|pushed| PyMove { m: pushed.m });
        let kwargs = PyDict::new(py);
        kwargs.set_item("lastmove", last)?;
        py.import("veletas.svg")?
            .call_method("board", (slf,), Some(&kwargs))
    }

    /// The position string (MERIDIANS.md section 6).
    fn fen(&self) -> String {
        self.position.fen()
    }

    fn __str__(&self) -> String {
        drawing(&self.position)
    }

    fn __repr__(&self) -> String {
        format!(
            "Board('{}', size='{}', pie={})",
            self.position.fen(),
            self.position.size(),
            if self.position.pie() { "True" } else { "False" }
        )
    }

    /// The rules of this game: the board size and the pie option.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        types::rules(py, self.position.size(), self.position.pie())
    }

    /// The board size, such as `"6-7"`.
    #[getter]
    fn size(&self) -> &'static str {
        self.position.size().name()
    }

    /// Whether the pie rule is on.
    #[getter]
    fn pie(&self) -> bool {
        self.position.pie()
    }

    /// The colour to act.
    #[getter]
    fn turn<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        types::color(py, self.position.turn())
    }

    /// The phase: open, pie or play.
    #[getter]
    fn phase<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        types::phase(py, self.position.phase())
    }

    /// The number of stones of each colour.
    #[getter]
    fn stones<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let count = |c| self.position.stone_count(c);
        types::stones(
            py,
            count(crate::meridians::Color::Light),
            count(crate::meridians::Color::Dark),
        )
    }

    /// The names of the stones the last pushed move removed, sorted; `()`
    /// when none or no move is on the stack.
    #[getter]
    fn last_removed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let removed = self.stack.last().map_or(Bitboard::EMPTY, |p| p.removed);
        PyTuple::new(py, sorted_names(removed))
    }

    /// The colour that has won, or None while the game goes on.
    #[getter]
    fn winner<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.position
            .winner()
            .map(|color| types::color(py, color))
            .transpose()
    }

    /// Whether the game is over.
    fn is_game_over(&self) -> bool {
        self.position.is_game_over()
    }

    /// The outcome of a finished game, or None while it goes on.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        use crate::meridians::Color;
        self.position
            .winner()
            .map(|winner| {
                let count = |c| self.position.stone_count(c);
                types::outcome(py, winner, count(Color::Light), count(Color::Dark))
            })
            .transpose()
    }

    /// The colour of the stone on `point` (a number or a name), or None.
    fn piece_at<'py>(
        &self,
        py: Python<'py>,
        point: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let point = self.point_arg(point)?;
        self.position
            .piece_at(point)
            .map(|color| types::color(py, color))
            .transpose()
    }

    /// The stones on the board: point number to colour, ascending.
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let occupied = self.position.occupied();
        let mut points: Vec<Point> = occupied.iter().collect();
        points.sort_unstable_by_key(|p| p.number());
        for point in points {
            let color = self.position.piece_at(point).expect("an occupied point");
            out.set_item(point.number(), types::color(py, color)?)?;
        }
        Ok(out)
    }

    /// The legal moves, as a live view.
    #[getter]
    fn legal_moves(slf: &Bound<'_, Self>) -> PyLegalMoves {
        PyLegalMoves::new(slf.clone().unbind())
    }

    /// Whether `move` is legal here.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(m) = r#move.cast::<PyMove>() else {
            return Err(PyTypeError::new_err(format!(
                "expected a Move, not {}",
                type_name(r#move)
            )));
        };
        Ok(self.position.is_legal(m.get().m))
    }

    /// Plays `move`; an illegal move raises and leaves the board unchanged.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let Ok(m) = r#move.cast::<PyMove>() else {
            return Err(PyTypeError::new_err(format!(
                "expected a Move, not {}",
                type_name(r#move)
            )));
        };
        self.play(m.get().m)
    }

    /// Reads `text` in the notation, plays it, and returns the move.
    fn push_str(&mut self, text: &Bound<'_, PyAny>) -> PyResult<PyMove> {
        let m = parse_move(text)?;
        self.play(m)?;
        Ok(PyMove { m })
    }

    /// Takes back the last move and returns it.
    fn pop(&mut self) -> PyResult<PyMove> {
        let pushed = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from a board with an empty move stack"))?;
        self.position = pushed.before;
        Ok(PyMove { m: pushed.m })
    }

    /// The last move pushed.
    fn peek(&self) -> PyResult<PyMove> {
        self.stack
            .last()
            .map(|pushed| PyMove { m: pushed.m })
            .ok_or_else(|| PyIndexError::new_err("peek at a board with an empty move stack"))
    }

    /// The moves pushed so far, oldest first (a copy).
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.stack
            .iter()
            .map(|pushed| PyMove { m: pushed.m })
            .collect()
    }

    /// An independent board in the same position, with the move stack unless
    /// `stack` is False.
    #[pyo3(signature = (*, stack = true))]
    fn copy(&self, stack: bool) -> PyBoard {
        PyBoard {
            position: self.position,
            stack: if stack {
                self.stack.clone()
            } else {
                Vec::new()
            },
        }
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.clone()
    }

    /// The number of move sequences of exactly `depth` moves, counted
    /// without the GIL.
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = depth_arg(depth, 0, "perft depth must not be negative")?;
        let position = self.position;
        Ok(py.detach(|| perft(&position, depth)))
    }

    /// `perft(depth - 1)` after each legal move, keyed by its notation.
    fn perft_divide<'py>(
        &self,
        py: Python<'py>,
        depth: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let depth = depth_arg(depth, 1, "perft_divide depth must be at least 1")?;
        let position = self.position;
        let counts = py.detach(|| perft_divide(&position, depth));
        let out = PyDict::new(py);
        for (m, nodes) in counts {
            out.set_item(m.to_string(), nodes)?;
        }
        Ok(out)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(other) = other.cast::<PyBoard>() else {
            return Ok(py.NotImplemented());
        };
        let equal = self.position == other.borrow().position;
        match op {
            CompareOp::Eq => equal.into_py_any(py),
            CompareOp::Ne => (!equal).into_py_any(py),
            _ => Ok(py.NotImplemented()),
        }
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        self.position.hash(&mut hasher);
        hasher.finish()
    }

    /// Pickles as the position before the first move, the pie option and
    /// the moves, which unpickling replays (every protocol).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let board = slf.borrow();
        let moves = PyList::new(py, board.stack.iter().map(|pushed| pushed.m.to_string()))?;
        let state = (board.root().fen(), board.position.pie(), moves).into_pyobject(py)?;
        PyTuple::new(
            py,
            [slf.get_type().getattr("_from_state")?, state.into_any()],
        )
    }

    /// The board of a pickled state: `fen` under `pie`, then `moves`.
    #[staticmethod]
    fn _from_state(
        fen: &Bound<'_, PyAny>,
        pie: bool,
        moves: &Bound<'_, PyList>,
    ) -> PyResult<PyBoard> {
        let mut board = PyBoard {
            position: position_from_fen(fen, pie)?,
            stack: Vec::new(),
        };
        for text in moves.iter() {
            board.push_str(&text)?;
        }
        Ok(board)
    }
}
