//! Playing a match: `concurrency` workers take the fixtures in order, each with its own
//! engine instances; the calling thread writes every game to the PGN as it ends, keeps the
//! score and tells the [`Watcher`].

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crossbeam_channel::unbounded;
use shakmaty::{ByColor, Color, KnownOutcome};

use super::pgn_out::{GameTags, PgnLog, match_record};
use super::resume::played_before;
use super::schedule::{Fixture, schedule};
use super::seats::Seats;
use super::verdict::verdict;
use super::{
    FinishedGame, Flow, LiveEvent, LiveMove, MatchError, MatchReport, MatchSetup, Opening, Overhead, Program,
    Standings, Watcher,
};
use crate::conductor::{Conductor, GameEvent};
use crate::runner::{GamePlan, MoveReport, MoveWatch, PlayedGame, Remark, conduct};
use crate::{Event, FailureKind, PlayerFailure};

/// Plays the match `setup` describes, telling `watcher` of every game. Setting `cancel`
/// abandons the games under way (they are not written: a resumed run plays them again) and
/// ends the run.
///
/// # Errors
/// [`MatchError`] when the match cannot start (a bad schedule, two engines of one name, an
/// engine that cannot be started, a PGN that cannot be resumed from or opened), or when the
/// PGN cannot be written (the games under way are finished first).
pub fn run(
    setup: &MatchSetup,
    watcher: &mut dyn Watcher,
    cancel: &AtomicBool,
) -> Result<MatchReport, MatchError> {
    let names: Vec<String> = setup.engines.iter().map(|e| e.name.clone()).collect();
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(MatchError::SameName(name.clone()));
        }
    }
    let fixtures =
        schedule(setup.format, names.len(), setup.rounds, setup.games).map_err(MatchError::Schedule)?;
    let before = match (&setup.pgn_out, setup.resume) {
        (Some(path), true) => played_before(path, &fixtures, &names).map_err(MatchError::Resume)?,
        (None, true) => return Err(MatchError::ResumeWithoutPgn),
        _ => Vec::new(),
    };
    let mut log = setup
        .pgn_out
        .as_deref()
        .map(|p| PgnLog::open(p, setup.resume))
        .transpose()
        .map_err(MatchError::Pgn)?;
    check_programs(setup)?;

    let mut standings = Standings::new(&names);
    let mut games = Vec::new();
    for p in &before {
        let fixture = fixtures[p.index];
        standings.record(fixture.white, fixture.black, p.outcome, p.termination);
        games.push(FinishedGame {
            fixture,
            white: names[fixture.white].clone(),
            black: names[fixture.black].clone(),
            outcome: p.outcome,
            termination: p.termination,
            verdict: written_verdict(&p.game),
            record: p.game.clone(),
            moves: Vec::new(),
            resumed: true,
        });
    }
    if !games.is_empty() {
        watcher.resumed(&games, &standings);
    }
    let queue: Mutex<VecDeque<Fixture>> = Mutex::new(
        fixtures
            .iter()
            .enumerate()
            .filter(|(i, _)| !before.iter().any(|p| p.index == *i))
            .map(|(_, f)| *f)
            .collect(),
    );
    let remaining = queue.lock().map(|q| q.len()).unwrap_or(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = unbounded::<(Fixture, Opening, PlayedGame)>();
    let mut overhead = Overhead::default();
    let mut failure = None;
    std::thread::scope(|scope| {
        for board in 0..setup.concurrency.clamp(1, remaining.max(1)) {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            scope.spawn(move || {
                let mut seats = Seats::new(&setup.engines, setup.ping_timeout);
                loop {
                    if stop.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(fixture) = queue.lock().ok().and_then(|mut q| q.pop_front()) else { break };
                    let opening = setup.openings.opening(fixture.opening);
                    let played = play_fixture(setup, &mut seats, (board, &fixture), &opening, cancel);
                    if tx.send((fixture, opening, played)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (fixture, opening, played) in rx {
            let Some(outcome) = outcome(&played) else { continue };
            let verdict = verdict(played.game.ending(), &played.remarks);
            let (white, black) = (&setup.engines[fixture.white], &setup.engines[fixture.black]);
            let tags = GameTags {
                event: &setup.event,
                fixture: &fixture,
                names: ByColor { white: &white.name, black: &black.name },
                controls: ByColor { white: &white.control, black: &black.control },
                opening: &opening,
                verdict: &verdict,
            };
            let record = match_record(&played, &tags);
            if let Some(log) = log.as_mut()
                && let Err(e) = log.append(&record)
            {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(MatchError::Pgn(e));
                continue;
            }
            let termination = played.game.ending().map(|e| e.termination);
            standings.record(fixture.white, fixture.black, outcome, termination);
            for report in &played.moves {
                overhead.add(report);
            }
            let game = FinishedGame {
                fixture,
                white: white.name.clone(),
                black: black.name.clone(),
                outcome,
                termination,
                verdict,
                record,
                moves: played.moves,
                resumed: false,
            };
            if watcher.finished(&game, &standings) == Flow::Stop {
                stop.store(true, Ordering::Relaxed);
            }
            games.push(game);
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let complete = games.len() == fixtures.len();
    Ok(MatchReport { standings, games, complete, overhead })
}

/// The verdict written after a game's last move (after the move's own comment).
fn written_verdict(game: &crate::GameRecord) -> String {
    let comment = game.node(game.main_end()).map(|n| n.comment().to_owned()).unwrap_or_default();
    match comment.split_once(", ") {
        Some((first, rest)) if super::MoveComment::parse(first).is_some() => rest.to_owned(),
        _ => comment,
    }
}

/// The result of a finished game; `None` for one abandoned through the cancel flag.
fn outcome(played: &PlayedGame) -> Option<KnownOutcome> {
    if played.cancelled {
        return None;
    }
    played.game.ending().map(|e| e.outcome)
}

/// Refuses to begin when an external engine's program cannot be started at all (a wrong
/// path: every one of its games would be lost for nothing).
fn check_programs(setup: &MatchSetup) -> Result<(), MatchError> {
    for spec in setup.engines.iter().filter(|e| matches!(e.program, Program::External(_))) {
        let player = spec.start();
        if let Some(Event::Failed(failure)) = player.try_recv()
            && matches!(failure.kind, FailureKind::CouldNotStart(_))
        {
            return Err(MatchError::CannotStart(failure));
        }
    }
    Ok(())
}

/// Plays one fixture with the worker's engines; an engine that cannot be made ready loses
/// the game without a move, and one that failed or lost on time is restarted after it.
fn play_fixture(
    setup: &MatchSetup,
    seats: &mut Seats<'_>,
    (board, fixture): (usize, &Fixture),
    opening: &Opening,
    cancel: &AtomicBool,
) -> PlayedGame {
    let index = ByColor { white: fixture.white, black: fixture.black };
    let specs = index.map(|i| &setup.engines[i]);
    if let Some(live) = &setup.live {
        let names = specs.map(|s| s.name.clone());
        let _ = live.send(LiveEvent::Started {
            board,
            fixture: *fixture,
            names,
            opening: Box::new(opening.game.clone()),
        });
    }
    let watch = |conductor: &Conductor, report: &MoveReport| {
        if let Some(live) = &setup.live
            && let Some(moved) = LiveMove::of(board, *fixture, conductor, report)
        {
            let _ = live.send(LiveEvent::Moved(Box::new(moved)));
        }
    };
    let controls = specs.map(|s| s.control.clone());
    for side in [Color::White, Color::Black] {
        if let Err(failure) = seats.ready(*index.get(side)) {
            return forfeit(opening, side, failure, &controls.white.to_pgn());
        }
    }
    let (Some(white), Some(black)) = (seats.get(fixture.white), seats.get(fixture.black)) else {
        let failure = PlayerFailure {
            engine: specs.white.name.clone(),
            kind: FailureKind::Hung("it was not ready".into()),
            last_lines: vec![],
        };
        return forfeit(opening, Color::White, failure, &controls.white.to_pgn());
    };
    let plan = GamePlan {
        opening: opening.game.clone(),
        controls,
        limits: specs.map(|s| s.limits.clone()),
        policies: ByColor::new_with(|_| None),
        adjudicator: (setup.adjudication)(),
        draw_claims: setup.draw_claims,
        patience: setup.patience,
        cancel: Some(cancel),
        watch: setup.live.is_some().then_some(&watch as MoveWatch<'_>),
    };
    let played = conduct(ByColor { white, black }, plan);
    for side in [Color::White, Color::Black] {
        let failed = played.remarks.iter().any(|r| match &r.event {
            GameEvent::PlayerFailed { side: s, .. } | GameEvent::Flagged { side: s } => *s == side,
            _ => false,
        });
        if failed {
            seats.restart(*index.get(side));
        }
    }
    played
}

/// The game `side` loses before its first move, its engine not answering.
fn forfeit(opening: &Opening, side: Color, failure: PlayerFailure, control: &str) -> PlayedGame {
    let mut conductor = Conductor::new(opening.game.clone(), None, ByColor::new_with(|_| None));
    let events = conductor.player_failed(side, failure);
    let mut game = conductor.into_game();
    game.set_tag("TimeControl", control);
    let remarks =
        events.into_iter().map(|event| Remark { ply: game.len(), fen: String::new(), event }).collect();
    PlayedGame { game, remarks, moves: Vec::new(), cancelled: false }
}
