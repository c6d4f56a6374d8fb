//! `kibitz book ...`: build, merge, annotate, export and probe opening books headlessly.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

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

fn save(book: &Book, out: &Path, polyglot: bool) -> Result<(), String> {
    let result = if polyglot { book.save_polyglot(out) } else { book.save(out) };
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
    let mut builder = BookBuilder::new(options);
    for pgn in pgns {
        let path = PathBuf::from(pgn);
        builder
            .add_pgn_file(&path, &mut |p| {
                eprint!("\r{} games, {} MB", p.games, p.bytes / 1_000_000);
                ControlFlow::Continue(())
            })
            .map_err(|e| err(e, &path))?;
    }
    eprintln!();
    let games = builder.progress().games;
    let mut book = if a.flag("--add") && out.exists() { open(&out)? } else { Book::new() };
    builder.finish_into(&mut book);
    save(&book, &out, a.flag("--polyglot"))?;
    Ok(format!(
        "built: {} positions, {} moves from {games} games in {:.2} s -> {}",
        book.positions(),
        book.len(),
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
