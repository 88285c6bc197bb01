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

    /// The actions in ascending id order: [`ActionSet::nth`] of each `k`,
    /// which a game whose set can be walked does in one pass.
    fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        (0..self.len()).map_while(|k| self.nth(k))
    }
}

/// A two-player game as a sequence of decisions.
///
/// Players are *seats*: 0 moves first. (A game with a swap rule maps seats
/// to colours itself.)
pub trait Game: Clone + Send + Sync {
    /// The legal actions of the current decision.
    type Actions: ActionSet;

    /// The exploration constant `c` that Monte Carlo tree search uses for
    /// this game, in the UCT formula `q + c * sqrt(ln N / n)` with values `q`
    /// that are win rates in `[0, 1]`: tuned per game, since it depends on
    /// how the game's turns split into decisions.
    const EXPLORATION: f64;

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

    /// Plays at most `limit` decisions from here, each the draw of
    /// [`random_action`], and returns how many it took (fewer only at the
    /// end of the game): [`play_random_decisions`], the same actions for the
    /// same stream, which a game may take faster than one at a time.
    fn play_random(&mut self, rng: &mut Rng, limit: u32) -> u32 {
        play_random_decisions(self, rng, limit)
    }
}

/// Plays at most `limit` decisions of `state`, one [`random_action`] at a
/// time, and returns how many it took (fewer only at the end of the game).
#[inline]
pub fn play_random_decisions<G: Game>(state: &mut G, rng: &mut Rng, limit: u32) -> u32 {
    let mut taken = 0;
    while taken < limit {
        let Some(action) = random_action(state, rng) else {
            break;
        };
        state.apply(action);
        taken += 1;
    }
    taken
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

/// The position `left` decisions before the end of the random game of
/// `seed` from `start`: the game is played out with [`random_action`], then
/// replayed to `left` decisions before its end. The solver's tests and its
/// bench draw their endgames so.
pub fn near_end<G: Game>(start: &G, seed: u64, left: usize) -> G {
    let mut rng = Rng::for_game(seed, 0);
    let mut line = Vec::new();
    let mut state = start.clone();
    while let Some(action) = random_action(&state, &mut rng) {
        line.push(action);
        state.apply(action);
    }
    let mut state = start.clone();
    for &action in &line[..line.len().saturating_sub(left)] {
        state.apply(action);
    }
    state
}

/// The seat that won `state`, a game with no legal action left: its
/// winner, or else the seat not to act, since a seat left without a legal
/// action loses (Meridians's rule; in Veletas only hand-made positions end
/// so). The one reading of an ended game that every search follows: the
/// Monte Carlo tree search scores its playouts by it, and the exact solver
/// ([`crate::solver`]) proves by it.
#[inline]
pub fn winner_at_end<G: Game>(state: &G) -> usize {
    debug_assert!(state.legal_actions().is_empty(), "the game is over");
    state.winner().unwrap_or(1 - state.seat_to_act())
}

/// A position at the level of whole moves, as the rules write them: what
/// perft, the vector files and a board's bindings need of a game.
///
/// [`Game`] is the decision-level view that search and playouts use; this
/// is the move-level one. Every game implements both.
pub trait MovePosition: Clone {
    /// A whole move of the game's notation.
    type Move: Copy;

    /// Appends the legal moves to `moves` (after clearing it), in the game's
    /// canonical order; none once the game is over.
    fn legal_moves_into(&self, moves: &mut Vec<Self::Move>);

    /// The number of legal moves.
    fn count_legal_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves.len() as u64
    }

    /// Plays a legal `m`; the result of an illegal one is unspecified.
    fn play_unchecked(&mut self, m: Self::Move);

    /// `perft(self, depth)` when the game can count it faster than by
    /// playing every move; `None` to play them.
    fn perft_shortcut(&self, _depth: u32) -> Option<u64> {
        None
    }
}

/// The number of move sequences of exactly `depth` moves from `pos`:
/// `perft(pos, 0) == 1`, and `perft(pos, 1)` is the number of legal moves,
/// counted without playing them (as is the last ply of any depth).
pub fn perft<P: MovePosition>(pos: &P, depth: u32) -> u64 {
    perft_with(pos, depth, &mut Vec::new(), 0)
}

/// The perft count below each legal move at `depth` (so for `depth - 1`
/// after it), in canonical move order. Empty for `depth == 0`.
pub fn perft_divide<P: MovePosition>(pos: &P, depth: u32) -> Vec<(P::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    pos.legal_moves_into(&mut moves);
    let mut buffers = Vec::new();
    moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft_with(&child, depth - 1, &mut buffers, 0))
        })
        .collect()
}

/// Perft with one reusable move buffer per level, created when first
/// reached: even an absurd depth allocates only as many buffers as the game
/// has plies left.
fn perft_with<P: MovePosition>(
    pos: &P,
    depth: u32,
    buffers: &mut Vec<Vec<P::Move>>,
    level: usize,
) -> u64 {
    match depth {
        0 => return 1,
        1 => return pos.count_legal_moves(),
        _ => {}
    }
    if let Some(nodes) = pos.perft_shortcut(depth) {
        return nodes;
    }
    if buffers.len() <= level {
        buffers.push(Vec::new());
    }
    let mut moves = std::mem::take(&mut buffers[level]);
    pos.legal_moves_into(&mut moves);
    let mut nodes = 0;
    for &m in &moves {
        let mut child = pos.clone();
        child.play_unchecked(m);
        nodes += perft_with(&child, depth - 1, buffers, level + 1);
    }
    buffers[level] = moves;
    nodes
}
