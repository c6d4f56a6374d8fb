//! The judgement of one move: a search of every move from the position before it, a search of
//! the played move alone unless it was the best, and, for a move whose loss of winning chance
//! falls near the blunder threshold, a second, longer look that searches the best and the
//! played move side by side to the same depth before the mark is given.
//! Second looks are paid from a [`TimeBank`]; under a depth limit there are none.

use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use shakmaty::{Chess, Move, Position};

use super::search::{Found, search};
use super::time_bank::TimeBank;
use super::{AnnotateError, AnnotateSettings, MoveVerdict};
use crate::{GameRecord, Judgement, Player, Score, SearchLimits};

/// Ids of the searches, unique in the process, so that a late answer to an earlier search
/// (one cut short by a cancel) is never taken for the current one's.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The losses of winning chance that earn a second look: around the blunder threshold (0.3),
/// where the first searches of a weaker engine most often disagree with a stronger one's.
const SECOND_LOOK: Range<f64> = 0.15..0.5;

/// A score as a number that orders scores (mates beyond every centipawn value, the quicker
/// mate the better), in centipawns: Crafty compares the played and the best move's scores so.
fn rank(score: Score) -> i64 {
    i64::from(score.centipawns(100_000))
}

/// A score in centipawns clipped as lichess clips them for the average loss.
fn clipped(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-1000, 1000),
        Score::Mate(n) if n > 0 => 1000,
        Score::Mate(_) => -1000,
    }
}

/// The scores that grade a move, from the mover's side, with the depths that found them.
struct Grades {
    best: Score,
    depth: u32,
    best_line: Vec<Move>,
    played: Score,
    played_depth: u32,
}

impl Grades {
    fn chance_lost(&self) -> f64 {
        crate::win_chance(self.best) - crate::win_chance(self.played)
    }
}

/// Searches the move at `ply` of the main line (the move from `ply - 1` to `ply`): every move
/// first, then, unless the played move was the best, the played move alone, and a second look
/// when the loss falls in [`SECOND_LOOK`] and `bank` can pay for it. Returns the verdict and
/// the full search's lines.
pub(super) fn judge(
    player: &dyn Player,
    game: &GameRecord,
    ply: usize,
    settings: &AnnotateSettings,
    bank: &mut TimeBank,
    go_on: &mut dyn FnMut() -> ControlFlow<()>,
) -> Result<(MoveVerdict, Found), AnnotateError> {
    let started = Instant::now();
    let start = game.start();
    let before = game.position_at(ply - 1);
    let history = &game.moves()[..ply - 1];
    let played = game.moves()[ply - 1];
    let no_score = || AnnotateError::NoScore { engine: player.name().to_owned(), fen: fen_of(before) };

    let wide = SearchLimits { multipv: Some(settings.alternatives.max(1)), ..settings.limits() };
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let found = search(player, (start, history, before), id, wide, go_on)?;
    let best = found.first().ok_or_else(no_score)?.clone();
    let best_move = best.pv.first().copied().or(found.best);
    let was_best = best_move == Some(played);

    let (played_score, played_depth) = if was_best {
        (best.score, best.depth)
    } else {
        played_score(player, game, ply, settings, go_on)?.ok_or_else(no_score)?
    };
    bank.settle(started.elapsed());
    let mut grades = Grades {
        best: best.score,
        depth: best.depth,
        best_line: best.pv.clone(),
        played: played_score,
        played_depth,
    };
    if let Some(best_move) = best_move.filter(|_| !was_best && SECOND_LOOK.contains(&grades.chance_lost()))
        && let Some(time) = bank.look()
    {
        let looked = Instant::now();
        let side_by_side = SearchLimits {
            multipv: Some(2),
            searchmoves: vec![best_move, played],
            ..SearchLimits::movetime(time)
        };
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let again = search(player, (start, history, before), id, side_by_side, go_on)?;
        bank.spend(looked.elapsed());
        let line_of = |m: Move| again.lines.iter().find(|l| l.pv.first() == Some(&m));
        if let (Some(b), Some(p)) = (line_of(best_move), line_of(played)) {
            grades = Grades {
                best: b.score,
                depth: b.depth,
                best_line: b.pv.clone(),
                played: p.score,
                played_depth: p.depth,
            };
        }
    }

    let (judgement, chance_lost) = if was_best {
        (None, 0.0)
    } else {
        let lost = grades.chance_lost();
        (Judgement::of_loss(lost), lost)
    };
    let commented = rank(grades.best) - rank(grades.played) > i64::from(settings.margin);
    let verdict = MoveVerdict {
        node: game.main_line()[ply],
        mover: before.turn(),
        number: before.fullmoves().get(),
        played: grades.played,
        played_depth: grades.played_depth,
        best: grades.best,
        depth: grades.depth,
        best_line: grades.best_line,
        judgement,
        chance_lost,
        centipawns_lost: (clipped(grades.best) - clipped(grades.played)).max(0),
        commented,
    };
    Ok((verdict, found))
}

/// The played move's score from the mover's side and the depth of its search: a search of that
/// move alone, or, for an engine that ignores `searchmoves`, a search of the position after it.
fn played_score(
    player: &dyn Player,
    game: &GameRecord,
    ply: usize,
    settings: &AnnotateSettings,
    go_on: &mut dyn FnMut() -> ControlFlow<()>,
) -> Result<Option<(Score, u32)>, AnnotateError> {
    let start = game.start();
    let before = game.position_at(ply - 1);
    let played = game.moves()[ply - 1];
    let narrow = SearchLimits { searchmoves: vec![played], ..settings.limits() };
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let found = search(player, (start, &game.moves()[..ply - 1], before), id, narrow, go_on)?;
    if let Some(line) = found.first().filter(|l| l.pv.first() == Some(&played)) {
        return Ok(Some((line.score, line.depth)));
    }
    let after = game.position_at(ply);
    if after.is_checkmate() {
        return Ok(Some((Score::Mate(1), 0)));
    }
    if after.legal_moves().is_empty() {
        return Ok(Some((Score::Cp(0), 0)));
    }
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let reply = search(player, (start, &game.moves()[..ply], after), id, settings.limits(), go_on)?;
    Ok(reply.first().map(|line| {
        let score = match line.score {
            // The opponent is mated in n: the mover mates in n + 1, counting the played move.
            Score::Mate(n) if n < 0 => Score::Mate(1 - n),
            score => score.negate(),
        };
        (score, line.depth + 1)
    }))
}

fn fen_of(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;
    use std::sync::Mutex;
    use std::time::Duration;

    use shakmaty::uci::UciMove;

    use super::*;
    use crate::{AnnotateLimit, Command, EngineOption, Event, SearchInfo};

    /// A scripted engine for the game 1. a3: its first searches see 1. e4 at +1.00 and 1. a3
    /// at −0.30 (a mistake), but searching the two side by side it sees +1.50 and −1.50 (a
    /// blunder), as a deeper search that finds the refutation would.
    struct Scripted {
        events: Mutex<VecDeque<Event>>,
        gos: Mutex<Vec<SearchLimits>>,
    }

    fn mv(uci: &str) -> Move {
        uci.parse::<UciMove>().expect("uci").to_move(&Chess::default()).expect("legal")
    }

    impl Scripted {
        fn new() -> Scripted {
            Scripted { events: Mutex::new(VecDeque::new()), gos: Mutex::new(Vec::new()) }
        }

        fn line(&self, id: u64, multipv: u32, depth: u32, cp: i32, m: Move) {
            let info = SearchInfo {
                depth,
                seldepth: depth,
                multipv,
                score: Score::Cp(cp),
                bound: None,
                nodes: 1,
                nps: 1,
                time: Duration::from_millis(1),
                hashfull: 0,
                tbhits: 0,
                pv: vec![m],
            };
            self.events.lock().expect("events").push_back(Event::Info { id, info });
        }
    }

    impl Player for Scripted {
        fn name(&self) -> &str {
            "Scripted"
        }

        fn options(&self) -> Vec<EngineOption> {
            Vec::new()
        }

        fn send(&self, cmd: Command) {
            let Command::Go { id, limits, .. } = cmd else { return };
            let (e4, a3) = (mv("e2e4"), mv("a2a3"));
            let best = match limits.searchmoves.as_slice() {
                [] => {
                    self.line(id, 1, 10, 100, e4);
                    e4
                }
                [only] => {
                    self.line(id, 1, 10, -30, *only);
                    *only
                }
                _ => {
                    self.line(id, 1, 14, 150, e4);
                    self.line(id, 2, 14, -150, a3);
                    e4
                }
            };
            self.gos.lock().expect("gos").push(limits);
            let end = Event::BestMove { id, best: Some(best), ponder: None, nodes: 1, time: Duration::ZERO };
            self.events.lock().expect("events").push_back(end);
        }

        fn try_recv(&self) -> Option<Event> {
            self.events.lock().expect("events").pop_front()
        }

        fn recv_timeout(&self, _: Duration) -> Option<Event> {
            self.try_recv()
        }
    }

    fn judge_a3(limit: AnnotateLimit) -> (MoveVerdict, Vec<SearchLimits>) {
        let mut game = GameRecord::new();
        game.play_text("a3").expect("legal");
        let settings = AnnotateSettings { limit, ..AnnotateSettings::default() };
        let player = Scripted::new();
        let mut bank = TimeBank::new(&settings);
        let (verdict, _) = judge(&player, &game, 1, &settings, &mut bank, &mut || ControlFlow::Continue(()))
            .expect("judged");
        let gos = player.gos.lock().expect("gos").clone();
        (verdict, gos)
    }

    #[test]
    fn a_move_near_the_threshold_is_graded_by_the_second_look() {
        let (verdict, gos) = judge_a3(AnnotateLimit::Time(Duration::from_millis(100)));
        assert_eq!(gos.len(), 3, "{gos:?}");
        let look = &gos[2];
        assert_eq!(look.searchmoves, [mv("e2e4"), mv("a2a3")]);
        assert_eq!(look.multipv, Some(2));
        // The look takes what the first two searches saved (they answered at once): up to
        // two searches' time.
        let time = look.movetime.expect("a timed look");
        assert!(time >= Duration::from_millis(100) && time <= Duration::from_millis(200), "{time:?}");
        assert_eq!(verdict.judgement, Some(Judgement::Blunder), "{verdict:?}");
        assert_eq!((verdict.best, verdict.played), (Score::Cp(150), Score::Cp(-150)));
        assert_eq!((verdict.depth, verdict.played_depth), (14, 14));
        assert_eq!(verdict.best_line, [mv("e2e4")]);
    }

    #[test]
    fn a_depth_limit_gets_no_second_look() {
        let (verdict, gos) = judge_a3(AnnotateLimit::Depth(10));
        assert_eq!(gos.len(), 2, "{gos:?}");
        assert_eq!(verdict.judgement, Some(Judgement::Mistake), "{verdict:?}");
        assert_eq!((verdict.best, verdict.played), (Score::Cp(100), Score::Cp(-30)));
    }
}
