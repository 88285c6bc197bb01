//! The four symmetries of the board, on points and on bitboards: the
//! hexagon's sides alternate A, B, B points, so it keeps the half-turn and
//! the two mirrors through its corners' axes, and every rule of Meridians
//! (neighbours, lines, paths) keeps them too: a position and its images have
//! one value.
//!
//! In the axial coordinates (c, r) of a board of side `N`, the symmetries
//! are: 0 the identity, 1 the mirror `(r, c)`, 2 the half-turn
//! `(N-1-c, N-1-r)`, 3 the other mirror `(N-1-r, N-1-c)`; the board, the
//! points with `0 <= c, r < N` and `|c - r| < B`, is the image of itself
//! under each.

use super::bitboard::{Bitboard, STRIDE, Words, shl, shr};
use super::point::Point;
use super::size::Size;

/// The number of symmetries.
pub const COUNT: usize = 4;

/// The image of `point` under `symmetry` on the board of `size`.
#[inline]
pub fn point(point: Point, symmetry: usize, size: Size) -> Point {
    let (mut file, mut rank) = (point.file(), point.rank());
    if symmetry & 1 != 0 {
        (file, rank) = (rank, file);
    }
    if symmetry & 2 != 0 {
        (file, rank) = (size.n() - 1 - file, size.n() - 1 - rank);
    }
    Point::new(file, rank).expect("a symmetry keeps the grid")
}

/// The points `(r, c)` with bit `k` of r clear and bit `k` of c set: those
/// that trade places with `(r + k, c - k)` in the transpose's level `k`.
const fn transpose_mask(k: u32) -> Words {
    let mut words = [0; 4];
    let mut index = 0;
    while index < 256 {
        let (c, r) = (index % STRIDE, index / STRIDE);
        if r & k == 0 && c & k != 0 {
            words[(index / 64) as usize] |= 1 << (index % 64);
        }
        index += 1;
    }
    words
}

/// The levels of the transpose: the bit of the coordinates each swaps, and
/// its mask.
const LEVELS: [(u32, Words); 4] = [
    (8, transpose_mask(8)),
    (4, transpose_mask(4)),
    (2, transpose_mask(2)),
    (1, transpose_mask(1)),
];

/// The 16 x 16 grid mirrored across its diagonal: `(c, r)` to `(r, c)`,
/// swapping one bit of the file with the rank's at each level.
#[inline]
fn transpose(mut words: Words) -> Words {
    for (k, mask) in LEVELS {
        let shift = k * (STRIDE - 1);
        let moved = shr(words, shift);
        let mut t = [0; 4];
        for i in 0..4 {
            t[i] = (words[i] ^ moved[i]) & mask[i];
        }
        let back = shl(t, shift);
        for i in 0..4 {
            words[i] ^= t[i] ^ back[i];
        }
    }
    words
}

/// The board of side `n` turned by half a turn: `(c, r)` to
/// `(n-1-c, n-1-r)`. Reversing the 256 bits turns the 16 x 16 grid; the
/// board is then its upper corner, moved back to the lower one.
#[inline]
fn half_turn(words: Words, n: u32) -> Words {
    let reversed = [
        words[3].reverse_bits(),
        words[2].reverse_bits(),
        words[1].reverse_bits(),
        words[0].reverse_bits(),
    ];
    shr(reversed, (STRIDE - n) * (STRIDE + 1))
}

/// The image of the points of `set`, on the board of `size`, under
/// `symmetry`.
#[inline]
pub fn image(set: Bitboard, symmetry: usize, size: Size) -> Bitboard {
    let mut words = set.0;
    if symmetry & 1 != 0 {
        words = transpose(words);
    }
    if symmetry & 2 != 0 {
        words = half_turn(words, size.n());
    }
    Bitboard(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_point_goes_where_its_formula_says_and_the_board_stays() {
        for size in Size::ALL {
            let board = size.board();
            for s in 0..COUNT {
                assert_eq!(image(board, s, size), board, "{size} {s}");
                for p in board {
                    let q = point(p, s, size);
                    assert!(board.contains(q), "{size} {s} {p}");
                    assert_eq!(image(Bitboard::from(p), s, size), Bitboard::from(q));
                    // Each symmetry is its own inverse.
                    assert_eq!(point(q, s, size), p);
                }
            }
        }
    }

    #[test]
    fn neighbours_and_lines_stay_neighbours_and_lines() {
        use super::super::bitboard::Direction;
        let size = Size::S6_7;
        let board = size.board();
        for s in 0..COUNT {
            for p in board {
                let neighbours = Bitboard::from(p).neighbour_fill() & board;
                let imaged = Bitboard::from(point(p, s, size)).neighbour_fill() & board;
                assert_eq!(image(neighbours, s, size), imaged, "{s} {p}");
                for dir in Direction::ALL {
                    let line = Bitboard::from(p).fill(dir, board);
                    let image_line = image(line, s, size);
                    let q = point(p, s, size);
                    assert!(
                        Direction::ALL
                            .iter()
                            .any(|&d| Bitboard::from(q).fill(d, board) == image_line),
                        "{s} {p} {dir:?}"
                    );
                }
            }
        }
    }
}
