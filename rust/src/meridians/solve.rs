//! What the exact solver ([`crate::solver`]) needs of Meridians: the whole
//! decision state as the key and its Zobrist hash.

use super::decision::DecisionState;
use crate::solver::Solvable;

impl Solvable for DecisionState {
    #[inline]
    fn solver_hash(&self) -> u64 {
        // The swap changes the seats, not the board: a key of its own.
        self.position().zobrist()
            ^ if self.swapped() {
                0x9e37_79b9_7f4a_7c15
            } else {
                0
            }
    }
}
