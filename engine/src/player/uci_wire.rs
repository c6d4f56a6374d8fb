//! The GUI's side of UCI: the lines Kibitz writes to an external engine (`position`, `go`,
//! `setoption`) and the engine's lines (`id`, `option`, `info`, `bestmove`, ...) read into
//! typed values. Pure text in, text out: the process and its threads are in `external.rs`.

use std::time::Duration;

use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, fen::Fen, san::SanPlus, uci::UciMove};

use crate::{EngineOption, OptionKind, Score, ScoreBound, SearchLimits};

/// One line an engine wrote, understood.
#[derive(Clone, Debug, PartialEq)]
pub enum UciLine {
    /// `id name ...`.
    Name(String),
    /// `uciok`: the end of the handshake.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `option name ... type ...`.
    Option(EngineOption),
    /// `info ...`.
    Info(UciInfo),
    /// `bestmove M [ponder P]`, moves as written (`(none)` and `0000` mean no move).
    BestMove {
        /// The move.
        best: String,
        /// The expected reply.
        ponder: Option<String>,
    },
    /// Anything else (`id author`, `copyprotection`, garbage): ignored.
    Other,
}

/// An `info` line's fields, moves still as text (only the position can check them).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UciInfo {
    /// `depth`.
    pub depth: Option<u32>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `multipv`.
    pub multipv: Option<u32>,
    /// `score cp N` / `score mate N`, with `lowerbound` / `upperbound`.
    pub score: Option<(Score, Option<ScoreBound>)>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `time`, in milliseconds on the wire.
    pub time: Option<Duration>,
    /// `hashfull`.
    pub hashfull: Option<u32>,
    /// `tbhits`.
    pub tbhits: Option<u64>,
    /// `currmove`.
    pub currmove: Option<String>,
    /// `currmovenumber`.
    pub currmovenumber: Option<u32>,
    /// `pv ...`: the rest of the line after `pv` (until `string`).
    pub pv: Vec<String>,
    /// `string ...`: the rest of the line.
    pub string: Option<String>,
}

/// Reads one line an engine wrote. Never fails: what it does not understand is
/// [`UciLine::Other`].
#[must_use]
pub fn parse_uci_line(line: &str) -> UciLine {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    match tokens.as_slice() {
        ["id", "name", name @ ..] => UciLine::Name(name.join(" ")),
        ["uciok", ..] => UciLine::UciOk,
        ["readyok", ..] => UciLine::ReadyOk,
        ["option", rest @ ..] => parse_option(rest).map_or(UciLine::Other, UciLine::Option),
        ["info", rest @ ..] => UciLine::Info(parse_info(rest)),
        ["bestmove", best, rest @ ..] => UciLine::BestMove {
            best: (*best).to_owned(),
            ponder: match rest {
                ["ponder", ponder, ..] => Some((*ponder).to_owned()),
                _ => None,
            },
        },
        _ => UciLine::Other,
    }
}

/// The words of an `option` line that start a field.
const OPTION_KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];

/// `name X type spin default D min A max B`, `type combo default D var A var B`, ...
fn parse_option(tokens: &[&str]) -> Option<EngineOption> {
    // Each field runs until the next keyword; `var` may repeat.
    let mut fields: Vec<(&str, String)> = Vec::new();
    for &token in tokens {
        // The name may contain any word but `type`; values stop at the next keyword.
        let in_name = matches!(fields.last(), Some(("name", _))) && token != "type";
        if !in_name && OPTION_KEYWORDS.contains(&token) {
            fields.push((token, String::new()));
        } else if let Some((_, value)) = fields.last_mut() {
            if !value.is_empty() {
                value.push(' ');
            }
            value.push_str(token);
        }
    }
    let field = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
    let name = field("name").filter(|n| !n.is_empty())?.to_owned();
    let default = field("default").unwrap_or("");
    let default = if default == "<empty>" { "" } else { default };
    let number = |key: &str| field(key).and_then(|v| v.parse::<i64>().ok());
    let kind = match field("type")? {
        "check" => OptionKind::Check { default: default.eq_ignore_ascii_case("true") },
        "spin" => {
            let (min, max) = (number("min")?, number("max")?);
            OptionKind::Spin { default: number("default").unwrap_or(min).clamp(min, max.max(min)), min, max }
        }
        "combo" => OptionKind::Combo {
            default: default.to_owned(),
            choices: fields.iter().filter(|(k, _)| *k == "var").map(|(_, v)| v.clone()).collect(),
        },
        "button" => OptionKind::Button,
        "string" if looks_like_path(&name) => OptionKind::Path { default: default.to_owned() },
        "string" => OptionKind::Text { default: default.to_owned() },
        _ => return None,
    };
    Some(EngineOption { name, kind })
}

/// Whether a string option names a file or folder (`SyzygyPath`, `EvalFile`, `BookFile`):
/// UCI has no path type, and a GUI offers a file chooser for these.
fn looks_like_path(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.contains("path") || name.contains("file") || name.contains("dir")
}

fn parse_info(tokens: &[&str]) -> UciInfo {
    let mut info = UciInfo::default();
    let mut i = 0;
    let value = |i: usize| tokens.get(i + 1).copied().unwrap_or("");
    while i < tokens.len() {
        let mut used = 2;
        match tokens[i] {
            "depth" => info.depth = value(i).parse().ok(),
            "seldepth" => info.seldepth = value(i).parse().ok(),
            "multipv" => info.multipv = value(i).parse().ok(),
            "nodes" => info.nodes = value(i).parse().ok(),
            "nps" => info.nps = value(i).parse().ok(),
            "hashfull" => info.hashfull = value(i).parse().ok(),
            "tbhits" => info.tbhits = value(i).parse().ok(),
            "time" => info.time = value(i).parse().ok().map(Duration::from_millis),
            "currmove" => info.currmove = Some(value(i).to_owned()),
            "currmovenumber" => info.currmovenumber = value(i).parse().ok(),
            "score" => {
                let number = tokens.get(i + 2).and_then(|n| n.parse::<i32>().ok());
                let score = match (value(i), number) {
                    ("cp", Some(cp)) => Some(Score::Cp(cp)),
                    ("mate", Some(n)) => Some(Score::Mate(n)),
                    _ => None,
                };
                used = 3;
                let bound = match tokens.get(i + 3) {
                    Some(&"lowerbound") => Some(ScoreBound::Lower),
                    Some(&"upperbound") => Some(ScoreBound::Upper),
                    _ => None,
                };
                if bound.is_some() {
                    used = 4;
                }
                info.score = score.map(|s| (s, bound));
            }
            "pv" => {
                let end =
                    tokens[i + 1..].iter().position(|&t| t == "string").map_or(tokens.len(), |p| i + 1 + p);
                info.pv = tokens[i + 1..end].iter().map(|&t| t.to_owned()).collect();
                used = end - i;
            }
            "string" => {
                info.string = Some(tokens[i + 1..].join(" "));
                used = tokens.len() - i;
            }
            _ => used = 1,
        }
        i += used;
    }
    info
}

/// Reads a move in `pos` written as UCI or SAN; `None` if it is not a legal move there.
#[must_use]
pub fn read_move(pos: &Chess, text: &str) -> Option<Move> {
    if let Ok(uci) = text.parse::<UciMove>() {
        return uci.to_move(pos).ok();
    }
    text.parse::<SanPlus>().ok().and_then(|san| san.san.to_move(pos).ok())
}

/// The moves of `words` from `pos`, cut at the first that is not legal.
#[must_use]
pub fn legal_prefix<'a>(pos: &Chess, words: impl IntoIterator<Item = &'a str>) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut line = Vec::new();
    for word in words {
        let Some(m) = read_move(&pos, word) else { break };
        pos.play_unchecked(m);
        line.push(m);
    }
    line
}

/// A move as UCI (and xboard) writes it: `e2e4`, `e7e8q`, `e1g1`.
#[must_use]
pub fn move_text(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// A position's FEN.
#[must_use]
pub fn fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// `position startpos moves ...` or `position fen F moves ...`.
#[must_use]
pub fn position_line(start: &Chess, moves: &[Move]) -> String {
    let mut line = if *start == Chess::default() {
        "position startpos".to_owned()
    } else {
        format!("position fen {}", fen(start))
    };
    if !moves.is_empty() {
        line.push_str(" moves");
        for &m in moves {
            line.push(' ');
            line.push_str(&move_text(m));
        }
    }
    line
}

/// `go` with every limit set in `limits`.
#[must_use]
pub fn go_line(limits: &SearchLimits) -> String {
    let mut line = String::from("go");
    if limits.ponder {
        line.push_str(" ponder");
    }
    let times =
        [("wtime", limits.wtime), ("btime", limits.btime), ("winc", limits.winc), ("binc", limits.binc)];
    for (key, time) in times {
        if let Some(time) = time {
            line.push_str(&format!(" {key} {}", time.as_millis()));
        }
    }
    let numbers = [
        ("movestogo", limits.movestogo.map(u64::from)),
        ("depth", limits.depth.map(u64::from)),
        ("nodes", limits.nodes),
        ("mate", limits.mate.map(u64::from)),
        ("movetime", limits.movetime.map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX))),
    ];
    for (key, number) in numbers {
        if let Some(number) = number {
            line.push_str(&format!(" {key} {number}"));
        }
    }
    if limits.infinite {
        line.push_str(" infinite");
    }
    if !limits.searchmoves.is_empty() {
        line.push_str(" searchmoves");
        for &m in &limits.searchmoves {
            line.push(' ');
            line.push_str(&move_text(m));
        }
    }
    line
}

/// `setoption name X value Y`, or `setoption name X` for a button.
#[must_use]
pub fn setoption_line(name: &str, value: &str) -> String {
    if value.is_empty() {
        format!("setoption name {name}")
    } else {
        format!("setoption name {name} value {value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(line: &str) -> EngineOption {
        match parse_uci_line(line) {
            UciLine::Option(option) => option,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn options_of_every_type() {
        assert_eq!(
            option("option name Hash type spin default 16 min 1 max 33554432"),
            EngineOption {
                name: "Hash".into(),
                kind: OptionKind::Spin { default: 16, min: 1, max: 33_554_432 }
            }
        );
        assert_eq!(option("option name Clear Hash type button").kind, OptionKind::Button);
        assert_eq!(option("option name Clear Hash type button").name, "Clear Hash");
        assert_eq!(
            option("option name Ponder type check default false").kind,
            OptionKind::Check { default: false }
        );
        assert_eq!(
            option("option name Style type combo default Normal var Solid var Normal var Very Risky").kind,
            OptionKind::Combo {
                default: "Normal".into(),
                choices: vec!["Solid".into(), "Normal".into(), "Very Risky".into()]
            }
        );
        assert_eq!(
            option("option name SyzygyPath type string default <empty>").kind,
            OptionKind::Path { default: String::new() }
        );
        assert_eq!(
            option("option name UCI_Opponent type string default").kind,
            OptionKind::Text { default: String::new() }
        );
        assert_eq!(parse_uci_line("option name Broken type spin default 3"), UciLine::Other);
        assert_eq!(parse_uci_line("option type check"), UciLine::Other);
    }

    #[test]
    fn info_lines() {
        let UciLine::Info(info) = parse_uci_line(
            "info depth 12 seldepth 17 multipv 2 score cp -35 upperbound nodes 12345 nps 999 hashfull 7 tbhits 3 time 250 pv e2e4 e7e5 string hi there",
        ) else {
            panic!("not an info");
        };
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.seldepth, Some(17));
        assert_eq!(info.multipv, Some(2));
        assert_eq!(info.score, Some((Score::Cp(-35), Some(ScoreBound::Upper))));
        assert_eq!(info.nodes, Some(12345));
        assert_eq!(info.time, Some(Duration::from_millis(250)));
        assert_eq!(info.hashfull, Some(7));
        assert_eq!(info.tbhits, Some(3));
        assert_eq!(info.pv, ["e2e4", "e7e5"]);
        assert_eq!(info.string.as_deref(), Some("hi there"));
        let UciLine::Info(mate) =
            parse_uci_line("info score mate -3 lowerbound currmove g1f3 currmovenumber 4")
        else {
            panic!("not an info");
        };
        assert_eq!(mate.score, Some((Score::Mate(-3), Some(ScoreBound::Lower))));
        assert_eq!(mate.currmove.as_deref(), Some("g1f3"));
        assert_eq!(mate.currmovenumber, Some(4));
        // Garbage inside an info line is skipped, never a panic.
        let UciLine::Info(odd) = parse_uci_line("info depth x score banana nodes") else {
            panic!("not an info")
        };
        assert_eq!(odd, UciInfo::default());
    }

    #[test]
    fn other_lines() {
        assert_eq!(parse_uci_line("id name Stockfish 16"), UciLine::Name("Stockfish 16".into()));
        assert_eq!(parse_uci_line("uciok"), UciLine::UciOk);
        assert_eq!(parse_uci_line(" readyok \r"), UciLine::ReadyOk);
        assert_eq!(
            parse_uci_line("bestmove e2e4 ponder e7e5"),
            UciLine::BestMove { best: "e2e4".into(), ponder: Some("e7e5".into()) }
        );
        assert_eq!(
            parse_uci_line("bestmove (none)"),
            UciLine::BestMove { best: "(none)".into(), ponder: None }
        );
        for garbage in ["bestmove", "", "id author X", "\u{fffd}\u{fffd} uciok"] {
            assert_eq!(parse_uci_line(garbage), UciLine::Other, "{garbage}");
        }
    }

    #[test]
    fn moves_are_checked_and_lines_cut() {
        let pos = Chess::default();
        assert_eq!(legal_prefix(&pos, ["e2e4", "e7e5", "e4e6", "g1f3"]).len(), 2);
        assert_eq!(legal_prefix(&pos, ["Nf3", "d5", "g3"]).len(), 3);
        assert!(read_move(&pos, "e2e5").is_none());
        assert!(read_move(&pos, "0000").is_none());
    }

    #[test]
    fn commands_carry_every_limit() {
        let pos = Chess::default();
        let e4 = read_move(&pos, "e2e4").expect("legal");
        assert_eq!(position_line(&pos, &[]), "position startpos");
        assert_eq!(position_line(&pos, &[e4]), "position startpos moves e2e4");
        let mut after = pos.clone();
        after.play_unchecked(e4);
        assert_eq!(
            position_line(&after, &[]),
            "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        let limits = SearchLimits {
            wtime: Some(Duration::from_millis(1000)),
            btime: Some(Duration::from_millis(900)),
            winc: Some(Duration::from_millis(10)),
            binc: Some(Duration::from_millis(20)),
            movestogo: Some(5),
            depth: Some(7),
            nodes: Some(1000),
            mate: Some(3),
            movetime: Some(Duration::from_millis(50)),
            infinite: true,
            ponder: true,
            searchmoves: vec![e4],
            ..Default::default()
        };
        assert_eq!(
            go_line(&limits),
            "go ponder wtime 1000 btime 900 winc 10 binc 20 movestogo 5 depth 7 nodes 1000 mate 3 movetime 50 infinite searchmoves e2e4"
        );
        assert_eq!(setoption_line("Clear Hash", ""), "setoption name Clear Hash");
        assert_eq!(setoption_line("Hash", "64"), "setoption name Hash value 64");
    }
}
