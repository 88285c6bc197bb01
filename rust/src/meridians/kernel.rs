//! The bit work of Meridians, written once over [`Bits`]: occluded fills,
//! the legal placements, groups and their paths. The kernels give the same
//! sets: [`Portable`] on the four `u64` words of a [`Bitboard`], and on
//! x86-64 [`X86V3`], on one 256-bit AVX2 register, picked at run time by
//! [`X86V3::detect`], or else the SSE2 kernel on two 128-bit registers
//! ([`Baseline`]).
//!
//! A playout spends nearly all its time here: six fills for the legal
//! placements of every turn, and a flood and six more fills for each group
//! that a placement may have left without a path. The layout of
//! [`Bitboard`] (a rank per 16 bits) is sixteen 16-bit lanes of a register,
//! so a step along a rank is a shift within each lane (AVX2 shifts lanes
//! without carrying between them), and a step across ranks moves whole lanes.

use super::bitboard::{self, Bitboard, Direction};
use super::point::Point;

/// The set operations the algorithms of this module need, on a kernel's
/// own form of a set of points.
///
/// Every kernel gives the same results, bit for bit, for sets without
/// padding bits (which is all sets the module works on); only the speed
/// differs.
pub trait Bits: Copy {
    /// A set of points, as the kernel holds it.
    type Set: Copy;

    /// `set` in the kernel's form.
    fn load(self, set: Bitboard) -> Self::Set;

    /// The set as a bitboard.
    fn store(self, set: Self::Set) -> Bitboard;

    /// The position of the `k`-th set bit of `word`, which has more than
    /// `k` (by `pdep` on the x86-64-v3 kernel, else broadword:
    /// [`crate::bits::select`]).
    fn select(self, word: u64, k: u32) -> u32;

    /// No points.
    fn none(self) -> Self::Set;

    /// The one point `point`.
    fn point(self, point: Point) -> Self::Set;

    /// The intersection.
    fn and(self, a: Self::Set, b: Self::Set) -> Self::Set;

    /// The union.
    fn or(self, a: Self::Set, b: Self::Set) -> Self::Set;

    /// The points of `a` not in `b`.
    fn and_not(self, a: Self::Set, b: Self::Set) -> Self::Set;

    /// Whether the set has a point.
    fn any(self, set: Self::Set) -> bool;

    /// Whether the sets are equal.
    fn same(self, a: Self::Set, b: Self::Set) -> bool;

    /// `set` moved `times` (1, 2, 4 or 8) steps in `dir`, unmasked.
    ///
    /// One step never lands on a grid point that is not the neighbour in
    /// `dir` (it may land in padding or leave the grid). Longer steps may
    /// differ between kernels where they leave a rank, and may land on
    /// another rank: only [`fill`] takes them, and it keeps only points whose
    /// whole run of steps lies in `prop`.
    fn step(self, set: Self::Set, dir: Direction, times: u32) -> Self::Set;

    /// [`fill`] east for `seeds` disjoint from `prop`, by addition: a seed's
    /// neighbour in `prop` starts a run, and adding it carries along the run
    /// to the point after it, clearing the run.
    fn east_fill_disjoint(self, seeds: Self::Set, prop: Self::Set) -> Self::Set;
}

/// The occluded fill (Kogge-Stone) of `seeds` in `dir` through `prop`: the
/// seeds and every run of `prop` that starts next to one, on its `dir` side.
/// Runs are at most 13 steps, so shifts by 1, 2, 4 and 8 steps cover them.
#[inline(always)]
pub fn fill<K: Bits>(k: K, seeds: K::Set, prop: K::Set, dir: Direction) -> K::Set {
    // Written out, as everything that takes a direction here: the steps
    // must be constants where they are compiled, not a loop over them.
    let seeds = k.or(seeds, k.and(prop, k.step(seeds, dir, 1)));
    let prop = k.and(prop, k.step(prop, dir, 1));
    let seeds = k.or(seeds, k.and(prop, k.step(seeds, dir, 2)));
    let prop = k.and(prop, k.step(prop, dir, 2));
    let seeds = k.or(seeds, k.and(prop, k.step(seeds, dir, 4)));
    let prop = k.and(prop, k.step(prop, dir, 4));
    k.or(seeds, k.and(prop, k.step(seeds, dir, 8)))
}

/// The six occluded fills of a set through `through`, each with the set
/// itself.
#[derive(Clone, Copy, Debug)]
pub struct Fills<S> {
    through: S,
    east: S,
    west: S,
    north: S,
    south: S,
    north_east: S,
    south_west: S,
}

impl<S: Copy> Fills<S> {
    /// The fills of `seeds` (grid points only) through `through`.
    #[inline(always)]
    pub fn new<K: Bits<Set = S>>(k: K, seeds: S, through: S) -> Fills<S> {
        let seeds = k.and_not(k.and(seeds, k.load(Bitboard::GRID)), through);
        // (No closures or loops over directions here: a closure would not be
        // compiled for the features of the function that inlines this one,
        // and each step must be a constant where it is compiled.)
        Fills {
            through,
            east: k.east_fill_disjoint(seeds, through),
            west: fill(k, seeds, through, Direction::West),
            north: fill(k, seeds, through, Direction::North),
            south: fill(k, seeds, through, Direction::South),
            north_east: fill(k, seeds, through, Direction::NorthEast),
            south_west: fill(k, seeds, through, Direction::SouthWest),
        }
    }

    /// The points of `through` reached: those from which a seed is the
    /// first point, in some direction, not in `through` ([`rays`]).
    #[inline(always)]
    pub fn rays<K: Bits<Set = S>>(&self, k: K) -> S {
        let east_west = k.or(self.east, self.west);
        let north_south = k.or(self.north, self.south);
        let diagonal = k.or(self.north_east, self.south_west);
        k.and(k.or(east_west, k.or(north_south, diagonal)), self.through)
    }

    /// The lines through `point` (a point outside `through`) on which the
    /// first points from it on both sides are seeds, as bits in the order
    /// of [`LINES`]: the point was all that stood between them.
    #[inline(always)]
    pub fn cuts<K: Bits<Set = S>>(&self, k: K, point: S) -> u8 {
        let [east, north, north_east] = LINES;
        u8::from(between(k, self.east, east, self.west, point))
            | u8::from(between(k, self.north, north, self.south, point)) << 1
            | u8::from(between(
                k,
                self.north_east,
                north_east,
                self.south_west,
                point,
            )) << 2
    }
}

/// Whether `point` is one step past both `fill` in `dir` and `opposite` in
/// the opposite direction.
#[inline(always)]
fn between<K: Bits>(k: K, fill: K::Set, dir: Direction, opposite: K::Set, point: K::Set) -> bool {
    let ends = k.and(k.step(fill, dir, 1), k.step(opposite, dir.opposite(), 1));
    k.any(k.and(ends, point))
}

/// The three lines through a point, by one of their two directions: the
/// order of the bits of [`Fills::cuts`].
pub const LINES: [Direction; 3] = [Direction::East, Direction::North, Direction::NorthEast];

/// The points of `through` from which a point of `seeds` (outside
/// `through`) is the first point, in some direction, not in `through`: the
/// six fills, without the seeds ([`Bitboard::rays`]).
#[inline(always)]
pub fn rays<K: Bits>(k: K, seeds: K::Set, through: K::Set) -> K::Set {
    Fills::new(k, seeds, through).rays(k)
}

/// The set with the six neighbours of each point added, unmasked (see
/// [`Bits::step`]).
#[inline(always)]
pub fn neighbours<K: Bits>(k: K, set: K::Set) -> K::Set {
    // North and north-east together, as the north step of the set with its
    // east neighbours; likewise south and south-west.
    let with_east = k.or(set, k.step(set, Direction::East, 1));
    let with_west = k.or(set, k.step(set, Direction::West, 1));
    let up = k.step(with_east, Direction::North, 1);
    let down = k.step(with_west, Direction::South, 1);
    k.or(k.or(with_east, with_west), k.or(up, down))
}

/// The points of `within` connected to `seeds` through neighbours in
/// `within`.
#[inline(always)]
pub fn flood<K: Bits>(k: K, seeds: K::Set, within: K::Set) -> K::Set {
    let mut set = k.and(seeds, within);
    loop {
        // Two steps a round: half the comparisons and branches.
        let once = k.and(neighbours(k, set), within);
        let twice = k.and(neighbours(k, once), within);
        if k.same(twice, once) {
            return once;
        }
        set = twice;
    }
}

/// Whether a point of `group` sees a point of `others` across at least one
/// point of `empty` (disjoint from both): in some direction, an empty run
/// from the group ends on one of `others`.
///
/// Along the ranks first, both ways by the cheap fill east: from the group
/// to the others, and from the others to the group. Only then the other
/// four directions, all at once: each fill depends only on the inputs, so
/// the processor overlaps them.
#[inline(always)]
pub fn sees<K: Bits>(k: K, group: K::Set, others: K::Set, empty: K::Set) -> bool {
    let east = k.and(beyond(k, group, Direction::East, empty), others);
    let west = k.and(beyond(k, others, Direction::East, empty), group);
    if k.any(k.or(east, west)) {
        return true;
    }
    let north_south = k.or(
        beyond(k, group, Direction::North, empty),
        beyond(k, group, Direction::South, empty),
    );
    let diagonal = k.or(
        beyond(k, group, Direction::NorthEast, empty),
        beyond(k, group, Direction::SouthWest, empty),
    );
    k.any(k.and(k.or(north_south, diagonal), others))
}

/// The paths of `group` to `others` (the stones of the colour's other
/// groups): in each direction, the points of `others` at the end of an
/// empty run from the group, counted direction by direction until there
/// are `enough` (a group's paths up to that many are all a caller reads).
#[inline(always)]
pub fn paths<K: Bits>(k: K, group: K::Set, others: K::Set, empty: K::Set, enough: u32) -> u32 {
    // Written out, each direction a constant where it is compiled (and no
    // closure, which would not be compiled for the caller's features).
    let mut paths = path_ends(k, group, others, empty, Direction::East);
    if paths >= enough {
        return paths;
    }
    paths += path_ends(k, group, others, empty, Direction::West);
    if paths >= enough {
        return paths;
    }
    paths += path_ends(k, group, others, empty, Direction::North);
    if paths >= enough {
        return paths;
    }
    paths += path_ends(k, group, others, empty, Direction::South);
    if paths >= enough {
        return paths;
    }
    paths += path_ends(k, group, others, empty, Direction::NorthEast);
    if paths >= enough {
        return paths;
    }
    paths + path_ends(k, group, others, empty, Direction::SouthWest)
}

/// The points of `others` at the end of an empty run from `group` in
/// `dir`, counted.
#[inline(always)]
fn path_ends<K: Bits>(k: K, group: K::Set, others: K::Set, empty: K::Set, dir: Direction) -> u32 {
    k.store(k.and(beyond(k, group, dir, empty), others)).count()
}

/// The points one step in `dir` past the empty runs from `from` in `dir`
/// (`empty` disjoint from `from`): where they end, unmasked.
#[inline(always)]
fn beyond<K: Bits>(k: K, from: K::Set, dir: Direction, empty: K::Set) -> K::Set {
    let run = if dir == Direction::East {
        k.east_fill_disjoint(from, empty)
    } else {
        fill(k, from, empty, dir)
    };
    k.step(run, dir, 1)
}

/// The first points of `occupied` from the points of `from` in `dir`,
/// across empty points (`empty` disjoint from `from` and `occupied`).
#[inline(always)]
pub fn nearest<K: Bits>(
    k: K,
    from: K::Set,
    dir: Direction,
    empty: K::Set,
    occupied: K::Set,
) -> K::Set {
    k.and(beyond(k, from, dir, empty), occupied)
}

/// The kernel for any CPU: the word operations of [`Bitboard`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

/// The kernel of the portable back end, where the x86-64-v3 one is not
/// chosen: on x86-64 the SSE2 registers every such CPU has
/// ([`super::sse2::Sse2`]), elsewhere [`Portable`]. The same sets either way.
#[cfg(target_arch = "x86_64")]
pub type Baseline = super::sse2::Sse2;
/// The kernel of the portable back end: [`Portable`] off x86-64.
#[cfg(not(target_arch = "x86_64"))]
pub type Baseline = Portable;

impl Bits for Portable {
    #[inline(always)]
    fn select(self, word: u64, k: u32) -> u32 {
        crate::bits::select(word, k)
    }

    type Set = Bitboard;

    #[inline(always)]
    fn load(self, set: Bitboard) -> Bitboard {
        set
    }

    #[inline(always)]
    fn store(self, set: Bitboard) -> Bitboard {
        set
    }

    #[inline(always)]
    fn none(self) -> Bitboard {
        Bitboard::EMPTY
    }

    #[inline(always)]
    fn point(self, point: Point) -> Bitboard {
        Bitboard::from(point)
    }

    #[inline(always)]
    fn and(self, a: Bitboard, b: Bitboard) -> Bitboard {
        a & b
    }

    #[inline(always)]
    fn or(self, a: Bitboard, b: Bitboard) -> Bitboard {
        a | b
    }

    #[inline(always)]
    fn and_not(self, a: Bitboard, b: Bitboard) -> Bitboard {
        a - b
    }

    #[inline(always)]
    fn any(self, set: Bitboard) -> bool {
        set.any()
    }

    #[inline(always)]
    fn same(self, a: Bitboard, b: Bitboard) -> bool {
        a == b
    }

    #[inline(always)]
    fn step(self, set: Bitboard, dir: Direction, times: u32) -> Bitboard {
        Bitboard(bitboard::step(set.0, dir, times))
    }

    #[inline(always)]
    fn east_fill_disjoint(self, seeds: Bitboard, prop: Bitboard) -> Bitboard {
        let (seeds, prop) = (seeds.0, prop.0);
        // Runs end in padding at the latest, so no carry leaves its rank.
        Bitboard(core::array::from_fn(|i| {
            let starts = (seeds[i] << 1) & prop[i];
            seeds[i] | (prop[i] & !prop[i].wrapping_add(starts))
        }))
    }
}

/// The position of the `k`-th set bit of `word`, which has more than `k`:
/// by `pdep` on the x86-64-v3 kernel, else broadword
/// ([`crate::bits::select`]).
///
/// A playout picks every random action with it, on the path from one move
/// to the next.
#[inline(always)]
pub(crate) fn select(word: u64, k: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if crate::cpu::kernel() == crate::cpu::Kernel::X86V3 {
        // SAFETY: the x86-64-v3 kernel is chosen only on a CPU with BMI2.
        return unsafe { x86::select_pdep(word, k) };
    }
    crate::bits::select(word, k)
}

#[cfg(target_arch = "x86_64")]
pub use x86::X86V3;

// Before Rust 1.87 every intrinsic is an `unsafe fn`; from 1.87 on, most
// are safe to call in code compiled for their features, and the `unsafe`
// blocks around them, still needed by older compilers, become unused.
#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)]
mod x86 {
    use core::arch::x86_64::{
        __m256i, _mm256_add_epi16, _mm256_alignr_epi8, _mm256_and_si256, _mm256_andnot_si256,
        _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set_epi64x,
        _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_slli_epi16, _mm256_sllv_epi64,
        _mm256_srli_epi16, _mm256_storeu_si256, _mm256_sub_epi64, _mm256_testz_si256,
        _mm256_xor_si256, _pdep_u64,
    };

    use super::{Bitboard, Bits, Direction, Point};

    /// [`super::select`] by `pdep`: the `k`-th set bit of `word` is where
    /// `pdep` deposits bit `k`.
    ///
    /// # Safety
    ///
    /// The CPU must have BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    pub(super) unsafe fn select_pdep(word: u64, k: u32) -> u32 {
        // SAFETY: the caller makes sure of BMI2.
        unsafe { _pdep_u64(1 << k, word).trailing_zeros() }
    }

    /// The AVX2 kernel: a set is one 256-bit register, rank `r` in its
    /// 16-bit lane `r`.
    ///
    /// A value exists only on a CPU with AVX2 ([`X86V3::detect`]), which is
    /// what makes its methods safe. Code that inlines them must itself be
    /// compiled for AVX2 (`#[target_feature(enable = "avx2")]`) to get the
    /// instructions inline rather than a call per operation.
    #[derive(Clone, Copy, Debug)]
    pub struct X86V3(());

    impl X86V3 {
        /// `Some` on a CPU with AVX2 (the check reads a flag that the
        /// standard library caches).
        #[inline]
        pub fn detect() -> Option<X86V3> {
            std::arch::is_x86_feature_detected!("avx2").then_some(X86V3(()))
        }

        /// `Some` where the chosen kernel ([`crate::cpu::kernel`]) is
        /// the x86-64-v3 one, which is chosen only where the CPU has AVX2.
        #[inline]
        pub fn chosen() -> Option<X86V3> {
            (crate::cpu::kernel() == crate::cpu::Kernel::X86V3).then_some(X86V3(()))
        }
    }

    impl Bits for X86V3 {
        #[inline(always)]
        fn select(self, word: u64, k: u32) -> u32 {
            // SAFETY: the token exists only on the x86-64-v3 kernel, whose
            // CPUs have BMI2.
            unsafe { select_pdep(word, k) }
        }

        type Set = __m256i;

        #[inline(always)]
        fn load(self, set: Bitboard) -> __m256i {
            // SAFETY: the token proves AVX2; the load reads the 32 bytes of
            // the words.
            unsafe { load(&set.0) }
        }

        #[inline(always)]
        fn store(self, set: __m256i) -> Bitboard {
            let mut words = [0; 4];
            // SAFETY: the token proves AVX2; the store writes the 32 bytes of
            // the words.
            unsafe { store(&mut words, set) };
            Bitboard(words)
        }

        #[inline(always)]
        fn none(self) -> __m256i {
            // SAFETY: the token proves AVX2.
            unsafe { none() }
        }

        #[inline(always)]
        fn point(self, point: Point) -> __m256i {
            // SAFETY: the token proves AVX2.
            unsafe { one(point.index() as i64) }
        }

        #[inline(always)]
        fn and(self, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: the token proves AVX2.
            unsafe { and(a, b) }
        }

        #[inline(always)]
        fn or(self, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: the token proves AVX2.
            unsafe { or(a, b) }
        }

        #[inline(always)]
        fn and_not(self, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: the token proves AVX2.
            unsafe { and_not(a, b) }
        }

        #[inline(always)]
        fn any(self, set: __m256i) -> bool {
            // SAFETY: the token proves AVX2.
            unsafe { any(set) }
        }

        #[inline(always)]
        fn same(self, a: __m256i, b: __m256i) -> bool {
            // SAFETY: the token proves AVX2.
            unsafe { !any(xor(a, b)) }
        }

        #[inline(always)]
        fn step(self, set: __m256i, dir: Direction, times: u32) -> __m256i {
            // SAFETY: the token proves AVX2.
            unsafe {
                match dir {
                    Direction::East => east(set, times),
                    Direction::West => west(set, times),
                    Direction::North => north(set, times),
                    Direction::South => south(set, times),
                    Direction::NorthEast => east(north(set, times), times),
                    Direction::SouthWest => west(south(set, times), times),
                }
            }
        }

        #[inline(always)]
        fn east_fill_disjoint(self, seeds: __m256i, prop: __m256i) -> __m256i {
            // SAFETY: the token proves AVX2.
            unsafe { east_fill_disjoint(seeds, prop) }
        }
    }

    // The operations, each compiled for AVX2; they inline into callers that
    // are compiled for it too.

    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load(words: &[u64; 4]) -> __m256i {
        // SAFETY: the caller makes sure of AVX2; `words` is 32 bytes.
        unsafe { _mm256_loadu_si256(words.as_ptr().cast()) }
    }

    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn store(words: &mut [u64; 4], set: __m256i) {
        // SAFETY: the caller makes sure of AVX2; `words` is 32 bytes.
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), set) }
    }

    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn none() -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe { _mm256_setzero_si256() }
    }

    /// The set of bit `index` (below 256), made in registers: a set written
    /// to memory word by word and loaded whole would wait for the writes.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn one(index: i64) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe {
            // Word i shifts 1 left by `index - 64 i`: by 64 or more (or a
            // negative count, as unsigned) a shift gives 0.
            let counts = _mm256_sub_epi64(
                _mm256_set1_epi64x(index),
                _mm256_set_epi64x(192, 128, 64, 0),
            );
            _mm256_sllv_epi64(_mm256_set1_epi64x(1), counts)
        }
    }

    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn and(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe { _mm256_and_si256(a, b) }
    }

    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn or(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe { _mm256_or_si256(a, b) }
    }

    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn xor(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe { _mm256_xor_si256(a, b) }
    }

    /// `a` without `b`.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn and_not(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe { _mm256_andnot_si256(b, a) }
    }

    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn any(set: __m256i) -> bool {
        // SAFETY: the caller makes sure of AVX2.
        unsafe { _mm256_testz_si256(set, set) == 0 }
    }

    /// Each lane shifted up by `times` bits: `times` steps east.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn east(set: __m256i, times: u32) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe {
            match times {
                1 => _mm256_slli_epi16::<1>(set),
                2 => _mm256_slli_epi16::<2>(set),
                4 => _mm256_slli_epi16::<4>(set),
                8 => _mm256_slli_epi16::<8>(set),
                _ => unreachable!("steps of 1, 2, 4 or 8"),
            }
        }
    }

    /// Each lane shifted down by `times` bits: `times` steps west.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn west(set: __m256i, times: u32) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe {
            match times {
                1 => _mm256_srli_epi16::<1>(set),
                2 => _mm256_srli_epi16::<2>(set),
                4 => _mm256_srli_epi16::<4>(set),
                8 => _mm256_srli_epi16::<8>(set),
                _ => unreachable!("steps of 1, 2, 4 or 8"),
            }
        }
    }

    /// The lanes moved up by `times`: `times` steps north.
    ///
    /// AVX2 shifts bytes only within each 128-bit half, so the lower half
    /// is first moved into the upper one (the lower filled with zeros), and
    /// `alignr` takes each half's bytes together with those below them.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn north(set: __m256i, times: u32) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe {
            let below = _mm256_permute2x128_si256::<0x08>(set, set);
            match times {
                1 => _mm256_alignr_epi8::<14>(set, below),
                2 => _mm256_alignr_epi8::<12>(set, below),
                4 => _mm256_alignr_epi8::<8>(set, below),
                8 => below,
                _ => unreachable!("steps of 1, 2, 4 or 8"),
            }
        }
    }

    /// The lanes moved down by `times`: `times` steps south.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn south(set: __m256i, times: u32) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe {
            let above = _mm256_permute2x128_si256::<0x81>(set, set);
            match times {
                1 => _mm256_alignr_epi8::<2>(above, set),
                2 => _mm256_alignr_epi8::<4>(above, set),
                4 => _mm256_alignr_epi8::<8>(above, set),
                8 => above,
                _ => unreachable!("steps of 1, 2, 4 or 8"),
            }
        }
    }

    /// [`Bits::east_fill_disjoint`] with 16-bit additions: a carry never
    /// leaves its lane.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn east_fill_disjoint(seeds: __m256i, prop: __m256i) -> __m256i {
        // SAFETY: the caller makes sure of AVX2.
        unsafe {
            let starts = _mm256_and_si256(_mm256_slli_epi16::<1>(seeds), prop);
            let cleared = _mm256_add_epi16(prop, starts);
            _mm256_or_si256(seeds, _mm256_andnot_si256(cleared, prop))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// A random set of grid points with about `density` percent of them.
    fn random_set(rng: &mut Rng, density: u64) -> Bitboard {
        Bitboard::GRID
            .iter()
            .filter(|_| rng.below(100) < density)
            .collect()
    }

    fn points(set: Bitboard) -> impl Iterator<Item = Bitboard> {
        set.iter().map(Bitboard::from)
    }

    /// Every operation of `k` against the portable one, on random sets of
    /// every density.
    fn check<K: Bits>(k: K) {
        let p = Portable;
        let mut rng = Rng::for_game(23, 0);
        for round in 0..400 {
            let a = random_set(&mut rng, round % 100);
            let b = random_set(&mut rng, (round * 7) % 100);
            let (ka, kb) = (k.load(a), k.load(b));
            assert_eq!(k.store(ka), a);
            assert_eq!(k.store(k.none()), Bitboard::EMPTY);
            for point in a.iter().take(3).chain(Bitboard::GRID.iter().step_by(41)) {
                assert_eq!(k.store(k.point(point)), Bitboard::from(point));
            }
            assert_eq!(k.store(k.and(ka, kb)), a & b);
            assert_eq!(k.store(k.or(ka, kb)), a | b);
            assert_eq!(k.store(k.and_not(ka, kb)), a - b);
            assert_eq!(k.any(ka), a.any());
            assert_eq!(k.same(ka, kb), a == b);
            assert!(k.same(ka, k.load(a)));
            for dir in Direction::ALL {
                let stepped = k.store(k.step(ka, dir, 1)) & Bitboard::GRID;
                assert_eq!(stepped, a.shift(dir), "{dir:?}");
                assert_eq!(k.store(fill(k, ka, kb, dir)), fill(p, a, b, dir), "{dir:?}");
            }
            let seeds = a - b;
            assert_eq!(
                k.store(k.east_fill_disjoint(k.load(seeds), kb)),
                fill(p, seeds, b, Direction::East)
            );
            assert_eq!(k.store(rays(k, ka, kb)), rays(p, a, b));
            let grid = k.load(Bitboard::GRID);
            assert_eq!(
                k.store(k.and(neighbours(k, ka), grid)),
                neighbours(p, a) & Bitboard::GRID
            );
            // Groups of `a`, and whether each sees another stone of `a`
            // across the points of neither.
            let empty = Bitboard::GRID - a - b;
            for seed in points(a).take(8) {
                let group = flood(p, seed, a);
                assert_eq!(k.store(flood(k, k.load(seed), ka)), group);
                assert_eq!(
                    sees(k, k.load(group), k.load(a - group), k.load(empty)),
                    sees(p, group, a - group, empty)
                );
            }
            for from in points(b).take(4) {
                for dir in Direction::ALL {
                    assert_eq!(
                        k.store(nearest(k, k.load(from), dir, k.load(empty), ka)),
                        nearest(p, from, dir, empty, a)
                    );
                }
            }
        }
    }

    /// The portable kernel against walks point by point.
    #[test]
    fn portable_follows_the_definitions() {
        let p = Portable;
        let mut rng = Rng::for_game(29, 0);
        for round in 0..200 {
            let stones = random_set(&mut rng, round % 100);
            let empty = Bitboard::GRID - stones;
            for from in points(stones).take(6) {
                for dir in Direction::ALL {
                    let mut at = from.first();
                    let mut first = Bitboard::EMPTY;
                    while let Some(point) = at.and_then(|point| point.step(dir)) {
                        if stones.contains(point) {
                            first = Bitboard::from(point);
                            break;
                        }
                        at = Some(point);
                    }
                    assert_eq!(nearest(p, from, dir, empty, stones), first, "{dir:?}");
                }
                let group = flood(p, from, stones);
                let mut slow = from;
                loop {
                    let next = slow
                        .iter()
                        .flat_map(|point| Direction::ALL.map(|dir| point.step(dir)))
                        .flatten()
                        .filter(|&point| stones.contains(point))
                        .collect::<Bitboard>()
                        | slow;
                    if next == slow {
                        break;
                    }
                    slow = next;
                }
                assert_eq!(group, slow);
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn pdep_selects_like_the_portable_selection() {
        // Not on a CPU without BMI2: nothing to test there.
        if !crate::cpu::Kernel::X86V3.is_supported() {
            return;
        }
        let mut rng = Rng::for_game(31, 0);
        for round in 0..2000 {
            let word = match round % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64() | rng.next_u64(),
            };
            for k in 0..word.count_ones() {
                // SAFETY: the CPU has BMI2 (checked above).
                let bit = unsafe { x86::select_pdep(word, k) };
                assert_eq!(bit, crate::bits::select(word, k));
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn sse2_follows_the_word_kernel() {
        check(super::super::sse2::Sse2);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_follows_the_portable_back_end() {
        // Not on a CPU without AVX2: nothing to test there.
        if let Some(avx2) = X86V3::detect() {
            check(avx2);
        }
    }
}
