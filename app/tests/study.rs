//! Studying an opened game: variations, glyphs, comments, keys, clipboard and saved positions.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::KibitzApp;
use kibitz_engine::{Nag, NodeId, read_pgn};

mod common;

use common::{app_in as app, studied};

fn click(h: &mut Harness<'_, KibitzApp>, label: &str) {
    h.get_by_label(label).click();
    h.run_steps(3);
}

fn key(h: &mut Harness<'_, KibitzApp>, key: egui::Key) {
    h.key_press(key);
    h.run_steps(2);
}

const GAME: &str =
    "[Event \"Study\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n";

#[test]
fn variations_are_made_promoted_demoted_and_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = studied(dir.path(), GAME);
    assert_eq!(h.state().current(), NodeId::ROOT, "a study opens at the start");
    assert!(!h.state().is_thinking(), "Kibitz does not play in a study");
    // To 2. Nf3, then play 2... d6 instead of 2... Nc6: a variation.
    for _ in 0..3 {
        key(&mut h, egui::Key::ArrowRight);
    }
    assert_eq!(h.state().viewing(), 3);
    click(&mut h, "d7, black pawn");
    click(&mut h, "d6, empty");
    let game = h.state().game();
    assert_eq!(game.san_moves(), ["e4", "e5", "Nf3", "Nc6", "Bb5"], "the main line is unchanged");
    let d6 = h.state().current();
    assert_eq!(game.node(d6).unwrap().san(), "d6");
    assert!(!game.is_main_line(d6));
    assert!(h.query_by_label("2... d6").is_some(), "the variation is listed");

    click(&mut h, "Promote variation");
    assert_eq!(h.state().game().san_moves()[3], "d6", "promoted to the main line");
    click(&mut h, "Demote variation");
    assert_eq!(h.state().game().san_moves()[3], "Nc6", "demoted again");
    // Shift+← leaves the variation, to the move it branches from (2. Nf3).
    h.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::ArrowLeft);
    h.run_steps(2);
    assert_eq!(h.state().viewing(), 3);
    h.get_by_label("2... d6").click();
    h.run_steps(2);
    click(&mut h, "Delete variation");
    assert!(h.query_by_label("2... d6").is_none());
    assert_eq!(h.state().game().node(h.state().current()).unwrap().ply(), 3, "back on 2. Nf3");
}

#[test]
fn glyphs_by_key_and_comments_are_kept_in_the_pgn() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = studied(dir.path(), GAME);
    key(&mut h, egui::Key::ArrowRight);
    key(&mut h, egui::Key::Num1);
    key(&mut h, egui::Key::Num5);
    let e4 = h.state().current();
    assert_eq!(h.state().game().node(e4).unwrap().nags(), [Nag(1), Nag(5)]);
    key(&mut h, egui::Key::Num5);
    assert_eq!(h.state().game().node(e4).unwrap().nags(), [Nag(1)], "a second press removes it");
    assert!(h.query_by_label("1. e4!").is_some(), "shown with its glyph");

    h.get_by_label("Comment").focus();
    h.step();
    h.get_by_label("Comment").type_text("Best by test");
    h.step();
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    assert_eq!(h.state().game().node(e4).unwrap().comment(), "Best by test");
    click(&mut h, "Save game");
    let start = Instant::now();
    while !dir.path().join("saved.pgn").exists() {
        assert!(start.elapsed() < Duration::from_secs(10), "not saved");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    let text = std::fs::read_to_string(dir.path().join("saved.pgn")).unwrap();
    assert!(text.contains("1. e4 $1 {Best by test}"), "{text}");
    assert_eq!(
        read_pgn(&text).unwrap().node(read_pgn(&text).unwrap().main_line()[1]).unwrap().comment(),
        "Best by test"
    );
}

#[test]
fn positions_are_copied_saved_and_pasted_and_keys_listed() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = studied(dir.path(), GAME);
    key(&mut h, egui::Key::End);
    assert_eq!(h.state().viewing(), 5);
    h.get_by_label("Copy FEN").click();
    h.step();
    let copied = h.output().platform_output.commands.iter().any(|c| {
        matches!(c, egui::OutputCommand::CopyText(t) if t.starts_with("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq"))
    });
    assert!(copied, "{:?}", h.output().platform_output.commands);
    click(&mut h, "Save position");
    let file = dir.path().join("position.epd");
    let start = Instant::now();
    while !file.exists() {
        assert!(start.elapsed() < Duration::from_secs(10), "not saved");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq -\n",
        "EPD has the four position fields"
    );

    h.event(egui::Event::Paste("8/8/8/4k3/8/8/8/R3K3 w Q - 0 1".into()));
    h.run_steps(3);
    assert!(h.state().is_study());
    assert_eq!(h.state().game().start_fen().as_deref(), Some("8/8/8/4k3/8/8/8/R3K3 w Q - 0 1"));
    h.event(egui::Event::Paste("not chess at all".into()));
    h.run_steps(3);
    assert!(h.state().notices().iter().any(|n| n.starts_with("The pasted text is neither")));

    h.event(egui::Event::Text("?".into()));
    h.run_steps(3);
    assert!(
        h.query_by_label_contains("out of the variation").is_some()
            || h.query_all_by(|n| n.value().is_some_and(|v| v == "out of the variation")).next().is_some()
    );
}

#[test]
fn a_position_set_up_in_the_editor_becomes_a_study() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = studied(dir.path(), GAME);
    click(&mut h, "Set up position");
    click(&mut h, "Empty board");
    for (piece, square) in
        [("White king", "e1, empty"), ("Black king", "e8, empty"), ("White rook", "a1, empty")]
    {
        click(&mut h, piece);
        click(&mut h, square);
    }
    click(&mut h, "Done");
    assert!(h.state().is_study());
    let fen = h.state().game().start_fen().unwrap();
    assert!(fen.starts_with("4k3/8/8/8/8/8/8/R3K3 w"), "{fen}");
    // The play board is back, with the new position.
    assert!(h.query_by_label("a1, white rook").is_some());
}

#[test]
fn a_file_of_several_games_opens_as_a_list() {
    let dir = tempfile::tempdir().unwrap();
    let mut pgn = String::new();
    for (white, moves) in [("Anna", "1. e4 e5 *"), ("Boris", "1. d4 d5 2. c4 *"), ("Carl", "1. c4 *")] {
        pgn.push_str(&format!(
            "[Event \"T\"]\n[White \"{white}\"]\n[Black \"X\"]\n[Result \"*\"]\n\n{moves}\n\n"
        ));
    }
    std::fs::write(dir.path().join("game.pgn"), pgn).unwrap();
    let mut h = app(dir.path());
    h.get_by_label("Open game").click();
    let start = Instant::now();
    while h.query_by_label_contains("Boris - X").is_none() {
        assert!(start.elapsed() < Duration::from_secs(20), "the list did not appear");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.get_by_label_contains("Boris - X").click();
    h.run_steps(2);
    // The list's own "Open game" button sits left of the side panel's.
    let open =
        h.get_all_by_label("Open game").min_by(|a, b| a.rect().min.x.total_cmp(&b.rect().min.x)).unwrap();
    open.click();
    let start = Instant::now();
    while h.state().game().len() != 3 {
        assert!(start.elapsed() < Duration::from_secs(20), "the game did not open");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(h.state().is_study());
    assert_eq!(h.state().game().tag("White"), Some("Boris"));
}

#[test]
fn a_broken_game_opens_up_to_its_last_legal_move() {
    let dir = tempfile::tempdir().unwrap();
    let broken = "[Event \"?\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ke3 Nf6 *\n";
    std::fs::write(dir.path().join("game.pgn"), broken).unwrap();
    let mut h = studied(dir.path(), broken);
    assert_eq!(h.state().game().san_moves(), ["e4", "e5", "Nf3", "Nc6"]);
    let notices = h.state().notices().join("\n");
    assert!(notices.contains("read up to the last legal move") && notices.contains("line 3"), "{notices}");
    h.run_steps(2);
}
