//! The policy's settings as engine options, for the UCI and xboard front ends: one spin for
//! each of [`PolicySettings::PARAMETERS`], and `Resign`, `Draw` and `Rules`. A change asked
//! for by name is parsed into a [`PolicyChange`] and applied to the settings; a number out of
//! its range is brought into it and the change says so.
//!
//! ```
//! use kibitz_engine::policy::{PolicyChange, PolicySettings, Rules};
//!
//! let mut s = PolicySettings::default();
//! let change = PolicyChange::parse("Rules", "deadband").expect("a rule set");
//! assert_eq!(change.apply(&mut s), None);
//! assert_eq!(s.rules, Rules::DeadBand);
//! let clamped = PolicyChange::parse("Dead_Band.Moves", "-3").expect("a number").apply(&mut s);
//! assert_eq!(clamped.map(|c| c.set), Some(0));
//! assert!(PolicyChange::parse("courage", "1").is_err());
//! ```

use std::fmt;

use super::{PolicySettings, Rules};
use crate::{EngineOption, OptionError, OptionKind};

/// The name of the option that allows resigning.
pub const RESIGN: &str = "Resign";
/// The name of the option that allows offering and accepting draws.
pub const DRAW: &str = "Draw";
/// The name of the option that chooses the rule set.
pub const RULES: &str = "Rules";
/// The rule sets as the `Rules` option names them.
const RULE_NAMES: [(Rules, &str); 2] = [(Rules::Terra, "Terra"), (Rules::DeadBand, "DeadBand")];

impl PolicySettings {
    /// The settings as engine options, with the defaults of [`PolicySettings::default`]:
    /// `Resign`, `Draw`, `Rules`, then every parameter under its name.
    #[must_use]
    pub fn options() -> Vec<EngineOption> {
        let defaults = PolicySettings::default();
        let check = |name: &str, default: bool| EngineOption {
            name: name.into(),
            kind: OptionKind::Check { default },
        };
        let mut options = vec![
            check(RESIGN, defaults.resign),
            check(DRAW, defaults.draw),
            EngineOption {
                name: RULES.into(),
                kind: OptionKind::Combo {
                    default: rule_name(defaults.rules).into(),
                    choices: RULE_NAMES.iter().map(|(_, name)| (*name).into()).collect(),
                },
            },
        ];
        options.extend(PolicySettings::PARAMETERS.iter().map(|p| EngineOption {
            name: p.name.into(),
            kind: OptionKind::Spin { default: p.default_value(), min: p.min, max: p.max },
        }));
        options
    }
}

/// The `Rules` option's word for `rules`.
fn rule_name(rules: Rules) -> &'static str {
    RULE_NAMES.iter().find(|(r, _)| *r == rules).map_or("Terra", |(_, name)| name)
}

/// A change to the policy's settings, asked for by an option's name and value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PolicyChange {
    /// A parameter (by its name in [`PolicySettings::PARAMETERS`]) to a number, perhaps
    /// outside its range.
    Number(&'static str, i64),
    /// Whether the engine may resign.
    Resign(bool),
    /// Whether the engine may offer and accept draws.
    Draw(bool),
    /// The rule set.
    Rules(Rules),
}

/// A number brought into its parameter's range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clamped {
    /// The parameter.
    pub name: &'static str,
    /// The number asked for.
    pub asked: i64,
    /// The number set.
    pub set: i64,
    /// The smallest value allowed.
    pub min: i64,
    /// The largest value allowed.
    pub max: i64,
}

impl fmt::Display for Clamped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} must be from {} to {}: set to {}, not {}",
            self.name, self.min, self.max, self.set, self.asked
        )
    }
}

impl PolicyChange {
    /// The change the option `name` (any case) set to `value` asks for. Checks take
    /// `true`/`false` or `1`/`0`; a number may lie outside its range (it is brought into it
    /// when applied).
    ///
    /// # Errors
    /// [`OptionError::Unknown`] for a name that is no policy option, [`OptionError::Invalid`]
    /// for a value that is not of the option's kind.
    pub fn parse(name: &str, value: &str) -> Result<PolicyChange, OptionError> {
        let (name, value) = (name.trim(), value.trim());
        let invalid = |name: &str, expected: &str| OptionError::Invalid {
            name: name.into(),
            value: value.into(),
            expected: expected.into(),
        };
        let check = |name: &str| match value.to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(invalid(name, "true or false")),
        };
        if name.eq_ignore_ascii_case(RESIGN) {
            return check(RESIGN).map(PolicyChange::Resign);
        }
        if name.eq_ignore_ascii_case(DRAW) {
            return check(DRAW).map(PolicyChange::Draw);
        }
        if name.eq_ignore_ascii_case(RULES) {
            return RULE_NAMES
                .iter()
                .find(|(_, word)| word.eq_ignore_ascii_case(value))
                .map(|(rules, _)| PolicyChange::Rules(*rules))
                .ok_or_else(|| invalid(RULES, "Terra or DeadBand"));
        }
        let parameter = PolicySettings::PARAMETERS
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::Unknown(name.into()))?;
        value
            .parse::<i64>()
            .map(|n| PolicyChange::Number(parameter.name, n))
            .map_err(|_| invalid(parameter.name, "a whole number"))
    }

    /// Applies the change to `settings`; says so when a number was brought into its range.
    pub fn apply(&self, settings: &mut PolicySettings) -> Option<Clamped> {
        match *self {
            PolicyChange::Number(name, asked) => {
                let p = PolicySettings::parameter(name)?;
                let set = p.set(settings, asked);
                (set != asked).then_some(Clamped { name: p.name, asked, set, min: p.min, max: p.max })
            }
            PolicyChange::Resign(on) => {
                settings.resign = on;
                None
            }
            PolicyChange::Draw(on) => {
                settings.draw = on;
                None
            }
            PolicyChange::Rules(rules) => {
                settings.rules = rules;
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_an_option_with_its_range() {
        let options = PolicySettings::options();
        assert_eq!(options.len(), PolicySettings::PARAMETERS.len() + 3);
        for p in PolicySettings::PARAMETERS {
            let option = options.iter().find(|o| o.name == p.name).expect("declared");
            assert_eq!(option.kind, OptionKind::Spin { default: p.default_value(), min: p.min, max: p.max });
        }
        let rules = options.iter().find(|o| o.name == RULES).expect("Rules declared");
        assert_eq!(rules.default_value(), "Terra");
    }

    #[test]
    fn changes_are_parsed_and_applied() {
        let mut s = PolicySettings::default();
        for (name, value) in [("resign", "0"), ("DRAW", "false"), ("Rules", "DeadBand"), ("contempt", "-40")]
        {
            let change = PolicyChange::parse(name, value).expect("a valid change");
            assert_eq!(change.apply(&mut s), None, "{name}");
        }
        assert!(!s.resign && !s.draw);
        assert_eq!((s.rules, s.contempt), (Rules::DeadBand, -40));
        let clamped = PolicyChange::parse("terra.resign_moves", "99").expect("a number").apply(&mut s);
        let clamped = clamped.expect("out of range");
        assert_eq!(clamped.to_string(), "terra.resign_moves must be from 1 to 20: set to 20, not 99");
        assert_eq!(s.terra.resign_moves, 20);
    }

    #[test]
    fn bad_names_and_values_are_refused() {
        assert_eq!(PolicyChange::parse("Courage", "3"), Err(OptionError::Unknown("Courage".into())));
        for (name, value) in [("Resign", "maybe"), ("Rules", "Chaos"), ("dead_band.width", "wide")] {
            assert!(matches!(PolicyChange::parse(name, value), Err(OptionError::Invalid { .. })), "{name}");
        }
    }
}
