//! What the exact solver ([`crate::solver`]) needs of Veletas: the whole
//! decision state as the key, its Zobrist hash, and an order of the shots.

use super::decision::{DecisionState, Stage, id_square};
use crate::game::Action;
use crate::solver::Solvable;

/// A mix of the parts of a decision state that the position's Zobrist hash
/// lacks: the stage of the turn and the swap.
fn stage_key(state: &DecisionState) -> u64 {
    let part = match state.stage() {
        Stage::Start => 0,
        Stage::Destination { origin } => 1 + origin.index() as u64,
        Stage::Target { moved: None } => 257,
        Stage::Target {
            moved: Some((origin, destination)),
        } => 513 + ((origin.index() as u64) << 8 | destination.index() as u64),
    };
    (part << 1 | u64::from(state.swapped()))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(29)
}

impl Solvable for DecisionState {
    /// Every turn adds a stone: no position comes back.
    const MAY_REPEAT: bool = false;

    #[inline]
    fn solver_hash(&self) -> u64 {
        self.position().zobrist_hash() ^ stage_key(self)
    }

    /// Shots next to an unclaimed shooter first: they are the ones that
    /// can trap it, and a claim is final.
    fn order_actions(&self, actions: &mut Vec<Action>) {
        if !matches!(self.stage(), Stage::Target { .. }) {
            return;
        }
        let near = self.position().shooters().king_fill();
        let size = self.size();
        actions.sort_by_key(|&a| !id_square(a, size).is_some_and(|sq| near.contains(sq)));
    }
}
