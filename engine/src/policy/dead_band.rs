//! The design note's rules: a dead band of ±D for draws, a running sum for resignation, and
//! one draw offer per side.

use serde::{Deserialize, Serialize};

use super::{Answer, Decision, Explanation, PolicySettings, Situation, pawns};

/// The dead band's numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeadBandSettings {
    /// D: scores within ±D count as level.
    pub width: i32,
    /// N: a draw is offered once the scores stayed in the band for more than this many moves.
    pub moves: usize,
    /// T: resign when the running sum falls below −T.
    pub threshold: i32,
}

impl Default for DeadBandSettings {
    fn default() -> Self {
        DeadBandSettings { width: 25, moves: 10, threshold: 3000 }
    }
}

/// How many of the latest scores stayed in the band.
fn level_run(d: &DeadBandSettings, scores: &[i32]) -> usize {
    scores.iter().rev().take_while(|cp| cp.abs() <= d.width).count()
}

/// The running sum: scores in the band add nothing, a score above it resets the sum, a score
/// below it adds up.
fn running_sum(d: &DeadBandSettings, scores: &[i32]) -> i32 {
    scores.iter().fold(0i32, |sum, &cp| {
        if cp > d.width {
            0
        } else if cp < -d.width {
            sum.saturating_add(cp)
        } else {
            sum
        }
    })
}

pub(super) fn decide(s: &PolicySettings, scores: &[i32], offered: bool, _now: &Situation) -> Decision {
    let d = &s.dead_band;
    let sum = running_sum(d, scores);
    if s.resign && sum < -d.threshold {
        let mut why = Explanation::default();
        why.push(format!(
            "the sum of my scores below -{} has reached {} (my limit is -{})",
            pawns(d.width).trim_start_matches('+'),
            pawns(sum),
            pawns(d.threshold).trim_start_matches('+')
        ));
        return Decision::Resign(why);
    }
    let run = level_run(d, scores);
    if s.draw && !offered && run > d.moves {
        let mut why = Explanation::default();
        why.push(format!(
            "my score has stayed within ±{} for {run} {}",
            pawns(d.width).trim_start_matches('+'),
            if run == 1 { "move" } else { "moves" }
        ));
        return Decision::OfferDraw(why);
    }
    Decision::Play
}

pub(super) fn answer(s: &PolicySettings, scores: &[i32], _now: &Situation) -> Answer {
    let d = &s.dead_band;
    let mut why = Explanation::default();
    if !s.draw {
        why.push("I am set not to agree to draws");
        return Answer { accept: false, why };
    }
    let run = level_run(d, scores);
    let current = scores.last().copied().unwrap_or(0);
    let band = pawns(d.width).trim_start_matches('+').to_string();
    if run > d.moves {
        why.push(format!(
            "my score has stayed within ±{band} for {run} {}",
            if run == 1 { "move" } else { "moves" }
        ));
        Answer { accept: true, why }
    } else if current < -d.width {
        why.push(format!("my score {} is below -{band}", pawns(current)));
        Answer { accept: true, why }
    } else {
        why.push(format!(
            "my score {} has been within ±{band} for only {run} of the {} moves I need",
            pawns(current),
            d.moves + 1
        ));
        Answer { accept: false, why }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Policy, Rules};
    use super::*;
    use crate::Score;

    fn policy() -> Policy {
        Policy::new(PolicySettings { rules: Rules::DeadBand, ..Default::default() })
    }

    fn at(cp: i32) -> Situation {
        Situation { move_number: 5, score: Score::Cp(cp), material: 0, clock: None, opponent_in_check: false }
    }

    #[test]
    fn offers_once_after_more_than_n_level_moves() {
        let mut p = policy();
        for _ in 0..10 {
            assert_eq!(p.decide(&at(10)), Decision::Play, "ten moves in the band are not more than N");
        }
        let d = p.decide(&at(-25));
        assert_eq!(d.message().unwrap(), "I offer a draw: my score has stayed within ±0.25 for 11 moves.");
        for _ in 0..20 {
            assert_eq!(p.decide(&at(0)), Decision::Play, "one offer per side");
        }
    }

    #[test]
    fn accepts_when_it_would_offer_or_when_worse_than_the_band() {
        let mut p = policy();
        p.decide(&at(100));
        assert!(!p.answer(&at(0)).accept);
        assert!(p.answer(&at(-26)).accept);
        assert_eq!(p.answer(&at(-26)).message(), "I accept: my score -0.26 is below -0.25.");
        for _ in 0..10 {
            p.decide(&at(0));
        }
        assert!(p.answer(&at(0)).accept);
    }

    #[test]
    fn running_sum_ignores_the_band_and_resets_above_it() {
        let d = DeadBandSettings::default();
        assert_eq!(running_sum(&d, &[-100, 20, -200]), -300);
        assert_eq!(running_sum(&d, &[-100, 26, -200]), -200);
        let mut p = policy();
        let mut last = Decision::Play;
        for cp in [-1000, -1000, 0, -999] {
            last = p.decide(&at(cp));
        }
        assert_eq!(last, Decision::Play, "-2999 is not below -3000");
        let d = p.decide(&at(-2));
        assert_eq!(d, Decision::Play, "a score inside the band adds nothing");
        let d = p.decide(&at(-26));
        assert_eq!(
            d.message().unwrap(),
            "I resign: the sum of my scores below -0.25 has reached -30.25 (my limit is -30.00)."
        );
    }
}
