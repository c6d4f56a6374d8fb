//! Pondering (Crafty's `ponder on`), clicked through by accessible labels: off by default;
//! switched on ("Think on my time"), Kibitz thinks on the player's time about the reply it expects; that reply
//! played is a ponder hit, another reply stops the ponder search and Kibitz searches anew;
//! switched off, it stops.

mod common;

use std::path::Path;

use common::{app_in, play_typed, step_until, wait_for_text};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{KibitzApp, Paths};
use kibitz_engine::write_atomic;
use shakmaty::Position;
use shakmaty::san::San;

/// Out of the book, with moves for both sides to think about.
const MIDDLEGAME: &str = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9";

/// A game as White against Kibitz at the level of the settings (3 plies deep), from
/// [`MIDDLEGAME`].
fn game_against_kibitz(root: &Path) -> Harness<'static, KibitzApp> {
    let settings = r#"{"level": "casual", "own_book": false}"#;
    write_atomic(&Paths::under(root.to_path_buf()).settings_file(), settings.as_bytes()).expect("settings");
    let mut h = app_in(root);
    h.get_by_label("New game").click();
    h.run_steps(3);
    h.get_by_label("White").click();
    h.get_by_label_contains("Start from FEN").focus();
    h.step();
    h.get_by_label_contains("Start from FEN").type_text(MIDDLEGAME);
    h.step();
    h.get_by_label("Start").click();
    h.run_steps(3);
    h
}

/// Plays `san` and waits for Kibitz's reply.
fn play_and_wait(h: &mut Harness<'_, KibitzApp>, san: &str) {
    let before = h.state().game().len();
    play_typed(h, san);
    step_until(h, "Kibitz's reply", |app| app.game().len() == before + 2);
}

/// The SAN of the reply Kibitz ponders on, once it does.
fn pondered(h: &mut Harness<'_, KibitzApp>) -> String {
    step_until(h, "a ponder search", |app| app.pondering_on().is_some());
    let app = h.state();
    let reply = app.pondering_on().expect("pondering");
    San::from_move(app.game().position(), reply).to_string()
}

#[test]
fn kibitz_ponders_on_the_expected_reply_and_a_hit_answers_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut h = game_against_kibitz(dir.path());
    // Off by default: after its reply, Kibitz does not think on the player's time.
    play_and_wait(&mut h, "a3");
    h.run_steps(5);
    assert_eq!(h.state().pondering_on(), None, "pondering is off by default");

    h.get_by_label("Think on my time").click();
    h.run_steps(2);
    play_and_wait(&mut h, "h3");
    let expected = pondered(&mut h);
    // The player plays the expected reply: a ponder hit, then Kibitz's move.
    play_and_wait(&mut h, &expected);
    wait_for_text(&mut h, &format!("Ponder hit: it expected {expected}"));

    // Another reply than the one expected: the ponder search is dropped, Kibitz searches the
    // position on the board and answers it with a legal move.
    let expected = pondered(&mut h);
    let other = {
        let pos = h.state().game().position().clone();
        let moves = pos.legal_moves();
        let m =
            moves.iter().find(|m| San::from_move(&pos, **m).to_string() != expected).expect("another move");
        San::from_move(&pos, *m).to_string()
    };
    play_and_wait(&mut h, &other);
    assert!(!h.state().notices().iter().any(|n| n.contains("illegal")), "{:?}", h.state().notices());

    // Switched off, the ponder search stops and none starts again.
    pondered(&mut h);
    h.get_by_label("Think on my time").click();
    h.run_steps(2);
    assert_eq!(h.state().pondering_on(), None);
    let last = h.state().game().position().legal_moves()[0];
    let san = San::from_move(h.state().game().position(), last).to_string();
    play_and_wait(&mut h, &san);
    h.run_steps(5);
    assert_eq!(h.state().pondering_on(), None);
}
