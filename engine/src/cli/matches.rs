//! `kibitz match`: engine matches and tournaments in the manner of cutechess-cli and
//! fastchess. Engines are given as `key=value` words:
//!
//! ```text
//! kibitz match --engine cmd=builtin name=K2 depth=2 --engine cmd=/usr/games/stockfish proto=uci \
//!     option.Hash=16 --each tc=10+0.1 --openings data/openings/2moves_v2.pgn --order random \
//!     --rounds 50 --games 2 --concurrency 2 --pgnout games.pgn
//! ```

use std::fmt;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::conductor::{Adjudicator, MoveLimit};
use crate::matches::{
    EngineSpec, FinishedGame, Flow, Format, KnockoutPlan, MatchError, MatchSetup, OpeningSource, Order,
    Program, Standings, Tally, Watcher, read_suite, run_knockout, unique_names,
};
use crate::runner::Patience;
use crate::tournament::{AdjudicationError, AdjudicationRules, Sprt, SprtModel, SyzygyTables};
use crate::{Book, EngineConfig, Level, Protocol, TimeControl};

/// `kibitz match [OPTIONS]`.
#[derive(Debug, Args)]
#[command(after_help = "Engine words: name=NAME cmd=PROGRAM|builtin proto=uci|xboard arg=ARG \
option.NAME=VALUE tc=CONTROL st=SECONDS depth=PLIES nodes=N level=beginner|casual|club|strong \
book=FILE (level and book: the built-in engine only). An engine without tc= plays at --tc; depth= \
and nodes= limit each search within it, or alone.\n\nOne line per finished game, `Finished game N \
(White vs Black): RESULT {how}`, then the results table; the last line is `games PLAYED of \
SCHEDULED`. A knockout (--format knockout) ends with the bracket, a line per duel, and `Winner: \
NAME; third: NAME`; its games go to the one --pgnout, each tagged Round \"round.duel.game\" (1.3.2: \
round 1, its third duel, the duel's second game; the final is duel 1 of the last round, the match \
for third place duel 2). A stopped run (Ctrl-C, a crash: the games under way are lost) is \
finished with --resume and the same options and --pgnout. Exit code 2 for a setup that cannot \
be played, 1 when the PGN cannot be written.")]
pub struct MatchArgs {
    /// An engine, as `key=value` words in one argument (`--engine "cmd=builtin depth=2"`);
    /// repeat --engine for each engine.
    #[arg(long = "engine", value_name = "\"KEY=VALUE ...\"", required = true)]
    engines: Vec<String>,
    /// Words applied to every engine before its own (`--each "tc=5+0.05 option.Hash=16"`).
    #[arg(long, value_name = "\"KEY=VALUE ...\"")]
    each: Vec<String>,
    /// The time control of engines without their own tc=: PGN's notation (`10+0.1`,
    /// `40/60`) or Crafty's (`st 1`, `sd 8`).
    #[arg(long = "tc", value_name = "CONTROL", value_parser = TimeControl::parse)]
    control: Option<TimeControl>,
    /// An opening suite: EPD (positions) or PGN (each game's moves from its start). A
    /// knockout takes one a phase, books A to E of the TCEC Cup: repeat --openings.
    #[arg(long, value_name = "FILE", conflicts_with = "book")]
    openings: Vec<PathBuf>,
    /// The order of the suite's openings [default: sequential; random in a knockout].
    #[arg(long, value_enum)]
    order: Option<OrderName>,
    /// Seeds the random order and the book's lines.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Plays only the first N plies of each PGN opening.
    #[arg(long, value_name = "N")]
    plies: Option<usize>,
    /// Draws each opening from this book (Kibitz's .kbook or Polyglot .bin), each move at
    /// random weighted by the book.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
    /// How many plies deep the book's openings go.
    #[arg(long = "book-depth", value_name = "PLIES", default_value_t = 8, requires = "book")]
    book_depth: usize,
    /// How the engines meet: match (two engines), gauntlet (the first against each other),
    /// round robin (all against all).
    #[arg(long, value_enum, default_value_t = FormatName::Roundrobin)]
    format: FormatName,
    /// Rounds: in each, every encounter plays --games games.
    #[arg(long, value_name = "N", default_value_t = 1)]
    rounds: usize,
    /// Games per encounter per round (2: a game pair, colours reversed on one opening).
    #[arg(long, value_name = "N", default_value_t = 2)]
    games: usize,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// The arbiter's rules: `tcec` (draw from move 35 after 5 moves each within ±0.08, win
    /// after 4 moves each at +10.00 agreed, tablebases), `fishtest`, or `none`, with any
    /// threshold changed after a comma: `tcec,draw.moves=8,win=off`. Draws by threefold
    /// repetition and the fifty-move rule always end a game.
    #[arg(long, value_name = "RULES", default_value = "none", value_parser = parse_rules)]
    adjudication: AdjudicationRules,
    /// A folder of Syzygy tablebases, for the rules' tablebase adjudication.
    #[arg(long = "tb", value_name = "FOLDER")]
    tablebases: Option<PathBuf>,
    /// Adjudicates a game still going after N plies as a draw.
    #[arg(long = "max-plies", value_name = "N")]
    max_plies: Option<usize>,
    /// An SPRT on the first engine's game pairs: `elo0=0 elo1=5 alpha=0.05 beta=0.05`
    /// (normalized Elo, as fastchess and fishtest). The run stops once it decides.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., value_parser = parse_sprt_words)]
    sprt: Vec<Vec<(SprtKey, f64)>>,
    /// Appends every game to this PGN file as it ends (a knockout's too, all in this file).
    #[arg(long = "pgnout", value_name = "FILE")]
    pgn_out: Option<PathBuf>,
    /// Finishes the run whose games --pgnout holds: plays only the missing games.
    #[arg(long, requires = "pgn_out")]
    resume: bool,
    /// The PGN Event tag.
    #[arg(long, value_name = "NAME", default_value = "Kibitz match")]
    event: String,
    /// How far past zero a clock may run before the flag falls (process latency).
    #[arg(long = "timemargin", value_name = "MS", default_value_t = 0)]
    margin: u64,
    /// How long an engine may take to answer a ping (a new one: its handshake) before a game.
    #[arg(long = "ping-timeout", value_name = "SECONDS", default_value_t = 10.0)]
    ping_timeout: f64,
    /// How long a search without a clock (depth=, nodes=) may run before it is stopped.
    #[arg(long = "move-timeout", value_name = "SECONDS", default_value_t = 300.0)]
    move_timeout: f64,
}

/// `--order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OrderName {
    /// As in the file.
    Sequential,
    /// Shuffled with --seed.
    Random,
}

/// `--format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FormatName {
    /// Two engines.
    Match,
    /// The first engine against each other.
    Gauntlet,
    /// Every engine against every other.
    Roundrobin,
    /// The TCEC Cup knockout, engines seeded in the order given: each duel --rounds game
    /// pairs in full (TCEC plays 4); a round's tied duels then play tiebreak pairs until one
    /// is decisive, shorter from game 33; a match for third place. Round i plays from the
    /// i-th --openings (the last one from the semi-finals on, and for tiebreaks after four
    /// pairs). Round tags are round.duel.game.
    Knockout,
}

/// `--adjudication`: a preset and its changes.
fn parse_rules(text: &str) -> Result<AdjudicationRules, AdjudicationError> {
    text.parse()
}

/// A word of `--sprt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtKey {
    /// The null hypothesis's Elo.
    Elo0,
    /// The alternative hypothesis's Elo.
    Elo1,
    /// The false positive rate.
    Alpha,
    /// The false negative rate.
    Beta,
}

/// The SPRT asked for, for the statistics to run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSettings {
    /// H0: the Elo difference is `elo0`.
    pub elo0: f64,
    /// H1: the Elo difference is `elo1`.
    pub elo1: f64,
    /// The false positive rate.
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
}

/// A malformed `--sprt` word.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SprtWordError(String);

impl fmt::Display for SprtWordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected elo0=, elo1=, alpha= or beta= with a number, not '{}'", self.0)
    }
}

impl std::error::Error for SprtWordError {}

/// One or more `--sprt` words (the words may come quoted together).
fn parse_sprt_words(text: &str) -> Result<Vec<(SprtKey, f64)>, SprtWordError> {
    text.split_whitespace().map(parse_sprt_word).collect()
}

fn parse_sprt_word(word: &str) -> Result<(SprtKey, f64), SprtWordError> {
    let bad = || SprtWordError(word.to_owned());
    let (key, value) = word.split_once('=').ok_or_else(bad)?;
    let key = match key {
        "elo0" => SprtKey::Elo0,
        "elo1" => SprtKey::Elo1,
        "alpha" => SprtKey::Alpha,
        "beta" => SprtKey::Beta,
        _ => return Err(bad()),
    };
    let value: f64 = value.parse().ok().filter(|v: &f64| v.is_finite()).ok_or_else(bad)?;
    let probability = matches!(key, SprtKey::Alpha | SprtKey::Beta);
    if probability && !(value > 0.0 && value < 1.0) {
        return Err(bad());
    }
    Ok((key, value))
}

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
/// `default_tc` being --tc.
fn engine_spec(words: &[String], default_tc: Option<&TimeControl>) -> Result<EngineSpec, SpecError> {
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
                let found = Level::ALL.into_iter().find(|l| l.label().eq_ignore_ascii_case(value));
                level = Some(found.ok_or_else(|| bad("beginner, casual, club or strong"))?);
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
        Program::Builtin { book: book.transpose()? }
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
    let mut limits = level.map(Level::limits).unwrap_or_default();
    limits.depth = depth.or(limits.depth);
    limits.nodes = nodes.or(limits.nodes);
    let limited = limits.depth.is_some() || limits.nodes.is_some() || limits.movetime.is_some();
    let control = match (st, tc.or_else(|| default_tc.cloned())) {
        (Some(time), _) => TimeControl::MoveTime(time),
        (None, Some(control)) => control,
        (None, None) if limited => TimeControl::Infinite,
        (None, None) => return Err(SpecError::NoTimeControl(name)),
    };
    Ok(EngineSpec { name, program, options, control, limits, policy: None })
}

impl MatchArgs {
    /// The SPRT asked for, when --sprt was given (elo0 0, elo1 5, alpha and beta 0.05 by
    /// default).
    #[must_use]
    pub fn sprt(&self) -> Option<SprtSettings> {
        if self.sprt.is_empty() {
            return None;
        }
        let mut s = SprtSettings { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        for &(key, value) in self.sprt.iter().flatten() {
            match key {
                SprtKey::Elo0 => s.elo0 = value,
                SprtKey::Elo1 => s.elo1 = value,
                SprtKey::Alpha => s.alpha = value,
                SprtKey::Beta => s.beta = value,
            }
        }
        Some(s)
    }

    /// The arbiter's rules asked for by --adjudication.
    #[must_use]
    pub fn adjudication(&self) -> &AdjudicationRules {
        &self.adjudication
    }

    /// The suites of --openings, in order (random by default in a knockout: TCEC's rule
    /// 4.i), each shuffled with its own seed.
    fn suites(&self) -> Result<Vec<OpeningSource>, String> {
        let knockout = self.format == FormatName::Knockout;
        let random = self.order.map_or(knockout, |o| o == OrderName::Random);
        let order = if random { Order::Random } else { Order::Sequential };
        let mut suites = Vec::new();
        for (i, path) in self.openings.iter().enumerate() {
            let suite = read_suite(path, self.plies).map_err(|e| e.to_string())?;
            suites.push(OpeningSource::suite(suite, order, self.seed.wrapping_add(i as u64)));
        }
        Ok(suites)
    }

    /// The match these options describe, and a knockout's books by phase (the suites of
    /// --openings when there are several).
    fn setup(&self) -> Result<(MatchSetup, Vec<OpeningSource>), String> {
        let mut engines = Vec::new();
        for words in &self.engines {
            let all: Vec<String> = self.each.iter().chain([words]).cloned().collect();
            engines.push(engine_spec(&all, self.control.as_ref()).map_err(|e| e.to_string())?);
        }
        unique_names(&mut engines);
        let format = match self.format {
            FormatName::Match => Format::Match,
            FormatName::Gauntlet => Format::Gauntlet,
            // A knockout is played duel by duel, each a match (see `run`).
            FormatName::Roundrobin | FormatName::Knockout => Format::RoundRobin,
        };
        let suites = self.suites()?;
        let openings = match (suites.first(), &self.book) {
            (Some(suite), _) if suites.len() == 1 || self.format == FormatName::Knockout => suite.clone(),
            (Some(_), _) => return Err("several --openings are for a knockout (one a round)".to_owned()),
            (None, Some(path)) => {
                let book = Book::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
                OpeningSource::Book { book: Arc::new(book), plies: self.book_depth, seed: self.seed }
            }
            (None, None) => OpeningSource::Start,
        };
        let seconds = |s: f64, what: &str| {
            Duration::try_from_secs_f64(s)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or(format!("{what} must be a positive number of seconds"))
        };
        let mut setup = MatchSetup::new(engines, format);
        setup.rounds = self.rounds;
        setup.games = self.games;
        setup.openings = openings;
        setup.concurrency = self.concurrency.clamp(1, 64);
        let tables = match &self.tablebases {
            Some(folder) => Some(Arc::new(SyzygyTables::open(folder).map_err(|e| format!("--tb: {e}"))?)),
            None => None,
        };
        let rules = self.adjudication.clone();
        let plies = self.max_plies.unwrap_or(usize::MAX);
        setup.adjudication = Arc::new(move || {
            Box::new(rules.arbiter(tables.clone()).with(Box::new(MoveLimit { plies })))
                as Box<dyn Adjudicator>
        });
        setup.patience = Patience {
            margin: Duration::from_millis(self.margin),
            untimed: Some(seconds(self.move_timeout, "--move-timeout")?),
            ..Patience::default()
        };
        setup.ping_timeout = seconds(self.ping_timeout, "--ping-timeout")?;
        setup.event.clone_from(&self.event);
        setup.pgn_out.clone_from(&self.pgn_out);
        setup.resume = self.resume;
        let books = if suites.len() > 1 { suites } else { Vec::new() };
        Ok((setup, books))
    }

    /// Runs `kibitz match ...`.
    #[must_use]
    pub fn run(self) -> ExitCode {
        let (setup, books) = match self.setup() {
            Ok(setup) => setup,
            Err(e) => {
                eprintln!("kibitz match: {e}");
                return ExitCode::from(2);
            }
        };
        let sprt =
            match self.sprt().map(|s| Sprt::new(s.elo0, s.elo1, s.alpha, s.beta, SprtModel::Normalized)) {
                Some(Err(e)) => {
                    eprintln!("kibitz match: --sprt: {e}");
                    return ExitCode::from(2);
                }
                Some(Ok(sprt)) => Some(sprt),
                None => None,
            };
        let names: Vec<String> = setup.engines.iter().map(|e| e.name.clone()).collect();
        let mut printer = Printer { names, tally: Tally::new(sprt) };
        let cancel = AtomicBool::new(false);
        if self.format == FormatName::Knockout {
            if self.sprt().is_some() {
                eprintln!("kibitz match: a knockout runs no SPRT");
                return ExitCode::from(2);
            }
            let plan = KnockoutPlan { pairs: self.rounds.max(1), books };
            return match run_knockout(&setup, &plan, &mut printer, &cancel) {
                Ok(report) => {
                    println!();
                    print!("{report}");
                    let name = |i: Option<usize>| i.map_or("-".to_owned(), |i| printer.names[i].clone());
                    println!("Winner: {}; third: {}", name(report.champion), name(report.third));
                    if !report.complete {
                        println!("The knockout stopped before its end: finish it with --resume");
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("kibitz match: {e}");
                    if matches!(e, MatchError::Pgn(_)) { ExitCode::FAILURE } else { ExitCode::from(2) }
                }
            };
        }
        match crate::matches::run(&setup, &mut printer, &cancel) {
            Ok(report) => {
                let scheduled =
                    setup.rounds * setup.games * setup.format.encounters(setup.engines.len()).len();
                println!();
                print!("{}", report.standings);
                if setup.engines.len() > 2 && setup.format == Format::RoundRobin {
                    println!();
                    print!("{}", report.standings.cross_table());
                }
                println!("{} against the others:", printer.names[0]);
                println!("{}", printer.tally);
                println!("{}", report.overhead);
                println!("games {} of {scheduled}", report.games.len());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("kibitz match: {e}");
                // A PGN that cannot be written fails the run; anything else is a setup the
                // user can correct.
                if matches!(e, MatchError::Pgn(_)) { ExitCode::FAILURE } else { ExitCode::from(2) }
            }
        }
    }
}

/// Prints each game as it ends, and for two engines the running score, as cutechess does.
struct Printer {
    names: Vec<String>,
    /// The first engine's results as statistics, and the SPRT when one runs.
    tally: Tally,
}

impl Printer {
    fn score_line(&self, standings: &Standings) {
        if let [a, b] = standings.engines.as_slice() {
            let games = a.games();
            let score = if games == 0 { 0.0 } else { a.points() / f64::from(games) };
            println!(
                "Score of {} vs {}: {} - {} - {}  [{score:.3}] {games}",
                a.name, b.name, a.wins, b.wins, a.draws
            );
        }
    }
}

impl Watcher for Printer {
    fn resumed(&mut self, games: &[FinishedGame], standings: &Standings) {
        println!("Resuming: {} games already in the PGN", games.len());
        for game in games {
            self.tally.add(&game.fixture, game.outcome);
        }
        self.score_line(standings);
    }

    fn finished(&mut self, game: &FinishedGame, standings: &Standings) -> Flow {
        println!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            game.fixture.number,
            game.white,
            game.black,
            game.result(),
            game.verdict
        );
        self.score_line(standings);
        self.tally.add(&game.fixture, game.outcome);
        if let Some(status) = self.tally.sprt() {
            println!("SPRT: LLR {:.2} ({:.2}, {:.2})", status.llr, status.lower, status.upper);
        }
        if self.tally.decided() {
            println!("SPRT decided: the games under way finish, no new one starts");
            return Flow::Stop;
        }
        Flow::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: MatchArgs,
    }

    fn parse(args: &[&str]) -> Result<MatchArgs, String> {
        let all = std::iter::once("match").chain(args.iter().copied());
        clap::Parser::try_parse_from(all).map(|cli: Cli| cli.args).map_err(|e| e.to_string())
    }

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

        let k =
            engine_spec(&["cmd=builtin name=\"Kibitz two\" level=casual".into()], None).expect("built-in");
        assert_eq!(
            (k.name.as_str(), k.limits.depth, &k.control),
            ("Kibitz two", Some(3), &TimeControl::Infinite)
        );
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

    #[test]
    fn the_command_line_is_read_as_cutechess_writes_it() {
        let args = parse(&[
            "--engine",
            "cmd=builtin depth=1",
            "--engine",
            "cmd=builtin depth=2",
            "--each",
            "option.Hash=8",
            "--rounds",
            "3",
            "--sprt",
            "elo0=0",
            "elo1=10",
            "alpha=0.1",
            "--adjudication",
            "tcec",
        ])
        .expect("valid");
        assert_eq!(args.engines.len(), 2);
        assert_eq!(args.sprt(), Some(SprtSettings { elo0: 0.0, elo1: 10.0, alpha: 0.1, beta: 0.05 }));
        assert_eq!(args.adjudication(), &AdjudicationRules::tcec());
        assert!(parse(&["--engine", "cmd=x", "--adjudication", "tcec,draw.moves=8"]).is_ok());
        assert!(parse(&["--engine", "cmd=x", "--adjudication", "lenient"]).is_err(), "no such preset");
        let (setup, books) = args.setup().expect("a match");
        assert!(books.is_empty());
        let names: Vec<&str> = setup.engines.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Kibitz", "Kibitz 2"]);
        assert!(setup.engines.iter().all(|e| e.options == [("Hash".to_owned(), "8".to_owned())]));
        assert_eq!((setup.rounds, setup.games, setup.format), (3, 2, Format::RoundRobin));

        assert!(parse(&[]).is_err(), "an engine is required");
        assert!(parse(&["--engine", "cmd=x", "--resume"]).expect_err("no pgn").contains("--pgnout"));
        assert!(parse(&["--engine", "cmd=x", "--sprt", "alpha=2"]).is_err());
        assert!(parse(&["--engine", "cmd=x", "--openings", "a.epd", "--book", "b.bin"]).is_err());
        let missing = parse(&[
            "--engine",
            "cmd=builtin",
            "--engine",
            "cmd=builtin",
            "--tc",
            "sd 1",
            "--openings",
            "/no/such.epd",
        ])
        .expect("parsed")
        .setup()
        .map(|_| ())
        .expect_err("unreadable suite");
        assert!(missing.contains("/no/such.epd"), "{missing}");
    }

    #[test]
    fn a_knockout_takes_a_book_a_round_in_random_order() {
        let wac = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/epd/wac.epd");
        let lines = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/openings/2moves_v2.pgn");
        let base = ["--engine", "cmd=builtin depth=1", "--engine", "cmd=builtin depth=2"];
        let two = [&base[..], &["--openings", wac, "--openings", lines]].concat();
        let refused = parse(&two).expect("parsed").setup().map(|_| ()).expect_err("a round robin");
        assert!(refused.contains("knockout"), "{refused}");
        let knockout = [&two[..], &["--format", "knockout"]].concat();
        let (setup, books) = parse(&knockout).expect("parsed").setup().expect("a knockout");
        assert_eq!(books.len(), 2);
        let first = |source: &OpeningSource| source.opening(0).name.unwrap_or_default();
        assert!(first(&books[0]).starts_with("WAC.") && first(&setup.openings).starts_with("WAC."));
        assert_ne!(first(&books[0]), "WAC.001", "shuffled: TCEC's rule 4.i");
        let in_order = [&knockout[..], &["--order", "sequential"]].concat();
        let (_, books) = parse(&in_order).expect("parsed").setup().expect("a knockout");
        assert_eq!(first(&books[0]), "WAC.001");
    }
}
