//! Batch random playouts over any [`Game`]: one random stream per game, so a
//! run gives the same games on any number of threads and in any chunking.
//!
//! Game `i` of a run with `seed` draws from [`Rng::for_game`]`(seed, i)` and
//! from nothing else. A run of `n` games can therefore be cut into index
//! ranges (`first_game .. first_game + n_games`), played on different
//! threads, processes or machines, and put back together bit for bit.

use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::{Arc, LazyLock, Mutex};

use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};

use crate::game::{Action, Game, random_action};
use crate::rng::Rng;

/// Plays `state` to its end with the micro policy ([`random_action`]),
/// calling `before_apply(state, action)` just before each action is taken
/// (to count or record moves). Returns the number of decisions made.
///
/// # Examples
///
/// ```
/// use _veletas::playout::play_micro;
/// use _veletas::game::Game;
/// use _veletas::rng::Rng;
/// use _veletas::veletas::{DecisionState, Position, Rules, Variant};
///
/// let mut state = DecisionState::new(Position::new(Rules::variant(Variant::Small)));
/// let decisions = play_micro(&mut state, &mut Rng::for_game(0, 0), |_, _| {});
/// assert!(decisions > 0 && state.is_terminal());
/// ```
#[inline]
pub fn play_micro<G: Game>(
    state: &mut G,
    rng: &mut Rng,
    mut before_apply: impl FnMut(&G, Action),
) -> u32 {
    let mut decisions = 0;
    while let Some(action) = random_action(state, rng) {
        before_apply(state, action);
        state.apply(action);
        decisions += 1;
    }
    decisions
}

/// The games `first_game .. first_game + n_games` of a run with `seed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The seed of the whole run.
    pub seed: u64,
    /// The index of the first game of this batch in the run.
    pub first_game: u64,
    /// How many games, with consecutive indices.
    pub n_games: usize,
}

impl Batch {
    /// The whole run of `n_games` games from index 0.
    pub const fn new(seed: u64, n_games: usize) -> Batch {
        Batch {
            seed,
            first_game: 0,
            n_games,
        }
    }

    /// Plays every game of the batch with `play(rng)`, where `rng` is the
    /// game's own stream, on `threads` threads (`None`: one per core); the
    /// results come in game-index order.
    ///
    /// The result does not depend on `threads`: every game sees only its
    /// stream. One thread plays on the calling thread; more use a rayon pool
    /// of that size, built once and kept for later runs.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::num::NonZeroUsize;
    /// use _veletas::playout::Batch;
    ///
    /// let draw = |rng: &mut _veletas::rng::Rng| rng.below(1000);
    /// let one = Batch::new(7, 100).run(NonZeroUsize::new(1), draw).unwrap();
    /// let two = Batch::new(7, 100).run(NonZeroUsize::new(2), draw).unwrap();
    /// assert_eq!(one, two);
    /// let tail = Batch { seed: 7, first_game: 60, n_games: 40 };
    /// assert_eq!(tail.run(None, draw).unwrap(), one[60..]);
    /// ```
    pub fn run<T, F>(
        &self,
        threads: Option<NonZeroUsize>,
        play: F,
    ) -> Result<Vec<T>, ThreadPoolBuildError>
    where
        T: Send,
        F: Fn(&mut Rng) -> T + Sync,
    {
        let Batch {
            seed, first_game, ..
        } = *self;
        let one_game = |k: usize| play(&mut Rng::for_game(seed, first_game.wrapping_add(k as u64)));
        let threads = threads.map_or_else(available_threads, NonZeroUsize::get);
        if threads == 1 {
            return Ok((0..self.n_games).map(one_game).collect());
        }
        // Small tasks of a few games each keep both cores busy to the end of a
        // batch; below that, rayon's splitting overhead would show.
        Ok(pool(threads)?.install(|| {
            (0..self.n_games)
                .into_par_iter()
                .with_min_len(16)
                .map(one_game)
                .collect()
        }))
    }
}

/// The number of threads `threads = None` means: one per core.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// The rayon pool of `threads` threads, built on first use and then kept.
fn pool(threads: usize) -> Result<Arc<ThreadPool>, ThreadPoolBuildError> {
    static POOLS: LazyLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = LazyLock::new(Mutex::default);
    let mut pools = POOLS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(pool) = pools.get(&threads) {
        return Ok(Arc::clone(pool));
    }
    let pool = Arc::new(
        ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("veletas-playout-{threads}-{i}"))
            .build()?,
    );
    pools.insert(threads, Arc::clone(&pool));
    Ok(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_do_not_depend_on_threads_or_chunks() {
        let draw = |rng: &mut Rng| (rng.next_u64(), rng.below(17));
        let whole = Batch::new(3, 1000).run(NonZeroUsize::new(1), draw).unwrap();
        for threads in [2, 3] {
            assert_eq!(
                Batch::new(3, 1000)
                    .run(NonZeroUsize::new(threads), draw)
                    .unwrap(),
                whole
            );
        }
        let mut pieces = Vec::new();
        for first_game in (0..1000).step_by(300) {
            let n_games = 300.min(1000 - first_game);
            let batch = Batch {
                seed: 3,
                first_game: first_game as u64,
                n_games,
            };
            pieces.extend(batch.run(None, draw).unwrap());
        }
        assert_eq!(pieces, whole);
        assert!(Batch::new(3, 0).run(None, draw).unwrap().is_empty());
    }

    #[test]
    fn pools_are_kept() {
        let a = pool(2).unwrap();
        let b = pool(2).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.current_num_threads(), 2);
    }
}
