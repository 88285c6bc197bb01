//! Times perft on 10x10 play-phase positions from the shared vectors and
//! checks the node counts the vector file gives.
//!
//! `cargo bench --bench perft` (release profile). Optional arguments: the
//! vector ids to run (default `public-145`), and `--depth N` for an extra,
//! unchecked depth (default 3). Run without `--bench` (as by `cargo test
//! --benches`), it only checks the node counts, once each, and counts the
//! extra depth once if `--depth N` is given: for profilers.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use _veletas::veletas::{Lines, Position, SetupRule, perft};

struct Vector {
    id: String,
    pos: Position,
    expected: Vec<(u32, u64)>,
}

fn read_vectors() -> Vec<Vector> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/games/veletas/vectors/perft.txt");
    let text = std::fs::read_to_string(&path).expect("tests/games/veletas/vectors/perft.txt");
    let mut vectors = Vec::new();
    for block in text.split("\n\n") {
        let (mut id, mut fen, mut rules, mut expected) = (None, None, None, Vec::new());
        for line in block.lines().filter(|line| !line.starts_with('#')) {
            match line.split_once(' ') {
                Some(("id", value)) => id = Some(value.to_owned()),
                Some(("fen", value)) => fen = Some(value.to_owned()),
                Some(("rules", value)) => rules = Some(value.to_owned()),
                Some(("perft", value)) => {
                    let (depth, nodes) = value.split_once(' ').expect("perft <depth> <nodes>");
                    expected.push((depth.parse().unwrap(), nodes.parse().unwrap()));
                }
                _ => {}
            }
        }
        if let (Some(id), Some(fen), Some(rules)) = (id, fen, rules) {
            let (setup_rule, lines) = rules.split_once(' ').expect("rules <setup> <lines>");
            let setup_rule: SetupRule = setup_rule.parse().unwrap();
            let lines: Lines = lines.parse().unwrap();
            let pos = Position::from_fen(&fen, setup_rule, lines).unwrap();
            vectors.push(Vector { id, pos, expected });
        }
    }
    vectors
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
    let mut ids = Vec::new();
    let mut extra_depth = None;
    let mut timing = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => timing = true,
            "--depth" => {
                extra_depth = Some(args.next().and_then(|d| d.parse().ok()).expect("--depth N"));
            }
            id => ids.push(id.to_owned()),
        }
    }
    if ids.is_empty() {
        ids.push("public-145".to_owned());
    }
    let extra_depth = extra_depth.unwrap_or(if timing { 3 } else { 0 });
    let vectors = read_vectors();
    for id in &ids {
        let vector = vectors
            .iter()
            .find(|v| &v.id == id)
            .unwrap_or_else(|| panic!("no vector {id}"));
        assert_eq!(vector.pos.rules().size(), 10, "{id} is a 10x10 position");
        println!("{id}: {}", vector.pos.fen());
        let budget = if timing {
            Duration::from_secs(2)
        } else {
            Duration::ZERO
        };
        for &(depth, nodes) in &vector.expected {
            let (found, best) = time(budget, || perft(&vector.pos, depth));
            assert_eq!(found, nodes, "{id}: perft {depth}");
            report(depth, found, best);
        }
        if extra_depth > 0
            && vector
                .expected
                .iter()
                .all(|&(depth, _)| depth != extra_depth)
        {
            let (found, best) = time(Duration::ZERO, || perft(&vector.pos, extra_depth));
            report(extra_depth, found, best);
        }
    }
}

fn report(depth: u32, nodes: u64, best: Duration) {
    // Node counts stay far below 2^52, where f64 would start to round.
    #[allow(clippy::cast_precision_loss)]
    let rate = nodes as f64 / best.as_secs_f64() / 1e6;
    println!("  perft {depth}: {nodes:>13} nodes in {best:>10.3?} ({rate:.1} Mnodes/s)");
}
