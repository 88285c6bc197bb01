//! Random games of Meridians, each turn a uniformly random legal move: the
//! playout loop of the batch runs (`veletas.meridians.playouts`), compiled
//! once for each kernel, so that a ply looks no more at which kernel runs.

use super::decision::DecisionState;
#[cfg(target_arch = "x86_64")]
use super::kernel::X86V3;
use super::kernel::{Baseline, Bits};
use crate::game::Action;
use crate::rng::Rng;

/// Plays `state` to its end, each decision the `k`-th legal action with `k
/// = rng.below(count)`, as [`crate::game::random_action`] draws it (the same
/// games, for the same streams); `before_apply` sees each action before it
/// is taken. Returns the decisions taken.
///
/// The position's hash, which no decision of a random game reads, is worked
/// out once at the end rather than kept at every move; `before_apply` sees
/// states whose hash is behind.
#[inline]
pub fn play_random_game(
    state: &mut DecisionState,
    rng: &mut Rng,
    before_apply: impl FnMut(&DecisionState, Action),
) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = X86V3::chosen() {
        // SAFETY: an `X86V3` exists only on a CPU with its features.
        return unsafe { play_avx2(avx2, state, rng, before_apply) };
    }
    play_on(Baseline::default(), state, rng, before_apply)
}

/// [`play_on`] compiled for the features of the x86-64-v3 kernel.
///
/// # Safety
///
/// The CPU must have them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn play_avx2(
    avx2: X86V3,
    state: &mut DecisionState,
    rng: &mut Rng,
    before_apply: impl FnMut(&DecisionState, Action),
) -> u32 {
    play_on(avx2, state, rng, before_apply)
}

/// [`play_random_game`] on the kernel `k`.
#[inline(always)]
fn play_on<K: Bits>(
    k: K,
    state: &mut DecisionState,
    rng: &mut Rng,
    mut before_apply: impl FnMut(&DecisionState, Action),
) -> u32 {
    let mut decisions = 0;
    loop {
        let actions = state.legal_actions();
        let count = actions.len();
        if count == 0 {
            state.rehash();
            return decisions;
        }
        let action = actions
            .nth_on(k, rng.below(u64::from(count)) as u32)
            .expect("k < count");
        before_apply(state, action);
        state.apply_unchecked_on::<K, false>(k, action);
        decisions += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::random_action;
    use crate::meridians::kernel::Portable;
    use crate::meridians::{Position, Size};
    use crate::playout::play_micro;

    #[test]
    fn the_games_are_those_of_the_generic_loop_on_every_back_end() {
        for size in Size::ALL {
            for pie in [false, true] {
                let start = DecisionState::new(Position::new(size).with_pie(pie));
                for game in 0..40 {
                    let (mut generic, mut fast) = (start, start);
                    let (mut generic_line, mut fast_line) = (Vec::new(), Vec::new());
                    let mut rng = Rng::for_game(11, game);
                    let decisions = play_micro(&mut generic, &mut rng, |_, a| generic_line.push(a));
                    let mut rng = Rng::for_game(11, game);
                    let taken = play_random_game(&mut fast, &mut rng, |_, a| fast_line.push(a));
                    assert_eq!((taken, &fast_line), (decisions, &generic_line));
                    assert_eq!(fast, generic);
                    assert_eq!(fast.swapped(), generic.swapped());
                    // The portable loops too, wherever this runs: on the
                    // words, and on the portable back end's own kernel.
                    let (mut portable, mut rng) = (start, Rng::for_game(11, game));
                    assert_eq!(
                        play_on(Portable, &mut portable, &mut rng, |_, _| {}),
                        decisions
                    );
                    assert_eq!(portable, generic);
                    assert!(random_action(&portable, &mut rng).is_none());
                    let (mut baseline, mut rng) = (start, Rng::for_game(11, game));
                    assert_eq!(
                        play_on(Baseline::default(), &mut baseline, &mut rng, |_, _| {}),
                        decisions
                    );
                    assert_eq!(baseline, generic);
                }
            }
        }
    }
}
