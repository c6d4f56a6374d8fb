//! The GUI's side of xboard (CECP v2): an engine's lines (`feature`, thinking output,
//! `move`, `offer draw`, `resign`, results, `telluser`, `Error`, `Illegal move`, `pong`) read
//! into typed values, and the time control lines Kibitz writes. Pure text: the process and
//! the session are in `external.rs`.

use std::time::Duration;

use crate::{EngineOption, OptionKind, Score, SearchLimits};

/// xboard's mate encoding: `100000 + N` for mate in N moves, `-100000 - N` when mated.
const XBOARD_MATE: i64 = 100_000;

/// Scores at least this large (in absolute value) are mates in xboard's encoding.
const XBOARD_MATE_THRESHOLD: i64 = 99_000;

/// Crafty and others encode mates as about `32768 - plies`; scores in this band are mates.
const SMALL_MATE: i64 = 32_768;
const SMALL_MATE_THRESHOLD: i64 = 31_000;

/// One line an xboard engine wrote, understood.
#[derive(Clone, Debug, PartialEq)]
pub enum XboardLine {
    /// `feature k=v k="v" ...`, quotes removed, in order.
    Feature(Vec<(String, String)>),
    /// A thinking line: `ply score time nodes pv`.
    Thinking(Thinking),
    /// `move M` (or the old `My move is: M`), as written.
    Move(String),
    /// `offer draw`.
    OfferDraw,
    /// `resign`.
    Resign,
    /// A result claim: `1-0`, `0-1` or `1/2-1/2`, then the comment.
    Result(String, String),
    /// `telluser`, `tellopponent`, `tellothers`, `tellall`: text for people.
    TellUser(String),
    /// `tellusererror`: an error for the user.
    TellUserError(String),
    /// `Error (...): command`: the engine did not understand a command.
    Error(String),
    /// `Illegal move: M` or `Illegal move (why): M`: the engine refused a move.
    IllegalMove(String),
    /// `pong N`.
    Pong(String),
    /// Anything else (`#` comments, garbage): ignored.
    Other,
}

/// A thinking line's fields, moves still as text.
#[derive(Clone, Debug, PartialEq)]
pub struct Thinking {
    /// The depth in plies.
    pub depth: u32,
    /// The score, from the side to move's point of view.
    pub score: Score,
    /// Time spent (centiseconds on the wire).
    pub time: Duration,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation's words (move numbers removed).
    pub pv: Vec<String>,
}

/// Reads one line an xboard engine wrote. Never fails: what it does not understand is
/// [`XboardLine::Other`].
#[must_use]
pub fn parse_xboard_line(line: &str) -> XboardLine {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    match word {
        "feature" => XboardLine::Feature(parse_features(rest)),
        "move" if !rest.is_empty() => {
            XboardLine::Move(rest.split_whitespace().next().unwrap_or("").to_owned())
        }
        "offer" if rest == "draw" => XboardLine::OfferDraw,
        "resign" => XboardLine::Resign,
        "1-0" | "0-1" | "1/2-1/2" => XboardLine::Result(word.to_owned(), rest.to_owned()),
        "telluser" | "tellopponent" | "tellothers" | "tellall" => XboardLine::TellUser(rest.to_owned()),
        "tellusererror" => XboardLine::TellUserError(rest.to_owned()),
        "pong" => XboardLine::Pong(rest.to_owned()),
        _ if word.starts_with("Error") => XboardLine::Error(line.to_owned()),
        _ if line.starts_with("Illegal move") => {
            let sent = line.rsplit_once(':').map_or("", |(_, m)| m.trim());
            XboardLine::IllegalMove(sent.to_owned())
        }
        _ if line.starts_with("My move is") => {
            let sent = line.rsplit_once(':').map_or("", |(_, m)| m.trim());
            XboardLine::Move(sent.to_owned())
        }
        _ => parse_thinking(line).map_or(XboardLine::Other, XboardLine::Thinking),
    }
}

/// `k=v k="v w"`: keys with bare or quoted values.
fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut features = Vec::new();
    let mut rest = text.trim_start();
    while let Some((key, after)) = rest.split_once('=') {
        let key = key.trim().to_owned();
        let (value, after) = match after.strip_prefix('"') {
            Some(quoted) => quoted.split_once('"').unwrap_or((quoted, "")),
            None => after.split_once(char::is_whitespace).unwrap_or((after, "")),
        };
        if key.is_empty() || key.contains(char::is_whitespace) {
            break;
        }
        features.push((key, value.to_owned()));
        rest = after.trim_start();
    }
    features
}

/// `feature option="NAME -TYPE VALUES"`: `-check 0`, `-spin 5 0 10`, `-slider`, `-combo a ///
/// *b`, `-string`, `-file`, `-path`, `-button`, `-save`, `-reset`.
#[must_use]
pub fn parse_feature_option(text: &str) -> Option<EngineOption> {
    const TYPES: [&str; 10] =
        ["-check", "-spin", "-slider", "-combo", "-string", "-file", "-path", "-button", "-save", "-reset"];
    let (at, kind) = TYPES
        .iter()
        .filter_map(|t| {
            let at = text.find(&format!(" {t}"))?;
            let end = at + 1 + t.len();
            text[end..].chars().next().is_none_or(char::is_whitespace).then_some((at, *t))
        })
        .min_by_key(|(at, _)| *at)?;
    let name = text[..at].trim().to_owned();
    let values = text[at + 1 + kind.len()..].trim();
    let words: Vec<&str> = values.split_whitespace().collect();
    let number = |i: usize| words.get(i).and_then(|w| w.parse::<i64>().ok());
    let kind = match kind {
        "-check" => OptionKind::Check { default: number(0)? != 0 },
        "-spin" | "-slider" => {
            let (default, min, max) = (number(0)?, number(1)?, number(2)?);
            OptionKind::Spin { default: default.clamp(min, max.max(min)), min, max }
        }
        "-combo" => {
            let choices: Vec<&str> = values.split("///").map(str::trim).collect();
            let default = choices.iter().find_map(|c| c.strip_prefix('*')).or(choices.first().copied());
            OptionKind::Combo {
                default: default.unwrap_or("").to_owned(),
                choices: choices.iter().map(|c| c.trim_start_matches('*').to_owned()).collect(),
            }
        }
        "-string" => OptionKind::Text { default: values.to_owned() },
        "-file" | "-path" => OptionKind::Path { default: values.to_owned() },
        _ => OptionKind::Button,
    };
    (!name.is_empty()).then_some(EngineOption { name, kind })
}

/// `ply score time nodes [seldepth nps tbhits <tab>] pv`.
fn parse_thinking(line: &str) -> Option<Thinking> {
    // The fields after the first four are separated from the PV by a tab, if present.
    let (head, tail) = line.split_once('\t').unwrap_or((line, ""));
    let mut words = head.split_whitespace();
    let ply = words.next()?;
    let digits = ply.find(|c: char| !c.is_ascii_digit()).unwrap_or(ply.len());
    let depth = ply[..digits].parse().ok()?;
    let score = words.next()?.parse::<i64>().ok()?;
    let centis = words.next()?.parse::<u64>().ok()?;
    let nodes = words.next()?.parse::<u64>().ok()?;
    let pv_text = if tail.is_empty() { words.collect::<Vec<_>>().join(" ") } else { tail.to_owned() };
    let pv = pv_text
        .split_whitespace()
        .filter(|w| !w.trim_start_matches(|c: char| c.is_ascii_digit()).chars().all(|c| c == '.'))
        .map(|w| w.trim_end_matches(['!', '?']).to_owned())
        .collect();
    Some(Thinking {
        depth,
        score: xboard_score(score),
        time: Duration::from_millis(centis.saturating_mul(10)),
        nodes,
        pv,
    })
}

/// A thinking line's score: centipawns, or a mate in xboard's encoding (`±100000 + N`) or the
/// older `±(32768 - plies)` one.
#[must_use]
pub fn xboard_score(score: i64) -> Score {
    let sign = if score < 0 { -1 } else { 1 };
    let abs = score.saturating_abs();
    let moves = if abs >= XBOARD_MATE_THRESHOLD {
        // `100000 + moves`; a few engines count down from 100000 in plies instead.
        if abs >= XBOARD_MATE { abs - XBOARD_MATE } else { (XBOARD_MATE - abs + 1) / 2 }
    } else if (SMALL_MATE_THRESHOLD..=SMALL_MATE).contains(&abs) {
        (SMALL_MATE - abs + 1) / 2
    } else {
        return Score::Cp(i32::try_from(score).unwrap_or(0));
    };
    Score::Mate(sign * i32::try_from(moves.max(1)).unwrap_or(i32::MAX))
}

/// Seconds as xboard writes them: `5`, or `0.25` when not whole.
fn seconds(time: Duration) -> String {
    let millis = time.as_millis();
    if millis.is_multiple_of(1000) {
        (millis / 1000).to_string()
    } else {
        format!("{}.{:03}", millis / 1000, millis % 1000)
    }
}

/// Centiseconds, for `time` and `otim`.
#[must_use]
pub fn centis(time: Duration) -> u128 {
    time.as_millis() / 10
}

/// The time control line for a search for `limits` with `own` time on the engine's clock:
/// `st S` for a fixed time per move, `level MPS M:SS INC` for a clock, `None` otherwise.
/// It is written once and again only when it changes (by `Some` value).
#[must_use]
pub fn time_control_line(
    limits: &SearchLimits,
    own: Option<Duration>,
    inc: Option<Duration>,
) -> Option<String> {
    if let Some(time) = limits.movetime {
        // Whole seconds, as the protocol has it, at least one.
        return Some(format!("st {}", time.as_secs() + u64::from(time.subsec_nanos() > 0)));
    }
    let own = own?;
    let secs = own.as_secs();
    let moves = limits.movestogo.unwrap_or(0);
    Some(format!("level {moves} {}:{:02} {}", secs / 60, secs % 60, seconds(inc.unwrap_or_default())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_with_quotes_and_options() {
        let XboardLine::Feature(features) = parse_xboard_line(
            "feature myname=\"Crafty 25.2\" ping=1 setboard=1 option=\"Hash -spin 64 1 1024\" done=1",
        ) else {
            panic!("not a feature line");
        };
        let keys: Vec<&str> = features.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["myname", "ping", "setboard", "option", "done"]);
        assert_eq!(features[0].1, "Crafty 25.2");
        assert_eq!(features[3].1, "Hash -spin 64 1 1024");
        assert_eq!(
            parse_feature_option("Hash -spin 64 1 1024"),
            Some(EngineOption {
                name: "Hash".into(),
                kind: OptionKind::Spin { default: 64, min: 1, max: 1024 }
            })
        );
        assert_eq!(
            parse_feature_option("NAME -spin 5 0 10").map(|o| o.kind),
            Some(OptionKind::Spin { default: 5, min: 0, max: 10 })
        );
        assert_eq!(
            parse_feature_option("Own Book -check 1").map(|o| o.kind),
            Some(OptionKind::Check { default: true })
        );
        assert_eq!(
            parse_feature_option("Style -combo Solid /// *Normal /// Risky").map(|o| o.kind),
            Some(OptionKind::Combo {
                default: "Normal".into(),
                choices: vec!["Solid".into(), "Normal".into(), "Risky".into()]
            })
        );
        assert_eq!(
            parse_feature_option("BookFile -file ").map(|o| o.kind),
            Some(OptionKind::Path { default: String::new() })
        );
        assert_eq!(parse_feature_option("Clear Hash -button").map(|o| o.name), Some("Clear Hash".into()));
        assert_eq!(
            parse_feature_option("Notes -string a b").map(|o| o.kind),
            Some(OptionKind::Text { default: "a b".into() })
        );
        assert_eq!(parse_feature_option("Broken -spin 5"), None);
        assert_eq!(parse_feature_option("no type at all"), None);
    }

    #[test]
    fn thinking_lines_and_mate_scores() {
        let XboardLine::Thinking(t) = parse_xboard_line("9 -35 120 45000 1. e4 e5 2. Nf3 Nc6!") else {
            panic!("not thinking");
        };
        assert_eq!(
            (t.depth, t.score, t.time, t.nodes),
            (9, Score::Cp(-35), Duration::from_millis(1200), 45000)
        );
        assert_eq!(t.pv, ["e4", "e5", "Nf3", "Nc6"]);
        let XboardLine::Thinking(tabbed) = parse_xboard_line("12. 100003 5 77 20 3000 0\te2e4 ... e7e5")
        else {
            panic!("not thinking");
        };
        assert_eq!((tabbed.depth, tabbed.score), (12, Score::Mate(3)));
        assert_eq!(tabbed.pv, ["e2e4", "e7e5"]);
        assert_eq!(xboard_score(-100_002), Score::Mate(-2));
        assert_eq!(xboard_score(32_763), Score::Mate(3));
        assert_eq!(xboard_score(-32_766), Score::Mate(-1));
        assert_eq!(xboard_score(-250), Score::Cp(-250));
        assert_eq!(parse_xboard_line("9 x 1 2 e4"), XboardLine::Other);
        // Found by fuzzing: the most negative score overflowed taking its absolute value.
        let XboardLine::Thinking(lowest) = parse_xboard_line("1 -9223372036854775808 0 0") else {
            panic!("not thinking");
        };
        assert_eq!(lowest.score, Score::Mate(-i32::MAX));
    }

    #[test]
    fn engine_messages() {
        assert_eq!(parse_xboard_line("move e2e4"), XboardLine::Move("e2e4".into()));
        assert_eq!(parse_xboard_line("My move is: Nf3"), XboardLine::Move("Nf3".into()));
        assert_eq!(parse_xboard_line("offer draw"), XboardLine::OfferDraw);
        assert_eq!(parse_xboard_line("resign"), XboardLine::Resign);
        assert_eq!(
            parse_xboard_line("0-1 {White resigns}"),
            XboardLine::Result("0-1".into(), "{White resigns}".into())
        );
        assert_eq!(parse_xboard_line("telluser hello you"), XboardLine::TellUser("hello you".into()));
        assert_eq!(parse_xboard_line("tellusererror no book"), XboardLine::TellUserError("no book".into()));
        assert_eq!(
            parse_xboard_line("Error (unknown command): sn 5"),
            XboardLine::Error("Error (unknown command): sn 5".into())
        );
        assert_eq!(
            parse_xboard_line("Illegal move (in check): e2e4"),
            XboardLine::IllegalMove("e2e4".into())
        );
        assert_eq!(parse_xboard_line("Illegal move: e7e5"), XboardLine::IllegalMove("e7e5".into()));
        assert_eq!(parse_xboard_line("pong 7"), XboardLine::Pong("7".into()));
        for garbage in ["", "# a comment", "\u{fffd}\u{fffd}", "move", "feature"] {
            assert!(
                matches!(parse_xboard_line(garbage), XboardLine::Other | XboardLine::Feature(_)),
                "{garbage}"
            );
        }
    }

    #[test]
    fn time_controls() {
        let st = SearchLimits::movetime(Duration::from_millis(1500));
        assert_eq!(time_control_line(&st, None, None).as_deref(), Some("st 2"));
        let clock = SearchLimits { movestogo: Some(40), ..Default::default() };
        assert_eq!(
            time_control_line(&clock, Some(Duration::from_secs(300)), Some(Duration::from_millis(500)))
                .as_deref(),
            Some("level 40 5:00 0.500")
        );
        assert_eq!(time_control_line(&SearchLimits::depth(3), None, None), None);
        assert_eq!(centis(Duration::from_millis(12_345)), 1234);
    }
}
