//! Random playouts of Veletas: the two policies, game records, and batches
//! of games as columns (the arrays of `veletas.Playouts`).
//!
//! The generic machinery (streams per game, threads) is
//! [`crate::playout`]; this module adds what is particular to the game: moves
//! rather than decisions as plies, the pie swap, claims, records, and the
//! "uniform" policy over whole moves. One job a file:
//!
//! - `policy`: the names of the two policies;
//! - `record`: moves as the rows of a game record;
//! - `micro`: the "micro" policy, turn by turn on the bit kernels (also
//!   the search's playouts, `Game::play_random`);
//! - `uniform`: the "uniform" policy, exact over whole moves;
//! - `columns`: batches of games as columns;
//! - here: one game with either policy, and how it ended.

/// The line rule a game loop is compiled for, a constant of its
/// compilation (`const LINES: u8`), so that no turn asks the rules: shooters
/// pass over shooters ([`line_rule::PASS`]), claimed shooters end lines and
/// claims repeat until none changes ([`line_rule::CASCADE`], the rules'
/// `claims_cascade`), or every shooter ends lines ([`line_rule::BLOCK`]).
mod line_rule {
    use super::super::rules::Rules;

    pub(super) const PASS: u8 = 0;
    pub(super) const CASCADE: u8 = 1;
    pub(super) const BLOCK: u8 = 2;

    /// The line rule of `rules`.
    pub(super) const fn of(rules: Rules) -> u8 {
        if rules.lines().shooters_block() {
            BLOCK
        } else if rules.claims_cascade() {
            CASCADE
        } else {
            PASS
        }
    }
}

/// `$call` with the constant `$lines` the [`line_rule`] of `$rules`.
macro_rules! with_line_rule {
    ($rules:expr, $lines:ident => $call:expr) => {
        match super::line_rule::of($rules) {
            super::line_rule::CASCADE => {
                const $lines: u8 = super::line_rule::CASCADE;
                $call
            }
            super::line_rule::BLOCK => {
                const $lines: u8 = super::line_rule::BLOCK;
                $call
            }
            _ => {
                const $lines: u8 = super::line_rule::PASS;
                $call
            }
        }
    };
}

mod columns;
mod micro;
mod policy;
mod record;
#[cfg(test)]
mod tests;
mod uniform;

pub use columns::{Playouts, playouts};
pub use policy::{ParsePolicyError, Policy};
pub use record::{MoveRecord, record};
pub use uniform::{UniformSampler, most_line_squares, uniform_move};

use super::color::Color;
use super::position::Position;
use crate::rng::Rng;
use micro::play_micro_game;
pub(super) use micro::play_random;
use uniform::play_uniform_game;

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning colour; `None` when the player to act had no legal move
    /// (only in hand-made positions).
    pub winner: Option<Color>,
    /// Whether the pie swap was played, before or during the playout.
    pub swapped: bool,
    /// The moves played in the playout (a swap is a move; decisions are not).
    pub plies: u32,
    /// The final number of claims of Black and of White.
    pub claims: [u32; 2],
}

impl Outcome {
    #[cfg(test)]
    pub(super) fn of(pos: &Position, swapped: bool, plies: u32) -> Outcome {
        Outcome {
            winner: pos.winner(),
            swapped,
            plies,
            claims: [pos.claims(Color::Black), pos.claims(Color::White)],
        }
    }
}

/// Plays one game from `start` (a position with the swap flag of the game
/// that led to it) with `policy` and the game's stream, appending each move
/// to `moves` when it is given.
///
/// # Examples
///
/// ```
/// use _veletas::rng::Rng;
/// use _veletas::veletas::{Position, Rules, Variant};
/// use _veletas::veletas::playout::{Policy, play_game};
///
/// let start = Position::new(Rules::variant(Variant::Small));
/// let mut moves = Vec::new();
/// let outcome = play_game(start, false, Policy::Micro, &mut Rng::for_game(1, 0), Some(&mut moves));
/// assert!(outcome.winner.is_some());
/// assert_eq!(outcome.plies as usize, moves.len());
/// ```
pub fn play_game(
    start: Position,
    swapped: bool,
    policy: Policy,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    match policy {
        Policy::Micro => play_micro_game(start, swapped, rng, moves),
        Policy::Uniform => play_uniform_game(start, swapped, rng, moves),
    }
}
