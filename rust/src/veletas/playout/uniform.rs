//! The "uniform" policy: every legal move of a position equally likely.

use super::super::bitboard::Bitboard;
#[cfg(target_arch = "x86_64")]
use super::super::kernel::X86V3;
use super::super::kernel::{Bits, Portable};
use super::super::lines::star;
use super::super::moves::Move;
use super::super::position::{Phase, Position};
use super::super::square::{MAX_SIZE, Square};
use super::Outcome;
use super::micro::MicroGame;
use super::record::{MoveRecord, record};
use crate::rng::Rng;

pub(super) fn play_uniform_game(
    pos: Position,
    swapped: bool,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    #[cfg(target_arch = "x86_64")]
    if let Some(x86_v3) = X86V3::chosen() {
        // SAFETY: an `X86V3` exists only on a CPU with its features.
        return unsafe {
            with_line_rule!(pos.rules(), LINES => play_uniform_game_x86_v3::<LINES>(
                x86_v3, pos, swapped, rng, moves
            ))
        };
    }
    with_line_rule!(pos.rules(), LINES => play_uniform_game_with::<_, LINES>(
        Portable, pos, swapped, rng, moves
    ))
}

/// [`play_uniform_game_with`] compiled for the features of [`X86V3`], so
/// that its instructions are inlined into the sampler.
///
/// # Safety
///
/// The CPU must have these features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
unsafe fn play_uniform_game_x86_v3<const LINES: u8>(
    x86_v3: X86V3,
    pos: Position,
    swapped: bool,
    rng: &mut Rng,
    moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    play_uniform_game_with::<_, LINES>(x86_v3, pos, swapped, rng, moves)
}

/// One uniform game from `pos`, the sampler's reaches on `bits`; the moves
/// are played on the micro playouts' game, which keeps only what a game
/// needs (`LINES`: the [`super::line_rule`] of its rules).
#[inline(always)]
pub(super) fn play_uniform_game_with<B: Bits, const LINES: u8>(
    bits: B,
    pos: Position,
    swapped: bool,
    rng: &mut Rng,
    mut moves: Option<&mut Vec<MoveRecord>>,
) -> Outcome {
    let mut sampler = UniformSampler::new(pos.rules().size());
    let mut game = MicroGame::new(&pos, swapped);
    let mut plies = 0;
    while let Some(m) = sampler.draw_with(bits, &game, rng) {
        game.play_move::<B, LINES>(bits, m);
        plies += 1;
        if let Some(moves) = moves.as_deref_mut() {
            moves.push(record(m));
        }
    }
    game.outcome(plies)
}

/// What the sampler reads of the game it draws a move of: a [`Position`],
/// or the micro playouts' game along a uniform game.
pub(super) trait Drawn {
    /// Whether a colour has won.
    fn is_won(&self) -> bool;
    /// The phase.
    fn phase(&self) -> Phase;
    /// The squares open to the next setup placement.
    fn placements(&self) -> Bitboard;
    /// The setup move that places the next piece on `square`.
    fn next_placement(&self, square: Square) -> Move;
    /// The unclaimed shooters.
    fn shooters(&self) -> Bitboard;
    /// What ends lines.
    fn blockers(&self) -> Bitboard;
    /// The empty squares.
    fn empty(&self) -> Bitboard;
}

impl Drawn for Position {
    #[inline(always)]
    fn is_won(&self) -> bool {
        self.winner().is_some()
    }

    #[inline(always)]
    fn phase(&self) -> Phase {
        Position::phase(self)
    }

    #[inline(always)]
    fn placements(&self) -> Bitboard {
        Position::placements(self)
    }

    #[inline(always)]
    fn next_placement(&self, square: Square) -> Move {
        Position::next_placement(self, square)
    }

    #[inline(always)]
    fn shooters(&self) -> Bitboard {
        Position::shooters(self)
    }

    #[inline(always)]
    fn blockers(&self) -> Bitboard {
        Position::blockers(self)
    }

    #[inline(always)]
    fn empty(&self) -> Bitboard {
        Position::empty(self)
    }
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
///
/// A sampler kept from draw to draw (as along a game) keeps each shooter's
/// sight and works it out again only where the blockers along it changed;
/// any position may follow any other.
#[derive(Clone, Debug)]
pub struct UniformSampler {
    /// The reach of each unclaimed shooter in the current position, with
    /// the pairs of the shooters so far, its own included (so that a pair
    /// is found without counting the reaches again at every attempt).
    reaches: Box<[(Square, Bitboard, u32); MOST_SHOOTERS]>,
    /// The number of entries of `reaches` that hold the current position's.
    shooters: usize,
    /// The sight ([`Bits::sight`]) of each square, by index, with the square
    /// itself: kept from draw to draw for the squares of `sighted`, against
    /// `blockers`; any other holds its own square at least.
    sights: [Bitboard; 128],
    /// The unclaimed shooters of the last draw in play, whose sights hold.
    sighted: Bitboard,
    /// What ended lines at the last draw in play.
    blockers: Bitboard,
    /// The bound `M` of the board size, before the empty-square cap.
    most_shots: u32,
}

/// The most shooters of any rules: `K + 1 <= (N - 2)^2` on the largest board.
const MOST_SHOOTERS: usize = ((MAX_SIZE - 2) * (MAX_SIZE - 2) - 1) as usize;

impl UniformSampler {
    /// A sampler for games on an N x N board.
    pub fn new(size: u32) -> UniformSampler {
        UniformSampler {
            reaches: Box::new(
                [(Square::from_index_unchecked(0), Bitboard::EMPTY, 0); MOST_SHOOTERS],
            ),
            shooters: 0,
            sights: [Bitboard::FULL; 128],
            sighted: Bitboard::EMPTY,
            blockers: Bitboard::EMPTY,
            most_shots: most_line_squares(size),
        }
    }

    /// A uniformly drawn legal move of `pos`, or `None` without any.
    pub fn draw(&mut self, pos: &Position, rng: &mut Rng) -> Option<Move> {
        self.draw_with(Portable, pos, rng)
    }

    /// [`UniformSampler::draw`] with the bit work of `bits` (the same move
    /// on every kernel).
    #[inline(always)]
    fn draw_with<B: Bits>(&mut self, bits: B, pos: &impl Drawn, rng: &mut Rng) -> Option<Move> {
        if pos.is_won() {
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
            Phase::Play => self.draw_play(bits, pos, rng),
        }
    }

    #[inline(always)]
    fn draw_play<B: Bits>(&mut self, bits: B, pos: &impl Drawn, rng: &mut Rng) -> Option<Move> {
        let blockers = pos.blockers();
        let empty = pos.empty();
        let unclaimed = pos.shooters();
        // A sight changes only where one of its squares changed between
        // blocker and not: each line's walk up to its first blocker is the
        // same while they do not. A move changes three squares, so most
        // shooters keep theirs. A shooter new since the last draw is among
        // `changed`, and its own square is in its sight, whatever that is.
        let changed = (blockers ^ self.blockers) | (unclaimed ^ self.sighted);
        let mut targets = Bitboard::EMPTY;
        let mut pairs = 0;
        for (shooter, entry) in unclaimed.into_iter().zip(self.reaches.iter_mut()) {
            let sight = &mut self.sights[shooter.index() & 127];
            if (*sight & changed).any() {
                *sight = bits.sight(shooter, blockers).with(shooter);
            }
            let reach = *sight & empty;
            targets |= reach;
            pairs += reach.count();
            *entry = (shooter, reach, pairs);
        }
        self.sighted = unclaimed;
        self.blockers = blockers;
        // Counted once rather than along the loop, which then keeps its
        // sums in registers. (No rules have more shooters than entries, so
        // the loop wrote one for each.)
        self.shooters = unclaimed.count() as usize;
        debug_assert!(self.shooters <= MOST_SHOOTERS);
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
                    return Some(Move::Stone(bits.nth_square(targets, slot)));
                }
                continue;
            }
            let (origin, destination) = self.pair(bits, slot - stones);
            // The shots are empty squares of the destination's lines and
            // the origin, which is on them: a seat beyond those is rejected
            // without working out the reach, as it would be with it.
            if seat > (star(destination) & empty).count() {
                continue;
            }
            let shots = bits.reach(destination, blockers.without(origin), empty.with(origin));
            if seat < bits.count(shots) {
                return Some(Move::Shot {
                    origin,
                    destination,
                    target: bits.nth(shots, seat),
                });
            }
        }
    }

    /// The `k`-th (origin, destination) pair of the current position.
    #[inline(always)]
    fn pair<B: Bits>(&self, bits: B, k: u32) -> (Square, Square) {
        let mut before = 0;
        for &(origin, reach, pairs) in &self.reaches[..self.shooters] {
            if k < pairs {
                return (origin, bits.nth_square(reach, k - before));
            }
            before = pairs;
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
