//! The exact solver ([`crate::solver`]) on several threads: one thread
//! solves the whole position, as a solve on one thread does, while the
//! others share the decisions open at the root, each solving one child at a
//! time with a table of its own. The first to settle the root ends the
//! solve: the whole, a child proven won for the seat to act, or every child
//! proven lost. With one thread it is the plain solve.
//!
//! No table is shared, so the search takes no locks. The thread on the
//! whole keeps the plain solve's guidance by proof numbers (a hard child
//! does not hold it up); the others gain most where every child must be
//! refuted (a loss).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crate::game::{Action, ActionSet};
use crate::solver::{Budget, Progress, Proof, Solvable, Solver, Value};

/// What a solve on threads found, for the seat to act at the root.
pub struct Solved {
    /// The value.
    pub value: Value,
    /// On a win, the winning decisions from the root until `done` says a
    /// state ends the line (the decisions of a winning move).
    pub line: Vec<Action>,
    /// On a win, the winning strategy, if it has at most `max_proof`
    /// positions (none built for a `max_proof` of 0).
    pub proof: Option<Proof>,
    /// The nodes searched by all threads.
    pub nodes: u64,
    /// The wall-clock time.
    pub elapsed: Duration,
}

/// The longest wait of the thread that watches the stop flag and reports.
const POLL: Duration = Duration::from_millis(5);

/// Solves `state` on `threads` threads within `budget` (the table's memory
/// shared among them) or until `stop` is raised; `progress` hears about a
/// long solve every second or so, with the nodes of all threads.
#[allow(clippy::too_many_lines)]
pub fn solve<G: Solvable + Send + Sync>(
    state: &G,
    budget: &Budget,
    threads: usize,
    stop: &AtomicBool,
    max_proof: usize,
    done: impl Fn(&G) -> bool + Sync,
    progress: &mut dyn FnMut(&Progress),
) -> Solved
where
    G::Key: Send,
{
    let started = Instant::now();
    let legal = state.legal_actions();
    if threads <= 1 || state.winner().is_some() || legal.len() < 2 {
        let mut solver = Solver::new(budget.table_bytes);
        return solve_with(&mut solver, state, budget, stop, max_proof, &done, progress);
    }
    let prover = state.seat_to_act();
    let mut actions: Vec<Action> = legal.iter().collect();
    state.order_actions(&mut actions);
    let children: Vec<(Action, G)> = actions
        .into_iter()
        .map(|action| {
            let mut child = *state;
            child.apply(action);
            (action, child)
        })
        .collect();
    // One thread on the whole, the others on the children.
    let threads = threads.min(children.len() + 1);
    let deadline = budget.time.map(|t| started + t);
    // A solve may take its share of the nodes left, so that all of them
    // together stay near the budget.
    let child_budget = |used: u64| Budget {
        max_nodes: budget
            .max_nodes
            .map(|n| (n.saturating_sub(used) / threads as u64).max(1)),
        time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        table_bytes: budget.table_bytes / threads,
        symmetries: budget.symmetries,
    };

    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let finished = AtomicUsize::new(0);
    let used = AtomicU64::new(0);
    let live: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let values: Mutex<Vec<Value>> = Mutex::new(vec![Value::Unknown; children.len()]);
    let won: Mutex<Option<(usize, Solver<G>)>> = Mutex::new(None);
    let whole: Mutex<Option<(Value, Solver<G>)>> = Mutex::new(None);

    thread::scope(|scope| {
        scope.spawn(|| {
            let slot = &live[0];
            let mut solver = Solver::new(child_budget(0).table_bytes);
            let outcome = solver.solve(state, &child_budget(0), &halt, &mut |p| {
                slot.store(p.nodes, Ordering::Relaxed);
            });
            slot.store(0, Ordering::Relaxed);
            used.fetch_add(outcome.nodes, Ordering::Relaxed);
            if outcome.value != Value::Unknown {
                *whole.lock().expect("no panic holds it") = Some((outcome.value, solver));
                halt.store(true, Ordering::Relaxed);
            }
            finished.fetch_add(1, Ordering::Relaxed);
        });
        for slot in &live[1..] {
            let (next, halt, finished, used, values, won) =
                (&next, &halt, &finished, &used, &values, &won);
            let (children, child_budget) = (&children, &child_budget);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= children.len() || halt.load(Ordering::Relaxed) {
                        break;
                    }
                    let child = &children[i].1;
                    let mut solver = Solver::new(child_budget(0).table_bytes);
                    let value = if let Some(seat) = child.winner() {
                        if seat == prover {
                            Value::Win
                        } else {
                            Value::Loss
                        }
                    } else {
                        let budget = child_budget(used.load(Ordering::Relaxed));
                        let outcome = solver.solve(child, &budget, halt, &mut |p| {
                            slot.store(p.nodes, Ordering::Relaxed);
                        });
                        slot.store(0, Ordering::Relaxed);
                        used.fetch_add(outcome.nodes, Ordering::Relaxed);
                        let same_seat = child.seat_to_act() == prover;
                        match outcome.value {
                            Value::Win if same_seat => Value::Win,
                            Value::Loss if !same_seat => Value::Win,
                            Value::Unknown => Value::Unknown,
                            _ => Value::Loss,
                        }
                    };
                    let mut values = values.lock().expect("no panic holds it");
                    values[i] = value;
                    if value == Value::Win {
                        won.lock()
                            .expect("no panic holds it")
                            .get_or_insert((i, solver));
                        halt.store(true, Ordering::Relaxed);
                    }
                    if values.iter().all(|&v| v == Value::Loss) {
                        halt.store(true, Ordering::Relaxed);
                    }
                    if budget
                        .max_nodes
                        .is_some_and(|n| used.load(Ordering::Relaxed) >= n)
                    {
                        halt.store(true, Ordering::Relaxed);
                    }
                }
                finished.fetch_add(1, Ordering::Relaxed);
            });
        }
        // This thread watches the stop flag and the clock, and reports.
        let (mut last_report, mut wait) = (started, Duration::from_micros(20));
        while finished.load(Ordering::Relaxed) < threads {
            // Short waits first: most solves end in moments.
            thread::sleep(wait);
            wait = (wait * 2).min(POLL);
            if stop.load(Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d) {
                halt.store(true, Ordering::Relaxed);
            }
            if last_report.elapsed() >= Duration::from_secs(1) {
                last_report = Instant::now();
                let nodes = used.load(Ordering::Relaxed)
                    + live.iter().map(|n| n.load(Ordering::Relaxed)).sum::<u64>();
                progress(&Progress {
                    nodes,
                    elapsed: started.elapsed(),
                    entries: 0,
                });
            }
        }
    });

    let nodes = used.into_inner();
    let values = values.into_inner().expect("no panic holds it");
    if let Some((value, mut solver)) = whole.into_inner().expect("no panic holds it") {
        let (line, proof) = if value == Value::Win {
            (
                solver.winning_line(state, &done),
                proof_within(&mut solver, state, max_proof),
            )
        } else {
            (Vec::new(), None)
        };
        return Solved {
            value,
            line,
            proof,
            nodes,
            elapsed: started.elapsed(),
        };
    }
    if let Some((i, mut solver)) = won.into_inner().expect("no panic holds it") {
        let (action, child) = children[i];
        let mut line = vec![action];
        let mut graph = None;
        if child.winner().is_some() {
            graph = (max_proof > 0).then(|| Proof {
                winner: prover,
                nodes: vec![vec![(action, 1)], Vec::new()],
            });
        } else {
            if child.seat_to_act() == prover && !done(&child) {
                line.extend(solver.winning_line(&child, &done));
            }
            if let Some(below) = proof_within(&mut solver, &child, max_proof.saturating_sub(1)) {
                let mut nodes = vec![vec![(action, 1)]];
                nodes.extend(
                    below
                        .nodes
                        .into_iter()
                        .map(|edges| edges.into_iter().map(|(a, n)| (a, n + 1)).collect()),
                );
                graph = Some(Proof {
                    winner: prover,
                    nodes,
                });
            }
        }
        return Solved {
            value: Value::Win,
            line,
            proof: graph,
            nodes,
            elapsed: started.elapsed(),
        };
    }
    let value = if values.iter().all(|&v| v == Value::Loss) {
        Value::Loss
    } else {
        Value::Unknown
    };
    Solved {
        value,
        line: Vec::new(),
        proof: None,
        nodes,
        elapsed: started.elapsed(),
    }
}

/// The plain solve on this thread by `solver`, whose table keeps what
/// earlier solves of the same prover filed (its size as it was made).
pub fn solve_with<G: Solvable>(
    solver: &mut Solver<G>,
    state: &G,
    budget: &Budget,
    stop: &AtomicBool,
    max_proof: usize,
    done: &impl Fn(&G) -> bool,
    progress: &mut dyn FnMut(&Progress),
) -> Solved {
    let outcome = solver.solve(state, budget, stop, progress);
    let (line, proof) = if outcome.value == Value::Win {
        (
            solver.winning_line(state, done),
            proof_within(solver, state, max_proof),
        )
    } else {
        (Vec::new(), None)
    };
    Solved {
        value: outcome.value,
        line,
        proof,
        nodes: outcome.nodes,
        elapsed: outcome.elapsed,
    }
}

/// The proof of the win `solver` found from `state`, within `max_proof`
/// positions; none built for 0 (after a long search, building one can
/// take far longer than the search did).
fn proof_within<G: Solvable>(solver: &mut Solver<G>, state: &G, max_proof: usize) -> Option<Proof> {
    if max_proof == 0 {
        None
    } else {
        solver.proof(state, max_proof)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, random_action};
    use crate::rng::Rng;

    /// The value of `state` by the plain solve.
    fn alone<G: Solvable>(state: &G) -> Value {
        Solver::new(1 << 20)
            .solve(
                state,
                &Budget::default(),
                &AtomicBool::new(false),
                &mut |_| {},
            )
            .value
    }

    #[test]
    fn threads_find_the_values_of_one_thread_and_winning_lines() {
        use crate::veletas::{DecisionState, Lines, Position, Rules, SetupRule};
        let rules = Rules::new(6, 3, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
        let (mut wins, mut losses) = (0, 0);
        for seed in 0..24 {
            let mut rng = Rng::for_game(seed, 0);
            let mut line = Vec::new();
            let mut state = DecisionState::new(Position::new(rules));
            while let Some(action) = random_action(&state, &mut rng) {
                line.push(action);
                Game::apply(&mut state, action);
            }
            // The start of a turn some decisions before the end.
            let mut state = DecisionState::new(Position::new(rules));
            for &action in &line[..line.len().saturating_sub(5)] {
                Game::apply(&mut state, action);
            }
            let state = DecisionState::with_swapped(*state.position(), state.swapped());
            if state.winner().is_some() {
                continue;
            }
            let budget = Budget {
                table_bytes: 4 << 20,
                ..Budget::default()
            };
            let starts_turn = |s: &DecisionState| crate::player::Turns::starts_turn(s);
            let split = solve(
                &state,
                &budget,
                2,
                &AtomicBool::new(false),
                1 << 20,
                starts_turn,
                &mut |_| {},
            );
            assert_eq!(split.value, alone(&state), "seed {seed}");
            if split.value == Value::Win {
                wins += 1;
                // The line is a winning move: the opponent is lost after it.
                let mut after = state;
                for &a in &split.line {
                    Game::apply(&mut after, a);
                }
                assert!(crate::player::Turns::starts_turn(&after) || after.winner().is_some());
                assert!(
                    after.winner() == Some(state.seat_to_act()) || alone(&after) == Value::Loss,
                    "seed {seed}"
                );
                let proof = split.proof.expect("a small proof");
                assert_eq!(proof.winner, state.seat_to_act());
                assert_eq!(proof.nodes[0].len(), 1);
            } else if split.value == Value::Loss {
                losses += 1;
            }
        }
        assert!(wins > 3 && losses > 3, "{wins} wins, {losses} losses");
    }
}
