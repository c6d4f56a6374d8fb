//! An engine as `kibitz match --engine` and `tune-policy --judge` take it: cutechess-style
//! `key=value` words: `name=`, `cmd=` (a program, or `builtin`), `proto=`, `arg=`,
//! `option.NAME=`, `tc=`, `st=`, `depth=`, `nodes=`, and for the built-in engine `level=` (a
//! rating, as `UCI_Elo`, or `full`) and `book=`.
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::matches::{EngineSpec, Program};
use crate::{Book, EngineConfig, Level, Protocol, SearchLimits, TimeControl};

/// Why an engine's words do not describe an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// A word without `=`.
    NoValue(String),
    /// A key that means nothing.
    UnknownKey(String),
    /// A value that does not fit its key.
    BadValue {
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What was expected.
        expected: String,
    },
    /// No `cmd=`.
    NoProgram,
    /// A key of the built-in engine's given to an external one.
    BuiltinOnly(String),
    /// Neither a time control nor a depth or node limit.
    NoTimeControl(String),
    /// The book could not be read.
    Book(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::NoValue(word) => write!(f, "'{word}' is not KEY=VALUE"),
            SpecError::UnknownKey(key) => write!(
                f,
                "unknown engine key '{key}': expected name, cmd, proto, arg, option.NAME, tc, st, depth, nodes, level or book"
            ),
            SpecError::BadValue { key, value, expected } => write!(f, "{key}={value}: expected {expected}"),
            SpecError::NoProgram => write!(f, "an engine needs cmd=PROGRAM (or cmd=builtin)"),
            SpecError::BuiltinOnly(key) => write!(f, "{key}= is for the built-in engine (cmd=builtin)"),
            SpecError::NoTimeControl(name) => {
                write!(f, "{name} has no time control: give --tc, or tc=, st=, depth= or nodes=")
            }
            SpecError::Book(why) => write!(f, "book: {why}"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Splits words that hold several (a quoted `--engine "name=A cmd=x"`), keeping
/// `key="a value with spaces"` together.
fn split_words(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for word in words {
        let mut current = String::new();
        let mut quoted = false;
        for c in word.chars() {
            match c {
                '"' => quoted = !quoted,
                c if c.is_whitespace() && !quoted => {
                    if !current.is_empty() {
                        out.push(std::mem::take(&mut current));
                    }
                }
                c => current.push(c),
            }
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

/// Builds an engine from its words (`--each`'s first, then its own: the later value wins),
/// `default_tc` being the time control of an engine whose words give none (`--tc`).
///
/// # Errors
/// [`SpecError`] for words that do not describe an engine.
pub fn engine_spec(words: &[String], default_tc: Option<&TimeControl>) -> Result<EngineSpec, SpecError> {
    let (mut name, mut cmd, mut proto, mut args, mut options) = (None, None, None, Vec::new(), Vec::new());
    let (mut tc, mut st, mut depth, mut nodes, mut level, mut book) = (None, None, None, None, None, None);
    for word in split_words(words) {
        let (key, value) = word.split_once('=').ok_or_else(|| SpecError::NoValue(word.clone()))?;
        let bad = |expected: &str| SpecError::BadValue {
            key: key.to_owned(),
            value: value.to_owned(),
            expected: expected.to_owned(),
        };
        match key {
            "name" => name = Some(value.to_owned()),
            "cmd" => cmd = Some(value.to_owned()),
            "proto" => {
                proto = Some(match value {
                    "uci" => Protocol::Uci,
                    "xboard" => Protocol::Xboard,
                    _ => return Err(bad("uci or xboard")),
                });
            }
            "arg" => args.push(value.to_owned()),
            "tc" => tc = Some(TimeControl::parse(value).map_err(|e| bad(&e.to_string()))?),
            "st" => {
                let seconds: f64 =
                    value.parse().ok().filter(|s: &f64| *s > 0.0).ok_or_else(|| bad("seconds"))?;
                st = Some(Duration::try_from_secs_f64(seconds).map_err(|_| bad("seconds"))?);
            }
            "depth" => {
                depth = Some(value.parse::<u32>().ok().filter(|d| *d > 0).ok_or_else(|| bad("plies"))?)
            }
            "nodes" => {
                nodes = Some(value.parse::<u64>().ok().filter(|n| *n > 0).ok_or_else(|| bad("a node count"))?)
            }
            "level" => {
                level = Some(Level::parse(value).ok_or_else(|| bad("a rating (UCI_Elo) or full"))?);
            }
            "book" => book = Some(PathBuf::from(value)),
            _ => match key.strip_prefix("option.") {
                Some(option) if !option.is_empty() => {
                    options.retain(|(n, _): &(String, String)| !n.eq_ignore_ascii_case(option));
                    options.push((option.to_owned(), value.to_owned()));
                }
                _ => return Err(SpecError::UnknownKey(key.to_owned())),
            },
        }
    }
    let cmd = cmd.ok_or(SpecError::NoProgram)?;
    let builtin = cmd == "builtin" || cmd == "kibitz";
    let program = if builtin {
        if proto.is_some() || !args.is_empty() {
            return Err(SpecError::UnknownKey(if proto.is_some() { "proto" } else { "arg" }.to_owned()));
        }
        let book = book.map(|path| {
            Book::open(&path).map(Arc::new).map_err(|e| SpecError::Book(format!("{}: {e}", path.display())))
        });
        Program::Builtin { book: book.transpose()?, tablebases: None }
    } else {
        if level.is_some() {
            return Err(SpecError::BuiltinOnly("level".into()));
        }
        if book.is_some() {
            return Err(SpecError::BuiltinOnly("book".into()));
        }
        let mut config = EngineConfig::from_path(&cmd);
        config.protocol = proto;
        config.args = args;
        Program::External(config)
    };
    let name = name.unwrap_or_else(|| match &program {
        Program::Builtin { .. } => "Kibitz".to_owned(),
        Program::External(config) => config.name.clone(),
    });
    // A level is the engine's UCI options, given before the engine's own.
    if let Some(level) = level {
        let own = std::mem::take(&mut options);
        options = level.options();
        options.retain(|(n, _)| !own.iter().any(|(o, _)| o.eq_ignore_ascii_case(n)));
        options.extend(own);
    }
    let limits = SearchLimits { depth, nodes, ..SearchLimits::default() };
    // A weakened level without a clock plays to its horizon; full strength, as in the app,
    // thinks a fixed time.
    let limited = depth.is_some() || nodes.is_some() || level.is_some_and(|l| l != Level::Full);
    let control = match (st, tc.or_else(|| default_tc.cloned())) {
        (Some(time), _) => TimeControl::MoveTime(time),
        (None, Some(control)) => control,
        (None, None) if limited => TimeControl::Infinite,
        (None, None) if level.is_some() => TimeControl::MoveTime(crate::UNTIMED_MOVE_TIME),
        (None, None) => return Err(SpecError::NoTimeControl(name)),
    };
    Ok(EngineSpec { name, program, options, control, limits, policy: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn engines_are_read_from_their_words() {
        let sf = engine_spec(
            &words("cmd=/usr/games/stockfish proto=uci option.Hash=16 option.hash=32 tc=10+0.1 depth=12"),
            None,
        )
        .expect("valid");
        assert_eq!(sf.name, "stockfish");
        assert_eq!(sf.options, [("hash".to_owned(), "32".to_owned())], "the later value wins");
        assert_eq!((sf.control.to_pgn().as_str(), sf.limits.depth), ("10+0.1", Some(12)));
        let Program::External(config) = &sf.program else { panic!("external") };
        assert_eq!(config.protocol, Some(Protocol::Uci));

        let k = engine_spec(&["cmd=builtin name=\"Kibitz two\" level=1500 option.UCI_Elo=1600".into()], None)
            .expect("built-in");
        assert_eq!((k.name.as_str(), &k.control), ("Kibitz two", &TimeControl::Infinite));
        let option = |name: &str, value: &str| (name.to_owned(), value.to_owned());
        assert_eq!(
            k.options,
            [option("UCI_LimitStrength", "true"), option("UCI_Elo", "1600")],
            "a level is its options; the engine's own option wins"
        );
        let full = engine_spec(&words("cmd=builtin level=full"), None).expect("full strength");
        assert_eq!(full.control, TimeControl::MoveTime(crate::UNTIMED_MOVE_TIME));
        let old = engine_spec(&words("cmd=builtin level=strong tc=1+0"), None).expect("an old level's name");
        assert_eq!(old.options, [option("UCI_LimitStrength", "false")]);
        let st = engine_spec(&words("cmd=kibitz st=0.5"), Some(&TimeControl::Depth(3)))
            .expect("st wins over --tc");
        assert_eq!(st.control, TimeControl::MoveTime(Duration::from_millis(500)));
        let default = engine_spec(&words("cmd=kibitz"), Some(&TimeControl::Depth(3))).expect("--tc");
        assert_eq!(default.control, TimeControl::Depth(3));

        for (bad, says) in [
            ("cmd=x level=club", "built-in engine"),
            ("name=x", "cmd=PROGRAM"),
            ("cmd=x colour=blue", "unknown engine key 'colour'"),
            ("cmd=x proto=cecp tc=1+0", "uci or xboard"),
            ("cmd=x depth=0", "depth=0"),
            ("cmd=x", "no time control"),
            ("cmd=builtin book=/no/such/book.bin depth=1", "book:"),
            ("cmd=x tc", "not KEY=VALUE"),
        ] {
            let error = engine_spec(&words(bad), None).expect_err(bad).to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }
}
