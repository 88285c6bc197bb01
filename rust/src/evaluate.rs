//! A static estimate of who wins, for any [`Game`] that knows its features:
//! a logistic model `1 / (1 + exp(-w . f))` over a few numbers each game
//! reads off a position (claims, groups, what each side can still reach),
//! with weights fitted to the outcomes of the engine's own games
//! ([`fit`], by `cargo run --release --example fit_evaluation`), not guessed.
//!
//! Features are read from the side of the seat to act: each game lists its
//! numbers and its opponent's side by side, the first feature is 1 (the
//! bias: what being to act is worth), and the estimate is the seat to act's
//! chance to win.

use rayon::prelude::*;

use crate::game::{ActionSet, Game, random_action, winner_at_end};
use crate::mcts::{Budget, Config, Mcts};
use crate::rng::Rng;

/// A game's static estimate of the seat to act's chance to win.
pub trait Evaluate: Game {
    /// The feature names, in the order of [`Evaluate::features`]; the first
    /// is the bias, always 1.
    const FEATURE_NAMES: &'static [&'static str];

    /// The fitted weights, one a feature.
    const WEIGHTS: &'static [f32];

    /// The random decisions a playout of the Monte Carlo tree search takes
    /// before this estimate scores it ([`crate::mcts::Config::cutoff`]), as
    /// measured against playouts to the end (docs/bots.md).
    const CUTOFF: u32;

    /// The exploration constant of a search whose playouts are cut at
    /// [`Evaluate::CUTOFF`] and scored by this estimate, as measured
    /// (docs/bots.md): the estimate's scores spread less than whole games',
    /// so the best constant with them is not [`Game::EXPLORATION`].
    const CUT_EXPLORATION: f64;

    /// The features of this state, from the seat to act's side; as many as
    /// [`Evaluate::FEATURE_NAMES`].
    fn features(&self, out: &mut Vec<f32>);

    /// The seat to act's chance to win, by the fitted weights.
    fn estimate(&self) -> f32 {
        self.estimate_with(&mut Vec::with_capacity(Self::FEATURE_NAMES.len()))
    }

    /// [`Evaluate::estimate`], the features written into `scratch`: a
    /// caller that estimates often keeps one buffer, not an allocation a
    /// call.
    #[inline]
    fn estimate_with(&self, scratch: &mut Vec<f32>) -> f32 {
        self.features(scratch);
        logistic(dot(scratch, Self::WEIGHTS))
    }
}

/// `1 / (1 + exp(-x))`.
#[inline]
pub fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The dot product of two slices of one length.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    debug_assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// A position of a game, its features, and whether the seat to act won.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The features ([`Evaluate::features`]).
    pub features: Vec<f32>,
    /// Whether the seat to act went on to win.
    pub won: bool,
    /// The game the position comes from (samples of one game are alike).
    pub game: usize,
}

/// How the games that give the samples are played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfPlay {
    /// How many games.
    pub games: usize,
    /// The decisions played at random first, so that games differ.
    pub random_decisions: usize,
    /// The search's iterations a decision after them.
    pub iterations: u64,
    /// One position in `every` is kept (the decisions of one game are alike).
    pub every: usize,
    /// The seed of the games.
    pub seed: u64,
}

/// Samples from games of `start` that the Monte Carlo tree search plays
/// against itself (after a few random decisions), on the threads of rayon's
/// pool; the same for a seed on any number of threads.
pub fn self_play<G: Evaluate>(start: &G, play: SelfPlay) -> Vec<Sample> {
    let every = play.every.max(1);
    (0..play.games)
        .into_par_iter()
        .flat_map_iter(|game| {
            let mut rng = Rng::for_game(play.seed, game as u64);
            let config = Config {
                seed: play.seed ^ (game as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                solve_share: 0.0,
                // Playouts to the end: the estimate is not fitted to itself.
                cutoff: 0,
                ..Config::for_game::<G>()
            };
            let mut state = start.clone();
            let mut kept: Vec<(Vec<f32>, usize)> = Vec::new();
            let mut decision = 0;
            let offset = rng.below(every as u64) as usize;
            while !state.legal_actions().is_empty() {
                if decision % every == offset {
                    let mut features = Vec::with_capacity(G::FEATURE_NAMES.len());
                    state.features(&mut features);
                    kept.push((features, state.seat_to_act()));
                }
                let action = if decision < play.random_decisions {
                    random_action(&state, &mut rng)
                } else {
                    let mut search = Mcts::new(state.clone(), config);
                    search.search(Budget::iterations(play.iterations));
                    search.best_action()
                }
                .expect("a game not over has an action");
                state.apply(action);
                decision += 1;
            }
            let winner = winner_at_end(&state);
            kept.into_iter().map(move |(features, seat)| Sample {
                features,
                won: seat == winner,
                game,
            })
        })
        .collect()
}

/// The weights of a logistic model of `samples`, fitted by Newton's method
/// (iteratively reweighted least squares) with an L2 penalty of `ridge` on
/// every weight but the bias.
///
/// # Panics
///
/// When the samples differ in their number of features.
pub fn fit(samples: &[Sample], ridge: f64) -> Vec<f32> {
    let Some(first) = samples.first() else {
        return Vec::new();
    };
    let count = first.features.len();
    assert!(
        samples.iter().all(|s| s.features.len() == count),
        "features of one length"
    );
    let mut weights = vec![0.0_f64; count];
    for _ in 0..50 {
        // The gradient and the Hessian of the penalised log-likelihood.
        let mut gradient = vec![0.0; count];
        let mut hessian = vec![vec![0.0; count]; count];
        for sample in samples {
            let row: Vec<f64> = sample.features.iter().map(|&v| f64::from(v)).collect();
            let score: f64 = row.iter().zip(&weights).map(|(a, b)| a * b).sum();
            let chance = 1.0 / (1.0 + (-score).exp());
            let target = if sample.won { 1.0 } else { 0.0 };
            let curvature = (chance * (1.0 - chance)).max(1e-9);
            for i in 0..count {
                gradient[i] += (target - chance) * row[i];
                for j in 0..count {
                    hessian[i][j] += curvature * row[i] * row[j];
                }
            }
        }
        for i in 1..count {
            gradient[i] -= ridge * weights[i];
            hessian[i][i] += ridge;
        }
        let step = solve_linear(hessian, gradient);
        let change: f64 = step.iter().map(|d| d.abs()).fold(0.0, f64::max);
        for (weight, d) in weights.iter_mut().zip(&step) {
            *weight += d;
        }
        if change < 1e-9 {
            break;
        }
    }
    #[allow(clippy::cast_possible_truncation)] // weights are small numbers
    weights.into_iter().map(|w| w as f32).collect()
}

/// The solution of `a x = b` for a symmetric positive definite `a`, by
/// Gaussian elimination with partial pivoting.
fn solve_linear(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .expect("a column has rows");
        a.swap(col, pivot);
        b.swap(col, pivot);
        let diagonal = a[col][col];
        if diagonal.abs() < 1e-12 {
            continue;
        }
        for row in col + 1..n {
            let factor = a[row][col] / diagonal;
            let (above, below) = a.split_at_mut(row);
            for (target, source) in below[0][col..].iter_mut().zip(&above[col][col..]) {
                *target -= factor * source;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = if a[row][row].abs() < 1e-12 {
            0.0
        } else {
            (b[row] - tail) / a[row][row]
        };
    }
    x
}

/// How well `weights` predict `samples`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Accuracy {
    /// The samples.
    pub samples: usize,
    /// The share whose winner the estimate calls (above or below 1/2).
    pub correct: f64,
    /// The mean log loss, in nats (0.693 is a coin's).
    pub log_loss: f64,
}

/// The accuracy of `weights` on `samples`.
pub fn accuracy(samples: &[Sample], weights: &[f32]) -> Accuracy {
    let (mut correct, mut loss) = (0usize, 0.0);
    for sample in samples {
        let p = f64::from(logistic(dot(&sample.features, weights))).clamp(1e-6, 1.0 - 1e-6);
        correct += usize::from((p > 0.5) == sample.won);
        loss -= if sample.won { p.ln() } else { (1.0 - p).ln() };
    }
    #[allow(clippy::cast_precision_loss)] // far below 2**52 samples
    let count = samples.len().max(1) as f64;
    #[allow(clippy::cast_precision_loss)]
    Accuracy {
        samples: samples.len(),
        correct: correct as f64 / count,
        log_loss: loss / count,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples of a known model: the fit finds its weights again.
    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = [0.3_f32, 2.0, -1.5];
        let mut rng = Rng::for_game(1, 0);
        #[allow(clippy::cast_precision_loss)]
        let uniform = |rng: &mut Rng| (rng.below(1 << 20) as f32) / (1 << 20) as f32 * 2.0 - 1.0;
        let samples: Vec<Sample> = (0..20_000)
            .map(|game| {
                let features = vec![1.0, uniform(&mut rng), uniform(&mut rng)];
                let p = logistic(dot(&features, &truth));
                #[allow(clippy::cast_precision_loss)]
                let won = (rng.below(1 << 20) as f32) / ((1 << 20) as f32) < p;
                Sample {
                    features,
                    won,
                    game,
                }
            })
            .collect();
        let weights = fit(&samples, 0.0);
        for (w, t) in weights.iter().zip(truth) {
            assert!((w - t).abs() < 0.15, "{weights:?} against {truth:?}");
        }
        let fitted = accuracy(&samples, &weights);
        let zero = accuracy(&samples, &[0.0; 3]);
        assert!(fitted.log_loss < zero.log_loss);
        assert!((zero.log_loss - std::f64::consts::LN_2).abs() < 1e-6);
    }

    #[test]
    fn a_ridge_shrinks_the_weights_but_not_the_bias() {
        let samples: Vec<Sample> = (0..400)
            .map(|game| Sample {
                features: vec![1.0, if game % 2 == 0 { 1.0 } else { -1.0 }],
                won: game % 4 != 3,
                game,
            })
            .collect();
        let free = fit(&samples, 0.0);
        let shrunk = fit(&samples, 1_000.0);
        assert!(shrunk[1].abs() < free[1].abs());
        assert!(shrunk[0] > 0.0);
    }

    #[test]
    fn no_samples_fit_no_weights() {
        assert!(fit(&[], 1.0).is_empty());
    }
}
