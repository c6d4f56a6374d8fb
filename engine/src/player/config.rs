//! An external engine as the user configured it: a name, a program, a protocol and the
//! option values chosen for it. The app keeps a list of these in its settings.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// The Universal Chess Interface.
    Uci,
    /// xboard / CECP version 2.
    Xboard,
}

impl Protocol {
    /// "UCI" or "xboard".
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Protocol::Uci => "UCI",
            Protocol::Xboard => "xboard",
        }
    }
}

/// One external engine.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct EngineConfig {
    /// The name shown to the user and written in PGN tags.
    pub name: String,
    /// The program to run.
    pub path: PathBuf,
    /// Arguments to pass it.
    pub args: Vec<String>,
    /// The protocol, or `None` to detect it (UCI first, then xboard).
    pub protocol: Option<Protocol>,
    /// Option values to set after the handshake, by name, as the user chose them.
    pub options: Vec<(String, String)>,
}

impl EngineConfig {
    /// An engine at `path`, named after the file, protocol detected.
    #[must_use]
    pub fn from_path(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let name =
            path.file_stem().map_or_else(|| "engine".to_string(), |s| s.to_string_lossy().into_owned());
        EngineConfig { name, path, ..Default::default() }
    }

    /// The value the user chose for `name`, if any.
    #[must_use]
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Sets (or replaces) the value of option `name`.
    pub fn set_option(&mut self, name: &str, value: &str) {
        match self.options.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some(entry) => entry.1 = value.to_string(),
            None => self.options.push((name.to_string(), value.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_is_named_after_its_program_and_keeps_one_value_per_option() {
        let mut config = EngineConfig::from_path("/usr/games/stockfish");
        assert_eq!(config.name, "stockfish");
        config.set_option("Hash", "16");
        config.set_option("hash", "32");
        assert_eq!(config.options.len(), 1);
        assert_eq!(config.option("HASH"), Some("32"));
        let json = serde_json::to_string(&config).expect("serialises");
        let back: EngineConfig = serde_json::from_str(&json).expect("reads back");
        assert_eq!(back, config);
        // A damaged entry falls back to defaults field by field.
        let partial: EngineConfig =
            serde_json::from_str(r#"{"name":"x","protocol":"xboard"}"#).expect("reads");
        assert_eq!(partial.protocol, Some(Protocol::Xboard));
    }
}
