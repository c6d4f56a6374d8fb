//! The engine thread: owns an [`Engine`], takes [`Command`]s over a channel and reports
//! [`Event`]s back, so that callers never block on a search.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, unbounded};
use rand::SeedableRng;
use rand::rngs::StdRng;
use shakmaty::{Chess, Move, Position};

use crate::network::NetworkChoice;
use crate::search::{Engine, Listener, SearchOutcome, position_hash};
use crate::{
    Book, BookSettings, Command, ENGINE_NAME, Event, FailureKind, Level, PlayerFailure, PositionTable,
    PostBook, PreferCheck, Purpose, SearchInfo, SearchLimits,
};

/// The least time a timed search spends checking the PostBook's preferred move.
const VERIFY_MIN_TIME: Duration = Duration::from_millis(20);

/// What travels from the handle to the thread.
enum Request {
    /// A command other than `Go`.
    Command(Command),
    /// A search, with the flags that stop it and that say it still ponders.
    Go { id: u64, purpose: Purpose, limits: SearchLimits, stop: Arc<AtomicBool>, pondering: Arc<AtomicBool> },
    /// A new transposition table size in megabytes.
    Hash(usize),
    /// The number of threads a search runs on.
    Threads(usize),
    /// Play weakened (UCI's `UCI_LimitStrength`) or at full strength.
    LimitStrength(bool),
    /// The rating to play at when weakened (UCI's `UCI_Elo`).
    Elo(u32),
}

/// The owner's side of one engine thread. Dropping it stops the search and ends the thread.
pub struct EngineHandle {
    requests: Sender<Request>,
    events: Receiver<Event>,
    /// The thread's own way to report, also used by the handle for messages of its own.
    event_tx: Sender<Event>,
    /// The stop flag of the latest `Go`; setting it ends that search.
    current_stop: Mutex<Arc<AtomicBool>>,
    /// The pondering flag of the latest `Go`; clearing it starts that search's clock.
    current_ponder: Mutex<Arc<AtomicBool>>,
    thread: Option<JoinHandle<()>>,
}

impl EngineHandle {
    /// Spawns the engine thread; `notify` is called after every event is sent (the GUI
    /// passes a closure that requests a repaint).
    pub fn spawn(notify: impl Fn() + Send + Sync + 'static) -> EngineHandle {
        let (requests, request_rx) = unbounded();
        let (event_tx, events) = unbounded();
        let worker_tx = event_tx.clone();
        let thread = std::thread::Builder::new()
            .name("kibitz-engine".to_owned())
            .spawn(move || {
                let mut worker = Worker::new(worker_tx, Box::new(notify));
                worker.run(&request_rx);
            })
            .ok();
        EngineHandle {
            requests,
            events,
            event_tx,
            current_stop: Mutex::new(Arc::new(AtomicBool::new(false))),
            current_ponder: Mutex::new(Arc::new(AtomicBool::new(false))),
            thread,
        }
    }

    /// Sends a command. `Command::Stop` also sets the stop flag at once so a running search
    /// ends within milliseconds, and `Command::PonderHit` starts the running search's clock
    /// at once; a `Go` stops the previous search first.
    pub fn send(&self, cmd: Command) {
        let request = match cmd {
            Command::Go { id, purpose, limits } => {
                let stop = Arc::new(AtomicBool::new(false));
                let pondering = Arc::new(AtomicBool::new(limits.ponder));
                let mut current = self.current_stop.lock().unwrap_or_else(PoisonError::into_inner);
                current.store(true, Ordering::Relaxed);
                *current = Arc::clone(&stop);
                *self.current_ponder.lock().unwrap_or_else(PoisonError::into_inner) = Arc::clone(&pondering);
                Request::Go { id, purpose, limits, stop, pondering }
            }
            Command::PonderHit => {
                self.current_ponder
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .store(false, Ordering::Relaxed);
                Request::Command(cmd)
            }
            Command::Stop | Command::Quit => {
                self.stop_current();
                Request::Command(cmd)
            }
            other => Request::Command(other),
        };
        // The thread only goes away when the handle is dropped, so a failed send is moot.
        let _ = self.requests.send(request);
    }

    /// Resizes the transposition table to `megabytes` (1 to 1024); takes effect once the
    /// running search, if any, has ended.
    pub fn set_hash_size(&self, megabytes: usize) {
        let _ = self.requests.send(Request::Hash(megabytes));
    }

    /// Searches on `threads` threads (at least 1; see [`Engine::set_threads`]) from the next
    /// search on.
    pub fn set_threads(&self, threads: usize) {
        let _ = self.requests.send(Request::Threads(threads));
    }

    /// Plays at `level` from the next search on: weakened to its rating, or at full strength.
    /// Only searches for play are weakened; analysis, hints and the rest keep full strength.
    pub fn set_level(&self, level: Level) {
        if let Level::Elo(elo) = level {
            self.set_elo(elo);
        }
        self.limit_strength(level != Level::Full);
    }

    /// UCI's `UCI_LimitStrength`: whether searches for play are weakened to the rating of
    /// [`EngineHandle::set_elo`].
    pub fn limit_strength(&self, on: bool) {
        let _ = self.requests.send(Request::LimitStrength(on));
    }

    /// UCI's `UCI_Elo`: the rating weakened searches play at (see [`Level::strength`]).
    pub fn set_elo(&self, elo: u32) {
        let _ = self.requests.send(Request::Elo(elo));
    }

    /// Queues an event of the handle's own (a refused option), as if the thread had sent it.
    pub(crate) fn report(&self, event: Event) {
        let _ = self.event_tx.send(event);
    }

    /// Next event if any, never blocks.
    pub fn try_recv(&self) -> Option<Event> {
        self.events.try_recv().ok()
    }

    /// Waits up to `timeout` for an event.
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Event> {
        self.events.recv_timeout(timeout).ok()
    }

    fn stop_current(&self) {
        self.current_stop.lock().unwrap_or_else(PoisonError::into_inner).store(true, Ordering::Relaxed);
    }
}

impl Drop for EngineHandle {
    fn drop(&mut self) {
        self.stop_current();
        let _ = self.requests.send(Request::Command(Command::Quit));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The thread's side: the engine, the game to search and the way back to the owner.
struct Worker {
    engine: Engine,
    start: Chess,
    moves: Vec<Move>,
    events: Sender<Event>,
    notify: Box<dyn Fn() + Send + Sync>,
    /// Requests that arrived while an infinite search waited for its stop.
    pending: VecDeque<Request>,
    /// The opening book and how it chooses.
    book: Option<(Arc<Book>, BookSettings)>,
    /// Learned positions that seed the transposition table before each search.
    positions: Option<Arc<PositionTable>>,
    /// The PostBook, whose "avoid" moves are left out after the book and whose preferred
    /// move is played when the search finds it good enough.
    postbook: Option<Arc<PostBook>>,
    /// Whether searches for play are weakened to `elo`.
    limit_strength: bool,
    /// The rating weakened searches play at.
    elo: u32,
    rng: StdRng,
    /// The evaluation `Command::UseNetwork` and `Command::SetNetworkFile` chose.
    evaluation: NetworkChoice,
}

impl Worker {
    fn new(events: Sender<Event>, notify: Box<dyn Fn() + Send + Sync>) -> Worker {
        Worker {
            engine: Engine::default(),
            start: Chess::default(),
            moves: Vec::new(),
            events,
            notify,
            pending: VecDeque::new(),
            book: None,
            positions: None,
            postbook: None,
            limit_strength: false,
            elo: crate::ELO_RANGE.0,
            rng: StdRng::from_os_rng(),
            evaluation: NetworkChoice::default(),
        }
    }

    /// Hands the engine the network the settings call for, or none.
    fn choose_network(&mut self) {
        self.engine.set_network(self.evaluation.network());
    }

    fn run(&mut self, requests: &Receiver<Request>) {
        loop {
            let request = match self.pending.pop_front() {
                Some(request) => request,
                None => match requests.recv() {
                    Ok(request) => request,
                    Err(_) => return,
                },
            };
            match request {
                Request::Command(Command::Quit) => return,
                Request::Command(Command::NewGame) => self.engine.new_game(),
                Request::Command(Command::Position { start, moves }) => {
                    self.start = start;
                    self.moves = moves;
                }
                Request::Command(Command::ClearHash) => self.engine.clear_hash(),
                Request::Command(Command::SetTablebases(tables)) => self.engine.set_tablebases(tables),
                Request::Command(Command::SetDrawScore(cp)) => self.engine.set_draw_score(cp),
                Request::Command(Command::UseNetwork(on)) => {
                    self.evaluation.on = on;
                    self.choose_network();
                }
                Request::Command(Command::SetNetworkFile(network)) => {
                    self.evaluation.file = network;
                    self.choose_network();
                }
                Request::Command(Command::Evaluate { id }) => {
                    let mut pos = self.start.clone();
                    for &m in &self.moves {
                        pos.play_unchecked(m);
                    }
                    let network = self.engine.network().map(|n| n.evaluate_white(&pos));
                    let text = crate::Breakdown { network, ..crate::breakdown(&pos) }.to_string();
                    self.emit(Event::Evaluation { id, text: Some(text) });
                }
                Request::Command(Command::Ping { id }) => self.emit(Event::Pong { id }),
                Request::Command(Command::SetBook { book, settings, seed }) => {
                    self.book = book.map(|b| (b, settings));
                    if let Some(seed) = seed {
                        self.rng = StdRng::seed_from_u64(seed);
                    }
                }
                Request::Command(Command::SetLearning { positions, postbook }) => {
                    self.positions = positions;
                    self.postbook = postbook;
                }
                Request::Command(
                    Command::Stop | Command::Go { .. } | Command::PonderHit | Command::SetOption { .. },
                ) => {}
                Request::Hash(megabytes) => self.engine.set_hash_size(megabytes),
                Request::Threads(threads) => self.engine.set_threads(threads),
                Request::LimitStrength(on) => self.limit_strength = on,
                Request::Elo(elo) => self.elo = elo,
                Request::Go { id, purpose, limits, stop, pondering } => {
                    self.go(id, purpose, &limits, &stop, &pondering, requests)
                }
            }
        }
    }

    fn emit(&self, event: Event) {
        if self.events.send(event).is_ok() {
            (self.notify)();
        }
    }

    /// The position to search and the hashes of the game's earlier positions. Moves from
    /// the first illegal one on are ignored.
    fn game(&self) -> (Chess, Vec<u64>) {
        let mut pos = self.start.clone();
        let mut history = Vec::with_capacity(self.moves.len());
        for &m in &self.moves {
            if !pos.is_legal(m) {
                break;
            }
            history.push(position_hash(&pos));
            pos.play_unchecked(m);
        }
        (pos, history)
    }

    fn go(
        &mut self,
        id: u64,
        purpose: Purpose,
        limits: &SearchLimits,
        stop: &AtomicBool,
        pondering: &AtomicBool,
        requests: &Receiver<Request>,
    ) {
        let (pos, history) = self.game();
        let started = Instant::now();
        let mut limits = limits.clone();
        // The book and learning steer play only; a ponder search waits for the hit, which the
        // book could not.
        let playing = purpose.uses_book() && !limits.ponder;
        // Only play is weakened: a hint or an analysis shows the best Kibitz can find.
        let strength = if self.limit_strength && purpose == Purpose::Play {
            Level::Elo(self.elo).strength()
        } else {
            None
        };
        // Out of book, never into a move the book forbids nor one the PostBook advises against.
        let mut avoid = Vec::new();
        let mut preferred = None;
        if playing {
            if let Some((book, settings)) = &self.book {
                match book.choose(&pos, settings, &mut self.rng) {
                    Some(choice) if choice.search_only => {
                        limits.searchmoves = choice.playable().map(|c| c.mv).collect();
                        self.emit(Event::BookMove { id, choice });
                    }
                    Some(choice) => {
                        let best = Some(choice.mv);
                        self.emit(Event::BookMove { id, choice });
                        self.emit(Event::BestMove {
                            id,
                            best,
                            ponder: None,
                            nodes: 0,
                            time: started.elapsed(),
                        });
                        return;
                    }
                    None => avoid = book.avoid_list(&pos, settings),
                }
            }
            if limits.searchmoves.is_empty()
                && let Some(postbook) = &self.postbook
            {
                avoid.extend(postbook.avoid(&pos));
                // A weakened level chooses among its own lines, not the PostBook's favourite.
                preferred =
                    postbook.preferred(&pos).filter(|(m, _)| !avoid.contains(m) && strength.is_none());
            }
        }
        if !avoid.is_empty() {
            let allowed: Vec<Move> = pos.legal_moves().into_iter().filter(|m| !avoid.contains(m)).collect();
            if !allowed.is_empty() {
                limits.searchmoves = allowed;
            }
        }
        // A fixed time per move is shared: two thirds for the search, the rest for checking
        // the PostBook's preferred move.
        let movetime = limits.movetime;
        if preferred.is_some()
            && let Some(time) = movetime
        {
            limits.movetime = Some(time * 2 / 3);
        }
        if let Some(positions) = &self.positions {
            self.engine.seed(positions.entries());
        }
        let limits = &limits;
        let mut listener = Reporter { id, events: &self.events, notify: &self.notify };
        let (engine, rng) = (&mut self.engine, &mut self.rng);
        let searched = catch_unwind(AssertUnwindSafe(|| match strength {
            Some(strength) => {
                strength.search(engine, &pos, &history, limits, stop, pondering, &mut listener, rng)
            }
            None => engine.search_pondering(&pos, &history, limits, stop, pondering, &mut listener),
        }));
        let outcome = match searched {
            Ok(outcome) => outcome,
            Err(panic) => {
                // A bug in the search must not take the thread down, nor be hidden.
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                let fen = shakmaty::fen::Fen::from_position(&pos, shakmaty::EnPassantMode::Legal);
                self.emit(Event::Failed(PlayerFailure {
                    engine: ENGINE_NAME.into(),
                    kind: FailureKind::Panicked(format!("{why} (searching {fen})")),
                    last_lines: Vec::new(),
                }));
                self.emit(Event::BestMove {
                    id,
                    best: None,
                    ponder: None,
                    nodes: 0,
                    time: started.elapsed(),
                });
                return;
            }
        };
        let (mut best, mut ponder, mut nodes) = (outcome.best, outcome.ponder, outcome.nodes);
        if let (Some((preferred, stats)), Some(search_best), Some(info)) = (preferred, best, outcome.info) {
            let verified = if preferred == search_best {
                None
            } else {
                let spent = started.elapsed();
                let time = match movetime {
                    Some(time) => Some(time.saturating_sub(spent)),
                    None if limits.wtime.is_some() || limits.btime.is_some() => Some(spent / 2),
                    None => None,
                };
                self.verify(&pos, &history, limits, stop, preferred, info.depth, time)
            };
            let score = verified.as_ref().and_then(|v| v.info.as_ref()).map(|i| i.score);
            let check = PreferCheck::decide(preferred, stats, search_best, info.score, score);
            if let Some(verified) = verified {
                nodes += verified.nodes;
                if check.played {
                    // The preferred move's own line last, so that the final report matches the move.
                    if let Some(line) = verified.info {
                        self.emit(Event::Info { id, info: line });
                    }
                    (best, ponder) = (Some(preferred), verified.ponder);
                }
            }
            self.emit(Event::PostBook { id, check });
        }
        // UCI wants the best move of an infinite or pondering search only once it is
        // stopped (or, when pondering, once the ponder move is played).
        while !stop.load(Ordering::Relaxed) && (limits.infinite || pondering.load(Ordering::Relaxed)) {
            match requests.recv() {
                Ok(request) => self.pending.push_back(request),
                Err(_) => break,
            }
        }
        self.emit(Event::BestMove { id, best, ponder, nodes, time: started.elapsed() });
    }

    /// Searches only the PostBook's preferred move `m`, as deep as the normal search went
    /// (`depth`), silently, within `time` if given (at least [`VERIFY_MIN_TIME`]): the rest of
    /// a fixed time per move, or half the time the normal search took from a clock. `None`
    /// when the search is stopped, or when the check does not complete `depth` in time: an
    /// unverified move is not played.
    #[allow(clippy::too_many_arguments)]
    fn verify(
        &mut self,
        pos: &Chess,
        history: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
        m: Move,
        depth: u32,
        time: Option<Duration>,
    ) -> Option<SearchOutcome> {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let verify = SearchLimits {
            depth: Some(depth),
            nodes: limits.nodes,
            movetime: time.map(|t| t.max(VERIFY_MIN_TIME)),
            searchmoves: vec![m],
            move_overhead: limits.move_overhead,
            ..SearchLimits::default()
        };
        let not_pondering = AtomicBool::new(false);
        let engine = &mut self.engine;
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            engine.search_pondering(pos, history, &verify, stop, &not_pondering, &mut |_: &SearchInfo| {})
        }))
        .ok()?;
        let complete = outcome.best == Some(m) && outcome.info.as_ref().is_some_and(|i| i.depth >= depth);
        complete.then_some(outcome)
    }
}

/// Turns a search's progress into events.
struct Reporter<'a> {
    id: u64,
    events: &'a Sender<Event>,
    notify: &'a (dyn Fn() + Send + Sync),
}

impl Listener for Reporter<'_> {
    fn info(&mut self, info: &SearchInfo) {
        if self.events.send(Event::Info { id: self.id, info: info.clone() }).is_ok() {
            (self.notify)();
        }
    }

    fn currmove(&mut self, depth: u32, currmove: Move, number: u32) {
        if self.events.send(Event::CurrMove { id: self.id, depth, currmove, number }).is_ok() {
            (self.notify)();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait_for_best(handle: &EngineHandle, id: u64) -> Option<Move> {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Some(Event::BestMove { id: got, best, .. }) =
                handle.recv_timeout(Duration::from_millis(100))
                && got == id
            {
                return best;
            }
        }
        panic!("no best move for search {id}");
    }

    #[test]
    fn plays_from_the_book_and_respects_its_avoid_list() {
        let start = Chess::default();
        let find = |uci: &str| {
            start
                .legal_moves()
                .into_iter()
                .find(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string() == uci)
        };
        let (e4, d4) = (find("e2e4").expect("legal"), find("d2d4").expect("legal"));
        let mut book = Book::new();
        let key = crate::book_key(&start);
        book.entry_mut(key, crate::encode_move(e4)).fixed.games = 10;
        let handle = EngineHandle::spawn(|| {});
        let settings = BookSettings::default();
        handle.send(Command::SetBook { book: Some(Arc::new(book.clone())), settings, seed: Some(1) });
        handle.send(Command::Go { id: 1, purpose: Purpose::Play, limits: SearchLimits::depth(3) });
        match handle.recv_timeout(Duration::from_secs(10)) {
            Some(Event::BookMove { id: 1, choice }) => assert_eq!(choice.mv, e4),
            other => panic!("expected a book move, got {other:?}"),
        }
        assert_eq!(wait_for_best(&handle, 1), Some(e4));

        // A user value of 0 forbids e4; with d4 forbidden as well the search must avoid both.
        book.entry_mut(key, crate::encode_move(e4)).user = Some(0);
        book.entry_mut(key, crate::encode_move(d4)).user = Some(0);
        handle.send(Command::SetBook { book: Some(Arc::new(book)), settings, seed: Some(1) });
        handle.send(Command::Go { id: 2, purpose: Purpose::Play, limits: SearchLimits::depth(4) });
        let best = wait_for_best(&handle, 2).expect("a move");
        assert!(best != e4 && best != d4, "played a forbidden move");
    }

    #[test]
    fn only_play_consults_the_book() {
        // A book with one move, a3, that no search would choose.
        let start = Chess::default();
        let a3 = start.legal_moves().into_iter().find(|m| m.to().to_string() == "a3").expect("a2a3 is legal");
        let mut book = Book::new();
        book.entry_mut(crate::book_key(&start), crate::encode_move(a3)).fixed.games = 10;
        let handle = EngineHandle::spawn(|| {});
        let settings = BookSettings::default();
        handle.send(Command::SetBook { book: Some(Arc::new(book)), settings, seed: Some(1) });
        // A fixed-time hint, annotation or test-suite search searches; it never returns the
        // book's move after zero nodes.
        for (id, purpose) in
            [(1, Purpose::Hint), (2, Purpose::Annotate), (3, Purpose::TestSuite), (4, Purpose::Analyse)]
        {
            let limits = SearchLimits::movetime(Duration::from_millis(100));
            handle.send(Command::Go { id, purpose, limits });
            loop {
                match handle.recv_timeout(Duration::from_secs(10)) {
                    Some(Event::BookMove { .. }) => panic!("{purpose:?} consulted the book"),
                    Some(Event::BestMove { id: got, best, nodes, .. }) if got == id => {
                        assert!(nodes > 0, "{purpose:?} did not search");
                        assert_ne!(best, Some(a3));
                        break;
                    }
                    Some(_) => {}
                    None => panic!("no answer for {purpose:?}"),
                }
            }
        }
        handle.send(Command::Go {
            id: 5,
            purpose: Purpose::Play,
            limits: SearchLimits::movetime(Duration::from_millis(100)),
        });
        assert_eq!(wait_for_best(&handle, 5), Some(a3), "play uses the book");
    }

    #[test]
    fn searches_and_reports_with_ids() {
        let handle = EngineHandle::spawn(|| {});
        handle.send(Command::Go { id: 7, purpose: Purpose::Play, limits: SearchLimits::depth(3) });
        let best = wait_for_best(&handle, 7).expect("a move");
        assert!(Chess::default().is_legal(best));
    }

    #[test]
    fn a_new_go_stops_the_old_one() {
        let handle = EngineHandle::spawn(|| {});
        let infinite = SearchLimits { infinite: true, ..Default::default() };
        handle.send(Command::Go { id: 1, purpose: Purpose::Analyse, limits: infinite });
        std::thread::sleep(Duration::from_millis(50));
        handle.send(Command::Go { id: 2, purpose: Purpose::Play, limits: SearchLimits::depth(2) });
        assert!(wait_for_best(&handle, 1).is_some());
        assert!(wait_for_best(&handle, 2).is_some());
    }

    #[test]
    fn illegal_tail_of_moves_is_ignored() {
        let handle = EngineHandle::spawn(|| {});
        let start = Chess::default();
        let e4 = start.legal_moves().into_iter().find(|m| m.to().to_string() == "e4");
        let e4 = e4.expect("e2e4 is legal");
        // The second move is White's again: illegal, and so is everything after it.
        handle.send(Command::Position { start: start.clone(), moves: vec![e4, e4, e4] });
        handle.send(Command::Go { id: 3, purpose: Purpose::Play, limits: SearchLimits::depth(2) });
        let best = wait_for_best(&handle, 3).expect("a move");
        let after = start.play(e4).expect("legal");
        assert!(after.is_legal(best));
    }

    #[test]
    fn ponder_search_answers_after_ponderhit() {
        let handle = EngineHandle::spawn(|| {});
        let limits = SearchLimits { ponder: true, depth: Some(2), ..Default::default() };
        handle.send(Command::Go { id: 5, purpose: Purpose::Play, limits });
        // The depth is reached at once, but the move is held back until the ponder hit.
        std::thread::sleep(Duration::from_millis(300));
        while let Some(event) = handle.try_recv() {
            assert!(!matches!(event, Event::BestMove { .. }), "best move while pondering");
        }
        handle.send(Command::PonderHit);
        assert!(wait_for_best(&handle, 5).is_some());
    }

    #[test]
    fn two_threads_ponder_and_stop_like_one() {
        let handle = EngineHandle::spawn(|| {});
        handle.set_threads(2);
        let limits = SearchLimits { ponder: true, depth: Some(3), ..Default::default() };
        handle.send(Command::Go { id: 1, purpose: Purpose::Play, limits });
        std::thread::sleep(Duration::from_millis(300));
        while let Some(event) = handle.try_recv() {
            assert!(!matches!(event, Event::BestMove { .. }), "best move while pondering");
        }
        handle.send(Command::PonderHit);
        assert!(wait_for_best(&handle, 1).is_some());
        let infinite = SearchLimits { infinite: true, ..Default::default() };
        handle.send(Command::Go { id: 2, purpose: Purpose::Analyse, limits: infinite });
        std::thread::sleep(Duration::from_millis(200));
        let stopped = Instant::now();
        handle.send(Command::Stop);
        let best = wait_for_best(&handle, 2).expect("a move");
        assert!(Chess::default().is_legal(best));
        assert!(stopped.elapsed() < Duration::from_secs(2), "took {:?} to stop", stopped.elapsed());
    }

    #[test]
    fn stop_right_after_go_still_answers() {
        let handle = EngineHandle::spawn(|| {});
        let infinite = SearchLimits { infinite: true, ..Default::default() };
        handle.send(Command::Go { id: 4, purpose: Purpose::Analyse, limits: infinite });
        handle.send(Command::Stop);
        assert!(wait_for_best(&handle, 4).is_some());
    }

    #[test]
    fn postbook_avoid_moves_are_not_played() {
        let start = Chess::default();
        let moves = start.legal_moves();
        let a3 = moves.iter().copied().find(|m| m.to().to_string() == "a3").expect("a2a3 is legal");
        // Two lost games and a bad score for every first move but a3.
        let mut text = String::new();
        for &m in moves.iter().filter(|&&m| m != a3) {
            text += &format!("{:016x} {} 2 0 0 2 -400\n", crate::book_key(&start), crate::encode_move(m));
        }
        let postbook = PostBook::from_text(&text).expect("valid PostBook text");
        assert_eq!(postbook.avoid(&start).len(), moves.len() - 1);
        let handle = EngineHandle::spawn(|| {});
        handle.send(Command::SetLearning { positions: None, postbook: Some(Arc::new(postbook)) });
        handle.send(Command::Go { id: 1, purpose: Purpose::Play, limits: SearchLimits::depth(3) });
        assert_eq!(wait_for_best(&handle, 1), Some(a3));
        // Analysis ignores the PostBook.
        let analysis = SearchLimits { searchmoves: moves.to_vec(), ..SearchLimits::depth(2) };
        handle.send(Command::Go { id: 2, purpose: Purpose::Analyse, limits: analysis });
        assert_ne!(wait_for_best(&handle, 2), Some(a3));
        // When every move is to be avoided, the search still plays one.
        text += &format!("{:016x} {} 2 0 0 2 -400\n", crate::book_key(&start), crate::encode_move(a3));
        let postbook = PostBook::from_text(&text).expect("valid PostBook text");
        handle.send(Command::SetLearning { positions: None, postbook: Some(Arc::new(postbook)) });
        handle.send(Command::Go { id: 3, purpose: Purpose::Play, limits: SearchLimits::depth(2) });
        assert!(wait_for_best(&handle, 3).is_some());
    }

    #[test]
    fn learned_positions_seed_every_search() {
        // WAC.011: depth 1 plays Nc5, depth 4 finds Bxc6.
        let fen: shakmaty::fen::Fen =
            "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1".parse().expect("test FEN parses");
        let root: Chess = fen.into_position(shakmaty::CastlingMode::Standard).expect("legal");
        let handle = EngineHandle::spawn(|| {});
        handle.send(Command::Position { start: root.clone(), moves: Vec::new() });
        handle.send(Command::Go { id: 1, purpose: Purpose::Play, limits: SearchLimits::depth(4) });
        let chosen = wait_for_best(&handle, 1).expect("a move");
        let after = root.clone().play(chosen).expect("legal");
        let mut table = PositionTable::new(8);
        table.insert(crate::LearnedPosition { key: crate::book_key(&after), score: 3000, depth: 40, mv: 0 });
        handle.send(Command::NewGame);
        handle.send(Command::SetLearning { positions: Some(Arc::new(table)), postbook: None });
        handle.send(Command::Go { id: 2, purpose: Purpose::Play, limits: SearchLimits::depth(4) });
        // Seeded again after the table was cleared by the new game.
        assert_ne!(wait_for_best(&handle, 2), Some(chosen), "the learned position was ignored");
    }
}
