//! Parsing one line of UCI input into a [`UciCommand`], without side effects.

use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Move, Position, PositionError, fen::Fen, uci::UciMove};

use crate::ELO_RANGE;
use crate::SearchLimits;
use crate::policy::PolicyChange;
use crate::search::max_threads;

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
    /// `go ...`. The `searchmoves` are resolved against the position by the caller, and
    /// the options (MultiPV, Move Overhead) filled in by it.
    Go {
        /// Everything but the moves to search.
        limits: SearchLimits,
        /// The moves after `searchmoves`, as written.
        searchmoves: Vec<UciMove>,
    },
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `eval` (as Stockfish has it): the static evaluation of the position, term by term.
    Eval,
    /// `setoption name ... [value ...]`, checked.
    SetOption(UciOption),
    /// A line to ignore: empty, or a command that needs no answer (`debug`, `register`).
    Ignore,
    /// A known command that could not be understood; the text explains why.
    Error(String),
    /// A command this engine does not know.
    Unknown(String),
}

/// An engine option set by `setoption`, with its value checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciOption {
    /// `Hash`: the transposition table size in megabytes.
    Hash(usize),
    /// `Clear Hash`: empty the transposition table.
    ClearHash,
    /// `Threads`: the threads a search runs on (Lazy SMP), from 1 to the machine's logical
    /// cores (`search::max_threads`); a value outside is refused.
    Threads(usize),
    /// `MultiPV`: the number of lines to report.
    MultiPv(u32),
    /// `Ponder`: whether the GUI may send `go ponder`.
    Ponder(bool),
    /// `Move Overhead`: time kept in reserve per move.
    MoveOverhead(Duration),
    /// `UCI_LimitStrength`: play weakened to `UCI_Elo` (see [`Level`](crate::Level)).
    LimitStrength(bool),
    /// `UCI_Elo`: the rating to play at when weakened, within [`ELO_RANGE`](crate::ELO_RANGE).
    Elo(u32),
    /// `SyzygyPath`: folders of Syzygy tables, separated as in `PATH`; empty for none.
    SyzygyPath(String),
    /// `UseNNUE`: evaluate with the network rather than the classical evaluation.
    UseNnue(bool),
    /// `EvalFile`: the network file to evaluate with when `UseNNUE` is on; empty for the
    /// network built in.
    EvalFile(String),
    /// `OwnBook`: play from the opening book.
    OwnBook(bool),
    /// `BookFile`: the book to play from (Kibitz's own format or Polyglot).
    BookFile(String),
    /// `PositionFile`: Kibitz's learned positions (`learned-positions.kpos`), which seed the
    /// hash table before each search.
    PositionFile(String),
    /// `PostBookFile`: Kibitz's PostBook (`postbook.txt`), which steers its first moves
    /// after the book.
    PostBookFile(String),
    /// `PositionLearning`: use the learned positions.
    PositionLearning(bool),
    /// `UsePostBook`: use the PostBook.
    UsePostBook(bool),
    /// `PolicyFile`: draw and resign settings from a JSON file (the app's, or the BEST.json
    /// of `kibitz tune-policy`), replacing them all.
    PolicyFile(String),
    /// A draw and resign setting: `Resign`, `Draw`, `Rules` or a parameter such as
    /// `dead_band.width` (a number perhaps out of its range, brought into it when applied).
    Policy(PolicyChange),
}

/// The largest hash size accepted by `setoption name Hash`.
pub const MAX_HASH_MB: usize = 1024;
/// The largest `MultiPV`.
pub const MAX_MULTIPV: u32 = 256;
/// The largest `Move Overhead` in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// The words of `go` that take no value or start a new parameter.
const GO_KEYWORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

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
        "go" => parse_go(rest),
        "stop" => Ok(UciCommand::Stop),
        "ponderhit" => Ok(UciCommand::PonderHit),
        "quit" => Ok(UciCommand::Quit),
        "eval" => Ok(UciCommand::Eval),
        "setoption" => parse_setoption(rest).map(UciCommand::SetOption),
        "debug" | "register" => Ok(UciCommand::Ignore),
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

fn parse_go(tokens: &[&str]) -> Result<UciCommand, String> {
    let mut limits = SearchLimits::default();
    let mut searchmoves = Vec::new();
    let mut tokens = tokens.iter().peekable();
    while let Some(&key) = tokens.next() {
        let mut value = || tokens.next().copied().ok_or_else(|| format!("'{key}' needs a value"));
        match key {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "wtime" => limits.wtime = Some(millis(key, value()?)?),
            "btime" => limits.btime = Some(millis(key, value()?)?),
            "winc" => limits.winc = Some(millis(key, value()?)?),
            "binc" => limits.binc = Some(millis(key, value()?)?),
            "movetime" => limits.movetime = Some(millis(key, value()?)?),
            "movestogo" => limits.movestogo = Some(number(key, value()?)?),
            "depth" => limits.depth = Some(number(key, value()?)?),
            "nodes" => limits.nodes = Some(number(key, value()?)?),
            "mate" => limits.mate = Some(number(key, value()?)?),
            "searchmoves" => {
                while let Some(&&text) = tokens.peek() {
                    if GO_KEYWORDS.contains(&text) {
                        break;
                    }
                    tokens.next();
                    searchmoves.push(text.parse().map_err(|_| format!("bad move '{text}' in searchmoves"))?);
                }
                if searchmoves.is_empty() {
                    return Err("'searchmoves' needs at least one move".to_owned());
                }
            }
            other => return Err(format!("unknown go parameter '{other}'")),
        }
    }
    Ok(UciCommand::Go { limits, searchmoves })
}

fn number<T: std::str::FromStr>(key: &str, text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("bad value '{text}' for '{key}'"))
}

/// A time in milliseconds; negative values (some GUIs send them when flagging) become zero.
fn millis(key: &str, text: &str) -> Result<Duration, String> {
    let ms: i64 = number(key, text)?;
    Ok(Duration::from_millis(u64::try_from(ms).unwrap_or(0)))
}

fn parse_setoption(tokens: &[&str]) -> Result<UciOption, String> {
    let value_at = tokens.iter().position(|&t| t == "value");
    let name_end = value_at.unwrap_or(tokens.len());
    let name = match tokens.split_first() {
        Some((&"name", _)) if name_end > 1 => tokens[1..name_end].join(" "),
        _ => return Err("expected 'setoption name <name> [value <value>]'".to_owned()),
    };
    let value = value_at.map(|at| tokens[at + 1..].join(" ")).unwrap_or_default();
    let spin = |min: u64, max: u64| -> Result<u64, String> {
        match value.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!("{name} must be a number from {min} to {max}, not '{value}'")),
        }
    };
    let check = || -> Result<bool, String> {
        match value.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("{name} must be true or false, not '{value}'")),
        }
    };
    // Option names are case-insensitive in UCI.
    match name.to_ascii_lowercase().as_str() {
        "hash" => Ok(UciOption::Hash(spin(1, MAX_HASH_MB as u64)? as usize)),
        "clear hash" => Ok(UciOption::ClearHash),
        "threads" => Ok(UciOption::Threads(spin(1, max_threads() as u64)? as usize)),
        "multipv" => Ok(UciOption::MultiPv(spin(1, u64::from(MAX_MULTIPV))? as u32)),
        "ponder" => Ok(UciOption::Ponder(check()?)),
        "move overhead" => Ok(UciOption::MoveOverhead(Duration::from_millis(spin(0, MAX_MOVE_OVERHEAD_MS)?))),
        "uci_limitstrength" => Ok(UciOption::LimitStrength(check()?)),
        "uci_elo" => Ok(UciOption::Elo(spin(u64::from(ELO_RANGE.0), u64::from(ELO_RANGE.1))? as u32)),
        "syzygypath" => Ok(UciOption::SyzygyPath(value)),
        "usennue" => Ok(UciOption::UseNnue(check()?)),
        "evalfile" => Ok(UciOption::EvalFile(value)),
        "ownbook" => Ok(UciOption::OwnBook(check()?)),
        "bookfile" => Ok(UciOption::BookFile(value)),
        "positionfile" => Ok(UciOption::PositionFile(value)),
        "postbookfile" => Ok(UciOption::PostBookFile(value)),
        "positionlearning" => Ok(UciOption::PositionLearning(check()?)),
        "usepostbook" => Ok(UciOption::UsePostBook(check()?)),
        "policyfile" => Ok(UciOption::PolicyFile(value)),
        _ => match PolicyChange::parse(&name, &value) {
            Ok(change) => Ok(UciOption::Policy(change)),
            Err(crate::OptionError::Unknown(_)) => Err(format!("unknown option '{name}'")),
            Err(invalid) => Err(invalid.to_string()),
        },
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
        assert_eq!(parse_line("eval"), UciCommand::Eval);
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
        let UciCommand::Go { limits, .. } =
            parse_line("go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 3 nodes 99 mate 4 ponder")
        else {
            panic!("not a go");
        };
        assert_eq!(limits.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(limits.btime, Some(Duration::ZERO));
        assert_eq!(limits.binc, Some(Duration::from_millis(20)));
        assert_eq!(limits.movestogo, Some(7));
        assert_eq!(limits.depth, Some(3));
        assert_eq!(limits.nodes, Some(99));
        assert_eq!(limits.mate, Some(4));
        assert!(limits.ponder);
        assert!(matches!(parse_line("go infinite"), UciCommand::Go { limits, .. } if limits.infinite));
        assert!(
            matches!(parse_line("go"), UciCommand::Go { limits, .. } if limits == SearchLimits::default())
        );
        assert!(
            matches!(parse_line("go movetime 50"), UciCommand::Go { limits, .. } if limits.movetime.is_some())
        );
        let UciCommand::Go { limits, searchmoves } = parse_line("go searchmoves e2e4 d2d4 depth 5") else {
            panic!("not a go");
        };
        assert_eq!(searchmoves.len(), 2);
        assert_eq!(limits.depth, Some(5));
    }

    #[test]
    fn partial_go_lines_are_errors() {
        assert!(matches!(parse_line("go depth"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go depth x"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go wtime"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go nodes -1"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go searchmoves"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go searchmoves e2e4 zz"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go sideways"), UciCommand::Error(_)));
        assert!(matches!(parse_line("go mate x"), UciCommand::Error(_)));
    }

    #[test]
    fn options() {
        let option = |line: &str| match parse_line(line) {
            UciCommand::SetOption(option) => option,
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(option("setoption name Hash value 64"), UciOption::Hash(64));
        assert_eq!(option("setoption name Clear Hash"), UciOption::ClearHash);
        assert_eq!(option("setoption name Threads value 1"), UciOption::Threads(1));
        let cores = max_threads();
        assert_eq!(option(&format!("setoption name Threads value {cores}")), UciOption::Threads(cores));
        assert_eq!(option("setoption name MultiPV value 3"), UciOption::MultiPv(3));
        assert_eq!(option("setoption name Ponder value true"), UciOption::Ponder(true));
        assert_eq!(
            option("setoption name Move Overhead value 100"),
            UciOption::MoveOverhead(Duration::from_millis(100))
        );
        assert_eq!(option("setoption name UCI_LimitStrength value false"), UciOption::LimitStrength(false));
        assert_eq!(option("setoption name UCI_Elo value 1500"), UciOption::Elo(1500));
        assert_eq!(option("setoption name OwnBook value true"), UciOption::OwnBook(true));
        assert_eq!(
            option("setoption name BookFile value /b/k b.bin"),
            UciOption::BookFile("/b/k b.bin".to_owned())
        );
        assert_eq!(
            option("setoption name PositionFile value /l/p q.kpos"),
            UciOption::PositionFile("/l/p q.kpos".to_owned())
        );
        assert_eq!(
            option("setoption name PostBookFile value post.txt"),
            UciOption::PostBookFile("post.txt".to_owned())
        );
        assert_eq!(option("setoption name PositionLearning value false"), UciOption::PositionLearning(false));
        assert_eq!(option("setoption name usepostbook value TRUE"), UciOption::UsePostBook(true));
        assert_eq!(
            option("setoption name dead_band.moves value 0"),
            UciOption::Policy(PolicyChange::Number("dead_band.moves", 0))
        );
        assert_eq!(
            option("setoption name Rules value DeadBand"),
            UciOption::Policy(PolicyChange::Rules(crate::policy::Rules::DeadBand))
        );
        assert_eq!(
            option("setoption name Resign value false"),
            UciOption::Policy(PolicyChange::Resign(false))
        );
        assert_eq!(
            option("setoption name SyzygyPath value /tb/a b"),
            UciOption::SyzygyPath("/tb/a b".to_owned())
        );
        for bad in [
            "setoption name Hash value 0",
            "setoption name Hash",
            "setoption name Threads value 0",
            &format!("setoption name Threads value {}", max_threads() + 1),
            "setoption name MultiPV value 0",
            "setoption name Ponder value maybe",
            "setoption name Move Overhead value -1",
            "setoption name UCI_Elo value 10",
            "setoption name Courage value 3",
            "setoption name Rules value Chaos",
            "setoption name contempt value high",
            "setoption name UsePostBook value 1",
            "setoption name",
            "setoption",
        ] {
            assert!(matches!(parse_line(bad), UciCommand::Error(_)), "{bad}");
        }
    }
}
