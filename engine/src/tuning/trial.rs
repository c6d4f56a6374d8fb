//! A run's closing trial: the population's consensus at a few of its last generations
//! ([`candidates`]) each play fresh self-play games, every resignation and agreed draw of
//! them scored by the run's referee and judged by issue 18's standard ([`Margins::default`]:
//! a resignation is wrong unless the resigner is 3 pawns behind, an agreed draw is wrong with
//! either side more than 1.5 pawns ahead), and the candidate that meets the issue's
//! [`Targets`] becomes BEST ([`chosen`]).
//!
//! Why a trial. Whether a run ends on a policy that meets the targets depends on the seed:
//! of twelve 40-generation runs, six did (docs/BENCHMARKS.md, sessions 26 and 27), and the
//! run's own games predicted a policy's share of agreed draws in fresh games only roughly.
//! The trial measures each candidate on games of its own instead of trusting the
//! population's rules, and says so when none of them meets the targets.
//!
//! The candidates play the same openings, those of the run's suite after the ones its
//! generations used, so that they are compared on the same positions and none on a position
//! it was tuned on.

use std::fmt;
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::run::finishes;
use super::{Finish, GenerationSummary, HowEnded, Margins, Member, Playout, Reading, Tuner, TuningError};
use crate::GameRecord;
use crate::matches::{EngineSpec, FinishedGame, Fixture, Flow, Standings, Watcher, play_fixtures};

/// What a tuned policy must achieve in fresh self-play games (issue 18's targets).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Targets {
    /// At most this share of resignations wrong.
    pub wrong_resignations: f64,
    /// At most this share of agreed draws wrong.
    pub wrong_agreements: f64,
    /// At least this share of decisive games ended by resignation.
    pub resigned: f64,
    /// At least this share of drawn games ended by agreement.
    pub agreed: f64,
    /// No draw offered before this full move.
    pub first_offer: u32,
}

impl Default for Targets {
    /// The issue's: 2% and 2% wrong at most, a third of decisive games resigned and a
    /// quarter of drawn games agreed at least, no offer before move 10.
    fn default() -> Self {
        Targets {
            wrong_resignations: 0.02,
            wrong_agreements: 0.02,
            resigned: 1.0 / 3.0,
            agreed: 0.25,
            first_offer: 10,
        }
    }
}

/// How a candidate's trial games ended, and how many of its readings the referee found
/// wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrialCounts {
    /// Games played to an end.
    pub games: usize,
    /// Of them, won by either side.
    pub decisive: usize,
    /// Of the decisive ones, ended by a resignation.
    pub resigned: usize,
    /// Games drawn.
    pub drawn: usize,
    /// Of them, drawn by agreement.
    pub agreed: usize,
    /// Resignations the referee scored (it failed on the others).
    pub judged_resignations: usize,
    /// Of them, wrong: the resigner was less than 3 pawns behind.
    pub wrong_resignations: usize,
    /// Agreed draws the referee scored.
    pub judged_agreements: usize,
    /// Of them, wrong: a side was more than 1.5 pawns ahead.
    pub wrong_agreements: usize,
    /// The earliest full move a draw was offered at, in any game.
    pub earliest_offer: Option<u32>,
}

/// A target a candidate missed: its figure, then the target's.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Miss {
    /// This share of its resignations was wrong, more than allowed.
    WrongResignations(f64, f64),
    /// This share of its agreed draws was wrong, more than allowed.
    WrongAgreements(f64, f64),
    /// Only this share of its decisive games ended by resignation, less than required.
    FewResignations(f64, f64),
    /// Only this share of its drawn games ended by agreement, less than required.
    FewAgreements(f64, f64),
    /// It offered a draw at this move, before the first allowed.
    EarlyOffer(u32, u32),
}

impl fmt::Display for Miss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pc = |x: f64| x * 100.0;
        match *self {
            Miss::WrongResignations(s, t) => {
                write!(f, "{:.2}% of resignations wrong (at most {:.0}%)", pc(s), pc(t))
            }
            Miss::WrongAgreements(s, t) => {
                write!(f, "{:.2}% of agreed draws wrong (at most {:.0}%)", pc(s), pc(t))
            }
            Miss::FewResignations(s, t) => {
                write!(f, "{:.0}% of decisive games resigned (at least {:.0}%)", pc(s), pc(t))
            }
            Miss::FewAgreements(s, t) => {
                write!(f, "{:.0}% of drawn games agreed (at least {:.0}%)", pc(s), pc(t))
            }
            Miss::EarlyOffer(m, t) => write!(f, "a draw offered at move {m} (not before {t})"),
        }
    }
}

/// `part` of `whole`, 0 of nothing.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

impl TrialCounts {
    /// Counts a game that finished as `finish`, its resignation or agreed draw judged by
    /// `verdict` (the referee's, by the margins; `None` when it was not judged).
    pub fn add(&mut self, finish: &Finish, verdict: Option<&Playout>) {
        self.games += 1;
        match finish.winner {
            Some(_) => self.decisive += 1,
            None => self.drawn += 1,
        }
        match (finish.how, verdict) {
            (HowEnded::Resignation, v) => {
                self.resigned += 1;
                if let Some(v) = v {
                    self.judged_resignations += 1;
                    // Right only when the referee "wins" it for the resigner's opponent.
                    self.wrong_resignations += usize::from(v.winner.is_none());
                }
            }
            (HowEnded::Agreement, v) => {
                self.agreed += 1;
                if let Some(v) = v {
                    self.judged_agreements += 1;
                    self.wrong_agreements += usize::from(v.winner.is_some());
                }
            }
            _ => {}
        }
        for o in &finish.offers {
            self.earliest_offer = Some(self.earliest_offer.map_or(o.move_number, |e| e.min(o.move_number)));
        }
    }

    /// The targets these games miss, none when they meet them all.
    #[must_use]
    pub fn misses(&self, targets: &Targets) -> Vec<Miss> {
        let mut misses = Vec::new();
        let wrong_resignations = share(self.wrong_resignations, self.judged_resignations);
        if wrong_resignations > targets.wrong_resignations {
            misses.push(Miss::WrongResignations(wrong_resignations, targets.wrong_resignations));
        }
        let wrong_agreements = share(self.wrong_agreements, self.judged_agreements);
        if wrong_agreements > targets.wrong_agreements {
            misses.push(Miss::WrongAgreements(wrong_agreements, targets.wrong_agreements));
        }
        let resigned = share(self.resigned, self.decisive);
        if resigned < targets.resigned {
            misses.push(Miss::FewResignations(resigned, targets.resigned));
        }
        let agreed = share(self.agreed, self.drawn);
        if agreed < targets.agreed {
            misses.push(Miss::FewAgreements(agreed, targets.agreed));
        }
        if let Some(m) = self.earliest_offer.filter(|&m| m < targets.first_offer) {
            misses.push(Miss::EarlyOffer(m, targets.first_offer));
        }
        misses
    }

    /// By how much these games meet their weakest target, in standard errors: for each
    /// share, its distance from the target's figure over the standard error of a share of
    /// that figure in as many games (`(0.02 - wrong) / sqrt(0.02 * 0.98 / resignations)` for
    /// wrong resignations, `(resigned - 1/3) / sqrt(...)` for resignations), the smallest
    /// of the four; negative when a target is missed, minus infinity for an early offer or
    /// a share of no games (no drawn game says nothing of agreeing). A count of 0 wrong in
    /// 10 readings is a weaker proof than 0 in 100, and 25% agreed is a weaker one than 40%.
    #[must_use]
    pub fn margin(&self, targets: &Targets) -> f64 {
        // (share, games, target, whether the share must stay below it)
        let shares = [
            (self.wrong_resignations, self.judged_resignations, targets.wrong_resignations, true),
            (self.wrong_agreements, self.judged_agreements, targets.wrong_agreements, true),
            (self.resigned, self.decisive, targets.resigned, false),
            (self.agreed, self.drawn, targets.agreed, false),
        ];
        let early = self.earliest_offer.is_some_and(|m| m < targets.first_offer);
        let mut margin = if early { f64::NEG_INFINITY } else { f64::INFINITY };
        for (part, whole, target, at_most) in shares {
            let z = if whole == 0 {
                // No resignation is none wrong; no drawn game proves nothing of agreeing.
                if at_most { f64::INFINITY } else { f64::NEG_INFINITY }
            } else {
                let error = (target * (1.0 - target) / whole as f64).sqrt().max(f64::MIN_POSITIVE);
                let gap = share(part, whole) - target;
                if at_most { -gap / error } else { gap / error }
            };
            margin = margin.min(z);
        }
        margin
    }
}

impl fmt::Display for TrialCounts {
    /// `games 200 decisive 124 resigned 88 (71%) drawn 76 agreed 17 (22%) wrong 0/88
    /// resignations 0/17 agreements earliest offer 72`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {} decisive {} resigned {} ({:.0}%) drawn {} agreed {} ({:.0}%) wrong {}/{} resignations {}/{} agreements",
            self.games,
            self.decisive,
            self.resigned,
            share(self.resigned, self.decisive) * 100.0,
            self.drawn,
            self.agreed,
            share(self.agreed, self.drawn) * 100.0,
            self.wrong_resignations,
            self.judged_resignations,
            self.wrong_agreements,
            self.judged_agreements,
        )?;
        match self.earliest_offer {
            Some(m) => write!(f, " earliest offer {m}"),
            None => write!(f, " no offer"),
        }
    }
}

/// One candidate's trial.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// The generation whose consensus it was.
    pub generation: u32,
    /// The candidate.
    pub candidate: Member,
    /// How its games went.
    pub counts: TrialCounts,
}

impl fmt::Display for Trial {
    /// `trial #412 of generation 40: games 200 ... | meets the targets` or `| misses: ...`, by
    /// the issue's [`Targets`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "trial #{} of generation {}: {} | ", self.candidate.id, self.generation, self.counts)?;
        let misses = self.counts.misses(&Targets::default());
        if misses.is_empty() {
            return write!(f, "meets the targets");
        }
        let misses: Vec<String> = misses.iter().map(ToString::to_string).collect();
        write!(f, "misses: {}", misses.join(", "))
    }
}

/// A closing trial as the log keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrialRecord {
    /// The last generation played before it.
    pub after: u32,
    /// The games each candidate played.
    pub games: usize,
    /// Each candidate's trial, newest first.
    pub trials: Vec<Trial>,
    /// The chosen candidate's number ([`chosen`]): BEST.
    pub best: u64,
    /// Whether it met the targets.
    pub met: bool,
}

impl TrialRecord {
    /// The record of `trials` of `games` games each after generation `after`, with the
    /// candidate [`chosen`] by `targets`; `None` without trials.
    #[must_use]
    pub fn new(after: u32, games: usize, trials: Vec<Trial>, targets: &Targets) -> Option<TrialRecord> {
        let (best, met) = chosen(&trials, targets).map(|(t, met)| (t.candidate.id, met))?;
        Some(TrialRecord { after, games, trials, best, met })
    }

    /// The chosen candidate's trial.
    #[must_use]
    pub fn chosen(&self) -> Option<&Trial> {
        self.trials.iter().find(|t| t.candidate.id == self.best)
    }
}

/// Up to `count` candidates for a trial, the newest first: the consensus member
/// ([`GenerationSummary::best`]) of the last generation and of generations back from it by
/// a step of half the run over `count` (40 generations, 4 candidates: 40, 35, 30, 25),
/// leaving out one whose values an earlier candidate has and then going on further back.
#[must_use]
pub fn candidates(summaries: &[GenerationSummary], count: usize) -> Vec<(u32, Member)> {
    let mut chosen: Vec<(u32, Member)> = Vec::new();
    if count == 0 || summaries.is_empty() {
        return chosen;
    }
    let step = (summaries.len() / 2 / count).max(1);
    for s in summaries.iter().rev().step_by(step) {
        if chosen.len() == count {
            break;
        }
        if !chosen.iter().any(|(_, m)| m.values == s.best.values) {
            chosen.push((s.generation, s.best.clone()));
        }
    }
    chosen
}

/// The trial that decides BEST and whether it met the targets: of those meeting them, the
/// one meeting its weakest target by the widest [`TrialCounts::margin`], since a candidate
/// at the edge of a target in a few hundred games may well miss it in the next few hundred;
/// when none meets them, the one missing the fewest targets, then by the same margin. The
/// earlier candidate wins a tie. The candidates played the same openings, so their counts
/// compare.
#[must_use]
pub fn chosen<'a>(trials: &'a [Trial], targets: &Targets) -> Option<(&'a Trial, bool)> {
    let misses = |t: &Trial| t.counts.misses(targets).len();
    let best = trials.iter().reduce(|best, t| {
        let better = misses(t) < misses(best)
            || (misses(t) == misses(best) && t.counts.margin(targets) > best.counts.margin(targets));
        if better { t } else { best }
    })?;
    Some((best, misses(best) == 0))
}

/// Tells how many games have ended.
struct Counter<'a> {
    ended: usize,
    progress: &'a mut dyn FnMut(usize),
}

impl Watcher for Counter<'_> {
    fn finished(&mut self, _game: &FinishedGame, _standings: &Standings) -> Flow {
        self.ended += 1;
        (self.progress)(self.ended);
        Flow::Continue
    }
}

impl Tuner {
    /// Plays the trial of `candidates`: `games` self-play games each (the candidate on both
    /// sides), from the openings numbered `first_opening` on; every resignation and agreed
    /// draw scored by the run's referee, judged by the margins. In the candidates'
    /// order; `progress` hears how many games have ended as each ends.
    ///
    /// # Errors
    /// [`TuningError::Referee`] when the run has no referee; [`TuningError::Match`] when the
    /// games cannot be played.
    pub fn trial(
        &self,
        candidates: &[(u32, Member)],
        games: usize,
        first_opening: usize,
        progress: &mut dyn FnMut(usize),
        cancel: &AtomicBool,
    ) -> Result<Vec<Trial>, TuningError> {
        let referee = self
            .referee
            .as_ref()
            .ok_or_else(|| TuningError::Referee("a trial needs a referee (--referee)".into()))?;
        // Two instances of each candidate, so that the match runner seats it on both sides.
        let engines: Vec<EngineSpec> = candidates
            .iter()
            .flat_map(|(_, m)| {
                ["a", "b"].map(|k| EngineSpec {
                    policy: Some(self.genome.settings(&m.values)),
                    ..super::run::builtin(
                        &format!("candidate {} {k}", m.id),
                        &self.control,
                        self.tablebases.as_ref(),
                    )
                })
            })
            .collect();
        let mut setup = self.hall(engines, self.openings.clone(), "Kibitz policy tuning, trial");
        setup.pgn_out.clone_from(&self.pgn);
        let fixtures: Vec<Fixture> = (0..candidates.len() * games)
            .map(|k| {
                let (candidate, game) = (k / games, k % games);
                Fixture {
                    number: k + 1,
                    round: candidate + 1,
                    game: game + 1,
                    encounter: candidate,
                    white: 2 * candidate + game % 2,
                    black: 2 * candidate + 1 - game % 2,
                    opening: first_opening + game,
                    duel: None,
                }
            })
            .collect();
        let mut counter = Counter { ended: 0, progress };
        let report = play_fixtures(&setup, &fixtures, &mut counter, cancel).map_err(TuningError::Match)?;
        let played = finishes(&report, &fixtures);
        let readings: Vec<(&GameRecord, usize, Reading)> = played
            .iter()
            .filter_map(|(_, finish, record)| Reading::ended(finish).map(|r| (*record, record.len(), r)))
            .collect();
        let mut verdicts = self
            .referee(referee, &readings, Margins::default(), cancel)
            .map_err(TuningError::Match)?
            .into_iter();
        let mut trials: Vec<Trial> = candidates
            .iter()
            .map(|(generation, m)| Trial {
                generation: *generation,
                candidate: m.clone(),
                counts: TrialCounts::default(),
            })
            .collect();
        for (fixture, finish, _) in &played {
            let verdict = Reading::ended(finish).and_then(|_| verdicts.next().flatten());
            trials[fixture.encounter].counts.add(finish, verdict.as_ref());
        }
        Ok(trials)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::{EndingCounts, Offer, Origin, Reply, Seat};

    fn finish(winner: Option<Seat>, how: HowEnded, offer_at: Option<u32>) -> Finish {
        let offers = offer_at
            .map(|move_number| Offer {
                side: Seat::White,
                move_number,
                reply: Reply::Accepted,
                ply: 0,
                playout: None,
            })
            .into_iter()
            .collect();
        let resigned = (how == HowEnded::Resignation).then(|| winner.map(Seat::other)).flatten();
        Finish { winner, how, offers, resigned, plies: 40, playout: None }
    }

    fn verdict(winner: Option<Seat>) -> Playout {
        Playout { winner, plies: 0, score: Some(0), tally: None }
    }

    /// Counts of `resigned` resignations (`wrong` of them wrong) among `decisive` decisive
    /// games and `agreed` agreements (`wrong_agreed` wrong) among `drawn` drawn ones.
    fn counts(
        decisive: usize,
        resigned: usize,
        wrong: usize,
        drawn: usize,
        agreed: usize,
        wrong_agreed: usize,
    ) -> TrialCounts {
        let mut c = TrialCounts::default();
        for k in 0..decisive {
            let how = if k < resigned { HowEnded::Resignation } else { HowEnded::Mate };
            // The referee "wins" a right resignation for the winner, White here.
            let v = verdict(if k < wrong { None } else { Some(Seat::White) });
            c.add(&finish(Some(Seat::White), how, None), Some(&v));
        }
        for k in 0..drawn {
            let how = if k < agreed { HowEnded::Agreement } else { HowEnded::Rule };
            let v = verdict(if k < wrong_agreed { Some(Seat::Black) } else { None });
            c.add(&finish(None, how, (k < agreed).then_some(30)), Some(&v));
        }
        c
    }

    #[test]
    fn resignations_and_agreements_are_counted_and_judged() {
        let c = counts(10, 6, 1, 8, 3, 2);
        assert_eq!((c.games, c.decisive, c.resigned, c.drawn, c.agreed), (18, 10, 6, 8, 3));
        assert_eq!((c.judged_resignations, c.wrong_resignations), (6, 1));
        assert_eq!((c.judged_agreements, c.wrong_agreements), (3, 2));
        assert_eq!(c.earliest_offer, Some(30));
        // A reading the referee failed on is neither right nor wrong.
        let mut unjudged = TrialCounts::default();
        unjudged.add(&finish(Some(Seat::Black), HowEnded::Resignation, None), None);
        assert_eq!((unjudged.resigned, unjudged.judged_resignations, unjudged.wrong_resignations), (1, 0, 0));
        assert_eq!(
            c.to_string(),
            "games 18 decisive 10 resigned 6 (60%) drawn 8 agreed 3 (38%) wrong 1/6 resignations 2/3 agreements earliest offer 30"
        );
    }

    #[test]
    fn each_target_is_checked_at_its_edge() {
        let t = Targets::default();
        // 1 wrong of 50 resignations is 2%: met; 1 of 49 is not.
        assert!(counts(100, 50, 1, 40, 10, 0).misses(&t).is_empty(), "every target met at its edge");
        assert_eq!(counts(100, 49, 1, 40, 10, 0).misses(&t), [Miss::WrongResignations(1.0 / 49.0, 0.02)]);
        assert_eq!(counts(100, 50, 0, 40, 10, 1).misses(&t), [Miss::WrongAgreements(0.1, 0.02)]);
        assert_eq!(counts(100, 33, 0, 40, 10, 0).misses(&t), [Miss::FewResignations(0.33, t.resigned)]);
        assert_eq!(counts(100, 50, 0, 40, 9, 0).misses(&t), [Miss::FewAgreements(0.225, 0.25)]);
        let mut early = counts(100, 50, 0, 40, 10, 0);
        early.add(&finish(None, HowEnded::Agreement, Some(9)), Some(&verdict(None)));
        assert_eq!(early.misses(&t), [Miss::EarlyOffer(9, 10)]);
        // A policy that never resigns or never offers misses, however few its errors.
        assert_eq!(
            counts(10, 0, 0, 10, 0, 0).misses(&t),
            [Miss::FewResignations(0.0, t.resigned), Miss::FewAgreements(0.0, 0.25)]
        );
        assert_eq!(Miss::FewAgreements(0.225, 0.25).to_string(), "22% of drawn games agreed (at least 25%)");
    }

    fn summary(generation: u32, id: u64, values: Vec<i64>) -> GenerationSummary {
        GenerationSummary {
            generation,
            parameters: Vec::new(),
            endings: EndingCounts::default(),
            best: Member { id, born: generation, origin: Origin::Initial, values },
        }
    }

    #[test]
    fn candidates_are_spaced_over_the_second_half_without_repeats() {
        // Forty generations, the consensus changing every other generation.
        let summaries: Vec<GenerationSummary> =
            (1..=40).map(|g| summary(g, u64::from(g), vec![i64::from(g / 2)])).collect();
        let generations = |k| candidates(&summaries, k).iter().map(|(g, _)| *g).collect::<Vec<_>>();
        assert_eq!(generations(4), [40, 35, 30, 25]);
        assert_eq!(generations(1), [40]);
        // Twenty candidates of forty generations: every generation, repeats left out.
        assert_eq!(generations(20).len(), 20);
        assert_eq!(generations(20)[..3], [40, 39, 37], "39 and 38 agree, 38 is left out");
        // A converged run has fewer distinct candidates than asked for.
        let same: Vec<GenerationSummary> = (1..=10).map(|g| summary(g, u64::from(g), vec![7])).collect();
        assert_eq!(candidates(&same, 4).len(), 1);
        assert!(candidates(&[], 4).is_empty() && candidates(&same, 0).is_empty());
    }

    #[test]
    fn the_margin_is_the_weakest_target_in_standard_errors() {
        let t = Targets::default();
        // 30 of 120 drawn games agreed: 25%, exactly at the target.
        assert!(counts(100, 100, 0, 120, 30, 0).margin(&t).abs() < 1e-9);
        // 110 of 400 agreed: 0.025 above 0.25, whose standard error in 400 games is 0.02165
        // (the 110 agreements, none wrong, are 1.50 standard errors inside theirs).
        let m = counts(300, 300, 0, 400, 110, 0).margin(&t);
        assert!((m - 0.025 / 0.02165).abs() < 0.001, "{m}");
        // 0 wrong of 10 agreements proves less than 0 of 100: 0.02 / sqrt(0.02 * 0.98 / 10).
        let few = counts(300, 300, 0, 20, 10, 0).margin(&t);
        assert!((few - 0.4518).abs() < 0.001, "{few}");
        // A missed target is a negative margin; no drawn game, or an early offer, none at all.
        assert!(counts(100, 30, 0, 40, 20, 0).margin(&t) < 0.0);
        assert_eq!(counts(100, 60, 0, 0, 0, 0).margin(&t), f64::NEG_INFINITY);
        let mut early = counts(100, 60, 0, 40, 20, 0);
        early.add(&finish(None, HowEnded::Agreement, Some(5)), Some(&verdict(None)));
        assert_eq!(early.margin(&t), f64::NEG_INFINITY);
    }

    #[test]
    fn the_chosen_candidate_meets_the_targets_by_the_widest_margin() {
        let trial = |id, counts| Trial {
            generation: 40,
            candidate: Member { id, born: 0, origin: Origin::Initial, values: vec![] },
            counts,
        };
        let t = Targets::default();
        let trials = [
            trial(1, counts(100, 30, 0, 40, 2, 0)),   // misses both shares
            trial(2, counts(100, 60, 1, 40, 20, 0)),  // meets, one resignation wrong of 60
            trial(3, counts(100, 60, 0, 40, 10, 0)),  // meets, agreed 25%: at the edge
            trial(4, counts(100, 70, 0, 40, 20, 0)),  // meets with room everywhere
            trial(5, counts(100, 100, 0, 40, 10, 0)), // meets, agreed at the edge
        ];
        let (best, met) = chosen(&trials, &t).expect("a choice");
        assert_eq!((best.candidate.id, met), (4, true));
        assert!(trials[3].counts.margin(&t) > trials[1].counts.margin(&t));
        // None meets: the one missing the fewest targets, then by the margin, said so.
        let failing = [trials[0].clone(), trial(6, counts(100, 30, 0, 40, 20, 0))];
        let (nearest, met) = chosen(&failing, &t).expect("a choice");
        assert_eq!((nearest.candidate.id, met), (6, false));
        let none: [Trial; 0] = [];
        assert!(chosen(&none, &t).is_none());
        assert!(trials[2].to_string().ends_with("| meets the targets"), "{}", trials[2]);
        assert!(trials[0].to_string().contains("| misses: 30% of decisive games resigned"), "{}", trials[0]);
    }
}
