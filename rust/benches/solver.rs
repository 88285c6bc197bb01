//! Counts the work of the exact solver on a fixed suite of endgames: the
//! positions `--left` decisions before the end of seeded random games, each
//! solved with a fresh table of `--table-kib` KiB and at most `--max-nodes`
//! nodes (expansions). It prints, per game, the values found, the nodes and
//! the time. The nodes and values
//! are the same on every run for the same arguments: compare them before and
//! after a change of the search.
//!
//! `cargo bench --bench solver` (release profile). Optional arguments:
//! `--game veletas|meridians` (default both), `--count N` endgames
//! (default 40), `--left L` decisions (default 8 for Veletas, 2 for
//! Meridians 5-6), `--size N` of the Veletas board (default 6, with 3
//! shooters), `--table-kib K` (default 1024; small tables show how a
//! full table thrashes), `--no-symmetries` (a position and its images
//! under the board's symmetries no longer share an entry), `--max-nodes N` a solve (default 2,000,000; a
//! solve that reaches it counts as unknown). Run without `--bench` (as by `cargo test
//! --benches`), it solves 4 endgames a game.
//!
//! `--openings N` solves instead the first N openings of Veletas on
//! `--size` with 3 shooters, up to the board's symmetries: the positions
//! after Black's shooter and stone, White to decide the pie swap. It prints
//! how many openings there are, and for each its value, the nodes, the
//! nodes a second and the table's hit rate: the numbers that say how far
//! a solve of every opening is.
//!
//! `--no-ordering`: the games' move ordering left out (the actions in id
//! order, no child ranked first), to measure what it saves.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use _veletas::game::{Action, Game, near_end};
use _veletas::solver::{Budget, Solvable, Solver, Value};
use _veletas::{meridians, veletas};

fn main() {
    let mut games = Vec::new();
    let (mut count, mut left, mut table_kib, mut timing) = (None, None, 1024, false);
    let (mut size, mut max_nodes, mut symmetries) = (6, 2_000_000, true);
    let (mut openings, mut ordering) = (None, true);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => timing = true,
            "--no-symmetries" => symmetries = false,
            "--no-ordering" => ordering = false,
            "--game" => games.push(value::<String>(&mut args, "--game veletas|meridians")),
            "--count" => count = Some(value(&mut args, "--count N")),
            "--left" => left = Some(value(&mut args, "--left L")),
            "--size" => size = value(&mut args, "--size N"),
            "--table-kib" => table_kib = value(&mut args, "--table-kib K"),
            "--max-nodes" => max_nodes = value(&mut args, "--max-nodes N"),
            "--openings" => openings = Some(value(&mut args, "--openings N")),
            _ => {}
        }
    }
    if let Some(n) = openings {
        let budget = Budget {
            table_bytes: table_kib << 10,
            max_nodes: Some(max_nodes),
            symmetries,
            ..Budget::default()
        };
        solve_openings(size, n, &budget, ordering);
        return;
    }
    let count = count.unwrap_or(if timing { 40 } else { 4 });
    if games.is_empty() {
        games = vec!["veletas".to_owned(), "meridians".to_owned()];
    }
    for game in &games {
        let line = match game.as_str() {
            "veletas" => {
                use veletas::{DecisionState, Lines, Position, Rules, SetupRule};
                let rules = Rules::new(size, 3, SetupRule::Perimeter, Lines::ShootersPass)
                    .expect("--size N: a board of 5 to 12 with 3 shooters");
                let start = DecisionState::new(Position::new(rules));
                run(
                    &start,
                    ordering,
                    count,
                    left.unwrap_or(8),
                    table_kib,
                    max_nodes,
                    symmetries,
                )
            }
            "meridians" => {
                use meridians::{DecisionState, Position, Size};
                let size = "5-6".parse::<Size>().expect("5-6 is a size");
                run(
                    &DecisionState::new(Position::new(size)),
                    ordering,
                    count,
                    left.unwrap_or(2),
                    table_kib,
                    max_nodes,
                    symmetries,
                )
            }
            other => panic!("no game {other}"),
        };
        println!("{game}: {line}");
    }
}

/// Solves `count` endgames from `start`, each `left` decisions before the
/// end of a seeded random game; returns the summary line.
fn run<G: Solvable>(
    start: &G,
    ordering: bool,
    count: u64,
    left: usize,
    table_kib: usize,
    max_nodes: u64,
    symmetries: bool,
) -> String {
    let budget = Budget {
        table_bytes: table_kib << 10,
        max_nodes: Some(max_nodes),
        symmetries,
        ..Budget::default()
    };
    let never = AtomicBool::new(false);
    let (mut wins, mut unknown, mut nodes) = (0, 0, 0);
    let clock = Instant::now();
    for seed in 0..count {
        let state = near_end(start, seed, left);
        let outcome = if ordering {
            Solver::new(budget.table_bytes).solve(&state, &budget, &never, &mut |_| {})
        } else {
            Solver::new(budget.table_bytes).solve(&Unordered(state), &budget, &never, &mut |_| {})
        };
        wins += u64::from(outcome.value == Value::Win);
        unknown += u64::from(outcome.value == Value::Unknown);
        nodes += outcome.nodes;
    }
    let seconds = clock.elapsed().as_secs_f64();
    #[allow(clippy::cast_precision_loss)] // far below 2**52
    let rate = nodes as f64 / seconds;
    format!(
        "{count} endgames, {left} decisions left, table {table_kib} KiB: \
         symmetries {symmetries}, ordering {ordering}: {wins} won by the seat to act, {unknown} unknown after {max_nodes} nodes, {nodes} nodes, {seconds:.3} s, {rate:.0} nodes/s"
    )
}

/// Solves the first `n` openings of Veletas on `size` with 3 shooters, up
/// to the board's symmetries, and prints a line for each.
fn solve_openings(size: u32, n: usize, budget: &Budget, ordering: bool) {
    use veletas::{DecisionState, Lines, Phase, Position, Rules, SetupRule};
    let rules = Rules::new(size, 3, SetupRule::Perimeter, Lines::ShootersPass)
        .expect("--size N: a board of 5 to 12 with 3 shooters");
    let start = DecisionState::new(Position::new(rules));
    let actions = |state: &DecisionState| {
        let legal = state.legal_actions();
        (0..legal.len())
            .filter_map(move |k| legal.nth(k))
            .collect::<Vec<_>>()
    };
    // Black's shooter, then Black's stone; the table's key folds a setup
    // position with its images, so one key is one opening.
    let mut seen = std::collections::HashSet::new();
    let mut found = Vec::new();
    for shooter in actions(&start) {
        let mut placed = start;
        Game::apply(&mut placed, shooter);
        for stone in actions(&placed) {
            let mut opening = placed;
            Game::apply(&mut opening, stone);
            assert_eq!(opening.position().phase(), Phase::Pie);
            if seen.insert(opening.key(true)) {
                found.push(opening);
            }
        }
    }
    println!(
        "veletas {size}x{size}/3: {} openings up to symmetry",
        found.len()
    );
    let never = AtomicBool::new(false);
    for (k, opening) in found.iter().take(n).enumerate() {
        let clock = Instant::now();
        let (outcome, entries, (probes, hits)) = if ordering {
            let mut solver = Solver::new(budget.table_bytes);
            let outcome = solver.solve(opening, budget, &never, &mut |_| {});
            (outcome, solver.entries(), solver.lookups())
        } else {
            let mut solver = Solver::new(budget.table_bytes);
            let outcome = solver.solve(&Unordered(*opening), budget, &never, &mut |_| {});
            (outcome, solver.entries(), solver.lookups())
        };
        let seconds = clock.elapsed().as_secs_f64();
        #[allow(clippy::cast_precision_loss)] // far below 2**52
        let (rate, hit_rate) = (
            outcome.nodes as f64 / seconds,
            100.0 * hits as f64 / probes.max(1) as f64,
        );
        println!(
            "opening {k}: {}: {:?} for White, {} nodes, {seconds:.1} s, {rate:.0} nodes/s, \
             {} entries, table hits {hit_rate:.1}%",
            opening.position().fen(),
            outcome.value,
            outcome.nodes,
            entries,
        );
    }
}

/// A game with its move ordering left out: every other part of it is the
/// game's own.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Unordered<G>(G);

impl<G: Solvable> Game for Unordered<G> {
    type Actions = G::Actions;
    const EXPLORATION: f64 = G::EXPLORATION;

    fn num_actions(&self) -> usize {
        self.0.num_actions()
    }

    fn legal_actions(&self) -> G::Actions {
        self.0.legal_actions()
    }

    fn apply(&mut self, action: Action) {
        self.0.apply(action);
    }

    fn seat_to_act(&self) -> usize {
        self.0.seat_to_act()
    }

    fn winner(&self) -> Option<usize> {
        self.0.winner()
    }
}

impl<G: Solvable> Solvable for Unordered<G> {
    type Key = G::Key;
    const MAY_REPEAT: bool = G::MAY_REPEAT;
    const SOLVE_AT_EMPTY: u32 = G::SOLVE_AT_EMPTY;

    fn key(&self, symmetric: bool) -> (G::Key, u64) {
        self.0.key(symmetric)
    }

    fn empty_cells(&self) -> u32 {
        self.0.empty_cells()
    }
}

fn value<T: std::str::FromStr>(args: &mut impl Iterator<Item = String>, usage: &str) -> T {
    args.next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("usage: {usage}"))
}
