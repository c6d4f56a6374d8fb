//! Tablebase adjudication: a game that reaches a position of the Syzygy tables ends with the
//! tables' verdict, the fifty-move rule included (a win that cannot be forced before the
//! fifty-move counter runs out is a draw, as cutechess and fastchess adjudicate).

use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Position};
use shakmaty_syzygy::Material;

use crate::tournament::adjudication::color_name;
use crate::{Ending, SyzygyTables, TablebaseVerdict};

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
    use crate::{TablebaseError, Termination};
    use shakmaty::CastlingMode;
    use shakmaty::Color;
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
        assert_eq!(tables.files(), 70);
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
