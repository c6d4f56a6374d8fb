//! Pixel snapshots of the rendered window (wgpu on Mesa's CPU renderer). Regenerate with
//! `UPDATE_SNAPSHOTS=1 cargo test -p kibitz --test snapshot` and look at the PNGs.

mod common;

use common::NoFiles;

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use kibitz_app::{AppOptions, KibitzApp, Paths};

#[test]
fn start_position_with_a_knight_selected() {
    let dir = tempfile::tempdir().unwrap();
    let options = AppOptions {
        paths: Paths::under(dir.path().to_path_buf()),
        picker: Arc::new(NoFiles),
        screenshot: None,
        open: None,
    };
    let mut h = Harness::builder().with_size([900.0, 600.0]).build_eframe(|cc| KibitzApp::new(cc, options));
    h.run_steps(3);
    // Selecting the knight shows its two targets as dots.
    h.get_by_label("g1, white knight").click();
    h.run_steps(2);
    h.remove_cursor();
    h.run_steps(1);
    h.snapshot("start_position_knight_selected");
}
