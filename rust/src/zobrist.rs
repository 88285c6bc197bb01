//! The one maker of Zobrist keys, for every game's position hash: a key for
//! each kind of piece on each bit index of its board, one for each phase,
//! and one for the second colour to act, drawn at compile time from a
//! `SplitMix64` stream in that order.

use crate::rng::splitmix64;

/// The phases every game has: the setup or opening, the pie decision, play.
pub const PHASES: usize = 3;

/// The keys of a game with `PIECES` kinds of piece on boards of `INDICES`
/// bit indices.
pub struct Keys<const PIECES: usize, const INDICES: usize> {
    pieces: [[u64; INDICES]; PIECES],
    phases: [u64; PHASES],
    second_to_act: u64,
}

impl<const PIECES: usize, const INDICES: usize> Keys<PIECES, INDICES> {
    /// The keys of the stream of `seed`.
    pub const fn new(seed: u64) -> Self {
        let mut keys = Keys {
            pieces: [[0; INDICES]; PIECES],
            phases: [0; PHASES],
            second_to_act: 0,
        };
        let mut state = seed;
        let mut piece = 0;
        while piece < PIECES {
            let mut index = 0;
            while index < INDICES {
                let (next, key) = splitmix64(state);
                state = next;
                keys.pieces[piece][index] = key;
                index += 1;
            }
            piece += 1;
        }
        let mut phase = 0;
        while phase < PHASES {
            let (next, key) = splitmix64(state);
            state = next;
            keys.phases[phase] = key;
            phase += 1;
        }
        keys.second_to_act = splitmix64(state).1;
        keys
    }

    /// The key of a piece of kind `piece` on bit `index`.
    #[inline(always)]
    pub const fn piece(&self, piece: usize, index: usize) -> u64 {
        self.pieces[piece][index]
    }

    /// The key of phase number `phase`.
    #[inline]
    pub const fn phase(&self, phase: usize) -> u64 {
        self.phases[phase]
    }

    /// The key of the turn field: its one key when the colour that has it
    /// (`keyed`) is to act, 0 for the other.
    #[inline]
    pub const fn turn(&self, keyed: bool) -> u64 {
        if keyed { self.second_to_act } else { 0 }
    }

    /// Every key, in the order of the stream.
    pub fn all(&self) -> impl Iterator<Item = u64> + '_ {
        self.pieces
            .iter()
            .flatten()
            .chain(&self.phases)
            .chain([&self.second_to_act])
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::splitmix_table;

    #[test]
    fn the_keys_are_the_stream_in_order_distinct_and_never_0() {
        const SEED: u64 = 17;
        let keys: Keys<3, 40> = Keys::new(SEED);
        let stream: [u64; 3 * 40 + PHASES + 1] = splitmix_table(SEED);
        assert_eq!(keys.all().collect::<Vec<_>>(), stream);
        let mut sorted = stream.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), stream.len());
        assert!(stream.iter().all(|&key| key != 0));
    }

    #[test]
    fn each_game_s_keys_are_distinct_and_never_0() {
        for keys in [
            crate::veletas::zobrist::KEYS.all().collect::<Vec<_>>(),
            crate::meridians::zobrist::KEYS.all().collect(),
        ] {
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), keys.len());
            assert!(keys.iter().all(|&key| key != 0));
        }
    }
}
