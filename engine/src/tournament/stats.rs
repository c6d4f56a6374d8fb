//! Match statistics: the score, the Elo difference with its 95% interval and the likelihood of
//! superiority, from the games (wins, draws, losses) or from the game pairs (the pentanomial
//! counts of pairs scoring 0, ½, 1, 1½ and 2 points).
//!
//! The formulas are fastchess's (`elo_wdl.cpp`, `elo_pentanomial.cpp`), which for the games are
//! cutechess's `Elo` class too: the score's variance from the sample, a normal 95% interval of
//! the score mapped through the logistic curve, and the normalized Elo of fishtest.

use serde::{Deserialize, Serialize};

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959963984540054;

/// 800 / ln 10: the factor from a normalized score difference to normalized Elo.
const NELO: f64 = 800.0 / std::f64::consts::LN_10;

/// A game's result for one engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// The engine won.
    Win,
    /// A draw.
    Draw,
    /// The engine lost.
    Loss,
}

impl GameResult {
    /// The engine's points: 1, ½ or 0.
    #[must_use]
    pub fn points(self) -> f64 {
        self.half_points() as f64 / 2.0
    }

    /// The engine's points in half points: 2, 1 or 0.
    #[must_use]
    pub fn half_points(self) -> usize {
        match self {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        }
    }

    /// The opponent's result.
    #[must_use]
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }
}

/// What a sample of games or pairs says about the strength difference.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    /// The score, a fraction of the points (0.5 is even).
    pub score: f64,
    /// The Elo difference the score means on the logistic curve (infinite when one side scored
    /// every point).
    pub elo: f64,
    /// The low end of the 95% interval.
    pub low: f64,
    /// The high end of the 95% interval.
    pub high: f64,
    /// Normalized Elo: the score's distance from even in units of its own spread, as fishtest
    /// reports it.
    pub nelo: f64,
    /// Half the width of normalized Elo's 95% interval.
    pub nelo_error: f64,
    /// The likelihood of superiority: how sure it is that the engine is the stronger (0 to 1).
    pub los: f64,
}

impl EloEstimate {
    /// Half the width of the 95% interval (the "±" of cutechess and fastchess).
    #[must_use]
    pub fn error(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// From trials of the given `values` (score fractions) seen `counts` times, each trial
    /// `games` games long; `None` without trials.
    fn of(values: &[f64], counts: &[u32], games: f64) -> Option<EloEstimate> {
        let trials: f64 = counts.iter().map(|&c| f64::from(c)).sum();
        if trials == 0.0 {
            return None;
        }
        let share = |c: u32| f64::from(c) / trials;
        let score: f64 = values.iter().zip(counts).map(|(v, &c)| v * share(c)).sum();
        let variance: f64 = values.iter().zip(counts).map(|(v, &c)| share(c) * (v - score).powi(2)).sum();
        let spread = (variance / trials).sqrt();
        let margin = Z95 * spread;
        let (nelo, nelo_error) = if variance > 0.0 {
            let unit = (games * variance).sqrt();
            ((score - 0.5) / unit * NELO, margin / unit * NELO)
        } else {
            (0.0, 0.0)
        };
        let los = if spread > 0.0 {
            0.5 * (1.0 + erf((score - 0.5) / (std::f64::consts::SQRT_2 * spread)))
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };
        Some(EloEstimate {
            score,
            elo: elo_from_score(score),
            low: elo_from_score((score - margin).max(0.0)),
            high: elo_from_score((score + margin).min(1.0)),
            nelo,
            nelo_error,
            los,
        })
    }
}

/// The Elo difference that a score fraction means: −400·log₁₀(1/score − 1).
#[must_use]
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score fraction at an Elo difference: 1 / (1 + 10^(−elo/400)).
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An engine's wins, draws and losses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WinDrawLoss {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl WinDrawLoss {
    /// Counts a game.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// The games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The points: a win is 1, a draw ½.
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The opponent's record.
    #[must_use]
    pub fn reversed(&self) -> WinDrawLoss {
        WinDrawLoss { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// Score, Elo with its 95% interval and LOS, treating the games as independent; `None`
    /// before the first game.
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::of(&[0.0, 0.5, 1.0], &[self.losses, self.draws, self.wins], 1.0)
    }
}

/// The pentanomial counts of game pairs (the same opening with each engine on each side): how
/// many pairs the engine scored 0, ½, 1, 1½ and 2 points in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// `counts[h]`: the pairs in which the engine scored `h` half points.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts a pair from the engine's two results.
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        self.counts[first.half_points() + second.half_points()] += 1;
    }

    /// The pairs played.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The opponent's counts.
    #[must_use]
    pub fn reversed(&self) -> Pentanomial {
        let mut counts = self.counts;
        counts.reverse();
        Pentanomial { counts }
    }

    /// Score, Elo with its 95% interval and LOS from the pairs, which accounts for the
    /// openings' bias; `None` before the first pair.
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::of(&[0.0, 0.25, 0.5, 0.75, 1.0], &self.counts, 2.0)
    }
}

/// The error function, by the Chebyshev fit of *Numerical Recipes* (`erfcc`, fractional error
/// below 1.2e-7), as the standard library has none.
pub(crate) fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = [
        -1.26551223,
        1.00002368,
        0.37409196,
        0.09678418,
        -0.18628806,
        0.27886807,
        -1.13520398,
        1.48851587,
        -0.82215223,
        0.17087277,
    ]
    .iter()
    .rev()
    .fold(0.0, |acc, c| c + t * acc);
    let erfc = t * (-z * z + poly).exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) {
        assert!((actual - expected).abs() <= tolerance, "{actual} is not within {tolerance} of {expected}");
    }

    // The expected values are fastchess's published tests (app/tests/elo_test.cpp, two decimals;
    // its Stats(wins, losses, draws) and Stats(LL, LD, WL, DD, WD, WW)), recomputed with
    // python3 from the formulas: s = Σ pᵢ·aᵢ, var = Σ pᵢ·(aᵢ − s)², elo = −400·log10(1/s − 1),
    // the interval s ± 1.959964·√(var/n) mapped the same way, nElo = (s − 0.5)/√(k·var)·800/ln10
    // (k = 1 per game, 2 per pair) and LOS = ½·(1 + erf((s − 0.5)/√(2·var/n))).

    #[test]
    fn elo_from_games() {
        // W 136, D 111, L 96: python3 gives elo 40.7025 ± 30.4272, nElo 49.7684 ± 36.7685,
        // LOS 99.6010%.
        let games = WinDrawLoss { wins: 136, draws: 111, losses: 96 };
        let elo = games.elo().expect("games");
        close(elo.score, 0.558309, 1e-6);
        close(elo.elo, 40.70, 0.01);
        close(elo.error(), 30.43, 0.01);
        close(elo.nelo, 49.77, 0.01);
        close(elo.nelo_error, 36.77, 0.01);
        close(elo.los, 0.99601, 1e-5);
        // W 76, D 123, L 89: nElo −20.76 ± 40.13, LOS 15.53%.
        let elo = WinDrawLoss { wins: 76, draws: 123, losses: 89 }.elo().expect("games");
        close(elo.nelo, -20.76, 0.01);
        close(elo.nelo_error, 40.13, 0.01);
        close(elo.los, 0.1553, 1e-4);
        close(elo.elo, -15.69, 0.01);
        // The opponent's view mirrors it.
        let mirror = games.reversed().elo().expect("games");
        close(mirror.elo, -40.70, 0.01);
        close(mirror.los, 1.0 - 0.99601, 1e-5);
    }

    #[test]
    fn elo_from_pairs() {
        // LL 34, LD 54, WL 31 + DD 32, WD 64, WW 75: elo 55.58 ± 27.65, nElo 57.94 ± 28.28.
        let pairs = Pentanomial { counts: [34, 54, 63, 64, 75] };
        let elo = pairs.elo().expect("pairs");
        close(elo.elo, 55.58, 0.01);
        close(elo.error(), 27.65, 0.01);
        close(elo.nelo, 57.94, 0.01);
        close(elo.nelo_error, 28.28, 0.01);
        close(elo.los, 0.99997, 1e-5);
        // LL 332, LD 433, WL 457 + DD 41, WD 333, WW 334: elo −8.64 ± 10.33, nElo −9.17 ± 10.96,
        // LOS 5.05%.
        let elo = Pentanomial { counts: [332, 433, 498, 333, 334] }.elo().expect("pairs");
        close(elo.elo, -8.64, 0.01);
        close(elo.error(), 10.33, 0.01);
        close(elo.nelo, -9.17, 0.01);
        close(elo.nelo_error, 10.96, 0.01);
        close(elo.los, 0.0505, 1e-4);
    }

    #[test]
    fn pairs_and_games_are_counted() {
        let mut pairs = Pentanomial::default();
        let mut games = WinDrawLoss::default();
        for (a, b) in [(GameResult::Win, GameResult::Draw), (GameResult::Loss, GameResult::Win)] {
            pairs.add_pair(a, b);
            games.add(a);
            games.add(b);
        }
        pairs.add_pair(GameResult::Draw, GameResult::Draw);
        assert_eq!(pairs.counts, [0, 0, 2, 1, 0]);
        assert_eq!(pairs.reversed().counts, [0, 1, 2, 0, 0]);
        assert_eq!(pairs.pairs(), 3);
        assert_eq!(games, WinDrawLoss { wins: 2, draws: 1, losses: 1 });
        assert_eq!(games.points(), 2.5);
        assert_eq!(GameResult::Loss.reversed().points(), 1.0);
        assert_eq!(WinDrawLoss::default().elo(), None);
    }

    #[test]
    fn the_logistic_curve_and_its_inverse() {
        close(elo_from_score(0.5), 0.0, 1e-12);
        // 3 points of 4: −400·log10(1/3) = 190.849 Elo.
        close(elo_from_score(0.75), 190.849, 1e-3);
        close(score_from_elo(190.849), 0.75, 1e-6);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        // Every point to one side: infinite Elo, certain superiority.
        let elo = WinDrawLoss { wins: 4, draws: 0, losses: 0 }.elo().expect("games");
        assert_eq!((elo.elo, elo.los), (f64::INFINITY, 1.0));
    }

    #[test]
    fn erf_matches_known_values() {
        // erf(0.5) = 0.5204998778, erf(1) = 0.8427007929, erf(2) = 0.9953222650.
        close(erf(0.0), 0.0, 2e-7);
        close(erf(0.5), 0.5204998778, 2e-7);
        close(erf(1.0), 0.8427007929, 2e-7);
        close(erf(-2.0), -0.9953222650, 2e-7);
    }
}
