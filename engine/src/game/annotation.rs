//! What annotators attach to a move: numeric annotation glyphs (NAGs) and the `[%clk]` and
//! `[%eval]` commands that lichess, chess.com and others put in comments.

use std::fmt;
use std::time::Duration;

pub use pgn_reader::Nag;

/// The symbol a reader expects for a NAG (`!`, `?!`, `±`), or `None` for the ones that have
/// no common symbol (they are shown as `$n`).
///
/// ```
/// use kibitz_engine::{Nag, nag_symbol};
/// assert_eq!(nag_symbol(Nag(1)), Some("!"));
/// assert_eq!(nag_symbol(Nag(6)), Some("?!"));
/// assert_eq!(nag_symbol(Nag(16)), Some("±"));
/// assert_eq!(nag_symbol(Nag(200)), None);
/// ```
#[must_use]
pub fn nag_symbol(nag: Nag) -> Option<&'static str> {
    Some(match nag.0 {
        1 => "!",
        2 => "?",
        3 => "!!",
        4 => "??",
        5 => "!?",
        6 => "?!",
        7 => "□",
        10 => "=",
        13 => "∞",
        14 => "⩲",
        15 => "⩱",
        16 => "±",
        17 => "∓",
        18 => "+−",
        19 => "−+",
        22 | 23 => "⨀",
        32 | 33 => "⟳",
        36 | 37 => "→",
        40 | 41 => "↑",
        132 | 133 => "⇆",
        140 => "∆",
        146 => "N",
        _ => return None,
    })
}

/// An engine evaluation from a `[%eval ...]` comment, from White's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Eval {
    /// An advantage in centipawns (`[%eval 0.17]` is 17).
    Centipawns(i32),
    /// Mate in that many moves; negative when Black mates (`[%eval #-3]`).
    Mate(i32),
}

impl fmt::Display for Eval {
    /// `+0.17`, `-1.50`, `#3`, `#-3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "+" };
                write!(f, "{sign}{}.{:02}", cp.unsigned_abs() / 100, cp.unsigned_abs() % 100)
            }
            Eval::Mate(n) => write!(f, "#{n}"),
        }
    }
}

/// The argument of the first `[%name ...]` command in a comment.
fn command<'a>(comment: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = comment;
    while let Some(start) = rest.find("[%") {
        let after = &rest[start + 2..];
        let end = after.find(']')?;
        let body = after[..end].trim();
        if let Some(arg) = body.strip_prefix(name)
            && arg.starts_with(char::is_whitespace)
        {
            return Some(arg.trim());
        }
        rest = &after[end..];
    }
    None
}

/// The clock time left from a `[%clk h:mm:ss(.f)]` command in a comment.
///
/// ```
/// use std::time::Duration;
/// use kibitz_engine::clock_in;
/// assert_eq!(clock_in("[%clk 1:02:03]"), Some(Duration::from_secs(3723)));
/// assert_eq!(clock_in("good [%clk 0:00:09.5] move"), Some(Duration::from_millis(9500)));
/// assert_eq!(clock_in("no clock"), None);
/// ```
#[must_use]
pub fn clock_in(comment: &str) -> Option<Duration> {
    let arg = command(comment, "clk")?;
    let mut seconds = 0.0f64;
    for part in arg.split(':') {
        let value: f64 = part.parse().ok()?;
        if value.is_nan() || value < 0.0 {
            return None;
        }
        seconds = seconds * 60.0 + value;
    }
    Duration::try_from_secs_f64(seconds).ok()
}

/// The evaluation from an `[%eval 0.17]`, `[%eval #-3]` or `[%eval 0.17,20]` command.
///
/// ```
/// use kibitz_engine::{Eval, eval_in};
/// assert_eq!(eval_in("[%eval 0.17] [%clk 0:01:00]"), Some(Eval::Centipawns(17)));
/// assert_eq!(eval_in("[%eval -1.5,20]"), Some(Eval::Centipawns(-150)));
/// assert_eq!(eval_in("[%eval #-3]"), Some(Eval::Mate(-3)));
/// ```
#[must_use]
pub fn eval_in(comment: &str) -> Option<Eval> {
    let arg = command(comment, "eval")?;
    let value = arg.split(',').next()?.trim();
    if let Some(mate) = value.strip_prefix('#') {
        return mate.parse().ok().map(Eval::Mate);
    }
    let pawns: f64 = value.parse().ok()?;
    let cp = (pawns * 100.0).round();
    (cp.abs() < f64::from(i32::MAX)).then_some(Eval::Centipawns(cp as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_need_their_exact_name() {
        assert_eq!(command("[%clkx 1] [%clk 2]", "clk"), Some("2"));
        assert_eq!(clock_in("[%clk nonsense]"), None);
        assert_eq!(clock_in("[%clk 1:00"), None);
        assert_eq!(eval_in("[%eval]"), None);
        assert_eq!(Eval::Centipawns(-5).to_string(), "-0.05");
        assert_eq!(Eval::Mate(2).to_string(), "#2");
    }
}
