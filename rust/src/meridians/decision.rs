//! Turns as decisions by action id: the encoding that playouts, search and
//! reinforcement learning share.
//!
//! On a board of N ranks there are N * N + 2 action ids: point (c, r) is
//! `r * N + c` (`a1` = 0; the cut corners have ids too, never legal),
//! `swap` is N * N and `keep` N * N + 1. Every turn is one decision.

use core::fmt;

use super::bitboard::{Bitboard, STRIDE};
use super::color::Color;
use super::kernel::Bits;
use super::moves::Move;
use super::point::{GRID, Point};
use super::position::{Phase, Position};
use super::size::Size;

pub use crate::game::Action;
use crate::game::{ActionSet, Game};

/// The action id of `point` on `size`, if the point is on its N x N grid.
#[inline]
pub const fn point_action(point: Point, size: Size) -> Option<Action> {
    let n = size.n();
    if point.file() < n && point.rank() < n {
        Some(ACTION_OF_INDEX[size.index()][point.index()] as Action)
    } else {
        None
    }
}

/// The point of action id `action` on `size`, if it is a point's id.
#[inline(always)]
pub const fn action_point(action: Action, size: Size) -> Option<Point> {
    let n = size.n();
    if (action as u32) < n * n {
        Some(Point::from_index_unchecked(
            INDEX_OF_ACTION[size.index()][action as usize] as u32,
        ))
    } else {
        None
    }
}

/// The id of `swap` on `size`: N * N.
#[inline]
pub const fn swap_action(size: Size) -> Action {
    (size.n() * size.n()) as Action
}

/// The id of `keep` on `size`: N * N + 1.
#[inline]
pub const fn keep_action(size: Size) -> Action {
    swap_action(size) + 1
}

/// `ACTION_OF_INDEX[size][index]`: the id `r * N + c` of the point with
/// bitboard index `index` (a table, since every random action goes
/// through it).
static ACTION_OF_INDEX: [[u8; 256]; 3] = {
    let mut table = [[0; 256]; 3];
    let mut size = 0;
    while size < 3 {
        let n = Size::ALL[size].n();
        let mut index = 0;
        while index < 256 {
            table[size][index as usize] = ((index / STRIDE) * n + index % STRIDE) as u8;
            index += 1;
        }
        size += 1;
    }
    table
};

/// `INDEX_OF_ACTION[size][id]`: the bitboard index of a point's id (a
/// table: dividing by a variable N is slow in the playouts' inner loop).
static INDEX_OF_ACTION: [[u8; (GRID * GRID) as usize]; 3] = {
    let mut table = [[0; (GRID * GRID) as usize]; 3];
    let mut size = 0;
    while size < 3 {
        let n = Size::ALL[size].n();
        let mut id = 0;
        while id < n * n {
            table[size][id as usize] = ((id / n) * STRIDE + id % n) as u8;
            id += 1;
        }
        size += 1;
    }
    table
};

/// The legal actions of a decision: a set of points, or the pie's two.
///
/// Ids ascend with points (both are rank-major), then `swap`, then `keep`:
/// [`Actions::nth`] walks them in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Actions {
    points: Bitboard,
    pie: bool,
    size: Size,
}

impl Actions {
    /// No legal action: the game is over.
    pub const fn none(size: Size) -> Actions {
        Actions {
            points: Bitboard::EMPTY,
            pie: false,
            size,
        }
    }

    /// The points among the actions.
    #[inline]
    pub const fn points(&self) -> Bitboard {
        self.points
    }

    /// Whether the actions are the pie decision's `swap` and `keep`.
    #[inline]
    pub const fn is_pie(&self) -> bool {
        self.pie
    }

    /// The board size, which numbers the ids.
    #[inline]
    pub const fn size(&self) -> Size {
        self.size
    }

    /// How many actions there are.
    #[inline]
    pub const fn len(&self) -> u32 {
        self.points.count() + 2 * self.pie as u32
    }

    /// Whether there is no action at all.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `k`-th action in ascending id order, if `k < len()`.
    #[inline(always)]
    pub fn nth(&self, k: u32) -> Option<Action> {
        if self.pie {
            return match k {
                0 => Some(swap_action(self.size)),
                1 => Some(keep_action(self.size)),
                _ => None,
            };
        }
        let point = self.points.nth(k)?;
        Some(ACTION_OF_INDEX[self.size.index()][point.index()] as Action)
    }

    /// [`Actions::nth`] with the selection of the kernel `kernel`.
    #[inline(always)]
    pub(crate) fn nth_on<K: Bits>(&self, kernel: K, k: u32) -> Option<Action> {
        if self.pie {
            return self.nth(k);
        }
        let point = self.points.nth_on(kernel, k)?;
        Some(ACTION_OF_INDEX[self.size.index()][point.index()] as Action)
    }

    /// Whether `action` is one of them.
    #[inline]
    pub fn contains(&self, action: Action) -> bool {
        match action_point(action, self.size) {
            Some(point) => self.points.contains(point),
            None => self.pie && action <= keep_action(self.size),
        }
    }

    /// The actions in ascending id order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        let size = self.size;
        self.points
            .iter()
            .map(move |point| ACTION_OF_INDEX[size.index()][point.index()] as Action)
            .chain(
                self.pie
                    .then(|| [swap_action(size), keep_action(size)])
                    .into_iter()
                    .flatten(),
            )
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

/// A position and whether the pie `swap` was played, which maps colours to
/// seats: seat 0 is the first player, Light until a swap (and, under the pie
/// rule, the placer of Dark's first stone).
///
/// # Examples
///
/// ```
/// use _veletas::game::Game;
/// use _veletas::meridians::{DecisionState, Move, Position, Size};
///
/// let mut state = DecisionState::new(Position::new(Size::S6_7).with_pie(true));
/// assert_eq!(state.num_actions(), 12 * 12 + 2);
/// let f2 = state.action_of("f2".parse().unwrap()).unwrap();
/// assert_eq!(f2, 12 + 5);
/// state.apply(f2).unwrap();
/// // The first player places Dark's first stone too.
/// assert_eq!(state.seat_to_act(), 0);
/// state.apply(state.action_of("a1".parse().unwrap()).unwrap()).unwrap();
/// // The pie decision: Dark, the second seat, swaps and takes Light.
/// assert_eq!(state.seat_to_act(), 1);
/// let swap = state.action_of(Move::Swap).unwrap();
/// assert_eq!(state.move_of(swap), Some(Move::Swap));
/// state.apply(swap).unwrap();
/// assert_eq!(state.seat_to_act(), 1, "Light to act: the second seat now");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DecisionState {
    position: Position,
    swapped: bool,
}

impl DecisionState {
    /// The decision of `position`, before any swap.
    pub fn new(position: Position) -> DecisionState {
        DecisionState::with_swapped(position, false)
    }

    /// The decision of `position`, where `swapped` says whether the pie
    /// swap was played on the way to it.
    pub const fn with_swapped(position: Position, swapped: bool) -> DecisionState {
        DecisionState { position, swapped }
    }

    /// The position.
    #[inline]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// Whether the pie swap was played.
    #[inline]
    pub const fn swapped(&self) -> bool {
        self.swapped
    }

    /// The board size.
    #[inline]
    pub fn size(&self) -> Size {
        self.position.size()
    }

    /// The seat to act: 0 for the first player, 1 for the second.
    ///
    /// The seat that holds the colour to act, but for Dark's first stone
    /// under the pie rule, which the first player places (MERIDIANS.md
    /// section 5) before the second chooses a colour.
    #[inline]
    pub fn seat_to_act(&self) -> usize {
        let pos = &self.position;
        let turn = pos.turn();
        if pos.pie()
            && turn == Color::Dark
            && pos.phase() == Phase::Open
            && pos.stones(Color::Dark).is_empty()
        {
            return 0;
        }
        turn.index() ^ usize::from(self.swapped)
    }

    /// The winning seat, once there is one.
    #[inline]
    pub fn winner(&self) -> Option<usize> {
        let winner = self.position.winner()?;
        Some(winner.index() ^ usize::from(self.swapped))
    }

    /// The legal actions; none once the game is over.
    #[inline]
    pub fn legal_actions(&self) -> Actions {
        let pie = self.position.phase() == Phase::Pie;
        Actions {
            points: self.position.legal_placements(),
            pie,
            size: self.size(),
        }
    }

    /// Takes `action` if it is legal and returns the points it removed;
    /// otherwise changes nothing.
    pub fn apply(&mut self, action: Action) -> Result<Bitboard, IllegalAction> {
        let actions = self.legal_actions();
        if !actions.contains(action) {
            return Err(IllegalAction {
                action,
                legal: actions.iter().collect(),
            });
        }
        Ok(self.apply_unchecked(action))
    }

    /// Takes `action`, which must be legal (as from
    /// [`DecisionState::legal_actions`]), and returns the points it removed.
    #[inline]
    pub fn apply_unchecked(&mut self, action: Action) -> Bitboard {
        let m = self.take_move(action);
        self.position.play_unchecked(m)
    }

    /// The move of the legal `action`, the swap recorded.
    #[inline(always)]
    fn take_move(&mut self, action: Action) -> Move {
        match action_point(action, self.size()) {
            Some(point) => Move::Place(point),
            None if action == swap_action(self.size()) => {
                self.swapped = true;
                Move::Swap
            }
            None => Move::Keep,
        }
    }

    /// [`DecisionState::apply_unchecked`] on the kernel `k`, for a caller
    /// compiled for it; without `HASH`, the position's hash is left behind
    /// until [`DecisionState::rehash`].
    #[inline(always)]
    pub(crate) fn apply_unchecked_on<K: Bits, const HASH: bool>(
        &mut self,
        k: K,
        action: Action,
    ) -> Bitboard {
        let m = self.take_move(action);
        self.position.play_unchecked_on::<K, HASH>(k, m)
    }

    /// Puts the position's hash right after actions applied without it.
    pub(crate) fn rehash(&mut self) {
        self.position.rehash();
    }

    /// The move of `action` on this board, if it is an id of it (legal or
    /// not).
    pub fn move_of(&self, action: Action) -> Option<Move> {
        let size = self.size();
        match action_point(action, size) {
            Some(point) => Some(Move::Place(point)),
            None if action == swap_action(size) => Some(Move::Swap),
            None if action == keep_action(size) => Some(Move::Keep),
            None => None,
        }
    }

    /// The action id of `m` on this board; `None` for a point off its N x N
    /// grid.
    pub fn action_of(&self, m: Move) -> Option<Action> {
        let size = self.size();
        match m {
            Move::Place(point) => point_action(point, size),
            Move::Swap => Some(swap_action(size)),
            Move::Keep => Some(keep_action(size)),
        }
    }
}

impl Game for DecisionState {
    type Actions = Actions;

    /// The UCB1 constant `sqrt(2)` rounded: a turn is one decision, so the
    /// tree is no deeper than the game, and a Meridians position offers
    /// 50 to 100 placements, which the search must sample broadly.
    const EXPLORATION: f64 = 1.4;

    fn num_actions(&self) -> usize {
        let n = self.size().n() as usize;
        n * n + 2
    }

    #[inline]
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
        DecisionState::winner(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::{Batch, play_micro};
    use crate::rng::Rng;

    #[test]
    fn ids_and_points_round_trip() {
        for size in Size::ALL {
            let n = size.n();
            let state = DecisionState::new(Position::new(size));
            for id in 0..(n * n) as Action {
                let m = state.move_of(id).unwrap();
                assert_eq!(state.action_of(m), Some(id));
                let point = m.point().unwrap();
                assert_eq!(point.rank() * n + point.file(), u32::from(id));
            }
            assert_eq!(state.move_of(swap_action(size)), Some(Move::Swap));
            assert_eq!(state.move_of(keep_action(size)), Some(Move::Keep));
            assert_eq!(state.move_of(keep_action(size) + 1), None);
            if let Some(outside) = Point::new(n, 0) {
                assert_eq!(state.action_of(Move::Place(outside)), None);
            }
        }
    }

    #[test]
    fn actions_walk_in_ascending_id_order() {
        let mut rng = Rng::for_game(5, 0);
        for size in Size::ALL {
            let mut state = DecisionState::new(Position::new(size).with_pie(true));
            while !state.is_terminal() {
                let actions = state.legal_actions();
                let ids: Vec<Action> = actions.iter().collect();
                assert!(ids.windows(2).all(|w| w[0] < w[1]));
                assert_eq!(ids.len(), actions.len() as usize);
                let nth: Vec<Action> = (0..actions.len())
                    .map(|k| actions.nth(k).unwrap())
                    .collect();
                assert_eq!(nth, ids);
                assert_eq!(actions.nth(actions.len()), None);
                for id in 0..state.num_actions() as Action + 3 {
                    assert_eq!(actions.contains(id), ids.contains(&id), "{id}");
                }
                // The moves of the actions are the legal moves, in order.
                let moves: Vec<Move> = ids.iter().map(|&id| state.move_of(id).unwrap()).collect();
                assert_eq!(moves, state.position().legal_moves());
                let action = ids[rng.below(ids.len() as u64) as usize];
                state.apply(action).unwrap();
            }
        }
    }

    #[test]
    fn refused_actions_change_nothing() {
        let mut state = DecisionState::new(Position::new(Size::S6_7));
        state.apply(0).unwrap();
        let before = state;
        let err = state.apply(0).unwrap_err();
        assert!(err.to_string().starts_with("action 0 is not legal here"));
        assert_eq!(state, before);
        // h1 has an id, but is a cut corner of the 6-7 board.
        assert!(state.apply(7).is_err());
        assert!(state.apply(swap_action(Size::S6_7)).is_err());
        assert!(state.apply(999).is_err());
        assert_eq!(state, before);
    }

    #[test]
    fn the_first_player_places_both_stones_before_the_pie() {
        for pie in [false, true] {
            let mut state = DecisionState::new(Position::new(Size::S5_6).with_pie(pie));
            let mut seats = Vec::new();
            for point in ["d3", "h8"] {
                seats.push(state.seat_to_act());
                state
                    .apply(state.action_of(point.parse().unwrap()).unwrap())
                    .unwrap();
            }
            seats.push(state.seat_to_act());
            // Without the pie rule the second player places Dark's stone and
            // then Light places its second; with it, the second player decides.
            assert_eq!(seats, if pie { [0, 0, 1] } else { [0, 1, 0] }, "pie={pie}");
        }
    }

    #[test]
    fn seats_follow_the_swap() {
        let pie = Position::from_fen("7/8/9/10/11/12/12/11/10/9/5x2/o6 d pie", true).unwrap();
        for (action, swapped, light_seat) in [(144, true, 1), (145, false, 0)] {
            let mut state = DecisionState::new(pie);
            assert_eq!(state.seat_to_act(), 1);
            state.apply(action).unwrap();
            assert_eq!(state.swapped(), swapped);
            assert_eq!(state.position().turn(), Color::Light);
            assert_eq!(state.seat_to_act(), light_seat);
        }
    }

    #[test]
    fn random_games_end_with_a_winner() {
        for size in Size::ALL {
            for pie in [false, true] {
                let start = DecisionState::new(Position::new(size).with_pie(pie));
                let games = Batch::new(u64::from(pie), 1000)
                    .run(std::num::NonZeroUsize::new(1), |rng| {
                        let mut state = start;
                        let mut stones = 0;
                        let decisions = play_micro(&mut state, rng, |state, action| {
                            let pos = state.position();
                            assert!(state.legal_actions().contains(action));
                            assert!(pos.is_legal(state.move_of(action).unwrap()));
                            let total =
                                pos.stone_count(Color::Light) + pos.stone_count(Color::Dark);
                            // Stones come one at a time and go only by removals.
                            assert!(total <= stones + 1 || pos.phase() == Phase::Play);
                            assert!(total <= size.points());
                            stones = total;
                        });
                        let winner = state.winner().expect("a finished game has a winner");
                        let pos = state.position();
                        assert_eq!(pos.phase(), Phase::Play);
                        assert!(state.legal_actions().is_empty());
                        let loser = pos.winner().unwrap().other();
                        assert!(
                            pos.stone_count(loser) == 0 || pos.turn() == loser,
                            "{}",
                            pos.fen()
                        );
                        (winner, decisions)
                    })
                    .unwrap();
                assert!(games.iter().all(|&(_, decisions)| decisions >= 5));
                let first_wins = games.iter().filter(|&&(seat, _)| seat == 0).count();
                assert!(
                    (100..900).contains(&first_wins),
                    "{size} pie={pie}: {first_wins}"
                );
            }
        }
    }

    /// The same games for the same seed on every kernel the CPU can run,
    /// chosen as the package chooses one (`cpu::set_kernel`).
    #[test]
    fn every_backend_plays_the_same_stream() {
        use crate::cpu::{Kernel, set_kernel};
        let mut streams = Vec::new();
        for kernel in Kernel::supported() {
            set_kernel(Some(kernel)).unwrap();
            let mut games = Vec::new();
            for size in Size::ALL {
                let start = DecisionState::new(Position::new(size).with_pie(true));
                games.push(
                    Batch::new(5, 60)
                        .run(std::num::NonZeroUsize::new(1), |rng| {
                            let mut state = start;
                            let mut actions = Vec::new();
                            play_micro(&mut state, rng, |_, action| actions.push(action));
                            (state.winner(), actions, state.position().fen())
                        })
                        .unwrap(),
                );
            }
            streams.push((kernel, games));
        }
        set_kernel(None).unwrap();
        let (first, expected) = &streams[0];
        for (kernel, games) in &streams[1..] {
            assert!(games == expected, "{kernel} plays other games than {first}");
        }
        assert!(streams.len() == Kernel::supported().len());
    }
}
