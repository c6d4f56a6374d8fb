//! Kibitz's desktop app: an egui board and panels that drive the in-process engine thread
//! through typed commands and events (see `docs/ARCHITECTURE.md`).

mod action;
mod analysis_panel;
mod annotate_dialog;
mod app;
mod board;
mod board_editor;
mod board_geometry;
mod board_marks;
mod book_files;
mod book_view;
mod clock_settings;
mod clock_view;
mod dialog;
mod engine_choice;
mod engines_panel;
mod eval_bar;
mod eval_breakdown;
mod eval_graph;
mod files;
mod force;
mod game_list;
mod hint;
mod learning;
mod learning_settings;
mod move_tree;
mod new_game;
mod paths;
mod pieces;
mod policy_settings;
mod prompts;
mod session;
mod settings;
mod shown_log;
mod side_panel;
mod table;
mod tags_panel;
mod test_suite;
mod tournament;
mod tuning_view;
mod workspace;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

pub use app::{AppOptions, KibitzApp};
pub use board::{BoardState, BoardView, board_ui};
pub use board_editor::{BoardEditor, EditorEvent, PieceTextures, Tool};
pub use board_geometry::square_label;
pub use board_marks::{Arrow, Mark};
pub use clock_settings::ClockSettings;
pub use files::FilePicker;
pub use game_list::{GameList, GameListEvent};
pub use kibitz_engine::BookFormat;
pub use paths::Paths;
pub use session::SavedGame;
pub use settings::{ColorChoice, Settings};
pub use workspace::Workspace;

static PROCESS_START: OnceLock<Instant> = OnceLock::new();

/// Marks the moment the process started, for the start-up trace.
pub fn mark_process_start() {
    PROCESS_START.get_or_init(Instant::now);
}

/// Time since [`mark_process_start`].
#[must_use]
pub fn process_uptime() -> Duration {
    PROCESS_START.get_or_init(Instant::now).elapsed()
}

/// The application icon, decoded for the window.
#[must_use]
pub fn window_icon() -> egui::IconData {
    let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../icons/kibitz-256.png"));
    match image::load_from_memory_with_format(bytes, image::ImageFormat::Png) {
        Ok(img) => {
            let rgba = img.to_rgba8();
            egui::IconData { width: rgba.width(), height: rgba.height(), rgba: rgba.into_raw() }
        }
        Err(_) => egui::IconData::default(),
    }
}
