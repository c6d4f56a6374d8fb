//! Test suites (Crafty's `test`) through the `Player` interface: the built-in engine,
//! Debian's Stockfish, Kibitz's own program over xboard, and fake engines (tests/engines/)
//! that cheat, crash or hang.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use kibitz_engine::{
    EngineConfig, EngineHandle, EpdReport, EpdSuiteError, EpdTest, ExternalEngine, FailureKind, Player,
    Protocol, SuiteLimits, run_suite,
};

const STOCKFISH: &str = "/usr/games/stockfish";

/// Mate in one twice (a back-rank mate, a queen's), and a won queen.
const EASY: &str = "\
# easy positions
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"back rank\";
k7/8/1K6/8/8/8/7Q/8 w - - bm Qh8#; id \"queen mate\";
4k3/8/8/3q4/8/8/3R4/4K3 w - - bm Rxd5; id \"won queen\";
";

fn limits(millis: u64) -> SuiteLimits {
    SuiteLimits { time: Duration::from_millis(millis), early_exit: 2 }
}

fn builtin() -> Vec<Box<dyn Player>> {
    vec![Box::new(EngineHandle::spawn(|| {}))]
}

fn external(config: EngineConfig) -> Vec<Box<dyn Player>> {
    vec![Box::new(ExternalEngine::spawn(config, || {}))]
}

fn fake(script: &str) -> EngineConfig {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines").join(script);
    EngineConfig { name: format!("Fake {script}"), path, protocol: Some(Protocol::Uci), ..Default::default() }
}

fn run(players: Vec<Box<dyn Player>>, suite: &str, millis: u64) -> EpdReport {
    let tests = EpdTest::parse_suite(suite).expect("the suite parses");
    let mut seen = 0;
    let report = run_suite(players, &tests, limits(millis), &|| false, |_, so_far| {
        seen += 1;
        assert_eq!(so_far.total, seen, "one report per position");
    });
    assert_eq!(report.suite, tests.len());
    report
}

fn verdicts(report: &EpdReport) -> Vec<(&str, bool)> {
    report.results.iter().map(|r| (r.id.as_str(), r.solved)).collect()
}

#[test]
fn the_built_in_engine_solves_the_easy_suite_and_stops_early() {
    let started = Instant::now();
    let report = run(builtin(), EASY, 3000);
    assert_eq!(verdicts(&report), [("back rank", true), ("queen mate", true), ("won queen", true)]);
    assert_eq!((report.solved, report.total, &report.failure), (3, 3, &None));
    // Three seconds each without the early exit.
    assert!(started.elapsed() < Duration::from_secs(6), "{:?}", started.elapsed());
    for result in &report.results {
        let depth = result.info.as_ref().map_or(0, |i| i.depth);
        assert!(depth >= kibitz_engine::EARLY_EXIT_MIN_DEPTH, "{}: depth {depth}", result.id);
    }
}

#[test]
fn stockfish_solves_it_too_and_stops_early() {
    assert!(PathBuf::from(STOCKFISH).exists(), "{STOCKFISH} is missing: `apt-get install stockfish`");
    let started = Instant::now();
    let report = run(external(EngineConfig::from_path(STOCKFISH)), EASY, 3000);
    assert_eq!((report.solved, report.total, &report.failure), (3, 3, &None), "{report:?}");
    assert!(started.elapsed() < Duration::from_secs(6), "{:?}", started.elapsed());
}

#[test]
fn kibitz_over_xboard_solves_it() {
    let config = EngineConfig {
        name: "Kibitz over xboard".into(),
        path: env!("CARGO_BIN_EXE_kibitz-engine").into(),
        protocol: Some(Protocol::Xboard),
        ..Default::default()
    };
    let report = run(external(config), EASY, 1000);
    assert_eq!((report.solved, report.total, &report.failure), (3, 3, &None), "{report:?}");
}

#[test]
fn a_position_not_solved_is_reported_as_failed() {
    // The mate is listed as the move to avoid: any engine plays it and fails.
    let suite = "6k1/5ppp/8/8/8/8/8/R5K1 w - - am Ra8#; id \"avoid the mate\";\n\
                 6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";";
    for players in [builtin(), external(EngineConfig::from_path(STOCKFISH))] {
        let report = run(players, suite, 500);
        assert_eq!(verdicts(&report), [("avoid the mate", false), ("mate", true)]);
        let failed = &report.results[0];
        let tests = EpdTest::parse_suite(suite).expect("parses");
        assert_eq!(failed.chosen, tests[0].avoid.first().copied(), "it played the mate");
    }
}

#[test]
fn crafty_s_format_runs_like_epd() {
    let crafty = "\
title back rank
setboard 6k1/5ppp/8/8/8/8/8/R5K1 w
solution Ra8

title no rook move
setboard 6k1/5ppp/8/8/8/8/8/R5K1 w
solution Ra8? Ra7?
end
";
    let report = run(builtin(), crafty, 500);
    assert_eq!(verdicts(&report), [("back rank", true), ("no rook move", false)]);
}

#[test]
fn a_malformed_file_names_its_line() {
    let dir = std::env::temp_dir().join(format!("kibitz-suite-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    for (name, text, number) in [
        (
            "bad.epd",
            "# fine so far\n6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#;\n6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qh5;\n",
            3,
        ),
        ("bad-crafty.epd", "title a\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w\nsolution Ra8\n\nsetboard x\n", 5),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("written");
        match EpdTest::read_suite(&path) {
            Err(EpdSuiteError::BadLine { number: n, why }) => assert_eq!(n, number, "{name}: {why}"),
            other => panic!("{name}: {other:?}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_illegal_move_fails_the_position_and_the_suite_goes_on() {
    // The cheat plays e2e5 at its first search, e2e4 after.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;";
    let report = run(external(fake("illegal-move")), &format!("{start} id \"a\";\n{start} id \"b\";"), 500);
    assert_eq!(verdicts(&report), [("a", false), ("b", true)]);
    let failure = report.results[0].failure.as_ref().expect("the illegal move is told");
    assert!(matches!(failure.kind, FailureKind::IllegalMove { .. }), "{failure}");
    assert_eq!(report.failure, None);
}

#[test]
fn an_engine_that_dies_mid_suite_ends_it_with_the_reason() {
    // Crashy plays 1. e4 twice and falls over at its third search.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;";
    let suite: String = (1..=4).map(|i| format!("{start} id \"p{i}\";\n")).collect();
    let report = run(external(fake("crash-at-third-go")), &suite, 500);
    assert_eq!(verdicts(&report), [("p1", true), ("p2", true)]);
    let failure = report.failure.as_ref().expect("the crash is reported");
    assert_eq!((failure.index, failure.id.as_str()), (2, "p3"));
    assert!(matches!(failure.failure.kind, FailureKind::Crashed(_)), "{failure}");
    let text = failure.to_string();
    assert!(text.starts_with("at position 3 (p3): Fake crash-at-third-go crashed"), "{text}");
}

#[test]
fn an_engine_that_hangs_is_given_up() {
    let suite = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;";
    let started = Instant::now();
    let report = run(external(fake("hang-after-handshake")), suite, 200);
    assert_eq!(report.total, 0);
    let failure = report.failure.as_ref().expect("the hang is reported");
    assert!(matches!(failure.failure.kind, FailureKind::Hung(_)), "{failure}");
    assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
}
