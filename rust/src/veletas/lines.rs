//! Lines from a square in the 8 queen directions, and neighbourhoods, from
//! tables built at compile time.

use super::bitboard::Bitboard;
use super::square::{MAX_SIZE, STRIDE, Square};

/// Bit offsets of the four directions that go up the bit order
/// (north-west, north, north-east, east) ...
const UP: [i32; 4] = [STRIDE as i32 - 1, STRIDE as i32, STRIDE as i32 + 1, 1];
/// ... and of the four that go down (south-east, south, south-west, west).
const DOWN: [i32; 4] = [
    -(STRIDE as i32) + 1,
    -(STRIDE as i32),
    -(STRIDE as i32) - 1,
    -1,
];

/// Table rows: one per bit index, plus unused rows up to 127 that stay empty.
pub(super) const ROWS: usize = 128;

/// The squares from `index` (excluded) to the edge of the 10x10 grid in the
/// direction of `step`, or nothing for an index that is not a square.
const fn ray(index: u32, step: i32) -> u128 {
    if index >= MAX_SIZE * STRIDE || index % STRIDE >= MAX_SIZE {
        return 0;
    }
    let (dfile, drank) = match step {
        1 => (1, 0),
        -1 => (-1, 0),
        s if s == STRIDE as i32 => (0, 1),
        s if s == -(STRIDE as i32) => (0, -1),
        s if s == STRIDE as i32 + 1 => (1, 1),
        s if s == STRIDE as i32 - 1 => (-1, 1),
        s if s == -(STRIDE as i32) + 1 => (1, -1),
        _ => (-1, -1),
    };
    let mut file = (index % STRIDE) as i32 + dfile;
    let mut rank = (index / STRIDE) as i32 + drank;
    let mut bits = 0;
    while file >= 0 && file < MAX_SIZE as i32 && rank >= 0 && rank < MAX_SIZE as i32 {
        bits |= 1 << (rank * STRIDE as i32 + file);
        file += dfile;
        rank += drank;
    }
    bits
}

const fn ray_table(steps: [i32; 4]) -> [[u128; 4]; ROWS] {
    let mut table = [[0; 4]; ROWS];
    let mut index = 0;
    while index < ROWS {
        let mut dir = 0;
        while dir < 4 {
            table[index][dir] = ray(index as u32, steps[dir]);
            dir += 1;
        }
        index += 1;
    }
    table
}

pub(super) static RAYS_UP: [[u128; 4]; ROWS] = ray_table(UP);
pub(super) static RAYS_DOWN: [[u128; 4]; ROWS] = ray_table(DOWN);

static NEIGHBOURS: [Bitboard; ROWS] = {
    let mut table = [Bitboard::EMPTY; ROWS];
    let mut index = 0;
    while index < ROWS {
        let mut dir = 0;
        while dir < 4 {
            let up = ray(index as u32, UP[dir]);
            let down = ray(index as u32, DOWN[dir]);
            // The nearest square of each ray is its lowest (up) or highest (down) bit.
            table[index].0 |= up & up.wrapping_neg();
            if down != 0 {
                table[index].0 |= 1 << down.ilog2();
            }
            dir += 1;
        }
        index += 1;
    }
    table
};

/// The squares along the 8 lines from `from`, each line ending at its first
/// square in `blockers` (that square included) or at the edge of the 10x10
/// grid. `from` itself is not included.
///
/// A ray at a time, word by word: the squares of a ray up to its first
/// blocker are those up to the lowest blocker on it (`hit ^ (hit - 1)`,
/// in the low word, or in the high word past a low word without one), and
/// those of a ray down from its highest blocker (`ilog2`, in the high word,
/// or in the low word below a high word without one). The rays down from a
/// square below bit 64 lie in the low word, and the rays up from the others
/// in the high word: their other word is a constant zero there, its work
/// left out. (On the `u128`, with the obstruction difference of each line,
/// a micro playout on the portable kernel took 7% more instructions, a
/// uniform one 5%: docs/architecture.md.)
///
/// # Examples
///
/// ```
/// use _veletas::veletas::{Bitboard, Square, lines};
///
/// let a1: Square = "a1".parse().unwrap();
/// let blockers = Bitboard::from("a3".parse::<Square>().unwrap());
/// let seen = lines::lines(a1, blockers);
/// assert!(seen.contains("a2".parse().unwrap()) && seen.contains("a3".parse().unwrap()));
/// assert!(!seen.contains("a4".parse().unwrap()));
/// assert_eq!(seen.count(), 2 + 9 + 9);
/// ```
#[inline(always)]
pub fn lines(from: Square, blockers: Bitboard) -> Bitboard {
    let up = &RAYS_UP[from.index()];
    let down = &RAYS_DOWN[from.index()];
    let blockers = words(blockers.0);
    let (mut low, mut high) = (0, 0);
    let mut add = |(seen_low, seen_high): (u64, u64)| {
        low |= seen_low;
        high |= seen_high;
    };
    if from.index() < 64 {
        for dir in 0..4 {
            add(up_to_blocker(words(up[dir]), blockers));
            add(down_to_blocker((down[dir] as u64, 0), blockers));
        }
    } else {
        for dir in 0..4 {
            add(up_to_blocker((0, (up[dir] >> 64) as u64), blockers));
            add(down_to_blocker(words(down[dir]), blockers));
        }
    }
    Bitboard(u128::from(high) << 64 | u128::from(low))
}

/// A set's low and high words.
#[inline(always)]
const fn words(set: u128) -> (u64, u64) {
    (set as u64, (set >> 64) as u64)
}

/// The squares of `ray`, a ray up (low and high words), up to its first
/// square in `blockers` (included), or all of them.
#[inline(always)]
fn up_to_blocker((ray_low, ray_high): (u64, u64), (low, high): (u64, u64)) -> (u64, u64) {
    let hit = ray_low & low;
    if hit != 0 {
        ((hit ^ (hit - 1)) & ray_low, 0)
    } else {
        let hit = ray_high & high;
        (ray_low, (hit ^ hit.wrapping_sub(1)) & ray_high)
    }
}

/// The squares of `ray`, a ray down, down to its first square in
/// `blockers` (included), or all of them.
#[inline(always)]
fn down_to_blocker((ray_low, ray_high): (u64, u64), (low, high): (u64, u64)) -> (u64, u64) {
    let hit = ray_high & high;
    if hit != 0 {
        (0, ray_high & u64::MAX << hit.ilog2())
    } else {
        // Bit 0 stands in for "no blocker below".
        (ray_low & u64::MAX << (ray_low & low | 1).ilog2(), ray_high)
    }
}

/// [`lines`] of every square of `from` together: the squares along their 8
/// lines, each line ending at its first square in `blockers` (that
/// included) or at the edge of the 10x10 grid.
///
/// All squares at once, a direction at a time, by occluded fills
/// (Kogge-Stone: four doubling steps reach the 9 squares of the longest
/// ray), where a square at a time took one [`lines`] each. A step off the
/// grid lands on a padding bit or beyond the grid's bits, neither open nor
/// kept.
///
/// # Examples
///
/// ```
/// use _veletas::veletas::{Bitboard, Square, lines};
///
/// let square = |name: &str| name.parse::<Square>().unwrap();
/// let from = Bitboard::from(square("a1")) | Bitboard::from(square("e5"));
/// let blockers = Bitboard::from(square("a3"));
/// let seen = lines::lines(square("a1"), blockers) | lines::lines(square("e5"), blockers);
/// assert_eq!(lines::lines_of_all(from, blockers), seen);
/// ```
#[inline(always)]
pub fn lines_of_all(from: Bitboard, blockers: Bitboard) -> Bitboard {
    let open = Bitboard::FULL.0 & !blockers.0;
    let mut seen = 0;
    for step in [1, STRIDE - 1, STRIDE, STRIDE + 1] {
        seen |= fill_up(from.0, open, step) << step;
        seen |= fill_down(from.0, open, step) >> step;
    }
    Bitboard(seen & Bitboard::FULL.0)
}

/// `reached` with every square reached from it by steps of `step` bits up
/// through `open` squares.
#[inline(always)]
fn fill_up(mut reached: u128, mut open: u128, step: u32) -> u128 {
    reached |= open & reached << step;
    open &= open << step;
    reached |= open & reached << (2 * step);
    open &= open << (2 * step);
    reached |= open & reached << (4 * step);
    open &= open << (4 * step);
    reached | open & reached << (8 * step)
}

/// [`fill_up`] by steps down.
#[inline(always)]
fn fill_down(mut reached: u128, mut open: u128, step: u32) -> u128 {
    reached |= open & reached >> step;
    open &= open >> step;
    reached |= open & reached >> (2 * step);
    open &= open >> (2 * step);
    reached |= open & reached >> (4 * step);
    open &= open >> (4 * step);
    reached | open & reached >> (8 * step)
}

/// The squares of the 4 lines of each square: `RAYS_UP | RAYS_DOWN` by
/// direction.
static LINES: [[u128; 4]; ROWS] = {
    let mut table = [[0; 4]; ROWS];
    let mut index = 0;
    while index < ROWS {
        let mut dir = 0;
        while dir < 4 {
            table[index][dir] = ray(index as u32, UP[dir]) | ray(index as u32, DOWN[dir]);
            dir += 1;
        }
        index += 1;
    }
    table
};

/// [`lines`], one direction at a time: `[up, down]`, where `up[i]` and
/// `down[i]` run in opposite directions from `from`.
#[inline]
pub fn lines_by_direction(from: Square, blockers: Bitboard) -> [[Bitboard; 4]; 2] {
    let up = &RAYS_UP[from.index()];
    let down = &RAYS_DOWN[from.index()];
    let mut seen = [[Bitboard::EMPTY; 4]; 2];
    for dir in 0..4 {
        let ray = up[dir];
        let first = ((ray & blockers.0) | 1 << 127).trailing_zeros() as usize;
        seen[0][dir] = Bitboard(ray ^ RAYS_UP[first][dir]);
        let ray = down[dir];
        let first = ((ray & blockers.0) | 1).ilog2() as usize;
        seen[1][dir] = Bitboard(ray ^ RAYS_DOWN[first][dir]);
    }
    seen
}

/// The empty squares reachable from `from`: [`lines`] stopped by `blockers`,
/// keeping the squares in `empty`.
#[inline(always)]
pub fn reach(from: Square, blockers: Bitboard, empty: Bitboard) -> Bitboard {
    lines(from, blockers) & empty
}

/// Every square of the 4 lines through `square`, up to the edges of the
/// largest board: what [`lines`] sees without blockers, so a bound of any
/// reach from `square`.
#[inline(always)]
pub fn star(square: Square) -> Bitboard {
    STARS[square.index()]
}

/// [`star`] of each square: its [`LINES`] together.
static STARS: [Bitboard; ROWS] = {
    let mut table = [Bitboard::EMPTY; ROWS];
    let mut index = 0;
    while index < ROWS {
        let line = &LINES[index];
        table[index] = Bitboard(line[0] | line[1] | line[2] | line[3]);
        index += 1;
    }
    table
};

/// The (up to 8) squares adjacent to `square`, orthogonally or diagonally.
#[inline]
pub fn neighbours(square: Square) -> Bitboard {
    NEIGHBOURS[square.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// Walks the lines square by square, as the rules describe them.
    fn naive_lines(from: Square, blockers: Bitboard) -> Bitboard {
        let mut seen = Bitboard::EMPTY;
        for (df, dr) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let (mut file, mut rank) = (from.file() as i32 + df, from.rank() as i32 + dr);
            while (0..10).contains(&file) && (0..10).contains(&rank) {
                let square = Square::new(file as u32, rank as u32).unwrap();
                seen.add(square);
                if blockers.contains(square) {
                    break;
                }
                file += df;
                rank += dr;
            }
        }
        seen
    }

    #[test]
    fn lines_match_a_walk() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let blockers =
                Bitboard(u128::from(state) * u128::from(state.rotate_left(29))) & Bitboard::FULL;
            let from = Square::from_number((state % 100) as u32).unwrap();
            assert_eq!(
                lines(from, blockers),
                naive_lines(from, blockers),
                "{from}\n{blockers}"
            );
        }
        for from in Bitboard::FULL {
            assert_eq!(
                lines(from, Bitboard::EMPTY),
                naive_lines(from, Bitboard::EMPTY)
            );
            assert_eq!(star(from), naive_lines(from, Bitboard::EMPTY));
        }
    }

    #[test]
    fn lines_of_all_are_the_union_of_each_squares_lines() {
        let walk_all = |from: Bitboard, blockers: Bitboard| {
            from.iter().fold(Bitboard::EMPTY, |seen, square| {
                seen | naive_lines(square, blockers)
            })
        };
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..3000 {
            let random = |a: u64, b: u64| Bitboard(u128::from(a) << 64 | u128::from(b));
            let blockers = random(next(), next()) & random(next(), next()) & Bitboard::FULL;
            // From a few squares to many, inside the blockers or not (a
            // shooter ends lines under some rules).
            let mut from = random(next(), next()) & Bitboard::FULL;
            for _ in 0..round % 5 {
                from &= random(next(), next());
            }
            assert_eq!(
                lines_of_all(from, blockers),
                walk_all(from, blockers),
                "{from}\n{blockers}"
            );
        }
        // Every square alone, on an open board, on a full one, and on the
        // smaller boards, whose squares off the board end lines.
        let smaller = |size: u32| Bitboard::FULL - Bitboard::board(size);
        for blockers in [
            Bitboard::EMPTY,
            Bitboard::FULL,
            smaller(9),
            smaller(7),
            smaller(5),
        ] {
            for square in Bitboard::FULL {
                let from = Bitboard::from(square);
                assert_eq!(
                    lines_of_all(from, blockers),
                    walk_all(from, blockers),
                    "{square}"
                );
            }
            assert_eq!(
                lines_of_all(Bitboard::FULL, blockers),
                walk_all(Bitboard::FULL, blockers)
            );
        }
        assert_eq!(
            lines_of_all(Bitboard::EMPTY, Bitboard::EMPTY),
            Bitboard::EMPTY
        );
    }

    #[test]
    fn lines_by_direction_split_the_lines() {
        let blockers: Bitboard = ["c3", "e7", "h4"].into_iter().map(sq).collect();
        for from in Bitboard::FULL {
            let [up, down] = lines_by_direction(from, blockers);
            let all = up.iter().chain(&down).fold(Bitboard::EMPTY, |a, &b| a | b);
            assert_eq!(all, lines(from, blockers), "{from}");
            for dir in 0..4 {
                // Opposite directions: each square of one, seen from one of the
                // other, has `from` on its line in between.
                for (near, far) in [(up[dir], down[dir]), (down[dir], up[dir])] {
                    for square in near {
                        let back = lines(square, Bitboard::EMPTY);
                        assert!(
                            back.contains(from) && (far & back) == far,
                            "{from} {square}"
                        );
                    }
                }
                assert!((up[dir] & down[dir]).is_empty());
            }
        }
    }

    #[test]
    fn neighbourhoods() {
        assert_eq!(neighbours(sq("a1")).count(), 3);
        assert_eq!(neighbours(sq("e1")).count(), 5);
        assert_eq!(neighbours(sq("e5")).count(), 8);
        assert_eq!(neighbours(sq("j10")).count(), 3);
        for square in Bitboard::FULL {
            assert_eq!(
                neighbours(square),
                Bitboard::from(square).king_fill().without(square)
            );
        }
    }

    #[test]
    fn reach_keeps_only_empty_squares() {
        let stones: Bitboard = ["c3", "e5"].into_iter().map(sq).collect();
        let shooter = Bitboard::from(sq("d4"));
        let empty = !(stones | shooter);
        let seen = reach(sq("a1"), stones, empty);
        assert!(seen.contains(sq("b2")) && !seen.contains(sq("c3")) && !seen.contains(sq("d4")));
        // The stone on e5 ends the diagonal from f6 before the shooter on d4.
        let seen = reach(sq("f6"), stones, empty);
        assert!(!seen.contains(sq("e5")) && !seen.contains(sq("c3")) && seen.contains(sq("g7")));
        // The shooter on d4 is not a blocker here: the file line passes over it.
        let seen = reach(sq("d6"), stones, empty);
        assert!(seen.contains(sq("d5")) && !seen.contains(sq("d4")) && seen.contains(sq("d3")));
    }
}
