//! Observations for learning: a Meridians decision as float planes seen
//! from the player to act.
//!
//! The planes have shape `(PLANES, N, N)` on the N x N rhombus grid of the
//! size, indexed `[plane, rank, file]`, so that the flattened index of a
//! point in a plane is the point's action id (`rank * N + file`). "Own" and
//! "opponent" are colours: the colour to act and the other one.
//!
//! | plane | content                                                       |
//! |------:|---------------------------------------------------------------|
//! | 0     | own stones                                                    |
//! | 1     | opponent stones                                               |
//! | 2     | the points of the board (the two cut corners are 0)           |
//! | 3     | constant 1 in the opening (the first two turns of each colour) |
//! | 4     | constant 1 for the second stone of the opening                |
//! | 5     | constant 1 in the pie decision                                |
//! | 6     | constant 1 in play                                            |
//! | 7     | constant 1 when Dark is to act                                |
//!
//! Plane 4 marks the opening turn whose stone must have a path to the
//! mover's first stone (the mover has exactly one stone). Distinct positions
//! of one game always give distinct observations; the pie swap flag is left
//! out, since it only maps colours to seats and changes no play, and so are
//! the rule options, fixed for a game.

use super::bitboard::{Bitboard, STRIDE};
use super::color::Color;
use super::decision::{Actions, DecisionState, keep_action, swap_action};
use super::position::Phase;
use super::size::Size;
use crate::planes::{BITS_AS_BYTES, BITS_AS_FLOATS, write_constant_planes};
use crate::vector_env::Observe;

/// The number of planes.
pub const PLANES: usize = 8;

/// Plane indices, in the order of the table in the module docs.
pub mod plane {
    /// Stones of the colour to act.
    pub const OWN_STONES: usize = 0;
    /// Stones of the other colour.
    pub const OPPONENT_STONES: usize = 1;
    /// The points of the board.
    pub const BOARD: usize = 2;
    /// Constant: the opening.
    pub const OPEN: usize = 3;
    /// Constant: the mover places its second stone of the opening.
    pub const SECOND_STONE: usize = 4;
    /// Constant: the pie decision.
    pub const PIE: usize = 5;
    /// Constant: play.
    pub const PLAY: usize = 6;
    /// Constant: Dark is to act.
    pub const DARK_TO_ACT: usize = 7;
}

/// The first plane of constants.
const CONSTANT_PLANES: usize = plane::OPEN;

/// The number of floats of an observation on `size`.
#[inline]
pub const fn observation_len(size: Size) -> usize {
    let n = size.n() as usize;
    PLANES * n * n
}

/// What an observation shows, in a form that is cheap to compare: the
/// stones of each stone plane and the value of each constant plane (the
/// board plane never changes within a game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Planes {
    stones: [Bitboard; 2],
    constants: [bool; PLANES - CONSTANT_PLANES],
}

impl DecisionState {
    /// What the observation of this decision shows.
    #[inline]
    fn planes(&self) -> Planes {
        let pos = self.position();
        let own = pos.turn();
        let phase = pos.phase();
        let open = phase == Phase::Open;
        Planes {
            stones: [pos.stones(own), pos.stones(own.other())],
            constants: [
                open,
                open && pos.stone_count(own) == 1,
                phase == Phase::Pie,
                phase == Phase::Play,
                own == Color::Dark,
            ],
        }
    }

    /// The area of a plane, after checking that `out` holds one observation.
    #[inline]
    fn plane_area(&self, out: &[f32]) -> usize {
        let size = self.size();
        assert_eq!(
            out.len(),
            observation_len(size),
            "an observation of a {size} board"
        );
        let n = size.n() as usize;
        n * n
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
    /// use _veletas::meridians::observation::{observation_len, plane};
    /// use _veletas::meridians::{DecisionState, Position, Size};
    ///
    /// let mut state = DecisionState::new(Position::new(Size::S5_6));
    /// state.apply(2 * 10 + 3).unwrap(); // Light on d3
    /// let mut out = vec![0.0; observation_len(Size::S5_6)];
    /// state.write_observation(&mut out);
    /// let at = |p: usize, id: usize| out[p * 100 + id];
    /// // Dark to act: Light's stone is the opponent's.
    /// assert_eq!(at(plane::OPPONENT_STONES, 2 * 10 + 3), 1.0);
    /// assert_eq!((at(plane::BOARD, 0), at(plane::BOARD, 9)), (1.0, 0.0)); // a1, j1
    /// assert_eq!(at(plane::DARK_TO_ACT, 0), 1.0);
    /// ```
    pub fn write_observation(&self, out: &mut [f32]) {
        let area = self.plane_area(out);
        let size = self.size();
        let planes = self.planes();
        for (index, &stones) in planes.stones.iter().enumerate() {
            write_plane(
                &mut out[index * area..][..area],
                stones,
                size,
                &BITS_AS_FLOATS,
            );
        }
        let board = &mut out[plane::BOARD * area..][..area];
        write_plane(board, size.board(), size, &BITS_AS_FLOATS);
        write_constant_planes(
            &mut out[CONSTANT_PLANES * area..],
            area,
            &planes.constants,
            None,
        );
    }

    /// Turns `out`, which holds the observation of `shown` (a state of the
    /// same size), into the observation of this decision, writing only what
    /// differs.
    ///
    /// A move places one stone and removes a few, and hands the turn over:
    /// the two stone planes trade places and then change at a few points,
    /// which costs far less than writing them anew.
    ///
    /// # Panics
    ///
    /// Panics if `out` has the wrong length.
    ///
    /// # Examples
    ///
    /// ```
    /// use _veletas::meridians::{DecisionState, Position, Size};
    ///
    /// let start = DecisionState::new(Position::new(Size::S6_7));
    /// let mut next = start;
    /// next.apply(17).unwrap(); // Light on f2
    /// let mut out = start.observation();
    /// next.update_observation(&start, &mut out);
    /// assert_eq!(out, next.observation());
    /// ```
    pub fn update_observation(&self, shown: &DecisionState, out: &mut [f32]) {
        let area = self.plane_area(out);
        let (old, new) = (shown.planes(), self.planes());
        if old == new {
            return;
        }
        let [mut own, mut opponent] = old.stones;
        let [new_own, new_opponent] = new.stones;
        let kept = ((own ^ new_own) | (opponent ^ new_opponent)).count();
        let traded = ((opponent ^ new_own) | (own ^ new_opponent)).count();
        if traded < kept {
            let (first, rest) = out.split_at_mut(area);
            first.swap_with_slice(&mut rest[..area]);
            (own, opponent) = (opponent, own);
        }
        let n = self.size().n() as usize;
        set_points(&mut out[..area], new_own, own ^ new_own, n);
        set_points(
            &mut out[area..2 * area],
            new_opponent,
            opponent ^ new_opponent,
            n,
        );
        write_constant_planes(
            &mut out[CONSTANT_PLANES * area..],
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

/// Writes `points` into the rank-major N x N `plane` (1 on its points, 0
/// elsewhere), rank by rank from a table, compiled for each size so that
/// every copy has a fixed length.
#[inline]
fn write_plane<T: Copy>(plane: &mut [T], points: Bitboard, size: Size, table: &[[T; 8]; 256]) {
    match size {
        Size::S5_6 => write_plane_of::<T, 10>(plane, points, table),
        Size::S6_7 => write_plane_of::<T, 12>(plane, points, table),
        Size::S7_8 => write_plane_of::<T, 14>(plane, points, table),
    }
}

/// [`write_plane`] on an N x N grid.
#[inline]
fn write_plane_of<T: Copy, const N: usize>(
    plane: &mut [T],
    points: Bitboard,
    table: &[[T; 8]; 256],
) {
    const FILES: u64 = (1 << STRIDE) - 1;
    for (rank, row) in plane[..N * N].chunks_exact_mut(N).enumerate() {
        // A word holds four ranks of 16 bits.
        let files = (points.0[rank / 4] >> (rank % 4 * STRIDE as usize) & FILES) as usize;
        row[..8].copy_from_slice(&table[files & 0xFF]);
        row[8..].copy_from_slice(&table[files >> 8][..N - 8]);
    }
}

/// Sets the floats of the points of `changed` in the rank-major N x N
/// `plane` to 1 where they are in `points`, else to 0.
#[inline]
fn set_points(plane: &mut [f32], points: Bitboard, changed: Bitboard, n: usize) {
    for point in changed {
        let index = point.index();
        let id = index / STRIDE as usize * n + index % STRIDE as usize;
        plane[id] = f32::from(u8::from(points.contains(point)));
    }
}

/// Writes 1 for every action of `actions` and 0 for every other id into
/// `out`, which has N * N + 2 entries.
///
/// # Panics
///
/// Panics if `out` does not have N * N + 2 entries.
///
/// # Examples
///
/// ```
/// use _veletas::meridians::observation::write_mask;
/// use _veletas::meridians::{DecisionState, Position, Size};
///
/// let state = DecisionState::new(Position::new(Size::S5_6));
/// let mut mask = vec![0; 102];
/// write_mask(&state.legal_actions(), &mut mask);
/// // The 80 points of the board, not the cut corners, swap or keep.
/// assert_eq!(mask.iter().filter(|&&m| m == 1).count(), 80);
/// assert_eq!((mask[0], mask[9], mask[100]), (1, 0, 0));
/// ```
#[inline]
pub fn write_mask(actions: &Actions, out: &mut [i8]) {
    let size = actions.size();
    let n = size.n() as usize;
    assert_eq!(out.len(), n * n + 2, "a mask of a {size} board");
    write_plane(out, actions.points(), size, &BITS_AS_BYTES);
    let pie = i8::from(actions.is_pie());
    out[usize::from(swap_action(size))] = pie;
    out[usize::from(keep_action(size))] = pie;
}

impl Observe for DecisionState {
    #[inline]
    fn observation_shape(&self) -> [usize; 3] {
        let n = self.size().n() as usize;
        [PLANES, n, n]
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

#[cfg(test)]
#[allow(clippy::float_cmp)] // planes hold exactly 0.0 or 1.0
mod tests {
    use super::super::point::Point;
    use super::super::position::Position;
    use super::*;
    use crate::game::{Game, random_action};
    use crate::rng::Rng;
    use std::collections::HashMap;

    /// Every decision of a few random games of `size`, with and without the
    /// pie rule, and every child of every tenth of them.
    fn states(size: Size, seed: u64) -> Vec<DecisionState> {
        let mut all = Vec::new();
        for (index, pie) in [false, true].into_iter().enumerate() {
            let mut rng = Rng::for_game(seed, index as u64);
            let mut state = DecisionState::new(Position::new(size).with_pie(pie));
            while !state.is_terminal() {
                if all.len() % 10 == 0 {
                    for action in state.legal_actions().iter() {
                        let mut child = state;
                        child.apply(action).unwrap();
                        all.push(child);
                    }
                }
                all.push(state);
                state
                    .apply(random_action(&state, &mut rng).unwrap())
                    .unwrap();
            }
            all.push(state);
        }
        all
    }

    #[test]
    fn planes_agree_with_the_stones() {
        for size in Size::ALL {
            let n = size.n() as usize;
            let area = n * n;
            for state in states(size, 3) {
                let pos = state.position();
                let own = pos.turn();
                let out = state.observation();
                for (index, &value) in out.iter().enumerate() {
                    let id = index % area;
                    let point = Point::new((id % n) as u32, (id / n) as u32).unwrap();
                    let expected = match index / area {
                        plane::OWN_STONES => pos.piece_at(point) == Some(own),
                        plane::OPPONENT_STONES => pos.piece_at(point) == Some(own.other()),
                        plane::BOARD => point.is_on(size),
                        plane::OPEN => pos.phase() == Phase::Open,
                        plane::SECOND_STONE => {
                            pos.phase() == Phase::Open && pos.stone_count(own) == 1
                        }
                        plane::PIE => pos.phase() == Phase::Pie,
                        plane::PLAY => pos.phase() == Phase::Play,
                        plane::DARK_TO_ACT => own == Color::Dark,
                        _ => unreachable!(),
                    };
                    assert_eq!(
                        value,
                        f32::from(u8::from(expected)),
                        "{index} in {}",
                        pos.fen()
                    );
                }
            }
        }
    }

    #[test]
    fn the_second_stone_plane_marks_the_turns_that_need_a_path() {
        for pie in [false, true] {
            let mut state = DecisionState::new(Position::new(Size::S6_7).with_pie(pie));
            let mut marked = Vec::new();
            let mut rng = Rng::for_game(1, 0);
            while state.position().phase() != Phase::Play {
                marked.push(state.observation()[plane::SECOND_STONE * 144] == 1.0);
                state
                    .apply(random_action(&state, &mut rng).unwrap())
                    .unwrap();
            }
            // Light's and Dark's first stones, then their second ones (with
            // the pie decision between Dark's first and Light's second).
            let expected: &[bool] = if pie {
                &[false, false, false, true, true]
            } else {
                &[false, false, true, true]
            };
            assert_eq!(marked, expected, "pie={pie}");
        }
    }

    #[test]
    fn updating_an_observation_gives_the_full_observation() {
        // From any shown state to any other, of every size: the stone planes
        // kept in place or traded, whichever changes fewer points.
        for size in Size::ALL {
            let states = states(size, 7);
            let mut rng = Rng::for_game(7, 2);
            let mut shown = states[0];
            let mut out = shown.observation();
            for step in 0..3000 {
                // Mostly the next decision, as in a vector env; now and then a jump.
                let next = if step % 5 == 0 {
                    states[rng.below(states.len() as u64) as usize]
                } else {
                    let mut next = shown;
                    match random_action(&next, &mut rng) {
                        Some(action) => next.apply(action).map(|_| next).unwrap(),
                        None => states[0],
                    }
                };
                next.update_observation(&shown, &mut out);
                assert_eq!(out, next.observation(), "from {shown:?} to {next:?}");
                shown = next;
            }
        }
    }

    #[test]
    fn distinct_positions_have_distinct_observations() {
        for size in [Size::S5_6, Size::S6_7] {
            let mut seen: HashMap<Vec<u32>, Position> = HashMap::new();
            for state in states(size, 5) {
                let key = state.observation().iter().map(|x| x.to_bits()).collect();
                let pos = *state.position();
                if let Some(other) = seen.insert(key, pos) {
                    // The same position under the other pie option, at most.
                    assert_eq!(other.fen(), pos.fen(), "two positions, one observation");
                }
            }
        }
    }

    #[test]
    fn masks_hold_exactly_the_legal_actions() {
        for size in Size::ALL {
            for state in states(size, 9) {
                let actions = state.legal_actions();
                let mut mask = vec![7; state.num_actions()];
                write_mask(&actions, &mut mask);
                for (id, &m) in mask.iter().enumerate() {
                    assert_eq!(m == 1, actions.contains(id as u16), "{id}");
                    assert!(m == 0 || m == 1);
                }
            }
        }
    }

    #[test]
    fn a_vector_env_replays_the_playouts() {
        // Env k, episode e, stepped with its random actions, plays playout
        // game e * n + k: the same draws, over the same ascending ids.
        use crate::playout::play_micro;
        use crate::vector_env::VectorEnv;
        let (n, seed) = (3_usize, 21);
        for pie in [false, true] {
            let start = DecisionState::new(Position::new(Size::S5_6).with_pie(pie));
            let mut env = VectorEnv::new(start, n, seed, true);
            let mut out = env.buffers();
            env.reset(None, None, None, &mut out.outputs());
            let game = |index: u64| {
                let mut state = start;
                let mut actions = Vec::new();
                play_micro(&mut state, &mut Rng::for_game(seed, index), |_, a| {
                    actions.push(a);
                });
                actions
            };
            let mut played = vec![Vec::new(); n];
            let mut actions = vec![0; n];
            while (0..n).any(|k| env.episode(k) < 2) {
                env.random_actions(&mut actions);
                for (k, &action) in actions.iter().enumerate() {
                    played[k].push(u16::try_from(action).unwrap());
                }
                let before: Vec<u64> = (0..n).map(|k| env.episode(k)).collect();
                env.step(&actions, &mut out.outputs()).unwrap();
                for k in 0..n {
                    let obs_len = out.observations.len() / n;
                    let obs = &out.observations[k * obs_len..][..obs_len];
                    assert_eq!(obs, env.state(k).observation());
                    if out.terminated[k] {
                        let index = before[k] * n as u64 + k as u64;
                        assert_eq!(played[k], game(index), "env {k}, game {index}");
                        played[k].clear();
                    }
                }
            }
        }
    }
}
