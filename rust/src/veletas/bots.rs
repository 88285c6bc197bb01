//! Players of Veletas: a uniformly random mover, a one-ply greedy mover, and
//! how the Monte Carlo tree search player ([`crate::player`]) makes a turn
//! of its micro-decisions ([`DecisionState`]): up to three make a [`Move`].

use super::color::Color;
use super::decision::{Action, DecisionState, Stage, id_square};
use super::moves::Move;
use super::position::{Phase, Position};

use crate::mcts::{Budget, Config};
use crate::player::Turns;
use crate::rng::Rng;
use crate::vector_env::Opponents;

/// A legal move drawn uniformly from [`Position::legal_moves`], or `None`
/// when there is none.
pub fn random_move(position: &Position, rng: &mut Rng) -> Option<Move> {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.below(moves.len() as u64) as usize])
}

/// The score of the greedy player for the position after its move: a win
/// beats everything; otherwise the claims won minus the claims handed over.
fn greedy_score(before: &Position, after: &Position, me: Color) -> i32 {
    if after.winner() == Some(me) {
        return i32::MAX;
    }
    let gained = |color: Color| (after.claims(color) - before.claims(color)) as i32;
    gained(me) - gained(me.other())
}

/// The move of the one-ply greedy player: a winning move if there is one,
/// else a move that wins the most claims net of those it hands to the
/// opponent; ties are broken uniformly at random. `None` when there is no
/// legal move.
///
/// # Examples
///
/// ```
/// use _veletas::rng::Rng;
/// use _veletas::veletas::bots::greedy_move;
/// use _veletas::veletas::{Lines, Position, SetupRule};
///
/// // Black, with one claim, traps the shooter on a6 by shooting onto a7.
/// let pos = Position::from_fen("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3", SetupRule::Perimeter, Lines::ShootersPass)
///     .unwrap();
/// let m = greedy_move(&pos, &mut Rng::for_game(0, 0)).unwrap();
/// let mut after = pos;
/// after.play(m).unwrap();
/// assert!(after.winner().is_some());
/// ```
pub fn greedy_move(position: &Position, rng: &mut Rng) -> Option<Move> {
    let me = position.turn();
    let mut best = None;
    let mut best_score = i32::MIN;
    let mut ties = 0u64;
    for m in position.legal_moves() {
        let mut after = *position;
        after.play_unchecked(m);
        let score = greedy_score(position, &after, me);
        if score > best_score {
            best_score = score;
            best = Some(m);
            ties = 1;
        } else if score == best_score {
            // Reservoir sampling: each of the tied moves is kept with
            // probability 1 / ties.
            ties += 1;
            if rng.below(ties) == 0 {
                best = Some(m);
            }
        }
    }
    best
}

/// How Veletas's decisions make a turn: a placement (or the pie swap) is one
/// decision; a play is the shooter's origin and destination and the target,
/// or a pass and the target of a stone.
impl Turns for DecisionState {
    type Move = Move;

    const TURN_DECISIONS: usize = 3;

    /// Two turns of up to three decisions (the opponent's reply, or a
    /// placement and a reply).
    const REUSE_DEPTH: usize = 6;

    #[inline]
    fn starts_turn(&self) -> bool {
        self.stage() == Stage::Start
    }

    #[inline]
    fn ends_turn(&self) -> bool {
        self.position().phase() != Phase::Play || matches!(self.stage(), Stage::Target { .. })
    }

    fn move_of_actions(&self, actions: &[Action]) -> Option<Move> {
        let size = self.size();
        let square = |action: Action| id_square(action, size);
        let swap = self.legal_actions().swap();
        Some(match (self.position().phase(), actions) {
            (Phase::Setup | Phase::Pie, &[action]) if action == swap => Move::Swap,
            (Phase::Setup | Phase::Pie, &[action]) => {
                self.position().next_placement(square(action)?)
            }
            (Phase::Play, &[_pass, target]) => Move::Stone(square(target)?),
            (Phase::Play, &[origin, destination, target]) => Move::Shot {
                origin: square(origin)?,
                destination: square(destination)?,
                target: square(target)?,
            },
            _ => return None,
        })
    }

    /// Stones are never taken off the board: a position with a stone that
    /// `later` lacks cannot lead to it.
    #[inline]
    fn may_precede(&self, later: &DecisionState) -> bool {
        let (pos, later) = (self.position(), later.position());
        [Color::Black, Color::White]
            .into_iter()
            .all(|c| (pos.stones(c) - later.stones(c)).is_empty())
    }
}

/// The Monte Carlo tree search player of Veletas ([`crate::player`]).
pub type MctsPlayer = crate::player::MctsPlayer<DecisionState>;

impl Opponents for DecisionState {
    type Searcher = MctsPlayer;

    fn searcher(config: Config) -> MctsPlayer {
        MctsPlayer::new(config)
    }

    fn greedy_turn(&self, rng: &mut Rng) -> Vec<Action> {
        greedy_move(self.position(), rng).map_or_else(Vec::new, |m| self.actions_of(m))
    }

    fn search_turn(&self, searcher: &mut MctsPlayer, budget: Budget) -> Vec<Action> {
        searcher
            .choose(*self, budget)
            .map_or_else(Vec::new, |turn| self.actions_of(turn.chosen))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::game::Game;
    use crate::mcts::Algorithm;
    use crate::player::MctsPlayer;
    use crate::veletas::{Lines, Rules, SetupRule, Variant};

    fn config(seed: u64) -> Config {
        Config {
            seed,
            ..Config::for_game::<DecisionState>()
        }
    }

    /// A whole game between `first` and `second`; returns the winning seat
    /// (0 = first) and checks that every chosen move is legal.
    fn play(
        rules: Rules,
        mut first: impl FnMut(DecisionState) -> Move,
        mut second: impl FnMut(DecisionState) -> Move,
    ) -> usize {
        let mut state = DecisionState::new(Position::new(rules));
        loop {
            if let Some(seat) = state.winner() {
                return seat;
            }
            let m = if state.seat_to_act() == 0 {
                first(state)
            } else {
                second(state)
            };
            assert!(
                state.position().is_legal(m),
                "{m} in {}",
                state.position().fen()
            );
            for action in state.actions_of(m) {
                state.apply(action).unwrap();
            }
        }
    }

    #[test]
    fn the_mcts_player_plays_legal_whole_turns() {
        let mut player = MctsPlayer::new(config(1));
        let mut rng = Rng::for_game(1, 0);
        let rules = Rules::variant(Variant::Small);
        let mut reused = 0;
        play(
            rules,
            |state| {
                let info = player.choose(state, Budget::iterations(300)).unwrap();
                reused += usize::from(info.reused);
                // The whole budget, but for a decision the solver solved.
                let solved = info.searches.iter().any(|s| s.solved);
                assert!(solved || info.iterations() >= 300 * 3 / 4);
                info.chosen
            },
            |state| random_move(state.position(), &mut rng).unwrap(),
        );
        assert!(reused > 0, "the trees are kept from move to move");
    }

    #[test]
    fn the_mcts_player_is_deterministic_for_a_seed() {
        let pos = Position::from_fen(
            "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        let choose = |seed| {
            MctsPlayer::new(config(seed))
                .choose(DecisionState::new(pos), Budget::iterations(2000))
                .unwrap()
        };
        let (a, b) = (choose(7), choose(7));
        assert_eq!(a.chosen, b.chosen);
        assert_eq!(a.searches.len(), b.searches.len());
        assert!(pos.is_legal(a.chosen));
    }

    #[test]
    fn a_raised_flag_plays_the_best_move_so_far() {
        let start = DecisionState::new(
            Position::from_fen(
                "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
                SetupRule::Perimeter,
                Lines::ShootersPass,
            )
            .unwrap(),
        );
        let mut player = MctsPlayer::new(config(2));
        let info = player
            .choose_until(start, Budget::iterations(1000), &AtomicBool::new(true))
            .unwrap();
        assert_eq!(info.iterations(), 0);
        assert!(start.position().is_legal(info.chosen));
    }

    #[test]
    fn analysis_lists_whole_legal_moves_and_keeps_the_trees() {
        let pos = Position::from_fen(
            "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        let mut player = MctsPlayer::new(config(4));
        let never = AtomicBool::new(false);
        let analysis = player
            .analyse(DecisionState::new(pos), Budget::iterations(4000), &never, 5)
            .unwrap();
        assert_eq!(analysis.moves.len(), 5);
        assert_eq!(analysis.visits, 4000);
        // The move played first, then the others by visits.
        for pair in analysis.moves[1..].windows(2) {
            assert!(pair[0].visits >= pair[1].visits);
        }
        for stats in &analysis.moves {
            assert!(pos.is_legal(stats.chosen), "{}", stats.chosen);
            assert!(stats.visits > 0 && (0.0..=1.0).contains(&stats.value));
        }
        // The principal variation is a legal line of whole moves, starting
        // with the move the player would choose.
        assert!(!analysis.principal_variation.is_empty());
        let mut line = pos;
        for &m in &analysis.principal_variation {
            assert!(line.is_legal(m), "{m}");
            line.play_unchecked(m);
        }
        // The statistics serve the move that follows.
        let turn = player
            .choose(DecisionState::new(pos), Budget::iterations(10))
            .unwrap();
        assert!(turn.reused);
        // In setup, a move is one placement.
        let setup = DecisionState::new(Position::new(Rules::variant(Variant::Small)));
        let placements = player
            .analyse(setup, Budget::iterations(500), &never, 3)
            .unwrap();
        assert!(
            placements
                .moves
                .iter()
                .all(|stats| matches!(stats.chosen, Move::Shooter(_)))
        );
        let over = Position::from_fen(
            "1o5/Xx5/xx5/7/3s3/7/1o3oX w play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        assert_eq!(
            player.analyse(DecisionState::new(over), Budget::iterations(10), &never, 3),
            None
        );
    }

    #[test]
    fn the_analysis_starts_with_the_move_choose_plays() {
        // Whole moves ranked by visits once disagreed with the move played
        // decision by decision (here at seed 1: f2-f7/c4 played, c2-c4/c5
        // ranked first).
        for (fen, seed, iterations) in [
            ("7/2x4/7/1s5/7/o1s2s1/7 b play 3", 1, 30_000),
            ("7/2x4/7/1s5/7/o1s2s1/7 b play 3", 2, 3_000),
            ("s4/2s2/1xsoo/5/5 w play 3", 3, 2_000),
        ] {
            let pos = Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
            let budget = Budget::iterations(iterations);
            let never = AtomicBool::new(false);
            for algorithm in [Algorithm::Solver, Algorithm::Uct] {
                let config = Config {
                    algorithm,
                    ..config(seed)
                };
                let analysis = MctsPlayer::new(config)
                    .analyse(DecisionState::new(pos), budget, &never, 40)
                    .unwrap();
                let info = MctsPlayer::new(config)
                    .choose(DecisionState::new(pos), budget)
                    .unwrap();
                let played = info.chosen;
                assert_eq!(analysis.moves[0].chosen, played, "{fen} seed {seed}");
                assert_eq!(analysis.principal_variation[0], played);
                // On 5x5 the exact solver had its share first, in vain.
                let asked = algorithm == Algorithm::Solver && fen.starts_with('s');
                let searched = if asked {
                    iterations * 9 / 10
                } else {
                    iterations
                };
                assert_eq!(analysis.iterations(), searched);
                assert_eq!(info.iterations(), searched);
            }
        }
    }

    #[test]
    fn greedy_takes_claims_and_avoids_handing_them_over() {
        // White to move, with the shooter on a6 boxed in but for a7. A
        // white stone on a7 would trap it between a white group of two and
        // a black group of three: a claim handed to Black. Moving it to a7
        // and shooting back onto a6 traps it among white stones only: a
        // claim for White, the one move greedy must find.
        let pos = Position::from_fen(
            "1o5/sx5/xx5/7/3s3/7/1o3os w play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        let a7: crate::veletas::Square = "a7".parse().unwrap();
        let mut handing = Position::from_fen(
            "1o5/sx5/xx5/7/3s3/7/1o3os w play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        handing.play(Move::Stone(a7)).unwrap();
        assert_eq!(handing.claims(Color::Black), 1, "a7 hands a claim over");
        for seed in 0..10 {
            let m = greedy_move(&pos, &mut Rng::for_game(seed, 0)).unwrap();
            assert_eq!(m, "a6-a7/a6".parse().unwrap());
        }
        // Where no move changes the claims, the choice varies with the seed
        // and never hands a claim over.
        let quiet = Position::from_fen(
            "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        let picks: std::collections::HashSet<Move> = (0..20)
            .map(|seed| greedy_move(&quiet, &mut Rng::for_game(seed, 0)).unwrap())
            .collect();
        assert!(picks.len() > 1);
        for m in picks {
            let mut after = quiet;
            after.play(m).unwrap();
            assert_eq!(after.claims(Color::White), 0, "{m}");
        }
    }

    #[test]
    fn greedy_beats_random_most_of_the_time() {
        let rules = Rules::variant(Variant::Small);
        let mut wins = 0;
        for game in 0..20u64 {
            let mut greedy_rng = Rng::for_game(game, 1);
            let mut random_rng = Rng::for_game(game, 2);
            let greedy_seat = (game % 2) as usize;
            let mut greedy = |s: DecisionState| greedy_move(s.position(), &mut greedy_rng).unwrap();
            let mut random = |s: DecisionState| random_move(s.position(), &mut random_rng).unwrap();
            let winner = if greedy_seat == 0 {
                play(rules, &mut greedy, &mut random)
            } else {
                play(rules, &mut random, &mut greedy)
            };
            wins += usize::from(winner == greedy_seat);
        }
        assert!(wins >= 14, "greedy won {wins} of 20");
    }

    #[test]
    fn nobody_moves_in_a_finished_game() {
        let pos = Position::from_fen(
            "1o5/Xx5/xx5/7/3s3/7/1o3oX w play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        let mut rng = Rng::for_game(0, 0);
        assert_eq!(random_move(&pos, &mut rng), None);
        assert_eq!(greedy_move(&pos, &mut rng), None);
        let mut player = MctsPlayer::new(config(0));
        assert_eq!(
            player.choose(DecisionState::new(pos), Budget::iterations(10)),
            None
        );
    }
}
