//! `kibitz book ...`: build, merge, annotate, export and probe opening books headlessly.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use super::progress::Progress;
use crate::{Book, BookBuilder, BookError, BookMode, BookSettings, BuildOptions, RandomType, move_code_text};

/// Usage of `kibitz book`.
pub const USAGE: &str = "\
Usage:
  kibitz book build PGN... OUT --plies N --min-games T [--win-pct P] [--polyglot] [--add]
  kibitz book merge A B OUT --min-games T
  kibitz book import-nags BOOK PGN
  kibitz book export-nags BOOK OUT.pgn
  kibitz book export BOOK OUT.bin
  kibitz book probe BOOK [FEN] [--mode terra|crafty] [--random 0|1] [--width W]
        [--book-limit PCT] [--min-book-games N] [--min-learned-games N] [--learned-limit PCT]
  kibitz book learn-export BOOK OUT.txt
  kibitz book learn-import BOOK IN.txt [--clear]
A BOOK is Kibitz's own format or a Polyglot .bin (read either way); books are written
atomically, and a damaged book is refused and left as it is.";

/// Runs `kibitz book <args>`.
#[must_use]
pub fn run(args: &[String]) -> ExitCode {
    match dispatch(args) {
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

/// Splits `--name value` options from positional arguments.
struct Args {
    positional: Vec<String>,
    options: Vec<(String, Option<String>)>,
}

/// Options that take no value.
const FLAGS: &[&str] = &["--polyglot", "--add", "--clear"];

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut positional = Vec::new();
        let mut options = Vec::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if a.starts_with("--") {
                if FLAGS.contains(&a.as_str()) {
                    options.push((a.clone(), None));
                } else {
                    let value = it.next().ok_or_else(|| format!("{a} needs a value"))?;
                    options.push((a.clone(), Some(value.clone())));
                }
            } else {
                positional.push(a.clone());
            }
        }
        Ok(Args { positional, options })
    }

    fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    fn value<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.options.iter().rev().find(|(n, _)| n == name) {
            Some((_, Some(v))) => v.parse().map(Some).map_err(|_| format!("bad value for {name}: {v}")),
            _ => Ok(None),
        }
    }
}

fn err(e: BookError, path: &Path) -> String {
    format!("{}: {e}", path.display())
}

fn open(path: &Path) -> Result<Book, String> {
    Book::open(path).map_err(|e| err(e, path))
}

fn dispatch(args: &[String]) -> Result<String, String> {
    let Some(command) = args.first() else { return Err(USAGE.to_string()) };
    let a = Args::parse(&args[1..])?;
    let p = |i: usize| a.positional.get(i).map(PathBuf::from).ok_or_else(|| USAGE.to_string());
    match command.as_str() {
        "build" => build(&a),
        "merge" => {
            let (first, second, out) = (p(0)?, p(1)?, p(2)?);
            let mut book = open(&first)?;
            book.merge(&open(&second)?, a.value("--min-games")?.unwrap_or(1));
            save(&book, &out, a.flag("--polyglot"))?;
            Ok(format!("merged: {} positions, {} moves -> {}", book.positions(), book.len(), out.display()))
        }
        "import-nags" => {
            let (path, pgn) = (p(0)?, p(1)?);
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
        "export-nags" => {
            let (path, out) = (p(0)?, p(1)?);
            let text = open(&path)?.export_nags();
            crate::write_atomic(&out, text.as_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
            Ok(format!("user values: {} lines -> {}", text.matches("[Event ").count(), out.display()))
        }
        "export" => {
            let (path, out) = (p(0)?, p(1)?);
            let book = open(&path)?;
            book.save_polyglot(&out).map_err(|e| err(e, &out))?;
            Ok(format!("exported: {} entries -> {}", book.to_polyglot().len() / 16, out.display()))
        }
        "probe" => probe(&a),
        "learn-export" => {
            let (path, out) = (p(0)?, p(1)?);
            let text = open(&path)?.export_learning();
            crate::write_atomic(&out, text.as_bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
            Ok(format!("learned: {} moves -> {}", text.lines().count() - 1, out.display()))
        }
        "learn-import" => {
            let (path, input) = (p(0)?, p(1)?);
            let mut book = open(&path)?;
            let text = std::fs::read_to_string(&input).map_err(|e| format!("{}: {e}", input.display()))?;
            let n =
                book.import_learning(&text, a.flag("--clear")).map_err(|e| e.in_file(&input).to_string())?;
            book.save(&path).map_err(|e| err(e, &path))?;
            Ok(format!("learned: {n} moves imported -> {}", path.display()))
        }
        "help" => Ok(USAGE.to_string()),
        other => Err(format!("unknown book command {other}\n{USAGE}")),
    }
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

fn build(a: &Args) -> Result<String, String> {
    if a.positional.len() < 2 {
        return Err(USAGE.to_string());
    }
    let (pgns, out) = a.positional.split_at(a.positional.len() - 1);
    let out = PathBuf::from(&out[0]);
    let options = BuildOptions {
        max_plies: a.value("--plies")?.unwrap_or(BuildOptions::default().max_plies),
        min_games: a.value("--min-games")?.unwrap_or(1),
        win_pct: a.value("--win-pct")?,
    };
    let started = Instant::now();
    let total: u64 = pgns.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let mut progress = Progress::stderr();
    let mut builder = BookBuilder::new(options);
    for pgn in pgns {
        let path = PathBuf::from(pgn);
        builder
            .add_pgn_file(&path, &mut |p| {
                progress.report(p.bytes, total, &format!("{} games, {} MB", p.games, p.bytes / 1_000_000));
                ControlFlow::Continue(())
            })
            .map_err(|e| err(e, &path))?;
    }
    progress.finish();
    let read = builder.progress();
    let mut book = if a.flag("--add") && out.exists() { open(&out)? } else { Book::new() };
    builder.finish_into(&mut book);
    save(&book, &out, a.flag("--polyglot")).map_err(|e| {
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

fn probe(a: &Args) -> Result<String, String> {
    let path = a.positional.first().map(PathBuf::from).ok_or_else(|| USAGE.to_string())?;
    let book = open(&path)?;
    let pos: Chess = match a.positional.get(1) {
        None => Chess::default(),
        Some(fen) => fen
            .parse::<Fen>()
            .map_err(|e| format!("bad FEN: {e}"))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| format!("illegal position: {e}"))?,
    };
    let mut s = BookSettings::default();
    if let Some(mode) = a.value::<String>("--mode")? {
        s.mode = match mode.as_str() {
            "terra" => BookMode::Terra,
            "crafty" => BookMode::Crafty,
            _ => return Err(format!("unknown mode {mode}")),
        };
    }
    if let Some(t) = a.value::<u8>("--random-type")? {
        s.random_type = match t {
            0 => RandomType::Frequency,
            1 => RandomType::LearnedOrFrequency,
            2 => RandomType::LearnedOrWinPct,
            _ => RandomType::Best,
        };
    }
    s.crafty_random = a.value("--random")?.unwrap_or(s.crafty_random);
    s.width = a.value("--width")?.unwrap_or(s.width);
    s.book_limit = a.value("--book-limit")?.unwrap_or(s.book_limit);
    s.min_book_games = a.value("--min-book-games")?.unwrap_or(s.min_book_games);
    s.min_learned_games = a.value("--min-learned-games")?.unwrap_or(s.min_learned_games);
    s.learned_limit = a.value("--learned-limit")?.unwrap_or(s.learned_limit);
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

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn opening_lines_build_a_polyglot_book() {
        // Every game of 2moves_v2.pgn ends in `*`.
        let dir = TempDir::new("lines");
        let out = dir.file("lines.bin");
        let outs = out.display().to_string();
        let summary = dispatch(&args(&["build", &data("openings/2moves_v2.pgn"), &outs, "--polyglot"]))
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
            let message = dispatch(&args(&list)).expect_err("an empty book is refused");
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
        let message = dispatch(&args(&["build", &pgns, &outs, "--plies", "1", "--polyglot"]))
            .expect_err("a Polyglot book of no entries is refused");
        assert!(message.contains("no moves to write"), "{message}");
        assert!(!out.exists());
    }
}
