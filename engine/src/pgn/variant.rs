//! The `Variant` tag: which spellings name the chess Kibitz plays (standard chess and
//! Chess960), and the reason given for the variants it does not play.

use std::fmt;

use shakmaty::CastlingMode;

/// A `Variant` tag naming a game Kibitz does not play (crazyhouse, atomic, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedVariant(pub String);

impl fmt::Display for UnsupportedVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "This game is of the variant \"{}\", which Kibitz does not play.", self.0)
    }
}

impl std::error::Error for UnsupportedVariant {}

/// The castling rules of the game a `Variant` tag names: [`CastlingMode::Standard`] for
/// standard chess (`normal`, `standard`, `chess`, `From Position`, empty) and
/// [`CastlingMode::Chess960`] for Chess960 (`Chess960`, `fischerandom`, `Fischer Random`,
/// `960`, `frc`), ignoring case, spaces, hyphens and underscores.
///
/// ```
/// use kibitz_engine::castling_mode_of_variant;
/// use shakmaty::CastlingMode;
/// assert_eq!(castling_mode_of_variant("normal"), Ok(CastlingMode::Standard));
/// assert_eq!(castling_mode_of_variant("Fischer Random"), Ok(CastlingMode::Chess960));
/// let err = castling_mode_of_variant("crazyhouse").unwrap_err();
/// assert_eq!(err.to_string(), "This game is of the variant \"crazyhouse\", which Kibitz does not play.");
/// ```
pub fn castling_mode_of_variant(variant: &str) -> Result<CastlingMode, UnsupportedVariant> {
    let name: String =
        variant.chars().filter(|c| !matches!(c, ' ' | '-' | '_')).flat_map(char::to_lowercase).collect();
    match name.as_str() {
        "" | "normal" | "standard" | "chess" | "fromposition" => Ok(CastlingMode::Standard),
        "chess960" | "fischerandom" | "fischerrandom" | "960" | "frc" => Ok(CastlingMode::Chess960),
        _ => Err(UnsupportedVariant(variant.trim().to_string())),
    }
}

/// The `Variant` tag Kibitz writes for a game with these castling rules (`None`: no tag).
#[must_use]
pub fn variant_tag(mode: CastlingMode) -> Option<&'static str> {
    match mode {
        CastlingMode::Standard => None,
        CastlingMode::Chess960 => Some("Chess960"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_of_standard_chess_and_chess960() {
        for name in ["", " ", "normal", "Standard", "CHESS", "From Position"] {
            assert_eq!(castling_mode_of_variant(name), Ok(CastlingMode::Standard), "{name:?}");
        }
        for name in
            ["chess960", "Chess 960", "fischerandom", "Fischer Random", "960", "FRC", "fischer-random"]
        {
            assert_eq!(castling_mode_of_variant(name), Ok(CastlingMode::Chess960), "{name:?}");
        }
        for name in ["crazyhouse", "Atomic", "Seirawan", "sittuyin", "antichess", "3check"] {
            assert!(castling_mode_of_variant(name).is_err(), "{name:?}");
        }
    }
}
