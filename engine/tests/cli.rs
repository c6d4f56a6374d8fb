//! The command line of `kibitz-engine` through the real program: every command answers
//! `--help` and `--version`, and a malformed command line is refused with exit code 2. (The
//! `kibitz` subcommands are tested through the real program in `app/tests/cli.rs`.)

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kibitz-engine")).args(args).output().expect("kibitz-engine runs")
}

/// Every command line of the program, as the words before `--help`.
const COMMANDS: &[&[&str]] = &[&[], &["bench"], &["perft"], &["epd"]];

#[test]
fn every_command_has_help_and_version() {
    for command in COMMANDS {
        let help = run(&[command, &["--help"][..]].concat());
        let text = String::from_utf8_lossy(&help.stdout);
        assert_eq!(help.status.code(), Some(0), "{command:?} --help: {text}");
        assert!(text.contains("Usage: kibitz-engine"), "{command:?} --help: {text}");
        let version = run(&[command, &["--version"][..]].concat());
        let text = String::from_utf8_lossy(&version.stdout);
        assert_eq!(version.status.code(), Some(0), "{command:?} --version: {text}");
        assert!(text.trim_end().ends_with(env!("CARGO_PKG_VERSION")), "{command:?} --version: {text}");
    }
    let top = String::from_utf8_lossy(&run(&["--help"]).stdout).into_owned();
    for line in ["bench", "perft", "epd"] {
        assert!(top.lines().any(|l| l.trim_start().starts_with(line)), "{line} is listed: {top}");
    }
    let epd = String::from_utf8_lossy(&run(&["epd", "--help"]).stdout).into_owned();
    assert!(epd.contains("--time <SECONDS>") && epd.contains("--early <N>"), "{epd}");
    assert!(epd.contains("[default: 2]"), "{epd}");
}

#[test]
fn unknown_options_and_commands_are_errors_with_code_two() {
    for args in [
        &["--bogus"][..],
        &["bench", "--bogus"],
        &["perft", "--bogus", "1"],
        &["epd", "x.epd", "--time", "1", "--bogus"],
        &["frobnicate"],
        &["bench", "31"],
        &["bench", "8", "9"],
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
fn perft_takes_an_unquoted_fen() {
    // The FEN's "-" words are values, not options.
    let output = run(&["perft", "1", "4k3/8/8/8/8/8/8/4K2R", "w", "K", "-", "0", "1"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    // The king's five moves, the rook's nine, and castling.
    assert_eq!(text.lines().last(), Some("15"), "{text}");
}
