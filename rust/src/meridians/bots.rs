//! Players of Meridians: a uniformly random mover, a one-ply greedy mover,
//! and how the Monte Carlo tree search player ([`crate::player`]) makes a
//! turn: a Meridians turn is one decision, so a move is one search's best
//! action.

use super::color::Color;
use super::decision::DecisionState;
use super::moves::Move;
use super::position::Position;
use crate::game::{Action, random_action};
use crate::mcts::{Budget, Config};
use crate::player::Turns;
use crate::rng::Rng;
use crate::vector_env::Opponents;

/// A legal move drawn uniformly, as the playouts draw it
/// ([`crate::game::random_action`]); `None` when there is none.
pub fn random_move(position: &Position, rng: &mut Rng) -> Option<Move> {
    let state = DecisionState::new(*position);
    random_action(&state, rng).and_then(|action| state.move_of(action))
}

/// The score of the greedy player for the position after its move: a win
/// beats everything and a loss is worst; otherwise its stones minus the
/// opponent's, so that it keeps its groups alive.
fn greedy_score(after: &Position, me: Color) -> i32 {
    match after.winner() {
        Some(winner) if winner == me => i32::MAX,
        Some(_) => i32::MIN + 1,
        None => after.stone_count(me) as i32 - after.stone_count(me.other()) as i32,
    }
}

/// The move of the one-ply greedy player: a winning move if there is one,
/// else one that leaves it the most stones net of the opponent's (it avoids
/// placements that get its own groups removed); ties are broken uniformly
/// at random. `None` when there is no legal move.
///
/// # Examples
///
/// ```
/// use _veletas::meridians::bots::greedy_move;
/// use _veletas::meridians::Position;
/// use _veletas::rng::Rng;
///
/// // Light's three stones on a1, c1 and ... : b1 would join them into one
/// // group, which dies; the greedy player avoids it.
/// let pos = Position::from_fen("6/7/8/9/10/10/9/8/7/x1x2o l play", false).unwrap();
/// let m = greedy_move(&pos, &mut Rng::for_game(0, 0)).unwrap();
/// assert_ne!(m.to_string(), "b1");
/// ```
pub fn greedy_move(position: &Position, rng: &mut Rng) -> Option<Move> {
    let me = position.turn();
    let mut best = None;
    let mut best_score = i32::MIN;
    let mut ties = 0u64;
    for m in position.legal_moves() {
        let mut after = *position;
        after.play_unchecked(m);
        let score = greedy_score(&after, me);
        if score > best_score {
            best_score = score;
            best = Some(m);
            ties = 1;
        } else if score == best_score {
            // Reservoir sampling: each tied move is kept with probability 1 / ties.
            ties += 1;
            if rng.below(ties) == 0 {
                best = Some(m);
            }
        }
    }
    best
}

/// A Meridians turn is one decision: a placement, `swap` or `keep`.
impl Turns for DecisionState {
    type Move = Move;

    const TURN_DECISIONS: usize = 1;

    /// The player's own move and the opponent's reply.
    const REUSE_DEPTH: usize = 2;

    #[inline]
    fn starts_turn(&self) -> bool {
        true
    }

    #[inline]
    fn ends_turn(&self) -> bool {
        true
    }

    fn move_of_actions(&self, actions: &[Action]) -> Option<Move> {
        match *actions {
            [action] => self.move_of(action),
            _ => None,
        }
    }
}

/// The Monte Carlo tree search player of Meridians ([`crate::player`]).
///
/// # Examples
///
/// ```
/// use _veletas::mcts::{Budget, Config};
/// use _veletas::meridians::bots::MctsPlayer;
/// use _veletas::meridians::{DecisionState, Position, Size};
///
/// let state = DecisionState::new(Position::new(Size::S5_6));
/// let mut player = MctsPlayer::new(Config::for_game::<DecisionState>());
/// let info = player.choose(state, Budget::iterations(200)).unwrap();
/// assert!(state.position().is_legal(info.chosen));
/// ```
pub type MctsPlayer = crate::player::MctsPlayer<DecisionState>;

impl Opponents for DecisionState {
    type Searcher = MctsPlayer;

    fn searcher(config: Config) -> MctsPlayer {
        MctsPlayer::new(config)
    }

    fn greedy_turn(&self, rng: &mut Rng) -> Vec<Action> {
        greedy_move(self.position(), rng)
            .and_then(|m| self.action_of(m))
            .into_iter()
            .collect()
    }

    fn search_turn(&self, searcher: &mut MctsPlayer, budget: Budget) -> Vec<Action> {
        searcher
            .choose(*self, budget)
            .and_then(|info| self.action_of(info.chosen))
            .into_iter()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meridians::Size;

    #[test]
    fn random_moves_are_legal_and_follow_the_stream() {
        let pos = Position::new(Size::S6_7);
        for index in 0..50 {
            let m = random_move(&pos, &mut Rng::for_game(3, index)).unwrap();
            assert!(pos.is_legal(m));
            assert_eq!(Some(m), random_move(&pos, &mut Rng::for_game(3, index)));
        }
    }

    #[test]
    fn the_greedy_player_takes_a_win_and_avoids_a_loss() {
        // Dark to play: its only legal points either keep two groups or join
        // them; every game position it reaches must not be a loss.
        let mut rng = Rng::for_game(0, 0);
        let mut pos = Position::new(Size::S5_6);
        for _ in 0..60 {
            let Some(m) = greedy_move(&pos, &mut rng) else {
                break;
            };
            let mover = pos.turn();
            pos.play(m).unwrap();
            if pos.is_game_over() {
                break;
            }
            assert!(pos.stone_count(mover) > 0, "greedy removed all its stones");
        }
    }

    #[test]
    fn mcts_keeps_its_tree_from_move_to_move() {
        // Playing both seats, the player finds each new position at the root
        // of the tree it advanced; a position it never saw starts afresh.
        let mut player = MctsPlayer::new(Config::for_game::<DecisionState>());
        let mut state = DecisionState::new(Position::new(Size::S5_6));
        let first = player.choose(state, Budget::iterations(300)).unwrap();
        assert!(!first.reused);
        state.apply(state.action_of(first.chosen).unwrap()).unwrap();
        let second = player.choose(state, Budget::iterations(300)).unwrap();
        assert!(second.reused);
        assert!(state.position().is_legal(second.chosen));
        let elsewhere = DecisionState::new(Position::new(Size::S6_7));
        let third = player.choose(elsewhere, Budget::iterations(50)).unwrap();
        assert!(!third.reused);
        assert!(elsewhere.position().is_legal(third.chosen));
    }
}
