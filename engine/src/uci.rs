//! The UCI front end: reads commands on stdin, drives an [`EngineHandle`], prints events.
//!
//! The main thread reads stdin and answers `isready` at once, even mid-search; a second
//! thread prints the engine's events as they arrive.

mod parse;

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use shakmaty::{CastlingMode, Move};

pub use parse::{UciCommand, parse_line};

use crate::search::params::{DEFAULT_HASH_MB, MAX_HASH_MB};
use crate::{Command, EngineHandle, Event, SearchInfo};

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
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        info.score.to_uci(),
        info.nodes,
        info.nps,
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

/// Runs a UCI session on stdin and stdout until `quit` or the end of input. At the end of
/// input a running search is allowed to finish (an infinite one is stopped) so that piped
/// scripts get their `bestmove`.
pub fn run_uci() {
    let handle = Arc::new(EngineHandle::spawn(|| {}));
    let done = Arc::new(AtomicBool::new(false));
    // The id of the latest search that printed its best move.
    let answered = Arc::new(AtomicU64::new(0));
    let printer = {
        let (handle, done, answered) = (Arc::clone(&handle), Arc::clone(&done), Arc::clone(&answered));
        std::thread::spawn(move || print_events(&handle, &done, &answered))
    };

    let mut last_id = 0;
    let mut infinite = false;
    let mut quit = false;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        match parse_line(&line) {
            UciCommand::Uci => {
                say(&format!("id name {ENGINE_NAME}"));
                say(&format!("id author {ENGINE_AUTHOR}"));
                say(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"));
                say("uciok");
            }
            UciCommand::IsReady => say("readyok"),
            UciCommand::NewGame => {
                handle.send(Command::NewGame);
                handle.send(Command::Position { start: shakmaty::Chess::default(), moves: Vec::new() });
            }
            UciCommand::Position { start, moves } => handle.send(Command::Position { start, moves }),
            UciCommand::Go(limits) => {
                last_id += 1;
                infinite = limits.infinite;
                handle.send(Command::Go { id: last_id, limits });
            }
            UciCommand::Stop => handle.send(Command::Stop),
            UciCommand::Quit => {
                quit = true;
                break;
            }
            UciCommand::SetHash(megabytes) => handle.set_hash_size(megabytes),
            UciCommand::Ignore => {}
            UciCommand::Error(why) => say(&format!("info string error: {why}")),
            UciCommand::Unknown(text) => say(&format!("info string unknown command: {text}")),
        }
    }

    if !quit {
        if infinite {
            handle.send(Command::Stop);
        }
        while answered.load(Ordering::Acquire) < last_id {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    done.store(true, Ordering::Release);
    let _ = printer.join();
    // Dropping the last handle stops any search and joins the engine thread.
}

/// Prints the engine's events until `done` is set, recording answered searches.
fn print_events(handle: &EngineHandle, done: &AtomicBool, answered: &AtomicU64) {
    while !done.load(Ordering::Acquire) {
        match handle.recv_timeout(Duration::from_millis(10)) {
            Some(Event::Info { info, .. }) => say(&format_info(&info)),
            Some(Event::BestMove { id, best, ponder }) => {
                say(&format_bestmove(best, ponder));
                answered.fetch_max(id, Ordering::AcqRel);
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position};

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
            nodes: 100,
            nps: 2000,
            time: Duration::from_millis(50),
            pv: vec![e4],
        };
        assert_eq!(
            format_info(&info),
            "info depth 3 seldepth 5 multipv 1 score mate -2 nodes 100 nps 2000 time 50 pv e2e4"
        );
        assert_eq!(format_bestmove(Some(e4), None), "bestmove e2e4");
        assert_eq!(format_bestmove(Some(e4), Some(e4)), "bestmove e2e4 ponder e2e4");
        assert_eq!(format_bestmove(None, None), "bestmove 0000");
    }
}
