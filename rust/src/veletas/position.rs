//! A position: pieces, turn and phase, with the rules it is played under.

use core::fmt;
use core::str::FromStr;

use super::bitboard::Bitboard;
use super::claims;
use super::color::Color;
use super::kernel;
use super::moves::Move;
use super::rules::{Lines, Rules, SetupRule};
use super::square::Square;
use super::zobrist;

/// The phase field of a position string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Placing shooters, then a stone.
    Setup = 0,
    /// Black's setup is complete; White may `swap` or start placing.
    Pie = 1,
    /// Turns of an optional shooter move and a mandatory shot.
    Play = 2,
}

impl Phase {
    /// `"setup"`, `"pie"` or `"play"`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Pie => "pie",
            Phase::Play => "play",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePhaseError;

impl fmt::Display for ParsePhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown phase: expected 'setup', 'pie' or 'play'")
    }
}

impl std::error::Error for ParsePhaseError {}

impl FromStr for Phase {
    type Err = ParsePhaseError;

    fn from_str(name: &str) -> Result<Phase, ParsePhaseError> {
        match name {
            "setup" => Ok(Phase::Setup),
            "pie" => Ok(Phase::Pie),
            "play" => Ok(Phase::Play),
            _ => Err(ParsePhaseError),
        }
    }
}

/// What can stand on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// `x`
    BlackStone = 0,
    /// `o`
    WhiteStone = 1,
    /// `s`: an unclaimed shooter.
    Shooter = 2,
    /// `X`: a shooter claimed by Black.
    BlackClaimed = 3,
    /// `O`: a shooter claimed by White.
    WhiteClaimed = 4,
}

impl Piece {
    /// All pieces, in the order of their discriminants.
    pub const ALL: [Piece; 5] = [
        Piece::BlackStone,
        Piece::WhiteStone,
        Piece::Shooter,
        Piece::BlackClaimed,
        Piece::WhiteClaimed,
    ];

    /// The letter of the position string.
    pub const fn char(self) -> char {
        match self {
            Piece::BlackStone => 'x',
            Piece::WhiteStone => 'o',
            Piece::Shooter => 's',
            Piece::BlackClaimed => 'X',
            Piece::WhiteClaimed => 'O',
        }
    }

    /// The piece of a position-string letter.
    pub const fn from_char(ch: char) -> Option<Piece> {
        match ch {
            'x' => Some(Piece::BlackStone),
            'o' => Some(Piece::WhiteStone),
            's' => Some(Piece::Shooter),
            'X' => Some(Piece::BlackClaimed),
            'O' => Some(Piece::WhiteClaimed),
            _ => None,
        }
    }

    /// A stone of `color`.
    pub const fn stone(color: Color) -> Piece {
        match color {
            Color::Black => Piece::BlackStone,
            Color::White => Piece::WhiteStone,
        }
    }

    /// A shooter claimed by `color`.
    pub const fn claimed(color: Color) -> Piece {
        match color {
            Color::Black => Piece::BlackClaimed,
            Color::White => Piece::WhiteClaimed,
        }
    }
}

/// Why a move is not legal in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// A colour already holds K // 2 + 1 claims.
    GameOver,
    /// A square of the move is off this board.
    OffBoard {
        /// The square.
        square: Square,
        /// The board size N.
        size: u32,
    },
    /// A swap or a shooter placement in play.
    NotAShot,
    /// A swap outside the pie phase.
    SwapOutsidePie,
    /// A shooter move during setup.
    ShooterMoveInSetup,
    /// A stone where a shooter placement (or in the pie, also `swap`) is due.
    ShooterDue {
        /// Who places.
        turn: Color,
        /// Whether `swap` is also possible.
        pie: bool,
    },
    /// A shooter placement on a square the setup rule closes (or an occupied one).
    ClosedToShooter {
        /// The square.
        square: Square,
        /// The setup rule.
        setup_rule: SetupRule,
    },
    /// A shooter placement where the stone is due.
    StoneDue {
        /// Who places.
        turn: Color,
    },
    /// A setup stone on an occupied square.
    Occupied(Square),
    /// A shot without a move that no unclaimed shooter reaches.
    Unreached(Square),
    /// A shooter move from a square without an unclaimed shooter.
    NoShooter(Square),
    /// A shooter move to a square outside the shooter's reach.
    MoveUnreached {
        /// The shooter's square.
        origin: Square,
        /// The square it cannot reach.
        destination: Square,
    },
    /// A shot the moved shooter cannot make.
    ShotUnreached {
        /// The shooter's new square.
        destination: Square,
        /// The square it cannot reach.
        target: Square,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::OffBoard { square, size } => {
                write!(f, "{square} is not on this {size}x{size} board")
            }
            Illegal::NotAShot => {
                f.write_str("in play a turn is a shot, with or without a shooter move")
            }
            Illegal::SwapOutsidePie => f.write_str("'swap' is only legal in the pie phase"),
            Illegal::ShooterMoveInSetup => f.write_str("no shooter moves during setup"),
            Illegal::ShooterDue { turn, pie: true } => {
                write!(f, "{turn} must swap or place a shooter now")
            }
            Illegal::ShooterDue { turn, pie: false } => {
                write!(f, "{turn} must place a shooter now")
            }
            Illegal::ClosedToShooter { square, setup_rule } => {
                write!(f, "{square} is not open to a shooter under '{setup_rule}'")
            }
            Illegal::StoneDue { turn } => {
                write!(
                    f,
                    "all of {turn}'s shooters are placed; the stone comes next"
                )
            }
            Illegal::Occupied(square) => write!(f, "{square} is not empty"),
            Illegal::Unreached(square) => write!(f, "no unclaimed shooter reaches {square}"),
            Illegal::NoShooter(square) => write!(f, "{square} holds no unclaimed shooter"),
            Illegal::MoveUnreached {
                origin,
                destination,
            } => {
                write!(f, "the shooter on {origin} does not reach {destination}")
            }
            Illegal::ShotUnreached {
                destination,
                target,
            } => {
                write!(
                    f,
                    "after its move the shooter on {destination} does not reach {target}"
                )
            }
        }
    }
}

/// A move that is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError {
    /// The refused move.
    pub m: Move,
    /// The position it was tried in (unchanged).
    pub position: Position,
    /// Why it is not legal.
    pub reason: Illegal,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "illegal move '{}' in '{}': {}",
            self.m,
            self.position.fen(),
            self.reason
        )
    }
}

impl std::error::Error for PlayError {}

/// A position of a game: where every piece stands, who acts, the phase, and
/// the [`Rules`] of the game.
///
/// It is a small `Copy` value (about 100 bytes): search copies it and plays
/// a move on the copy. The Zobrist hash is kept up to date by every move.
///
/// # Examples
///
/// ```
/// use _veletas::veletas::{Move, Position, Rules, Variant};
///
/// let mut pos = Position::new(Rules::variant(Variant::Small));
/// assert_eq!(pos.fen(), "7/7/7/7/7/7/7 b setup 3");
/// pos.play("*c3".parse().unwrap()).unwrap();
/// pos.play("a1".parse().unwrap()).unwrap();
/// assert_eq!(pos.fen(), "7/7/7/7/2s4/7/x6 w pie 3");
/// assert!(pos.play("*a2".parse().unwrap()).is_err(), "the outer ring is off limits");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    stones: [Bitboard; 2],
    shooters: Bitboard,
    claimed: [Bitboard; 2],
    rules: Rules,
    turn: Color,
    phase: Phase,
    hash: u64,
}

impl Position {
    /// The start of a game: an empty board, Black to place.
    pub fn new(rules: Rules) -> Position {
        Position::from_parts(
            rules,
            [Bitboard::EMPTY; 2],
            Bitboard::EMPTY,
            [Bitboard::EMPTY; 2],
            Color::Black,
            Phase::Setup,
        )
    }

    /// A position from its parts; the caller (the fen parser) has checked
    /// that the sets are disjoint and on the board.
    pub(crate) fn from_parts(
        rules: Rules,
        stones: [Bitboard; 2],
        shooters: Bitboard,
        claimed: [Bitboard; 2],
        turn: Color,
        phase: Phase,
    ) -> Position {
        let mut pos = Position {
            stones,
            shooters,
            claimed,
            rules,
            turn,
            phase,
            hash: 0,
        };
        pos.hash = pos.compute_hash();
        pos
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = zobrist::KEYS.phase(self.phase as usize)
            ^ zobrist::KEYS.turn(self.turn == Color::White);
        for piece in Piece::ALL {
            for square in self.pieces(piece) {
                hash ^= zobrist::piece(piece, square);
            }
        }
        hash
    }

    /// The rules of the game.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The colour that acts next (in setup: who places).
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The Zobrist hash of pieces, turn and phase.
    #[inline]
    pub fn zobrist_hash(&self) -> u64 {
        self.hash
    }

    /// The stones of `color` (claim markers are not stones).
    #[inline]
    pub fn stones(&self, color: Color) -> Bitboard {
        self.stones[color.index()]
    }

    /// The unclaimed shooters.
    #[inline]
    pub fn shooters(&self) -> Bitboard {
        self.shooters
    }

    /// The shooters claimed by `color`.
    #[inline]
    pub fn claimed(&self, color: Color) -> Bitboard {
        self.claimed[color.index()]
    }

    /// Every shooter, claimed or not.
    #[inline]
    pub fn all_shooters(&self) -> Bitboard {
        self.shooters | self.claimed[0] | self.claimed[1]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones[0] | self.stones[1] | self.all_shooters()
    }

    /// The empty squares of the board.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.rules.board() - self.occupied()
    }

    /// The squares where `piece` stands.
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        match piece {
            Piece::BlackStone => self.stones[0],
            Piece::WhiteStone => self.stones[1],
            Piece::Shooter => self.shooters,
            Piece::BlackClaimed => self.claimed[0],
            Piece::WhiteClaimed => self.claimed[1],
        }
    }

    /// What stands on `square`, if anything.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|&piece| self.pieces(piece).contains(square))
    }

    /// The number of shooters claimed by `color`.
    #[inline]
    pub fn claims(&self, color: Color) -> u32 {
        self.claimed[color.index()].count()
    }

    /// The colour holding at least K // 2 + 1 claims, if any.
    #[inline]
    pub fn winner(&self) -> Option<Color> {
        let need = self.rules.claims_to_win();
        if self.claims(Color::Black) >= need {
            Some(Color::Black)
        } else if self.claims(Color::White) >= need {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Whether the game is over: a colour has won, or there is no legal move.
    pub fn is_game_over(&self) -> bool {
        self.winner().is_some() || self.count_legal_moves() == 0
    }

    /// What ends lines here: stones, the squares off the board, under
    /// [`Lines::ShootersBlock`] every shooter, and under
    /// `claimed_shooters_block` the claimed ones.
    #[inline]
    pub fn blockers(&self) -> Bitboard {
        let stones = self.stones[0] | self.stones[1] | self.rules.walls();
        match self.rules.lines() {
            Lines::ShootersPass if self.rules.claimed_shooters_block() => {
                stones | self.claimed[0] | self.claimed[1]
            }
            Lines::ShootersPass => stones,
            Lines::ShootersBlock => stones | self.all_shooters(),
        }
    }

    /// The same position under the rules with `claimed_shooters_block` set to
    /// `on` (the pieces, turn and phase, and so the hash, are unchanged).
    #[must_use]
    pub fn with_claimed_shooters_block(mut self, on: bool) -> Position {
        self.rules = self.rules.with_claimed_shooters_block(on);
        self
    }

    /// The empty squares reachable from `square` along its 8 lines.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::veletas::{Lines, Position, SetupRule};
    ///
    /// // 5x5: a black stone on a5, a shooter on c3.
    /// let pos = Position::from_fen("x4/5/2s2/5/5 w setup 3", SetupRule::Spacing, Lines::ShootersPass)
    ///     .unwrap();
    /// let names = |sq| pos.reach(sq).iter().map(|s| s.to_string()).collect::<Vec<_>>();
    /// // Up the file to the stone; along the rank; along the diagonal over the shooter.
    /// assert_eq!(names("a1".parse().unwrap()), ["b1", "c1", "d1", "e1", "a2", "b2", "a3", "a4", "d4", "e5"]);
    /// ```
    #[inline]
    pub fn reach(&self, square: Square) -> Bitboard {
        kernel::reach(square, self.blockers(), self.empty())
    }

    /// Plays `m` if it is legal; otherwise leaves the position unchanged and
    /// says why.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        match self.illegality(m) {
            None => {
                self.play_unchecked(m);
                Ok(())
            }
            Some(reason) => Err(PlayError {
                m,
                position: *self,
                reason,
            }),
        }
    }

    /// Plays `m`, which must be legal (as from [`Position::legal_moves`]);
    /// an illegal move leaves an unspecified (but memory-safe) position.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        match m {
            Move::Swap => self.set_phase(Phase::Setup),
            Move::Shooter(target) => {
                self.put(Piece::Shooter, target);
                if self.phase == Phase::Pie {
                    self.set_phase(Phase::Setup);
                }
            }
            Move::Stone(target) => {
                self.put(Piece::stone(self.turn), target);
                match (self.phase, self.turn) {
                    (Phase::Play, _) => self.end_turn(),
                    (_, Color::Black) => {
                        self.set_phase(Phase::Pie);
                        self.set_turn(Color::White);
                    }
                    (_, Color::White) => {
                        self.set_phase(Phase::Play);
                        self.set_turn(Color::Black);
                    }
                }
            }
            Move::Shot {
                origin,
                destination,
                target,
            } => {
                self.shooters.discard(origin);
                self.shooters.add(destination);
                self.hash ^= zobrist::piece(Piece::Shooter, origin)
                    ^ zobrist::piece(Piece::Shooter, destination);
                self.put(Piece::stone(self.turn), target);
                self.end_turn();
            }
        }
    }

    #[inline]
    fn put(&mut self, piece: Piece, square: Square) {
        match piece {
            Piece::BlackStone => self.stones[0].add(square),
            Piece::WhiteStone => self.stones[1].add(square),
            Piece::Shooter => self.shooters.add(square),
            Piece::BlackClaimed => self.claimed[0].add(square),
            Piece::WhiteClaimed => self.claimed[1].add(square),
        }
        self.hash ^= zobrist::piece(piece, square);
    }

    #[inline]
    fn set_phase(&mut self, phase: Phase) {
        self.hash ^= zobrist::KEYS.phase(self.phase as usize) ^ zobrist::KEYS.phase(phase as usize);
        self.phase = phase;
    }

    #[inline]
    fn set_turn(&mut self, turn: Color) {
        self.hash ^= zobrist::KEYS.turn(self.turn == Color::White)
            ^ zobrist::KEYS.turn(turn == Color::White);
        self.turn = turn;
    }

    /// After a shot: claim every trapped shooter, then pass the turn.
    #[inline]
    fn end_turn(&mut self) {
        let empty = self.empty();
        // A shooter next to an empty square is free; only the others, found
        // for all shooters at once, need their lines walked.
        let hemmed = self.shooters - empty.king_fill();
        if hemmed.is_empty() {
            self.set_turn(self.turn.other());
            return;
        }
        let mut blockers = self.blockers();
        let mut hemmed = hemmed;
        loop {
            let mut claimed = Bitboard::EMPTY;
            for square in hemmed {
                if claims::is_trapped(square, blockers, empty) {
                    self.claim(square);
                    claimed.add(square);
                }
            }
            // Under `claimed_shooters_block` alone a claim ends lines and can
            // trap another shooter: check the rest again until none is
            // claimed. (The claimant depends on the groups and the shooter
            // only, which claims leave alone, so the order does not matter.)
            if claimed.is_empty() || !self.rules.claims_cascade() {
                break;
            }
            blockers |= claimed;
            hemmed = hemmed - claimed;
        }
        self.set_turn(self.turn.other());
    }

    /// Claims the trapped shooter on `square` for the owner of the bigger
    /// adjacent group (RULES.md section 4, step 3).
    #[inline]
    fn claim(&mut self, square: Square) {
        let claimant = claims::claimant(square, self.stones, self.turn);
        self.shooters.discard(square);
        self.hash ^= zobrist::piece(Piece::Shooter, square);
        self.put(Piece::claimed(claimant), square);
    }
}

/// The diagram of the board: rank N on top, labels right-aligned in two
/// characters, the piece letters and `.` for empty squares, files below.
///
/// ```
/// use _veletas::veletas::{Position, Rules, Variant};
///
/// let mut pos = Position::new(Rules::variant(Variant::Small));
/// pos.play("*c3".parse().unwrap()).unwrap();
/// assert_eq!(
///     pos.to_string(),
///     [
///         " 7 . . . . . . .",
///         " 6 . . . . . . .",
///         " 5 . . . . . . .",
///         " 4 . . . . . . .",
///         " 3 . . s . . . .",
///         " 2 . . . . . . .",
///         " 1 . . . . . . .",
///         "   a b c d e f g",
///     ]
///     .join("\n")
/// );
/// ```
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.rules.size();
        for rank in (0..size).rev() {
            write!(f, "{:>2}", rank + 1)?;
            for file in 0..size {
                let square = Square::new(file, rank).expect("file and rank are below 10");
                write!(f, " {}", self.piece_at(square).map_or('.', Piece::char))?;
            }
            f.write_str("\n")?;
        }
        f.write_str("  ")?;
        for file in 0..size {
            let square = Square::new(file, 0).expect("file is below 10");
            write!(f, " {}", square.file_char())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::veletas::Variant;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap()
    }

    #[test]
    fn setup_walks_through_the_phases() {
        let mut pos = Position::new(Rules::variant(Variant::Small));
        for (text, fen) in [
            ("*c3", "7/7/7/7/2s4/7/7 b setup 3"),
            ("g7", "6x/7/7/7/2s4/7/7 w pie 3"),
            ("swap", "6x/7/7/7/2s4/7/7 w setup 3"),
            ("*e5", "6x/7/4s2/7/2s4/7/7 w setup 3"),
            ("*d4", "6x/7/4s2/3s3/2s4/7/7 w setup 3"),
            ("a1", "6x/7/4s2/3s3/2s4/7/o6 b play 3"),
        ] {
            pos.play(text.parse().unwrap()).unwrap();
            assert_eq!(pos.fen(), fen);
            assert_eq!(pos.zobrist_hash(), pos.compute_hash(), "after {text}");
        }
        assert_eq!(pos.piece_at("a1".parse().unwrap()), Some(Piece::WhiteStone));
        assert_eq!(pos.piece_at("b1".parse().unwrap()), None);
    }

    #[test]
    fn refused_moves_leave_the_position_alone() {
        let mut start = pos("7/7/7/7/7/7/7 b setup 3");
        let before = start;
        for (text, reason) in [
            ("swap", "'swap' is only legal in the pie phase"),
            ("a1", "black must place a shooter now"),
            ("*a1", "a1 is not open to a shooter under 'perimeter'"),
            ("*j10", "j10 is not on this 7x7 board"),
            ("a1-a2/a3", "no shooter moves during setup"),
        ] {
            let err = start.play(text.parse().unwrap()).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("illegal move '{text}' in '7/7/7/7/7/7/7 b setup 3': {reason}")
            );
            assert_eq!(start, before);
        }
    }

    #[test]
    fn a_shot_claims_trapped_shooters_and_can_win() {
        // public-claim-21 of the vectors: two shooters trapped at once, White wins.
        let mut pos = Position::from_fen(
            "4xxx/oxox2o/1so1o2/1o3xx/1x1xso1/oo2x1o/2xxos1 w play 3",
            SetupRule::Perimeter,
            Lines::ShootersBlock,
        )
        .unwrap();
        pos.play("e3-g1/f2".parse().unwrap()).unwrap();
        assert_eq!(
            pos.fen(),
            "4xxx/oxox2o/1so1o2/1o3xx/1x1x1o1/oo2xoo/2xxoOO b play 3"
        );
        assert_eq!(pos.winner(), Some(Color::White));
        assert!(pos.is_game_over());
        assert_eq!(pos.zobrist_hash(), pos.compute_hash());
    }
}

#[cfg(test)]
mod claimed_shooters_block_tests {
    use super::*;
    use crate::rng::Rng;
    use crate::veletas::playout::uniform_move;

    fn boardspace(fen: &str) -> Position {
        Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass)
            .unwrap()
            .with_claimed_shooters_block(true)
    }

    #[test]
    fn a_claimed_shooter_ends_lines() {
        // 7x7: a shooter on c3; the shooter on d4 is claimed by White. By
        // default the diagonal from c3 passes over d4 to e5, f6 and g7.
        let fen = "6s/7/7/3O3/2s4/7/x5o b play 3";
        let default = Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
        let c3 = "c3".parse().unwrap();
        let e5 = "e5".parse().unwrap();
        assert!(default.reach(c3).contains(e5));
        let pos = boardspace(fen);
        assert!(!pos.reach(c3).contains(e5) && !pos.reach(c3).contains("d4".parse().unwrap()));
        assert_eq!(pos.count_legal_moves(), pos.legal_moves().len());
        assert!(pos.count_legal_moves() < default.count_legal_moves());
        assert_ne!(pos, default, "the rules are part of the position");
        assert_eq!(pos.zobrist_hash(), default.zobrist_hash());
    }

    #[test]
    fn a_line_through_a_claimed_shooter_no_longer_frees() {
        // The shooter on a1 is hemmed by black stones on a2 and b1 and the
        // claimed shooter on b2; by default its diagonal passes over b2 to
        // c3. With the option it is trapped, and claimed after White's shot.
        let fen = "7/7/7/6s/7/xO5/sxo4 w play 3";
        let m: Move = "g7".parse().unwrap();
        let mut default =
            Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
        default.play(m).unwrap();
        assert_eq!(default.claims(Color::Black), 0);
        let mut pos = boardspace(fen);
        pos.play(m).unwrap();
        assert_eq!(pos.fen(), "6o/7/7/6s/7/xO5/Xxo4 b play 3");
        assert_eq!(pos.zobrist_hash(), pos.compute_hash());
    }

    /// Every shooter a turn claims under `claimed_shooters_block` was
    /// already trapped with the turn's other claims unclaimed: the lines
    /// beyond a trapped shooter hold no empty square, so a claim never traps
    /// another shooter and the repeated pass of RULES.md claims nothing.
    #[test]
    fn claims_of_a_turn_never_trap_one_another() {
        let mut turns_with_claims = 0;
        for (size, shooters) in [(7, 13), (8, 21), (10, 31), (10, 7)] {
            let rules = Rules::new(size, shooters, SetupRule::Perimeter, Lines::ShootersPass)
                .unwrap()
                .with_claimed_shooters_block(true);
            for game in 0..40 {
                let mut rng = Rng::for_game(26, game);
                let mut pos = Position::new(rules);
                while let Some(m) = uniform_move(&pos, &mut rng) {
                    let before = pos;
                    pos.play_unchecked(m);
                    let claimed =
                        (pos.claimed[0] | pos.claimed[1]) - (before.claimed[0] | before.claimed[1]);
                    if claimed.is_empty() {
                        continue;
                    }
                    turns_with_claims += 1;
                    let first_pass = Position::from_parts(
                        rules,
                        pos.stones,
                        pos.shooters | claimed,
                        [pos.claimed[0] - claimed, pos.claimed[1] - claimed],
                        pos.turn,
                        pos.phase,
                    );
                    for square in claimed {
                        assert!(first_pass.reach(square).is_empty(), "{} {m}", before.fen());
                    }
                }
            }
        }
        assert!(turns_with_claims > 100, "{turns_with_claims}");
    }
}
