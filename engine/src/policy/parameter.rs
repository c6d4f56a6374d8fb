//! The policy's numbers as data: each one's name, range and default, read and written by name.
//! The settings dialog, the command line and a tuner all take them from
//! [`PolicySettings::PARAMETERS`], so a number is defined once.
//!
//! ```
//! use kibitz_engine::policy::PolicySettings;
//!
//! let mut s = PolicySettings::default();
//! for p in PolicySettings::PARAMETERS {
//!     assert!(p.range().contains(&p.default_value()), "{}", p.name);
//! }
//! assert_eq!(s.set("terra.resign_moves", 99), Ok(20), "clamped to the range");
//! assert_eq!(s.get("terra.resign_moves"), Some(20));
//! assert!(s.set("terra.courage", 1).is_err());
//! ```

use std::fmt;
use std::ops::RangeInclusive;
use std::time::Duration;

use super::{DeadBandSettings, PolicySettings, TerraSettings};

/// What a parameter's numbers count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Centipawns of score or material.
    Centipawns,
    /// Moves (a count or a move number).
    Moves,
    /// Milliseconds of clock time.
    Milliseconds,
}

/// One number of [`PolicySettings`]: its name, what it means, its unit and range, and how to
/// read and write it. Its default is the value in [`PolicySettings::default`].
#[derive(Copy, Clone, Debug)]
pub struct Parameter {
    /// The field's path in the settings: `contempt`, `terra.resign_score`, `dead_band.width`.
    pub name: &'static str,
    /// What it means, in a few words (the dialog's label).
    pub label: &'static str,
    /// What its numbers count.
    pub unit: Unit,
    /// The smallest value allowed.
    pub min: i64,
    /// The largest value allowed.
    pub max: i64,
    get: fn(&PolicySettings) -> i64,
    put: fn(&mut PolicySettings, i64),
}

impl Parameter {
    /// The values allowed.
    #[must_use]
    pub fn range(&self) -> RangeInclusive<i64> {
        self.min..=self.max
    }

    /// The value in the default settings.
    #[must_use]
    pub fn default_value(&self) -> i64 {
        self.get(&PolicySettings::default())
    }

    /// The value in `settings`.
    #[must_use]
    pub fn get(&self, settings: &PolicySettings) -> i64 {
        (self.get)(settings)
    }

    /// Sets the value in `settings`, brought into the range; returns the value set.
    pub fn set(&self, settings: &mut PolicySettings, value: i64) -> i64 {
        let value = value.clamp(self.min, self.max);
        (self.put)(settings, value);
        value
    }
}

/// A parameter name that [`PolicySettings::PARAMETERS`] does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownParameter(pub String);

impl fmt::Display for UnknownParameter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = PolicySettings::PARAMETERS.iter().map(|p| p.name).collect();
        write!(f, "unknown policy parameter '{}': expected one of {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownParameter {}

/// A field type a parameter can stand for, as a whole number.
trait Number: Copy {
    fn to_i64(self) -> i64;
    /// The value from a number already in the parameter's range.
    fn from_i64(value: i64) -> Self;
}

impl Number for i32 {
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_i64(value: i64) -> Self {
        i32::try_from(value).unwrap_or_default()
    }
}

impl Number for u32 {
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_i64(value: i64) -> Self {
        u32::try_from(value).unwrap_or_default()
    }
}

impl Number for usize {
    fn to_i64(self) -> i64 {
        i64::try_from(self).unwrap_or(i64::MAX)
    }
    fn from_i64(value: i64) -> Self {
        usize::try_from(value).unwrap_or_default()
    }
}

/// Durations count in milliseconds.
impl Number for Duration {
    fn to_i64(self) -> i64 {
        i64::try_from(self.as_millis()).unwrap_or(i64::MAX)
    }
    fn from_i64(value: i64) -> Self {
        Duration::from_millis(u64::try_from(value).unwrap_or_default())
    }
}

/// A [`Parameter`] for the field at `$($field).+` of [`PolicySettings`].
macro_rules! parameter {
    ($name:literal, $unit:ident, $min:literal ..= $max:literal, $label:literal, $($field:ident).+) => {
        Parameter {
            name: $name,
            label: $label,
            unit: Unit::$unit,
            min: $min,
            max: $max,
            get: |s| Number::to_i64(s.$($field).+),
            put: |s, v| s.$($field).+ = Number::from_i64(v),
        }
    };
}

impl PolicySettings {
    /// Every number of the settings, in the dialog's order: the draw score, Terra's numbers
    /// (`terra.`), the dead band's (`dead_band.`).
    pub const PARAMETERS: &'static [Parameter] = &[
        parameter!("contempt", Centipawns, -500..=500, "Draw score (contempt), centipawns", contempt),
        parameter!(
            "terra.resign_score",
            Centipawns,
            -5000..=0,
            "Resign below (centipawns)",
            terra.resign_score
        ),
        parameter!("terra.resign_moves", Moves, 1..=20, "for this many moves", terra.resign_moves),
        parameter!(
            "terra.resign_material",
            Centipawns,
            -5000..=0,
            "with material at most (centipawns)",
            terra.resign_material
        ),
        parameter!(
            "terra.improvement",
            Centipawns,
            0..=1000,
            "and the opponent improving by more than",
            terra.improvement
        ),
        parameter!(
            "terra.short_time",
            Milliseconds,
            0..=120_000,
            "Short of time under (seconds per move)",
            terra.short_time
        ),
        parameter!(
            "terra.coming_moves",
            Moves,
            1..=100,
            "Moves assumed left in sudden death",
            terra.coming_moves
        ),
        parameter!("terra.first_move", Moves, 1..=200, "Draws from move", terra.first_move),
        parameter!("terra.offer_gap", Moves, 1..=100, "Moves between offers", terra.offer_gap),
        parameter!("terra.recent", Moves, 1..=30, "Scores at or below the draw score for", terra.recent),
        parameter!(
            "terra.offer_floor",
            Centipawns,
            -5000..=0,
            "No offer below (centipawns)",
            terra.offer_floor
        ),
        parameter!("dead_band.width", Centipawns, 0..=1000, "Band width D (centipawns)", dead_band.width),
        parameter!(
            "dead_band.moves",
            Moves,
            0..=100,
            "Offer after more than N moves in the band",
            dead_band.moves
        ),
        parameter!(
            "dead_band.threshold",
            Centipawns,
            0..=100_000,
            "Resign when the sum falls below -T",
            dead_band.threshold
        ),
    ];

    /// The parameter called `name`.
    #[must_use]
    pub fn parameter(name: &str) -> Option<&'static Parameter> {
        Self::PARAMETERS.iter().find(|p| p.name == name)
    }

    /// The value of the parameter called `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<i64> {
        Self::parameter(name).map(|p| p.get(self))
    }

    /// Sets the parameter called `name`, brought into its range; returns the value set.
    ///
    /// # Errors
    /// [`UnknownParameter`] when there is no parameter of that name.
    pub fn set(&mut self, name: &str, value: i64) -> Result<i64, UnknownParameter> {
        let p = Self::parameter(name).ok_or_else(|| UnknownParameter(name.to_owned()))?;
        Ok(p.set(self, value))
    }

    /// The settings with every number brought into its range.
    ///
    /// ```
    /// use kibitz_engine::policy::PolicySettings;
    /// let mut wild = PolicySettings { contempt: 9000, ..Default::default() };
    /// wild.dead_band.width = -3;
    /// let s = wild.sanitized();
    /// assert_eq!((s.contempt, s.dead_band.width), (500, 0));
    /// ```
    #[must_use]
    pub fn sanitized(mut self) -> PolicySettings {
        for p in Self::PARAMETERS {
            let value = p.get(&self);
            p.set(&mut self, value);
        }
        self
    }
}

impl TerraSettings {
    /// The settings with every number brought into its range (the `terra.` parameters of
    /// [`PolicySettings::PARAMETERS`]).
    #[must_use]
    pub fn sanitized(self) -> TerraSettings {
        PolicySettings { terra: self, ..PolicySettings::default() }.sanitized().terra
    }
}

impl DeadBandSettings {
    /// The settings with every number brought into its range (the `dead_band.` parameters of
    /// [`PolicySettings::PARAMETERS`]).
    #[must_use]
    pub fn sanitized(self) -> DeadBandSettings {
        PolicySettings { dead_band: self, ..PolicySettings::default() }.sanitized().dead_band
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_defaults_in_range() {
        for (i, p) in PolicySettings::PARAMETERS.iter().enumerate() {
            assert!(p.min <= p.max, "{}", p.name);
            assert!(p.range().contains(&p.default_value()), "{} default {}", p.name, p.default_value());
            assert!(PolicySettings::PARAMETERS[..i].iter().all(|q| q.name != p.name), "{} twice", p.name);
        }
        assert_eq!(PolicySettings::default().sanitized(), PolicySettings::default());
    }

    #[test]
    fn each_parameter_reads_and_writes_its_own_field() {
        for p in PolicySettings::PARAMETERS {
            let mut s = PolicySettings::default();
            let target = if p.default_value() == p.max { p.min } else { p.max };
            assert_eq!(s.set(p.name, target), Ok(target));
            assert_eq!(s.get(p.name), Some(target), "{}", p.name);
            for q in PolicySettings::PARAMETERS.iter().filter(|q| q.name != p.name) {
                assert_eq!(q.get(&s), q.default_value(), "setting {} changed {}", p.name, q.name);
            }
        }
    }

    #[test]
    fn out_of_range_values_from_json_are_clamped() {
        let json = r#"{"contempt": -9999, "rules": "dead-band",
            "terra": {"resign_score": 450, "resign_moves": 0, "short_time": {"secs": 3600, "nanos": 0},
                      "recent": 1000000, "first_move": 4000000000},
            "dead_band": {"width": -5, "threshold": 2000000000}}"#;
        let s: PolicySettings = serde_json::from_str(json).expect("the JSON has the right types");
        let s = s.sanitized();
        assert_eq!(s.contempt, -500);
        assert_eq!((s.terra.resign_score, s.terra.resign_moves), (0, 1));
        assert_eq!(s.terra.short_time, Duration::from_secs(120));
        assert_eq!((s.terra.recent, s.terra.first_move), (30, 200));
        assert_eq!((s.dead_band.width, s.dead_band.threshold), (0, 100_000));
        assert_eq!(s.terra.offer_gap, TerraSettings::default().offer_gap, "missing fields take defaults");
        assert_eq!(s.terra.clone().sanitized(), s.terra);
        assert_eq!(DeadBandSettings { moves: 500, ..Default::default() }.sanitized().moves, 100);
    }

    #[test]
    fn unknown_names_are_errors() {
        let mut s = PolicySettings::default();
        assert_eq!(s.get("courage"), None);
        let err = s.set("courage", 3).expect_err("no such parameter");
        assert!(err.to_string().contains("terra.resign_score"), "{err}");
        assert_eq!(s, PolicySettings::default());
    }
}
