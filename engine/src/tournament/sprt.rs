//! The sequential probability ratio test: after each game pair, is the engine `elo1` stronger
//! (H1) rather than `elo0` (H0), or is it too early to say?
//!
//! The log-likelihood ratio is the generalized one of fastchess and fishtest (Michel Van den
//! Bergh, "Comments on Normalized Elo"): the sample's distribution over the pair scores (or game
//! scores) against the closest distribution under each hypothesis, found by maximum likelihood.
//! The hypotheses are in normalized Elo (fishtest's and fastchess's default) or in logistic Elo.
//! Empty buckets count as 0.001, as in fastchess.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::tournament::stats::{Pentanomial, WinDrawLoss, score_from_elo};

/// 800 / ln 10: the factor from a normalized score difference to normalized Elo.
const NELO: f64 = 800.0 / std::f64::consts::LN_10;

/// What the Elo bounds of a test mean.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtModel {
    /// Normalized Elo: the score's distance from even in units of its spread (fishtest's).
    #[default]
    Normalized,
    /// Logistic Elo: the expected score 1 / (1 + 10^(−elo/400)).
    Logistic,
}

/// The test's verdict so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtDecision {
    /// The ratio fell to the lower bound: the engine is not `elo1` stronger.
    AcceptH0,
    /// The ratio rose to the upper bound: the engine is `elo1` stronger rather than `elo0`.
    AcceptH1,
    /// Neither bound is reached: play on.
    Continue,
}

/// A test's bounds that make no sense.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// `elo0` must be below `elo1`.
    BoundsOutOfOrder {
        /// The H0 bound.
        elo0: f64,
        /// The H1 bound.
        elo1: f64,
    },
    /// `alpha` and `beta` must each be between 0 and 1, with a sum below 1.
    BadErrorRates {
        /// The false positive rate.
        alpha: f64,
        /// The false negative rate.
        beta: f64,
    },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::BoundsOutOfOrder { elo0, elo1 } => {
                write!(f, "The SPRT's elo0 ({elo0}) must be below its elo1 ({elo1}).")
            }
            SprtError::BadErrorRates { alpha, beta } => write!(
                f,
                "The SPRT's alpha ({alpha}) and beta ({beta}) must each be between 0 and 1, and their sum below 1."
            ),
        }
    }
}

impl std::error::Error for SprtError {}

/// A sequential probability ratio test of H0 (the engine is `elo0` stronger) against H1
/// (`elo1`), with the false positive rate `alpha` and the false negative rate `beta`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
    /// What the Elo differences mean.
    pub model: SprtModel,
}

/// The state of a test after some pairs.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The bound for H0: ln(β / (1 − α)).
    pub lower: f64,
    /// The bound for H1: ln((1 − β) / α).
    pub upper: f64,
    /// The verdict.
    pub decision: SprtDecision,
}

impl Sprt {
    /// A test, once its bounds make sense.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: SprtModel) -> Result<Sprt, SprtError> {
        if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
            return Err(SprtError::BoundsOutOfOrder { elo0, elo1 });
        }
        let rate = |r: f64| r > 0.0 && r < 1.0;
        if !rate(alpha) || !rate(beta) || alpha + beta >= 1.0 {
            return Err(SprtError::BadErrorRates { alpha, beta });
        }
        Ok(Sprt { elo0, elo1, alpha, beta, model })
    }

    /// The lower (H0) and upper (H1) bounds of the log-likelihood ratio.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the game pairs.
    #[must_use]
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        // A pair's score is the mean of its two games, so its normalized Elo scales by √2.
        self.llr_of(&[0.0, 0.25, 0.5, 0.75, 1.0], &pairs.counts, std::f64::consts::SQRT_2)
    }

    /// The log-likelihood ratio of single games (when the games are not played in pairs).
    #[must_use]
    pub fn llr_games(&self, games: &WinDrawLoss) -> f64 {
        self.llr_of(&[0.0, 0.5, 1.0], &[games.losses, games.draws, games.wins], 1.0)
    }

    /// The verdict at a log-likelihood ratio.
    #[must_use]
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// The ratio, the bounds and the verdict after `pairs`.
    #[must_use]
    pub fn status(&self, pairs: &Pentanomial) -> SprtStatus {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        SprtStatus { llr, lower, upper, decision: self.decide(llr) }
    }

    fn llr_of(&self, values: &[f64], counts: &[u32], scale: f64) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let counts: Vec<f64> = counts.iter().map(|&c| if c == 0 { 1e-3 } else { f64::from(c) }).collect();
        let total: f64 = counts.iter().sum();
        let sample: Vec<f64> = counts.iter().map(|c| c / total).collect();
        let closest = |elo: f64| match self.model {
            SprtModel::Logistic => mle_with_mean(values, &sample, score_from_elo(elo)),
            SprtModel::Normalized => mle_with_t(values, &sample, scale * elo / NELO),
        };
        let (p0, p1) = (closest(self.elo0), closest(self.elo1));
        total * sample.iter().zip(p0.iter().zip(&p1)).map(|(s, (a, b))| s * (b.ln() - a.ln())).sum::<f64>()
    }
}

/// The root of a function that falls from positive to negative between `low` and `high`.
fn root(f: impl Fn(f64) -> f64, mut low: f64, mut high: f64) -> f64 {
    for _ in 0..200 {
        let mid = (low + high) / 2.0;
        if mid <= low || mid >= high {
            break;
        }
        if f(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}

/// The distribution over `values` closest to `sample` (maximum likelihood) whose mean is `mean`
/// (proposition 1.1 of Van den Bergh's note).
fn mle_with_mean(values: &[f64], sample: &[f64], mean: f64) -> Vec<f64> {
    let (first, last) = (values[0], values[values.len() - 1]);
    let theta = root(
        |x| sample.iter().zip(values).map(|(p, a)| p * (a - mean) / (1.0 + x * (a - mean))).sum(),
        -1.0 / (last - mean),
        -1.0 / (first - mean),
    );
    sample.iter().zip(values).map(|(p, a)| p / (1.0 + theta * (a - mean))).collect()
}

/// The distribution over `values` closest to `sample` whose normalized score (mean − ½) / σ is
/// `t`, by the fixed-point iteration of section 4.1 of Van den Bergh's note.
fn mle_with_t(values: &[f64], sample: &[f64], t: f64) -> Vec<f64> {
    let mut p = vec![1.0 / values.len() as f64; values.len()];
    for _ in 0..1000 {
        let mu: f64 = values.iter().zip(&p).map(|(a, q)| a * q).sum();
        let sigma = values.iter().zip(&p).map(|(a, q)| q * (a - mu).powi(2)).sum::<f64>().sqrt();
        let phi: Vec<f64> =
            values.iter().map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2))).collect();
        let (low, high) = phi.iter().fold((f64::MAX, f64::MIN), |(l, h), &x| (l.min(x), h.max(x)));
        let theta = root(
            |x| sample.iter().zip(&phi).map(|(q, f)| q * f / (1.0 + x * f)).sum(),
            -1.0 / high,
            -1.0 / low,
        );
        let next: Vec<f64> = sample.iter().zip(&phi).map(|(q, f)| q / (1.0 + theta * f)).collect();
        let change = next.iter().zip(&p).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!((actual - expected).abs() <= tolerance, "{actual} is not within {tolerance} of {expected}");
    }

    fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
        Sprt::new(elo0, elo1, 0.05, 0.05, model).expect("valid")
    }

    // The expected ratios are fastchess's published tests (app/tests/sprt_test.cpp, to 1%; its
    // Stats(wins, losses, draws) and Stats(LL, LD, WL, DD, WD, WW)), recomputed with python3 by
    // the same maximum-likelihood formulas with a plain bisection (the digits in the comments).

    #[test]
    fn pentanomial_ratios_match_fastchess() {
        // Normalized [0, 2]: python3 2.250368 (fastchess 2.25).
        let pairs = Pentanomial { counts: [365, 16618, 36029 + 200, 16974, 390] };
        close(sprt(0.0, 2.0, SprtModel::Normalized).llr(&pairs), 2.250368, 1e-4);
        // Normalized [−1.75, 0.25]: 3.010154 (3.01).
        let pairs = Pentanomial { counts: [127, 4883, 10311 + 401, 5150, 104] };
        close(sprt(-1.75, 0.25, SprtModel::Normalized).llr(&pairs), 3.010154, 1e-4);
        // Logistic [0.5, 2.5]: −3.074126 (−3.07).
        let pairs = Pentanomial { counts: [223, 9863, 20279 + 1000, 10037, 246] };
        close(sprt(0.5, 2.5, SprtModel::Logistic).llr(&pairs), -3.074126, 1e-4);
        // Logistic [0, 2]: −4.978673 (−4.98).
        let pairs = Pentanomial { counts: [871, 26175, 55003 + 980, 26678, 821] };
        close(sprt(0.0, 2.0, SprtModel::Logistic).llr(&pairs), -4.978673, 1e-4);
    }

    #[test]
    fn game_ratios_match_fastchess() {
        // Normalized [0, 2] on W 36433, L 36027, D 68692: 0.923293 (0.92).
        let games = WinDrawLoss { wins: 36433, draws: 68692, losses: 36027 };
        close(sprt(0.0, 2.0, SprtModel::Normalized).llr_games(&games), 0.923293, 1e-4);
        // Normalized [−1.75, 0.25] on W 10871, L 10650, D 20431: 2.297500 (2.30).
        let games = WinDrawLoss { wins: 10871, draws: 20431, losses: 10650 };
        close(sprt(-1.75, 0.25, SprtModel::Normalized).llr_games(&games), 2.297500, 1e-4);
        // Logistic [0.5, 2.5] on W 21404, L 21184, D 40708: −1.571889 (−1.57).
        let games = WinDrawLoss { wins: 21404, draws: 40708, losses: 21184 };
        close(sprt(0.5, 2.5, SprtModel::Logistic).llr_games(&games), -1.571889, 1e-4);
    }

    #[test]
    fn bounds_and_decisions() {
        let test = sprt(0.0, 2.0, SprtModel::Normalized);
        // ln(0.05 / 0.95) = −2.944439.
        let (lower, upper) = test.bounds();
        close(lower, -2.944439, 1e-6);
        close(upper, 2.944439, 1e-6);
        assert_eq!(test.decide(2.95), SprtDecision::AcceptH1);
        assert_eq!(test.decide(-2.95), SprtDecision::AcceptH0);
        assert_eq!(test.decide(2.9), SprtDecision::Continue);
        assert_eq!(test.status(&Pentanomial::default()).decision, SprtDecision::Continue);
        // A clearly stronger engine passes, a clearly weaker one fails.
        let strong = Pentanomial { counts: [100, 2000, 5000, 2600, 150] };
        assert_eq!(test.status(&strong).decision, SprtDecision::AcceptH1);
        assert_eq!(test.status(&strong.reversed()).decision, SprtDecision::AcceptH0);
        let even = Pentanomial { counts: [10, 200, 500, 200, 10] };
        assert_eq!(test.status(&even).decision, SprtDecision::Continue);
    }

    #[test]
    fn nonsense_bounds_are_refused() {
        assert!(matches!(
            Sprt::new(2.0, 0.0, 0.05, 0.05, SprtModel::Normalized),
            Err(SprtError::BoundsOutOfOrder { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 2.0, 0.0, 0.05, SprtModel::Logistic),
            Err(SprtError::BadErrorRates { .. })
        ));
        assert!(matches!(
            Sprt::new(0.0, 2.0, 0.6, 0.5, SprtModel::Logistic),
            Err(SprtError::BadErrorRates { .. })
        ));
    }
}
