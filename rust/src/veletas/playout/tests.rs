//! Tests of the playouts: records, both policies, both kernels.

use super::micro::*;
use super::*;
use crate::game::{ActionSet, Game};
use crate::playout::Batch;
use crate::veletas::decision::Action;
use crate::veletas::decision::{DecisionState, Stage, square_id};
#[cfg(target_arch = "x86_64")]
use crate::veletas::kernel::X86V3;
use crate::veletas::kernel::{Bits, Portable};
use crate::veletas::lines;
use crate::veletas::moves::Move;
use crate::veletas::position::Phase;
use crate::veletas::square::Square;
use crate::veletas::{Lines, Rules, SetupRule, Variant};

fn pos(fen: &str, lines: Lines) -> Position {
    Position::from_fen(fen, SetupRule::Perimeter, lines).unwrap()
}

fn replay(start: Position, moves: &[MoveRecord]) -> Position {
    let mut pos = start;
    for &[kind, origin, destination, target] in moves {
        let square = |n: i8| Square::from_number(n as u32).unwrap();
        let m = match kind {
            2 => Move::Swap,
            1 => Move::Shooter(square(target)),
            _ if origin < 0 => Move::Stone(square(target)),
            _ => Move::Shot {
                origin: square(origin),
                destination: square(destination),
                target: square(target),
            },
        };
        pos.play(m).unwrap();
    }
    pos
}

#[test]
fn records_replay_to_the_outcome() {
    for variant in Variant::ALL {
        for policy in [Policy::Micro, Policy::Uniform] {
            let start = Position::new(Rules::variant(variant));
            let games = playouts(start, false, policy, Batch::new(5, 20), None, true).unwrap();
            for i in 0..20 {
                let moves = &games.moves[games.offsets[i] as usize..games.offsets[i + 1] as usize];
                let end = replay(start, moves);
                assert_eq!(moves.len(), games.plies[i] as usize);
                assert_eq!(
                    end.winner().map_or(-1, |c| c.index() as i8),
                    games.winner[i]
                );
                assert_eq!(
                    games.swapped[i],
                    moves.iter().any(|m| m[0] == 2),
                    "{policy} {variant}"
                );
                assert!(
                    games.winner[i] >= 0,
                    "a game from the start always ends with a winner"
                );
            }
        }
    }
}

#[test]
fn a_finished_position_returns_at_once() {
    let won = pos(
        "4xxx/oxox2o/1so1o2/1o3xx/1x1x1o1/oo2xoo/2xxoOO b play 3",
        Lines::ShootersBlock,
    );
    for policy in [Policy::Micro, Policy::Uniform] {
        let games = playouts(won, true, policy, Batch::new(0, 3), None, false).unwrap();
        assert_eq!(games.winner, [1, 1, 1]);
        assert_eq!(games.plies, [0, 0, 0]);
        assert_eq!(games.swapped, [true, true, true]);
        assert_eq!(games.claims, [[0, 2]; 3]);
    }
}

#[test]
fn uniform_is_uniform_over_legal_moves() {
    // A position with few moves: every one should come up about equally.
    let pos = pos(
        "1o1ooo1/1xso1xs/1ox2xo/xo1xox1/1oo2o1/xxsxx2/xxo1x2 w play 3",
        Lines::ShootersPass,
    );
    let moves = pos.legal_moves();
    assert!(moves.len() > 3 && moves.len() < 40, "{}", moves.len());
    let mut counts = vec![0u32; moves.len()];
    let mut rng = Rng::for_game(0, 0);
    let draws = 2000 * moves.len() as u32;
    for _ in 0..draws {
        let m = uniform_move(&pos, &mut rng).unwrap();
        counts[moves.iter().position(|&x| x == m).unwrap()] += 1;
    }
    assert!(
        counts.iter().all(|&c| (1700..2300).contains(&c)),
        "{counts:?}"
    );
}

#[test]
fn the_shot_bound_holds_on_every_square() {
    for size in 5..=10 {
        let rules = Rules::new(size, 3, SetupRule::Spacing, Lines::ShootersPass).unwrap();
        let most = rules
            .board()
            .iter()
            .map(|sq| lines::reach(sq, rules.walls(), rules.board()).count())
            .max()
            .unwrap();
        assert_eq!(most, most_line_squares(size), "{size}x{size}");
    }
}

/// The action id of a choice of [`MicroGame`].
fn choice_id(choice: Action, size: u32) -> Action {
    if choice == OTHER {
        // PASS and SWAP never appear together; PASS is offered in play only.
        (size * size) as Action
    } else {
        square_id(Square::from_index_unchecked(u32::from(choice)), size)
    }
}

/// Every variant under every rule option, and crowded 5x5 games.
fn all_rules() -> Vec<Rules> {
    let mut rules = Vec::new();
    for variant in Variant::ALL {
        for setup_rule in [SetupRule::Perimeter, SetupRule::Spacing] {
            for lines in [Lines::ShootersPass, Lines::ShootersBlock] {
                for claimed_shooters_block in [false, true] {
                    let r = Rules::variant(variant);
                    let r = Rules::new(r.size(), r.shooters(), setup_rule, lines).unwrap();
                    rules.push(r.with_claimed_shooters_block(claimed_shooters_block));
                }
            }
        }
    }
    rules.push(Rules::new(5, 3, SetupRule::Spacing, Lines::ShootersBlock).unwrap());
    let crowded = Rules::new(5, 7, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
    rules.push(crowded.with_claimed_shooters_block(true));
    rules
}

/// [`play_micro_game_with`] with the line rule of `start`'s rules.
fn micro_game_with<B: Bits>(
    bits: B,
    start: Position,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    with_line_rule!(start.rules(), LINES => play_micro_game_with::<B, LINES>(
        bits, start, false, rng, moves
    ))
}

#[test]
fn the_micro_game_offers_the_decision_states_actions() {
    for (seed, rules) in all_rules().into_iter().enumerate() {
        let size = rules.size();
        for game in 0..20 {
            let mut rng = Rng::for_game(seed as u64, game);
            let mut state = DecisionState::new(Position::new(rules));
            let mut micro = MicroGame::new(state.position(), false);
            loop {
                let ids: Vec<Action> = state.legal_actions().iter().collect();
                let choices = micro.legal_actions();
                let mapped: Vec<Action> = (0..choices.len())
                    .map(|k| choices.nth(k).unwrap())
                    .map(|choice| {
                        let id = choice_id(choice, size);
                        // In the pie the other choice is SWAP, one id up.
                        id + Action::from(choice == OTHER && state.position().phase() == Phase::Pie)
                    })
                    .collect();
                assert_eq!(mapped, ids, "{}", state.position().fen());
                if ids.is_empty() {
                    break;
                }
                let k = rng.below(ids.len() as u64) as u32;
                let (before, position) = (micro, *state.position());
                state.apply_unchecked(ids[k as usize]);
                micro.apply(choices.nth(k).unwrap());
                assert_eq!(before.completes_turn(), state.stage() == Stage::Start);
                if before.completes_turn() {
                    let m = before.completed_move(choices.nth(k).unwrap());
                    let mut played = position;
                    played.play(m).unwrap();
                    assert_eq!(&played, state.position(), "{m}");
                }
            }
            assert_eq!(micro.winner(), Game::winner(&state));
            assert_eq!(micro.swapped, state.swapped());
        }
    }
}

/// A micro game by its definition: [`crate::game::random_action`] on a
/// [`DecisionState`], decision by decision, with the moves it makes.
fn micro_game_by_decisions(start: Position, rng: &mut Rng) -> (Outcome, Vec<MoveRecord>) {
    let mut state = DecisionState::new(start);
    let mut moves = Vec::new();
    while let Some(action) = crate::game::random_action(&state, rng) {
        if let Some(m) = state.move_of(action) {
            moves.push(record(m));
        }
        state.apply_unchecked(action);
    }
    let outcome = Outcome::of(state.position(), state.swapped(), moves.len() as u32);
    (outcome, moves)
}

/// Starts of every phase: the start of the rules, then a few positions
/// along a uniform game.
fn starts(rules: Rules, seed: u64) -> Vec<Position> {
    let mut pos = Position::new(rules);
    let mut starts = vec![pos];
    let mut rng = Rng::for_game(seed, u64::MAX);
    for ply in 0.. {
        let Some(m) = uniform_move(&pos, &mut rng) else {
            break;
        };
        pos.play_unchecked(m);
        if ply % 7 == 3 {
            starts.push(pos);
        }
    }
    starts
}

/// The turn-by-turn playouts with `bits` against the definition, with and
/// without records.
fn check_turns_follow_decisions<B: Bits>(bits: B) {
    for (seed, rules) in all_rules().into_iter().enumerate() {
        for start in starts(rules, seed as u64) {
            for game in 0..8 {
                let rng = Rng::for_game(seed as u64, game);
                let expected = micro_game_by_decisions(start, &mut rng.clone());
                let mut moves = Vec::new();
                let outcome = micro_game_with(bits, start, &mut rng.clone(), Some(&mut moves));
                assert_eq!((outcome, moves), expected, "{}", start.fen());
                let outcome = micro_game_with(bits, start, &mut rng.clone(), None);
                assert_eq!(outcome, expected.0);
            }
        }
    }
}

#[test]
fn portable_turns_follow_the_decisions() {
    check_turns_follow_decisions(Portable);
}

#[cfg(target_arch = "x86_64")]
#[test]
fn x86_v3_turns_follow_the_decisions() {
    // Wherever the CPU has its instructions, fast or not.
    if let Some(x86_v3) = X86V3::supported() {
        check_turns_follow_decisions(x86_v3);
    }
}

/// A uniform game by its definition: [`uniform_move`] on a [`Position`],
/// move by move.
fn uniform_game_by_positions(start: Position, rng: &mut Rng) -> (Outcome, Vec<MoveRecord>) {
    let (mut pos, mut swapped) = (start, false);
    let mut moves = Vec::new();
    while let Some(m) = uniform_move(&pos, rng) {
        moves.push(record(m));
        swapped |= m == Move::Swap;
        pos.play_unchecked(m);
    }
    (Outcome::of(&pos, swapped, moves.len() as u32), moves)
}

/// The uniform games with `bits`, on the micro playouts' game, against the
/// definition, with and without records.
fn check_uniform_games_follow_positions<B: Bits>(bits: B) {
    for (seed, rules) in all_rules().into_iter().enumerate() {
        for start in starts(rules, seed as u64) {
            for game in 0..6 {
                let rng = Rng::for_game(seed as u64, game);
                let expected = uniform_game_by_positions(start, &mut rng.clone());
                let mut moves = Vec::new();
                let play = |rng: &mut Rng, moves: Option<&mut Vec<MoveRecord>>| {
                    with_line_rule!(rules, LINES => uniform::play_uniform_game_with::<B, LINES>(
                        bits, start, false, rng, moves
                    ))
                };
                let outcome = play(&mut rng.clone(), Some(&mut moves));
                assert_eq!((outcome, moves), expected, "{}", start.fen());
                assert_eq!(play(&mut rng.clone(), None), expected.0);
            }
        }
    }
}

#[test]
fn a_sampler_kept_across_unrelated_positions_draws_as_a_fresh_one() {
    // The sampler keeps the shooters' sights from one draw to the next:
    // positions out of any order, with other shooters, blockers and rules,
    // must not see a stale one.
    for (seed, rules) in all_rules().into_iter().enumerate() {
        let mut positions: Vec<Position> = (0..4)
            .flat_map(|game| starts(rules, 10 * seed as u64 + game))
            .collect();
        let mut rng = Rng::for_game(seed as u64, 1);
        for i in (1..positions.len()).rev() {
            positions.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut kept = UniformSampler::new(rules.size());
        for (k, pos) in positions.iter().enumerate() {
            let rng = Rng::for_game(seed as u64, k as u64);
            let expected = uniform_move(pos, &mut rng.clone());
            assert_eq!(kept.draw(pos, &mut rng.clone()), expected, "{}", pos.fen());
        }
    }
}

#[test]
fn portable_uniform_games_follow_the_positions() {
    check_uniform_games_follow_positions(Portable);
}

#[cfg(target_arch = "x86_64")]
#[test]
fn x86_v3_uniform_games_follow_the_positions() {
    if let Some(x86_v3) = X86V3::supported() {
        check_uniform_games_follow_positions(x86_v3);
    }
}

#[test]
fn play_random_takes_the_decisions_of_one_at_a_time() {
    // From every phase, at each decision of a turn, cut at every count of
    // decisions a turn can leave over and beyond.
    for (seed, rules) in all_rules().into_iter().enumerate() {
        for (index, start) in starts(rules, seed as u64).into_iter().enumerate() {
            let mut state = DecisionState::new(start);
            let mut rng = Rng::for_game(seed as u64, index as u64);
            for into_turn in 0..3 {
                for limit in [0, 1, 2, 3, 4, 5, 6, 7, 10, 32, u32::MAX] {
                    let (mut one_at_a_time, mut turns) = (state, state);
                    let (mut expected_rng, mut rng) = (rng.clone(), rng.clone());
                    let expected = crate::game::play_random_decisions(
                        &mut one_at_a_time,
                        &mut expected_rng,
                        limit,
                    );
                    let taken = Game::play_random(&mut turns, &mut rng, limit);
                    let context = format!("{} +{into_turn}, limit {limit}", start.fen());
                    assert_eq!(taken, expected, "{context}");
                    assert_eq!(turns, one_at_a_time, "{context}");
                    assert_eq!(
                        turns.position().zobrist_hash(),
                        one_at_a_time.position().zobrist_hash()
                    );
                    assert_eq!(rng.next_u64(), expected_rng.next_u64(), "{context}");
                }
                let Some(action) = crate::game::random_action(&state, &mut rng) else {
                    break;
                };
                state.apply_unchecked(action);
            }
        }
    }
}

/// The same games for the same seed on every kernel the CPU can run,
/// chosen as the package chooses one (`cpu::set_kernel`).
#[test]
fn every_backend_plays_the_same_stream() {
    use crate::cpu::{Kernel, set_kernel};
    let mut streams = Vec::new();
    for kernel in Kernel::supported() {
        set_kernel(Some(kernel)).unwrap();
        assert_eq!(crate::cpu::kernel(), kernel);
        let mut games = Vec::new();
        for variant in Variant::ALL {
            for policy in [Policy::Micro, Policy::Uniform] {
                let start = Position::new(Rules::variant(variant));
                games.push(playouts(start, false, policy, Batch::new(11, 40), None, true).unwrap());
            }
        }
        streams.push((kernel, games));
    }
    set_kernel(None).unwrap();
    let (first, expected) = &streams[0];
    for (kernel, games) in &streams[1..] {
        assert!(games == expected, "{kernel} plays other games than {first}");
    }
    let names: Vec<&str> = streams.iter().map(|(kernel, _)| kernel.name()).collect();
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!(
            "\nplayout streams: checked the kernels {}\n",
            names.join(", ")
        )
        .as_bytes(),
    );
}

#[test]
fn policies_parse() {
    assert_eq!("micro".parse(), Ok(Policy::Micro));
    assert_eq!("uniform".parse::<Policy>().unwrap().to_string(), "uniform");
    assert!("random".parse::<Policy>().is_err());
}
