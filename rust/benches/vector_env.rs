//! Times `VectorEnv` stepping with `random_actions` on standard Veletas (or
//! Meridians 6-7) and prints decisions per second.
//!
//! `cargo bench --bench vector_env` (release profile). Optional arguments:
//! `--game veletas|meridians` (default veletas), `--envs N` (default 1024),
//! `--steps S` (default 200), `--threads T` (default: rayon's).
//! Run without `--bench` (as by `cargo test --benches`), it takes 3 steps
//! (or `--steps S`) once: to check that it runs, and for profilers.

use std::time::Instant;

use _veletas::game::Game;
use _veletas::meridians;
use _veletas::vector_env::{Observe, Opponents, VectorEnv};
use _veletas::veletas::{DecisionState, Position, Rules, Variant};

fn main() {
    let mut envs = 1024;
    let mut steps = None;
    let mut threads = 0;
    let mut timing = false;
    let mut game = String::from("veletas");
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => timing = true,
            "--game" => game = value(&mut args, "--game veletas|meridians"),
            "--envs" => envs = value(&mut args, "--envs N"),
            "--steps" => steps = Some(value(&mut args, "--steps S")),
            "--threads" => threads = value(&mut args, "--threads T"),
            _ => {}
        }
    }
    let steps = steps.unwrap_or(if timing { 200 } else { 3 });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    match game.as_str() {
        "veletas" => run(
            &pool,
            "standard",
            DecisionState::new(Position::new(Rules::variant(Variant::Standard))),
            envs,
            steps,
            timing,
        ),
        "meridians" => run(
            &pool,
            "meridians 6-7",
            meridians::DecisionState::new(meridians::Position::new(meridians::Size::S6_7)),
            envs,
            steps,
            timing,
        ),
        other => panic!("no game {other}"),
    }
}

/// Steps `envs` games from `start`, `steps` times, and prints the rate.
fn run<G>(pool: &rayon::ThreadPool, name: &str, start: G, envs: usize, steps: usize, timing: bool)
where
    G: Observe + Opponents,
    <G as Game>::Actions: Send,
{
    let mut env = VectorEnv::new(start, envs, 0, true);
    let mut buffers = env.buffers();
    let mut actions = vec![0; envs];
    pool.install(|| {
        // The best of a few runs: the machine may be busy with other work.
        let mut seconds = f64::INFINITY;
        for _ in 0..if timing { 5 } else { 1 } {
            env.reset(None, None, None, &mut buffers.outputs());
            let clock = Instant::now();
            for _ in 0..steps {
                env.random_actions(&mut actions);
                env.step(&actions, &mut buffers.outputs())
                    .expect("random actions are legal");
            }
            seconds = seconds.min(clock.elapsed().as_secs_f64());
        }
        #[allow(clippy::cast_precision_loss)] // far below 2**52
        let decisions = (envs * steps) as f64;
        println!(
            "{name}, {envs} envs, {} threads: {:>12.0} decisions/s",
            pool.current_num_threads(),
            decisions / seconds
        );
    });
}

fn value<T: std::str::FromStr>(args: &mut impl Iterator<Item = String>, usage: &str) -> T {
    args.next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("usage: {usage}"))
}
