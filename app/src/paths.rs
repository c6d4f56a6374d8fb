//! Where Kibitz keeps the user's files.

use std::path::PathBuf;

use kibitz_engine::LearningFiles;

/// The folders for settings and for the game in progress.
#[derive(Clone, Debug)]
pub struct Paths {
    /// Holds `settings.json`.
    pub config_dir: PathBuf,
    /// Holds `current-game.json`, the game in progress, and `current-study.json`, the study.
    pub data_dir: PathBuf,
}

impl Paths {
    /// The platform's folders (`~/.config/kibitz`, `~/.local/share/kibitz` on Linux), or both
    /// under `$KIBITZ_HOME` when that is set (for tests, screenshots and portable installs).
    #[must_use]
    pub fn from_env() -> Self {
        if let Some(home) = std::env::var_os("KIBITZ_HOME") {
            return Self::under(PathBuf::from(home));
        }
        match directories::ProjectDirs::from("io.github", "kibitz", "kibitz") {
            Some(dirs) => {
                Paths { config_dir: dirs.config_dir().to_path_buf(), data_dir: dirs.data_dir().to_path_buf() }
            }
            None => Self::under(std::env::temp_dir().join("kibitz")),
        }
    }

    /// Both folders under one root.
    #[must_use]
    pub fn under(root: PathBuf) -> Self {
        Paths { config_dir: root.join("config"), data_dir: root.join("data") }
    }

    /// The settings file.
    #[must_use]
    pub fn settings_file(&self) -> PathBuf {
        self.config_dir.join("settings.json")
    }

    /// The files of what Kibitz learns, in the data folder.
    #[must_use]
    pub fn learning_files(&self) -> LearningFiles {
        LearningFiles::in_folder(&self.data_dir)
    }

    /// The player's copy of the opening book, which learns from Kibitz's games.
    #[must_use]
    pub fn book_file(&self) -> PathBuf {
        self.learning_files().book
    }

    /// Positions where Kibitz's score dropped sharply (Crafty's position learning).
    #[must_use]
    pub fn positions_file(&self) -> PathBuf {
        self.learning_files().positions
    }

    /// Kibitz's PostBook: how its first moves after the book fared (Terra), as text.
    #[must_use]
    pub fn postbook_file(&self) -> PathBuf {
        self.learning_files().postbook
    }

    /// The game in progress in the Play workspace, saved after every move.
    #[must_use]
    pub fn current_game_file(&self) -> PathBuf {
        self.data_dir.join("current-game.json")
    }

    /// The game in the Study workspace, saved after every change.
    #[must_use]
    pub fn study_file(&self) -> PathBuf {
        self.data_dir.join("current-study.json")
    }
}
