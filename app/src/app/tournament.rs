//! The app's side of the Tournament workspace: starting a tournament from the form (its games
//! go to a new PGN in the data folder), resuming a stopped one from its PGN, cancelling, and
//! opening its games.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use kibitz_engine::matches::MatchSetup;
use kibitz_engine::{Level, pgn_date_today};

use super::KibitzApp;
use crate::tournament::{Entrant, Running, TournamentChoices, TournamentRequest};
use crate::workspace::Workspace;

impl KibitzApp {
    /// Does what the Tournament workspace asked.
    pub(super) fn tournament_request(&mut self, request: TournamentRequest) {
        match request {
            TournamentRequest::PickOpenings => self.files.pick_openings(),
            TournamentRequest::PickTablebases => self.files.pick_tablebases(),
            TournamentRequest::Start => {
                let pgn = self.new_tournament_file();
                self.start_tournament(self.settings.tournament.clone(), pgn, false);
            }
            TournamentRequest::Resume => {
                if let Some(last) = self.tournament.running.as_ref().filter(|r| r.resumable()) {
                    let (choices, pgn) = (last.choices.clone(), last.pgn.clone());
                    self.start_tournament(choices, pgn, true);
                }
            }
            TournamentRequest::Cancel => {
                if let Some(running) = &self.tournament.running {
                    running.cancel();
                }
            }
            TournamentRequest::OpenGames(path) => {
                self.show_workspace(if self.study.is_some() { Workspace::Study } else { Workspace::Play });
                self.files.open_path(path);
            }
            TournamentRequest::OpenGame(game) => self.open_study(*game),
        }
    }

    /// Plays the tournament `choices` describe, its games written to `pgn` (finishing the
    /// run `pgn` holds when `resume`).
    fn start_tournament(&mut self, choices: TournamentChoices, pgn: PathBuf, resume: bool) {
        if self.tournament.is_running() {
            return;
        }
        let mut engines = match choices.engines(&self.settings.engines) {
            Ok(engines) => engines,
            Err(why) => {
                self.notices.push(why);
                return;
            }
        };
        // Kibitz at full strength plays endings by the tables, as in a game at the board.
        if let Some(folder) = &self.settings.tablebases {
            for (spec, entrant) in engines.iter_mut().zip(&choices.entrants) {
                if *entrant == Entrant::Kibitz(Level::Full) {
                    spec.options.push(("SyzygyPath".to_owned(), folder.display().to_string()));
                }
            }
        }
        let mut setup = MatchSetup::new(engines, choices.runner_format());
        setup.rounds = choices.pairs;
        setup.concurrency = choices.concurrency;
        setup.event = "Kibitz tournament".to_owned();
        setup.pgn_out = Some(pgn);
        setup.resume = resume;
        // Process latency on a busy desktop: a flag falls 50 ms past zero.
        setup.patience.margin = Duration::from_millis(50);
        let tablebases = self.settings.tablebases.clone();
        self.tournament.running = Some(Running::start(choices, setup, tablebases, Arc::clone(&self.repaint)));
    }

    /// A new PGN file for a tournament's games, in the data folder's `tournaments`.
    fn new_tournament_file(&self) -> PathBuf {
        let seconds = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) % 86_400;
        let time = format!("{:02}{:02}{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
        let folder = self.paths.data_dir.join("tournaments");
        folder.join(format!("tournament-{}-{time}.pgn", pgn_date_today()))
    }
}
