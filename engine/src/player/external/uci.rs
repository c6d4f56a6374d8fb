//! The UCI steps of an external engine's session: the handshake, `isready`, new games,
//! searches and the engine's `info` and `bestmove` lines.

use std::time::{Duration, Instant};

use super::{Driver, End, READY_TIMEOUT, Search};
use crate::player::uci_wire::{
    UciInfo, UciLine, go_line, legal_prefix, parse_uci_line, position_line, read_move, setoption_line,
};
use crate::{EngineOption, Event, FailureKind, Protocol, SearchInfo, SearchLimits};

/// How long the engine may take to answer `uci` when UCI was configured.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long it may take when the protocol is being detected (xboard is tried next).
const DETECT_TIMEOUT: Duration = Duration::from_secs(3);

/// What the UCI session remembers.
#[derive(Default)]
pub(super) struct UciSession {
    /// The `MultiPV` value last set (1 until then).
    multipv: Option<u32>,
}

/// `uci` ... `uciok`: the engine's name (`Some`) once it answered, `None` if it did not in
/// time. While detecting, an answer that looks like xboard ends the wait early.
pub(super) fn handshake(d: &mut Driver, detect: bool) -> Result<Option<String>, End> {
    d.write("uci")?;
    let deadline = Instant::now() + if detect { DETECT_TIMEOUT } else { HANDSHAKE_TIMEOUT };
    let mut name = String::new();
    let mut options: Vec<EngineOption> = Vec::new();
    while let Some(line) = d.next_line(deadline)? {
        match parse_uci_line(&line) {
            UciLine::Name(n) => name = n,
            UciLine::Option(option) if !options.iter().any(|o| o.name.eq_ignore_ascii_case(&option.name)) => {
                options.push(option);
            }
            UciLine::UciOk => {
                d.options = options;
                d.protocol = Some(Protocol::Uci);
                return Ok(Some(name));
            }
            _ if detect
                && ["Error", "Illegal move", "feature", "tellusererror"]
                    .iter()
                    .any(|w| line.starts_with(w)) =>
            {
                return Ok(None);
            }
            _ => {}
        }
    }
    Ok(None)
}

/// `isready`, and waits for `readyok`.
pub(super) fn sync(d: &mut Driver, after: &str) -> Result<(), End> {
    d.write("isready")?;
    let deadline = Instant::now() + READY_TIMEOUT;
    while let Some(line) = d.next_line(deadline)? {
        if parse_uci_line(&line) == UciLine::ReadyOk {
            return Ok(());
        }
        on_line(d, &line)?;
    }
    let what = format!("no readyok within {} s of isready after {after}", READY_TIMEOUT.as_secs());
    Err(FailureKind::Hung(what).into())
}

/// `position`, `eval`, `isready`: everything the engine prints before `readyok` is its
/// evaluation (Stockfish's table); an engine that does not know `eval` says so, and that is
/// answered as no evaluation.
pub(super) fn evaluate(d: &mut Driver, id: u64) -> Result<(), End> {
    d.write(&position_line(&d.start, &d.moves))?;
    d.write("eval")?;
    d.write("isready")?;
    let deadline = Instant::now() + READY_TIMEOUT;
    let mut text = Vec::new();
    while let Some(line) = d.next_line(deadline)? {
        if parse_uci_line(&line) == UciLine::ReadyOk {
            let unknown = text.is_empty()
                || text.iter().any(|l: &String| l.to_ascii_lowercase().contains("unknown command"));
            let text = (!unknown).then(|| text.join("\n"));
            d.emit(Event::Evaluation { id, text });
            return Ok(());
        }
        match parse_uci_line(&line) {
            UciLine::Info(_) | UciLine::BestMove { .. } => on_line(d, &line)?,
            _ => text.push(line),
        }
    }
    let what = format!("no readyok within {} s of isready after eval", READY_TIMEOUT.as_secs());
    Err(FailureKind::Hung(what).into())
}

pub(super) fn new_game(d: &mut Driver) -> Result<(), End> {
    d.write("ucinewgame")?;
    sync(d, "ucinewgame")
}

/// `setoption`, with the option's name as the engine spells it.
pub(super) fn set_option(d: &mut Driver, option: &EngineOption, value: &str) -> Result<(), End> {
    d.write(&setoption_line(&option.name, value))?;
    if option.name.eq_ignore_ascii_case("MultiPV") {
        d.uci.multipv = value.parse().ok();
    }
    Ok(())
}

/// `setoption name MultiPV` when the wanted number of lines changed, `position`, `go`.
pub(super) fn go(d: &mut Driver, id: u64, limits: SearchLimits) -> Result<(), End> {
    let lines = limits.multipv.unwrap_or(1).max(1);
    let multipv = d.options.iter().find(|o| o.name.eq_ignore_ascii_case("MultiPV")).cloned();
    if let Some(option) = multipv.filter(|_| d.uci.multipv.unwrap_or(1) != lines) {
        set_option(d, &option, &lines.to_string())?;
    }
    d.write(&position_line(&d.start, &d.moves))?;
    d.write(&go_line(&limits))?;
    d.search = Some(Search::new(id, d.position(), limits, false));
    Ok(())
}

pub(super) fn on_line(d: &mut Driver, line: &str) -> Result<(), End> {
    match parse_uci_line(line) {
        UciLine::Info(info) => on_info(d, info),
        UciLine::BestMove { best, ponder } => d.finish(Some(&best), ponder.as_deref()),
        _ => {}
    }
    Ok(())
}

/// Passes on `info string`, the root move being searched and every scored line, its moves
/// checked (a line is cut at its first illegal move).
fn on_info(d: &mut Driver, info: UciInfo) {
    if let Some(text) = info.string {
        d.message(text);
    }
    let Some(search) = &mut d.search else { return };
    search.nodes = search.nodes.max(info.nodes.unwrap_or(0));
    search.time = search.time.max(info.time.unwrap_or_default());
    let id = search.id;
    if let Some(currmove) = info.currmove.as_deref().and_then(|m| read_move(&search.pos, m)) {
        let (depth, number) = (info.depth.unwrap_or(0), info.currmovenumber.unwrap_or(0));
        d.emit(Event::CurrMove { id, depth, currmove, number });
    }
    let Some((score, bound)) = info.score else { return };
    let Some(search) = &d.search else { return };
    let depth = info.depth.unwrap_or(0);
    let info = SearchInfo {
        depth,
        seldepth: info.seldepth.unwrap_or(depth),
        multipv: info.multipv.unwrap_or(1),
        score,
        bound,
        nodes: info.nodes.unwrap_or(0),
        nps: info.nps.unwrap_or(0),
        time: info.time.unwrap_or_default(),
        hashfull: info.hashfull.unwrap_or(0),
        tbhits: info.tbhits.unwrap_or(0),
        pv: legal_prefix(&search.pos, info.pv.iter().map(String::as_str)),
    };
    d.report(info);
}
