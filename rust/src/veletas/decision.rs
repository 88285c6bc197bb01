//! Turns as micro-decisions: the action encoding of the "micro" playout
//! policy, the reinforcement-learning adapters and the search.
//!
//! On an N x N board there are N * N + 2 action ids: a square's id is
//! `rank * N + file` (`a1` = 0), [`Actions::pass`] is N * N ("no shooter
//! move") and [`Actions::swap`] is N * N + 1. A setup turn is one decision (a
//! placement), the pie turn is `SWAP` or a placement, and a play turn is up to
//! three decisions by the same player: `PASS` or a shooter; then, if a shooter
//! was chosen, its destination; then the target of the shot.
//!
//! Every offered prefix completes: a shooter is offered only when it can move,
//! and a moved shooter can always shoot back onto the square it left.

use core::fmt;

use super::bitboard::Bitboard;
use super::kernel;
use super::moves::Move;
use super::position::{Phase, Position};
use super::square::{MAX_SIZE, STRIDE, Square};

pub use crate::game::Action;
use crate::game::{ActionSet, Game};
use crate::rng::Rng;

/// How far the current turn has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The first decision of a turn (in setup and pie, the only one).
    Start,
    /// A shooter was chosen on `origin`: its destination comes next.
    Destination { origin: Square },
    /// The target comes next: of the shooter moved from `origin` to
    /// `destination`, or, with `None`, of any unclaimed shooter.
    Target { moved: Option<(Square, Square)> },
}

/// The legal actions of a decision, as a set of squares and two flags.
///
/// Ids ascend with squares (both are rank-major), then `PASS`, then `SWAP`:
/// [`Actions::nth`] walks them in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Actions {
    squares: Bitboard,
    pass: bool,
    swap: bool,
    size: u32,
}

impl Actions {
    /// No legal action: the game is over.
    pub const fn none(size: u32) -> Actions {
        Actions {
            squares: Bitboard::EMPTY,
            pass: false,
            swap: false,
            size,
        }
    }

    /// The actions `squares`, plus `PASS` and `SWAP` where flagged, on an
    /// N x N board.
    #[inline]
    pub const fn new(squares: Bitboard, pass: bool, swap: bool, size: u32) -> Actions {
        Actions {
            squares,
            pass,
            swap,
            size,
        }
    }

    /// The id of "no shooter move" on this board.
    #[inline]
    pub const fn pass(&self) -> Action {
        (self.size * self.size) as Action
    }

    /// The id of the pie swap on this board.
    #[inline]
    pub const fn swap(&self) -> Action {
        (self.size * self.size + 1) as Action
    }

    /// The board size N.
    #[inline]
    pub const fn size(&self) -> u32 {
        self.size
    }

    /// The squares among the actions.
    #[inline]
    pub const fn squares(&self) -> Bitboard {
        self.squares
    }

    /// How many actions there are.
    #[inline]
    pub const fn len(&self) -> u32 {
        self.squares.count() + self.pass as u32 + self.swap as u32
    }

    /// Whether there is no action at all.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `k`-th action in ascending id order, if `k < len()`.
    #[inline(always)]
    pub fn nth(&self, k: u32) -> Option<Action> {
        let squares = self.squares.count();
        if k < squares {
            return kernel::nth(self.squares, k).map(|sq| square_id(sq, self.size));
        }
        match (k - squares, self.pass, self.swap) {
            (0, true, _) => Some(self.pass()),
            (0, false, true) | (1, true, true) => Some(self.swap()),
            _ => None,
        }
    }

    /// Whether `action` is one of them.
    #[inline]
    pub fn contains(&self, action: Action) -> bool {
        if action == self.pass() {
            self.pass
        } else if action == self.swap() {
            self.swap
        } else {
            id_square(action, self.size).is_some_and(|sq| self.squares.contains(sq))
        }
    }

    /// The actions in ascending id order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        let size = self.size;
        self.squares
            .iter()
            .map(move |sq| square_id(sq, size))
            .chain(self.pass.then(|| self.pass()))
            .chain(self.swap.then(|| self.swap()))
    }
}

/// The action id of `square` on an N x N board.
#[inline]
pub const fn square_id(square: Square, size: u32) -> Action {
    SQUARE_IDS[size as usize][square.index()] as Action
}

/// `SQUARE_IDS[N][index]`: the action id `rank * N + file` of the square with
/// bitboard index `index` (a table: every random action goes through it).
static SQUARE_IDS: [[u8; (MAX_SIZE * STRIDE) as usize]; MAX_SIZE as usize + 1] = {
    let mut table = [[0; (MAX_SIZE * STRIDE) as usize]; MAX_SIZE as usize + 1];
    let mut size = 0;
    while size <= MAX_SIZE {
        let mut index = 0;
        while index < MAX_SIZE * STRIDE {
            table[size as usize][index as usize] = ((index / STRIDE) * size + index % STRIDE) as u8;
            index += 1;
        }
        size += 1;
    }
    table
};

/// The square of action id `action` on an N x N board, if it is a square id.
#[inline]
pub const fn id_square(action: Action, size: u32) -> Option<Square> {
    let action = action as usize;
    if action < (size * size) as usize {
        Some(ID_SQUARES[size as usize][action])
    } else {
        None
    }
}

/// `ID_SQUARES[N][id]`: the square of a square id on an N x N board (a table,
/// since dividing by a variable N is slow in the playouts' inner loop).
static ID_SQUARES: [[Square; (MAX_SIZE * MAX_SIZE) as usize]; MAX_SIZE as usize + 1] = {
    let mut table = [[Square::A1; (MAX_SIZE * MAX_SIZE) as usize]; MAX_SIZE as usize + 1];
    let mut size = 1;
    while size <= MAX_SIZE {
        let mut id = 0;
        while id < size * size {
            table[size as usize][id as usize] = match Square::new(id % size, id / size) {
                Some(square) => square,
                None => unreachable!(),
            };
            id += 1;
        }
        size += 1;
    }
    table
};

/// The unclaimed shooters that can move: those with a non-empty reach.
fn movable_shooters(pos: &Position) -> Bitboard {
    let empty = pos.empty();
    let blockers = pos.blockers();
    // A shooter next to an empty square can move; only the others need their
    // lines walked.
    let hemmed = pos.shooters() - empty.king_fill();
    let mut movable = pos.shooters() - hemmed;
    for sq in hemmed {
        if kernel::reach(sq, blockers, empty).any() {
            movable.add(sq);
        }
    }
    movable
}

/// Whether `pos` is in play and every unclaimed shooter can move.
fn all_free(pos: &Position) -> bool {
    pos.phase() == Phase::Play && movable_shooters(pos) == pos.shooters()
}

/// An action that is not legal at the current decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalAction {
    /// The refused id.
    pub action: Action,
    /// The legal ids, for the message.
    pub legal: Vec<Action>,
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "action {} is not legal here; legal actions: {:?}",
            self.action, self.legal
        )
    }
}

impl std::error::Error for IllegalAction {}

/// A position plus the part of the current turn chosen so far.
///
/// # Examples
///
/// ```
/// use _veletas::veletas::{Lines, Position, SetupRule};
/// use _veletas::veletas::decision::{DecisionState, Stage};
///
/// let pos = Position::from_fen("7/2x4/7/1s5/7/o1s2s1/7 b play 3", SetupRule::Perimeter, Lines::ShootersPass)
///     .unwrap();
/// let mut turn = DecisionState::new(pos);
/// let c2 = 1 * 7 + 2;
/// turn.apply(c2).unwrap(); // the shooter on c2 ...
/// turn.apply(c2 + 7).unwrap(); // ... goes to c3 ...
/// assert_eq!(turn.stage(), Stage::Target { moved: Some(("c2".parse().unwrap(), "c3".parse().unwrap())) });
/// turn.apply(c2).unwrap(); // ... and shoots back onto c2.
/// assert_eq!(turn.position().fen(), "7/2x4/7/1s5/2s4/o1x2s1/7 w play 3");
/// assert_eq!(turn.stage(), Stage::Start);
/// ```
///
/// It also knows whether the pie swap was played, which maps colours to
/// seats: seat 0 is the first player, Black until a swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecisionState {
    position: Position,
    stage: Stage,
    swapped: bool,
    /// Whether the position is in play with every unclaimed shooter free to
    /// move (its reach non-empty), so that the first decision offers them
    /// all. A function of the position: true after every play turn, whose
    /// claims take the trapped shooters; checked when play begins.
    all_free: bool,
}

impl DecisionState {
    /// The first decision of the turn of `position`, before any swap.
    pub fn new(position: Position) -> DecisionState {
        DecisionState::with_swapped(position, false)
    }

    /// The first decision of the turn of `position`, where `swapped` says
    /// whether the pie swap was played on the way to it.
    pub fn with_swapped(position: Position, swapped: bool) -> DecisionState {
        DecisionState {
            position,
            stage: Stage::Start,
            swapped,
            all_free: all_free(&position),
        }
    }

    /// [`DecisionState::with_swapped`] where the caller knows whether every
    /// unclaimed shooter is free to move in play (`all_free`, a function of
    /// the position): the micro playouts, which keep it.
    #[inline]
    pub(crate) fn with_all_free(
        position: Position,
        swapped: bool,
        all_free: bool,
    ) -> DecisionState {
        debug_assert_eq!(all_free, self::all_free(&position));
        DecisionState {
            position,
            stage: Stage::Start,
            swapped,
            all_free,
        }
    }

    /// Whether the position is in play with every unclaimed shooter free to
    /// move.
    #[inline]
    pub(crate) const fn all_free(&self) -> bool {
        self.all_free
    }

    /// Whether the pie swap was played.
    #[inline]
    pub const fn swapped(&self) -> bool {
        self.swapped
    }

    /// The seat to act: 0 for the first player, 1 for the second.
    #[inline]
    pub fn seat_to_act(&self) -> usize {
        self.position.turn().index() ^ usize::from(self.swapped)
    }

    /// The position at the start of the current turn.
    #[inline]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// How far the current turn has got.
    #[inline]
    pub const fn stage(&self) -> Stage {
        self.stage
    }

    /// The board size N.
    #[inline]
    pub fn size(&self) -> u32 {
        self.position.rules().size()
    }

    /// Whether there is no decision left to make: the game is won, or (only
    /// in hand-made positions) the player to act has no legal move.
    pub fn is_terminal(&self) -> bool {
        self.legal_actions().is_empty()
    }

    /// The legal actions of the current decision.
    #[inline(always)]
    pub fn legal_actions(&self) -> Actions {
        let pos = &self.position;
        let mut actions = Actions::none(self.size());
        // Past the first decision of a turn, the game is known to go on.
        match self.stage {
            Stage::Start => {
                if pos.winner().is_some() {
                    return actions;
                }
                match pos.phase() {
                    Phase::Setup => actions.squares = pos.placements(),
                    Phase::Pie => {
                        actions.squares = pos.placements();
                        actions.swap = true;
                    }
                    Phase::Play => {
                        actions.squares = if self.all_free {
                            pos.shooters()
                        } else {
                            movable_shooters(pos)
                        };
                        actions.pass = actions.squares.any();
                    }
                }
            }
            Stage::Destination { origin } => actions.squares = pos.reach(origin),
            Stage::Target { moved: None } => actions.squares = self.all_targets(),
            Stage::Target {
                moved: Some((origin, destination)),
            } => {
                actions.squares = kernel::reach(
                    destination,
                    pos.blockers().without(origin),
                    pos.empty().with(origin),
                );
            }
        }
        actions
    }

    /// Every square some unclaimed shooter reaches: the shots without a move.
    fn all_targets(&self) -> Bitboard {
        let pos = &self.position;
        let empty = pos.empty();
        let blockers = pos.blockers();
        let mut targets = Bitboard::EMPTY;
        for shooter in pos.shooters() {
            targets |= kernel::reach(shooter, blockers, empty);
        }
        targets
    }

    /// Takes `action` if it is legal; otherwise changes nothing.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalAction> {
        let actions = self.legal_actions();
        if !actions.contains(action) {
            return Err(IllegalAction {
                action,
                legal: actions.iter().collect(),
            });
        }
        self.apply_unchecked(action);
        Ok(())
    }

    /// Takes `action`, which must be legal (as from [`DecisionState::legal_actions`]).
    pub fn apply_unchecked(&mut self, action: Action) {
        let size = self.size();
        let square = || id_square(action, size).expect("a square id");
        match self.stage {
            Stage::Start if self.position.phase() != Phase::Play => {
                let m = if u32::from(action) == size * size + 1 {
                    self.swapped = true;
                    Move::Swap
                } else {
                    self.position.next_placement(square())
                };
                self.finish(m);
            }
            Stage::Start => {
                self.stage = if u32::from(action) == size * size {
                    Stage::Target { moved: None }
                } else {
                    Stage::Destination { origin: square() }
                };
            }
            Stage::Destination { origin } => {
                self.stage = Stage::Target {
                    moved: Some((origin, square())),
                };
            }
            Stage::Target { moved } => {
                let target = square();
                let m = match moved {
                    None => Move::Stone(target),
                    Some((origin, destination)) => Move::Shot {
                        origin,
                        destination,
                        target,
                    },
                };
                self.finish(m);
            }
        }
    }

    /// The move that the legal `action` completes, or `None` if the turn
    /// goes on after it.
    pub fn move_of(&self, action: Action) -> Option<Move> {
        let size = self.size();
        let pass = (size * size) as Action;
        match (self.position.phase(), self.stage) {
            (Phase::Setup | Phase::Pie, _) if action == pass + 1 => Some(Move::Swap),
            (Phase::Setup | Phase::Pie, _) => {
                id_square(action, size).map(|square| self.position.next_placement(square))
            }
            (Phase::Play, Stage::Start | Stage::Destination { .. }) => None,
            (Phase::Play, Stage::Target { moved }) => {
                let target = id_square(action, size)?;
                Some(match moved {
                    None => Move::Stone(target),
                    Some((origin, destination)) => Move::Shot {
                        origin,
                        destination,
                        target,
                    },
                })
            }
        }
    }

    fn finish(&mut self, m: Move) {
        let was_play = self.position.phase() == Phase::Play;
        self.position.play_unchecked(m);
        self.stage = Stage::Start;
        // A play turn's claims leave every unclaimed shooter free; the setup
        // stone that starts play needs a look (`shooters_block` can trap).
        self.all_free = was_play || all_free(&self.position);
    }

    /// The actions that play `m` from the start of the current turn, in order.
    pub fn actions_of(&self, m: Move) -> Vec<Action> {
        let size = self.size();
        let pass = (size * size) as Action;
        match m {
            Move::Swap => vec![pass + 1],
            // In play a stone is a shot without a move: PASS comes first.
            Move::Stone(target) if self.position.phase() == Phase::Play => {
                vec![pass, square_id(target, size)]
            }
            Move::Shooter(target) | Move::Stone(target) => vec![square_id(target, size)],
            Move::Shot {
                origin,
                destination,
                target,
            } => vec![
                square_id(origin, size),
                square_id(destination, size),
                square_id(target, size),
            ],
        }
    }
}

impl ActionSet for Actions {
    #[inline]
    fn len(&self) -> u32 {
        Actions::len(self)
    }

    #[inline(always)]
    fn nth(&self, k: u32) -> Option<Action> {
        Actions::nth(self, k)
    }

    #[inline]
    fn contains(&self, action: Action) -> bool {
        Actions::contains(self, action)
    }

    #[inline]
    fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        Actions::iter(self)
    }
}

impl Game for DecisionState {
    type Actions = Actions;

    /// `sqrt(2)` is the constant of the UCB1 regret bound; with rewards that
    /// are win rates and a turn split into up to three decisions (each a level
    /// of the tree), a smaller constant spends the iterations deeper on the
    /// promising moves. On the 7x7 and 10x10 games, matches between values
    /// from 0.3 to 1.4 favoured 0.7 (`docs/bots.md` gives the measurements).
    const EXPLORATION: f64 = 0.7;

    fn num_actions(&self) -> usize {
        let size = self.size() as usize;
        size * size + 2
    }

    #[inline(always)]
    fn legal_actions(&self) -> Actions {
        DecisionState::legal_actions(self)
    }

    #[inline]
    fn apply(&mut self, action: Action) {
        self.apply_unchecked(action);
    }

    #[inline]
    fn seat_to_act(&self) -> usize {
        DecisionState::seat_to_act(self)
    }

    #[inline]
    fn winner(&self) -> Option<usize> {
        let winner = self.position.winner()?;
        Some(winner.index() ^ usize::from(self.swapped))
    }

    /// Whole turns at a time, as the micro playouts play them.
    fn play_random(&mut self, rng: &mut Rng, limit: u32) -> u32 {
        super::playout::play_random(self, rng, limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::veletas::{Lines, Rules, SetupRule, Variant};

    /// The number of complete turns below `state`, asserting on the way that
    /// every offered action leads somewhere (no dead ends) and that each
    /// completed turn is the legal move its actions spell.
    fn count_turns(state: &DecisionState, start: &Position) -> usize {
        let actions = state.legal_actions();
        let mut total = 0;
        for action in actions.iter() {
            let mut child = *state;
            child.apply(action).unwrap();
            let below = if child.stage() == Stage::Start {
                1
            } else {
                count_turns(&child, start)
            };
            assert!(
                below > 0,
                "action {action} is a dead end in {}",
                start.fen()
            );
            total += below;
        }
        total
    }

    fn random_positions(rules: Rules, seed: u64) -> Vec<Position> {
        let mut rng = Rng::for_game(seed, 0);
        let mut pos = Position::new(rules);
        let mut seen = vec![pos];
        loop {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return seen;
            }
            pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
            seen.push(pos);
        }
    }

    fn all_rules() -> Vec<Rules> {
        let mut all = Vec::new();
        for variant in [Variant::Small, Variant::Medium, Variant::Standard] {
            for setup_rule in [SetupRule::Perimeter, SetupRule::Spacing] {
                for lines in [Lines::ShootersPass, Lines::ShootersBlock] {
                    let rules = Rules::variant(variant);
                    all.push(
                        Rules::new(rules.size(), rules.shooters(), setup_rule, lines).unwrap(),
                    );
                }
            }
        }
        all
    }

    #[test]
    fn turns_are_exactly_the_legal_moves() {
        for (seed, rules) in all_rules().into_iter().enumerate() {
            for pos in random_positions(rules, seed as u64).into_iter().step_by(3) {
                let state = DecisionState::new(pos);
                assert_eq!(
                    count_turns(&state, &pos),
                    pos.count_legal_moves(),
                    "{}",
                    pos.fen()
                );
                for m in pos.legal_moves().into_iter().step_by(11) {
                    let mut turn = state;
                    for action in turn.actions_of(m) {
                        turn.apply(action).unwrap();
                    }
                    let mut played = pos;
                    played.play_unchecked(m);
                    assert_eq!(turn.position(), &played, "{m} in {}", pos.fen());
                    assert_eq!(turn.stage(), Stage::Start);
                }
            }
        }
    }

    #[test]
    fn actions_walk_in_ascending_id_order() {
        let pos = Position::from_fen(
            "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        let actions = DecisionState::new(pos).legal_actions();
        let ids: Vec<Action> = actions.iter().collect();
        // The shooters on c2, f2 and b4 (rank by rank), then PASS.
        assert_eq!(ids, [7 + 2, 7 + 5, 3 * 7 + 1, 49]);
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        let nth: Vec<Action> = (0..actions.len())
            .map(|k| actions.nth(k).unwrap())
            .collect();
        assert_eq!(nth, ids);
        assert_eq!(actions.nth(actions.len()), None);
    }

    #[test]
    fn the_pie_offers_swap_last_and_swapping_changes_seats() {
        let pos = Position::from_fen(
            "7/7/7/7/2s4/7/x6 w pie 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        let mut state = DecisionState::new(pos);
        assert_eq!(state.seat_to_act(), 1);
        let actions = state.legal_actions();
        assert_eq!(actions.nth(actions.len() - 1), Some(50));
        assert!(!actions.contains(49), "no PASS in the pie");
        state.apply(50).unwrap();
        assert!(state.swapped());
        assert_eq!(state.position().fen(), "7/7/7/7/2s4/7/x6 w setup 3");
        // White to act is now the first player.
        assert_eq!(state.seat_to_act(), 0);
    }

    #[test]
    fn refused_actions_change_nothing() {
        let mut state = DecisionState::new(Position::new(Rules::variant(Variant::Small)));
        let before = state;
        let err = state.apply(0).unwrap_err();
        assert_eq!(err.action, 0);
        assert!(err.to_string().contains("action 0 is not legal"));
        assert_eq!(state, before);
        assert!(state.apply(49).is_err() && state.apply(50).is_err() && state.apply(999).is_err());
        assert_eq!(state, before);
    }
}
