//! `kibitz selfplay`: engine-against-itself games with the draw and resign policy on, for
//! measuring the policy (how often it resigns, offers, accepts, and whether it resigned a
//! game that was not lost).

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use clap::{Args, ValueEnum};
use shakmaty::ByColor;

use crate::conductor::GameEvent;
use crate::policy::{Parameter, PolicyFileError, PolicySettings, Rules, UnknownParameter};
use crate::runner::{GameSetup, play_builtin};
use crate::{GameRecord, SyzygyTables, TimeControl, write_pgn};

/// `kibitz selfplay [OPTIONS]`.
#[derive(Debug, Args)]
#[command(
    after_help = "The last line is `games N resignations R offers O accepted A white W black B draws D`."
)]
pub struct SelfplayArgs {
    /// How many games to play.
    #[arg(long, value_name = "N", default_value_t = 20)]
    games: usize,
    /// The time control: Crafty's notation (`level 0 5 3`, `time 40/90/sd/30`, `st 1`, `sd 8`)
    /// or PGN's (`10+0.1`, `40/5400:1800`).
    #[arg(long = "tc", value_name = "CONTROL", default_value = "5+0.05", value_parser = TimeControl::parse)]
    control: TimeControl,
    /// An EPD file of opening positions, played in turn; the initial position by default.
    #[arg(long, value_name = "EPD")]
    openings: Option<PathBuf>,
    /// Draw and resign settings from a JSON file (the app's, or a tuned BEST.json); --rules
    /// and --set change them further.
    #[arg(long, value_name = "FILE.json")]
    policy: Option<PathBuf>,
    /// The draw and resign rules (Terra's by default).
    #[arg(long, value_enum)]
    rules: Option<RulesName>,
    /// Sets one of the policy's numbers (contempt, terra.resign_score, dead_band.width...;
    /// the list is in the error for an unknown name); may be repeated.
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_parameter)]
    set: Vec<PolicyNumber>,
    /// How many games to play at once (1 to 16).
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Writes the games to this PGN file.
    #[arg(long, value_name = "OUT.pgn")]
    pgn: Option<PathBuf>,
    /// Writes every remark of the policy (offers, resignations...) to this TSV file.
    #[arg(long, value_name = "OUT.tsv")]
    remarks: Option<PathBuf>,
    /// A folder of Syzygy tablebases both sides probe (the engine's `SyzygyPath`).
    #[arg(long = "tb", value_name = "FOLDER")]
    tablebases: Option<PathBuf>,
}

/// The rule sets by their names on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RulesName {
    /// Terra's rules.
    Terra,
    /// The design note's dead band and running sum.
    DeadBand,
}

/// `--set NAME=VALUE`: a policy number within its range.
#[derive(Clone, Debug)]
struct PolicyNumber {
    parameter: &'static Parameter,
    value: i64,
}

/// A `--set` that names no parameter, gives no whole number, or one out of range.
#[derive(Clone, Debug, PartialEq, Eq)]
enum SetError {
    /// No `=`.
    NoValue,
    /// The name is not a parameter's.
    Unknown(UnknownParameter),
    /// The value is not a whole number.
    NotANumber(String),
    /// The value is out of the parameter's range.
    OutOfRange { name: &'static str, min: i64, max: i64 },
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetError::NoValue => write!(f, "expected NAME=VALUE"),
            SetError::Unknown(e) => write!(f, "{e}"),
            SetError::NotANumber(value) => write!(f, "{value} is not a whole number"),
            SetError::OutOfRange { name, min, max } => write!(f, "{name} takes {min} to {max}"),
        }
    }
}

impl std::error::Error for SetError {}

fn parse_parameter(text: &str) -> Result<PolicyNumber, SetError> {
    let (name, value) = text.split_once('=').ok_or(SetError::NoValue)?;
    let parameter = PolicySettings::parameter(name.trim())
        .ok_or_else(|| SetError::Unknown(UnknownParameter(name.trim().to_owned())))?;
    let value: i64 = value.trim().parse().map_err(|_| SetError::NotANumber(value.to_owned()))?;
    if !parameter.range().contains(&value) {
        return Err(SetError::OutOfRange { name: parameter.name, min: parameter.min, max: parameter.max });
    }
    Ok(PolicyNumber { parameter, value })
}

/// The opening positions of an EPD file (the FEN before the first `;` of each line).
fn read_openings(path: &Path) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let fen = line.split(';').next().unwrap_or("");
        let game = GameRecord::from_fen(fen).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        openings.push(game);
    }
    Ok(openings)
}

impl SelfplayArgs {
    /// The policy of the file, with the rules and numbers given.
    fn policy(&self) -> Result<PolicySettings, PolicyFileError> {
        let mut policy = match &self.policy {
            Some(path) => PolicySettings::load(path)?,
            None => PolicySettings::default(),
        };
        match self.rules {
            Some(RulesName::Terra) => policy.rules = Rules::Terra,
            Some(RulesName::DeadBand) => policy.rules = Rules::DeadBand,
            None => {}
        }
        for number in &self.set {
            number.parameter.set(&mut policy, number.value);
        }
        Ok(policy)
    }

    /// Runs `kibitz selfplay ...`: one line per game, then the totals.
    #[must_use]
    pub fn run(self) -> ExitCode {
        let mut openings = match self.openings.as_deref().map(read_openings).transpose() {
            Ok(openings) => openings.unwrap_or_default(),
            Err(e) => {
                eprintln!("kibitz selfplay: {e}");
                return ExitCode::from(2);
            }
        };
        if openings.is_empty() {
            openings.push(GameRecord::new());
        }
        let policy = match self.policy() {
            Ok(policy) => policy,
            Err(e) => {
                eprintln!("kibitz selfplay: {e}");
                return ExitCode::from(2);
            }
        };
        let tablebases = match self.tablebases.as_deref().map(SyzygyTables::open).transpose() {
            Ok(tables) => tables.map(Arc::new),
            Err(e) => {
                eprintln!("kibitz selfplay: --tb: {e}");
                return ExitCode::from(2);
            }
        };
        let o = Options {
            games: self.games,
            control: self.control.clone(),
            openings,
            policy,
            concurrency: self.concurrency.clamp(1, 16),
            pgn: self.pgn,
            remarks: self.remarks,
            tablebases,
        };
        o.play()
    }
}

/// What the games are played with.
struct Options {
    games: usize,
    control: TimeControl,
    openings: Vec<GameRecord>,
    policy: PolicySettings,
    concurrency: usize,
    pgn: Option<PathBuf>,
    remarks: Option<PathBuf>,
    tablebases: Option<Arc<SyzygyTables>>,
}

impl Options {
    /// Plays the games, writes the files asked for and prints the totals.
    fn play(self) -> ExitCode {
        let o = self;
        let next = AtomicUsize::new(0);
        let results = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..o.concurrency {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        if i >= o.games {
                            break;
                        }
                        let setup = GameSetup {
                            opening: o.openings[i % o.openings.len()].clone(),
                            controls: ByColor::new_with(|_| o.control.clone()),
                            policy: o.policy.clone(),
                            max_plies: 400,
                            tablebases: o.tablebases.clone(),
                        };
                        let mut played = play_builtin(&setup);
                        played.game.set_tag("Event", "Kibitz self-play");
                        played.game.set_tag("Round", &(i + 1).to_string());
                        let ending = played.game.ending().map(|e| e.to_string()).unwrap_or_default();
                        println!(
                            "game {} {} {ending} after {} plies",
                            i + 1,
                            played.game.result(),
                            played.game.len()
                        );
                        if let Ok(mut all) = results.lock() {
                            all.push((i, played));
                        }
                    }
                });
            }
        });
        let mut results = results.into_inner().unwrap_or_default();
        results.sort_by_key(|(i, _)| *i);

        let mut pgn = String::new();
        let mut remarks = String::from("game\tside\tply\tfen\tremark\n");
        let (mut resignations, mut offers, mut accepted) = (0, 0, 0);
        let (mut white, mut black, mut draws) = (0, 0, 0);
        for (i, played) in &results {
            pgn.push_str(&write_pgn(&played.game));
            pgn.push('\n');
            match played.game.result() {
                "1-0" => white += 1,
                "0-1" => black += 1,
                _ => draws += 1,
            }
            resignations += played.count(|e| matches!(e, GameEvent::Resigned { .. }));
            accepted += played.count(|e| matches!(e, GameEvent::DrawAccepted { .. }));
            offers += played.count(|e| matches!(e, GameEvent::DrawOffered { .. }));
            for r in &played.remarks {
                let side = match r.event.side() {
                    Some(shakmaty::Color::White) => "white",
                    Some(shakmaty::Color::Black) => "black",
                    None => "-",
                };
                remarks.push_str(&format!("{}\t{side}\t{}\t{}\t{}\n", i + 1, r.ply, r.fen, r.event));
            }
        }
        for (path, text) in [(&o.pgn, &pgn), (&o.remarks, &remarks)] {
            if let Some(path) = path
                && let Err(e) = crate::write_atomic(path, text.as_bytes())
            {
                eprintln!("kibitz selfplay: cannot write {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
        let _ = std::io::stdout().flush();
        println!(
            "games {} resignations {resignations} offers {offers} accepted {accepted} white {white} black {black} draws {draws}",
            results.len()
        );
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `kibitz selfplay` alone.
    #[derive(Debug, clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: SelfplayArgs,
    }

    /// Parses `kibitz selfplay ARGS`, or says why not (clap's message).
    fn parse(args: &[&str]) -> Result<SelfplayArgs, String> {
        let all = std::iter::once("selfplay").chain(args.iter().copied());
        clap::Parser::try_parse_from(all).map(|cli: Cli| cli.args).map_err(|e| e.to_string())
    }

    fn words(text: &str) -> Vec<&str> {
        text.split_whitespace().collect()
    }

    #[test]
    fn bad_options_are_explained() {
        assert!(parse(&words("--games x")).is_err());
        let banana = parse(&["--tc", "banana"]).expect_err("not a time control");
        assert!(banana.contains("'banana' for '--tc <CONTROL>'"), "{banana}");
        assert!(parse(&words("--rules nice")).expect_err("no such rules").contains("dead-band"));
        assert!(parse(&words("--bogus")).expect_err("no such option").contains("--bogus"));
        let crafty = parse(&["--tc", "level 0 5 3"]).expect("Crafty's notation");
        assert_eq!(crafty.control.to_pgn(), "300+3");
        let o = parse(&words("--games 3 --tc 10+0.1 --rules dead-band")).expect("valid");
        assert_eq!(
            (o.games, o.policy().expect("no file").rules, o.control.to_pgn().as_str()),
            (3, Rules::DeadBand, "10+0.1")
        );
        let defaults = parse(&[]).expect("no options");
        assert_eq!((defaults.games, defaults.control.to_pgn().as_str()), (20, "5+0.05"));
        assert_eq!(defaults.policy().expect("no file"), PolicySettings::default());
    }

    #[test]
    fn policy_numbers_are_set_by_name_within_their_ranges() {
        let o = parse(&words("--set contempt=-20 --set dead_band.width=40")).expect("valid");
        let policy = o.policy().expect("no file");
        assert_eq!((policy.contempt, policy.dead_band.width), (-20, 40));
        assert!(parse(&words("--set contempt=100000")).expect_err("out of range").contains("-500 to 500"));
        assert!(parse(&words("--set courage=3")).expect_err("unknown").contains("terra.resign_score"));
        assert!(parse(&words("--set contempt")).is_err());
        assert!(parse(&words("--set contempt=x")).is_err());
    }
}
