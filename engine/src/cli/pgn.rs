//! `kibitz pgn stats FILE...`: read every game and replay every move, main lines and
//! variations, printing where games broke (on stderr) and ending with
//! `games N moves M errors E`. `kibitz pgn index FILE` builds the game
//! list of a file the way the app opens it, ending with `games N seconds S`.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Subcommand;

use super::progress::Progress;
use crate::{GameIndex, PgnError, PgnStats, pgn_stats_with};

/// How many errors of a file `kibitz pgn stats` prints (on stderr) before counting the rest.
const MAX_ERRORS_SHOWN: usize = 20;

/// `kibitz pgn ...`.
#[derive(Debug, Subcommand)]
pub enum PgnCommand {
    /// Replays every game, main lines and variations; last line: games N moves M errors E.
    Stats {
        /// The PGN files.
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
    },
    /// Builds the game list of a file as the app does; last line: games N seconds S.
    Index {
        /// The PGN file.
        file: PathBuf,
    },
}

impl PgnCommand {
    /// Runs `kibitz pgn ...`.
    #[must_use]
    pub fn run(self) -> ExitCode {
        match self {
            PgnCommand::Stats { files } => stats(&files),
            PgnCommand::Index { file } => index(&file),
        }
    }
}

fn stats(files: &[PathBuf]) -> ExitCode {
    let started = Instant::now();
    let mut total = PgnStats::default();
    let bytes: u64 = files.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
    let mut progress = Progress::stderr();
    let mut read = 0;
    for path in files {
        let mut shown = 0;
        let mut show = |e: &PgnError| {
            shown += 1;
            if shown <= MAX_ERRORS_SHOWN {
                eprintln!("{}: {e}", path.display());
            }
        };
        let counted = File::open(path).and_then(|file| {
            let reporting = Reporting { inner: file, read: &mut read, total: bytes, progress: &mut progress };
            pgn_stats_with(reporting, &mut show)
        });
        if shown > MAX_ERRORS_SHOWN {
            eprintln!("{}: {} more errors", path.display(), shown - MAX_ERRORS_SHOWN);
        }
        match counted {
            Ok(stats) => {
                total.games += stats.games;
                total.moves += stats.moves;
                total.errors += stats.errors;
            }
            Err(e) => {
                progress.finish();
                eprintln!("{}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    progress.report(read, bytes, &format!("{} MB", read / 1_000_000));
    progress.finish();
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    eprintln!(
        "{:.3} s, {:.0} games/s, {:.1} MB/s",
        seconds,
        total.games as f64 / seconds,
        bytes as f64 / 1e6 / seconds
    );
    println!("{total}");
    ExitCode::SUCCESS
}

fn index(path: &Path) -> ExitCode {
    let started = Instant::now();
    let mut progress = Progress::stderr();
    let built = GameIndex::build(path, &mut |p| {
        progress.report(p.bytes, p.total_bytes, &format!("{} games, {} MB", p.games, p.bytes / 1_000_000));
        std::ops::ControlFlow::Continue(())
    });
    progress.finish();
    match built {
        Ok(index) => {
            println!("games {} seconds {:.3}", index.len(), started.elapsed().as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            ExitCode::FAILURE
        }
    }
}

/// A PGN file being read, reporting the bytes read so far (of all the files) every megabyte.
struct Reporting<'a, R> {
    inner: R,
    read: &'a mut u64,
    total: u64,
    progress: &'a mut Progress,
}

impl<R: Read> Read for Reporting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let before = *self.read;
        *self.read += n as u64;
        if *self.read / 1_000_000 != before / 1_000_000 {
            self.progress.report(*self.read, self.total, &format!("{} MB", *self.read / 1_000_000));
        }
        Ok(n)
    }
}
