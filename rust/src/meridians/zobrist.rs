//! Zobrist keys, generated at compile time, for position hashes.

use super::color::Color;
use super::point::Point;
use super::position::Phase;
use crate::zobrist::Keys;

/// 2 colours on 256 bit indices, then 3 phases, then Light to act.
pub(crate) static KEYS: Keys<2, 256> = Keys::new(0x4d45_5249_4449_414e); // "MERIDIAN"

/// The key of a stone of `color` on `point`.
#[inline(always)]
pub fn stone(color: Color, point: Point) -> u64 {
    KEYS.piece(color.index(), point.index())
}

/// The key of the phase field.
#[inline]
pub fn phase(phase: Phase) -> u64 {
    KEYS.phase(phase as usize)
}

/// The key of the turn field: Light to act; Dark's key is 0.
#[inline]
pub fn turn(color: Color) -> u64 {
    match color {
        Color::Dark => 0,
        Color::Light => KEYS.second_to_act(),
    }
}
