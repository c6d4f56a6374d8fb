//! What annotators attach to a move: numeric annotation glyphs (NAGs) and the `[%clk]` and
//! `[%eval]` commands that lichess, chess.com and others put in comments.

use std::fmt;
use std::ops::Range;
use std::time::Duration;

pub use pgn_reader::Nag;

use crate::Score;

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

/// An engine evaluation as annotators write it in `[%eval ...]` commands: a score from
/// White's point of view and, when given, the depth of the search that found it.
///
/// ```
/// use kibitz_engine::{Eval, Score};
/// let eval = Eval { score: Score::Cp(-150), depth: Some(20) };
/// assert_eq!(eval.to_string(), "-1.50");
/// assert_eq!(Eval { score: Score::Mate(-3), depth: None }.to_string(), "#-3");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Eval {
    /// Centipawns (`[%eval 0.17]` is `Cp(17)`) or mate in that many moves (`[%eval #-3]` is
    /// `Mate(-3)`), from White's point of view: negative is good for Black.
    pub score: Score,
    /// The depth of the search, from `[%eval 0.17,20]`; `None` when the annotator gave none.
    pub depth: Option<u32>,
}

impl fmt::Display for Eval {
    /// The score as a reader expects it: `+0.17`, `-1.50`, `#3`, `#-3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.score.fmt(f)
    }
}

/// The `[%name argument]` commands of a comment: the byte range of each whole command, its
/// name and its argument. A `[%` without a closing `]` ends the list.
fn commands(comment: &str) -> impl Iterator<Item = (Range<usize>, &str, &str)> {
    let mut from = 0;
    std::iter::from_fn(move || {
        let start = from + comment[from..].find("[%")?;
        let end = start + comment[start..].find(']')? + 1;
        from = end;
        let body = comment[start + 2..end - 1].trim();
        let (name, arg) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        Some((start..end, name, arg.trim()))
    })
}

/// The clock time in a `[%clk]` argument: `h:mm:ss`, `mm:ss` or `ss`, the seconds with an
/// optional decimal fraction (`0:00:09.5`). Read exactly, without floating point.
fn parse_clock(arg: &str) -> Option<Duration> {
    fn number(digits: &str) -> Option<u64> {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    }
    let parts: Vec<&str> = arg.split(':').collect();
    let (last, whole) = parts.split_last()?;
    if whole.len() > 2 {
        return None;
    }
    let (seconds, fraction) = last.split_once('.').unwrap_or((last, ""));
    let mut total = 0u64;
    for part in whole.iter().chain([&seconds]) {
        total = total.checked_mul(60)?.checked_add(number(part)?)?;
    }
    if !fraction.bytes().all(|b| b.is_ascii_digit()) || fraction.len() > 9 {
        return None;
    }
    let nanos = if fraction.is_empty() { 0 } else { number(&format!("{fraction:0<9}"))? };
    Some(Duration::new(total, u32::try_from(nanos).ok()?))
}

/// The evaluation in an `[%eval]` argument: `0.17`, `#-3`, either with `,depth` after it.
fn parse_eval(arg: &str) -> Option<Eval> {
    let (value, depth) = match arg.split_once(',') {
        Some((value, depth)) => (value.trim(), Some(depth.trim().parse().ok()?)),
        None => (arg, None),
    };
    let score = match value.strip_prefix('#') {
        Some(mate) => Score::Mate(mate.parse().ok()?),
        None => {
            let pawns: f64 = value.parse().ok()?;
            let cp = (pawns * 100.0).round();
            if !cp.is_finite() || cp.abs() >= f64::from(i32::MAX) {
                return None;
            }
            Score::Cp(cp as i32)
        }
    };
    Some(Eval { score, depth })
}

/// The clock time left from the first well-formed `[%clk h:mm:ss(.f)]` command in a comment.
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
    commands(comment).find_map(|(_, name, arg)| if name == "clk" { parse_clock(arg) } else { None })
}

/// The evaluation from the first well-formed `[%eval 0.17]`, `[%eval #-3]` or
/// `[%eval 0.17,20]` command in a comment.
///
/// ```
/// use kibitz_engine::{Eval, Score, eval_in};
/// assert_eq!(eval_in("[%eval 0.17] [%clk 0:01:00]"), Some(Eval { score: Score::Cp(17), depth: None }));
/// assert_eq!(eval_in("[%eval -1.5,20]"), Some(Eval { score: Score::Cp(-150), depth: Some(20) }));
/// assert_eq!(eval_in("[%eval #-3]").map(|e| e.score), Some(Score::Mate(-3)));
/// ```
#[must_use]
pub fn eval_in(comment: &str) -> Option<Eval> {
    commands(comment).find_map(|(_, name, arg)| if name == "eval" { parse_eval(arg) } else { None })
}

/// Takes the first well-formed `[%clk]` and `[%eval]` commands out of a comment into `clock`
/// and `eval`, each only when it is still `None`, and returns the text left with its
/// whitespace tidied. Malformed commands, later repeats and other commands (`[%emt]`,
/// `[%csl]`, `[%cal]`) stay in the text as they were written.
pub(crate) fn take_commands(comment: &str, clock: &mut Option<Duration>, eval: &mut Option<Eval>) -> String {
    let mut taken = Vec::new();
    for (range, name, arg) in commands(comment) {
        if name == "clk" && clock.is_none() {
            *clock = parse_clock(arg);
            taken.extend(clock.is_some().then_some(range));
        } else if name == "eval" && eval.is_none() {
            *eval = parse_eval(arg);
            taken.extend(eval.is_some().then_some(range));
        }
    }
    let mut text = String::with_capacity(comment.len());
    let mut from = 0;
    for range in taken {
        text.push_str(&comment[from..range.start]);
        text.push(' ');
        from = range.end;
    }
    text.push_str(&comment[from..]);
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `[%clk h:mm:ss]` command for a clock time, with the fraction of a second when there
/// is one (`[%clk 0:00:09.5]`), so that reading it back gives the same time.
pub(crate) fn clock_command(clock: Duration) -> String {
    let s = clock.as_secs();
    let mut text = format!("[%clk {}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    if clock.subsec_nanos() > 0 {
        let fraction = format!("{:09}", clock.subsec_nanos());
        text.push('.');
        text.push_str(fraction.trim_end_matches('0'));
    }
    text.push(']');
    text
}

/// The `[%eval ...]` command for an evaluation, as lichess writes it: `[%eval 0.35]`,
/// `[%eval #-3]`, `[%eval 0.35,18]`.
pub(crate) fn eval_command(eval: Eval) -> String {
    let mut text = match eval.score {
        Score::Cp(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            format!("[%eval {sign}{}.{:02}", cp.unsigned_abs() / 100, cp.unsigned_abs() % 100)
        }
        Score::Mate(n) => format!("[%eval #{n}"),
    };
    if let Some(depth) = eval.depth {
        text.push_str(&format!(",{depth}"));
    }
    text.push(']');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp(cp: i32, depth: Option<u32>) -> Eval {
        Eval { score: Score::Cp(cp), depth }
    }

    #[test]
    fn commands_need_their_exact_name() {
        assert_eq!(clock_in("[%clkx 1] [%clk 2]"), Some(Duration::from_secs(2)));
        assert_eq!(clock_in("[%clk nonsense]"), None);
        assert_eq!(clock_in("[%clk 1:00"), None);
        assert_eq!(clock_in("[%clk -1:00]"), None);
        assert_eq!(clock_in("[%clk 1:2:3:4]"), None);
        assert_eq!(clock_in("[%clk 99999999999999999999:00]"), None);
        assert_eq!(clock_in("[%clk 0:00:01.1234567891]"), None);
        assert_eq!(eval_in("[%eval]"), None);
        assert_eq!(eval_in("[%eval 0.3,deep]"), None);
        assert_eq!(eval_in("[%eval NaN] [%eval inf] [%eval 1e300]"), None);
        assert_eq!(eval_in("[%eval x] [%eval 0.29, 7]"), Some(cp(29, Some(7))));
        assert_eq!(cp(-5, None).to_string(), "-0.05");
    }

    #[test]
    fn taking_commands_leaves_the_rest_of_the_text() {
        let (mut clock, mut eval) = (None, None);
        let text = take_commands(
            "Good [%emt 0:00:02] [%eval 0.35,18]  move [%clk 0:05:00] [%csl Ga4] [%clk 0:04:00]",
            &mut clock,
            &mut eval,
        );
        assert_eq!(text, "Good [%emt 0:00:02] move [%csl Ga4] [%clk 0:04:00]");
        assert_eq!((clock, eval), (Some(Duration::from_secs(300)), Some(cp(35, Some(18)))));

        let (mut clock, mut eval) = (None, None);
        let text = take_commands("[%eval x] [%clk y] [%eval #-3] text [%clk", &mut clock, &mut eval);
        assert_eq!(text, "[%eval x] [%clk y] text [%clk");
        assert_eq!((clock, eval), (None, Some(Eval { score: Score::Mate(-3), depth: None })));
    }

    #[test]
    fn commands_read_back_as_written() {
        for clock in [0, 9_500, 300_000, 3_723_000, 1, 360_000_123].map(Duration::from_millis) {
            let command = clock_command(clock);
            assert_eq!(clock_in(&command), Some(clock), "{command}");
        }
        assert_eq!(clock_command(Duration::from_millis(9_500)), "[%clk 0:00:09.5]");
        let evals = [cp(35, Some(18)), cp(-5, None), cp(0, None), cp(-1234, Some(0))];
        let mates = [Score::Mate(-3), Score::Mate(1)].map(|score| Eval { score, depth: None });
        for eval in evals.into_iter().chain(mates) {
            let command = eval_command(eval);
            assert_eq!(eval_in(&command), Some(eval), "{command}");
        }
        assert_eq!(eval_command(cp(35, Some(18))), "[%eval 0.35,18]");
        assert_eq!(eval_command(cp(-5, None)), "[%eval -0.05]");
        assert_eq!(eval_command(Eval { score: Score::Mate(-3), depth: None }), "[%eval #-3]");
    }
}
