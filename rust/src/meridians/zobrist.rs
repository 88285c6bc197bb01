//! Zobrist keys, generated at compile time, for position hashes.

use super::color::Color;
use super::point::Point;

use crate::zobrist::Keys;

/// 2 colours on 256 bit indices, then 3 phases, then Light to act.
pub(crate) static KEYS: Keys<2, 256> = Keys::new(0x4d45_5249_4449_414e); // "MERIDIAN"

/// The key of a stone of `color` on `point`.
#[inline(always)]
pub fn stone(color: Color, point: Point) -> u64 {
    KEYS.piece(color.index(), point.index())
}
