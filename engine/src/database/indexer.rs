//! Building a [`GameIndex`] by streaming the file once, on a background thread that reports
//! its progress and can be cancelled.

use std::cell::Cell;
use std::fs::File;
use std::io;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};

use super::index::{Entry, GameIndex, Strings};
use crate::decode_pgn_text;
use crate::pgn::Counted;

/// How far an index build has come; shared between the thread and its owner.
#[derive(Debug, Default)]
pub struct IndexProgress {
    done: AtomicU64,
    total: AtomicU64,
    games: AtomicU64,
    cancel: AtomicBool,
}

impl IndexProgress {
    /// Bytes read so far and the size of the file.
    #[must_use]
    pub fn bytes(&self) -> (u64, u64) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }

    /// Games indexed so far.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games.load(Ordering::Relaxed)
    }

    /// The fraction done, from 0 to 1 (for a progress bar).
    #[must_use]
    pub fn fraction(&self) -> f32 {
        let (done, total) = self.bytes();
        if total == 0 { 1.0 } else { (done as f64 / total as f64) as f32 }
    }

    /// Asks the build to stop; it then ends with an [`io::ErrorKind::Interrupted`] error.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// An index being built on a background thread.
///
/// ```no_run
/// use kibitz_engine::IndexJob;
/// let job = IndexJob::start("big.pgn".into())?;
/// while !job.is_finished() {
///     println!("{:.0}%", job.progress().fraction() * 100.0);
///     std::thread::sleep(std::time::Duration::from_millis(100));
/// }
/// let index = job.wait()?;
/// println!("{} games", index.len());
/// # Ok::<_, std::io::Error>(())
/// ```
pub struct IndexJob {
    progress: Arc<IndexProgress>,
    handle: JoinHandle<io::Result<GameIndex>>,
}

impl IndexJob {
    /// Starts indexing a file on a new thread.
    pub fn start(path: PathBuf) -> io::Result<IndexJob> {
        let progress = Arc::new(IndexProgress::default());
        let shared = Arc::clone(&progress);
        let handle = std::thread::Builder::new()
            .name("pgn-index".into())
            .spawn(move || GameIndex::build(&path, Some(&shared)))?;
        Ok(IndexJob { progress, handle })
    }

    /// The progress, to show and to cancel.
    #[must_use]
    pub fn progress(&self) -> &IndexProgress {
        &self.progress
    }

    /// Whether the thread is done (so that [`IndexJob::wait`] returns at once).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits for the index.
    pub fn wait(self) -> io::Result<GameIndex> {
        self.handle.join().unwrap_or_else(|_| Err(io::Error::other("the indexing thread panicked")))
    }
}

impl GameIndex {
    /// Indexes a PGN file on the calling thread, reporting to `progress` if given.
    pub fn build(path: &Path, progress: Option<&IndexProgress>) -> io::Result<GameIndex> {
        let file = File::open(path)?;
        let file_len = file.metadata()?.len();
        if let Some(p) = progress {
            p.total.store(file_len, Ordering::Relaxed);
        }
        let count = Rc::new(Cell::new(0u64));
        let mut reader = Reader::build(Counted { inner: file, count: Rc::clone(&count) })
            .set_supported_tag_line_length(1024)
            .finish();
        let mut indexer = Indexer { strings: Strings::default(), blank: 0 };
        indexer.blank = indexer.strings.intern("");
        let mut entries = Vec::new();
        let mut checkpoints = Vec::new();
        loop {
            if !reader.has_more()? {
                break;
            }
            let offset = count.get() - reader.buffer().len() as u64;
            if entries.len() % 4096 == 0 {
                checkpoints.push(offset);
            }
            match reader.read_game(&mut indexer) {
                Ok(Some((plies, columns))) => entries.push(Entry { offset, plies, columns }),
                Ok(None) => break,
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    let blank = indexer.blank;
                    entries.push(Entry { offset, plies: 0, columns: [blank; 6] });
                }
                Err(e) => return Err(e),
            }
            if let Some(p) = progress
                && entries.len() % 256 == 0
            {
                p.done.store(count.get(), Ordering::Relaxed);
                p.games.store(entries.len() as u64, Ordering::Relaxed);
                if p.cancel.load(Ordering::Relaxed) {
                    return Err(io::Error::new(io::ErrorKind::Interrupted, "indexing cancelled"));
                }
            }
        }
        if let Some(p) = progress {
            p.done.store(file_len, Ordering::Relaxed);
            p.games.store(entries.len() as u64, Ordering::Relaxed);
        }
        entries.shrink_to_fit();
        let checkpoints = Self::line_checkpoints(path, &checkpoints)?;
        Ok(GameIndex { path: path.to_path_buf(), file_len, entries, strings: indexer.strings, checkpoints })
    }

    /// The line numbers of the checkpoint offsets, counted in one more pass over the file.
    fn line_checkpoints(path: &Path, offsets: &[u64]) -> io::Result<Vec<(u64, u64)>> {
        let mut line = 1u64;
        let mut from = 0u64;
        let mut checkpoints = Vec::with_capacity(offsets.len());
        let mut file = File::open(path)?;
        for &offset in offsets {
            line += count_newlines(&mut file, from, offset)?;
            checkpoints.push((offset, line));
            from = offset;
        }
        Ok(checkpoints)
    }
}

fn count_newlines(file: &mut File, from: u64, to: u64) -> io::Result<u64> {
    use std::io::{Read, Seek, SeekFrom};
    file.seek(SeekFrom::Start(from))?;
    let mut left = to.saturating_sub(from);
    let mut buf = vec![0u8; 1 << 16];
    let mut lines = 0;
    while left > 0 {
        let n = file.read(&mut buf[..left.min(1 << 16) as usize])?;
        if n == 0 {
            break;
        }
        lines += buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
        left -= n as u64;
    }
    Ok(lines)
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
        let job = IndexJob::start(path.clone()).unwrap();
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
}
