//! The xboard / CECP v2 front end: reads commands, drives an [`EngineHandle`], prints
//! moves, thinking lines and results.
//!
//! One loop owns the game: a reader thread forwards input lines, and engine events are
//! drained between them, so the game state has a single owner. Only xboard can carry draw
//! offers and results; the engine's own `offer draw` and `resign` come with the draw issue.

mod parse;

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::{RecvTimeoutError, unbounded};
use shakmaty::{
    CastlingMode, Chess, Color, Move, Position, PositionError, fen::Fen, san::SanPlus, uci::UciMove,
};

pub use parse::{XboardCommand, parse_line as parse_xboard_line};

use crate::learned::{Learned, open_book};
use crate::policy::{ClockView, Decision, Policy, PolicySettings, Situation};
use crate::runner::material_balance;
use crate::search::position_hash;
use crate::{
    Command, ENGINE_NAME, Engine, EngineHandle, Event, Score, SearchInfo, SearchLimits, TimeControl,
};

/// xboard's score for a mate: mate in `n` moves is this plus `n` (minus for being mated).
const XBOARD_MATE: i32 = 100_000;

/// The time control xboard uses until it sends `level` or `st`.
const DEFAULT_LEVEL: &str = "level 40 5 0";

/// The depth of the quick search that answers `hint` when no ponder move is known.
const HINT_DEPTH: u32 = 5;

/// The options offered to the GUI (`feature option=...`), set with `option NAME=VALUE`:
/// the opening book and Kibitz's learned positions and PostBook, as over UCI.
const OPTION_FEATURES: [&str; 6] = [
    "option=\"OwnBook -check 0\"",
    "option=\"BookFile -file \"",
    "option=\"PositionFile -file \"",
    "option=\"PositionLearning -check 1\"",
    "option=\"PostBookFile -file \"",
    "option=\"UsePostBook -check 1\"",
];

/// Prints one line and flushes it.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// A thinking line: `ply score time nodes pv`, score in centipawns, time in centiseconds.
#[must_use]
pub fn format_thinking(pos: &Chess, info: &SearchInfo) -> String {
    let score = match info.score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => XBOARD_MATE + n,
        Score::Mate(n) => -XBOARD_MATE + n,
    };
    format!(
        "{} {score} {} {} {}",
        info.depth,
        info.time.as_millis() / 10,
        info.nodes,
        san_line(pos, &info.pv)
    )
}

/// The moves of `line` in SAN from `pos`.
fn san_line(pos: &Chess, line: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::with_capacity(line.len());
    for &m in line {
        words.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
    }
    words.join(" ")
}

/// What the engine is doing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Activity {
    /// Waiting for input.
    Idle,
    /// Thinking about its move in search `id`.
    Thinking(u64),
    /// Analysing in search `id`.
    Analyzing(u64),
}

/// The state of an xboard session.
struct Session {
    handle: EngineHandle,
    start: Chess,
    moves: Vec<Move>,
    /// The side the engine plays; `None` in force mode.
    engine_color: Option<Color>,
    time_control: TimeControl,
    depth_limit: Option<u32>,
    node_limit: Option<u64>,
    own_clock: Option<Duration>,
    opponent_clock: Option<Duration>,
    post: bool,
    analyze: bool,
    activity: Activity,
    last_id: u64,
    /// The reply the last search expected to the engine's move.
    expected_reply: Option<Move>,
    /// The latest thinking report of the running search.
    last_info: Option<SearchInfo>,
    /// When to resign, offer and accept draws.
    policy: Policy,
    /// Play from the book (`OwnBook`).
    own_book: bool,
    /// The book (`BookFile`).
    book: Option<Arc<crate::Book>>,
    /// The learned positions and the PostBook, from files the app wrote.
    learned: Learned,
}

impl Session {
    fn new() -> Session {
        Session {
            handle: EngineHandle::spawn(|| {}),
            start: Chess::default(),
            moves: Vec::new(),
            engine_color: Some(Color::Black),
            time_control: DEFAULT_LEVEL.parse().unwrap_or(TimeControl::Infinite),
            depth_limit: None,
            node_limit: None,
            own_clock: None,
            opponent_clock: None,
            post: false,
            analyze: false,
            activity: Activity::Idle,
            last_id: 0,
            expected_reply: None,
            last_info: None,
            policy: Policy::new(PolicySettings::default()),
            own_book: false,
            book: None,
            learned: Learned::default(),
        }
    }

    /// What the draw and resign policy needs to know, from the engine's side, with its
    /// chosen move if it has one.
    fn situation(&self, pos: &Chess, chosen: Option<Move>) -> Situation {
        let side = pos.turn();
        let mut after = pos.clone();
        if let Some(m) = chosen {
            after.play_unchecked(m);
        }
        let clock = match (self.own_clock, self.opponent_clock, &self.time_control) {
            (Some(own), Some(opponent), tc @ TimeControl::Clock { .. }) => Some(ClockView {
                own,
                opponent,
                opponent_increment: tc.increment(),
                moves_to_go: tc.moves_to_go(self.moves_made()),
            }),
            _ => None,
        };
        Situation {
            move_number: pos.fullmoves().get(),
            score: self.last_info.as_ref().map_or(Score::Cp(0), |i| i.score),
            material: material_balance(&after, side),
            clock,
            opponent_in_check: chosen.is_some() && after.is_check(),
        }
    }

    fn position(&self) -> Chess {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }

    /// Stops whatever runs; its result will be ignored.
    fn halt(&mut self) {
        if self.activity != Activity::Idle {
            self.handle.send(Command::Stop);
            self.activity = Activity::Idle;
        }
    }

    /// Moves the side to move has made in this game.
    fn moves_made(&self) -> u32 {
        let first = self.start.turn();
        let turn = self.position().turn();
        let n = self.moves.len();
        let made = (0..n).filter(|i| if i % 2 == 0 { first == turn } else { first != turn }).count();
        u32::try_from(made).unwrap_or(u32::MAX)
    }

    /// The limits of the engine's next move.
    fn limits(&self, turn: Color) -> SearchLimits {
        let mut limits =
            SearchLimits { depth: self.depth_limit, nodes: self.node_limit, ..Default::default() };
        match &self.time_control {
            TimeControl::MoveTime(time) => limits.movetime = Some(*time),
            TimeControl::Depth(depth) => limits.depth = Some(limits.depth.map_or(*depth, |d| d.min(*depth))),
            TimeControl::Nodes(nodes) => limits.nodes = Some(*nodes),
            TimeControl::Infinite => limits.infinite = true,
            tc @ (TimeControl::Clock { .. } | TimeControl::Sandclock(_)) => {
                let own = self.own_clock.unwrap_or_else(|| tc.initial_time());
                let other = self.opponent_clock.unwrap_or(own);
                let inc = tc.increment();
                limits.movestogo = tc.moves_to_go(self.moves_made());
                let (mine, theirs) = match turn {
                    Color::White => (&mut limits.wtime, &mut limits.btime),
                    Color::Black => (&mut limits.btime, &mut limits.wtime),
                };
                *mine = Some(own);
                *theirs = Some(other);
                limits.winc = Some(inc);
                limits.binc = Some(inc);
            }
        }
        limits
    }

    /// Starts a search on the current position.
    fn start_search(&mut self, analyze: bool) {
        self.halt();
        let pos = self.position();
        if pos.is_game_over() && !analyze {
            return;
        }
        self.handle.send(Command::Position { start: self.start.clone(), moves: self.moves.clone() });
        self.last_id += 1;
        let limits = if analyze {
            SearchLimits { infinite: true, ..Default::default() }
        } else {
            self.limits(pos.turn())
        };
        self.last_info = None;
        let purpose = if analyze { crate::Purpose::Analyse } else { crate::Purpose::Play };
        self.handle.send(Command::Go { id: self.last_id, purpose, limits });
        self.activity =
            if analyze { Activity::Analyzing(self.last_id) } else { Activity::Thinking(self.last_id) };
    }

    /// After any change to the game: think if it is the engine's turn, or analyse.
    fn resume(&mut self) {
        if self.analyze {
            self.start_search(true);
        } else if self.engine_color == Some(self.position().turn()) {
            self.start_search(false);
        } else {
            self.halt();
        }
    }

    /// Prints the result line if the game is over by the rules.
    fn announce_result(&self) {
        let pos = self.position();
        let line = if pos.is_checkmate() {
            Some(if pos.turn() == Color::Black { "1-0 {White mates}" } else { "0-1 {Black mates}" })
        } else if pos.is_stalemate() {
            Some("1/2-1/2 {Stalemate}")
        } else if pos.is_insufficient_material() {
            Some("1/2-1/2 {Insufficient material}")
        } else if pos.halfmoves() >= 100 {
            Some("1/2-1/2 {Fifty move rule}")
        } else if self.threefold() {
            Some("1/2-1/2 {Draw by repetition}")
        } else {
            None
        };
        if let Some(line) = line {
            say(line);
        }
    }

    /// Whether the current position occurred three times.
    fn threefold(&self) -> bool {
        let mut pos = self.start.clone();
        let mut hashes = vec![position_hash(&pos)];
        for &m in &self.moves {
            pos.play_unchecked(m);
            hashes.push(position_hash(&pos));
        }
        let current = hashes[hashes.len() - 1];
        hashes.iter().filter(|&&h| h == current).count() >= 3
    }

    fn handle_event(&mut self, event: Event) {
        match event {
            Event::Info { id, info } => {
                let current =
                    matches!(self.activity, Activity::Thinking(i) | Activity::Analyzing(i) if i == id);
                if current && info.bound.is_none() && info.multipv == 1 {
                    if self.post {
                        say(&format_thinking(&self.position(), &info));
                    }
                    self.last_info = Some(info);
                }
            }
            // xboard has no `currmove`; `.` reports progress instead.
            Event::CurrMove { .. } | Event::Ready { .. } | Event::OfferDraw | Event::Resign => {}
            Event::Message(text) => say(&format!("# {text}")),
            Event::Failed(failure) => say(&format!("tellusererror {failure}")),
            // The book move itself arrives as the `BestMove` that follows.
            Event::BookMove { choice, .. } => {
                if self.post {
                    say(&format!("# book move {}", choice.mv.to_uci(CastlingMode::Standard)));
                }
            }
            Event::PostBook { check, .. } => {
                if self.post {
                    say(&format!("# {}", check.describe(|m| m.to_uci(CastlingMode::Standard).to_string())));
                }
            }
            Event::BestMove { id, best, ponder, .. } => {
                if self.activity != Activity::Thinking(id) {
                    return;
                }
                self.activity = Activity::Idle;
                let pos = self.position();
                if let Some(m) = best.filter(|&m| pos.is_legal(m)) {
                    match self.policy.decide(&self.situation(&pos, Some(m))) {
                        Decision::Play => {}
                        decision @ Decision::OfferDraw(_) => {
                            say(&format!("tellopponent {}", decision.message().unwrap_or_default()));
                            say("offer draw");
                        }
                        decision @ Decision::Resign(_) => {
                            say(&format!("tellopponent {}", decision.message().unwrap_or_default()));
                            say("resign");
                            self.engine_color = None;
                            return;
                        }
                    }
                    say(&format!("move {}", m.to_uci(CastlingMode::Standard)));
                    self.moves.push(m);
                    self.expected_reply = ponder;
                    self.announce_result();
                }
            }
        }
    }

    /// Applies an option announced in [`OPTION_FEATURES`]; reports what was loaded as a
    /// comment and problems as `tellusererror`.
    fn set_option(&mut self, name: &str, value: &str) {
        let check = || value == "1" || value.eq_ignore_ascii_case("true");
        let loaded = match name {
            "OwnBook" => {
                self.own_book = check();
                self.send_book();
                return;
            }
            "BookFile" => match open_book(value) {
                Ok(opened) => {
                    self.book = opened.as_ref().map(|(book, _)| Arc::clone(book));
                    self.send_book();
                    match opened {
                        Some((_, loaded)) => Ok(loaded),
                        None => return,
                    }
                }
                Err(e) => Err(e),
            },
            "PositionFile" => self.learned.load_positions(value),
            "PostBookFile" => self.learned.load_postbook(value),
            "PositionLearning" => {
                self.learned.use_positions = check();
                Ok(format!("PositionLearning {}", self.learned.use_positions))
            }
            "UsePostBook" => {
                self.learned.use_postbook = check();
                Ok(format!("UsePostBook {}", self.learned.use_postbook))
            }
            other => Err(format!("unknown option {other}")),
        };
        match loaded {
            Ok(message) => {
                self.handle.send(self.learned.command());
                say(&format!("# {message}"));
            }
            Err(why) => say(&format!("tellusererror {why}")),
        }
    }

    /// Tells the engine thread which book to play from.
    fn send_book(&self) {
        let book = if self.own_book { self.book.clone() } else { None };
        self.handle.send(Command::SetBook { book, settings: crate::BookSettings::default(), seed: None });
    }

    /// Handles one input line; returns `false` on `quit`.
    fn handle_line(&mut self, line: &str) -> bool {
        match parse_line(line) {
            XboardCommand::Xboard | XboardCommand::Ignore => {}
            XboardCommand::Protover(_) => {
                say(&format!(
                    "feature myname=\"{ENGINE_NAME}\" setboard=1 usermove=1 analyze=1 ping=1 draw=1 sigint=0 sigterm=0 colors=0 playother=0 reuse=1 {} done=1",
                    OPTION_FEATURES.join(" ")
                ));
            }
            XboardCommand::New => {
                self.halt();
                self.handle.send(Command::NewGame);
                self.start = Chess::default();
                self.moves.clear();
                self.engine_color = Some(Color::Black);
                self.depth_limit = None;
                self.node_limit = None;
                self.expected_reply = None;
                self.policy = Policy::new(PolicySettings::default());
                if self.analyze {
                    self.start_search(true);
                }
            }
            XboardCommand::TimeControl(tc) => self.time_control = tc,
            XboardCommand::Depth(depth) => self.depth_limit = Some(depth),
            XboardCommand::Nodes(nodes) => self.node_limit = Some(nodes),
            XboardCommand::Time(time) => self.own_clock = Some(time),
            XboardCommand::Otim(time) => self.opponent_clock = Some(time),
            XboardCommand::UserMove(text) => {
                let pos = self.position();
                let parsed = text.parse::<UciMove>().ok().and_then(|uci| uci.to_move(&pos).ok());
                let parsed = parsed.or_else(|| {
                    text.parse::<shakmaty::san::San>().ok().and_then(|san| san.to_move(&pos).ok())
                });
                match parsed {
                    Some(m) => {
                        self.halt();
                        self.moves.push(m);
                        self.resume();
                    }
                    None => say(&format!("Illegal move: {text}")),
                }
            }
            XboardCommand::Go => {
                self.engine_color = Some(self.position().turn());
                self.analyze = false;
                self.start_search(false);
            }
            XboardCommand::Force => {
                self.halt();
                self.engine_color = None;
            }
            XboardCommand::MoveNow => {
                if matches!(self.activity, Activity::Thinking(_)) {
                    self.handle.send(Command::Stop);
                }
            }
            XboardCommand::Undo | XboardCommand::Remove => {
                let plies = if matches!(parse_line(line), XboardCommand::Undo) { 1 } else { 2 };
                if self.moves.len() < plies {
                    say(&format!("Error (no moves to take back): {}", line.trim()));
                } else {
                    self.halt();
                    self.moves.truncate(self.moves.len() - plies);
                    if self.analyze {
                        self.start_search(true);
                    }
                }
            }
            XboardCommand::SetBoard(text) => {
                let parsed = text.parse::<Fen>().map_err(|e| e.to_string()).and_then(|fen| {
                    fen.into_position(CastlingMode::Standard)
                        .or_else(PositionError::ignore_impossible_check)
                        .map_err(|e| e.to_string())
                });
                match parsed {
                    Ok(pos) => {
                        self.halt();
                        self.start = pos;
                        self.moves.clear();
                        self.expected_reply = None;
                        if self.analyze {
                            self.start_search(true);
                        }
                    }
                    Err(why) => say(&format!("tellusererror Illegal position: {why}")),
                }
            }
            XboardCommand::Analyze => {
                self.analyze = true;
                self.engine_color = None;
                self.start_search(true);
            }
            XboardCommand::Exit => {
                if self.analyze {
                    self.analyze = false;
                    self.halt();
                }
            }
            XboardCommand::Status => {
                if let (Activity::Analyzing(_), Some(info)) = (self.activity, &self.last_info) {
                    let pos = self.position();
                    let total = pos.legal_moves().len();
                    let first = info.pv.first().map(|&m| san_line(&pos, &[m])).unwrap_or_default();
                    say(&format!(
                        "stat01: {} {} {} {total} {total} {first}",
                        info.time.as_millis() / 10,
                        info.nodes,
                        info.depth
                    ));
                }
            }
            XboardCommand::Hint => {
                let pos = self.position();
                let hint = self.expected_reply.filter(|&m| pos.is_legal(m)).or_else(|| {
                    let stop = std::sync::atomic::AtomicBool::new(false);
                    Engine::new(1).search(&pos, &[], &SearchLimits::depth(HINT_DEPTH), &stop, |_| {}).best
                });
                if let Some(m) = hint {
                    say(&format!("Hint: {}", m.to_uci(CastlingMode::Standard)));
                }
            }
            XboardCommand::Draw => {
                // Accepting is answering with an offer; declining is silence (and a word why).
                let pos = self.position();
                let answer = self.policy.answer(&self.situation(&pos, None));
                if answer.accept || pos.is_insufficient_material() {
                    say("offer draw");
                } else {
                    say(&format!("tellopponent {}", answer.message()));
                }
            }
            XboardCommand::Result(_) => {
                self.halt();
                self.analyze = false;
                self.engine_color = None;
            }
            XboardCommand::Post => self.post = true,
            XboardCommand::NoPost => self.post = false,
            XboardCommand::Ping(n) => say(&format!("pong {n}")),
            XboardCommand::SetOption(name, value) => self.set_option(&name, &value),
            XboardCommand::Quit => return false,
            XboardCommand::Error(why, text) => say(&format!("Error ({why}): {text}")),
            XboardCommand::Unknown(text) => say(&format!("Error (unknown command): {text}")),
        }
        true
    }
}

/// Runs an xboard session on stdin and stdout (the `xboard` line already read) until
/// `quit` or the end of input.
pub fn run_xboard() {
    let (tx, rx) = unbounded();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut session = Session::new();
    loop {
        while let Some(event) = session.handle.try_recv() {
            session.handle_event(event);
        }
        match rx.recv_timeout(Duration::from_millis(5)) {
            Ok(line) => {
                if !session.handle_line(&line) {
                    return;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    // End of input: let a move in progress finish so that piped scripts see it.
    if session.analyze {
        session.halt();
    }
    while matches!(session.activity, Activity::Thinking(_)) {
        if let Some(event) = session.handle.recv_timeout(Duration::from_millis(50)) {
            session.handle_event(event);
        }
    }
}

use parse::parse_line;
