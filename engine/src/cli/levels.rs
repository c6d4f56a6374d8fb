//! `kibitz levels`: measures the rating of every calibrated level (docs/STRENGTH.md). Each
//! level plays a match against Stockfish limited to the level's rating (`UCI_LimitStrength`,
//! `UCI_Elo`), or to its weakest rating for a level up to [`CHAIN_BELOW`] below it; a level
//! further down plays the next stronger level instead, and its rating is that level's
//! measured rating plus the difference. Then the weakest level
//! plays Stockfish at its weakest (it should lose more often than not), and full strength
//! plays Stockfish at a rating of its own. Every match is a `kibitz match` whose command is
//! printed before its games; the table comes last, in Markdown.

use std::process::ExitCode;

use clap::Args;

use super::matches::MatchArgs;
use crate::tournament::{WinDrawLoss, Z95, elo_from_score};
use crate::{CALIBRATION, Level};

/// How far below Stockfish's weakest rating a level still plays Stockfish (at its weakest)
/// rather than the next stronger level: near even, its score says more than a chained one.
pub const CHAIN_BELOW: u32 = 150;

/// `kibitz levels [OPTIONS]`.
#[derive(Debug, Args)]
#[command(after_help = "Prints each match's `kibitz match` command and games, then the table \
of the levels (rating measured with its 95% interval, games, opponent), the check of the weakest \
level and full strength's match; the last line is `levels measured N of M`.")]
pub struct LevelsArgs {
    /// Game pairs of each level's match (colours reversed on each opening).
    #[arg(long, value_name = "N", default_value_t = 15)]
    pairs: usize,
    /// The time control of every game.
    #[arg(long = "tc", value_name = "CONTROL", default_value = "10+0.1")]
    control: String,
    /// Games played at once in each match (`kibitz match --concurrency`); one per core at
    /// most, or the engines on the clock lose strength to each other.
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Stockfish, the anchor of the scale.
    #[arg(long, value_name = "PROGRAM", default_value = "/usr/games/stockfish")]
    stockfish: String,
    /// The weakest `UCI_Elo` that Stockfish accepts (Debian's 15.1: 1350); levels more than
    /// 150 below it are measured against the next stronger level.
    #[arg(long = "stockfish-min", value_name = "ELO", default_value_t = 1350)]
    stockfish_min: u32,
    /// The strongest `UCI_Elo` that Stockfish accepts.
    #[arg(long = "stockfish-max", value_name = "ELO", default_value_t = 2850)]
    stockfish_max: u32,
    /// The openings, drawn in a random order seeded with --seed.
    #[arg(long, value_name = "FILE", default_value = "data/openings/2moves_v2.pgn")]
    openings: String,
    /// Seeds the order of the openings.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Syzygy tablebases for TCEC's adjudication.
    #[arg(long = "tb", value_name = "FOLDER")]
    tablebases: Option<String>,
    /// Game pairs of the check: the weakest level against Stockfish at --stockfish-min (0:
    /// no check).
    #[arg(long = "check-pairs", value_name = "N", default_value_t = 5)]
    check_pairs: usize,
    /// Full strength plays Stockfish at this `UCI_Elo` (0: not measured).
    #[arg(long = "full-against", value_name = "ELO", default_value_t = 2400)]
    full_against: u32,
    /// Writes each match's games to its own PGN file in this folder, named after the two
    /// engines (`Kibitz1200-SF1350.pgn`); the files must not exist yet.
    #[arg(long = "pgn-dir", value_name = "FOLDER")]
    pgn_dir: Option<String>,
}

/// A rating on Stockfish's scale with the half-width of its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Rating {
    elo: f64,
    error: f64,
}

impl Rating {
    /// An exact rating: Stockfish's `UCI_Elo`, which defines the scale.
    fn anchor(elo: u32) -> Rating {
        Rating { elo: f64::from(elo), error: 0.0 }
    }

    /// The rating of a player who scored `record` against a player of this rating: the Elo
    /// difference of the score added. Its error is the score's (from the games' own spread)
    /// carried to Elo by the slope of the logistic curve at the score (the delta method), so
    /// that it stays finite short of a clean sweep and adds up along a chain: the two errors
    /// are combined as independent ones. `None` without games.
    fn plus(self, record: &WinDrawLoss) -> Option<Rating> {
        let games = f64::from(record.games());
        if games == 0.0 {
            return None;
        }
        let score = record.points() / games;
        let spread = |value: f64, count: u32| f64::from(count) * (value - score).powi(2);
        let variance =
            (spread(1.0, record.wins) + spread(0.5, record.draws) + spread(0.0, record.losses)) / games;
        let slope = 400.0 / (std::f64::consts::LN_10 * score * (1.0 - score));
        let error = Z95 * (variance / games).sqrt() * slope;
        Some(Rating { elo: self.elo + elo_from_score(score), error: error.hypot(self.error) })
    }
}

/// A number of the table: rounded, or `+inf` / `-inf`.
fn shown(x: f64) -> String {
    if x.is_finite() { format!("{:.0}", x) } else { format!("{}inf", if x > 0.0 { '+' } else { '-' }) }
}

/// Everything one run measured.
struct Table {
    /// The calibrated levels, weakest first.
    levels: Vec<Measured>,
    /// The weakest level against Stockfish at its weakest.
    check: Option<Measured>,
    /// Full strength against Stockfish.
    full: Option<Measured>,
}

/// One measured match.
struct Measured {
    level: Level,
    setting: Option<u32>,
    opponent: String,
    record: WinDrawLoss,
    rating: Option<Rating>,
}

impl Measured {
    fn row(&self) -> String {
        let r = &self.record;
        let score = if r.games() == 0 { 0.0 } else { 100.0 * r.points() / f64::from(r.games()) };
        let (elo, interval) = match self.rating {
            Some(x) if x.elo.is_finite() => (shown(x.elo), format!("± {}", shown(x.error))),
            Some(x) => (shown(x.elo), "-".to_owned()),
            None => ("-".to_owned(), "-".to_owned()),
        };
        let setting = self.setting.map_or("-".to_owned(), |s| s.to_string());
        format!(
            "| {} | {setting} | {} | {} | +{} ={} -{} | {score:.1}% | {elo} | {interval} |",
            self.level.label(),
            self.opponent,
            r.games(),
            r.wins,
            r.draws,
            r.losses
        )
    }
}

impl LevelsArgs {
    /// The engine words of Kibitz at `level`.
    fn kibitz(level: Level) -> String {
        let name = match level {
            Level::Elo(elo) => format!("Kibitz{elo}"),
            Level::Full => "KibitzFull".to_owned(),
        };
        let value = match level {
            Level::Elo(elo) => elo.to_string(),
            Level::Full => "full".to_owned(),
        };
        format!("name={name} cmd=builtin option.Hash=16 level={value}")
    }

    /// The engine words of Stockfish limited to `elo`.
    fn stockfish(&self, elo: u32) -> String {
        format!(
            "name=SF{elo} cmd={} proto=uci option.Threads=1 option.Hash=16 option.UCI_LimitStrength=true \
             option.UCI_Elo={elo}",
            self.stockfish
        )
    }

    /// The `kibitz match` words of `pairs` game pairs of `first` against `second` (engine
    /// words, each starting with its `name=`).
    fn match_words(&self, first: &str, second: &str, pairs: usize) -> Vec<String> {
        let mut words: Vec<String> = [
            "--format",
            "match",
            "--tc",
            &self.control,
            "--rounds",
            &pairs.to_string(),
            "--games",
            "2",
            "--openings",
            &self.openings,
            "--order",
            "random",
            "--seed",
            &self.seed.to_string(),
            "--adjudication",
            "tcec",
            "--concurrency",
            &self.concurrency.to_string(),
        ]
        .map(str::to_owned)
        .to_vec();
        if let Some(folder) = &self.tablebases {
            words.extend(["--tb".to_owned(), folder.clone()]);
        }
        if let Some(folder) = &self.pgn_dir {
            let name = |words: &str| {
                words.split_whitespace().next().unwrap_or("").trim_start_matches("name=").to_owned()
            };
            let file = std::path::Path::new(folder).join(format!("{}-{}.pgn", name(first), name(second)));
            words.extend(["--pgnout".to_owned(), file.display().to_string()]);
        }
        words.extend(["--engine".to_owned(), first.to_owned(), "--engine".to_owned(), second.to_owned()]);
        words
    }

    /// Plays `pairs` game pairs of `first` against `second` after printing the `kibitz match`
    /// command ([`LevelsArgs::match_words`]); the first engine's record.
    fn play(&self, first: &str, second: &str, pairs: usize) -> Result<WinDrawLoss, String> {
        let words = self.match_words(first, second, pairs);
        let quoted: Vec<String> =
            words.iter().map(|w| if w.contains(' ') { format!("\"{w}\"") } else { w.clone() }).collect();
        println!("\n$ kibitz match {}", quoted.join(" "));
        MatchArgs::from_words(&words)?.first_engine_record()
    }

    /// Measures the levels, strongest first; `Err` when a match cannot be played.
    fn measure(&self) -> Result<Table, String> {
        let mut levels: Vec<Measured> = Vec::new();
        for c in CALIBRATION.iter().rev() {
            let level = Level::Elo(c.elo);
            let stronger = levels.last();
            let (opponent, words, base) = match stronger {
                Some(above) if c.elo + CHAIN_BELOW < self.stockfish_min => (
                    above.level.label(),
                    Self::kibitz(above.level),
                    above.rating.filter(|r| r.elo.is_finite()),
                ),
                _ => {
                    let elo = c.elo.clamp(self.stockfish_min, self.stockfish_max);
                    (format!("Stockfish {elo}"), self.stockfish(elo), Some(Rating::anchor(elo)))
                }
            };
            let record = self.play(&Self::kibitz(level), &words, self.pairs)?;
            let rating = base.and_then(|b| b.plus(&record));
            levels.push(Measured { level, setting: Some(c.setting), opponent, record, rating });
        }
        let check = if self.check_pairs > 0 {
            let level = Level::weakest();
            let elo = self.stockfish_min;
            let record = self.play(&Self::kibitz(level), &self.stockfish(elo), self.check_pairs)?;
            let rating = Rating::anchor(elo).plus(&record);
            let setting = CALIBRATION.first().map(|c| c.setting);
            Some(Measured { level, setting, opponent: format!("Stockfish {elo}"), record, rating })
        } else {
            None
        };
        let full = if self.full_against > 0 {
            let elo = self.full_against.clamp(self.stockfish_min, self.stockfish_max);
            let record = self.play(&Self::kibitz(Level::Full), &self.stockfish(elo), self.pairs)?;
            let rating = Rating::anchor(elo).plus(&record);
            Some(Measured {
                level: Level::Full,
                setting: None,
                opponent: format!("Stockfish {elo}"),
                record,
                rating,
            })
        } else {
            None
        };
        levels.reverse();
        Ok(Table { levels, check, full })
    }

    /// Runs `kibitz levels ...`.
    #[must_use]
    pub fn run(self) -> ExitCode {
        let Table { levels, check, full } = match self.measure() {
            Ok(measured) => measured,
            Err(e) => {
                eprintln!("kibitz levels: {e}");
                return ExitCode::from(2);
            }
        };
        println!(
            "\nLevels at {}, {} game pairs each (Elo: Stockfish's UCI_Elo scale):\n",
            self.control, self.pairs
        );
        println!("| Level | Setting | Opponent | Games | +W =D -L | Score | Elo | 95% (±) |");
        println!("|---|---|---|---|---|---|---|---|");
        for measured in levels.iter().chain(&full) {
            println!("{}", measured.row());
        }
        if let Some(check) = &check {
            let r = &check.record;
            let loses = 2 * r.losses > r.games();
            println!("\nCheck: the weakest level against {}:\n", check.opponent);
            println!("{}", check.row());
            println!(
                "\nThe weakest level {} more often than not ({} of {} games lost).",
                if loses { "loses" } else { "does NOT lose" },
                r.losses,
                r.games()
            );
        }
        let measured = levels.iter().filter(|m| m.rating.is_some_and(|r| r.elo.is_finite())).count();
        println!("levels measured {measured} of {}", levels.len());
        ExitCode::SUCCESS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chained_rating_adds_the_difference_and_the_errors() {
        let even = WinDrawLoss { wins: 5, draws: 10, losses: 5 };
        let anchor = Rating::anchor(1350).plus(&even).expect("games");
        assert_eq!(anchor.elo, 1350.0);
        // 20 games at 50% with half of them drawn: the score's spread is sqrt(0.125 / 20).
        let expected = Z95 * (0.125f64 / 20.0).sqrt() * 1600.0 / std::f64::consts::LN_10;
        assert!((anchor.error - expected).abs() < 1e-9, "{anchor:?}");
        let worse = WinDrawLoss { wins: 3, draws: 0, losses: 27 };
        let chained = anchor.plus(&worse).expect("games");
        let alone = Rating::anchor(1350).plus(&worse).expect("games");
        assert_eq!(chained.elo, alone.elo, "the anchor's rating plus the difference");
        assert!((chained.error - alone.error.hypot(anchor.error)).abs() < 1e-9, "both errors count");
        assert!(alone.error.is_finite() && alone.elo < 1350.0 - 300.0, "{alone:?}");
        assert!(Rating::anchor(1350).plus(&WinDrawLoss::default()).is_none(), "no games");
        let swept = Rating::anchor(1350).plus(&WinDrawLoss { wins: 0, draws: 0, losses: 4 }).expect("games");
        assert_eq!(shown(swept.elo), "-inf");
    }

    #[test]
    fn the_level_words_make_a_level_match() {
        let words = [LevelsArgs::kibitz(Level::Elo(1200)), LevelsArgs::kibitz(Level::Full)];
        assert_eq!(words[0], "name=Kibitz1200 cmd=builtin option.Hash=16 level=1200");
        assert!(words[1].ends_with("level=full"));
        let args = MatchArgs::from_words(
            &["--engine", &words[0], "--engine", &words[1], "--tc", "1+0"].map(str::to_owned),
        );
        assert!(args.is_ok(), "{args:?}");
    }

    #[test]
    fn a_level_match_plays_as_many_games_at_once_as_asked() {
        let parsed = |extra: &[&str]| {
            let words = ["kibitz", "levels", "--tc", "1+0"].iter().chain(extra);
            match <super::super::Headless as clap::Parser>::try_parse_from(words).map(|h| h.command) {
                Ok(super::super::Command::Levels(args)) => args,
                other => panic!("levels options: {other:?}"),
            }
        };
        let (first, second) = (LevelsArgs::kibitz(Level::Elo(1200)), LevelsArgs::kibitz(Level::Full));
        for (extra, at_once) in [(&[][..], "1"), (&["--concurrency", "2"][..], "2")] {
            let words = parsed(extra).match_words(&first, &second, 3);
            let given = words.iter().position(|w| w == "--concurrency").and_then(|i| words.get(i + 1));
            assert_eq!(given.map(String::as_str), Some(at_once), "{words:?}");
            let args = MatchArgs::from_words(&words);
            assert!(args.is_ok(), "{args:?}");
        }
    }
}
