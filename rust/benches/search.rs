//! Times the Monte Carlo tree search player of each game: it plays both
//! seats of one game from the start, a fixed number of iterations a move,
//! with a fixed seed, and prints iterations per second and the moves chosen
//! (the same on every run: the search is deterministic for a seed).
//!
//! `cargo bench --bench search` (release profile). Optional arguments:
//! `--game veletas|meridians` (default both), `--moves M` (default 16),
//! `--iterations N` (default 4000 a move), `--algorithm mcts|uct` (default
//! mcts, with the MCTS solver), `--kernel NAME` (a kernel of the bit work,
//! `portable` or `x86-64-v3`; default the CPU's), `--threads T` (default 1;
//! each thread runs the iterations a move: `mcts`'s grow one tree, `uct`'s
//! one each), `--variant standard|medium|small` (the Veletas board, default
//! standard). With `--bench` and several threads, it first prints the
//! round trip of a cache line between two threads, which says how far
//! apart the cores are. Run without `--bench` (as by
//! `cargo test --benches`), it plays 4 moves of 200 iterations: for
//! profilers, with the same arguments before and after a change.

use std::str::FromStr;
use std::time::Instant;

use _veletas::mcts::{Algorithm, Budget, Config};
use _veletas::{meridians, veletas};

/// The most threads a run may ask for.
const MAX_THREADS: usize = 256;

fn main() {
    let mut games = Vec::new();
    let mut moves = None;
    let mut iterations = None;
    let mut timing = false;
    let mut algorithm = Algorithm::Solver;
    let mut threads = 1;
    let mut variant = veletas::Variant::Standard;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => timing = true,
            "--game" => games.push(value::<String>(&mut args, "--game veletas|meridians")),
            "--moves" => moves = Some(value(&mut args, "--moves M")),
            "--iterations" => iterations = Some(value(&mut args, "--iterations N")),
            "--algorithm" => {
                let name: String = value(&mut args, "--algorithm mcts|uct");
                algorithm = Algorithm::from_name(&name).expect("--algorithm mcts|uct");
            }
            "--threads" => {
                threads = value(&mut args, "--threads T");
                // One tree a thread: a bound before any is made.
                if !(1..=MAX_THREADS).contains(&threads) {
                    eprintln!("--threads must be 1 to {MAX_THREADS}, not {threads}");
                    std::process::exit(2);
                }
            }
            "--variant" => {
                let name: String = value(&mut args, "--variant standard|medium|small");
                let Some(&named) = veletas::Variant::ALL.iter().find(|v| v.name() == name) else {
                    eprintln!("--variant must be standard, medium or small, not {name}");
                    std::process::exit(2);
                };
                variant = named;
            }
            "--kernel" => {
                let name: String = value(&mut args, "--kernel NAME");
                let chosen = _veletas::cpu::Kernel::parse(&name)
                    .and_then(|kernel| _veletas::cpu::set_kernel(Some(kernel)));
                if let Err(error) = chosen {
                    eprintln!("{error}");
                    std::process::exit(2);
                }
            }
            _ => {}
        }
    }
    let run = Run {
        moves: moves.unwrap_or(if timing { 16 } else { 4 }),
        iterations: iterations.unwrap_or(if timing { 4000 } else { 200 }),
        algorithm,
        threads,
        variant,
    };
    if games.is_empty() {
        games = vec!["veletas".to_owned(), "meridians".to_owned()];
    }
    if timing && threads > 1 {
        println!(
            "round trip between two threads: {} ns",
            round_trip().as_nanos()
        );
    }
    for game in &games {
        let clock = Instant::now();
        let (line, total) = match game.as_str() {
            "veletas" => play_veletas(run),
            "meridians" => play_meridians(run),
            other => panic!("no game {other}"),
        };
        #[allow(clippy::cast_precision_loss)] // far below 2**52
        let rate = total as f64 / clock.elapsed().as_secs_f64();
        println!("{game}: {total} iterations, {rate:.0} iterations/s: {line}");
    }
}

/// What each game's run plays: its moves, the iterations a move, and the
/// search.
#[derive(Clone, Copy)]
struct Run {
    moves: usize,
    iterations: u64,
    algorithm: Algorithm,
    threads: usize,
    /// The Veletas board.
    variant: veletas::Variant,
}

impl Run {
    /// The search config of game `G`, with a fixed seed.
    fn config<G: _veletas::evaluate::Evaluate>(self) -> Config {
        Config {
            seed: 7,
            algorithm: self.algorithm,
            threads: self.threads,
            ..Config::for_game::<G>()
        }
    }
}

/// Plays the run's moves of Veletas on the run's board, both seats searched by one
/// player; returns the moves and the iterations run.
fn play_veletas(run: Run) -> (String, u64) {
    use veletas::bots::MctsPlayer;
    use veletas::{DecisionState, Position, Rules};
    let mut player = MctsPlayer::new(run.config::<DecisionState>());
    let mut position = Position::new(Rules::variant(run.variant));
    let (mut line, mut total) = (Vec::new(), 0);
    for _ in 0..run.moves {
        let Some(turn) = player.choose(
            DecisionState::new(position),
            Budget::iterations(run.iterations),
        ) else {
            break;
        };
        total += turn.iterations();
        line.push(turn.chosen.to_string());
        position.play(turn.chosen).expect("a legal move");
    }
    (line.join(" "), total)
}

/// Plays the run's moves of Meridians 6-7 with the pie rule, both seats
/// searched by one player; returns the moves and the iterations run.
fn play_meridians(run: Run) -> (String, u64) {
    use meridians::bots::MctsPlayer;
    use meridians::{DecisionState, Position, Size};
    let mut player = MctsPlayer::new(run.config::<DecisionState>());
    let mut state = DecisionState::new(Position::new(Size::S6_7).with_pie(true));
    let (mut line, mut total) = (Vec::new(), 0);
    for _ in 0..run.moves {
        let Some(info) = player.choose(state, Budget::iterations(run.iterations)) else {
            break;
        };
        total += info.iterations();
        line.push(info.chosen.to_string());
        let action = state.action_of(info.chosen).expect("a legal move");
        state.apply(action).expect("a legal action");
    }
    (line.join(" "), total)
}

/// The value after an option.
fn value<T: FromStr>(args: &mut impl Iterator<Item = String>, usage: &str) -> T {
    args.next()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("usage: {usage}"))
}

/// The time a value takes to go from one thread to another and back, over
/// 100,000 round trips: how far apart the cores are, which decides what
/// the threads of one tree pay where they write what the other reads.
fn round_trip() -> std::time::Duration {
    use std::sync::atomic::{AtomicU64, Ordering};
    const TRIPS: u64 = 100_000;
    let ball = AtomicU64::new(0);
    let clock = Instant::now();
    std::thread::scope(|scope| {
        // The other thread turns each odd value to the next even one.
        scope.spawn(|| {
            let mut seen = 0;
            while seen < 2 * TRIPS {
                seen = ball.load(Ordering::Acquire);
                if seen % 2 == 1 {
                    ball.store(seen + 1, Ordering::Release);
                }
            }
        });
        for trip in 0..TRIPS {
            ball.store(2 * trip + 1, Ordering::Release);
            while ball.load(Ordering::Acquire) != 2 * trip + 2 {
                std::hint::spin_loop();
            }
        }
    });
    clock.elapsed() / TRIPS as u32
}
