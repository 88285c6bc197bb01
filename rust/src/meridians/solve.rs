//! What the exact solver ([`crate::solver`]) needs of Meridians: the whole
//! decision state as the key and its Zobrist hash.

use super::decision::DecisionState;
use crate::solver::Solvable;

impl Solvable for DecisionState {
    type Key = DecisionState;

    const SOLVE_AT_EMPTY: u32 = 24;

    #[inline]
    fn empty_cells(&self) -> u32 {
        self.position().empty().count()
    }

    /// The state itself: the hexagon's symmetries are not folded in yet.
    #[inline]
    fn key(&self, _symmetric: bool) -> DecisionState {
        *self
    }

    #[inline]
    fn key_hash(key: &DecisionState) -> u64 {
        // The swap changes the seats, not the board: a key of its own.
        key.position().zobrist()
            ^ if key.swapped() {
                0x9e37_79b9_7f4a_7c15
            } else {
                0
            }
    }
}
