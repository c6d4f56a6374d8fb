//! Board diagrams as inline SVG for the HTML report: light and dark squares, the cburnett
//! pieces (Colin M.L. Burnett, GPL-2: see `assets/pieces/cburnett/ATTRIBUTION.md`), the played
//! move's squares shaded and the better move as an arrow. The pieces are defined once per page
//! as SVG symbols ([`piece_symbols`]) that every diagram uses.

use shakmaty::{Chess, Color, File, Move, Position, Rank, Role, Square};

/// The light squares' colour.
pub(crate) const LIGHT: &str = "#f0d9b5";
/// The dark squares' colour.
pub(crate) const DARK: &str = "#b58863";
/// The shade over the played move's squares.
const PLAYED: &str = "#e8c13a";
/// The better move's arrow.
const BETTER: &str = "#15781b";
/// A square's side in SVG units (the pieces are drawn on 45 × 45).
const SQUARE: u32 = 45;

/// The cburnett pieces, by colour and role.
const PIECES: [(&str, &str); 12] = [
    ("wK", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/wK.svg"))),
    ("wQ", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/wQ.svg"))),
    ("wR", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/wR.svg"))),
    ("wB", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/wB.svg"))),
    ("wN", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/wN.svg"))),
    ("wP", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/wP.svg"))),
    ("bK", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/bK.svg"))),
    ("bQ", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/bQ.svg"))),
    ("bR", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/bR.svg"))),
    ("bB", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/bB.svg"))),
    ("bN", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/bN.svg"))),
    ("bP", include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../assets/pieces/cburnett/svg/bP.svg"))),
];

/// A hidden SVG defining every piece as a symbol (`#kibitz-wK`...) and the arrow's head, for a
/// page's diagrams.
pub(crate) fn piece_symbols() -> String {
    let mut out = String::from(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"0\" height=\"0\" style=\"position:absolute\"><defs>",
    );
    for (name, svg) in PIECES {
        // Each file is one `<svg ... viewBox="0 0 45 45">...</svg>`: its inside becomes the symbol.
        let inside = svg.find('>').map_or("", |open| &svg[open + 1..]);
        let inside = inside.trim_end().strip_suffix("</svg>").unwrap_or(inside);
        out.push_str(&format!("<symbol id=\"kibitz-{name}\" viewBox=\"0 0 45 45\">{inside}</symbol>"));
    }
    out.push_str(&format!(
        "<marker id=\"kibitz-arrow\" markerWidth=\"4\" markerHeight=\"4\" refX=\"2\" refY=\"2\" orient=\"auto\"><path d=\"M0,0 L4,2 L0,4 z\" fill=\"{BETTER}\"/></marker>"
    ));
    out.push_str("</defs></svg>");
    out
}

/// The symbol name of a piece: `wK`, `bP`.
fn piece_name(color: Color, role: Role) -> String {
    let c = if color == Color::White { 'w' } else { 'b' };
    format!("{c}{}", role.upper_char())
}

/// The top-left corner of a square, White at the bottom.
fn corner(square: Square) -> (u32, u32) {
    (u32::from(square.file()) * SQUARE, (7 - u32::from(square.rank())) * SQUARE)
}

/// The centre of a square.
fn centre(square: Square) -> (u32, u32) {
    let (x, y) = corner(square);
    (x + SQUARE / 2, y + SQUARE / 2)
}

/// The squares a move goes from and to (castling: the king's).
fn squares(pos: &Chess, m: Move) -> (Square, Square) {
    let to = match m {
        Move::Castle { king, rook } => {
            let file = if rook.file() > king.file() { File::G } else { File::C };
            Square::from_coords(file, king.rank())
        }
        other => other.to(),
    };
    (m.from().unwrap_or_else(|| pos.board().king_of(pos.turn()).unwrap_or(to)), to)
}

/// A diagram of `pos` (White at the bottom), `size` pixels wide, with `played`'s squares
/// shaded and `better` drawn as an arrow.
pub(crate) fn board_svg(pos: &Chess, played: Option<Move>, better: Option<Move>, size: u32) -> String {
    let side = 8 * SQUARE;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 {side} {side}\" width=\"{size}\" height=\"{size}\">"
    );
    for square in Square::ALL {
        let (x, y) = corner(square);
        let fill = if square.is_light() { LIGHT } else { DARK };
        out.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{fill}\"/>"
        ));
    }
    if let Some(m) = played {
        let (from, to) = squares(pos, m);
        for square in [from, to] {
            let (x, y) = corner(square);
            out.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\" fill=\"{PLAYED}\" fill-opacity=\"0.5\"/>"
            ));
        }
    }
    for (file, label) in File::ALL.iter().zip('a'..='h') {
        let x = u32::from(*file) * SQUARE + SQUARE - 8;
        out.push_str(&format!(
            "<text x=\"{x}\" y=\"{}\" font-size=\"9\" fill=\"#333\">{label}</text>",
            side - 2
        ));
    }
    for rank in Rank::ALL {
        let y = (7 - u32::from(rank)) * SQUARE + 10;
        out.push_str(&format!(
            "<text x=\"2\" y=\"{y}\" font-size=\"9\" fill=\"#333\">{}</text>",
            u32::from(rank) + 1
        ));
    }
    for (square, piece) in pos.board().clone() {
        let (x, y) = corner(square);
        let name = piece_name(piece.color, piece.role);
        out.push_str(&format!(
            "<use href=\"#kibitz-{name}\" x=\"{x}\" y=\"{y}\" width=\"{SQUARE}\" height=\"{SQUARE}\"/>"
        ));
    }
    if let Some(m) = better {
        let (from, to) = squares(pos, m);
        let ((x1, y1), (x2, y2)) = (centre(from), centre(to));
        out.push_str(&format!(
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{BETTER}\" stroke-width=\"7\" stroke-opacity=\"0.8\" marker-end=\"url(#kibitz-arrow)\"/>"
        ));
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use shakmaty::uci::UciMove;

    use super::*;

    #[test]
    fn every_piece_and_square_is_drawn() {
        let pos = Chess::default();
        let e4 = "e2e4".parse::<UciMove>().expect("UCI").to_move(&pos).expect("legal");
        let svg = board_svg(&pos, Some(e4), Some(e4), 240);
        assert_eq!(svg.matches("<rect").count(), 64 + 2);
        assert_eq!(svg.matches(&format!("fill=\"{LIGHT}\"")).count(), 32);
        assert_eq!(svg.matches("<use href=\"#kibitz-").count(), 32);
        assert_eq!(svg.matches("#kibitz-wP").count(), 8);
        assert!(svg.contains("<line"), "the arrow");
        let symbols = piece_symbols();
        assert_eq!(symbols.matches("<symbol").count(), 12);
        assert!(
            !symbols.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox"),
            "the files' own roots are gone"
        );
    }

    #[test]
    fn castling_shades_the_kings_squares() {
        let pos: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .expect("FEN")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        let castle = "e1g1".parse::<UciMove>().expect("UCI").to_move(&pos).expect("legal");
        assert_eq!(squares(&pos, castle), (Square::E1, Square::G1));
    }
}
