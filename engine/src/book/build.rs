//! Building a book from PGN games (Terra's `createbook NAME PGN s t`, Crafty's
//! `book create PGN m n wpct`): streaming, main line only, at most N plies per game.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position};

use crate::book::key::key_after;
use crate::book::{Book, BookEntry, BookError, Outcome, Stats, book_key, encode_move};
use crate::{Job, castling_mode_of_variant};

/// What goes into a book built from games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// At most this many plies of each game are used.
    pub max_plies: usize,
    /// Moves played in fewer games are dropped.
    pub min_games: u32,
    /// Crafty's winning-percentage rule: a move is dropped unless its wins are at least this
    /// percentage of its losses (50: at least half as many wins as losses). `None`: no rule.
    pub win_pct: Option<u32>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions { max_plies: 60, min_games: 1, win_pct: None }
    }
}

/// How far a build has come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildProgress {
    /// Games read so far.
    pub games: u64,
    /// Games skipped (variants, bad FEN) or cut short by an illegal move.
    pub skipped: u64,
    /// Games without a result (`*`, as in files of opening lines): their moves count as played
    /// with no result and are weighted like draws, as `polyglot make-book` weighs them (see
    /// [`Stats::polyglot_weight`]).
    pub unfinished: u64,
    /// Bytes of PGN read so far.
    pub bytes: u64,
    /// Total bytes of the PGN files, when known.
    pub total_bytes: u64,
}

/// A hasher for keys that are already Zobrist hashes.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
    fn write_u16(&mut self, n: u16) {
        self.0 = self.0.rotate_left(17) ^ u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type Counts = HashMap<(u64, u16), Stats, BuildHasherDefault<KeyHasher>>;

/// Collects move statistics from PGN files, then turns them into a [`Book`].
///
/// ```
/// use kibitz_engine::{BookBuilder, BuildOptions, GameRecord};
/// let pgn = "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"0-1\"]\n\n1. e4 c5 0-1\n";
/// let mut builder = BookBuilder::new(BuildOptions { max_plies: 10, min_games: 1, win_pct: None });
/// builder.add_pgn(pgn.as_bytes(), &mut |_| std::ops::ControlFlow::Continue(())).unwrap();
/// let book = builder.finish();
/// let start = GameRecord::new();
/// let moves = book.legal_moves(start.position());
/// assert_eq!(moves.len(), 1);
/// assert_eq!((moves[0].1.fixed.games, moves[0].1.fixed.wins, moves[0].1.fixed.losses), (2, 1, 1));
/// ```
pub struct BookBuilder {
    options: BuildOptions,
    counts: Counts,
    progress: BuildProgress,
}

impl BookBuilder {
    /// An empty builder.
    #[must_use]
    pub fn new(options: BuildOptions) -> Self {
        BookBuilder { options, counts: Counts::default(), progress: BuildProgress::default() }
    }

    /// Progress so far.
    #[must_use]
    pub fn progress(&self) -> BuildProgress {
        self.progress
    }

    /// Reads every game of a PGN stream. `progress` is called every thousand games and at
    /// the end; returning `Break` cancels.
    pub fn add_pgn<R: Read>(
        &mut self,
        reader: R,
        progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    ) -> Result<(), BookError> {
        let base = self.progress.bytes;
        let counter = Arc::new(AtomicU64::new(0));
        let mut reader = Reader::new(CountingReader { inner: reader, count: Arc::clone(&counter) });
        let unfinished = self.progress.unfinished;
        let mut visitor =
            GameVisitor { max_plies: self.options.max_plies, counts: &mut self.counts, unfinished: 0 };
        loop {
            let read = reader.read_game(&mut visitor).map_err(|e| BookError::Pgn(e.to_string()))?;
            let Some(ok) = read else { break };
            self.progress.games += 1;
            if !ok {
                self.progress.skipped += 1;
            }
            self.progress.unfinished = unfinished + visitor.unfinished;
            if self.progress.games.is_multiple_of(1000) {
                self.progress.bytes = base + counter.load(Ordering::Relaxed);
                if progress(&self.progress).is_break() {
                    return Err(BookError::Cancelled);
                }
            }
        }
        self.progress.bytes = base + counter.load(Ordering::Relaxed);
        let _ = progress(&self.progress);
        Ok(())
    }

    /// Reads every game of a PGN file.
    pub fn add_pgn_file(
        &mut self,
        path: &Path,
        progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    ) -> Result<(), BookError> {
        let file = std::fs::File::open(path)?;
        self.add_pgn(std::io::BufReader::with_capacity(1 << 16, file), progress)
    }

    /// The book: moves played in at least `min_games` games that pass the winning-percentage
    /// rule, each with its Polyglot weight.
    #[must_use]
    pub fn finish(self) -> Book {
        let mut book = Book::new();
        self.finish_into(&mut book);
        book
    }

    /// Adds the games to an existing book (Terra's `createbook` on an existing file): counts
    /// are added to the book's fixed statistics, then the rules are applied to the sums.
    /// Moves with a user value or play percentage are always kept.
    pub fn finish_into(self, book: &mut Book) {
        let options = self.options;
        let mut entries: Vec<BookEntry> = std::mem::take(book).entries().to_vec();
        entries.extend(self.counts.into_iter().map(|((key, mv), fixed)| BookEntry {
            key,
            mv,
            fixed,
            ..Default::default()
        }));
        *book = Book::from_entries(entries);
        book.retain(|e| {
            let passes = e.fixed.games >= options.min_games
                && options.win_pct.is_none_or(|p| {
                    u64::from(e.fixed.wins) * 100 >= u64::from(p) * u64::from(e.fixed.losses)
                });
            passes || e.user.is_some() || e.play_pct.is_some()
        });
        for e in &mut book.entries_mut_internal() {
            if e.fixed.games > 0 {
                e.weight = e.fixed.polyglot_weight();
            }
        }
    }
}

impl Book {
    pub(crate) fn entries_mut_internal(&mut self) -> std::slice::IterMut<'_, BookEntry> {
        self.entries.iter_mut()
    }
}

/// Counts the bytes read, for progress.
struct CountingReader<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The tags a book needs.
#[derive(Default)]
struct Tags {
    result: Option<String>,
    fen: Option<String>,
    /// The castling rules of the game's variant (`None`: a variant Kibitz does not play).
    mode: Option<CastlingMode>,
}

/// One game being read.
struct Movetext {
    pos: Chess,
    key: u64,
    played: Vec<(u64, u16, Color)>,
    result: Option<String>,
    ok: bool,
}

/// Collects the main line of each game, up to `max_plies`, into `counts`, and counts the
/// games without a result. Outputs whether the game was read without trouble.
struct GameVisitor<'a> {
    max_plies: usize,
    counts: &'a mut Counts,
    unfinished: u64,
}

impl GameVisitor<'_> {
    fn commit(&mut self, movetext: &Movetext) {
        let result = movetext.result.as_deref().unwrap_or("*");
        if Outcome::from_result(result, true) == Outcome::Unknown {
            self.unfinished += 1;
        }
        for &(key, mv, side) in &movetext.played {
            let outcome = Outcome::from_result(result, side == Color::White);
            self.counts.entry((key, mv)).or_default().record(outcome);
        }
    }
}

impl Visitor for GameVisitor<'_> {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool, Tags> {
        ControlFlow::Continue(Tags { mode: Some(CastlingMode::Standard), ..Tags::default() })
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<bool> {
        match name {
            b"Result" => tags.result = Some(value.decode_utf8_lossy().into_owned()),
            b"FEN" => tags.fen = Some(value.decode_utf8_lossy().into_owned()),
            b"Variant" => tags.mode = castling_mode_of_variant(&value.decode_utf8_lossy()).ok(),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<bool, Movetext> {
        let Some(mode) = tags.mode else {
            return ControlFlow::Break(false);
        };
        let pos = match &tags.fen {
            // From the standard position both castling rules make the same moves.
            None => Chess::default(),
            Some(fen) => match fen.parse::<Fen>().ok().and_then(|f| f.into_position(mode).ok()) {
                Some(pos) => pos,
                None => return ControlFlow::Break(false),
            },
        };
        let key = book_key(&pos);
        let played = Vec::with_capacity(self.max_plies.min(128));
        ControlFlow::Continue(Movetext { pos, key, played, result: tags.result, ok: true })
    }

    fn san(&mut self, movetext: &mut Movetext, san_plus: SanPlus) -> ControlFlow<bool> {
        if movetext.played.len() >= self.max_plies || !movetext.ok {
            return self.stop_if_result_known(movetext);
        }
        match san_plus.san.to_move(&movetext.pos) {
            Ok(m) => {
                let side = movetext.pos.turn();
                movetext.played.push((movetext.key, encode_move(m), side));
                let (next, key) = key_after(&movetext.pos, movetext.key, m);
                movetext.pos = next;
                movetext.key = key;
                if movetext.played.len() >= self.max_plies {
                    return self.stop_if_result_known(movetext);
                }
                ControlFlow::Continue(())
            }
            Err(_) => {
                movetext.ok = false;
                self.stop_if_result_known(movetext)
            }
        }
    }

    fn outcome(&mut self, movetext: &mut Movetext, outcome: pgn_reader::Outcome) -> ControlFlow<bool> {
        if movetext.result.is_none() {
            movetext.result = Some(outcome.to_string());
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Movetext) -> bool {
        self.commit(&movetext);
        movetext.ok
    }
}

impl GameVisitor<'_> {
    /// Once the plies are collected, the rest of the game is skipped if the result is known.
    fn stop_if_result_known(&mut self, movetext: &mut Movetext) -> ControlFlow<bool> {
        if movetext.result.as_deref().is_some_and(|r| r != "*") {
            self.commit(movetext);
            return ControlFlow::Break(movetext.ok);
        }
        ControlFlow::Continue(())
    }
}

/// A book build running in the background, for the app; a cancelled build ends in
/// [`JobError::Cancelled`](crate::JobError::Cancelled).
pub type BuildJob = Job<BuildProgress, Book, BookError>;

impl BuildJob {
    /// Starts building from `pgns` into `existing` (or a new book) on a new thread. Progress
    /// is reported every thousand games; `wake` is called whenever there is news.
    pub fn start(
        pgns: Vec<PathBuf>,
        options: BuildOptions,
        existing: Option<Book>,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> BuildJob {
        Job::spawn("book-build", wake, move |ctx| {
            let total_bytes = pgns.iter().filter_map(|p| std::fs::metadata(p).ok()).map(|m| m.len()).sum();
            let mut builder = BookBuilder::new(options);
            for path in &pgns {
                if ctx.is_cancelled() {
                    return Err(BookError::Cancelled);
                }
                builder.add_pgn_file(path, &mut |p| ctx.report(BuildProgress { total_bytes, ..*p }))?;
            }
            let mut book = existing.unwrap_or_default();
            builder.finish_into(&mut book);
            Ok(book)
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::{GameRecord, JobError};

    /// A PGN file of `games` copies of one short game, named after the test.
    fn pgn_file(test: &str, games: usize) -> PathBuf {
        let path = std::env::temp_dir().join(format!("kibitz-build-{test}-{}.pgn", std::process::id()));
        std::fs::write(&path, "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n".repeat(games)).expect("written");
        path
    }

    #[test]
    fn games_without_a_result_weigh_like_draws() {
        // Opening lines end in `*`: e4 in two of them, d4 in one; a decided game besides.
        let pgn =
            "[Result \"*\"]\n\n1. e4 e5 *\n\n1. e4 c5 *\n\n1. d4 d5 *\n\n[Result \"1-0\"]\n\n1. d4 Nf6 1-0\n";
        let mut builder = BookBuilder::new(BuildOptions::default());
        builder.add_pgn(pgn.as_bytes(), &mut |_| ControlFlow::Continue(())).expect("read");
        assert_eq!(builder.progress().unfinished, 3);
        let book = builder.finish();
        let start = GameRecord::new();
        let mut moves: Vec<(String, u16, u32)> = book
            .legal_moves(start.position())
            .iter()
            .map(|(_, e)| (crate::move_code_text(e.mv), e.weight, e.fixed.unfinished()))
            .collect();
        moves.sort();
        // d4: one unfinished game (1 point) and one win (2 points); e4: two unfinished games.
        assert_eq!(moves, [("d2d4".to_string(), 3, 1), ("e2e4".to_string(), 2, 2)]);
    }

    #[test]
    fn standard_and_chess960_spellings_are_read_other_variants_skipped() {
        let fen = "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1";
        let text = format!(
            "[Variant \"normal\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n\n\
             [Variant \"fischerandom\"]\n[FEN \"{fen}\"]\n[Result \"1-0\"]\n\n1. O-O 1-0\n\n\
             [Variant \"crazyhouse\"]\n[Result \"1-0\"]\n\n1. e4 1-0\n"
        );
        let mut builder = BookBuilder::new(BuildOptions::default());
        builder.add_pgn(text.as_bytes(), &mut |_| ControlFlow::Continue(())).expect("read");
        assert_eq!((builder.progress().games, builder.progress().skipped), (3, 1));
        let book = builder.finish();
        assert_eq!(
            book.legal_moves(GameRecord::new().position())[0].1.fixed.games,
            1,
            "crazyhouse is not counted"
        );
        let chess960 = GameRecord::from_fen_in(fen, CastlingMode::Chess960).expect("a Chess960 position");
        assert_eq!(book.legal_moves(chess960.position()).len(), 1, "the Chess960 game is in the book");
    }

    #[test]
    fn the_job_builds_and_reports() {
        let path = pgn_file("reports", 1500);
        let size = std::fs::metadata(&path).expect("the file").len();
        let mut job = BuildJob::start(vec![path.clone()], BuildOptions::default(), None, || {});
        let start = Instant::now();
        let book = loop {
            if let Some(outcome) = job.try_finish() {
                break outcome.expect("the book");
            }
            assert!(start.elapsed() < Duration::from_secs(30), "the build did not end");
            std::thread::sleep(Duration::from_millis(1));
        };
        assert_eq!(
            job.progress(),
            Some(BuildProgress { games: 1500, skipped: 0, unfinished: 0, bytes: size, total_bytes: size })
        );
        let moves = book.legal_moves(GameRecord::new().position());
        assert_eq!(moves.len(), 1);
        assert_eq!(moves[0].1.fixed.games, 1500);
        std::fs::remove_file(&path).expect("removed");
    }

    #[test]
    fn cancelling_stops_the_build() {
        let path = pgn_file("cancel", 5000);
        // The first report (after a thousand games) waits until the test has cancelled.
        let (reported, first_report) = mpsc::channel();
        let (go_on, gate) = mpsc::channel::<()>();
        let gate = std::sync::Mutex::new(gate);
        let wake = move || {
            if reported.send(()).is_ok() {
                let _ = gate.lock().map(|g| g.recv());
            }
        };
        let mut job = BuildJob::start(vec![path.clone()], BuildOptions::default(), None, wake);
        first_report.recv_timeout(Duration::from_secs(30)).expect("a report");
        job.cancel();
        drop(first_report);
        go_on.send(()).expect("the build waits");
        let start = Instant::now();
        let outcome = loop {
            if let Some(outcome) = job.try_finish() {
                break outcome;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "the build did not end");
            std::thread::sleep(Duration::from_millis(1));
        };
        assert!(matches!(outcome, Err(JobError::Cancelled)), "{:?}", outcome.map(|b| b.len()));
        assert_eq!(job.progress().map(|p| p.games), Some(1000), "stopped at the first report");
        std::fs::remove_file(&path).expect("removed");
    }
}
