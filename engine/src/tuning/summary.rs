//! A generation in a few numbers, for the command line's line per generation and the app's
//! plots: each parameter's mean, extremes and spread over the population, how the games
//! ended, and the best member.

use std::collections::HashMap;
use std::fmt;

use super::log::GenerationRecord;
use super::{Genome, HowEnded, Member, Reply, RuleApplied};

/// One parameter over the population.
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterStats {
    /// The parameter's name ([`crate::policy::PolicySettings::PARAMETERS`]).
    pub name: String,
    /// The mean value.
    pub mean: f64,
    /// The smallest value.
    pub min: i64,
    /// The largest value.
    pub max: i64,
    /// The standard deviation.
    pub std_dev: f64,
    /// The standard deviation as a share of the parameter's range (0 when all agree).
    pub spread: f64,
}

/// How many games ended each way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EndingCounts {
    /// By ending kind.
    pub by_kind: HashMap<HowEnded, usize>,
    /// All games.
    pub games: usize,
    /// Draw offers made.
    pub offers: usize,
    /// Draw offers declined.
    pub declined: usize,
    /// The earliest full-move number at which a draw was offered.
    pub earliest_offer: Option<u32>,
    /// Games with a reading checked by playing on (a declined offer, an agreed draw, a
    /// resignation).
    pub checked: usize,
    /// Of those, the games whose replacements a refuted reading decided (a refuted offer,
    /// decline, agreed draw or resignation: see [`super::replacement`]).
    pub refuted: usize,
}

impl EndingCounts {
    /// How many games ended as `how`.
    #[must_use]
    pub fn count(&self, how: HowEnded) -> usize {
        self.by_kind.get(&how).copied().unwrap_or(0)
    }

    /// The share of the games that ended as `how` (0 without games).
    #[must_use]
    pub fn share(&self, how: HowEnded) -> f64 {
        if self.games == 0 { 0.0 } else { self.count(how) as f64 / self.games as f64 }
    }
}

/// One generation, summed up.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationSummary {
    /// Its number, from 1.
    pub generation: u32,
    /// Each tuned parameter over the population the generation left (after its
    /// replacements), in the genome's order.
    pub parameters: Vec<ParameterStats>,
    /// How its games ended.
    pub endings: EndingCounts,
    /// The member of that population nearest its median (each parameter's distance measured
    /// as a share of its range): the population's consensus, written as BEST.json.
    pub best: Member,
}

impl GenerationSummary {
    /// Sums up `record` of a run tuning `genome`.
    #[must_use]
    pub fn of(genome: &Genome, record: &GenerationRecord) -> GenerationSummary {
        let population = &record.next;
        let parameters = genome
            .parameters()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let values: Vec<i64> = population.iter().filter_map(|m| m.values.get(i).copied()).collect();
                let n = values.len().max(1) as f64;
                let mean = values.iter().sum::<i64>() as f64 / n;
                let var = values.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / n;
                let width = (p.max - p.min).max(1) as f64;
                ParameterStats {
                    name: p.name.to_owned(),
                    mean,
                    min: values.iter().copied().min().unwrap_or(0),
                    max: values.iter().copied().max().unwrap_or(0),
                    std_dev: var.sqrt(),
                    spread: var.sqrt() / width,
                }
            })
            .collect();
        let mut endings = EndingCounts { games: record.games.len(), ..EndingCounts::default() };
        for game in &record.games {
            *endings.by_kind.entry(game.finish.how).or_default() += 1;
            endings.offers += game.finish.offers.len();
            endings.declined += game.finish.offers.iter().filter(|o| o.reply == Reply::Declined).count();
            let offer_checked = game.finish.offers.iter().any(|o| o.playout.is_some());
            endings.checked += usize::from(game.finish.playout.is_some() || offer_checked);
            endings.refuted += usize::from(matches!(
                game.rule,
                RuleApplied::AgreementRefuted
                    | RuleApplied::ResignationRefuted
                    | RuleApplied::OfferRefuted
                    | RuleApplied::DeclineRefuted
            ));
            for o in &game.finish.offers {
                endings.earliest_offer =
                    Some(endings.earliest_offer.map_or(o.move_number, |e| e.min(o.move_number)));
            }
        }
        let best = consensus(genome, population).cloned().unwrap_or_else(|| Member {
            id: 0,
            born: 0,
            origin: super::Origin::Initial,
            values: genome.defaults(),
        });
        GenerationSummary { generation: record.generation, parameters, endings, best }
    }
}

/// The member nearest the population's median.
fn consensus<'a>(genome: &Genome, population: &'a [Member]) -> Option<&'a Member> {
    let medians: Vec<f64> = (0..genome.parameters().len())
        .map(|i| {
            let mut v: Vec<i64> = population.iter().filter_map(|m| m.values.get(i).copied()).collect();
            v.sort_unstable();
            match v.len() {
                0 => 0.0,
                n if n % 2 == 1 => v[n / 2] as f64,
                n => (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0,
            }
        })
        .collect();
    let distance = |m: &Member| -> f64 {
        genome
            .parameters()
            .iter()
            .zip(&m.values)
            .zip(&medians)
            .map(|((p, &v), &med)| (v as f64 - med).abs() / (p.max - p.min).max(1) as f64)
            .sum()
    };
    population.iter().min_by(|a, b| distance(a).total_cmp(&distance(b)))
}

impl fmt::Display for GenerationSummary {
    /// `gen 3 | dead_band.width 31±4 [25..40] ... | agreement 2 rule 3 resign 2 mate 1 time 0 |
    /// best #17`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "gen {}", self.generation)?;
        for p in &self.parameters {
            write!(f, " | {} {:.0}±{:.0} [{}..{}]", p.name, p.mean, p.std_dev, p.min, p.max)?;
        }
        let e = &self.endings;
        write!(
            f,
            " | agreement {} rule {} resign {} mate {} time {} other {} | offers {} declined {} | refuted {} of {} | best #{}",
            e.count(HowEnded::Agreement),
            e.count(HowEnded::Rule),
            e.count(HowEnded::Resignation),
            e.count(HowEnded::Mate),
            e.count(HowEnded::Time),
            e.count(HowEnded::Other),
            e.offers,
            e.declined,
            e.refuted,
            e.checked,
            self.best.id
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Rules;
    use crate::tuning::{Finish, Offer, Origin, Playout, Seat, TunedGame};

    fn member(id: u64, values: [i64; 3]) -> Member {
        Member { id, born: 0, origin: Origin::Initial, values: values.to_vec() }
    }

    #[test]
    fn parameters_endings_and_the_consensus_member() {
        let genome = Genome::for_rules(Rules::DeadBand);
        let next = vec![member(1, [0, 10, 1000]), member(2, [100, 20, 3000]), member(3, [200, 90, 5000])];
        let agreed = Finish {
            winner: None,
            how: HowEnded::Agreement,
            offers: vec![Offer {
                side: Seat::White,
                move_number: 12,
                reply: Reply::Accepted,
                ply: 7,
                playout: None,
            }],
            resigned: None,
            plies: 30,
            playout: None,
        };
        let resigned = Finish {
            winner: Some(Seat::Black),
            how: HowEnded::Resignation,
            offers: vec![],
            resigned: Some(Seat::White),
            plies: 50,
            playout: Some(Playout { winner: None, plies: 12, score: None, tally: None }),
        };
        let game = |finish: Finish, rule| TunedGame { white: 1, black: 2, opening: 0, finish, rule };
        let record = GenerationRecord {
            generation: 4,
            members: next.clone(),
            games: vec![
                game(agreed, RuleApplied::AgreedDraw),
                game(resigned, RuleApplied::ResignationRefuted),
            ],
            next,
            next_id: 4,
        };
        let s = GenerationSummary::of(&genome, &record);
        assert_eq!(s.generation, 4);
        let width = &s.parameters[0];
        assert_eq!(
            (width.name.as_str(), width.mean, width.min, width.max),
            ("dead_band.width", 100.0, 0, 200)
        );
        assert!((width.std_dev - 81.65).abs() < 0.01 && (width.spread - 0.08165).abs() < 1e-4, "{width:?}");
        assert_eq!(s.endings.games, 2);
        assert_eq!((s.endings.share(HowEnded::Agreement), s.endings.count(HowEnded::Mate)), (0.5, 0));
        assert_eq!((s.endings.offers, s.endings.declined, s.endings.earliest_offer), (1, 0, Some(12)));
        assert_eq!((s.endings.checked, s.endings.refuted), (1, 1));
        assert_eq!(s.best.id, 2, "the median member");
        assert!(s.to_string().starts_with("gen 4 | dead_band.width 100±82 [0..200]"), "{s}");
    }
}
