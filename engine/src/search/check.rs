//! Which moves give check, answered for each of a node's moves from what the node computes
//! once: the squares from which each kind of piece attacks the enemy king, and the pieces
//! whose move uncovers an attack on it.

use shakmaty::{Bitboard, Board, Chess, Move, Piece, Position, Square, attacks};

/// What a position knows about checking the side not to move.
pub struct Checks {
    /// The enemy king.
    king: Option<Square>,
    /// By role, pawn to king: the squares from which a piece of the side to move of that role
    /// attacks the enemy king.
    squares: [Bitboard; 6],
    /// Pieces of the side to move that stand alone between one of its sliders and the enemy
    /// king: moving one off that line gives a discovered check.
    discoverers: Bitboard,
}

impl Checks {
    /// What `pos` knows about checking the side not to move.
    #[must_use]
    pub fn new(pos: &Chess) -> Checks {
        let board = pos.board();
        let us = pos.turn();
        let Some(king) = board.king_of(!us) else {
            return Checks { king: None, squares: [Bitboard::EMPTY; 6], discoverers: Bitboard::EMPTY };
        };
        let occupied = board.occupied();
        let straight = attacks::rook_attacks(king, occupied);
        let diagonal = attacks::bishop_attacks(king, occupied);
        let squares = [
            attacks::pawn_attacks(!us, king),
            attacks::knight_attacks(king),
            diagonal,
            straight,
            straight | diagonal,
            Bitboard::EMPTY,
        ];
        let ours = board.by_color(us);
        Checks { king: Some(king), squares, discoverers: lone_blockers(board, king, ours) & ours }
    }

    /// The squares to which a piece of `role` on `from` moves to give check, for moves that
    /// promote nothing.
    #[must_use]
    pub fn targets(&self, role: shakmaty::Role, from: Square) -> Bitboard {
        let Some(king) = self.king else { return Bitboard::EMPTY };
        let direct = self.squares[role as usize - 1];
        if self.discoverers.contains(from) { direct | !attacks::ray(from, king) } else { direct }
    }

    /// Whether the legal move `m` of `pos` (the position these checks were made for) gives
    /// check.
    #[must_use]
    pub fn gives_check(&self, pos: &Chess, m: Move) -> bool {
        let Some(king) = self.king else { return false };
        match m {
            // A slider that moves along a line through the king did not attack it before, so
            // its target sees the king past the square it leaves only if it did: today's
            // attack squares are exact for every move but promotions.
            Move::Normal { role, from, to, promotion: None, .. } => {
                self.squares[role as usize - 1].contains(to)
                    || (self.discoverers.contains(from) && !attacks::aligned(from, to, king))
            }
            _ => gives_check(pos, m),
        }
    }
}

/// The pieces that stand alone on a line between `king` and a slider among `snipers`: the
/// sliders' own pieces there uncover an attack when they move off the line, the king's own
/// are pinned to it.
pub(super) fn lone_blockers(board: &Board, king: Square, snipers: Bitboard) -> Bitboard {
    let snipers = snipers
        & ((attacks::rook_attacks(king, Bitboard::EMPTY) & (board.rooks() | board.queens()))
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & (board.bishops() | board.queens())));
    let mut blockers = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(sniper, king) & board.occupied();
        if between.count() == 1 {
            blockers |= between;
        }
    }
    blockers
}

/// Whether `m` gives check, found from attacks without playing it (castling and en passant,
/// which move two pieces, are played on a copy): the general case behind
/// [`Checks::gives_check`].
fn gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal { role, from, to, promotion, .. } = m else {
        let mut child = pos.clone();
        child.play_unchecked(m);
        return child.is_check();
    };
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(!us) else {
        return false;
    };
    let occupied = (board.occupied() ^ Bitboard::from(from)) | Bitboard::from(to);
    let piece = Piece { color: us, role: promotion.unwrap_or(role) };
    if attacks::attacks(to, piece, occupied).contains(king) {
        return true;
    }
    // A discovered check: one of our other sliders now sees the king.
    let ours = board.by_color(us) & !Bitboard::from(from);
    let straight = (board.rooks() | board.queens()) & ours & attacks::rook_attacks(king, occupied);
    let diagonal = (board.bishops() | board.queens()) & ours & attacks::bishop_attacks(king, occupied);
    (straight | diagonal).any()
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen};

    use super::*;

    #[test]
    fn both_ways_agree_with_playing_the_move() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/perft/standard.epd");
        let text = std::fs::read_to_string(path).expect("data/perft/standard.epd is readable");
        let mut checks = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let fen: Fen = line.split(';').next().unwrap_or_default().trim().parse().expect("FEN");
            let Ok(root) = fen.into_position::<Chess>(CastlingMode::Chess960) else { continue };
            // The position and every position one move later.
            let mut positions = vec![root.clone()];
            positions.extend(root.legal_moves().into_iter().map(|m| root.clone().play(m).expect("legal")));
            for pos in positions {
                let node = Checks::new(&pos);
                for m in pos.legal_moves() {
                    let played = pos.clone().play(m).expect("legal").is_check();
                    assert_eq!(gives_check(&pos, m), played, "{line}: {m}");
                    assert_eq!(node.gives_check(&pos, m), played, "{line}: {m}");
                    checks += usize::from(played);
                }
            }
        }
        assert!(checks > 1_000, "only {checks} checking moves: the suite did not load");
    }
}
