//! External engines through the `Player` interface: Debian's Stockfish and Kibitz's own
//! program over UCI and xboard, and fake engines (tests/engines/) that crash, hang, cheat,
//! babble or are no engine at all.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kibitz_engine::{
    Command, EngineConfig, EngineOption, Event, ExternalEngine, FailureKind, OptionKind, Player,
    PlayerFailure, Protocol, Purpose, SearchInfo, SearchLimits,
};
use shakmaty::{Chess, Move, Position, uci::UciMove};

const STOCKFISH: &str = "/usr/games/stockfish";

fn fake(script: &str) -> EngineConfig {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines").join(script);
    EngineConfig { name: format!("Fake {script}"), path, protocol: Some(Protocol::Uci), ..Default::default() }
}

fn kibitz(protocol: Option<Protocol>) -> EngineConfig {
    EngineConfig {
        name: "Kibitz external".into(),
        path: env!("CARGO_BIN_EXE_kibitz-engine").into(),
        protocol,
        ..Default::default()
    }
}

/// Waits for the first event `pick` accepts; panics with every event seen after `timeout`.
fn wait_for<T>(player: &dyn Player, timeout: Duration, mut pick: impl FnMut(&Event) -> Option<T>) -> T {
    let deadline = Instant::now() + timeout;
    let mut seen = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        if let Some(event) = player.recv_timeout(left.min(Duration::from_millis(100))) {
            if let Some(found) = pick(&event) {
                return found;
            }
            seen.push(event);
        }
    }
    panic!("{}: nothing expected within {timeout:?}; events: {seen:#?}", player.name());
}

fn ready(player: &dyn Player) -> (String, Vec<EngineOption>) {
    wait_for(player, Duration::from_secs(15), |e| match e {
        Event::Ready { name, options } => Some((name.clone(), options.clone())),
        Event::Failed(failure) => panic!("{failure}"),
        _ => None,
    })
}

fn failure(player: &dyn Player, timeout: Duration) -> PlayerFailure {
    wait_for(player, timeout, |e| match e {
        Event::Failed(failure) => Some(failure.clone()),
        _ => None,
    })
}

/// The best move of search `id` (failures other than illegal moves are fatal here).
fn best_move(player: &dyn Player, id: u64, timeout: Duration) -> Option<Move> {
    wait_for(player, timeout, |e| match e {
        Event::BestMove { id: got, best, .. } if *got == id => Some(*best),
        Event::Failed(failure) if failure.is_fatal() => panic!("{failure}"),
        _ => None,
    })
}

/// The start position after `moves` (UCI notation), with the moves.
fn after(moves: &[&str]) -> (Chess, Vec<Move>) {
    let mut pos = Chess::default();
    let mut played = Vec::new();
    for text in moves {
        let m = text.parse::<UciMove>().expect("uci move").to_move(&pos).expect("legal move");
        pos.play_unchecked(m);
        played.push(m);
    }
    (pos, played)
}

fn go(id: u64, purpose: Purpose, limits: SearchLimits) -> Command {
    Command::Go { id, purpose, limits }
}

fn set_position(player: &dyn Player, moves: &[&str]) -> Chess {
    let (pos, moves) = after(moves);
    player.send(Command::Position { start: Chess::default(), moves });
    pos
}

/// Whether `line` is legal from `pos`.
fn legal_line(pos: &Chess, line: &[Move]) -> bool {
    let mut pos = pos.clone();
    line.iter().all(|&m| {
        let legal = pos.is_legal(m);
        pos.play_unchecked(m);
        legal
    })
}

#[test]
fn stockfish_plays_and_analyses_over_uci() {
    assert!(
        std::path::Path::new(STOCKFISH).exists(),
        "{STOCKFISH} is missing: install Debian's stockfish package (.ci/run does) to run this test"
    );
    let mut config = EngineConfig::from_path(STOCKFISH);
    config.protocol = Some(Protocol::Uci);
    config.options = vec![("Hash".into(), "16".into()), ("Threads".into(), "many".into())];
    let sf = ExternalEngine::spawn(config, || {});
    let mut refused = None;
    let (name, options) = wait_for(&sf, Duration::from_secs(15), |e| match e {
        Event::Ready { name, options } => Some((name.clone(), options.clone())),
        Event::Message(text) => {
            refused = Some(text.clone());
            None
        }
        Event::Failed(failure) => panic!("{failure}"),
        _ => None,
    });
    assert!(name.starts_with("Stockfish"), "{name}");
    let hash = options.iter().find(|o| o.name == "Hash").expect("Hash is declared");
    assert!(matches!(hash.kind, OptionKind::Spin { min: 1, .. }), "{hash:?}");
    assert!(options.iter().any(|o| o.name == "Clear Hash" && o.kind == OptionKind::Button));
    assert_eq!(sf.options(), options);
    assert_eq!(sf.protocol(), Some(Protocol::Uci));
    let refused = refused.expect("a bad option value is reported");
    assert!(refused.contains("stockfish") && refused.contains("Threads"), "{refused}");

    sf.send(Command::NewGame);
    let pos = set_position(&sf, &["e2e4", "e7e5", "g1f3"]);
    sf.send(go(1, Purpose::Play, SearchLimits::depth(8)));
    let best = best_move(&sf, 1, Duration::from_secs(30)).expect("a move");
    assert!(pos.is_legal(best));

    // Three lines of analysis until stopped.
    sf.send(go(2, Purpose::Analyse, SearchLimits { infinite: true, multipv: Some(3), ..Default::default() }));
    let mut lines: [Option<SearchInfo>; 3] = [None, None, None];
    wait_for(&sf, Duration::from_secs(30), |e| match e {
        Event::Info { id: 2, info } if (1..=3).contains(&info.multipv) => {
            assert!(legal_line(&pos, &info.pv), "{info:?}");
            lines[info.multipv as usize - 1] = Some(info.clone());
            lines.iter().all(|l| l.as_ref().is_some_and(|l| l.depth >= 6 && !l.pv.is_empty())).then_some(())
        }
        Event::BestMove { .. } => panic!("the analysis ended by itself"),
        _ => None,
    });
    let firsts: Vec<Move> = lines.iter().flatten().map(|l| l.pv[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{firsts:?}");
    let stopped = Instant::now();
    sf.send(Command::Stop);
    let best = best_move(&sf, 2, Duration::from_secs(5)).expect("a move");
    assert!(pos.is_legal(best));
    assert!(stopped.elapsed() < Duration::from_secs(2));

    // A new search while one runs stops it first: both end, in order.
    sf.send(go(3, Purpose::Analyse, SearchLimits { infinite: true, ..Default::default() }));
    sf.send(go(4, Purpose::Play, SearchLimits::depth(6)));
    let mut ended = Vec::new();
    wait_for(&sf, Duration::from_secs(30), |e| match e {
        Event::BestMove { id, best, .. } => {
            assert!(best.is_some_and(|m| pos.is_legal(m)));
            ended.push(*id);
            (*id == 4).then_some(())
        }
        _ => None,
    });
    assert_eq!(ended, [3, 4]);

    // Pondering: the search counts on the clock only after the ponder hit.
    let clock = Duration::from_secs(60);
    let limits = SearchLimits { ponder: true, wtime: Some(clock), btime: Some(clock), ..Default::default() };
    sf.send(go(5, Purpose::Play, limits));
    let pondering = Instant::now() + Duration::from_millis(300);
    while let Some(left) = pondering.checked_duration_since(Instant::now()) {
        let event = sf.recv_timeout(left);
        assert!(!matches!(event, Some(Event::BestMove { .. })), "no move before the ponder hit");
    }
    sf.send(Command::PonderHit);
    assert!(pos.is_legal(best_move(&sf, 5, Duration::from_secs(30)).expect("a move")));
    sf.send(Command::Quit);
}

#[test]
fn kibitz_plays_as_an_external_uci_engine_and_is_detected_as_one() {
    for protocol in [Some(Protocol::Uci), None] {
        let engine = ExternalEngine::spawn(kibitz(protocol), || {});
        let (name, options) = ready(&engine);
        assert!(name.contains("Kibitz"), "{name}");
        assert!(options.iter().any(|o| o.name == "Hash"));
        assert_eq!(engine.protocol(), Some(Protocol::Uci));
        engine.send(Command::NewGame);
        let pos = set_position(&engine, &["d2d4", "g8f6", "c2c4", "e7e6"]);
        engine.send(go(7, Purpose::Play, SearchLimits::depth(4)));
        assert!(pos.is_legal(best_move(&engine, 7, Duration::from_secs(30)).expect("a move")));
    }
}

#[test]
fn kibitz_plays_and_analyses_as_an_external_xboard_engine() {
    let engine = ExternalEngine::spawn(kibitz(Some(Protocol::Xboard)), || {});
    let (name, options) = ready(&engine);
    assert!(name.contains("Kibitz"), "{name}");
    assert_eq!(engine.protocol(), Some(Protocol::Xboard));
    assert!(options.iter().any(|o| o.name == "OwnBook" && o.kind == OptionKind::Check { default: false }));
    engine.send(Command::NewGame);

    // A depth-limited move after a few moves, then the game goes on with a move per second.
    let mut moves = vec!["e2e4", "c7c5", "g1f3"];
    let pos = set_position(&engine, &moves);
    engine.send(go(1, Purpose::Play, SearchLimits::depth(3)));
    let best = best_move(&engine, 1, Duration::from_secs(30)).expect("a move");
    assert!(pos.is_legal(best));
    let reply = best.to_uci(shakmaty::CastlingMode::Standard).to_string();
    moves.extend([reply.as_str(), "d2d4"]);
    let pos = set_position(&engine, &moves);
    let asked = Instant::now();
    engine.send(go(2, Purpose::Play, SearchLimits::movetime(Duration::from_secs(1))));
    let best = best_move(&engine, 2, Duration::from_secs(10)).expect("a move");
    assert!(pos.is_legal(best));
    assert!(asked.elapsed() >= Duration::from_millis(500), "st 1 gives it about a second");

    // Analysis until stopped: the best move is the first move of the last line.
    engine.send(go(3, Purpose::Analyse, SearchLimits { infinite: true, ..Default::default() }));
    let mut last = Vec::new();
    wait_for(&engine, Duration::from_secs(30), |e| match e {
        Event::Info { id: 3, info } => {
            assert!(legal_line(&pos, &info.pv), "{info:?}");
            last.clone_from(&info.pv);
            (info.depth >= 4 && !info.pv.is_empty()).then_some(())
        }
        _ => None,
    });
    engine.send(Command::Stop);
    let best = wait_for(&engine, Duration::from_secs(5), |e| match e {
        Event::Info { id: 3, info } if !info.pv.is_empty() => {
            last.clone_from(&info.pv);
            None
        }
        Event::BestMove { id: 3, best, .. } => Some(*best),
        _ => None,
    });
    assert_eq!(best, last.first().copied());

    // The engine is back in force mode, in step: it plays on from the same position.
    engine.send(go(4, Purpose::Play, SearchLimits::depth(2)));
    assert!(pos.is_legal(best_move(&engine, 4, Duration::from_secs(30)).expect("a move")));
    engine.send(Command::Quit);
}

#[test]
fn an_engine_that_refuses_uci_is_detected_as_an_xboard_engine() {
    let mut config = fake("xboard-only");
    config.protocol = None;
    config.args = vec![env!("CARGO_BIN_EXE_kibitz-engine").into()];
    let engine = ExternalEngine::spawn(config, || {});
    assert!(ready(&engine).0.contains("Kibitz"));
    assert_eq!(engine.protocol(), Some(Protocol::Xboard));
    let pos = set_position(&engine, &["g1f3", "d7d5"]);
    engine.send(go(1, Purpose::Play, SearchLimits::depth(3)));
    assert!(pos.is_legal(best_move(&engine, 1, Duration::from_secs(30)).expect("a move")));
}

#[test]
fn a_crash_is_reported_with_the_last_lines_and_the_engine_can_be_restarted() {
    let mut engine = ExternalEngine::spawn(fake("crash-at-third-go"), || {});
    assert_eq!(ready(&engine).0, "Crashy");
    let line = ["e2e4", "e7e5", "g1f3", "b8c6"];
    for (id, ply) in [(1, 0), (2, 1)] {
        let pos = set_position(&engine, &line[..ply]);
        engine.send(go(id, Purpose::Play, SearchLimits::depth(1)));
        assert!(pos.is_legal(best_move(&engine, id, Duration::from_secs(5)).expect("a move")));
    }
    set_position(&engine, &line[..2]);
    engine.send(go(3, Purpose::Play, SearchLimits::depth(1)));
    let failure = failure(&engine, Duration::from_secs(5));
    assert_eq!(failure.kind, FailureKind::Crashed(Some("exit status: 1".into())));
    assert!(failure.is_fatal());
    let text = failure.to_string();
    assert!(text.starts_with("Fake crash-at-third-go crashed"), "{text}");
    assert!(failure.last_lines.iter().any(|l| l == "info string about to fall over"), "{text}");
    assert!(failure.last_lines.iter().any(|l| l == "segmentation fault (pretend)"), "{text}");

    // A dead engine takes every call without panicking.
    engine.send(go(4, Purpose::Play, SearchLimits::depth(1)));
    engine.send(Command::Stop);
    assert!(
        engine.recv_timeout(Duration::from_millis(200)).is_none_or(|e| !matches!(e, Event::BestMove { .. }))
    );
    assert!(engine.try_recv().is_none());

    engine.restart();
    assert_eq!(ready(&engine).0, "Crashy");
    let pos = set_position(&engine, &[]);
    engine.send(go(5, Purpose::Play, SearchLimits::depth(1)));
    assert!(pos.is_legal(best_move(&engine, 5, Duration::from_secs(5)).expect("a move")));
}

#[test]
fn an_engine_that_does_not_stop_is_reported_hung() {
    let engine = ExternalEngine::spawn(fake("hang-after-handshake"), || {});
    ready(&engine);
    engine.send(go(1, Purpose::Analyse, SearchLimits { infinite: true, ..Default::default() }));
    wait_for(&engine, Duration::from_secs(5), |e| matches!(e, Event::Info { id: 1, .. }).then_some(()));
    let stopped = Instant::now();
    engine.send(Command::Stop);
    let failure = failure(&engine, Duration::from_secs(10));
    assert!(matches!(&failure.kind, FailureKind::Hung(what) if what.contains("stop")), "{failure}");
    assert!(stopped.elapsed() < Duration::from_secs(8));
    assert!(failure.to_string().starts_with("Fake hang-after-handshake stopped answering"), "{failure}");
    assert!(failure.last_lines.iter().any(|l| l == "thinking forever"), "{failure}");
}

#[test]
fn an_illegal_move_is_reported_and_the_engine_plays_on() {
    let engine = ExternalEngine::spawn(fake("illegal-move"), || {});
    ready(&engine);
    let pos = set_position(&engine, &[]);
    engine.send(go(1, Purpose::Play, SearchLimits::depth(3)));
    let pv = wait_for(&engine, Duration::from_secs(5), |e| match e {
        Event::Info { id: 1, info } => Some(info.pv.clone()),
        _ => None,
    });
    assert_eq!(pv.len(), 2, "the line is cut before its illegal third move: {pv:?}");
    let failure = failure(&engine, Duration::from_secs(5));
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(failure.kind, FailureKind::IllegalMove { sent: "e2e5".into(), fen: fen.into() });
    assert!(!failure.is_fatal());
    assert!(failure.to_string().starts_with("Fake illegal-move played an illegal move, e2e5"), "{failure}");
    assert_eq!(best_move(&engine, 1, Duration::from_secs(5)), None);
    engine.send(go(2, Purpose::Play, SearchLimits::depth(3)));
    let best = best_move(&engine, 2, Duration::from_secs(5)).expect("a move");
    assert!(pos.is_legal(best));
}

#[test]
fn garbage_between_valid_answers_is_ignored() {
    let mut config = fake("garbage");
    config.protocol = None;
    let engine = ExternalEngine::spawn(config, || {});
    let (name, options) = ready(&engine);
    assert_eq!(name, "Noisy");
    assert_eq!(options.len(), 1, "the malformed option is left out: {options:?}");
    set_position(&engine, &[]);
    engine.send(go(1, Purpose::Play, SearchLimits::depth(1)));
    let (best, ponder) = wait_for(&engine, Duration::from_secs(10), |e| match e {
        Event::BestMove { id: 1, best, ponder, .. } => Some((*best, *ponder)),
        Event::Failed(failure) => panic!("{failure}"),
        _ => None,
    });
    let (_, expected) = after(&["e2e4", "e7e5"]);
    assert_eq!((best, ponder), (Some(expected[0]), Some(expected[1])));
}

#[test]
fn a_program_that_is_no_engine_is_reported() {
    let mut config = fake("not-an-engine");
    config.protocol = None;
    let engine = ExternalEngine::spawn(config, || {});
    let failure = failure(&engine, Duration::from_secs(15));
    assert_eq!(failure.kind, FailureKind::NoProtocol);
    assert!(failure.to_string().starts_with("Fake not-an-engine does not speak UCI or xboard"), "{failure}");
    assert!(failure.last_lines.iter().any(|l| l == "hello, I am not a chess engine"), "{failure}");
    engine.send(Command::NewGame);
    assert!(engine.options().is_empty());
}

#[test]
fn a_program_that_cannot_start_is_reported_at_once() {
    for (script, why) in [("does-not-exist", "No such file"), ("README.md", "Permission denied")] {
        let engine = ExternalEngine::spawn(fake(script), || {});
        let Some(Event::Failed(failure)) = engine.try_recv() else { panic!("{script}: no failure at once") };
        assert!(matches!(&failure.kind, FailureKind::CouldNotStart(e) if e.contains(why)), "{failure}");
        assert!(failure.to_string().starts_with(&format!("Fake {script} could not be started")), "{failure}");
        engine.send(go(1, Purpose::Play, SearchLimits::depth(1)));
        assert!(engine.recv_timeout(Duration::from_millis(50)).is_none());
    }
}

#[test]
fn a_ping_is_answered_once_the_engine_is_idle_and_a_hung_engine_fails_it() {
    let engine = ExternalEngine::spawn(fake("illegal-move"), || {});
    engine.send(Command::Ping { id: 7 });
    // The ping waits for the handshake, and is answered after it.
    let order = wait_for(&engine, Duration::from_secs(15), |e| match e {
        Event::Ready { .. } => Some("ready first"),
        Event::Pong { id: 7 } => Some("pong before ready"),
        _ => None,
    });
    assert_eq!(order, "ready first");
    wait_for(&engine, Duration::from_secs(15), |e| matches!(e, Event::Pong { id: 7 }).then_some(()));

    let hung = ExternalEngine::spawn(fake("hang-after-handshake"), || {});
    ready(&hung);
    hung.send(Command::Go { id: 1, purpose: Purpose::Play, limits: SearchLimits::depth(1) });
    hung.send(Command::Ping { id: 2 });
    let failure = failure(&hung, Duration::from_secs(15));
    assert!(matches!(failure.kind, FailureKind::Hung(_)), "{failure}");
}
