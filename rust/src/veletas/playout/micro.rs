//! The "micro" policy, turn by turn: each decision of the action encoding
//! drawn uniformly, on the bit kernels of [`super::super::kernel`]; the
//! batch playouts' games, and whole turns of the search's playouts
//! ([`play_random`]).

use super::super::bitboard::Bitboard;
use super::super::color::Color;
use super::super::decision::{Action, DecisionState};
#[cfg(target_arch = "x86_64")]
use super::super::kernel::X86V3;
use super::super::kernel::{Bits, Portable};
use super::super::lines;
use super::super::moves::Move;
use super::super::position::{Phase, Position};
use super::super::rules::{Rules, SetupRule};
use super::super::square::{STRIDE, Square};
use super::record::{MoveRecord, push_record};
use super::{Outcome, line_rule};
use crate::game::{ActionSet, Game, play_random_decisions, random_action};
use crate::player::Turns;
use crate::rng::Rng;

pub(super) fn play_micro_game(
    start: Position,
    swapped: bool,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    #[cfg(target_arch = "x86_64")]
    if let Some(x86_v3) = X86V3::chosen() {
        // SAFETY: an `X86V3` exists only on a CPU with its features.
        return unsafe {
            with_line_rule!(start.rules(), LINES => play_micro_game_x86_v3::<LINES>(
                x86_v3, start, swapped, rng, moves
            ))
        };
    }
    with_line_rule!(start.rules(), LINES => play_micro_game_with::<_, LINES>(
        Portable, start, swapped, rng, moves
    ))
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
unsafe fn play_micro_game_x86_v3<const LINES: u8>(
    x86_v3: X86V3,
    start: Position,
    swapped: bool,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    play_micro_game_with::<_, LINES>(x86_v3, start, swapped, rng, moves)
}

/// One micro game from `start`, move by move, with the bit work of `bits`;
/// `LINES` is the [`super::line_rule`] of its rules, a constant so that
/// the turns of the default rules do no work for the others.
#[inline(always)]
pub(super) fn play_micro_game_with<B: Bits, const LINES: u8>(
    bits: B,
    start: Position,
    swapped: bool,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    let mut game = MicroGame::new(&start, swapped);
    // The stream in a local of the loop, written back once: through the
    // reference, each draw would store its state to memory.
    let mut stream = rng.clone();
    // Two loops: without a record, no move is put together at all.
    let plies = match moves {
        Some(moves) => game.play_out::<B, LINES>(bits, &mut stream, |m| push_record(moves, m)),
        None => game.play_out::<B, LINES>(bits, &mut stream, |_| {}),
    };
    *rng = stream;
    game.outcome(plies)
}

/// The choices of a decision of [`MicroGame`], numbered by bitboard index
/// rather than by action id, so that no conversion is needed either way:
/// ascending indices are ascending squares, just like the ids, and the one
/// other choice (PASS in play, SWAP in the pie), numbered after every square,
/// comes last like its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Choices {
    squares: Bitboard,
    other: bool,
}

/// The number of PASS or SWAP among [`Choices`]: above every square index.
pub(super) const OTHER: Action = 127;

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
pub(super) struct MicroGame {
    stones: [Bitboard; 2],
    /// The unclaimed shooters.
    shooters: Bitboard,
    /// Every shooter, claimed or not (the spacing rule keeps away from them).
    all_shooters: Bitboard,
    empty: Bitboard,
    /// What ends lines: stones, squares off the board, with
    /// `shooters_block` every shooter, and with `claimed_shooters_block` the
    /// claimed ones.
    blockers: Bitboard,
    rules: Rules,
    phase: Phase,
    turn: Color,
    /// The shooters each colour has claimed.
    claimed: [Bitboard; 2],
    claims_to_win: u32,
    /// The colour with enough claims, once there is one.
    winner: Option<Color>,
    step: Step,
    /// Whether a shooter moves this turn, from `origin` to `destination`.
    moved: bool,
    origin: Square,
    destination: Square,
    pub(super) swapped: bool,
    /// Whether every unclaimed shooter can move (in play); true after every
    /// play turn, whose claims take the trapped ones.
    all_free: bool,
}

impl MicroGame {
    /// The game of `pos`, whose pie swap was played if `swapped`.
    pub(super) fn new(pos: &Position, swapped: bool) -> MicroGame {
        let mut game = MicroGame::with_all_free(pos, swapped, false);
        game.all_free = game.phase == Phase::Play && game.movable() == game.shooters;
        game
    }

    /// The game of `state`, at the start of a turn.
    fn of_state(state: &DecisionState) -> MicroGame {
        debug_assert!(state.starts_turn());
        MicroGame::with_all_free(state.position(), state.swapped(), state.all_free())
    }

    /// The game of `pos`, where `all_free` says whether every unclaimed
    /// shooter is free to move in play.
    fn with_all_free(pos: &Position, swapped: bool, all_free: bool) -> MicroGame {
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
            claimed: [pos.claimed(Color::Black), pos.claimed(Color::White)],
            claims_to_win: rules.claims_to_win(),
            winner: None,
            step: Step::Start,
            moved: false,
            origin: Square::A1,
            destination: Square::A1,
            swapped,
            all_free,
        };
        game.winner = game.claims_winner();
        game
    }

    #[inline]
    fn winner_color(&self) -> Option<Color> {
        self.winner
    }

    /// The colour with enough claims (Black first, as [`Position::winner`]).
    fn claims_winner(&self) -> Option<Color> {
        if self.claimed[0].count() >= self.claims_to_win {
            Some(Color::Black)
        } else if self.claimed[1].count() >= self.claims_to_win {
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
    pub(super) fn completes_turn(&self) -> bool {
        self.step == Step::Target || self.phase != Phase::Play
    }

    /// The move that `action` completes; the next action must complete one.
    pub(super) fn completed_move(&self, action: Action) -> Move {
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

    /// Moves the shooter on `origin` to `destination`, under the
    /// [`super::line_rule`] `LINES` of the game's rules.
    #[inline(always)]
    fn move_shooter<const LINES: u8>(&mut self, origin: Square, destination: Square) {
        // Each set holds exactly one of the two squares: toggle both.
        let moved = Bitboard::from(origin) | Bitboard::from(destination);
        self.shooters ^= moved;
        self.all_shooters ^= moved;
        self.empty ^= moved;
        if LINES == line_rule::BLOCK {
            self.blockers ^= moved;
        }
    }

    /// Shoots onto `target`, after the turn's move if any; claims and ends
    /// the turn. `LINES`: the [`super::line_rule`] of the game's rules.
    #[inline(always)]
    fn shoot<B: Bits, const LINES: u8>(&mut self, bits: B, target: Square) {
        let bit = Bitboard::from(target);
        self.stones[self.turn.index()] |= bit;
        self.empty = self.empty - bit;
        self.blockers |= bit;
        // Only a shooter without an empty neighbour can be trapped.
        for square in self.hemmed() {
            if bits.is_empty(bits.reach(square, self.blockers, self.empty)) {
                self.claim(square);
                if LINES == line_rule::CASCADE {
                    self.blockers.add(square);
                }
            }
        }
        if LINES == line_rule::CASCADE {
            self.claim_until_none(bits);
        }
        self.turn = self.turn.other();
        self.all_free = true;
    }

    /// Claims the trapped shooter on `square` (RULES.md section 4, step 3).
    #[inline(always)]
    fn claim(&mut self, square: Square) {
        let claimant = super::super::claims::claimant(square, self.stones, self.turn);
        self.claimed[claimant.index()].add(square);
        self.shooters.discard(square);
        self.winner = self.claims_winner();
    }

    /// Under [`Rules::claims_cascade`], after a pass of claims whose shooters
    /// now end lines: the passes that follow, until one claims none.
    #[inline(always)]
    fn claim_until_none<B: Bits>(&mut self, bits: B) {
        loop {
            let mut claimed = false;
            for square in self.hemmed() {
                if bits.is_empty(bits.reach(square, self.blockers, self.empty)) {
                    self.claim(square);
                    self.blockers.add(square);
                    claimed = true;
                }
            }
            if !claimed {
                return;
            }
        }
    }
}

/// What the uniform sampler reads of the game it draws a move of.
impl super::uniform::Drawn for MicroGame {
    #[inline(always)]
    fn is_won(&self) -> bool {
        self.winner.is_some()
    }

    #[inline(always)]
    fn phase(&self) -> Phase {
        self.phase
    }

    #[inline(always)]
    fn placements(&self) -> Bitboard {
        MicroGame::placements(self)
    }

    #[inline(always)]
    fn next_placement(&self, square: Square) -> Move {
        self.completed_move(square.index() as Action)
    }

    #[inline(always)]
    fn shooters(&self) -> Bitboard {
        self.shooters
    }

    #[inline(always)]
    fn blockers(&self) -> Bitboard {
        self.blockers
    }

    #[inline(always)]
    fn empty(&self) -> Bitboard {
        self.empty
    }
}

impl MicroGame {
    /// Plays the legal move `m` (a whole turn, or a setup move).
    #[inline(always)]
    pub(super) fn play_move<B: Bits, const LINES: u8>(&mut self, bits: B, m: Move) {
        match m {
            Move::Swap => self.place(OTHER),
            Move::Shooter(square) => self.place(square.index() as Action),
            Move::Stone(square) if self.phase != Phase::Play => {
                self.place(square.index() as Action);
            }
            Move::Stone(target) => self.shoot::<B, LINES>(bits, target),
            Move::Shot {
                origin,
                destination,
                target,
            } => {
                self.move_shooter::<LINES>(origin, destination);
                self.shoot::<B, LINES>(bits, target);
            }
        }
    }

    /// How the game has ended, or stands, after `plies` moves.
    pub(super) fn outcome(&self, plies: u32) -> Outcome {
        Outcome {
            winner: self.winner_color(),
            swapped: self.swapped,
            plies,
            claims: [self.claimed[0].count(), self.claimed[1].count()],
        }
    }

    /// Plays the game to its end, handing each move to `record`; the plies
    /// played.
    #[inline(always)]
    fn play_out<B: Bits, const LINES: u8>(
        &mut self,
        bits: B,
        rng: &mut Rng,
        mut record: impl FnMut(Move),
    ) -> u32 {
        let mut plies = 0;
        loop {
            let played = if self.phase == Phase::Play {
                self.play_turn::<B, LINES>(bits, rng, &mut record) != 0
            } else {
                self.play_placement(bits, rng, &mut record)
            };
            if !played {
                return plies;
            }
            plies += 1;
        }
    }

    /// Plays a setup or pie move with the micro policy (one decision) and
    /// hands it to `record`; false without a legal action.
    #[inline(always)]
    fn play_placement<B: Bits>(
        &mut self,
        bits: B,
        rng: &mut Rng,
        record: &mut impl FnMut(Move),
    ) -> bool {
        debug_assert!(self.phase != Phase::Play);
        if self.winner_color().is_some() {
            return false;
        }
        // The squares, then SWAP in the pie.
        let squares = self.placements();
        let n = squares.count() + u32::from(self.phase == Phase::Pie);
        if n == 0 {
            return false;
        }
        let k = rng.below(u64::from(n)) as u32;
        let action = if k == squares.count() {
            OTHER
        } else {
            bits.nth_square(squares, k).index() as Action
        };
        record(self.completed_move(action));
        self.place(action);
        true
    }

    /// Plays a whole play turn with the micro policy and hands its move to
    /// `record`; the decisions it took (2 for a shot without a move, 3 with
    /// one), 0 once the game is over (a winner, or no legal action).
    ///
    /// The same draws, in the same order, as [`crate::game::random_action`]
    /// at each of the turn's decisions (a test holds them together), without
    /// stepping through [`Step`]s.
    #[inline(always)]
    fn play_turn<B: Bits, const LINES: u8>(
        &mut self,
        bits: B,
        rng: &mut Rng,
        record: &mut impl FnMut(Move),
    ) -> u32 {
        debug_assert!(self.phase == Phase::Play && self.step == Step::Start);
        if self.winner_color().is_some() {
            return 0;
        }
        // With every shooter free, at least one is left: each claim goes to
        // a colour, and once all are claimed one colour has more than half,
        // a winner.
        let movable = if self.all_free {
            debug_assert!(self.shooters.any());
            self.shooters
        } else {
            let movable = self.movable();
            if movable.is_empty() {
                return 0;
            }
            movable
        };
        // The shooters, then PASS.
        let (target, decisions) = if let Some(origin) = bits.draw_or_other(movable, rng) {
            let destination = bits.draw(bits.reach(origin, self.blockers, self.empty), rng);
            self.move_shooter::<LINES>(origin, destination);
            let target = bits.draw(bits.reach(destination, self.blockers, self.empty), rng);
            record(Move::Shot {
                origin,
                destination,
                target,
            });
            (target, 3)
        } else {
            // The reaches' union: the sights' union, its empty squares.
            let seen = bits.sights(self.shooters, self.blockers);
            let target = bits.draw_square(seen & self.empty, rng);
            record(Move::Stone(target));
            (target, 2)
        };
        self.shoot::<B, LINES>(bits, target);
        decisions
    }

    /// Plays whole turns while `limit` decisions leave room for one (three
    /// in play), to the end of the game at most; the decisions taken.
    #[inline(always)]
    fn play_turns<B: Bits, const LINES: u8>(&mut self, bits: B, rng: &mut Rng, limit: u32) -> u32 {
        let mut taken = 0;
        loop {
            let decisions = if self.phase == Phase::Play {
                if limit - taken < 3 {
                    return taken;
                }
                self.play_turn::<B, LINES>(bits, rng, &mut |_| {})
            } else {
                if limit == taken {
                    return taken;
                }
                u32::from(self.play_placement(bits, rng, &mut |_| {}))
            };
            if decisions == 0 {
                return taken;
            }
            taken += decisions;
        }
    }

    /// The decision state at the start of the turn the game is at.
    fn decision_state(&self) -> DecisionState {
        debug_assert!(self.step == Step::Start);
        let position = Position::from_parts(
            self.rules,
            self.stones,
            self.shooters,
            self.claimed,
            self.turn,
            self.phase,
        );
        DecisionState::with_all_free(
            position,
            self.swapped,
            self.phase == Phase::Play && self.all_free,
        )
    }
}

/// [`Game::play_random`] for Veletas: the decisions to the start of the
/// next turn one at a time, then whole turns as the micro playouts play
/// them (on the chosen kernel, without stepping through the decisions)
/// while the limit leaves room for one, then the rest one at a time. The
/// same actions for the same stream as one decision at a time.
pub(in super::super) fn play_random(state: &mut DecisionState, rng: &mut Rng, limit: u32) -> u32 {
    let mut taken = 0;
    while !state.starts_turn() && taken < limit {
        let Some(action) = random_action(state, rng) else {
            return taken;
        };
        state.apply_unchecked(action);
        taken += 1;
    }
    if limit - taken >= 3 {
        let mut game = MicroGame::of_state(state);
        let turns = game.play_turns_on_kernel(rng, limit - taken);
        if turns > 0 {
            *state = game.decision_state();
            taken += turns;
        }
    }
    taken + play_random_decisions(state, rng, limit - taken)
}

impl MicroGame {
    /// [`MicroGame::play_turns`] on the chosen kernel, with the claims of
    /// the game's rules.
    fn play_turns_on_kernel(&mut self, rng: &mut Rng, limit: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if let Some(x86_v3) = X86V3::chosen() {
            // SAFETY: an `X86V3` exists only on a CPU with its features.
            return unsafe { self.play_turns_x86_v3(x86_v3, rng, limit) };
        }
        with_line_rule!(self.rules, LINES => self.play_turns::<_, LINES>(Portable, rng, limit))
    }

    /// [`MicroGame::play_turns`] compiled for the features of [`X86V3`].
    ///
    /// # Safety
    ///
    /// The CPU must have them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
    unsafe fn play_turns_x86_v3(&mut self, x86_v3: X86V3, rng: &mut Rng, limit: u32) -> u32 {
        with_line_rule!(self.rules, LINES => self.play_turns::<_, LINES>(x86_v3, rng, limit))
    }
}

impl Game for MicroGame {
    type Actions = Choices;

    const EXPLORATION: f64 = DecisionState::EXPLORATION;

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
                with_line_rule!(self.rules, LINES => {
                    if self.moved {
                        self.move_shooter::<LINES>(self.origin, self.destination);
                    }
                    self.shoot::<_, LINES>(Portable, square);
                });
                // The whole turns of `play_turn` never leave the start.
                self.step = Step::Start;
                self.moved = false;
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
