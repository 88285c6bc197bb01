//! Meridians move notation: `meridians::Move::from_str`, then
//! `Position::play` of the move.
//!
//! The input is a move text, optionally after a position string and a
//! newline (`<fen>\n<move>`). Parsing never panics; a parsed move is written
//! back exactly as read. The move is then played in fixed positions (the
//! start of each size, Dark's first stone with and without the pie rule,
//! the pie decision, play, and a finished game) and in the given position
//! with and without the pie rule where it is accepted: a refused move leaves
//! the position exactly as it was, is not legal, is not among the legal
//! moves, and its error names the unchanged position; a played one was
//! legal, and leads to a position whose string reads back equal.

#![no_main]

use _veletas::meridians::{Move, Position};
use libfuzzer_sys::fuzz_target;

/// Positions of every phase and size, each with its pie option.
const FIXED: [(&str, bool); 9] = [
    ("6/7/8/9/10/10/9/8/7/6 l open", false),
    ("7/8/9/10/11/12/12/11/10/9/8/7 l open", true),
    ("8/9/10/11/12/13/14/14/13/12/11/10/9/8 l open", false),
    ("6/7/8/9/1x8/10/9/8/7/6 d open", false),
    ("6/7/8/9/1x8/10/9/8/7/6 d open", true),
    ("6/7/8/9/10/10/9/8/7/x4o d pie", true),
    (
        "6/1x2x2/5x2/1x7/xx2x5/2o1o4o/2o1x4/8/1xo3o/2oo1o l play",
        false,
    ),
    (
        "xxxxxxxx/9/10/11/12/13/14/14/13/12/11/10/9/oooooooo d play",
        true,
    ),
    ("6/7/8/9/10/10/9/8/7/5o l play", false),
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
    for (fen, pie) in FIXED {
        let position = Position::from_fen(fen, pie).expect("a fixed position");
        check_play(&position, m);
    }
    if let Some(fen) = fen {
        for pie in [false, true] {
            if let Ok(position) = Position::from_fen(fen, pie) {
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
            assert_eq!(error.position, *position);
            assert_eq!(error.m, m);
            let message = error.to_string();
            assert!(message.contains(&fen), "{message}");
        }
        Ok(removed) => {
            assert!(legal, "{m} in {fen} played but is not legal");
            assert!((removed & after.occupied()).is_empty(), "{fen} then {m}");
            let written = after.fen();
            let again = Position::from_fen(&written, position.pie())
                .unwrap_or_else(|e| panic!("{fen} then {m} gives {written}, refused: {e}"));
            assert_eq!(again, after, "{fen} then {m} gives {written}");
        }
    }
}
