//! Times Meridians: perft from the start of each size (checking the node
//! counts), and random games (the room's playout loop) through the batch
//! runner on one thread, in games per second.
//!
//! `cargo bench --bench meridians` (release profile). Optional arguments:
//! `--games N` (default 20000), `--threads T` (default 1), `--size S` (default
//! all three), `--pie`, `--only perft|games`, `--depth N` (an extra,
//! unchecked perft depth, counted once), `--kernel NAME` (a kernel of the
//! bit kernels, `portable` or `x86-64-v3`; default: the CPU's). Run without `--bench` (as by
//! `cargo test --benches`), it checks the counts once and plays 20 games
//! (or `--games N`), timing nothing that it repeats: for profilers.

use std::num::NonZeroUsize;
use std::str::FromStr;
use std::time::{Duration, Instant};

use _veletas::meridians::playout::play_random_game;
use _veletas::meridians::{DecisionState, Position, Size, perft};
use _veletas::playout::Batch;

/// Perft from the start by size: (depth, nodes), checked.
fn start_counts(size: Size) -> Vec<(u32, u64)> {
    let points = u64::from(size.points());
    let mut counts = vec![(1, points), (2, points * (points - 1))];
    if size == Size::S6_7 {
        counts.push((3, 253_160));
    }
    counts
}

/// Runs `f` until at least `budget` has passed (and at least once); returns
/// the result and the best time of one run.
fn time<T>(budget: Duration, mut f: impl FnMut() -> T) -> (T, Duration) {
    let start = Instant::now();
    let mut best = Duration::MAX;
    loop {
        let t = Instant::now();
        let result = f();
        best = best.min(t.elapsed());
        if start.elapsed() >= budget {
            return (result, best);
        }
    }
}

fn main() {
    let mut games = None;
    let mut only = None;
    let mut threads = 1;
    let mut sizes = Vec::new();
    let mut pie = false;
    let mut timing = false;
    let mut extra_depth = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => timing = true,
            "--kernel" => {
                let name: String = value(&mut args, "--kernel NAME");
                let chosen = _veletas::cpu::Kernel::parse(&name)
                    .and_then(|kernel| _veletas::cpu::set_kernel(Some(kernel)));
                if let Err(error) = chosen {
                    eprintln!("{error}");
                    std::process::exit(2);
                }
            }
            "--games" => games = Some(value(&mut args, "--games N")),
            "--only" => only = Some(value::<String>(&mut args, "--only perft|games")),
            "--threads" => threads = value(&mut args, "--threads T"),
            "--size" => sizes.push(value(&mut args, "--size S")),
            "--pie" => pie = true,
            "--depth" => extra_depth = Some(value(&mut args, "--depth N")),
            _ => {}
        }
    }
    let games = games.unwrap_or(if timing { 20_000 } else { 20 });
    if sizes.is_empty() {
        sizes = Size::ALL.to_vec();
    }
    let budget = if timing {
        Duration::from_secs(2)
    } else {
        Duration::ZERO
    };
    if only.as_deref() != Some("games") {
        perfts(&sizes, pie, budget, extra_depth);
    }
    if only.as_deref() != Some("perft") {
        random_games(&sizes, pie, games, threads, timing);
    }
}

/// Times perft from the start of each size, checking the counts, and
/// counts `extra_depth` once.
fn perfts(sizes: &[Size], pie: bool, budget: Duration, extra_depth: Option<u32>) {
    for &size in sizes {
        let start = Position::new(size).with_pie(pie);
        if let Some(depth) = extra_depth {
            let found = perft(&start, depth);
            println!("{size} perft {depth}: {found:>10} nodes");
        }
        for (depth, nodes) in start_counts(size) {
            let nodes = if pie && depth == 3 { 0 } else { nodes };
            let (found, best) = time(budget, || perft(&start, depth));
            assert!(nodes == 0 || found == nodes, "{size}: perft {depth}");
            // Node counts stay far below 2^52, where f64 would start to round.
            #[allow(clippy::cast_precision_loss)]
            let rate = found as f64 / best.as_secs_f64() / 1e6;
            println!(
                "{size} perft {depth}: {found:>10} nodes in {best:>10.3?} ({rate:.1} Mnodes/s)"
            );
        }
    }
}

/// Plays `games` random games of each size on `threads` threads, and prints
/// the rate of the best of five runs when `timing`.
fn random_games(sizes: &[Size], pie: bool, games: usize, threads: usize, timing: bool) {
    for &size in sizes {
        let start = DecisionState::new(Position::new(size).with_pie(pie));
        // The best of a few runs: the machine may be busy with other work.
        let mut seconds = f64::INFINITY;
        let mut decisions = Vec::new();
        for _ in 0..if timing { 5 } else { 1 } {
            let clock = Instant::now();
            decisions = Batch::new(0, games)
                .run(NonZeroUsize::new(threads), |rng| {
                    let mut state = start;
                    let decisions = play_random_game(&mut state, rng, |_, _| {});
                    assert!(state.winner().is_some());
                    decisions
                })
                .expect("a thread pool");
            seconds = seconds.min(clock.elapsed().as_secs_f64());
        }
        #[allow(clippy::cast_precision_loss)]
        let (rate, length) = (
            games as f64 / seconds,
            decisions.iter().map(|&d| f64::from(d)).sum::<f64>() / games as f64,
        );
        println!(
            "{size} pie={pie} random games ({} kernel): {games} on {threads} thread(s) in \
             {seconds:.3} s: {rate:.0} games/s, {length:.1} moves a game",
            _veletas::cpu::kernel()
        );
    }
}

/// The value after an option.
fn value<T: FromStr>(args: &mut impl Iterator<Item = String>, usage: &str) -> T {
    args.next()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("usage: {usage}"))
}
