//! Times `VectorEnv` stepping with `random_actions` on the standard game and
//! prints decisions per second.
//!
//! `cargo bench --bench vector_env` (release profile). Optional arguments:
//! `--envs N` (default 1024), `--steps S` (default 200), `--threads T`
//! (default: rayon's).
//! Run without `--bench` (as by `cargo test --benches`), it takes a few
//! steps only, to check that it runs.

use std::time::Instant;

use _veletas::vector_env::VectorEnv;
use _veletas::veletas::{DecisionState, Position, Rules, Variant};

fn main() {
    let mut envs = 1024;
    let mut steps = 200;
    let mut threads = 0;
    let mut timing = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => timing = true,
            "--envs" => envs = value(&mut args, "--envs N"),
            "--steps" => steps = value(&mut args, "--steps S"),
            "--threads" => threads = value(&mut args, "--threads T"),
            _ => {}
        }
    }
    if !timing {
        steps = 3;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let start = DecisionState::new(Position::new(Rules::variant(Variant::Standard)));
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
            "standard, {envs} envs, {} threads: {:>12.0} decisions/s",
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
