//! Observations for learning: a decision state as float planes seen from the
//! player to act.
//!
//! The planes have shape `(PLANES, N, N)`, indexed `[plane, rank, file]`, so
//! that the flattened square index of a plane is the square's action id
//! (`rank * N + file`). "Own" and "opponent" are colours: the colour to act
//! and the other one.
//!
//! | plane | content                                                     |
//! |------:|-------------------------------------------------------------|
//! | 0     | own stones                                                  |
//! | 1     | opponent stones                                             |
//! | 2     | unclaimed shooters                                          |
//! | 3     | own claims (shooters the colour to act has claimed)         |
//! | 4     | opponent claims                                             |
//! | 5     | the chosen shooter's origin (mid-turn)                      |
//! | 6     | the chosen destination (mid-turn)                           |
//! | 7     | constant 1 after `PASS`: a shot without a move is due       |
//! | 8     | constant 1 in setup                                         |
//! | 9     | constant 1 in the pie phase                                 |
//! | 10    | constant 1 in play                                          |
//! | 11    | constant 1 when White is to act                             |
//!
//! Planes 0 to 4 show the position at the start of the turn: a chosen
//! shooter still stands on its origin. Distinct decision states (position
//! plus partial turn) always give distinct observations; the pie swap flag
//! is left out, since it only maps colours to seats and changes no play.

use super::bitboard::Bitboard;
use super::color::Color;
use super::decision::{Actions, DecisionState, Stage};
use super::position::Phase;
use super::square::{MAX_SIZE, STRIDE, Square};
use crate::planes::{BITS_AS_BYTES, BITS_AS_FLOATS, write_constant_planes};
use crate::vector_env::Observe;

/// The number of planes.
pub const PLANES: usize = 12;

/// Plane indices, in the order of the table in the module docs.
pub mod plane {
    /// Stones of the colour to act.
    pub const OWN_STONES: usize = 0;
    /// Stones of the other colour.
    pub const OPPONENT_STONES: usize = 1;
    /// Unclaimed shooters.
    pub const SHOOTERS: usize = 2;
    /// Shooters claimed by the colour to act.
    pub const OWN_CLAIMS: usize = 3;
    /// Shooters claimed by the other colour.
    pub const OPPONENT_CLAIMS: usize = 4;
    /// The origin of the shooter chosen this turn.
    pub const ORIGIN: usize = 5;
    /// The destination chosen this turn.
    pub const DESTINATION: usize = 6;
    /// Constant: `PASS` was chosen this turn.
    pub const PASSED: usize = 7;
    /// Constant: the setup phase.
    pub const SETUP: usize = 8;
    /// Constant: the pie phase.
    pub const PIE: usize = 9;
    /// Constant: play.
    pub const PLAY: usize = 10;
    /// Constant: White is to act.
    pub const WHITE_TO_ACT: usize = 11;
}

/// The number of floats of an observation on an N x N board.
#[inline]
pub const fn observation_len(size: u32) -> usize {
    PLANES * (size * size) as usize
}

/// What an observation shows, in a form that is cheap to compare: the
/// squares of each square plane and the value of each constant plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Planes {
    squares: [Bitboard; SQUARE_PLANES],
    constants: [bool; PLANES - SQUARE_PLANES],
}

/// Planes 0 to 6 mark squares; the others are constant.
const SQUARE_PLANES: usize = plane::PASSED;

impl DecisionState {
    /// What the observation of this decision shows.
    fn planes(&self) -> Planes {
        let pos = self.position();
        let own = pos.turn();
        let opponent = own.other();
        let (origin, destination, passed) = match self.stage() {
            Stage::Start => (None, None, false),
            Stage::Destination { origin } => (Some(origin), None, false),
            Stage::Target { moved: None } => (None, None, true),
            Stage::Target {
                moved: Some((origin, destination)),
            } => (Some(origin), Some(destination), false),
        };
        let one = |square: Option<Square>| square.map_or(Bitboard::EMPTY, Bitboard::from);
        let phase = pos.phase();
        Planes {
            squares: [
                pos.stones(own),
                pos.stones(opponent),
                pos.shooters(),
                pos.claimed(own),
                pos.claimed(opponent),
                one(origin),
                one(destination),
            ],
            constants: [
                passed,
                phase == Phase::Setup,
                phase == Phase::Pie,
                phase == Phase::Play,
                own == Color::White,
            ],
        }
    }

    /// The area of a plane, after checking that `out` holds one observation.
    fn plane_area(&self, out: &[f32]) -> usize {
        let size = self.size() as usize;
        assert_eq!(
            out.len(),
            PLANES * size * size,
            "an observation of a {size}x{size} board"
        );
        size * size
    }

    /// Writes the observation of this decision into `out`, which must hold
    /// exactly [`observation_len`] floats; every float is overwritten.
    ///
    /// # Panics
    ///
    /// Panics if `out` has the wrong length.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::veletas::{DecisionState, Position, Rules, Variant};
    /// use _veletas::veletas::observation::{observation_len, plane};
    ///
    /// let mut state = DecisionState::new(Position::new(Rules::variant(Variant::Small)));
    /// state.apply(2 * 7 + 2).unwrap(); // a shooter on c3
    /// let mut out = vec![0.0; observation_len(7)];
    /// state.write_observation(&mut out);
    /// let at = |p: usize, id: usize| out[p * 49 + id];
    /// assert_eq!(at(plane::SHOOTERS, 2 * 7 + 2), 1.0);
    /// assert_eq!(at(plane::SETUP, 0), 1.0);
    /// assert_eq!(out.iter().sum::<f32>(), 1.0 + 49.0);
    /// ```
    pub fn write_observation(&self, out: &mut [f32]) {
        let area = self.plane_area(out);
        let size = self.size() as usize;
        let planes = self.planes();
        let board = Bitboard::board(self.size());
        // Planes are sliced by index, not by `chunks_exact_mut`, which
        // divides by the plane's area.
        for (index, &squares) in planes.squares.iter().enumerate() {
            let plane = &mut out[index * area..][..area];
            write_ranks(plane, squares, board, size, &BITS_AS_FLOATS);
        }
        write_constant_planes(
            &mut out[SQUARE_PLANES * area..],
            area,
            &planes.constants,
            None,
        );
    }

    /// Turns `out`, which holds the observation of `shown` (a state of the
    /// same rules), into the observation of this decision, writing only the
    /// floats that differ.
    ///
    /// A vector env steps a game one decision at a time, and a decision
    /// changes few squares: rewriting the whole observation would cost more
    /// than the step itself.
    ///
    /// # Panics
    ///
    /// Panics if `out` has the wrong length.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::veletas::{DecisionState, Position, Rules, Variant};
    ///
    /// let start = DecisionState::new(Position::new(Rules::variant(Variant::Small)));
    /// let mut next = start;
    /// next.apply(8).unwrap(); // a shooter on b2
    /// let mut out = start.observation();
    /// next.update_observation(&start, &mut out);
    /// assert_eq!(out, next.observation());
    /// ```
    pub fn update_observation(&self, shown: &DecisionState, out: &mut [f32]) {
        let area = self.plane_area(out);
        let size = self.size() as usize;
        // Every decision changes some plane: no need to compare the whole
        // planes first.
        let (old, new) = (shown.planes(), self.planes());
        // The same loops as a full write but for the ranks and constants
        // compared: folding the two into one costs a vector env 5%.
        let changes = old.squares.iter().zip(&new.squares).enumerate();
        for (index, (&old, &new)) in changes {
            // Most decisions change one or two planes: the others cost a
            // compare, not a call.
            if old != new {
                let plane = &mut out[index * area..][..area];
                write_ranks(plane, new, old ^ new, size, &BITS_AS_FLOATS);
            }
        }
        write_constant_planes(
            &mut out[SQUARE_PLANES * area..],
            area,
            &new.constants,
            Some(&old.constants),
        );
    }

    /// The observation of this decision as a new vector (see
    /// [`DecisionState::write_observation`]).
    pub fn observation(&self) -> Vec<f32> {
        let mut out = vec![0.0; observation_len(self.size())];
        self.write_observation(&mut out);
        out
    }
}

/// Rewrites, in the rank-major N x N `plane`, the ranks from the lowest to
/// the highest that has a square of `ranks`, as `squares` shows them (1 on
/// its squares, 0 elsewhere); the other ranks are left as they are.
///
/// Observations and masks are written at every step of a vector env, so
/// this copies whole ranks from a table rather than going square by square,
/// rewrites the ranks in between rather than branch on each, and is compiled
/// for each board size, so that every copy has a fixed length.
#[inline]
fn write_ranks<T: Copy>(
    plane: &mut [T],
    squares: Bitboard,
    ranks: Bitboard,
    size: usize,
    table: &[[T; 8]; 256],
) {
    match size {
        5 => write_ranks_of::<T, 5>(plane, squares, ranks, table),
        6 => write_ranks_of::<T, 6>(plane, squares, ranks, table),
        7 => write_ranks_of::<T, 7>(plane, squares, ranks, table),
        8 => write_ranks_of::<T, 8>(plane, squares, ranks, table),
        9 => write_ranks_of::<T, 9>(plane, squares, ranks, table),
        10 => write_ranks_of::<T, 10>(plane, squares, ranks, table),
        _ => unreachable!("board sizes run from 5 to 10, not {size}"),
    }
}

/// [`write_ranks`] on an N x N board.
#[inline]
fn write_ranks_of<T: Copy, const N: usize>(
    plane: &mut [T],
    squares: Bitboard,
    ranks: Bitboard,
    table: &[[T; 8]; 256],
) {
    const FILES: u128 = (1 << MAX_SIZE) - 1;
    if ranks == Bitboard::board(N as u32) {
        // Every rank, each at a fixed shift: the loop unrolls.
        let mut bits = squares.0;
        for row in plane[..N * N].chunks_exact_mut(N) {
            write_row::<T, N>(row, (bits & FILES) as usize, table);
            bits >>= STRIDE;
        }
        return;
    }
    if ranks.is_empty() {
        return;
    }
    let first = (ranks.0.trailing_zeros() / STRIDE) as usize;
    let last = (ranks.0.ilog2() / STRIDE) as usize;
    let mut bits = squares.0 >> (first as u32 * STRIDE);
    // Whole rows of a constant length: no bounds check inside the loop.
    for row in plane[first * N..(last + 1) * N].chunks_exact_mut(N) {
        write_row::<T, N>(row, (bits & FILES) as usize, table);
        bits >>= STRIDE;
    }
}

/// Writes the N squares of a rank, `files` (bit `i` for file `i`), into
/// `row`.
#[inline(always)]
fn write_row<T: Copy, const N: usize>(row: &mut [T], files: usize, table: &[[T; 8]; 256]) {
    if N > 8 {
        row[..8].copy_from_slice(&table[files & 0xFF]);
        row[8..].copy_from_slice(&table[files >> 8][..N - 8]);
    } else {
        row.copy_from_slice(&table[files][..N]);
    }
}

impl Observe for DecisionState {
    #[inline]
    fn observation_shape(&self) -> [usize; 3] {
        let size = self.size() as usize;
        [PLANES, size, size]
    }

    #[inline]
    fn write_observation(&self, out: &mut [f32]) {
        DecisionState::write_observation(self, out);
    }

    #[inline]
    fn update_observation(&self, shown: &DecisionState, out: &mut [f32]) {
        DecisionState::update_observation(self, shown, out);
    }

    #[inline]
    fn write_mask(actions: &Actions, out: &mut [i8]) {
        write_mask(actions, out);
    }
}

/// Writes 1 for every action of `actions` and 0 for every other id into
/// `out`, which has N * N + 2 entries.
///
/// # Panics
///
/// Panics if `out` does not have N * N + 2 entries.
#[inline]
pub fn write_mask(actions: &Actions, out: &mut [i8]) {
    let size = actions.size() as usize;
    let area = size * size;
    assert_eq!(out.len(), area + 2, "a mask of a {size}x{size} board");
    let board = Bitboard::board(actions.size());
    write_ranks(out, actions.squares(), board, size, &BITS_AS_BYTES);
    for special in [actions.pass(), actions.swap()] {
        out[usize::from(special)] = i8::from(actions.contains(special));
    }
}

#[cfg(test)]
#[allow(clippy::float_cmp)] // planes hold exactly 0.0 or 1.0
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::veletas::{Lines, Piece, Position, Rules, SetupRule, Variant};
    use std::collections::HashMap;

    /// The square of the float at `index` of an observation (rank-major planes).
    fn index_square(index: usize, size: u32) -> Option<Square> {
        let id = (index % (size * size) as usize) as u32;
        Square::new(id % size, id / size)
    }

    /// Every decision state of a random game, with every partial turn of
    /// every sampled start of turn.
    fn decision_states(rules: Rules, seed: u64) -> Vec<DecisionState> {
        let mut rng = Rng::for_game(seed, 0);
        let mut state = DecisionState::new(Position::new(rules));
        let mut all = Vec::new();
        while !state.is_terminal() {
            if state.stage() == Stage::Start {
                // Every first action, and every second action of a few of them.
                for (k, first) in state.legal_actions().iter().enumerate() {
                    let mut child = state;
                    child.apply(first).unwrap();
                    all.push(child);
                    if k % 4 == 0 && child.stage() != Stage::Start {
                        for second in child.legal_actions().iter().step_by(5) {
                            let mut grandchild = child;
                            grandchild.apply(second).unwrap();
                            all.push(grandchild);
                        }
                    }
                }
            }
            all.push(state);
            let action = crate::game::random_action(&state, &mut rng).unwrap();
            state.apply(action).unwrap();
        }
        all.push(state);
        all
    }

    #[test]
    fn planes_show_the_position_and_the_partial_turn() {
        let pos = Position::from_fen(
            "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
            SetupRule::Perimeter,
            Lines::ShootersPass,
        )
        .unwrap();
        let mut state = DecisionState::new(pos);
        let c2: usize = 7 + 2;
        state.apply(c2 as u16).unwrap();
        state.apply(c2 as u16 + 7).unwrap();
        let out = state.observation();
        let on = |p: usize| -> Vec<usize> {
            (0..49)
                .filter(|&id| out[p * 49 + id] == 1.0)
                .collect::<Vec<_>>()
        };
        assert_eq!(on(plane::OWN_STONES), [5 * 7 + 2]); // black c6
        assert_eq!(on(plane::OPPONENT_STONES), [7]); // white a2
        assert_eq!(on(plane::SHOOTERS), [9, 12, 22]); // c2 f2 b4
        assert_eq!(on(plane::ORIGIN), [c2]);
        assert_eq!(on(plane::DESTINATION), [c2 + 7]);
        assert!(on(plane::PASSED).is_empty());
        assert_eq!(on(plane::PLAY).len(), 49);
        assert!(on(plane::WHITE_TO_ACT).is_empty());
        assert!(out.iter().all(|&x| x == 0.0 || x == 1.0));
    }

    #[test]
    fn planes_agree_with_the_pieces() {
        for variant in [Variant::Small, Variant::Standard] {
            for state in decision_states(Rules::variant(variant), 3) {
                let pos = state.position();
                let size = state.size();
                let area = (size * size) as usize;
                let out = state.observation();
                let own = pos.turn();
                for (index, &value) in out.iter().enumerate() {
                    let square = index_square(index, size).unwrap();
                    let piece = pos.piece_at(square);
                    let expected = match index / area {
                        plane::OWN_STONES => piece == Some(Piece::stone(own)),
                        plane::OPPONENT_STONES => piece == Some(Piece::stone(own.other())),
                        plane::SHOOTERS => piece == Some(Piece::Shooter),
                        plane::OWN_CLAIMS => piece == Some(Piece::claimed(own)),
                        plane::OPPONENT_CLAIMS => piece == Some(Piece::claimed(own.other())),
                        plane::ORIGIN => matches!(
                            state.stage(),
                            Stage::Destination { origin } | Stage::Target { moved: Some((origin, _)) }
                                if origin == square
                        ),
                        plane::DESTINATION => matches!(
                            state.stage(),
                            Stage::Target { moved: Some((_, destination)) } if destination == square
                        ),
                        plane::PASSED => state.stage() == Stage::Target { moved: None },
                        plane::SETUP => pos.phase() == Phase::Setup,
                        plane::PIE => pos.phase() == Phase::Pie,
                        plane::PLAY => pos.phase() == Phase::Play,
                        plane::WHITE_TO_ACT => own == Color::White,
                        _ => unreachable!(),
                    };
                    assert_eq!(value, f32::from(u8::from(expected)), "{index}");
                }
            }
        }
    }

    #[test]
    fn updating_an_observation_gives_the_full_observation() {
        // Every board size (ranks of 5 to 10 files: every split into table
        // copies), from any shown state to any other.
        for size in 5..=MAX_SIZE {
            let rules = Rules::new(size, 3, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
            let states = decision_states(rules, u64::from(size));
            let mut rng = Rng::for_game(size.into(), 1);
            let mut shown = states[0];
            let mut out = shown.observation();
            for _ in 0..2000 {
                let next = states[rng.below(states.len() as u64) as usize];
                next.update_observation(&shown, &mut out);
                assert_eq!(out, next.observation(), "from {shown:?} to {next:?}");
                shown = next;
            }
        }
    }

    #[test]
    fn distinct_decision_states_have_distinct_observations() {
        for (seed, variant) in [Variant::Small, Variant::Medium].into_iter().enumerate() {
            for lines in [Lines::ShootersPass, Lines::ShootersBlock] {
                let rules = Rules::variant(variant)
                    .with_options(SetupRule::Perimeter, lines)
                    .unwrap();
                let mut seen: HashMap<Vec<u32>, (Position, Stage)> = HashMap::new();
                for state in decision_states(rules, seed as u64) {
                    let key = state.observation().iter().map(|x| x.to_bits()).collect();
                    let this = (*state.position(), state.stage());
                    if let Some(other) = seen.insert(key, this) {
                        assert_eq!(other, this, "two decision states, one observation");
                    }
                }
            }
        }
    }
}
