//! The match's PGN: every game as it ends, with the tags that identify it (`Round` is
//! `round.game`, a knockout's `round.duel.game`: see [`Fixture::round_tag`]), its time control, opening, result and
//! `Termination`, and cutechess's comment after every move (see [`MoveComment`]).
//!
//! Games are appended, each in one write followed by a flush to the disk, so a crash can
//! damage only the game being written, never an earlier one; [`super::resume`] drops such a
//! torn last game when the run is resumed.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use shakmaty::ByColor;

use super::comment::MoveComment;
use super::openings::Opening;
use super::schedule::Fixture;
use crate::runner::PlayedGame;
use crate::{GameRecord, NodeId, TimeControl, pgn_date_today, write_pgn};

/// The names and settings a game's tags need besides the game itself.
pub struct GameTags<'a> {
    /// The event's name.
    pub event: &'a str,
    /// The fixture.
    pub fixture: &'a Fixture,
    /// White's and Black's names.
    pub names: ByColor<&'a str>,
    /// White's and Black's time controls.
    pub controls: ByColor<&'a TimeControl>,
    /// The opening.
    pub opening: &'a Opening,
    /// How the game ended, in words (see [`super::verdict`]).
    pub verdict: &'a str,
}

/// The game as the match writes it: tags set, the opening's moves marked `book`, every
/// engine move commented as cutechess does (and its `[%clk]` and `[%eval]` dropped: the
/// comment says it), the verdict after the last move.
#[must_use]
pub fn match_record(played: &PlayedGame, tags: &GameTags<'_>) -> GameRecord {
    let mut game = played.game.clone();
    game.set_tag("Event", tags.event);
    game.set_tag("Site", "?");
    game.set_tag("Date", &pgn_date_today());
    game.set_tag("Round", &tags.fixture.round_tag());
    game.set_tag("White", tags.names.white);
    game.set_tag("Black", tags.names.black);
    let (white, black) = (tags.controls.white.to_pgn(), tags.controls.black.to_pgn());
    if white == black {
        game.set_tag("TimeControl", &white);
    } else {
        game.remove_tag("TimeControl");
        game.set_tag("WhiteTimeControl", &white);
        game.set_tag("BlackTimeControl", &black);
    }
    if let Some(name) = &tags.opening.name {
        game.set_tag("Opening", name);
    }
    game.set_tag("PlyCount", &game.len().to_string());
    let line: Vec<NodeId> = game.main_line().to_vec();
    for (ply, &id) in line.iter().enumerate().skip(1) {
        let ply = ply - 1;
        let comment = if ply < tags.opening.game.len() {
            Some(MoveComment::Book)
        } else {
            played.moves.iter().find(|r| r.ply == ply).map(|r| {
                if r.book {
                    MoveComment::Book
                } else {
                    MoveComment::Searched { score: r.score, depth: r.depth, time: r.time }
                }
            })
        };
        game.set_clock(id, None);
        game.set_eval(id, None);
        game.set_comment(id, &comment.map(|c| c.to_string()).unwrap_or_default());
    }
    let last = game.main_end();
    let before = game.node(last).map(|n| n.comment().to_owned()).unwrap_or_default();
    let text =
        if before.is_empty() { tags.verdict.to_owned() } else { format!("{before}, {}", tags.verdict) };
    game.set_comment(last, &text);
    game
}

/// A PGN file games are appended to.
pub struct PgnLog {
    path: PathBuf,
    file: File,
}

impl PgnLog {
    /// Opens `path` to append games: a new or empty file, or with `resume` one that holds
    /// the games of the run being resumed.
    ///
    /// # Errors
    /// The system's error; [`io::ErrorKind::AlreadyExists`] when the file holds games and
    /// this is not a resumed run (they would be mixed with another run's).
    pub fn open(path: &Path, resume: bool) -> io::Result<PgnLog> {
        let holds_games = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
        if holds_games && !resume {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!("{} already holds games: resume that run, or choose another file", path.display()),
            ));
        }
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(PgnLog { path: path.to_path_buf(), file })
    }

    /// Appends one game in a single write and flushes it to the disk.
    ///
    /// # Errors
    /// The system's error.
    pub fn append(&mut self, game: &GameRecord) -> io::Result<()> {
        let mut text = write_pgn(game);
        text.push('\n');
        self.file.write_all(text.as_bytes())?;
        self.file.sync_data()
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}
