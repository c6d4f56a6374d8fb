//! The options an engine declares (UCI's `option name ... type ...`, xboard's
//! `feature option="..."`) as typed, ranged values, and checking a value against them.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The kind of an option with its default and, for numbers and choices, what is allowed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OptionKind {
    /// On or off.
    Check {
        /// The engine's default.
        default: bool,
    },
    /// A whole number within a range.
    Spin {
        /// The engine's default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// One of a list of words.
    Combo {
        /// The engine's default.
        default: String,
        /// The allowed values.
        choices: Vec<String>,
    },
    /// An action without a value (UCI's `Clear Hash`).
    Button,
    /// Free text.
    Text {
        /// The engine's default.
        default: String,
    },
    /// A file or folder path.
    Path {
        /// The engine's default.
        default: String,
    },
}

/// One option an engine declared.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineOption {
    /// The option's name as the engine spells it.
    pub name: String,
    /// Its kind, default and range.
    pub kind: OptionKind,
}

/// Why a value does not fit an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// The engine declared no option of this name.
    Unknown(String),
    /// The value does not fit the option's kind or range.
    Invalid {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What the option accepts.
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "the engine has no option \"{name}\""),
            OptionError::Invalid { name, value, expected } => {
                write!(f, "\"{value}\" is not a valid value for {name}: expected {expected}")
            }
        }
    }
}

impl std::error::Error for OptionError {}

impl EngineOption {
    /// The default value as the protocol writes it (`true`, `16`, a choice, text).
    #[must_use]
    pub fn default_value(&self) -> String {
        match &self.kind {
            OptionKind::Check { default } => default.to_string(),
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. }
            | OptionKind::Text { default }
            | OptionKind::Path { default } => default.clone(),
            OptionKind::Button => String::new(),
        }
    }

    /// Checks `value` against the option and returns it as the protocol writes it: checks
    /// as `true`/`false`, numbers in range, combos as one of their choices (any case).
    ///
    /// ```
    /// use kibitz_engine::{EngineOption, OptionKind};
    /// let hash = EngineOption { name: "Hash".into(), kind: OptionKind::Spin { default: 16, min: 1, max: 1024 } };
    /// assert_eq!(hash.check(" 64 ").as_deref(), Ok("64"));
    /// assert!(hash.check("4096").is_err());
    /// ```
    pub fn check(&self, value: &str) -> Result<String, OptionError> {
        let value = value.trim();
        let invalid = |expected: String| OptionError::Invalid {
            name: self.name.clone(),
            value: value.to_string(),
            expected,
        };
        match &self.kind {
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" => Ok("true".into()),
                "false" | "0" | "off" => Ok("false".into()),
                _ => Err(invalid("true or false".into())),
            },
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(n) if (*min..=*max).contains(&n) => Ok(n.to_string()),
                _ => Err(invalid(format!("a whole number from {min} to {max}"))),
            },
            OptionKind::Combo { choices, .. } => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(value))
                .cloned()
                .ok_or_else(|| invalid(format!("one of {}", choices.join(", ")))),
            OptionKind::Button => Ok(String::new()),
            OptionKind::Text { .. } | OptionKind::Path { .. } => Ok(value.to_string()),
        }
    }
}

/// Finds `name` (case-insensitively, as UCI wants) among `options` and checks `value`.
pub fn check_option(options: &[EngineOption], name: &str, value: &str) -> Result<String, OptionError> {
    options
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
        .ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?
        .check(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn combo() -> EngineOption {
        EngineOption {
            name: "Style".into(),
            kind: OptionKind::Combo {
                default: "Normal".into(),
                choices: vec!["Solid".into(), "Normal".into()],
            },
        }
    }

    #[test]
    fn values_are_checked_against_kind_and_range() {
        let check = EngineOption { name: "Ponder".into(), kind: OptionKind::Check { default: false } };
        assert_eq!(check.check("TRUE"), Ok("true".into()));
        assert!(matches!(check.check("maybe"), Err(OptionError::Invalid { .. })));
        assert_eq!(combo().check("solid"), Ok("Solid".into()));
        assert!(combo().check("wild").is_err());
        let spin =
            EngineOption { name: "Threads".into(), kind: OptionKind::Spin { default: 1, min: 1, max: 8 } };
        assert!(spin.check("0").is_err());
        assert!(spin.check("two").is_err());
        assert_eq!(spin.check("8"), Ok("8".into()));
    }

    #[test]
    fn unknown_options_are_named() {
        let err = check_option(&[combo()], "Contempt", "10").expect_err("no such option");
        assert_eq!(err.to_string(), "the engine has no option \"Contempt\"");
        assert_eq!(check_option(&[combo()], "style", "Solid"), Ok("Solid".into()));
    }
}
