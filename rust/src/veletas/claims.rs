//! Claims: trapped shooters, orthogonal groups, and who claims (RULES.md section 4).

use core::cmp::Ordering;

use super::bitboard::Bitboard;
use super::color::Color;
use super::kernel;
use super::lines;
use super::square::{STRIDE, Square};

/// Whether the shooter on `square` is trapped: no empty square along its
/// lines. An empty neighbour settles it at once; only a shooter with every
/// neighbour filled needs its lines walked.
#[inline]
pub fn is_trapped(square: Square, blockers: Bitboard, empty: Bitboard) -> bool {
    (lines::neighbours(square) & empty).is_empty()
        && kernel::reach(square, blockers, empty).is_empty()
}

/// `set` with one step in each of the 4 orthogonal directions added.
///
/// Without edge masks: a step east from file `j` or west from file `a` lands
/// on a padding bit (and one north or south of the grid on the bits above
/// it or off the word), which the callers' sets of stones never hold.
#[inline]
const fn step(set: u128) -> u128 {
    set | set << 1 | set >> 1 | set << STRIDE | set >> STRIDE
}

/// The orthogonally connected group of `stones` that contains `seed`.
///
/// # Examples
///
/// ```
/// use _veletas::veletas::{Bitboard, Square, claims};
///
/// let stones: Bitboard = ["a1", "a2", "b2", "c3"].iter().map(|s| s.parse::<Square>().unwrap()).collect();
/// assert_eq!(claims::group("a1".parse().unwrap(), stones).count(), 3);
/// ```
pub fn group(seed: Square, stones: Bitboard) -> Bitboard {
    group_up_to(seed, stones, u32::MAX).expect("no group passes u32::MAX stones")
}

/// [`group`], unless its flood finds more than `limit` stones first: then
/// `None`, the flood stopped there.
#[inline(always)]
fn group_up_to(seed: Square, stones: Bitboard, limit: u32) -> Option<Bitboard> {
    let mut group = (Bitboard::from(seed) & stones).0;
    loop {
        // Two steps a round: half the compares and branches.
        let once = step(group) & stones.0;
        let twice = step(once) & stones.0;
        if twice == once {
            return Some(Bitboard(once));
        }
        group = twice;
        if group.count_ones() > limit {
            return None;
        }
    }
}

/// The size of the biggest group of `stones` that holds a square of
/// `seeds` (a subset of `stones`), 0 for no seed; `None` once a group is
/// found to pass `limit` stones.
#[inline(always)]
fn biggest_group_up_to(mut seeds: Bitboard, stones: Bitboard, limit: u32) -> Option<u32> {
    let mut biggest = 0;
    while let Some(seed) = seeds.first() {
        let group = group_up_to(seed, stones, limit)?;
        biggest = biggest.max(group.count());
        seeds = seeds - group;
    }
    Some(biggest)
}

/// The size of the biggest group of `stones` that holds a square of
/// `seeds` (a subset of `stones`); 0 for no seed.
fn biggest_group(seeds: Bitboard, stones: Bitboard) -> u32 {
    biggest_group_up_to(seeds, stones, u32::MAX).expect("no group passes u32::MAX stones")
}

/// How the size of the biggest group of `stones` that holds a square of
/// `seeds` compares with `size`, the groups flooded only as far as that
/// needs: none when `stones` are fewer than `size`, and none further than
/// past `size`.
fn compare_biggest_group(seeds: Bitboard, stones: Bitboard, size: u32) -> Ordering {
    if stones.count() < size {
        return Ordering::Less;
    }
    biggest_group_up_to(seeds, stones, size).map_or(Ordering::Greater, |biggest| biggest.cmp(&size))
}

/// The size of the biggest group of `stones` orthogonally adjacent to
/// `square`; 0 when none is.
pub fn biggest_adjacent_group(square: Square, stones: Bitboard) -> u32 {
    biggest_group(Bitboard(step(Bitboard::from(square).0)) & stones, stones)
}

/// [`biggest_adjacent_group`] of each square of `squares` at once, by
/// square index (0 for an index of no square of `squares`): each group
/// flooded once, however many of the squares it touches.
pub fn biggest_adjacent_groups(squares: Bitboard, stones: Bitboard) -> [u8; 128] {
    let mut biggest = [0; 128];
    let mut pending = Bitboard(step(squares.0)) & stones;
    while let Some(seed) = pending.first() {
        let group = group(seed, stones);
        #[allow(clippy::cast_possible_truncation)] // at most 100 stones
        let size = group.count() as u8;
        for square in Bitboard(step(group.0)) & squares {
            let entry = &mut biggest[square.index() & 127];
            *entry = (*entry).max(size);
        }
        pending = pending - group;
    }
    biggest
}

/// Who claims the trapped shooter on `square` after `shooter` shot: the owner
/// of the bigger adjacent group, or with none or equal sizes the opponent of
/// `shooter`.
///
/// Never inlined: a claim comes a few times a game, and the playouts' turn
/// loops keep their registers for the turns.
#[inline(never)]
pub fn claimant(square: Square, stones: [Bitboard; 2], shooter: Color) -> Color {
    let next = Bitboard(step(Bitboard::from(square).0));
    let [black, white] = [next & stones[0], next & stones[1]];
    // With stones of one colour only next to it, that colour's group is the
    // bigger one, whatever its size.
    let (black, white) = match (black.any(), white.any()) {
        (false, false) => return shooter.other(),
        (true, false) => return Color::Black,
        (false, true) => return Color::White,
        (true, true) => (black, white),
    };
    // White's groups are flooded only as far as the comparison with
    // Black's biggest needs.
    match compare_biggest_group(white, stones[1], biggest_group(black, stones[0])) {
        Ordering::Less => Color::Black,
        Ordering::Greater => Color::White,
        Ordering::Equal => shooter.other(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> Bitboard {
        names
            .iter()
            .map(|name| name.parse::<Square>().unwrap())
            .collect()
    }

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn groups_are_orthogonal() {
        let stones = set(&["a1", "b2", "b1", "d1", "c2", "j10"]);
        assert_eq!(group(sq("a1"), stones), set(&["a1", "b1", "b2", "c2"]));
        assert_eq!(group(sq("d1"), stones), set(&["d1"]));
        assert_eq!(group(sq("e5"), stones), Bitboard::EMPTY);
        assert_eq!(biggest_adjacent_group(sq("c1"), stones), 4);
        assert_eq!(biggest_adjacent_group(sq("e1"), stones), 1);
        assert_eq!(
            biggest_adjacent_group(sq("e2"), stones),
            0,
            "d1 is only diagonal"
        );
    }

    #[test]
    fn bigger_group_claims_ties_go_to_the_opponent() {
        let black = set(&["a2", "a3"]);
        let white = set(&["b1", "c1"]);
        // Equal groups (2 and 2): the opponent of the shooter claims.
        assert_eq!(
            claimant(sq("a1"), [black, white], Color::White),
            Color::Black
        );
        assert_eq!(
            claimant(sq("a1"), [black, white], Color::Black),
            Color::White
        );
        let white = set(&["b1", "c1", "d1"]);
        assert_eq!(
            claimant(sq("a1"), [black, white], Color::Black),
            Color::White
        );
        let white = set(&["b1"]);
        assert_eq!(
            claimant(sq("a1"), [black, white], Color::White),
            Color::Black
        );
        assert_eq!(
            claimant(sq("e5"), [black, white], Color::White),
            Color::Black
        );
        assert_eq!(
            claimant(sq("e5"), [black, white], Color::Black),
            Color::White
        );
    }

    #[test]
    fn the_claimant_is_the_owner_of_the_bigger_adjacent_group() {
        // Random boards of every density against the sizes of both colours'
        // biggest adjacent groups, flooded in full.
        let mut rng = crate::rng::Rng::for_game(7, 0);
        let board = Bitboard::board(10);
        for round in 0..4000u64 {
            let density = 1 + round % 9;
            let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for sq in board {
                match rng.below(10) {
                    k if k < density / 2 + 1 => black.add(sq),
                    k if k < density => white.add(sq),
                    _ => {}
                }
            }
            let white = white - black;
            let square = board.nth(rng.below(100) as u32).expect("a square");
            let (black, white) = (black.without(square), white.without(square));
            for shooter in [Color::Black, Color::White] {
                let sizes = (
                    biggest_adjacent_group(square, black),
                    biggest_adjacent_group(square, white),
                );
                let expected = match sizes.0.cmp(&sizes.1) {
                    Ordering::Greater => Color::Black,
                    Ordering::Less => Color::White,
                    Ordering::Equal => shooter.other(),
                };
                assert_eq!(
                    claimant(square, [black, white], shooter),
                    expected,
                    "{round}"
                );
            }
        }
    }

    #[test]
    fn the_biggest_adjacent_groups_are_those_of_each_square() {
        let mut rng = crate::rng::Rng::for_game(8, 0);
        let board = Bitboard::board(10);
        for round in 0..2000u64 {
            let density = 1 + round % 9;
            let (mut stones, mut squares) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for sq in board {
                match rng.below(10) {
                    k if k < density => stones.add(sq),
                    9 => squares.add(sq),
                    _ => {}
                }
            }
            let biggest = biggest_adjacent_groups(squares, stones);
            for index in 0..128 {
                let expected = Square::from_index(index)
                    .filter(|&sq| squares.contains(sq))
                    .map_or(0, |sq| biggest_adjacent_group(sq, stones));
                assert_eq!(
                    u32::from(biggest[index as usize]),
                    expected,
                    "{round} {index}"
                );
            }
        }
    }

    #[test]
    fn trapped_needs_every_line_blocked() {
        // A shooter on a1 with stones on a2, b1, b2 is trapped.
        let stones = set(&["a2", "b1", "b2"]);
        let empty = !stones - set(&["a1"]);
        assert!(is_trapped(sq("a1"), stones, empty));
        // With a shooter on b2 instead of a stone, the diagonal passes over it.
        let stones = set(&["a2", "b1"]);
        let empty = !stones - set(&["a1", "b2"]);
        assert!(!is_trapped(sq("a1"), stones, empty));
        // ... unless shooters block.
        assert!(is_trapped(sq("a1"), stones | set(&["b2"]), empty));
    }
}
