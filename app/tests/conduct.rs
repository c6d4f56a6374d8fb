//! Draw offers, claims, resignation and the clock, driven through the app's labels.

mod common;

use common::{new_game, step_until};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{AppOptions, FilePicker, KibitzApp, Paths};
use kibitz_engine::{Termination, write_atomic};
use shakmaty::Color;

/// Opens the file it was given.
struct FixedFile(PathBuf);

impl FilePicker for FixedFile {
    fn open_pgn(&self) -> Option<PathBuf> {
        Some(self.0.clone())
    }
    fn save_pgn(&self, _: &str) -> Option<PathBuf> {
        Some(self.0.clone())
    }
}

/// An app whose settings file holds `settings` (JSON) before it starts.
fn app(root: &Path, settings: &str) -> Harness<'static, KibitzApp> {
    let paths = Paths::under(root.to_path_buf());
    write_atomic(&paths.settings_file(), settings.as_bytes()).unwrap();
    let options = AppOptions {
        paths,
        picker: Arc::new(FixedFile(root.join("game.pgn"))),
        screenshot: None,
        open: None,
    };
    let mut h = Harness::builder().with_size([1100.0, 760.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    h
}

fn click(h: &mut Harness<'_, KibitzApp>, label: &str) {
    h.get_by_label(label).click();
    // Dialogs appear (and fade out) over a few frames.
    h.run_steps(4);
}

fn has_text(h: &Harness<'_, KibitzApp>, prefix: &str) -> bool {
    h.query_all_by(|n| n.value().is_some_and(|v| v.starts_with(prefix))).next().is_some()
}

const NO_CLOCK: &str = r#"{"clock": {"enabled": false}, "own_book": false}"#;

#[test]
fn a_draw_offer_is_declined_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path(), NO_CLOCK);
    new_game(&mut h, "White", None);
    // The offer stands with the next move; Kibitz answers once it has searched its reply.
    click(&mut h, "Offer draw");
    assert!(has_text(&h, "You offered a draw"));
    click(&mut h, "e2, white pawn");
    click(&mut h, "e4, empty");
    step_until(&mut h, "Kibitz's answer", |app| app.game().len() == 2);
    let notices = h.state().notices().join("\n");
    assert!(
        notices
            .contains("Kibitz declines your draw offer: it is only move 1; I agree to draws from move 40."),
        "{notices}"
    );
    assert!(h.state().game().ending().is_none());
}

#[test]
fn kibitz_offers_a_draw_and_the_player_accepts() {
    let dir = tempfile::tempdir().unwrap();
    // The dead band: Kibitz offers once its score stayed within ±10 pawns for more than 0 moves.
    let settings = r#"{"clock": {"enabled": false}, "own_book": false,
        "policy": {"rules": "dead-band", "dead_band": {"width": 1000, "moves": 0, "threshold": 100000}}}"#;
    let mut h = app(dir.path(), settings);
    new_game(&mut h, "Black", None);
    step_until(&mut h, "Kibitz's move and offer", |app| app.game().len() == 1);
    assert!(has_text(&h, "Kibitz: I offer a draw: my score has stayed within ±10.00 for 1 move."));
    click(&mut h, "Accept");
    let ending = h.state().game().ending().unwrap();
    assert_eq!(ending.termination, Termination::Agreement);
    assert_eq!(h.state().game().result(), "1/2-1/2");
    assert!(has_text(&h, "Draw by agreement."));
}

#[test]
fn the_player_claims_a_threefold_repetition() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = "[Event \"?\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";
    std::fs::write(dir.path().join("game.pgn"), pgn).unwrap();
    let mut h = app(dir.path(), NO_CLOCK);
    click(&mut h, "Open game");
    step_until(&mut h, "the opened game", |app| app.game().len() == 8);
    assert!(h.state().is_study(), "an opened game is studied first");
    h.key_press(egui::Key::End);
    h.run_steps(2);
    click(&mut h, "Play from here");
    assert!(!h.state().is_study());
    assert_eq!(h.state().human(), Color::White, "the player has the move");
    assert_eq!(h.state().game().claimable(), Some(Termination::ThreefoldRepetition));
    assert!(h.state().game().ending().is_none(), "a repetition is drawn only when claimed");
    click(&mut h, "Claim draw");
    assert_eq!(h.state().game().ending().map(|e| e.termination), Some(Termination::ThreefoldRepetition));
    assert!(has_text(&h, "Draw by threefold repetition."));
}

#[test]
fn resigning_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path(), NO_CLOCK);
    new_game(&mut h, "White", None);
    click(&mut h, "Resign");
    click(&mut h, "Keep playing");
    assert!(h.state().game().ending().is_none());
    click(&mut h, "Resign");
    click(&mut h, "Yes, resign");
    assert_eq!(h.state().game().result(), "0-1");
    assert!(has_text(&h, "Black wins: White resigned."));
    assert_eq!(h.state().game().tag("Termination"), Some("normal"));
}

#[test]
fn the_flag_falls_and_a_lone_king_cannot_win_on_time() {
    let dir = tempfile::tempdir().unwrap();
    // One second each; Kibitz (Black) has only its king.
    let settings = r#"{"clock": {"enabled": true, "player": "1+0"}, "own_book": false}"#;
    let mut h = app(dir.path(), settings);
    new_game(&mut h, "White", Some("4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1"));
    click(&mut h, "a2, white pawn");
    click(&mut h, "a3, empty");
    step_until(&mut h, "Kibitz's reply", |app| app.game().len() == 2);
    // The player's clock now runs out.
    step_until(&mut h, "the flag", |app| app.game().ending().is_some());
    let ending = h.state().game().ending().unwrap();
    assert_eq!(ending.termination, Termination::TimeoutVsInsufficientMaterial);
    assert_eq!(h.state().game().result(), "1/2-1/2");

    // With a rook, Kibitz wins on time.
    let settings = r#"{"clock": {"enabled": true, "player": "1+0"}, "own_book": false}"#;
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path(), settings);
    new_game(&mut h, "White", Some("r3k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1"));
    click(&mut h, "a2, white pawn");
    click(&mut h, "a3, empty");
    step_until(&mut h, "Kibitz's reply", |app| app.game().len() == 2);
    step_until(&mut h, "the flag", |app| app.game().ending().is_some());
    assert_eq!(h.state().game().ending().unwrap().to_string(), "Black wins on time");
    let last = h.state().game().node(h.state().game().main_end()).unwrap();
    assert!(last.clock().is_some(), "the move's clock is recorded");
    assert!(!last.comment().contains("[%clk"), "and kept apart from the comment");
    assert!(kibitz_engine::write_pgn(h.state().game()).contains("[%clk "));
}

#[test]
fn draw_settings_are_changed_in_their_panel() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(dir.path(), NO_CLOCK);
    click(&mut h, "Draw and resign settings");
    click(&mut h, "Kibitz may offer and accept draws");
    click(&mut h, "Apply");
    new_game(&mut h, "White", None);
    click(&mut h, "Offer draw");
    click(&mut h, "e2, white pawn");
    click(&mut h, "e4, empty");
    step_until(&mut h, "Kibitz's answer", |app| app.game().len() == 2);
    let notices = h.state().notices().join("\n");
    assert!(
        notices.contains("Kibitz declines your draw offer: I am set not to agree to draws."),
        "{notices}"
    );
    // The setting is kept for the next run.
    let saved = std::fs::read_to_string(dir.path().join("config").join("settings.json")).unwrap();
    assert!(saved.contains("\"draw\": false"), "{saved}");
}
