//! `kibitz annotate IN.pgn OUT.pgn`: Crafty's `annotate` (and, with `--html`, `annotateh`) over
//! a whole PGN file, several games at once, each worker with its own engine. The output keeps
//! the input's order; the last line is
//! `games N moves M inaccuracies I mistakes K blunders B seconds S`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use shakmaty::Color;

use super::progress::Progress;
use crate::{
    AnnotateError, AnnotateLimit, AnnotateSettings, Annotated, EngineConfig, EngineHandle, ExternalEngine,
    GameRecord, MoveRange, Player, Side, Summary, annotate_game, annotation_report, read_games, write_atomic,
    write_pgn,
};

/// `kibitz annotate IN.pgn OUT.pgn [OPTIONS]`.
#[derive(Debug, Args)]
#[command(after_help = "The last line is `games N moves M inaccuracies I mistakes K blunders B seconds S`.")]
pub struct AnnotateArgs {
    /// The games to annotate.
    #[arg(value_name = "IN.pgn")]
    input: PathBuf,
    /// Where to write the annotated games.
    #[arg(value_name = "OUT.pgn")]
    output: PathBuf,
    /// Whose moves: white, black, both (Crafty's w, b, wb), or a player's name (part of the
    /// White or Black tag, any case).
    #[arg(long, value_name = "SIDE", default_value = "both")]
    side: Side,
    /// The move numbers: FIRST-LAST, or FIRST for the rest of the game.
    #[arg(long, value_name = "RANGE", default_value = "1-999")]
    moves: MoveRange,
    /// In pawns: comment a move when the best move scores more than this above it (negative:
    /// every move).
    #[arg(long, value_name = "PAWNS", default_value_t = 0.5, allow_negative_numbers = true)]
    margin: f64,
    /// Seconds per search. Each move takes one or two searches; a move whose loss falls near
    /// the blunder threshold gets a second, longer look paid from the time the game's other
    /// moves did not use, so a game never takes more than two searches per move.
    #[arg(long, value_name = "SECONDS", default_value_t = 1.0, conflicts_with = "depth")]
    time: f64,
    /// Search each position to this depth instead of for a time.
    #[arg(long, value_name = "PLIES")]
    depth: Option<u32>,
    /// How many best lines to search and show (Crafty's n).
    #[arg(long, value_name = "N", default_value_t = 1)]
    alternatives: u32,
    /// An external UCI or xboard engine (a path, or a command found on PATH or in /usr/games);
    /// Kibitz's own engine by default.
    #[arg(long, value_name = "NAME")]
    engine: Option<String>,
    /// How many games to annotate at once, each with its own engine (default: one per core).
    #[arg(long, value_name = "N")]
    workers: Option<usize>,
    /// Also writes Crafty's annotateh report: an HTML page with diagrams at the marked moves.
    #[arg(long, value_name = "REPORT.html")]
    html: Option<PathBuf>,
}

/// The program of `--engine NAME`: NAME itself when it is a path, else the first match on PATH
/// or in Debian's game folders.
fn find_program(name: &str) -> PathBuf {
    let given = PathBuf::from(name);
    if given.components().count() > 1 {
        return given;
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.extend([PathBuf::from("/usr/games"), PathBuf::from("/usr/local/games")]);
    dirs.into_iter().map(|dir| dir.join(name)).find(|p| p.is_file()).unwrap_or(given)
}

/// A worker's engine.
fn player(engine: Option<&str>) -> Box<dyn Player> {
    match engine {
        Some(name) => {
            let mut config = EngineConfig::from_path(find_program(name));
            config.name = name.to_owned();
            Box::new(ExternalEngine::spawn(config, || {}))
        }
        None => Box::new(EngineHandle::spawn(|| {})),
    }
}

impl AnnotateArgs {
    fn settings(&self) -> Result<AnnotateSettings, String> {
        let limit = match self.depth {
            Some(0) => return Err("--depth must be at least 1".into()),
            Some(depth) => AnnotateLimit::Depth(depth),
            None if self.time.is_finite() && self.time > 0.0 && self.time < 1e6 => {
                AnnotateLimit::Time(Duration::from_secs_f64(self.time))
            }
            None => return Err(format!("--time {} is not a number of seconds above 0", self.time)),
        };
        if !self.margin.is_finite() || self.margin.abs() > 1000.0 {
            return Err(format!("--margin {} is not a number of pawns", self.margin));
        }
        Ok(AnnotateSettings {
            side: self.side.clone(),
            moves: self.moves,
            margin: (self.margin * 100.0).round() as i32,
            limit,
            alternatives: self.alternatives.clamp(1, 16),
        })
    }

    /// Runs `kibitz annotate ...`.
    #[must_use]
    pub fn run(self) -> ExitCode {
        let started = Instant::now();
        let settings = match self.settings() {
            Ok(settings) => settings,
            Err(e) => {
                eprintln!("kibitz annotate: {e}");
                return ExitCode::from(2);
            }
        };
        let games = match read_input(&self.input) {
            Ok(games) => games,
            Err(e) => {
                eprintln!("kibitz annotate: {e}");
                return ExitCode::FAILURE;
            }
        };
        // A name that does not pick a side is refused before any search.
        for (i, game) in games.iter().enumerate() {
            if let Err(e) = settings.side.colors(game) {
                eprintln!("kibitz annotate: {}: game {}: {e}", self.input.display(), i + 1);
                return ExitCode::FAILURE;
            }
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let workers = self.workers.unwrap_or(cores).clamp(1, 64).min(games.len().max(1));
        let annotated = match annotate_all(&games, &settings, self.engine.as_deref(), workers) {
            Ok(annotated) => annotated,
            Err((game, e)) => {
                eprintln!("kibitz annotate: game {game}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let pgn: Vec<String> = annotated.iter().map(|a| write_pgn(&a.game)).collect();
        if let Err(e) = write_atomic(&self.output, pgn.join("\n").as_bytes()) {
            eprintln!("kibitz annotate: cannot write {}: {e}", self.output.display());
            return ExitCode::FAILURE;
        }
        if let Some(html) = &self.html
            && let Err(e) = write_atomic(html, annotation_report(&annotated).as_bytes())
        {
            eprintln!("kibitz annotate: cannot write {}: {e}", html.display());
            return ExitCode::FAILURE;
        }
        let mut total = Summary::default();
        for a in &annotated {
            for color in Color::ALL {
                total.add(a.summary.get(color));
            }
        }
        println!(
            "games {} moves {} inaccuracies {} mistakes {} blunders {} seconds {:.1}",
            annotated.len(),
            total.moves,
            total.inaccuracies,
            total.mistakes,
            total.blunders,
            started.elapsed().as_secs_f64()
        );
        ExitCode::SUCCESS
    }
}

/// The games of a PGN file; a game that breaks is kept up to its last legal move (with a
/// warning), one with no move at all is dropped.
fn read_input(path: &Path) -> Result<Vec<GameRecord>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut games = Vec::new();
    for (i, read) in read_games(&bytes).enumerate() {
        match read {
            Ok(game) => games.push(game),
            Err(e) => {
                eprintln!("kibitz annotate: {}: game {}: {e}", path.display(), i + 1);
                if let Some(partial) = e.partial.filter(|g| !g.is_empty()) {
                    games.push(*partial);
                }
            }
        }
    }
    if games.is_empty() {
        return Err(format!("{}: no game to annotate", path.display()));
    }
    Ok(games)
}

/// Annotates every game with `workers` threads, each with its own engine, showing the
/// progress on stderr. The first error stops the others; it comes with its game's number.
fn annotate_all(
    games: &[GameRecord],
    settings: &AnnotateSettings,
    engine: Option<&str>,
    workers: usize,
) -> Result<Vec<Annotated>, (usize, AnnotateError)> {
    let next = AtomicUsize::new(0);
    let moves_done = AtomicUsize::new(0);
    let games_done = AtomicUsize::new(0);
    let running = AtomicUsize::new(workers);
    let failed = AtomicBool::new(false);
    let results: Vec<Mutex<Option<Result<Annotated, AnnotateError>>>> =
        games.iter().map(|_| Mutex::new(None)).collect();
    let total_moves: usize = games.iter().map(|g| selected_moves(g, settings)).sum();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let player = player(engine);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= games.len() || failed.load(Ordering::SeqCst) {
                        break;
                    }
                    let mut seen = 0;
                    let outcome = annotate_game(player.as_ref(), &games[i], settings, &mut |p| {
                        moves_done.fetch_add(p.done.saturating_sub(seen), Ordering::SeqCst);
                        seen = seen.max(p.done);
                        if failed.load(Ordering::SeqCst) {
                            std::ops::ControlFlow::Break(())
                        } else {
                            std::ops::ControlFlow::Continue(())
                        }
                    });
                    if outcome.is_err() {
                        failed.store(true, Ordering::SeqCst);
                    }
                    games_done.fetch_add(1, Ordering::SeqCst);
                    if let Ok(mut slot) = results[i].lock() {
                        *slot = Some(outcome);
                    }
                }
                running.fetch_sub(1, Ordering::SeqCst);
            });
        }
        let mut progress = Progress::stderr();
        while running.load(Ordering::SeqCst) > 0 {
            let (moves, done) = (moves_done.load(Ordering::SeqCst), games_done.load(Ordering::SeqCst));
            let detail = format!("{done}/{} games, {moves}/{total_moves} moves", games.len());
            progress.report(moves as u64, total_moves as u64, &detail);
            std::thread::sleep(Duration::from_millis(100));
        }
        progress.finish();
    });
    let mut annotated = Vec::with_capacity(games.len());
    let mut first_error = None;
    for (i, slot) in results.into_iter().enumerate() {
        match slot.into_inner().ok().flatten() {
            Some(Ok(a)) => annotated.push(a),
            // The other workers' cancels follow the first real error.
            Some(Err(AnnotateError::Cancelled)) | None => {}
            Some(Err(e)) => {
                first_error.get_or_insert((i + 1, e));
            }
        }
    }
    match first_error {
        Some(error) => Err(error),
        None => Ok(annotated),
    }
}

/// How many moves of a game the settings pick.
fn selected_moves(game: &GameRecord, settings: &AnnotateSettings) -> usize {
    let Ok(colors) = settings.side.colors(game) else { return 0 };
    (0..game.len())
        .filter(|&ply| {
            let before = game.position_at(ply);
            use shakmaty::Position;
            *colors.get(before.turn()) && settings.moves.contains(before.fullmoves().get())
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: AnnotateArgs,
    }

    fn parse(args: &[&str]) -> Result<AnnotateArgs, String> {
        let all = ["annotate", "in.pgn", "out.pgn"].into_iter().chain(args.iter().copied());
        clap::Parser::try_parse_from(all).map(|cli: Cli| cli.args).map_err(|e| e.to_string())
    }

    #[test]
    fn options_become_crafty_settings() {
        let defaults = parse(&[]).expect("defaults").settings().expect("valid");
        assert_eq!(
            defaults,
            AnnotateSettings { moves: "1-999".parse().expect("range"), ..Default::default() }
        );
        let args = parse(&[
            "--side",
            "Karpov",
            "--moves",
            "20-33",
            "--margin",
            "-1",
            "--depth",
            "9",
            "--alternatives",
            "3",
        ])
        .expect("valid");
        let s = args.settings().expect("valid");
        assert_eq!(s.side, Side::Player("Karpov".into()));
        assert_eq!((s.moves.first, s.moves.last, s.margin), (20, 33, -100));
        assert_eq!((s.limit, s.alternatives), (AnnotateLimit::Depth(9), 3));
        assert!(parse(&["--moves", "9-1"]).expect_err("backwards").contains("not a move range"));
        assert!(parse(&["--time", "1", "--depth", "3"]).is_err(), "one limit");
        assert!(parse(&["--time", "0"]).expect("parses").settings().is_err());
        assert!(parse(&["--time", "nan"]).expect("parses").settings().is_err());
    }

    #[test]
    fn programs_are_found_on_path_or_in_the_game_folders() {
        assert_eq!(find_program("./engine"), PathBuf::from("./engine"));
        assert_eq!(find_program("no-such-engine-anywhere"), PathBuf::from("no-such-engine-anywhere"));
        let sh = find_program("sh");
        assert!(sh.is_absolute() && sh.is_file(), "{}", sh.display());
    }
}
