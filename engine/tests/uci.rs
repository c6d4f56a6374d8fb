//! Runs the real `kibitz-engine` program and talks UCI to it through pipes.

mod common;

use common::{LEVEL_AT_MOVE_ONE, LEVEL_BAND, LEVEL_DEPTH, Session, TempDir, only_a3_postbook, run_piped};

use std::process::Command;

use std::time::{Duration, Instant};

use kibitz_engine::policy::PolicySettings;
use shakmaty::{Chess, Position, uci::UciMove};

fn legal_in(pos: &Chess, bestmove_line: &str) -> bool {
    let Some(text) = bestmove_line.split_whitespace().nth(1) else {
        return false;
    };
    text.parse::<UciMove>().ok().and_then(|m| m.to_move(pos).ok()).is_some()
}

/// The machine's logical cores, the most `Threads` the engine takes.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

#[test]
fn full_session() {
    let mut engine = Session::start();
    engine.send("uci");
    let (_, intro) = engine.expect("uciok", Duration::from_secs(5));
    assert!(intro.contains(&"id name Kibitz 0.1".to_owned()));
    assert!(intro.contains(&"id author The Kibitz developers".to_owned()));
    assert!(intro.iter().any(|l| l.starts_with("option name Hash type spin default 16")));
    for name in [
        "Clear Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
        "UCI_LimitStrength",
        "UCI_Elo",
        "SyzygyPath",
    ] {
        assert!(intro.iter().any(|l| l.starts_with(&format!("option name {name} type"))), "{name}");
    }
    let threads = format!("option name Threads type spin default 1 min 1 max {}", cores());
    assert!(intro.contains(&threads), "no '{threads}'");

    engine.send("isready");
    engine.expect("readyok", Duration::from_secs(5));

    engine.send("this is garbage");
    let (line, _) = engine.expect("info string", Duration::from_secs(5));
    assert!(line.contains("unknown command"), "{line}");
    engine.send("position startpos moves e2e5");
    let (line, _) = engine.expect("info string", Duration::from_secs(5));
    assert!(line.contains("error"), "{line}");
    engine.send("go depth");
    engine.expect("info string error", Duration::from_secs(5));
    engine.send("setoption name Hash value 8");

    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go depth 4");
    let (best, infos) = engine.expect("bestmove", Duration::from_secs(30));
    let pos = Chess::default();
    let after = ["e2e4", "e7e5"].iter().fold(pos, |pos, text| {
        let m = text.parse::<UciMove>().expect("uci").to_move(&pos).expect("legal");
        pos.play(m).expect("legal")
    });
    assert!(legal_in(&after, &best), "{best}");
    assert!(infos.iter().any(|l| l.starts_with("info depth 4 seldepth") && l.contains(" pv ")));
}

#[test]
fn two_threads_search_to_a_depth_and_stop() {
    let mut engine = Session::start();
    engine.send("setoption name Threads value 2");
    if cores() < 2 {
        // A machine with one core refuses a second thread and searches on one.
        let (line, _) = engine.expect("info string", Duration::from_secs(5));
        assert!(line.contains("Threads must be a number from 1 to 1"), "{line}");
    }
    // Mate in two.
    let fen = "7k/8/8/8/8/8/1R6/R5K1 w - - 0 1";
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 6");
    let (best, infos) = engine.expect("bestmove", Duration::from_secs(30));
    let pos: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .expect("FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal");
    assert!(legal_in(&pos, &best), "{best}");
    assert!(
        infos.iter().any(|l| l.starts_with("info depth 6 ") && l.contains(" score mate 2 ")),
        "no mate in two at depth 6: {infos:?}"
    );
    assert!(!infos.iter().any(|l| l.starts_with("info string")), "{infos:?}");
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    let (best, _) = engine.expect("bestmove", Duration::from_secs(2));
    assert!(legal_in(&Chess::default(), &best), "{best}");
}

#[test]
fn infinite_search_stops_promptly_and_answers_isready() {
    let mut engine = Session::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("isready");
    engine.expect("readyok", Duration::from_secs(2));
    engine.send("stop");
    let (best, _) = engine.expect("bestmove", Duration::from_secs(2));
    assert!(legal_in(&Chess::default(), &best), "{best}");
}

#[test]
fn no_legal_move_gives_null_bestmove() {
    let mut engine = Session::start();
    engine.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    engine.send("go depth 3");
    let (best, _) = engine.expect("bestmove", Duration::from_secs(5));
    assert_eq!(best, "bestmove 0000");
}

#[test]
fn end_of_input_stops_the_search_and_answers() {
    // Neither search would end on its own in any reasonable time; the end of input ends them.
    for go in ["go depth 255", "go infinite", "go ponder"] {
        let run = run_piped(format!("position startpos\n{go}\n").as_bytes(), Duration::from_secs(10));
        let best = run.stdout.lines().find(|l| l.starts_with("bestmove ")).unwrap_or_default();
        assert!(legal_in(&Chess::default(), best), "{go}: {}", run.stdout);
    }
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_skipped() {
    let run = run_piped(
        b"isready\n\xff\nsetoption name BookFile value caf\xe9.bin\nisready\nquit\n",
        Duration::from_secs(10),
    );
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.iter().filter(|l| **l == "readyok").count(), 2, "{lines:?}");
    let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("info string error: ")).collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(errors[0].contains("line 2 is not UTF-8 (byte 0xff at column 1)"), "{}", errors[0]);
    assert!(errors[1].contains("line 3 is not UTF-8 (byte 0xe9 at column 34)"), "{}", errors[1]);

    // A bad first line does not choose a protocol, nor end the input.
    let run = run_piped(b"\xff\nuci\nquit\n", Duration::from_secs(10));
    assert!(run.stdout.lines().any(|l| l == "uciok"), "{}", run.stdout);
}

#[test]
fn quit_after_a_bad_line_ends_a_deep_search() {
    let run = run_piped(b"go depth 255\n\xff\nisready\nquit\n", Duration::from_secs(10));
    assert!(run.stdout.lines().any(|l| l == "readyok"), "{}", run.stdout);
    assert!(run.took < Duration::from_secs(5), "{:?}", run.took);
}

#[test]
fn every_go_with_limits_ends() {
    let mut engine = Session::start();
    for go in [
        "depth 0",
        "nodes 0",
        "movetime 0",
        "mate 0",
        "wtime 0 btime 0",
        "mate 1",
        "mate 3",
        "depth 1 mate 0",
    ] {
        engine.send("position startpos");
        engine.send(&format!("go {go}"));
        let (best, _) = engine.expect("bestmove", Duration::from_secs(10));
        assert!(legal_in(&Chess::default(), &best), "go {go}: {best}");
    }
}

#[test]
fn go_mate_0_searches_for_a_mate_in_1() {
    let mut engine = Session::start();
    engine.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("go mate 0");
    let (best, before) = engine.expect("bestmove", Duration::from_secs(10));
    assert!(before.iter().any(|l| l.starts_with("info string") && l.contains("mate in 1")), "{before:?}");
    assert!(before.iter().any(|l| l.contains("score mate 1 ")), "{before:?}");
    assert_eq!(best, "bestmove a1a8");
}

#[test]
fn bad_arguments_exit_with_code_two() {
    for args in [&["nonsense"][..], &["perft"], &["perft", "x"], &["bench", "0"], &["perft", "1", "bad fen"]]
    {
        let output = Command::new(env!("CARGO_BIN_EXE_kibitz-engine"))
            .args(args)
            .output()
            .expect("kibitz-engine runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty());
    }
}

#[test]
fn perft_command_prints_the_total_last() {
    let output = Command::new(env!("CARGO_BIN_EXE_kibitz-engine"))
        .args(["perft", "3"])
        .output()
        .expect("kibitz-engine runs");
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.lines().last(), Some("8902"));
    assert_eq!(text.lines().count(), 21);
}

#[test]
fn options_are_checked() {
    let mut engine = Session::start();
    engine.send("setoption name Threads value 100000");
    engine.expect("info string error", Duration::from_secs(5));
    engine.send("setoption name Frobnicate value 1");
    engine.expect("info string error: unknown option", Duration::from_secs(5));
    engine.send(&format!("setoption name UCI_Elo value {}", kibitz_engine::ELO_RANGE.0 - 1));
    engine.expect("info string error", Duration::from_secs(5));
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name SyzygyPath value /no/such/tables");
    engine.expect(
        "info string error: SyzygyPath: The Syzygy tables in /no/such/tables",
        Duration::from_secs(5),
    );
    engine.send("setoption name Hash value 2");
    engine.send("setoption name Clear Hash");
    engine.send("setoption name Ponder value true");
    engine.send("isready");
    let (_, before) = engine.expect("readyok", Duration::from_secs(5));
    assert!(before.is_empty(), "{before:?}");
}

/// The score of the last exact main line before `bestmove`, in centipawns (mates far out).
fn last_score(infos: &[String]) -> i32 {
    let line =
        infos.iter().rev().find(|l| l.contains(" multipv 1 ") && !l.contains("bound")).expect("a main line");
    let mut words = line.split(" score ").nth(1).expect("a score").split_whitespace();
    match (words.next(), words.next().and_then(|n| n.parse::<i32>().ok())) {
        (Some("cp"), Some(cp)) => cp,
        (Some("mate"), Some(n)) => 30_000 * n.signum(),
        _ => panic!("no score in {line}"),
    }
}

#[test]
fn uci_limitstrength_and_uci_elo_weaken_play_within_the_margin() {
    let (low, high) = kibitz_engine::ELO_RANGE;
    let strength = kibitz_engine::Level::weakest().strength().expect("weakened");
    let depth = strength.depth();
    let mut engine = Session::start();
    engine.send("uci");
    let (_, intro) = engine.expect("uciok", Duration::from_secs(5));
    let declared = format!("option name UCI_Elo type spin default {low} min {low} max {high}");
    assert!(intro.contains(&declared), "{intro:?}");
    let search = |engine: &mut Session, fen: &str, go: &str| {
        engine.send("ucinewgame");
        engine.send(&format!("position fen {fen}"));
        engine.send(go);
        let (best, infos) = engine.expect("bestmove", Duration::from_secs(60));
        (best.split_whitespace().nth(1).expect("a move").to_owned(), last_score(&infos))
    };
    let mut differs = false;
    for fen in &kibitz_engine::BENCH_POSITIONS[..7] {
        for _ in 0..2 {
            engine.send("setoption name UCI_LimitStrength value false");
            let (full, best_score) = search(&mut engine, fen, &format!("go depth {depth}"));
            engine.send("setoption name UCI_LimitStrength value true");
            engine.send(&format!("setoption name UCI_Elo value {low}"));
            let (weak, _) = search(&mut engine, fen, &format!("go depth {depth}"));
            // Judged at full strength, at the same depth: within the margin (and a little for
            // the hash's effects on scores).
            engine.send("setoption name UCI_LimitStrength value false");
            let (_, weak_score) = search(&mut engine, fen, &format!("go depth {depth} searchmoves {weak}"));
            assert!(
                best_score - weak_score <= strength.margin() + 50,
                "{fen}: {weak} {weak_score} against {full} {best_score}"
            );
            differs |= weak != full;
        }
    }
    assert!(differs, "the weakest level always played full strength's move");
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut engine = Session::start();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    engine.send("go depth 4");
    let (_, infos) = engine.expect("bestmove", Duration::from_secs(30));
    // A line may be reported again within the iteration (when a later line overtakes it, the
    // set is reported again in its new order); a GUI keeps the last report of each index.
    let last = |n: usize| {
        infos.iter().rev().find(|l| {
            l.starts_with("info depth 4 ") && !l.contains("bound") && l.contains(&format!(" multipv {n} "))
        })
    };
    let lines: Vec<(i32, &str)> = (1..=3)
        .map(|n| {
            let line = last(n).unwrap_or_else(|| panic!("no final multipv {n} line: {infos:?}"));
            let score = line.split(" score cp ").nth(1).and_then(|s| s.split_whitespace().next());
            let first = line.split(" pv ").nth(1).and_then(|s| s.split_whitespace().next());
            (score.and_then(|s| s.parse().ok()).expect("a cp score"), first.expect("a pv"))
        })
        .collect();
    assert!(lines[0].1 != lines[1].1 && lines[1].1 != lines[2].1 && lines[0].1 != lines[2].1, "{lines:?}");
    assert!(lines[0].0 >= lines[1].0 && lines[1].0 >= lines[2].0, "best line first: {lines:?}");
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut engine = Session::start();
    engine.send("position fen 4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    engine.send("go depth 4 searchmoves e1f1 e1e2");
    let (best, _) = engine.expect("bestmove", Duration::from_secs(30));
    assert!(best.starts_with("bestmove e1f1") || best.starts_with("bestmove e1e2"), "{best}");
}

#[test]
fn go_mate_finds_the_mate_and_stops() {
    let mut engine = Session::start();
    engine.send("position fen 7k/8/8/8/8/8/1R6/R5K1 w - - 0 1");
    engine.send("go mate 2");
    let (best, infos) = engine.expect("bestmove", Duration::from_secs(30));
    assert!(infos.iter().any(|l| l.contains("score mate 2 ")), "{infos:?}");
    assert!(best.starts_with("bestmove "));
}

#[test]
fn stop_ends_a_deep_search_within_moments() {
    let mut engine = Session::start();
    engine.send("position fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10");
    engine.send("go depth 60");
    std::thread::sleep(Duration::from_millis(500));
    engine.send("isready");
    engine.expect("readyok", Duration::from_millis(500));
    let asked = Instant::now();
    engine.send("stop");
    engine.expect("bestmove", Duration::from_secs(2));
    assert!(asked.elapsed() < Duration::from_millis(500), "{:?}", asked.elapsed());
}

#[test]
fn pondering_waits_for_ponderhit_or_stop() {
    let mut engine = Session::start();
    engine.send("position startpos moves e2e4");
    engine.send("go ponder depth 3");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let (_, before) = engine.expect("readyok", Duration::from_secs(2));
    assert!(!before.iter().any(|l| l.starts_with("bestmove")));
    engine.send("stop");
    engine.expect("bestmove", Duration::from_secs(2));
}

#[test]
fn protocol_is_chosen_by_the_first_line() {
    let mut engine = Session::start();
    engine.send("xboard");
    engine.send("nonsense");
    engine.expect("Error (unknown command): nonsense", Duration::from_secs(5));
}

#[test]
fn the_postbook_file_is_offered_loaded_and_switched() {
    let dir = TempDir::new("uci-postbook");
    let path = dir.file("postbook.txt");
    only_a3_postbook(&path);
    let mut engine = Session::start();
    engine.send("uci");
    let (_, intro) = engine.expect("uciok", Duration::from_secs(5));
    for option in [
        "option name PositionFile type string default <empty>",
        "option name PositionLearning type check default true",
        "option name PostBookFile type string default <empty>",
        "option name UsePostBook type check default true",
    ] {
        assert!(intro.contains(&option.to_owned()), "{option}: {intro:?}");
    }
    engine.send(&format!("setoption name PostBookFile value {path}"));
    let (line, _) = engine.expect("info string", Duration::from_secs(5));
    assert_eq!(line, format!("info string PostBookFile {path}: 20 moves"));
    engine.send("position startpos");
    engine.send("go depth 3");
    let (best, before) = engine.expect("bestmove", Duration::from_secs(30));
    assert!(best.starts_with("bestmove a2a3"), "the PostBook was not used: {best}");
    assert!(before.iter().any(|l| l.starts_with("info string PostBook prefers a2a3")), "{before:?}");

    engine.send("setoption name UsePostBook value false");
    engine.send("go depth 3");
    let (best, _) = engine.expect("bestmove", Duration::from_secs(30));
    assert!(!best.starts_with("bestmove a2a3"), "the PostBook is switched off: {best}");

    // A missing file is reported; what was loaded stays.
    engine.send(&format!("setoption name PostBookFile value {}", dir.file("missing.txt")));
    let (line, _) = engine.expect("info string", Duration::from_secs(5));
    assert!(line.starts_with("info string error: PostBookFile"), "{line}");
    engine.send("setoption name UsePostBook value true");
    engine.send("go depth 3");
    let (best, _) = engine.expect("bestmove", Duration::from_secs(30));
    assert!(best.starts_with("bestmove a2a3"), "{best}");
}

#[test]
fn learned_positions_from_the_file_seed_the_search() {
    // WAC.011: depth 1 plays Nc5, depth 4 finds Bxc6; the learned drop must change the choice.
    let wac = "r1b1kb1r/3q1ppp/pBp1pn2/8/Np3P2/5B2/PPP3PP/R2Q1RK1 w kq - 0 1";
    let mut engine = Session::start();
    engine.send(&format!("position fen {wac}"));
    engine.send("go depth 4");
    let (best, _) = engine.expect("bestmove", Duration::from_secs(30));
    let root: Chess = wac
        .parse::<shakmaty::fen::Fen>()
        .expect("FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal");
    let chosen = best.split_whitespace().nth(1).expect("a move").parse::<UciMove>().expect("uci");
    let after = root.clone().play(chosen.to_move(&root).expect("legal")).expect("legal");
    // Kibitz learned that the position after its move is lost (3000 for the opponent).
    let dir = TempDir::new("uci-positions");
    let path = dir.file("learned-positions.kpos");
    let mut table = kibitz_engine::PositionTable::new(8);
    table.insert(kibitz_engine::LearnedPosition {
        key: kibitz_engine::book_key(&after),
        score: 3000,
        depth: 40,
        mv: 0,
    });
    table.save(std::path::Path::new(&path)).expect("writable");
    engine.send(&format!("setoption name PositionFile value {path}"));
    let (line, _) = engine.expect("info string", Duration::from_secs(5));
    assert_eq!(line, format!("info string PositionFile {path}: 1 learned positions"));
    engine.send("ucinewgame");
    engine.send(&format!("position fen {wac}"));
    engine.send("go depth 4");
    let (again, _) = engine.expect("bestmove", Duration::from_secs(30));
    assert_ne!(again, best, "the learned position was ignored");

    engine.send("setoption name PositionLearning value false");
    engine.send("ucinewgame");
    engine.send(&format!("position fen {wac}"));
    engine.send("go depth 4");
    let (off, _) = engine.expect("bestmove", Duration::from_secs(30));
    assert_eq!(off, best, "position learning is switched off");
}

#[test]
fn the_draw_and_resign_settings_are_options_with_their_ranges() {
    let mut engine = Session::start();
    engine.send("uci");
    let (_, intro) = engine.expect("uciok", Duration::from_secs(5));
    for p in PolicySettings::PARAMETERS {
        let line = format!(
            "option name {} type spin default {} min {} max {}",
            p.name,
            p.default_value(),
            p.min,
            p.max
        );
        assert!(intro.contains(&line), "{line}: {intro:?}");
    }
    for line in [
        "option name Resign type check default true",
        "option name Draw type check default true",
        "option name Rules type combo default Terra var Terra var DeadBand",
    ] {
        assert!(intro.iter().any(|l| l == line), "{line}: {intro:?}");
    }
    engine.send("setoption name terra.resign_moves value 99");
    let (line, _) = engine.expect("info string", Duration::from_secs(5));
    assert_eq!(line, "info string terra.resign_moves must be from 1 to 20: set to 20, not 99");
    engine.send("setoption name dead_band.width value wide");
    engine.expect(
        "info string error: \"wide\" is not a valid value for dead_band.width",
        Duration::from_secs(5),
    );
    engine.send("setoption name terra.courage value 1");
    engine.expect("info string error: unknown option 'terra.courage'", Duration::from_secs(5));
}

/// The lines up to the best move of a search of `LEVEL_AT_MOVE_ONE` to `LEVEL_DEPTH`.
fn level_first_move(engine: &mut Session) -> Vec<String> {
    engine.send("ucinewgame");
    engine.send(&format!("position fen {LEVEL_AT_MOVE_ONE}"));
    engine.send(&format!("go depth {LEVEL_DEPTH}"));
    let (best, mut lines) = engine.expect("bestmove", Duration::from_secs(10));
    lines.push(best);
    lines
}

#[test]
fn the_policy_says_what_it_would_do_before_the_best_move() {
    let mut engine = Session::start();
    let offer = "info string Kibitz would offer a draw: ";
    let lines = level_first_move(&mut engine);
    assert!(!lines.iter().any(|l| l.starts_with(offer)), "Terra's rules offer no draw at move 1: {lines:?}");
    engine.send("setoption name Rules value DeadBand");
    engine.send("setoption name dead_band.moves value 0");
    engine.send(&format!("setoption name dead_band.width value {LEVEL_BAND}"));
    let lines = level_first_move(&mut engine);
    let at = lines.iter().position(|l| l.starts_with(offer)).expect("a draw offer said");
    assert!(lines[at].contains("my score has stayed within"), "{lines:?}");
    assert_eq!(at + 2, lines.len(), "said just before the best move: {lines:?}");
    // Analysis is not judged.
    engine.send("ucinewgame");
    engine.send("position fen 8/8/4k3/8/8/4K3/r7/7R w - - 0 1");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    let (_, lines) = engine.expect("bestmove", Duration::from_secs(5));
    assert!(!lines.iter().any(|l| l.starts_with(offer)), "{lines:?}");
}

#[test]
fn a_policy_file_such_as_a_tuned_best_json_sets_the_draw_and_resign_settings() {
    let dir = TempDir::new("uci-policy-file");
    let path = dir.file("best.json");
    let policy = format!(
        r#"{{"rules": "dead-band", "dead_band": {{"width": {LEVEL_BAND}, "moves": 0, "threshold": 9000}}}}"#
    );
    std::fs::write(&path, policy).expect("writable");
    let mut engine = Session::start();
    engine.send("uci");
    let (_, intro) = engine.expect("uciok", Duration::from_secs(5));
    assert!(intro.iter().any(|l| l == "option name PolicyFile type string default <empty>"), "{intro:?}");
    engine.send(&format!("setoption name PolicyFile value {path}"));
    let (line, _) = engine.expect("info string", Duration::from_secs(5));
    assert_eq!(line, format!("info string PolicyFile {path}: loaded"));
    let lines = level_first_move(&mut engine);
    let offer = "info string Kibitz would offer a draw: ";
    assert!(lines.iter().any(|l| l.starts_with(offer)), "the file's dead band offers at once: {lines:?}");
    engine.send(&format!("setoption name PolicyFile value {}", dir.file("missing.json")));
    let (line, _) = engine.expect("info string", Duration::from_secs(5));
    assert!(line.starts_with("info string error: PolicyFile: "), "{line}");
}

#[test]
fn syzygy_path_gives_the_search_the_tables() {
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy");
    let mut engine = Session::start();
    engine.send(&format!("setoption name SyzygyPath value {tables}"));
    let (line, _) = engine.expect("info string SyzygyPath", Duration::from_secs(5));
    assert!(line.ends_with(": 70 files, up to 4 pieces"), "{line}");
    // KRvK: the tables' win shows as a score no evaluation reaches, with the probes counted
    // once captures lead into the tables.
    engine.send("position fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    engine.send("go depth 4");
    let (best, infos) = engine.expect("bestmove", Duration::from_secs(30));
    let last = infos.iter().rev().find(|l| l.contains(" score ")).expect("an info line");
    assert!(last.contains("score cp 19999") || last.contains("score mate"), "{last}");
    let pos: Chess = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .expect("fen")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("legal");
    assert!(legal_in(&pos, &best), "{best}");
    engine.send("position fen 8/8/8/3k4/8/8/2rr4/KQ6 w - - 0 60");
    engine.send("go depth 4");
    let (_, infos) = engine.expect("bestmove", Duration::from_secs(30));
    let hits: u64 = infos
        .iter()
        .filter_map(|l| l.split_whitespace().skip_while(|&w| w != "tbhits").nth(1)?.parse().ok())
        .max()
        .unwrap_or(0);
    assert!(hits > 0, "{infos:?}");
    // Unset, the tables are gone: the same position probes nothing.
    engine.send("setoption name SyzygyPath value <empty>");
    engine.send("ucinewgame");
    engine.send("position fen 8/8/8/3k4/8/8/2rr4/KQ6 w - - 0 60");
    engine.send("go depth 4");
    let (_, infos) = engine.expect("bestmove", Duration::from_secs(30));
    assert!(infos.iter().filter(|l| l.contains(" pv ")).all(|l| l.contains("tbhits 0 ")), "{infos:?}");
}
