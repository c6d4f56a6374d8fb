//! Engine matches and tournaments (`kibitz match`): N engines, built-in or external, each in
//! its own process (or thread) with its own options and time control, play game pairs with
//! the colours reversed on the same opening (TCEC's rule 4), several games at once. An
//! engine that crashes, hangs, plays an illegal move or loses its connection loses that
//! game (TCEC's rule 7) and is restarted; a time loss is final. Every game goes to the PGN as
//! it ends, and a stopped run resumes from it.
//!
//! The pieces: [`schedule`](schedule()) (who plays whom), [`OpeningSource`] (from which
//! positions), [`EngineSpec`] (what plays), [`run`] (the workers and the PGN), [`Watcher`]
//! (progress, and where an SPRT stops the run), [`Standings`] (the score).
//!
//! The arbiter is the caller's: [`MatchSetup::adjudication`] makes one
//! [`Adjudicator`] per game ([`move_limit`] by default; the
//! TCEC and Fishtest presets plug in here). Threefold repetition and the fifty-move rule end
//! a game at once when [`MatchSetup::draw_claims`] is on (TCEC's rule 6a).

mod board;
mod comment;
mod engine;
mod engine_words;
mod hall;
mod knockout;
mod live;
mod openings;
mod overhead;
mod pgn_out;
mod play;
mod resume;
mod schedule;
mod seats;
mod standings;
mod tally;
mod verdict;

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use shakmaty::KnownOutcome;

use crate::conductor::{Adjudicator, MoveLimit};
use crate::runner::{MoveReport, Patience, Remark};
use crate::{GameRecord, PlayerFailure, Termination};

pub use comment::MoveComment;
pub use engine::{EngineSpec, Program, unique_names};
pub use engine_words::{SpecError, engine_spec};
pub use knockout::{Duel, KnockoutPlan, KnockoutReport, run_knockout, tiebreak_control};
pub use live::{LiveEvent, LiveFeed, LiveMove};
pub use openings::{Opening, OpeningSource, OpeningsError, Order, read_suite};
pub use overhead::Overhead;
pub use pgn_out::{GameTags, PgnLog, match_record};
pub use play::{play_fixtures, run};
pub use resume::{PlayedBefore, ResumeError, played_before};
pub use schedule::{Fixture, Format, ScheduleError, schedule};
pub use standings::{CrossTable, EngineScore, Standings};
pub use tally::Tally;
pub use verdict::verdict;

/// Makes the arbiter of each game.
pub type AdjudicatorFactory = Arc<dyn Fn() -> Box<dyn Adjudicator> + Send + Sync>;

/// An arbiter that draws a game still going after `plies` plies (no limit: `usize::MAX`).
#[must_use]
pub fn move_limit(plies: usize) -> AdjudicatorFactory {
    Arc::new(move || Box::new(MoveLimit { plies }) as Box<dyn Adjudicator>)
}

/// Everything a match is played with.
#[derive(Clone)]
pub struct MatchSetup {
    /// The engines; their names are unique.
    pub engines: Vec<EngineSpec>,
    /// How they meet.
    pub format: Format,
    /// How many rounds.
    pub rounds: usize,
    /// Games per encounter per round (2: one game pair).
    pub games: usize,
    /// Where the games start.
    pub openings: OpeningSource,
    /// How many games are played at once.
    pub concurrency: usize,
    /// Makes each game's arbiter.
    pub adjudication: AdjudicatorFactory,
    /// Threefold repetition and the fifty-move rule end a game at once.
    pub draw_claims: bool,
    /// How long engines are waited for beyond their time controls.
    pub patience: Patience,
    /// How long an engine may take to answer a ping before a game (a fresh one: to finish
    /// its handshake) before it is restarted.
    pub ping_timeout: Duration,
    /// The PGN `Event` tag.
    pub event: String,
    /// The PGN file the games are appended to.
    pub pgn_out: Option<PathBuf>,
    /// Resume the run whose games `pgn_out` holds: play only the missing games.
    pub resume: bool,
    /// Where the games are shown as they are played, if anywhere.
    pub live: Option<LiveFeed>,
}

impl MatchSetup {
    /// A setup with the usual defaults: one round of one game pair per encounter from the
    /// initial position, one game at a time, draws claimed, no move limit, no PGN.
    #[must_use]
    pub fn new(engines: Vec<EngineSpec>, format: Format) -> MatchSetup {
        MatchSetup {
            engines,
            format,
            rounds: 1,
            games: 2,
            openings: OpeningSource::Start,
            concurrency: 1,
            adjudication: move_limit(usize::MAX),
            draw_claims: true,
            patience: Patience { untimed: Some(Duration::from_secs(300)), ..Patience::default() },
            ping_timeout: Duration::from_secs(10),
            event: "Kibitz match".to_owned(),
            pgn_out: None,
            resume: false,
            live: None,
        }
    }
}

impl fmt::Debug for MatchSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MatchSetup")
            .field("engines", &self.engines)
            .field("format", &self.format)
            .field("rounds", &self.rounds)
            .field("games", &self.games)
            .field("concurrency", &self.concurrency)
            .field("draw_claims", &self.draw_claims)
            .field("patience", &self.patience)
            .field("ping_timeout", &self.ping_timeout)
            .field("event", &self.event)
            .field("pgn_out", &self.pgn_out)
            .field("resume", &self.resume)
            .field("live", &self.live.is_some())
            .finish_non_exhaustive()
    }
}

/// A game of the match, once over.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// Its fixture.
    pub fixture: Fixture,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Its result.
    pub outcome: KnownOutcome,
    /// Why it ended (for a game read back on resuming, only failures and adjudications are
    /// known).
    pub termination: Option<Termination>,
    /// How it ended, in words (`White mates`).
    pub verdict: String,
    /// The game as written to the PGN.
    pub record: GameRecord,
    /// What the runner saw of each engine move (none for a game read back on resuming).
    pub moves: Vec<MoveReport>,
    /// Offers, answers, claims, resignations, failures and the end, in order, each with its
    /// position (none for a game read back on resuming).
    pub remarks: Vec<Remark>,
    /// It was read back from the PGN rather than played in this run.
    pub resumed: bool,
}

impl FinishedGame {
    /// `1-0`, `0-1` or `1/2-1/2`.
    #[must_use]
    pub fn result(&self) -> &'static str {
        match self.outcome {
            KnownOutcome::Decisive { winner: shakmaty::Color::White } => "1-0",
            KnownOutcome::Decisive { winner: shakmaty::Color::Black } => "0-1",
            KnownOutcome::Draw => "1/2-1/2",
        }
    }
}

/// What a watcher tells the runner after a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// Start no new game; the games under way are finished and written.
    Stop,
}

/// Follows the match as it goes: prints progress, and decides to stop early (an SPRT that
/// reached its verdict, a statistics module that wants pairs: [`Fixture::pair`]).
pub trait Watcher {
    /// The games read back from the PGN of a resumed run, before any new game.
    fn resumed(&mut self, _games: &[FinishedGame], _standings: &Standings) {}

    /// A game ended and was written (or the writing failed: the run stops).
    fn finished(&mut self, game: &FinishedGame, standings: &Standings) -> Flow;
}

/// How the match went.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The final score.
    pub standings: Standings,
    /// Every game, those of an earlier run first, then in the order they ended.
    pub games: Vec<FinishedGame>,
    /// Every fixture was played.
    pub complete: bool,
    /// What the runner cost the engines' clocks.
    pub overhead: Overhead,
}

/// Why a match could not be played (or went on no further).
#[derive(Debug)]
pub enum MatchError {
    /// The format does not fit the engines, or there is no game.
    Schedule(ScheduleError),
    /// Two engines have the same name.
    SameName(String),
    /// An engine's program cannot be started at all.
    CannotStart(PlayerFailure),
    /// `resume` without a PGN to resume from.
    ResumeWithoutPgn,
    /// The PGN cannot be resumed from.
    Resume(ResumeError),
    /// The PGN cannot be opened or written.
    Pgn(std::io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Schedule(e) => write!(f, "{e}"),
            MatchError::SameName(name) => {
                write!(f, "two engines are named {name}: give them different names")
            }
            MatchError::CannotStart(failure) => write!(f, "{failure}"),
            MatchError::ResumeWithoutPgn => write!(f, "there is nothing to resume from without a PGN file"),
            MatchError::Resume(e) => write!(f, "cannot resume: {e}"),
            MatchError::Pgn(e) => write!(f, "the PGN file: {e}"),
        }
    }
}

impl std::error::Error for MatchError {}
