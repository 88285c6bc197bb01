//! Moves and their notation (RULES.md section 5).

use core::fmt;
use core::str::FromStr;

use super::square::Square;

/// One turn's decision: a setup placement, the pie swap, or a shot with an
/// optional shooter move. Four bytes, `Copy`.
///
/// The derived order is the canonical order of legal moves: `swap` before
/// shooter placements, shots without a move (by target) before shots with
/// one (by origin, destination, target).
///
/// # Examples
///
/// ```
/// use _veletas::veletas::Move;
///
/// let m: Move = "d4-d7/f9".parse().unwrap();
/// assert_eq!(m.origin().unwrap().to_string(), "d4");
/// assert_eq!(m.to_string(), "d4-d7/f9");
/// assert_eq!("swap".parse::<Move>().unwrap(), Move::Swap);
/// assert!("D4".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    /// `swap`: the second player takes Black.
    Swap,
    /// `*e5`: place a shooter during setup.
    Shooter(Square),
    /// `e5`: the setup stone, or a shot without a shooter move.
    Stone(Square),
    /// `d4-d7/f9`: move the shooter on `origin` to `destination`, then shoot
    /// onto `target`.
    Shot {
        /// Where the shooter stands.
        origin: Square,
        /// Where it moves to.
        destination: Square,
        /// Where the stone goes.
        target: Square,
    },
}

impl Move {
    /// The square a stone or shooter is put on; `None` for `swap`.
    #[inline]
    pub const fn target(self) -> Option<Square> {
        match self {
            Move::Swap => None,
            Move::Shooter(target) | Move::Stone(target) | Move::Shot { target, .. } => Some(target),
        }
    }

    /// The square of the shooter that moves, if one does.
    #[inline]
    pub const fn origin(self) -> Option<Square> {
        match self {
            Move::Shot { origin, .. } => Some(origin),
            _ => None,
        }
    }

    /// The square the shooter moves to, if one moves.
    #[inline]
    pub const fn destination(self) -> Option<Square> {
        match self {
            Move::Shot { destination, .. } => Some(destination),
            _ => None,
        }
    }

    /// Whether this is the pie swap.
    pub const fn is_swap(self) -> bool {
        matches!(self, Move::Swap)
    }

    /// Whether this places a shooter.
    pub const fn is_shooter(self) -> bool {
        matches!(self, Move::Shooter(_))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Swap => f.write_str("swap"),
            Move::Shooter(target) => write!(f, "*{target}"),
            Move::Stone(target) => write!(f, "{target}"),
            Move::Shot {
                origin,
                destination,
                target,
            } => {
                write!(f, "{origin}-{destination}/{target}")
            }
        }
    }
}

/// A text that is not a move in the notation of RULES.md section 5.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError;

impl ParseMoveError {
    /// What the notation allows, for messages that quote the refused text.
    pub const EXPECTED: &'static str = "expected 'swap', '*e5', 'e5' or 'd4-d7/f9'";
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid move: {}", ParseMoveError::EXPECTED)
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses `swap`, `*SQ`, `SQ` or `SQ-SQ/SQ` with `SQ = [a-j](10|[1-9])`:
    /// lowercase, no whitespace.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        if text == "swap" {
            return Ok(Move::Swap);
        }
        let bytes = text.as_bytes();
        let square = |bytes: &[u8]| Square::parse_prefix(bytes).ok_or(ParseMoveError);
        let m = if let Some(rest) = bytes.strip_prefix(b"*") {
            let (target, len) = square(rest)?;
            (Move::Shooter(target), 1 + len)
        } else {
            let (first, len) = square(bytes)?;
            match bytes[len..] {
                [] => (Move::Stone(first), len),
                [b'-', ..] => {
                    let (destination, len2) = square(&bytes[len + 1..])?;
                    let slash = len + 1 + len2;
                    if bytes.get(slash) != Some(&b'/') {
                        return Err(ParseMoveError);
                    }
                    let (target, len3) = square(&bytes[slash + 1..])?;
                    (
                        Move::Shot {
                            origin: first,
                            destination,
                            target,
                        },
                        slash + 1 + len3,
                    )
                }
                _ => return Err(ParseMoveError),
            }
        };
        if m.1 == bytes.len() {
            Ok(m.0)
        } else {
            Err(ParseMoveError)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for text in [
            "swap",
            "*e5",
            "e5",
            "a1",
            "j10",
            "*j10",
            "d4-d7/f9",
            "a10-j10/a1",
            "d4-d4/f9",
        ] {
            let m: Move = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
        }
    }

    #[test]
    fn strict_grammar() {
        for bad in [
            "",
            "Swap",
            "swap ",
            " e5",
            "e5 ",
            "*",
            "**e5",
            "*e0",
            "e11",
            "k1",
            "E5",
            "d4-d7",
            "d4-d7/",
            "d4/f9",
            "d4-d7-f9",
            "d4-d7/f9/",
            "d4-d7/f9x",
            "a01",
            "*e5x",
            "é5",
            "d4–d7/f9",
        ] {
            assert_eq!(bad.parse::<Move>(), Err(ParseMoveError), "{bad:?}");
        }
    }

    #[test]
    fn accessors_and_order() {
        let shot: Move = "d4-d7/f9".parse().unwrap();
        assert_eq!(shot.target().unwrap().to_string(), "f9");
        assert_eq!(shot.destination().unwrap().to_string(), "d7");
        assert!(!shot.is_swap() && !shot.is_shooter());
        assert_eq!(Move::Swap.target(), None);
        let stone: Move = "j10".parse().unwrap();
        let shooter: Move = "*a1".parse().unwrap();
        assert!(Move::Swap < shooter && shooter < stone && stone < shot);
        assert!("a2-a3/a1".parse::<Move>().unwrap() < "a2-a3/a4".parse::<Move>().unwrap());
        assert!("a2-b2/j10".parse::<Move>().unwrap() < "a2-c2/a1".parse::<Move>().unwrap());
    }
}
