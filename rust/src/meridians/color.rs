//! The two colours: Light and Dark.

use core::fmt;
use core::ops::Not;

/// A colour of stones. Light (`x`) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Color {
    /// The first to place: stones `x`.
    Light = 0,
    /// The second: stones `o`.
    Dark = 1,
}

impl Color {
    /// Both colours, Light first.
    pub const ALL: [Color; 2] = [Color::Light, Color::Dark];

    /// The colour for index 0 (Light) or 1 (Dark).
    #[inline]
    pub const fn from_index(index: usize) -> Option<Color> {
        match index {
            0 => Some(Color::Light),
            1 => Some(Color::Dark),
            _ => None,
        }
    }

    /// 0 for Light, 1 for Dark: an index into per-colour arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opponent.
    #[inline(always)]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Light => Color::Dark,
            Color::Dark => Color::Light,
        }
    }

    /// The letter of the position string's turn field: `l` or `d`.
    pub const fn char(self) -> char {
        match self {
            Color::Light => 'l',
            Color::Dark => 'd',
        }
    }

    /// The colour of a turn-field letter.
    pub const fn from_char(ch: char) -> Option<Color> {
        match ch {
            'l' => Some(Color::Light),
            'd' => Some(Color::Dark),
            _ => None,
        }
    }

    /// The letter of its stones on the board: `x` or `o`.
    pub const fn stone_char(self) -> char {
        match self {
            Color::Light => 'x',
            Color::Dark => 'o',
        }
    }

    /// `"light"` or `"dark"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Light => "light",
            Color::Dark => "dark",
        }
    }

    /// `"Light"` or `"Dark"`, as messages write it at the start of a phrase
    /// or as a name.
    pub const fn title(self) -> &'static str {
        match self {
            Color::Light => "Light",
            Color::Dark => "Dark",
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
        assert_eq!(Color::Dark.to_string(), "dark");
        assert_eq!(Color::Light.title(), "Light");
        assert_eq!(Color::Dark.stone_char(), 'o');
    }
}
