//! One game at a board of the playing hall: the worker's engines made ready, the game
//! conducted by the runner (shown live when the setup asks), and the engines that failed or
//! lost on time restarted after it; an engine that cannot be made ready loses at once.

use std::sync::atomic::AtomicBool;

use shakmaty::{ByColor, Color};

use super::hall::Job;
use super::seats::Seats;
use super::{LiveEvent, LiveMove, MatchSetup, Opening};
use crate::conductor::{Conductor, GameEvent};
use crate::runner::{GamePlan, MoveReport, MoveWatch, PlayedGame, Remark, conduct};
use crate::{FailureKind, PlayerFailure, TimeControl};

/// Plays one job with the worker's engines on its `board` (shown live when the setup asks);
/// an engine that cannot be made ready loses the game without a move, and one that failed
/// or lost on time is restarted after it.
pub(super) fn play_job(
    setup: &MatchSetup,
    seats: &mut Seats<'_>,
    (board, job): (usize, &Job),
    cancel: &AtomicBool,
) -> PlayedGame {
    let (fixture, opening) = (&job.fixture, &job.opening);
    let index = ByColor { white: fixture.white, black: fixture.black };
    let specs = index.map(|i| &setup.engines[i]);
    if let Some(live) = &setup.live {
        let names = specs.map(|s| s.name.clone());
        let opening = Box::new(opening.game.clone());
        let _ = live.send(LiveEvent::Started { board, fixture: *fixture, names, opening });
    }
    let watch = |conductor: &Conductor, report: &MoveReport| {
        if let Some(live) = &setup.live
            && let Some(moved) = LiveMove::of(board, *fixture, conductor, report)
        {
            let _ = live.send(LiveEvent::Moved(Box::new(moved)));
        }
    };
    let controls = job.controls.clone();
    for side in [Color::White, Color::Black] {
        if let Err(failure) = seats.ready(*index.get(side)) {
            return forfeit(opening, side, failure, &controls);
        }
    }
    let (Some(white), Some(black)) = (seats.get(fixture.white), seats.get(fixture.black)) else {
        let failure = PlayerFailure {
            engine: specs.white.name.clone(),
            kind: FailureKind::Hung("it was not ready".into()),
            last_lines: vec![],
        };
        return forfeit(opening, Color::White, failure, &controls);
    };
    let plan = GamePlan {
        opening: opening.game.clone(),
        controls,
        limits: specs.map(|s| s.limits.clone()),
        policies: specs.map(|s| s.policy.clone()),
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
fn forfeit(
    opening: &Opening,
    side: Color,
    failure: PlayerFailure,
    controls: &ByColor<TimeControl>,
) -> PlayedGame {
    let mut conductor = Conductor::new(opening.game.clone(), None, ByColor::new_with(|_| None));
    let events = conductor.player_failed(side, failure);
    let mut game = conductor.into_game();
    game.set_tag("TimeControl", &controls.white.to_pgn());
    let remarks =
        events.into_iter().map(|event| Remark { ply: game.len(), fen: String::new(), event }).collect();
    PlayedGame { game, remarks, moves: Vec::new(), cancelled: false }
}
