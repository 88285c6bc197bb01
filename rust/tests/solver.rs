//! The MCTS solver against exhaustive search, on both games.
//!
//! The suite of positions is built here, not stored: random games are
//! played to the end, and the positions at the start of their last turns
//! that an exhaustive search to the end solves within a node budget are
//! kept. In every position the seat to act wins, the search (decision by
//! decision, as the bots play) must take a whole winning turn; and whatever
//! the solver says it proved at the root must be what exhaustive search
//! finds.
//!
//! The default run checks a few dozen positions of each game; the
//! `#[ignore]`d suite (`cargo test --release --test solver -- --ignored`)
//! checks at least 200.

use _veletas::game::{ActionSet, Game, random_action};
use _veletas::mcts::{Algorithm, Budget, Config, Mcts};
use _veletas::meridians;
use _veletas::player::Turns;
use _veletas::rng::Rng;
use _veletas::veletas::{self, Lines, Rules, SetupRule};

/// The winner under best play (`Some(None)`: a game without a winner), or
/// `None` once `budget` nodes are spent.
#[allow(clippy::option_option, reason = "unknown, drawn or won by a seat")]
fn solve<G: Game>(state: &G, budget: &mut u64) -> Option<Option<usize>> {
    *budget = budget.checked_sub(1)?;
    if let Some(winner) = state.winner() {
        return Some(Some(winner));
    }
    let actions = state.legal_actions();
    if actions.is_empty() {
        return Some(None);
    }
    let seat = state.seat_to_act();
    let mut draw = false;
    for k in 0..actions.len() {
        let mut child = state.clone();
        Game::apply(&mut child, actions.nth(k).expect("k < len"));
        match solve(&child, budget)? {
            Some(winner) if winner == seat => return Some(Some(seat)),
            None => draw = true,
            Some(_) => {}
        }
    }
    Some(if draw { None } else { Some(1 - seat) })
}

/// Positions at the start of a turn that exhaustive search solves within
/// `budget` nodes, with their winner under best play: from the last turns
/// of random games from `start`, as many turns back as the budget allows.
fn suite<G: Turns>(start: G, games: u64, budget: u64) -> Vec<(G, Option<usize>)> {
    let mut positions = Vec::new();
    for game in 0..games {
        let mut rng = Rng::for_game(0x501e, game);
        let mut state = start;
        let mut turns = Vec::new();
        while !state.is_terminal() {
            if state.starts_turn() {
                turns.push(state);
            }
            let action = random_action(&state, &mut rng).expect("a game not over has an action");
            Game::apply(&mut state, action);
        }
        for &position in turns.iter().rev() {
            match solve(&position, &mut budget.clone()) {
                Some(winner) => positions.push((position, winner)),
                None => break,
            }
        }
    }
    positions
}

fn solver_config(seed: u64) -> Config {
    Config {
        seed,
        ..Config::for_game::<veletas::DecisionState>()
    }
}

/// The turn the search takes from `state`, decision by decision with
/// `iterations` each, as the bots search; returns the state after it.
fn search_turn<G: Turns>(state: G, config: Config, iterations: u64) -> G {
    let mut search = Mcts::new(state, config);
    loop {
        let info = search.search(Budget::iterations(iterations));
        search.advance(info.best_action.expect("a turn not over has an action"));
        if search.root().starts_turn() || search.root().is_terminal() {
            return *search.root();
        }
    }
}

/// Checks the suite of `start`'s game, the search on `threads` threads: a
/// winning turn in every won position, and every proof at the root true.
/// Returns the numbers of positions and of won positions.
fn check_suite<G: Turns + std::fmt::Debug>(
    start: G,
    exploration: f64,
    games: u64,
    budget: u64,
    threads: usize,
) -> (usize, usize) {
    let positions = suite(start, games, budget);
    let mut won = 0;
    for (k, &(position, winner)) in positions.iter().enumerate() {
        let config = Config {
            exploration: Some(exploration),
            threads,
            ..solver_config(k as u64)
        };
        let seat = position.seat_to_act();
        // Proofs at the root agree with exhaustive search.
        let mut search = Mcts::new(position, config);
        search.search(Budget::iterations(2000));
        for stats in search.root_stats() {
            if let Some(proven) = stats.proven {
                let mut after = position;
                Game::apply(&mut after, stats.action);
                let truth = solve(&after, &mut u64::MAX.clone()).expect("no budget");
                assert_eq!(
                    truth == Some(seat),
                    proven,
                    "action {} of {position:?} proven {proven}",
                    stats.action
                );
            }
        }
        if winner == Some(seat) {
            won += 1;
            let after = search_turn(position, config, 4000);
            let outcome = solve(&after, &mut u64::MAX.clone()).expect("no budget");
            assert_eq!(
                outcome,
                Some(seat),
                "{position:?}: the search's turn gives the win away"
            );
        }
    }
    println!("{} positions, {won} won", positions.len());
    (positions.len(), won)
}

fn veletas_5x5() -> veletas::DecisionState {
    let rules = Rules::new(5, 3, SetupRule::Perimeter, Lines::ShootersPass).expect("5x5 rules");
    veletas::DecisionState::new(veletas::Position::new(rules))
}

fn veletas_7x7() -> veletas::DecisionState {
    veletas::DecisionState::new(veletas::Position::new(Rules::variant(
        veletas::Variant::Small,
    )))
}

fn meridians_5_6() -> meridians::DecisionState {
    meridians::DecisionState::new(meridians::Position::new(meridians::Size::S5_6))
}

#[test]
fn the_solver_plays_every_forced_win_of_veletas() {
    let exploration = <veletas::DecisionState as Game>::EXPLORATION;
    let (all, won) = check_suite(veletas_5x5(), exploration, 6, 20_000, 1);
    assert!(won >= 10, "{won} won positions of {all}");
    let (all, won) = check_suite(veletas_7x7(), exploration, 4, 20_000, 1);
    assert!(won >= 5, "{won} won positions of {all}");
}

#[test]
fn the_solver_on_two_threads_plays_every_forced_win() {
    // One tree grown by two threads: their proofs are as exact.
    let exploration = <veletas::DecisionState as Game>::EXPLORATION;
    let (all, won) = check_suite(veletas_5x5(), exploration, 6, 20_000, 2);
    assert!(won >= 10, "{won} won positions of {all}");
    let exploration = <meridians::DecisionState as Game>::EXPLORATION;
    let (all, won) = check_suite(meridians_5_6(), exploration, 10, 20_000, 2);
    assert!(won >= 10, "{won} won positions of {all}");
}

#[test]
fn the_solver_plays_every_forced_win_of_meridians() {
    let exploration = <meridians::DecisionState as Game>::EXPLORATION;
    let (all, won) = check_suite(meridians_5_6(), exploration, 10, 20_000, 1);
    assert!(won >= 10, "{won} won positions of {all}");
}

#[test]
#[ignore = "slow: the whole suite, at least 200 positions a game"]
fn the_whole_suite() {
    let cv = <veletas::DecisionState as Game>::EXPLORATION;
    let cm = <meridians::DecisionState as Game>::EXPLORATION;
    let (small, small_won) = check_suite(veletas_5x5(), cv, 60, 200_000, 1);
    let (seven, seven_won) = check_suite(veletas_7x7(), cv, 40, 200_000, 1);
    let (mer, mer_won) = check_suite(meridians_5_6(), cm, 80, 200_000, 1);
    println!(
        "veletas 5x5: {small} ({small_won} won), 7x7: {seven} ({seven_won} won), \
         meridians 5-6: {mer} ({mer_won} won)"
    );
    assert!(small + seven >= 200 && mer >= 200);
}

#[test]
fn plain_uct_proves_nothing() {
    let config = Config {
        algorithm: Algorithm::Uct,
        ..solver_config(1)
    };
    for &(position, _) in &suite(veletas_5x5(), 2, 20_000) {
        let mut search = Mcts::new(position, config);
        let info = search.search(Budget::iterations(500));
        assert!(!info.solved);
        assert!(search.root_stats().iter().all(|s| s.proven.is_none()));
    }
}
