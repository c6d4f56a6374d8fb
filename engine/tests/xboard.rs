//! Runs the real `kibitz-engine` program and talks xboard (CECP v2) to it through pipes.

mod common;

use common::{LEVEL_AT_MOVE_ONE, LEVEL_BAND, LEVEL_DEPTH, Session, TempDir, only_a3_postbook, run_piped};

use std::time::Duration;

use kibitz_engine::policy::PolicySettings;
use shakmaty::{CastlingMode, Chess, fen::Fen, uci::UciMove};

/// An engine that has been told `xboard` and `protover 2`, with its features read.
fn xboard() -> Session {
    let mut engine = Session::start();
    engine.send("xboard");
    engine.send("protover 2");
    let (features, _) = engine.expect("feature", Duration::from_secs(5));
    assert!(features.contains("usermove=1") && features.contains("done=1"), "{features}");
    engine
}

fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("FEN");
    fen.into_position(CastlingMode::Standard).expect("legal")
}

/// The move of a `move e7e5` line, legal in `pos`.
fn played(pos: &Chess, line: &str) -> shakmaty::Move {
    let text = line.strip_prefix("move ").expect("a move line");
    text.parse::<UciMove>().expect("coordinate move").to_move(pos).expect("legal move")
}

/// Whether `line` is a thinking line: `ply score time nodes pv`.
fn is_thinking(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.len() >= 5 && words[..4].iter().all(|w| w.parse::<i64>().is_ok())
}

#[test]
fn plays_black_after_a_user_move_and_posts_thinking() {
    let mut engine = xboard();
    engine.send("new");
    engine.send("post");
    engine.send("st 0.3");
    engine.send("usermove e2e4");
    let (line, before) = engine.expect("move ", Duration::from_secs(10));
    let after = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    played(&after, &line);
    assert!(before.iter().any(|l| is_thinking(l)), "{before:?}");
}

#[test]
fn announces_smp_and_plays_on_the_cores_it_is_given() {
    let mut engine = Session::start();
    engine.send("xboard");
    engine.send("protover 2");
    let (features, _) = engine.expect("feature", Duration::from_secs(5));
    assert!(features.contains(" smp=1 "), "{features}");
    engine.send("new");
    // More cores than the machine has: the engine uses the machine's.
    engine.send("cores 64");
    engine.send("st 0.3");
    engine.send("usermove e2e4");
    let (line, before) = engine.expect("move ", Duration::from_secs(10));
    let after = position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    played(&after, &line);
    assert!(!before.iter().any(|l| l.starts_with("Error")), "{before:?}");
}

#[test]
fn go_plays_the_side_to_move_on_a_clock() {
    let mut engine = xboard();
    engine.send("new");
    engine.send("level 0 1 0");
    engine.send("time 200");
    engine.send("otim 200");
    engine.send("go");
    let (line, _) = engine.expect("move ", Duration::from_secs(10));
    played(&Chess::default(), &line);
}

#[test]
fn garbage_and_malformed_input_get_errors() {
    let mut engine = xboard();
    engine.send("fly me to the moon");
    let (line, _) = engine.expect("Error", Duration::from_secs(5));
    assert_eq!(line, "Error (unknown command): fly me to the moon");
    engine.send("level 40 5");
    let (line, _) = engine.expect("Error", Duration::from_secs(5));
    assert!(line.starts_with("Error (missing") && line.ends_with("level 40 5"), "{line}");
    engine.send("force");
    engine.send("usermove e2e5");
    engine.expect("Illegal move: e2e5", Duration::from_secs(5));
    engine.send("undo");
    engine.expect("Error (no moves to take back)", Duration::from_secs(5));
    engine.send("setboard not a fen");
    engine.expect("tellusererror", Duration::from_secs(5));
    engine.send("\u{0}\u{1F600}");
    engine.expect("Error (unknown command)", Duration::from_secs(5));
    engine.send("ping 42");
    engine.expect("pong 42", Duration::from_secs(5));
}

#[test]
fn force_undo_remove_and_result() {
    let mut engine = xboard();
    engine.send("new");
    engine.send("force");
    for m in ["e2e4", "e7e5", "g1f3"] {
        engine.send(&format!("usermove {m}"));
    }
    engine.send("remove");
    engine.send("undo");
    engine.send("undo");
    engine.send("undo");
    engine.expect("Error (no moves to take back)", Duration::from_secs(5));
    engine.send("result 1/2-1/2 {Agreed}");
    // After the result the engine plays nothing, even when it is "its" turn.
    engine.send("usermove e2e4");
    engine.send("ping 1");
    let (_, before) = engine.expect("pong 1", Duration::from_secs(5));
    assert!(!before.iter().any(|l| l.starts_with("move")), "{before:?}");
}

#[test]
fn analyze_hint_and_status() {
    let mut engine = xboard();
    engine.send("new");
    engine.send("force");
    engine.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("post");
    engine.send("analyze");
    std::thread::sleep(Duration::from_millis(300));
    engine.send(".");
    let (stat, before) = engine.expect("stat01:", Duration::from_secs(5));
    assert!(stat.split_whitespace().count() >= 6, "{stat}");
    assert!(
        before.iter().any(|l| is_thinking(l) && l.split_whitespace().nth(1) == Some("100001")),
        "{before:?}"
    );
    engine.send("exit");
    engine.send("hint");
    let (hint, _) = engine.expect("Hint:", Duration::from_secs(5));
    assert_eq!(hint, "Hint: a1a8");
}

#[test]
fn draw_offers_are_answered_by_the_policy_with_a_reason() {
    let mut engine = xboard();
    engine.send("new");
    engine.send("force");
    engine.send("draw");
    let (line, _) = engine.expect("tellopponent", Duration::from_secs(5));
    assert_eq!(line, "tellopponent I decline: it is only move 1; I agree to draws from move 40.");
    engine.send("ping 1");
    let (_, before) = engine.expect("pong 1", Duration::from_secs(5));
    assert!(before.iter().all(|l| l != "offer draw"), "{before:?}");
    // Move 60 of a rook ending a pawn down (about -1.2 at every depth): a score below the
    // draw score and far from lost, so the policy agrees.
    engine.send("setboard 8/8/4k3/4p3/8/4K3/r7/7R w - - 0 60");
    engine.send("draw");
    engine.expect("offer draw", Duration::from_secs(5));
    // A dead draw is always accepted.
    engine.send("setboard 8/8/8/4k3/8/8/8/K1N5 w - - 0 1");
    engine.send("draw");
    engine.expect("offer draw", Duration::from_secs(5));
}

/// The answer to `draw` comes from the position on the board, never from a default score.
fn draw_answer(engine: &mut Session) -> String {
    engine.send("draw");
    engine.send("ping 9");
    let (_, lines) = engine.expect("pong 9", Duration::from_secs(5));
    if lines.iter().any(|l| l == "offer draw") {
        return "offer draw".into();
    }
    lines.into_iter().find(|l| l.starts_with("tellopponent")).unwrap_or_default()
}

#[test]
fn a_draw_offer_after_setboard_is_judged_on_the_board() {
    let mut engine = xboard();
    engine.send("new");
    engine.send("force");
    // Move 60, no search has run, and White (to move, the side Kibitz answers for) is a
    // queen up: declined, with the score it found.
    engine.send("setboard 8/8/4k3/8/8/4K3/8/Q7 w - - 0 60");
    let answer = draw_answer(&mut engine);
    assert!(answer.starts_with("tellopponent I decline: my score"), "{answer}");
    // A queen down instead: accepted (the dead band of Terra's rules: a lost position at
    // move 60 is a draw gladly taken).
    engine.send("setboard 8/8/4k3/8/8/4K3/8/q7 w - - 0 60");
    assert_eq!(draw_answer(&mut engine), "offer draw");
}

#[test]
fn a_draw_offer_after_analysis_of_another_position_is_not_judged_on_its_score() {
    let mut engine = xboard();
    engine.send("new");
    engine.send("force");
    // Analyse a level position at move 60, then set up one where White is a queen up.
    engine.send("setboard 8/8/4k3/8/8/4K3/r7/7R w - - 0 60");
    engine.send("analyze");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("exit");
    engine.send("setboard 8/8/4k3/8/8/4K3/8/Q7 w - - 0 60");
    let answer = draw_answer(&mut engine);
    assert!(answer.starts_with("tellopponent I decline"), "a stale level score was used: {answer}");
}

#[test]
fn announces_mate_after_its_move() {
    let mut engine = xboard();
    engine.send("new");
    engine.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("sd 3");
    engine.send("go");
    let (line, _) = engine.expect("move ", Duration::from_secs(10));
    assert_eq!(line, "move a1a8");
    engine.expect("1-0 {White wins by checkmate}", Duration::from_secs(5));
}

#[test]
fn learning_options_are_offered_and_used() {
    let dir = TempDir::new("xboard-postbook");
    let path = dir.file("postbook.txt");
    only_a3_postbook(&path);
    let mut engine = Session::start();
    engine.send("xboard");
    engine.send("protover 2");
    let (features, _) = engine.expect("feature", Duration::from_secs(5));
    for option in [
        "option=\"PositionFile -file \"",
        "option=\"PositionLearning -check 1\"",
        "option=\"PostBookFile -file \"",
        "option=\"UsePostBook -check 1\"",
        "option=\"OwnBook -check 0\"",
        "option=\"BookFile -file \"",
    ] {
        assert!(features.contains(option), "{option}: {features}");
    }
    assert!(features.ends_with("done=1"), "{features}");
    engine.send(&format!("option PostBookFile={path}"));
    let (line, _) = engine.expect("#", Duration::from_secs(5));
    assert_eq!(line, format!("# PostBookFile {path}: 20 moves"));
    engine.send("new");
    engine.send("sd 3");
    engine.send("go");
    let (line, _) = engine.expect("move ", Duration::from_secs(10));
    assert_eq!(line, "move a2a3", "the PostBook was not used");

    engine.send("new");
    engine.send("option UsePostBook=0");
    engine.send("sd 3");
    engine.send("go");
    let (line, _) = engine.expect("move ", Duration::from_secs(10));
    assert_ne!(line, "move a2a3", "the PostBook is switched off");

    engine.send(&format!("option PositionFile={}", dir.file("missing.kpos")));
    let (line, _) = engine.expect("tellusererror", Duration::from_secs(5));
    assert!(line.starts_with("tellusererror PositionFile"), "{line}");
    engine.send("option Courage=3");
    let (line, _) = engine.expect("tellusererror", Duration::from_secs(5));
    assert_eq!(line, "tellusererror unknown option Courage");
}

#[test]
fn the_levels_are_offered_under_their_uci_names() {
    let (low, high) = kibitz_engine::ELO_RANGE;
    let strength = kibitz_engine::Level::weakest().strength().expect("weakened");
    let mut engine = Session::start();
    engine.send("xboard");
    engine.send("protover 2");
    let (features, _) = engine.expect("feature", Duration::from_secs(5));
    for option in [
        "option=\"UCI_LimitStrength -check 0\"".to_owned(),
        format!("option=\"UCI_Elo -spin {low} {low} {high}\""),
    ] {
        assert!(features.contains(&option), "{option}: {features}");
    }
    engine.send(&format!("option UCI_Elo={}", high + 1));
    let (line, _) = engine.expect("tellusererror", Duration::from_secs(5));
    assert!(line.starts_with("tellusererror UCI_Elo must be a rating"), "{line}");
    engine.send(&format!("option UCI_Elo={low}"));
    engine.send("option UCI_LimitStrength=1");
    engine.send("post");
    engine.send("new");
    engine.send(&format!("sd {}", strength.depth() + 4));
    engine.send("go");
    let (_, thinking) = engine.expect("move ", Duration::from_secs(30));
    let depths: Vec<u32> =
        thinking.iter().filter_map(|l| l.split_whitespace().next()?.parse().ok()).collect();
    assert!(!depths.is_empty(), "{thinking:?}");
    assert!(depths.iter().all(|&d| d <= strength.depth()), "the weakest level's horizon: {thinking:?}");
}

#[test]
fn the_draw_and_resign_settings_are_options_with_their_ranges() {
    let mut engine = Session::start();
    engine.send("xboard");
    engine.send("protover 2");
    let (features, _) = engine.expect("feature", Duration::from_secs(5));
    for p in PolicySettings::PARAMETERS {
        let option = format!("option=\"{} -spin {} {} {}\"", p.name, p.default_value(), p.min, p.max);
        assert!(features.contains(&option), "{option}: {features}");
    }
    for option in [
        "option=\"Resign -check 1\"",
        "option=\"Draw -check 1\"",
        "option=\"Rules -combo *Terra /// DeadBand\"",
    ] {
        assert!(features.contains(option), "{option}: {features}");
    }
    assert!(features.ends_with("done=1"), "{features}");
    engine.send("option terra.resign_moves=99");
    let (line, _) = engine.expect("tellusererror", Duration::from_secs(5));
    assert_eq!(line, "tellusererror terra.resign_moves must be from 1 to 20: set to 20, not 99");
    engine.send("option Rules=Chaos");
    let (line, _) = engine.expect("tellusererror", Duration::from_secs(5));
    assert!(line.contains("Rules") && line.contains("Terra or DeadBand"), "{line}");
    engine.send("option terra.courage=1");
    let (line, _) = engine.expect("tellusererror", Duration::from_secs(5));
    assert_eq!(line, "tellusererror unknown option terra.courage");
}

/// The lines up to and including the engine's move from `LEVEL_AT_MOVE_ONE` at `LEVEL_DEPTH`.
fn first_move_lines(engine: &mut Session) -> Vec<String> {
    engine.send("new");
    engine.send(&format!("setboard {LEVEL_AT_MOVE_ONE}"));
    engine.send(&format!("sd {LEVEL_DEPTH}"));
    engine.send("go");
    let (line, mut before) = engine.expect("move ", Duration::from_secs(10));
    engine.send("ping 3");
    let (_, after) = engine.expect("pong 3", Duration::from_secs(5));
    before.push(line);
    before.extend(after);
    before
}

#[test]
fn the_dead_band_rules_set_as_options_offer_a_draw_with_the_first_move() {
    let mut engine = xboard();
    let lines = first_move_lines(&mut engine);
    assert!(!lines.iter().any(|l| l == "offer draw"), "Terra's rules offer no draw at move 1: {lines:?}");
    engine.send("option Rules=DeadBand");
    engine.send("option dead_band.moves=0");
    engine.send(&format!("option dead_band.width={LEVEL_BAND}"));
    let lines = first_move_lines(&mut engine);
    let offer = lines.iter().position(|l| l == "offer draw").expect("a draw offer");
    let moved = lines.iter().position(|l| l.starts_with("move ")).expect("a move");
    assert!(offer < moved, "the offer goes with the move: {lines:?}");
    assert!(
        lines[offer - 1].starts_with("tellopponent I offer a draw: my score has stayed within"),
        "{lines:?}"
    );
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_skipped() {
    let run = run_piped(
        b"xboard\nprotover 2\noption BookFile=caf\xe9.bin\nping 7\nquit\n",
        Duration::from_secs(10),
    );
    let error = run.stdout.lines().find(|l| l.starts_with("Error (")).unwrap_or_default();
    assert!(error.starts_with("Error (line 3 is not UTF-8: byte 0xe9 at column 20)"), "{}", run.stdout);
    assert!(run.stdout.lines().any(|l| l == "pong 7"), "{}", run.stdout);
}

#[test]
fn end_of_input_plays_the_move_being_thought_about() {
    // An hour for one move and no depth limit: only the end of input ends the search.
    let run = run_piped(b"xboard\nprotover 2\nnew\nlevel 1 60 0\ngo\n", Duration::from_secs(10));
    let line = run.stdout.lines().find(|l| l.starts_with("move ")).unwrap_or_default();
    played(&Chess::default(), line);
    assert!(run.took < Duration::from_secs(5), "{:?}", run.took);
}

#[test]
fn a_policy_file_such_as_a_tuned_best_json_sets_the_draw_and_resign_settings() {
    let dir = TempDir::new("xboard-policy-file");
    let path = dir.file("best.json");
    let policy = format!(r#"{{"rules": "dead-band", "dead_band": {{"width": {LEVEL_BAND}, "moves": 0}}}}"#);
    std::fs::write(&path, policy).expect("writable");
    let mut engine = xboard();
    engine.send(&format!("option PolicyFile={path}"));
    let (line, _) = engine.expect("#", Duration::from_secs(5));
    assert_eq!(line, format!("# PolicyFile {path}: loaded"));
    let lines = first_move_lines(&mut engine);
    assert!(lines.iter().any(|l| l == "offer draw"), "the file's dead band offers at once: {lines:?}");
}

#[test]
fn egtpath_syzygy_gives_the_search_the_tables() {
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy");
    let mut engine = Session::start();
    engine.send("xboard");
    engine.send("protover 2");
    let (features, _) = engine.expect("feature", Duration::from_secs(5));
    assert!(features.contains(" egt=\"syzygy\" "), "{features}");
    engine.send("egtpath syzygy /no/such/tables");
    engine.expect("tellusererror SyzygyPath: The Syzygy tables in /no/such/tables", Duration::from_secs(5));
    engine.send(&format!("egtpath syzygy {tables}"));
    let (line, _) = engine.expect("# SyzygyPath", Duration::from_secs(5));
    assert!(line.ends_with(": 70 files, up to 4 pieces"), "{line}");
    // KRvK: the tables' win is posted as a score no evaluation reaches.
    engine.send("new");
    engine.send("force");
    engine.send("setboard 8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    engine.send("post");
    engine.send("sd 4");
    engine.send("go");
    let (line, thinking) = engine.expect("move ", Duration::from_secs(10));
    played(&position("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"), &line);
    assert!(
        thinking.iter().any(|l| is_thinking(l) && l.split_whitespace().nth(1) == Some("19999")),
        "{thinking:?}"
    );
}
