//! Meridians position strings: `meridians::Position::from_fen` with and
//! without the pie rule.
//!
//! Whatever the text, parsing returns a position or an error whose message
//! starts with the field it names, and never panics or hangs. An accepted
//! text is canonical: the position writes it back exactly and reads back
//! equal. The legal moves of an accepted position are in canonical order,
//! counted alike by the list and the count, empty exactly when the game is
//! over, each legal by `check`, and each plays to a position whose string
//! reads back equal.

#![no_main]

use _veletas::meridians::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The bindings hand the parser only valid UTF-8.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for pie in [false, true] {
        match Position::from_fen(text, pie) {
            Err(error) => {
                let message = error.to_string();
                assert!(message.starts_with(error.field().name()), "{message}");
            }
            Ok(position) => check_position(text, &position, pie),
        }
    }
});

fn check_position(text: &str, position: &Position, pie: bool) {
    let fen = position.fen();
    assert_eq!(
        fen, text,
        "an accepted position string is written back as read"
    );
    assert_eq!(position.pie(), pie);
    let moves = position.legal_moves();
    assert_eq!(moves.len(), position.count_legal_moves() as usize, "{fen}");
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
        let again = Position::from_fen(&written, pie)
            .unwrap_or_else(|e| panic!("{fen} then {m} gives {written}, refused: {e}"));
        assert_eq!(again, after, "{fen} then {m} gives {written}");
    }
}
