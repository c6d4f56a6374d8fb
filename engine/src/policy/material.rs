//! The material balance the draw and resign rules look at.

use shakmaty::{Chess, Color, Position, Role};

/// Material from `side`'s point of view: pawn 100, minor pieces 300, rook 500, queen 900.
///
/// ```
/// use kibitz_engine::policy::material_balance;
/// use shakmaty::{Chess, Color};
/// assert_eq!(material_balance(&Chess::default(), Color::Black), 0);
/// ```
#[must_use]
pub fn material_balance(pos: &Chess, side: Color) -> i32 {
    let board = pos.board();
    let value = |color: Color| -> i32 {
        [(Role::Pawn, 100), (Role::Knight, 300), (Role::Bishop, 300), (Role::Rook, 500), (Role::Queen, 900)]
            .iter()
            .map(|&(role, v)| v * (board.by_role(role) & board.by_color(color)).count() as i32)
            .sum()
    };
    value(side) - value(!side)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_is_counted_from_either_side() {
        let pos: Chess = "4k3/8/8/8/8/8/PPP5/R3K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("test FEN parses")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        assert_eq!(material_balance(&pos, Color::White), 800);
        assert_eq!(material_balance(&pos, Color::Black), -800);
    }
}
