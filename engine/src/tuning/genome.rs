//! The genome: which of [`PolicySettings::PARAMETERS`] a run tunes, in a fixed order, and how
//! a vector of their values becomes the settings a game is played with. The ranges are the
//! parameters' own, so the tuner, the command line, the UCI and xboard options and the app's
//! dialog share them.

use std::fmt;

use crate::policy::{Parameter, PolicySettings, Rules, UnknownParameter};

/// The tuned parameters of one rule set, in order.
#[derive(Clone, Debug)]
pub struct Genome {
    rules: Rules,
    parameters: Vec<&'static Parameter>,
}

/// A genome that cannot be made: an unknown name, or no parameter at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenomeError {
    /// A name [`PolicySettings::PARAMETERS`] does not have.
    Unknown(UnknownParameter),
    /// No parameter to tune.
    Empty,
}

impl fmt::Display for GenomeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenomeError::Unknown(e) => write!(f, "{e}"),
            GenomeError::Empty => f.write_str("there is no parameter to tune"),
        }
    }
}

impl std::error::Error for GenomeError {}

impl Genome {
    /// The numbers that decide under `rules`: the dead band's width, move count and threshold
    /// (contempt plays no part in its decisions), or contempt and Terra's numbers.
    #[must_use]
    pub fn for_rules(rules: Rules) -> Genome {
        let prefix = match rules {
            Rules::DeadBand => "dead_band.",
            Rules::Terra => "terra.",
        };
        let parameters = PolicySettings::PARAMETERS
            .iter()
            .filter(|p| p.name.starts_with(prefix) || (rules == Rules::Terra && p.name == "contempt"))
            .collect();
        Genome { rules, parameters }
    }

    /// The parameters called `names`, in that order, under `rules` (a log's genome).
    ///
    /// # Errors
    /// [`GenomeError`] for an unknown name or no name at all.
    pub fn from_names(rules: Rules, names: &[String]) -> Result<Genome, GenomeError> {
        let parameters = names
            .iter()
            .map(|n| PolicySettings::parameter(n).ok_or_else(|| UnknownParameter(n.clone())))
            .collect::<Result<Vec<_>, _>>()
            .map_err(GenomeError::Unknown)?;
        if parameters.is_empty() {
            return Err(GenomeError::Empty);
        }
        Ok(Genome { rules, parameters })
    }

    /// The rule set the settings use.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The tuned parameters, in order.
    #[must_use]
    pub fn parameters(&self) -> &[&'static Parameter] {
        &self.parameters
    }

    /// Their names, in order.
    #[must_use]
    pub fn names(&self) -> Vec<String> {
        self.parameters.iter().map(|p| p.name.to_owned()).collect()
    }

    /// The values of the default settings.
    #[must_use]
    pub fn defaults(&self) -> Vec<i64> {
        self.values(&PolicySettings::default())
    }

    /// The values of `settings`, in order.
    #[must_use]
    pub fn values(&self, settings: &PolicySettings) -> Vec<i64> {
        self.parameters.iter().map(|p| p.get(settings)).collect()
    }

    /// The settings a member plays with: the defaults under the genome's rules, with `values`
    /// (each brought into its range; a missing one keeps its default), sanitized.
    #[must_use]
    pub fn settings(&self, values: &[i64]) -> PolicySettings {
        let mut settings = PolicySettings { rules: self.rules, ..PolicySettings::default() };
        for (p, &v) in self.parameters.iter().zip(values) {
            p.set(&mut settings, v);
        }
        settings.sanitized()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_set_tunes_its_own_numbers() {
        let dead = Genome::for_rules(Rules::DeadBand);
        assert_eq!(dead.names(), ["dead_band.width", "dead_band.moves", "dead_band.threshold"]);
        let terra = Genome::for_rules(Rules::Terra);
        assert_eq!(terra.names()[0], "contempt");
        assert!(terra.names()[1..].iter().all(|n| n.starts_with("terra.")));
        assert_eq!(terra.names().len(), 11);
    }

    #[test]
    fn values_become_settings_within_the_ranges() {
        let g = Genome::for_rules(Rules::DeadBand);
        let s = g.settings(&[40, 500, -7]);
        assert_eq!(s.rules, Rules::DeadBand);
        assert_eq!((s.dead_band.width, s.dead_band.moves, s.dead_band.threshold), (40, 100, 0));
        assert_eq!(g.values(&s), [40, 100, 0]);
        assert_eq!(g.settings(&g.defaults()).dead_band, PolicySettings::default().dead_band);
        let named = Genome::from_names(Rules::DeadBand, &g.names()).expect("known names");
        assert_eq!(named.names(), g.names());
        assert!(matches!(
            Genome::from_names(Rules::Terra, &["courage".into()]),
            Err(GenomeError::Unknown(_))
        ));
        assert_eq!(Genome::from_names(Rules::Terra, &[]).err(), Some(GenomeError::Empty));
    }
}
