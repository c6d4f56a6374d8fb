//! The Tournament workspace: engines chosen in a form play a match, a gauntlet, a round robin
//! or the TCEC Cup's knockout through the one match runner (`kibitz match` is the same
//! runner), under TCEC's or Fishtest's adjudication. A live board per game under way shows
//! both engines' evaluations, clocks and each rule's countdown; the results table, the cross
//! table or the bracket fill in as games end, and each game opens to study.

mod choices;
mod form;
mod live_board;
mod results;
mod running;

use std::path::PathBuf;

use egui::Ui;
use kibitz_engine::GameRecord;

pub use choices::{Entrant, TournamentChoices};
pub use running::Running;

use crate::pieces::PieceTextures;

/// What the workspace asks of the app.
#[derive(Clone, Debug)]
pub enum TournamentRequest {
    /// Ask for an openings suite (EPD or PGN).
    PickOpenings,
    /// Ask for the folder of the Syzygy tablebases.
    PickTablebases,
    /// Play the tournament the form describes.
    Start,
    /// Finish the stopped tournament from its PGN.
    Resume,
    /// Abandon the games under way and stop.
    Cancel,
    /// Open the tournament's PGN in the game list.
    OpenGames(PathBuf),
    /// Open one game to study.
    OpenGame(Box<GameRecord>),
}

/// The workspace's state: the tournament running or run last.
#[derive(Default)]
pub struct TournamentView {
    /// The tournament under way, or the last one.
    pub running: Option<Running>,
}

impl TournamentView {
    /// Takes in the runner's news (once a frame).
    pub fn poll(&mut self) {
        if let Some(running) = self.running.as_mut() {
            running.poll();
        }
    }

    /// Whether a tournament is being played.
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.running.as_ref().is_some_and(Running::is_running)
    }

    /// The side panel: the form, and Start, Cancel or Resume.
    pub fn form_ui(
        &mut self,
        ui: &mut Ui,
        choices: &mut TournamentChoices,
        engines: &[kibitz_engine::EngineConfig],
        tablebases: &mut Option<PathBuf>,
    ) -> Option<TournamentRequest> {
        form::form_ui(ui, choices, engines, tablebases, self.running.as_ref())
    }

    /// The central panel: the live boards, the results and the games.
    pub fn ui(&mut self, ui: &mut Ui, pieces: &PieceTextures) -> Option<TournamentRequest> {
        let Some(running) = self.running.as_mut() else {
            ui.heading("Tournament");
            ui.label("Choose the engines, the time control, the format and the rules, then press Start.");
            ui.label("Each game is shown here as it is played, with both engines' evaluations and clocks.");
            return None;
        };
        let mut request = None;
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            results::progress_ui(ui, running);
            if running.is_running() {
                ui.horizontal_wrapped(|ui| {
                    for board in &mut running.boards {
                        ui.group(|ui| board.ui(ui, pieces));
                    }
                });
            }
            ui.separator();
            request = results::results_ui(ui, running);
        });
        request
    }
}
