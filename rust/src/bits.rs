//! Bit selection shared by every game's bitboards: the position of the
//! `k`-th set bit of a word, the step from a random index to a square or
//! point that every playout takes.

/// `SELECT_IN_BYTE[b][k]`: the position of the `k`-th set bit of the byte `b`.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[0; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The position of the `k`-th set bit of `word`, which has more than `k`.
///
/// By halving: count the low 32 bits and keep the half that holds the bit,
/// then 16, then 8, and a table finishes inside the byte. Each step is a
/// hardware bit count, a compare and conditional moves, without a branch
/// (where the bit lies is a coin toss for a random `k`).
#[inline(always)]
pub const fn select(word: u64, k: u32) -> u32 {
    let (mut word, mut k, mut base) = (word, k, 0);
    let below = (word as u32).count_ones();
    if k >= below {
        (word, k, base) = (word >> 32, k - below, 32);
    }
    let below = (word as u16).count_ones();
    if k >= below {
        (word, k, base) = (word >> 16, k - below, base + 16);
    }
    let below = (word as u8).count_ones();
    if k >= below {
        (word, k, base) = (word >> 8, k - below, base + 8);
    }
    base + SELECT_IN_BYTE[word as usize & 0xFF][k as usize] as u32
}
