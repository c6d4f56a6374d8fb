//! The TCEC Cup knockout (rules 2 to 4 of the Cup's rules): engines seeded in the order
//! given, 1 against N and 2 against N−1 in a bracket where the two best seeds can meet only in
//! the final; every duel at least `pairs` game pairs played in full; a round plays the
//! regular pairs of all its duels first, then the tiebreak pairs of the duels still tied, one
//! pair a duel at a time until each is decided, from game 33 on at the shortening time
//! controls of rule 3.c.iii (see [`round`]); the two losing semi-finalists play for third
//! place alongside the final. The openings come from one book a phase (see [`books`]).
//!
//! Every game goes to the one PGN as it ends, its `Round` tag `round.duel.game` (`1.3.2`:
//! round 1, its third duel, the duel's second game; the final is duel 1 of the last round,
//! the match for third place duel 2), and a stopped knockout resumes from it (see
//! [`replay`]).

mod books;
mod replay;
mod round;
mod tiebreak;

use std::fmt;
use std::sync::atomic::AtomicBool;

use super::hall::{Hall, check_names};
use super::{FinishedGame, MatchError, MatchSetup, OpeningSource, Standings, Watcher};
use crate::tournament::knockout;
use books::Books;
use replay::Replay;
use round::{Cup, DuelState};

pub use tiebreak::tiebreak_control;

/// How a knockout is played besides its [`MatchSetup`].
#[derive(Clone, Debug)]
pub struct KnockoutPlan {
    /// The regular game pairs of every duel (TCEC plays 4).
    pub pairs: usize,
    /// The books by phase (rule 4): round 1's, round 2's and so on, the last one for the
    /// rounds beyond the list, the semi-finals on, and the tiebreaks after their fourth pair.
    /// Empty: every game from the setup's openings.
    pub books: Vec<OpeningSource>,
}

/// One duel of the knockout and how it went.
#[derive(Clone, Debug, PartialEq)]
pub struct Duel {
    /// The round, from 1 (the final is the last; the match for third place is played and
    /// numbered with the final).
    pub round: usize,
    /// The better seed's engine index.
    pub high: usize,
    /// The other engine (`None`: a bye).
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
#[derive(Clone, Debug)]
pub struct KnockoutReport {
    /// Every duel decided, round by round in bracket order.
    pub duels: Vec<Duel>,
    /// The winner, once the final was played.
    pub champion: Option<usize>,
    /// The winner of the match for third place.
    pub third: Option<usize>,
    /// Every game, those of an earlier run first, then in the order they ended.
    pub games: Vec<FinishedGame>,
    /// Every engine's score over all its games.
    pub standings: Standings,
    /// The knockout was played to its end.
    pub complete: bool,
}

/// Plays the knockout of `setup.engines` (seeded in that order) as `plan` says; `setup`'s
/// format, rounds, games and (when `plan` has books) openings are not used. Every game goes
/// to `setup.pgn_out` as it ends, and `watcher` sees it; with `setup.resume` the games of
/// that file are read back instead of played. Setting `cancel` abandons the games under way
/// and ends the run (an unfinished knockout's report is not `complete`).
///
/// # Errors
/// As [`super::run`]: a setup that cannot be played, a PGN that cannot be resumed from
/// (another run's) or written.
pub fn run_knockout(
    setup: &MatchSetup,
    plan: &KnockoutPlan,
    watcher: &mut dyn Watcher,
    cancel: &AtomicBool,
) -> Result<KnockoutReport, MatchError> {
    let names = check_names(setup)?;
    if names.len() < 2 {
        let count = names.len();
        return Err(MatchError::Schedule(super::ScheduleError::Engines { format: setup.format, count }));
    }
    let replay = match (&setup.pgn_out, setup.resume) {
        (Some(path), true) => Replay::read(path).map_err(MatchError::Resume)?,
        (None, true) => return Err(MatchError::ResumeWithoutPgn),
        _ => Replay::none(),
    };
    let hall = Hall::open(setup)?;
    let books = Books::new(&plan.books, &setup.openings);
    let mut cup = Cup::new(setup, hall, replay, books, plan.pairs.max(1), watcher, cancel);
    let mut duels = Vec::new();
    let (mut champion, mut third) = (None, None);
    let mut field: Vec<(usize, Option<usize>)> =
        knockout(names.len()).into_iter().map(|m| (m.high, m.low)).collect();
    let mut small_final: Option<(usize, usize)> = None;
    let mut round = 1;
    let mut complete = true;
    while !field.is_empty() {
        let book = cup.books.of_round(round, field.len());
        let mut playing: Vec<DuelState> = field
            .iter()
            .enumerate()
            .map(|(i, &(high, low))| DuelState::new(round, i + 1, high, low))
            .collect();
        if let Some((a, b)) = small_final.take() {
            let mut small = DuelState::new(round, playing.len() + 1, a, Some(b));
            small.third_place = true;
            playing.push(small);
        }
        if !cup.play_round(&mut playing, book)? {
            complete = false;
            break;
        }
        let decided: Vec<Duel> = playing.iter().map(DuelState::decided).collect();
        let winners: Vec<usize> = decided.iter().filter(|d| !d.third_place).map(|d| d.winner).collect();
        let losers: Vec<usize> = decided
            .iter()
            .filter(|d| !d.third_place)
            .filter_map(|d| d.low.map(|low| if d.winner == d.high { low } else { d.high }))
            .collect();
        if field.len() == 1 {
            champion = winners.first().copied();
            third = decided.iter().find(|d| d.third_place).map(|d| d.winner);
        }
        if let [a, b] = losers[..]
            && field.len() == 2
        {
            small_final = Some((a.min(b), a.max(b)));
        }
        duels.extend(decided);
        // Winners keep their bracket order: the winners of duels 2k and 2k + 1 meet.
        field = winners
            .chunks(2)
            .filter(|w| w.len() == 2)
            .map(|w| (w[0].min(w[1]), Some(w[0].max(w[1]))))
            .collect();
        round += 1;
    }
    let hall = cup.finish()?;
    Ok(KnockoutReport { duels, champion, third, games: hall.games, standings: hall.standings, complete })
}

impl fmt::Display for KnockoutReport {
    /// The bracket as played: a line a duel.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = self.duels.iter().filter(|d| !d.third_place).map(|d| d.round).max();
        for d in &self.duels {
            let what = match (d.third_place, Some(d.round) == last && self.champion.is_some()) {
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
