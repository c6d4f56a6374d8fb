//! Syzygy tablebases: a folder of tables opened once and shared, by the search (WDL probes
//! below the root, DTZ at the root, so that won endings are converted within the fifty-move
//! rule) and by the arbiter of a match (see [`TablebaseRule`](crate::TablebaseRule)).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use shakmaty::{Chess, Color, Move, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};

use crate::{Ending, Termination};

/// A folder of Syzygy tables, opened once and shared (by the games of a match, by the search).
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
        SyzygyTables::open_all(&[folder.as_ref().to_path_buf()])
    }

    /// Opens the tables of a list of folders as engines take it in `SyzygyPath`: separated by
    /// `:` (`;` on Windows). The first folder is the one [`SyzygyTables::folder`] names.
    pub fn open_list(list: &str) -> Result<SyzygyTables, TablebaseError> {
        let folders: Vec<PathBuf> =
            std::env::split_paths(list).filter(|f| !f.as_os_str().is_empty()).collect();
        SyzygyTables::open_all(&folders)
    }

    fn open_all(folders: &[PathBuf]) -> Result<SyzygyTables, TablebaseError> {
        let mut tables = Tablebase::new();
        let mut files = 0;
        for folder in folders {
            files += tables
                .add_directory(folder)
                .map_err(|source| TablebaseError::Unreadable { folder: folder.clone(), source })?;
        }
        let folder = folders.first().cloned().unwrap_or_default();
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

    /// How many table files the folder holds.
    #[must_use]
    pub fn files(&self) -> usize {
        self.files
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

/// What the tables say about the root of a search: the moves that keep its value under the
/// fifty-move rule, and that value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// The root's value for the side to move, the fifty-move counter included.
    pub wdl: Wdl,
    /// The moves the search should choose among. For a win, the moves that make the fastest
    /// progress by DTZ (a mate, else a capture or pawn move that keeps the win, else the
    /// shortest distance to one), so that following them converts within the fifty-move rule;
    /// for a loss, the moves that resist longest; otherwise every move that keeps the value.
    pub moves: Vec<Move>,
}

/// One root move's value by the tables, from the mover's point of view.
struct RankedMove {
    m: Move,
    wdl: AmbiguousWdl,
    mates: bool,
    zeroing: bool,
    /// The distance to zeroing of the position after the move, in plies, for its side to
    /// move (negative when that side loses).
    dtz: i32,
}

impl SyzygyTables {
    /// The value of `pos` for the search below the root: only positions straight after a
    /// capture or pawn move (halfmove clock 0), where the WDL tables alone are exact, with no
    /// castling rights and few enough pieces. From the side to move's point of view.
    #[must_use]
    pub(crate) fn probe_search(&self, pos: &Chess) -> Option<Wdl> {
        if pos.halfmoves() != 0 || pos.board().occupied().count() > self.max_pieces() {
            return None;
        }
        self.tables.probe_wdl_after_zeroing(pos).ok()
    }

    /// The root moves to search in `pos`, by the DTZ tables; `None` when the tables do not
    /// cover `pos` (too many pieces, castling rights, a missing or damaged table), and the search
    /// goes on without them.
    #[must_use]
    pub fn rank_root(&self, pos: &Chess) -> Option<RootRanking> {
        if pos.board().occupied().count() > self.max_pieces() || pos.castles().any() {
            return None;
        }
        let mut ranked = Vec::new();
        for m in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let zeroing = m.is_zeroing();
            let mates = after.is_checkmate();
            let (wdl, dtz) = if mates {
                (AmbiguousWdl::Win, 0)
            } else {
                let dtz = self.tables.probe_dtz(&after).ok()?;
                let theirs = if zeroing {
                    AmbiguousWdl::from(self.tables.probe_wdl_after_zeroing(&after).ok()?)
                } else {
                    AmbiguousWdl::from_dtz_and_halfmoves(dtz, after.halfmoves())
                };
                (-theirs, dtz.ignore_rounding().0)
            };
            ranked.push(RankedMove { m, wdl, mates, zeroing, dtz });
        }
        let best = ranked.iter().map(|r| r.wdl).max()?;
        ranked.retain(|r| r.wdl == best);
        let wdl = best.after_zeroing();
        // Fastest progress for a win (a mate, then zeroing, then the opponent's shortest
        // distance to zeroing); longest resistance for a loss.
        let key = |r: &RankedMove| match wdl {
            Wdl::Win => Some((!r.mates, !r.zeroing, r.dtz.abs())),
            Wdl::Loss => Some((false, r.zeroing, -r.dtz.abs())),
            _ => None,
        };
        if let Some(fastest) = ranked.iter().map(key).min() {
            ranked.retain(|r| key(r) == fastest);
        }
        Some(RootRanking { wdl, moves: ranked.into_iter().map(|r| r.m).collect() })
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    use super::*;

    const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy");

    fn pos(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("fen");
        fen.into_position(CastlingMode::Standard).expect("legal")
    }

    fn uci(moves: &[Move]) -> Vec<String> {
        moves.iter().map(|&m| m.to_uci(CastlingMode::Standard).to_string()).collect()
    }

    #[test]
    fn a_winning_capture_is_the_only_root_move() {
        let tables = SyzygyTables::open(TABLES).expect("tables");
        // KRvKR: the king takes the unguarded rook.
        let ranking = tables.rank_root(&pos("8/8/8/3k4/8/8/3r4/R3K3 w - - 0 1")).expect("covered");
        assert_eq!(ranking.wdl, Wdl::Win);
        assert_eq!(uci(&ranking.moves), ["e1d2"]);
    }

    #[test]
    fn a_drawn_root_keeps_every_move_but_the_blunders() {
        let tables = SyzygyTables::open(TABLES).expect("tables");
        let root = pos("8/8/3k4/8/8/3K4/r7/7R w - - 0 1");
        let ranking = tables.rank_root(&root).expect("covered");
        assert_eq!(ranking.wdl, Wdl::Draw);
        let kept = uci(&ranking.moves);
        // Rh2 hangs the rook to Rxh2.
        assert!(!kept.contains(&"h1h2".to_owned()), "{kept:?}");
        assert!(kept.len() > 10, "{kept:?}");
        assert!(kept.len() < root.legal_moves().len());
        let blunder: UciMove = "h1h2".parse().expect("uci");
        assert!(blunder.to_move(&root).is_ok(), "the blunder is legal");
    }

    #[test]
    fn won_roots_keep_the_fastest_moves_and_beyond_the_tables_there_is_no_ranking() {
        let tables = SyzygyTables::open(TABLES).expect("tables");
        let root = pos("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
        let ranking = tables.rank_root(&root).expect("covered");
        assert_eq!(ranking.wdl, Wdl::Win);
        let distance = |m: Move| {
            let after = root.clone().play(m).expect("legal");
            tables.tables.probe_dtz(&after).expect("dtz").ignore_rounding().0.abs()
        };
        let fastest = root.legal_moves().iter().map(|&m| distance(m)).min().expect("moves");
        assert!(ranking.moves.iter().all(|&m| distance(m) == fastest));
        let five = pos("8/8/8/3k4/8/8/2rr4/KQ6 w - - 0 60");
        assert_eq!(tables.rank_root(&five), None);
        let castling = pos("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
        assert_eq!(tables.rank_root(&castling), None);
    }

    #[test]
    fn a_path_list_opens_every_folder_it_names() {
        let epd = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/epd");
        let both = SyzygyTables::open_list(&format!("{epd}:{TABLES}")).expect("the second folder has tables");
        assert_eq!(both.files(), 70);
        assert!(both.folder().ends_with("epd"));
        assert!(matches!(SyzygyTables::open_list(epd), Err(TablebaseError::NoTables { .. })));
        assert!(matches!(
            SyzygyTables::open_list(&format!("{TABLES}:/no/such/folder")),
            Err(TablebaseError::Unreadable { .. })
        ));
    }
}
