//! The random stream of playouts and bots: `SplitMix64`, one stream per game.
//!
//! The definition is part of the public contract (`docs/playouts.md`): the
//! pure-Python reference follows it bit for bit, so that both backends play
//! the same games for the same seed.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The `SplitMix64` finaliser.
#[inline(always)]
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One step of `SplitMix64` from `state`: the next state and its output.
#[inline(always)]
pub(crate) const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(GOLDEN);
    (state, mix(state))
}

/// The first `N` outputs of `SplitMix64` from `seed`, at compile time: the
/// games' Zobrist keys.
pub const fn splitmix_table<const N: usize>(seed: u64) -> [u64; N] {
    let mut table = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, output) = splitmix64(state);
        state = next;
        table[i] = output;
        i += 1;
    }
    table
}

/// A `SplitMix64` generator.
///
/// # Examples
///
/// ```
/// use _veletas::rng::Rng;
///
/// let mut a = Rng::for_game(7, 3);
/// let mut b = Rng::for_game(7, 3);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// The stream of game `index` in a run with `seed`: games are independent
    /// of each other and of the order in which threads play them.
    pub const fn for_game(seed: u64, index: u64) -> Rng {
        Rng {
            state: mix(seed ^ mix(index.wrapping_add(GOLDEN))),
        }
    }

    /// The generator's state: [`Rng::from_state`] of it continues the
    /// stream from here.
    pub const fn state(&self) -> u64 {
        self.state
    }

    /// The generator in `state` (as [`Rng::state`] gave it).
    pub const fn from_state(state: u64) -> Rng {
        Rng { state }
    }

    /// The next 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        let (state, bits) = splitmix64(self.state);
        self.state = state;
        bits
    }

    /// A uniform integer in `0..n`, exactly (Lemire's method with rejection).
    ///
    /// # Panics
    ///
    /// Panics if `n` is 0.
    #[inline(always)]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no value to return");
        let mut product = u128::from(self.next_u64()) * u128::from(n);
        let mut low = product as u64;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                product = u128::from(self.next_u64()) * u128::from(n);
                low = product as u64;
            }
        }
        (product >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_values_of_the_reference_stream() {
        // mix(GOLDEN) is the first output of SplitMix64 seeded with 0, a
        // published value of the generator.
        let mut rng = Rng { state: 0 };
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn games_have_distinct_streams() {
        let firsts: Vec<u64> = (0..64).map(|i| Rng::for_game(0, i).next_u64()).collect();
        let mut sorted = firsts.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), firsts.len());
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::for_game(1, 2);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&count| count > 800), "{seen:?}");
    }

    #[test]
    fn below_one_is_zero() {
        let mut rng = Rng::for_game(5, 5);
        assert!((0..100).all(|_| rng.below(1) == 0));
    }
}
