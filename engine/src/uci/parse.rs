//! Parsing one line of UCI input into a [`UciCommand`], without side effects.

use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Move, Position, PositionError, fen::Fen, uci::UciMove};

use crate::SearchLimits;

/// One line of UCI input, understood.
#[derive(Clone, Debug, PartialEq)]
pub enum UciCommand {
    /// `uci`: identify and list options.
    Uci,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `ucinewgame`.
    NewGame,
    /// `position ...`, already checked: the start position and legal moves from it.
    Position {
        /// The start position.
        start: Chess,
        /// The moves played from it.
        moves: Vec<Move>,
    },
    /// `go ...`.
    Go(SearchLimits),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `setoption name Hash value N`.
    SetHash(usize),
    /// A line to ignore: empty, or a command that needs no answer (`ponderhit`, `debug`).
    Ignore,
    /// A known command that could not be understood; the text explains why.
    Error(String),
    /// A command this engine does not know.
    Unknown(String),
}

/// The largest hash size accepted by `setoption name Hash`.
const MAX_HASH_MB: usize = 1024;

/// Parses one line of UCI input. Never fails: bad input becomes [`UciCommand::Error`] or
/// [`UciCommand::Unknown`].
#[must_use]
pub fn parse_line(line: &str) -> UciCommand {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = tokens.split_first() else {
        return UciCommand::Ignore;
    };
    let result = match first {
        "uci" => Ok(UciCommand::Uci),
        "isready" => Ok(UciCommand::IsReady),
        "ucinewgame" => Ok(UciCommand::NewGame),
        "position" => parse_position(rest),
        "go" => parse_go(rest).map(UciCommand::Go),
        "stop" => Ok(UciCommand::Stop),
        "quit" => Ok(UciCommand::Quit),
        "setoption" => parse_setoption(rest),
        "ponderhit" | "debug" | "register" => Ok(UciCommand::Ignore),
        _ => Ok(UciCommand::Unknown(line.trim().to_owned())),
    };
    result.unwrap_or_else(UciCommand::Error)
}

fn parse_position(tokens: &[&str]) -> Result<UciCommand, String> {
    let moves_at = tokens.iter().position(|&t| t == "moves").unwrap_or(tokens.len());
    let (setup, moves) = tokens.split_at(moves_at);
    let start = match setup.split_first() {
        Some((&"startpos", [])) => Chess::default(),
        Some((&"fen", fields)) if !fields.is_empty() => {
            let text = fields.join(" ");
            let fen: Fen = text.parse().map_err(|e| format!("bad FEN '{text}': {e}"))?;
            fen.into_position(CastlingMode::Standard)
                .or_else(PositionError::ignore_impossible_check)
                .map_err(|e| format!("impossible position '{text}': {e}"))?
        }
        _ => return Err("expected 'position startpos' or 'position fen <FEN>'".to_owned()),
    };
    let mut pos = start.clone();
    let mut played = Vec::new();
    for &text in moves.iter().skip(1) {
        let uci: UciMove = text.parse().map_err(|_| format!("bad move '{text}'"))?;
        let m = uci.to_move(&pos).map_err(|_| format!("illegal move '{text}'"))?;
        pos.play_unchecked(m);
        played.push(m);
    }
    Ok(UciCommand::Position { start, moves: played })
}

fn parse_go(tokens: &[&str]) -> Result<SearchLimits, String> {
    let mut limits = SearchLimits::default();
    let mut tokens = tokens.iter();
    while let Some(&key) = tokens.next() {
        let mut value = || tokens.next().copied().ok_or_else(|| format!("'{key}' needs a value"));
        match key {
            "infinite" => limits.infinite = true,
            "wtime" => limits.wtime = Some(millis(key, value()?)?),
            "btime" => limits.btime = Some(millis(key, value()?)?),
            "winc" => limits.winc = Some(millis(key, value()?)?),
            "binc" => limits.binc = Some(millis(key, value()?)?),
            "movetime" => limits.movetime = Some(millis(key, value()?)?),
            "movestogo" => limits.movestogo = Some(number(key, value()?)?),
            "depth" => limits.depth = Some(number(key, value()?)?),
            "nodes" => limits.nodes = Some(number(key, value()?)?),
            // Pondering, mate search and move restriction are not supported; ignore them.
            _ => {}
        }
    }
    Ok(limits)
}

fn number<T: std::str::FromStr>(key: &str, text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("bad value '{text}' for '{key}'"))
}

/// A time in milliseconds; negative values (some GUIs send them when flagging) become zero.
fn millis(key: &str, text: &str) -> Result<Duration, String> {
    let ms: i64 = number(key, text)?;
    Ok(Duration::from_millis(u64::try_from(ms).unwrap_or(0)))
}

fn parse_setoption(tokens: &[&str]) -> Result<UciCommand, String> {
    let value_at = tokens.iter().position(|&t| t == "value");
    let name_end = value_at.unwrap_or(tokens.len());
    let name = match tokens.split_first() {
        Some((&"name", _)) => tokens[1..name_end].join(" "),
        _ => return Err("expected 'setoption name <name> [value <value>]'".to_owned()),
    };
    let value = value_at.map(|at| tokens[at + 1..].join(" ")).unwrap_or_default();
    if !name.eq_ignore_ascii_case("hash") {
        return Err(format!("unknown option '{name}'"));
    }
    match value.parse::<usize>() {
        Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => Ok(UciCommand::SetHash(mb)),
        _ => Err(format!("Hash must be a number from 1 to {MAX_HASH_MB}, not '{value}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(parse_line("uci"), UciCommand::Uci);
        assert_eq!(parse_line("  isready \r"), UciCommand::IsReady);
        assert_eq!(parse_line("ucinewgame"), UciCommand::NewGame);
        assert_eq!(parse_line("stop"), UciCommand::Stop);
        assert_eq!(parse_line("quit"), UciCommand::Quit);
        assert_eq!(parse_line(""), UciCommand::Ignore);
        assert_eq!(parse_line("   "), UciCommand::Ignore);
    }

    #[test]
    fn garbage_is_unknown() {
        assert_eq!(parse_line("xyzzy 1 2"), UciCommand::Unknown("xyzzy 1 2".to_owned()));
        assert!(matches!(parse_line("\u{1F600} ä"), UciCommand::Unknown(_)));
    }

    #[test]
    fn positions() {
        let UciCommand::Position { start, moves } = parse_line("position startpos moves e2e4 e7e5") else {
            panic!("not a position");
        };
        assert_eq!(start, Chess::default());
        assert_eq!(moves.len(), 2);
        let kiwipete =
            "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1";
        assert!(matches!(parse_line(kiwipete), UciCommand::Position { moves, .. } if moves.len() == 1));
        assert!(
            matches!(parse_line("position startpos"), UciCommand::Position { moves, .. } if moves.is_empty())
        );
    }

    #[test]
    fn bad_positions_are_errors() {
        for line in [
            "position",
            "position startpos moves e2e5",
            "position startpos moves e2e4 e2e4",
            "position startpos moves zz",
            "position fen",
            "position fen not/a/fen w - - 0 1",
            "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
            "position startpos extra",
            "position banana",
        ] {
            assert!(matches!(parse_line(line), UciCommand::Error(_)), "{line}");
        }
    }

    #[test]
    fn go_limits() {
        let UciCommand::Go(limits) =
            parse_line("go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 3 nodes 99")
        else {
            panic!("not a go");
        };
        assert_eq!(limits.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(limits.btime, Some(Duration::ZERO));
        assert_eq!(limits.binc, Some(Duration::from_millis(20)));
        assert_eq!(limits.movestogo, Some(7));
        assert_eq!(limits.depth, Some(3));
        assert_eq!(limits.nodes, Some(99));
        assert!(matches!(parse_line("go infinite"), UciCommand::Go(l) if l.infinite));
        assert!(matches!(parse_line("go"), UciCommand::Go(l) if l == SearchLimits::default()));
        assert!(matches!(parse_line("go movetime 50"), UciCommand::Go(l) if l.movetime.is_some()));
    }

    #[test]
    fn partial_go_lines_are_errors() {
        assert!(matches!(parse_line("go depth"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go depth x"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go wtime"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go nodes -1"), UciCommand::Error(_)));
    }

    #[test]
    fn options() {
        assert_eq!(parse_line("setoption name Hash value 64"), UciCommand::SetHash(64));
        assert!(matches!(parse_line("setoption name Hash value 0"), UciCommand::Error(_)));
        assert!(matches!(parse_line("setoption name Hash"), UciCommand::Error(_)));
        assert!(matches!(parse_line("setoption name Ponder value true"), UciCommand::Error(_)));
        assert!(matches!(parse_line("setoption"), UciCommand::Error(_)));
    }
}
