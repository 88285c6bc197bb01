//! Squares of the board, `a1` to `j10`.

use core::fmt;
use core::str::FromStr;

/// The largest board is 10x10; smaller boards use its lower-left corner.
pub const MAX_SIZE: u32 = 10;

/// Bits per rank in a [`Bitboard`](super::Bitboard): ten files and one
/// padding column that keeps east-west shifts from wrapping.
pub const STRIDE: u32 = 11;

/// A square of the 10x10 grid.
///
/// Every board size uses the same squares (`a1` is bottom-left), so a square
/// means the same thing in every game. Two numberings exist:
///
/// - [`Square::number`]: `rank * 10 + file` (0..=99), the public numbering;
/// - [`Square::index`]: `rank * 11 + file`, the bit of the square in a
///   [`Bitboard`](super::Bitboard).
///
/// Both grow rank by rank, so squares compare in the order `a1, b1, .., j1,
/// a2, ..`.
///
/// # Examples
///
/// ```
/// use _veletas::veletas::Square;
///
/// let e5: Square = "e5".parse().unwrap();
/// assert_eq!((e5.file(), e5.rank()), (4, 4));
/// assert_eq!(e5.number(), 44);
/// assert_eq!(Square::from_number(99).unwrap().to_string(), "j10");
/// assert!("a11".parse::<Square>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// `a1`, the bottom-left square.
    pub const A1: Square = Square(0);

    /// The square on `file` (0 = `a`) and `rank` (0 = rank `1`), both below 10.
    #[inline]
    pub const fn new(file: u32, rank: u32) -> Option<Square> {
        if file < MAX_SIZE && rank < MAX_SIZE {
            Some(Square((rank * STRIDE + file) as u8))
        } else {
            None
        }
    }

    /// The square with public number `number = rank * 10 + file`.
    #[inline]
    pub const fn from_number(number: u32) -> Option<Square> {
        if number < MAX_SIZE * MAX_SIZE {
            Square::new(number % MAX_SIZE, number / MAX_SIZE)
        } else {
            None
        }
    }

    /// The square of bit `index` of a bitboard, unless that bit is padding.
    #[inline]
    pub const fn from_index(index: u32) -> Option<Square> {
        if index < MAX_SIZE * STRIDE && index % STRIDE < MAX_SIZE {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square of bit `index`, which the caller knows to be a square.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < MAX_SIZE * STRIDE && index % STRIDE < MAX_SIZE);
        Square(index as u8)
    }

    /// The file, 0 for `a`.
    #[inline]
    pub const fn file(self) -> u32 {
        self.0 as u32 % STRIDE
    }

    /// The rank, 0 for rank `1`.
    #[inline]
    pub const fn rank(self) -> u32 {
        self.0 as u32 / STRIDE
    }

    /// The public number, `rank * 10 + file`.
    #[inline]
    pub const fn number(self) -> u32 {
        self.rank() * MAX_SIZE + self.file()
    }

    /// The bit of this square in a bitboard.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether the square lies on a board of `size` x `size`.
    #[inline]
    pub const fn is_on(self, size: u32) -> bool {
        self.file() < size && self.rank() < size
    }

    /// The file letter, `a` to `j`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file() as u8) as char
    }

    /// Parses a square name at the start of `bytes`, returning the square and
    /// the number of bytes it took. `a10` is preferred over `a1` followed by `0`.
    pub(crate) fn parse_prefix(bytes: &[u8]) -> Option<(Square, usize)> {
        let (&letter, rest) = bytes.split_first()?;
        if !(b'a'..=b'j').contains(&letter) {
            return None;
        }
        let file = u32::from(letter - b'a');
        match rest {
            [b'1', b'0', ..] => Some((Square::new(file, 9)?, 3)),
            [digit @ b'1'..=b'9', ..] => Some((Square::new(file, u32::from(digit - b'1'))?, 2)),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank() + 1)
    }
}

/// A text that is not a square name (`a1` .. `j10`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name: expected a file a-j and a rank 1-10")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        match Square::parse_prefix(text.as_bytes()) {
            Some((square, len)) if len == text.len() => Ok(square),
            _ => Err(ParseSquareError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_round_trips() {
        for number in 0..100 {
            let square = Square::from_number(number).unwrap();
            assert_eq!(square.number(), number);
            assert_eq!(Square::from_index(square.index() as u32), Some(square));
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        assert_eq!(Square::from_number(100), None);
        assert_eq!(Square::new(10, 0), None);
        assert_eq!(Square::from_index(10), None, "padding column");
        assert_eq!(Square::from_index(110), None);
    }

    #[test]
    fn order_is_rank_major() {
        let squares: Vec<Square> = (0..100).filter_map(Square::from_number).collect();
        assert!(squares.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn strict_names() {
        for bad in [
            "", "a", "a0", "a11", "k1", "a01", "A1", " a1", "a1 ", "a10x", "é1", "j100",
        ] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError), "{bad:?}");
        }
        assert_eq!("j10".parse::<Square>().unwrap().number(), 99);
        assert!(Square::from_number(66).unwrap().is_on(7));
        assert!(!"j10".parse::<Square>().unwrap().is_on(7));
    }
}
