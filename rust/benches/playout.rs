//! Times single-thread playouts from the start of each variant, both
//! policies, and prints games per second and the mean game length.
//!
//! `cargo bench --bench playout` (release profile). Optional arguments:
//! `--games N` (default 20000), `--threads T` (default 1), `--variant NAME`,
//! `--policy NAME` (default both), `--claimed-shooters-block` (Boardspace's
//! rules instead of the default ones), `--kernel NAME` (a kernel of the bit
//! kernels, `portable` or `x86-64-v3`; default: the CPU's).
//! Run without `--bench` (as by `cargo test --benches`), it plays a few games
//! only, to check that it runs.

use std::num::NonZeroUsize;
use std::str::FromStr;
use std::time::Instant;

use _veletas::playout::Batch;
use _veletas::veletas::playout::{Policy, playouts};
use _veletas::veletas::{Position, Rules, Variant};

fn main() {
    let mut games = 20_000;
    let mut threads = 1;
    let mut variants = Vec::new();
    let mut policies = Vec::new();
    let mut timing = false;
    let mut claimed_shooters_block = false;
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
            "--games" => games = value(&mut args, "--games N"),
            "--threads" => threads = value(&mut args, "--threads T"),
            "--policy" => policies.push(value(&mut args, "--policy NAME")),
            "--variant" => variants.push(value(&mut args, "--variant NAME")),
            "--claimed-shooters-block" => claimed_shooters_block = true,
            _ => {}
        }
    }
    if !timing {
        games = 20;
    }
    if variants.is_empty() {
        variants = vec![Variant::Standard];
    }
    if policies.is_empty() {
        policies = vec![Policy::Micro, Policy::Uniform];
    }
    for variant in variants {
        let rules = Rules::variant(variant).with_claimed_shooters_block(claimed_shooters_block);
        let start = Position::new(rules);
        for &policy in &policies {
            // The best of a few runs: the machine may be busy with other work.
            let mut seconds = f64::INFINITY;
            let mut result = None;
            for _ in 0..if timing { 5 } else { 1 } {
                let clock = Instant::now();
                result = Some(
                    playouts(
                        start,
                        false,
                        policy,
                        Batch::new(0, games),
                        NonZeroUsize::new(threads),
                        false,
                    )
                    .expect("a thread pool"),
                );
                seconds = seconds.min(clock.elapsed().as_secs_f64());
            }
            let result = result.expect("one run");
            #[allow(clippy::cast_precision_loss)]
            let (rate, plies) = (
                games as f64 / seconds,
                result.plies.iter().map(|&p| f64::from(p)).sum::<f64>() / games as f64,
            );
            println!(
                "{variant} {policy} ({} kernel): {games} games on {threads} thread(s) in {seconds:.3} s: {rate:.0} games/s, {plies:.1} plies a game",
                _veletas::cpu::kernel()
            );
        }
    }
}

/// The value after an option.
fn value<T: FromStr>(args: &mut impl Iterator<Item = String>, usage: &str) -> T {
    args.next()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("usage: {usage}"))
}
