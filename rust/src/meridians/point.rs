//! Points of the lattice, `a1` to `n14`.

use core::fmt;
use core::str::FromStr;

use super::bitboard::{Direction, STRIDE};
use super::size::Size;

/// The largest board's rhombus is 14 x 14; smaller boards use its lower-left
/// corner.
pub const GRID: u32 = 14;

/// A point (c, r) of the 14 x 14 grid: file c, rank r, both from 0.
///
/// Every size uses the same points (`a1` is (0, 0)), so a point means the
/// same thing on every board; whether it is *on* a board is
/// [`Point::is_on`]. Two numberings exist:
///
/// - [`Point::number`]: `r * 14 + c` (0..=195), the public numbering;
/// - [`Point::index`]: `r * 16 + c`, the point's bit in a
///   [`Bitboard`](super::Bitboard).
///
/// Both grow rank by rank, so points compare in the order `a1, b1, .., n1,
/// a2, ..`.
///
/// # Examples
///
/// ```
/// use _veletas::meridians::{Point, Size};
///
/// let f7: Point = "f7".parse().unwrap();
/// assert_eq!((f7.file(), f7.rank()), (5, 6));
/// assert_eq!(f7.number(), 6 * 14 + 5);
/// assert_eq!(Point::from_number(3).unwrap().to_string(), "d1");
/// assert!(f7.is_on(Size::S5_6));
/// assert!(!"h1".parse::<Point>().unwrap().is_on(Size::S6_7));
/// assert!("a15".parse::<Point>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point(u8);

impl Point {
    /// The point of `file` (0 = `a`) and `rank` (0 = rank `1`), both below 14.
    #[inline]
    pub const fn new(file: u32, rank: u32) -> Option<Point> {
        if file < GRID && rank < GRID {
            Some(Point((rank * STRIDE + file) as u8))
        } else {
            None
        }
    }

    /// The point with public number `number = rank * 14 + file`, below 196.
    #[inline]
    pub const fn from_number(number: u32) -> Option<Point> {
        if number < GRID * GRID {
            Point::new(number % GRID, number / GRID)
        } else {
            None
        }
    }

    /// The point of bit `index` of a bitboard, unless that bit is padding.
    #[inline]
    pub const fn from_index(index: u32) -> Option<Point> {
        Point::new(index % STRIDE, index / STRIDE)
    }

    /// The point of bit `index`, which the caller knows to be a point.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u32) -> Point {
        debug_assert!(index % STRIDE < GRID && index / STRIDE < GRID);
        Point(index as u8)
    }

    /// The file, 0 for `a`.
    #[inline(always)]
    pub const fn file(self) -> u32 {
        self.0 as u32 % STRIDE
    }

    /// The rank, 0 for rank `1`.
    #[inline(always)]
    pub const fn rank(self) -> u32 {
        self.0 as u32 / STRIDE
    }

    /// The public number, `rank * 14 + file`.
    #[inline]
    pub const fn number(self) -> u32 {
        self.rank() * GRID + self.file()
    }

    /// The bit of this point in a bitboard.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the point lies on the board of `size`.
    #[inline]
    pub const fn is_on(self, size: Size) -> bool {
        size.board().contains(self)
    }

    /// The next point in `dir` on the 14 x 14 grid, if there is one.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Point> {
        let (dc, dr) = dir.delta();
        match (
            self.file().checked_add_signed(dc),
            self.rank().checked_add_signed(dr),
        ) {
            (Some(file), Some(rank)) => Point::new(file, rank),
            _ => None,
        }
    }

    /// The file letter, `a` to `n`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file() as u8) as char
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank() + 1)
    }
}

/// A text that is not a point name: `[a-n](1[0-4]|[1-9])`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePointError;

impl ParsePointError {
    /// What a point name is, for messages that quote the refused text.
    pub const EXPECTED: &'static str = "expected a file a-n and a rank 1-14";
}

impl fmt::Display for ParsePointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid point: {}", ParsePointError::EXPECTED)
    }
}

impl std::error::Error for ParsePointError {}

impl FromStr for Point {
    type Err = ParsePointError;

    /// Parses exactly `[a-n](1[0-4]|[1-9])`: lowercase, no whitespace, no
    /// leading zero.
    fn from_str(text: &str) -> Result<Point, ParsePointError> {
        let rank = match *text.as_bytes() {
            [_, digit @ b'1'..=b'9'] => digit - b'0',
            [_, b'1', digit @ b'0'..=b'4'] => 10 + digit - b'0',
            _ => return Err(ParsePointError),
        };
        match text.as_bytes()[0] {
            letter @ b'a'..=b'n' => {
                Point::new(u32::from(letter - b'a'), u32::from(rank - 1)).ok_or(ParsePointError)
            }
            _ => Err(ParsePointError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_round_trips() {
        for number in 0..196 {
            let point = Point::from_number(number).unwrap();
            assert_eq!(point.number(), number);
            assert_eq!(Point::from_index(point.index() as u32), Some(point));
            assert_eq!(point.to_string().parse::<Point>(), Ok(point));
        }
        assert_eq!(Point::from_number(196), None);
        assert_eq!(Point::new(14, 0), None);
        assert_eq!(Point::from_index(14), None, "padding column");
        assert_eq!(Point::from_index(15), None, "padding column");
        assert_eq!(Point::from_index(224), None);
        let points: Vec<Point> = (0..196).filter_map(Point::from_number).collect();
        assert!(
            points.windows(2).all(|pair| pair[0] < pair[1]),
            "rank-major order"
        );
    }

    #[test]
    fn names_of_the_spec() {
        let name = |number| Point::from_number(number).unwrap().to_string();
        assert_eq!(name(0), "a1");
        assert_eq!(name(1), "b1");
        assert_eq!(name(14), "a2");
        assert_eq!(name(3), "d1");
        assert_eq!(name(195), "n14");
        assert_eq!("f7".parse::<Point>().unwrap().number(), 89);
    }

    #[test]
    fn strict_names() {
        for bad in [
            "", "a", "a0", "a15", "a01", "o1", "A1", " a1", "a1 ", "a10x", "é1", "n100", "a-1",
            "a+1", "a１",
        ] {
            assert_eq!(bad.parse::<Point>(), Err(ParsePointError), "{bad:?}");
        }
        for good in ["a1", "n14", "a10", "b14", "m9"] {
            assert_eq!(good.parse::<Point>().unwrap().to_string(), good);
        }
    }

    #[test]
    fn steps_and_boards() {
        let p = |name: &str| name.parse::<Point>().unwrap();
        assert_eq!(p("a1").step(Direction::West), None);
        assert_eq!(p("a1").step(Direction::NorthEast), Some(p("b2")));
        assert_eq!(p("n14").step(Direction::North), None);
        assert_eq!(p("n13").step(Direction::North), Some(p("n14")));
        assert!(p("l12").is_on(Size::S6_7) && !p("l12").is_on(Size::S5_6));
        assert!(p("g1").is_on(Size::S6_7) && !p("a8").is_on(Size::S6_7));
    }
}
