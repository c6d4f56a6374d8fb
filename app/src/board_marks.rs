//! Arrows and square marks that the caller lays over the board, as chess GUIs show analysis
//! lines and book moves: an arrow runs from the centre of one square to just short of the
//! centre of another and ends in a triangular head; a mark tints one square.

use egui::{Align2, Color32, CornerRadius, FontId, Painter, Pos2, Stroke, Vec2};
use shakmaty::{Move, Square};

use crate::board_geometry::{Geometry, target_square};

/// An arrow from one square to another, optionally labelled near its head.
#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    /// The square the arrow starts from (at its centre).
    pub from: Square,
    /// The square the arrow points at.
    pub to: Square,
    /// The arrow's colour; semi-transparent colours let the pieces show through.
    pub color: Color32,
    /// The shaft's width as a fraction of a square's side (0.15 is usual).
    pub width: f32,
    /// A short text such as "+0.35" or "45%", drawn at the head.
    pub label: Option<String>,
}

impl Arrow {
    /// The engine's best move (green).
    pub const BEST: Color32 = Color32::from_rgba_unmultiplied_const(0x15, 0x78, 0x1b, 0xc0);
    /// The engine's second choice (blue).
    pub const SECOND: Color32 = Color32::from_rgba_unmultiplied_const(0x00, 0x30, 0x88, 0xb0);
    /// A move from the opening book (orange).
    pub const BOOK: Color32 = Color32::from_rgba_unmultiplied_const(0xe6, 0x8f, 0x00, 0xc0);
    /// A threat, what the opponent would play if it were their turn (red).
    pub const THREAT: Color32 = Color32::from_rgba_unmultiplied_const(0x88, 0x20, 0x20, 0xb0);
    /// The usual shaft width, as a fraction of a square's side.
    pub const WIDTH: f32 = 0.15;

    /// The arrow for a move, of the usual width. Castling is shown as the king's two-step
    /// (e1 to g1), not as the king onto its rook; a dropped piece gets an arrow of no length,
    /// which is not drawn.
    #[must_use]
    pub fn from_move(m: &Move, color: Color32, label: Option<String>) -> Self {
        let to = target_square(*m);
        Arrow { from: m.from().unwrap_or(to), to, color, width: Self::WIDTH, label }
    }
}

/// A tinted square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The square to tint.
    pub square: Square,
    /// The tint; it should be semi-transparent so that the square's colour shows.
    pub color: Color32,
}

impl Mark {
    /// A king in check (red).
    pub const CHECKED: Color32 = Color32::from_rgba_unmultiplied_const(0xd0, 0x20, 0x20, 0x90);
    /// A square under attack or a hanging piece (orange).
    pub const ATTACKED: Color32 = Color32::from_rgba_unmultiplied_const(0xe6, 0x8f, 0x00, 0x80);
    /// A good square or a key piece (green).
    pub const GOOD: Color32 = Color32::from_rgba_unmultiplied_const(0x15, 0x78, 0x1b, 0x80);
    /// A square worth noticing (blue).
    pub const NOTE: Color32 = Color32::from_rgba_unmultiplied_const(0x20, 0x60, 0xc0, 0x80);
}

/// How far short of the target square's centre an arrow's tip stops, in squares.
const TIP_MARGIN: f32 = 0.1;
/// The head's length, in shaft widths.
const HEAD_LENGTH: f32 = 3.0;
/// The head's width at its base, in shaft widths.
const HEAD_WIDTH: f32 = 4.0;

/// Where an arrow starts (the centre of its from-square) and where its tip is (just short of
/// the centre of its to-square), or `None` for an arrow of no length.
#[must_use]
pub fn arrow_ends(geometry: &Geometry, arrow: &Arrow) -> Option<(Pos2, Pos2)> {
    let tail = geometry.square_rect(arrow.from).center();
    let target = geometry.square_rect(arrow.to).center();
    let direction = (target - tail).normalized();
    if arrow.from == arrow.to || !direction.is_finite() {
        return None;
    }
    Some((tail, target - direction * TIP_MARGIN * geometry.square_size()))
}

/// The arrow under `pos`, if any: the one whose shaft passes nearest, within a third of a
/// square (thin arrows are hard to hit exactly); the last drawn (on top) wins a tie.
#[must_use]
pub fn arrow_at(geometry: &Geometry, arrows: &[Arrow], pos: Pos2) -> Option<usize> {
    let reach = geometry.square_size() / 3.0;
    let mut best: Option<(usize, f32)> = None;
    for (i, arrow) in arrows.iter().enumerate() {
        let Some((tail, tip)) = arrow_ends(geometry, arrow) else { continue };
        let along = tip - tail;
        let t = ((pos - tail).dot(along) / along.length_sq()).clamp(0.0, 1.0);
        let distance = (tail + along * t - pos).length();
        let within = distance <= reach.max(arrow.width * geometry.square_size() / 2.0);
        if within && best.is_none_or(|(_, d)| distance <= d) {
            best = Some((i, distance));
        }
    }
    best.map(|(i, _)| i)
}

/// The arrow's outline, tip first: the tip sees every other corner, so egui's fan fill from
/// the first point paints the (not convex) outline correctly, in one piece, without the seam
/// that a separate shaft and head would show where two translucent shapes overlap.
fn arrow_outline(geometry: &Geometry, arrow: &Arrow) -> Option<Vec<Pos2>> {
    let (tail, tip) = arrow_ends(geometry, arrow)?;
    let s = geometry.square_size();
    let length = (tip - tail).length();
    let half = arrow.width * s / 2.0;
    // A short arrow keeps a head no longer than half of it.
    let head_length = (HEAD_LENGTH * arrow.width * s).min(length / 2.0);
    let head_half = HEAD_WIDTH * arrow.width * s / 2.0;
    let along = (tip - tail) / length;
    let across = along.rot90();
    let base = tip - along * head_length;
    let mut outline = vec![
        tip,
        base + across * head_half,
        base + across * half,
        tail + across * half,
        tail - across * half,
        base - across * half,
        base - across * head_half,
    ];
    // egui reverses a counter-clockwise outline before filling it, which would move the tip
    // from the front: keep it clockwise (a positive signed area in screen coordinates).
    if signed_area(&outline) < 0.0 {
        outline[1..].reverse();
    }
    Some(outline)
}

/// Twice the signed area of a closed outline, positive when clockwise on screen.
fn signed_area(points: &[Pos2]) -> f32 {
    let mut previous = points.last().copied().unwrap_or(Pos2::ZERO);
    let mut area = 0.0;
    for p in points {
        area += previous.x * p.y - p.x * previous.y;
        previous = *p;
    }
    area
}

/// Paints the marks (below the pieces).
pub fn paint_marks(painter: &Painter, geometry: &Geometry, marks: &[Mark]) {
    for mark in marks {
        painter.rect_filled(geometry.square_rect(mark.square), CornerRadius::ZERO, mark.color);
    }
}

/// Paints the arrows and their labels (above the pieces).
pub fn paint_arrows(painter: &Painter, geometry: &Geometry, arrows: &[Arrow]) {
    for arrow in arrows {
        if let Some(outline) = arrow_outline(geometry, arrow) {
            painter.add(egui::Shape::convex_polygon(outline, arrow.color, Stroke::NONE));
        }
    }
    // Labels last, so that no other arrow covers them.
    for arrow in arrows {
        if let (Some(label), Some((_, tip))) = (&arrow.label, arrow_ends(geometry, arrow)) {
            paint_label(painter, geometry, arrow, label, tip);
        }
    }
}

/// A label in a pill of the arrow's colour, just beyond the arrow's tip (so that the head
/// stays visible), kept on the board.
fn paint_label(painter: &Painter, geometry: &Geometry, arrow: &Arrow, label: &str, tip: Pos2) {
    let s = geometry.square_size();
    let font = FontId::proportional((s * 0.22).clamp(9.0, 18.0));
    let galley = painter.layout_no_wrap(label.to_owned(), font, Color32::WHITE);
    let pad = Vec2::new(s * 0.06, s * 0.02);
    let size = galley.size() + 2.0 * pad;
    let centre = beyond(tip, geometry.square_rect(arrow.to).center() - tip, size / 2.0, s * 0.04);
    let rect = Align2::CENTER_CENTER.anchor_size(centre, size);
    let rect = rect.translate(overhang(rect, geometry.rect));
    let fill = arrow.color.to_opaque().gamma_multiply(0.9);
    painter.rect_filled(rect, CornerRadius::same((rect.height() / 2.0) as u8), fill);
    painter.galley(rect.min + pad, galley, Color32::WHITE);
}

/// The centre of a box of half-size `half` that lies past `point` in `direction`, `gap`
/// away from it.
fn beyond(point: Pos2, direction: Vec2, half: Vec2, gap: f32) -> Pos2 {
    let d = direction.normalized();
    if !d.is_finite() {
        return point;
    }
    // How far the box reaches from its centre towards `point`, along `d`.
    let reach = |extent: f32, component: f32| {
        if component.abs() > 1e-6 { extent / component.abs() } else { f32::INFINITY }
    };
    let distance = reach(half.x, d.x).min(reach(half.y, d.y));
    point + d * (distance + gap)
}

/// The shift that brings `inner` back inside `outer` (when it fits).
fn overhang(inner: egui::Rect, outer: egui::Rect) -> Vec2 {
    let x = (outer.min.x - inner.min.x).max(0.0) + (outer.max.x - inner.max.x).min(0.0);
    let y = (outer.min.y - inner.min.y).max(0.0) + (outer.max.y - inner.max.y).min(0.0);
    Vec2::new(x, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::Rect;
    use shakmaty::{Chess, Position, Role};

    /// An 800-point board at the origin: squares are 100 points, a1's centre is (50, 750).
    fn board(flipped: bool) -> Geometry {
        Geometry { rect: Rect::from_min_size(Pos2::ZERO, Vec2::splat(800.0)), flipped }
    }

    fn arrow(from: Square, to: Square) -> Arrow {
        Arrow { from, to, color: Arrow::BEST, width: Arrow::WIDTH, label: None }
    }

    fn close(a: Pos2, b: Pos2) -> bool {
        a.distance(b) < 1e-3
    }

    #[test]
    fn an_arrow_runs_from_the_centre_to_just_short_of_the_centre() {
        let (tail, tip) = arrow_ends(&board(false), &arrow(Square::E2, Square::E4)).expect("an arrow");
        assert!(close(tail, Pos2::new(450.0, 650.0)), "{tail:?}");
        assert!(close(tip, Pos2::new(450.0, 460.0)), "{tip:?}");
    }

    #[test]
    fn a_flipped_board_turns_arrows_round() {
        let (tail, tip) = arrow_ends(&board(true), &arrow(Square::E2, Square::E4)).expect("an arrow");
        assert!(close(tail, Pos2::new(350.0, 150.0)), "{tail:?}");
        assert!(close(tip, Pos2::new(350.0, 340.0)), "{tip:?}");
        // The long diagonal: a flipped board has a1 at the top right and h8 at the bottom left.
        let (tail, tip) = arrow_ends(&board(true), &arrow(Square::A1, Square::H8)).expect("an arrow");
        assert!(close(tail, Pos2::new(750.0, 50.0)), "{tail:?}");
        let short = 0.1 * 100.0 / 2f32.sqrt();
        assert!(close(tip, Pos2::new(50.0 + short, 750.0 - short)), "{tip:?}");
    }

    #[test]
    fn an_arrow_of_no_length_is_not_drawn() {
        assert_eq!(arrow_ends(&board(false), &arrow(Square::D4, Square::D4)), None);
        assert!(arrow_outline(&board(false), &arrow(Square::D4, Square::D4)).is_none());
    }

    #[test]
    fn the_outline_starts_at_the_tip_and_runs_clockwise() {
        for flipped in [false, true] {
            for (from, to) in [(Square::E2, Square::E4), (Square::G8, Square::F6), (Square::H1, Square::A8)] {
                let geometry = board(flipped);
                let a = arrow(from, to);
                let outline = arrow_outline(&geometry, &a).expect("an outline");
                let (_, tip) = arrow_ends(&geometry, &a).expect("an arrow");
                assert_eq!(outline.len(), 7);
                assert!(close(outline[0], tip));
                assert!(signed_area(&outline) > 0.0, "{from}-{to} flipped {flipped}");
                // The head is four shafts wide at its base.
                assert!((outline[1].distance(outline[6]) - 4.0 * 15.0).abs() < 1e-3);
            }
        }
    }

    #[test]
    fn a_label_sits_past_the_tip_and_on_the_board() {
        // A box 40 by 10 past (100, 100): to the right it starts 2 points on; upwards too.
        let right = beyond(Pos2::new(100.0, 100.0), Vec2::X, Vec2::new(20.0, 5.0), 2.0);
        assert!(close(right, Pos2::new(122.0, 100.0)), "{right:?}");
        let up = beyond(Pos2::new(100.0, 100.0), -Vec2::Y, Vec2::new(20.0, 5.0), 2.0);
        assert!(close(up, Pos2::new(100.0, 93.0)), "{up:?}");
        let board = board(false).rect;
        let outside = egui::Rect::from_min_size(Pos2::new(780.0, -5.0), Vec2::new(40.0, 10.0));
        assert_eq!(overhang(outside, board), Vec2::new(-20.0, 5.0));
        let inside = egui::Rect::from_min_size(Pos2::new(10.0, 10.0), Vec2::new(40.0, 10.0));
        assert_eq!(overhang(inside, board), Vec2::ZERO);
    }

    #[test]
    fn castling_arrows_show_the_kings_two_step() {
        let castle = |king, rook| Move::Castle { king, rook };
        let cases = [
            (castle(Square::E1, Square::H1), Square::E1, Square::G1),
            (castle(Square::E1, Square::A1), Square::E1, Square::C1),
            (castle(Square::E8, Square::H8), Square::E8, Square::G8),
            (castle(Square::E8, Square::A8), Square::E8, Square::C8),
        ];
        for (m, from, to) in cases {
            let a = Arrow::from_move(&m, Arrow::BOOK, None);
            assert_eq!((a.from, a.to), (from, to), "{m:?}");
        }
        let (tail, tip) =
            arrow_ends(&board(false), &Arrow::from_move(&cases[0].0, Arrow::BOOK, None)).expect("an arrow");
        assert!(close(tail, Pos2::new(450.0, 750.0)), "{tail:?}");
        assert!(close(tip, Pos2::new(640.0, 750.0)), "{tip:?}");
    }

    #[test]
    fn an_ordinary_move_keeps_its_squares_and_label() {
        let pos = Chess::default();
        let knight = pos
            .legal_moves()
            .into_iter()
            .find(|m| m.role() == Role::Knight && m.to() == Square::F3)
            .expect("Nf3");
        let a = Arrow::from_move(&knight, Arrow::SECOND, Some("+0.35".to_owned()));
        assert_eq!((a.from, a.to, a.color), (Square::G1, Square::F3, Arrow::SECOND));
        assert_eq!(a.label.as_deref(), Some("+0.35"));
        assert!((a.width - Arrow::WIDTH).abs() < f32::EPSILON);
    }
}
