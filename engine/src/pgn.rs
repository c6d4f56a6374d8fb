//! PGN, the Portable Game Notation: reading games with their variations, comments and
//! annotation glyphs (pgn-reader does the parsing), writing them back, and counting a whole
//! file's games and moves.

mod error;
mod read;
mod replay;
mod scan;
mod split;
mod stats;
mod variant;
mod write;

pub use error::PgnError;
pub(crate) use read::read_game_text;
pub use read::{PgnGames, decode_pgn_text, read_games, read_pgn};
pub(crate) use split::GameSplitter;
pub use stats::{PgnStats, pgn_stats, pgn_stats_with};
pub use variant::{UnsupportedVariant, castling_mode_of_variant, variant_tag};
pub use write::write_pgn;

/// Today's date in PGN's `YYYY.MM.DD` form (UTC).
///
/// ```
/// let date = kibitz_engine::pgn_date_today();
/// assert_eq!(date.len(), 10);
/// assert_eq!(&date[4..5], ".");
/// ```
#[must_use]
pub fn pgn_date_today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's method).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameRecord;

    #[test]
    fn round_trips_a_game_from_a_fen_with_black_to_move() {
        let mut game = GameRecord::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 3 40").unwrap();
        game.set_tag("White", "Ann \"The Rook\"");
        game.set_tag("Annotator", "Kibitz");
        for m in ["Kd7", "e4", "Ke6", "Ke2"] {
            game.play_text(m).unwrap();
        }
        let text = write_pgn(&game);
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 3 40\"]\n"));
        assert!(text.contains("40... Kd7 41. e4 Ke6 42. Ke2 *"), "{text}");
        let back = read_pgn(&text).unwrap();
        assert_eq!(back.san_moves(), game.san_moves());
        assert_eq!(back.tag("White"), Some("Ann \"The Rook\""));
        assert_eq!(back.tag("Annotator"), Some("Kibitz"));
        assert_eq!(write_pgn(&back), text);
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
    }

    #[test]
    fn long_games_wrap_at_eighty_columns() {
        let mut game = GameRecord::new();
        for _ in 0..20 {
            for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                game.play_text(m).unwrap();
            }
        }
        let text = write_pgn(&game);
        assert!(text.lines().all(|l| l.len() <= 80));
        assert_eq!(read_pgn(&text).unwrap().len(), 80);
    }

    #[test]
    fn refuses_variants_bad_fens_and_empty_files() {
        assert!(read_pgn("").is_err());
        assert!(read_pgn("[Variant \"Atomic\"]\n\n1. e4 *").is_err());
        let err = read_pgn("[FEN \"not a fen\"]\n\n*").unwrap_err();
        assert!(err.message.starts_with("The FEN tag"), "{err}");
    }
}
