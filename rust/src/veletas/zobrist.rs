//! Zobrist keys, generated at compile time, for position hashes.

use super::color::Color;
use super::position::{Phase, Piece};
use super::square::Square;
use crate::rng::splitmix_table;

/// 5 pieces x 128 bit indices, then 3 phases, then White to act.
const KEY_COUNT: usize = 5 * 128 + 3 + 1;

static KEYS: [u64; KEY_COUNT] = splitmix_table(0x5645_4c45_5441_5321); // "VELETAS!"

/// The key of `piece` standing on `square`.
#[inline]
pub fn piece(piece: Piece, square: Square) -> u64 {
    KEYS[piece as usize * 128 + square.index()]
}

/// The key of the phase field.
#[inline]
pub fn phase(phase: Phase) -> u64 {
    KEYS[5 * 128 + phase as usize]
}

/// The key of the turn field: White to act; Black's key is 0.
#[inline]
pub fn turn(color: Color) -> u64 {
    match color {
        Color::Black => 0,
        Color::White => KEYS[5 * 128 + 3],
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
