//! Fits a game's static estimate ([`_veletas::evaluate`]) to the outcomes
//! of the engine's own games, and with `--write` writes the weights into
//! the game's `weights.rs`.
//!
//! `cargo run --release --example fit_evaluation -- --game veletas|meridians
//! [--games N] [--iterations N] [--seed S] [--write]`: N games of each board
//! (Veletas 7x7/3 and 10x10/7; Meridians 5-6 and 6-7), the first decisions
//! at random and then the Monte Carlo tree search at N iterations a
//! decision on both seats, one position in four of each game kept; every
//! fifth game is held out, and the fit's accuracy on them is printed per
//! board as a Markdown table.

use std::fmt::Write as _;
use std::path::Path;
use std::str::FromStr;

use _veletas::evaluate::{Evaluate, Sample, SelfPlay, accuracy, fit, self_play};
use _veletas::{meridians, veletas};

/// The penalty on the weights: small, against features that rarely vary.
const RIDGE: f64 = 1.0;

fn main() {
    let mut game = None;
    let (mut games, mut iterations, mut seed, mut write) = (400, 300, 1, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--game" => game = Some(value::<String>(&mut args, "--game veletas|meridians")),
            "--games" => games = value(&mut args, "--games N"),
            "--iterations" => iterations = value(&mut args, "--iterations N"),
            "--seed" => seed = value(&mut args, "--seed S"),
            "--write" => write = true,
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    let play = SelfPlay {
        games,
        random_decisions: 10,
        iterations,
        every: 4,
        seed,
    };
    match game.as_deref() {
        Some("veletas") => {
            use veletas::{DecisionState, Position, Rules, Variant};
            let boards = [Variant::Small, Variant::Standard].map(|variant| {
                let rules = Rules::variant(variant);
                let name = format!("{0}x{0}/{1}", rules.size(), rules.shooters());
                (
                    name,
                    self_play(&DecisionState::new(Position::new(rules)), play),
                )
            });
            report::<DecisionState>(&boards, write.then_some("src/veletas/weights.rs"));
        }
        Some("meridians") => {
            use meridians::{DecisionState, Position, Size};
            let boards = [Size::S5_6, Size::S6_7].map(|size| {
                let start = DecisionState::new(Position::new(size));
                (size.name().to_owned(), self_play(&start, play))
            });
            report::<DecisionState>(&boards, write.then_some("src/meridians/weights.rs"));
        }
        _ => panic!("usage: --game veletas|meridians"),
    }
}

/// Fits the weights on the games of every board but the held-out ones,
/// prints the accuracy per board, and writes the weights to `file`.
fn report<G: Evaluate>(boards: &[(String, Vec<Sample>)], file: Option<&str>) {
    let held_out = |s: &Sample| s.game.is_multiple_of(5);
    let train: Vec<Sample> = boards
        .iter()
        .flat_map(|(_, samples)| samples.iter().filter(|s| !held_out(s)).cloned())
        .collect();
    let weights = fit(&train, RIDGE);
    println!(
        "| board | positions fitted | positions held out | winner called | log loss | log loss, no features |"
    );
    println!(
        "|-------|-----------------:|-------------------:|--------------:|---------:|----------------------:|"
    );
    for (name, samples) in boards {
        let test: Vec<Sample> = samples.iter().filter(|s| held_out(s)).cloned().collect();
        let fitted = accuracy(&test, &weights);
        // The bias alone: the chance of the seat to act, whatever the board.
        let bias_only: Vec<f32> = weights
            .iter()
            .enumerate()
            .map(|(k, &w)| if k == 0 { w } else { 0.0 })
            .collect();
        let base = accuracy(&test, &bias_only);
        println!(
            "| {name} | {} | {} | {:.1}% | {:.3} | {:.3} |",
            samples.len() - test.len(),
            test.len(),
            100.0 * fitted.correct,
            fitted.log_loss,
            base.log_loss,
        );
    }
    let mut listing = String::new();
    for (name, w) in G::FEATURE_NAMES.iter().zip(&weights) {
        let _ = write!(listing, "{name} {w:+.4}  ");
    }
    println!("\nweights: {listing}");
    if let Some(file) = file {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&path).expect("the weights file");
        // The file's head (its docs) is kept; the weights after it are ours.
        let Some((head, _)) = text.split_once("\n/// One weight") else {
            panic!("{} is not a weights file of this command", path.display());
        };
        let body: Vec<String> = weights.iter().map(|w| format!("{w:?}")).collect();
        let new = format!(
            "{head}\n/// One weight a feature of [`crate::evaluate::Evaluate::FEATURE_NAMES`].\n#[rustfmt::skip]\npub const WEIGHTS: [f32; {}] = [{}];\n",
            weights.len(),
            body.join(", ")
        );
        std::fs::write(&path, new).expect("the weights file written");
        println!("written: {}", path.display());
    }
}

/// The value after an option.
fn value<T: FromStr>(args: &mut impl Iterator<Item = String>, usage: &str) -> T {
    args.next()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("usage: {usage}"))
}
