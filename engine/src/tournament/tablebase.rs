//! Tablebase adjudication: a game that reaches a position of the Syzygy tables ends with the
//! tables' verdict, the fifty-move rule included (a win that cannot be forced before the
//! fifty-move counter runs out is a draw, as cutechess and fastchess adjudicate).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Color, Position};
use shakmaty_syzygy::{Material, Tablebase, Wdl};

use crate::tournament::adjudication::color_name;
use crate::{Ending, Termination};

/// A folder of Syzygy tables, opened once and shared by the games of a match.
pub struct SyzygyTables {
    tables: Tablebase<Chess>,
    folder: PathBuf,
    files: usize,
}

impl fmt::Debug for SyzygyTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyzygyTables")
            .field("folder", &self.folder)
            .field("files", &self.files)
            .field("max_pieces", &self.max_pieces())
            .finish()
    }
}

/// A folder of Syzygy tables that could not be used.
#[derive(Debug)]
pub enum TablebaseError {
    /// The folder could not be read, or a table in it is damaged.
    Unreadable {
        /// The folder.
        folder: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// The folder holds no Syzygy table (`KRvK.rtbw`, `KRvK.rtbz`, ...).
    NoTables {
        /// The folder.
        folder: PathBuf,
    },
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Unreadable { folder, source } => {
                write!(f, "The Syzygy tables in {} cannot be read: {source}.", folder.display())
            }
            TablebaseError::NoTables { folder } => {
                write!(
                    f,
                    "{} holds no Syzygy tables (files such as KRvK.rtbw and KRvK.rtbz).",
                    folder.display()
                )
            }
        }
    }
}

impl std::error::Error for TablebaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TablebaseError::Unreadable { source, .. } => Some(source),
            TablebaseError::NoTables { .. } => None,
        }
    }
}

/// What the tables say about a position, under the fifty-move rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TablebaseVerdict {
    /// The side wins whatever the defence, within the fifty-move rule.
    Won(Color),
    /// Drawn with best play.
    Drawn,
    /// The side would win, but not before the fifty-move counter runs out: a draw (a cursed
    /// win, or a blessed loss for the other side).
    CursedWin(Color),
}

impl TablebaseVerdict {
    /// The game's ending by this verdict.
    #[must_use]
    pub fn ending(self) -> Ending {
        match self {
            TablebaseVerdict::Won(winner) => Ending::win(winner, Termination::Adjudication),
            TablebaseVerdict::Drawn | TablebaseVerdict::CursedWin(_) => {
                Ending::draw(Termination::Adjudication)
            }
        }
    }
}

impl SyzygyTables {
    /// Opens the tables in `folder` (the files are read when a position needs them).
    pub fn open(folder: impl AsRef<Path>) -> Result<SyzygyTables, TablebaseError> {
        let folder = folder.as_ref().to_path_buf();
        let mut tables = Tablebase::new();
        let files = tables
            .add_directory(&folder)
            .map_err(|source| TablebaseError::Unreadable { folder: folder.clone(), source })?;
        if files == 0 {
            return Err(TablebaseError::NoTables { folder });
        }
        Ok(SyzygyTables { tables, folder, files })
    }

    /// The folder the tables came from.
    #[must_use]
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The most pieces (kings included) of any table present.
    #[must_use]
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// The verdict on `pos`, with its halfmove clock, when the tables know it. `None` for a
    /// position with castling rights or more pieces than the tables, a missing table, or a win
    /// whose DTZ rounding leaves in doubt whether it comes within the fifty-move rule.
    #[must_use]
    pub fn verdict(&self, pos: &Chess) -> Option<TablebaseVerdict> {
        let wdl = match self.tables.probe_wdl(pos) {
            Ok(wdl) => wdl.unambiguous()?,
            // Without the DTZ table, a position straight after a capture or pawn move still has
            // an exact verdict.
            Err(_) if pos.halfmoves() == 0 => self.tables.probe_wdl_after_zeroing(pos).ok()?,
            Err(_) => return None,
        };
        let us = pos.turn();
        Some(match wdl {
            Wdl::Win => TablebaseVerdict::Won(us),
            Wdl::Loss => TablebaseVerdict::Won(!us),
            Wdl::Draw => TablebaseVerdict::Drawn,
            Wdl::CursedWin => TablebaseVerdict::CursedWin(us),
            Wdl::BlessedLoss => TablebaseVerdict::CursedWin(!us),
        })
    }
}

/// Tablebase adjudication: positions of up to `max_pieces` pieces (kings included, and no more
/// than the tables present hold) end with the tables' verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablebaseRule {
    /// The most pieces of a position the rule adjudicates.
    pub max_pieces: u32,
}

impl Default for TablebaseRule {
    /// Six pieces, as TCEC adjudicates.
    fn default() -> Self {
        TablebaseRule { max_pieces: 6 }
    }
}

impl TablebaseRule {
    /// The ending and its reason when `tables` know `pos` and it has few enough pieces.
    #[must_use]
    pub fn decide(&self, tables: &SyzygyTables, pos: &Chess) -> Option<(Ending, String)> {
        let pieces = pos.board().occupied().count();
        if pieces > self.max_pieces as usize || pieces > tables.max_pieces() {
            return None;
        }
        let verdict = tables.verdict(pos)?;
        let material = Material::from_board(pos.board());
        let why = match verdict {
            TablebaseVerdict::Won(winner) => format!("Syzygy: {material} is won for {}", color_name(winner)),
            TablebaseVerdict::Drawn => format!("Syzygy: {material} is drawn"),
            TablebaseVerdict::CursedWin(side) => format!(
                "Syzygy: {material} is a win for {} that the fifty-move rule makes a draw",
                color_name(side)
            ),
        };
        Some((verdict.ending(), why))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy");

    fn tables() -> SyzygyTables {
        SyzygyTables::open(TABLES).expect("data/syzygy holds the 3- and 4-piece tables")
    }

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("fen");
        fen.into_position(CastlingMode::Standard).expect("legal")
    }

    #[test]
    fn the_repository_tables_open() {
        let tables = tables();
        assert_eq!(tables.max_pieces(), 4);
        assert_eq!(tables.files, 70);
        assert!(matches!(
            SyzygyTables::open(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/epd")),
            Err(TablebaseError::NoTables { .. })
        ));
        assert!(matches!(
            SyzygyTables::open(concat!(env!("CARGO_MANIFEST_DIR"), "/../data/no-such-folder")),
            Err(TablebaseError::Unreadable { .. })
        ));
    }

    #[test]
    fn a_won_position_is_a_win_and_a_bare_king_pair_a_draw() {
        let tables = tables();
        let rule = TablebaseRule::default();
        // KRvK, Black to move: lost for Black.
        let (ending, why) = rule.decide(&tables, &pos("8/8/8/4k3/8/8/8/R3K3 b - - 0 60")).expect("known");
        assert_eq!(ending, Ending::win(Color::White, Termination::Adjudication));
        assert_eq!(why, "Syzygy: KRvK is won for White");
        // KBvK cannot be won.
        let (ending, why) = rule.decide(&tables, &pos("8/8/8/4k3/8/8/8/B3K3 b - - 0 60")).expect("known");
        assert_eq!(ending, Ending::draw(Termination::Adjudication));
        assert_eq!(why, "Syzygy: KBvK is drawn");
        // KQvKR with Black to move: won for White.
        let (ending, _) = rule.decide(&tables, &pos("8/8/8/3k4/8/8/2r5/KQ6 b - - 0 60")).expect("known");
        assert_eq!(ending, Ending::win(Color::White, Termination::Adjudication));
    }

    #[test]
    fn a_win_too_late_for_the_fifty_move_rule_is_a_draw() {
        let tables = tables();
        let rule = TablebaseRule::default();
        // KRvK from a corner-far position: White needs several moves to zero (mate) the counter.
        let fresh = pos("8/8/8/4k3/8/8/8/R3K3 w - - 0 60");
        assert_eq!(tables.verdict(&fresh), Some(TablebaseVerdict::Won(Color::White)));
        // With 99 plies on the counter the mate cannot come before the fifty-move rule.
        let late = pos("8/8/8/4k3/8/8/8/R3K3 w - - 99 60");
        assert_eq!(tables.verdict(&late), Some(TablebaseVerdict::CursedWin(Color::White)));
        let (ending, why) = rule.decide(&tables, &late).expect("known");
        assert_eq!(ending, Ending::draw(Termination::Adjudication));
        assert_eq!(why, "Syzygy: KRvK is a win for White that the fifty-move rule makes a draw");
        // The losing side's view: a blessed loss for Black is the same draw.
        let late_black = pos("8/8/8/4k3/8/8/8/R3K3 b - - 99 60");
        assert_eq!(tables.verdict(&late_black), Some(TablebaseVerdict::CursedWin(Color::White)));
    }

    #[test]
    fn positions_beyond_the_tables_or_the_limit_are_not_adjudicated() {
        let tables = tables();
        // Five pieces: more than the tables hold.
        let five = pos("8/8/8/3k4/8/8/2rr4/KQ6 w - - 0 60");
        assert_eq!(TablebaseRule::default().decide(&tables, &five), None);
        assert_eq!(tables.verdict(&five), None);
        // Four pieces, but the rule stops at three.
        let four = pos("8/8/8/3k4/8/8/2r5/KQ6 b - - 0 60");
        assert_eq!(TablebaseRule { max_pieces: 3 }.decide(&tables, &four), None);
        // Castling rights are never in the tables.
        let castling = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(tables.verdict(&castling), None);
    }
}
