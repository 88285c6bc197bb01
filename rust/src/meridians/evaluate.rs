//! What Meridians reads off a position to estimate who wins
//! ([`crate::evaluate`]), for each side: its stones, those in groups
//! without a path (removed after their owner's next placement unless it
//! saves them), those in groups with a single path (one placement of the
//! opponent's kills them), and the points it can still place on.

use super::bitboard::{Bitboard, Direction};
use super::color::Color;
use super::decision::DecisionState;
use super::weights;
use crate::evaluate::Evaluate;

/// A side's numbers: stones, stones without a path, stones with one path,
/// and the empty points from which its stone is the nearest in some
/// direction.
fn side(stones: Bitboard, empty: Bitboard) -> [u32; 4] {
    let (mut dead, mut fragile) = (0, 0);
    let mut rest = stones;
    while let Some(seed) = rest.first() {
        let group = Bitboard::from(seed).flood(stones);
        rest = rest - group;
        let others = stones - group;
        // The stones of other groups at the end of an empty run from the
        // group: one path each.
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
        let me = position.turn();
        let empty = position.empty();
        let [mine, theirs] = [me, me.other()].map(|c: Color| side(position.stones(c), empty));
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
    use crate::meridians::Position;

    fn features(fen: &str) -> Vec<f32> {
        let mut out = Vec::new();
        DecisionState::new(Position::from_fen(fen, false).unwrap()).features(&mut out);
        out
    }

    fn counts(fen: &str, color: Color) -> [u32; 4] {
        let position = Position::from_fen(fen, false).unwrap();
        side(position.stones(color), position.empty())
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
