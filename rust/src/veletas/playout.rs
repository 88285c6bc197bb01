//! Random playouts of Veletas: the two policies, game records, and batches
//! of games as columns (the arrays of `veletas.Playouts`).
//!
//! The generic machinery (streams per game, threads) is
//! [`crate::playout`]; this module adds what is particular to the game: moves
//! rather than decisions as plies, the pie swap, claims, records, and the
//! "uniform" policy over whole moves.

use core::fmt;
use core::str::FromStr;
use std::num::NonZeroUsize;
#[cfg(target_arch = "x86_64")]
use std::sync::LazyLock;

use rayon::ThreadPoolBuildError;

use super::bitboard::Bitboard;
use super::color::Color;
use super::decision::Action;
#[cfg(target_arch = "x86_64")]
use super::kernel::X86V3;
use super::kernel::{Bits, Portable};
use super::lines;
use super::moves::Move;
use super::position::{Phase, Position};
use super::rules::{Rules, SetupRule};
use super::square::{STRIDE, Square};
use crate::game::{ActionSet, Game};
use crate::playout::Batch;
use crate::rng::Rng;

/// How a playout picks its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Uniform at every decision of the micro-decision encoding
    /// ([`crate::game::random_action`] on a [`super::DecisionState`]).
    #[default]
    Micro,
    /// Uniform over the legal moves of the position ([`uniform_move`]).
    Uniform,
}

impl Policy {
    /// `"micro"` or `"uniform"`.
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Micro => "micro",
            Policy::Uniform => "uniform",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePolicyError;

impl fmt::Display for ParsePolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown policy: expected 'micro' or 'uniform'")
    }
}

impl std::error::Error for ParsePolicyError {}

impl FromStr for Policy {
    type Err = ParsePolicyError;

    fn from_str(name: &str) -> Result<Policy, ParsePolicyError> {
        match name {
            "micro" => Ok(Policy::Micro),
            "uniform" => Ok(Policy::Uniform),
            _ => Err(ParsePolicyError),
        }
    }
}

/// One move of a game record: `[kind, origin, destination, target]`, with
/// kind 0 for a stone or shot, 1 for a shooter placement, 2 for the swap,
/// and public square numbers (`rank * 10 + file`), -1 where there is none.
pub type MoveRecord = [i8; 4];

/// The record of `m`.
///
/// ```
/// use _veletas::veletas::playout::record;
///
/// assert_eq!(record("d4-d7/f9".parse().unwrap()), [0, 33, 63, 85]);
/// assert_eq!(record("*e5".parse().unwrap()), [1, -1, -1, 44]);
/// assert_eq!(record("swap".parse().unwrap()), [2, -1, -1, -1]);
/// ```
pub fn record(m: Move) -> MoveRecord {
    let number = |square: Option<Square>| square.map_or(-1, |sq| sq.number() as i8);
    let kind = match m {
        Move::Stone(_) | Move::Shot { .. } => 0,
        Move::Shooter(_) => 1,
        Move::Swap => 2,
    };
    [
        kind,
        number(m.origin()),
        number(m.destination()),
        number(m.target()),
    ]
}

/// How one game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winning colour; `None` when the player to act had no legal move
    /// (only in hand-made positions).
    pub winner: Option<Color>,
    /// Whether the pie swap was played, before or during the playout.
    pub swapped: bool,
    /// The moves played in the playout (a swap is a move; decisions are not).
    pub plies: u32,
    /// The final number of claims of Black and of White.
    pub claims: [u32; 2],
}

impl Outcome {
    fn of(pos: &Position, swapped: bool, plies: u32) -> Outcome {
        Outcome {
            winner: pos.winner(),
            swapped,
            plies,
            claims: [pos.claims(Color::Black), pos.claims(Color::White)],
        }
    }
}

/// Plays one game from `start` (a position with the swap flag of the game
/// that led to it) with `policy` and the game's stream, appending each move
/// to `moves` when it is given.
///
/// # Examples
///
/// ```
/// use _veletas::rng::Rng;
/// use _veletas::veletas::{Position, Rules, Variant};
/// use _veletas::veletas::playout::{Policy, play_game};
///
/// let start = Position::new(Rules::variant(Variant::Small));
/// let mut moves = Vec::new();
/// let outcome = play_game(start, false, Policy::Micro, &mut Rng::for_game(1, 0), Some(&mut moves));
/// assert!(outcome.winner.is_some());
/// assert_eq!(outcome.plies as usize, moves.len());
/// ```
pub fn play_game(
    start: Position,
    swapped: bool,
    policy: Policy,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    match policy {
        Policy::Micro => play_micro_game(start, swapped, rng, moves),
        Policy::Uniform => play_uniform_game(start, swapped, rng, moves),
    }
}

fn play_micro_game(
    start: Position,
    swapped: bool,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    #[cfg(target_arch = "x86_64")]
    if let Some(x86_v3) = *X86_V3 {
        // SAFETY: an `X86V3` exists only on a CPU with its features.
        return unsafe { play_micro_game_x86_v3(x86_v3, start, swapped, rng, moves) };
    }
    play_micro_game_with(Portable, start, swapped, rng, moves)
}

/// [`play_micro_game_with`] compiled for the features of [`X86V3`] (AVX2,
/// BMI1, BMI2, LZCNT), so that its instructions are inlined into the
/// playout loop.
///
/// # Safety
///
/// The CPU must have these features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
unsafe fn play_micro_game_x86_v3(
    x86_v3: X86V3,
    start: Position,
    swapped: bool,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    play_micro_game_with(x86_v3, start, swapped, rng, moves)
}

/// Whether the playouts use [`X86V3`], detected once.
#[cfg(target_arch = "x86_64")]
static X86_V3: LazyLock<Option<X86V3>> = LazyLock::new(X86V3::detect);

/// One micro game from `start`, move by move, with the bit work of `bits`.
#[inline(always)]
fn play_micro_game_with<B: Bits>(
    bits: B,
    start: Position,
    swapped: bool,
    rng: &mut Rng,
    mut moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    let mut game = MicroGame::new(&start, swapped);
    let mut plies = 0;
    loop {
        let m = if game.phase == Phase::Play {
            game.play_turn(bits, rng)
        } else {
            game.play_placement(bits, rng)
        };
        let Some(m) = m else {
            break;
        };
        plies += 1;
        if let Some(moves) = moves.as_deref_mut() {
            push_record(moves, m);
        }
    }
    Outcome {
        winner: game.winner_color(),
        swapped: game.swapped,
        plies,
        claims: [u32::from(game.claims[0]), u32::from(game.claims[1])],
    }
}

/// Records a move. Out of line, so that the compiler does not work out
/// records ahead of time in runs without them.
#[cold]
#[inline(never)]
fn push_record(moves: &mut Vec<MoveRecord>, m: Move) {
    moves.push(record(m));
}

/// The choices of a decision of [`MicroGame`], numbered by bitboard index
/// rather than by action id, so that no conversion is needed either way:
/// ascending indices are ascending squares, just like the ids, and the one
/// other choice (PASS in play, SWAP in the pie), numbered after every square,
/// comes last like its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Choices {
    squares: Bitboard,
    other: bool,
}

/// The number of PASS or SWAP among [`Choices`]: above every square index.
const OTHER: Action = 127;

impl ActionSet for Choices {
    #[inline(always)]
    fn len(&self) -> u32 {
        self.squares.count() + u32::from(self.other)
    }

    #[inline(always)]
    fn nth(&self, k: u32) -> Option<Action> {
        match self.squares.nth(k) {
            Some(square) => Some(square.index() as Action),
            None => (self.other && k == self.squares.count()).then_some(OTHER),
        }
    }

    fn contains(&self, action: Action) -> bool {
        if action == OTHER {
            self.other
        } else {
            Square::from_index(u32::from(action)).is_some_and(|sq| self.squares.contains(sq))
        }
    }
}

/// The decision a turn is at (a flat [`super::Stage`], kept in plain fields that
/// the inner loop reads and writes cheaply).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Start,
    Destination,
    Target,
}

/// A micro playout: the game with only what the decisions need, and the
/// sets they read kept up to date move by move. It offers the actions of
/// [`super::DecisionState`] in the same order (a test holds them together), so
/// [`crate::game::random_action`] plays the same games on it; the batch
/// runner plays them a whole turn at a time ([`MicroGame::play_turn`]).
#[derive(Clone, Copy, Debug)]
struct MicroGame {
    stones: [Bitboard; 2],
    /// The unclaimed shooters.
    shooters: Bitboard,
    /// Every shooter, claimed or not (the spacing rule keeps away from them).
    all_shooters: Bitboard,
    empty: Bitboard,
    /// What ends lines: stones, squares off the board, and with
    /// `shooters_block` every shooter.
    blockers: Bitboard,
    rules: Rules,
    phase: Phase,
    turn: Color,
    claims: [u8; 2],
    claims_to_win: u8,
    /// The colour with enough claims, once there is one.
    winner: Option<Color>,
    step: Step,
    /// Whether a shooter moves this turn, from `origin` to `destination`.
    moved: bool,
    origin: Square,
    destination: Square,
    swapped: bool,
    /// Whether every unclaimed shooter can move (in play); true after every
    /// play turn, whose claims take the trapped ones.
    all_free: bool,
}

impl MicroGame {
    fn new(pos: &Position, swapped: bool) -> MicroGame {
        let rules = pos.rules();
        let mut game = MicroGame {
            stones: [pos.stones(Color::Black), pos.stones(Color::White)],
            shooters: pos.shooters(),
            all_shooters: pos.all_shooters(),
            empty: pos.empty(),
            blockers: pos.blockers(),
            rules,
            phase: pos.phase(),
            turn: pos.turn(),
            claims: [
                pos.claims(Color::Black) as u8,
                pos.claims(Color::White) as u8,
            ],
            claims_to_win: rules.claims_to_win() as u8,
            winner: None,
            step: Step::Start,
            moved: false,
            origin: Square::A1,
            destination: Square::A1,
            swapped,
            all_free: false,
        };
        game.all_free = game.phase == Phase::Play && game.movable() == game.shooters;
        game.winner = game.claims_winner();
        game
    }

    #[inline]
    fn winner_color(&self) -> Option<Color> {
        self.winner
    }

    /// The colour with enough claims (Black first, as [`Position::winner`]).
    fn claims_winner(&self) -> Option<Color> {
        if self.claims[0] >= self.claims_to_win {
            Some(Color::Black)
        } else if self.claims[1] >= self.claims_to_win {
            Some(Color::White)
        } else {
            None
        }
    }

    #[inline]
    fn reach(&self, square: Square) -> Bitboard {
        lines::reach(square, self.blockers, self.empty)
    }

    /// The unclaimed shooters without an empty neighbour: the only ones that
    /// can be trapped.
    #[inline(always)]
    fn hemmed(&self) -> Bitboard {
        // The squares next to an empty one, without edge masks: a step off
        // the grid lands on a padding bit or above it, never on a shooter.
        let empty = self.empty.0;
        let row = empty | empty << 1 | empty >> 1;
        let near = row | row << STRIDE | row >> STRIDE;
        Bitboard(self.shooters.0 & !near)
    }

    /// The unclaimed shooters that can move.
    fn movable(&self) -> Bitboard {
        let hemmed = self.hemmed();
        let mut movable = self.shooters - hemmed;
        for sq in hemmed {
            if self.reach(sq).any() {
                movable.add(sq);
            }
        }
        movable
    }

    /// Whether the next placement is a shooter (else the setup stone).
    fn places_shooter(&self) -> bool {
        let quota = match self.turn {
            Color::Black => self.rules.first_shooters(),
            Color::White => self.rules.shooters(),
        };
        self.phase == Phase::Pie || self.all_shooters.count() < quota
    }

    /// The squares open to the next setup placement (RULES.md section 3).
    fn placements(&self) -> Bitboard {
        if !self.places_shooter() {
            return self.empty;
        }
        match self.rules.setup_rule() {
            SetupRule::Perimeter => self.empty - Bitboard::ring(self.rules.size()),
            SetupRule::Spacing => self.empty - self.all_shooters.king_fill(),
        }
    }

    /// Whether the next action completes a turn (is a move).
    #[cfg(test)]
    fn completes_turn(&self) -> bool {
        self.step == Step::Target || self.phase != Phase::Play
    }

    /// The move that `action` completes; the next action must complete one.
    fn completed_move(&self, action: Action) -> Move {
        if action == OTHER {
            // The one other action that completes a turn.
            return Move::Swap;
        }
        let square = Square::from_index_unchecked(u32::from(action));
        match self.phase {
            Phase::Setup | Phase::Pie if self.places_shooter() => Move::Shooter(square),
            Phase::Play if self.moved => Move::Shot {
                origin: self.origin,
                destination: self.destination,
                target: square,
            },
            // The setup stone, or a shot without a move.
            Phase::Setup | Phase::Pie | Phase::Play => Move::Stone(square),
        }
    }

    /// Takes a setup action: the swap, or the next placement on `square`.
    fn place(&mut self, action: Action) {
        if action == OTHER {
            self.swapped = true;
            self.phase = Phase::Setup;
            return;
        }
        let square = Square::from_index_unchecked(u32::from(action));
        self.empty.discard(square);
        if self.places_shooter() {
            self.shooters.add(square);
            self.all_shooters.add(square);
            if self.rules.lines().shooters_block() {
                self.blockers.add(square);
            }
            self.phase = Phase::Setup;
            return;
        }
        self.stones[self.turn.index()].add(square);
        self.blockers.add(square);
        if self.turn == Color::Black {
            self.phase = Phase::Pie;
        } else {
            self.phase = Phase::Play;
            // With `shooters_block`, a shooter may be trapped already.
            self.all_free = self.movable() == self.shooters;
        }
        self.turn = self.turn.other();
    }

    /// Moves the shooter on `origin` to `destination`.
    #[inline]
    fn move_shooter(&mut self, origin: Square, destination: Square) {
        // Each set holds exactly one of the two squares: toggle both.
        let moved = Bitboard::from(origin) | Bitboard::from(destination);
        self.shooters ^= moved;
        self.all_shooters ^= moved;
        self.empty ^= moved;
        if self.rules.lines().shooters_block() {
            self.blockers ^= moved;
        }
    }

    /// Shoots onto `target`, after the turn's move if any; claims and ends
    /// the turn.
    #[inline(always)]
    fn shoot<B: Bits>(&mut self, bits: B, target: Square) {
        let bit = Bitboard::from(target);
        self.stones[self.turn.index()] |= bit;
        self.empty = self.empty - bit;
        self.blockers |= bit;
        // Only a shooter without an empty neighbour can be trapped.
        for square in self.hemmed() {
            if bits.is_empty(bits.reach(square, self.blockers, self.empty)) {
                let claimant = super::claims::claimant(square, self.stones, self.turn);
                self.claims[claimant.index()] += 1;
                self.shooters.discard(square);
                self.winner = self.claims_winner();
            }
        }
        self.turn = self.turn.other();
        self.step = Step::Start;
        self.moved = false;
        self.all_free = true;
    }
}

impl MicroGame {
    /// Plays a setup or pie move with the micro policy (one decision) and
    /// returns it; `None` without a legal action.
    #[inline(always)]
    fn play_placement<B: Bits>(&mut self, bits: B, rng: &mut Rng) -> Option<Move> {
        debug_assert!(self.phase != Phase::Play);
        if self.winner_color().is_some() {
            return None;
        }
        // The squares, then SWAP in the pie.
        let squares = self.placements();
        let n = squares.count() + u32::from(self.phase == Phase::Pie);
        if n == 0 {
            return None;
        }
        let k = rng.below(u64::from(n)) as u32;
        let action = if k == squares.count() {
            OTHER
        } else {
            bits.nth_square(squares, k).index() as Action
        };
        let m = self.completed_move(action);
        self.place(action);
        Some(m)
    }

    /// Plays a whole play turn with the micro policy and returns its move;
    /// `None` once the game is over (a winner, or no legal action).
    ///
    /// The same draws, in the same order, as [`crate::game::random_action`]
    /// at each of the turn's decisions (a test holds them together), without
    /// stepping through [`Step`]s.
    #[inline(always)]
    fn play_turn<B: Bits>(&mut self, bits: B, rng: &mut Rng) -> Option<Move> {
        debug_assert!(self.phase == Phase::Play && self.step == Step::Start);
        if self.winner_color().is_some() {
            return None;
        }
        let movable = if self.all_free {
            self.shooters
        } else {
            self.movable()
        };
        if movable.is_empty() {
            return None;
        }
        // The shooters, then PASS.
        let shooters = movable.count();
        let k = rng.below(u64::from(shooters) + 1) as u32;
        let m = if k == shooters {
            let mut targets = Bitboard::EMPTY;
            for shooter in self.shooters {
                targets |= bits.squares(bits.reach(shooter, self.blockers, self.empty));
            }
            let k = rng.below(u64::from(targets.count())) as u32;
            Move::Stone(bits.nth_square(targets, k))
        } else {
            let origin = bits.nth_square(movable, k);
            let destination = draw(bits, bits.reach(origin, self.blockers, self.empty), rng);
            self.move_shooter(origin, destination);
            Move::Shot {
                origin,
                destination,
                target: draw(
                    bits,
                    bits.reach(destination, self.blockers, self.empty),
                    rng,
                ),
            }
        };
        self.shoot(bits, m.target().expect("a play move has a target"));
        Some(m)
    }
}

/// A uniformly drawn square of the non-empty `reach` (the micro policy's
/// draw).
#[inline(always)]
fn draw<B: Bits>(bits: B, reach: B::Reach, rng: &mut Rng) -> Square {
    let k = rng.below(u64::from(bits.count(reach))) as u32;
    bits.nth(reach, k)
}

impl Game for MicroGame {
    type Actions = Choices;

    fn num_actions(&self) -> usize {
        usize::from(OTHER) + 1
    }

    #[inline]
    fn legal_actions(&self) -> Choices {
        let squares = match self.step {
            Step::Start => {
                if self.winner_color().is_some() {
                    return Choices {
                        squares: Bitboard::EMPTY,
                        other: false,
                    };
                }
                let squares = match self.phase {
                    Phase::Play if self.all_free => self.shooters,
                    Phase::Play => self.movable(),
                    Phase::Setup | Phase::Pie => self.placements(),
                };
                // PASS when some shooter is offered; SWAP in the pie.
                let other = match self.phase {
                    Phase::Play => squares.any(),
                    Phase::Pie => true,
                    Phase::Setup => false,
                };
                return Choices { squares, other };
            }
            Step::Destination => self.reach(self.origin),
            Step::Target if self.moved => lines::reach(
                self.destination,
                self.blockers.without(self.origin),
                self.empty.with(self.origin),
            ),
            Step::Target => {
                let mut targets = Bitboard::EMPTY;
                for shooter in self.shooters {
                    targets |= self.reach(shooter);
                }
                targets
            }
        };
        Choices {
            squares,
            other: false,
        }
    }

    #[inline]
    fn apply(&mut self, action: Action) {
        if self.phase != Phase::Play {
            self.place(action);
            return;
        }
        if action == OTHER {
            self.step = Step::Target;
            return;
        }
        let square = Square::from_index_unchecked(u32::from(action));
        match self.step {
            Step::Start => {
                self.origin = square;
                self.moved = true;
                self.step = Step::Destination;
            }
            Step::Destination => {
                self.destination = square;
                self.step = Step::Target;
            }
            Step::Target => {
                if self.moved {
                    self.move_shooter(self.origin, self.destination);
                }
                self.shoot(Portable, square);
            }
        }
    }

    fn seat_to_act(&self) -> usize {
        self.turn.index() ^ usize::from(self.swapped)
    }

    fn winner(&self) -> Option<usize> {
        self.winner_color()
            .map(|color| color.index() ^ usize::from(self.swapped))
    }
}

fn play_uniform_game(
    mut pos: Position,
    mut swapped: bool,
    rng: &mut Rng,
    mut moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    let mut sampler = UniformSampler::new(pos.rules().size());
    let mut plies = 0;
    while let Some(m) = sampler.draw(&pos, rng) {
        pos.play_unchecked(m);
        swapped |= m == Move::Swap;
        plies += 1;
        if let Some(moves) = moves.as_deref_mut() {
            moves.push(record(m));
        }
    }
    Outcome::of(&pos, swapped, plies)
}

/// A move drawn exactly uniformly from the legal moves of `pos`; `None` when
/// there is none. See [`UniformSampler`] for the method.
///
/// ```
/// use _veletas::rng::Rng;
/// use _veletas::veletas::{Lines, Position, SetupRule};
/// use _veletas::veletas::playout::uniform_move;
///
/// let pos = Position::from_fen("7/2x4/7/1s5/7/o1s2s1/7 b play 3", SetupRule::Perimeter, Lines::ShootersPass)
///     .unwrap();
/// let m = uniform_move(&pos, &mut Rng::for_game(0, 0)).unwrap();
/// assert!(pos.is_legal(m));
/// ```
pub fn uniform_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    UniformSampler::new(pos.rules().size()).draw(pos, rng)
}

/// Draws moves exactly uniformly from the legal moves, without listing them.
///
/// In setup and in the pie there are few moves: `k = below(count)` picks the
/// `k`-th in canonical order (in the pie, `swap` is the 0-th).
///
/// In play, by rejection sampling from an envelope that is uniform over
/// *slots* times `M` *seats*: the slots are the no-move targets `T` (the
/// union of the unclaimed shooters' reaches, ascending), then the pairs
/// (origin, destination) of shooter moves (origins ascending, then
/// destinations ascending); `M` bounds the shots of any move: the most
/// squares the lines of one square hold on the empty N x N board
/// (`4N - 4` for odd N, `4N - 5` for even N), and at most the number of
/// empty squares. Each attempt draws `r = below(slots * M)`, takes slot
/// `r / M` and seat `j = r % M`: a target slot is its stone when `j = 0`; a
/// pair slot is its shot onto the `j`-th target of the moved shooter (in
/// ascending order) when there are more than `j`. Any other draw is
/// rejected and drawn again. Every legal move is exactly one accepted
/// (slot, seat), so every move has the same chance.
#[derive(Clone, Debug)]
pub struct UniformSampler {
    /// The reach of each unclaimed shooter in the current position.
    reaches: Vec<(Square, Bitboard)>,
    /// The bound `M` of the board size, before the empty-square cap.
    most_shots: u32,
}

impl UniformSampler {
    /// A sampler for games on an N x N board.
    pub fn new(size: u32) -> UniformSampler {
        UniformSampler {
            reaches: Vec::new(),
            most_shots: most_line_squares(size),
        }
    }

    /// A uniformly drawn legal move of `pos`, or `None` without any.
    pub fn draw(&mut self, pos: &Position, rng: &mut Rng) -> Option<Move> {
        if pos.winner().is_some() {
            return None;
        }
        let placements = pos.placements();
        match pos.phase() {
            Phase::Setup => {
                let k = rng.below(u64::from(placements.count())) as u32;
                placements.nth(k).map(|sq| pos.next_placement(sq))
            }
            Phase::Pie => match rng.below(u64::from(placements.count()) + 1) as u32 {
                0 => Some(Move::Swap),
                k => placements.nth(k - 1).map(Move::Shooter),
            },
            Phase::Play => self.draw_play(pos, rng),
        }
    }

    fn draw_play(&mut self, pos: &Position, rng: &mut Rng) -> Option<Move> {
        let blockers = pos.blockers();
        let empty = pos.empty();
        self.reaches.clear();
        let mut targets = Bitboard::EMPTY;
        let mut pairs = 0;
        for shooter in pos.shooters() {
            let reach = lines::reach(shooter, blockers, empty);
            targets |= reach;
            pairs += reach.count();
            self.reaches.push((shooter, reach));
        }
        let stones = targets.count();
        if stones == 0 {
            return None;
        }
        let seats = self.most_shots.min(empty.count());
        let draws = u64::from(stones + pairs) * u64::from(seats);
        loop {
            let r = rng.below(draws);
            let (slot, seat) = ((r / u64::from(seats)) as u32, (r % u64::from(seats)) as u32);
            if slot < stones {
                if seat == 0 {
                    return targets.nth(slot).map(Move::Stone);
                }
                continue;
            }
            let (origin, destination) = self.pair(slot - stones);
            let shots = lines::reach(destination, blockers.without(origin), empty.with(origin));
            if let Some(target) = shots.nth(seat) {
                return Some(Move::Shot {
                    origin,
                    destination,
                    target,
                });
            }
        }
    }

    /// The `k`-th (origin, destination) pair of the current position.
    fn pair(&self, mut k: u32) -> (Square, Square) {
        for &(origin, reach) in &self.reaches {
            let count = reach.count();
            if k < count {
                return (origin, reach.nth(k).expect("k is below the count"));
            }
            k -= count;
        }
        unreachable!("k is below the number of pairs")
    }
}

/// The most squares the 8 lines of one square hold on the empty N x N board:
/// the rook's `2(N - 1)` plus the bishop's best, `2(N - 1)` on the centre of
/// an odd board and `2N - 3` next to the centre of an even one.
pub const fn most_line_squares(size: u32) -> u32 {
    if size % 2 == 1 {
        4 * size - 4
    } else {
        4 * size - 5
    }
}

/// Many games, one entry per game in game-index order: the columns of
/// `veletas.Playouts`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Playouts {
    /// 0 for Black, 1 for White, -1 when the player to act had no move.
    pub winner: Vec<i8>,
    /// Whether the pie swap was played.
    pub swapped: Vec<bool>,
    /// Moves played in the playout.
    pub plies: Vec<i32>,
    /// Claims of Black and White at the end.
    pub claims: Vec<[i8; 2]>,
    /// With records: every game's moves, one game after the other.
    pub moves: Vec<MoveRecord>,
    /// With records: game `i`'s moves are `moves[offsets[i]..offsets[i + 1]]`
    /// (`n + 1` entries); empty without records.
    pub offsets: Vec<i64>,
}

/// Plays the games of `batch` from `start` (with `swapped`, whether the pie
/// swap led to it) on `threads` threads (`None`: every core). The result is
/// the same for any thread count and any cut of a run into batches.
///
/// ```
/// use std::num::NonZeroUsize;
/// use _veletas::playout::Batch;
/// use _veletas::veletas::{Position, Rules, Variant};
/// use _veletas::veletas::playout::{Policy, playouts};
///
/// let start = Position::new(Rules::variant(Variant::Small));
/// let games = playouts(start, false, Policy::Micro, Batch::new(0, 50), NonZeroUsize::new(2), true).unwrap();
/// assert_eq!(games.winner.len(), 50);
/// assert_eq!(games.offsets.len(), 51);
/// ```
pub fn playouts(
    start: Position,
    swapped: bool,
    policy: Policy,
    batch: Batch,
    threads: Option<NonZeroUsize>,
    record: bool,
) -> Result<Playouts, ThreadPoolBuildError> {
    let games = batch.run(threads, |rng| {
        let mut moves = Vec::new();
        let outcome = play_game(start, swapped, policy, rng, record.then_some(&mut moves));
        (outcome, moves)
    })?;
    let n = games.len();
    let mut out = Playouts {
        winner: Vec::with_capacity(n),
        swapped: Vec::with_capacity(n),
        plies: Vec::with_capacity(n),
        claims: Vec::with_capacity(n),
        moves: Vec::new(),
        offsets: Vec::new(),
    };
    if record {
        out.offsets.reserve(n + 1);
        out.offsets.push(0);
        out.moves
            .reserve(games.iter().map(|(_, moves)| moves.len()).sum());
    }
    for (outcome, moves) in games {
        out.winner
            .push(outcome.winner.map_or(-1, |color| color.index() as i8));
        out.swapped.push(outcome.swapped);
        out.plies.push(outcome.plies as i32);
        out.claims
            .push([outcome.claims[0] as i8, outcome.claims[1] as i8]);
        if record {
            out.moves.extend_from_slice(&moves);
            out.offsets.push(out.moves.len() as i64);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::veletas::decision::{DecisionState, Stage, square_id};
    use crate::veletas::{Lines, Rules, SetupRule, Variant};

    fn pos(fen: &str, lines: Lines) -> Position {
        Position::from_fen(fen, SetupRule::Perimeter, lines).unwrap()
    }

    fn replay(start: Position, moves: &[MoveRecord]) -> Position {
        let mut pos = start;
        for &[kind, origin, destination, target] in moves {
            let square = |n: i8| Square::from_number(n as u32).unwrap();
            let m = match kind {
                2 => Move::Swap,
                1 => Move::Shooter(square(target)),
                _ if origin < 0 => Move::Stone(square(target)),
                _ => Move::Shot {
                    origin: square(origin),
                    destination: square(destination),
                    target: square(target),
                },
            };
            pos.play(m).unwrap();
        }
        pos
    }

    #[test]
    fn records_replay_to_the_outcome() {
        for variant in Variant::ALL {
            for policy in [Policy::Micro, Policy::Uniform] {
                let start = Position::new(Rules::variant(variant));
                let games = playouts(start, false, policy, Batch::new(5, 20), None, true).unwrap();
                for i in 0..20 {
                    let moves =
                        &games.moves[games.offsets[i] as usize..games.offsets[i + 1] as usize];
                    let end = replay(start, moves);
                    assert_eq!(moves.len(), games.plies[i] as usize);
                    assert_eq!(
                        end.winner().map_or(-1, |c| c.index() as i8),
                        games.winner[i]
                    );
                    assert_eq!(
                        games.swapped[i],
                        moves.iter().any(|m| m[0] == 2),
                        "{policy} {variant}"
                    );
                    assert!(
                        games.winner[i] >= 0,
                        "a game from the start always ends with a winner"
                    );
                }
            }
        }
    }

    #[test]
    fn a_finished_position_returns_at_once() {
        let won = pos(
            "4xxx/oxox2o/1so1o2/1o3xx/1x1x1o1/oo2xoo/2xxoOO b play 3",
            Lines::ShootersBlock,
        );
        for policy in [Policy::Micro, Policy::Uniform] {
            let games = playouts(won, true, policy, Batch::new(0, 3), None, false).unwrap();
            assert_eq!(games.winner, [1, 1, 1]);
            assert_eq!(games.plies, [0, 0, 0]);
            assert_eq!(games.swapped, [true, true, true]);
            assert_eq!(games.claims, [[0, 2]; 3]);
        }
    }

    #[test]
    fn uniform_is_uniform_over_legal_moves() {
        // A position with few moves: every one should come up about equally.
        let pos = pos(
            "1o1ooo1/1xso1xs/1ox2xo/xo1xox1/1oo2o1/xxsxx2/xxo1x2 w play 3",
            Lines::ShootersPass,
        );
        let moves = pos.legal_moves();
        assert!(moves.len() > 3 && moves.len() < 40, "{}", moves.len());
        let mut counts = vec![0u32; moves.len()];
        let mut rng = Rng::for_game(0, 0);
        let draws = 2000 * moves.len() as u32;
        for _ in 0..draws {
            let m = uniform_move(&pos, &mut rng).unwrap();
            counts[moves.iter().position(|&x| x == m).unwrap()] += 1;
        }
        assert!(
            counts.iter().all(|&c| (1700..2300).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn the_shot_bound_holds_on_every_square() {
        for size in 5..=10 {
            let rules = Rules::new(size, 3, SetupRule::Spacing, Lines::ShootersPass).unwrap();
            let most = rules
                .board()
                .iter()
                .map(|sq| lines::reach(sq, rules.walls(), rules.board()).count())
                .max()
                .unwrap();
            assert_eq!(most, most_line_squares(size), "{size}x{size}");
        }
    }

    /// The action id of a choice of [`MicroGame`].
    fn choice_id(choice: Action, size: u32) -> Action {
        if choice == OTHER {
            // PASS and SWAP never appear together; PASS is offered in play only.
            (size * size) as Action
        } else {
            square_id(Square::from_index_unchecked(u32::from(choice)), size)
        }
    }

    /// Every variant under every rule option, and a crowded 5x5 game.
    fn all_rules() -> Vec<Rules> {
        let mut rules = Vec::new();
        for variant in Variant::ALL {
            for setup_rule in [SetupRule::Perimeter, SetupRule::Spacing] {
                for lines in [Lines::ShootersPass, Lines::ShootersBlock] {
                    let r = Rules::variant(variant);
                    rules.push(Rules::new(r.size(), r.shooters(), setup_rule, lines).unwrap());
                }
            }
        }
        rules.push(Rules::new(5, 3, SetupRule::Spacing, Lines::ShootersBlock).unwrap());
        rules
    }

    #[test]
    fn the_micro_game_offers_the_decision_states_actions() {
        for (seed, rules) in all_rules().into_iter().enumerate() {
            let size = rules.size();
            for game in 0..20 {
                let mut rng = Rng::for_game(seed as u64, game);
                let mut state = DecisionState::new(Position::new(rules));
                let mut micro = MicroGame::new(state.position(), false);
                loop {
                    let ids: Vec<Action> = state.legal_actions().iter().collect();
                    let choices = micro.legal_actions();
                    let mapped: Vec<Action> = (0..choices.len())
                        .map(|k| choices.nth(k).unwrap())
                        .map(|choice| {
                            let id = choice_id(choice, size);
                            // In the pie the other choice is SWAP, one id up.
                            id + Action::from(
                                choice == OTHER && state.position().phase() == Phase::Pie,
                            )
                        })
                        .collect();
                    assert_eq!(mapped, ids, "{}", state.position().fen());
                    if ids.is_empty() {
                        break;
                    }
                    let k = rng.below(ids.len() as u64) as u32;
                    let (before, position) = (micro, *state.position());
                    state.apply_unchecked(ids[k as usize]);
                    micro.apply(choices.nth(k).unwrap());
                    assert_eq!(before.completes_turn(), state.stage() == Stage::Start);
                    if before.completes_turn() {
                        let m = before.completed_move(choices.nth(k).unwrap());
                        let mut played = position;
                        played.play(m).unwrap();
                        assert_eq!(&played, state.position(), "{m}");
                    }
                }
                assert_eq!(micro.winner(), Game::winner(&state));
                assert_eq!(micro.swapped, state.swapped());
            }
        }
    }

    /// A micro game by its definition: [`crate::game::random_action`] on a
    /// [`DecisionState`], decision by decision, with the moves it makes.
    fn micro_game_by_decisions(start: Position, rng: &mut Rng) -> (Outcome, Vec<MoveRecord>) {
        let mut state = DecisionState::new(start);
        let mut moves = Vec::new();
        while let Some(action) = crate::game::random_action(&state, rng) {
            if let Some(m) = state.move_of(action) {
                moves.push(record(m));
            }
            state.apply_unchecked(action);
        }
        let outcome = Outcome::of(state.position(), state.swapped(), moves.len() as u32);
        (outcome, moves)
    }

    /// Starts of every phase: the start of the rules, then a few positions
    /// along a uniform game.
    fn starts(rules: Rules, seed: u64) -> Vec<Position> {
        let mut pos = Position::new(rules);
        let mut starts = vec![pos];
        let mut rng = Rng::for_game(seed, u64::MAX);
        for ply in 0.. {
            let Some(m) = uniform_move(&pos, &mut rng) else {
                break;
            };
            pos.play_unchecked(m);
            if ply % 7 == 3 {
                starts.push(pos);
            }
        }
        starts
    }

    /// The turn-by-turn playouts with `bits` against the definition, with and
    /// without records.
    fn check_turns_follow_decisions<B: Bits>(bits: B) {
        for (seed, rules) in all_rules().into_iter().enumerate() {
            for start in starts(rules, seed as u64) {
                for game in 0..8 {
                    let rng = Rng::for_game(seed as u64, game);
                    let expected = micro_game_by_decisions(start, &mut rng.clone());
                    let mut moves = Vec::new();
                    let outcome = play_micro_game_with(
                        bits,
                        start,
                        false,
                        &mut rng.clone(),
                        Some(&mut moves),
                    );
                    assert_eq!((outcome, moves), expected, "{}", start.fen());
                    let outcome = play_micro_game_with(bits, start, false, &mut rng.clone(), None);
                    assert_eq!(outcome, expected.0);
                }
            }
        }
    }

    #[test]
    fn portable_turns_follow_the_decisions() {
        check_turns_follow_decisions(Portable);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn x86_v3_turns_follow_the_decisions() {
        // Not on a CPU without it (or with a slow one): nothing to test there.
        if let Some(x86_v3) = X86V3::detect() {
            check_turns_follow_decisions(x86_v3);
        }
    }

    #[test]
    fn policies_parse() {
        assert_eq!("micro".parse(), Ok(Policy::Micro));
        assert_eq!("uniform".parse::<Policy>().unwrap().to_string(), "uniform");
        assert!("random".parse::<Policy>().is_err());
    }
}
