//! The user's settings: one serde struct with defaults, persisted as JSON.

use std::fs;
use std::path::{Path, PathBuf};

use kibitz_engine::policy::PolicySettings;
use kibitz_engine::{BookSettings, EngineConfig, Level};
use serde::{Deserialize, Serialize};

use crate::clock_settings::ClockSettings;
use crate::tournament::TournamentChoices;

/// Which colour the player asks for in a new game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// The player has the white pieces.
    #[default]
    White,
    /// The player has the black pieces.
    Black,
    /// A coin decides.
    Random,
    /// Two engines play each other; the player watches.
    Watch,
}

/// Everything Kibitz remembers between runs. Missing fields take their defaults, so older and
/// newer files both load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Whether the board is shown from Black's side.
    pub flipped: bool,
    /// The strength chosen last.
    pub level: Level,
    /// The colour chosen last.
    pub color: ColorChoice,
    /// The window's inner size in points.
    pub window_size: [f32; 2],
    /// Whether Kibitz plays its opening moves from its book.
    pub own_book: bool,
    /// What Kibitz learns from its games, as Crafty's `learn` bits: 1 book, 2 position,
    /// 4 result.
    pub learn: u8,
    /// Whether Kibitz keeps and uses Terra's PostBook (its first moves after the book), with
    /// book learning.
    pub postbook: bool,
    /// How the book chooses its moves.
    pub book: BookSettings,
    /// The book file Kibitz plays and learns from, when not its own in the data folder.
    pub play_book: Option<PathBuf>,
    /// The book files opened in the Book workspace, newest first.
    pub recent_books: Vec<PathBuf>,
    /// The clock for games against Kibitz.
    pub clock: ClockSettings,
    /// When Kibitz resigns, offers and accepts draws.
    pub policy: PolicySettings,
    /// The external engines the user added.
    pub engines: Vec<EngineConfig>,
    /// The opponent chosen last: an engine's name, or `None` for Kibitz.
    pub opponent: Option<String>,
    /// The engines chosen last to play each other (White, Black): names, `None` for Kibitz.
    pub watch: [Option<String>; 2],
    /// How many hints a game against Kibitz allows (0: none), at most `MAX_HINTS`.
    pub hints_per_game: u32,
    /// The Tournament workspace's form.
    pub tournament: TournamentChoices,
    /// The folder of the Syzygy tablebases, if the user has them: Kibitz at full strength,
    /// the analysis, annotations and hints search with them; tournaments adjudicate by them.
    pub tablebases: Option<PathBuf>,
    /// Whether Kibitz thinks on the player's time (Crafty's `ponder on`); off by default.
    pub ponder: bool,
}

/// The most hints a game may allow.
pub const MAX_HINTS: u32 = 99;

/// How many book files the Book workspace's list remembers.
pub const MAX_RECENT_BOOKS: usize = 8;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            flipped: false,
            level: Level::default(),
            color: ColorChoice::default(),
            window_size: [1100.0, 760.0],
            own_book: true,
            learn: 5,
            postbook: true,
            book: BookSettings::default(),
            play_book: None,
            recent_books: Vec::new(),
            clock: ClockSettings::default(),
            policy: PolicySettings::default(),
            engines: Vec::new(),
            opponent: None,
            watch: [None, None],
            hints_per_game: 3,
            tournament: TournamentChoices::default(),
            tablebases: None,
            ponder: false,
        }
    }
}

impl Settings {
    /// Loads the settings. A missing file gives the defaults silently; an unreadable or corrupt
    /// one gives the defaults and a notice for the player, and is kept beside as `.bad` so that
    /// nothing is lost.
    #[must_use]
    pub fn load(path: &Path) -> (Settings, Option<String>) {
        let text = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Settings::default(), None),
            Err(e) => {
                return (
                    Settings::default(),
                    Some(format!("Settings could not be read ({e}); using the defaults.")),
                );
            }
        };
        match serde_json::from_slice::<Settings>(&text) {
            Ok(settings) => (settings.sanitized(), None),
            Err(e) => {
                let bad = path.with_extension("json.bad");
                let kept = fs::rename(path, &bad).is_ok();
                let mut notice = format!("The settings file was damaged ({e}); using the defaults.");
                if kept {
                    notice.push_str(&format!(" The old file was kept as {}.", bad.display()));
                }
                (Settings::default(), Some(notice))
            }
        }
    }

    /// Reads the settings without touching the file: `None` when it is missing or damaged.
    /// For the window size before the app starts; [`Settings::load`] reports and keeps a
    /// damaged file when the app starts.
    #[must_use]
    pub fn peek(path: &Path) -> Option<Settings> {
        let bytes = fs::read(path).ok()?;
        serde_json::from_slice::<Settings>(&bytes).ok().map(Settings::sanitized)
    }

    /// The settings as pretty JSON.
    #[must_use]
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec_pretty(self).unwrap_or_default()
    }

    /// The configured engine named `name`.
    #[must_use]
    pub fn engine(&self, name: &str) -> Option<&EngineConfig> {
        self.engines.iter().find(|e| e.name == name)
    }

    /// Brings out-of-range values back into range.
    fn sanitized(mut self) -> Settings {
        let [w, h] = self.window_size;
        let ok = |v: f32, lo: f32| if v.is_finite() && v >= lo { v.min(10_000.0) } else { lo.max(0.0) };
        let default = Settings::default().window_size;
        self.window_size =
            if w.is_finite() && h.is_finite() { [ok(w, 480.0), ok(h, 360.0)] } else { default };
        self.learn &= 7;
        self.hints_per_game = self.hints_per_game.min(MAX_HINTS);
        self.book = self.book.sanitized();
        self.policy = self.policy.sanitized();
        self.recent_books.truncate(MAX_RECENT_BOOKS);
        self.tournament = self.tournament.sanitized();
        self
    }

    /// Puts `path` first in the list of recent books.
    pub fn remember_book(&mut self, path: &Path) {
        self.recent_books.retain(|p| p != path);
        self.recent_books.insert(0, path.to_path_buf());
        self.recent_books.truncate(MAX_RECENT_BOOKS);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_fields_take_defaults_and_bad_sizes_are_clamped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(
            &path,
            r#"{"flipped": true, "window_size": [-5, 1e30], "future": 1, "learn": 255,
                "book": {"mode": "crafty", "width": 1000, "weights": {"eval": 7}}}"#,
        )
        .unwrap();
        let (s, notice) = Settings::load(&path);
        assert!(notice.is_none());
        assert!(s.flipped);
        assert_eq!(s.level, Level::default());
        assert_eq!(s.window_size, [480.0, 10_000.0]);
        assert_eq!(s.learn, 7);
        assert_eq!(s.book.mode, kibitz_engine::BookMode::Crafty);
        assert_eq!((s.book.width, s.book.weights.eval, s.book.weights.freq), (100, 1.0, 1.0));
        assert_eq!(s.book.min_learned_games, BookSettings::default().min_learned_games);
    }

    #[test]
    fn old_files_with_the_uncalibrated_levels_load_at_the_nearest_new_level() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let mut loaded = Vec::new();
        for old in ["beginner", "casual", "club", "strong"] {
            fs::write(
                &path,
                format!(
                    r#"{{"flipped": true, "level": "{old}",
                        "tournament": {{"entrants": [{{"kibitz": "{old}"}}, {{"engine": "Crafty"}}]}}}}"#
                ),
            )
            .unwrap();
            let (s, notice) = Settings::load(&path);
            assert!(notice.is_none(), "{old}: {notice:?}");
            assert!(s.flipped, "{old}: the rest of the file is kept");
            assert!(Level::all().any(|l| l == s.level), "{old}: {:?} is offered in New game", s.level);
            let entrants: Vec<String> = s.tournament.entrants.iter().map(|e| e.label()).collect();
            assert_eq!(entrants, [format!("Kibitz ({})", s.level), "Crafty".to_owned()], "{old}");
            loaded.push(s.level);
        }
        let rating = |level: Level| match level {
            Level::Elo(elo) => elo,
            Level::Full => u32::MAX,
        };
        assert!(rating(loaded[0]) < rating(loaded[1]), "beginner below casual: {loaded:?}");
        assert_eq!(loaded[2..], [Level::Full, Level::Full], "a fixed time at full strength is full strength");
        // Written back, the level is its rating (or "full"), and reads the same.
        let saved = Settings { level: loaded[0], ..Settings::default() };
        fs::write(&path, saved.to_json()).unwrap();
        assert_eq!(Settings::load(&path).0.level, loaded[0]);
    }

    #[test]
    fn out_of_range_policy_numbers_are_clamped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(
            &path,
            r#"{"policy": {"contempt": 100000, "terra": {"resign_moves": 0, "first_move": 1000},
                "dead_band": {"width": -40}}}"#,
        )
        .unwrap();
        let (s, notice) = Settings::load(&path);
        assert!(notice.is_none());
        let range = |name: &str| PolicySettings::parameter(name).expect(name).range();
        assert_eq!(i64::from(s.policy.contempt), *range("contempt").end());
        assert_eq!(s.policy.terra.resign_moves as i64, *range("terra.resign_moves").start());
        assert_eq!(i64::from(s.policy.terra.first_move), *range("terra.first_move").end());
        assert_eq!(i64::from(s.policy.dead_band.width), *range("dead_band.width").start());
        assert_eq!(s.policy.terra.offer_gap, PolicySettings::default().terra.offer_gap);
        assert_eq!(Settings::peek(&path).map(|p| p.policy), Some(s.policy));
    }

    #[test]
    fn a_corrupt_file_gives_defaults_a_notice_and_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        fs::write(&path, "{\"flipped\": tru").unwrap();
        assert_eq!(Settings::peek(&path), None);
        assert!(path.exists(), "peeking leaves the file for load to report");
        let (s, notice) = Settings::load(&path);
        assert_eq!(s, Settings::default());
        assert!(notice.unwrap().contains("damaged"));
        assert_eq!(fs::read_to_string(path.with_extension("json.bad")).unwrap(), "{\"flipped\": tru");
    }
}
