//! What the exact solver ([`crate::solver`]) needs of Meridians: a compact
//! key of the whole decision state, the same for its images under the
//! board's symmetries in the opening.

use super::bitboard::Bitboard;
use super::bitboard::Direction;
use super::color::Color;
use super::decision::{DecisionState, action_point};
use super::position::Phase;
use super::size::Size;
use super::symmetry;
use crate::game::Action;
use crate::solver::{Solvable, put_first};

/// A decision state as the solver's table files it. The size and the pie
/// rule are not in it: one solver's states share them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Key {
    /// Light's and Dark's stones.
    stones: [[u64; 4]; 2],
    /// The colour to act, the phase and the swap.
    flags: u8,
}

/// The swap's part of a hash: it changes the seats, not the board.
const SWAPPED: u64 = 0x9e37_79b9_7f4a_7c15;

/// A hash of an image's parts.
fn mix(stones: &[[u64; 4]; 2], flags: u8) -> u64 {
    let mut h = u64::from(flags);
    for word in stones.iter().flatten() {
        h = (h ^ word)
            .wrapping_mul(0x2545_f491_4f6c_dd1d)
            .rotate_left(29);
    }
    h ^ h >> 32
}

/// The least of the images of both colours' stones, compared Light's
/// first.
fn least_image(stones: [Bitboard; 2], size: Size) -> [[u64; 4]; 2] {
    (0..symmetry::COUNT)
        .map(|s| stones.map(|set| symmetry::image(set, s, size).0))
        .min()
        .expect("the identity is an image")
}

impl Solvable for DecisionState {
    type Key = Key;

    const SOLVE_AT_EMPTY: u32 = 24;

    #[inline]
    fn empty_cells(&self) -> u32 {
        self.position().empty().count()
    }

    /// The hash: the position's Zobrist hash mixed with the swap, or for an
    /// image, a mix of the image.
    fn key(&self, symmetric: bool) -> (Key, u64) {
        let position = self.position();
        let stones = [position.stones(Color::Light), position.stones(Color::Dark)];
        let flags =
            position.turn() as u8 | (position.phase() as u8) << 1 | u8::from(self.swapped()) << 3;
        if symmetric && position.phase() != Phase::Play {
            let stones = least_image(stones, position.size());
            return (Key { stones, flags }, mix(&stones, flags));
        }
        let stones = stones.map(|set| set.0);
        let hash = position.zobrist() ^ if self.swapped() { SWAPPED } else { 0 };
        (Key { stones, flags }, hash)
    }

    /// Placements that cut a path of the opponent's first: between two of
    /// its stones on a line, with only empty points between. A group whose
    /// paths are all cut is removed after the opponent's next placement,
    /// unless that placement saves it.
    fn order_actions(&self, actions: &mut Vec<Action>) {
        let position = self.position();
        if position.phase() != Phase::Play {
            return;
        }
        let theirs = position.stones(position.turn().other());
        let cuts = cutting_points(theirs, position.empty());
        let size = position.size();
        put_first(actions, |a| {
            action_point(a, size).is_some_and(|p| cuts.contains(p))
        });
    }

    /// A placement whose stone can never see a friend (its group left
    /// without a path) is removed at once, with the mover's other dead
    /// groups: next to one dead group, every such placement leads to the
    /// same position. Any other placement keeps its stone, which tells its
    /// position apart, but in the opening, where images under the board's
    /// symmetries share a key.
    #[inline]
    fn may_coincide(&self, child: &DecisionState) -> bool {
        let mover = self.position().turn();
        self.position().phase() != Phase::Play
            || child.position().stone_count(mover) <= self.position().stone_count(mover)
    }

    const RANKS_CHILDREN: bool = true;

    /// The stones the placement lost: a placement that saves a group
    /// first.
    fn child_rank(&self, child: &DecisionState) -> u32 {
        let mover = self.position().turn();
        (self.position().stone_count(mover) + 1).saturating_sub(child.position().stone_count(mover))
    }
}

/// The empty points between two stones of `stones` on a line, with only
/// `empty` points between.
fn cutting_points(stones: Bitboard, empty: Bitboard) -> Bitboard {
    let reach = |dir| stones.fill(dir, empty) - stones;
    (reach(Direction::East) & reach(Direction::West))
        | (reach(Direction::North) & reach(Direction::South))
        | (reach(Direction::NorthEast) & reach(Direction::SouthWest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, random_action};
    use crate::meridians::Position;
    use crate::rng::Rng;

    /// The image of `state` under `s`, built from its parts.
    fn image(state: &DecisionState, s: usize) -> DecisionState {
        let p = state.position();
        let size = p.size();
        let stones = [Color::Light, Color::Dark].map(|c| symmetry::image(p.stones(c), s, size));
        let position = Position::from_parts(size, p.pie(), stones, p.turn(), p.phase());
        DecisionState::with_swapped(position, state.swapped())
    }

    #[test]
    fn children_alike_are_all_marked_and_some_are_alike() {
        // Near the ends of random games: two placements that lead to one
        // position are both marked as possibly alike (the solver compares
        // the marked ones only), and such pairs do occur.
        let mut alike = 0;
        for seed in 0..200 {
            let start = DecisionState::new(Position::new(Size::S5_6).with_pie(seed % 2 == 0));
            let state = crate::game::near_end(&start, seed, 2 + (seed as usize % 6));
            let actions = state.legal_actions();
            let children: Vec<DecisionState> = actions
                .iter()
                .map(|a| {
                    let mut child = state;
                    Game::apply(&mut child, a);
                    child
                })
                .collect();
            for (i, a) in children.iter().enumerate() {
                for b in &children[..i] {
                    if a.key(true) == b.key(true) {
                        alike += 1;
                        assert!(state.may_coincide(a) && state.may_coincide(b), "{seed}");
                    }
                }
            }
        }
        assert!(alike > 0);
    }

    #[test]
    fn images_share_a_key_in_the_opening_only() {
        for pie in [false, true] {
            let mut rng = Rng::for_game(u64::from(pie), 0);
            for game in 0..24 {
                let start = Position::new(Size::S5_6).with_pie(pie);
                let mut state = DecisionState::new(start);
                for _ in 0..=(game % 8) {
                    let Some(action) = random_action(&state, &mut rng) else {
                        break;
                    };
                    Game::apply(&mut state, action);
                }
                let opening = state.position().phase() != Phase::Play;
                for s in 0..symmetry::COUNT {
                    let imaged = image(&state, s);
                    assert_eq!(imaged.legal_actions().len(), state.legal_actions().len());
                    assert_eq!(
                        imaged.key(false) == state.key(false),
                        s == 0 || imaged == state
                    );
                    let same = imaged.key(true) == state.key(true);
                    assert_eq!(same, opening || s == 0 || imaged == state, "{game} {s}");
                    if same {
                        assert_eq!(imaged.key(true).1, state.key(true).1);
                    }
                }
            }
        }
    }
}
