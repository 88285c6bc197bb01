//! Move notation: `Move::from_str`, then `Position::play` of the move.
//!
//! The input is a move text, optionally after a position string and a
//! newline (`<fen>\n<move>`). Parsing never panics; a parsed move is written
//! back exactly as read. The move is then played in a few fixed positions
//! (setup, pie, play, and a finished game) and in the given position under
//! each rule option it is accepted in: a refused move leaves the position
//! exactly as it was and is neither legal nor among the legal moves; a
//! played one was legal, and leads to a position whose string reads back
//! equal.

#![no_main]

use _veletas::veletas::{Lines, Move, Position, SetupRule};
use libfuzzer_sys::fuzz_target;

const OPTIONS: [(SetupRule, Lines); 4] = [
    (SetupRule::Perimeter, Lines::ShootersPass),
    (SetupRule::Perimeter, Lines::ShootersBlock),
    (SetupRule::Spacing, Lines::ShootersPass),
    (SetupRule::Spacing, Lines::ShootersBlock),
];

/// Positions of every phase and size, each under one option.
const FIXED: [(&str, SetupRule, Lines); 8] = [
    (
        "10/10/10/10/10/10/10/10/10/10 b setup 7",
        SetupRule::Perimeter,
        Lines::ShootersPass,
    ),
    (
        "7/2x4/7/1s5/7/2s2s1/7 w setup 3",
        SetupRule::Perimeter,
        Lines::ShootersPass,
    ),
    (
        "7/7/7/3s3/7/7/x6 w pie 3",
        SetupRule::Spacing,
        Lines::ShootersPass,
    ),
    (
        "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
        SetupRule::Perimeter,
        Lines::ShootersPass,
    ),
    (
        "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
        SetupRule::Perimeter,
        Lines::ShootersBlock,
    ),
    (
        "x1x2oo/2x2s1/2o4/1xx4/2s1x2/o5s/2o4 w play 3",
        SetupRule::Spacing,
        Lines::ShootersPass,
    ),
    (
        "1o5/sx5/xx5/7/3s3/7/1o3oX b play 3",
        SetupRule::Perimeter,
        Lines::ShootersPass,
    ),
    (
        "1o5/Xx5/xx5/7/3s3/7/1o3oX w play 3",
        SetupRule::Perimeter,
        Lines::ShootersPass,
    ),
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (fen, move_text) = match text.rsplit_once('\n') {
        Some((fen, move_text)) => (Some(fen), move_text),
        None => (None, text),
    };
    let m = match move_text.parse::<Move>() {
        Ok(m) => m,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    assert_eq!(
        m.to_string(),
        move_text,
        "a parsed move is written back as read"
    );
    for (fen, setup_rule, lines) in FIXED {
        let position = Position::from_fen(fen, setup_rule, lines).expect("a fixed position");
        check_play(&position, m);
    }
    if let Some(fen) = fen {
        for (setup_rule, lines) in OPTIONS {
            if let Ok(position) = Position::from_fen(fen, setup_rule, lines) {
                check_play(&position, m);
            }
        }
    }
});

fn check_play(position: &Position, m: Move) {
    let fen = position.fen();
    let legal = position.legal_moves().contains(&m);
    assert_eq!(position.is_legal(m), legal, "{m} in {fen}");
    let mut after = *position;
    match after.play(m) {
        Err(error) => {
            assert!(!legal, "{m} in {fen} refused: {error}");
            assert_eq!(after, *position, "a refused {m} changed {fen}");
            assert_eq!(after.fen(), fen);
            let _ = error.to_string();
        }
        Ok(()) => {
            assert!(legal, "{m} in {fen} played but is not legal");
            let rules = position.rules();
            let written = after.fen();
            let again = Position::from_fen(&written, rules.setup_rule(), rules.lines())
                .unwrap_or_else(|e| panic!("{fen} then {m} gives {written}, refused: {e}"));
            assert_eq!(again, after, "{fen} then {m} gives {written}");
        }
    }
}
