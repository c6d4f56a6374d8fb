//! A tournament under way, off the UI thread: the runner plays on a thread of its own and
//! reports each game's moves (for the live boards) and end (for the results) over channels
//! the UI drains once a frame. Cancel abandons the games under way; a resumed run plays them
//! again from the PGN.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, unbounded};
use kibitz_engine::SyzygyTables;
use kibitz_engine::conductor::Adjudicator;
use kibitz_engine::matches::{
    FinishedGame, Flow, KnockoutPlan, KnockoutReport, LiveEvent, MatchSetup, OpeningSource, Order, Standings,
    Tally, Watcher, read_suite, run, run_knockout,
};

use super::choices::{FormatChoice, RulesChoice, TournamentChoices};
use super::live_board::LiveBoard;

/// What the runner's thread tells the UI.
enum News {
    /// Games read back from the PGN of a resumed run.
    Resumed(Vec<FinishedGame>, Standings),
    /// A game ended.
    Finished(Box<FinishedGame>, Standings),
    /// The run is over: how it ended.
    Done(Result<Ending, String>),
}

/// How a run ended.
#[derive(Clone, Debug)]
pub enum Ending {
    /// Every game was played, or the run was cancelled (`complete` false).
    Played {
        /// Every scheduled game was played.
        complete: bool,
    },
    /// The knockout's bracket as played.
    Knockout(KnockoutReport),
}

/// One tournament: its boards, its games and its score so far.
pub struct Running {
    /// The form it was started from.
    pub choices: TournamentChoices,
    /// The engines' names, by index.
    pub names: Vec<String>,
    /// Where its games are written.
    pub pgn: PathBuf,
    /// Games in the schedule (a knockout's tiebreaks come on top).
    pub scheduled: usize,
    /// One board per game played at once.
    pub boards: Vec<LiveBoard>,
    /// The games that ended, in order.
    pub games: Vec<FinishedGame>,
    /// The score (of the duel under way, in a knockout).
    pub standings: Standings,
    /// The first engine's results as statistics.
    pub tally: Tally,
    /// How it ended, once it did.
    pub ending: Option<Result<Ending, String>>,
    /// When it began.
    pub started: Instant,
    cancel: Arc<AtomicBool>,
    news: Receiver<News>,
    live: Receiver<LiveEvent>,
}

impl Running {
    /// Starts `setup` (whose engines and PGN are set; its openings are read here from
    /// `choices`, on the runner's thread) and returns at once. `repaint` wakes the UI.
    #[must_use]
    pub fn start(
        choices: TournamentChoices,
        mut setup: MatchSetup,
        tablebases: Option<PathBuf>,
        repaint: Arc<dyn Fn() + Send + Sync>,
    ) -> Running {
        let names: Vec<String> = setup.engines.iter().map(|e| e.name.clone()).collect();
        let pgn = setup.pgn_out.clone().unwrap_or_default();
        let encounters = setup.format.encounters(names.len()).len();
        let scheduled = match choices.format {
            FormatChoice::Knockout => knockout_games(names.len(), choices.pairs),
            _ => encounters * setup.rounds * setup.games,
        };
        let (news_tx, news) = unbounded();
        let (live_tx, live) = unbounded();
        setup.live = Some(live_tx);
        let cancel = Arc::new(AtomicBool::new(false));
        let running = Running {
            standings: Standings::new(&names),
            choices: choices.clone(),
            names,
            pgn,
            scheduled,
            boards: (0..setup.concurrency).map(|_| LiveBoard::default()).collect(),
            games: Vec::new(),
            tally: Tally::new(None),
            ending: None,
            started: Instant::now(),
            cancel: Arc::clone(&cancel),
            news,
            live,
        };
        std::thread::Builder::new()
            .name("tournament".into())
            .spawn(move || {
                let ending = play(&choices, (setup, tablebases.as_deref()), &news_tx, &repaint, &cancel);
                let _ = news_tx.send(News::Done(ending));
                repaint();
            })
            .ok();
        running
    }

    /// Takes in what the runner reported since the last frame.
    pub fn poll(&mut self) {
        for event in self.live.try_iter() {
            let board = match &event {
                LiveEvent::Started { board, .. } => *board,
                LiveEvent::Moved(moved) => moved.board,
            };
            if let Some(shown) = self.boards.get_mut(board) {
                shown.apply(event);
            }
        }
        for news in self.news.try_iter().collect::<Vec<_>>() {
            match news {
                News::Resumed(games, standings) => {
                    for game in &games {
                        self.tally.add(&game.fixture, game.outcome);
                    }
                    self.games.extend(games);
                    self.standings = standings;
                }
                News::Finished(game, standings) => {
                    for board in &mut self.boards {
                        board.finished(&game);
                    }
                    if self.choices.format != FormatChoice::Knockout {
                        self.tally.add(&game.fixture, game.outcome);
                    }
                    self.games.push(*game);
                    self.standings = standings;
                }
                News::Done(ending) => self.ending = Some(ending),
            }
        }
    }

    /// Whether the runner still plays.
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.ending.is_none()
    }

    /// Whether Cancel was pressed.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Abandons the games under way and ends the run.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The run stopped before its last game and can be finished from its PGN.
    #[must_use]
    pub fn resumable(&self) -> bool {
        match &self.ending {
            Some(Ok(Ending::Played { complete })) => !complete,
            Some(Ok(Ending::Knockout(report))) => !report.complete,
            _ => false,
        }
    }
}

/// The games of a knockout of `engines` engines at `pairs` regular pairs a duel, without
/// tiebreaks: every duel but the byes', and the match for third place.
fn knockout_games(engines: usize, pairs: usize) -> usize {
    let duels = engines.saturating_sub(1) + usize::from(engines >= 4);
    duels * 2 * pairs.max(1)
}

/// Passes the runner's news to the UI.
struct Relay<'a> {
    news: &'a Sender<News>,
    repaint: &'a Arc<dyn Fn() + Send + Sync>,
}

impl Watcher for Relay<'_> {
    fn resumed(&mut self, games: &[FinishedGame], standings: &Standings) {
        let _ = self.news.send(News::Resumed(games.to_vec(), standings.clone()));
        (self.repaint)();
    }

    fn finished(&mut self, game: &FinishedGame, standings: &Standings) -> Flow {
        let _ = self.news.send(News::Finished(Box::new(game.clone()), standings.clone()));
        (self.repaint)();
        Flow::Continue
    }
}

/// Reads the openings and the tablebases, and plays the tournament (on the runner's thread).
fn play(
    choices: &TournamentChoices,
    (mut setup, tablebases): (MatchSetup, Option<&Path>),
    news: &Sender<News>,
    repaint: &Arc<dyn Fn() + Send + Sync>,
    cancel: &AtomicBool,
) -> Result<Ending, String> {
    if let Some(folder) = setup.pgn_out.as_deref().and_then(std::path::Path::parent) {
        std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    if let Some(path) = &choices.openings {
        let suite = read_suite(path, None).map_err(|e| format!("The openings {}: {e}", path.display()))?;
        let order = if choices.random_order { Order::Random } else { Order::Sequential };
        setup.openings = OpeningSource::suite(suite, order, 1);
    }
    let rules = choices.rules.rules();
    let tables = match tablebases.filter(|_| choices.rules != RulesChoice::None) {
        Some(folder) => Some(Arc::new(SyzygyTables::open(folder).map_err(|e| e.to_string())?)),
        None => None,
    };
    setup.adjudication = Arc::new(move || Box::new(rules.arbiter(tables.clone())) as Box<dyn Adjudicator>);
    let mut relay = Relay { news, repaint };
    let plan = KnockoutPlan { pairs: choices.pairs, books: Vec::new() };
    match choices.format {
        FormatChoice::Knockout => {
            run_knockout(&setup, &plan, &mut relay, cancel).map(Ending::Knockout).map_err(|e| e.to_string())
        }
        _ => run(&setup, &mut relay, cancel)
            .map(|report| Ending::Played { complete: report.complete })
            .map_err(|e| e.to_string()),
    }
}
