//! What the pieces attack, gathered once in the mobility pass and shared by the terms that
//! need it: the squares each side attacks (for threats and king safety) and the pieces bearing
//! on each king's zone (for king danger).

use shakmaty::{Bitboard, Board, Color, Role, attacks};

use super::masks::pawn_attacks;
use super::pawns::count;
use super::weights::KING_ATTACKER_WEIGHT;

/// The pieces that get a mobility score, in the order of [`MOBILITY`](super::weights::MOBILITY)
/// and of every per-role table of the evaluation.
pub const MOBILE: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// The squares one side attacks: its pawns and king from the start, its knights, bishops,
/// rooks and queens added while their moves are generated for mobility.
#[derive(Clone, Copy, Debug)]
pub struct Attacks {
    /// Attacked by a piece of each role of [`MOBILE`]: knight, bishop, rook, queen.
    pub by_role: [Bitboard; 4],
    /// Attacked by a pawn.
    pub by_pawns: Bitboard,
    /// Attacked by the king.
    pub by_king: Bitboard,
}

impl Attacks {
    /// The attacks of `color`'s pawns and king, before any piece is added.
    #[must_use]
    pub fn of_pawns_and_king(board: &Board, color: Color) -> Attacks {
        Attacks {
            by_role: [Bitboard::EMPTY; 4],
            by_pawns: pawn_attacks(color, board.pawns() & board.by_color(color)),
            by_king: board.king_of(color).map_or(Bitboard::EMPTY, attacks::king_attacks),
        }
    }

    /// Adds the squares `reach` that a piece of role [`MOBILE`]`[index]` attacks.
    pub fn add(&mut self, index: usize, reach: Bitboard) {
        self.by_role[index] |= reach;
    }

    /// Attacked by a knight or bishop.
    #[must_use]
    pub fn by_minors(&self) -> Bitboard {
        self.by_role[0] | self.by_role[1]
    }

    /// Attacked by a rook.
    #[must_use]
    pub fn by_rooks(&self) -> Bitboard {
        self.by_role[2]
    }

    /// Attacked by a knight, bishop, rook or queen.
    #[must_use]
    pub fn by_pieces(&self) -> Bitboard {
        self.by_minors() | self.by_role[2] | self.by_role[3]
    }

    /// Attacked by anything.
    #[must_use]
    pub fn all(&self) -> Bitboard {
        self.by_pieces() | self.by_pawns | self.by_king
    }
}

/// The enemy pieces attacking a king's zone (its square and neighbours), tallied while their
/// moves are generated for mobility.
#[derive(Clone, Copy, Debug)]
pub struct KingAttack {
    /// The king's square and its neighbours.
    pub zone: Bitboard,
    /// How many pieces attack the zone.
    pub attackers: i32,
    /// The sum of their [`KING_ATTACKER_WEIGHT`](super::weights::KING_ATTACKER_WEIGHT)s.
    pub weight: i32,
    /// How many zone squares they attack, each counted once per attacker.
    pub hits: i32,
}

impl KingAttack {
    /// An empty tally against `color`'s king.
    #[must_use]
    pub fn on(board: &Board, color: Color) -> KingAttack {
        let zone =
            board.king_of(color).map_or(Bitboard::EMPTY, |king| attacks::king_attacks(king).with(king));
        KingAttack { zone, attackers: 0, weight: 0, hits: 0 }
    }

    /// Counts a piece of role [`MOBILE`]`[index]` that attacks `reach`, if that touches the zone.
    pub fn add(&mut self, index: usize, reach: Bitboard) {
        let hits = reach & self.zone;
        if hits.any() {
            self.attackers += 1;
            self.weight += KING_ATTACKER_WEIGHT[index];
            self.hits += count(hits);
        }
    }
}
