//! Batches of games as columns: the arrays of `veletas.Playouts`.

use std::num::NonZeroUsize;

use rayon::ThreadPoolBuildError;

use super::super::position::Position;
use super::record::MoveRecord;
use super::{Policy, play_game};
use crate::playout::Batch;

/// Many games, one entry per game in game-index order: the columns of
/// `veletas.Playouts`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Playouts {
    /// 0 for Black, 1 for White, -1 when the player to act had no move.
    pub winner: Vec<i8>,
    /// Whether the pie swap was played.
    pub swapped: Vec<bool>,
    /// Moves played in the playout.
    pub plies: Vec<i32>,
    /// Claims of Black and White at the end.
    pub claims: Vec<[i8; 2]>,
    /// With records: every game's moves, one game after the other.
    pub moves: Vec<MoveRecord>,
    /// With records: game `i`'s moves are `moves[offsets[i]..offsets[i + 1]]`
    /// (`n + 1` entries); empty without records.
    pub offsets: Vec<i64>,
}

/// Plays the games of `batch` from `start` (with `swapped`, whether the pie
/// swap led to it) on `threads` threads (`None`: every core). The result is
/// the same for any thread count and any cut of a run into batches.
///
/// ```
/// use std::num::NonZeroUsize;
/// use _veletas::playout::Batch;
/// use _veletas::veletas::{Position, Rules, Variant};
/// use _veletas::veletas::playout::{Policy, playouts};
///
/// let start = Position::new(Rules::variant(Variant::Small));
/// let games = playouts(start, false, Policy::Micro, Batch::new(0, 50), NonZeroUsize::new(2), true).unwrap();
/// assert_eq!(games.winner.len(), 50);
/// assert_eq!(games.offsets.len(), 51);
/// ```
pub fn playouts(
    start: Position,
    swapped: bool,
    policy: Policy,
    batch: Batch,
    threads: Option<NonZeroUsize>,
    record: bool,
) -> Result<Playouts, ThreadPoolBuildError> {
    let games = batch.run(threads, |rng| {
        let mut moves = Vec::new();
        let outcome = play_game(start, swapped, policy, rng, record.then_some(&mut moves));
        (outcome, moves)
    })?;
    let n = games.len();
    let mut out = Playouts {
        winner: Vec::with_capacity(n),
        swapped: Vec::with_capacity(n),
        plies: Vec::with_capacity(n),
        claims: Vec::with_capacity(n),
        moves: Vec::new(),
        offsets: Vec::new(),
    };
    if record {
        out.offsets.reserve(n + 1);
        out.offsets.push(0);
        out.moves
            .reserve(games.iter().map(|(_, moves)| moves.len()).sum());
    }
    for (outcome, moves) in games {
        out.winner
            .push(outcome.winner.map_or(-1, |color| color.index() as i8));
        out.swapped.push(outcome.swapped);
        out.plies.push(outcome.plies as i32);
        out.claims
            .push([outcome.claims[0] as i8, outcome.claims[1] as i8]);
        if record {
            out.moves.extend_from_slice(&moves);
            out.offsets.push(out.moves.len() as i64);
        }
    }
    Ok(out)
}
