//! The chess board widget: click-click and drag-and-drop moves, legal-target dots, highlights,
//! a promotion picker, coordinates, and one accessible node per square ("e4, white knight").

use egui::{
    Color32, CornerRadius, Id, LayerId, Order, Pos2, Rect, Sense, Stroke, Ui, Vec2, WidgetInfo, accesskit,
};
use shakmaty::{Chess, Move, Piece, Position, Role, Square};

use crate::board_geometry::{Geometry, UV, role_name, target_square};
use crate::board_marks::{Arrow, Mark, arrow_at, paint_arrows, paint_marks};
use crate::pieces::PieceTextures;

const LAST_MOVE: Color32 = Color32::from_rgba_premultiplied(0x3e, 0x50, 0x00, 0x69);
const SELECTED: Color32 = Color32::from_rgba_premultiplied(0x0a, 0x2b, 0x0f, 0x80);
const TARGET: Color32 = Color32::from_rgba_premultiplied(0x0a, 0x2b, 0x0f, 0x80);
const CHECK: Color32 = Color32::from_rgba_premultiplied(0xb0, 0x10, 0x10, 0xb0);

/// Pointer travel (in points) after which a press becomes a drag.
const DRAG_THRESHOLD: f32 = 4.0;

/// What the board remembers between frames.
#[derive(Debug, Default)]
pub struct BoardState {
    /// Whether Black is at the bottom.
    pub flipped: bool,
    selected: Option<Square>,
    /// The square where the primary button went down, and whether it was selected already.
    pressed: Option<(Square, bool, Pos2)>,
    /// A pawn move waiting for the player to pick the promotion piece.
    promotion: Option<(Square, Square)>,
    /// The mouse wheel turned over an arrow this frame: its index, and notches up (positive)
    /// or down.
    wheel: Option<(usize, f32)>,
}

impl BoardState {
    /// Forgets any selection, drag or pending promotion (after the position changed).
    pub fn clear(&mut self) {
        self.selected = None;
        self.pressed = None;
        self.promotion = None;
    }

    /// The mouse wheel turned over an arrow in the last frame shown: the arrow's index in
    /// [`BoardView::arrows`] and how many notches, up positive.
    pub fn take_wheel(&mut self) -> Option<(usize, f32)> {
        self.wheel.take()
    }

    /// Whether the promotion picker is open.
    #[must_use]
    pub fn is_promoting(&self) -> bool {
        self.promotion.is_some()
    }
}

/// What the board shows this frame.
pub struct BoardView<'a> {
    /// The position on the board.
    pub position: &'a Chess,
    /// The move that led to it, highlighted.
    pub last_move: Option<Move>,
    /// Whether the player may move pieces now.
    pub interactive: bool,
    /// Arrows drawn over the pieces (analysis lines, book moves).
    pub arrows: &'a [Arrow],
    /// Tinted squares drawn under the pieces.
    pub marks: &'a [Mark],
}

/// Shows the board in the space available and returns the move the player made, if any.
pub fn board_ui(
    ui: &mut Ui,
    state: &mut BoardState,
    view: &BoardView<'_>,
    pieces: &PieceTextures,
) -> Option<Move> {
    // Size: the largest square that fits, centred.
    let available = ui.available_rect_before_wrap();
    let side = available.width().min(available.height()).max(8.0 * 12.0);
    let rect = Rect::from_center_size(available.center(), Vec2::splat(side));

    // Allocate.
    let response = ui.allocate_rect(rect, Sense::click_and_drag());
    response.widget_info(|| WidgetInfo::labeled(accesskit::Role::Grid, view.interactive, "Chess board"));
    let geometry = Geometry { rect, flipped: state.flipped };
    let id = response.id;
    if !view.interactive {
        state.clear();
    }

    // Interact.
    let mut played = None;
    if view.interactive && state.promotion.is_none() {
        played = handle_pointer(ui, state, view.position, &geometry);
    }
    if let Some((from, to)) = state.promotion {
        played = promotion_picker(ui, state, view.position, &geometry, from, to, pieces).or(played);
    }

    state.wheel = wheel_on_arrow(ui, &response, view, &geometry);

    // Paint.
    paint(ui, state, view, &geometry, pieces);
    geometry.describe_squares(ui, id, view.position.board());
    played
}

/// The wheel's notches this frame when the pointer is over one of the arrows: a line is a
/// notch, 50 points are one, a page ten.
fn wheel_on_arrow(
    ui: &Ui,
    response: &egui::Response,
    view: &BoardView<'_>,
    geometry: &Geometry,
) -> Option<(usize, f32)> {
    let at = response.hover_pos().filter(|_| !view.arrows.is_empty())?;
    let notches: f32 = ui.input(|i| {
        i.events
            .iter()
            .filter_map(|e| match e {
                egui::Event::MouseWheel { unit, delta, .. } => Some(match unit {
                    egui::MouseWheelUnit::Line => delta.y,
                    egui::MouseWheelUnit::Point => delta.y / 50.0,
                    egui::MouseWheelUnit::Page => delta.y * 10.0,
                }),
                _ => None,
            })
            .sum()
    });
    if notches == 0.0 {
        return None;
    }
    arrow_at(geometry, view.arrows, at).map(|i| (i, notches))
}

/// The legal moves from `from` to `to` (several when they differ by promotion piece). The king
/// may castle by moving two squares or onto its rook.
fn moves_between(pos: &Chess, from: Square, to: Square) -> Vec<Move> {
    pos.legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(from) && (target_square(*m) == to || m.to() == to))
        .collect()
}

fn is_own_piece(pos: &Chess, sq: Square) -> bool {
    pos.board().color_at(sq) == Some(pos.turn())
}

/// Reads this frame's presses and releases on the board and returns a completed move.
fn handle_pointer(ui: &Ui, state: &mut BoardState, pos: &Chess, geometry: &Geometry) -> Option<Move> {
    let my_layer = ui.layer_id();
    let buttons: Vec<(Pos2, bool)> = ui.input(|i| {
        i.events
            .iter()
            .filter_map(|e| match e {
                egui::Event::PointerButton { pos, button: egui::PointerButton::Primary, pressed, .. } => {
                    Some((*pos, *pressed))
                }
                _ => None,
            })
            .collect()
    });
    let mut played = None;
    for (at, pressed) in buttons {
        let on_board = ui.ctx().layer_id_at(at).is_none_or(|layer| layer == my_layer);
        let square = if on_board { geometry.square_at(at) } else { None };
        if pressed {
            played = on_press(state, pos, square, at).or(played);
        } else if let Some((from, was_selected, _)) = state.pressed.take() {
            played = on_release(state, pos, from, was_selected, square).or(played);
        }
    }
    played
}

fn on_press(state: &mut BoardState, pos: &Chess, square: Option<Square>, at: Pos2) -> Option<Move> {
    let square = square?;
    if let Some(selected) = state.selected
        && selected != square
        && !moves_between(pos, selected, square).is_empty()
    {
        state.selected = None;
        return choose(state, pos, selected, square);
    }
    if is_own_piece(pos, square) {
        let was_selected = state.selected == Some(square);
        state.selected = Some(square);
        state.pressed = Some((square, was_selected, at));
    } else {
        state.selected = None;
    }
    None
}

fn on_release(
    state: &mut BoardState,
    pos: &Chess,
    from: Square,
    was_selected: bool,
    square: Option<Square>,
) -> Option<Move> {
    match square {
        // A click on a piece that was already selected deselects it.
        Some(to) if to == from => {
            if was_selected {
                state.selected = None;
            }
            None
        }
        Some(to) if !moves_between(pos, from, to).is_empty() => {
            state.selected = None;
            choose(state, pos, from, to)
        }
        // A drop off the board or on an illegal square puts the piece back, still selected.
        _ => None,
    }
}

/// The move from `from` to `to`, or opens the promotion picker when there are several.
fn choose(state: &mut BoardState, pos: &Chess, from: Square, to: Square) -> Option<Move> {
    let moves = moves_between(pos, from, to);
    match moves.as_slice() {
        [m] => Some(*m),
        [] => None,
        _ => {
            state.promotion = Some((from, to));
            None
        }
    }
}

/// The four promotion pieces in a column over the target square, as lichess shows them.
fn promotion_picker(
    ui: &Ui,
    state: &mut BoardState,
    pos: &Chess,
    geometry: &Geometry,
    from: Square,
    to: Square,
    pieces: &PieceTextures,
) -> Option<Move> {
    let choices = [Role::Queen, Role::Knight, Role::Rook, Role::Bishop];
    let s = geometry.square_size();
    let target = geometry.square_rect(to);
    let downwards = target.center().y < geometry.rect.center().y;
    let color = pos.turn();
    let mut chosen = None;
    let mut cancelled = false;
    egui::Area::new(Id::unique("promotion-picker"))
        .order(Order::Foreground)
        .fixed_pos(geometry.rect.min)
        .show(ui.ctx(), |ui| {
            // A backdrop over the board: clicking it cancels the promotion.
            let backdrop = ui.allocate_rect(geometry.rect, Sense::click());
            backdrop.widget_info(|| WidgetInfo::labeled(accesskit::Role::Button, true, "Cancel promotion"));
            ui.painter().rect_filled(geometry.rect, CornerRadius::ZERO, Color32::from_black_alpha(110));
            for (i, role) in choices.into_iter().enumerate() {
                let dy = if downwards { i as f32 * s } else { -(i as f32) * s };
                let rect = target.translate(Vec2::new(0.0, dy));
                let response = ui.allocate_rect(rect, Sense::click());
                let label = format!("Promote to {}", role_name(role));
                response.widget_info(|| WidgetInfo::labeled(accesskit::Role::Button, true, &label));
                let fill = if response.hovered() {
                    Color32::from_rgb(0xe0, 0x8a, 0x40)
                } else {
                    Color32::from_gray(0xd8)
                };
                ui.painter().circle_filled(rect.center(), s * 0.48, fill);
                let texture = pieces.get(Piece { color, role });
                ui.painter().image(texture.id(), rect.shrink(s * 0.08), UV, Color32::WHITE);
                if response.clicked() {
                    chosen = Some(role);
                }
            }
            if backdrop.clicked() && chosen.is_none() {
                cancelled = true;
            }
        });
    if let Some(role) = chosen {
        state.promotion = None;
        return moves_between(pos, from, to).into_iter().find(|m| m.promotion() == Some(role));
    }
    if cancelled || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
        state.promotion = None;
    }
    None
}

fn paint(ui: &Ui, state: &BoardState, view: &BoardView<'_>, geometry: &Geometry, pieces: &PieceTextures) {
    let painter = ui.painter_at(geometry.rect);
    let s = geometry.square_size();
    let pos = view.position;

    geometry.paint_squares(&painter);
    if let Some(m) = view.last_move {
        for sq in [m.from(), Some(target_square(m))].into_iter().flatten() {
            painter.rect_filled(geometry.square_rect(sq), CornerRadius::ZERO, LAST_MOVE);
        }
    }
    paint_marks(&painter, geometry, view.marks);
    if let Some(sq) = state.selected {
        painter.rect_filled(geometry.square_rect(sq), CornerRadius::ZERO, SELECTED);
    }
    if pos.is_check()
        && let Some(king) = pos.board().king_of(pos.turn())
    {
        let r = geometry.square_rect(king);
        painter.circle_filled(r.center(), s * 0.5, CHECK);
    }

    geometry.paint_coordinates(&painter);

    // The piece being dragged follows the pointer instead of sitting on its square.
    let pointer = ui.input(|i| i.pointer.latest_pos());
    let dragged = match (state.pressed, pointer) {
        (Some((sq, _, origin)), Some(p)) if p.distance(origin) > DRAG_THRESHOLD => Some((sq, p)),
        _ => None,
    };
    for (sq, piece) in pos.board().clone() {
        if state.promotion.is_some_and(|(from, _)| from == sq) || dragged.is_some_and(|(d, _)| d == sq) {
            continue;
        }
        painter.image(pieces.get(piece).id(), geometry.square_rect(sq), UV, Color32::WHITE);
    }

    paint_arrows(&painter, geometry, view.arrows);

    if let Some(from) = state.selected {
        for m in pos.legal_moves().into_iter().filter(|m| m.from() == Some(from)) {
            let r = geometry.square_rect(target_square(m));
            if m.is_capture() {
                painter.circle_stroke(r.center(), s * 0.45, Stroke::new(s * 0.08, TARGET));
            } else {
                painter.circle_filled(r.center(), s * 0.15, TARGET);
            }
        }
    }

    if let Some((sq, p)) = dragged
        && let Some(piece) = pos.board().piece_at(sq)
    {
        let layer = ui.ctx().layer_painter(LayerId::new(Order::Tooltip, Id::unique("dragged-piece")));
        layer.image(
            pieces.get(piece).id(),
            Rect::from_center_size(p, Vec2::splat(s * 1.1)),
            UV,
            Color32::WHITE,
        );
        ui.ctx().set_cursor_icon(egui::CursorIcon::Grabbing);
    }
}
