//! How a book names positions and moves: the Polyglot Zobrist key and the Polyglot 16-bit move.

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position, Role, Square};

/// The Polyglot key of a position: shakmaty's 64-bit Zobrist hash with the en-passant file
/// counted whenever a pawn of the side to move stands next to the pawn that just advanced two
/// squares, legal capture or not (`EnPassantMode::PseudoLegal`). That is the Polyglot
/// definition, and what `polyglot make-book` and python-chess compute; `Legal` differs from
/// them when the capturing pawn is pinned. Transpositions meet in the book.
///
/// ```
/// use kibitz_engine::book_key;
/// assert_eq!(book_key(&shakmaty::Chess::default()), 0x463b_9618_1691_fc9c);
/// ```
#[must_use]
pub fn book_key(pos: &Chess) -> u64 {
    let hash: Zobrist64 = pos.zobrist_hash(EnPassantMode::PseudoLegal);
    hash.0
}

/// The key of the position after `m`, computed incrementally when shakmaty can.
pub(crate) fn key_after(pos: &Chess, key: u64, m: Move) -> (Chess, u64) {
    let incremental = pos.update_zobrist_hash(Zobrist64(key), m, EnPassantMode::PseudoLegal);
    let mut next = pos.clone();
    next.play_unchecked(m);
    let key = match incremental {
        Some(hash) => hash.0,
        None => book_key(&next),
    };
    (next, key)
}

/// Encodes a move the Polyglot way: bits 0-5 the target square, 6-11 the origin, 12-14 the
/// promotion piece (1 knight, 2 bishop, 3 rook, 4 queen). Castling is written as the king
/// taking its own rook (`e1h1`), so that it can never be confused with a king move.
///
/// ```
/// use kibitz_engine::{GameRecord, encode_move, decode_move};
/// let game = GameRecord::new();
/// let e4 = game.parse_move("e4").unwrap();
/// let code = encode_move(e4);
/// assert_eq!(code, (12 << 6) | 28);
/// assert_eq!(decode_move(game.position(), code), Some(e4));
/// ```
#[must_use]
pub fn encode_move(m: Move) -> u16 {
    let (from, to) = match m {
        Move::Castle { king, rook } => (king, rook),
        _ => (m.from().unwrap_or(Square::A1), m.to()),
    };
    let promotion = match m.promotion() {
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
        _ => 0,
    };
    (promotion << 12) | ((u16::from(from) & 63) << 6) | (u16::from(to) & 63)
}

/// The legal move of `pos` that `code` names, if there is one.
#[must_use]
pub fn decode_move(pos: &Chess, code: u16) -> Option<Move> {
    pos.legal_moves().into_iter().find(|&m| encode_move(m) == code)
}

/// The move as Polyglot's UCI text (`e1h1` for castling).
#[must_use]
pub fn move_code_text(code: u16) -> String {
    let square = |i: u16| {
        let file = (b'a' + (i & 7) as u8) as char;
        let rank = (b'1' + ((i >> 3) & 7) as u8) as char;
        format!("{file}{rank}")
    };
    let mut text = format!("{}{}", square((code >> 6) & 63), square(code & 63));
    if let Some(p) = ["", "n", "b", "r", "q"].get(usize::from((code >> 12) & 7)) {
        text.push_str(p);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GameRecord;

    #[test]
    fn polyglot_reference_keys() {
        // The keys listed in the Polyglot book format description.
        let cases: [(&[&str], u64); 9] = [
            (&[], 0x463b_9618_1691_fc9c),
            (&["e4"], 0x823c_9b50_fd11_4196),
            (&["e4", "d5"], 0x0756_b944_61c5_0fb0),
            (&["e4", "d5", "e5"], 0x662f_afb9_65db_29d4),
            (&["e4", "d5", "e5", "f5"], 0x22a4_8b5a_8e47_ff78),
            (&["e4", "d5", "e5", "f5", "Ke2"], 0x652a_607c_a3f2_42c1),
            (&["e4", "d5", "e5", "f5", "Ke2", "Kf7"], 0x00fd_d303_c946_bdd9),
            (&["a4", "b5", "h4", "b4", "c4"], 0x3c81_23ea_7b06_7637),
            (&["a4", "b5", "h4", "b4", "c4", "bxc3", "Ra3"], 0x5c3f_9b82_9b27_9560),
        ];
        for (moves, key) in cases {
            let mut game = GameRecord::new();
            for san in moves {
                game.play_text(san).unwrap();
            }
            assert_eq!(book_key(game.position()), key, "{moves:?}");
        }
    }

    #[test]
    fn incremental_key_matches() {
        let mut game = GameRecord::new();
        for san in ["e4", "d5", "e5", "f5", "exf6", "Nc6", "Bb5", "Bd7", "Nf3", "Qc8"] {
            let pos = game.position().clone();
            let m = game.parse_move(san).unwrap();
            let (_, key) = key_after(&pos, book_key(&pos), m);
            game.play(m).unwrap();
            assert_eq!(key, book_key(game.position()), "{san}");
        }
        let castle = game.parse_move("O-O").unwrap();
        assert_eq!(move_code_text(encode_move(castle)), "e1h1");
    }
}
