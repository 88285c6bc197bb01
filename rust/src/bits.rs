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

/// One in each byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of each byte.
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The position of the `k`-th set bit of `word`, which has more than `k`.
///
/// Broadword (Vigna, "Broadword implementation of rank/select queries",
/// 2008): the bytes' bit counts summed in parallel, their running sums by
/// one multiplication, the byte that holds the bit found by comparing all
/// eight sums with `k` at once, and a table finishes inside the byte. No
/// branch (where the bit lies is a coin toss for a random `k`) and no
/// hardware bit count, which the portable back end does not assume: about
/// half the instructions of halving with three bit counts.
#[inline(always)]
pub const fn select(word: u64, k: u32) -> u32 {
    select_counted(word, running_counts(word), k)
}

/// The running bit counts of `word`'s bytes: byte `i` holds the set bits of
/// bytes 0 to `i` (at most 64, below the byte's high bit), so the top byte
/// holds the word's count. A draw that needs the count first and then
/// [`select_counted`] works the bytes' counts out once.
#[inline(always)]
pub const fn running_counts(word: u64) -> u64 {
    // The bit count of each byte, in that byte.
    let mut counts = word - ((word >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    counts.wrapping_mul(ONES)
}

/// [`select`] of `word`, whose [`running_counts`] are `running`.
#[inline(always)]
pub const fn select_counted(word: u64, running: u64, k: u32) -> u32 {
    // The high bit of byte i set where that sum is at most k: the bytes
    // wholly below the bit, counted into the top byte.
    let below = ((((k as u64) * ONES) | HIGHS) - running) & HIGHS;
    let byte = ((below >> 7).wrapping_mul(ONES) >> 56) as u32 * 8;
    // The bits of the bytes below that byte.
    let before = ((running << 8) >> byte) as u32 & 0xFF;
    byte + SELECT_IN_BYTE[(word >> byte) as usize & 0xFF][(k - before) as usize] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `k`-th set bit by walking the bits.
    fn by_walking(word: u64, k: u32) -> u32 {
        (0..64)
            .filter(|&bit| word >> bit & 1 == 1)
            .nth(k as usize)
            .expect("more than k bits")
    }

    #[test]
    fn every_set_bit_of_many_words_is_found() {
        let mut rng = crate::rng::Rng::for_game(1, 2);
        let mut words = vec![u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001, 0xFF00];
        for _ in 0..2000 {
            // Dense, sparse and in between.
            let (a, b) = (rng.next_u64(), rng.next_u64());
            words.extend([a, a & b, a | b, a & b & rng.next_u64()]);
        }
        for word in words {
            assert_eq!(running_counts(word) >> 56, u64::from(word.count_ones()));
            for k in 0..word.count_ones() {
                assert_eq!(select(word, k), by_walking(word, k), "{word:#x} {k}");
            }
        }
    }
}
