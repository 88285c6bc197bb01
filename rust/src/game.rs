//! What playouts and search need of a game: a state that makes decisions
//! by action id, and says who acts and who won.
//!
//! Playouts and the MCTS are written against [`Game`], not against one game's
//! rules, so every game of the family that implements it gets them.

use crate::rng::Rng;

/// An action id: a decision of the game's action encoding.
pub type Action = u16;

/// The legal actions of one decision.
pub trait ActionSet {
    /// How many actions there are.
    fn len(&self) -> u32;

    /// Whether there is none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `k`-th action in ascending id order, if `k < len()`.
    fn nth(&self, k: u32) -> Option<Action>;

    /// Whether `action` is one of them.
    fn contains(&self, action: Action) -> bool;
}

/// A two-player game as a sequence of decisions.
///
/// Players are *seats*: 0 moves first. (A game with a swap rule maps seats
/// to colours itself.)
pub trait Game: Clone + Send + Sync {
    /// The legal actions of the current decision.
    type Actions: ActionSet;

    /// The number of distinct action ids, `0..num_actions()`.
    fn num_actions(&self) -> usize;

    /// The legal actions now; empty once the game is over.
    fn legal_actions(&self) -> Self::Actions;

    /// Takes a legal `action`.
    fn apply(&mut self, action: Action);

    /// The seat that makes the current decision.
    fn seat_to_act(&self) -> usize;

    /// The winning seat, once there is one.
    fn winner(&self) -> Option<usize>;

    /// Whether the game is over: a winner, or no legal action.
    fn is_terminal(&self) -> bool {
        self.winner().is_some() || self.legal_actions().is_empty()
    }
}

/// The decision of the "micro" policy: a uniform choice among the legal
/// actions in ascending id order, drawn as `rng.below(len)`. `None` once
/// the game is over.
///
/// This is the one definition that the batch playouts, the search's rollouts
/// and a uniformly random agent over the action mask all follow.
#[inline]
pub fn random_action<G: Game>(state: &G, rng: &mut Rng) -> Option<Action> {
    let actions = state.legal_actions();
    match actions.len() {
        0 => None,
        n => actions.nth(rng.below(u64::from(n)) as u32),
    }
}
