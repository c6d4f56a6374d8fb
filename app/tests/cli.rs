//! The `kibitz` program's command line through the real program, without opening a window:
//! every subcommand answers `--help` and `--version`, a malformed command line is refused with
//! exit code 2, and the subcommands run headless.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kibitz")).args(args).output().expect("kibitz runs")
}

/// Every command line of the program, as the words before `--help`.
const COMMANDS: &[&[&str]] = &[
    &[],
    &["book"],
    &["book", "build"],
    &["book", "merge"],
    &["book", "nags"],
    &["book", "nags", "import"],
    &["book", "nags", "export"],
    &["book", "set"],
    &["book", "remove"],
    &["book", "export"],
    &["book", "probe"],
    &["book", "learn-export"],
    &["book", "learn-import"],
    &["pgn"],
    &["pgn", "stats"],
    &["pgn", "index"],
    &["selfplay"],
    &["match"],
    &["test"],
    &["annotate"],
];

#[test]
fn every_subcommand_has_help_and_version() {
    for command in COMMANDS {
        let help = run(&[command, &["--help"][..]].concat());
        let text = String::from_utf8_lossy(&help.stdout);
        assert_eq!(help.status.code(), Some(0), "{command:?} --help: {text}");
        let usage = ["Usage: kibitz", &command.join(" ")].join(" ");
        assert!(text.contains(usage.trim_end()), "{command:?} --help: {text}");
        let version = run(&[command, &["--version"][..]].concat());
        let text = String::from_utf8_lossy(&version.stdout);
        assert_eq!(version.status.code(), Some(0), "{command:?} --version: {text}");
        assert!(text.trim_end().ends_with(env!("CARGO_PKG_VERSION")), "{command:?} --version: {text}");
    }
}

#[test]
fn help_lists_the_subcommands_and_the_window_options() {
    for args in [&["help"][..], &["--help"]] {
        let output = run(args);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{args:?}");
        for word in
            ["book", "pgn", "selfplay", "match", "test", "annotate", "--screenshot <FILE>", "[GAMES.pgn]"]
        {
            assert!(text.contains(word), "{args:?} lists {word}: {text}");
        }
    }
    let book = run(&["help", "book"]);
    let text = String::from_utf8_lossy(&book.stdout);
    assert!(text.lines().any(|l| l.trim_start().starts_with("nags ")), "{text}");
}

#[test]
fn malformed_command_lines_are_errors_with_code_two() {
    for args in [
        &["--bogus"][..],
        &["book", "--bogus"],
        &["book", "frobnicate"],
        &["book", "import-nags", "a.kbook", "b.pgn"],
        &["book", "build", "only-one.pgn"],
        &["book", "probe", "a.kbook", "--mode", "nice"],
        &["book", "nags", "import", "a.kbook"],
        &["pgn", "stats"],
        &["pgn", "index", "a.pgn", "--bogus"],
        &["selfplay", "--bogus"],
        &["selfplay", "--games", "x"],
        &["selfplay", "--set", "courage=3"],
        &["match"],
        &["match", "--engine", "cmd=builtin depth=1", "--resume"],
        &["test", "suite.epd"],
        &["test", "suite.epd", "--time", "0"],
        &["test", "suite.epd", "--time", "1", "--workers", "17"],
        &["annotate", "in.pgn"],
        &["book", "set", "a.kbook", "startpos", "e4"],
        &["book", "set", "a.kbook", "startpos", "e4", "--value", "101"],
        &["book", "remove", "a.kbook", "startpos"],
        &["annotate", "in.pgn", "out.pgn", "--margin", "x"],
        &["--screenshot"],
        &["a.pgn", "b.pgn"],
    ] {
        let output = run(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains("--help"), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn pgn_stats_runs_headless_and_ends_with_its_totals() {
    let dir = std::env::temp_dir().join(format!("kibitz-app-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let pgn = dir.join("two.pgn");
    std::fs::write(&pgn, "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 (2. Nf3) 1-0\n\n[Result \"*\"]\n\n1. d4 *\n")
        .expect("written");
    let output = run(&["pgn", "stats", pgn.to_str().expect("a UTF-8 path")]);
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_dir(&dir);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(text.lines().last(), Some("games 2 moves 5 errors 0"), "{text}");
}

/// A mate in one, a won queen, and the mate as a move to avoid (so it is failed).
const SUITE: &str = "\
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";
4k3/8/8/3q4/8/8/3R4/4K3 w - - bm Rxd5; id \"queen\";
6k1/5ppp/8/8/8/8/8/R5K1 w - - am Ra8#; id \"spare the king\";
";

#[test]
fn test_runs_a_suite_with_kibitz_or_an_external_engine() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let suite = dir.path().join("suite.epd");
    std::fs::write(&suite, SUITE).expect("written");
    let suite = suite.to_str().expect("a UTF-8 path");
    for args in [
        &["test", suite, "--time", "0.5"][..],
        &["test", suite, "--time", "0.5", "--workers", "2"],
        &["test", suite, "--time", "0.5", "--engine", "/usr/games/stockfish"],
    ] {
        let output = run(args);
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {text}");
        assert!(
            lines[0].starts_with("FAIL spare the king: played Ra8#, expected not Ra8# (depth "),
            "{text}"
        );
        assert_eq!(lines[1], "solved 2 of 3", "{args:?}");
    }
}

#[test]
fn test_reports_a_bad_suite_and_a_dead_engine() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let bad = dir.path().join("bad.epd");
    std::fs::write(&bad, "title a\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w\nsolution Qh5\n").expect("written");
    let output = run(&["test", bad.to_str().expect("a UTF-8 path"), "--time", "1"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bad.epd:3: illegal move 'Qh5'"), "{stderr}");
    assert!(output.stdout.is_empty());

    // Crashy plays 1. e4 twice and falls over at its third search.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\n";
    let suite = dir.path().join("starts.epd");
    std::fs::write(&suite, start.repeat(4)).expect("written");
    let crashy = format!("{}/../engine/tests/engines/crash-at-third-go", env!("CARGO_MANIFEST_DIR"));
    let output = run(&["test", suite.to_str().expect("a UTF-8 path"), "--time", "0.5", "--engine", &crashy]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the engine failed at position 3"), "{stderr}");
    assert!(stderr.contains("crashed"), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout).lines().last(), Some("solved 2 of 2"));
}

#[test]
fn book_set_and_remove_edit_a_book_and_refuse_what_they_cannot_do() {
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = dir.path().join("lines.pgn");
    std::fs::write(&pgn, "1. e4 e5 2. Nf3 Nc6 *\n\n1. e4 c5 2. Nf3 d6 *\n\n1. d4 d5 *\n").expect("pgn");
    let book = dir.path().join("my.kbook");
    let path = |p: &std::path::Path| p.to_string_lossy().into_owned();
    let built = run(&["book", "build", &path(&pgn), &path(&book)]);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let probe = |book: &std::path::Path| {
        String::from_utf8_lossy(&run(&["book", "probe", &path(book)]).stdout).into_owned()
    };

    // `!!` makes 1. d4 the only move played.
    let set = run(&["book", "set", &path(&book), "startpos", "d4", "--nag", "!!"]);
    let text = String::from_utf8_lossy(&set.stdout);
    assert!(set.status.success(), "{}", String::from_utf8_lossy(&set.stderr));
    assert!(text.contains("set d4: user 100"), "{text}");
    let probed = probe(&book);
    let d4 = probed.lines().find(|l| l.contains("d2d4") || l.contains("d4")).unwrap_or_default();
    assert!(d4.contains("prob 100.00%"), "{probed}");

    // Removing 1. e4 takes its subtree: 1... e5, 1... c5 and what follows.
    let removed = run(&["book", "remove", &path(&book), "startpos", "e2e4"]);
    let text = String::from_utf8_lossy(&removed.stdout);
    assert!(removed.status.success(), "{}", String::from_utf8_lossy(&removed.stderr));
    assert!(text.starts_with("removed e4 and 6 moves after it"), "{text}");

    // Refused, and the book is left as it was: an illegal move, a move not in the book, a
    // NAG that sets no value, a Polyglot book.
    let before = std::fs::read(&book).expect("book");
    for args in [
        vec!["book", "set", "BOOK", "startpos", "e5", "--value", "50"],
        vec!["book", "remove", "BOOK", "startpos", "a3"],
        vec!["book", "set", "BOOK", "startpos", "d4", "--nag", "+-"],
    ] {
        let args: Vec<String> =
            args.iter().map(|a| if *a == "BOOK" { path(&book) } else { (*a).to_string() }).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = run(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.starts_with("kibitz book: "), "{stderr}");
        assert_eq!(std::fs::read(&book).expect("book"), before, "{args:?} left the book alone");
    }
    let polyglot = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/books/lasker-trap.bin");
    let copy = dir.path().join("trap.bin");
    std::fs::copy(polyglot, &copy).expect("copy");
    let output = run(&["book", "set", &path(&copy), "startpos", "e4", "--value", "50"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr.contains("holds no user values"), "{stderr}");
    assert_eq!(std::fs::read(&copy).expect("copy"), std::fs::read(polyglot).expect("book"));
}
