//! Counting a PGN file's games and moves while replaying every move, main line and
//! variations, in memory that does not grow with the file: what `kibitz pgn stats` prints.

use std::fmt;
use std::io::{self, Read};
use std::mem;
use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

use super::read::is_standard_variant;

/// What [`pgn_stats`] counted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnStats {
    /// Games in the file.
    pub games: u64,
    /// Legal moves replayed, main lines and variations.
    pub moves: u64,
    /// Games that could not be read to their end: an illegal move, a bad `FEN` tag, a variant
    /// Kibitz does not play, or broken syntax.
    pub errors: u64,
}

impl fmt::Display for PgnStats {
    /// `games 1782 moves 159922 errors 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "games {} moves {} errors {}", self.games, self.moves, self.errors)
    }
}

/// Reads every game of a PGN stream and replays every move, counting games, moves and the
/// games that broke. Memory stays the same whatever the size of the stream.
///
/// ```
/// use kibitz_engine::pgn_stats;
/// let text = "1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *\n\n1. e4 e5 2. Ke3 *\n";
/// let stats = pgn_stats(text.as_bytes()).unwrap();
/// assert_eq!(stats.to_string(), "games 2 moves 7 errors 1");
/// ```
pub fn pgn_stats<R: Read>(source: R) -> io::Result<PgnStats> {
    let mut reader = Reader::build(source).set_supported_comment_length(4096).finish();
    let mut counter = Counter { stats: PgnStats::default() };
    loop {
        match reader.read_game(&mut counter) {
            Ok(Some(finished)) => {
                counter.stats.games += 1;
                counter.stats.errors += u64::from(!finished);
            }
            Ok(None) => break,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                counter.stats.games += 1;
                counter.stats.errors += 1;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(counter.stats)
}

struct Counter {
    stats: PgnStats,
}

/// The replay state of one game.
struct Replay {
    position: Chess,
    /// The position before the last move, where a variation branches from.
    before: Option<Chess>,
    stack: Vec<(Chess, Option<Chess>)>,
    dead: usize,
}

impl Visitor for Counter {
    type Tags = (Option<String>, bool);
    type Movetext = Replay;
    /// Whether the game was read to its end.
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue((None, true))
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        match name {
            b"FEN" => tags.0 = Some(String::from_utf8_lossy(&value.decode()).into_owned()),
            b"Variant" => tags.1 = is_standard_variant(&String::from_utf8_lossy(&value.decode())),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (fen, standard): Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        if !standard {
            return ControlFlow::Break(false);
        }
        let position = match fen {
            None => Chess::default(),
            Some(fen) => match fen
                .trim()
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            {
                Some(position) => position,
                None => return ControlFlow::Break(false),
            },
        };
        ControlFlow::Continue(Replay { position, before: None, stack: Vec::new(), dead: 0 })
    }

    fn san(&mut self, replay: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        if replay.dead > 0 {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&replay.position) {
            Ok(m) => {
                let mut next = replay.position.clone();
                next.play_unchecked(m);
                replay.before = Some(mem::replace(&mut replay.position, next));
                self.stats.moves += 1;
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false),
        }
    }

    fn begin_variation(&mut self, replay: &mut Self::Movetext) -> ControlFlow<Self::Output, Skip> {
        match replay.before.take() {
            Some(before) if replay.dead == 0 => {
                let after = mem::replace(&mut replay.position, before.clone());
                replay.stack.push((after, Some(before)));
            }
            before => {
                replay.before = before;
                replay.dead += 1;
            }
        }
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, replay: &mut Self::Movetext) -> ControlFlow<Self::Output> {
        if replay.dead > 0 {
            replay.dead -= 1;
        } else if let Some((position, before)) = replay.stack.pop() {
            replay.position = position;
            replay.before = before;
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _replay: Self::Movetext) -> Self::Output {
        true
    }
}
