//! Reading and writing a game as PGN (the main line; variations and comments come with the
//! PGN database).

use std::fmt;
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Color, Position};

use crate::GameRecord;
use crate::game::SEVEN_TAGS;

/// Why a PGN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// What went wrong, for the player to read.
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PgnError {}

fn error(message: impl Into<String>) -> PgnError {
    PgnError { message: message.into() }
}

/// Writes a game as PGN: the Seven Tag Roster first, then `SetUp` and `FEN` for a game that
/// did not start from the initial position, the other tags, and the moves wrapped at 80
/// columns.
///
/// ```
/// use kibitz_engine::{GameRecord, read_pgn, write_pgn};
/// let mut game = GameRecord::new();
/// game.play_text("e4").unwrap();
/// let text = write_pgn(&game);
/// assert!(text.starts_with("[Event \"?\"]\n"));
/// assert!(text.ends_with("\n\n1. e4 *\n"));
/// assert_eq!(read_pgn(&text).unwrap().san_moves(), ["e4"]);
/// ```
#[must_use]
pub fn write_pgn(game: &GameRecord) -> String {
    let mut out = String::new();
    let mut write_tag = |name: &str, value: &str| {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{escaped}\"]\n"));
    };
    for name in SEVEN_TAGS {
        let value = if name == "Result" { game.result() } else { game.tag(name).unwrap_or("?") };
        write_tag(name, value);
    }
    if let Some(fen) = game.start_fen() {
        write_tag("SetUp", "1");
        write_tag("FEN", &fen);
    }
    for (name, value) in game.tags() {
        if !SEVEN_TAGS.contains(&name.as_str()) && name != "SetUp" && name != "FEN" {
            write_tag(name, value);
        }
    }
    out.push('\n');

    let mut tokens = Vec::with_capacity(game.len() * 3 / 2 + 1);
    let start = game.start();
    let mut number = start.fullmoves().get();
    let mut turn = start.turn();
    for (i, san) in game.san_moves().iter().enumerate() {
        if turn == Color::White {
            tokens.push(format!("{number}. {san}"));
        } else if i == 0 {
            tokens.push(format!("{number}... {san}"));
        } else {
            tokens.push(san.clone());
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    tokens.push(game.result().to_string());

    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += token.len();
        out.push_str(&token);
    }
    out.push('\n');
    out
}

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

/// Reads the first game of a PGN text: its tags and its main line. Every move must be legal;
/// the error names the first one that is not.
///
/// ```
/// use kibitz_engine::read_pgn;
/// let err = read_pgn("1. e4 e5 2. Ke3 *").unwrap_err();
/// assert_eq!(err.to_string(), "Move 2. Ke3 is illegal: illegal san.");
/// ```
pub fn read_pgn(text: &str) -> Result<GameRecord, PgnError> {
    let mut reader = Reader::new(text.as_bytes());
    match reader.read_game(&mut GameBuilder) {
        Ok(Some(result)) => result,
        Ok(None) => Err(error("The file holds no game.")),
        Err(e) => Err(error(format!("The file cannot be read: {e}."))),
    }
}

/// Builds a [`GameRecord`] from pgn-reader's callbacks.
struct GameBuilder;

impl Visitor for GameBuilder {
    type Tags = Vec<(String, String)>;
    type Movetext = GameRecord;
    type Output = Result<GameRecord, PgnError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let name = String::from_utf8_lossy(name).into_owned();
        tags.push((name, value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        if let Some((_, variant)) = tags.iter().find(|(n, _)| n == "Variant") {
            let v = variant.to_ascii_lowercase();
            if !(v.is_empty() || v == "standard" || v == "chess" || v == "from position") {
                return ControlFlow::Break(Err(error(format!(
                    "This game is of the variant \"{variant}\", which Kibitz does not play."
                ))));
            }
        }
        let mut game = match tags.iter().find(|(n, _)| n == "FEN") {
            Some((_, fen)) => match GameRecord::from_fen(fen) {
                Ok(game) => game,
                Err(e) => return ControlFlow::Break(Err(error(format!("The FEN tag: {e}")))),
            },
            None => GameRecord::new(),
        };
        for (name, value) in &tags {
            if name != "FEN" && name != "SetUp" {
                game.set_tag(name, value);
            }
        }
        ControlFlow::Continue(game)
    }

    fn san(&mut self, game: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        let pos = game.position();
        let number = pos.fullmoves();
        let dots = if pos.turn() == Color::White { "." } else { "..." };
        let result = san_plus
            .san
            .to_move(pos)
            .map_err(|e| e.to_string())
            .and_then(|m| game.play(m).map_err(|e| e.to_string()));
        match result {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                ControlFlow::Break(Err(error(format!("Move {number}{dots} {san_plus} is illegal: {e}."))))
            }
        }
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
