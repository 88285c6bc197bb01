//! The two sides: Black and White.

use core::fmt;
use core::ops::Not;

/// A side of the game. Black moves first in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Color {
    /// The first player (until a pie swap): places first, moves first in play.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The colour for index 0 (Black) or 1 (White).
    #[inline]
    pub const fn from_index(index: usize) -> Option<Color> {
        match index {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The letter of the position string's turn field: `b` or `w`.
    pub const fn char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// The colour of a turn-field letter.
    pub const fn from_char(ch: char) -> Option<Color> {
        match ch {
            'b' => Some(Color::Black),
            'w' => Some(Color::White),
            _ => None,
        }
    }

    /// `"black"` or `"white"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_and_letters() {
        for color in Color::ALL {
            assert_eq!(!!color, color);
            assert_ne!(!color, color);
            assert_eq!(Color::from_char(color.char()), Some(color));
            assert_eq!(Color::from_index(color.index()), Some(color));
        }
        assert_eq!(Color::from_char('x'), None);
        assert_eq!(Color::from_index(2), None);
        assert_eq!(Color::White.to_string(), "white");
    }
}
