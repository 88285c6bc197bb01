//! UCT's score of a child: its mean for the seat to act at the parent plus
//! `c * sqrt(ln(parent visits) / visits)`, computed at every child of every
//! node a descent passes, so the most frequent arithmetic of a search.

use std::sync::LazyLock;

/// The score of the children below one node.
pub(super) trait Ucb: Copy {
    /// The scoring below a node of `visits` visits with the exploration
    /// constant `exploration`.
    fn below(visits: u32, exploration: f64) -> Self;
    /// The score of a child of `visits` visits (0 counts as 1) and
    /// `half_wins` half wins.
    fn score(self, visits: u32, half_wins: u32) -> f64;
}

/// The score as plain UCT, the baseline, computes it: two divisions and a
/// square root a child. Kept as it is so that its searches stay the same,
/// seed for seed.
#[derive(Clone, Copy)]
pub(super) struct Divided {
    log_visits: f64,
    exploration: f64,
}

impl Ucb for Divided {
    #[inline(always)]
    fn below(visits: u32, exploration: f64) -> Divided {
        Divided {
            log_visits: f64::from(visits.max(1)).ln(),
            exploration,
        }
    }

    #[inline(always)]
    fn score(self, visits: u32, half_wins: u32) -> f64 {
        let visits = f64::from(visits.max(1));
        f64::from(half_wins) / (2.0 * visits) + self.exploration * (self.log_visits / visits).sqrt()
    }
}

/// The same score as `half_wins * (1 / 2n) + c * sqrt(ln N) * (1 / sqrt(n))`:
/// one square root a node, and for a child of fewer than [`TABLED`]
/// visits (most children) no division or square root at all, the two
/// factors of `n` looked up: divisions at every child keep a descent
/// waiting on the divider, not on memory.
#[derive(Clone, Copy)]
pub(super) struct Tabled {
    scale: f64,
    factors: &'static [Factors; TABLED],
}

/// The visit counts whose factors [`Tabled`] looks up.
const TABLED: usize = 4096;

/// `1 / 2n` and `1 / sqrt(n)` of a visit count `n`, side by side so that
/// one lookup reads one cache line.
#[derive(Clone, Copy)]
struct Factors {
    half_inverse: f64,
    inverse_sqrt: f64,
}

impl Factors {
    #[inline(always)]
    fn of(visits: u32) -> Factors {
        let visits = f64::from(visits.max(1));
        Factors {
            half_inverse: 0.5 / visits,
            inverse_sqrt: 1.0 / visits.sqrt(),
        }
    }
}

static FACTORS: LazyLock<[Factors; TABLED]> = LazyLock::new(|| {
    let mut table = [Factors::of(1); TABLED];
    for (visits, factors) in (0..).zip(table.iter_mut()) {
        *factors = Factors::of(visits);
    }
    table
});

impl Ucb for Tabled {
    #[inline(always)]
    fn below(visits: u32, exploration: f64) -> Tabled {
        Tabled {
            scale: exploration * f64::from(visits.max(1)).ln().sqrt(),
            factors: &FACTORS,
        }
    }

    #[inline(always)]
    fn score(self, visits: u32, half_wins: u32) -> f64 {
        let factors = match self.factors.get(visits as usize) {
            Some(factors) => *factors,
            None => Factors::of(visits),
        };
        f64::from(half_wins) * factors.half_inverse + self.scale * factors.inverse_sqrt
    }
}

#[cfg(test)]
mod tests {
    use super::{Divided, Tabled, Ucb};

    #[test]
    fn the_tabled_score_is_the_divided_one_up_to_rounding() {
        for parent in [1, 2, 7, 100, 5_000, 1 << 20] {
            for exploration in [0.0, 0.35, 1.4] {
                let divided = Divided::below(parent, exploration);
                let tabled = Tabled::below(parent, exploration);
                for visits in [0, 1, 2, 3, 31, 32, 1000, 1023, 1024, 1025, 70_000] {
                    for half_wins in [0, 1, visits, 2 * visits] {
                        let (a, b) = (
                            divided.score(visits, half_wins),
                            tabled.score(visits, half_wins),
                        );
                        assert!(
                            (a - b).abs() <= 1e-12 * a.abs().max(1.0),
                            "{parent} {visits} {half_wins}: {a} {b}"
                        );
                    }
                }
            }
        }
    }
}
