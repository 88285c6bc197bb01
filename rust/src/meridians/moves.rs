//! Moves and their notation (MERIDIANS.md section 6).

use core::fmt;
use core::str::FromStr;

use super::point::Point;

/// One turn: a stone placed on a point, or the pie decision.
///
/// The derived order is the canonical order of legal moves: placements by
/// point number, then `swap`, then `keep`.
///
/// # Examples
///
/// ```
/// use _veletas::meridians::Move;
///
/// let m: Move = "f7".parse().unwrap();
/// assert_eq!(m.point().unwrap().number(), 89);
/// assert_eq!(m.to_string(), "f7");
/// assert_eq!("keep".parse::<Move>(), Ok(Move::Keep));
/// assert!(m < Move::Swap && Move::Swap < Move::Keep);
/// assert!("F7".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// `f7`: a stone of the colour to act on that point.
    Place(Point),
    /// `swap`: in the pie decision, the players exchange colours.
    Swap,
    /// `keep`: in the pie decision, the players keep their colours.
    Keep,
}

impl Move {
    /// The point a stone is placed on; `None` for `swap` and `keep`.
    #[inline]
    pub const fn point(self) -> Option<Point> {
        match self {
            Move::Place(point) => Some(point),
            Move::Swap | Move::Keep => None,
        }
    }

    /// Whether this is `swap`.
    pub const fn is_swap(self) -> bool {
        matches!(self, Move::Swap)
    }

    /// Whether this is `keep`.
    pub const fn is_keep(self) -> bool {
        matches!(self, Move::Keep)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place(point) => write!(f, "{point}"),
            Move::Swap => f.write_str("swap"),
            Move::Keep => f.write_str("keep"),
        }
    }
}

/// A text that is not a move: neither `swap`, `keep` nor a point name
/// `[a-n](1[0-4]|[1-9])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError;

impl ParseMoveError {
    /// What the notation allows, for messages that quote the refused text.
    pub const EXPECTED: &'static str = "expected a point such as 'f7', 'swap' or 'keep'";
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid move: {}", ParseMoveError::EXPECTED)
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses `swap`, `keep` or a point of the largest board: whether the
    /// point is on a given board is a question of legality.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        match text {
            "swap" => Ok(Move::Swap),
            "keep" => Ok(Move::Keep),
            _ => text
                .parse::<Point>()
                .map(Move::Place)
                .map_err(|_| ParseMoveError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in ["swap", "keep", "a1", "n14", "f7", "a10"] {
            let m: Move = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
        assert!(Move::Swap.is_swap() && Move::Keep.is_keep());
        assert_eq!(Move::Keep.point(), None);
    }

    #[test]
    fn strict_grammar() {
        for bad in [
            "", "Swap", "swap ", " keep", "KEEP", "f0", "f15", "o1", "F7", "f07", "f7 ", "pass",
            "a1a1", "é1",
        ] {
            assert_eq!(bad.parse::<Move>(), Err(ParseMoveError), "{bad:?}");
        }
        assert_eq!(
            ParseMoveError.to_string(),
            "invalid move: expected a point such as 'f7', 'swap' or 'keep'"
        );
    }

    #[test]
    fn canonical_order() {
        let a1: Move = "a1".parse().unwrap();
        let b1: Move = "b1".parse().unwrap();
        let a2: Move = "a2".parse().unwrap();
        let n14: Move = "n14".parse().unwrap();
        assert!(a1 < b1 && b1 < a2 && a2 < n14 && n14 < Move::Swap && Move::Swap < Move::Keep);
    }
}
