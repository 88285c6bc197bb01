//! The bit work of the micro playouts, in two implementations with identical
//! results: [`Portable`] for any CPU, and on x86-64 `X86V3`, with the BMI2
//! and AVX2 instructions of the x86-64-v3 level, picked at run time by
//! `X86V3::detect`.
//!
//! A playout spends most of its time on two things: the reach of a square
//! (its 8 lines, each cut at the first blocker) and the `k`-th square of a
//! set (the chosen action). Both are written against [`Bits`], so that one
//! playout loop serves both implementations; [`reach`] and [`nth`] give the
//! rest of the code (the decisions of the search, the position's moves) the
//! chosen one.

use super::bitboard::Bitboard;
use super::lines;
use super::square::Square;
use crate::bits::{running_counts, select_counted};
use crate::rng::Rng;

/// The bit work a playout needs: reaches, counted and picked from.
///
/// Every implementation gives the same results; only the speed differs.
pub trait Bits: Copy {
    /// A reach in the implementation's own form.
    type Reach: Copy;

    /// The empty squares along the 8 lines of `from`, each line ending at its
    /// first blocker: [`lines::reach`].
    fn reach(self, from: Square, blockers: Bitboard, empty: Bitboard) -> Self::Reach;

    /// Whether `reach` has no square.
    fn is_empty(self, reach: Self::Reach) -> bool;

    /// The number of squares of `reach`.
    fn count(self, reach: Self::Reach) -> u32;

    /// The `k`-th lowest square of `reach`, which has more than `k`.
    fn nth(self, reach: Self::Reach, k: u32) -> Square;

    /// `reach` as a set of squares.
    fn squares(self, reach: Self::Reach) -> Bitboard;

    /// The squares along the 8 lines of `from`, each line ending at its
    /// first blocker, that included: [`lines::lines`]. What a reach depends
    /// on: the reach is its empty squares.
    fn sight(self, from: Square, blockers: Bitboard) -> Bitboard;

    /// The `k`-th lowest square of `set` ([`Bitboard::nth`]), which has more
    /// than `k`.
    fn nth_square(self, set: Bitboard, k: u32) -> Square;

    /// A uniformly drawn square of the non-empty `reach`: its
    /// `rng.below(count)`-th, the micro policy's draw.
    #[inline(always)]
    fn draw(self, reach: Self::Reach, rng: &mut Rng) -> Square {
        let k = rng.below(u64::from(self.count(reach))) as u32;
        self.nth(reach, k)
    }

    /// [`Bits::draw`] of a set of squares.
    #[inline(always)]
    fn draw_square(self, set: Bitboard, rng: &mut Rng) -> Square {
        let k = rng.below(u64::from(set.count())) as u32;
        self.nth_square(set, k)
    }

    /// The union of [`Bits::sight`] of every square of `from`.
    #[inline(always)]
    fn sights(self, from: Bitboard, blockers: Bitboard) -> Bitboard {
        let mut seen = Bitboard::EMPTY;
        for square in from {
            seen |= self.sight(square, blockers);
        }
        seen
    }

    /// A uniform draw among the squares of `set` and one other choice
    /// after them (a turn's shooters, then PASS): the `rng.below(count +
    /// 1)`-th, `None` for the other choice.
    #[inline(always)]
    fn draw_or_other(self, set: Bitboard, rng: &mut Rng) -> Option<Square> {
        let count = set.count();
        let k = rng.below(u64::from(count) + 1) as u32;
        (k < count).then(|| self.nth_square(set, k))
    }
}

/// Plain bitboard code: the line tables of [`lines`] and [`Bitboard::nth`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

impl Bits for Portable {
    type Reach = Bitboard;

    #[inline(always)]
    fn reach(self, from: Square, blockers: Bitboard, empty: Bitboard) -> Bitboard {
        lines::reach(from, blockers, empty)
    }

    #[inline(always)]
    fn is_empty(self, reach: Bitboard) -> bool {
        reach.is_empty()
    }

    #[inline(always)]
    fn count(self, reach: Bitboard) -> u32 {
        reach.count()
    }

    #[inline(always)]
    fn nth(self, reach: Bitboard, k: u32) -> Square {
        self.nth_square(reach, k)
    }

    #[inline(always)]
    fn squares(self, reach: Bitboard) -> Bitboard {
        reach
    }

    #[inline(always)]
    fn sight(self, from: Square, blockers: Bitboard) -> Bitboard {
        lines::lines(from, blockers)
    }

    #[inline(always)]
    fn sights(self, from: Bitboard, blockers: Bitboard) -> Bitboard {
        lines::lines_of_all(from, blockers)
    }

    #[inline(always)]
    fn nth_square(self, set: Bitboard, k: u32) -> Square {
        set.nth(k).expect("the set has more than k squares")
    }

    /// The count and the selection from one pass over each word's bytes:
    /// without a hardware bit count, counting is most of a selection's work.
    #[inline(always)]
    fn draw(self, reach: Bitboard, rng: &mut Rng) -> Square {
        self.draw_square(reach, rng)
    }

    #[inline(always)]
    fn draw_square(self, set: Bitboard, rng: &mut Rng) -> Square {
        let counted = Counted::of(set);
        counted.nth(rng.below(u64::from(counted.count())) as u32)
    }

    /// As [`Portable::draw_square`]: the count and the selection from one
    /// pass over the bytes.
    #[inline(always)]
    fn draw_or_other(self, set: Bitboard, rng: &mut Rng) -> Option<Square> {
        let counted = Counted::of(set);
        let k = rng.below(u64::from(counted.count()) + 1) as u32;
        (k < counted.count()).then(|| counted.nth(k))
    }
}

/// A set with the running bit counts of its low and high words' bytes
/// ([`running_counts`]): its count and its `k`-th square from one pass over
/// the bytes.
#[derive(Clone, Copy)]
struct Counted {
    set: Bitboard,
    low: u64,
    high: u64,
}

impl Counted {
    #[inline(always)]
    fn of(set: Bitboard) -> Counted {
        Counted {
            set,
            low: running_counts(set.0 as u64),
            high: running_counts((set.0 >> 64) as u64),
        }
    }

    /// The squares in the low word (its running count's top byte).
    #[inline(always)]
    fn below(self) -> u32 {
        (self.low >> 56) as u32
    }

    #[inline(always)]
    fn count(self) -> u32 {
        self.below() + (self.high >> 56) as u32
    }

    /// The `k`-th lowest square, for `k` below the count.
    #[inline(always)]
    fn nth(self, k: u32) -> Square {
        let (word, k, base) = self.set.word_of(k, self.below());
        let running = if base == 0 { self.low } else { self.high };
        Square::from_index_unchecked(base + select_counted(word, running, k))
    }
}

#[cfg(target_arch = "x86_64")]
pub use x86::X86V3;

/// [`lines::reach`] on the chosen kernel ([`crate::cpu::kernel`]), for the
/// code that is not compiled for one (the position's moves, the search's
/// decisions): the same squares, a call to the x86-64-v3 kernel where it is
/// chosen.
#[inline]
pub fn reach(from: Square, blockers: Bitboard, empty: Bitboard) -> Bitboard {
    #[cfg(target_arch = "x86_64")]
    if let Some(x86_v3) = X86V3::chosen() {
        // SAFETY: an `X86V3` exists only on a CPU with its features.
        return unsafe { reach_x86_v3(x86_v3, from, blockers, empty) };
    }
    lines::reach(from, blockers, empty)
}

/// [`reach`] compiled for the features of [`X86V3`].
///
/// # Safety
///
/// The CPU must have them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
unsafe fn reach_x86_v3(
    x86_v3: X86V3,
    from: Square,
    blockers: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    x86_v3.squares(x86_v3.reach(from, blockers, empty))
}

/// [`Bitboard::nth`] on the chosen kernel, like [`reach`].
#[inline]
pub fn nth(set: Bitboard, k: u32) -> Option<Square> {
    #[cfg(target_arch = "x86_64")]
    if let Some(x86_v3) = X86V3::chosen() {
        // SAFETY: an `X86V3` exists only on a CPU with its features.
        return (k < set.count()).then(|| unsafe { nth_x86_v3(x86_v3, set, k) });
    }
    set.nth(k)
}

/// [`nth`] compiled for the features of [`X86V3`], for a `set` with more
/// than `k` squares.
///
/// # Safety
///
/// The CPU must have them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
unsafe fn nth_x86_v3(x86_v3: X86V3, set: Bitboard, k: u32) -> Square {
    x86_v3.nth_square(set, k)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use core::arch::x86_64::{
        _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_and_si256, _mm256_castpd_si256,
        _mm256_castsi256_pd, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
        _mm256_or_si256, _mm256_set1_epi64x, _mm256_sllv_epi64, _mm256_srli_epi64,
        _mm256_sub_epi64, _mm256_sub_pd, _mm256_xor_si256, _pdep_u64, _pext_u64,
    };

    use super::{Bitboard, Bits, Square, lines};

    /// The lines of one square, gathered into the low bits of a `u64`.
    ///
    /// `pext` with the square's line mask packs the squares of its 8 lines
    /// (at most 35 of them) into the low bits of a word, in ascending order,
    /// so that the reach is worked out on one word instead of two, and its
    /// `k`-th square is the `k`-th bit, found by `pdep`.
    #[derive(Clone, Copy, Debug)]
    #[repr(C, align(64))]
    struct Star {
        /// Per line (two opposite directions), its squares below the square,
        /// packed; one line per 64-bit lane of an AVX2 register.
        below: [u64; 4],
        /// ... and its squares above the square.
        above: [u64; 4],
        /// The lines of the square on the empty 10x10 grid, low and high word.
        mask: [u64; 2],
        /// Bits of the low word of `mask`: where the high word's squares start.
        split: u32,
        /// The bitboard index of each packed bit.
        squares: [u8; 36],
    }

    const EMPTY_STAR: Star = Star {
        below: [0; 4],
        above: [0; 4],
        mask: [0; 2],
        split: 0,
        squares: [0; 36],
    };

    /// `pext` for the const tables.
    const fn pack(bits: u128, mask: u128) -> u64 {
        let (mut packed, mut out, mut index) = (0, 0, 0);
        while index < 128 {
            if mask >> index & 1 == 1 {
                packed |= ((bits >> index & 1) as u64) << out;
                out += 1;
            }
            index += 1;
        }
        packed
    }

    static STARS: [Star; lines::ROWS] = {
        let mut stars = [EMPTY_STAR; lines::ROWS];
        let mut index = 0;
        while index < lines::ROWS {
            let (up, down) = (&lines::RAYS_UP[index], &lines::RAYS_DOWN[index]);
            let mask = up[0] | up[1] | up[2] | up[3] | down[0] | down[1] | down[2] | down[3];
            let star = &mut stars[index];
            // RAYS_UP[dir] and RAYS_DOWN[dir] run in opposite directions.
            let mut dir = 0;
            while dir < 4 {
                star.below[dir] = pack(down[dir], mask);
                star.above[dir] = pack(up[dir], mask);
                dir += 1;
            }
            star.mask = [mask as u64, (mask >> 64) as u64];
            star.split = (mask as u64).count_ones();
            let (mut bit, mut k) = (0, 0);
            while bit < 128 {
                if mask >> bit & 1 == 1 {
                    star.squares[k] = bit as u8;
                    k += 1;
                }
                bit += 1;
            }
            index += 1;
        }
        stars
    };

    /// The x86-64-v3 instructions of the kernel: `pext` and `pdep` (BMI2),
    /// `lzcnt` and `tzcnt`, and AVX2 to cut the 4 lines of a square at once.
    ///
    /// A value exists only on a CPU that has them ([`X86V3::detect`]), which
    /// is what makes its methods safe. Code that inlines them must itself
    /// be compiled for these features (`#[target_feature(enable =
    /// "avx2,bmi1,bmi2,lzcnt")]`) to get the instructions inline.
    #[derive(Clone, Copy, Debug)]
    pub struct X86V3(());

    impl X86V3 {
        /// `Some` on a CPU with AVX2, BMI1, BMI2 and LZCNT where `pext` and
        /// `pdep` are fast: Intel from Haswell on, AMD from Zen 3 on. (Zen 1
        /// and 2 run them in microcode, many times slower than the portable
        /// code.)
        pub fn detect() -> Option<X86V3> {
            crate::cpu::fast_x86_v3().then_some(X86V3(()))
        }

        /// `Some` on a CPU with AVX2, BMI1, BMI2 and LZCNT, whether `pext`
        /// and `pdep` are fast there or not: where this kernel gives
        /// correct results, which is what the tests need.
        pub fn supported() -> Option<X86V3> {
            crate::cpu::has_x86_v3().then_some(X86V3(()))
        }

        /// `Some` where the chosen kernel ([`crate::cpu::kernel`]) is
        /// this one, which is chosen only where the CPU supports it.
        #[inline]
        pub fn chosen() -> Option<X86V3> {
            (crate::cpu::kernel() == crate::cpu::Kernel::X86V3).then_some(X86V3(()))
        }

        /// The squares of `set` among the lines of `star`, packed.
        #[inline(always)]
        fn pack(self, star: &Star, set: Bitboard) -> u64 {
            let [low, high] = star.mask;
            self.pext(set.0 as u64, low) | self.pext((set.0 >> 64) as u64, high) << star.split
        }

        /// The squares of the packed bits `packed` of the lines of `star`.
        #[inline(always)]
        fn unpack(self, star: &Star, packed: u64) -> Bitboard {
            let [low, high] = star.mask;
            let low = self.pdep(packed, low);
            let high = self.pdep(packed >> star.split, high);
            Bitboard(u128::from(high) << 64 | u128::from(low))
        }

        #[inline(always)]
        #[expect(clippy::unused_self, reason = "the value proves BMI2")]
        fn pext(self, word: u64, mask: u64) -> u64 {
            // SAFETY: an `X86V3` exists only where the CPU has BMI2.
            unsafe { pext(word, mask) }
        }

        #[inline(always)]
        #[expect(clippy::unused_self, reason = "the value proves BMI2")]
        fn pdep(self, word: u64, mask: u64) -> u64 {
            // SAFETY: an `X86V3` exists only where the CPU has BMI2.
            unsafe { pdep(word, mask) }
        }

        /// The position of the `k`-th set bit of `word`, which has more.
        #[inline(always)]
        fn select(self, word: u64, k: u32) -> u32 {
            self.pdep(1 << k, word).trailing_zeros()
        }

        #[inline(always)]
        #[expect(clippy::unused_self, reason = "the value proves AVX2")]
        fn lines(self, star: &Star, blockers: u64) -> u64 {
            // SAFETY: an `X86V3` exists only where the CPU has AVX2.
            unsafe { lines(star, blockers) }
        }
    }

    /// # Safety
    ///
    /// The CPU must have BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    unsafe fn pext(word: u64, mask: u64) -> u64 {
        _pext_u64(word, mask)
    }

    /// # Safety
    ///
    /// The CPU must have BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    unsafe fn pdep(word: u64, mask: u64) -> u64 {
        _pdep_u64(word, mask)
    }

    /// The packed squares of the 8 lines of the square of `star`, each line
    /// ending at its first square in `blockers` (packed), that included.
    ///
    /// One line per 64-bit lane. In a lane, the squares from the highest
    /// blocker below the square up to the lowest one above it are the bits
    /// that `hit ^ (hit - highest)` sets, where `hit` is the blockers above
    /// and `highest` the highest blocker below, isolated (bit 0 stands in
    /// for none: below the lowest square of the lane, or that square, which
    /// is then kept either way); the line's own squares are kept.
    ///
    /// AVX2 has no `lzcnt` to find `highest`; a double does it: a packed set
    /// is below 2^36 (35 squares at most), so setting it into the bits of
    /// 2^52 and subtracting 2^52 converts it exactly, and the exponent of the
    /// double is the index of its highest bit.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn lines(star: &Star, blockers: u64) -> u64 {
        const TWO_52: i64 = 0x4330_0000_0000_0000;
        // SAFETY: the caller makes sure of AVX2; the loads read the 32 bytes
        // of `below` and `above`.
        unsafe {
            let below = _mm256_loadu_si256(star.below.as_ptr().cast());
            let above = _mm256_loadu_si256(star.above.as_ptr().cast());
            let blockers = _mm256_set1_epi64x(blockers as i64);
            let one = _mm256_set1_epi64x(1);
            let low = _mm256_or_si256(_mm256_and_si256(below, blockers), one);
            let magic = _mm256_set1_epi64x(TWO_52);
            let double = _mm256_sub_pd(
                _mm256_castsi256_pd(_mm256_or_si256(low, magic)),
                _mm256_castsi256_pd(magic),
            );
            let log = _mm256_sub_epi64(
                _mm256_srli_epi64(_mm256_castpd_si256(double), 52),
                _mm256_set1_epi64x(1023),
            );
            let highest = _mm256_sllv_epi64(one, log);
            let hit = _mm256_and_si256(above, blockers);
            let between = _mm256_xor_si256(hit, _mm256_sub_epi64(hit, highest));
            let seen = _mm256_and_si256(between, _mm256_or_si256(below, above));
            // The union of the 4 lanes.
            let half = _mm_or_si128(
                _mm256_castsi256_si128(seen),
                _mm256_extracti128_si256(seen, 1),
            );
            _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
        }
    }

    /// A reach: the packed squares of the lines of `from`.
    #[derive(Clone, Copy, Debug)]
    pub struct PackedReach {
        bits: u64,
        star: &'static Star,
    }

    impl Bits for X86V3 {
        type Reach = PackedReach;

        #[inline(always)]
        fn reach(self, from: Square, blockers: Bitboard, empty: Bitboard) -> PackedReach {
            // A square index is below 110: the mask only drops the bounds check.
            let star = &STARS[from.index() & 127];
            let seen = self.lines(star, self.pack(star, blockers));
            PackedReach {
                bits: seen & self.pack(star, empty),
                star,
            }
        }

        #[inline(always)]
        fn is_empty(self, reach: PackedReach) -> bool {
            reach.bits == 0
        }

        #[inline(always)]
        fn count(self, reach: PackedReach) -> u32 {
            reach.bits.count_ones()
        }

        #[inline(always)]
        fn nth(self, reach: PackedReach, k: u32) -> Square {
            let bit = self.select(reach.bits, k);
            Square::from_index_unchecked(u32::from(reach.star.squares[bit as usize]))
        }

        #[inline(always)]
        fn squares(self, reach: PackedReach) -> Bitboard {
            self.unpack(reach.star, reach.bits)
        }

        #[inline(always)]
        fn sight(self, from: Square, blockers: Bitboard) -> Bitboard {
            let star = &STARS[from.index() & 127];
            self.unpack(star, self.lines(star, self.pack(star, blockers)))
        }

        #[inline(always)]
        fn nth_square(self, set: Bitboard, k: u32) -> Square {
            let low = set.0 as u64;
            let below = low.count_ones();
            let (word, k, base) = if k < below {
                (low, k, 0)
            } else {
                ((set.0 >> 64) as u64, k - below, 64)
            };
            Square::from_index_unchecked(base + self.select(word, k))
        }
    }
}

/// A kernel of [`Bits`], for the tests that check every one the CPU can run.
#[cfg(test)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Runnable {
    Portable(Portable),
    #[cfg(target_arch = "x86_64")]
    X86V3(X86V3),
}

#[cfg(test)]
impl Runnable {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Runnable::Portable(_) => "portable",
            #[cfg(target_arch = "x86_64")]
            Runnable::X86V3(_) => "x86-64-v3",
        }
    }
}

/// Every kernel this CPU can run, judged by its instructions alone:
/// [`Portable`], and on x86-64 `X86V3` wherever the CPU has AVX2, BMI1, BMI2
/// and LZCNT, even where `X86V3::detect` passes it over as slow (AMD Zen 1
/// and 2), since its results must be right there too.
#[cfg(test)]
pub(crate) fn runnable_kernels() -> Vec<Runnable> {
    let mut kernels = vec![Runnable::Portable(Portable)];
    #[cfg(target_arch = "x86_64")]
    if let Some(x86_v3) = X86V3::supported() {
        kernels.push(Runnable::X86V3(x86_v3));
    }
    kernels
}

/// Tells which kernels `test` checked, and why any other was left out, on
/// stderr past the test harness's capture, so that it shows in the output
/// of `cargo test` even when the test passes.
#[cfg(test)]
pub(crate) fn report_kernels(test: &str, checked: &[Runnable]) {
    use std::io::Write;

    let names: Vec<&str> = checked.iter().map(|kernel| kernel.name()).collect();
    let mut line = format!("{test}: checked the kernels {}", names.join(", "));
    if cfg!(target_arch = "x86_64") && !names.contains(&"x86-64-v3") {
        line.push_str(" (not x86-64-v3: this CPU lacks AVX2, BMI1, BMI2 or LZCNT)");
    }
    // Written to the handle, not with `eprintln!`, which the harness
    // captures; on a line of its own amid the harness's "test ... ok".
    let _ = writeln!(std::io::stderr(), "\n{line}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random_set(rng: &mut Rng, density: u64) -> Bitboard {
        let mut set = Bitboard::EMPTY;
        for square in Bitboard::FULL {
            if rng.below(100) < density {
                set.add(square);
            }
        }
        set
    }

    /// Every implementation against the line tables, on random positions.
    fn check<B: Bits>(bits: B) {
        let mut rng = Rng::for_game(17, 0);
        for round in 0..400 {
            let blockers = random_set(&mut rng, round % 60);
            let empty = !blockers - random_set(&mut rng, 10);
            for from in Bitboard::FULL {
                let expected = lines::reach(from, blockers, empty);
                let reach = bits.reach(from, blockers, empty);
                assert_eq!(bits.squares(reach), expected, "{from}\n{blockers}");
                assert_eq!(bits.sight(from, blockers), lines::lines(from, blockers));
                assert_eq!(bits.count(reach), expected.count());
                assert_eq!(bits.is_empty(reach), expected.is_empty());
                for (k, square) in expected.iter().enumerate() {
                    assert_eq!(bits.nth(reach, k as u32), square);
                }
            }
            let set = random_set(&mut rng, round % 100);
            for (k, square) in set.iter().enumerate() {
                assert_eq!(bits.nth_square(set, k as u32), square);
            }
        }
    }

    #[test]
    fn the_chosen_kernels_reach_and_k_th_square_are_the_line_tables() {
        // Whichever kernel this CPU chose: the code outside the playout
        // loops gets the same squares through it.
        let mut rng = Rng::for_game(18, 0);
        for round in 0..100 {
            let blockers = random_set(&mut rng, round % 60);
            let empty = !blockers - random_set(&mut rng, 10);
            for from in Bitboard::FULL {
                assert_eq!(
                    reach(from, blockers, empty),
                    lines::reach(from, blockers, empty)
                );
            }
            let set = random_set(&mut rng, round);
            for k in 0..=set.count() {
                assert_eq!(nth(set, k), set.nth(k));
            }
        }
    }

    #[test]
    fn every_runnable_backend_follows_the_line_tables() {
        let kernels = runnable_kernels();
        for kernel in &kernels {
            match *kernel {
                Runnable::Portable(bits) => check(bits),
                #[cfg(target_arch = "x86_64")]
                Runnable::X86V3(bits) => check(bits),
            }
        }
        report_kernels("kernel: reach, sight and k-th square", &kernels);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x86_v3_runs_wherever_the_cpu_has_its_instructions() {
        // By the instructions alone, not by whether `detect` judges them fast.
        let has = std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt");
        let runnable = runnable_kernels();
        let x86_v3 = runnable
            .iter()
            .any(|kernel| matches!(kernel, Runnable::X86V3(_)));
        assert_eq!(x86_v3, has);
        assert!(X86V3::detect().is_none() || x86_v3);
    }
}
