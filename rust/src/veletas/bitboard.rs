//! Sets of squares as bits of a `u128`.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::square::{MAX_SIZE, STRIDE, Square};
use crate::bits::select;

/// A set of squares: bit `rank * 11 + file` stands for the square.
///
/// Each rank has one padding bit after file `j`, so shifting a set one file
/// east or west never wraps onto the next rank; every operation keeps padding
/// and the bits above the 10x10 grid clear.
///
/// # Examples
///
/// ```
/// use _veletas::veletas::{Bitboard, Square};
///
/// let e5: Square = "e5".parse().unwrap();
/// let set = Bitboard::from(e5).east().north();
/// assert_eq!(set.iter().map(|sq| sq.to_string()).collect::<Vec<_>>(), ["f6"]);
/// assert!(Bitboard::board(7).contains("g7".parse().unwrap()));
/// assert!(!Bitboard::board(7).contains("h7".parse().unwrap()));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

const fn board_mask(size: u32) -> u128 {
    let mut mask = 0;
    let mut rank = 0;
    while rank < size {
        mask |= ((1 << size) - 1) << (rank * STRIDE);
        rank += 1;
    }
    mask
}

const fn ring_mask(size: u32) -> u128 {
    board_mask(size) & !(board_mask(size - 2) << (STRIDE + 1))
}

/// The set of each bit index alone: a load is cheaper than shifting a
/// `u128` by a variable amount (a double shift and two conditional moves).
const SQUARE_BITS: [u128; 128] = {
    let mut bits = [0; 128];
    let mut index = 0;
    while index < 128 {
        bits[index] = 1 << index;
        index += 1;
    }
    bits
};

/// The set of `square` alone.
#[inline(always)]
const fn bit(square: Square) -> u128 {
    // A square index is below 110: the mask only drops the bounds check.
    SQUARE_BITS[square.index() & 127]
}

/// Board masks by size (index 0..=10; only 5..=10 are used by games).
static BOARDS: [Bitboard; 11] = {
    let mut boards = [Bitboard(0); 11];
    let mut size = 0;
    while size <= MAX_SIZE {
        boards[size as usize] = Bitboard(board_mask(size));
        size += 1;
    }
    boards
};

/// The outer ring of squares by size (index 0..=10; only 5..=10 are used).
static RINGS: [Bitboard; 11] = {
    let mut rings = [Bitboard(0); 11];
    let mut size = 2;
    while size <= MAX_SIZE {
        rings[size as usize] = Bitboard(ring_mask(size));
        size += 1;
    }
    rings
};

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 100 squares of the 10x10 grid.
    pub const FULL: Bitboard = Bitboard(board_mask(MAX_SIZE));
    /// The squares of file `a` (never reached by an east shift).
    const FILE_A: Bitboard = Bitboard(board_mask(MAX_SIZE) & !(board_mask(MAX_SIZE) << 1));
    /// The squares of file `j` (never reached by a west shift).
    const FILE_J: Bitboard = Bitboard(board_mask(MAX_SIZE) & !(board_mask(MAX_SIZE) >> 1));

    /// The squares of an `size` x `size` board in the lower-left corner; empty
    /// for a size above 10.
    #[inline]
    pub fn board(size: u32) -> Bitboard {
        BOARDS
            .get(size as usize)
            .copied()
            .unwrap_or(Bitboard::EMPTY)
    }

    /// The outermost ring of squares of an `size` x `size` board.
    #[inline]
    pub fn ring(size: u32) -> Bitboard {
        RINGS.get(size as usize).copied().unwrap_or(Bitboard::EMPTY)
    }

    /// Whether `square` is in the set.
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square.index()) != 0
    }

    /// Adds `square`.
    #[inline]
    pub fn add(&mut self, square: Square) {
        self.0 |= bit(square);
    }

    /// Removes `square` if present.
    #[inline]
    pub fn discard(&mut self, square: Square) {
        self.0 &= !bit(square);
    }

    /// Adds `square` if absent, removes it if present.
    #[inline]
    pub fn toggle(&mut self, square: Square) {
        self.0 ^= bit(square);
    }

    /// The set with `square` added.
    #[inline]
    #[must_use]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | bit(square))
    }

    /// The set with `square` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !bit(square))
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has a square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square (`a1` first), if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }

    /// The `k`-th lowest square (`k = 0` is [`Bitboard::first`]), if the set
    /// has more than `k` squares.
    ///
    /// Branch-light and without a loop: playouts pick every random action
    /// with it.
    #[inline(always)]
    pub const fn nth(self, k: u32) -> Option<Square> {
        if k >= self.count() {
            return None;
        }
        let (word, k, base) = self.word_of(k, (self.0 as u64).count_ones());
        Some(Square::from_index_unchecked(base + select(word, k)))
    }

    /// The word that holds the `k`-th lowest square, given `below`, the
    /// count of the low word: that word, `k` within it, and the index of
    /// its first square.
    ///
    /// Which word it is, is a coin toss for a random `k`: chosen without a
    /// branch, which would often be mispredicted.
    #[inline(always)]
    pub(crate) const fn word_of(self, k: u32, below: u32) -> (u64, u32, u32) {
        if k >= below {
            ((self.0 >> 64) as u64, k - below, 64)
        } else {
            (self.0 as u64, k, 0)
        }
    }

    /// The squares in ascending order.
    #[inline]
    pub const fn iter(self) -> Iter {
        Iter {
            low: self.0 as u64,
            high: (self.0 >> 64) as u64,
        }
    }

    /// The set moved one rank up.
    #[inline]
    #[must_use]
    pub const fn north(self) -> Bitboard {
        Bitboard((self.0 << STRIDE) & Bitboard::FULL.0)
    }

    /// The set moved one rank down.
    #[inline]
    #[must_use]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> STRIDE)
    }

    /// The set moved one file right.
    #[inline]
    #[must_use]
    pub const fn east(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_J.0) << 1)
    }

    /// The set moved one file left.
    #[inline]
    #[must_use]
    pub const fn west(self) -> Bitboard {
        Bitboard((self.0 & !Bitboard::FILE_A.0) >> 1)
    }

    /// The set with each square's orthogonal neighbours added.
    #[inline]
    #[must_use]
    pub const fn orthogonal_fill(self) -> Bitboard {
        Bitboard(self.0 | self.north().0 | self.south().0 | self.east().0 | self.west().0)
    }

    /// The set with all eight neighbours of each square added.
    #[inline]
    #[must_use]
    pub const fn king_fill(self) -> Bitboard {
        let row = Bitboard(self.0 | self.east().0 | self.west().0);
        Bitboard(row.0 | row.north().0 | row.south().0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

/// The set difference: squares of `self` not in `rhs`.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

/// The complement within the 10x10 grid.
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(square: Square) -> Bitboard {
        Bitboard(bit(square))
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for square in iter {
            set.add(square);
        }
        set
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Iter;
    #[inline]
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

/// The squares of a [`Bitboard`], ascending: the low word's, then the high
/// word's (a word at a time costs less than the `u128`'s carries).
#[derive(Clone, Debug)]
pub struct Iter {
    low: u64,
    high: u64,
}

impl Iterator for Iter {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.low != 0 {
            let index = self.low.trailing_zeros();
            self.low &= self.low - 1;
            Some(Square::from_index_unchecked(index))
        } else if self.high != 0 {
            let index = 64 + self.high.trailing_zeros();
            self.high &= self.high - 1;
            Some(Square::from_index_unchecked(index))
        } else {
            None
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = (self.low.count_ones() + self.high.count_ones()) as usize;
        (len, Some(len))
    }
}

impl ExactSizeIterator for Iter {}

/// Draws the 10x10 grid, rank 10 on top, `1` for members and `.` otherwise.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..MAX_SIZE).rev() {
            for file in 0..MAX_SIZE {
                let square = Square::new(file, rank).expect("file and rank are below 10");
                f.write_str(if self.contains(square) { "1" } else { "." })?;
                f.write_str(if file + 1 < MAX_SIZE { " " } else { "\n" })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_walks_the_squares_in_order() {
        let mut rng = crate::rng::Rng::for_game(0, 0);
        for _ in 0..200 {
            let set = Bitboard(u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()))
                & Bitboard::FULL;
            let squares: Vec<Square> = set.iter().collect();
            for (k, &square) in squares.iter().enumerate() {
                assert_eq!(set.nth(k as u32), Some(square));
            }
            assert_eq!(set.nth(set.count()), None);
        }
        // Every bit of full and sparse words, in both halves.
        for set in [Bitboard::FULL, Bitboard::board(7), Bitboard::ring(10)] {
            let squares: Vec<Square> = set.iter().collect();
            let picked: Vec<Square> = (0..set.count()).map(|k| set.nth(k).unwrap()).collect();
            assert_eq!(picked, squares);
        }
    }

    #[test]
    fn iteration_yields_each_square_once_in_ascending_order() {
        let mut rng = crate::rng::Rng::for_game(0, 1);
        let mut sets = vec![Bitboard::EMPTY, Bitboard::FULL, Bitboard::ring(10)];
        for _ in 0..200 {
            // Either word empty, or both holding squares.
            let (low, high) = (rng.next_u64(), rng.next_u64());
            for bits in [
                u128::from(low),
                u128::from(high) << 64,
                u128::from(high) << 64 | u128::from(low),
            ] {
                sets.push(Bitboard(bits) & Bitboard::FULL);
            }
        }
        for set in sets {
            let by_index: Vec<Square> = (0..128)
                .filter(|&index| set.0 >> index & 1 == 1)
                .map(Square::from_index_unchecked)
                .collect();
            let mut iter = set.iter();
            assert_eq!(iter.len(), by_index.len());
            assert_eq!(iter.by_ref().take(3).count(), by_index.len().min(3));
            assert_eq!(iter.len(), by_index.len().saturating_sub(3));
            assert_eq!(set.iter().collect::<Vec<_>>(), by_index);
        }
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn masks() {
        assert_eq!(Bitboard::FULL.count(), 100);
        assert_eq!(Bitboard::board(10), Bitboard::FULL);
        assert_eq!(Bitboard::board(7).count(), 49);
        assert_eq!(Bitboard::ring(7).count(), 24);
        assert_eq!(Bitboard::ring(10).count(), 36);
        assert!(Bitboard::ring(7).contains(sq("g4")));
        assert!(!Bitboard::ring(7).contains(sq("f4")));
        assert_eq!(Bitboard::board(11), Bitboard::EMPTY);
        assert_eq!((!Bitboard::EMPTY), Bitboard::FULL);
    }

    #[test]
    fn shifts_stay_on_the_grid() {
        let edges: Bitboard = ["a1", "j1", "a10", "j10", "e5"]
            .into_iter()
            .map(sq)
            .collect();
        let names = |set: Bitboard| set.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(names(edges.north()), ["a2", "j2", "e6"]);
        assert_eq!(names(edges.south()), ["e4", "a9", "j9"]);
        assert_eq!(names(edges.east()), ["b1", "f5", "b10"]);
        assert_eq!(names(edges.west()), ["i1", "d5", "i10"]);
        assert_eq!(Bitboard::from(sq("a1")).king_fill().count(), 4);
        assert_eq!(Bitboard::from(sq("e5")).king_fill().count(), 9);
        assert_eq!(Bitboard::from(sq("j10")).orthogonal_fill().count(), 3);
    }

    #[test]
    fn set_operations() {
        let mut set = Bitboard::EMPTY;
        set.add(sq("c3"));
        set.add(sq("a1"));
        assert!(set.contains(sq("c3")) && set.count() == 2);
        assert_eq!(set.first(), Some(sq("a1")));
        set.discard(sq("a1"));
        set.toggle(sq("b2"));
        assert_eq!(set, Bitboard::from(sq("b2")).with(sq("c3")));
        assert_eq!(set - Bitboard::from(sq("b2")), Bitboard::from(sq("c3")));
        assert_eq!(set.without(sq("c3")).without(sq("b2")), Bitboard::EMPTY);
        assert_eq!(set.iter().len(), 2);
        assert!(format!("{set}").starts_with(". . . . . . . . . .\n"));
    }
}
