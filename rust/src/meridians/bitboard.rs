//! Sets of points of the triangular lattice as 256 bits: four `u64` words.
//!
//! The 7-8 board has 154 points inside a 14 x 14 rhombus, more than a
//! `u128` holds. Bit `r * 16 + c` stands for point (c, r): each rank takes
//! 16 bits, its 14 files and two padding columns, so a word holds exactly
//! four ranks. The six directions are steps of the bit index:
//!
//! | directions             | (dc, dr)   | bits |
//! |------------------------|------------|-----:|
//! | east, west             | (+-1, 0)   | +-1  |
//! | north, south           | (0, +-1)   | +-16 |
//! | north-east, south-west | (+-1, +-1) | +-17 |
//!
//! (The names are those of the grid's coordinates; drawn as a hexagon,
//! north points up and to the left.)
//!
//! Why this layout:
//!
//! - A step along a rank never leaves its word: from file 13 it lands in
//!   padding, and bit 63 of a word is padding too, so rank shifts are four
//!   independent word shifts with no carry.
//! - Padding and the two unused ranks are never set in a set this module
//!   returns. A fill along a line advances only through the points it is
//!   given (board points, never padding), so a run cannot wrap from the end
//!   of one rank onto the next.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use super::kernel::{self, Bits, Portable};
use super::point::{GRID, Point};

/// One of the six directions of the lattice, named by the grid coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// File + 1, along the rank.
    East,
    /// File - 1, along the rank.
    West,
    /// Rank + 1, along the file.
    North,
    /// Rank - 1, along the file.
    South,
    /// File + 1 and rank + 1, along the diagonal.
    NorthEast,
    /// File - 1 and rank - 1, along the diagonal.
    SouthWest,
}

impl Direction {
    /// All six, in opposite pairs.
    pub const ALL: [Direction; 6] = [
        Direction::East,
        Direction::West,
        Direction::North,
        Direction::South,
        Direction::NorthEast,
        Direction::SouthWest,
    ];

    /// The step as (file, rank) changes.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::East => (1, 0),
            Direction::West => (-1, 0),
            Direction::North => (0, 1),
            Direction::South => (0, -1),
            Direction::NorthEast => (1, 1),
            Direction::SouthWest => (-1, -1),
        }
    }

    /// The step of the bit index.
    pub const fn offset(self) -> i32 {
        let (dc, dr) = self.delta();
        dr * STRIDE as i32 + dc
    }

    /// The opposite direction.
    #[must_use]
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::East => Direction::West,
            Direction::West => Direction::East,
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            Direction::NorthEast => Direction::SouthWest,
            Direction::SouthWest => Direction::NorthEast,
        }
    }
}

/// Bits per rank: 14 files and two padding columns.
pub const STRIDE: u32 = 16;

/// The number of `u64` words.
pub const WORDS: usize = 4;

pub(super) type Words = [u64; WORDS];

/// A set of points: bit `rank * 16 + file`.
///
/// # Examples
///
/// ```
/// use _veletas::meridians::{Bitboard, Direction, Point, Size};
///
/// let a1: Point = "a1".parse().unwrap();
/// let b2 = Bitboard::from(a1).shift(Direction::NorthEast);
/// assert_eq!(b2.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["b2"]);
/// // The 6-7 hexagon: its corners are cut off the 12 x 12 rhombus.
/// assert_eq!(Size::S6_7.board().count(), 114);
/// assert!(!Size::S6_7.board().contains("h1".parse().unwrap()));
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub [u64; WORDS]);

/// The points of the rhombus of `n` x `n` points with `|c - r| <= b - 1`
/// (`b = n` for the whole rhombus).
pub(crate) const fn hexagon_mask(n: u32, b: u32) -> Bitboard {
    let mut words = [0; WORDS];
    let mut r = 0;
    while r < n {
        let mut c = 0;
        while c < n {
            if c.abs_diff(r) < b {
                let index = r * STRIDE + c;
                words[(index / 64) as usize] |= 1 << (index % 64);
            }
            c += 1;
        }
        r += 1;
    }
    Bitboard(words)
}

/// `words` shifted towards higher bits by `k`, carrying across words.
#[inline(always)]
pub(super) const fn shl(words: Words, k: u32) -> Words {
    let skip = (k / 64) as usize;
    let bits = k % 64;
    let mut out = [0; WORDS];
    let mut i = skip;
    while i < WORDS {
        let src = i - skip;
        out[i] = words[src] << bits;
        if bits > 0 && src > 0 {
            out[i] |= words[src - 1] >> (64 - bits);
        }
        i += 1;
    }
    out
}

/// `words` shifted towards lower bits by `k`, carrying across words.
#[inline(always)]
pub(super) const fn shr(words: Words, k: u32) -> Words {
    let skip = (k / 64) as usize;
    let bits = k % 64;
    let mut out = [0; WORDS];
    let mut i = 0;
    while i + skip < WORDS {
        let src = i + skip;
        out[i] = words[src] >> bits;
        if bits > 0 && src + 1 < WORDS {
            out[i] |= words[src + 1] << (64 - bits);
        }
        i += 1;
    }
    out
}

/// Each word shifted up by `k` on its own: a step along the ranks, which
/// never needs a carry (see the module docs).
#[inline(always)]
const fn local_shl(words: Words, k: u32) -> Words {
    [words[0] << k, words[1] << k, words[2] << k, words[3] << k]
}

/// Each word shifted down by `k` on its own.
#[inline(always)]
const fn local_shr(words: Words, k: u32) -> Words {
    [words[0] >> k, words[1] >> k, words[2] >> k, words[3] >> k]
}

#[inline(always)]
const fn and(a: Words, b: Words) -> Words {
    [a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]]
}

#[inline(always)]
const fn or(a: Words, b: Words) -> Words {
    [a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]]
}

/// `words` moved `times` steps in `dir`, unmasked: bits may land in padding
/// (or fall off the 256 bits), never on another rank's points.
#[inline(always)]
pub(super) const fn step(words: Words, dir: Direction, times: u32) -> Words {
    match dir {
        Direction::East => local_shl(words, times),
        Direction::West => local_shr(words, times),
        Direction::North => shl(words, STRIDE * times),
        Direction::South => shr(words, STRIDE * times),
        Direction::NorthEast => shl(words, (STRIDE + 1) * times),
        Direction::SouthWest => shr(words, (STRIDE + 1) * times),
    }
}

impl Bitboard {
    /// No points.
    pub const EMPTY: Bitboard = Bitboard([0; WORDS]);
    /// Every point of the 14 x 14 grid.
    pub const GRID: Bitboard = hexagon_mask(GRID, GRID);

    /// Whether `point` is in the set.
    #[inline(always)]
    pub const fn contains(self, point: Point) -> bool {
        let index = point.index();
        self.0[index / 64] >> (index % 64) & 1 != 0
    }

    /// Adds `point`.
    #[inline(always)]
    pub fn add(&mut self, point: Point) {
        let index = point.index();
        self.0[index / 64] |= 1 << (index % 64);
    }

    /// Removes `point` if present.
    #[inline(always)]
    pub fn discard(&mut self, point: Point) {
        let index = point.index();
        self.0[index / 64] &= !(1 << (index % 64));
    }

    /// The set with `point` added.
    #[inline]
    #[must_use]
    pub fn with(mut self, point: Point) -> Bitboard {
        self.add(point);
        self
    }

    /// The set with `point` removed.
    #[inline]
    #[must_use]
    pub fn without(mut self, point: Point) -> Bitboard {
        self.discard(point);
        self
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// Whether the set has a point.
    #[inline(always)]
    pub const fn any(self) -> bool {
        !self.is_empty()
    }

    /// The number of points.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()
    }

    /// The lowest point (`a1` first), if any.
    #[inline]
    pub const fn first(self) -> Option<Point> {
        let mut i = 0;
        while i < WORDS {
            if self.0[i] != 0 {
                return Some(Point::from_index_unchecked(
                    i as u32 * 64 + self.0[i].trailing_zeros(),
                ));
            }
            i += 1;
        }
        None
    }

    /// The `k`-th lowest point (`k = 0` is [`Bitboard::first`]), if the set
    /// has more than `k` points.
    ///
    /// Without a loop, and with the word picked without a branch: playouts
    /// pick every random action with it, and where it falls is a coin toss.
    #[inline(always)]
    pub fn nth(self, k: u32) -> Option<Point> {
        self.nth_by(k, kernel::select)
    }

    /// [`Bitboard::nth`] with the selection of the kernel `kernel`: no
    /// look at which kernel runs, for a caller compiled for it.
    #[inline(always)]
    pub(crate) fn nth_on<K: Bits>(self, kernel: K, k: u32) -> Option<Point> {
        self.nth_by(k, |word, i| kernel.select(word, i))
    }

    #[inline(always)]
    fn nth_by(self, k: u32, select: impl Fn(u64, u32) -> u32) -> Option<Point> {
        let [w0, w1, w2, w3] = self.0;
        let c0 = w0.count_ones();
        let c01 = c0 + w1.count_ones();
        let c012 = c01 + w2.count_ones();
        if k >= c012 + w3.count_ones() {
            return None;
        }
        // Conditional moves, not an index into the words: an index goes
        // through memory, on the path from one move to the next.
        let (mut word, mut below, mut base) = (w0, 0, 0);
        if k >= c0 {
            (word, below, base) = (w1, c0, 64);
        }
        if k >= c01 {
            (word, below, base) = (w2, c01, 128);
        }
        if k >= c012 {
            (word, below, base) = (w3, c012, 192);
        }
        Some(Point::from_index_unchecked(base + select(word, k - below)))
    }

    /// The points in ascending order.
    #[inline]
    pub const fn iter(self) -> Iter {
        Iter {
            words: self.0,
            word: 0,
        }
    }

    /// The set moved one step in `dir`, within the 14 x 14 grid (intersect
    /// with [`Size::board`](super::Size::board) for a board).
    #[inline(always)]
    #[must_use]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        Bitboard(and(step(self.0, dir, 1), Bitboard::GRID.0))
    }

    /// The set moved one step in `dir`, where only `within` (a set without
    /// padding, such as a board or the stones on one) is kept.
    #[inline(always)]
    #[must_use]
    pub const fn shift_within(self, dir: Direction, within: Bitboard) -> Bitboard {
        Bitboard(and(step(self.0, dir, 1), within.0))
    }

    /// The set with the points reached from it in `dir` through `through`
    /// added: every run of `through` that starts next to a point of the set,
    /// on its `dir` side (an occluded fill, by Kogge-Stone doubling).
    ///
    /// `through` is a set of board points, as all sets of this module are
    /// (padding bits set by hand would let runs wrap).
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::meridians::{Bitboard, Direction, Point, Size};
    ///
    /// let p = |name: &str| name.parse::<Point>().unwrap();
    /// let board = Size::S6_7.board();
    /// let empty = board.without(p("e1"));
    /// // From a1 east through empty points: b1, c1 and d1, stopped by e1.
    /// let filled = Bitboard::from(p("a1")).fill(Direction::East, empty);
    /// assert_eq!(filled.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["a1", "b1", "c1", "d1"]);
    /// ```
    #[inline(always)]
    #[must_use]
    pub fn fill(self, dir: Direction, through: Bitboard) -> Bitboard {
        kernel::fill(Portable, self, through, dir)
    }

    /// The points of `through` from which some point of the set (outside
    /// `through`) is the first point, in some direction, that is not in
    /// `through`: the union of the six fills, without the set itself.
    ///
    /// With the empty points as `through` and a colour's stones as the set,
    /// these are the points from which a nearest stone is of that colour.
    #[inline]
    #[must_use]
    pub fn rays(self, through: Bitboard) -> Bitboard {
        kernel::rays(Portable, self, through)
    }

    /// The set with the six neighbours of each point added, within the grid.
    #[inline(always)]
    #[must_use]
    pub fn neighbour_fill(self) -> Bitboard {
        kernel::neighbours(Portable, self) & Bitboard::GRID
    }

    /// The points of `within` connected to the set through neighbours in
    /// `within` (the set's own points included if they are in `within`).
    #[inline]
    #[must_use]
    pub fn flood(self, within: Bitboard) -> Bitboard {
        kernel::flood(Portable, self, within)
    }
}

/// The points of a [`Bitboard`], ascending.
#[derive(Clone, Debug)]
pub struct Iter {
    words: Words,
    word: usize,
}

impl Iterator for Iter {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        while self.word < WORDS {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Point::from_index_unchecked(
                    self.word as u32 * 64 + w.trailing_zeros(),
                ));
            }
            self.word += 1;
        }
        None
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = Bitboard(self.words).count() as usize;
        (len, Some(len))
    }
}

impl ExactSizeIterator for Iter {}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = Iter;
    #[inline]
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl From<Point> for Bitboard {
    #[inline]
    fn from(point: Point) -> Bitboard {
        Bitboard::EMPTY.with(point)
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for point in iter {
            set.add(point);
        }
        set
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(or(self.0, rhs.0))
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(and(self.0, rhs.0))
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        let (a, b) = (self.0, rhs.0);
        Bitboard([a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]])
    }
}

/// The set difference: points of `self` not in `rhs`.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        let (a, b) = (self.0, rhs.0);
        Bitboard([a[0] & !b[0], a[1] & !b[1], a[2] & !b[2], a[3] & !b[3]])
    }
}

/// The complement within the 14 x 14 grid.
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard::GRID - self
    }
}

impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        *self = *self | rhs;
    }
}

impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        *self = *self & rhs;
    }
}

impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        *self = *self ^ rhs;
    }
}

/// The points' names, as a set.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|p| p.to_string()))
            .finish()
    }
}

/// Draws the 14 x 14 grid, rank 14 on top, `1` for members and `.` otherwise.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..GRID).rev() {
            for file in 0..GRID {
                let point = Point::new(file, rank).expect("file and rank are below 14");
                f.write_str(if self.contains(point) { "1" } else { "." })?;
                f.write_str(if file + 1 < GRID { " " } else { "\n" })?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::size::Size;
    use super::*;
    use crate::rng::Rng;

    fn p(name: &str) -> Point {
        name.parse().unwrap()
    }

    fn names(set: Bitboard) -> Vec<String> {
        set.iter().map(|p| p.to_string()).collect()
    }

    /// The set moved in `dir` point by point, through coordinates.
    fn slow_shift(set: Bitboard, dir: Direction) -> Bitboard {
        let (dc, dr) = dir.delta();
        set.iter()
            .filter_map(|point| {
                let c = point.file().checked_add_signed(dc)?;
                let r = point.rank().checked_add_signed(dr)?;
                Point::new(c, r)
            })
            .collect()
    }

    fn random_set(rng: &mut Rng) -> Bitboard {
        let words = [
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
        ];
        Bitboard(words) & Bitboard::GRID
    }

    #[test]
    fn masks_and_counts() {
        assert_eq!(Bitboard::GRID.count(), 196);
        assert_eq!(!Bitboard::EMPTY, Bitboard::GRID);
        for (size, points) in [(Size::S5_6, 80), (Size::S6_7, 114), (Size::S7_8, 154)] {
            assert_eq!(size.board().count(), points);
        }
        // Padding columns and the ranks above 14 are never set.
        for index in 0..256 {
            let on_grid = index % 16 < 14 && index / 16 < 14;
            assert_eq!(
                Bitboard::GRID.0[index / 64] >> (index % 64) & 1 == 1,
                on_grid
            );
        }
    }

    #[test]
    fn shifts_at_the_padding_and_the_edges() {
        let edges: Bitboard = ["a1", "n1", "a14", "n14", "n4", "a5", "g7"]
            .into_iter()
            .map(p)
            .collect();
        assert_eq!(
            names(edges.shift(Direction::East)),
            ["b1", "b5", "h7", "b14"]
        );
        assert_eq!(
            names(edges.shift(Direction::West)),
            ["m1", "m4", "f7", "m14"]
        );
        assert_eq!(
            names(edges.shift(Direction::North)),
            ["a2", "n2", "n5", "a6", "g8"]
        );
        assert_eq!(
            names(edges.shift(Direction::South)),
            ["n3", "a4", "g6", "a13", "n13"]
        );
        assert_eq!(names(edges.shift(Direction::NorthEast)), ["b2", "b6", "h8"]);
        assert_eq!(
            names(edges.shift(Direction::SouthWest)),
            ["m3", "f6", "m13"]
        );
        let mut rng = Rng::for_game(1, 1);
        for _ in 0..200 {
            let set = random_set(&mut rng);
            for dir in Direction::ALL {
                assert_eq!(set.shift(dir), slow_shift(set, dir), "{dir:?}");
                assert_eq!(set.shift(dir).shift(dir.opposite()) - set, Bitboard::EMPTY);
            }
        }
    }

    #[test]
    fn shifts_off_the_cut_corners() {
        // 6-7: h1 and a8 are off the hexagon; g1 and a7 are its corners.
        let board = Size::S6_7.board();
        let corners = Bitboard::from(p("g1")).with(p("a7"));
        assert_eq!(names(corners.shift_within(Direction::East, board)), ["b7"]);
        assert_eq!(names(corners.shift(Direction::East)), ["h1", "b7"]);
        assert_eq!(names(corners.shift_within(Direction::North, board)), ["g2"]);
        assert_eq!(
            names(corners.shift_within(Direction::NorthEast, board)),
            ["h2", "b8"]
        );
    }

    #[test]
    fn fills_stop_at_blockers_and_never_wrap() {
        let mut rng = Rng::for_game(2, 2);
        for _ in 0..300 {
            let through = random_set(&mut rng) | random_set(&mut rng);
            let seeds = random_set(&mut rng) & random_set(&mut rng) & random_set(&mut rng);
            for dir in Direction::ALL {
                let mut slow = seeds;
                let mut front = seeds;
                while front.any() {
                    front = slow_shift(front, dir) & through;
                    slow |= front;
                }
                assert_eq!(seeds.fill(dir, through), slow, "{dir:?}");
            }
        }
        // A whole rank of the 7-8 board filled from n1 westward and from a2
        // eastward stays on its rank.
        let through = Bitboard::GRID;
        assert_eq!(
            Bitboard::from(p("n1"))
                .fill(Direction::West, through)
                .count(),
            14
        );
        assert_eq!(
            names(Bitboard::from(p("m2")).fill(Direction::East, through)),
            ["m2", "n2"]
        );
        assert_eq!(
            Bitboard::from(p("a1"))
                .fill(Direction::NorthEast, through)
                .count(),
            14
        );
    }

    #[test]
    fn neighbours_and_groups() {
        assert_eq!(
            names(Bitboard::from(p("c3")).neighbour_fill()),
            ["b2", "c2", "b3", "c3", "d3", "c4", "d4"]
        );
        assert_eq!(
            names(Bitboard::from(p("a1")).neighbour_fill()),
            ["a1", "b1", "a2", "b2"]
        );
        assert_eq!(Bitboard::from(p("n14")).neighbour_fill().count(), 4);
        let stones: Bitboard = ["a1", "b2", "c2", "e2", "c3"].into_iter().map(p).collect();
        assert_eq!(
            names(Bitboard::from(p("a1")).flood(stones)),
            ["a1", "b2", "c2", "c3"]
        );
    }

    #[test]
    fn nth_walks_the_points_in_order() {
        let mut rng = Rng::for_game(3, 3);
        for _ in 0..200 {
            let set = random_set(&mut rng) & random_set(&mut rng);
            let points: Vec<Point> = set.iter().collect();
            assert_eq!(set.iter().len(), points.len());
            for (k, &point) in points.iter().enumerate() {
                assert_eq!(set.nth(k as u32), Some(point));
            }
            assert_eq!(set.nth(set.count()), None);
            assert_eq!(set.first(), points.first().copied());
        }
        let grid: Vec<Point> = Bitboard::GRID.iter().collect();
        let picked: Vec<Point> = (0..196).map(|k| Bitboard::GRID.nth(k).unwrap()).collect();
        assert_eq!(picked, grid);
        assert_eq!(Bitboard::EMPTY.nth(0), None);
        assert_eq!(Bitboard::EMPTY.first(), None);
    }

    #[test]
    fn set_operations() {
        let mut set = Bitboard::EMPTY;
        set.add(p("n14"));
        set.add(p("a1"));
        assert!(set.contains(p("n14")) && set.count() == 2);
        set.discard(p("a1"));
        assert_eq!(set, Bitboard::from(p("n14")));
        assert_eq!(set ^ set, Bitboard::EMPTY);
        assert_eq!(
            (set | Bitboard::from(p("b1"))) - set,
            Bitboard::from(p("b1"))
        );
        assert_eq!(format!("{set:?}"), "{\"n14\"}");
        assert!(format!("{set}").starts_with(". . . . . . . . . . . . . 1\n"));
    }
}
