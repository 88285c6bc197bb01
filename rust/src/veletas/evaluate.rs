//! What Veletas reads off a position to estimate who wins
//! ([`crate::evaluate`]): the claims made, and for each free shooter who is
//! on course to claim it (the bigger adjacent group) and how close it is to
//! being trapped (the fewer squares it reaches, the closer).

use super::claims::biggest_adjacent_groups;
use super::color::Color;
use super::decision::DecisionState;
use super::weights;
use crate::evaluate::Evaluate;

impl Evaluate for DecisionState {
    const FEATURE_NAMES: &'static [&'static str] = &[
        "bias",
        "claims",
        "claims_opponent",
        "leaning",
        "leaning_opponent",
        "near",
        "near_opponent",
        "ready",
        "ready_opponent",
    ];

    const WEIGHTS: &'static [f32] = &weights::WEIGHTS;

    /// About half a 7x7 game's decisions: shorter cutoffs lost to playouts
    /// to the end, at 1,000 iterations a decision (docs/bots.md).
    const CUTOFF: u32 = 32;

    /// Below the 0.7 of playouts to the end
    /// ([`crate::game::Game::EXPLORATION`]), as measured at 0.1 s a move
    /// (docs/bots.md).
    const CUT_EXPLORATION: f64 = 0.5;

    fn features(&self, out: &mut Vec<f32>) {
        let position = self.position();
        let rules = position.rules();
        let me = position.turn();
        let them = me.other();
        #[allow(clippy::cast_precision_loss)] // small counts
        let (need, shooters) = (rules.claims_to_win() as f32, rules.shooters() as f32);
        let stones = [position.stones(Color::Black), position.stones(Color::White)];
        // Per side: the free shooters its groups lean on, the same weighted
        // by how near each is to being trapped, and those one shot traps
        // (into the last square they reach).
        let (mut leaning, mut near, mut ready) = ([0.0_f32; 2], [0.0_f32; 2], [0.0_f32; 2]);
        let free = position.shooters();
        let mine = biggest_adjacent_groups(free, stones[me.index()]);
        let theirs = biggest_adjacent_groups(free, stones[them.index()]);
        for square in free {
            let (mine, theirs) = (mine[square.index() & 127], theirs[square.index() & 127]);
            let side = match mine.cmp(&theirs) {
                core::cmp::Ordering::Greater => 0,
                core::cmp::Ordering::Less => 1,
                core::cmp::Ordering::Equal => continue,
            };
            #[allow(clippy::cast_precision_loss)] // at most 100 squares
            let reach = position.reach(square).count() as f32;
            leaning[side] += 1.0;
            near[side] += 1.0 / (1.0 + reach);
            ready[side] += f32::from(u8::from(reach <= 1.0));
        }
        #[allow(clippy::cast_precision_loss)] // at most 7 claims
        let claims = |c: Color| position.claims(c) as f32 / need;
        out.clear();
        out.extend([
            1.0,
            claims(me),
            claims(them),
            leaning[0] / shooters,
            leaning[1] / shooters,
            near[0],
            near[1],
            ready[0],
            ready[1],
        ]);
    }
}

#[cfg(test)]
#[allow(
    clippy::float_cmp,
    reason = "both sides' features are the same sums, computed alike"
)]
mod tests {
    use super::*;
    use crate::veletas::{Lines, Position, SetupRule};

    fn state(fen: &str) -> DecisionState {
        DecisionState::new(
            Position::from_fen(fen, SetupRule::Perimeter, Lines::ShootersPass).unwrap(),
        )
    }

    fn features(fen: &str) -> Vec<f32> {
        let mut out = Vec::new();
        state(fen).features(&mut out);
        out
    }

    #[test]
    fn one_feature_a_name() {
        assert_eq!(
            features("7/7/7/7/7/7/7 b setup 3").len(),
            DecisionState::FEATURE_NAMES.len()
        );
        assert_eq!(
            DecisionState::WEIGHTS.len(),
            DecisionState::FEATURE_NAMES.len()
        );
    }

    #[test]
    fn the_features_are_the_side_to_act() {
        // Black has a claim; a free shooter on b2 leans White's way (two
        // white stones against one black), one on f5 Black's.
        let fen = "7/5x1/5s1/7/1oo4/xsX4/7 b play 3";
        let black = features(fen);
        let white = features(&fen.replace(" b ", " w "));
        assert_eq!(black[1..3], [0.5, 0.0]);
        assert_eq!(white[1..3], [0.0, 0.5]);
        assert_eq!(black[3], white[4]);
        assert_eq!(black[4], white[3]);
        assert_eq!(black[5], white[6]);
        assert!(black[3] > 0.0 && black[4] > 0.0);
    }

    #[test]
    fn a_shooter_nearer_to_being_trapped_weighs_more() {
        // A free shooter on b2 leaning Black's way, reaching the whole
        // board, then walled in by a bigger black group.
        let open = features("O5o/7/7/7/7/xs5/6X b play 3");
        let walled = features("O5o/7/7/7/xxx4/xs5/xxx3X b play 3");
        assert_eq!(open[3], walled[3]);
        assert!(walled[5] > open[5]);
        assert_eq!((open[4], open[6]), (0.0, 0.0));
        assert_eq!(open[7], 0.0);
        // Walled in further: b2 reaches c2 only, and one shot traps it.
        let ready = features("O5o/7/7/7/xxx4/xs1x3/xxx3X b play 3");
        assert_eq!((ready[7], ready[8]), (1.0, 0.0));
    }

    #[test]
    fn the_estimate_is_a_chance() {
        let p = state("7/5x1/5s1/7/1oo4/xsX4/7 b play 3").estimate();
        assert!(p > 0.0 && p < 1.0);
    }
}
