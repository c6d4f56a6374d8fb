//! The games in progress, saved after every move so that nothing played is lost: the Play
//! game in `current-game.json`, the study in `current-study.json`.

use std::fs;
use std::path::Path;

use kibitz_engine::{GameRecord, Level, read_pgn, write_pgn};
use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// What is needed to resume a game: the game itself (as PGN), the player's colour and the
/// engine's strength.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedGame {
    /// The game as PGN text.
    pub pgn: String,
    /// Whether the player has the white pieces.
    pub human_white: bool,
    /// The engine's strength.
    #[serde(default)]
    pub level: Level,
    /// Whether it comes back as a study rather than as a game against Kibitz: the study's own
    /// file (`current-study.json`), or a game watched between two engines in the Play file.
    #[serde(default)]
    pub study: bool,
    /// The external engine the player faced (its name in the settings); `None` for Kibitz.
    #[serde(default)]
    pub opponent: Option<String>,
}

impl SavedGame {
    /// Captures a game for saving.
    #[must_use]
    pub fn new(game: &GameRecord, human: Color, level: Level) -> Self {
        SavedGame {
            pgn: write_pgn(game),
            human_white: human == Color::White,
            level,
            study: false,
            opponent: None,
        }
    }

    /// The player's colour.
    #[must_use]
    pub fn human(&self) -> Color {
        Color::from_white(self.human_white)
    }

    /// The saved game, replayed.
    pub fn game(&self) -> Result<GameRecord, String> {
        read_pgn(&self.pgn).map_err(|e| e.to_string())
    }

    /// The saved game as JSON.
    #[must_use]
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).unwrap_or_default()
    }

    /// Loads an unfinished saved game worth offering to resume. A damaged file gives a notice
    /// and is kept beside as `.bad`.
    #[must_use]
    pub fn load_unfinished(path: &Path) -> (Option<(SavedGame, GameRecord)>, Option<String>) {
        match Self::load(path) {
            (Some((saved, game)), _) if game.ending().is_none() && game.result() == "*" => {
                (Some((saved, game)), None)
            }
            (_, notice) => (None, notice),
        }
    }

    /// Loads a saved game, finished or not (the study, which is always restored). A damaged
    /// file gives a notice and is kept beside as `.bad`.
    #[must_use]
    pub fn load(path: &Path) -> (Option<(SavedGame, GameRecord)>, Option<String>) {
        let Ok(bytes) = fs::read(path) else { return (None, None) };
        let parsed = serde_json::from_slice::<SavedGame>(&bytes)
            .map_err(|e| e.to_string())
            .and_then(|saved| saved.game().map(|game| (saved, game)));
        match parsed {
            Ok(loaded) => (Some(loaded), None),
            Err(e) => {
                let bad = path.with_extension("json.bad");
                let _ = fs::rename(path, &bad);
                (
                    None,
                    Some(format!(
                        "The saved game could not be restored ({e}); it was kept as {}.",
                        bad.display()
                    )),
                )
            }
        }
    }
}
