//! The UCI front end: reads commands on stdin, drives an [`EngineHandle`], prints events.
//!
//! The main thread reads stdin and answers `isready` at once, even mid-search; a second
//! thread prints the engine's events as they arrive.

mod manners;
mod parse;

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Move, Position};

pub use parse::{UciCommand, UciOption, parse_line};

use crate::file_options::{
    load_policy, load_positions, load_postbook, open_book, set_network_file, set_tablebases,
};
use crate::policy::PolicySettings;
use crate::search::params::{DEFAULT_HASH_MB, MAX_HASH_MB, MOVE_OVERHEAD};
use crate::{
    Command, EngineHandle, EngineOption, Event, NetworkChoice, OptionKind, Purpose, SearchInfo,
    evaluation_options, strength_options,
};
use crate::{LearnedData, NotUtf8, stdin_lines};
use manners::Manners;
use parse::{MAX_MOVE_OVERHEAD_MS, MAX_MULTIPV};

/// The engine's name as `uci` reports it.
pub const ENGINE_NAME: &str = "Kibitz 0.1";
/// The engine's authors as `uci` reports them.
pub const ENGINE_AUTHOR: &str = "The Kibitz developers";

/// A move in UCI notation.
fn uci_move(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// An `info` line for one completed iteration.
#[must_use]
pub fn format_info(info: &SearchInfo) -> String {
    let bound = info.bound.map(|b| format!(" {}", b.to_uci())).unwrap_or_default();
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {} hashfull {} tbhits {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score.to_uci(),
        info.nodes,
        info.nps,
        info.hashfull,
        info.tbhits,
        info.time.as_millis()
    );
    if !info.pv.is_empty() {
        line.push_str(" pv");
        for &m in &info.pv {
            line.push(' ');
            line.push_str(&uci_move(m));
        }
    }
    line
}

/// A `bestmove` line; `bestmove 0000` when there is no legal move.
#[must_use]
pub fn format_bestmove(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (Some(best), Some(ponder)) => {
            format!("bestmove {} ponder {}", uci_move(best), uci_move(ponder))
        }
        (Some(best), None) => format!("bestmove {}", uci_move(best)),
        (None, _) => "bestmove 0000".to_owned(),
    }
}

/// Prints one line to stdout and flushes it; a closed stdout is not an error worth dying for.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// The `option` line declaring `option`: `option name NAME type spin default D min A max B`,
/// `type check default true`, `type combo default Terra var Terra var DeadBand`...
fn option_line(option: &EngineOption) -> String {
    let or_empty = |text: &str| if text.is_empty() { "<empty>".to_owned() } else { text.to_owned() };
    let kind = match &option.kind {
        OptionKind::Check { default } => format!("check default {default}"),
        OptionKind::Spin { default, min, max } => format!("spin default {default} min {min} max {max}"),
        OptionKind::Combo { default, choices } => {
            let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
            format!("combo default {default} {}", vars.join(" "))
        }
        OptionKind::Button => "button".to_owned(),
        OptionKind::Text { default } | OptionKind::Path { default } => {
            format!("string default {}", or_empty(default))
        }
    };
    format!("option name {} type {kind}", option.name)
}

/// The `option` lines of the `uci` answer: the engine's, then the draw and resign settings
/// from [`PolicySettings::options`].
fn option_lines() -> Vec<String> {
    let mut lines = vec![
        format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
        "option name Clear Hash type button".to_owned(),
        format!("option name Threads type spin default 1 min 1 max {}", crate::search::max_threads()),
        format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
        "option name Ponder type check default false".to_owned(),
        format!(
            "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
            MOVE_OVERHEAD.as_millis()
        ),
    ];
    lines.extend(strength_options().iter().map(option_line));
    lines.push("option name SyzygyPath type string default <empty>".to_owned());
    lines.extend(evaluation_options().iter().map(option_line));
    lines.extend([
        "option name OwnBook type check default false".to_owned(),
        "option name BookFile type string default <empty>".to_owned(),
        "option name PositionFile type string default <empty>".to_owned(),
        "option name PositionLearning type check default true".to_owned(),
        "option name PostBookFile type string default <empty>".to_owned(),
        "option name UsePostBook type check default true".to_owned(),
        "option name PolicyFile type string default <empty>".to_owned(),
    ]);
    lines.extend(PolicySettings::options().iter().map(option_line));
    lines
}

/// The session's state besides the engine: the position and the options that go into
/// every search.
struct Session {
    start: Chess,
    moves: Vec<Move>,
    multipv: u32,
    move_overhead: std::time::Duration,
    own_book: bool,
    book: Option<std::sync::Arc<crate::Book>>,
    /// The learned positions and the PostBook, from files the app wrote.
    learned: LearnedData,
    /// The draw and resign settings.
    policy: PolicySettings,
    /// What Kibitz would do with its moves in this game, shared with the printing thread.
    manners: Arc<Mutex<Manners>>,
    /// The evaluation the options chose, as the engine thread has it, for `eval`.
    evaluation: NetworkChoice,
}

impl Session {
    /// Applies an option; returns a line for the GUI when there is something to say.
    fn set(&mut self, handle: &EngineHandle, option: UciOption) -> Option<String> {
        match option {
            UciOption::Hash(megabytes) => handle.set_hash_size(megabytes),
            UciOption::ClearHash => handle.send(Command::ClearHash),
            UciOption::Threads(threads) => handle.set_threads(threads),
            UciOption::MultiPv(lines) => self.multipv = lines,
            // Pondering needs nothing from the engine beyond `go ponder`.
            UciOption::Ponder(_) => {}
            UciOption::MoveOverhead(time) => self.move_overhead = time,
            UciOption::LimitStrength(on) => handle.limit_strength(on),
            UciOption::Elo(elo) => handle.set_elo(elo),
            UciOption::SyzygyPath(path) => {
                return match set_tablebases(&path, |cmd| handle.send(cmd)) {
                    Ok(found) => found.map(|found| format!("info string {found}")),
                    Err(e) => Some(format!("info string error: {e}")),
                };
            }
            UciOption::UseNnue(on) => {
                self.evaluation.on = on;
                handle.send(Command::UseNetwork(on));
            }
            UciOption::EvalFile(path) => {
                let sent = |cmd: Command| {
                    if let Command::SetNetworkFile(file) = &cmd {
                        self.evaluation.file = file.clone();
                    }
                    handle.send(cmd);
                };
                return match set_network_file(&path, sent) {
                    Ok(loaded) => loaded.map(|loaded| format!("info string {loaded}")),
                    Err(e) => Some(format!("info string error: {e}")),
                };
            }
            UciOption::OwnBook(on) => {
                self.own_book = on;
                self.send_book(handle);
            }
            UciOption::BookFile(path) => {
                let opened = open_book(&path);
                if let Ok(book) = &opened {
                    self.book = book.as_ref().map(|(book, _)| Arc::clone(book));
                    self.send_book(handle);
                }
                match opened {
                    Ok(Some((_, loaded))) => return Some(format!("info string {loaded}")),
                    Ok(None) => {}
                    Err(e) => return Some(format!("info string error: {e}")),
                }
            }
            UciOption::PositionFile(path) => return Some(self.load(handle, |l| load_positions(l, &path))),
            UciOption::PostBookFile(path) => return Some(self.load(handle, |l| load_postbook(l, &path))),
            UciOption::PositionLearning(on) => {
                self.learned.use_positions = on;
                handle.send(self.learned.command());
            }
            UciOption::UsePostBook(on) => {
                self.learned.use_postbook = on;
                handle.send(self.learned.command());
            }
            UciOption::PolicyFile(path) => {
                return Some(match load_policy(&path) {
                    Ok((settings, loaded)) => {
                        self.policy = settings;
                        handle.send(Command::SetDrawScore(self.policy.contempt));
                        self.new_game();
                        format!("info string {loaded}")
                    }
                    Err(e) => format!("info string error: {e}"),
                });
            }
            UciOption::Policy(change) => {
                let clamped = change.apply(&mut self.policy);
                handle.send(Command::SetDrawScore(self.policy.contempt));
                // The policy starts again with the new settings.
                self.new_game();
                return clamped.map(|c| format!("info string {c}"));
            }
        }
        None
    }

    /// Kibitz's manners start a new game: they forget their scores and offers.
    fn new_game(&self) {
        *self.manners.lock().unwrap_or_else(PoisonError::into_inner) = Manners::new(self.policy.clone());
    }

    /// Loads a learning file, tells the engine, and words the outcome for the GUI.
    fn load(
        &mut self,
        handle: &EngineHandle,
        load: impl FnOnce(&mut LearnedData) -> Result<String, String>,
    ) -> String {
        match load(&mut self.learned) {
            Ok(loaded) => {
                handle.send(self.learned.command());
                format!("info string {loaded}")
            }
            Err(why) => format!("info string error: {why}"),
        }
    }

    /// Tells the engine thread which book to play from.
    fn send_book(&self, handle: &EngineHandle) {
        let book = if self.own_book { self.book.clone() } else { None };
        handle.send(Command::SetBook { book, settings: crate::BookSettings::default(), seed: None });
    }

    /// The position searched by `go`.
    fn position(&self) -> Chess {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }
}

/// Runs a UCI session on stdin and stdout until `quit` or the end of input. A line that is
/// not UTF-8 is answered `info string error: ...` and skipped (see [`crate::InputLines`]).
/// The end of input is `stop` then `quit`: a running search is stopped and its `bestmove`
/// printed, so that piped scripts get an answer and the program always ends.
pub fn run_uci() {
    run_uci_lines(stdin_lines());
}

/// Runs a UCI session on the given input lines (the first one included), as [`run_uci`].
pub fn run_uci_lines(input: impl Iterator<Item = Result<String, NotUtf8>>) {
    let handle = Arc::new(EngineHandle::spawn(|| {}));
    let done = Arc::new(AtomicBool::new(false));
    // The id of the latest search that printed its best move.
    let answered = Arc::new(AtomicU64::new(0));
    let manners = Arc::new(Mutex::new(Manners::new(PolicySettings::default())));
    let printer = {
        let (handle, done, answered) = (Arc::clone(&handle), Arc::clone(&done), Arc::clone(&answered));
        let manners = Arc::clone(&manners);
        std::thread::spawn(move || print_events(&handle, &done, &answered, &manners))
    };

    let mut session = Session {
        start: Chess::default(),
        moves: Vec::new(),
        multipv: 1,
        move_overhead: MOVE_OVERHEAD,
        own_book: false,
        book: None,
        learned: LearnedData::default(),
        policy: PolicySettings::default(),
        manners,
        evaluation: NetworkChoice::default(),
    };
    let mut last_id = 0;
    let mut quit = false;
    for line in input {
        let line = match line {
            Ok(line) => line,
            Err(bad) => {
                say(&format!("info string error: {bad}"));
                continue;
            }
        };
        match parse_line(&line) {
            UciCommand::Uci => {
                say(&format!("id name {ENGINE_NAME}"));
                say(&format!("id author {ENGINE_AUTHOR}"));
                for option in option_lines() {
                    say(&option);
                }
                say("uciok");
            }
            UciCommand::IsReady => say("readyok"),
            UciCommand::NewGame => {
                handle.send(Command::NewGame);
                session.start = Chess::default();
                session.moves.clear();
                session.new_game();
                handle.send(Command::Position { start: Chess::default(), moves: Vec::new() });
            }
            UciCommand::Position { start, moves } => {
                session.start = start.clone();
                session.moves = moves.clone();
                handle.send(Command::Position { start, moves });
            }
            UciCommand::Go { mut limits, searchmoves } => {
                let pos = session.position();
                for uci in searchmoves {
                    match uci.to_move(&pos) {
                        Ok(m) => limits.searchmoves.push(m),
                        Err(_) => say(&format!("info string error: searchmoves: illegal move '{uci}'")),
                    }
                }
                if limits.mate == Some(0) {
                    // Only a side already mated is mated in 0; otherwise look for the nearest mate.
                    say("info string 'go mate 0' asks for no moves; searching for a mate in 1");
                    limits.mate = Some(1);
                }
                limits.multipv = Some(session.multipv);
                limits.move_overhead = Some(session.move_overhead);
                last_id += 1;
                // UCI does not say why it searches: a search with no end of its own, or
                // restricted to some moves or to a mate, is analysis; anything else is play.
                let analysis = limits.infinite || !limits.searchmoves.is_empty() || limits.mate.is_some();
                let purpose = if analysis { Purpose::Analyse } else { Purpose::Play };
                if !analysis && !limits.ponder {
                    session
                        .manners
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .start(last_id, pos, &limits);
                }
                handle.send(Command::Go { id: last_id, purpose, limits });
            }
            UciCommand::Stop => handle.send(Command::Stop),
            // Answered here, before any later `readyok`: a GUI reads up to it.
            UciCommand::Eval => {
                let pos = session.position();
                let network = session.evaluation.network().map(|n| n.evaluate_white(&pos));
                say(&crate::Breakdown { network, ..crate::breakdown(&pos) }.to_string());
            }
            UciCommand::PonderHit => handle.send(Command::PonderHit),
            UciCommand::Quit => {
                quit = true;
                break;
            }
            UciCommand::SetOption(option) => {
                if let Some(line) = session.set(&handle, option) {
                    say(&line);
                }
            }
            UciCommand::Ignore => {}
            UciCommand::Error(why) => say(&format!("info string error: {why}")),
            UciCommand::Unknown(text) => say(&format!("info string unknown command: {text}")),
        }
    }

    if !quit {
        handle.send(Command::Stop);
        while answered.load(Ordering::Acquire) < last_id {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    done.store(true, Ordering::Release);
    let _ = printer.join();
    // Dropping the last handle stops any search and joins the engine thread.
}

/// Prints the engine's events until `done` is set, recording answered searches; before the
/// best move of a play search, what Kibitz's `manners` would do with it.
fn print_events(handle: &EngineHandle, done: &AtomicBool, answered: &AtomicU64, manners: &Mutex<Manners>) {
    let manners = || manners.lock().unwrap_or_else(PoisonError::into_inner);
    while !done.load(Ordering::Acquire) {
        match handle.recv_timeout(Duration::from_millis(10)) {
            Some(Event::Info { id, info }) => {
                manners().record(id, &info);
                say(&format_info(&info));
            }
            Some(Event::BookMove { choice, .. }) => {
                let candidates: Vec<String> = choice
                    .playable()
                    .map(|c| format!("{} {:.0}%", uci_move(c.mv), c.probability * 100.0))
                    .collect();
                say(&format!("info string book move {} from {}", uci_move(choice.mv), candidates.join(", ")));
            }
            Some(Event::PostBook { check, .. }) => say(&format!("info string {}", check.describe(uci_move))),
            Some(Event::CurrMove { depth, currmove, number, .. }) => {
                say(&format!("info depth {depth} currmove {} currmovenumber {number}", uci_move(currmove)));
            }
            Some(Event::Message(text)) => say(&format!("info string {text}")),
            Some(Event::Evaluation { .. }) => {}
            Some(Event::Failed(failure)) => say(&format!("info string error: {failure}")),
            Some(Event::Ready { .. } | Event::Pong { .. } | Event::OfferDraw | Event::Resign) => {}
            Some(Event::BestMove { id, best, ponder, nodes, time }) => {
                say(&format!("info nodes {nodes} time {}", time.as_millis()));
                if let Some(line) = manners().judge(id, best) {
                    say(&line);
                }
                say(&format_bestmove(best, ponder));
                answered.fetch_max(id, Ordering::AcqRel);
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    #[test]
    fn formats_info_and_bestmove() {
        let pos = Chess::default();
        let moves = pos.legal_moves();
        let e4 = moves.iter().copied().find(|m| uci_move(*m) == "e2e4").expect("e2e4");
        let info = SearchInfo {
            depth: 3,
            seldepth: 5,
            multipv: 1,
            score: Score::Mate(-2),
            bound: None,
            hashfull: 12,
            tbhits: 7,
            nodes: 100,
            nps: 2000,
            time: Duration::from_millis(50),
            pv: vec![e4],
        };
        assert_eq!(
            format_info(&info),
            "info depth 3 seldepth 5 multipv 1 score mate -2 nodes 100 nps 2000 hashfull 12 tbhits 7 time 50 pv e2e4"
        );
        let bounded = SearchInfo { score: Score::Cp(30), bound: Some(crate::ScoreBound::Lower), ..info };
        assert!(format_info(&bounded).contains("score cp 30 lowerbound nodes"));
        assert_eq!(format_bestmove(Some(e4), None), "bestmove e2e4");
        assert_eq!(format_bestmove(Some(e4), Some(e4)), "bestmove e2e4 ponder e2e4");
        assert_eq!(format_bestmove(None, None), "bestmove 0000");
    }
}
