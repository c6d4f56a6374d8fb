//! What the play board and the board editor share: where the squares are on screen, their
//! colours, the coordinates along the edges, and one accessible node per square.

use egui::{Align2, Color32, CornerRadius, FontId, Id, Pos2, Rect, Ui, Vec2, accesskit};
use shakmaty::{Board, Color, File, Move, Rank, Role, Square};

/// The light squares (lichess's brown board).
pub const LIGHT: Color32 = Color32::from_rgb(0xf0, 0xd9, 0xb5);
/// The dark squares.
pub const DARK: Color32 = Color32::from_rgb(0xb5, 0x88, 0x63);
/// The whole texture, for painting piece images.
pub const UV: Rect = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));

/// Maps squares to screen rectangles and back.
pub struct Geometry {
    /// The board's rectangle on screen.
    pub rect: Rect,
    /// Whether Black is at the bottom.
    pub flipped: bool,
}

impl Geometry {
    /// The side of one square.
    #[must_use]
    pub fn square_size(&self) -> f32 {
        self.rect.width() / 8.0
    }

    /// Where a square is on screen.
    #[must_use]
    pub fn square_rect(&self, sq: Square) -> Rect {
        let (file, rank) = (u32::from(sq.file()), u32::from(sq.rank()));
        let (col, row) = if self.flipped { (7 - file, rank) } else { (file, 7 - rank) };
        let s = self.square_size();
        Rect::from_min_size(self.rect.min + Vec2::new(col as f32 * s, row as f32 * s), Vec2::splat(s))
    }

    /// The square under a point, if it is on the board.
    #[must_use]
    pub fn square_at(&self, pos: Pos2) -> Option<Square> {
        if !self.rect.contains(pos) {
            return None;
        }
        let s = self.square_size();
        let col = (((pos.x - self.rect.min.x) / s) as u32).min(7);
        let row = (((pos.y - self.rect.min.y) / s) as u32).min(7);
        let (file, rank) = if self.flipped { (7 - col, row) } else { (col, 7 - row) };
        Some(Square::from_coords(File::new(file), Rank::new(rank)))
    }

    /// Paints the 64 squares.
    pub fn paint_squares(&self, painter: &egui::Painter) {
        for sq in Square::ALL {
            painter.rect_filled(
                self.square_rect(sq),
                CornerRadius::ZERO,
                if is_light(sq) { LIGHT } else { DARK },
            );
        }
    }

    /// Paints the files along the bottom edge and the ranks along the left edge.
    pub fn paint_coordinates(&self, painter: &egui::Painter) {
        let s = self.square_size();
        let font = FontId::proportional((s * 0.2).clamp(8.0, 16.0));
        let pad = s * 0.06;
        let bottom_rank = if self.flipped { Rank::Eighth } else { Rank::First };
        let left_file = if self.flipped { File::H } else { File::A };
        for i in 0..8u32 {
            // Files along the bottom edge, ranks along the left edge, in the other square colour.
            let sq = Square::from_coords(File::new(i), bottom_rank);
            let colour = if is_light(sq) { DARK } else { LIGHT };
            let r = self.square_rect(sq);
            painter.text(
                r.max - Vec2::splat(pad),
                Align2::RIGHT_BOTTOM,
                sq.file().char(),
                font.clone(),
                colour,
            );
            let sq = Square::from_coords(left_file, Rank::new(i));
            let colour = if is_light(sq) { DARK } else { LIGHT };
            let r = self.square_rect(sq);
            painter.text(r.min + Vec2::splat(pad), Align2::LEFT_TOP, sq.rank().char(), font.clone(), colour);
        }
    }

    /// One accessible node per square, labelled like "e4, white knight" or "e4, empty", so
    /// that screen readers and tests find squares by name.
    pub fn describe_squares(&self, ui: &Ui, board_id: Id, board: &Board) {
        for sq in Square::ALL {
            let label = square_label(board, sq);
            let r = self.square_rect(sq);
            ui.ctx().accesskit_node_builder(board_id.with(sq as u32), |node| {
                node.set_role(accesskit::Role::GridCell);
                node.set_label(label);
                node.set_bounds(accesskit::Rect {
                    x0: r.min.x.into(),
                    y0: r.min.y.into(),
                    x1: r.max.x.into(),
                    y1: r.max.y.into(),
                });
            });
        }
    }
}

/// Whether a square is light.
#[must_use]
pub fn is_light(sq: Square) -> bool {
    (u32::from(sq.file()) + u32::from(sq.rank())) % 2 == 1
}

/// Where the player puts a piece to make this move: castling is shown as the king's two-step.
#[must_use]
pub fn target_square(m: Move) -> Square {
    match m {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() { File::G } else { File::C };
            Square::from_coords(file, king.rank())
        }
        _ => m.to(),
    }
}

/// "e4, white knight" or "e4, empty".
#[must_use]
pub fn square_label(board: &Board, sq: Square) -> String {
    match board.piece_at(sq) {
        Some(piece) => {
            let color = if piece.color == Color::White { "white" } else { "black" };
            format!("{sq}, {color} {}", role_name(piece.role))
        }
        None => format!("{sq}, empty"),
    }
}

/// "knight", "queen"...
#[must_use]
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}
