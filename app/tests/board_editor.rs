//! The board editor driven through its accessible labels: pieces placed and erased by clicks,
//! illegal positions refused with their reason, FEN typed, pasted and copied.

use egui::{Event, Key, Modifiers, OutputCommand};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use kibitz_app::{BoardEditor, EditorEvent, PieceTextures};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position, Square};

const INITIAL: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const EMPTY: &str = "8/8/8/8/8/8/8/8 w - - 0 1";

/// The editor as the app holds it, with the textures and the last event.
struct State {
    editor: BoardEditor,
    pieces: Option<PieceTextures>,
    event: Option<EditorEvent>,
}

fn editor_from(start: &Chess) -> Harness<'static, State> {
    let state = State { editor: BoardEditor::new(start), pieces: None, event: None };
    let mut h = Harness::builder().with_size([1000.0, 620.0]).build_ui_state(
        |ui, state: &mut State| {
            let pieces = state.pieces.get_or_insert_with(|| PieceTextures::load(ui.ctx()));
            if let Some(event) = state.editor.ui(ui, pieces) {
                state.event = Some(event);
            }
        },
        state,
    );
    h.step();
    h
}

fn editor() -> Harness<'static, State> {
    editor_from(&Chess::default())
}

fn click(h: &mut Harness<'_, State>, label: &str) {
    h.get_by_label(label).click();
    h.step();
}

fn fen_field(h: &Harness<'_, State>) -> String {
    h.get_by_label("FEN").value().unwrap_or_default()
}

/// Replaces the FEN field's text with `text`, as if typed, and presses "Load FEN".
fn type_fen(h: &mut Harness<'_, State>, text: &str) {
    h.get_by_label("FEN").focus();
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.step();
    h.get_by_label("FEN").type_text(text);
    h.step();
    click(h, "Load FEN");
}

fn is_disabled(h: &Harness<'_, State>, label: &str) -> bool {
    h.get_by_label(label).accesskit_node().is_disabled()
}

#[test]
fn starts_from_the_given_position_and_shows_its_fen() {
    let h = editor();
    assert_eq!(fen_field(&h), INITIAL);
    assert_eq!(h.state().editor.fen(), INITIAL);
    h.get_by_label("e1, white king");
    h.get_by_label("e4, empty");
    h.get_by_label("Legal position.");
    assert!(!is_disabled(&h, "Done"));
}

#[test]
fn places_pieces_from_the_palette_and_erases_them() {
    let mut h = editor();
    click(&mut h, "Empty board");
    assert_eq!(fen_field(&h), EMPTY);

    click(&mut h, "White king");
    click(&mut h, "e1, empty");
    click(&mut h, "Black king");
    click(&mut h, "e8, empty");
    click(&mut h, "White knight");
    click(&mut h, "c3, empty");
    click(&mut h, "d4, empty");
    assert_eq!(fen_field(&h), "4k3/8/8/8/3N4/2N5/8/4K3 w - - 0 1");
    h.get_by_label("c3, white knight");

    // A piece replaces whatever stood on the square.
    click(&mut h, "Black queen");
    click(&mut h, "d4, white knight");
    h.get_by_label("d4, black queen");

    // The eraser empties a square; so does a right click with any piece selected.
    click(&mut h, "Eraser");
    click(&mut h, "d4, black queen");
    click(&mut h, "White pawn");
    h.get_by_label("c3, white knight").click_secondary();
    h.step();
    assert_eq!(fen_field(&h), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(h.state().editor.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn a_position_without_a_black_king_is_refused_with_its_reason() {
    let mut h = editor();
    click(&mut h, "Eraser");
    click(&mut h, "e8, black king");
    h.get_by_label("Illegal: Black has no king.");
    assert!(is_disabled(&h, "Done"));
    // Clicking the disabled button does nothing.
    click(&mut h, "Done");
    assert!(h.state().event.is_none());
    assert_eq!(h.state().editor.position().unwrap_err(), "Illegal: Black has no king.");

    // Putting it back makes the position legal again.
    click(&mut h, "Black king");
    click(&mut h, "e8, empty");
    h.get_by_label("Legal position.");
    assert!(!is_disabled(&h, "Done"));
}

#[test]
fn the_side_not_to_move_in_check_is_refused() {
    let mut h = editor();
    type_fen(&mut h, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    click(&mut h, "White rook");
    click(&mut h, "e4, empty");
    h.get_by_label("Illegal: Black is in check but it is White's turn.");
    assert!(is_disabled(&h, "Done"));

    click(&mut h, "Black to move");
    h.get_by_label("Legal position.");
    assert_eq!(fen_field(&h), "4k3/8/8/8/4R3/8/8/4K3 b - - 0 1");
    assert!(!is_disabled(&h, "Done"));
}

#[test]
fn castling_is_unavailable_once_the_rook_has_left_its_square() {
    let mut h = editor();
    assert!(!is_disabled(&h, "White O-O"));
    click(&mut h, "Eraser");
    click(&mut h, "h1, white rook");
    assert!(is_disabled(&h, "White O-O"));
    assert!(!is_disabled(&h, "White O-O-O"));
    assert_eq!(fen_field(&h), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1");

    // Putting the rook back makes the right available but does not grant it.
    click(&mut h, "White rook");
    click(&mut h, "h1, empty");
    assert!(!is_disabled(&h, "White O-O"));
    assert_eq!(fen_field(&h), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Qkq - 0 1");
    click(&mut h, "White O-O");
    assert_eq!(fen_field(&h), INITIAL);

    // Unticking a right takes it away.
    click(&mut h, "Black O-O-O");
    assert_eq!(fen_field(&h), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1");
}

#[test]
fn a_loaded_fen_with_a_bad_castling_right_is_explained_and_can_be_fixed() {
    let mut h = editor();
    type_fen(&mut h, "4k3/8/8/8/8/8/8/4K3 w K - 0 1");
    h.get_by_label("Illegal: A castling right has no king or rook on its square.");
    assert!(is_disabled(&h, "Done"));
    // The bad right stays clickable so that it can be taken away.
    assert!(!is_disabled(&h, "White O-O"));
    click(&mut h, "White O-O");
    assert!(is_disabled(&h, "White O-O"));
    h.get_by_label("Legal position.");
    assert_eq!(fen_field(&h), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn en_passant_offers_only_squares_a_pawn_could_take_on() {
    let mut h = editor();
    type_fen(&mut h, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
    click(&mut h, "En passant");
    h.step();
    click(&mut h, "d6");
    assert_eq!(fen_field(&h), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(h.state().editor.setup().ep_square, Some(Square::D6));

    // Removing the capturing pawn drops the square.
    click(&mut h, "Eraser");
    click(&mut h, "e5, white pawn");
    assert_eq!(h.state().editor.setup().ep_square, None);
}

#[test]
fn move_counters_are_labelled_fields() {
    let mut h = editor();
    h.get_by_label("Move number").set_value_accesskit(12.0);
    h.step();
    h.get_by_label("Half-move clock").set_value_accesskit(7.0);
    h.step();
    assert_eq!(fen_field(&h), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7 12");
}

#[test]
fn loads_a_typed_fen_and_explains_a_bad_one() {
    let mut h = editor();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    type_fen(&mut h, fen);
    assert_eq!(h.state().editor.fen(), fen);
    assert_eq!(fen_field(&h), fen);
    h.get_by_label("c6, black knight");

    type_fen(&mut h, "this is not a fen");
    h.get_by_label_contains("Not a valid FEN");
    // The position stays as it was.
    assert_eq!(h.state().editor.fen(), fen);
}

#[test]
fn pasted_fen_loads_and_copy_puts_the_fen_on_the_clipboard() {
    let mut h = editor();
    let fen = "8/8/8/4k3/8/8/4P3/4K3 b - - 0 40";
    h.get_by_label("FEN").focus();
    h.step();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.step();
    h.event(Event::Paste(fen.to_owned()));
    h.step();
    // Enter in the field loads it too.
    h.key_press(Key::Enter);
    h.step();
    assert_eq!(h.state().editor.fen(), fen);

    click(&mut h, "Copy FEN");
    let copied = h.output().platform_output.commands.iter().find_map(|c| match c {
        OutputCommand::CopyText(text) => Some(text.clone()),
        _ => None,
    });
    assert_eq!(copied.as_deref(), Some(fen));
}

#[test]
fn flip_turns_the_board_and_keeps_the_position() {
    let mut h = editor();
    let a1 = h.get_by_label("a1, white rook").rect().center();
    let h8 = h.get_by_label("h8, black rook").rect().center();
    assert!(a1.y > h8.y);
    click(&mut h, "Flip board");
    assert!(h.state().editor.flipped());
    let a1 = h.get_by_label("a1, white rook").rect().center();
    let h8 = h.get_by_label("h8, black rook").rect().center();
    assert!(a1.y < h8.y && a1.x > h8.x);
    assert_eq!(fen_field(&h), INITIAL);

    // Clicks still land on the square under the pointer.
    click(&mut h, "Eraser");
    click(&mut h, "a1, white rook");
    h.get_by_label("a1, empty");
}

#[test]
fn done_returns_the_position_and_cancel_cancels() {
    let mut h = editor();
    type_fen(&mut h, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 9");
    click(&mut h, "Done");
    let Some(EditorEvent::Done(pos)) = h.state().event.clone() else {
        panic!("expected Done, got {:?}", h.state().event);
    };
    assert_eq!(
        Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 9"
    );
    assert_eq!(pos.turn(), Color::White);
    assert_eq!(pos.legal_moves().len(), 7);

    let mut h = editor();
    click(&mut h, "Cancel");
    assert!(matches!(h.state().event, Some(EditorEvent::Cancelled)));
}

#[test]
fn opens_on_any_legal_start_position() {
    let fen: Fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 4 20".parse().unwrap();
    let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    let h = editor_from(&pos);
    assert_eq!(fen_field(&h), "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 4 20");
    h.get_by_label("Black to move");
}
