//! Building a [`GameIndex`] by streaming the file once, on the calling thread or as a
//! background [`Job`] that reports its progress and can be cancelled.

use std::fs::File;
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};

use super::index::{Entry, GameIndex, Strings};
use crate::pgn::GameSplitter;
use crate::{Job, decode_pgn_text};

/// How far an index build has come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexProgress {
    /// Bytes read so far.
    pub bytes: u64,
    /// The size of the file.
    pub total_bytes: u64,
    /// Games indexed so far.
    pub games: u64,
}

impl IndexProgress {
    /// The fraction done, from 0 to 1 (for a progress bar).
    #[must_use]
    pub fn fraction(&self) -> f32 {
        if self.total_bytes == 0 { 1.0 } else { (self.bytes as f64 / self.total_bytes as f64) as f32 }
    }
}

/// An index being built in the background; a cancelled build ends in
/// [`JobError::Cancelled`](crate::JobError::Cancelled).
///
/// ```no_run
/// use kibitz_engine::IndexJob;
/// let job = IndexJob::start("big.pgn".into(), || {});
/// while !job.is_finished() {
///     let fraction = job.progress().map_or(0.0, |p| p.fraction());
///     println!("{:.0}%", fraction * 100.0);
///     std::thread::sleep(std::time::Duration::from_millis(100));
/// }
/// let index = job.wait()?;
/// println!("{} games", index.len());
/// # Ok::<_, kibitz_engine::JobError<std::io::Error>>(())
/// ```
pub type IndexJob = Job<IndexProgress, GameIndex, io::Error>;

impl IndexJob {
    /// Starts indexing a file on a new thread; `wake` is called whenever there is news.
    pub fn start(path: PathBuf, wake: impl Fn() + Send + Sync + 'static) -> IndexJob {
        Job::spawn("pgn-index", wake, move |ctx| GameIndex::build(&path, &mut |p| ctx.report(*p)))
    }
}

impl GameIndex {
    /// Indexes a PGN file on the calling thread. `progress` is called every 256 games and at
    /// the end; returning `Break` stops with an [`io::ErrorKind::Interrupted`] error.
    pub fn build(
        path: &Path,
        progress: &mut dyn FnMut(&IndexProgress) -> ControlFlow<()>,
    ) -> io::Result<GameIndex> {
        let file = File::open(path)?;
        let file_len = file.metadata()?.len();
        let mut games = GameSplitter::new(file);
        let mut indexer = Indexer { strings: Strings::default(), blank: 0 };
        indexer.blank = indexer.strings.intern("");
        let mut entries = Vec::new();
        let mut checkpoints = Vec::new();
        while let Some(game) = games.next_game()? {
            if entries.len() % 4096 == 0 {
                checkpoints.push((game.offset, game.line));
            }
            let mut reader = Reader::build(&game.bytes[..]).set_supported_tag_line_length(1024).finish();
            let (plies, columns) = match reader.read_game(&mut indexer) {
                Ok(Some(found)) => found,
                // A game that cannot be read is listed; opening it says why.
                Ok(None) | Err(_) => (0, [indexer.blank; 6]),
            };
            entries.push(Entry { offset: game.offset, plies, columns });
            if entries.len() % 256 == 0 {
                let so_far = IndexProgress {
                    bytes: games.bytes_read(),
                    total_bytes: file_len,
                    games: entries.len() as u64,
                };
                if progress(&so_far).is_break() {
                    return Err(io::Error::new(io::ErrorKind::Interrupted, "indexing cancelled"));
                }
            }
        }
        let _ =
            progress(&IndexProgress { bytes: file_len, total_bytes: file_len, games: entries.len() as u64 });
        entries.shrink_to_fit();
        Ok(GameIndex { path: path.to_path_buf(), file_len, entries, strings: indexer.strings, checkpoints })
    }
}

/// Collects the list columns and counts the main-line moves, skipping variations.
struct Indexer {
    strings: Strings,
    blank: u32,
}

impl Visitor for Indexer {
    type Tags = [u32; 6];
    type Movetext = (u32, [u32; 6]);
    type Output = (u32, [u32; 6]);

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue([self.blank; 6])
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        let column = match name {
            b"White" => 0,
            b"Black" => 1,
            b"Result" => 2,
            b"Date" => 3,
            b"Event" => 4,
            b"ECO" => 5,
            _ => return ControlFlow::Continue(()),
        };
        tags[column] = self.strings.intern(&decode_pgn_text(&value.decode()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue((0, tags))
    }

    fn san(&mut self, movetext: &mut Self::Movetext, _san: SanPlus) -> ControlFlow<Self::Output> {
        movetext.0 += 1;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        movetext
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Column;

    #[test]
    fn indexes_sorts_filters_and_loads() {
        let dir = std::env::temp_dir().join(format!("kibitz-index-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("three.pgn");
        let text = "[White \"Zed\"]\n[Black \"Amy\"]\n[Date \"2001.01.01\"]\n\n1. e4 (1. d4) e5 *\n\n\
                    [White \"Bob\"]\n[Black \"Cy\"]\n[Date \"1999.??.??\"]\n\n1. e4 e5 2. Ke3 *\n\n\
                    [White \"Amy\"]\n[Black \"Zed\"]\n\n1. d4 d5 2. c4 1-0\n";
        std::fs::write(&path, text).unwrap();
        let job = IndexJob::start(path.clone(), || {});
        let index = job.wait().unwrap();
        assert_eq!(index.len(), 3);
        assert_eq!(index.header(0).unwrap().plies, 2);
        assert_eq!(index.header(2).unwrap().white, "Amy");
        let mut rows = index.all();
        index.sort(&mut rows, Column::White, false);
        assert_eq!(rows, [2, 1, 0]);
        index.sort(&mut rows, Column::Plies, true);
        assert_eq!(rows, [2, 1, 0], "ties keep their order");
        assert_eq!(index.filter("amy"), [0, 2]);
        let game = index.load(2).unwrap();
        assert_eq!(game.san_moves(), ["d4", "d5", "c4"]);
        assert_eq!(game.result(), "1-0");
        let err = index.load(1).unwrap_err();
        assert_eq!((err.line, err.column), (11, 13), "{err}");
        assert_eq!(err.partial.unwrap().len(), 2);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_index_and_the_stats_count_the_same_games() {
        let dir = std::env::temp_dir().join(format!("kibitz-index-agree-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cases: [(&[u8], u64); 5] = [
            (b" \xef\xbb\xbf", 0),
            (b"hello world", 1),
            (b"\xef\xbb\xbf[White \"A\"]\n\n1. e4 *\n\n\xef\xbb\xbf\n[White \"B\"]\n\n1. d4 *\n", 2),
            (b"1. e4 (((\n\n1. d4 ) *", 2),
            (b"[White \"A\"\n\n1. e4 *", 1),
        ];
        for (i, (text, games)) in cases.into_iter().enumerate() {
            let path = dir.join(format!("{i}.pgn"));
            std::fs::write(&path, text).unwrap();
            let index = GameIndex::build(&path, &mut |_| ControlFlow::Continue(())).unwrap();
            let stats = crate::pgn_stats(text).unwrap();
            assert_eq!(
                (index.len() as u64, stats.games),
                (games, games),
                "{:?}",
                String::from_utf8_lossy(text)
            );
            for game in 0..index.len() {
                if let Err(e) = index.load(game) {
                    assert!(e.line > 0, "{e}");
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reports_progress_and_stops_when_asked() {
        let path = std::env::temp_dir().join(format!("kibitz-index-progress-{}.pgn", std::process::id()));
        std::fs::write(&path, "[White \"A\"]\n\n1. e4 e5 *\n\n".repeat(1000)).unwrap();
        let size = std::fs::metadata(&path).unwrap().len();
        let mut reports = Vec::new();
        let index = GameIndex::build(&path, &mut |p| {
            reports.push(*p);
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(index.len(), 1000);
        let games: Vec<u64> = reports.iter().map(|p| p.games).collect();
        assert_eq!(games, [256, 512, 768, 1000]);
        assert_eq!(reports[3], IndexProgress { bytes: size, total_bytes: size, games: 1000 });
        // Bytes are counted as the reader's buffer fills, ahead of the games.
        assert!(reports[0].fraction() > 0.0 && reports[0].fraction() < 1.0, "{:?}", reports[0]);
        assert_eq!(reports[3].fraction(), 1.0);

        let err = GameIndex::build(&path, &mut |_| ControlFlow::Break(())).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::Interrupted);

        // The job: the first report waits until the test has cancelled.
        let (reported, first_report) = std::sync::mpsc::channel();
        let (go_on, gate) = std::sync::mpsc::channel::<()>();
        let gate = std::sync::Mutex::new(gate);
        let job = IndexJob::start(path.clone(), move || {
            if reported.send(()).is_ok() {
                let _ = gate.lock().map(|g| g.recv());
            }
        });
        first_report.recv().unwrap();
        job.cancel();
        drop(first_report);
        go_on.send(()).unwrap();
        assert_eq!(job.progress().map(|p| p.games), Some(256));
        assert!(matches!(job.wait(), Err(crate::JobError::Cancelled)));
        std::fs::remove_file(&path).unwrap();
    }
}
