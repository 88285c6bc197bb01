//! What Meridians reads off a position to estimate who wins
//! ([`crate::evaluate`]), for each side: its stones, those in groups
//! without a path (removed after their owner's next placement unless it
//! saves them), those in groups with a single path (one placement of the
//! opponent's kills them), and the points it can still place on.

use super::bitboard::Bitboard;
use super::decision::DecisionState;
#[cfg(target_arch = "x86_64")]
use super::kernel::X86V3;
use super::kernel::{self, Baseline, Bits};
use super::position::Position;
use super::weights;
use crate::evaluate::Evaluate;

/// Both sides' numbers, the colour to act's first: stones, stones without
/// a path, stones with one path, and the empty points from which its stone
/// is the nearest in some direction. On the chosen kernel: a search scores
/// every playout with them.
fn sides(position: &Position) -> [[u32; 4]; 2] {
    #[cfg(target_arch = "x86_64")]
    if let Some(x86_v3) = X86V3::chosen() {
        // SAFETY: an `X86V3` exists only on a CPU with its features.
        return unsafe { sides_x86_v3(x86_v3, position) };
    }
    sides_on(Baseline::default(), position)
}

/// [`sides`] compiled for the features of the x86-64-v3 kernel.
///
/// # Safety
///
/// The CPU must have them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn sides_x86_v3(x86_v3: X86V3, position: &Position) -> [[u32; 4]; 2] {
    sides_on(x86_v3, position)
}

/// [`sides`] on the kernel `k`.
#[inline(always)]
fn sides_on<K: Bits>(k: K, position: &Position) -> [[u32; 4]; 2] {
    let me = position.turn();
    let empty = k.load(position.empty());
    [
        side(k, position.stones(me), empty),
        side(k, position.stones(me.other()), empty),
    ]
}

/// One side's numbers ([`sides`]), of its `stones`.
#[inline(always)]
fn side<K: Bits>(k: K, stones: Bitboard, empty: K::Set) -> [u32; 4] {
    let (mut dead, mut fragile) = (0, 0);
    let all = k.load(stones);
    let mut rest = stones;
    while let Some(seed) = rest.first() {
        let group = kernel::flood(k, k.point(seed), all);
        let size = k.store(group);
        rest = rest - size;
        // Two paths or more make no number: no need to count further.
        match kernel::paths(k, group, k.and_not(all, group), empty, 2) {
            0 => dead += size.count(),
            1 => fragile += size.count(),
            _ => {}
        }
    }
    let sight = k.store(kernel::rays(k, all, empty));
    [stones.count(), dead, fragile, sight.count()]
}

impl Evaluate for DecisionState {
    const FEATURE_NAMES: &'static [&'static str] = &[
        "bias",
        "stones",
        "stones_opponent",
        "dead",
        "dead_opponent",
        "fragile",
        "fragile_opponent",
        "sight",
        "sight_opponent",
    ];

    const WEIGHTS: &'static [f32] = &weights::WEIGHTS;

    /// Eight placements: the best of 2 to 32 against playouts to the end,
    /// at 1,000 iterations a decision (docs/bots.md).
    const CUTOFF: u32 = 8;

    /// A quarter of the 1.4 of playouts to the end: at 30,000 iterations a
    /// move on 5-6, 0.35 and 0.2 scored 79% against 1.4, 0.5 75.5%, 0.7
    /// 63%; 0.35 scored 71.5% on 6-7 at 20,000 (docs/bots.md).
    const CUT_EXPLORATION: f64 = 0.35;

    fn features(&self, out: &mut Vec<f32>) {
        let position = self.position();
        let [mine, theirs] = sides(position);
        #[allow(clippy::cast_precision_loss)] // at most 154 points
        let scale = |n: u32| n as f32 / position.size().points() as f32;
        out.clear();
        out.push(1.0);
        for k in 0..4 {
            out.extend([scale(mine[k]), scale(theirs[k])]);
        }
    }
}

#[cfg(test)]
#[allow(
    clippy::float_cmp,
    reason = "both sides' features are the same sums, computed alike"
)]
mod tests {
    use super::*;
    use crate::game::{Game, random_action};
    use crate::meridians::kernel::Portable;
    use crate::meridians::{Color, Direction, Size};
    use crate::rng::Rng;

    fn features(fen: &str) -> Vec<f32> {
        let mut out = Vec::new();
        DecisionState::new(Position::from_fen(fen, false).unwrap()).features(&mut out);
        out
    }

    fn counts(fen: &str, color: Color) -> [u32; 4] {
        let position = Position::from_fen(fen, false).unwrap();
        let [mine, theirs] = sides(&position);
        if color == position.turn() {
            mine
        } else {
            theirs
        }
    }

    /// A side's numbers by their definition, group by group on whole
    /// bitboards: every path of a group counted.
    fn side_by_definition(stones: Bitboard, empty: Bitboard) -> [u32; 4] {
        let (mut dead, mut fragile) = (0, 0);
        let mut rest = stones;
        while let Some(seed) = rest.first() {
            let group = Bitboard::from(seed).flood(stones);
            rest = rest - group;
            let others = stones - group;
            let paths: u32 = Direction::ALL
                .into_iter()
                .map(|dir| ((group.fill(dir, empty) - group).shift(dir) & others).count())
                .sum();
            match paths {
                0 => dead += group.count(),
                1 => fragile += group.count(),
                _ => {}
            }
        }
        let sight = stones.rays(empty) & empty;
        [stones.count(), dead, fragile, sight.count()]
    }

    #[test]
    fn every_kernel_counts_as_the_definition_along_random_games() {
        let mut checked = 0;
        for size in Size::ALL {
            for game in 0..30 {
                let mut state = DecisionState::new(Position::new(size));
                let mut rng = Rng::for_game(5, game);
                while let Some(action) = random_action(&state, &mut rng) {
                    Game::apply(&mut state, action);
                    let position = state.position();
                    let me = position.turn();
                    let expected = [me, me.other()]
                        .map(|c| side_by_definition(position.stones(c), position.empty()));
                    assert_eq!(sides(position), expected, "{position:?}");
                    assert_eq!(sides_on(Portable, position), expected);
                    assert_eq!(sides_on(Baseline::default(), position), expected);
                    #[cfg(target_arch = "x86_64")]
                    if let Some(x86_v3) = X86V3::detect() {
                        // SAFETY: detected.
                        assert_eq!(unsafe { sides_x86_v3(x86_v3, position) }, expected);
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 5_000, "{checked} positions");
    }

    #[test]
    fn one_feature_a_name_and_a_weight() {
        let start = features("7/8/9/10/11/12/12/11/10/9/8/7 l open");
        assert_eq!(start.len(), DecisionState::FEATURE_NAMES.len());
        assert_eq!(DecisionState::WEIGHTS.len(), start.len());
        assert_eq!(start[1..], [0.0; 8]);
    }

    #[test]
    fn groups_are_counted_by_their_paths() {
        // Light: a1 and c1 see each other (b1 empty between): two groups
        // with one path each; e1 is hidden from them by Dark's d1.
        let fen = "6/7/8/9/10/10/9/8/7/x1xox1 d play";
        let [stones, dead, fragile, _] = counts(fen, Color::Light);
        assert_eq!(stones, 3);
        assert_eq!(fragile, 2);
        assert_eq!(dead, 1);
        let [stones, dead, ..] = counts(fen, Color::Dark);
        assert_eq!((stones, dead), (1, 1));
    }

    #[test]
    fn the_features_are_the_side_to_act() {
        let fen = "6/7/8/9/10/10/9/8/7/x1xox1 d play";
        let dark = features(fen);
        let light = features(&fen.replace(" d ", " l "));
        for k in 0..4 {
            assert_eq!(dark[1 + 2 * k], light[2 + 2 * k]);
            assert_eq!(dark[2 + 2 * k], light[1 + 2 * k]);
        }
    }
}
