//! Position strings (RULES.md section 5): parsing with every acceptance
//! check, and formatting.

use core::fmt;
use std::fmt::Write;

use super::bitboard::Bitboard;
use super::color::Color;
use super::position::{Phase, Piece, Position};
use super::rules::{
    Lines, Rules, RulesError, SetupRule, check_shooter_count, write_too_many_shooters,
};
use super::square::Square;
use crate::quote::Quoted;

/// The field of a position string that an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenField {
    /// The split into `<board> <turn> <phase> <K>`.
    Fields,
    /// `<board>`.
    Board,
    /// `<turn>`.
    Turn,
    /// `<phase>`.
    Phase,
    /// `<K>`.
    K,
    /// The piece counts that the phase requires.
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
            FenField::K => "K",
            FenField::Counts => "counts",
        }
    }
}

/// Piece counts that do not fit the phase (the `counts` field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CountsError {
    /// `play` without exactly K shooters, claimed or not.
    PlayShooters {
        /// K.
        expected: u32,
        /// Shooters on the board.
        found: u32,
    },
    /// `play` without a stone of each colour.
    PlayStones {
        /// Black stones.
        black: u32,
        /// White stones.
        white: u32,
    },
    /// A claimed shooter before play.
    Claimed(u32),
    /// `pie` without exactly K // 2 shooters.
    PieShooters {
        /// K // 2.
        expected: u32,
        /// Shooters on the board.
        found: u32,
    },
    /// `pie` without exactly one black stone and no white one.
    PieStones {
        /// Black stones.
        black: u32,
        /// White stones.
        white: u32,
    },
    /// `b setup` with more than K // 2 shooters.
    BlackSetupShooters {
        /// K // 2.
        most: u32,
        /// Shooters on the board.
        found: u32,
    },
    /// `b setup` with stones.
    BlackSetupStones {
        /// Black stones.
        black: u32,
        /// White stones.
        white: u32,
    },
    /// `w setup` with fewer than K // 2 or more than K shooters.
    WhiteSetupShooters {
        /// K // 2.
        least: u32,
        /// K.
        most: u32,
        /// Shooters on the board.
        found: u32,
    },
    /// `w setup` without exactly one black stone and no white one.
    WhiteSetupStones {
        /// Black stones.
        black: u32,
        /// White stones.
        white: u32,
    },
}

impl fmt::Display for CountsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CountsError::PlayShooters { expected, found } => write!(
                f,
                "'play' needs exactly {expected} shooters (claimed or not), found {found}"
            ),
            CountsError::PlayStones { black, white } => write!(
                f,
                "'play' needs at least one stone of each colour, found {black} black and {white} white"
            ),
            CountsError::Claimed(claimed) => {
                write!(
                    f,
                    "no shooter is claimed before 'play', found {claimed} claimed"
                )
            }
            CountsError::PieShooters { expected, found } => {
                write!(f, "'pie' needs exactly {expected} shooters, found {found}")
            }
            CountsError::PieStones { black, white } => write!(
                f,
                "'pie' needs one black stone and no white stone, found {black} black and {white} white"
            ),
            CountsError::BlackSetupShooters { most, found } => {
                write!(f, "'b setup' allows at most {most} shooters, found {found}")
            }
            CountsError::BlackSetupStones { black, white } => write!(
                f,
                "'b setup' allows no stones, found {black} black and {white} white"
            ),
            CountsError::WhiteSetupShooters { least, most, found } => {
                write!(
                    f,
                    "'w setup' needs {least} to {most} shooters, found {found}"
                )
            }
            CountsError::WhiteSetupStones { black, white } => write!(
                f,
                "'w setup' needs one black stone and no white stone, found {black} black and {white} white"
            ),
        }
    }
}

/// Why a position string is refused. [`FenError::field`] names the field;
/// the message gives the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not four fields separated by single spaces.
    Fields {
        /// The number of space-separated parts found.
        found: usize,
    },
    /// Not 5 to 10 ranks.
    Ranks {
        /// The number of `/`-separated ranks.
        found: usize,
    },
    /// A character that is neither a piece letter nor a digit.
    Letter {
        /// The rank (1 = bottom) it was found in.
        rank: usize,
        /// The character.
        letter: char,
    },
    /// A rank with other than N squares.
    RankLength {
        /// The rank (1 = bottom).
        rank: usize,
        /// The squares it describes; `None` when too many to count.
        squares: Option<u64>,
        /// N.
        expected: usize,
    },
    /// A turn other than `b` or `w`.
    Turn(String),
    /// A phase other than `setup`, `pie` or `play`.
    Phase(String),
    /// The `pie` phase with Black to act.
    PieTurn,
    /// A K that is not a decimal number (digits, no leading zero).
    KNotANumber(String),
    /// A K that the board cannot take under the setup rule.
    K(RulesError),
    /// A K too large for any board, kept as written.
    KTooLarge {
        /// K as written.
        k: String,
        /// The board size N.
        size: u32,
        /// The setup rule.
        setup_rule: SetupRule,
    },
    /// Piece counts that do not fit the phase.
    Counts(CountsError),
}

impl FenError {
    /// The field the error is about.
    pub const fn field(&self) -> FenField {
        match self {
            FenError::Fields { .. } => FenField::Fields,
            FenError::Ranks { .. } | FenError::Letter { .. } | FenError::RankLength { .. } => {
                FenField::Board
            }
            FenError::Turn(_) | FenError::PieTurn => FenField::Turn,
            FenError::Phase(_) => FenField::Phase,
            FenError::KNotANumber(_) | FenError::K(_) | FenError::KTooLarge { .. } => FenField::K,
            FenError::Counts(_) => FenField::Counts,
        }
    }
}

impl FenError {
    /// The message (what [`Display`](fmt::Display) writes), with the refused
    /// text (a letter, the turn, the phase or K) quoted by `quote`.
    ///
    /// [`Display`](fmt::Display) quotes as Python's `repr` does for common
    /// text; a binding passes the exact quoting of its host language.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::veletas::{Lines, Position, SetupRule};
    ///
    /// let err = Position::from_fen("7/7/7/7/7/7/7 x setup 3", SetupRule::Perimeter, Lines::ShootersPass)
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "turn: 'x' is not 'b' or 'w'");
    /// assert_eq!(err.message(&|text| format!("<{text}>")), "turn: <x> is not 'b' or 'w'");
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
            FenError::Fields { found } => {
                write!(
                    f,
                    "expected 4 fields separated by single spaces, found {found}"
                )
            }
            FenError::Ranks { found } => write!(f, "{found} ranks, expected 5 to 10"),
            FenError::Letter { rank, letter } => {
                let mut buf = [0; 4];
                write!(
                    f,
                    "unknown letter {} in rank {rank}",
                    quote(letter.encode_utf8(&mut buf))
                )
            }
            FenError::RankLength {
                rank,
                squares: Some(squares),
                expected,
            } => {
                write!(f, "rank {rank} has {squares} squares, expected {expected}")
            }
            FenError::RankLength {
                rank,
                squares: None,
                expected,
            } => {
                write!(f, "rank {rank} has too many squares, expected {expected}")
            }
            FenError::Turn(turn) => write!(f, "{} is not 'b' or 'w'", quote(turn)),
            FenError::Phase(phase) => {
                write!(f, "{} is not 'setup', 'pie' or 'play'", quote(phase))
            }
            FenError::PieTurn => f.write_str("'b' cannot act in 'pie', which is White's"),
            FenError::KNotANumber(k) => {
                write!(f, "{} is not a positive decimal number", quote(k))
            }
            FenError::K(err) => write!(f, "{err}"),
            FenError::KTooLarge {
                k,
                size,
                setup_rule,
            } => {
                // The same message as a representable K would get: its parity
                // is in the last digit, and it fits no board.
                if k.ends_with(['0', '2', '4', '6', '8']) {
                    write!(f, "shooter count {k} must be odd and at least 3")
                } else {
                    write!(f, "{}", TooManyShooters(k, *size, *setup_rule))
                }
            }
            FenError::Counts(err) => write!(f, "{err}"),
        }
    }
}

/// The message of too many shooters, for a K kept as written.
struct TooManyShooters<'a>(&'a str, u32, SetupRule);

impl fmt::Display for TooManyShooters<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_too_many_shooters(f, &self.0, self.1, self.2)
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&|text| Quoted(text).to_string()))
    }
}

impl std::error::Error for FenError {}

impl Position {
    /// Parses a position string; the rule options travel beside it.
    ///
    /// Accepted when well formed (N ranks of N squares, 5 <= N <= 10, known
    /// letters, K valid for N under `setup_rule`) and when the phase fits the
    /// piece counts (RULES.md section 5). Positions that could not arise in a
    /// game but fit these checks are accepted.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::veletas::{FenField, Lines, Position, SetupRule};
    ///
    /// let fen = "10/10/10/10/10/10/10/10/10/10 b setup 7";
    /// let pos = Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
    /// assert_eq!(pos.fen(), fen);
    ///
    /// let err = Position::from_fen("7/7/7/7/7/7/7 b play 3", SetupRule::Perimeter, Lines::ShootersPass)
    ///     .unwrap_err();
    /// assert_eq!(err.field(), FenField::Counts);
    /// ```
    pub fn from_fen(text: &str, setup_rule: SetupRule, lines: Lines) -> Result<Position, FenError> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() != 4 {
            return Err(FenError::Fields {
                found: fields.len(),
            });
        }
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(FenError::Turn(other.to_owned())),
        };
        let phase: Phase = fields[2]
            .parse()
            .map_err(|_| FenError::Phase(fields[2].to_owned()))?;
        if phase == Phase::Pie && turn == Color::Black {
            return Err(FenError::PieTurn);
        }
        let k_text = fields[3];
        if k_text.is_empty()
            || !k_text.bytes().all(|b| b.is_ascii_digit())
            || k_text.starts_with('0')
        {
            return Err(FenError::KNotANumber(k_text.to_owned()));
        }
        // A K wider than `u32` fits no board; it is quoted as written, since
        // the errors of [`Rules`] hold a `u32`.
        let k: u32 = k_text.parse().map_err(|_| FenError::KTooLarge {
            k: k_text.to_owned(),
            size: board.size,
            setup_rule,
        })?;
        check_shooter_count(board.size, u64::from(k), setup_rule).map_err(FenError::K)?;
        let rules = Rules::new(board.size, k, setup_rule, lines).map_err(FenError::K)?;
        check_counts(&board, turn, phase, rules)?;
        Ok(Position::from_parts(
            rules,
            board.stones,
            board.shooters,
            board.claimed,
            turn,
            phase,
        ))
    }

    /// The position string.
    pub fn fen(&self) -> String {
        let size = self.rules().size();
        let mut fen = String::with_capacity(64);
        for rank in (0..size).rev() {
            let mut run = 0;
            for file in 0..size {
                let square = Square::new(file, rank).expect("file and rank are below 10");
                match self.piece_at(square) {
                    None => run += 1,
                    Some(piece) => {
                        if run > 0 {
                            write!(fen, "{run}").expect("writing to a String cannot fail");
                            run = 0;
                        }
                        fen.push(piece.char());
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
        write!(
            fen,
            " {} {} {}",
            self.turn().char(),
            self.phase(),
            self.rules().shooters()
        )
        .expect("writing to a String cannot fail");
        fen
    }
}

/// The pieces of a parsed `<board>` field.
struct ParsedBoard {
    size: u32,
    stones: [Bitboard; 2],
    shooters: Bitboard,
    claimed: [Bitboard; 2],
}

fn parse_board(text: &str) -> Result<ParsedBoard, FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    let size = ranks.len();
    if !(5..=10).contains(&size) {
        return Err(FenError::Ranks { found: size });
    }
    let mut board = ParsedBoard {
        size: size as u32,
        stones: [Bitboard::EMPTY; 2],
        shooters: Bitboard::EMPTY,
        claimed: [Bitboard::EMPTY; 2],
    };
    for (row, rank_text) in ranks.iter().enumerate() {
        let rank = size - row; // 1 = bottom
        let mut squares: Option<u64> = Some(0);
        let mut chars = rank_text.char_indices().peekable();
        while let Some((start, ch)) = chars.next() {
            if ch.is_ascii_digit() {
                let mut end = start + 1;
                while let Some(&(i, c)) = chars.peek() {
                    if !c.is_ascii_digit() {
                        break;
                    }
                    end = i + 1;
                    chars.next();
                }
                let run = &rank_text[start..end];
                if run.starts_with('0') {
                    // "0" is no run, and a run has no leading zero.
                    return Err(FenError::Letter { rank, letter: '0' });
                }
                let length = run.parse::<u64>().ok();
                squares = squares.zip(length).and_then(|(a, b)| a.checked_add(b));
                continue;
            }
            let piece = Piece::from_char(ch).ok_or(FenError::Letter { rank, letter: ch })?;
            if let Some(file) = squares.filter(|&file| file < size as u64) {
                let square = Square::new(file as u32, (rank - 1) as u32)
                    .expect("file and rank are below the board size");
                match piece {
                    Piece::BlackStone => board.stones[0].add(square),
                    Piece::WhiteStone => board.stones[1].add(square),
                    Piece::Shooter => board.shooters.add(square),
                    Piece::BlackClaimed => board.claimed[0].add(square),
                    Piece::WhiteClaimed => board.claimed[1].add(square),
                }
            }
            squares = squares.and_then(|n| n.checked_add(1));
        }
        if squares != Some(size as u64) {
            return Err(FenError::RankLength {
                rank,
                squares,
                expected: size,
            });
        }
    }
    Ok(board)
}

fn check_counts(
    board: &ParsedBoard,
    turn: Color,
    phase: Phase,
    rules: Rules,
) -> Result<(), FenError> {
    let black = board.stones[0].count();
    let white = board.stones[1].count();
    let claimed = (board.claimed[0] | board.claimed[1]).count();
    let placed = board.shooters.count() + claimed;
    let first = rules.first_shooters();
    let k = rules.shooters();
    let problem = if phase == Phase::Play {
        if placed != k {
            Some(CountsError::PlayShooters {
                expected: k,
                found: placed,
            })
        } else if black == 0 || white == 0 {
            Some(CountsError::PlayStones { black, white })
        } else {
            None
        }
    } else if claimed > 0 {
        Some(CountsError::Claimed(claimed))
    } else if phase == Phase::Pie {
        if placed != first {
            Some(CountsError::PieShooters {
                expected: first,
                found: placed,
            })
        } else if (black, white) != (1, 0) {
            Some(CountsError::PieStones { black, white })
        } else {
            None
        }
    } else if turn == Color::Black {
        if placed > first {
            Some(CountsError::BlackSetupShooters {
                most: first,
                found: placed,
            })
        } else if black + white > 0 {
            Some(CountsError::BlackSetupStones { black, white })
        } else {
            None
        }
    } else if !(first..=k).contains(&placed) {
        Some(CountsError::WhiteSetupShooters {
            least: first,
            most: k,
            found: placed,
        })
    } else if (black, white) != (1, 0) {
        Some(CountsError::WhiteSetupStones { black, white })
    } else {
        None
    };
    problem.map_or(Ok(()), |problem| Err(FenError::Counts(problem)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass)
    }

    #[test]
    fn round_trips() {
        for fen in [
            "10/10/10/10/10/10/10/10/10/10 b setup 7",
            "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
            "x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoOxo1/oooxoxo/xxox1oo w play 3",
            "5/5/2s2/5/x4 w pie 3",
            "8x1/10/1o5xx1/o3x1o3/2ssx2s2/os1o4x1/1sx6s/2o7/6ox2/s9 w play 7",
        ] {
            assert_eq!(parse(fen).unwrap().fen(), fen);
        }
    }

    #[test]
    fn refusals_name_the_field() {
        let cases: &[(&str, FenField)] = &[
            ("", FenField::Fields),
            ("7/7/7/7/7/7/7 b setup", FenField::Fields),
            ("7/7/7/7/7/7/7  b setup 3", FenField::Fields),
            ("7/7/7/7/7/7/7 b setup 3 ", FenField::Fields),
            ("7/7/7/7/7/7/7 b  3", FenField::Phase),
            (" b setup 3", FenField::Board),
            ("7/7/7/7/7/7/7 b\tsetup 3", FenField::Fields),
            ("4/4/4/4 b setup 3", FenField::Board),
            (
                "11/11/11/11/11/11/11/11/11/11/11 b setup 3",
                FenField::Board,
            ),
            ("7/7/7/7/7/7/8 b setup 3", FenField::Board),
            ("7/7/7/7/7/7/6 b setup 3", FenField::Board),
            ("7/7/7/7/7/7/ b setup 3", FenField::Board),
            ("7/7/7/7/7/7/07 b setup 3", FenField::Board),
            ("7/7/7/7/7/7/0s6 b setup 3", FenField::Board),
            ("7/7/7/7/7/7/6q b setup 3", FenField::Board),
            ("7/7/7/7/7/7/6é b setup 3", FenField::Board),
            (
                "7/7/7/7/7/7/99999999999999999999 b setup 3",
                FenField::Board,
            ),
            (
                "7/7/7/7/7/7/999999999999999999999999999999999999999999 b setup 3",
                FenField::Board,
            ),
            ("7/7/7/7/7/7/7 B setup 3", FenField::Turn),
            ("7/7/7/7/7/7/7 b pie 3", FenField::Turn),
            ("7/7/7/7/7/7/7 b Setup 3", FenField::Phase),
            ("7/7/7/7/7/7/7 b setup 4", FenField::K),
            ("7/7/7/7/7/7/7 b setup 1", FenField::K),
            ("7/7/7/7/7/7/7 b setup 25", FenField::K),
            ("7/7/7/7/7/7/7 b setup 03", FenField::K),
            ("7/7/7/7/7/7/7 b setup +3", FenField::K),
            ("7/7/7/7/7/7/7 b setup 99999999999999999999", FenField::K),
            ("7/7/7/7/7/7/7 b setup ３", FenField::K),
            ("7/7/7/7/7/7/7 b play 3", FenField::Counts),
            ("7/7/7/7/7/7/x6 b setup 3", FenField::Counts),
            ("7/7/7/7/7/1ss4/7 b setup 3", FenField::Counts),
            ("7/7/7/7/7/1s5/7 w pie 3", FenField::Counts),
            ("7/7/7/7/7/1ss4/x6 w pie 3", FenField::Counts),
            ("7/7/7/7/7/1sX4/x6 w setup 3", FenField::Counts),
            ("7/7/7/7/7/1sss3/x5o w setup 3", FenField::Counts),
            ("7/7/7/7/7/1ss4/x5o b play 3", FenField::Counts),
            ("7/7/7/7/7/1sssX2/x5o b play 3", FenField::Counts),
            ("7/7/7/7/7/1sss3/x5x b play 3", FenField::Counts),
        ];
        for &(fen, field) in cases {
            let err = parse(fen).unwrap_err();
            assert_eq!(err.field(), field, "{fen:?}: {err}");
            assert!(err.to_string().starts_with(field.name()), "{err}");
        }
    }

    #[test]
    fn messages() {
        let err = parse("10/10/11/10/10/10/10/10/10/10 b setup 7").unwrap_err();
        assert_eq!(err.to_string(), "board: rank 8 has 11 squares, expected 10");
        let err = parse("5/5/5/5/5 b setup 9").unwrap_err();
        assert_eq!(
            err.to_string(),
            "K: 9 shooters do not fit a 5x5 board under 'perimeter': K + 1 <= (N - 2)^2 = 9 is \
             required"
        );
        let err = parse("7/7/7/7/7/7/6' b setup 3").unwrap_err();
        assert_eq!(err.to_string(), "board: unknown letter \"'\" in rank 1");
        let err = parse("7/7/7/7/7/7/6\\ b setup 3").unwrap_err();
        assert_eq!(err.to_string(), "board: unknown letter '\\\\' in rank 1");
        let err = parse("7/7/7/7/7/7/7 b setup 99999999999999999998").unwrap_err();
        assert_eq!(
            err.to_string(),
            "K: shooter count 99999999999999999998 must be odd and at least 3"
        );
        let err = parse("7/7/7/7/7/7/7 b setup 99999999999999999999999").unwrap_err();
        assert_eq!(
            err.to_string(),
            "K: 99999999999999999999999 shooters do not fit a 7x7 board under 'perimeter': K + 1 <= \
             (N - 2)^2 = 25 is required"
        );
        let err = parse("7/7/7/7/7/7/7 b setup ").unwrap_err();
        assert_eq!(err.to_string(), "K: '' is not a positive decimal number");
        // K beyond u32 (and u64) is quoted as written, never narrowed.
        for (k, message) in [
            ("4294967295", "4294967295 shooters do not fit"),
            ("4294967296", "shooter count 4294967296 must be odd"),
            ("4294967297", "4294967297 shooters do not fit"),
            (
                "18446744073709551615",
                "18446744073709551615 shooters do not fit",
            ),
            (
                "18446744073709551616",
                "shooter count 18446744073709551616 must be odd",
            ),
        ] {
            let err = parse(&format!("7/7/7/7/7/7/7 b setup {k}")).unwrap_err();
            assert!(
                err.to_string().starts_with(&format!("K: {message}")),
                "{err}"
            );
        }
        let err = parse("7/7/7/7/7/7/7 w pie 3").unwrap_err();
        assert_eq!(
            err.to_string(),
            "counts: 'pie' needs exactly 1 shooters, found 0"
        );
        assert!(
            Position::from_fen(
                "5/5/5/5/5 b setup 5",
                SetupRule::Spacing,
                Lines::ShootersPass
            )
            .is_err()
        );
        assert!(
            Position::from_fen(
                "5/5/5/5/5 b setup 7",
                SetupRule::Perimeter,
                Lines::ShootersPass
            )
            .is_ok()
        );
    }
}
