//! The xboard / CECP v2 front end: reads commands, drives an [`EngineHandle`], prints
//! moves, thinking lines and results.
//!
//! One loop owns the game: a reader thread forwards input lines, and engine events are
//! drained between them, so the game state has a single owner. The game is kept by the same
//! [`Conductor`] as the app's and the runner's, so Kibitz offers, answers, claims and resigns
//! over xboard exactly as it does there.

mod parse;

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use crossbeam_channel::{RecvTimeoutError, unbounded};
use shakmaty::{
    ByColor, CastlingMode, Chess, Color, Move, Position, PositionError, fen::Fen, san::SanPlus, uci::UciMove,
};

pub use parse::{XboardCommand, parse_line as parse_xboard_line};

use crate::conductor::{Conductor, GameEvent};
use crate::file_options::{
    load_policy, load_positions, load_postbook, open_book, set_network_file, set_tablebases,
};
use crate::policy::{PolicyChange, PolicySettings};
use crate::search::{max_threads, position_hash};
use crate::{
    Clock, Command, ENGINE_NAME, Engine, EngineHandle, EngineOption, Event, GameRecord, OptionError,
    OptionKind, Purpose, Score, SearchInfo, SearchLimits, Termination, TimeControl,
};
use crate::{LearnedData, NotUtf8, stdin_lines};

/// xboard's score for a mate: mate in `n` moves is this plus `n` (minus for being mated).
const XBOARD_MATE: i32 = 100_000;

/// The time control xboard uses until it sends `level` or `st`.
const DEFAULT_LEVEL: &str = "level 40 5 0";

/// The depth of the quick search that answers `hint` when no ponder move is known.
const HINT_DEPTH: u32 = 5;

/// The options offered to the GUI (`feature option=...`), set with `option NAME=VALUE`:
/// the opening book and Kibitz's learned positions and PostBook, as over UCI. The draw and
/// resign settings follow, from [`PolicySettings::options`].
const OPTION_FEATURES: [&str; 7] = [
    "option=\"OwnBook -check 0\"",
    "option=\"BookFile -file \"",
    "option=\"PositionFile -file \"",
    "option=\"PositionLearning -check 1\"",
    "option=\"PostBookFile -file \"",
    "option=\"UsePostBook -check 1\"",
    "option=\"PolicyFile -file \"",
];

/// The `feature` announcing `option`: `option="NAME -spin DEFAULT MIN MAX"`, `-check 1`,
/// `-combo *Terra /// DeadBand` (the default starred).
fn option_feature(option: &EngineOption) -> String {
    let kind = match &option.kind {
        OptionKind::Check { default } => format!("-check {}", u8::from(*default)),
        OptionKind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
        OptionKind::Combo { default, choices } => {
            let starred: Vec<String> =
                choices.iter().map(|c| if c == default { format!("*{c}") } else { c.clone() }).collect();
            format!("-combo {}", starred.join(" /// "))
        }
        OptionKind::Button => "-button".to_owned(),
        OptionKind::Text { default } => format!("-string {default}"),
        OptionKind::Path { default } => format!("-file {default}"),
    };
    format!("option=\"{} {kind}\"", option.name)
}

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

/// How deep the search goes that judges a draw offer when no score of the position on the
/// board is known (after `setboard`, or after analysing another position).
const DRAW_JUDGE_DEPTH: u32 = 10;

/// The most time that search may take.
const DRAW_JUDGE_TIME: Duration = Duration::from_millis(300);

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
    /// The game, its clock (set from `time` and `otim`) and Kibitz's manners for either side.
    conductor: Conductor,
    /// Kibitz's manners, set with the options; they hold for every game of the session.
    policy: PolicySettings,
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
    /// The position the running search started from.
    searched: Chess,
    /// The reply the last search expected to the engine's move.
    expected_reply: Option<Move>,
    /// The latest thinking report of the running search.
    last_info: Option<SearchInfo>,
    /// Play from the book (`OwnBook`).
    own_book: bool,
    /// The book (`BookFile`).
    book: Option<Arc<crate::Book>>,
    /// The learned positions and the PostBook, from files the app wrote.
    learned: LearnedData,
}

/// A conductor for a game from `start`: Kibitz's manners speak for whichever side it plays.
fn conductor_from(start: Chess, control: &TimeControl, policy: &PolicySettings) -> Conductor {
    let clock = Clock::new(control.clone(), control.clone());
    let policies = ByColor::new_with(|_| Some(policy.clone()));
    Conductor::new(GameRecord::from_position(start), Some(clock), policies)
}

impl Session {
    fn new() -> Session {
        let time_control = DEFAULT_LEVEL.parse().unwrap_or(TimeControl::Infinite);
        Session {
            handle: EngineHandle::spawn(|| {}),
            conductor: conductor_from(Chess::default(), &time_control, &PolicySettings::default()),
            policy: PolicySettings::default(),
            engine_color: Some(Color::Black),
            time_control,
            depth_limit: None,
            node_limit: None,
            own_clock: None,
            opponent_clock: None,
            post: false,
            analyze: false,
            activity: Activity::Idle,
            last_id: 0,
            searched: Chess::default(),
            expected_reply: None,
            last_info: None,
            own_book: false,
            book: None,
            learned: LearnedData::default(),
        }
    }

    fn position(&self) -> Chess {
        self.conductor.game().position().clone()
    }

    /// Starts a new game from `start`, keeping the time control.
    fn restart(&mut self, start: Chess) {
        self.halt();
        self.conductor = conductor_from(start, &self.time_control, &self.policy);
        self.expected_reply = None;
    }

    /// A new time control: the clock is set up again, with the moves already made counted.
    fn set_time_control(&mut self, control: TimeControl) {
        let mut clock = Clock::new(control.clone(), control.clone());
        if clock.is_timed() {
            for _ in 0..self.conductor.game().len() {
                clock.press();
            }
        }
        self.time_control = control;
        self.conductor.set_clock(Some(clock));
    }

    /// Sets the clock to what the GUI last said (`time` for the engine's side, `otim` for the
    /// other), before the engine searches or judges.
    fn sync_clock(&mut self, engine: Color) {
        let (own, other) = (self.own_clock, self.opponent_clock);
        if let Some(clock) = self.conductor.clock_mut() {
            if let Some(own) = own {
                clock.set_remaining(engine, own);
            }
            if let Some(other) = other {
                clock.set_remaining(!engine, other);
            }
        }
    }

    /// Stops whatever runs; its result will be ignored.
    fn halt(&mut self) {
        if self.activity != Activity::Idle {
            self.handle.send(Command::Stop);
            self.activity = Activity::Idle;
        }
    }

    /// Starts a search on the current position.
    fn start_search(&mut self, analyze: bool) {
        self.halt();
        let pos = self.position();
        if pos.is_game_over() && !analyze {
            return;
        }
        let game = self.conductor.game();
        self.handle.send(Command::Position { start: game.start().clone(), moves: game.moves().to_vec() });
        self.last_id += 1;
        let (purpose, limits) = if analyze {
            (Purpose::Analyse, SearchLimits { infinite: true, ..Default::default() })
        } else {
            self.sync_clock(pos.turn());
            let base = SearchLimits { depth: self.depth_limit, nodes: self.node_limit, ..Default::default() };
            (Purpose::Play, self.conductor.limits(pos.turn(), base))
        };
        self.last_info = None;
        self.searched = pos;
        self.handle.send(Command::Go { id: self.last_id, purpose, limits });
        self.activity =
            if analyze { Activity::Analyzing(self.last_id) } else { Activity::Thinking(self.last_id) };
    }

    /// After any change to the game: think if it is the engine's turn, or analyse.
    fn resume(&mut self) {
        if self.analyze {
            self.start_search(true);
        } else if self.engine_color == Some(self.position().turn()) && !self.conductor.is_over() {
            self.start_search(false);
        } else {
            self.halt();
        }
    }

    /// Says what the conductor reports: the engine's offers, answers, claims, resignations,
    /// its move, and the result when the game ends.
    fn report(&mut self, events: Vec<GameEvent>) {
        let engine = self.engine_color;
        let mine = |side: Color| engine.is_none_or(|c| c == side);
        // An offer made with a move goes before the move, as xboard expects.
        for event in &events {
            if let GameEvent::DrawOffered { side, why: Some(why) } = event
                && mine(*side)
            {
                say(&format!("tellopponent I offer a draw: {why}."));
                say("offer draw");
            }
        }
        for event in events {
            match event {
                GameEvent::Moved { side, mv, .. } if mine(side) && engine.is_some() => {
                    say(&format!("move {}", mv.to_uci(CastlingMode::Standard)));
                }
                GameEvent::DrawAccepted { side, why } if mine(side) => {
                    if let Some(why) = why {
                        say(&format!("tellopponent I accept: {why}."));
                    }
                    // Accepting is answering with an offer of one's own.
                    say("offer draw");
                }
                GameEvent::DrawDeclined { side, why: Some(why) } if mine(side) => {
                    say(&format!("tellopponent I decline: {why}."));
                }
                GameEvent::OfferNotSent { side } if !mine(side) => {
                    say("tellopponent A draw may be offered once per game; this offer is not taken.");
                }
                GameEvent::Resigned { side, why } if mine(side) => {
                    say(&format!("tellopponent I resign: {}.", why.unwrap_or_default()));
                    say("resign");
                    self.engine_color = None;
                }
                // A resignation and an agreement were said already.
                GameEvent::GameOver { ending }
                    if !matches!(ending.termination, Termination::Resignation | Termination::Agreement) =>
                {
                    say(&format!("{} {{{ending}}}", ending.outcome.as_str()));
                }
                _ => {}
            }
        }
    }

    /// The opponent offers a draw (`draw`). Kibitz answers from its evaluation of the position
    /// on the board: from the running search once it ends, or from its last score if that
    /// was about this position, or else from a short search made now. Never from a default.
    fn draw_offered(&mut self) {
        let receiver = self.engine_color.unwrap_or_else(|| self.position().turn());
        if let Some(ending) = self.conductor.game().ending() {
            // Drawn already by the rules (a dead position): agree, and say why.
            if ending.outcome == shakmaty::KnownOutcome::Draw {
                say("offer draw");
                say(&format!("{} {{{ending}}}", ending.outcome.as_str()));
            }
            return;
        }
        let events = self.conductor.offer_draw(!receiver);
        if events.iter().any(|e| matches!(e, GameEvent::OfferNotSent { .. })) {
            self.report(events);
            return;
        }
        if matches!(self.activity, Activity::Thinking(_)) && self.position().turn() == receiver {
            // Answered when the search ends, before the move.
            return;
        }
        if !self.conductor.has_score_now(receiver) {
            self.judge(receiver);
        }
        self.sync_clock(receiver);
        let events = self.conductor.answer_offer(receiver);
        self.report(events);
    }

    /// A short search of the position on the board, for `side`'s score.
    fn judge(&mut self, side: Color) {
        let pos = self.position();
        let game = self.conductor.game();
        let history: Vec<u64> = (0..game.len()).map(|ply| position_hash(game.position_at(ply))).collect();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let limits = SearchLimits::movetime(DRAW_JUDGE_TIME);
        let limits = SearchLimits { depth: Some(DRAW_JUDGE_DEPTH), ..limits };
        if let Some(info) = Engine::new(1).search(&pos, &history, &limits, &stop, |_| {}).info {
            self.conductor.record_search(side, &pos, &info);
        }
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
                    let searched = self.searched.clone();
                    for side in [Color::White, Color::Black] {
                        self.conductor.record_search(side, &searched, &info);
                    }
                    self.last_info = Some(info);
                }
            }
            // xboard has no `currmove`; `.` reports progress instead.
            Event::CurrMove { .. }
            | Event::Ready { .. }
            | Event::Pong { .. }
            | Event::OfferDraw
            | Event::Resign => {}
            Event::Message(text) => say(&format!("# {text}")),
            Event::Evaluation { .. } => {}
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
                    self.sync_clock(pos.turn());
                    let events = self.conductor.engine_move(pos.turn(), m);
                    self.expected_reply = ponder;
                    self.report(events);
                }
            }
        }
    }

    /// Applies an option announced in [`OPTION_FEATURES`], [`crate::strength_options`] (the
    /// levels, under their UCI names) or [`crate::evaluation_options`], or a draw and resign
    /// setting;
    /// reports what was loaded as a comment and problems as `tellusererror`.
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
            "UCI_LimitStrength" => {
                self.handle.limit_strength(check());
                return;
            }
            "UCI_Elo" => {
                let (low, high) = crate::ELO_RANGE;
                match value.trim().parse::<u32>() {
                    Ok(elo) if (low..=high).contains(&elo) => {
                        self.handle.set_elo(elo);
                        return;
                    }
                    _ => Err(format!("UCI_Elo must be a rating from {low} to {high}, not '{value}'")),
                }
            }
            "UseNNUE" => {
                self.handle.send(Command::UseNetwork(check()));
                return;
            }
            "EvalFile" => match set_network_file(value, |cmd| self.handle.send(cmd)) {
                Ok(Some(loaded)) => Ok(loaded),
                Ok(None) => return,
                Err(e) => Err(e),
            },
            "PositionFile" => load_positions(&mut self.learned, value),
            "PostBookFile" => load_postbook(&mut self.learned, value),
            "PolicyFile" => match load_policy(value) {
                Ok((settings, loaded)) => {
                    self.policy = settings;
                    self.apply_policy();
                    say(&format!("# {loaded}"));
                    return;
                }
                Err(e) => Err(e),
            },
            "PositionLearning" => {
                self.learned.use_positions = check();
                Ok(format!("PositionLearning {}", self.learned.use_positions))
            }
            "UsePostBook" => {
                self.learned.use_postbook = check();
                Ok(format!("UsePostBook {}", self.learned.use_postbook))
            }
            other => return self.set_policy(other, value),
        };
        match loaded {
            Ok(message) => {
                self.handle.send(self.learned.command());
                say(&format!("# {message}"));
            }
            Err(why) => say(&format!("tellusererror {why}")),
        }
    }

    /// Applies a draw or resign setting at once, for both sides (their remembered scores
    /// start again); a number out of its range is brought into it and the GUI told.
    fn set_policy(&mut self, name: &str, value: &str) {
        match PolicyChange::parse(name, value) {
            Ok(change) => {
                match change.apply(&mut self.policy) {
                    Some(clamped) => say(&format!("tellusererror {clamped}")),
                    None => say(&format!("# {name} {value}")),
                }
                self.apply_policy();
            }
            Err(OptionError::Unknown(name)) => say(&format!("tellusererror unknown option {name}")),
            Err(invalid) => say(&format!("tellusererror {invalid}")),
        }
    }

    /// Gives both sides' manners the policy, and the search its contempt as the draw score.
    fn apply_policy(&mut self) {
        for side in [Color::White, Color::Black] {
            self.conductor.set_policy(side, Some(self.policy.clone()));
        }
        self.handle.send(Command::SetDrawScore(self.policy.contempt));
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
                let policy: Vec<String> = PolicySettings::options().iter().map(option_feature).collect();
                let strength: Vec<String> = crate::strength_options()
                    .iter()
                    .chain(&crate::evaluation_options())
                    .map(option_feature)
                    .collect();
                say(&format!(
                    "feature myname=\"{ENGINE_NAME}\" setboard=1 usermove=1 analyze=1 ping=1 draw=1 smp=1 sigint=0 sigterm=0 colors=0 playother=0 reuse=1 egt=\"syzygy\" {} {} {} done=1",
                    OPTION_FEATURES.join(" "),
                    strength.join(" "),
                    policy.join(" ")
                ));
            }
            XboardCommand::New => {
                self.handle.send(Command::NewGame);
                self.restart(Chess::default());
                self.engine_color = Some(Color::Black);
                self.depth_limit = None;
                self.node_limit = None;
                if self.analyze {
                    self.start_search(true);
                }
            }
            XboardCommand::TimeControl(tc) => self.set_time_control(tc),
            XboardCommand::Cores(cores) => self.handle.set_threads(cores.clamp(1, max_threads())),
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
                let turn = pos.turn();
                match parsed.map(|m| self.conductor.person_move(turn, m)) {
                    Some(Ok(events)) => {
                        self.halt();
                        self.report(events);
                        self.resume();
                    }
                    Some(Err(why)) => say(&format!("Illegal move ({why}): {text}")),
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
                if self.conductor.game().len() < plies {
                    say(&format!("Error (no moves to take back): {}", line.trim()));
                } else {
                    self.halt();
                    self.conductor.take_back(plies);
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
                        self.restart(pos);
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
            // Accepting is answering with an offer; declining is silence (and a word why).
            XboardCommand::Draw => self.draw_offered(),
            XboardCommand::Result(_) => {
                self.halt();
                self.analyze = false;
                self.engine_color = None;
            }
            XboardCommand::Post => self.post = true,
            XboardCommand::NoPost => self.post = false,
            XboardCommand::Ping(n) => say(&format!("pong {n}")),
            XboardCommand::EgtPath(kind, path) if kind.eq_ignore_ascii_case("syzygy") => {
                match set_tablebases(&path, |cmd| self.handle.send(cmd)) {
                    Ok(found) => found.iter().for_each(|found| say(&format!("# {found}"))),
                    Err(why) => say(&format!("tellusererror {why}")),
                }
            }
            XboardCommand::EgtPath(kind, _) => {
                say(&format!("# egtpath: {kind} tables are not read, only syzygy"))
            }
            XboardCommand::SetOption(name, value) => self.set_option(&name, &value),
            XboardCommand::Quit => return false,
            XboardCommand::Error(why, text) => say(&format!("Error ({why}): {text}")),
            XboardCommand::Unknown(text) => say(&format!("Error (unknown command): {text}")),
        }
        true
    }
}

/// Runs an xboard session on stdin and stdout (the `xboard` line already read) until
/// `quit` or the end of input. A line that is not UTF-8 is answered `Error (...)` and skipped
/// (see [`crate::InputLines`]). The end of input is `?` then `quit`: a move being thought
/// about is played at once and printed, so that piped scripts see it and the program ends.
pub fn run_xboard() {
    run_xboard_lines(stdin_lines());
}

/// Runs an xboard session on the given input lines, as [`run_xboard`].
pub fn run_xboard_lines(input: impl Iterator<Item = Result<String, NotUtf8>> + Send + 'static) {
    let (tx, rx) = unbounded();
    std::thread::spawn(move || {
        for line in input {
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
            Ok(Ok(line)) => {
                if !session.handle_line(&line) {
                    return;
                }
            }
            Ok(Err(bad)) => say(&format!(
                "Error (line {} is not UTF-8: byte 0x{:02x} at column {}): {}",
                bad.number, bad.byte, bad.column, bad.lossy
            )),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    // End of input: stop any search; a move in progress is still played and printed.
    session.analyze = false;
    if matches!(session.activity, Activity::Thinking(_)) {
        session.handle.send(Command::Stop);
    } else {
        session.halt();
    }
    while matches!(session.activity, Activity::Thinking(_)) {
        if let Some(event) = session.handle.recv_timeout(Duration::from_millis(50)) {
            session.handle_event(event);
        }
    }
}

use parse::parse_line;
