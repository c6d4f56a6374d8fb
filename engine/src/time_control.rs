//! Time controls: how much time (or depth, or nodes) one side gets for its moves.
//!
//! [`TimeControl`] is the one representation of a time control in Kibitz: the UCI and xboard
//! front ends, the `epd` tool, the game clock, the app's clock dialog and `kibitz selfplay`
//! all use it. It writes Crafty's commands (`level 40 5 0`, `time 60/30/sd/30`, `st 5`,
//! `sd 12`, `sn 100000`) and the PGN `TimeControl` tag (`40/7200:3600`, `300+5`, `-`,
//! `*60`), and [`TimeControl::parse`] (also `str::parse`) reads either.
//!
//! ```
//! use std::time::Duration;
//! use kibitz_engine::TimeControl;
//!
//! let blitz: TimeControl = "level 0 5 3".parse().unwrap();
//! assert_eq!(blitz.to_pgn(), "300+3");
//! assert_eq!(TimeControl::parse("300+3"), Ok(blitz));
//! let classical: TimeControl = "time 60/30/sd/30".parse().unwrap();
//! assert_eq!(classical.to_string(), "time 60/30/sd/30");
//! assert_eq!(classical.moves_to_go(59), Some(1));
//! assert_eq!(TimeControl::from_pgn("40/7200:3600").unwrap().to_string(), "time 40/120/sd/60");
//! assert_eq!("st 5".parse::<TimeControl>().unwrap(), TimeControl::MoveTime(Duration::from_secs(5)));
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// One period of a clock: a number of moves (or the rest of the game) in a time.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stage {
    /// Moves to make in this period; `None` for the rest of the game (sudden death).
    pub moves: Option<u32>,
    /// Time added to the clock at the start of the period.
    pub time: Duration,
}

/// A time control for one side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// A chess clock: the stages in order, the last one repeating if it has a move count
    /// (`40 moves in 5 minutes, repeating`), plus a Fischer increment after every move.
    /// Sudden death is one stage without a move count.
    Clock {
        /// The periods, never empty; only the last may be sudden death.
        stages: Vec<Stage>,
        /// Time added after every move.
        increment: Duration,
    },
    /// An hourglass (PGN `*60`): the time one side spends is added to the other's.
    Sandclock(Duration),
    /// A fixed time for every move (Crafty's `st`, UCI's `movetime`).
    MoveTime(Duration),
    /// A fixed depth in plies (Crafty's `sd`).
    Depth(u32),
    /// A fixed number of nodes (Crafty's `sn`).
    Nodes(u64),
    /// No limit: think until told to stop.
    Infinite,
}

/// Why a time control could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// The text was empty.
    Empty,
    /// The first word is not `level`, `time`, `st`, `sd`, `sn` or `infinite`, nor does the
    /// text begin as a PGN time control does.
    UnknownCommand(String),
    /// A value is missing; the text names it.
    Missing(&'static str),
    /// Text was left over after a complete time control.
    Extra(String),
    /// A value is not a number of the right kind; `what` names it.
    BadNumber {
        /// What the value was meant to be.
        what: &'static str,
        /// The text found instead.
        text: String,
    },
    /// The time control gives no time at all.
    NoTime,
    /// A sudden-death stage is followed by another stage.
    SuddenDeathNotLast,
    /// The PGN tag is `?`: the time control is unknown.
    Unknown,
    /// The PGN stages have different increments, which Kibitz does not model.
    MixedIncrements,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::Empty => write!(f, "empty time control"),
            TimeControlError::UnknownCommand(word) => {
                write!(
                    f,
                    "unknown time control '{word}': expected Crafty's level, time, st, sd, sn or infinite, \
                     or PGN's notation such as 300+3 or 40/5400:1800"
                )
            }
            TimeControlError::Missing(what) => write!(f, "missing {what}"),
            TimeControlError::Extra(text) => write!(f, "unexpected '{text}' after the time control"),
            TimeControlError::BadNumber { what, text } => write!(f, "bad {what} '{text}'"),
            TimeControlError::NoTime => write!(f, "the time control gives no time"),
            TimeControlError::SuddenDeathNotLast => write!(f, "only the last stage can be sudden death"),
            TimeControlError::Unknown => write!(f, "the time control is unknown ('?')"),
            TimeControlError::MixedIncrements => {
                write!(f, "stages with different increments are not supported")
            }
        }
    }
}

impl std::error::Error for TimeControlError {}

impl TimeControl {
    /// Sudden death: `base` for the whole game plus `increment` after every move.
    #[must_use]
    pub fn sudden_death(base: Duration, increment: Duration) -> TimeControl {
        TimeControl::Clock { stages: vec![Stage { moves: None, time: base }], increment }
    }

    /// `moves` moves in `time`, repeating, plus `increment` after every move.
    #[must_use]
    pub fn repeating(moves: u32, time: Duration, increment: Duration) -> TimeControl {
        TimeControl::Clock { stages: vec![Stage { moves: Some(moves), time }], increment }
    }

    /// The time on the clock at the start of the game (zero when there is no clock).
    #[must_use]
    pub fn initial_time(&self) -> Duration {
        match self {
            TimeControl::Clock { stages, .. } => stages.first().map_or(Duration::ZERO, |s| s.time),
            TimeControl::Sandclock(time) => *time,
            _ => Duration::ZERO,
        }
    }

    /// The Fischer increment (zero when there is none).
    #[must_use]
    pub fn increment(&self) -> Duration {
        match self {
            TimeControl::Clock { increment, .. } => *increment,
            _ => Duration::ZERO,
        }
    }

    /// The stage in force after the side has made `moves_made` moves, and the number of
    /// moves made before it started.
    fn stage_at(stages: &[Stage], moves_made: u32) -> Option<(usize, u32)> {
        let mut start = 0u32;
        for (i, stage) in stages.iter().enumerate() {
            match stage.moves {
                None => return Some((i, start)),
                Some(n) if i + 1 == stages.len() => {
                    // The last stage repeats: find the start of the current repetition.
                    let n = n.max(1);
                    let into = moves_made.saturating_sub(start);
                    return Some((i, start + into / n * n));
                }
                Some(n) => {
                    if moves_made < start.saturating_add(n) {
                        return Some((i, start));
                    }
                    start = start.saturating_add(n);
                }
            }
        }
        None
    }

    /// Moves left until the next time control after the side has made `moves_made` moves;
    /// `None` in sudden death or without a clock.
    #[must_use]
    pub fn moves_to_go(&self, moves_made: u32) -> Option<u32> {
        let TimeControl::Clock { stages, .. } = self else { return None };
        let (i, start) = Self::stage_at(stages, moves_made)?;
        let n = stages[i].moves?.max(1);
        Some(start + n - moves_made)
    }

    /// Time added to the side's clock when it completes its move number `moves_made + 1`:
    /// the increment, plus the next stage's time when that move reaches a control.
    #[must_use]
    pub fn bonus_after_move(&self, moves_made: u32) -> Duration {
        let TimeControl::Clock { stages, increment } = self else { return Duration::ZERO };
        let done = moves_made + 1;
        let reached = match Self::stage_at(stages, moves_made) {
            Some((i, start)) => match stages[i].moves {
                Some(n) if start + n.max(1) == done => {
                    let next = Self::stage_at(stages, done).map_or(i, |(j, _)| j);
                    stages[next].time
                }
                _ => Duration::ZERO,
            },
            None => Duration::ZERO,
        };
        *increment + reached
    }

    /// Reads a time control in Crafty's notation or PGN's: a Crafty command (`level 40 5 0`,
    /// `level 0 5 3`, `time 40/90/sd/30`, `st 10`, `sd 8`, `sn 100000`, `infinite`; see
    /// [`TimeControl::from_crafty`]) or a PGN `TimeControl` tag (`300+3`, `40/5400:1800`,
    /// `*60`, `-`; see [`TimeControl::from_pgn`]). The first word decides which.
    ///
    /// # Errors
    /// A [`TimeControlError`] saying what is wrong; a word that is no Crafty command gives
    /// [`TimeControlError::UnknownCommand`], PGN's `?` gives [`TimeControlError::Unknown`].
    pub fn parse(text: &str) -> Result<TimeControl, TimeControlError> {
        let text = text.trim();
        let Some(first) = text.split_whitespace().next() else {
            return Err(TimeControlError::Empty);
        };
        if CRAFTY_COMMANDS.contains(&first) {
            TimeControl::from_crafty(text)
        } else if first.starts_with(|c: char| c.is_alphabetic()) {
            Err(TimeControlError::UnknownCommand(first.to_owned()))
        } else {
            TimeControl::from_pgn(text)
        }
    }

    /// Reads a PGN `TimeControl` tag only: `40/7200:3600`, `300+5`, `*60`, `-` (none).
    ///
    /// # Errors
    /// A [`TimeControlError`] saying what is wrong; `?` gives [`TimeControlError::Unknown`].
    pub fn from_pgn(tag: &str) -> Result<TimeControl, TimeControlError> {
        let tag = tag.trim();
        match tag {
            "" => return Err(TimeControlError::Empty),
            "?" => return Err(TimeControlError::Unknown),
            "-" => return Ok(TimeControl::Infinite),
            _ => {}
        }
        if let Some(secs) = tag.strip_prefix('*') {
            let time = seconds("sandclock seconds", secs)?;
            return if time.is_zero() {
                Err(TimeControlError::NoTime)
            } else {
                Ok(TimeControl::Sandclock(time))
            };
        }
        let mut stages = Vec::new();
        let mut increment = None;
        for field in tag.split(':') {
            let (period, inc) = match field.split_once('+') {
                Some((period, inc)) => (period, seconds("increment seconds", inc)?),
                None => (field, Duration::ZERO),
            };
            if increment.is_some_and(|old| old != inc) {
                return Err(TimeControlError::MixedIncrements);
            }
            increment = Some(inc);
            let stage = match period.split_once('/') {
                Some((moves, secs)) => {
                    Stage { moves: Some(count("moves", moves)?), time: seconds("stage seconds", secs)? }
                }
                None => Stage { moves: None, time: seconds("stage seconds", period)? },
            };
            stages.push(stage);
        }
        TimeControl::clock(stages, increment.unwrap_or_default())
    }

    /// The PGN `TimeControl` tag. Untimed controls (depth, nodes, infinite) are `-`; a
    /// fixed time per move has no PGN form and is written as one move per period (`1/5`),
    /// the closest match, in which unused time carries over.
    #[must_use]
    pub fn to_pgn(&self) -> String {
        match self {
            TimeControl::Clock { stages, increment } => {
                let inc =
                    if increment.is_zero() { String::new() } else { format!("+{}", secs_text(*increment)) };
                let fields: Vec<String> = stages
                    .iter()
                    .map(|s| match s.moves {
                        Some(n) => format!("{n}/{}{inc}", secs_text(s.time)),
                        None => format!("{}{inc}", secs_text(s.time)),
                    })
                    .collect();
                fields.join(":")
            }
            TimeControl::Sandclock(time) => format!("*{}", secs_text(*time)),
            TimeControl::MoveTime(time) => format!("1/{}", secs_text(*time)),
            TimeControl::Depth(_) | TimeControl::Nodes(_) | TimeControl::Infinite => "-".to_owned(),
        }
    }

    /// A checked clock time control.
    fn clock(stages: Vec<Stage>, increment: Duration) -> Result<TimeControl, TimeControlError> {
        if stages.is_empty() {
            return Err(TimeControlError::Missing("stage"));
        }
        if stages[..stages.len() - 1].iter().any(|s| s.moves.is_none()) {
            return Err(TimeControlError::SuddenDeathNotLast);
        }
        if stages.iter().any(|s| s.moves == Some(0)) {
            return Err(TimeControlError::BadNumber { what: "moves", text: "0".to_owned() });
        }
        if stages[0].time.is_zero() && increment.is_zero() {
            return Err(TimeControlError::NoTime);
        }
        Ok(TimeControl::Clock { stages, increment })
    }

    /// Reads one of Crafty's commands only: `level M T INC` (T in minutes or `m:ss`, INC in
    /// seconds, M = 0 for sudden death), `time MOVES/MIN[/MOVES/MIN][/INC]` (MOVES may be
    /// `sd`), `st SECONDS` (or `m:ss`), `sd PLIES`, `sn NODES`, or `infinite`.
    ///
    /// # Errors
    /// A [`TimeControlError`] saying what is wrong.
    pub fn from_crafty(text: &str) -> Result<TimeControl, TimeControlError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            return Err(TimeControlError::Empty);
        };
        let one = |what: &'static str| -> Result<&str, TimeControlError> {
            match args {
                [] => Err(TimeControlError::Missing(what)),
                [value] => Ok(value),
                [_, extra @ ..] => Err(TimeControlError::Extra(extra.join(" "))),
            }
        };
        match command {
            "level" => parse_level(args),
            "time" => parse_time(one("stages such as 40/120 or sd/5/3")?),
            "st" => {
                let time = clock_text("seconds per move", one("seconds per move")?, 1)?;
                if time.is_zero() { Err(TimeControlError::NoTime) } else { Ok(TimeControl::MoveTime(time)) }
            }
            "sd" => match count("depth", one("depth")?)? {
                0 => Err(TimeControlError::BadNumber { what: "depth", text: "0".to_owned() }),
                depth => Ok(TimeControl::Depth(depth)),
            },
            "sn" => match count::<u64>("node count", one("node count")?)? {
                0 => Err(TimeControlError::BadNumber { what: "node count", text: "0".to_owned() }),
                nodes => Ok(TimeControl::Nodes(nodes)),
            },
            "infinite" if args.is_empty() => Ok(TimeControl::Infinite),
            "infinite" => Err(TimeControlError::Extra(args.join(" "))),
            other => Err(TimeControlError::UnknownCommand(other.to_owned())),
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// Reads either notation, as [`TimeControl::parse`].
    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        TimeControl::parse(text)
    }
}

impl fmt::Display for TimeControl {
    /// The Crafty command that reads back as this time control: `level` for one stage,
    /// `time` for several, `st`, `sd`, `sn`; `infinite` for no limit. A sandclock has no
    /// Crafty form and is written in PGN notation after `pgn`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { stages, increment } => match stages.as_slice() {
                [single] => write!(
                    f,
                    "level {} {} {}",
                    single.moves.unwrap_or(0),
                    minutes_text(single.time),
                    secs_text(*increment)
                ),
                _ => {
                    let mut parts: Vec<String> = stages
                        .iter()
                        .map(|s| match s.moves {
                            Some(n) => format!("{n}/{}", minutes_text(s.time)),
                            None => format!("sd/{}", minutes_text(s.time)),
                        })
                        .collect();
                    if !increment.is_zero() {
                        parts.push(secs_text(*increment));
                    }
                    write!(f, "time {}", parts.join("/"))
                }
            },
            TimeControl::Sandclock(time) => write!(f, "pgn *{}", secs_text(*time)),
            TimeControl::MoveTime(time) => write!(f, "st {}", secs_text(*time)),
            TimeControl::Depth(depth) => write!(f, "sd {depth}"),
            TimeControl::Nodes(nodes) => write!(f, "sn {nodes}"),
            TimeControl::Infinite => write!(f, "infinite"),
        }
    }
}

/// The first words of Crafty's time controls.
const CRAFTY_COMMANDS: [&str; 6] = ["level", "time", "st", "sd", "sn", "infinite"];

/// `level M T INC`.
fn parse_level(args: &[&str]) -> Result<TimeControl, TimeControlError> {
    let [moves, time, inc] = args else {
        return match args.len() {
            0 => Err(TimeControlError::Missing("moves per control")),
            1 => Err(TimeControlError::Missing("minutes")),
            2 => Err(TimeControlError::Missing("increment seconds")),
            _ => Err(TimeControlError::Extra(args[3..].join(" "))),
        };
    };
    let moves: u32 = count("moves per control", moves)?;
    let time = clock_text("minutes", time, 60)?;
    let increment = seconds("increment seconds", inc)?;
    let stage = Stage { moves: (moves > 0).then_some(moves), time };
    TimeControl::clock(vec![stage], increment)
}

/// `MOVES/MIN[/MOVES/MIN][/INC]`, MOVES a number or `sd`.
fn parse_time(text: &str) -> Result<TimeControl, TimeControlError> {
    let text = text.trim_end_matches(';');
    let parts: Vec<&str> = text.split('/').collect();
    let stage = |moves: &str, time: &str| -> Result<Stage, TimeControlError> {
        let moves = if moves.eq_ignore_ascii_case("sd") { None } else { Some(count("moves", moves)?) };
        Ok(Stage { moves, time: clock_text("minutes", time, 60)? })
    };
    let (stages, increment) = match parts.as_slice() {
        [m, t] => (vec![stage(m, t)?], None),
        [m, t, inc] => (vec![stage(m, t)?], Some(*inc)),
        [m1, t1, m2, t2] => (vec![stage(m1, t1)?, stage(m2, t2)?], None),
        [m1, t1, m2, t2, inc] => (vec![stage(m1, t1)?, stage(m2, t2)?], Some(*inc)),
        [_] => return Err(TimeControlError::Missing("minutes after the move count")),
        _ => return Err(TimeControlError::Extra(parts[5..].join("/"))),
    };
    let increment = increment.map(|inc| seconds("increment seconds", inc)).transpose()?.unwrap_or_default();
    TimeControl::clock(stages, increment)
}

/// A whole number.
fn count<T: FromStr>(what: &'static str, text: &str) -> Result<T, TimeControlError> {
    text.parse().map_err(|_| TimeControlError::BadNumber { what, text: text.to_owned() })
}

/// A non-negative number of seconds, possibly with decimals.
fn seconds(what: &'static str, text: &str) -> Result<Duration, TimeControlError> {
    let bad = || TimeControlError::BadNumber { what, text: text.to_owned() };
    let value: f64 = text.parse().map_err(|_| bad())?;
    if !value.is_finite() || !(0.0..=1e9).contains(&value) {
        return Err(bad());
    }
    Ok(Duration::from_millis((value * 1000.0).round() as u64))
}

/// A time as `N` units of `unit` seconds (decimals allowed) or as `m:ss` (or `h:mm:ss`
/// when the unit is minutes, read as `m:ss` all the same: the last field is seconds).
fn clock_text(what: &'static str, text: &str, unit: u64) -> Result<Duration, TimeControlError> {
    let bad = || TimeControlError::BadNumber { what, text: text.to_owned() };
    if let Some((minutes, secs)) = text.split_once(':') {
        let minutes: u64 = minutes.parse().map_err(|_| bad())?;
        let secs: u64 = secs.parse().map_err(|_| bad())?;
        if secs >= 60 || minutes > 1_000_000 {
            return Err(bad());
        }
        return Ok(Duration::from_secs(minutes * 60 + secs));
    }
    let seconds = seconds(what, text)?;
    Ok(seconds * u32::try_from(unit).map_err(|_| bad())?)
}

/// Seconds as the shortest text: `5`, `0.5`, `2.25`.
fn secs_text(time: Duration) -> String {
    let ms = time.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_owned()
    }
}

/// Minutes as Crafty reads them: `5`, or `m:ss` when not whole minutes.
fn minutes_text(time: Duration) -> String {
    let secs = time.as_secs();
    if secs.is_multiple_of(60) && time.subsec_millis() == 0 {
        format!("{}", secs / 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn level_forms() {
        assert_eq!(tc("level 40 5 0"), TimeControl::repeating(40, s(300), s(0)));
        assert_eq!(tc("level 0 2 12"), TimeControl::sudden_death(s(120), s(12)));
        assert_eq!(tc("level 40 0:30 0"), TimeControl::repeating(40, s(30), s(0)));
        assert_eq!(tc("level 0 0 5"), TimeControl::sudden_death(s(0), s(5)));
        assert_eq!(tc("level 0 1 0.5"), TimeControl::sudden_death(s(60), Duration::from_millis(500)));
    }

    #[test]
    fn time_forms() {
        let secondary = TimeControl::Clock {
            stages: vec![Stage { moves: Some(60), time: s(1800) }, Stage { moves: None, time: s(1800) }],
            increment: s(0),
        };
        assert_eq!(tc("time 60/30/sd/30"), secondary);
        assert_eq!(tc("time 60/30/sd/30;"), secondary);
        assert_eq!(tc("time sd/15"), TimeControl::sudden_death(s(900), s(0)));
        assert_eq!(tc("time sd/2/12"), TimeControl::sudden_death(s(120), s(12)));
        assert_eq!(tc("time 40/120"), TimeControl::repeating(40, s(7200), s(0)));
        let two = tc("time 40/120/20/60/30");
        assert_eq!(two.moves_to_go(0), Some(40));
        assert_eq!(two.increment(), s(30));
    }

    #[test]
    fn fixed_limits() {
        assert_eq!(tc("st 5"), TimeControl::MoveTime(s(5)));
        assert_eq!(tc("st 1:30"), TimeControl::MoveTime(s(90)));
        assert_eq!(tc("st 0.25"), TimeControl::MoveTime(Duration::from_millis(250)));
        assert_eq!(tc("sd 12"), TimeControl::Depth(12));
        assert_eq!(tc("sn 100000"), TimeControl::Nodes(100_000));
        assert_eq!(tc("infinite"), TimeControl::Infinite);
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let err = |text: &str| text.parse::<TimeControl>().expect_err(text);
        assert_eq!(err(""), TimeControlError::Empty);
        assert_eq!(err("blitz 5"), TimeControlError::UnknownCommand("blitz".to_owned()));
        assert_eq!(err("level 40 5"), TimeControlError::Missing("increment seconds"));
        assert_eq!(err("level 40 5 0 9"), TimeControlError::Extra("9".to_owned()));
        assert_eq!(err("level 0 0 0"), TimeControlError::NoTime);
        assert!(matches!(err("level x 5 0"), TimeControlError::BadNumber { what: "moves per control", .. }));
        assert!(matches!(err("level -1 5 0"), TimeControlError::BadNumber { .. }));
        assert!(matches!(err("level 40 5 -3"), TimeControlError::BadNumber { .. }));
        assert!(matches!(err("st 1:75"), TimeControlError::BadNumber { .. }));
        assert_eq!(err("st 0"), TimeControlError::NoTime);
        assert_eq!(err("st"), TimeControlError::Missing("seconds per move"));
        assert!(matches!(err("sd 0"), TimeControlError::BadNumber { what: "depth", .. }));
        assert!(matches!(err("sn lots"), TimeControlError::BadNumber { what: "node count", .. }));
        assert_eq!(err("time sd/30/60/30"), TimeControlError::SuddenDeathNotLast);
        assert!(matches!(err("time 60"), TimeControlError::Missing(_)));
        assert!(matches!(err("time 1/2/3/4/5/6"), TimeControlError::Extra(_)));
        assert!(matches!(err("time 0/5"), TimeControlError::BadNumber { what: "moves", .. }));
        assert!(!err("level 40 5").to_string().is_empty());
    }

    #[test]
    fn display_reads_back() {
        for text in [
            "level 40 5 0",
            "level 0 2 12",
            "level 40 0:30 0",
            "level 0 1 0.5",
            "time 60/30/sd/30",
            "time 40/120/20/60/30",
            "st 5",
            "st 0.25",
            "sd 12",
            "sn 100000",
            "infinite",
        ] {
            assert_eq!(tc(text).to_string(), text);
            assert_eq!(tc(&tc(text).to_string()), tc(text));
        }
        assert_eq!(tc("time sd/2/12").to_string(), "level 0 2 12");
    }

    #[test]
    fn pgn_tags() {
        let pgn = |tag: &str| TimeControl::from_pgn(tag).unwrap_or_else(|e| panic!("{tag}: {e}"));
        assert_eq!(pgn("40/7200:3600"), tc("time 40/120/sd/60"));
        assert_eq!(pgn("300+5"), TimeControl::sudden_death(s(300), s(5)));
        assert_eq!(pgn("40/9000+30:1800+30"), tc("time 40/150/sd/30/30"));
        assert_eq!(pgn("-"), TimeControl::Infinite);
        assert_eq!(pgn("*60"), TimeControl::Sandclock(s(60)));
        assert_eq!(pgn("4500"), TimeControl::sudden_death(s(4500), s(0)));
        for tag in ["40/7200:3600", "300+5", "-", "*60", "40/9000+30:1800+30", "0.5+0.25", "40/300"] {
            assert_eq!(pgn(tag).to_pgn(), tag);
        }
        assert_eq!(TimeControl::MoveTime(s(5)).to_pgn(), "1/5");
        assert_eq!(TimeControl::Depth(3).to_pgn(), "-");
        assert_eq!(TimeControl::from_pgn("?"), Err(TimeControlError::Unknown));
        assert_eq!(TimeControl::from_pgn(""), Err(TimeControlError::Empty));
        assert_eq!(TimeControl::from_pgn("40/60+1:60+2"), Err(TimeControlError::MixedIncrements));
        assert_eq!(TimeControl::from_pgn("60:40/60"), Err(TimeControlError::SuddenDeathNotLast));
        assert!(TimeControl::from_pgn("*0").is_err());
        assert!(TimeControl::from_pgn("abc").is_err());
        assert!(TimeControl::from_pgn("40/").is_err());
        assert!(TimeControl::from_pgn("0").is_err());
    }

    #[test]
    fn one_parser_reads_both_notations() {
        let m = |n: u32| Some(n);
        let table: Vec<(&str, TimeControl)> = vec![
            // Crafty's commands.
            ("level 40 5 0", TimeControl::repeating(40, s(300), s(0))),
            ("level 0 5 3", TimeControl::sudden_death(s(300), s(3))),
            (
                "time 40/90/sd/30",
                TimeControl::Clock {
                    stages: vec![Stage { moves: m(40), time: s(5400) }, Stage { moves: None, time: s(1800) }],
                    increment: s(0),
                },
            ),
            ("st 10", TimeControl::MoveTime(s(10))),
            ("sd 8", TimeControl::Depth(8)),
            ("sn 5000", TimeControl::Nodes(5000)),
            ("infinite", TimeControl::Infinite),
            ("  level 0 5 3  ", TimeControl::sudden_death(s(300), s(3))),
            // PGN's tags.
            ("300+3", TimeControl::sudden_death(s(300), s(3))),
            (
                "40/5400:1800",
                TimeControl::Clock {
                    stages: vec![Stage { moves: m(40), time: s(5400) }, Stage { moves: None, time: s(1800) }],
                    increment: s(0),
                },
            ),
            ("40/300", TimeControl::repeating(40, s(300), s(0))),
            ("10+0.1", TimeControl::sudden_death(s(10), Duration::from_millis(100))),
            ("*60", TimeControl::Sandclock(s(60))),
            ("-", TimeControl::Infinite),
            (" 300+3 ", TimeControl::sudden_death(s(300), s(3))),
        ];
        for (text, expected) in &table {
            assert_eq!(TimeControl::parse(text).as_ref(), Ok(expected), "{text}");
            assert_eq!(text.parse::<TimeControl>().as_ref(), Ok(expected), "{text} through FromStr");
        }
    }

    #[test]
    fn malformed_controls_are_errors_not_panics() {
        let table: Vec<(&str, Option<TimeControlError>)> = vec![
            ("", Some(TimeControlError::Empty)),
            ("   ", Some(TimeControlError::Empty)),
            ("?", Some(TimeControlError::Unknown)),
            ("banana", Some(TimeControlError::UnknownCommand("banana".to_owned()))),
            ("Level 0 5 3", Some(TimeControlError::UnknownCommand("Level".to_owned()))),
            ("level", Some(TimeControlError::Missing("moves per control"))),
            ("level 0 0 0", Some(TimeControlError::NoTime)),
            ("level 40 5 0 1", Some(TimeControlError::Extra("1".to_owned()))),
            ("st 0", Some(TimeControlError::NoTime)),
            ("0", Some(TimeControlError::NoTime)),
            ("*0", Some(TimeControlError::NoTime)),
            ("60:40/60", Some(TimeControlError::SuddenDeathNotLast)),
            ("40/60+1:60+2", Some(TimeControlError::MixedIncrements)),
            ("sd -1", None),
            ("sn 99999999999999999999999", None),
            ("level 99999999999 5 0", None),
            ("300+", None),
            ("+3", None),
            ("300+3+4", None),
            ("40/", None),
            ("/60", None),
            ("40/5400:", None),
            (":", None),
            ("*", None),
            ("-5", None),
            ("1e400", None),
            ("NaN", None),
            ("300 + 3", None),
            ("time", None),
            ("time //", None),
            ("st 1:99", None),
            ("--", None),
        ];
        for (text, expected) in table {
            let err = TimeControl::parse(text).expect_err(text);
            assert!(!err.to_string().is_empty(), "{text}");
            if let Some(expected) = expected {
                assert_eq!(err, expected, "{text}");
            }
        }
        // No prefix of a valid control makes the parser panic.
        for text in ["level 40 5:30 0.5", "time 40/90/sd/30/5", "40/5400+30:1800+30", "*60", "st 1:30"] {
            for end in 0..=text.len() {
                let _ = TimeControl::parse(&text[..end]);
            }
        }
        assert!(
            TimeControl::parse("banana").unwrap_err().to_string().contains("300+3"),
            "names both notations"
        );
    }

    #[test]
    fn moves_to_go_and_bonus_at_the_boundaries() {
        let repeating = tc("level 40 5 0");
        assert_eq!(repeating.moves_to_go(0), Some(40));
        assert_eq!(repeating.moves_to_go(39), Some(1));
        assert_eq!(repeating.moves_to_go(40), Some(40));
        assert_eq!(repeating.moves_to_go(79), Some(1));
        assert_eq!(repeating.bonus_after_move(38), s(0));
        assert_eq!(repeating.bonus_after_move(39), s(300));
        assert_eq!(repeating.bonus_after_move(79), s(300));

        let secondary = tc("time 60/30/sd/30/10");
        assert_eq!(secondary.moves_to_go(59), Some(1));
        assert_eq!(secondary.moves_to_go(60), None);
        assert_eq!(secondary.bonus_after_move(58), s(10));
        assert_eq!(secondary.bonus_after_move(59), s(1810));
        assert_eq!(secondary.bonus_after_move(60), s(10));
        assert_eq!(secondary.initial_time(), s(1800));

        let sudden = tc("level 0 5 3");
        assert_eq!(sudden.moves_to_go(0), None);
        assert_eq!(sudden.bonus_after_move(100), s(3));
        assert_eq!(TimeControl::Depth(5).moves_to_go(0), None);
        assert_eq!(TimeControl::Depth(5).bonus_after_move(0), s(0));
        assert_eq!(TimeControl::Depth(5).initial_time(), s(0));
    }
}
