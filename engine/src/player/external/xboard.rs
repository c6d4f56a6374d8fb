//! The xboard (CECP v2) steps of an external engine's session. The engine is kept in
//! `force` mode except while it thinks; the driver remembers the position the engine holds
//! and sends it only the moves it lacks (or sets it up again with `setboard`).

use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Move, Position, san::SanPlus};

use super::{Driver, End, READY_TIMEOUT, Search};
use crate::player::uci_wire::{fen, legal_prefix, move_text, read_move};
use crate::player::xboard_wire::{
    XboardLine, centis, parse_feature_option, parse_xboard_line, time_control_line,
};
use crate::{EngineOption, Event, FailureKind, OptionKind, Protocol, SearchInfo, SearchLimits};

/// How long to wait for features when the engine did not send `done=0` (as xboard does).
const FEATURE_WAIT: Duration = Duration::from_secs(2);
/// How long to wait for `done=1` after `done=0`.
const FEATURE_TIMEOUT: Duration = Duration::from_secs(10);

/// What the xboard session remembers.
#[derive(Default)]
pub(super) struct XboardSession {
    /// `feature ping=1`.
    ping: bool,
    /// `feature setboard=1`.
    setboard: bool,
    /// `feature usermove=1`.
    usermove: bool,
    /// `feature san=1`: moves are written in SAN.
    san: bool,
    /// The position the engine holds (start and moves), `None` when unknown.
    holds: Option<(Chess, Vec<Move>)>,
    /// The time control, depth and node limits last sent (they persist until `new`).
    time_control: Option<String>,
    depth: Option<u32>,
    nodes: Option<u64>,
    last_ping: u32,
    /// Thinking output is ignored until this `pong`: it belongs to an analysis already ended.
    barrier: Option<String>,
    /// The side the engine last played.
    side: Option<Color>,
}

/// `xboard`, `protover 2`, features until `done=1`: the engine's name (`Some`) once it
/// answered, `None` if it did not (while detecting: no feature at all).
pub(super) fn handshake(d: &mut Driver, detect: bool) -> Result<Option<String>, End> {
    d.write("xboard")?;
    d.write("protover 2")?;
    let mut deadline = Instant::now() + FEATURE_WAIT;
    let mut name = String::new();
    let mut any = false;
    'lines: while let Some(line) = d.next_line(deadline)? {
        let XboardLine::Feature(features) = parse_xboard_line(&line) else { continue };
        for (key, value) in features {
            any = true;
            if key == "done" && value == "0" {
                deadline = Instant::now() + FEATURE_TIMEOUT;
            }
            if key == "myname" {
                name.clone_from(&value);
            }
            feature(d, &key, &value)?;
            if key == "done" && value == "1" {
                break 'lines;
            }
        }
    }
    if detect && !any {
        return Ok(None);
    }
    d.protocol = Some(Protocol::Xboard);
    reset(d)?;
    Ok(Some(name))
}

/// Takes note of one feature and accepts it, or rejects one Kibitz does not use.
fn feature(d: &mut Driver, key: &str, value: &str) -> Result<(), End> {
    let on = value == "1";
    let session = &mut d.xboard;
    let used = match key {
        "ping" => set(&mut session.ping, on),
        "setboard" => set(&mut session.setboard, on),
        "usermove" => set(&mut session.usermove, on),
        "san" => set(&mut session.san, on),
        "option" => match parse_feature_option(value) {
            Some(option) if !d.options.iter().any(|o| o.name == option.name) => {
                d.options.push(option);
                true
            }
            _ => false,
        },
        "done" | "myname" | "analyze" | "sigint" | "sigterm" | "reuse" | "colors" | "draw" | "time"
        | "playother" | "debug" | "variants" | "name" => true,
        _ => false,
    };
    d.write(&format!("{} {key}", if used { "accepted" } else { "rejected" }))
}

/// Sets a feature's flag; the feature is used.
fn set(flag: &mut bool, on: bool) -> bool {
    *flag = on;
    true
}

/// `new`, `force`, `post`, `easy`: the start position, in force mode, showing its thinking,
/// not pondering.
fn reset(d: &mut Driver) -> Result<(), End> {
    for line in ["new", "force", "post", "easy"] {
        d.write(line)?;
    }
    let session = &mut d.xboard;
    session.holds = Some((Chess::default(), vec![]));
    (session.time_control, session.depth, session.nodes) = (None, None, None);
    Ok(())
}

/// `ping N`, and waits for `pong N` (engines without `ping=1` are not waited for).
pub(super) fn sync(d: &mut Driver, after: &str) -> Result<(), End> {
    if !d.xboard.ping {
        return Ok(());
    }
    let n = ping(d)?;
    let deadline = Instant::now() + READY_TIMEOUT;
    while let Some(line) = d.next_line(deadline)? {
        if parse_xboard_line(&line) == XboardLine::Pong(n.clone()) {
            d.xboard.barrier = None;
            return Ok(());
        }
        on_line(d, &line)?;
    }
    let what = format!("no pong within {} s of ping after {after}", READY_TIMEOUT.as_secs());
    Err(FailureKind::Hung(what).into())
}

fn ping(d: &mut Driver) -> Result<String, End> {
    d.xboard.last_ping += 1;
    let n = d.xboard.last_ping.to_string();
    d.write(&format!("ping {n}"))?;
    Ok(n)
}

pub(super) fn new_game(d: &mut Driver) -> Result<(), End> {
    reset(d)?;
    sync(d, "new")
}

/// `option NAME=VALUE` (checks as 1 or 0), or `option NAME` for a button.
pub(super) fn set_option(d: &mut Driver, option: &EngineOption, value: &str) -> Result<(), End> {
    match option.kind {
        OptionKind::Button => d.write(&format!("option {}", option.name)),
        OptionKind::Check { .. } => d.write(&format!("option {}={}", option.name, u8::from(value == "true"))),
        _ => d.write(&format!("option {}={value}", option.name)),
    }
}

/// Gives the engine the owner's position: only the moves it lacks, or all of them after
/// `setboard` (or `new`, from the standard start). `false` if it cannot be set up.
fn set_up(d: &mut Driver) -> Result<bool, End> {
    let (start, moves) = (d.start.clone(), d.moves.clone());
    let known = match &d.xboard.holds {
        Some((held, played)) if *held == start && moves.starts_with(played) => played.len(),
        _ if d.xboard.setboard => {
            d.write(&format!("setboard {}", fen(&start)))?;
            0
        }
        _ if start == Chess::default() => {
            reset(d)?;
            0
        }
        _ => return Ok(false),
    };
    let mut pos = start.clone();
    for &m in &moves[..known] {
        pos.play_unchecked(m);
    }
    for &m in &moves[known..] {
        let text = if d.xboard.san { SanPlus::from_move(pos.clone(), m).to_string() } else { move_text(m) };
        d.write(&if d.xboard.usermove { format!("usermove {text}") } else { text })?;
        pos.play_unchecked(m);
    }
    d.xboard.holds = Some((start, moves));
    Ok(true)
}

/// `analyze`, or the limits (`st`, `level`, `sd`, `sn`, `time`, `otim`) and `go`.
pub(super) fn go(d: &mut Driver, id: u64, limits: SearchLimits, analyse: bool) -> Result<(), End> {
    let pos = d.position();
    if !analyse && pos.legal_moves().is_empty() {
        // The game is over: xboard engines do not answer `go` there.
        d.emit(Event::BestMove { id, best: None, ponder: None, nodes: 0, time: Duration::ZERO });
        return Ok(());
    }
    let session = &d.xboard;
    if (session.depth.is_some() && limits.depth.is_none())
        || (session.nodes.is_some() && limits.nodes.is_none())
    {
        // Only `new` removes a depth or node limit.
        reset(d)?;
    }
    if !set_up(d)? {
        d.message("cannot be given this position: it lacks setboard and the game does not start from the standard position".into());
        d.emit(Event::BestMove { id, best: None, ponder: None, nodes: 0, time: Duration::ZERO });
        return Ok(());
    }
    if analyse {
        d.write("analyze")?;
        d.search = Some(Search::new(id, pos, limits, true));
        return Ok(());
    }
    let side = pos.turn();
    let (own, other, inc) = match side {
        Color::White => (limits.wtime, limits.btime, limits.winc),
        Color::Black => (limits.btime, limits.wtime, limits.binc),
    };
    if let Some(line) = time_control_line(&limits, own, inc) {
        let key = line.split_whitespace().take(2).collect::<Vec<_>>().join(" ") + &format!(" {inc:?}");
        if d.xboard.time_control.as_ref() != Some(&key) {
            d.write(&line)?;
            d.xboard.time_control = Some(key);
        }
    }
    if let Some(depth) = limits.depth.filter(|&n| d.xboard.depth != Some(n)) {
        d.write(&format!("sd {depth}"))?;
        d.xboard.depth = Some(depth);
    }
    if let Some(nodes) = limits.nodes.filter(|&n| d.xboard.nodes != Some(n)) {
        d.write(&format!("sn {nodes}"))?;
        d.xboard.nodes = Some(nodes);
    }
    if let Some(own) = own.filter(|_| limits.movetime.is_none()) {
        d.write(&format!("time {}", centis(own)))?;
        if let Some(other) = other {
            d.write(&format!("otim {}", centis(other)))?;
        }
    }
    d.write("go")?;
    d.xboard.side = Some(side);
    d.search = Some(Search::new(id, pos, limits, false));
    Ok(())
}

/// `?` (move now) while thinking; `exit` while analysing, answered at once with the first
/// move of the last line reported.
pub(super) fn stop(d: &mut Driver) -> Result<(), End> {
    let Some(search) = &d.search else { return Ok(()) };
    if !search.analyze {
        d.write("?")?;
        d.mark_stopping();
        return Ok(());
    }
    end_analysis(d)?;
    match d.search.as_ref().and_then(|s| s.best_line.first().copied()) {
        Some(best) => d.finish(Some(&move_text(best)), None),
        None => {
            if let Some(search) = d.search.take() {
                let (id, nodes, time) = (search.id, search.nodes, search.time);
                d.emit(Event::BestMove { id, best: None, ponder: None, nodes, time });
            }
        }
    }
    Ok(())
}

/// `exit`, `force`, and a `ping` whose `pong` marks the end of the analysis's output.
fn end_analysis(d: &mut Driver) -> Result<(), End> {
    d.write("exit")?;
    d.write("force")?;
    if d.xboard.ping {
        d.xboard.barrier = Some(ping(d)?);
    }
    Ok(())
}

/// A pondering search (run as an analysis) becomes the real one, with the same limits.
pub(super) fn ponder_hit(d: &mut Driver) -> Result<(), End> {
    match d.search.take() {
        Some(search) if search.limits.ponder && search.stopping.is_none() => {
            end_analysis(d)?;
            go(d, search.id, SearchLimits { ponder: false, ..search.limits }, false)
        }
        other => {
            d.search = other;
            Ok(())
        }
    }
}

pub(super) fn on_line(d: &mut Driver, line: &str) -> Result<(), End> {
    match parse_xboard_line(line) {
        XboardLine::Feature(features) => {
            for (key, value) in features {
                feature(d, &key, &value)?;
            }
        }
        XboardLine::Thinking(thinking) if d.xboard.barrier.is_none() => {
            let Some(search) = &d.search else { return Ok(()) };
            let millis = u64::try_from(thinking.time.as_millis()).unwrap_or(u64::MAX);
            let info = SearchInfo {
                depth: thinking.depth,
                seldepth: thinking.depth,
                multipv: 1,
                score: thinking.score,
                bound: None,
                nodes: thinking.nodes,
                nps: thinking.nodes.saturating_mul(1000) / millis.max(1),
                time: thinking.time,
                hashfull: 0,
                tbhits: 0,
                pv: legal_prefix(&search.pos, thinking.pv.iter().map(String::as_str)),
            };
            let reached = search.analyze
                && search.stopping.is_none()
                && (search.limits.depth.is_some_and(|n| thinking.depth >= n)
                    || search.limits.nodes.is_some_and(|n| thinking.nodes >= n));
            d.report(info);
            if reached {
                stop(d)?;
            }
        }
        XboardLine::Move(text) => {
            d.write("force")?;
            let played = d.search.as_ref().filter(|s| !s.analyze).map(|s| read_move(&s.pos, &text));
            match (played, &mut d.xboard.holds) {
                (Some(Some(m)), Some((_, moves))) => moves.push(m),
                // An illegal move, or one made outside a search: the engine's position is unknown.
                _ => d.xboard.holds = None,
            }
            if played.is_some() {
                d.finish(Some(&text), None);
            }
        }
        XboardLine::OfferDraw => d.emit(Event::OfferDraw),
        XboardLine::Resign => resign(d)?,
        XboardLine::Result(result, comment) => {
            let side = d.search.as_ref().filter(|s| !s.analyze).map(|s| s.pos.turn()).or(d.xboard.side);
            let lost =
                matches!((result.as_str(), side), ("1-0", Some(Color::Black)) | ("0-1", Some(Color::White)));
            if lost {
                resign(d)?;
            } else {
                d.message(format!("claims {result} {comment}"));
            }
        }
        XboardLine::TellUser(text) | XboardLine::TellUserError(text) | XboardLine::Error(text) => {
            d.message(text)
        }
        XboardLine::IllegalMove(text) => {
            d.message(format!("refused the move {text}"));
            d.xboard.holds = None;
        }
        XboardLine::Pong(n) if d.xboard.barrier.as_ref() == Some(&n) => d.xboard.barrier = None,
        _ => {}
    }
    Ok(())
}

/// The engine resigns: its search ends without a move.
fn resign(d: &mut Driver) -> Result<(), End> {
    d.emit(Event::Resign);
    if d.search.as_ref().is_some_and(|s| !s.analyze) {
        d.search = None;
        d.write("force")?;
    }
    Ok(())
}
