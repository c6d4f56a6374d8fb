//! Static exchange evaluation: the material balance of the capture sequence on one square,
//! each side recapturing with its least valuable piece and free to stop.

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square, attacks};

use super::params::SEE_VALUES;

/// The SEE value of a role.
fn value(role: Role) -> i32 {
    SEE_VALUES[role as usize - 1]
}

/// An exchange as the move that opens it leaves it.
struct Exchange {
    /// The square exchanged on.
    to: Square,
    /// The piece the move puts there.
    on_square: Role,
    /// The material the move wins.
    gain: i32,
    /// The occupied squares once it is made.
    occupied: Bitboard,
}

impl Exchange {
    /// The exchange `m` opens in `pos`; none for castling and drops.
    fn start(pos: &Chess, m: Move) -> Option<Exchange> {
        let (from, to, role, captured, promotion) = match m {
            Move::Normal { role, from, capture, to, promotion } => (from, to, role, capture, promotion),
            Move::EnPassant { from, to } => (from, to, Role::Pawn, Some(Role::Pawn), None),
            Move::Castle { .. } | Move::Put { .. } => return None,
        };
        let mut occupied = pos.board().occupied();
        occupied.discard(from);
        if let Move::EnPassant { from, to } = m {
            // The captured pawn stands beside the capturing one, on the target's file.
            occupied.discard(Square::from_coords(to.file(), from.rank()));
        }
        let gain = captured.map_or(0, value) + promotion.map_or(0, |p| value(p) - value(Role::Pawn));
        Some(Exchange { to, on_square: promotion.unwrap_or(role), gain, occupied })
    }
}

/// The least valuable of `attackers` on `board`, and its role.
fn least_valuable(board: &Board, attackers: Bitboard) -> Option<(Square, Role)> {
    Role::ALL.into_iter().find_map(|r| (attackers & board.by_role(r)).first().map(|sq| (sq, r)))
}

/// The material the side to move gains by `m` and the exchanges that may follow on its
/// target square, in centipawns; negative when the move loses material. Pins and checks
/// are ignored, as usual for SEE.
#[must_use]
pub fn see(pos: &Chess, m: Move) -> i32 {
    let Some(Exchange { to, mut on_square, gain: first, mut occupied }) = Exchange::start(pos, m) else {
        return 0;
    };
    let board = pos.board();
    let mut gain = [0i32; 40];
    gain[0] = first;
    let mut side = !pos.turn();
    let mut depth = 0;
    // Both sides' pieces that attack the square. Only the sliders' attacks depend on what
    // stands between, so after each capture only they are looked up again.
    let diagonal = board.bishops() | board.queens();
    let straight = board.rooks() | board.queens();
    let sliders = |occupied: Bitboard| {
        (attacks::bishop_attacks(to, occupied) & diagonal) | (attacks::rook_attacks(to, occupied) & straight)
    };
    let mut attackers = ((attacks::pawn_attacks(Color::White, to) & board.pawns() & board.black())
        | (attacks::pawn_attacks(Color::Black, to) & board.pawns() & board.white())
        | (attacks::knight_attacks(to) & board.knights())
        | (attacks::king_attacks(to) & board.kings())
        | sliders(occupied))
        & occupied;
    loop {
        let ours = attackers & board.by_color(side);
        if ours.is_empty() || depth + 1 >= gain.len() {
            break;
        }
        let Some((sq, attacker)) = least_valuable(board, ours) else { break };
        depth += 1;
        gain[depth] = value(on_square) - gain[depth - 1];
        if (-gain[depth - 1]).max(gain[depth]) < 0 {
            // Neither standing pat nor this capture helps its side: it will not be made.
            depth -= 1;
            break;
        }
        if attacker == Role::King && !(attackers & board.by_color(!side) & !board.kings()).is_empty() {
            // The king cannot capture onto a defended square.
            depth -= 1;
            break;
        }
        occupied.discard(sq);
        attackers = (attackers | sliders(occupied)) & occupied;
        on_square = attacker;
        side = !side;
    }
    while depth > 0 {
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
        depth -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let fen: Fen = fen.parse().expect("FEN");
        let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
        let m = uci.parse::<UciMove>().expect("uci").to_move(&pos).expect("legal move");
        see(&pos, m)
    }

    #[test]
    fn exchanges() {
        let pawn = value(Role::Pawn);
        let knight = value(Role::Knight);
        let rook = value(Role::Rook);
        // An undefended pawn.
        assert_eq!(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), pawn);
        // A defended pawn taken by a queen loses the queen for a pawn... here by a knight.
        assert_eq!(see_of("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"), pawn - knight);
        // Rook takes a rook defended by a pawn.
        assert_eq!(see_of("4k3/8/2p5/3r4/8/8/8/3RK3 w - - 0 1", "d1d5"), 0);
        // With a second rook behind, White wins the pawn as well.
        assert_eq!(see_of("4k3/8/2p5/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), pawn);
        // Quiet moves to an attacked square lose the piece.
        assert_eq!(see_of("4k3/8/2p5/8/8/8/8/3RK3 w - - 0 1", "d1d5"), -rook);
        // The king does not capture a defended piece.
        assert_eq!(see_of("4k3/8/8/8/8/2n5/1r6/K7 w - - 0 1", "a1b2"), rook);
    }

    /// SEE as first written, every attacker looked up again after each capture: the
    /// reference for the incremental one.
    fn reference(pos: &Chess, m: Move) -> i32 {
        let Some(Exchange { to, mut on_square, gain, mut occupied }) = Exchange::start(pos, m) else {
            return 0;
        };
        let board = pos.board();
        let mut gain = vec![gain];
        let mut side = !pos.turn();
        loop {
            let attackers = board.attacks_to(to, side, occupied) & occupied;
            let Some((sq, attacker)) = least_valuable(board, attackers) else { break };
            let last = gain[gain.len() - 1];
            let next = value(on_square) - last;
            if (-last).max(next) < 0 {
                break;
            }
            if attacker == Role::King
                && !(board.attacks_to(to, !side, occupied) & occupied & !board.kings()).is_empty()
            {
                break;
            }
            gain.push(next);
            occupied.discard(sq);
            on_square = attacker;
            side = !side;
        }
        while gain.len() > 1 {
            let last = gain.pop().unwrap_or_default();
            let n = gain.len();
            gain[n - 1] = -(-gain[n - 1]).max(last);
        }
        gain[0]
    }

    #[test]
    fn the_same_values_as_looking_every_attacker_up_again() {
        // Win At Chess's positions (rich in exchanges) and the perft suite's, with their children.
        let mut roots = Vec::new();
        for file in ["epd/wac.epd", "perft/standard.epd"] {
            let path = format!("{}/../data/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("data file is readable");
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                // The board, side, castling and en passant fields; the clocks do not matter.
                let fields: Vec<&str> = line.split_whitespace().take(4).collect();
                let fen: Fen = format!("{} 0 1", fields.join(" ")).parse().expect("FEN");
                if let Ok(pos) = fen.into_position::<Chess>(CastlingMode::Chess960) {
                    roots.push(pos);
                }
            }
        }
        let (mut moves, mut exchanges) = (0, 0);
        for root in &roots {
            let mut family = vec![root.clone()];
            family.extend(root.legal_moves().into_iter().map(|m| root.clone().play(m).expect("legal")));
            for pos in &family {
                for m in pos.legal_moves() {
                    let value = see(pos, m);
                    assert_eq!(
                        value,
                        reference(pos, m),
                        "{m} in {}",
                        Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
                    );
                    moves += 1;
                    exchanges += usize::from(value != 0);
                }
            }
        }
        assert!(
            roots.len() > 300 && moves > 200_000 && exchanges > 20_000,
            "{} {moves} {exchanges}",
            roots.len()
        );
    }
}
