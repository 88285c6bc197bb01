//! Position strings: `Position::from_fen` under every rule option.
//!
//! Whatever the text, parsing returns a position or an error whose message
//! can be written, and never panics or hangs. An accepted text is canonical:
//! the position writes it back exactly and reads back equal. Every legal
//! move of an accepted position is legal by `is_legal`, plays, and leads to a
//! position whose string reads back equal, and the count of legal moves
//! agrees with the list. The same text under each of the four options (two
//! setup rules, two line rules) is tried.

#![no_main]

use _veletas::veletas::{Lines, Position, SetupRule};
use libfuzzer_sys::fuzz_target;

const OPTIONS: [(SetupRule, Lines); 4] = [
    (SetupRule::Perimeter, Lines::ShootersPass),
    (SetupRule::Perimeter, Lines::ShootersBlock),
    (SetupRule::Spacing, Lines::ShootersPass),
    (SetupRule::Spacing, Lines::ShootersBlock),
];

fuzz_target!(|data: &[u8]| {
    // The bindings hand the parser only valid UTF-8 (a Python str that is
    // not, with lone surrogates, is refused before it).
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for (setup_rule, lines) in OPTIONS {
        match Position::from_fen(text, setup_rule, lines) {
            Err(error) => {
                let message = error.to_string();
                assert!(message.starts_with(error.field().name()), "{message}");
            }
            Ok(position) => check_position(text, &position, setup_rule, lines),
        }
    }
});

fn check_position(text: &str, position: &Position, setup_rule: SetupRule, lines: Lines) {
    let fen = position.fen();
    assert_eq!(
        fen, text,
        "an accepted position string is written back as read"
    );
    let moves = position.legal_moves();
    assert_eq!(moves.len(), position.count_legal_moves(), "{fen}");
    assert_eq!(moves.is_empty(), position.is_game_over(), "{fen}");
    assert!(
        moves.windows(2).all(|w| w[0] < w[1]),
        "canonical order in {fen}"
    );
    for &m in &moves {
        assert!(position.is_legal(m), "{m} in {fen}");
        let mut after = *position;
        after
            .play(m)
            .unwrap_or_else(|e| panic!("{m} in {fen}: {e}"));
        let written = after.fen();
        let again = Position::from_fen(&written, setup_rule, lines)
            .unwrap_or_else(|e| panic!("{fen} then {m} gives {written}, refused: {e}"));
        assert_eq!(again, after, "{fen} then {m} gives {written}");
    }
}
