//! Terra's rules for resigning, offering and accepting draws.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{
    Answer, Decision, Explanation, MATE_CP, PolicySettings, Situation, duration_words, moves_ago, pawns,
    per_move,
};

/// Terra's numbers, named as in its documentation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TerraSettings {
    /// Resign rule 1: the score must stay below this (−450, a bishop and a pawn)...
    pub resign_score: i32,
    /// ...for this many consecutive moves (4).
    pub resign_moves: usize,
    /// Resign rule 2: the material balance must be at or below this (−350).
    pub resign_material: i32,
    /// Resign rule 3 and draw rule 4: a side is short of time under this per coming move (5 s).
    pub short_time: Duration,
    /// The coming moves assumed when the time control does not say (sudden death).
    pub coming_moves: u32,
    /// Resign rule 6: the opponent must have improved by more than this over the last
    /// `resign_moves` moves (75).
    pub improvement: i32,
    /// Draw rule 1 (x): no offer or acceptance before this move number (40).
    pub first_move: u32,
    /// Draw rule 2 (y): no new offer until this many moves after the last one.
    pub offer_gap: u32,
    /// Draw rule 5 (z): none of this many latest scores may be above the draw score.
    pub recent: usize,
    /// Draw rule 6 (s): no offer when the move's score is below this (resign instead).
    pub offer_floor: i32,
}

impl Default for TerraSettings {
    fn default() -> Self {
        TerraSettings {
            resign_score: -450,
            resign_moves: 4,
            resign_material: -350,
            short_time: Duration::from_secs(5),
            coming_moves: 20,
            improvement: 75,
            first_move: 40,
            offer_gap: 10,
            recent: 5,
            offer_floor: -300,
        }
    }
}

/// Resign rules first, then the draw offer rules.
pub(super) fn decide(
    s: &PolicySettings,
    scores: &[i32],
    last_offer: Option<u32>,
    now: &Situation,
) -> Decision {
    if s.resign
        && let Some(why) = resign_reasons(&s.terra, scores, now)
    {
        return Decision::Resign(why);
    }
    if s.draw
        && let Ok(why) = draw_reasons(s, scores, now, true, last_offer)
    {
        return Decision::OfferDraw(why);
    }
    Decision::Play
}

/// The same rules as an offer, except rules 2 (no repeated offers) and 6 (no offer when
/// losing): a lost position may accept a draw.
pub(super) fn answer(s: &PolicySettings, scores: &[i32], now: &Situation) -> Answer {
    if !s.draw {
        let mut why = Explanation::default();
        why.push("I am set not to agree to draws");
        return Answer { accept: false, why };
    }
    match draw_reasons(s, scores, now, false, None) {
        Ok(why) => Answer { accept: true, why },
        Err(why) => Answer { accept: false, why },
    }
}

/// All six resign rules must hold; the reasons, or `None` if any fails.
fn resign_reasons(t: &TerraSettings, scores: &[i32], now: &Situation) -> Option<Explanation> {
    let mut why = Explanation::default();
    // 1. The score below the threshold for the last `resign_moves` moves.
    if t.resign_moves == 0 || scores.len() < t.resign_moves {
        return None;
    }
    let window = &scores[scores.len() - t.resign_moves..];
    if window.iter().any(|&cp| cp >= t.resign_score) {
        return None;
    }
    why.push(format!("my score has been below {} for {} moves", pawns(t.resign_score), t.resign_moves));
    // 2. Bad material.
    if now.material > t.resign_material {
        return None;
    }
    why.push(format!("I am down {:.1} pawns", f64::from(-now.material) / 100.0));
    // 3. The opponent is not short of time.
    match now.clock {
        Some(clock) => {
            let (per, moves) = per_move(&clock, t.coming_moves);
            if per < t.short_time {
                return None;
            }
            why.push(format!(
                "you have {} ({} per move for {moves} moves)",
                duration_words(clock.opponent),
                duration_words(per)
            ));
        }
        None => why.push("there is no clock to run out"),
    }
    // 4. The opponent has no forced mate to execute.
    let current = *scores.last()?;
    if current <= -MATE_CP + 1000 {
        return None;
    }
    why.push("you have no forced mate to execute yet");
    // 5. The opponent is not in check after this move.
    if now.opponent_in_check {
        return None;
    }
    // 6. The opponent improved by more than `improvement` over the last moves.
    let before = scores.len().checked_sub(t.resign_moves + 1).map(|i| scores[i])?;
    let improved = before - current;
    if improved <= t.improvement {
        return None;
    }
    why.push(format!(
        "your position improved by {:.2} over the last {} moves",
        f64::from(improved) / 100.0,
        t.resign_moves
    ));
    Some(why)
}

/// Draw rules 1, 4, 5 and (for offers) 2 and 6: the reasons to agree, or the first reason not to.
fn draw_reasons(
    s: &PolicySettings,
    scores: &[i32],
    now: &Situation,
    offering: bool,
    last_offer: Option<u32>,
) -> Result<Explanation, Explanation> {
    let t = &s.terra;
    let refuse = |reason: String| {
        let mut why = Explanation::default();
        why.push(reason);
        Err(why)
    };
    let mut why = Explanation::default();
    // 1. Not before move x.
    if now.move_number < t.first_move {
        return refuse(format!(
            "it is only move {}; I agree to draws from move {}",
            now.move_number, t.first_move
        ));
    }
    // 2. Not again within y moves of an offer.
    if offering
        && let Some(last) = last_offer
        && now.move_number < last + t.offer_gap
    {
        return refuse(format!("I offered a draw at move {last} already"));
    }
    // 3. (Tablebase wins are not probed yet; Terra did not implement this rule either.)
    // 4. Not when the opponent is short of time and the engine is not.
    if let Some(clock) = now.clock {
        let (theirs, moves) = per_move(&clock, t.coming_moves);
        let mine = clock.own / moves.max(1);
        if theirs < t.short_time && mine >= t.short_time {
            return refuse(format!(
                "you are short of time ({} per move) and I am not",
                duration_words(theirs)
            ));
        }
    }
    // 5. None of the last z scores above the draw score.
    let recent = scores.len().min(t.recent.max(1));
    if offering && recent < t.recent {
        return refuse(format!("I have seen only {recent} of the {} moves I judge a draw on", t.recent));
    }
    for (ago, &cp) in scores.iter().rev().take(recent).enumerate() {
        if cp > s.contempt {
            return refuse(format!("my score was {} {}", pawns(cp), moves_ago(ago)));
        }
    }
    why.push(format!("my score has stayed at or below {} for the last {recent} moves", pawns(s.contempt)));
    // 6. No offer from a lost position.
    let current = scores.last().copied().unwrap_or(0);
    if offering && current < t.offer_floor {
        return refuse(format!("my score {} is too low to offer a draw", pawns(current)));
    }
    why.push(format!("it is move {}", now.move_number));
    Ok(why)
}

#[cfg(test)]
mod tests {
    use super::super::{ClockView, Policy, Rules};
    use super::*;
    use crate::Score;

    fn situation(move_number: u32, cp: i32, material: i32) -> Situation {
        Situation { move_number, score: Score::Cp(cp), material, clock: None, opponent_in_check: false }
    }

    fn clock(opponent_ms: u64) -> Option<ClockView> {
        Some(ClockView {
            own: Duration::from_secs(600),
            opponent: Duration::from_millis(opponent_ms),
            opponent_increment: Duration::ZERO,
            moves_to_go: Some(10),
        })
    }

    fn terra() -> Policy {
        Policy::new(PolicySettings { rules: Rules::Terra, ..Default::default() })
    }

    /// Plays the engine's scores one move at a time and returns the last decision.
    fn run(policy: &mut Policy, scores: &[i32], last: Situation) -> Decision {
        for (i, &cp) in scores.iter().enumerate() {
            let d = policy.decide(&situation(20 + i as u32, cp, last.material));
            assert!(!matches!(d, Decision::Resign(_)), "resigned too early at {i}");
        }
        policy.decide(&last)
    }

    #[test]
    fn resigns_after_four_bad_moves_but_not_three() {
        // Four moves below -450 (the fourth is the current one), 1.20 worse than before.
        let d = run(&mut terra(), &[-300, -460, -480, -500], situation(30, -520, -500));
        let message = d.message().unwrap();
        assert!(
            message.starts_with("I resign: my score has been below -4.50 for 4 moves, I am down 5.0 pawns"),
            "{message}"
        );
        // Only three moves below the threshold.
        let d = run(&mut terra(), &[-300, -300, -480, -500], situation(30, -520, -500));
        assert_eq!(d, Decision::Play);
    }

    #[test]
    fn no_resignation_with_material_or_in_check_or_against_a_mate() {
        assert_eq!(run(&mut terra(), &[-300, -460, -480, -500], situation(30, -520, -340)), Decision::Play);
        let mut check = situation(30, -520, -500);
        check.opponent_in_check = true;
        assert_eq!(run(&mut terra(), &[-300, -460, -480, -500], check), Decision::Play);
        let mut mated = situation(30, 0, -500);
        mated.score = Score::Mate(-3);
        assert_eq!(run(&mut terra(), &[-300, -460, -480, -500], mated), Decision::Play);
        // The opponent did not improve by more than 0.75 over the last four moves.
        assert_eq!(run(&mut terra(), &[-460, -460, -480, -500], situation(30, -520, -500)), Decision::Play);
        // Resigning switched off.
        let mut off = Policy::new(PolicySettings { resign: false, ..Default::default() });
        assert_eq!(run(&mut off, &[-300, -460, -480, -500], situation(30, -520, -500)), Decision::Play);
    }

    #[test]
    fn no_resignation_when_the_opponent_is_short_of_time() {
        // 10 moves to go: 49 s is 4.9 s per move (short), 51 s is 5.1 s (not short).
        let mut short = situation(30, -520, -500);
        short.clock = clock(49_000);
        assert_eq!(run(&mut terra(), &[-300, -460, -480, -500], short), Decision::Play);
        let mut enough = situation(30, -520, -500);
        enough.clock = clock(51_000);
        let d = run(&mut terra(), &[-300, -460, -480, -500], enough);
        assert!(
            d.message().unwrap().contains("you have 51 seconds (5.1 seconds per move for 10 moves)"),
            "{d:?}"
        );
    }

    #[test]
    fn draw_offers_from_move_forty_not_thirty_nine() {
        let mut p = terra();
        for n in 30..39 {
            assert_eq!(p.decide(&situation(n, 0, 0)), Decision::Play);
        }
        assert_eq!(p.decide(&situation(39, 0, 0)), Decision::Play);
        let d = p.decide(&situation(40, 0, 0));
        assert_eq!(
            d.message().unwrap(),
            "I offer a draw: my score has stayed at or below +0.00 for the last 5 moves, it is move 40."
        );
        // Rule 2: not again for ten moves.
        assert_eq!(p.decide(&situation(41, 0, 0)), Decision::Play);
        for n in 42..50 {
            p.decide(&situation(n, 0, 0));
        }
        assert!(matches!(p.decide(&situation(50, 0, 0)), Decision::OfferDraw(_)));
    }

    #[test]
    fn no_offer_after_a_better_score_or_when_lost_or_against_a_short_clock() {
        let mut p = terra();
        for (n, cp) in [(40, 0), (41, 80), (42, 0)] {
            assert_eq!(p.decide(&situation(n, cp, 0)), Decision::Play, "move {n}");
        }
        let answer = p.answer(&situation(43, 0, 0));
        assert_eq!(answer.message(), "I decline: my score was +0.80 two moves ago.");

        let mut lost = terra();
        lost.decide(&situation(39, -400, 0));
        assert_eq!(lost.decide(&situation(40, -400, 0)), Decision::Play, "rule 6");
        assert!(lost.answer(&situation(40, -400, 0)).accept, "a lost position still accepts");

        let mut p = terra();
        let mut s = situation(45, 0, 0);
        s.clock = clock(49_000);
        assert_eq!(p.decide(&s), Decision::Play, "rule 4");
        assert!(!p.answer(&s).accept);
        s.clock = clock(51_000);
        assert!(p.answer(&s).accept);
    }

    #[test]
    fn answers_follow_the_move_number_and_the_switch() {
        let p = terra();
        assert_eq!(
            p.answer(&situation(39, 0, 0)).message(),
            "I decline: it is only move 39; I agree to draws from move 40."
        );
        assert!(p.answer(&situation(40, 0, 0)).accept);
        let off = Policy::new(PolicySettings { draw: false, ..Default::default() });
        assert!(!off.answer(&situation(60, -100, 0)).accept);
        // Contempt: a draw score of -0.50 declines a level position.
        let proud = Policy::new(PolicySettings { contempt: -50, ..Default::default() });
        assert!(!proud.answer(&situation(60, 0, 0)).accept);
    }
}
