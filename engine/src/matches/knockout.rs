//! The TCEC Cup knockout (rules 2 and 3 of the Cup's rules): engines seeded in the order
//! given, 1 against N and 2 against N−1 in a bracket where the two best seeds can meet only in
//! the final; every duel at least `pairs` game pairs played in full; on a tie, tiebreak pairs
//! until one is decisive, from game 33 on at the shortening time controls of rule 3.c.iii;
//! the two losing semi-finalists play for third place. Each duel is a two-engine match
//! through [`run`], so it plays by exactly the runner's rules. Tiebreaks follow a duel at
//! once (TCEC plays them at the end of the round), and each batch of games is written to a
//! PGN file of its own beside the one asked for (`NAME-r1-1v8-g1.pgn`); a knockout does not
//! resume.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::{Flow, Format, MatchError, MatchSetup, OpeningSource, Standings, Watcher, run};
use crate::TimeControl;
use crate::tournament::knockout;

/// Rule 3.c.iii's steps after game 32, as fractions of the duel's own base time and
/// increment (TCEC's 30+5: 16+4, 8+3, 4+2, 2+1, 1+1, 32s+1, 16s+1, 8s+1, 4s+1, 2s+1, 1s+1).
const SHORTER: [(f64, f64); 11] = [
    (16.0 / 30.0, 4.0 / 5.0),
    (8.0 / 30.0, 3.0 / 5.0),
    (4.0 / 30.0, 2.0 / 5.0),
    (2.0 / 30.0, 1.0 / 5.0),
    (1.0 / 30.0, 1.0 / 5.0),
    (32.0 / 1800.0, 1.0 / 5.0),
    (16.0 / 1800.0, 1.0 / 5.0),
    (8.0 / 1800.0, 1.0 / 5.0),
    (4.0 / 1800.0, 1.0 / 5.0),
    (2.0 / 1800.0, 1.0 / 5.0),
    (1.0 / 1800.0, 1.0 / 5.0),
];

/// Games after which the tiebreak controls shorten (rule 3.c.iii).
const FULL_CONTROL_GAMES: usize = 32;

/// How far tiebreaks go before a duel is given to the better seed (a safety net: at the last
/// step's control a decisive pair comes long before).
const MAX_TIEBREAK_PAIRS: usize = 200;

/// One duel of the knockout and how it went.
#[derive(Clone, Debug, PartialEq)]
pub struct Duel {
    /// The round, from 1 (the final is the last; the match for third place is numbered
    /// with the final).
    pub round: usize,
    /// The better seed's engine index, and the other's (`None`: a bye).
    pub high: usize,
    /// The other engine.
    pub low: Option<usize>,
    /// The better seed's points and the other's.
    pub points: (f64, f64),
    /// Games played, tiebreaks included.
    pub games: usize,
    /// The engine that goes through.
    pub winner: usize,
    /// Whether this was the match for third place.
    pub third_place: bool,
}

/// The knockout's duels, round by round, and its medals.
#[derive(Clone, Debug, PartialEq)]
pub struct KnockoutReport {
    /// Every duel in the order played.
    pub duels: Vec<Duel>,
    /// The winner, once the final was played.
    pub champion: Option<usize>,
    /// The winner of the match for third place.
    pub third: Option<usize>,
}

/// The duel's time control for tiebreak pair `pair` (from 0) after `games` games: the
/// duel's own until game 32, then each pair a step shorter (rule 3.c.iii), scaled from
/// TCEC's 30+5 to the duel's clock. Other controls (depth, nodes, a fixed time) stay.
#[must_use]
pub fn tiebreak_control(control: &TimeControl, games: usize) -> TimeControl {
    let TimeControl::Clock { stages, increment } = control else { return control.clone() };
    if games < FULL_CONTROL_GAMES {
        return control.clone();
    }
    let step = ((games - FULL_CONTROL_GAMES) / 2).min(SHORTER.len() - 1);
    let (base, inc) = SHORTER[step];
    let mut stages = stages.clone();
    for stage in &mut stages {
        stage.time = stage.time.mul_f64(base).max(Duration::from_millis(100));
    }
    TimeControl::Clock { stages, increment: increment.mul_f64(inc) }
}

/// Plays the knockout of `setup.engines` (seeded in that order) with at least `pairs` game
/// pairs a duel; `setup`'s format, rounds and PGN file are set per duel (each duel's games
/// go to the PGN as they end). `watcher` sees every game.
///
/// # Errors
/// As [`run`]: a setup that cannot be played or a PGN that cannot be written.
pub fn run_knockout(
    setup: &MatchSetup,
    pairs: usize,
    watcher: &mut dyn Watcher,
    cancel: &AtomicBool,
) -> Result<KnockoutReport, MatchError> {
    let mut report = KnockoutReport { duels: Vec::new(), champion: None, third: None };
    let mut field: Vec<(usize, Option<usize>)> =
        knockout(setup.engines.len()).into_iter().map(|m| (m.high, m.low)).collect();
    let mut round = 1;
    let mut opening = 0;
    while !field.is_empty() && !cancel.load(Ordering::Relaxed) {
        let final_round = field.len() == 1;
        let mut winners = Vec::new();
        let mut losers = Vec::new();
        for &(high, low) in &field {
            let duel = duel(setup, (round, high, low), pairs, &mut opening, watcher, cancel)?;
            winners.push(duel.winner);
            if let Some(low) = duel.low {
                losers.push(if duel.winner == high { low } else { high });
            }
            report.duels.push(duel);
        }
        if final_round {
            report.champion = winners.first().copied();
        }
        if field.len() == 2 && losers.len() == 2 && !cancel.load(Ordering::Relaxed) {
            // The small final, played with the final.
            let (a, b) = (losers[0].min(losers[1]), losers[0].max(losers[1]));
            let mut small = duel(setup, (round + 1, a, Some(b)), pairs, &mut opening, watcher, cancel)?;
            small.third_place = true;
            report.third = Some(small.winner);
            report.duels.push(small);
        }
        // Winners keep their bracket order: the winners of duels 2k and 2k + 1 meet.
        field = winners
            .chunks(2)
            .filter(|w| w.len() == 2)
            .map(|w| (w[0].min(w[1]), Some(w[0].max(w[1]))))
            .collect();
        round += 1;
    }
    Ok(report)
}

/// Passes games on to the knockout's watcher with the whole field's standings, and stops
/// when it says so.
struct Relay<'a> {
    inner: &'a mut dyn Watcher,
    stop: bool,
}

impl Watcher for Relay<'_> {
    fn finished(&mut self, game: &super::FinishedGame, standings: &Standings) -> Flow {
        let flow = self.inner.finished(game, standings);
        self.stop |= flow == Flow::Stop;
        flow
    }
}

/// One duel: `pairs` pairs in full, then tiebreak pairs until one is decisive.
fn duel(
    setup: &MatchSetup,
    (round, high, low): (usize, usize, Option<usize>),
    pairs: usize,
    opening: &mut usize,
    watcher: &mut dyn Watcher,
    cancel: &AtomicBool,
) -> Result<Duel, MatchError> {
    let mut duel = Duel { round, high, low, points: (0.0, 0.0), games: 0, winner: high, third_place: false };
    let Some(low) = low else { return Ok(duel) };
    let mut relay = Relay { inner: watcher, stop: false };
    // The regular pairs first, then one tiebreak pair at a time.
    for batch in 0..=MAX_TIEBREAK_PAIRS {
        let mut sub = setup.clone();
        sub.engines = vec![setup.engines[high].clone(), setup.engines[low].clone()];
        for engine in &mut sub.engines {
            engine.control = tiebreak_control(&engine.control, duel.games);
        }
        sub.format = Format::Match;
        sub.rounds = if batch == 0 { pairs.max(1) } else { 1 };
        sub.games = 2;
        sub.openings = skip_openings(&setup.openings, *opening);
        sub.resume = false;
        // Each batch of games goes to a PGN file of its own beside the one asked for.
        sub.pgn_out = setup.pgn_out.as_ref().map(|path| {
            let stem =
                path.file_stem().map_or_else(|| "knockout".into(), |s| s.to_string_lossy().into_owned());
            path.with_file_name(format!("{stem}-r{round}-{}v{}-g{}.pgn", high + 1, low + 1, duel.games + 1))
        });
        let played = run(&sub, &mut relay, cancel)?;
        *opening += sub.rounds;
        duel.points.0 += played.standings.engines[0].points();
        duel.points.1 += played.standings.engines[1].points();
        duel.games += played.games.len();
        let stopped = relay.stop || cancel.load(Ordering::Relaxed) || !played.complete;
        // Every pair before a tiebreak pair was even, so the duel's score differs exactly when
        // the regular pairs, or the last tiebreak pair, were decisive.
        if stopped || (duel.points.0 - duel.points.1).abs() > f64::EPSILON {
            break;
        }
    }
    duel.winner = if duel.points.1 > duel.points.0 { low } else { high };
    Ok(duel)
}

/// The same openings, starting `skip` openings further on (each duel and each tiebreak pair
/// gets openings of its own).
fn skip_openings(source: &OpeningSource, skip: usize) -> OpeningSource {
    match source {
        OpeningSource::Suite { openings, order } if !order.is_empty() => {
            let mut order = order.clone();
            let by = skip % order.len();
            order.rotate_left(by);
            OpeningSource::Suite { openings: openings.clone(), order }
        }
        other => other.clone(),
    }
}

impl fmt::Display for KnockoutReport {
    /// The bracket as played: a line a duel, then the medals.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = self.duels.iter().filter(|d| !d.third_place).map(|d| d.round).max();
        for d in &self.duels {
            let what = match (d.third_place, Some(d.round) == last) {
                (true, _) => "3rd place".to_string(),
                (false, true) => "final".to_string(),
                (false, false) => format!("round {}", d.round),
            };
            match d.low {
                None => writeln!(f, "{what}: engine {} has a bye", d.high + 1)?,
                Some(low) => writeln!(
                    f,
                    "{what}: #{} {} - {} #{} in {} games, #{} goes through",
                    d.high + 1,
                    d.points.0,
                    d.points.1,
                    low + 1,
                    d.games,
                    d.winner + 1
                )?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::Stage;

    #[test]
    fn tiebreak_controls_shorten_from_game_33_scaled_from_30_plus_5() {
        let tcec = TimeControl::Clock {
            stages: vec![Stage { moves: None, time: Duration::from_secs(1800) }],
            increment: Duration::from_secs(5),
        };
        assert_eq!(tiebreak_control(&tcec, 30), tcec, "up to game 32 the duel's own");
        let at = |games| match tiebreak_control(&tcec, games) {
            TimeControl::Clock { stages, increment } => (stages[0].time.as_secs(), increment.as_secs()),
            other => panic!("{other:?}"),
        };
        assert_eq!(at(32), (16 * 60, 4), "16+4");
        assert_eq!(at(34), (8 * 60, 3), "8+3");
        assert_eq!(at(40), (60, 1), "1+1");
        assert_eq!(at(42), (32, 1), "32s+1");
        assert_eq!(at(500), (1, 1), "1s+1 until a decisive pair");
        assert_eq!(tiebreak_control(&TimeControl::Depth(3), 40), TimeControl::Depth(3), "depth stays");
    }
}
