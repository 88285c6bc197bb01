//! The shared plain types of `veletas.games.veletas.types`, imported once and converted to.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::veletas::{Color, Phase, Piece, Position, Rules};

static COLOR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static PHASE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static PIECE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static CLAIMS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static OUTCOME: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static RULES: PyOnceLock<Py<PyType>> = PyOnceLock::new();

static COLORS: PyOnceLock<[Py<PyAny>; 2]> = PyOnceLock::new();
static PHASES: PyOnceLock<[Py<PyAny>; 3]> = PyOnceLock::new();
static PIECES: PyOnceLock<[Py<PyAny>; 5]> = PyOnceLock::new();

/// `veletas.games.veletas.types`, where the argument checks of a board are
/// written once for both engines.
pub fn types_module(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("veletas.games.veletas.types")
}

/// `veletas.games.veletas.types.Rules`, the class.
pub fn rules_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    RULES.import(py, "veletas.games.veletas.types", "Rules")
}

/// `veletas.games.veletas.types.Piece`, the class.
pub fn piece_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    PIECE.import(py, "veletas.games.veletas.types", "Piece")
}

/// The `Color` member of `color`.
pub fn color(py: Python<'_>, color: Color) -> PyResult<Bound<'_, PyAny>> {
    let members = COLORS.get_or_try_init(py, || -> PyResult<_> {
        let class = COLOR.import(py, "veletas.games.veletas.types", "Color")?;
        Ok([class.call1((0,))?.unbind(), class.call1((1,))?.unbind()])
    })?;
    Ok(members[color.index()].bind(py).clone())
}

/// The `Color` member of `color`, or `None`.
pub fn optional_color(py: Python<'_>, color: Option<Color>) -> PyResult<Bound<'_, PyAny>> {
    match color {
        Some(c) => self::color(py, c),
        None => Ok(py.None().into_bound(py)),
    }
}

/// The `Phase` member of `phase`.
pub fn phase(py: Python<'_>, phase: Phase) -> PyResult<Bound<'_, PyAny>> {
    let members = PHASES.get_or_try_init(py, || -> PyResult<_> {
        let class = PHASE.import(py, "veletas.games.veletas.types", "Phase")?;
        let member = |p: Phase| class.call1((p.name(),)).map(Bound::unbind);
        Ok([
            member(Phase::Setup)?,
            member(Phase::Pie)?,
            member(Phase::Play)?,
        ])
    })?;
    Ok(members[phase as usize].bind(py).clone())
}

/// The `Piece` member of `piece`.
pub fn piece(py: Python<'_>, piece: Piece) -> PyResult<Bound<'_, PyAny>> {
    let members = PIECES.get_or_try_init(py, || -> PyResult<_> {
        let class = piece_type(py)?;
        let member = |p: Piece| class.call1((p.char().to_string(),)).map(Bound::unbind);
        Ok([
            member(Piece::BlackStone)?,
            member(Piece::WhiteStone)?,
            member(Piece::Shooter)?,
            member(Piece::BlackClaimed)?,
            member(Piece::WhiteClaimed)?,
        ])
    })?;
    Ok(members[piece as usize].bind(py).clone())
}

/// `Claims(black, white)` of `pos`.
pub fn claims<'py>(py: Python<'py>, pos: &Position) -> PyResult<Bound<'py, PyAny>> {
    let class = CLAIMS.import(py, "veletas.games.veletas.types", "Claims")?;
    class.call1((pos.claims(Color::Black), pos.claims(Color::White)))
}

/// `Outcome(winner, claims)` of `pos`.
pub fn outcome<'py>(py: Python<'py>, pos: &Position) -> PyResult<Bound<'py, PyAny>> {
    let class = OUTCOME.import(py, "veletas.games.veletas.types", "Outcome")?;
    class.call1((optional_color(py, pos.winner())?, claims(py, pos)?))
}

/// `Rules(size, shooters, setup_rule, shooters_block, claimed_shooters_block)`
/// of `rules`.
pub fn rules(py: Python<'_>, rules: Rules) -> PyResult<Bound<'_, PyAny>> {
    rules_type(py)?.call1((
        rules.size(),
        rules.shooters(),
        rules.setup_rule().name(),
        rules.lines().shooters_block(),
        rules.claimed_shooters_block(),
    ))
}
