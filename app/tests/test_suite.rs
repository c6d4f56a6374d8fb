//! The Test suite window: a tiny suite run with the built-in engine, its total, and a failed
//! position opened in the Study workspace by a click.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{AppOptions, KibitzApp, Paths, Workspace};
use kibitz_engine::{EpdTest, write_atomic};

use common::NoFiles;

/// A mate in one to find, and the same position with the mate as the move to avoid (so it
/// is failed).
const SUITE: &str = "\
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"back rank\";
6k1/5ppp/8/8/8/8/8/R5K1 w - - am Ra8#; id \"spare the king\";
";

fn app(root: &Path) -> Harness<'static, KibitzApp> {
    app_with(root, r#"{"own_book": false}"#)
}

/// An app whose settings file holds `settings` (JSON) before it starts.
fn app_with(root: &Path, settings: &str) -> Harness<'static, KibitzApp> {
    let paths = Paths::under(root.to_path_buf());
    write_atomic(&paths.settings_file(), settings.as_bytes()).expect("settings written");
    let options = AppOptions { paths, picker: Arc::new(NoFiles), screenshot: None, open: None };
    let mut h = Harness::builder().with_size([1200.0, 800.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(2);
    h
}

fn has_text(h: &Harness<'_, KibitzApp>, part: &str) -> bool {
    h.query_all_by(|n| n.label().or(n.value()).is_some_and(|v| v.contains(part))).next().is_some()
}

/// Steps frames until some text contains `part`.
fn wait_for_text(h: &mut Harness<'_, KibitzApp>, part: &str) {
    let start = Instant::now();
    while !has_text(h, part) {
        assert!(start.elapsed() < Duration::from_secs(60), "no text containing {part:?} appeared");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.run_steps(2);
}

/// Opens the Test suite window and types the suite's path.
fn type_suite(h: &mut Harness<'_, KibitzApp>, suite: &Path) {
    h.get_by_label("Test suite").click();
    h.run_steps(3);
    h.get_by_label("Suite file").focus();
    h.step();
    h.get_by_label("Suite file").type_text(&suite.display().to_string());
    h.run_steps(2);
}

#[test]
fn a_suite_runs_with_kibitz_and_a_position_opens_as_a_study() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let suite = dir.path().join("tiny.epd");
    std::fs::write(&suite, SUITE).expect("suite written");
    let mut h = app(dir.path());
    type_suite(&mut h, &suite);
    // Kibitz is the engine unless another is chosen.
    assert!(has_text(&h, "Kibitz"));
    h.get_by_label("Run").click();
    wait_for_text(&mut h, "Solved 1 of 2");
    assert!(has_text(&h, "back rank"), "the solved position is listed");
    // Only the failed position when asked.
    h.get_by_label("Show failed positions only").click();
    h.run_steps(2);
    assert!(!has_text(&h, "back rank"), "the solved position is hidden");
    h.get_by_label_contains("spare the king").click();
    h.run_steps(4);
    let app = h.state();
    assert_eq!(app.workspace(), Workspace::Study);
    let expected = EpdTest::parse_suite(SUITE).expect("parses")[1].pos.clone();
    assert_eq!(app.game().position(), &expected);
    assert_eq!(app.game().tag("Event"), Some("Test suite: spare the king"));
    // The window stays open beside the board, with its results.
    assert!(has_text(&h, "Solved 1 of 2"));
    h.get_by_label("Close").click();
    h.run_steps(3);
    assert!(h.query_by_label("Suite file").is_none(), "the window closed");
}

#[test]
fn a_malformed_suite_is_explained_with_its_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let suite = dir.path().join("bad.epd");
    std::fs::write(&suite, "title a\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w\nsolution Qh5\n").expect("written");
    let mut h = app(dir.path());
    type_suite(&mut h, &suite);
    h.get_by_label("Run").click();
    wait_for_text(&mut h, "line 3: illegal move 'Qh5'");
}

#[test]
fn an_external_engine_runs_the_suite_and_its_crash_is_told() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let crashy = format!("{}/../engine/tests/engines/crash-at-third-go", env!("CARGO_MANIFEST_DIR"));
    let settings = format!(
        r#"{{"own_book": false, "engines": [{{"name": "Crashy", "path": "{crashy}", "protocol": "uci"}}]}}"#
    );
    // Crashy plays 1. e4 twice and falls over at its third search.
    let suite = dir.path().join("starts.epd");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4;\n";
    std::fs::write(&suite, start.repeat(4)).expect("suite written");
    let mut h = app_with(dir.path(), &settings);
    h.get_by_label("Test suite").click();
    h.run_steps(3);
    h.get_by_label("Suite file").focus();
    h.step();
    h.get_by_label("Suite file").type_text(&suite.display().to_string());
    h.get_by_label("Engine").click();
    h.run_steps(3);
    h.get_by_label("Crashy").click();
    h.run_steps(3);
    h.get_by_label("Run").click();
    wait_for_text(&mut h, "Solved 2 of 2 (stopped after 2 of 4 positions)");
    assert!(has_text(&h, "The engine failed at position 3"));
    assert!(has_text(&h, "Crashy crashed"));
}
