//! Zobrist keys, generated at compile time, for position hashes.

use super::position::Piece;
use super::square::Square;
use crate::zobrist::Keys;

/// 5 pieces on 128 bit indices, then 3 phases, then White to act.
pub(crate) static KEYS: Keys<5, 128> = Keys::new(0x5645_4c45_5441_5321); // "VELETAS!"

/// The key of `piece` standing on `square`.
#[inline]
pub fn piece(piece: Piece, square: Square) -> u64 {
    KEYS.piece(piece as usize, square.index())
}
