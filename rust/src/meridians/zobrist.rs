//! Zobrist keys, generated at compile time, for position hashes.

use super::color::Color;
use super::point::Point;
use super::position::Phase;
use crate::rng::splitmix_table;

/// 2 colours x 256 bit indices, then 3 phases, then Light to act.
const KEY_COUNT: usize = 2 * 256 + 3 + 1;

static KEYS: [u64; KEY_COUNT] = splitmix_table(0x4d45_5249_4449_414e); // "MERIDIAN"

/// The key of a stone of `color` on `point`.
#[inline(always)]
pub fn stone(color: Color, point: Point) -> u64 {
    KEYS[color.index() * 256 + point.index()]
}

/// The key of the phase field.
#[inline]
pub fn phase(phase: Phase) -> u64 {
    KEYS[2 * 256 + phase as usize]
}

/// The key of the turn field: Light to act; Dark's key is 0.
#[inline]
pub fn turn(color: Color) -> u64 {
    match color {
        Color::Dark => 0,
        Color::Light => KEYS[2 * 256 + 3],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut sorted = KEYS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), KEY_COUNT);
        assert!(KEYS.iter().all(|&key| key != 0));
    }
}
