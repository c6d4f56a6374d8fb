//! Resuming a stopped match from its PGN: each game there is matched to its fixture by its
//! `Round` tag (`round.game`) and checked against the fixture's White and Black, so the run
//! plays exactly the games that are missing, none twice. A last game torn by a crash while
//! it was being written is dropped (and cut from the file), and played again. A knockout,
//! whose fixtures come round by round, matches the games read back as it goes (see
//! `knockout/replay.rs`).

use std::fmt;
use std::path::{Path, PathBuf};

use shakmaty::{Color, KnownOutcome};

use super::schedule::Fixture;
use crate::{GameRecord, Termination, read_games, write_atomic, write_pgn};

/// A game of the file, matched to its fixture.
#[derive(Clone, Debug)]
pub struct PlayedBefore {
    /// Its fixture's index in the schedule.
    pub index: usize,
    /// The game as read.
    pub game: GameRecord,
    /// Its result.
    pub outcome: KnownOutcome,
    /// Its termination, when its `Termination` tag names a failure or an adjudication.
    pub termination: Option<Termination>,
}

/// Why the file cannot be resumed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResumeError {
    /// The file could not be read or its torn end could not be cut.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// A game other than the last cannot be read: the file was damaged, not torn.
    Damaged {
        /// The game's number in the file, from 1.
        number: usize,
        /// What is wrong.
        why: String,
    },
    /// A game belongs to no fixture of this schedule, or to another pairing: the file is
    /// another run's.
    Foreign {
        /// The game's number in the file, from 1.
        number: usize,
        /// Its `Round`, `White` and `Black` tags.
        found: String,
    },
    /// Two games of the file are the same fixture's.
    Twice {
        /// The game's number in the file, from 1.
        number: usize,
        /// Its `Round` tag.
        round: String,
    },
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResumeError::Io { path, reason } => write!(f, "{}: {reason}", path.display()),
            ResumeError::Damaged { number, why } => {
                write!(f, "game {number} of the file cannot be read: {why}")
            }
            ResumeError::Foreign { number, found } => {
                write!(
                    f,
                    "game {number} of the file ({found}) is not a game of this match: is it another run's file?"
                )
            }
            ResumeError::Twice { number, round } => {
                write!(f, "game {number} of the file repeats round {round}")
            }
        }
    }
}

impl std::error::Error for ResumeError {}

/// A game read back from the file, before it is matched to a fixture.
#[derive(Clone, Debug)]
pub(super) struct ReadGame {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The game as read.
    pub game: GameRecord,
    /// Its result.
    pub outcome: KnownOutcome,
    /// Its termination, when its `Termination` tag names a failure or an adjudication.
    pub termination: Option<Termination>,
}

impl ReadGame {
    /// A tag's value, `?` when the game has none.
    pub fn tag(&self, name: &str) -> String {
        self.game.tag(name).unwrap_or("?").to_owned()
    }

    /// What it is, for [`ResumeError::Foreign`]: its `Round`, `White` and `Black` tags.
    pub fn foreign(&self) -> ResumeError {
        let found = format!("Round {}, {} - {}", self.tag("Round"), self.tag("White"), self.tag("Black"));
        ResumeError::Foreign { number: self.number, found }
    }
}

/// The whole games of a match's file (none when it does not exist), and whether its end was
/// torn.
pub(super) struct ReadBack {
    path: PathBuf,
    /// The whole games, in the file's order.
    pub games: Vec<ReadGame>,
    torn: bool,
}

impl ReadBack {
    /// Reads `path`, leaving out a torn last game.
    ///
    /// # Errors
    /// [`ResumeError`] when the file is unreadable or damaged before its end.
    pub fn read(path: &Path) -> Result<ReadBack, ResumeError> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(ReadBack { path: path.to_path_buf(), games: Vec::new(), torn: false });
            }
            Err(e) => return Err(io_error(path, &e)),
        };
        let mut games: Vec<Result<GameRecord, String>> =
            read_games(&bytes).map(|g| g.map_err(|e| e.to_string())).collect();
        let torn = !ends_whole(&bytes) && !games.is_empty();
        if torn {
            games.pop();
        }
        let mut read = Vec::new();
        for (i, game) in games.into_iter().enumerate() {
            let number = i + 1;
            let game = game.map_err(|why| ResumeError::Damaged { number, why })?;
            let outcome = match game.result() {
                "1-0" => KnownOutcome::Decisive { winner: Color::White },
                "0-1" => KnownOutcome::Decisive { winner: Color::Black },
                "1/2-1/2" => KnownOutcome::Draw,
                other => return Err(ResumeError::Damaged { number, why: format!("its result is {other}") }),
            };
            let termination = match game.tag("Termination") {
                Some("time forfeit") => Some(Termination::TimeForfeit),
                Some("abandoned") => Some(Termination::Abandoned),
                Some("rules infraction") => Some(Termination::RulesInfraction),
                Some("adjudication") => Some(Termination::Adjudication),
                _ => None,
            };
            read.push(ReadGame { number, game, outcome, termination });
        }
        // Two games of one Round are one fixture's played twice.
        for (i, game) in read.iter().enumerate() {
            let round = game.tag("Round");
            if read[..i].iter().any(|g| g.tag("Round") == round) {
                return Err(ResumeError::Twice { number: game.number, round });
            }
        }
        Ok(ReadBack { path: path.to_path_buf(), games: read, torn })
    }

    /// Cuts a torn last game from the file, which then holds the whole games only.
    ///
    /// # Errors
    /// [`ResumeError::Io`] when the file cannot be written.
    pub fn cut_torn_end(&self) -> Result<(), ResumeError> {
        if self.torn {
            let text: String = self.games.iter().map(|g| write_pgn(&g.game) + "\n").collect();
            write_atomic(&self.path, text.as_bytes()).map_err(|e| io_error(&self.path, &e))?;
        }
        Ok(())
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> ResumeError {
    ResumeError::Io { path: path.to_path_buf(), reason: e.to_string() }
}

/// The games of `path` (none when it does not exist), each matched to a fixture of
/// `fixtures` whose engines are named `names`. A torn last game is cut from the file.
///
/// # Errors
/// [`ResumeError`] when the file is unreadable, damaged before its end, or another run's.
pub fn played_before(
    path: &Path,
    fixtures: &[Fixture],
    names: &[String],
) -> Result<Vec<PlayedBefore>, ResumeError> {
    let back = ReadBack::read(path)?;
    let mut found = Vec::new();
    for read in &back.games {
        let index = fixtures
            .iter()
            .position(|f| {
                f.round_tag() == read.tag("Round")
                    && names[f.white] == read.tag("White")
                    && names[f.black] == read.tag("Black")
            })
            .ok_or_else(|| read.foreign())?;
        found.push(PlayedBefore {
            index,
            game: read.game.clone(),
            outcome: read.outcome,
            termination: read.termination,
        });
    }
    back.cut_torn_end()?;
    Ok(found)
}

/// Whether the text ends as the log leaves it after a whole game: a result marker and a
/// line break.
fn ends_whole(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes);
    let trimmed = text.trim_end();
    trimmed.is_empty()
        || (text.ends_with('\n') && ["1-0", "0-1", "1/2-1/2", "*"].iter().any(|m| trimmed.ends_with(m)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::schedule::{Format, schedule};

    fn game(round: &str, white: &str, black: &str, result: &str) -> String {
        format!(
            "[Event \"m\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. e4 e5 {result}\n\n"
        )
    }

    fn temp(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kibitz-resume-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("games.pgn");
        std::fs::write(&path, text).expect("written");
        path
    }

    #[test]
    fn games_are_matched_to_their_fixtures_and_a_torn_end_is_cut() {
        let fixtures = schedule(Format::Match, 2, 2, 2).expect("schedule");
        let names = vec!["A".to_owned(), "B".to_owned()];
        let whole = game("1.1", "A", "B", "1-0") + &game("1.2", "B", "A", "1/2-1/2");
        let path = temp("torn", &(whole.clone() + "[Event \"m\"]\n[Round \"2.1\"]\n\n1. e4 e5 2. Nf"));
        let before = played_before(&path, &fixtures, &names).expect("resumable");
        assert_eq!(before.iter().map(|p| p.index).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(before[1].outcome, KnownOutcome::Draw);
        let cut = std::fs::read_to_string(&path).expect("rewritten");
        assert_eq!(read_games(cut.as_bytes()).count(), 2, "{cut}");
        assert!(ends_whole(cut.as_bytes()));
        // Read again, the file is whole and unchanged.
        assert_eq!(played_before(&path, &fixtures, &names).expect("again").len(), 2);
        assert_eq!(std::fs::read_to_string(&path).expect("kept"), cut);
    }

    #[test]
    fn another_runs_games_and_repeats_are_refused() {
        let fixtures = schedule(Format::Match, 2, 2, 2).expect("schedule");
        let names = vec!["A".to_owned(), "B".to_owned()];
        let swapped = temp("swapped", &game("1.1", "B", "A", "1-0"));
        assert!(matches!(
            played_before(&swapped, &fixtures, &names),
            Err(ResumeError::Foreign { number: 1, .. })
        ));
        let twice = temp("twice", &(game("1.1", "A", "B", "1-0") + &game("1.1", "A", "B", "0-1")));
        assert!(matches!(
            played_before(&twice, &fixtures, &names),
            Err(ResumeError::Twice { number: 2, .. })
        ));
        let missing = std::env::temp_dir().join("kibitz-resume-no-such-file.pgn");
        assert!(played_before(&missing, &fixtures, &names).expect("nothing yet").is_empty());
    }
}
