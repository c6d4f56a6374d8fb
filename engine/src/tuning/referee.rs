//! Judging a reading by an evaluation: the referee, an engine at a fixed depth, node count
//! or time, scores the position where a reading was made, and the reading is judged by the
//! standard issue 18's targets use (and `examples/judge_policy.rs` measures by):
//!
//! - a resignation is right when the resigner is at least [`RESIGN_BEHIND`] behind;
//! - a draw offer, accepted or declined, is wrong when either side is more than
//!   [`DRAW_AHEAD`] ahead, and declining one is wrong when neither is.
//!
//! A run may judge by narrower or wider [`Margins`] than these (a tuner aiming at the
//! targets' error rates may want to judge more strictly than the targets do), and may also
//! require of a draw that Kibitz's own games from such positions are usually drawn
//! ([`Margins::draw_odds`], [`super::draw_odds`]).
//!
//! The verdict is a [`Playout`] of no plies, with the referee's score, so that the
//! replacement rules read it as they read a game played on: a side ahead beyond the margin
//! "wins", a level position is "drawn" (see [`super::replacement`]).
//!
//! Why a referee as well as a judge playing on. Played on at the run's control, a
//! resignation is often not converted, which teaches not to resign; played on by a stronger
//! engine, many level positions are won, which teaches not to offer (docs/BENCHMARKS.md,
//! "A stronger judge"). An evaluation asks what the targets ask. (Measured there, "A
//! referee": judged by the targets' margins, a population drifts to agreeing early, since
//! most early positions are within 1.5 pawns; by narrower ones, or with draws played on, to
//! hardly offering. Neither met the targets.)

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};

use super::draw_odds::{drawn_percent, men};
use super::{Finish, HowEnded, Playout, Seat, Tuner};
use crate::annotate::search::search;
use crate::matches::{EngineSpec, MatchError};
use crate::{
    AnnotateError, Command, FailureKind, GameRecord, Player, PlayerFailure, SearchLimits, TimeControl,
};

/// A resignation is right from this deficit on, for the resigner (centipawns).
pub const RESIGN_BEHIND: i32 = 300;
/// A draw, offered or agreed, is wrong beyond this lead for either side (centipawns).
pub const DRAW_AHEAD: i32 = 150;

/// How far behind a resigner must be, and how far ahead a side must be for a draw to be
/// wrong, in centipawns; and how often a position must be drawn for a draw to be right.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Margins {
    /// A resignation is right from this deficit on.
    pub resign_behind: i32,
    /// A draw is wrong beyond this lead.
    pub draw_ahead: i32,
    /// A draw is also wrong where Kibitz's own games, from positions with as many men and
    /// as large a score, were drawn less often than this (percent,
    /// [`super::draw_odds::drawn_percent`]): the game was not yet dead. 0, the issue's
    /// standard and in older logs: any position within `draw_ahead` may be drawn.
    pub draw_odds: u8,
}

impl Default for Margins {
    /// The issue's: [`RESIGN_BEHIND`] and [`DRAW_AHEAD`], whatever the odds of a draw.
    fn default() -> Self {
        Margins { resign_behind: RESIGN_BEHIND, draw_ahead: DRAW_AHEAD, draw_odds: 0 }
    }
}

/// A mate's score in centipawns: past any evaluation, nearer mates further.
const MATE: i32 = 100_000;

/// The reading a referee judges.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// This side resigned.
    Resignation(Seat),
    /// A draw was offered (and accepted or declined).
    Draw,
}

impl Reading {
    /// The reading a game ended on: an agreed draw, or a resignation (by the loser); `None`
    /// for any other ending.
    #[must_use]
    pub fn ended(finish: &Finish) -> Option<Reading> {
        match finish.how {
            HowEnded::Agreement => Some(Reading::Draw),
            HowEnded::Resignation => {
                finish.resigned.or(finish.winner.map(Seat::other)).map(Reading::Resignation)
            }
            _ => None,
        }
    }

    /// The verdict on the reading, by `margins`, in a position with `men` on the board that
    /// White's side scores `white_cp`: the side that "wins" it, as a game played on would
    /// say (`None`: drawn). A position too lively to be drawn by [`Margins::draw_odds`] is
    /// won by the side the score favours (White when level): for the replacement rules only
    /// the draw's refutation counts, which charges the side that offered it (the accepter
    /// pays only when scored beyond `draw_ahead`, [`super::replacement`]).
    #[must_use]
    pub fn verdict(self, white_cp: i32, men: usize, margins: Margins) -> Playout {
        let winner = match self {
            Reading::Resignation(resigner) => {
                (resigner.sees(white_cp) <= -margins.resign_behind).then(|| resigner.other())
            }
            Reading::Draw if white_cp > margins.draw_ahead => Some(Seat::White),
            Reading::Draw if white_cp < -margins.draw_ahead => Some(Seat::Black),
            Reading::Draw if drawn_percent(men, white_cp) < margins.draw_odds => {
                Some(if white_cp >= 0 { Seat::White } else { Seat::Black })
            }
            Reading::Draw => None,
        };
        Playout { winner, plies: 0, score: Some(white_cp), tally: None }
    }
}

/// Why an engine cannot referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoFixedLimit(pub String);

impl std::fmt::Display for NoFixedLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} needs a fixed depth, node count or time a move (depth=, nodes= or st=) to referee",
            self.0
        )
    }
}

impl std::error::Error for NoFixedLimit {}

/// An engine scoring positions at a fixed limit.
pub struct Referee {
    player: Box<dyn Player>,
    limits: SearchLimits,
    next_id: u64,
}

impl Referee {
    /// Starts `spec`'s engine; its limits are its depth or node count, or its time a move.
    ///
    /// # Errors
    /// [`NoFixedLimit`] when the spec searches to a clock or without end.
    pub fn start(spec: &EngineSpec) -> Result<Referee, NoFixedLimit> {
        Ok(Referee { limits: Referee::limits(spec)?, player: spec.start(), next_id: 1 })
    }

    /// The limits `spec` referees at: its depth or node count, or its time a move.
    ///
    /// # Errors
    /// [`NoFixedLimit`] when the spec searches to a clock or without end.
    pub fn limits(spec: &EngineSpec) -> Result<SearchLimits, NoFixedLimit> {
        let mut limits =
            SearchLimits { depth: spec.limits.depth, nodes: spec.limits.nodes, ..SearchLimits::default() };
        match spec.control {
            TimeControl::MoveTime(time) => limits.movetime = Some(time),
            TimeControl::Depth(depth) => limits.depth = Some(depth),
            TimeControl::Nodes(nodes) => limits.nodes = Some(nodes),
            _ => {}
        }
        if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
            return Err(NoFixedLimit(spec.name.clone()));
        }
        Ok(limits)
    }

    /// White's score, in centipawns, of the position `moves` reach from `start`, searched
    /// afresh (after a new game, so that earlier positions leave nothing in its tables).
    ///
    /// # Errors
    /// [`AnnotateError`] when the engine fails, does not answer, gives no score for a
    /// position with moves, or `go_on` breaks; a position without moves scores as its rules
    /// say without asking.
    pub fn white_score(
        &mut self,
        start: &Chess,
        moves: &[Move],
        go_on: &mut dyn FnMut() -> ControlFlow<()>,
    ) -> Result<i32, AnnotateError> {
        let mut root = start.clone();
        for m in moves {
            root.play_unchecked(*m);
        }
        if root.is_checkmate() {
            return Ok(if root.turn().is_white() { -MATE } else { MATE });
        }
        if root.legal_moves().is_empty() {
            return Ok(0);
        }
        let id = self.next_id;
        self.next_id += 1;
        // Each reading is scored afresh, whatever was scored before it.
        self.player.send(Command::NewGame);
        let found = search(self.player.as_ref(), (start, moves, &root), id, self.limits.clone(), go_on)?;
        let line = found.first().ok_or_else(|| AnnotateError::NoScore {
            engine: self.player.name().to_owned(),
            fen: shakmaty::fen::Fen::from_position(&root, shakmaty::EnPassantMode::Legal).to_string(),
        })?;
        Ok(line.white_score.centipawns(MATE))
    }
}

impl Tuner {
    /// The referee's verdict by `margins` on each of `readings` (a game, the moves played at
    /// the reading, and which reading), in order; `None` for one the referee failed on (it is
    /// restarted for the next) or the run was cancelled before.
    ///
    /// # Errors
    /// [`MatchError::CannotStart`] when the referee's program cannot be started at all.
    pub(super) fn referee(
        &self,
        spec: &EngineSpec,
        readings: &[(&GameRecord, usize, Reading)],
        margins: Margins,
        cancel: &AtomicBool,
    ) -> Result<Vec<Option<Playout>>, MatchError> {
        let mut verdicts = Vec::with_capacity(readings.len());
        let mut current: Option<Referee> = None;
        let mut go_on = || {
            if cancel.load(Ordering::Relaxed) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        };
        for &(game, plies, reading) in readings {
            if cancel.load(Ordering::Relaxed) {
                verdicts.push(None);
                continue;
            }
            let referee = match &mut current {
                Some(r) => r,
                None => current.insert(Referee::start(spec).map_err(|e| {
                    MatchError::CannotStart(PlayerFailure {
                        engine: spec.name.clone(),
                        kind: FailureKind::CouldNotStart(e.to_string()),
                        last_lines: Vec::new(),
                    })
                })?),
            };
            let moves = &game.moves()[..plies.min(game.len())];
            let men = men(game.position_at(moves.len()));
            match referee.white_score(game.start(), moves, &mut go_on) {
                Ok(cp) => verdicts.push(Some(reading.verdict(cp, men, margins))),
                Err(AnnotateError::Engine(failure))
                    if matches!(failure.kind, FailureKind::CouldNotStart(_)) =>
                {
                    return Err(MatchError::CannotStart(failure));
                }
                Err(_) => {
                    // Crashed, hung, scoreless or cancelled: the reading is taken at its
                    // word, and the next one asks a fresh referee.
                    verdicts.push(None);
                    current = None;
                }
            }
        }
        Ok(verdicts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    #[test]
    fn a_resignation_is_right_three_pawns_down() {
        assert_eq!(
            Reading::Resignation(Seat::White).verdict(-300, 32, Margins::default()).winner,
            Some(Seat::Black)
        );
        assert_eq!(Reading::Resignation(Seat::White).verdict(-299, 32, Margins::default()).winner, None);
        assert_eq!(
            Reading::Resignation(Seat::Black).verdict(450, 32, Margins::default()).winner,
            Some(Seat::White)
        );
        assert_eq!(
            Reading::Resignation(Seat::Black).verdict(-450, 32, Margins::default()).winner,
            None,
            "the resigner was ahead"
        );
    }

    #[test]
    fn a_draw_is_wrong_beyond_a_pawn_and_a_half() {
        assert_eq!(Reading::Draw.verdict(150, 32, Margins::default()).winner, None);
        assert_eq!(Reading::Draw.verdict(151, 32, Margins::default()).winner, Some(Seat::White));
        assert_eq!(Reading::Draw.verdict(-151, 32, Margins::default()).winner, Some(Seat::Black));
        assert_eq!(
            Reading::Draw.verdict(-20, 32, Margins::default()),
            Playout { winner: None, plies: 0, score: Some(-20), tally: None }
        );
    }

    #[test]
    fn a_run_may_judge_more_strictly() {
        let strict = Margins { resign_behind: 500, draw_ahead: 75, draw_odds: 0 };
        assert_eq!(Reading::Draw.verdict(100, 32, strict).winner, Some(Seat::White));
        assert_eq!(Reading::Resignation(Seat::White).verdict(-400, 32, strict).winner, None);
        assert_eq!(Reading::Resignation(Seat::White).verdict(-500, 32, strict).winner, Some(Seat::Black));
    }

    #[test]
    fn a_run_may_require_a_draw_to_be_likely() {
        let dead = Margins { draw_odds: 75, ..Margins::default() };
        // Level with 32 men: Kibitz's games were drawn 56% of the time.
        assert_eq!(Reading::Draw.verdict(0, 32, dead).winner, Some(Seat::White), "not yet dead");
        assert_eq!(Reading::Draw.verdict(-30, 32, dead).winner, Some(Seat::Black));
        // Level with 14 men: 86%; a pawn up with 10: 84%.
        assert_eq!(Reading::Draw.verdict(10, 14, dead).winner, None);
        assert_eq!(Reading::Draw.verdict(-120, 10, dead).winner, None);
        // The margin still holds: 1.6 pawns up with 6 men (94% drawn) is not a draw.
        assert_eq!(Reading::Draw.verdict(160, 6, dead).winner, Some(Seat::White));
        // Resignations are judged by the margin alone.
        assert_eq!(Reading::Resignation(Seat::White).verdict(-300, 32, dead).winner, Some(Seat::Black));
        assert_eq!(Reading::Draw.verdict(0, 32, Margins::default()).winner, None, "the issue's standard");
    }

    #[test]
    fn mates_lie_beyond_every_evaluation() {
        assert_eq!(Score::Mate(3).centipawns(MATE), MATE - 3);
        assert_eq!(Score::Mate(-2).centipawns(MATE), -MATE + 2);
        assert!(Score::Mate(-30).centipawns(MATE) < -RESIGN_BEHIND);
    }
}
