//! External engines as [`Player`]s: a child process speaking UCI or xboard, driven by a
//! thread that owns it. The driver does the handshake, then translates [`Command`]s into the
//! protocol and the engine's lines into [`Event`]s; what goes wrong (a program that will not
//! start, does not answer, crashes, hangs or plays an illegal move) becomes
//! [`Event::Failed`] with the engine's last lines. The protocols' own steps are in
//! `external/uci.rs` and `external/xboard.rs`.

mod process;
mod uci;
mod xboard;

use std::collections::VecDeque;
use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, select, unbounded};
use process::{Line, Process};
use shakmaty::{Chess, Move, Position};

use super::uci_wire::{fen, read_move};
use crate::{
    Command, EngineConfig, EngineOption, Event, FailureKind, Player, PlayerFailure, Protocol, SearchInfo,
    SearchLimits,
};

/// How many of the engine's last lines a failure quotes.
const LAST_LINES: usize = 10;
/// How much of each quoted line is kept.
const MAX_QUOTED: usize = 300;
/// How long a search may take to end after `stop` (or `?`, or `exit`).
const STOP_TIMEOUT: Duration = Duration::from_secs(4);
/// How long `isready` / `ping` may take to be answered.
const READY_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to exit after `quit`.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// An engine run as a child process, speaking UCI or xboard.
///
/// [`spawn`](ExternalEngine::spawn) never blocks: the handshake runs on the driver thread and
/// ends with [`Event::Ready`] (or [`Event::Failed`]). Commands sent before that wait their turn.
pub struct ExternalEngine {
    config: EngineConfig,
    notify: Notify,
    orders: Sender<Order>,
    events: Receiver<Event>,
    declared: Arc<Mutex<Declared>>,
}

/// The callback run after each event (the app's `request_repaint`).
type Notify = Arc<dyn Fn() + Send + Sync>;

/// What the owner tells the driver.
enum Order {
    /// Commands for the engine, in order.
    Commands(Vec<Command>),
    /// Kill the process now.
    Kill,
}

/// What the engine declared in its handshake.
#[derive(Default)]
struct Declared {
    options: Vec<EngineOption>,
    protocol: Option<Protocol>,
}

impl ExternalEngine {
    /// Starts the engine of `config`. `notify` is called after each event.
    pub fn spawn(config: EngineConfig, notify: impl Fn() + Send + Sync + 'static) -> ExternalEngine {
        Self::start(config, Arc::new(notify))
    }

    fn start(config: EngineConfig, notify: Notify) -> ExternalEngine {
        let (order_tx, order_rx) = unbounded();
        let (event_tx, event_rx) = unbounded();
        let declared = Arc::new(Mutex::new(Declared::default()));
        let engine = ExternalEngine {
            config: config.clone(),
            notify: Arc::clone(&notify),
            orders: order_tx,
            events: event_rx,
            declared: Arc::clone(&declared),
        };
        match Process::start(&config) {
            Ok(process) => {
                let driver = Driver::new(config, process, order_rx, event_tx, notify, declared);
                thread::spawn(move || driver.run());
            }
            Err(e) => {
                let failure = PlayerFailure {
                    engine: config.name,
                    kind: FailureKind::CouldNotStart(e),
                    last_lines: vec![],
                };
                let _ = event_tx.send(Event::Failed(failure));
                notify();
            }
        }
        engine
    }

    /// Kills the engine and starts it again with the same configuration (after a failure).
    pub fn restart(&mut self) {
        let _ = self.orders.send(Order::Kill);
        *self = Self::start(self.config.clone(), Arc::clone(&self.notify));
    }

    /// The protocol the engine speaks, once its handshake succeeded.
    #[must_use]
    pub fn protocol(&self) -> Option<Protocol> {
        self.declared.lock().unwrap_or_else(PoisonError::into_inner).protocol
    }

    /// The configuration it was started with.
    #[must_use]
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }
}

impl Player for ExternalEngine {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn options(&self) -> Vec<EngineOption> {
        self.declared.lock().unwrap_or_else(PoisonError::into_inner).options.clone()
    }

    fn send(&self, cmd: Command) {
        // After a fatal failure the driver is gone and the command goes nowhere.
        let _ = self.orders.send(Order::Commands(vec![cmd]));
    }

    fn send_all(&self, commands: Vec<Command>) {
        let _ = self.orders.send(Order::Commands(commands));
    }

    fn try_recv(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    fn recv_timeout(&self, timeout: Duration) -> Option<Event> {
        match self.events.recv_timeout(timeout) {
            Ok(event) => Some(event),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                // A dead engine waits like a silent one, so that callers polling it do not spin.
                thread::sleep(timeout);
                None
            }
        }
    }
}

/// Why the driver stops.
enum End {
    /// The engine failed for good.
    Failed(FailureKind),
    /// The owner killed it, quit it or went away.
    Quit,
}

impl From<FailureKind> for End {
    fn from(kind: FailureKind) -> End {
        End::Failed(kind)
    }
}

/// The search the engine is running.
struct Search {
    id: u64,
    /// The position searched, to check the engine's moves.
    pos: Chess,
    limits: SearchLimits,
    /// An xboard `analyze` search (ended by `exit` rather than `?`).
    analyze: bool,
    started: Instant,
    /// When `stop` was sent.
    stopping: Option<Instant>,
    /// The best line of the latest report (to answer an xboard `exit` with a move).
    best_line: Vec<Move>,
    nodes: u64,
    time: Duration,
}

impl Search {
    fn new(id: u64, pos: Chess, limits: SearchLimits, analyze: bool) -> Search {
        let started = Instant::now();
        Search {
            id,
            pos,
            limits,
            analyze,
            started,
            stopping: None,
            best_line: vec![],
            nodes: 0,
            time: Duration::ZERO,
        }
    }
}

/// The thread that owns the process.
struct Driver {
    config: EngineConfig,
    process: Process,
    orders: Receiver<Order>,
    events: Sender<Event>,
    notify: Notify,
    declared: Arc<Mutex<Declared>>,
    last_lines: VecDeque<String>,
    /// The options the engine declared.
    options: Vec<EngineOption>,
    /// The protocol, once the handshake succeeded.
    protocol: Option<Protocol>,
    uci: uci::UciSession,
    xboard: xboard::XboardSession,
    /// The position the owner set (applies to the next `Go`).
    start: Chess,
    moves: Vec<Move>,
    search: Option<Search>,
    /// Commands waiting their turn: those that need the engine idle wait for the search to end.
    pending: VecDeque<Command>,
}

impl Driver {
    fn new(
        config: EngineConfig,
        process: Process,
        orders: Receiver<Order>,
        events: Sender<Event>,
        notify: Notify,
        declared: Arc<Mutex<Declared>>,
    ) -> Driver {
        Driver {
            config,
            process,
            orders,
            events,
            notify,
            declared,
            last_lines: VecDeque::new(),
            options: vec![],
            protocol: None,
            uci: uci::UciSession::default(),
            xboard: xboard::XboardSession::default(),
            start: Chess::default(),
            moves: vec![],
            search: None,
            pending: VecDeque::new(),
        }
    }

    fn run(mut self) {
        let result = self.handshake().and_then(|()| self.serve());
        if let Err(End::Failed(kind)) = result {
            let failure = self.failure(kind);
            self.emit(Event::Failed(failure));
        }
        self.process.kill();
    }

    /// Tries the configured protocol, or UCI then xboard (in a fresh process), and ends
    /// with [`Event::Ready`].
    fn handshake(&mut self) -> Result<(), End> {
        let name = match self.config.protocol {
            Some(Protocol::Xboard) => xboard::handshake(self, false)?,
            Some(Protocol::Uci) => uci::handshake(self, false)?,
            None => match uci::handshake(self, true)? {
                Some(name) => Some(name),
                None => {
                    self.process.kill();
                    self.process = Process::start(&self.config).map_err(FailureKind::CouldNotStart)?;
                    xboard::handshake(self, true)?
                }
            },
        };
        let (Some(name), Some(protocol)) = (name, self.protocol) else {
            return Err(FailureKind::NoProtocol.into());
        };
        for (option, value) in self.config.options.clone() {
            self.set_option(&option, &value)?;
        }
        self.sync("the handshake")?;
        *self.declared.lock().unwrap_or_else(PoisonError::into_inner) =
            Declared { options: self.options.clone(), protocol: Some(protocol) };
        let name = if name.is_empty() { self.config.name.clone() } else { name };
        self.emit(Event::Ready { name, options: self.options.clone() });
        Ok(())
    }

    /// Serves commands and lines until the owner quits or the engine fails.
    fn serve(&mut self) -> Result<(), End> {
        loop {
            self.run_pending()?;
            let wait = self.search.as_ref().map_or(Duration::from_secs(1), |_| Duration::from_millis(50));
            select! {
                recv(self.orders) -> order => match order {
                    Ok(Order::Commands(cmds)) => self.pending.extend(cmds),
                    Ok(Order::Kill) => return Err(End::Quit),
                    Err(_) => return self.quit(),
                },
                recv(self.process.lines) -> line => match line {
                    Ok(Line::Out(text)) => {
                        self.remember(&text);
                        self.on_line(&text)?;
                    }
                    Ok(Line::Err(text)) => self.remember(&text),
                    Ok(Line::Closed) | Err(_) => return Err(self.crashed().into()),
                },
                default(wait) => {}
            }
            self.check_deadlines()?;
        }
    }

    /// Runs the waiting commands in order, as far as the engine's state allows: while a
    /// search runs, `Go`, `NewGame`, option changes and pings wait for it to end (it is stopped).
    fn run_pending(&mut self) -> Result<(), End> {
        while let Some(cmd) = self.pending.pop_front() {
            let needs_idle = matches!(
                cmd,
                Command::Go { .. }
                    | Command::NewGame
                    | Command::SetOption { .. }
                    | Command::ClearHash
                    | Command::Evaluate { .. }
                    | Command::Ping { .. }
            );
            if needs_idle && self.search.is_some() {
                self.pending.push_front(cmd);
                return self.stop();
            }
            self.command(cmd)?;
        }
        Ok(())
    }

    fn command(&mut self, cmd: Command) -> Result<(), End> {
        match cmd {
            Command::Position { start, moves } => {
                self.start = start;
                self.moves = moves;
            }
            Command::Stop => self.stop()?,
            // xboard has no command for an evaluation.
            Command::Evaluate { id } if self.is_xboard() => self.emit(Event::Evaluation { id, text: None }),
            Command::Evaluate { id } => uci::evaluate(self, id)?,
            Command::Quit => return self.quit(),
            Command::SetOption { name, value } => self.set_option(&name, &value)?,
            Command::SetBook { .. }
            | Command::SetLearning { .. }
            | Command::SetTablebases(_)
            | Command::SetDrawScore(_)
            | Command::UseNetwork(_)
            | Command::SetNetworkFile(_) => {}
            Command::NewGame if self.is_xboard() => xboard::new_game(self)?,
            Command::NewGame => uci::new_game(self)?,
            Command::Go { id, limits, .. } if limits.ponder || limits.infinite => {
                self.go(id, limits, true)?
            }
            Command::Go { id, purpose, limits } => self.go(id, limits, purpose == crate::Purpose::Analyse)?,
            Command::PonderHit if self.is_xboard() => xboard::ponder_hit(self)?,
            Command::PonderHit => {
                if self.search.as_ref().is_some_and(|s| s.limits.ponder) {
                    self.write("ponderhit")?;
                }
            }
            Command::Ping { id } => {
                self.sync("ping")?;
                self.emit(Event::Pong { id });
            }
            Command::ClearHash => {
                if let Some(button) = self.options.iter().find(|o| o.name.eq_ignore_ascii_case("Clear Hash"))
                {
                    let name = button.name.clone();
                    self.set_option(&name, "")?;
                }
            }
        }
        Ok(())
    }

    fn is_xboard(&self) -> bool {
        self.protocol == Some(Protocol::Xboard)
    }

    /// The position the owner set.
    fn position(&self) -> Chess {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }

    fn go(&mut self, id: u64, limits: SearchLimits, analyse: bool) -> Result<(), End> {
        if self.is_xboard() { xboard::go(self, id, limits, analyse) } else { uci::go(self, id, limits) }
    }

    fn stop(&mut self) -> Result<(), End> {
        match &self.search {
            Some(search) if search.stopping.is_none() => {
                if self.is_xboard() {
                    xboard::stop(self)
                } else {
                    self.write("stop")?;
                    self.mark_stopping();
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }

    fn mark_stopping(&mut self) {
        if let Some(search) = &mut self.search {
            search.stopping.get_or_insert_with(Instant::now);
        }
    }

    /// Checks `value` against the declared option and sends it; a bad value is reported as a
    /// message and not sent.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), End> {
        let declared = self.options.iter().find(|o| o.name.eq_ignore_ascii_case(name.trim())).cloned();
        match (declared, crate::check_option(&self.options, name, value)) {
            (Some(option), Ok(value)) if self.is_xboard() => xboard::set_option(self, &option, &value),
            (Some(option), Ok(value)) => uci::set_option(self, &option, &value),
            (_, Err(e)) => {
                self.message(e.to_string());
                Ok(())
            }
            (None, Ok(_)) => Ok(()),
        }
    }

    fn on_line(&mut self, line: &str) -> Result<(), End> {
        if self.is_xboard() { xboard::on_line(self, line) } else { uci::on_line(self, line) }
    }

    /// Fails a search that did not end in time after `stop`, and stops an xboard analysis
    /// that reached its limits.
    fn check_deadlines(&mut self) -> Result<(), End> {
        let Some(search) = &self.search else { return Ok(()) };
        if let Some(since) = search.stopping {
            if since.elapsed() > STOP_TIMEOUT {
                let what =
                    format!("its search did not end within {} s of being stopped", STOP_TIMEOUT.as_secs());
                return Err(FailureKind::Hung(what).into());
            }
        } else if search.analyze && search.limits.movetime.is_some_and(|t| search.started.elapsed() >= t) {
            self.stop()?;
        }
        Ok(())
    }

    /// Ends the current search with its best move, checked: an illegal one is reported
    /// (not fatal) and replaced by none. `ponder` is the expected reply, if the engine said.
    fn finish(&mut self, best: Option<&str>, ponder: Option<&str>) {
        let Some(search) = self.search.take() else { return };
        let none = best.is_none_or(|b| b == "(none)" || b == "0000");
        let best_move = best.and_then(|b| read_move(&search.pos, b));
        if best_move.is_none() && !(none && search.pos.legal_moves().is_empty()) {
            let sent = best.unwrap_or("(none)").to_owned();
            let failure = self.failure(FailureKind::IllegalMove { sent, fen: fen(&search.pos) });
            self.emit(Event::Failed(failure));
        }
        let ponder = best_move.and_then(|m| {
            let mut after = search.pos.clone();
            after.play_unchecked(m);
            match ponder {
                Some(p) => read_move(&after, p),
                None => search.best_line.get(1).copied().filter(|_| search.best_line.first() == Some(&m)),
            }
        });
        self.emit(Event::BestMove {
            id: search.id,
            best: best_move,
            ponder,
            nodes: search.nodes,
            time: search.time,
        });
    }

    /// Reports a line of the current search (and remembers its nodes, time and best line).
    fn report(&mut self, info: SearchInfo) {
        let Some(search) = &mut self.search else { return };
        search.nodes = search.nodes.max(info.nodes);
        search.time = search.time.max(info.time);
        if info.multipv <= 1 && !info.pv.is_empty() {
            search.best_line.clone_from(&info.pv);
        }
        let id = search.id;
        self.emit(Event::Info { id, info });
    }

    /// Writes one line to the engine; a closed pipe means it crashed.
    fn write(&mut self, line: &str) -> Result<(), End> {
        let written = writeln!(self.process.stdin, "{line}").and_then(|()| self.process.stdin.flush());
        written.map_err(|_| End::Failed(self.crashed()))
    }

    /// The next line on the engine's standard output, until `deadline` (`None` then).
    /// Commands arriving meanwhile wait their turn; a kill ends the wait.
    fn next_line(&mut self, deadline: Instant) -> Result<Option<String>, End> {
        loop {
            select! {
                recv(self.orders) -> order => match order {
                    Ok(Order::Commands(cmds)) => self.pending.extend(cmds),
                    Ok(Order::Kill) | Err(_) => return Err(End::Quit),
                },
                recv(self.process.lines) -> line => match line {
                    Ok(Line::Out(text)) => {
                        self.remember(&text);
                        return Ok(Some(text));
                    }
                    Ok(Line::Err(text)) => self.remember(&text),
                    Ok(Line::Closed) | Err(_) => return Err(self.crashed().into()),
                },
                recv(crossbeam_channel::at(deadline)) -> _ => return Ok(None),
            }
        }
    }

    /// Waits until the engine has done everything asked so far (`isready` / `ping`).
    fn sync(&mut self, after: &str) -> Result<(), End> {
        if self.is_xboard() { xboard::sync(self, after) } else { uci::sync(self, after) }
    }

    /// Why the engine's output closed: its exit status (waited for briefly) and its last
    /// words on standard error.
    fn crashed(&mut self) -> FailureKind {
        let status = self.process.wait_exit(Duration::from_secs(1));
        let deadline = Instant::now() + Duration::from_millis(300);
        loop {
            match self.process.lines.recv_deadline(deadline) {
                Ok(Line::Out(text) | Line::Err(text)) => self.remember(&text),
                Ok(Line::Closed) => {}
                Err(_) => break,
            }
        }
        FailureKind::Crashed(status.map(|s| s.to_string()))
    }

    /// Sends `quit`, gives the engine a moment to exit, then kills it.
    fn quit(&mut self) -> Result<(), End> {
        let _ = writeln!(self.process.stdin, "quit").and_then(|()| self.process.stdin.flush());
        self.process.wait_exit(QUIT_GRACE);
        Err(End::Quit)
    }

    /// Keeps the last lines the engine wrote, for failures.
    fn remember(&mut self, line: &str) {
        if self.last_lines.len() == LAST_LINES {
            self.last_lines.pop_front();
        }
        let cut = line.char_indices().nth(MAX_QUOTED).map_or(line.len(), |(at, _)| at);
        let quoted = if cut < line.len() { format!("{}...", &line[..cut]) } else { line.to_owned() };
        self.last_lines.push_back(quoted);
    }

    fn failure(&self, kind: FailureKind) -> PlayerFailure {
        PlayerFailure {
            engine: self.config.name.clone(),
            kind,
            last_lines: self.last_lines.iter().cloned().collect(),
        }
    }

    /// Passes on something the engine said for the user, with its name.
    fn message(&self, text: String) {
        self.emit(Event::Message(format!("{}: {text}", self.config.name)));
    }

    fn emit(&self, event: Event) {
        let _ = self.events.send(event);
        (self.notify)();
    }
}
