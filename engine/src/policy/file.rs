//! The policy's settings as a JSON file (the app's format, serde's), such as the BEST.json
//! of `kibitz tune-policy`: read and brought into the parameters' ranges.

use std::fmt;
use std::path::{Path, PathBuf};

use super::PolicySettings;

/// Why a settings file cannot be loaded.
#[derive(Debug)]
pub enum PolicyFileError {
    /// The file cannot be read.
    Unreadable(PathBuf, std::io::Error),
    /// The file is not the settings' JSON.
    NotSettings(PathBuf, serde_json::Error),
}

impl fmt::Display for PolicyFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PolicyFileError::Unreadable(path, e) => write!(f, "{}: {e}", path.display()),
            PolicyFileError::NotSettings(path, e) => {
                write!(f, "{}: not draw and resign settings: {e}", path.display())
            }
        }
    }
}

impl std::error::Error for PolicyFileError {}

impl PolicySettings {
    /// Reads settings written as JSON (missing fields take their defaults), every number
    /// brought into its range.
    ///
    /// # Errors
    /// [`PolicyFileError`] for a file that cannot be read or is not the settings' JSON.
    pub fn load(path: &Path) -> Result<PolicySettings, PolicyFileError> {
        let text = std::fs::read(path).map_err(|e| PolicyFileError::Unreadable(path.to_path_buf(), e))?;
        let settings: PolicySettings =
            serde_json::from_slice(&text).map_err(|e| PolicyFileError::NotSettings(path.to_path_buf(), e))?;
        Ok(settings.sanitized())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Rules;

    #[test]
    fn a_written_file_loads_within_the_ranges() {
        let dir = std::env::temp_dir().join(format!("kibitz-policy-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("best.json");
        std::fs::write(&path, r#"{"rules": "dead-band", "dead_band": {"width": 40, "moves": 900}}"#)
            .expect("writable");
        let s = PolicySettings::load(&path).expect("settings");
        assert_eq!((s.rules, s.dead_band.width, s.dead_band.moves), (Rules::DeadBand, 40, 100));
        assert_eq!(s.dead_band.threshold, 3000, "a missing number keeps its default");
        std::fs::write(&path, "[1, 2]").expect("writable");
        assert!(matches!(PolicySettings::load(&path), Err(PolicyFileError::NotSettings(..))));
        assert!(matches!(PolicySettings::load(&dir.join("none.json")), Err(PolicyFileError::Unreadable(..))));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
