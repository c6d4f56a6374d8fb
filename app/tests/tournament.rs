//! The Tournament workspace, clicked through: a round robin chosen in the form is played
//! with its games in a PGN that opens to study; live boards show the rules' countdowns; a
//! cancelled tournament resumes to exactly its games; an engine that crashes loses its games
//! while the tournament goes on; a knockout draws its bracket; chosen tablebases adjudicate.

mod common;

use std::path::{Path, PathBuf};

use common::{app_in, step_until, wait_for_text};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{KibitzApp, Paths, Workspace};
use kibitz_engine::{GameRecord, Level, read_games, write_atomic};

/// The app in `root` with `settings` (JSON) written before it starts, on the Tournament tab.
fn tournament_app(root: &Path, settings: &str) -> Harness<'static, KibitzApp> {
    write_atomic(&Paths::under(root.to_path_buf()).settings_file(), settings.as_bytes()).expect("settings");
    let mut h = app_in(root);
    h.get_by_label("Tournament").click();
    h.run_steps(10);
    h
}

/// Replaces the time control typed in the form.
fn type_control(h: &mut Harness<'_, KibitzApp>, control: &str) {
    h.get_by_label("Time control").focus();
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("Time control").type_text(control);
    h.run_steps(2);
}

fn click(h: &mut Harness<'_, KibitzApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(4);
}

/// The games of the one tournament PGN under `root`.
fn tournament_games(root: &Path) -> Vec<GameRecord> {
    let folder = root.join("data").join("tournaments");
    let files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("the tournaments folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    assert_eq!(files.len(), 1, "one tournament, one PGN: {files:?}");
    let bytes = std::fs::read(&files[0]).expect("the PGN");
    read_games(&bytes).map(|g| g.expect("every game reads")).collect()
}

#[test]
fn a_round_robin_from_the_form_is_played_and_its_games_open_to_study() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = tournament_app(dir.path(), r#"{"own_book": false, "tournament": {"pairs": 1}}"#);
    let weakest = format!("Kibitz ({})", Level::weakest());
    click(&mut h, &weakest);
    assert!(h.query_by_label(&format!("Remove {weakest}")).is_some(), "a third engine");
    type_control(&mut h, "sd 2");
    click(&mut h, "Round robin");
    click(&mut h, "Start");
    wait_for_text(&mut h, "Tournament over: 6 games.");

    let games = tournament_games(dir.path());
    assert_eq!(games.len(), 6, "three engines, one pair each encounter");
    let middle = format!("Kibitz ({})", Level::default());
    for engine in ["Kibitz (Full strength)", &middle, &weakest] {
        let played =
            games.iter().filter(|g| g.tag("White") == Some(engine) || g.tag("Black") == Some(engine));
        assert_eq!(played.count(), 4, "{engine} plays each other twice");
    }
    assert!(
        games.iter().all(|g| matches!(g.tag("Result"), Some("1-0" | "0-1" | "1/2-1/2"))),
        "every game has its result"
    );
    assert!(h.query_by_label("Cross table").is_some());

    click(&mut h, "Open game 3");
    step_until(&mut h, "the study", |app| app.workspace() == Workspace::Study);
    // One game at a time: the PGN holds the games in the order of the schedule.
    assert_eq!(h.state().game().moves(), games[2].moves(), "game 3 opens with its moves");

    h.get_by_label("Tournament").click();
    h.run_steps(4);
    click(&mut h, "Open all games");
    wait_for_text(&mut h, "tournament-");
}

#[test]
fn live_boards_count_down_and_a_cancelled_tournament_resumes_to_exactly_its_games() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = tournament_app(dir.path(), r#"{"own_book": false}"#);
    type_control(&mut h, "st 0.05");
    click(&mut h, "Match");
    click(&mut h, "Start");
    // A live board: the game, its engines and TCEC's countdowns.
    wait_for_text(&mut h, "TCEC draw rule: ");
    wait_for_text(&mut h, "TCEC win rule: ");
    assert!(h.query_by_label_contains("Game 1").is_some(), "the first game is on its board");
    click(&mut h, "Cancel tournament");
    wait_for_text(&mut h, "Stopped after");
    let before = tournament_games(dir.path()).len();
    assert!(before < 4, "stopped before the end");

    click(&mut h, "Resume");
    wait_for_text(&mut h, "Tournament over: 4 games.");
    let games = tournament_games(dir.path());
    let mut rounds: Vec<&str> = games.iter().filter_map(|g| g.tag("Round")).collect();
    rounds.sort_unstable();
    assert_eq!(rounds, ["1.1", "1.2", "2.1", "2.2"], "two pairs, none lost or played twice");
}

fn script(name: &str) -> String {
    format!("{}/../engine/tests/engines/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn an_engine_that_crashes_loses_its_games_and_the_tournament_goes_on() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let settings = format!(
        r#"{{"own_book": false,
            "engines": [{{"name": "Crashy", "path": "{}", "protocol": "uci"}}],
            "tournament": {{"entrants": [{{"kibitz": "beginner"}}], "control": "st 0.05", "pairs": 1}}}}"#,
        script("crash-at-third-go")
    );
    let mut h = tournament_app(dir.path(), &settings);
    click(&mut h, "Crashy");
    click(&mut h, "Match");
    click(&mut h, "Start");
    wait_for_text(&mut h, "Tournament over: 2 games.");
    let games = tournament_games(dir.path());
    assert_eq!(games.len(), 2);
    for game in &games {
        let kibitz_won = if game.tag("White") == Some("Crashy") { "0-1" } else { "1-0" };
        assert_eq!(game.tag("Result"), Some(kibitz_won));
        assert_eq!(game.tag("Termination"), Some("abandoned"));
    }
    wait_for_text(&mut h, "disconnects");
}

/// Steps until a label shows `text`, for at most `seconds`.
fn wait_long(h: &mut Harness<'_, KibitzApp>, text: &str, seconds: u64) {
    let start = std::time::Instant::now();
    while h.query_by_label_contains(text).is_none() {
        assert!(start.elapsed().as_secs() < seconds, "no '{text}' shown within {seconds} s");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn a_knockout_draws_its_bracket_with_a_final_and_a_match_for_third_place() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // Tactical positions and a hundredth of a second a move: two engines of the same
    // strength still part after a few tiebreak pairs.
    std::fs::copy(
        format!("{}/../data/epd/wac.epd", env!("CARGO_MANIFEST_DIR")),
        dir.path().join("suite.epd"),
    )
    .expect("WAC");
    let settings = r#"{"own_book": false, "tournament": {"entrants": [{"kibitz": "strong"},
        {"kibitz": "club"}, {"kibitz": "casual"}, {"kibitz": "beginner"}], "control": "st 0.01",
        "pairs": 1, "concurrency": 2}}"#;
    let mut h = tournament_app(dir.path(), settings);
    click(&mut h, "Choose openings…");
    wait_for_text(&mut h, "suite.epd");
    click(&mut h, "Random order");
    click(&mut h, "Knockout");
    click(&mut h, "Start");
    wait_long(&mut h, "Tournament over: ", 120);
    wait_for_text(&mut h, "Winner: Kibitz");
    assert!(h.query_by_label("For third place").is_some(), "the losing semi-finalists meet");
    assert!(h.query_by_label("Round 2").is_some(), "a final round");
    let games = tournament_games(dir.path());
    let mut rounds: Vec<&str> = games.iter().filter_map(|g| g.tag("Round")).collect();
    let played = rounds.len();
    rounds.sort_unstable();
    rounds.dedup();
    assert_eq!(rounds.len(), played, "every game once");
    for duel in ["1.1.1", "1.2.1", "2.1.1", "2.2.1"] {
        assert!(rounds.contains(&duel), "{duel}: two semi-finals, the final and the match for third");
    }
}

#[test]
fn with_tablebases_chosen_an_ending_they_cover_is_adjudicated_at_once() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let tables = format!("{}/../data/syzygy", env!("CARGO_MANIFEST_DIR"));
    std::os::unix::fs::symlink(tables, dir.path().join("tablebases")).expect("a link to the tables");
    std::fs::write(dir.path().join("suite.epd"), "8/8/8/4k3/8/8/8/R3K3 w - - id \"KRvK\";\n")
        .expect("a suite");
    let mut h = tournament_app(dir.path(), r#"{"own_book": false, "tournament": {"pairs": 1}}"#);
    assert!(h.query_by_label("No tablebases").is_none(), "none chosen yet");
    click(&mut h, "Choose tablebases…");
    wait_for_text(&mut h, "No tablebases");
    click(&mut h, "Choose openings…");
    wait_for_text(&mut h, "suite.epd");
    type_control(&mut h, "st 0.05");
    click(&mut h, "Match");
    click(&mut h, "Start");
    wait_for_text(&mut h, "Tournament over: 2 games.");
    wait_for_text(&mut h, "Syzygy: KRvK is won for White");
    for game in tournament_games(dir.path()) {
        assert_eq!(game.tag("Result"), Some("1-0"), "White has the rook");
        assert!(game.len() <= 2, "adjudicated at once, not played out: {} plies", game.len());
    }
}
