//! The portable back end's kernel on x86-64: a set of points in two SSE2
//! registers, which every x86-64 CPU has. The same sets as
//! [`Portable`](super::kernel::Portable) on the four words of a
//! [`Bitboard`], in fewer instructions (a random game of 6-7, about 30%
//! fewer): an intersection or a union is two instructions instead of four,
//! a step along a rank a 16-bit shift of each register (a rank is a 16-bit
//! lane, as on the x86-64-v3 kernel), and a step across ranks a byte shift
//! of each register with the bytes that cross from one register to the
//! other.

use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128};

use super::bitboard::{Bitboard, Direction};
use super::kernel::Bits;
use super::point::Point;

/// The SSE2 instructions of the kernel as safe functions: SSE2 is part of
/// every x86-64 target, enabled for all the code the compiler builds for
/// it (checked below), so they run wherever this code runs.
mod sse2_ops {
    use core::arch::x86_64::{
        __m128i, _mm_add_epi16, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_movemask_epi8,
        _mm_or_si128, _mm_setzero_si128, _mm_slli_epi16, _mm_slli_si128, _mm_srli_epi16,
        _mm_srli_si128, _mm_xor_si128,
    };

    const _: () = assert!(cfg!(target_feature = "sse2"), "x86-64 has SSE2");

    // SAFETY (every function below): SSE2 is enabled (see above).

    #[inline(always)]
    pub fn zero() -> __m128i {
        unsafe { _mm_setzero_si128() }
    }

    #[inline(always)]
    pub fn and(a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_and_si128(a, b) }
    }

    #[inline(always)]
    pub fn or(a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_or_si128(a, b) }
    }

    #[inline(always)]
    pub fn xor(a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_xor_si128(a, b) }
    }

    /// `a` without the bits of `b`.
    #[inline(always)]
    pub fn and_not(a: __m128i, b: __m128i) -> __m128i {
        // `andnot` complements its first operand.
        unsafe { _mm_andnot_si128(b, a) }
    }

    /// Lane by lane, 16-bit additions.
    #[inline(always)]
    pub fn add16(a: __m128i, b: __m128i) -> __m128i {
        unsafe { _mm_add_epi16(a, b) }
    }

    /// Whether a bit is set.
    #[inline(always)]
    pub fn nonzero(word: __m128i) -> bool {
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(word, _mm_setzero_si128())) != 0xFFFF }
    }

    /// Each 16-bit lane shifted up by `BITS`.
    #[inline(always)]
    pub fn lanes_up<const BITS: i32>(word: __m128i) -> __m128i {
        unsafe { _mm_slli_epi16::<BITS>(word) }
    }

    /// Each 16-bit lane shifted down by `BITS`.
    #[inline(always)]
    pub fn lanes_down<const BITS: i32>(word: __m128i) -> __m128i {
        unsafe { _mm_srli_epi16::<BITS>(word) }
    }

    /// The register shifted up by `BYTES` bytes.
    #[inline(always)]
    pub fn bytes_up<const BYTES: i32>(word: __m128i) -> __m128i {
        unsafe { _mm_slli_si128::<BYTES>(word) }
    }

    /// The register shifted down by `BYTES` bytes.
    #[inline(always)]
    pub fn bytes_down<const BYTES: i32>(word: __m128i) -> __m128i {
        unsafe { _mm_srli_si128::<BYTES>(word) }
    }
}

use sse2_ops::{
    add16, and, and_not, bytes_down, bytes_up, lanes_down, lanes_up, nonzero, or, xor, zero,
};

/// The SSE2 kernel. SSE2 is part of x86-64 itself, so it runs on any
/// x86-64 CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sse2;

/// A set of points: ranks 0 to 7 in `low`, 8 to 15 in `high`, one rank a
/// 16-bit lane (the words of a [`Bitboard`] in order).
#[derive(Clone, Copy, Debug)]
pub struct Halves {
    low: __m128i,
    high: __m128i,
}

/// Each register of `set` through `op`.
#[inline(always)]
fn each(set: Halves, op: impl Fn(__m128i) -> __m128i) -> Halves {
    Halves {
        low: op(set.low),
        high: op(set.high),
    }
}

/// The registers of `a` and `b` pairwise through `op`.
#[inline(always)]
fn pairwise(a: Halves, b: Halves, op: impl Fn(__m128i, __m128i) -> __m128i) -> Halves {
    Halves {
        low: op(a.low, b.low),
        high: op(a.high, b.high),
    }
}

/// The ranks moved `times` lanes up (north): each register's bytes shifted
/// up, the top bytes of `low` carried into `high`.
#[inline(always)]
fn north(set: Halves, times: u32) -> Halves {
    let Halves { low, high } = set;
    match times {
        1 => Halves {
            low: bytes_up::<2>(low),
            high: or(bytes_up::<2>(high), bytes_down::<14>(low)),
        },
        2 => Halves {
            low: bytes_up::<4>(low),
            high: or(bytes_up::<4>(high), bytes_down::<12>(low)),
        },
        4 => Halves {
            low: bytes_up::<8>(low),
            high: or(bytes_up::<8>(high), bytes_down::<8>(low)),
        },
        8 => Halves {
            low: zero(),
            high: low,
        },
        _ => unreachable!("steps of 1, 2, 4 or 8"),
    }
}

/// The ranks moved `times` lanes down (south).
#[inline(always)]
fn south(set: Halves, times: u32) -> Halves {
    let Halves { low, high } = set;
    match times {
        1 => Halves {
            low: or(bytes_down::<2>(low), bytes_up::<14>(high)),
            high: bytes_down::<2>(high),
        },
        2 => Halves {
            low: or(bytes_down::<4>(low), bytes_up::<12>(high)),
            high: bytes_down::<4>(high),
        },
        4 => Halves {
            low: or(bytes_down::<8>(low), bytes_up::<8>(high)),
            high: bytes_down::<8>(high),
        },
        8 => Halves {
            low: high,
            high: zero(),
        },
        _ => unreachable!("steps of 1, 2, 4 or 8"),
    }
}

/// Each lane shifted up by `times` bits: `times` steps east.
#[inline(always)]
fn east(set: Halves, times: u32) -> Halves {
    match times {
        1 => each(set, lanes_up::<1>),
        2 => each(set, lanes_up::<2>),
        4 => each(set, lanes_up::<4>),
        8 => each(set, lanes_up::<8>),
        _ => unreachable!("steps of 1, 2, 4 or 8"),
    }
}

/// Each lane shifted down by `times` bits: `times` steps west.
#[inline(always)]
fn west(set: Halves, times: u32) -> Halves {
    match times {
        1 => each(set, lanes_down::<1>),
        2 => each(set, lanes_down::<2>),
        4 => each(set, lanes_down::<4>),
        8 => each(set, lanes_down::<8>),
        _ => unreachable!("steps of 1, 2, 4 or 8"),
    }
}

impl Bits for Sse2 {
    type Set = Halves;

    #[inline(always)]
    fn select(self, word: u64, k: u32) -> u32 {
        crate::bits::select(word, k)
    }

    #[inline(always)]
    fn load(self, set: Bitboard) -> Halves {
        let words = &set.0;
        // SAFETY: each load reads two of the four words.
        unsafe {
            Halves {
                low: _mm_loadu_si128(words.as_ptr().cast()),
                high: _mm_loadu_si128(words[2..].as_ptr().cast()),
            }
        }
    }

    #[inline(always)]
    fn store(self, set: Halves) -> Bitboard {
        let mut words = [0; 4];
        // SAFETY: each store writes two of the four words.
        unsafe {
            _mm_storeu_si128(words.as_mut_ptr().cast(), set.low);
            _mm_storeu_si128(words[2..].as_mut_ptr().cast(), set.high);
        }
        Bitboard(words)
    }

    #[inline(always)]
    fn none(self) -> Halves {
        Halves {
            low: zero(),
            high: zero(),
        }
    }

    #[inline(always)]
    fn point(self, point: Point) -> Halves {
        self.load(Bitboard::from(point))
    }

    #[inline(always)]
    fn and(self, a: Halves, b: Halves) -> Halves {
        pairwise(a, b, and)
    }

    #[inline(always)]
    fn or(self, a: Halves, b: Halves) -> Halves {
        pairwise(a, b, or)
    }

    #[inline(always)]
    fn and_not(self, a: Halves, b: Halves) -> Halves {
        pairwise(a, b, and_not)
    }

    #[inline(always)]
    fn any(self, set: Halves) -> bool {
        nonzero(or(set.low, set.high))
    }

    #[inline(always)]
    fn same(self, a: Halves, b: Halves) -> bool {
        !self.any(pairwise(a, b, xor))
    }

    #[inline(always)]
    fn step(self, set: Halves, dir: Direction, times: u32) -> Halves {
        match dir {
            Direction::East => east(set, times),
            Direction::West => west(set, times),
            Direction::North => north(set, times),
            Direction::South => south(set, times),
            Direction::NorthEast => east(north(set, times), times),
            Direction::SouthWest => west(south(set, times), times),
        }
    }

    #[inline(always)]
    fn east_fill_disjoint(self, seeds: Halves, prop: Halves) -> Halves {
        // 16-bit additions: a carry never leaves its rank.
        let starts = self.and(east(seeds, 1), prop);
        let cleared = pairwise(prop, starts, add16);
        self.or(seeds, self.and_not(prop, cleared))
    }
}
