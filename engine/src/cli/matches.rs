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

use super::match_printer::Printer;
use crate::SyzygyTables;
use crate::conductor::{Adjudicator, MoveLimit};
use crate::matches::{
    Format, KnockoutPlan, MatchError, MatchSetup, OpeningSource, Order, Tally, engine_spec, read_suite,
    run_knockout, unique_names,
};
use crate::runner::Patience;
use crate::tournament::{AdjudicationError, AdjudicationRules, Sprt, SprtModel, WinDrawLoss};
use crate::{Book, TimeControl};

/// `kibitz match [OPTIONS]`.
#[derive(Debug, Args)]
#[command(after_help = "Engine words: name=NAME cmd=PROGRAM|builtin proto=uci|xboard arg=ARG \
option.NAME=VALUE tc=CONTROL st=SECONDS depth=PLIES nodes=N level=ELO|full \
book=FILE (level and book: the built-in engine only). An engine without tc= plays at --tc; depth= \
and nodes= limit each search within it, or alone.\n\nOne line per finished game, `Finished game N \
(White vs Black): RESULT {how}`, then the results table (with --format gauntlet, also the first \
engine's W/D/L, score and Elo with its 95% interval against each opponent; with a round robin of \
more than two, the cross table); the last line is `games PLAYED of SCHEDULED`. A knockout \
(--format knockout) ends with the bracket, a line per duel, and `Winner: NAME; third: NAME`; its \
games go to the one --pgnout, each tagged Round \"round.duel.game\" (1.3.2: round 1, its third \
duel, the duel's second game; the final is duel 1 of the last round, the match for third place \
duel 2). A stopped run (Ctrl-C, a crash: the games under way are lost) is finished with --resume \
and the same options and --pgnout. Exit code 2 for a setup that cannot be played, 1 when the PGN \
cannot be written.")]
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

/// `kibitz match`'s options alone, to read them from words (`kibitz levels` plays matches).
#[derive(Debug, clap::Parser)]
#[command(name = "kibitz match")]
struct MatchWords {
    #[command(flatten)]
    args: MatchArgs,
}

impl MatchArgs {
    /// Reads `kibitz match`'s options from `words` (without `kibitz match`).
    pub(super) fn from_words(words: &[String]) -> Result<MatchArgs, String> {
        let all = std::iter::once("match").chain(words.iter().map(String::as_str));
        clap::Parser::try_parse_from(all).map(|w: MatchWords| w.args).map_err(|e| e.to_string())
    }

    /// Plays these options' games (not a knockout), printing each as `kibitz match` does, and
    /// returns the first engine's record.
    pub(super) fn first_engine_record(&self) -> Result<WinDrawLoss, String> {
        let (setup, _) = self.setup()?;
        let names: Vec<String> = setup.engines.iter().map(|e| e.name.clone()).collect();
        let opponents = vec![Tally::new(None); names.len()];
        let mut printer = Printer { names, tally: Tally::new(None), opponents };
        crate::matches::run(&setup, &mut printer, &AtomicBool::new(false)).map_err(|e| e.to_string())?;
        Ok(printer.tally.games())
    }

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
        let opponents = vec![Tally::new(None); names.len()];
        let mut printer = Printer { names, tally: Tally::new(sprt), opponents };
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
                if self.format == FormatName::Gauntlet {
                    print!("{}", printer.against_each());
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<MatchArgs, String> {
        MatchArgs::from_words(&args.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
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
