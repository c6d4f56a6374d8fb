//! `kibitz tune-policy`: self-play tuning of the draw and resign policy (see
//! [`crate::tuning`]). Prints one summary line per generation; writes the log as it goes,
//! then the best member's settings (BEST.json, loadable as the draw and resign settings) and
//! the final population next to it (BEST.population.json).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use clap::{Args, ValueEnum};
use serde::Serialize;

use crate::policy::{PolicySettings, Rules};
use crate::tuning::{
    Crossover, DRAW_AHEAD, GenerationSummary, Genome, LogWriter, Margins, Member, RESIGN_BEHIND,
    RefereeJudges, RunHeader, Targets, TrialRecord, Tuner, TuningLog, Variation, candidates,
};
use crate::{TimeControl, write_atomic};

/// `kibitz tune-policy [OPTIONS]`.
#[derive(Debug, Args)]
#[command(
    after_help = "A new run: --population N --generations G --tc CONTROL --log RUN.log --out BEST.json.
Resuming: --resume RUN.log --generations G --out BEST.json plays the generations the log misses \
up to G in all, with the log's settings. With --trial GAMES the run closes with a trial of its \
last consensus members, one line each, kept in the log. The last line is \
`generations G best #ID NAME=VALUE...`, with `met the targets` or `(none met the targets: the \
nearest)` after the ID when there was a trial.
BEST.json holds the draw and resign settings: the app loads it; over UCI and xboard set the \
PolicyFile option to its path."
)]
pub struct TunePolicyArgs {
    /// The population's size (an even number, 2 or more).
    #[arg(long, value_name = "N", required_unless_present = "resume", conflicts_with = "resume")]
    population: Option<usize>,
    /// The generations the run has in all when it ends.
    #[arg(long, value_name = "G")]
    generations: u32,
    /// The time control of every game: Crafty's notation (`st 0.05`, `sd 6`) or PGN's
    /// (`2+0.05`).
    #[arg(long = "tc", value_name = "CONTROL", required_unless_present = "resume", conflicts_with = "resume",
          value_parser = control)]
    control: Option<String>,
    /// How many games are played at once (1 to 16).
    #[arg(long, value_name = "C", default_value_t = 1)]
    concurrency: usize,
    /// An EPD or PGN file of openings, taken in an order shuffled by the seed.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    openings: Option<PathBuf>,
    /// The log of a new run (an existing file is not overwritten).
    #[arg(long, value_name = "RUN.log", required_unless_present = "resume", conflicts_with = "resume")]
    log: Option<PathBuf>,
    /// Goes on with the run of this log.
    #[arg(long, value_name = "RUN.log")]
    resume: Option<PathBuf>,
    /// Where the best member's settings go (and the final population, as
    /// NAME.population.json).
    #[arg(long, value_name = "BEST.json")]
    out: PathBuf,
    /// The rule set whose numbers are tuned.
    #[arg(long, value_enum, default_value_t = RulesName::DeadBand, conflicts_with = "resume")]
    rules: RulesName,
    /// The seed of the pairings, mutations and matings.
    #[arg(long, default_value_t = 1, conflicts_with = "resume")]
    seed: u64,
    /// A mutation's standard deviation, as a share of each parameter's range.
    #[arg(long, default_value_t = 0.05, conflicts_with = "resume")]
    sigma: f64,
    /// How mating combines the parents.
    #[arg(long, value_enum, default_value_t = CrossoverName::Uniform, conflicts_with = "resume")]
    crossover: CrossoverName,
    /// A game still going after this many plies is drawn.
    #[arg(long, value_name = "PLIES", default_value_t = 400, conflicts_with = "resume")]
    max_plies: usize,
    /// Checks every agreed draw and resignation by playing the game on, and charges the
    /// side whose reading it refutes (Kibitz's addition to the design note's rules; see
    /// `kibitz_engine::tuning::replacement`).
    #[arg(long, conflicts_with = "resume")]
    check_readings: bool,
    /// Checks the readings (as --check-readings) with this engine playing on, in `kibitz
    /// match --engine` words (`"cmd=/usr/games/stockfish proto=uci depth=10"`), at its own
    /// limits or else the run's control. Without it the built-in engine plays on at the run's
    /// control.
    #[arg(long, value_name = "WORDS", conflicts_with = "resume")]
    judge: Option<String>,
    /// Judges readings (as --check-readings) by this engine's score of the position where
    /// each was made, by issue 18's standard: a resignation is right at least 3 pawns
    /// behind, a draw offered or agreed is wrong with either side more than 1.5 pawns ahead.
    /// In `kibitz match --engine` words with a fixed limit (`"cmd=/usr/games/stockfish
    /// proto=uci depth=14"`).
    #[arg(long, value_name = "WORDS", conflicts_with = "resume")]
    referee: Option<String>,
    /// Which readings the referee judges; the others are played on (by --judge's engine or
    /// the built-in one).
    #[arg(long, value_enum, default_value_t = RefereeName::All, requires = "referee", conflicts_with = "resume")]
    referee_judges: RefereeName,
    /// The referee calls a draw, offered or agreed, wrong beyond this lead (centipawns;
    /// the standard is 150).
    #[arg(long, value_name = "CP", default_value_t = DRAW_AHEAD, requires = "referee", conflicts_with = "resume",
          value_parser = clap::value_parser!(i32).range(0..=10_000))]
    referee_draw_margin: i32,
    /// The referee calls a resignation right from this deficit on (centipawns; the issue's
    /// standard is 300).
    #[arg(long, value_name = "CP", default_value_t = RESIGN_BEHIND, requires = "referee", conflicts_with = "resume",
          value_parser = clap::value_parser!(i32).range(0..=10_000))]
    referee_resign_margin: i32,
    /// The referee also calls a draw wrong where Kibitz's own games, from positions with
    /// as many men and as large a score, were drawn less often than this (percent; 0, the
    /// issue's standard: any position within the draw margin may be drawn). Level with
    /// 28 men or more they were drawn 56% of the time, with 16 to 19 men 78%, with 12 to 15
    /// men 86% (`kibitz_engine::tuning::draw_odds`).
    #[arg(long, value_name = "PERCENT", default_value_t = 0, requires = "referee", conflicts_with = "resume",
          value_parser = clap::value_parser!(u8).range(0..=100))]
    referee_draw_odds: u8,
    /// Plays each reading the judge checks on this many times, the colours alternating; a
    /// side that wins more than half of the games refutes a draw offer or agreement, and a
    /// resignation stands only if the resigner loses more than half (implies
    /// --check-readings).
    #[arg(long, value_name = "K", default_value_t = 1, conflicts_with = "resume",
          value_parser = clap::value_parser!(u8).range(1..=15))]
    playouts: u8,
    /// Holds this parameter at its default instead of tuning it (`contempt`, which is also
    /// the search's draw score and so changes how a member plays, not only how it reads a
    /// game); may be repeated.
    #[arg(long, value_name = "NAME", conflicts_with = "resume")]
    keep: Vec<String>,
    /// A folder of Syzygy tablebases the members probe, and the built-in engine when it
    /// plays readings on (their `SyzygyPath`).
    #[arg(long = "tb", value_name = "FOLDER", conflicts_with = "resume")]
    tablebases: Option<PathBuf>,
    /// Closes the run with a trial: each candidate (the population's consensus at one of its
    /// last generations) plays this many fresh self-play games, its resignations and agreed
    /// draws scored by the referee by the standard, and BEST is the one meeting
    /// issue 18's targets (`kibitz_engine::tuning::Trial`). Needs --referee; 0: no trial,
    /// BEST is the last generation's consensus.
    #[arg(long, value_name = "GAMES", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=100_000))]
    trial: u32,
    /// How many candidates the trial compares.
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u8).range(1..=16))]
    candidates: u8,
    /// Appends every game to this PGN file.
    #[arg(long, value_name = "FILE.pgn")]
    pgn: Option<PathBuf>,
}

/// The rule sets by their names on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RulesName {
    /// Terra's rules: contempt and Terra's numbers.
    Terra,
    /// The design note's dead band: its width, move count and threshold.
    DeadBand,
}

/// The readings a referee judges, by their names on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RefereeName {
    /// Declined offers, agreed draws and resignations.
    All,
    /// Resignations only.
    Resignations,
}

/// The crossovers by their names on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum CrossoverName {
    /// Each value from either parent.
    Uniform,
    /// The parents' mean.
    Average,
}

/// A time control as given, once it parses.
fn control(text: &str) -> Result<String, crate::TimeControlError> {
    TimeControl::parse(text).map(|_| text.to_owned())
}

/// A member of the final population, as written.
#[derive(Serialize)]
struct Written<'a> {
    id: u64,
    origin: &'a crate::tuning::Origin,
    settings: PolicySettings,
}

impl TunePolicyArgs {
    /// The header of a new run; `None` when resuming.
    fn header(&self) -> Result<Option<RunHeader>, String> {
        let (Some(population), Some(control)) = (self.population, self.control.clone()) else {
            return Ok(None);
        };
        if population < 2 || population % 2 == 1 {
            return Err(format!("the population must be an even number, 2 or more, not {population}"));
        }
        if !(self.sigma.is_finite() && self.sigma >= 0.0) {
            return Err(format!("--sigma must be 0 or more, not {}", self.sigma));
        }
        let rules = match self.rules {
            RulesName::Terra => Rules::Terra,
            RulesName::DeadBand => Rules::DeadBand,
        };
        let crossover = match self.crossover {
            CrossoverName::Uniform => Crossover::Uniform,
            CrossoverName::Average => Crossover::Average,
        };
        let mut genome = Genome::for_rules(rules).names();
        for name in &self.keep {
            if !genome.contains(name) {
                return Err(format!("--keep {name}: not a tuned parameter; they are {}", genome.join(", ")));
            }
            genome.retain(|n| n != name);
        }
        if genome.is_empty() {
            return Err("--keep leaves no parameter to tune".into());
        }
        Ok(Some(RunHeader {
            genome,
            variation: Variation { sigma: self.sigma, crossover },
            openings: self.openings.clone(),
            max_plies: self.max_plies,
            check_readings: self.check_readings
                || self.judge.is_some()
                || self.referee.is_some()
                || self.playouts > 1,
            playouts: usize::from(self.playouts),
            tablebases: self.tablebases.clone(),
            judge: self.judge.clone(),
            referee: self.referee.clone(),
            referee_judges: match self.referee_judges {
                RefereeName::All => RefereeJudges::All,
                RefereeName::Resignations => RefereeJudges::Resignations,
            },
            referee_margins: Margins {
                resign_behind: self.referee_resign_margin,
                draw_ahead: self.referee_draw_margin,
                draw_odds: self.referee_draw_odds,
            },
            ..RunHeader::new(rules, population, self.seed, &control)
        }))
    }

    /// Runs `kibitz tune-policy ...`.
    #[must_use]
    pub fn run(self) -> ExitCode {
        match self.tune() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("kibitz tune-policy: {e}");
                ExitCode::FAILURE
            }
        }
    }

    fn tune(&self) -> Result<(), String> {
        let (header, log) = match (self.header()?, &self.resume) {
            (Some(header), _) => (header, None),
            (None, Some(path)) => {
                let log = TuningLog::read(path).map_err(|e| e.to_string())?;
                (log.header.clone(), Some(log))
            }
            (None, None) => return Err("give --population, --tc and --log, or --resume".into()),
        };
        // The settings are checked before a log is written.
        let tuner =
            Tuner::new(header, self.concurrency.clamp(1, 16), self.pgn.clone()).map_err(|e| e.to_string())?;
        if self.trial > 0 && tuner.referee.is_none() {
            return Err("--trial needs a referee: a run with --referee".into());
        }
        let mut writer = match (&log, &self.resume) {
            (Some(log), Some(path)) => {
                let writer = LogWriter::resume(path, log).map_err(|e| format!("{}: {e}", path.display()))?;
                if log.torn {
                    eprintln!(
                        "kibitz tune-policy: an unfinished last line of {} was cut off",
                        path.display()
                    );
                }
                writer
            }
            _ => {
                let path = self.log.as_deref().ok_or("--log is needed")?;
                LogWriter::create(path, &tuner.header).map_err(|e| format!("{}: {e}", path.display()))?
            }
        };
        let mut summaries = log.as_ref().map(TuningLog::summaries).unwrap_or_default();
        if let Some(s) = summaries.last() {
            println!("resuming after {s}");
        }
        let genome = tuner.genome.clone();
        let mut done = |record: &crate::tuning::GenerationRecord| {
            let summary = GenerationSummary::of(&genome, record);
            println!("{summary}");
            summaries.push(summary);
        };
        let cancel = AtomicBool::new(false);
        let population = tuner
            .run(log.as_ref(), &mut writer, self.generations, &mut done, &cancel)
            .map_err(|e| e.to_string())?;
        let last = summaries.last().ok_or("no generation was played")?;
        let (generations, mut best, mut verdict) = (last.generation, last.best.clone(), String::new());
        if self.trial > 0 {
            let record = self.trial(&tuner, &summaries, &mut writer, &cancel)?;
            best = record.chosen().map(|t| t.candidate.clone()).ok_or("the trial lost its choice")?;
            verdict = if record.met {
                " met the targets".into()
            } else {
                " (none met the targets: the nearest)".into()
            };
        }
        write_results(&tuner.genome, &best, &population, &self.out)?;
        let values: Vec<String> =
            tuner.genome.names().iter().zip(&best.values).map(|(n, v)| format!("{n}={v}")).collect();
        println!("generations {generations} best #{}{verdict} {}", best.id, values.join(" "));
        Ok(())
    }

    /// The closing trial of the candidates of a run that `summaries` sum up, printed and
    /// appended to its log.
    fn trial(
        &self,
        tuner: &Tuner,
        summaries: &[GenerationSummary],
        writer: &mut LogWriter,
        cancel: &AtomicBool,
    ) -> Result<TrialRecord, String> {
        let candidates = candidates(summaries, usize::from(self.candidates));
        let after = summaries.last().map_or(0, |s| s.generation);
        // The openings after those the generations used.
        let first_opening = after as usize * (tuner.header.population / 2);
        let games = self.trial as usize;
        let total = candidates.len() * games;
        println!("trial: {} candidates, {games} games each", candidates.len());
        // A line every tenth of the games.
        let mut progress = |ended: usize| {
            if ended.is_multiple_of((total / 10).max(1)) {
                eprintln!("trial: {ended} of {total} games");
            }
        };
        let trials = tuner
            .trial(&candidates, games, first_opening, &mut progress, cancel)
            .map_err(|e| e.to_string())?;
        for t in &trials {
            println!("{t}");
        }
        let record = TrialRecord::new(after, games, trials, &Targets::default())
            .ok_or("the trial had no candidate")?;
        writer.append_trial(&record).map_err(|e| format!("the log: {e}"))?;
        Ok(record)
    }
}

/// Writes BEST.json and the final population next to it, atomically.
fn write_results(genome: &Genome, best: &Member, population: &[Member], out: &Path) -> Result<(), String> {
    let best_json =
        serde_json::to_string_pretty(&genome.settings(&best.values)).map_err(|e| e.to_string())?;
    write_atomic(out, best_json.as_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    let written: Vec<Written<'_>> = population
        .iter()
        .map(|m| Written { id: m.id, origin: &m.origin, settings: genome.settings(&m.values) })
        .collect();
    let all = serde_json::to_string_pretty(&written).map_err(|e| e.to_string())?;
    let path = population_path(out);
    write_atomic(&path, all.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
}

/// `BEST.json` → `BEST.population.json`.
fn population_path(out: &Path) -> PathBuf {
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "best".into());
    out.with_file_name(format!("{stem}.population.json"))
}
