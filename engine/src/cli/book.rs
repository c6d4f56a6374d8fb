//! `kibitz book ...`: build, merge, export and probe opening books headlessly, and import and
//! export their user values as NAGs.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use clap::{Args, Subcommand, ValueEnum};

use super::progress::Progress;
use crate::{Book, BookBuilder, BookError, BookMode, BookSettings, BuildOptions, RandomType, move_code_text};

/// `kibitz book ...`.
#[derive(Debug, Subcommand)]
#[command(after_help = "A BOOK is Kibitz's own format or a Polyglot .bin (read either way); books are \
written atomically, and a damaged book is refused and left as it is.")]
pub enum BookCommand {
    /// Builds a book from PGN files.
    Build(BuildArgs),
    /// Merges two books into a third.
    Merge {
        /// The first book.
        first: PathBuf,
        /// The second book.
        second: PathBuf,
        /// The merged book.
        out: PathBuf,
        /// Moves played in fewer games are dropped, unless they carry a user value.
        #[arg(long, value_name = "T", default_value_t = 1)]
        min_games: u32,
        /// Write a Polyglot .bin instead of Kibitz's format.
        #[arg(long)]
        polyglot: bool,
    },
    /// Imports or exports the user values of a book as annotated PGN (NAGs such as `!` and `?`).
    #[command(subcommand)]
    Nags(NagsCommand),
    /// Writes a book as a Polyglot .bin.
    Export {
        /// The book.
        book: PathBuf,
        /// The Polyglot book to write.
        #[arg(value_name = "OUT.bin")]
        out: PathBuf,
    },
    /// Lists the book moves of a position, each with its probability or why it is excluded.
    Probe(ProbeArgs),
    /// Sets a move's user value (or NAG, or play percentage) in a book, adding the move if needed.
    Set(super::book_edit::SetArgs),
    /// Removes a move and the positions only it leads to from a book.
    Remove(super::book_edit::RemoveArgs),
    /// Writes what a book learned as text (Crafty's book.lrn).
    LearnExport {
        /// The book.
        book: PathBuf,
        /// The text file to write.
        #[arg(value_name = "OUT.txt")]
        out: PathBuf,
    },
    /// Reads learned results from text into a book.
    LearnImport {
        /// The book, updated in place.
        book: PathBuf,
        /// The text file to read.
        #[arg(value_name = "IN.txt")]
        input: PathBuf,
        /// Forget what the book learned before.
        #[arg(long)]
        clear: bool,
    },
}

/// `kibitz book nags ...`: user values as NAGs (`!!` = 100 ... `??` = -100).
#[derive(Debug, Subcommand)]
pub enum NagsCommand {
    /// Sets user values from an annotated PGN (Terra's ownscore.pgn, Crafty's start.pgn).
    Import {
        /// The book, updated in place (created if it does not exist).
        book: PathBuf,
        /// The annotated PGN.
        pgn: PathBuf,
    },
    /// Writes the user values of a book as an annotated PGN, one game per line.
    Export {
        /// The book.
        book: PathBuf,
        /// The PGN file to write.
        #[arg(value_name = "OUT.pgn")]
        out: PathBuf,
    },
}

/// `kibitz book build PGN... OUT`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The PGN files to read.
    #[arg(value_name = "PGN", required = true)]
    pgns: Vec<PathBuf>,
    /// The book to write.
    out: PathBuf,
    /// How many plies of each game go into the book.
    #[arg(long, value_name = "N", default_value_t = BuildOptions::default().max_plies)]
    plies: usize,
    /// The fewest games a move needs to stay in the book.
    #[arg(long, value_name = "T", default_value_t = 1)]
    min_games: u32,
    /// Crafty's rule: a move stays only if its wins are at least P% of its losses.
    #[arg(long, value_name = "P")]
    win_pct: Option<u32>,
    /// Write a Polyglot .bin instead of Kibitz's format.
    #[arg(long)]
    polyglot: bool,
    /// Add to the book OUT if it exists instead of replacing it.
    #[arg(long)]
    add: bool,
}

/// `kibitz book probe BOOK [FEN]` with the book settings of Terra's and Crafty's rules.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The book.
    book: PathBuf,
    /// The position (quoted); the initial position by default.
    fen: Option<String>,
    /// Terra's or Crafty's rules.
    #[arg(long, value_enum)]
    mode: Option<Mode>,
    /// Terra's RandomType: 0 frequency, 1 learned or frequency, 2 learned or win%, 3 best.
    #[arg(long, value_name = "0-3", value_parser = clap::value_parser!(u8).range(0..=3))]
    random_type: Option<u8>,
    /// Crafty's `book random`: 0 searches among the book moves, 1 picks at random.
    #[arg(long, value_name = "0|1")]
    random: Option<u8>,
    /// Crafty's `book width`: how many of the best moves stay candidates.
    #[arg(long, value_name = "W")]
    width: Option<usize>,
    /// Terra's BookLimit: the lowest fixed win% a move may have.
    #[arg(long, value_name = "PCT")]
    book_limit: Option<f64>,
    /// Terra's MinBookGames: the fewest fixed games a move may have.
    #[arg(long, value_name = "N")]
    min_book_games: Option<u32>,
    /// Terra's MinTerraGames: the fewest learned games for the learned win% to be used.
    #[arg(long, value_name = "N")]
    min_learned_games: Option<u32>,
    /// Terra's TerraLim: a move whose learned win% is below this is avoided.
    #[arg(long, value_name = "PCT")]
    learned_limit: Option<f64>,
}

/// The rules `probe` chooses by.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Mode {
    /// Terra's rules.
    Terra,
    /// Crafty's rules.
    Crafty,
}

impl BookCommand {
    /// Runs `kibitz book ...`: the summary on stdout, or the error on stderr.
    #[must_use]
    pub fn run(self) -> ExitCode {
        match self.execute() {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(message) => {
                eprintln!("kibitz book: {message}");
                ExitCode::FAILURE
            }
        }
    }

    fn execute(self) -> Result<String, String> {
        match self {
            BookCommand::Build(args) => build(&args),
            BookCommand::Merge { first, second, out, min_games, polyglot } => {
                let mut book = open(&first)?;
                book.merge(&open(&second)?, min_games);
                save(&book, &out, polyglot)?;
                Ok(format!(
                    "merged: {} positions, {} moves -> {}",
                    book.positions(),
                    book.len(),
                    out.display()
                ))
            }
            BookCommand::Nags(NagsCommand::Import { book: path, pgn }) => {
                let mut book = if path.exists() { open(&path)? } else { Book::new() };
                let file = std::fs::File::open(&pgn).map_err(|e| format!("{}: {e}", pgn.display()))?;
                let report = book.import_nags(std::io::BufReader::new(file)).map_err(|e| err(e, &pgn))?;
                book.save(&path).map_err(|e| err(e, &path))?;
                Ok(format!(
                    "user values: {} moves set ({} new) from {} lines -> {}",
                    report.moves,
                    report.added,
                    report.games,
                    path.display()
                ))
            }
            BookCommand::Nags(NagsCommand::Export { book, out }) => {
                let text = open(&book)?.export_nags();
                crate::write_atomic(&out, text.as_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
                Ok(format!("user values: {} lines -> {}", text.matches("[Event ").count(), out.display()))
            }
            BookCommand::Export { book: path, out } => {
                let book = open(&path)?;
                book.save_polyglot(&out).map_err(|e| err(e, &out))?;
                Ok(format!("exported: {} entries -> {}", book.to_polyglot().len() / 16, out.display()))
            }
            BookCommand::Probe(args) => probe(&args),
            BookCommand::Set(args) => args.execute(),
            BookCommand::Remove(args) => args.execute(),
            BookCommand::LearnExport { book, out } => {
                let text = open(&book)?.export_learning();
                crate::write_atomic(&out, text.as_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
                Ok(format!("learned: {} moves -> {}", text.lines().count() - 1, out.display()))
            }
            BookCommand::LearnImport { book: path, input, clear } => {
                let mut book = open(&path)?;
                let text =
                    std::fs::read_to_string(&input).map_err(|e| format!("{}: {e}", input.display()))?;
                let n = book.import_learning(&text, clear).map_err(|e| e.in_file(&input).to_string())?;
                book.save(&path).map_err(|e| err(e, &path))?;
                Ok(format!("learned: {n} moves imported -> {}", path.display()))
            }
        }
    }
}

fn err(e: BookError, path: &Path) -> String {
    format!("{}: {e}", path.display())
}

fn open(path: &Path) -> Result<Book, String> {
    Book::open(path).map_err(|e| err(e, path))
}

/// Writes a built or merged book; an empty one is refused (nothing is written).
fn save(book: &Book, out: &Path, polyglot: bool) -> Result<(), String> {
    let result = if book.is_empty() {
        Err(BookError::Empty)
    } else if polyglot {
        book.save_polyglot(out)
    } else {
        book.save(out)
    };
    result.map_err(|e| err(e, out))
}

fn build(a: &BuildArgs) -> Result<String, String> {
    let (pgns, out) = (&a.pgns, &a.out);
    let options = BuildOptions { max_plies: a.plies, min_games: a.min_games, win_pct: a.win_pct };
    let started = Instant::now();
    let total: u64 = pgns.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let mut progress = Progress::stderr();
    let mut builder = BookBuilder::new(options);
    for path in pgns {
        builder
            .add_pgn_file(path, &mut |p| {
                progress.report(p.bytes, total, &format!("{} games, {} MB", p.games, p.bytes / 1_000_000));
                ControlFlow::Continue(())
            })
            .map_err(|e| err(e, path))?;
    }
    progress.finish();
    let read = builder.progress();
    let mut book = if a.add && out.exists() { open(out)? } else { Book::new() };
    builder.finish_into(&mut book);
    save(&book, out, a.polyglot).map_err(|e| {
        let win_pct = options.win_pct.map_or(String::new(), |p| format!(", --win-pct {p}"));
        format!(
            "{e} ({} games read, {} skipped; --min-games {}{win_pct})",
            read.games, read.skipped, options.min_games
        )
    })?;
    let unfinished = match read.unfinished {
        0 => String::new(),
        n => format!(" ({n} without a result, weighted as draws like polyglot make-book)"),
    };
    Ok(format!(
        "built: {} positions, {} moves from {} games{unfinished} in {:.2} s -> {}",
        book.positions(),
        book.len(),
        read.games,
        started.elapsed().as_secs_f64(),
        out.display()
    ))
}

fn probe(a: &ProbeArgs) -> Result<String, String> {
    let book = open(&a.book)?;
    let pos: Chess = match &a.fen {
        None => Chess::default(),
        Some(fen) => fen
            .parse::<Fen>()
            .map_err(|e| format!("bad FEN: {e}"))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("illegal position: {e}"))?,
    };
    let mut s = BookSettings::default();
    if let Some(mode) = a.mode {
        s.mode = match mode {
            Mode::Terra => BookMode::Terra,
            Mode::Crafty => BookMode::Crafty,
        };
    }
    if let Some(t) = a.random_type {
        s.random_type = match t {
            0 => RandomType::Frequency,
            1 => RandomType::LearnedOrFrequency,
            2 => RandomType::LearnedOrWinPct,
            _ => RandomType::Best,
        };
    }
    s.crafty_random = a.random.unwrap_or(s.crafty_random);
    s.width = a.width.unwrap_or(s.width);
    s.book_limit = a.book_limit.unwrap_or(s.book_limit);
    s.min_book_games = a.min_book_games.unwrap_or(s.min_book_games);
    s.min_learned_games = a.min_learned_games.unwrap_or(s.min_learned_games);
    s.learned_limit = a.learned_limit.unwrap_or(s.learned_limit);
    let candidates = book.explain(&pos, &s);
    for c in &candidates {
        let e = &c.entry;
        let f = e.fixed;
        let user = e.user.map_or("-".to_string(), |v| v.to_string());
        let chance = match c.excluded {
            Some(why) => format!("excluded: {why}"),
            None => format!("prob {:.2}%", c.probability * 100.0),
        };
        println!(
            "{:<6} weight {:>5}  games {:>6}  W/D/L {}/{}/{}  learned {}  user {user}  {chance}",
            move_code_text(e.mv),
            e.weight,
            f.games,
            f.wins,
            f.draws,
            f.losses,
            e.learned.games,
        );
    }
    Ok(format!("probe: {} book moves", candidates.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameRecord;

    /// A file of the repository's test data.
    fn data(path: &str) -> String {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data").join(path);
        assert!(path.exists(), "{} is missing from the repository's data/", path.display());
        path.display().to_string()
    }

    /// A fresh temporary folder of the test's own, removed (and only it) when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(test: &str) -> TempDir {
            let dir = std::env::temp_dir().join(format!("kibitz-cli-book-{test}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("a temporary folder");
            TempDir(dir)
        }

        fn file(&self, name: &str) -> PathBuf {
            self.0.join(name)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// `kibitz book` alone.
    #[derive(Debug, clap::Parser)]
    struct Cli {
        #[command(subcommand)]
        command: BookCommand,
    }

    /// Parses and runs `kibitz book ARGS`: the summary line or the error.
    fn dispatch(args: &[&str]) -> Result<String, String> {
        let all = std::iter::once("book").chain(args.iter().copied());
        clap::Parser::try_parse_from(all).map(|cli: Cli| cli.command).expect("valid arguments").execute()
    }

    #[test]
    fn opening_lines_build_a_polyglot_book() {
        // Every game of 2moves_v2.pgn ends in `*`.
        let dir = TempDir::new("lines");
        let out = dir.file("lines.bin");
        let outs = out.display().to_string();
        let summary = dispatch(&["build", &data("openings/2moves_v2.pgn"), &outs, "--polyglot"])
            .expect("the book is built");
        assert!(
            summary.contains(
                "from 12092 games (12092 without a result, weighted as draws like polyglot make-book)"
            ),
            "{summary}"
        );
        let bytes = std::fs::read(&out).expect("the book is written");
        assert!(!bytes.is_empty() && bytes.len().is_multiple_of(16), "{} bytes", bytes.len());
        let book = Book::open(&out).expect("the book reads back");
        let moves = book.legal_moves(GameRecord::new().position());
        let best = moves.iter().max_by_key(|(_, e)| e.weight).expect("moves at the start");
        assert_eq!(move_code_text(best.1.mv), "e2e4");
    }

    #[test]
    fn an_empty_book_is_an_error_and_nothing_is_written() {
        let lines = data("openings/2moves_v2.pgn");
        for format in [None, Some("--polyglot")] {
            let dir = TempDir::new("empty");
            let out = dir.file("empty.bin");
            let outs = out.display().to_string();
            let mut list = vec!["build", &lines, &outs, "--min-games", "1000000"];
            list.extend(format);
            let message = dispatch(&list).expect_err("an empty book is refused");
            assert!(message.contains("no moves to write"), "{message}");
            assert!(message.contains("12092 games read"), "{message}");
            assert!(!out.exists(), "{format:?}: nothing is written");
            assert_eq!(std::fs::read_dir(&dir.0).expect("listed").count(), 0, "nor a temporary file");
        }
        // Only lost games: the Kibitz book keeps the move, a Polyglot book would have no entry.
        let dir = TempDir::new("lost");
        let (pgn, out) = (dir.file("lost.pgn"), dir.file("lost.bin"));
        std::fs::write(&pgn, "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n").expect("written");
        let (pgns, outs) = (pgn.display().to_string(), out.display().to_string());
        let message = dispatch(&["build", &pgns, &outs, "--plies", "1", "--polyglot"])
            .expect_err("a Polyglot book of no entries is refused");
        assert!(message.contains("no moves to write"), "{message}");
        assert!(!out.exists());
    }
}
