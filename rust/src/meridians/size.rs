//! The three board sizes: hexagons of A and B points a side.

use core::fmt;
use core::str::FromStr;

use super::bitboard::{Bitboard, hexagon_mask};

/// A board size `A-B` (MERIDIANS.md section 1): a hexagon with two opposite
/// sides of A points and four of B, the points (c, r) with
/// `0 <= c, r <= N - 1` and `|c - r| <= B - 1`, where `N = A + B - 1`.
///
/// # Examples
///
/// ```
/// use _veletas::meridians::Size;
///
/// let size: Size = "6-7".parse().unwrap();
/// assert_eq!(size, Size::default());
/// assert_eq!((size.a(), size.b(), size.n(), size.points()), (6, 7, 12, 114));
/// assert_eq!(size.to_string(), "6-7");
/// assert_eq!(size.rank_files(0), 0..=6);
/// assert_eq!(size.rank_files(11), 5..=11);
/// assert!("6x7".parse::<Size>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Size {
    /// `5-6`: 80 points, N = 10.
    S5_6 = 0,
    /// `6-7`, the default: 114 points, N = 12.
    #[default]
    S6_7 = 1,
    /// `7-8`: 154 points, N = 14.
    S7_8 = 2,
}

/// The boards by [`Size::index`].
static BOARDS: [Bitboard; 3] = [
    hexagon_mask(10, 6),
    hexagon_mask(12, 7),
    hexagon_mask(14, 8),
];

impl Size {
    /// All three, smallest first.
    pub const ALL: [Size; 3] = [Size::S5_6, Size::S6_7, Size::S7_8];

    /// 0, 1 or 2: an index into per-size tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// A: the points on the two short sides.
    #[inline]
    pub const fn a(self) -> u32 {
        self.index() as u32 + 5
    }

    /// B: the points on the four long sides.
    #[inline]
    pub const fn b(self) -> u32 {
        self.a() + 1
    }

    /// N = A + B - 1: the ranks, the files, and the rhombus's side.
    #[inline]
    pub const fn n(self) -> u32 {
        self.a() + self.b() - 1
    }

    /// The number of points, N^2 - A(A - 1).
    #[inline]
    pub const fn points(self) -> u32 {
        self.n() * self.n() - self.a() * (self.a() - 1)
    }

    /// The points of the board.
    #[inline(always)]
    pub const fn board(self) -> Bitboard {
        BOARDS[self.index()]
    }

    /// The files of rank `rank` (0-based, below N) on the board, from left to
    /// right: `max(0, r - B + 1) ..= min(N - 1, r + B - 1)`.
    pub const fn rank_files(self, rank: u32) -> core::ops::RangeInclusive<u32> {
        let b = self.b();
        let first = rank.saturating_sub(b - 1);
        let last = if rank + b - 1 < self.n() {
            rank + b - 1
        } else {
            self.n() - 1
        };
        first..=last
    }

    /// The size whose board has `ranks` ranks (10, 12 or 14).
    pub const fn from_ranks(ranks: usize) -> Option<Size> {
        match ranks {
            10 => Some(Size::S5_6),
            12 => Some(Size::S6_7),
            14 => Some(Size::S7_8),
            _ => None,
        }
    }

    /// `"5-6"`, `"6-7"` or `"7-8"`.
    pub const fn name(self) -> &'static str {
        match self {
            Size::S5_6 => "5-6",
            Size::S6_7 => "6-7",
            Size::S7_8 => "7-8",
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that is not a size name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSizeError;

impl ParseSizeError {
    /// What a size is, for messages that quote the refused value.
    pub const EXPECTED: &'static str = "expected one of '5-6', '6-7', '7-8'";
}

impl fmt::Display for ParseSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown size: {}", ParseSizeError::EXPECTED)
    }
}

impl std::error::Error for ParseSizeError {}

impl FromStr for Size {
    type Err = ParseSizeError;

    fn from_str(name: &str) -> Result<Size, ParseSizeError> {
        Size::ALL
            .into_iter()
            .find(|size| size.name() == name)
            .ok_or(ParseSizeError)
    }
}

#[cfg(test)]
mod tests {
    use super::super::point::Point;
    use super::*;

    #[test]
    fn boards_are_the_hexagons() {
        for size in Size::ALL {
            assert_eq!(size.board().count(), size.points());
            let rank_points: u32 = (0..size.n())
                .map(|r| size.rank_files(r).count() as u32)
                .sum();
            assert_eq!(rank_points, size.points());
            for r in 0..size.n() {
                for c in 0..size.n() {
                    let point = Point::new(c, r).unwrap();
                    assert_eq!(point.is_on(size), size.rank_files(r).contains(&c));
                }
            }
            assert_eq!(size.name().parse::<Size>(), Ok(size));
            assert_eq!(Size::from_ranks(size.n() as usize), Some(size));
        }
        assert_eq!(Size::S5_6.rank_files(9), 4..=9);
        assert_eq!(Size::S7_8.rank_files(6), 0..=13);
        assert_eq!(Size::from_ranks(11), None);
        for bad in ["", "6-7 ", "6_7", "8-9", "6"] {
            assert_eq!(bad.parse::<Size>(), Err(ParseSizeError));
        }
    }

    #[test]
    fn corners_of_the_spec() {
        // 6-7: corners a1, g1, l6, l12, f12, a7.
        let board = Size::S6_7.board();
        for name in ["a1", "g1", "l6", "l12", "f12", "a7"] {
            let point: Point = name.parse().unwrap();
            assert!(board.contains(point), "{name}");
            // A corner has three neighbours on the board.
            assert_eq!(
                (Bitboard::from(point).neighbour_fill() & board).count(),
                4,
                "{name}"
            );
        }
    }
}
