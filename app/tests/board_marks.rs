//! A pixel snapshot of the board with arrows and marks, drawn by `board_ui` alone (wgpu on
//! Mesa's CPU renderer). Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p kibitz --test
//! board_marks` and look at the PNG.

use egui_kittest::Harness;
use kibitz_app::{Arrow, BoardState, BoardView, Mark, PieceTextures, board_ui};
use shakmaty::san::San;
use shakmaty::{Chess, Move, Position, Square};

/// What the harness keeps between frames.
struct Board {
    state: BoardState,
    pieces: Option<PieceTextures>,
    position: Chess,
    arrows: Vec<Arrow>,
    marks: Vec<Mark>,
}

/// Plays moves given in SAN from the start position.
fn play(sans: &[&str]) -> Chess {
    let mut pos = Chess::default();
    for san in sans {
        let m: Move = san.parse::<San>().expect("SAN").to_move(&pos).expect("a legal move");
        pos.play_unchecked(m);
    }
    pos
}

#[test]
fn arrows_over_the_pieces_and_marks_under_them() {
    // The Italian game, White to move: castling is the best move and d4 the second.
    let position = play(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]);
    let moves = position.legal_moves();
    let find = |san: &str| -> Move {
        let m = san.parse::<San>().expect("SAN").to_move(&position).expect("a legal move");
        assert!(moves.contains(&m));
        m
    };
    let arrows = vec![
        Arrow::from_move(&find("O-O"), Arrow::BEST, Some("+0.35".to_owned())),
        Arrow::from_move(&find("d4"), Arrow::SECOND, None),
    ];
    let marks = vec![
        Mark { square: Square::F7, color: Mark::ATTACKED },
        Mark { square: Square::E5, color: Mark::NOTE },
    ];
    let board = Board { state: BoardState::default(), pieces: None, position, arrows, marks };
    let mut h = Harness::builder().with_size([480.0, 480.0]).build_ui_state(
        |ui, board: &mut Board| {
            let pieces = board.pieces.get_or_insert_with(|| PieceTextures::load(ui.ctx()));
            let view = BoardView {
                position: &board.position,
                last_move: None,
                interactive: false,
                arrows: &board.arrows,
                marks: &board.marks,
            };
            assert_eq!(board_ui(ui, &mut board.state, &view, pieces), None);
        },
        board,
    );
    h.run_steps(2);
    h.snapshot("board_arrows_and_marks");
}
