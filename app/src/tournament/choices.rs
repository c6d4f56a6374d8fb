//! What the Tournament workspace's form holds, remembered between runs: the engines that
//! play, their control, the format, the arbiter's rules and the openings.

use std::path::PathBuf;

use kibitz_engine::matches::{EngineSpec, Format, unique_names};
use kibitz_engine::{AdjudicationRules, EngineConfig, Level, TimeControl};
use serde::{Deserialize, Serialize};

/// The most game pairs per encounter the form allows.
pub const MAX_PAIRS: usize = 100;
/// The most games at once the form allows.
pub const MAX_CONCURRENCY: usize = 16;

/// One engine of the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Entrant {
    /// Kibitz's own engine at a level.
    Kibitz(Level),
    /// An external engine the user added, by name.
    Engine(String),
}

impl Entrant {
    /// The name shown in the form and, numbered when needed, in the results.
    #[must_use]
    pub fn label(&self) -> String {
        match self {
            Entrant::Kibitz(level) => format!("Kibitz ({})", level.label()),
            Entrant::Engine(name) => name.clone(),
        }
    }
}

/// How the engines meet.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormatChoice {
    /// Two engines.
    Match,
    /// The first engine against each other.
    Gauntlet,
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The TCEC Cup's knockout, seeded in the order given.
    Knockout,
}

impl FormatChoice {
    /// Every format, in the order the form lists them.
    pub const ALL: [FormatChoice; 4] =
        [FormatChoice::Match, FormatChoice::Gauntlet, FormatChoice::RoundRobin, FormatChoice::Knockout];

    /// Its name in the form.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            FormatChoice::Match => "Match",
            FormatChoice::Gauntlet => "Gauntlet",
            FormatChoice::RoundRobin => "Round robin",
            FormatChoice::Knockout => "Knockout",
        }
    }
}

/// The arbiter's rules.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RulesChoice {
    /// TCEC's draw and win rules.
    #[default]
    Tcec,
    /// Fishtest's resign and draw rules.
    Fishtest,
    /// Games are played out.
    None,
}

impl RulesChoice {
    /// Every preset, in the order the form lists them.
    pub const ALL: [RulesChoice; 3] = [RulesChoice::Tcec, RulesChoice::Fishtest, RulesChoice::None];

    /// Its name in the form.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            RulesChoice::Tcec => "TCEC",
            RulesChoice::Fishtest => "Fishtest",
            RulesChoice::None => "None",
        }
    }

    /// The rules themselves.
    #[must_use]
    pub fn rules(self) -> AdjudicationRules {
        match self {
            RulesChoice::Tcec => AdjudicationRules::tcec(),
            RulesChoice::Fishtest => AdjudicationRules::fishtest(),
            RulesChoice::None => AdjudicationRules::none(),
        }
    }
}

/// The form of the Tournament workspace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TournamentChoices {
    /// The engines, in seeding order.
    pub entrants: Vec<Entrant>,
    /// Every engine's time control, as the clock dialog and `kibitz match --tc` read it
    /// (`10+0.1`, `40/60`, `st 1`, `sd 8`).
    pub control: String,
    /// How they meet.
    pub format: FormatChoice,
    /// Game pairs per encounter (a knockout duel's regular pairs).
    pub pairs: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// The arbiter's rules.
    pub rules: RulesChoice,
    /// An EPD or PGN suite of openings; `None`: the initial position.
    pub openings: Option<PathBuf>,
    /// Take the suite's openings in a random order (seeded) rather than as in the file.
    pub random_order: bool,
}

impl Default for TournamentChoices {
    fn default() -> Self {
        TournamentChoices {
            entrants: vec![Entrant::Kibitz(Level::Full), Entrant::Kibitz(Level::default())],
            control: "10+0.1".to_owned(),
            format: FormatChoice::default(),
            pairs: 2,
            concurrency: 1,
            rules: RulesChoice::default(),
            openings: None,
            random_order: false,
        }
    }
}

impl TournamentChoices {
    /// Brings out-of-range numbers back into range (a hand-edited settings file).
    #[must_use]
    pub fn sanitized(mut self) -> Self {
        self.pairs = self.pairs.clamp(1, MAX_PAIRS);
        self.concurrency = self.concurrency.clamp(1, MAX_CONCURRENCY);
        self
    }

    /// The engines as the match runner takes them, each at the form's control, or why the
    /// form does not describe a tournament yet.
    ///
    /// # Errors
    /// A message for the form: too few engines, a match of more than two, a control that
    /// does not read, an engine no longer configured.
    pub fn engines(&self, configured: &[EngineConfig]) -> Result<Vec<EngineSpec>, String> {
        let control = TimeControl::parse(&self.control).map_err(|e| format!("Time control: {e}."))?;
        if control == TimeControl::Infinite {
            return Err("Time control: a tournament needs a limit to each move.".to_owned());
        }
        if self.entrants.len() < 2 {
            return Err("Add at least two engines.".to_owned());
        }
        if self.format == FormatChoice::Match && self.entrants.len() != 2 {
            return Err("A match is for two engines; choose a gauntlet or a round robin for more.".to_owned());
        }
        let mut specs = Vec::new();
        for entrant in &self.entrants {
            let spec = match entrant {
                Entrant::Kibitz(level) => EngineSpec {
                    options: level.options(),
                    ..EngineSpec::builtin(&entrant.label(), control.clone())
                },
                Entrant::Engine(name) => {
                    let config = configured.iter().find(|c| &c.name == name).ok_or_else(|| {
                        format!("{name} is no longer among the engines: remove it or add it again.")
                    })?;
                    EngineSpec::external(config.clone(), control.clone())
                }
            };
            specs.push(spec);
        }
        unique_names(&mut specs);
        Ok(specs)
    }

    /// The runner's format (a knockout is played duel by duel, each a match).
    #[must_use]
    pub fn runner_format(&self) -> Format {
        match self.format {
            FormatChoice::Match => Format::Match,
            FormatChoice::Gauntlet => Format::Gauntlet,
            FormatChoice::RoundRobin | FormatChoice::Knockout => Format::RoundRobin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_describes_engines_or_says_what_is_missing() {
        let mut choices = TournamentChoices::default();
        let specs = choices.engines(&[]).expect("two levels of Kibitz");
        let level = Level::default();
        assert_eq!(
            specs.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            ["Kibitz (Full strength)".to_owned(), format!("Kibitz ({level})")]
        );
        assert_eq!(specs[1].options, level.options(), "a level is its UCI options");
        assert_eq!(specs[1].limits, kibitz_engine::SearchLimits::default(), "and plays by the clock alone");

        choices.entrants.push(Entrant::Kibitz(level));
        choices.format = FormatChoice::Match;
        assert!(choices.engines(&[]).is_err(), "a match of three");
        choices.format = FormatChoice::RoundRobin;
        let names: Vec<String> = choices.engines(&[]).expect("three").into_iter().map(|s| s.name).collect();
        assert_eq!(names[2], format!("Kibitz ({level}) 2"), "names are made unique");

        choices.entrants.push(Entrant::Engine("Gone".into()));
        assert!(choices.engines(&[]).expect_err("not configured").contains("Gone"));
        choices.entrants.pop();
        choices.control = "ten minutes".into();
        assert!(choices.engines(&[]).expect_err("bad control").starts_with("Time control"));
        choices.control = "infinite".into();
        assert!(choices.engines(&[]).is_err(), "no limit");
        choices.entrants.truncate(1);
        choices.control = "sd 3".into();
        assert!(choices.engines(&[]).is_err(), "one engine");
    }

    #[test]
    fn out_of_range_numbers_are_clamped_and_missing_fields_take_defaults() {
        let read: TournamentChoices =
            serde_json::from_str(r#"{"pairs": 0, "concurrency": 999, "format": "knockout"}"#).expect("reads");
        let read = read.sanitized();
        assert_eq!((read.pairs, read.concurrency, read.format), (1, MAX_CONCURRENCY, FormatChoice::Knockout));
        assert_eq!(read.control, TournamentChoices::default().control);
    }
}
