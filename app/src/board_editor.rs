//! The board editor: sets up any position (pieces, side to move, castling, en passant, move
//! counters), refuses illegal ones with the reason in words, and copies and pastes FEN.

use std::num::NonZeroU32;

use egui::{
    Button, Checkbox, Color32, ComboBox, CornerRadius, DragValue, Key, Sense, Stroke, TextEdit, Ui, Vec2,
    WidgetInfo, accesskit,
};
use shakmaty::fen::{Fen, LossyFenError};

use crate::board_geometry::{Geometry, UV, role_name};
use shakmaty::{
    Bitboard, Board, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, FromSetup, Piece,
    Position, PositionError, PositionErrorKinds, Rank, Role, Setup, Square,
};

pub use crate::pieces::PieceTextures;

// The play board's colours, so that both boards look alike.
const SELECTED_TILE: Color32 = Color32::from_rgb(0xe0, 0x8a, 0x40);

/// Width kept for the column of controls beside the board.
const CONTROLS_WIDTH: f32 = 330.0;

/// The smallest board side, in points.
const MIN_BOARD: f32 = 8.0 * 24.0;

/// The palette order: king first, pawn last.
const PALETTE_ROLES: [Role; 6] =
    [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// What the editor reports when the player leaves it.
#[derive(Debug, Clone)]
pub enum EditorEvent {
    /// The player accepted this legal position.
    Done(Chess),
    /// The player left without a position.
    Cancelled,
}

/// What a click on a square does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// Puts this piece on the square.
    Piece(Piece),
    /// Empties the square.
    Eraser,
}

/// The board editor's state: the position being set up and the editor's own controls.
pub struct BoardEditor {
    /// The position being edited, not necessarily legal.
    setup: Setup,
    /// What a click on a square does.
    tool: Tool,
    /// Whether Black is at the bottom.
    flipped: bool,
    /// The FEN field's text: the FEN of `setup` unless the player is typing.
    fen_text: String,
    /// The FEN last written into the field, to notice when `setup` changed.
    shown_fen: String,
    /// Why the last "Load FEN" failed.
    fen_error: Option<String>,
}

impl BoardEditor {
    /// An editor that starts from `start`.
    #[must_use]
    pub fn new(start: &Chess) -> Self {
        let mut editor = BoardEditor {
            setup: start.to_setup(EnPassantMode::Legal),
            tool: Tool::Piece(Piece { color: Color::White, role: Role::Pawn }),
            flipped: false,
            fen_text: String::new(),
            shown_fen: String::new(),
            fen_error: None,
        };
        editor.sync_fen_text();
        editor
    }

    /// The position being edited, legal or not.
    #[must_use]
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The FEN of the position being edited.
    #[must_use]
    pub fn fen(&self) -> String {
        setup_fen(&self.setup)
    }

    /// The legal position, or why it is illegal ("Illegal: White has no king.").
    pub fn position(&self) -> Result<Chess, String> {
        Chess::from_setup(self.setup.clone(), CastlingMode::Standard)
            .map_err(|error: PositionError<Chess>| explain(&self.setup, error.kinds()))
    }

    /// What a click on a square does now.
    #[must_use]
    pub fn tool(&self) -> Tool {
        self.tool
    }

    /// Whether Black is at the bottom.
    #[must_use]
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// Puts Black at the bottom (or White), e.g. to match the play board.
    pub fn set_flipped(&mut self, flipped: bool) {
        self.flipped = flipped;
    }

    /// Sets the editor from a FEN, or explains why the text is not one.
    pub fn load_fen(&mut self, text: &str) -> Result<(), String> {
        let result = parse_fen(text);
        match &result {
            Ok(setup) => {
                self.setup = setup.clone();
                self.fen_error = None;
                self.sync_fen_text();
            }
            Err(reason) => self.fen_error = Some(reason.clone()),
        }
        result.map(|_| ())
    }

    /// Shows the editor: the board on the left, the palette and the controls on the right.
    pub fn ui(&mut self, ui: &mut Ui, pieces: &PieceTextures) -> Option<EditorEvent> {
        let before = (self.setup.clone(), self.flipped, self.tool);
        let mut event = None;
        ui.horizontal_top(|ui| {
            let side = (ui.available_width() - CONTROLS_WIDTH).min(ui.available_height()).max(MIN_BOARD);
            if let Some((square, primary)) =
                editor_board_ui(ui, &self.setup.board, self.flipped, side, pieces)
            {
                let piece = match (primary, self.tool) {
                    (true, Tool::Piece(piece)) => Some(piece),
                    _ => None,
                };
                self.set_square(square, piece);
            }
            ui.vertical(|ui| {
                ui.set_width(CONTROLS_WIDTH - ui.spacing().item_spacing.x * 2.0);
                event = self.controls_ui(ui, pieces);
            });
        });
        self.sync_fen_text();
        // The board and the FEN field were drawn before a click changed the position: draw
        // them again before this frame is shown.
        if (&self.setup, self.flipped, self.tool) != (&before.0, before.1, before.2) {
            ui.ctx().request_discard("board editor changed");
        }
        event
    }

    fn controls_ui(&mut self, ui: &mut Ui, pieces: &PieceTextures) -> Option<EditorEvent> {
        self.palette_ui(ui, pieces);
        ui.horizontal_wrapped(|ui| {
            if ui.button("Initial position").clicked() {
                self.setup = Setup::initial();
            }
            if ui.button("Empty board").clicked() {
                self.setup = Setup::empty();
            }
            if ui.button("Flip board").clicked() {
                self.flipped = !self.flipped;
            }
        });
        ui.separator();

        ui.horizontal(|ui| {
            let mut turn = self.setup.turn;
            ui.radio_value(&mut turn, Color::White, "White to move");
            ui.radio_value(&mut turn, Color::Black, "Black to move");
            if turn != self.setup.turn {
                self.setup.turn = turn;
                self.tidy();
            }
        });
        self.castling_ui(ui);
        self.en_passant_ui(ui);
        self.counters_ui(ui);
        ui.separator();

        self.fen_ui(ui);
        ui.separator();

        let position = self.position();
        match &position {
            Ok(_) => ui.label("Legal position."),
            Err(reason) => ui.colored_label(ui.visuals().error_fg_color, reason),
        };
        let mut event = None;
        ui.horizontal(|ui| {
            if ui.add_enabled(position.is_ok(), Button::new("Done")).clicked()
                && let Ok(chess) = position
            {
                event = Some(EditorEvent::Done(chess));
            }
            if ui.button("Cancel").clicked() {
                event = Some(EditorEvent::Cancelled);
            }
        });
        event
    }

    /// The twelve pieces and the eraser.
    fn palette_ui(&mut self, ui: &mut Ui, pieces: &PieceTextures) {
        let size = Vec2::splat(40.0);
        for color in Color::ALL {
            ui.horizontal(|ui| {
                for role in PALETTE_ROLES {
                    let piece = Piece { color, role };
                    let tool = Tool::Piece(piece);
                    let label = piece_name(piece);
                    if palette_tile(ui, pieces, piece, size, self.tool == tool, &label).clicked() {
                        self.tool = tool;
                    }
                }
            });
        }
        if ui.add(Button::selectable(self.tool == Tool::Eraser, "Eraser")).clicked() {
            self.tool = Tool::Eraser;
        }
    }

    fn castling_ui(&mut self, ui: &mut Ui) {
        ui.label("Castling");
        for color in Color::ALL {
            ui.horizontal(|ui| self.castling_row_ui(ui, color));
        }
    }

    /// One side's two castling rights.
    fn castling_row_ui(&mut self, ui: &mut Ui, color: Color) {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            let castle = if side == CastlingSide::KingSide { "O-O" } else { "O-O-O" };
            let label = format!("{} {castle}", color_name(color));
            let rook = castling_rook(color, side);
            let available = castling_available(&self.setup.board, color, side);
            let mut on = self.setup.castling_rights.contains(rook);
            // A right that is on stays clickable, so that a loaded FEN's bad right can go.
            let response = ui
                .add_enabled(available || on, Checkbox::new(&mut on, label))
                .on_disabled_hover_text("The king or the rook is not on its square.");
            if response.changed() {
                self.setup.castling_rights.set(rook, on);
            }
        }
    }

    fn en_passant_ui(&mut self, ui: &mut Ui) {
        let mut choices: Vec<Option<Square>> = vec![None];
        choices.extend(en_passant_candidates(&self.setup).map(Some));
        if !choices.contains(&self.setup.ep_square) {
            choices.push(self.setup.ep_square);
        }
        let text = |ep: Option<Square>| ep.map_or_else(|| "None".to_owned(), |sq| sq.to_string());
        ComboBox::from_label("En passant").selected_text(text(self.setup.ep_square)).show_ui(ui, |ui| {
            for choice in choices {
                ui.selectable_value(&mut self.setup.ep_square, choice, text(choice));
            }
        });
    }

    fn counters_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let label = ui.label("Half-move clock");
            ui.add(DragValue::new(&mut self.setup.halfmoves).range(0..=9999)).labelled_by(label.id);
            let label = ui.label("Move number");
            let mut fullmoves = self.setup.fullmoves.get();
            ui.add(DragValue::new(&mut fullmoves).range(1..=9999)).labelled_by(label.id);
            self.setup.fullmoves = NonZeroU32::new(fullmoves).unwrap_or(NonZeroU32::MIN);
        });
    }

    fn fen_ui(&mut self, ui: &mut Ui) {
        let label = ui.label("FEN");
        let response = ui
            .add(TextEdit::singleline(&mut self.fen_text).desired_width(f32::INFINITY))
            .labelled_by(label.id);
        let entered = response.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
        ui.horizontal(|ui| {
            if ui.button("Load FEN").clicked() || entered {
                let text = self.fen_text.clone();
                // A failure is kept in `fen_error` and shown below.
                let _ = self.load_fen(&text);
            }
            if ui.button("Copy FEN").clicked() {
                ui.ctx().copy_text(self.fen());
            }
        });
        if let Some(error) = &self.fen_error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
    }

    /// Puts `piece` on `square` (or empties it) and drops the rights the change broke.
    fn set_square(&mut self, square: Square, piece: Option<Piece>) {
        match piece {
            Some(piece) => self.setup.board.set_piece_at(square, piece),
            None => self.setup.board.discard_piece_at(square),
        }
        self.tidy();
    }

    /// Drops castling rights whose king or rook left its square and an en passant square that
    /// no longer follows a double step. Only edits made here tidy; a loaded FEN is shown as it
    /// is, with its faults explained.
    fn tidy(&mut self) {
        for color in Color::ALL {
            for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                if !castling_available(&self.setup.board, color, side) {
                    self.setup.castling_rights.discard(castling_rook(color, side));
                }
            }
        }
        if let Some(ep) = self.setup.ep_square
            && !en_passant_candidates(&self.setup).any(|sq| sq == ep)
        {
            self.setup.ep_square = None;
        }
    }

    /// Shows the current FEN in the field when the position changed since it was last shown.
    fn sync_fen_text(&mut self) {
        let fen = self.fen();
        if fen != self.shown_fen {
            self.fen_text.clone_from(&fen);
            self.shown_fen = fen;
        }
    }
}

/// The FEN of a setup; the editor only ever holds the four standard castling rights, so nothing
/// is lost.
fn setup_fen(setup: &Setup) -> String {
    Fen::try_from_setup(setup.clone()).unwrap_or_else(LossyFenError::ignore).to_string()
}

/// Parses a FEN for the editor, refusing castling rights that standard chess cannot hold.
fn parse_fen(text: &str) -> Result<Setup, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Paste or type a FEN first.".to_owned());
    }
    let fen: Fen = text.parse().map_err(|e| format!("Not a valid FEN: {e}."))?;
    let setup = Setup::from(fen);
    let odd = setup.castling_rights & !Bitboard::CORNERS;
    if let Some(sq) = odd.first() {
        return Err(format!("Castling with the rook on {sq} (Chess960) is not supported."));
    }
    Ok(setup)
}

/// The corner rook that castling on `side` needs.
fn castling_rook(color: Color, side: CastlingSide) -> Square {
    let file = if side == CastlingSide::KingSide { File::H } else { File::A };
    Square::from_coords(file, color.backrank())
}

/// Whether the king and the rook stand where castling on `side` needs them.
fn castling_available(board: &Board, color: Color, side: CastlingSide) -> bool {
    let king = Square::from_coords(File::E, color.backrank());
    board.piece_at(king) == Some(Piece { color, role: Role::King })
        && board.piece_at(castling_rook(color, side)) == Some(Piece { color, role: Role::Rook })
}

/// The en passant squares that make sense here: behind an enemy pawn that could just have made
/// a double step (both squares it crossed are empty) and next to a pawn that could take it.
fn en_passant_candidates(setup: &Setup) -> impl Iterator<Item = Square> + '_ {
    let us = setup.turn;
    let board = &setup.board;
    File::ALL.into_iter().filter_map(move |file| {
        let ep = Square::from_coords(file, us.relative_rank(Rank::Sixth));
        let pushed_to = Square::from_coords(file, us.relative_rank(Rank::Fifth));
        let pushed_from = Square::from_coords(file, us.relative_rank(Rank::Seventh));
        let their_pawn = board.piece_at(pushed_to) == Some(Piece { color: !us, role: Role::Pawn });
        let empty = board.piece_at(ep).is_none() && board.piece_at(pushed_from).is_none();
        let capturer = [file.offset(-1), file.offset(1)].into_iter().flatten().any(|f| {
            board.piece_at(Square::from_coords(f, pushed_to.rank()))
                == Some(Piece { color: us, role: Role::Pawn })
        });
        (their_pawn && empty && capturer).then_some(ep)
    })
}

/// Why a setup is illegal, in words: "Illegal: Black is in check but it is White's turn."
fn explain(setup: &Setup, kinds: PositionErrorKinds) -> String {
    let board = &setup.board;
    let turn = color_name(setup.turn);
    let other = color_name(!setup.turn);
    let mut reasons = Vec::new();
    if kinds.contains(PositionErrorKinds::EMPTY_BOARD) {
        reasons.push("The board is empty.".to_owned());
    } else if kinds.contains(PositionErrorKinds::MISSING_KING) {
        let missing: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|&c| board.kings() & board.by_color(c) == Bitboard::EMPTY)
            .collect();
        reasons.push(match missing.as_slice() {
            [color] => format!("{} has no king.", color_name(*color)),
            _ => "Neither side has a king.".to_owned(),
        });
    }
    if kinds.contains(PositionErrorKinds::TOO_MANY_KINGS) {
        for color in Color::ALL {
            if (board.kings() & board.by_color(color)).count() > 1 {
                reasons.push(format!("{} has more than one king.", color_name(color)));
            }
        }
    }
    if kinds.contains(PositionErrorKinds::PAWNS_ON_BACKRANK) {
        reasons.push("Pawns cannot stand on the first or the eighth rank.".to_owned());
    }
    if kinds.contains(PositionErrorKinds::INVALID_CASTLING_RIGHTS) {
        reasons.push("A castling right has no king or rook on its square.".to_owned());
    }
    if kinds.contains(PositionErrorKinds::INVALID_EP_SQUARE) {
        let square = setup.ep_square.map_or_else(String::new, |sq| format!(" {sq}"));
        reasons.push(format!("The en passant square{square} does not follow a pawn's double step."));
    }
    if kinds.contains(PositionErrorKinds::OPPOSITE_CHECK) {
        reasons.push(format!("{other} is in check but it is {turn}'s turn."));
    }
    if kinds.contains(PositionErrorKinds::IMPOSSIBLE_CHECK) {
        reasons.push(format!("{turn}'s king is in a check that no move could have given."));
    }
    if kinds.contains(PositionErrorKinds::TOO_MUCH_MATERIAL) {
        reasons.push("There are more pieces than promotions could give.".to_owned());
    }
    if kinds.contains(PositionErrorKinds::VARIANT) || reasons.is_empty() {
        reasons.push("The position breaks a rule of chess.".to_owned());
    }
    format!("Illegal: {}", reasons.join(" "))
}

fn color_name(color: Color) -> &'static str {
    if color == Color::White { "White" } else { "Black" }
}

/// "White queen", "Black pawn".
fn piece_name(piece: Piece) -> String {
    format!("{} {}", color_name(piece.color), role_name(piece.role))
}

/// One palette button: the piece's picture, framed when selected.
fn palette_tile(
    ui: &mut Ui,
    pieces: &PieceTextures,
    piece: Piece,
    size: Vec2,
    selected: bool,
    label: &str,
) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    response.widget_info(|| WidgetInfo::selected(accesskit::Role::Button, true, selected, label));
    let painter = ui.painter();
    let fill = if selected {
        SELECTED_TILE
    } else if response.hovered() {
        ui.visuals().widgets.hovered.weak_bg_fill
    } else {
        ui.visuals().widgets.inactive.weak_bg_fill
    };
    painter.rect_filled(rect, CornerRadius::same(4), fill);
    if selected {
        painter.rect_stroke(
            rect,
            CornerRadius::same(4),
            Stroke::new(2.0, ui.visuals().strong_text_color()),
            egui::StrokeKind::Inside,
        );
    }
    painter.image(pieces.get(piece).id(), rect.shrink(2.0), UV, Color32::WHITE);
    response
}

/// The editor's board: returns the square clicked, with `true` for the primary button and
/// `false` for the secondary one.
fn editor_board_ui(
    ui: &mut Ui,
    board: &Board,
    flipped: bool,
    side: f32,
    pieces: &PieceTextures,
) -> Option<(Square, bool)> {
    // Size and allocate.
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::click());
    response.widget_info(|| WidgetInfo::labeled(accesskit::Role::Grid, true, "Board editor"));
    let geometry = Geometry { rect, flipped };

    // Interact.
    let at = response.interact_pointer_pos().and_then(|p| geometry.square_at(p));
    let clicked = if response.clicked() {
        at.map(|sq| (sq, true))
    } else if response.secondary_clicked() {
        at.map(|sq| (sq, false))
    } else {
        None
    };

    // Paint.
    let painter = ui.painter_at(rect);
    geometry.paint_squares(&painter);
    geometry.paint_coordinates(&painter);
    for (sq, piece) in board.clone() {
        painter.image(pieces.get(piece).id(), geometry.square_rect(sq), UV, Color32::WHITE);
    }
    if let Some(hover) = response.hover_pos().and_then(|p| geometry.square_at(p)) {
        let stroke = Stroke::new(geometry.square_size() * 0.05, Color32::from_black_alpha(120));
        painter.rect_stroke(
            geometry.square_rect(hover),
            CornerRadius::ZERO,
            stroke,
            egui::StrokeKind::Inside,
        );
    }
    geometry.describe_squares(ui, response.id, board);
    clicked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(fen: &str) -> Setup {
        parse_fen(fen).unwrap()
    }

    fn reason(fen: &str) -> String {
        let setup = setup(fen);
        let error = Chess::from_setup(setup.clone(), CastlingMode::Standard).unwrap_err();
        explain(&setup, error.kinds())
    }

    #[test]
    fn explains_each_kind_of_illegal_position() {
        assert_eq!(reason("8/8/8/8/8/8/8/8 w - - 0 1"), "Illegal: The board is empty.");
        assert_eq!(reason("8/8/8/8/8/8/8/4K3 w - - 0 1"), "Illegal: Black has no king.");
        assert!(reason("4k3/8/8/8/8/8/8/2K1K3 w - - 0 1").contains("White has more than one king."));
        assert!(reason("4k3/8/8/8/8/8/8/P3K3 w - - 0 1").contains("Pawns cannot stand"));
        assert_eq!(
            reason("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
            "Illegal: Black is in check but it is White's turn."
        );
        assert!(reason("4k3/8/8/8/8/8/8/4K3 w K - 0 1").contains("castling right"));
        assert!(reason("4k3/8/8/8/8/8/8/4K3 w - e6 0 1").contains("en passant square e6"));
        assert!(reason("4k3/8/8/8/8/3n1n2/8/4K3 w - - 0 1").contains("no move could have given"));
    }

    #[test]
    fn en_passant_needs_a_double_step_and_a_capturer() {
        let s = setup("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
        assert_eq!(en_passant_candidates(&s).collect::<Vec<_>>(), vec![Square::D6]);
        let s = setup("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
        assert_eq!(en_passant_candidates(&s).count(), 0);
    }

    #[test]
    fn refuses_chess960_castling_and_garbage() {
        assert!(parse_fen("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1").unwrap_err().contains("g1"));
        assert!(parse_fen("not a fen").unwrap_err().starts_with("Not a valid FEN"));
    }
}
