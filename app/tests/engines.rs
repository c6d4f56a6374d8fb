//! External engines in the app: added in the Engines dialog, chosen as the opponent in New
//! game, played against, and reported when they fail. Real programs only: Debian's
//! `stockfish` (which `.ci/run` installs) and the small misbehaving scripts of
//! `engine/tests/engines/`.

mod common;

use common::{NoFiles, step_until};

use std::path::Path;
use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{AppOptions, KibitzApp, Paths};
use kibitz_engine::{Termination, write_atomic};

const STOCKFISH: &str = "/usr/games/stockfish";

/// A fake engine from the engine crate's tests.
fn script(name: &str) -> String {
    format!("{}/../engine/tests/engines/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// An app whose settings file holds `settings` (JSON) before it starts.
fn app(root: &Path, settings: &str) -> Harness<'static, KibitzApp> {
    let paths = Paths::under(root.to_path_buf());
    write_atomic(&paths.settings_file(), settings.as_bytes()).expect("settings written");
    let options = AppOptions { paths, picker: Arc::new(NoFiles), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    h
}

fn click(h: &mut Harness<'_, KibitzApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(4);
}

fn has_text(h: &Harness<'_, KibitzApp>, part: &str) -> bool {
    h.query_all_by(|n| n.value().is_some_and(|v| v.contains(part))).next().is_some()
}

/// Steps frames until some text contains `part`.
fn wait_for_text(h: &mut Harness<'_, KibitzApp>, part: &str) {
    let start = std::time::Instant::now();
    while !has_text(h, part) {
        assert!(start.elapsed().as_secs() < 30, "no text containing {part:?} appeared");
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Types `text` into the field labelled `label`.
fn type_into(h: &mut Harness<'_, KibitzApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.step();
    h.get_by_label(label).type_text(text);
    h.step();
}

/// Plays a move by clicking its two squares.
fn play(h: &mut Harness<'_, KibitzApp>, from: &str, to: &str) {
    click(h, from);
    click(h, to);
}

/// Starts a game as White against `opponent` through the New game dialog.
fn new_game_against(h: &mut Harness<'_, KibitzApp>, opponent: &str) {
    click(h, "New game");
    h.get_by_label("White").click();
    h.step();
    h.get_by_label(opponent).click();
    h.step();
    click(h, "Start");
}

#[test]
fn an_engine_added_in_the_dialog_plays_as_the_opponent() {
    assert!(
        Path::new(STOCKFISH).exists(),
        "{STOCKFISH} is missing: `apt-get install stockfish` (.ci/run does)"
    );
    let dir = tempfile::tempdir().expect("a temporary folder");
    // Stockfish gets 3 seconds and 0.1 a move: it answers at once.
    let settings = r#"{"own_book": false, "clock": {"enabled": true, "player": "300+0", "engine": "3+0.1"}}"#;
    let mut h = app(dir.path(), settings);
    click(&mut h, "Engines");
    type_into(&mut h, "Engine program", STOCKFISH);
    click(&mut h, "Add");
    wait_for_text(&mut h, "It works: it answered");
    // Its declared options are shown for setting: Hash is a number, Ponder a switch.
    assert!(h.query_by_label("Ponder").is_some(), "Stockfish's options are not shown");
    // The dialog grows to show the options and settles over a few frames.
    h.run_steps(10);
    click(&mut h, "Save engines");
    assert!(h.query_by_label("Engine program").is_none(), "the Engines dialog is still open");

    new_game_against(&mut h, "stockfish");
    play(&mut h, "e2, white pawn", "e4, empty");
    step_until(&mut h, "Stockfish's reply", |app| app.game().len() == 2);
    assert_eq!(h.state().game().tag("Black"), Some("stockfish"));
    assert!(h.state().game().ending().is_none());
    // Its search is shown under its name, and its clock is labelled with it.
    assert!(h.query_by_label("stockfish clock").is_some());
}

#[test]
fn a_crashing_engine_is_reported_and_the_app_carries_on() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let settings = format!(
        r#"{{"own_book": false, "clock": {{"enabled": false}},
            "engines": [{{"name": "Crashy", "path": "{}", "protocol": "uci"}}]}}"#,
        script("crash-at-third-go")
    );
    let mut h = app(dir.path(), &settings);
    new_game_against(&mut h, "Crashy");
    play(&mut h, "e2, white pawn", "e4, empty");
    step_until(&mut h, "Crashy's first move", |app| app.game().len() == 2);
    play(&mut h, "g1, white knight", "f3, empty");
    step_until(&mut h, "Crashy's second move", |app| app.game().len() == 4);
    play(&mut h, "f1, white bishop", "b5, empty");
    // Its third search kills it: the player is told, with its last words, and wins.
    step_until(&mut h, "the crash", |app| app.game().ending().is_some());
    let ending = h.state().game().ending().expect("the game ended");
    assert_eq!(ending.termination, Termination::Abandoned);
    assert_eq!(h.state().game().result(), "1-0");
    let notices = h.state().notices().join("\n");
    assert!(notices.contains("Crashy crashed"), "{notices}");
    assert!(notices.contains("segmentation fault (pretend)"), "{notices}");
    // The app carries on: a new game against Kibitz starts and is played.
    click(&mut h, "Close");
    new_game_against(&mut h, "Kibitz");
    play(&mut h, "d2, white pawn", "d4, empty");
    step_until(&mut h, "Kibitz's reply", |app| app.game().len() == 2);
}

#[test]
fn a_program_that_is_no_engine_is_explained_in_the_dialog() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut h = app(dir.path(), r#"{"own_book": false}"#);
    click(&mut h, "Engines");
    type_into(&mut h, "Engine program", &script("not-an-engine"));
    click(&mut h, "Add");
    wait_for_text(&mut h, "does not speak UCI or xboard");
    type_into(&mut h, "Engine program", "/no/such/engine");
    click(&mut h, "Add");
    wait_for_text(&mut h, "could not be started");
}

#[test]
fn two_engines_play_each_other_while_the_player_watches() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let settings = format!(
        r#"{{"own_book": false, "clock": {{"enabled": true, "player": "60+1", "engine": "20+0.2"}},
            "engines": [{{"name": "Crashy", "path": "{}", "protocol": "uci"}}]}}"#,
        script("crash-at-third-go")
    );
    let mut h = app(dir.path(), &settings);
    click(&mut h, "New game");
    h.get_by_label("Watch two engines play each other").click();
    h.run_steps(3);
    // White is Kibitz (the default), Black the crashing engine.
    h.get_by_label("Black engine").click();
    h.run_steps(3);
    h.get_by_label("Crashy").click();
    h.run_steps(3);
    click(&mut h, "Start");
    assert_eq!(h.state().game().tag("Black"), Some("Crashy"));
    // Nobody at the keyboard plays: the board takes no move and offers are not the watcher's.
    let offer = h.get_by_label("Offer draw");
    assert!(offer.accesskit_node().is_disabled(), "the watcher cannot offer a draw");
    step_until(&mut h, "two moves each", |app| app.game().len() >= 4 || app.game().ending().is_some());
    step_until(&mut h, "the crash", |app| app.game().ending().is_some());
    assert_eq!(h.state().game().ending().map(|e| e.termination), Some(Termination::Abandoned));
    assert_eq!(h.state().game().result(), "1-0");
    assert!(h.query_by_label("Kibitz clock").is_some() && h.query_by_label("Crashy clock").is_some());
}
