//! Automatic annotation, as Crafty's `annotate` does it: for each selected move of a game, a
//! player searches the move played and then every move; when the best is better than the
//! played move by more than a margin, the played move gets Crafty's comment
//! `{real_value (depth:best_value PV)}` and the best lines become variations. Every selected
//! move gets its `[%eval]`, and a move that gave away winning chance is marked `?!`, `?` or `??`
//! as lichess marks it ([`Judgement`]). A [`Summary`] per side counts the marks and the average
//! loss; [`annotation_report`] writes the HTML report of Crafty's `annotateh`.
//!
//! [`annotate_game`] does the work on the caller's thread; [`AnnotateJob`] runs it in the
//! background with progress and cancel.

mod diagram;
mod judge;
mod report;
pub(crate) mod search;
mod selection;
mod summary;
mod time_bank;

use std::fmt;
use std::ops::ControlFlow;
use std::time::Duration;

use shakmaty::{ByColor, Color, Move, Position};

pub use report::annotation_report;
pub use selection::{BadMoveRange, MoveRange, Side, SideError};
pub use summary::Summary;

use crate::analysis::san_line;
use crate::{
    Command, Eval, GameRecord, Job, Judgement, Nag, NodeId, Player, PlayerFailure, Score, SearchLimits,
};
use judge::judge;
use search::Found;
use time_bank::TimeBank;

/// How long each search of an annotation may run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AnnotateLimit {
    /// Search each position for this long (Crafty's `<time>`).
    Time(Duration),
    /// Search each position to this depth in plies.
    Depth(u32),
}

/// What to annotate and how hard to look: Crafty's `annotate` parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnnotateSettings {
    /// Whose moves.
    pub side: Side,
    /// Which move numbers.
    pub moves: MoveRange,
    /// In centipawns: a move gets a comment when the best move scores more than this above it;
    /// a negative margin comments every selected move.
    pub margin: i32,
    /// How long each search runs. A move takes one search when the played move was the best,
    /// else two; under a time limit, a move whose loss falls near the blunder threshold gets a
    /// second look paid from the time the game's other moves saved, so that a game never takes
    /// more than two searches' time per move.
    pub limit: AnnotateLimit,
    /// How many best lines to search and show as variations (Crafty's `n`), at least one.
    pub alternatives: u32,
}

impl Default for AnnotateSettings {
    fn default() -> Self {
        AnnotateSettings {
            side: Side::Both,
            moves: MoveRange::ALL,
            margin: 50,
            limit: AnnotateLimit::Time(Duration::from_secs(1)),
            alternatives: 1,
        }
    }
}

impl AnnotateSettings {
    fn limits(&self) -> SearchLimits {
        match self.limit {
            AnnotateLimit::Time(time) => SearchLimits::movetime(time),
            AnnotateLimit::Depth(depth) => SearchLimits::depth(depth),
        }
    }
}

/// How far the annotation of a game has come.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AnnotateProgress {
    /// Selected moves judged so far.
    pub done: usize,
    /// Moves selected in the game.
    pub total: usize,
}

/// What the searches said about one selected move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveVerdict {
    /// The node of the move in the annotated game.
    pub node: NodeId,
    /// Who played it.
    pub mover: Color,
    /// Its move number.
    pub number: u32,
    /// The played move's score, from the mover's side.
    pub played: Score,
    /// The depth of the search that scored the played move.
    pub played_depth: u32,
    /// The best move's score, from the mover's side.
    pub best: Score,
    /// The depth of the search that found the best line.
    pub depth: u32,
    /// The best line, from the position before the move.
    pub best_line: Vec<Move>,
    /// How bad the move was, if it was.
    pub judgement: Option<Judgement>,
    /// The winning chance it gave away (0 to 2; negative when the played move scored higher).
    pub chance_lost: f64,
    /// The centipawns it gave away (scores clipped to ±1000, a mate counting as 1000), at
    /// least 0.
    pub centipawns_lost: i32,
    /// Whether the best move beat it by more than the margin (it got Crafty's comment).
    pub commented: bool,
}

/// An annotated game.
#[derive(Clone, Debug)]
pub struct Annotated {
    /// The game with its evaluations, marks, comments and better lines.
    pub game: GameRecord,
    /// What was found about each selected move, in the order of the game.
    pub verdicts: Vec<MoveVerdict>,
    /// Each side's figures.
    pub summary: ByColor<Summary>,
}

impl Annotated {
    /// The marked moves, in the order of the game: where a reader wants to jump.
    pub fn marks(&self) -> impl Iterator<Item = (NodeId, Judgement)> + '_ {
        self.verdicts.iter().filter_map(|v| Some((v.node, v.judgement?)))
    }
}

/// Why an annotation did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnnotateError {
    /// The side to annotate is a player's name that does not pick one side.
    Side(SideError),
    /// The engine failed (could not start, crashed, hung, broke the rules).
    Engine(PlayerFailure),
    /// The engine did not answer a search, even after being told to stop.
    NoAnswer {
        /// The engine's name.
        engine: String,
        /// How long it was waited for after `stop`.
        seconds: u64,
    },
    /// The engine ended a search without a score for a position that has moves.
    NoScore {
        /// The engine's name.
        engine: String,
        /// The position, as a FEN.
        fen: String,
    },
    /// The owner cancelled the annotation.
    Cancelled,
}

impl fmt::Display for AnnotateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnnotateError::Side(e) => e.fmt(f),
            AnnotateError::Engine(failure) => failure.fmt(f),
            AnnotateError::NoAnswer { engine, seconds } => {
                write!(f, "{engine} did not end its search within {seconds} s of being told to stop")
            }
            AnnotateError::NoScore { engine, fen } => {
                write!(f, "{engine} searched {fen} without reporting a score")
            }
            AnnotateError::Cancelled => f.write_str("the annotation was cancelled"),
        }
    }
}

impl std::error::Error for AnnotateError {}

impl From<SideError> for AnnotateError {
    fn from(e: SideError) -> Self {
        AnnotateError::Side(e)
    }
}

/// Annotates the main line of `game` with `player` (which should be ready for a new game: it
/// is sent `NewGame` first). `report` gets the progress after each move and, while a search
/// runs, about every 100 ms; a `Break` from it stops the search and ends in
/// [`AnnotateError::Cancelled`]. A [`JobContext`](crate::JobContext)'s `report` fits.
///
/// The side and move range pick the moves; the game's other moves, variations, comments and
/// tags are kept.
pub fn annotate_game(
    player: &dyn Player,
    game: &GameRecord,
    settings: &AnnotateSettings,
    report: &mut dyn FnMut(AnnotateProgress) -> ControlFlow<()>,
) -> Result<Annotated, AnnotateError> {
    let colors = settings.side.colors(game)?;
    let main = game.main_line();
    let picked: Vec<usize> = (1..main.len())
        .filter(|&ply| {
            let before = game.position_at(ply - 1);
            selection::selected(colors, settings.moves, before.turn(), before.fullmoves().get())
        })
        .collect();
    let mut out = game.clone();
    let mut annotated = Annotated { game: game.clone(), verdicts: Vec::new(), summary: ByColor::default() };
    player.send(Command::NewGame);
    let total = picked.len();
    let mut bank = TimeBank::new(settings);
    for (done, &ply) in picked.iter().enumerate() {
        let progress = AnnotateProgress { done, total };
        if report(progress).is_break() {
            return Err(AnnotateError::Cancelled);
        }
        let mut go_on = || report(progress);
        let verdict = judge(player, game, ply, settings, &mut bank, &mut go_on)?;
        apply(&mut out, game, ply, &verdict.0, &verdict.1, settings);
        annotated.summary.get_mut(verdict.0.mover).record(&verdict.0);
        annotated.verdicts.push(verdict.0);
    }
    if report(AnnotateProgress { done: total, total }).is_break() {
        return Err(AnnotateError::Cancelled);
    }
    annotated.game = out;
    Ok(annotated)
}

/// Writes a verdict into the annotated game: the `[%eval]` of the played move, its mark, and,
/// when the best move beat it by the margin or it is marked, Crafty's comment and the best
/// lines as variations.
fn apply(
    out: &mut GameRecord,
    game: &GameRecord,
    ply: usize,
    verdict: &MoveVerdict,
    found: &Found,
    settings: &AnnotateSettings,
) {
    let white = |score: Score| score.white_pov(verdict.mover);
    let node = verdict.node;
    let parent = game.main_line()[ply - 1];
    let played = game.moves()[ply - 1];
    let before = game.position_at(ply - 1);
    out.set_eval(node, Some(Eval { score: white(verdict.played), depth: Some(verdict.played_depth) }));
    if let Some(judgement) = verdict.judgement {
        out.add_nag(node, Nag(judgement.nag()));
    }
    if !(verdict.commented || verdict.judgement.is_some()) {
        return;
    }
    let crafty = format!(
        "{} ({}:{} {})",
        white(verdict.played),
        verdict.depth,
        white(verdict.best),
        san_line(before, &verdict.best_line)
    );
    let old = out.node(node).map(|n| n.comment().to_owned()).unwrap_or_default();
    let comment = if old.is_empty() { crafty } else { format!("{old} {crafty}") };
    out.set_comment(node, &comment);
    for line in found.lines.iter().take(settings.alternatives.max(1) as usize) {
        if line.pv.first().is_none_or(|&m| m == played) {
            continue;
        }
        let mut at = parent;
        for (i, &m) in line.pv.iter().enumerate() {
            let Ok(next) = out.play_at(at, m) else { break };
            if i == 0 {
                out.set_eval(next, Some(Eval { score: white(line.score), depth: Some(line.depth) }));
            }
            at = next;
        }
    }
}

/// The annotation of one game in the background, reporting [`AnnotateProgress`]; cancelling
/// stops the running search at once and ends the job in
/// [`JobError::Cancelled`](crate::JobError::Cancelled).
///
/// ```
/// use std::time::Duration;
/// use kibitz_engine::{AnnotateJob, AnnotateLimit, AnnotateSettings, EngineHandle, GameRecord};
/// let mut game = GameRecord::new();
/// for m in ["f3", "e5", "g4"] {
///     game.play_text(m).unwrap();
/// }
/// let settings = AnnotateSettings { limit: AnnotateLimit::Depth(3), ..AnnotateSettings::default() };
/// let job = AnnotateJob::start(Box::new(EngineHandle::spawn(|| {})), game, settings, || {});
/// let annotated = job.wait().unwrap();
/// // 2. g4?? allows 2... Qh4#.
/// let (_, mark) = annotated.marks().last().unwrap();
/// assert_eq!(mark.symbol(), "??");
/// ```
pub type AnnotateJob = Job<AnnotateProgress, Annotated, AnnotateError>;

impl AnnotateJob {
    /// Starts [`annotate_game`] on a new thread with `player`, which the job owns and drops at
    /// the end; `wake` is called whenever there is news.
    pub fn start(
        player: Box<dyn Player>,
        game: GameRecord,
        settings: AnnotateSettings,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> AnnotateJob {
        Job::spawn("annotate", wake, move |ctx| {
            annotate_game(player.as_ref(), &game, &settings, &mut |progress| ctx.report(progress))
        })
    }
}
