//! The index of a PGN file: one compact header per game, with sorting, filtering and loading.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::pgn::read_game_text;
use crate::{GameRecord, PgnError};

/// A column of the game list.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Column {
    /// The `White` tag.
    White,
    /// The `Black` tag.
    Black,
    /// The `Result` tag.
    Result,
    /// The `Date` tag.
    Date,
    /// The `Event` tag.
    Event,
    /// The `ECO` tag.
    Eco,
    /// Number of main-line moves (plies).
    Plies,
    /// Order in the file.
    Number,
}

/// One game of the list, as the index knows it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameHeader<'a> {
    /// The `White` tag (empty when absent).
    pub white: &'a str,
    /// The `Black` tag.
    pub black: &'a str,
    /// The `Result` tag.
    pub result: &'a str,
    /// The `Date` tag.
    pub date: &'a str,
    /// The `Event` tag.
    pub event: &'a str,
    /// The `ECO` tag.
    pub eco: &'a str,
    /// Main-line moves (plies), as written (not checked for legality).
    pub plies: u32,
    /// Byte offset of the game in the file.
    pub offset: u64,
}

/// What the index keeps per game: 36 bytes, strings interned.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    pub offset: u64,
    pub plies: u32,
    /// White, Black, Result, Date, Event, ECO, as ids into the string table.
    pub columns: [u32; 6],
}

/// Every distinct tag value once.
#[derive(Debug, Default)]
pub(crate) struct Strings {
    list: Vec<Box<str>>,
    ids: HashMap<Box<str>, u32>,
}

impl Strings {
    pub fn intern(&mut self, text: &str) -> u32 {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        let id = self.list.len() as u32;
        self.list.push(text.into());
        self.ids.insert(text.into(), id);
        id
    }

    fn get(&self, id: u32) -> &str {
        self.list.get(id as usize).map_or("", |s| s)
    }
}

/// The index of a PGN file's games. Build it with [`GameIndex::build`] or in the background
/// with [`IndexJob`](crate::IndexJob).
///
/// ```no_run
/// use kibitz_engine::{Column, GameIndex};
/// let index = GameIndex::build("games.pgn".as_ref(), &mut |_| std::ops::ControlFlow::Continue(()))?;
/// let mut rows = index.filter("Carlsen");
/// index.sort(&mut rows, Column::Date, true);
/// let game = index.load(rows[0] as usize);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct GameIndex {
    pub(crate) path: PathBuf,
    pub(crate) file_len: u64,
    pub(crate) entries: Vec<Entry>,
    pub(crate) strings: Strings,
    /// `(offset, line)` of every 4096th game, to name lines in errors without storing them all.
    pub(crate) checkpoints: Vec<(u64, u64)>,
}

impl GameIndex {
    /// The file indexed.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Number of games.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the file holds no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The list columns of game `i` (in file order), if there is one.
    #[must_use]
    pub fn header(&self, i: usize) -> Option<GameHeader<'_>> {
        let e = self.entries.get(i)?;
        let s = |k: usize| self.strings.get(e.columns[k]);
        Some(GameHeader {
            white: s(0),
            black: s(1),
            result: s(2),
            date: s(3),
            event: s(4),
            eco: s(5),
            plies: e.plies,
            offset: e.offset,
        })
    }

    /// Every game number, in file order: the unsorted, unfiltered list.
    #[must_use]
    pub fn all(&self) -> Vec<u32> {
        (0..self.entries.len() as u32).collect()
    }

    /// The games whose White, Black, Event or ECO contains `text` (ignoring case), in file order.
    #[must_use]
    pub fn filter(&self, text: &str) -> Vec<u32> {
        let needle = text.to_lowercase();
        if needle.is_empty() {
            return self.all();
        }
        let matching: Vec<bool> =
            self.strings.list.iter().map(|s| s.to_lowercase().contains(&needle)).collect();
        let hit = |id: u32| matching.get(id as usize).copied().unwrap_or(false);
        (0..self.entries.len() as u32)
            .filter(|&i| {
                let c = &self.entries[i as usize].columns;
                hit(c[0]) || hit(c[1]) || hit(c[4]) || hit(c[5])
            })
            .collect()
    }

    /// Sorts a list of game numbers by a column (stable: ties keep their order).
    pub fn sort(&self, rows: &mut [u32], column: Column, descending: bool) {
        let key_column = match column {
            Column::White => Some(0),
            Column::Black => Some(1),
            Column::Result => Some(2),
            Column::Date => Some(3),
            Column::Event => Some(4),
            Column::Eco => Some(5),
            Column::Plies | Column::Number => None,
        };
        let keys: Vec<u32> = match key_column {
            Some(k) => {
                // Rank the distinct strings once, then sort games by rank.
                let mut order: Vec<u32> = (0..self.strings.list.len() as u32).collect();
                order.sort_by(|&a, &b| self.strings.get(a).cmp(self.strings.get(b)));
                let mut rank = vec![0u32; order.len()];
                for (r, &id) in order.iter().enumerate() {
                    rank[id as usize] = r as u32;
                }
                self.entries.iter().map(|e| rank[e.columns[k] as usize]).collect()
            }
            None if column == Column::Plies => self.entries.iter().map(|e| e.plies).collect(),
            None => (0..self.entries.len() as u32).collect(),
        };
        let key = |i: &u32| keys.get(*i as usize).copied().unwrap_or(0);
        if descending {
            rows.sort_by_key(|i| std::cmp::Reverse(key(i)));
        } else {
            rows.sort_by_key(key);
        }
    }

    /// Reads game `i` (in file order) from the file. A broken game comes back as an error with
    /// its line and column in the file and the game up to its last legal move.
    pub fn load(&self, i: usize) -> Result<GameRecord, PgnError> {
        let Some(entry) = self.entries.get(i) else {
            return Err(PgnError::new(format!("There is no game {}.", i + 1)));
        };
        let end = self.entries.get(i + 1).map_or(self.file_len, |e| e.offset);
        let bytes = read_range(&self.path, entry.offset, end)
            .map_err(|e| PgnError::new(format!("{}: {e}", self.path.display())))?;
        let first_line =
            self.line_of(entry.offset).map_err(|e| PgnError::new(format!("{}: {e}", self.path.display())))?;
        read_game_text(&bytes, first_line as usize)
    }

    /// The 1-based line at a byte offset, counted from the nearest checkpoint.
    fn line_of(&self, offset: u64) -> io::Result<u64> {
        let at = self.checkpoints.partition_point(|&(o, _)| o <= offset);
        let (from, line) = at.checked_sub(1).map_or((0, 1), |k| self.checkpoints[k]);
        let bytes = read_range(&self.path, from, offset)?;
        Ok(line + bytes.iter().filter(|&&b| b == b'\n').count() as u64)
    }
}

fn read_range(path: &Path, start: u64, end: u64) -> io::Result<Vec<u8>> {
    let mut file = File::open(path)?;
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::with_capacity(end.saturating_sub(start) as usize);
    file.take(end.saturating_sub(start)).read_to_end(&mut bytes)?;
    Ok(bytes)
}
