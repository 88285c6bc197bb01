//! Position strings (MERIDIANS.md section 6): parsing with every check of
//! the contract, in its order, and writing.

use core::fmt;
use std::fmt::Write;

use super::bitboard::Bitboard;
use super::color::Color;
use super::point::Point;
use super::position::{Phase, Position};
use super::size::Size;
use crate::quote::Quoted;

/// The field of a position string that an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenField {
    /// The split into `<board> <turn> <phase>`.
    Fields,
    /// `<board>`.
    Board,
    /// `<turn>`.
    Turn,
    /// `<phase>`.
    Phase,
    /// The stone counts that the phase requires.
    Counts,
}

impl FenField {
    /// The field's name as error messages give it.
    pub const fn name(self) -> &'static str {
        match self {
            FenField::Fields => "fields",
            FenField::Board => "board",
            FenField::Turn => "turn",
            FenField::Phase => "phase",
            FenField::Counts => "counts",
        }
    }
}

/// A rank's point count above this is written `too many`.
const MOST_COUNTED: u64 = 1000;

/// Why a position string is refused. [`FenError::field`] names the field;
/// [`FenError::message`] gives the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not three fields separated by single spaces.
    Fields {
        /// The number of space-separated parts found.
        found: usize,
    },
    /// Not 10, 12 or 14 ranks.
    Ranks {
        /// The number of `/`-separated ranks.
        found: usize,
    },
    /// A character that is neither `x`, `o` nor a digit.
    Letter {
        /// The rank (1 = bottom) it was found in.
        rank: u32,
        /// The character.
        letter: char,
    },
    /// A run `0`, or one with a leading zero.
    Run {
        /// The rank (1 = bottom) it was found in.
        rank: u32,
        /// The run's digits.
        run: String,
    },
    /// A rank with another number of points than the board has there.
    RankLength {
        /// The rank (1 = bottom).
        rank: u32,
        /// The points it describes; `None` when more than 1000.
        points: Option<u64>,
        /// The points of the rank on the board.
        expected: u32,
    },
    /// A turn other than `l` or `d`.
    Turn(String),
    /// A phase other than `open`, `pie` or `play`.
    Phase(String),
    /// The `pie` phase with Light to act.
    PieTurn,
    /// Stone counts that do not fit the turn and phase.
    Counts {
        /// The turn field.
        turn: Color,
        /// The phase field.
        phase: Phase,
        /// Light stones.
        light: u32,
        /// Dark stones.
        dark: u32,
    },
}

impl FenError {
    /// The field the error is about.
    pub const fn field(&self) -> FenField {
        match self {
            FenError::Fields { .. } => FenField::Fields,
            FenError::Ranks { .. }
            | FenError::Letter { .. }
            | FenError::Run { .. }
            | FenError::RankLength { .. } => FenField::Board,
            FenError::Turn(_) | FenError::PieTurn => FenField::Turn,
            FenError::Phase(_) => FenField::Phase,
            FenError::Counts { .. } => FenField::Counts,
        }
    }

    /// `"<field>: <reason>"`, with the refused text (a letter, a run, the
    /// turn or the phase) quoted by `quote`.
    ///
    /// [`Display`](fmt::Display) quotes as Python's `repr` does for common
    /// text; a binding passes the exact quoting of its host language.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::meridians::{FenField, Position};
    ///
    /// let err = Position::from_fen("6/7/8/9/10/10/9/8/7/6 x open", false).unwrap_err();
    /// assert_eq!(err.field(), FenField::Turn);
    /// assert_eq!(err.to_string(), "turn: 'x' is not 'l' or 'd'");
    /// assert_eq!(err.message(&|text| format!("<{text}>")), "turn: <x> is not 'l' or 'd'");
    /// ```
    pub fn message(&self, quote: &dyn Fn(&str) -> String) -> String {
        let mut message = String::new();
        self.write_message(&mut message, quote)
            .expect("writing to a String cannot fail");
        message
    }

    fn write_message(&self, f: &mut dyn Write, quote: &dyn Fn(&str) -> String) -> fmt::Result {
        write!(f, "{}: ", self.field().name())?;
        match self {
            FenError::Fields { found } => write!(
                f,
                "expected 3 fields separated by single spaces, found {found}"
            ),
            FenError::Ranks { found } => write!(f, "{found} ranks, expected 10, 12 or 14"),
            FenError::Letter { rank, letter } => {
                let mut buf = [0; 4];
                let letter = quote(letter.encode_utf8(&mut buf));
                write!(f, "unknown letter {letter} in rank {rank}")
            }
            FenError::Run { rank, run } => write!(f, "bad run {} in rank {rank}", quote(run)),
            FenError::RankLength {
                rank,
                points: Some(points),
                expected,
            } => write!(f, "rank {rank} has {points} points, expected {expected}"),
            FenError::RankLength {
                rank,
                points: None,
                expected,
            } => write!(f, "rank {rank} has too many points, expected {expected}"),
            FenError::Turn(turn) => write!(f, "{} is not 'l' or 'd'", quote(turn)),
            FenError::Phase(phase) => {
                write!(f, "{} is not 'open', 'pie' or 'play'", quote(phase))
            }
            FenError::PieTurn => write!(f, "{} cannot act in 'pie', which is Dark's", quote("l")),
            &FenError::Counts {
                turn,
                phase,
                light,
                dark,
            } => {
                let found = format!("found {light} light and {dark} dark");
                match (phase, turn) {
                    (Phase::Open, Color::Light) => {
                        write!(f, "'open l' needs 0 and 0 or 1 and 1 stones, {found}")
                    }
                    (Phase::Open, Color::Dark) => {
                        write!(f, "'open d' needs 1 and 0 or 2 and 1 stones, {found}")
                    }
                    (Phase::Pie, _) => write!(f, "'pie' needs 1 light and 1 dark stone, {found}"),
                    (Phase::Play, _) => write!(f, "'play' needs at least one stone, {found}"),
                }
            }
        }
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&|text| Quoted(text).to_string()))
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses a position string; the pie option travels beside it.
    ///
    /// Accepted when well formed (10, 12 or 14 ranks of the board's lengths,
    /// known letters) with stone counts that fit the turn and phase
    /// (MERIDIANS.md section 6); refused with the first problem found, in
    /// the order of the contract. A finished game is accepted.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::meridians::{FenField, Position, Size};
    ///
    /// let fen = "7/8/9/10/11/12/12/11/10/9/8/7 l open";
    /// let pos = Position::from_fen(fen, false).unwrap();
    /// assert_eq!(pos, Position::new(Size::S6_7));
    /// assert_eq!(pos.fen(), fen);
    ///
    /// let err = Position::from_fen("7/8/9/10/11/12/12/11/10/9/8/7 l play", false).unwrap_err();
    /// assert_eq!(err.field(), FenField::Counts);
    /// ```
    pub fn from_fen(text: &str, pie: bool) -> Result<Position, FenError> {
        let found = text.split(' ').count();
        if found != 3 {
            return Err(FenError::Fields { found });
        }
        let mut fields = text.split(' ');
        let (board, turn, phase) = (
            fields.next().unwrap_or_default(),
            fields.next().unwrap_or_default(),
            fields.next().unwrap_or_default(),
        );
        let (size, stones) = parse_board(board)?;
        let turn = match turn {
            "l" => Color::Light,
            "d" => Color::Dark,
            other => return Err(FenError::Turn(other.to_owned())),
        };
        let phase: Phase = phase
            .parse()
            .map_err(|_| FenError::Phase(phase.to_owned()))?;
        if phase == Phase::Pie && turn == Color::Light {
            return Err(FenError::PieTurn);
        }
        let (light, dark) = (stones[0].count(), stones[1].count());
        let fits = match (phase, turn) {
            (Phase::Open, Color::Light) => matches!((light, dark), (0, 0) | (1, 1)),
            (Phase::Open, Color::Dark) => matches!((light, dark), (1, 0) | (2, 1)),
            (Phase::Pie, _) => (light, dark) == (1, 1),
            (Phase::Play, _) => light + dark > 0,
        };
        if !fits {
            return Err(FenError::Counts {
                turn,
                phase,
                light,
                dark,
            });
        }
        Ok(Position::from_parts(size, pie, stones, turn, phase))
    }

    /// The position string.
    pub fn fen(&self) -> String {
        let size = self.size();
        let mut fen = String::with_capacity(64);
        for rank in (0..size.n()).rev() {
            let mut run = 0;
            for file in size.rank_files(rank) {
                let point = Point::new(file, rank).expect("board points are on the grid");
                match self.piece_at(point) {
                    None => run += 1,
                    Some(color) => {
                        if run > 0 {
                            write!(fen, "{run}").expect("writing to a String cannot fail");
                            run = 0;
                        }
                        fen.push(color.stone_char());
                    }
                }
            }
            if run > 0 {
                write!(fen, "{run}").expect("writing to a String cannot fail");
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        write!(fen, " {} {}", self.turn().char(), self.phase())
            .expect("writing to a String cannot fail");
        fen
    }
}

/// The size and stones of a `<board>` field, checked rank by rank from the
/// top: within a rank each token in turn, then its point count.
fn parse_board(text: &str) -> Result<(Size, [Bitboard; 2]), FenError> {
    let found = text.split('/').count();
    let size = Size::from_ranks(found).ok_or(FenError::Ranks { found })?;
    let mut stones = [Bitboard::EMPTY; 2];
    for (rank_text, rank) in text.split('/').zip((1..=size.n()).rev()) {
        let files = size.rank_files(rank - 1);
        let first = *files.start();
        let expected = files.end() - first + 1;
        // Counts saturate: a 5,000-digit run is simply more than 1000.
        let mut points: u64 = 0;
        let mut chars = rank_text.char_indices().peekable();
        while let Some((start, ch)) = chars.next() {
            if ch.is_ascii_digit() {
                let mut end = start + 1;
                while let Some((i, _)) = chars.next_if(|(_, c)| c.is_ascii_digit()) {
                    end = i + 1;
                }
                let run = &rank_text[start..end];
                if run.starts_with('0') {
                    return Err(FenError::Run {
                        rank,
                        run: run.to_owned(),
                    });
                }
                points = points.saturating_add(run.parse().unwrap_or(u64::MAX));
                continue;
            }
            let color = match ch {
                'x' => Color::Light,
                'o' => Color::Dark,
                _ => return Err(FenError::Letter { rank, letter: ch }),
            };
            if points < u64::from(expected) {
                let point = Point::new(first + points as u32, rank - 1)
                    .expect("board points are on the grid");
                stones[color.index()].add(point);
            }
            points = points.saturating_add(1);
        }
        if points != u64::from(expected) {
            return Err(FenError::RankLength {
                rank,
                points: (points <= MOST_COUNTED).then_some(points),
                expected,
            });
        }
    }
    Ok((size, stones))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(fen: &str) -> String {
        Position::from_fen(fen, false).unwrap_err().to_string()
    }

    const START: &str = "7/8/9/10/11/12/12/11/10/9/8/7";

    #[test]
    fn round_trips() {
        for fen in [
            "7/8/9/10/11/12/12/11/10/9/8/7 l open",
            "x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play",
            "6/7/8/9/10/10/9/8/7/x4o d pie",
            "6/7/8/9/10/10/9/8/7/5o d play",
            "8/9/10/11/12/13/14/14/13/12/11/10/9/8 l open",
            "xxxxxxxx/9/10/11/12/13/14/14/13/12/11/10/9/oooooooo d play",
            "6/1x2x2/5x2/1x7/xx2x5/2o6o/2o6/8/1x4o/2oo1o d play",
        ] {
            let pos = Position::from_fen(fen, false).unwrap();
            assert_eq!(pos.fen(), fen);
            assert_eq!(Position::from_fen(fen, true).unwrap().fen(), fen);
        }
    }

    fn check_refusals(cases: Vec<(String, &str)>) {
        for (fen, message) in cases {
            assert_eq!(refusal(&fen), message, "{:?}", &fen[..fen.len().min(60)]);
        }
    }

    #[test]
    fn refusals_of_the_fields() {
        check_refusals(vec![
            (
                String::new(),
                "fields: expected 3 fields separated by single spaces, found 1",
            ),
            (
                format!("{START} l"),
                "fields: expected 3 fields separated by single spaces, found 2",
            ),
            (
                format!("{START}  l open"),
                "fields: expected 3 fields separated by single spaces, found 4",
            ),
            (
                format!("{START} l open "),
                "fields: expected 3 fields separated by single spaces, found 4",
            ),
            (
                format!("{START}\tl open"),
                "fields: expected 3 fields separated by single spaces, found 2",
            ),
        ]);
    }

    #[test]
    fn refusals_of_the_board() {
        let long_run = "9".repeat(5000);
        check_refusals(vec![
            (
                "7/8/9 l open".into(),
                "board: 3 ranks, expected 10, 12 or 14",
            ),
            (" l open".into(), "board: 1 ranks, expected 10, 12 or 14"),
            (
                "7/8/9/10/11/12/12/11/10/9/8/7/ l open".into(),
                "board: 13 ranks, expected 10, 12 or 14",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/6X l open".into(),
                "board: unknown letter 'X' in rank 1",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/6\0 l open".into(),
                "board: unknown letter '\\x00' in rank 1",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/6é l open".into(),
                "board: unknown letter 'é' in rank 1",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/6' l open".into(),
                "board: unknown letter \"'\" in rank 1",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/6３ l open".into(),
                "board: unknown letter '３' in rank 1",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/07 l open".into(),
                "board: bad run '07' in rank 1",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/0x6 l open".into(),
                "board: bad run '0' in rank 1",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/8 l open".into(),
                "board: rank 1 has 8 points, expected 7",
            ),
            (
                "8/8/9/10/11/12/12/11/10/9/8/8 l open".into(),
                "board: rank 12 has 8 points, expected 7",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/ l open".into(),
                "board: rank 1 has 0 points, expected 7",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/1000 l open".into(),
                "board: rank 1 has 1000 points, expected 7",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/1001 l open".into(),
                "board: rank 1 has too many points, expected 7",
            ),
            (
                format!("7/8/9/10/11/12/12/11/10/9/8/{long_run} l open"),
                "board: rank 1 has too many points, expected 7",
            ),
            (
                format!("7/8/9/10/11/12/12/11/10/9/8/{long_run}x{long_run} l open"),
                "board: rank 1 has too many points, expected 7",
            ),
            (
                // The count of a rank is checked after its tokens.
                "7/8/9/10/11/12/12/11/10/9/8/99q l open".into(),
                "board: unknown letter 'q' in rank 1",
            ),
            (
                // Ranks top-down: rank 12's count before rank 1's letter.
                "6/8/9/10/11/12/12/11/10/9/8/q l open".into(),
                "board: rank 12 has 6 points, expected 7",
            ),
        ]);
    }

    #[test]
    fn refusals_of_turn_phase_and_counts() {
        check_refusals(vec![
            (format!("{START} L open"), "turn: 'L' is not 'l' or 'd'"),
            (format!("{START}  open"), "turn: '' is not 'l' or 'd'"),
            (
                format!("{START} l Open"),
                "phase: 'Open' is not 'open', 'pie' or 'play'",
            ),
            (
                format!("{START} l "),
                "phase: '' is not 'open', 'pie' or 'play'",
            ),
            (format!("{START} x setup"), "turn: 'x' is not 'l' or 'd'"),
            (
                "7/8/9/10/11/12/12/11/10/9/8/x6 l pie".into(),
                "turn: 'l' cannot act in 'pie', which is Dark's",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/x6 l open".into(),
                "counts: 'open l' needs 0 and 0 or 1 and 1 stones, found 1 light and 0 dark",
            ),
            (
                format!("{START} d open"),
                "counts: 'open d' needs 1 and 0 or 2 and 1 stones, found 0 light and 0 dark",
            ),
            (
                "7/8/9/10/11/12/12/11/10/9/8/x6 d pie".into(),
                "counts: 'pie' needs 1 light and 1 dark stone, found 1 light and 0 dark",
            ),
            (
                format!("{START} l play"),
                "counts: 'play' needs at least one stone, found 0 light and 0 dark",
            ),
        ]);
    }

    #[test]
    fn fields_and_quoting() {
        let err = Position::from_fen("6/7/8/9/10/10/9/8/7/6 l opne", false).unwrap_err();
        assert_eq!(err.field(), FenField::Phase);
        assert_eq!(
            err.message(&|text| format!("«{text}»")),
            "phase: «opne» is not 'open', 'pie' or 'play'"
        );
        for (fen, field) in [
            ("a b", FenField::Fields),
            ("a b c", FenField::Board),
            ("6/7/8/9/10/10/9/8/7/6 d pie", FenField::Counts),
            ("6/7/8/9/10/10/9/8/7/6 l pie", FenField::Turn),
        ] {
            let err = Position::from_fen(fen, false).unwrap_err();
            assert_eq!(err.field(), field, "{fen}");
            assert!(err.to_string().starts_with(field.name()));
        }
    }

    #[test]
    fn finished_games_are_accepted() {
        // One colour has no stone left: the game is over, and the string valid.
        for fen in [
            "6/7/8/9/10/10/9/8/7/5o l play",
            "6/7/8/9/10/10/9/8/7/x5 d play",
        ] {
            let pos = Position::from_fen(fen, false).unwrap();
            assert!(pos.is_game_over(), "{fen}");
            assert_eq!(pos.count_legal_moves(), 0);
        }
    }
}
