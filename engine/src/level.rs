//! Playing levels offered to people: ratings measured against Stockfish (docs/STRENGTH.md),
//! and full strength.
//!
//! A level is a rating on the measured scale. The calibration table says which setting of the
//! [`Strength`] model played at which measured rating; a rating between two calibrated ones
//! takes the setting between theirs, so that `UCI_Elo` means the measured scale too.

use std::fmt;
use std::time::Duration;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{EngineOption, OptionKind, SearchLimits, Strength};

/// One calibrated level: the model's setting and the rating it measured.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Calibration {
    /// The [`Strength`] model's setting.
    pub setting: u32,
    /// The rating it measured against Stockfish (docs/STRENGTH.md), rounded.
    pub elo: u32,
}

/// The calibrated levels, weakest first: the ratings three runs of `kibitz levels` measured
/// on 2026-12-06 with the search of 1e7afc1, pooled (docs/STRENGTH.md, `tools/levels_pool.py`;
/// 90 games each; 95% intervals of ±70 Elo at best and ±197 at the bottom of the chain),
/// rounded to 10. Both columns rise.
pub const CALIBRATION: [Calibration; 8] = [
    Calibration { setting: 400, elo: 430 },
    Calibration { setting: 700, elo: 920 },
    Calibration { setting: 1000, elo: 1090 },
    Calibration { setting: 1150, elo: 1280 },
    Calibration { setting: 1300, elo: 1340 },
    Calibration { setting: 1600, elo: 1490 },
    Calibration { setting: 1950, elo: 1710 },
    Calibration { setting: 2400, elo: 1970 },
];

/// The ratings a level may ask for (`UCI_Elo`'s range): the weakest and the strongest
/// calibrated ones.
pub const ELO_RANGE: (u32, u32) = (CALIBRATION[0].elo, CALIBRATION[CALIBRATION.len() - 1].elo);

/// Full strength's rating as `kibitz levels` measured it at 10+0.1 (docs/STRENGTH.md); it
/// rises with the time a move is given, where the levels' horizons stay put.
pub const FULL_ELO: u32 = 2710;

/// How long full strength thinks per move in a game without a clock.
pub const UNTIMED_MOVE_TIME: Duration = Duration::from_secs(3);

/// The options that set a level, as every protocol declares them: `UCI_LimitStrength` and
/// `UCI_Elo` over [`ELO_RANGE`] (the built-in player's, UCI's and xboard's option lists).
#[must_use]
pub fn strength_options() -> [EngineOption; 2] {
    let (low, high) = (i64::from(ELO_RANGE.0), i64::from(ELO_RANGE.1));
    [
        EngineOption { name: "UCI_LimitStrength".into(), kind: OptionKind::Check { default: false } },
        EngineOption { name: "UCI_Elo".into(), kind: OptionKind::Spin { default: low, min: low, max: high } },
    ]
}

/// A playing strength: a rating, or full strength.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Weakened to play at about this rating, within [`ELO_RANGE`] (outside it, at its
    /// nearest end).
    Elo(u32),
    /// Kibitz as strong as it plays, by the clock.
    Full,
}

impl Default for Level {
    /// The calibrated level in the middle.
    fn default() -> Self {
        Level::Elo(CALIBRATION[CALIBRATION.len() / 2].elo)
    }
}

impl Level {
    /// The levels offered to people, weakest first: the calibrated ones, then full strength.
    pub fn all() -> impl Iterator<Item = Level> {
        CALIBRATION.iter().map(|c| Level::Elo(c.elo)).chain([Level::Full])
    }

    /// The weakest level offered.
    #[must_use]
    pub fn weakest() -> Level {
        Level::Elo(ELO_RANGE.0)
    }

    /// The offered level nearest to `elo` (full strength counting as [`FULL_ELO`]).
    #[must_use]
    pub fn nearest(elo: u32) -> Level {
        let rating = |level: Level| match level {
            Level::Elo(e) => e,
            Level::Full => FULL_ELO,
        };
        Level::all().min_by_key(|&l| rating(l).abs_diff(elo)).unwrap_or_default()
    }

    /// The strongest offered level rated at most `elo` (the weakest when none is).
    #[must_use]
    pub fn at_most(elo: u32) -> Level {
        CALIBRATION.iter().rev().find(|c| c.elo <= elo).map_or_else(Level::weakest, |c| Level::Elo(c.elo))
    }

    /// The name shown to people: "Elo 1200" or "Full strength".
    #[must_use]
    pub fn label(self) -> String {
        match self {
            Level::Elo(elo) => format!("Elo {elo}"),
            Level::Full => "Full strength".to_owned(),
        }
    }

    /// How the engine is weakened at this level; `None` at full strength. Ratings between
    /// two calibrated levels take the setting between theirs; ratings outside
    /// [`ELO_RANGE`] that of its nearest end.
    #[must_use]
    pub fn strength(self) -> Option<Strength> {
        let Level::Elo(elo) = self else { return None };
        let elo = elo.clamp(ELO_RANGE.0, ELO_RANGE.1);
        let above = CALIBRATION.iter().position(|c| c.elo >= elo).unwrap_or(CALIBRATION.len() - 1);
        let high = CALIBRATION[above];
        let low = CALIBRATION[above.saturating_sub(1)];
        let setting = if high.elo == low.elo {
            high.setting
        } else {
            let share = f64::from(elo - low.elo) / f64::from(high.elo - low.elo);
            low.setting + (share * f64::from(high.setting - low.setting)).round() as u32
        };
        Some(Strength::new(setting))
    }

    /// What the engine searches within at this level in a game without a clock: full
    /// strength thinks [`UNTIMED_MOVE_TIME`] a move; a weakened level, to its horizon. On a
    /// clock a level needs no limits of its own.
    #[must_use]
    pub fn limits(self) -> SearchLimits {
        match self {
            Level::Elo(_) => SearchLimits::default(),
            Level::Full => SearchLimits::movetime(UNTIMED_MOVE_TIME),
        }
    }

    /// The UCI options that set the built-in engine to this level: `UCI_LimitStrength` and
    /// `UCI_Elo`.
    #[must_use]
    pub fn options(self) -> Vec<(String, String)> {
        let limit = |on: bool| ("UCI_LimitStrength".to_owned(), on.to_string());
        match self {
            Level::Elo(elo) => vec![limit(true), ("UCI_Elo".to_owned(), elo.to_string())],
            Level::Full => vec![limit(false)],
        }
    }

    /// The level of the words `kibitz match` and settings files use: `full`, a rating, or one
    /// of the names of the uncalibrated levels that came before (`beginner`, `casual`,
    /// `club`, `strong`), which mean the offered level nearest to their strength (for
    /// `beginner`, the strongest not above it).
    #[must_use]
    pub fn parse(text: &str) -> Option<Level> {
        let text = text.trim().to_ascii_lowercase();
        match text.as_str() {
            "full" => Some(Level::Full),
            // Depth 1, depth 3, half a second and three seconds a move at full strength. A
            // beginner chose the weakest there was: never a stronger level than measured.
            "beginner" => Some(Level::at_most(LEGACY_BEGINNER)),
            "casual" => Some(Level::nearest(LEGACY_CASUAL)),
            "club" | "strong" => Some(Level::Full),
            _ => text.parse().ok().map(Level::Elo),
        }
    }
}

/// The measured strength of the old "beginner" level, a plain depth-1 search: 6 of 10 games
/// against Stockfish 1350 at 10+0.1 (docs/STRENGTH.md).
const LEGACY_BEGINNER: u32 = 1420;
/// The measured strength of the old "casual" level, a plain depth-3 search: 4 of 10 games
/// against Stockfish 1600 at 10+0.1.
const LEGACY_CASUAL: u32 = 1530;

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

impl Serialize for Level {
    /// A rating as a number, full strength as `"full"`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Level::Elo(elo) => serializer.serialize_u32(*elo),
            Level::Full => serializer.serialize_str("full"),
        }
    }
}

impl<'de> Deserialize<'de> for Level {
    /// A rating (the offered level nearest to it), `"full"`, or an old level's name (see
    /// [`Level::parse`]).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Level, D::Error> {
        deserializer.deserialize_any(LevelVisitor)
    }
}

/// Reads a [`Level`] from a number or a word.
struct LevelVisitor;

impl Visitor<'_> for LevelVisitor {
    type Value = Level;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a rating or \"full\"")
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Level, E> {
        Ok(Level::nearest(u32::try_from(value).unwrap_or(u32::MAX)))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Level, E> {
        Ok(Level::nearest(u32::try_from(value.max(0)).unwrap_or(u32::MAX)))
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Level, E> {
        match Level::parse(value) {
            Some(Level::Elo(elo)) => Ok(Level::nearest(elo)),
            Some(level) => Ok(level),
            None => Err(E::invalid_value(de::Unexpected::Str(value), &self)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calibration_rises_and_the_levels_follow_it() {
        for pair in CALIBRATION.windows(2) {
            assert!(pair[0].setting < pair[1].setting && pair[0].elo < pair[1].elo, "{pair:?}");
        }
        let levels: Vec<Level> = Level::all().collect();
        assert_eq!(levels.len(), CALIBRATION.len() + 1);
        assert_eq!((levels[0], levels[levels.len() - 1]), (Level::weakest(), Level::Full));
        for (level, c) in levels.iter().zip(CALIBRATION) {
            assert_eq!(level.strength(), Some(Strength::new(c.setting)), "{level}");
            assert_eq!(Level::nearest(c.elo), *level);
        }
        assert_eq!(Level::Full.strength(), None);
        assert_eq!(Level::Full.label(), "Full strength");
    }

    #[test]
    fn a_rating_between_levels_takes_the_setting_between() {
        let (low, high) = (CALIBRATION[1], CALIBRATION[2]);
        let middle = Level::Elo(u32::midpoint(low.elo, high.elo)).strength().expect("weakened").setting();
        assert!(low.setting < middle && middle < high.setting, "{middle}");
        assert_eq!(Level::Elo(0).strength(), Level::weakest().strength(), "clamped below");
        assert_eq!(
            Level::Elo(9999).strength(),
            Some(Strength::new(CALIBRATION[CALIBRATION.len() - 1].setting)),
            "clamped above"
        );
        assert_eq!(Level::nearest(9999), Level::Full);
        assert_eq!(Level::nearest(0), Level::weakest());
    }

    #[test]
    fn levels_are_stored_as_ratings_and_old_names_still_read() {
        let level = Level::Elo(CALIBRATION[3].elo);
        let json = serde_json::to_string(&level).expect("serializes");
        assert_eq!(json, CALIBRATION[3].elo.to_string());
        assert_eq!(serde_json::from_str::<Level>(&json).expect("reads"), level);
        assert_eq!(serde_json::to_string(&Level::Full).expect("serializes"), "\"full\"");
        assert_eq!(serde_json::from_str::<Level>("\"full\"").expect("reads"), Level::Full);
        // A rating no longer calibrated reads as the nearest level.
        let off = CALIBRATION[3].elo + 7;
        assert_eq!(serde_json::from_str::<Level>(&off.to_string()).expect("reads"), level);
        for (old, new) in [
            ("beginner", Level::at_most(LEGACY_BEGINNER)),
            ("casual", Level::nearest(LEGACY_CASUAL)),
            ("club", Level::Full),
            ("strong", Level::Full),
        ] {
            assert_eq!(serde_json::from_str::<Level>(&format!("\"{old}\"")).expect(old), new, "{old}");
        }
        let beginner = Level::parse("beginner").and_then(Level::strength).expect("weakened");
        let casual = Level::parse("casual").and_then(Level::strength).expect("weakened");
        assert!(beginner.setting() < casual.setting(), "the old beginner stays below the old casual");
        assert_eq!(Level::at_most(CALIBRATION[2].elo + 1), Level::Elo(CALIBRATION[2].elo));
        assert_eq!(Level::at_most(0), Level::weakest());
        assert!(serde_json::from_str::<Level>("\"grandmaster\"").is_err());
        assert_eq!(Level::parse("1234"), Some(Level::Elo(1234)));
        assert_eq!(Level::parse("Full"), Some(Level::Full));
    }

    #[test]
    fn a_level_sets_the_uci_options() {
        let options = Level::Elo(1500).options();
        assert_eq!(options[0], ("UCI_LimitStrength".to_owned(), "true".to_owned()));
        assert_eq!(options[1], ("UCI_Elo".to_owned(), "1500".to_owned()));
        assert_eq!(Level::Full.options(), [("UCI_LimitStrength".to_owned(), "false".to_owned())]);
        assert_eq!(Level::Full.limits().movetime, Some(UNTIMED_MOVE_TIME));
        assert_eq!(Level::weakest().limits(), SearchLimits::default());
    }
}
