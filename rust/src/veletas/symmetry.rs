//! The eight symmetries of a square board (the dihedral group D4), on
//! squares, on bitboards and on position strings: every rule of Veletas
//! keeps them, so a position and its images have one value.
//!
//! A symmetry is a number below 8: bit 2 transposes first (file and rank
//! swap), then bit 0 mirrors the files and bit 1 the ranks. The board is the
//! `size` x `size` corner of the 10x10 grid, which every symmetry keeps.

use super::square::{MAX_SIZE, STRIDE, Square};

/// The number of symmetries.
pub const COUNT: usize = 8;

/// The bits of one rank of the 10x10 grid, padding excluded.
const RANK: u128 = (1 << MAX_SIZE) - 1;

/// `SPREAD[b]` puts bit `f` of the rank pattern `b` on rank `f` of file 0:
/// one rank laid along a file, for the transpose.
static SPREAD: [u128; 1 << MAX_SIZE] = {
    let mut table = [0u128; 1 << MAX_SIZE];
    let mut b = 0;
    while b < table.len() {
        let mut f = 0;
        while f < MAX_SIZE {
            if b >> f & 1 == 1 {
                table[b] |= 1 << (f * STRIDE);
            }
            f += 1;
        }
        b += 1;
    }
    table
};

/// The image of `square` under `symmetry` on a board of `size`.
#[inline]
pub fn square(square: Square, symmetry: usize, size: u32) -> Square {
    let (file, rank) = coordinates(square.file(), square.rank(), symmetry, size);
    Square::new(file, rank).expect("a symmetry keeps the board")
}

/// The image of the square at `file` and `rank` under `symmetry` on a
/// board of `size`, as its file and rank.
#[inline]
const fn coordinates(mut file: u32, mut rank: u32, symmetry: usize, size: u32) -> (u32, u32) {
    if symmetry & 4 != 0 {
        (file, rank) = (rank, file);
    }
    if symmetry & 1 != 0 {
        file = size - 1 - file;
    }
    if symmetry & 2 != 0 {
        rank = size - 1 - rank;
    }
    (file, rank)
}

/// The images of the set `bits` (squares of a board of `size`) under the
/// eight symmetries, in their order.
#[inline]
pub fn images(bits: u128, size: u32) -> [u128; COUNT] {
    let mut all = [0; COUNT];
    all[..4].copy_from_slice(&mirrors(bits, size));
    all[4..].copy_from_slice(&mirrors(transpose(bits, size), size));
    all
}

/// The image of the set `bits` under one `symmetry`.
#[inline]
pub fn image(bits: u128, symmetry: usize, size: u32) -> u128 {
    let bits = if symmetry & 4 != 0 {
        transpose(bits, size)
    } else {
        bits
    };
    match symmetry & 3 {
        0 => bits,
        1 => half_turn(flip_ranks(bits, size), size),
        2 => flip_ranks(bits, size),
        _ => half_turn(bits, size),
    }
}

/// `bits` as is, files mirrored, ranks mirrored, and both.
#[inline]
fn mirrors(bits: u128, size: u32) -> [u128; 4] {
    let ranks = flip_ranks(bits, size);
    [bits, half_turn(ranks, size), ranks, half_turn(bits, size)]
}

/// The set turned half a turn: reversing the 128 bits maps square index `i`
/// to `127 - i`, and the shift brings `(file, rank)` to `(size - 1 - file,
/// size - 1 - rank)`, index `12 (size - 1) - i`.
#[inline]
fn half_turn(bits: u128, size: u32) -> u128 {
    bits.reverse_bits() >> (127 - (STRIDE + 1) * (size - 1))
}

/// The set with its ranks in reverse order.
#[inline]
fn flip_ranks(bits: u128, size: u32) -> u128 {
    let mut out = 0;
    for rank in 0..size {
        out |= (bits >> (rank * STRIDE) & RANK) << ((size - 1 - rank) * STRIDE);
    }
    out
}

/// The set mirrored in the diagonal `a1`-`j10`: rank `r` becomes file `r`.
#[inline]
fn transpose(bits: u128, size: u32) -> u128 {
    let mut out = 0;
    for rank in 0..size {
        out |= SPREAD[(bits >> (rank * STRIDE) & RANK) as usize] << rank;
    }
    out
}

/// The least of the images of the position string `fen` under the eight
/// symmetries, as text: its board field (the text up to the first space)
/// turned and mirrored, each run of empty squares written as its length, and
/// the rest kept after a space. Any character but a digit or `.` (an empty
/// square) is a piece. None where the field is not square: ranks of as
/// many squares as there are ranks, at most [`MAX_SIZE`], in ASCII.
///
/// ```
/// use _veletas::veletas::symmetry::canonical_fen;
///
/// let key = canonical_fen("5/5/2s2/2x2/5 w pie 3").unwrap();
/// assert_eq!(canonical_fen("5/5/1xs2/5/5 w pie 3").unwrap(), key);
/// assert_eq!(canonical_fen("5/5/5 w"), None);
/// ```
pub fn canonical_fen(fen: &str) -> Option<String> {
    let (field, rest) = fen.split_once(' ').unwrap_or((fen, ""));
    let size = field.split('/').count();
    if size > MAX_SIZE as usize || !field.is_ascii() {
        return None;
    }
    let mut squares = Vec::with_capacity(size * size);
    for rank in field.split('/') {
        let start = squares.len();
        let mut run = 0usize;
        for &byte in rank.as_bytes() {
            if byte.is_ascii_digit() {
                run = run * 10 + usize::from(byte - b'0');
                if run > size {
                    return None;
                }
            } else {
                squares.resize(squares.len() + run, b'.');
                run = 0;
                squares.push(byte);
            }
        }
        squares.resize(squares.len() + run, b'.');
        if squares.len() - start != size {
            return None;
        }
    }
    let mut best: Option<Vec<u8>> = None;
    let mut image = Vec::with_capacity(field.len() + 1 + rest.len());
    for symmetry in 0..COUNT {
        image.clear();
        for row in 0..size {
            if row > 0 {
                image.push(b'/');
            }
            let mut run = 0;
            for column in 0..size {
                // Ranks and files are below MAX_SIZE.
                let (c, r) = coordinates(column as u32, row as u32, symmetry, size as u32);
                match squares[r as usize * size + c as usize] {
                    b'.' => run += 1,
                    piece => {
                        push_run(&mut image, run);
                        run = 0;
                        image.push(piece);
                    }
                }
            }
            push_run(&mut image, run);
        }
        image.push(b' ');
        image.extend_from_slice(rest.as_bytes());
        if best.as_ref().is_none_or(|least| image < *least) {
            best = Some(image.clone());
        }
    }
    best.map(|least| String::from_utf8(least).expect("ASCII field, and the rest as given"))
}

/// Writes a run of `run` empty squares (none for 0) as its length.
fn push_run(text: &mut Vec<u8>, run: usize) {
    if run >= 10 {
        text.push(b'0' + (run / 10) as u8);
    }
    if run > 0 {
        text.push(b'0' + (run % 10) as u8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::veletas::Bitboard;

    fn random_set(rng: &mut Rng, size: u32) -> u128 {
        Bitboard::board(size)
            .iter()
            .filter(|_| rng.next_u64() & 1 == 1)
            .fold(0, |set, sq| set | 1 << sq.index())
    }

    #[test]
    fn sets_move_as_their_squares() {
        let mut rng = Rng::for_game(7, 0);
        for size in 5..=MAX_SIZE {
            for _ in 0..50 {
                let set = random_set(&mut rng, size);
                let all = images(set, size);
                for (symmetry, &imaged) in all.iter().enumerate() {
                    let by_square = Bitboard(set)
                        .iter()
                        .fold(0, |acc, sq| acc | 1 << square(sq, symmetry, size).index());
                    assert_eq!(imaged, by_square, "size {size}, symmetry {symmetry}");
                    assert_eq!(image(set, symmetry, size), imaged);
                }
            }
        }
    }

    #[test]
    fn the_eight_are_distinct_and_a_group() {
        let size = 7;
        let a1 = Square::new(0, 0).unwrap();
        let b1 = Square::new(1, 0).unwrap();
        let images: std::collections::HashSet<_> = (0..COUNT)
            .map(|s| (square(a1, s, size), square(b1, s, size)))
            .collect();
        assert_eq!(images.len(), COUNT);
    }
}
