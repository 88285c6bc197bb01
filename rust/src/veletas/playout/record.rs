//! Moves as the rows of a game record.

use super::super::moves::Move;
use super::super::square::Square;

/// One move of a game record: `[kind, origin, destination, target]`, with
/// kind 0 for a stone or shot, 1 for a shooter placement, 2 for the swap,
/// and public square numbers (`rank * 10 + file`), -1 where there is none.
pub type MoveRecord = [i8; 4];

/// The record of `m`.
///
/// ```
/// use _veletas::veletas::playout::record;
///
/// assert_eq!(record("d4-d7/f9".parse().unwrap()), [0, 33, 63, 85]);
/// assert_eq!(record("*e5".parse().unwrap()), [1, -1, -1, 44]);
/// assert_eq!(record("swap".parse().unwrap()), [2, -1, -1, -1]);
/// ```
pub fn record(m: Move) -> MoveRecord {
    let number = |square: Option<Square>| square.map_or(-1, |sq| sq.number() as i8);
    let kind = match m {
        Move::Stone(_) | Move::Shot { .. } => 0,
        Move::Shooter(_) => 1,
        Move::Swap => 2,
    };
    [
        kind,
        number(m.origin()),
        number(m.destination()),
        number(m.target()),
    ]
}

/// Records a move. Out of line, so that the compiler does not work out
/// records ahead of time in runs without them.
#[cold]
#[inline(never)]
pub(super) fn push_record(moves: &mut Vec<MoveRecord>, m: Move) {
    moves.push(record(m));
}
