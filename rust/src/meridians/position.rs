//! A position: stones, turn and phase, with the rule options it is played
//! under; legal placements, and the removal of dead groups.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;

use super::bitboard::{Bitboard, Direction};
use super::color::Color;
#[cfg(target_arch = "x86_64")]
use super::kernel::X86V3;
use super::kernel::{self, Baseline, Bits, Fills, LINES};
use super::moves::Move;
use super::point::Point;
use super::size::Size;
use super::zobrist;

/// The phase field of a position string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// The first two turns of each colour: nothing is removed, nobody loses.
    Open = 0,
    /// The pie decision: Dark plays `swap` or `keep`.
    Pie = 1,
    /// From the fifth placement on.
    Play = 2,
}

impl Phase {
    /// All three, in the order of a game.
    pub const ALL: [Phase; 3] = [Phase::Open, Phase::Pie, Phase::Play];

    /// `"open"`, `"pie"` or `"play"`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Open => "open",
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
        f.write_str("unknown phase: expected 'open', 'pie' or 'play'")
    }
}

impl std::error::Error for ParsePhaseError {}

impl FromStr for Phase {
    type Err = ParsePhaseError;

    fn from_str(name: &str) -> Result<Phase, ParsePhaseError> {
        Phase::ALL
            .into_iter()
            .find(|phase| phase.name() == name)
            .ok_or(ParsePhaseError)
    }
}

/// Why a move is not legal in a position: the first that applies, in the
/// order of the variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// The point is off this board.
    OffBoard {
        /// The point.
        point: Point,
        /// The board's size.
        size: Size,
    },
    /// A placement in the pie decision.
    PieDecision,
    /// `swap` or `keep` outside the pie decision.
    NotPie,
    /// The point holds a stone.
    Occupied(Point),
    /// A second turn's point without a path to the mover's first stone.
    NoPath {
        /// The point.
        point: Point,
        /// The mover's first stone.
        first: Point,
        /// The mover.
        color: Color,
    },
    /// A later turn's point from which no nearest stone is the mover's.
    NoNearest {
        /// The point.
        point: Point,
        /// The mover.
        color: Color,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::GameOver => f.write_str("the game is over"),
            Illegal::OffBoard { point, size } => write!(f, "{point} is not on the {size} board"),
            Illegal::PieDecision => f.write_str("Dark must 'swap' or 'keep' now"),
            Illegal::NotPie => f.write_str("'swap' and 'keep' are only legal in the pie decision"),
            Illegal::Occupied(point) => write!(f, "{point} is not empty"),
            Illegal::NoPath {
                point,
                first,
                color,
            } => write!(
                f,
                "{point} has no path to {first}, {}'s first stone",
                color.title()
            ),
            Illegal::NoNearest { point, color } => {
                write!(f, "from {point} no nearest stone is {}'s", color.title())
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

/// No hint: every group of the colour to act is examined after its move.
const NO_HINT: u8 = u8::MAX;

/// A position of a game: the stones, who acts, the phase, and the rule
/// options (size and pie rule).
///
/// A small `Copy` value (112 bytes): search copies it and plays a move on
/// the copy. The Zobrist hash and the legal placements are kept up to date
/// by every move.
///
/// # Examples
///
/// ```
/// use _veletas::meridians::{Move, Phase, Position, Size};
///
/// let mut pos = Position::new(Size::S6_7);
/// for m in ["f2", "a1", "f12", "d4"] {
///     pos.play(m.parse().unwrap()).unwrap();
/// }
/// assert_eq!(pos.fen(), "x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play");
/// assert_eq!(pos.phase(), Phase::Play);
/// let err = pos.play("a1".parse().unwrap()).unwrap_err();
/// assert_eq!(err.reason.to_string(), "a1 is not empty");
/// ```
///
/// Equality and hashing look at the stones, turn, phase, size and pie rule.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    stones: [Bitboard; 2],
    /// The legal placements of the colour to act, worked out by every
    /// change of the stones, turn or phase: every turn of a game asks for
    /// them, and working them out also finds `cuts` for free.
    legal: Bitboard,
    hash: u64,
    size: Size,
    turn: Color,
    phase: Phase,
    pie: bool,
    /// The bit index of the last placement, when it is all that can have
    /// left groups of the colour to act without a path (see
    /// `Position::remove_dead_with`); [`NO_HINT`] when that is not known.
    hint: u8,
    /// With a hint, bit `i` set: the nearest stones of the colour to act on
    /// both sides of the hint along line [`LINES`]`[i]` are its own, so the
    /// hint may have cut a path between them.
    cuts: u8,
    /// Bit `c` set: every group of colour `c` had a path right after its
    /// last placement.
    settled: u8,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.stones == other.stones
            && self.size == other.size
            && self.turn == other.turn
            && self.phase == other.phase
            && self.pie == other.pie
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.hash.hash(state);
        self.size.hash(state);
        self.pie.hash(state);
    }
}

impl Position {
    /// The start of a game on `size`, without the pie rule: an empty board,
    /// Light to place.
    pub fn new(size: Size) -> Position {
        Position::from_parts(size, false, [Bitboard::EMPTY; 2], Color::Light, Phase::Open)
    }

    /// The position under the pie rule (`true`) or without it. The option
    /// decides what follows Dark's first stone.
    #[must_use]
    pub fn with_pie(mut self, pie: bool) -> Position {
        self.pie = pie;
        self
    }

    /// A position from its parts; the caller (the fen parser) has checked
    /// that the sets are disjoint, on the board and fit the phase.
    pub(crate) fn from_parts(
        size: Size,
        pie: bool,
        stones: [Bitboard; 2],
        turn: Color,
        phase: Phase,
    ) -> Position {
        let mut pos = Position {
            stones,
            legal: Bitboard::EMPTY,
            hash: 0,
            size,
            turn,
            phase,
            pie,
            hint: NO_HINT,
            cuts: 0,
            settled: 0,
        };
        pos.hash = pos.compute_hash();
        pos.refresh();
        pos
    }

    /// Puts the hash right after moves played without it
    /// ([`Position::play_unchecked_on`]).
    pub(crate) fn rehash(&mut self) {
        self.hash = self.compute_hash();
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = zobrist::KEYS.phase(self.phase as usize)
            ^ zobrist::KEYS.turn(self.turn == Color::Light);
        for color in Color::ALL {
            for point in self.stones(color) {
                hash ^= zobrist::stone(color, point);
            }
        }
        hash
    }

    /// The board size.
    #[inline]
    pub fn size(&self) -> Size {
        self.size
    }

    /// Whether the game is played under the pie rule.
    #[inline]
    pub fn pie(&self) -> bool {
        self.pie
    }

    /// The colour that acts next.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The phase.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The Zobrist hash of stones, turn and phase.
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The stones of `color`.
    #[inline(always)]
    pub fn stones(&self, color: Color) -> Bitboard {
        self.stones[color.index()]
    }

    /// The number of stones of `color`.
    #[inline]
    pub fn stone_count(&self, color: Color) -> u32 {
        self.stones[color.index()].count()
    }

    /// Every stone.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.stones[0] | self.stones[1]
    }

    /// The empty points of the board.
    #[inline(always)]
    pub fn empty(&self) -> Bitboard {
        self.size.board() - self.occupied()
    }

    /// The colour of the stone on `point`, if any.
    pub fn piece_at(&self, point: Point) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&color| self.stones(color).contains(point))
    }

    /// The points the colour to act may place a stone on; none in the pie
    /// decision and once the game is over.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::meridians::{Position, Size};
    ///
    /// let mut pos = Position::new(Size::S6_7);
    /// assert_eq!(pos.legal_placements().count(), 114);
    /// pos.play("f2".parse().unwrap()).unwrap();
    /// pos.play("a1".parse().unwrap()).unwrap();
    /// // Light's second stone: on a line with f2, not next to it, nothing between.
    /// assert_eq!(pos.legal_placements().count(), 19);
    /// ```
    #[inline]
    pub fn legal_placements(&self) -> Bitboard {
        self.legal
    }

    /// Appends the legal moves to `moves` (after clearing it): placements in
    /// ascending point number, or `swap` then `keep`; none once the game is
    /// over.
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.phase == Phase::Pie {
            moves.extend([Move::Swap, Move::Keep]);
        } else {
            moves.extend(self.legal_placements().iter().map(Move::Place));
        }
    }

    /// The legal moves in canonical order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(&mut moves);
        moves
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u32 {
        if self.phase == Phase::Pie {
            2
        } else {
            self.legal_placements().count()
        }
    }

    /// The colour that has won, once the game is over (only in play): the
    /// other colour when one has no stone left, and when the colour to act
    /// has no legal placement, its opponent.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::meridians::{Color, Position};
    ///
    /// let pos = Position::from_fen("6/7/8/9/10/10/9/8/7/5o d play", false).unwrap();
    /// assert_eq!(pos.winner(), Some(Color::Dark));
    /// assert!(pos.is_game_over() && pos.legal_moves().is_empty());
    /// ```
    pub fn winner(&self) -> Option<Color> {
        if self.phase != Phase::Play {
            return None;
        }
        if self.stones[0].is_empty() {
            return Some(Color::Dark);
        }
        if self.stones[1].is_empty() {
            return Some(Color::Light);
        }
        // A placement's nearest own stone is at the end of an empty run
        // that starts next to it: without an empty neighbour, none.
        let own = self.stones[self.turn.index()];
        (own.neighbour_fill() & self.empty())
            .is_empty()
            .then(|| self.turn.other())
    }

    /// Whether the game is over (see [`Position::winner`]).
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.winner().is_some()
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check(m).is_ok()
    }

    /// `Ok` if `m` is legal here; otherwise why not (the first reason that
    /// applies, in the order of [`Illegal`]'s variants).
    pub fn check(&self, m: Move) -> Result<(), Illegal> {
        if self.is_game_over() {
            return Err(Illegal::GameOver);
        }
        let Move::Place(point) = m else {
            return if self.phase == Phase::Pie {
                Ok(())
            } else {
                Err(Illegal::NotPie)
            };
        };
        if !point.is_on(self.size) {
            return Err(Illegal::OffBoard {
                point,
                size: self.size,
            });
        }
        if self.phase == Phase::Pie {
            return Err(Illegal::PieDecision);
        }
        if self.occupied().contains(point) {
            return Err(Illegal::Occupied(point));
        }
        if self.legal_placements().contains(point) {
            return Ok(());
        }
        let color = self.turn;
        Err(match (self.phase, self.stones(color).first()) {
            (Phase::Open, Some(first)) => Illegal::NoPath {
                point,
                first,
                color,
            },
            _ => Illegal::NoNearest { point, color },
        })
    }

    /// Plays `m` if it is legal and returns the points it removed; otherwise
    /// leaves the position unchanged and says why.
    pub fn play(&mut self, m: Move) -> Result<Bitboard, PlayError> {
        match self.check(m) {
            Ok(()) => Ok(self.play_unchecked(m)),
            Err(reason) => Err(PlayError {
                m,
                position: *self,
                reason,
            }),
        }
    }

    /// Plays `m`, which must be legal (as from [`Position::legal_moves`]),
    /// and returns the points it removed (the mover's dead groups). An
    /// illegal move leaves an unspecified (but memory-safe) position.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) -> Bitboard {
        match m {
            Move::Place(point) => self.place(point),
            Move::Swap | Move::Keep => {
                self.set_phase::<true>(Phase::Open);
                self.set_turn::<true>(Color::Light);
                self.refresh();
                Bitboard::EMPTY
            }
        }
    }

    /// [`Position::play_unchecked`] on the kernel `k`, for a caller
    /// compiled for it (the playouts of [`super::playout`]). Without `HASH`
    /// the hash is left behind, for a caller that plays a game to its end
    /// and then puts it right ([`Position::rehash`]).
    #[inline(always)]
    pub(crate) fn play_unchecked_on<K: Bits, const HASH: bool>(
        &mut self,
        k: K,
        m: Move,
    ) -> Bitboard {
        match m {
            Move::Place(point) => self.place_with::<K, HASH>(k, point),
            Move::Swap | Move::Keep => {
                self.set_phase::<HASH>(Phase::Open);
                self.set_turn::<HASH>(Color::Light);
                let [own, other] = self.colours();
                self.refresh_with(k, k.load(own), k.load(other));
                Bitboard::EMPTY
            }
        }
    }

    /// Works out the legal placements (and the cuts) anew.
    fn refresh(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = X86V3::chosen() {
            // SAFETY: an `X86V3` exists only on a CPU with AVX2.
            return unsafe { self.refresh_avx2(avx2) };
        }
        let [own, other] = self.colours();
        let baseline = Baseline::default();
        self.refresh_with(baseline, baseline.load(own), baseline.load(other));
    }

    /// The stones of the colour to act, then the other's.
    #[inline(always)]
    fn colours(&self) -> [Bitboard; 2] {
        let me = self.turn.index();
        [self.stones[me], self.stones[1 - me]]
    }

    /// [`Position::refresh`] compiled for AVX2, so that the kernel's
    /// operations are inlined as instructions.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn refresh_avx2(&mut self, avx2: X86V3) {
        let [own, other] = self.colours();
        self.refresh_with(avx2, avx2.load(own), avx2.load(other));
    }

    /// [`Position::refresh`] on the kernel `k`, with the stones of the
    /// colour to act and the other's in its form: the legal placements of
    /// the colour to act, none in the pie decision and once the game is over.
    #[inline(always)]
    fn refresh_with<K: Bits>(&mut self, k: K, own: K::Set, other: K::Set) {
        let empty = k.and_not(k.load(self.size.board()), k.or(own, other));
        self.cuts = 0;
        self.legal = match self.phase {
            Phase::Pie => Bitboard::EMPTY,
            Phase::Open if !k.any(own) => k.store(empty),
            Phase::Play if !k.any(own) || !k.any(other) => Bitboard::EMPTY,
            Phase::Open | Phase::Play => {
                let fills = Fills::new(k, own, empty);
                if self.hint != NO_HINT {
                    let hint = Point::from_index_unchecked(u32::from(self.hint));
                    self.cuts = fills.cuts(k, k.point(hint));
                }
                let rays = fills.rays(k);
                if self.phase == Phase::Open {
                    // The second stone (`own` is the first alone): not next to
                    // the first.
                    k.store(k.and_not(rays, kernel::neighbours(k, own)))
                } else {
                    k.store(rays)
                }
            }
        };
    }

    /// Places a stone of the colour to act on `point`, removes the mover's
    /// dead groups in play, and passes the turn (MERIDIANS.md sections 3 and
    /// 6).
    #[inline]
    fn place(&mut self, point: Point) -> Bitboard {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = X86V3::chosen() {
            // SAFETY: an `X86V3` exists only on a CPU with AVX2.
            return unsafe { self.place_avx2(avx2, point) };
        }
        self.place_with::<_, true>(Baseline::default(), point)
    }

    /// [`Position::place`] compiled for AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn place_avx2(&mut self, avx2: X86V3, point: Point) -> Bitboard {
        self.place_with::<_, true>(avx2, point)
    }

    /// [`Position::place`] on the kernel `k`.
    #[inline(always)]
    fn place_with<K: Bits, const HASH: bool>(&mut self, k: K, point: Point) -> Bitboard {
        let me = self.turn.index();
        // The stones stay in the kernel's form to the end of the move: a
        // set stored word by word and read back whole would wait for the
        // stores to reach the cache. (Nor an array indexed by colour: that
        // would go through memory.)
        let stone = k.point(point);
        let own = k.or(k.load(self.stones[me]), stone);
        let other = k.load(self.stones[1 - me]);
        if HASH {
            self.hash ^= zobrist::stone(self.turn, point);
        }
        if self.phase == Phase::Play {
            self.place_in_play::<K, HASH>(k, point, own, other)
        } else {
            self.place_in_opening::<K, HASH>(k, point, own, other);
            Bitboard::EMPTY
        }
    }

    /// The rest of [`Position::place`] in play, where `own` (the mover's
    /// stones, with the new one on `point`) and `other` are the stones.
    #[inline(always)]
    fn place_in_play<K: Bits, const HASH: bool>(
        &mut self,
        k: K,
        point: Point,
        own: K::Set,
        other: K::Set,
    ) -> Bitboard {
        let mover = self.turn;
        let me = mover.index();
        let next = mover.other();
        let (hint, cuts) = (self.hint, self.cuts);
        self.settled |= 1 << me;
        self.set_turn::<HASH>(next);
        // The next colour's groups all had a path after its own last
        // placement; since then, only this one can have cut one off.
        self.hint = if self.settled & (1 << next.index()) != 0 {
            point.index() as u8
        } else {
            NO_HINT
        };
        // The next turn's placements first, as if nothing were removed: a
        // removal is rare, and so the fills need not wait for the groups to
        // be examined, nor be thrown away when the processor mispredicts a
        // branch there.
        self.refresh_with(k, other, own);
        let dead = self.dead_groups(k, hint, cuts, k.point(point), own, other);
        if !k.any(dead) {
            self.stones[me] = k.store(own);
            return Bitboard::EMPTY;
        }
        let own = k.and_not(own, dead);
        self.stones[me] = k.store(own);
        let removed = k.store(dead);
        if HASH {
            for stone in removed {
                self.hash ^= zobrist::stone(mover, stone);
            }
        }
        self.refresh_with(k, other, own);
        removed
    }

    /// The rest of [`Position::place`] in the opening, where nothing is
    /// removed, and the phase may change.
    #[inline(always)]
    fn place_in_opening<K: Bits, const HASH: bool>(
        &mut self,
        k: K,
        point: Point,
        own: K::Set,
        other: K::Set,
    ) {
        let mover = self.turn;
        let me = mover.index();
        let had = self.stones[me].any();
        self.stones[me] = k.store(own);
        // A lone first stone is a dead group; a second one has a path to
        // the first (that is what makes it legal).
        if had {
            self.settled |= 1 << me;
        } else {
            self.settled &= !(1 << me);
        }
        let next = match (mover, had) {
            (Color::Light, _) => Color::Dark,
            (Color::Dark, false) if self.pie => {
                self.set_phase::<HASH>(Phase::Pie);
                Color::Dark
            }
            (Color::Dark, false) => Color::Light,
            (Color::Dark, true) => {
                self.set_phase::<HASH>(Phase::Play);
                Color::Light
            }
        };
        self.set_turn::<HASH>(next);
        self.hint = if next != mover && self.settled & (1 << next.index()) != 0 {
            point.index() as u8
        } else {
            NO_HINT
        };
        if next == mover {
            self.refresh_with(k, own, other);
        } else {
            self.refresh_with(k, other, own);
        }
    }

    /// The dead groups among `own`, the stones of the colour that has just
    /// placed `placed` (`other`: the opponent's stones), where `hint` and
    /// `cuts` are those of the turn.
    ///
    /// Only some groups need a look:
    ///
    /// - The group of `placed`, unless it is that stone alone: a legal
    ///   placement has an own stone nearest in some direction, and one that
    ///   is not a neighbour is in another group.
    /// - Any other group had a path when this colour's turn began, unless the
    ///   opponent's placement since (the hint) cut it: such a path ran
    ///   through the hint point, between the own stones nearest to it on
    ///   both sides of a line, one of the `cuts` found with the legal
    ///   placements. (Removals since only add empty points.) Those nearest
    ///   stones are looked for again now: if `placed` stands between one of
    ///   them and the hint, that one sees `placed` or is in its group.
    /// - `placed` cuts no path of another group: a stone whose line it cuts
    ///   now has a path to `placed` itself (not a neighbour, or it would be
    ///   in its group).
    ///
    /// Without a hint (after a position string), every group is examined.
    #[inline(always)]
    fn dead_groups<K: Bits>(
        &self,
        k: K,
        hint: u8,
        cuts: u8,
        placed: K::Set,
        own: K::Set,
        other: K::Set,
    ) -> K::Set {
        let occupied = k.or(own, other);
        let empty = k.and_not(k.load(self.size.board()), occupied);
        // (Methods rather than closures: a closure would not be compiled for
        // the features of `place_avx2`, and the kernel's operations would be
        // calls.)
        let mut groups = Groups {
            k,
            own,
            empty,
            seen: k.none(),
            dead: k.none(),
        };
        // The placed stone with its neighbours among the colour's stones: the
        // flood of its group from there is one step shorter.
        let ring = k.and(kernel::neighbours(k, placed), own);
        if !k.same(ring, placed) {
            groups.examine(ring);
        }
        if hint == NO_HINT {
            for stone in k.store(own) {
                groups.examine(k.point(stone));
            }
        } else {
            // The lines the hint cut, known since the turn began.
            let hint = k.point(Point::from_index_unchecked(u32::from(hint)));
            let [east, north, north_east] = LINES;
            if cuts & 1 != 0 {
                groups.examine_cut(hint, east, occupied);
            }
            if cuts & 2 != 0 {
                groups.examine_cut(hint, north, occupied);
            }
            if cuts & 4 != 0 {
                groups.examine_cut(hint, north_east, occupied);
            }
        }
        groups.dead
    }

    /// Sets the phase; with `HASH`, the hash with it.
    #[inline]
    fn set_phase<const HASH: bool>(&mut self, phase: Phase) {
        if HASH {
            self.hash ^=
                zobrist::KEYS.phase(self.phase as usize) ^ zobrist::KEYS.phase(phase as usize);
        }
        self.phase = phase;
    }

    /// Sets the colour to act; with `HASH`, the hash with it.
    #[inline]
    fn set_turn<const HASH: bool>(&mut self, turn: Color) {
        if HASH {
            self.hash ^= zobrist::KEYS.turn(self.turn == Color::Light)
                ^ zobrist::KEYS.turn(turn == Color::Light);
        }
        self.turn = turn;
    }
}

/// The groups of one colour examined by `Position::remove_dead_with` so far.
struct Groups<K: Bits> {
    k: K,
    /// The colour's stones.
    own: K::Set,
    /// The empty points.
    empty: K::Set,
    /// The stones of the groups examined.
    seen: K::Set,
    /// The stones of those without a path.
    dead: K::Set,
}

impl<K: Bits> Groups<K> {
    /// Examines the group of `seed` (stones of one group of the colour),
    /// unless done.
    #[inline(always)]
    fn examine(&mut self, seed: K::Set) {
        let k = self.k;
        if k.any(k.and(seed, self.seen)) {
            return;
        }
        let group = kernel::flood(k, seed, self.own);
        self.seen = k.or(self.seen, group);
        if !kernel::sees(k, group, k.and_not(self.own, group), self.empty) {
            self.dead = k.or(self.dead, group);
        }
    }

    /// Examines the groups of the nearest stones to `hint` on both sides of
    /// its line along `dir`, if both are of the colour: the path between
    /// them ran through `hint`.
    #[inline(always)]
    fn examine_cut(&mut self, hint: K::Set, dir: Direction, occupied: K::Set) {
        let k = self.k;
        let a = k.and(
            kernel::nearest(k, hint, dir, self.empty, occupied),
            self.own,
        );
        if k.any(a) {
            let b = kernel::nearest(k, hint, dir.opposite(), self.empty, occupied);
            let b = k.and(b, self.own);
            if k.any(b) {
                self.examine(a);
                self.examine(b);
            }
        }
    }
}

/// The drawing of the board as a hexagon: one line per rank, rank N on top,
/// the label right-aligned in two characters, each point at column
/// `2c - r + B - 1` after it (`x`, `o` or `.`).
///
/// ```
/// use _veletas::meridians::{Position, Size};
///
/// let pos = Position::from_fen("6/7/8/9/10/10/9/8/7/x4o l open", false).unwrap();
/// let drawing = pos.to_string();
/// let lines: Vec<&str> = drawing.lines().collect();
/// assert_eq!(lines[0], "10     . . . . . .");
/// assert_eq!(lines[4], " 6 . . . . . . . . . .");
/// assert_eq!(lines[8], " 2     . . . . . . .");
/// assert_eq!(lines[9], " 1      x . . . . o");
/// ```
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size;
        let b = size.b();
        for rank in (0..size.n()).rev() {
            let files = size.rank_files(rank);
            let indent = 2 * files.start() + b - 1 - rank;
            write!(
                f,
                "{:>2} {:indent$}",
                rank + 1,
                "",
                indent = indent as usize
            )?;
            for (i, file) in files.enumerate() {
                let point = Point::new(file, rank).expect("board points are on the grid");
                if i > 0 {
                    f.write_str(" ")?;
                }
                let cell = self.piece_at(point).map_or('.', Color::stone_char);
                write!(f, "{cell}")?;
            }
            if rank > 0 {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, false).unwrap()
    }

    /// The dead groups of the colour to act by the definition, group by
    /// group over all its stones.
    fn dead_groups(pos: &Position) -> Bitboard {
        let own = pos.stones(pos.turn());
        let mut dead = Bitboard::EMPTY;
        let mut seen = Bitboard::EMPTY;
        for stone in own {
            if seen.contains(stone) {
                continue;
            }
            let group = Bitboard::from(stone).flood(own);
            seen |= group;
            let mut path = false;
            for s in group {
                for dir in Direction::ALL {
                    // Walk from s: at least one empty point, then a stone.
                    let mut at = s;
                    let mut gap = 0;
                    while let Some(next) = at.step(dir).filter(|&p| p.is_on(pos.size())) {
                        at = next;
                        if pos.occupied().contains(at) {
                            path |= gap > 0 && own.contains(at) && !group.contains(at);
                            break;
                        }
                        gap += 1;
                    }
                }
            }
            if !path {
                dead |= group;
            }
        }
        dead
    }

    /// The legal placements in play by the definition: the empty points from
    /// which, in some direction, the first stone is of the colour to act.
    fn placements_by_definition(pos: &Position) -> Bitboard {
        if pos.winner().is_some() {
            return Bitboard::EMPTY;
        }
        let own = pos.stones(pos.turn());
        pos.empty()
            .iter()
            .filter(|&point| {
                Direction::ALL.into_iter().any(|dir| {
                    let mut at = point;
                    while let Some(next) = at.step(dir).filter(|&p| p.is_on(pos.size())) {
                        if pos.occupied().contains(next) {
                            return own.contains(next);
                        }
                        at = next;
                    }
                    false
                })
            })
            .collect()
    }

    /// Plays `point` by the definitions: place, then remove every dead
    /// group of the mover found by [`dead_groups`].
    fn place_by_definition(pos: &Position, point: Point) -> (Position, Bitboard) {
        let mover = pos.turn();
        let mut stones = [pos.stones(Color::Light), pos.stones(Color::Dark)];
        stones[mover.index()].add(point);
        let placed = Position::from_parts(pos.size(), pos.pie(), stones, mover, pos.phase());
        let dead = dead_groups(&placed);
        stones[mover.index()] = stones[mover.index()] - dead;
        let after = Position::from_parts(pos.size(), pos.pie(), stones, !mover, Phase::Play);
        (after, dead)
    }

    #[test]
    fn the_opening_walks_through_the_phases() {
        let mut p = Position::new(Size::S6_7);
        for (m, fen) in [
            ("f2", "7/8/9/10/11/12/12/11/10/9/5x2/7 d open"),
            ("a1", "7/8/9/10/11/12/12/11/10/9/5x2/o6 l open"),
            ("f12", "x6/8/9/10/11/12/12/11/10/9/5x2/o6 d open"),
            ("d4", "x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play"),
        ] {
            p.play(m.parse().unwrap()).unwrap();
            assert_eq!(p.fen(), fen);
            assert_eq!(p.zobrist(), p.compute_hash(), "after {m}");
        }
        let mut p = Position::new(Size::S5_6).with_pie(true);
        for (m, fen) in [
            ("a1", "6/7/8/9/10/10/9/8/7/x5 d open"),
            ("f1", "6/7/8/9/10/10/9/8/7/x4o d pie"),
            ("swap", "6/7/8/9/10/10/9/8/7/x4o l open"),
            ("a3", "6/7/8/9/10/10/9/x7/7/x4o d open"),
            ("f3", "6/7/8/9/10/10/9/x4o2/7/x4o l play"),
        ] {
            p.play(m.parse().unwrap()).unwrap();
            assert_eq!(p.fen(), fen, "after {m}");
            assert_eq!(p.zobrist(), p.compute_hash(), "after {m}");
        }
    }

    #[test]
    fn positions_are_small_and_compare_by_the_game() {
        assert_eq!(size_of::<Position>(), 112);
        // The same stones reached by play and read from a string: equal, with
        // equal hashes, whatever each knows of its history.
        let mut played = Position::new(Size::S6_7);
        for m in ["f2", "a1", "f12", "d4", "f3"] {
            played.play(m.parse().unwrap()).unwrap();
        }
        let read = pos(&played.fen());
        assert_eq!(played, read);
        let hash = |p: &Position| {
            let mut hasher = std::hash::DefaultHasher::new();
            p.hash(&mut hasher);
            hasher.finish()
        };
        assert_eq!(hash(&played), hash(&read));
        assert_ne!(played, read.with_pie(true));
    }

    #[test]
    fn refusals_in_the_order_of_the_spec() {
        let start = Position::new(Size::S6_7);
        let cases = [
            (start, "h1", "h1 is not on the 6-7 board"),
            (
                start,
                "swap",
                "'swap' and 'keep' are only legal in the pie decision",
            ),
            (
                pos("7/8/9/10/11/12/12/11/10/9/5x2/o6 d pie"),
                "a1",
                "Dark must 'swap' or 'keep' now",
            ),
            (
                pos("7/8/9/10/11/12/12/11/10/9/5x2/o6 d pie"),
                "n14",
                "n14 is not on the 6-7 board",
            ),
            (
                pos("7/8/9/10/11/12/12/11/10/9/5x2/o6 l open"),
                "f2",
                "f2 is not empty",
            ),
            (
                pos("7/8/9/10/11/12/12/11/10/9/5x2/o6 l open"),
                "g2",
                "g2 has no path to f2, Light's first stone",
            ),
            (
                pos("7/8/9/10/11/12/12/11/10/9/5x2/o6 l open"),
                "a12",
                "a12 is not on the 6-7 board",
            ),
            (
                pos("x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play"),
                "c3",
                "from c3 no nearest stone is Light's",
            ),
            (
                pos("6/7/8/9/10/10/9/8/7/5o d play"),
                "a1",
                "the game is over",
            ),
        ];
        for (position, m, reason) in cases {
            let mut played = position;
            let err = played.play(m.parse().unwrap()).unwrap_err();
            assert_eq!(err.reason.to_string(), reason, "{m} in {}", position.fen());
            assert_eq!(played, position);
            assert_eq!(
                err.to_string(),
                format!("illegal move '{m}' in '{}': {reason}", position.fen())
            );
        }
        assert_eq!(
            start.check(Move::Keep),
            Err(Illegal::NotPie),
            "keep outside the pie"
        );
    }

    #[test]
    fn a_lone_group_is_dead_and_its_loss_ends_the_game() {
        // Light's two stones, then a third next to one of them: one group
        // and one with a path to it, so nothing dies.
        let mut p = pos("x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play");
        let removed = p.play("f3".parse().unwrap()).unwrap();
        assert!(removed.is_empty());
        // 5-6: Light's only group is dead after any placement that keeps it
        // one group: it is removed and Light loses.
        let mut p = pos("6/7/8/9/10/10/9/8/7/xx3o l play");
        let removed = p.play("c1".parse().unwrap()).unwrap();
        assert_eq!(format!("{removed:?}"), "{\"a1\", \"b1\", \"c1\"}");
        assert_eq!(p.stone_count(Color::Light), 0);
        assert_eq!(p.winner(), Some(Color::Dark));
        assert_eq!(p.turn(), Color::Dark);
        assert_eq!(p.fen(), "6/7/8/9/10/10/9/8/7/5o d play");
        assert_eq!(p.zobrist(), p.compute_hash());
    }

    /// Plays `games` random games of every size (the pie rule on every
    /// other), handing each position and the move drawn there to `play`,
    /// which plays it; returns the final positions.
    fn random_games(
        seed: u64,
        games: u32,
        mut play: impl FnMut(&mut Position, Move),
    ) -> Vec<Position> {
        let mut rng = Rng::for_game(seed, 0);
        let mut ends = Vec::new();
        for size in Size::ALL {
            for game in 0..games {
                let mut p = Position::new(size).with_pie(game % 2 == 0);
                loop {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len() as u64) as usize];
                    play(&mut p, m);
                }
                ends.push(p);
            }
        }
        ends
    }

    #[test]
    fn hinted_removals_match_the_definition() {
        let mut removals = 0;
        let ends = random_games(11, 60, |p, m| {
            let before = *p;
            let removed = p.play(m).unwrap();
            assert_eq!(p.zobrist(), p.compute_hash());
            // The legal placements kept by the move are those of the
            // position read afresh, and in play those by definition.
            let read = Position::from_fen(&p.fen(), p.pie()).unwrap();
            assert_eq!(p.legal_placements(), read.legal_placements());
            if p.phase() == Phase::Play {
                assert_eq!(p.legal_placements(), placements_by_definition(p));
            }
            if before.phase() == Phase::Play {
                let (after, dead) = place_by_definition(&before, m.point().unwrap());
                assert_eq!(removed, dead, "{m} in {}", before.fen());
                assert_eq!(*p, after, "{m} in {}", before.fen());
                removals += usize::from(dead.any());
                // From a position string, every group is examined.
                let mut fresh = Position::from_fen(&before.fen(), before.pie()).unwrap();
                assert_eq!(fresh.play_unchecked(m), dead);
            }
            assert!(p.stone_count(Color::Light) + p.stone_count(Color::Dark) > 0);
        });
        for p in ends {
            assert!(p.winner().is_some(), "{}", p.fen());
        }
        assert!(removals > 100, "{removals} removals");
    }

    /// Plays random games with the kernel `k` beside the portable one
    /// (which `hinted_removals_match_the_definition` checks), checking that
    /// every move leaves the same position, legal placements and cut lines.
    fn check_kernel<K: Bits>(k: K) {
        let mut cuts = 0;
        random_games(13, 40, |p, m| {
            let Move::Place(point) = m else {
                p.play_unchecked(m);
                return;
            };
            let mut q = *p;
            let removed = p.place_with::<_, true>(kernel::Portable, point);
            assert_eq!(q.place_with::<_, true>(k, point), removed);
            assert_eq!((q, q.hash, q.legal, q.hint), (*p, p.hash, p.legal, p.hint));
            assert_eq!(q.cuts, p.cuts);
            cuts += usize::from(p.cuts != 0);
        });
        assert!(cuts > 100, "{cuts} positions with cut lines");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_sse2_kernel_plays_like_the_word_one() {
        check_kernel(super::super::sse2::Sse2);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_x86_v3_kernel_plays_like_the_portable_one() {
        // Not on a CPU without AVX2: nothing to test there.
        if let Some(x86_v3) = X86V3::detect() {
            check_kernel(x86_v3);
        }
    }
}
