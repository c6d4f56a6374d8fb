//! The run's log, one JSON object a line: a `run` line with the settings, then one
//! `generation` line per generation (the population that played, every game with who
//! played, how it ended, who offered, declined and resigned, the rule applied, and the
//! population it left), and, when the run closed with a trial, a `trial` line with each
//! candidate's games and the one chosen ([`TrialRecord`]). A line is appended and synced to
//! the disk before the next generation starts, so a killed run loses at most the generation
//! under way; an unfinished last line (a torn write) is ignored on reading and cut off on
//! resuming.
//!
//! [`TuningLog::read`] reads a log back for resuming and for plots:
//! [`TuningLog::summaries`] gives one [`GenerationSummary`] per generation.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{
    Finish, GenerationSummary, Genome, GenomeError, Margins, Member, RuleApplied, TrialRecord, Variation,
};
use crate::policy::Rules;

/// The log format's version.
pub const LOG_VERSION: u32 = 1;

/// The settings of a run, the log's first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// [`LOG_VERSION`] when written.
    pub version: u32,
    /// The rule set tuned.
    pub rules: Rules,
    /// The tuned parameters' names, in the order of every member's values.
    pub genome: Vec<String>,
    /// The population's size.
    pub population: usize,
    /// The seed of every random choice (generation `g` uses a generator seeded from it and `g`).
    pub seed: u64,
    /// The mutation's step and the mating's crossover.
    pub variation: Variation,
    /// The time control, as given on the command line.
    pub control: String,
    /// The openings' file (EPD or PGN); the initial position without.
    pub openings: Option<PathBuf>,
    /// A game still going after this many plies is drawn (a draw by rule).
    pub max_plies: usize,
    /// Agreed draws and resignations are checked by playing the game on
    /// (the `playout` module); false in the logs of runs from before the check.
    #[serde(default)]
    pub check_readings: bool,
    /// Who plays the readings on: an engine as `kibitz match --engine` words (a program at
    /// a fixed depth, say); `None`, and in older logs: the built-in engine at the run's
    /// time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<String>,
    /// Who judges readings by scoring the position where they were made, instead of
    /// playing them on ([`super::referee`]): an engine as `kibitz match --engine` words,
    /// at a fixed depth, node count or time; `None`, and in older logs: nobody.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub referee: Option<String>,
    /// Which readings the referee judges; the judge plays the others on.
    #[serde(default)]
    pub referee_judges: RefereeJudges,
    /// The referee's margins (the issue's, and in older logs).
    #[serde(default)]
    pub referee_margins: Margins,
    /// How many games the judge plays on from each reading it judges, the colours
    /// alternating; the majority decides ([`super::Playout::majority`]). 1 in older logs.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub playouts: usize,
    /// A folder of Syzygy tables the members, and the built-in engine playing readings on,
    /// probe (their `SyzygyPath`); `None`, and in older logs: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tablebases: Option<PathBuf>,
}

fn one() -> usize {
    1
}

#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_one(n: &usize) -> bool {
    *n == 1
}

impl RunHeader {
    /// A run of `population` members tuning `rules` at `control`, from `seed`: the default
    /// operators, from the initial position, a draw after 400 plies, the readings taken at
    /// their word.
    #[must_use]
    pub fn new(rules: Rules, population: usize, seed: u64, control: &str) -> RunHeader {
        RunHeader {
            version: LOG_VERSION,
            rules,
            genome: Genome::for_rules(rules).names(),
            population,
            seed,
            variation: Variation::default(),
            control: control.to_owned(),
            openings: None,
            max_plies: 400,
            check_readings: false,
            judge: None,
            referee: None,
            referee_judges: RefereeJudges::All,
            referee_margins: Margins::default(),
            playouts: 1,
            tablebases: None,
        }
    }
}

/// The readings a run's referee judges ([`RunHeader::referee`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefereeJudges {
    /// Every reading: declined offers, agreed draws and resignations.
    #[default]
    All,
    /// Resignations only: draw offers are played on by the judge.
    Resignations,
}

/// One game of a generation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TunedGame {
    /// White's member number.
    pub white: u64,
    /// Black's member number.
    pub black: u64,
    /// The opening's index in the suite's order.
    pub opening: usize,
    /// How it ended.
    pub finish: Finish,
    /// The replacement rule it fell under.
    pub rule: RuleApplied,
}

/// One generation: who played, the games, and the population it left.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GenerationRecord {
    /// Its number, from 1.
    pub generation: u32,
    /// The population that played.
    pub members: Vec<Member>,
    /// The games, in the pairing's order.
    pub games: Vec<TunedGame>,
    /// The population after the replacements: the next generation's.
    pub next: Vec<Member>,
    /// The number the next new member gets.
    pub next_id: u64,
}

/// A line of the log, as read.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum Line {
    Run(RunHeader),
    Generation(GenerationRecord),
    Trial(TrialRecord),
}

/// A line of the log, as written.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum LineOut<'a> {
    Run(&'a RunHeader),
    Generation(&'a GenerationRecord),
    Trial(&'a TrialRecord),
}

/// Why a log cannot be read.
#[derive(Debug)]
pub enum TuningLogError {
    /// The file cannot be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        error: io::Error,
    },
    /// The first line is not a run's settings.
    NoHeader(PathBuf),
    /// A line before the last is not a generation, or generations are missing.
    Bad {
        /// The file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A version this program does not read.
    Version(u32),
    /// The header's genome names unknown parameters.
    Genome(GenomeError),
}

impl fmt::Display for TuningLogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuningLogError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TuningLogError::NoHeader(path) => write!(f, "{}: not a tuning log (no run line)", path.display()),
            TuningLogError::Bad { path, line, why } => write!(f, "{}:{line}: {why}", path.display()),
            TuningLogError::Version(v) => write!(f, "log version {v}; this program reads {LOG_VERSION}"),
            TuningLogError::Genome(e) => write!(f, "the log's genome: {e}"),
        }
    }
}

impl std::error::Error for TuningLogError {}

/// A run's log as read back.
#[derive(Clone, Debug)]
pub struct TuningLog {
    /// The run's settings.
    pub header: RunHeader,
    /// The genome the header names.
    pub genome: Genome,
    /// Every complete generation, in order from 1.
    pub generations: Vec<GenerationRecord>,
    /// The last closing trial, if the run had one (a run resumed after it has a trial of an
    /// earlier generation: see [`TrialRecord::after`]).
    pub trial: Option<TrialRecord>,
    /// An unfinished last line was ignored.
    pub torn: bool,
    /// The length of the file's complete lines, in bytes.
    valid_len: u64,
}

impl TuningLog {
    /// Reads the log at `path`; an unfinished or unreadable last line is ignored (`torn`).
    ///
    /// # Errors
    /// [`TuningLogError`] for a file that cannot be read, has no run line, has a bad line
    /// before its last, or misses generations.
    pub fn read(path: &Path) -> Result<TuningLog, TuningLogError> {
        let io = |error| TuningLogError::Io { path: path.to_path_buf(), error };
        let bytes = std::fs::read(path).map_err(io)?;
        let mut lines: Vec<(usize, &[u8])> = Vec::new();
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                lines.push((i + 1, &bytes[start..i]));
                start = i + 1;
            }
        }
        let mut torn = start < bytes.len();
        let mut header = None;
        let mut generations: Vec<GenerationRecord> = Vec::new();
        let mut trial = None;
        let mut valid_len = 0;
        let count = lines.len();
        for (n, (end, text)) in lines.into_iter().enumerate() {
            let bad = |why: String| TuningLogError::Bad { path: path.to_path_buf(), line: n + 1, why };
            let line = match serde_json::from_slice::<Line>(text) {
                Ok(line) => line,
                Err(_) if n + 1 == count && !torn && header.is_some() => {
                    torn = true;
                    break;
                }
                Err(e) if n == 0 && is_run_line(text) => return Err(bad(format!("the run line: {e}"))),
                Err(_) if n == 0 => return Err(TuningLogError::NoHeader(path.to_path_buf())),
                Err(e) => return Err(bad(e.to_string())),
            };
            match line {
                Line::Run(h) if n == 0 => header = Some(h),
                Line::Run(_) => return Err(bad("a second run line".into())),
                Line::Generation(_) | Line::Trial(_) if n == 0 => {
                    return Err(TuningLogError::NoHeader(path.to_path_buf()));
                }
                Line::Trial(t) => trial = Some(t),
                Line::Generation(g) => {
                    let expected = generations.len() as u32 + 1;
                    if g.generation != expected {
                        return Err(bad(format!(
                            "generation {} where {expected} was expected",
                            g.generation
                        )));
                    }
                    generations.push(g);
                }
            }
            valid_len = end as u64;
        }
        let header = header.ok_or_else(|| TuningLogError::NoHeader(path.to_path_buf()))?;
        if header.version != LOG_VERSION {
            return Err(TuningLogError::Version(header.version));
        }
        let genome = Genome::from_names(header.rules, &header.genome).map_err(TuningLogError::Genome)?;
        Ok(TuningLog { header, genome, generations, trial, torn, valid_len })
    }

    /// One summary per generation, in order.
    #[must_use]
    pub fn summaries(&self) -> Vec<GenerationSummary> {
        self.generations.iter().map(|g| GenerationSummary::of(&self.genome, g)).collect()
    }
}

/// Whether `text` is a JSON object of the run line's kind, readable or not: a run line with a
/// bad value is reported as such rather than as a file that is not a log.
fn is_run_line(text: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(text).is_ok_and(|v| v.get("kind").is_some_and(|k| k == "run"))
}

/// Appends a run's lines to its log, each synced to the disk.
pub struct LogWriter {
    file: File,
}

impl LogWriter {
    /// Starts the log of a new run at `path` with its settings; an existing file is not
    /// overwritten.
    ///
    /// # Errors
    /// The system's error (`AlreadyExists` for an existing file).
    pub fn create(path: &Path, header: &RunHeader) -> io::Result<LogWriter> {
        let file = OpenOptions::new().write(true).create_new(true).open(path)?;
        let mut writer = LogWriter { file };
        writer.write(&LineOut::Run(header))?;
        Ok(writer)
    }

    /// Goes on with the log `log` was read from at `path`, cutting off a torn last line.
    ///
    /// # Errors
    /// The system's error.
    pub fn resume(path: &Path, log: &TuningLog) -> io::Result<LogWriter> {
        let mut file = OpenOptions::new().write(true).open(path)?;
        file.set_len(log.valid_len)?;
        io::Seek::seek(&mut file, io::SeekFrom::End(0))?;
        file.sync_data()?;
        Ok(LogWriter { file })
    }

    /// Appends a generation.
    ///
    /// # Errors
    /// The system's error.
    pub fn append(&mut self, record: &GenerationRecord) -> io::Result<()> {
        self.write(&LineOut::Generation(record))
    }

    /// Appends a closing trial.
    ///
    /// # Errors
    /// The system's error.
    pub fn append_trial(&mut self, record: &TrialRecord) -> io::Result<()> {
        self.write(&LineOut::Trial(record))
    }

    fn write(&mut self, line: &LineOut<'_>) -> io::Result<()> {
        let mut text = serde_json::to_string(line).map_err(io::Error::other)?;
        text.push('\n');
        self.file.write_all(text.as_bytes())?;
        self.file.sync_data()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tuning::Origin;

    fn header() -> RunHeader {
        RunHeader {
            max_plies: 100,
            check_readings: true,
            playouts: 3,
            tablebases: Some(PathBuf::from("syzygy")),
            ..RunHeader::new(Rules::DeadBand, 2, 1, "sd 2")
        }
    }

    fn generation(n: u32) -> GenerationRecord {
        let m = Member { id: 0, born: 0, origin: Origin::Initial, values: vec![25, 10, 3000] };
        GenerationRecord { generation: n, members: vec![m.clone()], games: vec![], next: vec![m], next_id: 1 }
    }

    #[test]
    fn lines_are_written_read_back_and_checked() {
        let dir = std::env::temp_dir().join(format!("kibitz-tuning-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let path = dir.join("run.log");
        let _ = std::fs::remove_file(&path);
        let mut w = LogWriter::create(&path, &header()).expect("a new log");
        w.append(&generation(1)).expect("written");
        w.append(&generation(2)).expect("written");
        assert!(LogWriter::create(&path, &header()).is_err(), "not overwritten");
        let log = TuningLog::read(&path).expect("a log");
        assert_eq!((log.header.clone(), log.generations.len(), log.torn), (header(), 2, false));
        let text = std::fs::read_to_string(&path).expect("the log");
        let lines: Vec<&str> = text.lines().collect();
        // A bad line before the last is an error, not a torn write.
        std::fs::write(&path, format!("{}\nnonsense\n{}\n", lines[0], lines[2])).expect("writable");
        assert!(matches!(TuningLog::read(&path), Err(TuningLogError::Bad { line: 2, .. })));
        // A missing generation is an error.
        std::fs::write(&path, format!("{}\n{}\n", lines[0], lines[2])).expect("writable");
        assert!(matches!(TuningLog::read(&path), Err(TuningLogError::Bad { line: 2, .. })));
        // A garbled last line is a torn write.
        std::fs::write(&path, format!("{}\n{}\n{{\"kind\n", lines[0], lines[1])).expect("writable");
        assert!(TuningLog::read(&path).is_ok_and(|l| l.torn && l.generations.len() == 1));
        std::fs::write(&path, "{}\n").expect("writable");
        assert!(matches!(TuningLog::read(&path), Err(TuningLogError::NoHeader(_))));
        // A run line with a value out of its type's range says which value.
        let odds = lines[0].replace("\"draw_odds\":0", "\"draw_odds\":300");
        assert_ne!(odds, lines[0], "the header keeps draw_odds");
        std::fs::write(&path, format!("{odds}\n")).expect("writable");
        let err = TuningLog::read(&path).expect_err("refused");
        assert!(matches!(err, TuningLogError::Bad { line: 1, .. }), "{err}");
        assert!(err.to_string().contains("the run line: ") && err.to_string().contains("300"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_log_from_before_the_check_reads_as_trusting_readings_played_on_once() {
        let dir = std::env::temp_dir().join(format!("kibitz-tuning-old-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let path = dir.join("old.log");
        let mut line = serde_json::to_value(LineOut::Run(&header())).expect("json");
        let fields = line.as_object_mut().expect("an object");
        fields.remove("check_readings").expect("the field");
        fields.remove("playouts").expect("the field");
        std::fs::write(&path, format!("{line}\n")).expect("writable");
        let log = TuningLog::read(&path).expect("an old log");
        assert!(!log.header.check_readings);
        assert_eq!(log.header.playouts, 1, "one game played on, as before");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
