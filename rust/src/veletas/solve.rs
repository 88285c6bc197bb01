//! What the exact solver ([`crate::solver`]) needs of Veletas: a compact key
//! of the whole decision state, the same for its images under the board's
//! symmetries in the setup, and an order of the shots.

use super::color::Color;
use super::decision::{DecisionState, Stage, id_square};
use super::position::Phase;
use super::square::Square;
use super::symmetry;
use crate::game::Action;
use crate::solver::{Solvable, put_first};

/// A decision state as the solver's table files it, in 56 bytes, so that
/// an entry of the table (the key and two numbers) fills one cache line.
/// The rules are not in it: one solver's states share them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Key {
    /// The pieces as three bit planes, each a `u128` in two words (see
    /// [`planes`]).
    planes: [u64; 6],
    /// The stage of the turn and its squares ([`stage_code`]), and above
    /// them the side to move, the phase and the swap.
    code: u32,
}

/// The five sets of pieces (Black's and White's stones, the unclaimed
/// shooters, the shooters claimed by Black and by White), disjoint, as
/// three bit planes: a square's piece is numbered 1 to 5 in that order,
/// its number's bits spread over the planes.
fn planes(sets: &[u128; 5]) -> [u64; 6] {
    let [black, white, shooters, claimed_black, claimed_white] = *sets;
    let planes = [
        black | shooters | claimed_white,
        white | shooters,
        claimed_black | claimed_white,
    ];
    std::array::from_fn(|k| (planes[k / 2] >> (64 * (k % 2))) as u64)
}

/// A key's code: the stage's, with the flags above it.
fn code(stage: u32, flags: u8) -> u32 {
    debug_assert!(stage < 1 << 24);
    u32::from(flags) << 24 | stage
}

/// A mix of the parts of a decision state that the position's Zobrist hash
/// lacks: the stage of the turn and the swap.
fn stage_key(state: &DecisionState) -> u64 {
    let part = match state.stage() {
        Stage::Start => 0,
        Stage::Destination { origin } => 1 + origin.index() as u64,
        Stage::Target { moved: None } => 257,
        Stage::Target {
            moved: Some((origin, destination)),
        } => 513 + ((origin.index() as u64) << 8 | destination.index() as u64),
    };
    (part << 1 | u64::from(state.swapped()))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(29)
}

/// The stage of a turn as a number, its squares mapped by `map`.
#[inline]
fn stage_code(stage: Stage, map: impl Fn(Square) -> Square) -> u32 {
    let index = |sq: Square| map(sq).index() as u32;
    match stage {
        Stage::Start => 0,
        Stage::Destination { origin } => 1 << 16 | index(origin),
        Stage::Target { moved: None } => 2 << 16,
        Stage::Target {
            moved: Some((origin, destination)),
        } => 3 << 16 | index(origin) << 8 | index(destination),
    }
}

/// A hash of an image's parts.
fn mix(sets: &[u128; 5], stage: u32, flags: u8) -> u64 {
    let mut h = u64::from(flags) << 32 | u64::from(stage);
    for &set in sets {
        h = (h ^ set as u64 ^ ((set >> 64) as u64).wrapping_mul(0x2545_f491_4f6c_dd1d))
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
    h ^ h >> 32
}

/// The least of the images of a state's sets and stage under the board's
/// symmetries, compared set by set: the first set's images mostly decide it
/// (a position rarely has a symmetry of its own), and the others are then
/// imaged by that symmetry alone.
fn least_image(sets: [u128; 5], stage: Stage, size: u32) -> ([u128; 5], u32) {
    let mut candidates = [true; symmetry::COUNT];
    let mut best = [0u128; 5];
    for (k, &set) in sets.iter().enumerate() {
        let mut alone = candidates.iter().enumerate().filter(|(_, c)| **c);
        if let (Some((s, _)), None) = (alone.next(), alone.next()) {
            best[k] = symmetry::image(set, s, size);
            continue;
        }
        let images = symmetry::images(set, size);
        let least = (0..symmetry::COUNT)
            .filter(|&s| candidates[s])
            .map(|s| images[s])
            .min()
            .expect("a least image of the sets before is a candidate");
        for s in 0..symmetry::COUNT {
            candidates[s] &= images[s] == least;
        }
        best[k] = least;
    }
    let stage = (0..symmetry::COUNT)
        .filter(|&s| candidates[s])
        .map(|s| stage_code(stage, |sq| symmetry::square(sq, s, size)))
        .min()
        .expect("a least image exists");
    (best, stage)
}

/// The five sets of a state's pieces, in the order of [`planes`].
fn sets(state: &DecisionState) -> [u128; 5] {
    let position = state.position();
    [
        position.stones(Color::Black).0,
        position.stones(Color::White).0,
        position.shooters().0,
        position.claimed(Color::Black).0,
        position.claimed(Color::White).0,
    ]
}

impl Solvable for DecisionState {
    type Key = Key;

    /// Every turn adds a stone: no position comes back.
    const MAY_REPEAT: bool = false;

    const SOLVE_AT_EMPTY: u32 = 24;

    #[inline]
    fn empty_cells(&self) -> u32 {
        self.position().empty().count()
    }

    /// The hash: the position's Zobrist hash mixed with the stage and the
    /// swap, or for an image, a mix of the image.
    fn key(&self, symmetric: bool) -> (Key, u64) {
        let position = self.position();
        let sets = sets(self);
        let flags =
            position.turn() as u8 | (position.phase() as u8) << 1 | u8::from(self.swapped()) << 3;
        // In play, a position and its images rarely meet in one search: on
        // endgames of 5x5 to 7x7 the images saved at most 12% of the nodes,
        // sometimes cost more (df-pn takes another path), and took a quarter
        // to a half more time (docs/solve.md). In the setup, on a board with
        // few pieces, they meet all the time.
        let stage = self.stage();
        if symmetric && position.phase() != Phase::Play {
            let (sets, stage) = least_image(sets, stage, self.size());
            let key = Key {
                planes: planes(&sets),
                code: code(stage, flags),
            };
            return (key, mix(&sets, stage, flags));
        }
        let key = Key {
            planes: planes(&sets),
            code: code(stage_code(stage, |sq| sq), flags),
        };
        (key, position.zobrist_hash() ^ stage_key(self))
    }

    /// A turn's destination or target to choose: 8 on boards up to 6x6,
    /// where leaves of the 5x5 openings settle in about half the
    /// positions they take at 1 (4 does as well, 12 and 16 worse), and 1
    /// on bigger ones, whose endgames take more positions with it
    /// (docs/solve.md).
    fn mid_turn_weight(&self) -> u32 {
        if self.size() <= 6 { 8 } else { 1 }
    }

    /// Shots next to an unclaimed shooter first: they are the ones that
    /// can trap it, and a claim is final.
    fn order_actions(&self, actions: &mut Vec<Action>) {
        if !matches!(self.stage(), Stage::Target { .. }) {
            return;
        }
        let near = self.position().shooters().king_fill();
        let size = self.size();
        put_first(actions, |a| {
            id_square(a, size).is_some_and(|sq| near.contains(sq))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, random_action};
    use crate::rng::Rng;
    use crate::veletas::{Bitboard, Lines, Position, Rules, SetupRule};

    /// The image of `state` under `s`, built from its parts.
    fn image(state: &DecisionState, s: usize) -> DecisionState {
        let p = state.position();
        let size = state.size();
        let map = |b: Bitboard| Bitboard(symmetry::image(b.0, s, size));
        let position = Position::from_parts(
            p.rules(),
            [map(p.stones(Color::Black)), map(p.stones(Color::White))],
            map(p.shooters()),
            [map(p.claimed(Color::Black)), map(p.claimed(Color::White))],
            p.turn(),
            p.phase(),
        );
        DecisionState::with_swapped(position, state.swapped())
    }

    #[test]
    fn the_planes_keep_every_piece() {
        // Read back from the planes, the five sets of random positions.
        let rules = Rules::new(10, 7, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
        let mut rng = Rng::for_game(11, 0);
        for _ in 0..20 {
            let mut state = DecisionState::new(Position::new(rules));
            while let Some(action) = random_action(&state, &mut rng) {
                Game::apply(&mut state, action);
                let words = state.key(false).0.planes;
                let plane =
                    |k: usize| u128::from(words[2 * k]) | u128::from(words[2 * k + 1]) << 64;
                let number =
                    |square: u32| (0..3).map(|k| (plane(k) >> square & 1) << k).sum::<u128>();
                let mut read = [0u128; 5];
                for square in 0..128 {
                    match number(square) {
                        0 => {}
                        n @ 1..=5 => read[n as usize - 1] |= 1 << square,
                        n => panic!("no piece is numbered {n}"),
                    }
                }
                assert_eq!(read, sets(&state));
            }
        }
        // An entry of the table, the key and two numbers, is a cache line.
        assert_eq!(std::mem::size_of::<Key>() + 8, 64);
    }

    #[test]
    fn images_share_one_least_image_and_others_differ() {
        let rules = Rules::new(7, 3, SetupRule::Perimeter, Lines::ShootersPass).unwrap();
        let mut rng = Rng::for_game(3, 0);
        let mut keys = std::collections::HashSet::new();
        for game in 0..20 {
            let mut state = DecisionState::new(Position::new(rules));
            for _ in 0..(2 + game * 3) {
                let Some(action) = random_action(&state, &mut rng) else {
                    break;
                };
                Game::apply(&mut state, action);
            }
            // Images of the turn's first decision: built from the position.
            let start = DecisionState::with_swapped(*state.position(), state.swapped());
            let least = least_image(sets(&start), Stage::Start, 7);
            for s in 0..symmetry::COUNT {
                let imaged = image(&start, s);
                assert_eq!(
                    least_image(sets(&imaged), Stage::Start, 7),
                    least,
                    "game {game}, symmetry {s}"
                );
                assert_eq!(imaged.legal_actions().len(), start.legal_actions().len());
                // The key folds the images in the setup only.
                let folded = start.position().phase() != Phase::Play;
                assert_eq!(imaged.key(true) == start.key(true), folded || s == 0);
            }
            keys.insert(least);
        }
        assert_eq!(keys.len(), 20, "different positions, different images");
    }

    #[test]
    fn a_stage_s_squares_are_imaged_with_the_sets() {
        let d4: Square = "d4".parse().unwrap();
        let b2: Square = "b2".parse().unwrap();
        let f6: Square = "f6".parse().unwrap();
        let mut sets = [0u128; 5];
        sets[2] = 1 << d4.index();
        // A shooter on the centre of 7x7 is its own image under every
        // symmetry: the stage's squares decide, and b2 is the least of b2's
        // and f6's images.
        let one = least_image(sets, Stage::Destination { origin: f6 }, 7);
        let other = least_image(sets, Stage::Destination { origin: b2 }, 7);
        assert_eq!(one, other);
        assert_eq!(one.1, 1 << 16 | b2.index() as u32);
    }
}
