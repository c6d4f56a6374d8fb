//! The HTML report of an annotation, as Crafty's `annotateh` writes one: a self-contained page
//! with, for each game, its tags, each side's summary, and a diagram of the position at every
//! move the annotation had something to say about, with the move played, its mark and the
//! better line.

use shakmaty::{Color, Position};

use super::diagram::{board_svg, piece_symbols};
use super::{Annotated, MoveVerdict};
use crate::Judgement;
use crate::analysis::san_line;

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;max-width:60em}\
h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #aaa;margin-top:2em}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}\
th{background:#eee}.tags td:first-child{color:#666}.moves{line-height:1.6}\
figure{display:inline-block;margin:.8em 1.2em .8em 0;vertical-align:top;width:300px}\
figcaption{font-size:.9em;margin-top:.3em}.blunder{color:#b00}.mistake{color:#c60}.inaccuracy{color:#07a}";

/// The report of annotated games, one self-contained HTML page: the pieces are inline SVG
/// symbols, nothing is loaded from elsewhere.
///
/// ```
/// use kibitz_engine::{Annotated, GameRecord, annotation_report};
/// let annotated = Annotated { game: GameRecord::new(), verdicts: vec![], summary: Default::default() };
/// let html = annotation_report(&[annotated]);
/// assert!(html.starts_with("<!DOCTYPE html>"));
/// assert!(html.contains("<table class=\"summary\">"));
/// ```
#[must_use]
pub fn annotation_report(games: &[Annotated]) -> String {
    let mut out = String::from("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");
    out.push_str(&format!("<title>Kibitz annotation</title><style>{STYLE}</style></head><body>\n"));
    out.push_str(&piece_symbols());
    out.push_str("\n<h1>Kibitz annotation</h1>\n");
    for (i, annotated) in games.iter().enumerate() {
        game_section(&mut out, i + 1, annotated);
    }
    out.push_str("<p><small>Pieces by Colin M.L. Burnett (cburnett), GPL-2.0.</small></p>\n</body></html>\n");
    out
}

fn game_section(out: &mut String, number: usize, annotated: &Annotated) {
    let game = &annotated.game;
    let name = |tag: &str| escape(game.tag(tag).unwrap_or("?"));
    out.push_str(&format!(
        "<h2>{number}. {} – {} <small>{}</small></h2>\n",
        name("White"),
        name("Black"),
        escape(game.result())
    ));
    out.push_str("<table class=\"tags\">");
    for (tag, value) in game.tags() {
        out.push_str(&format!("<tr><td>{}</td><td>{}</td></tr>", escape(tag), escape(value)));
    }
    out.push_str("</table>\n<table class=\"summary\"><tr><th>Side</th><th>Moves judged</th>");
    out.push_str(
        "<th>Inaccuracies ?!</th><th>Mistakes ?</th><th>Blunders ??</th><th>Average loss (cp)</th></tr>",
    );
    for color in Color::ALL {
        let s = annotated.summary.get(color);
        let average = s.average_loss().map_or_else(|| "–".to_owned(), |a| format!("{a:.0}"));
        out.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{average}</td></tr>",
            if color == Color::White { name("White") } else { name("Black") },
            s.moves,
            s.inaccuracies,
            s.mistakes,
            s.blunders
        ));
    }
    out.push_str("</table>\n<p class=\"moves\">");
    out.push_str(&escape(&marked_moves(annotated)));
    out.push_str("</p>\n");
    for verdict in annotated.verdicts.iter().filter(|v| v.commented || v.judgement.is_some()) {
        figure(out, annotated, verdict);
    }
}

/// The main line with move numbers and the marks of the judged moves: `1. e4 e5 2. Qh5?!`.
fn marked_moves(annotated: &Annotated) -> String {
    let game = &annotated.game;
    let mut words = Vec::new();
    for (ply, &id) in game.main_line().iter().enumerate().skip(1) {
        let Some(node) = game.node(id) else { break };
        let before = game.position_at(ply - 1);
        let mark = annotated.verdicts.iter().find(|v| v.node == id).and_then(|v| v.judgement);
        let san = format!("{}{}", node.san(), mark.map_or("", Judgement::symbol));
        match before.turn() {
            Color::White => words.push(format!("{}. {san}", before.fullmoves())),
            Color::Black if ply == 1 => words.push(format!("{}... {san}", before.fullmoves())),
            Color::Black => words.push(san),
        }
    }
    words.join(" ")
}

/// A diagram of the position before a move, with the move, its mark and the better line.
fn figure(out: &mut String, annotated: &Annotated, verdict: &MoveVerdict) {
    let game = &annotated.game;
    let Some(node) = game.node(verdict.node) else { return };
    let before = node.parent().and_then(|p| game.node(p)).map_or(game.start(), |p| p.position());
    let dots = if verdict.mover == Color::White { "." } else { "..." };
    let mark = verdict.judgement.map_or("", Judgement::symbol);
    let class = verdict.judgement.map_or("", Judgement::word);
    let white = |score: crate::Score| score.white_pov(verdict.mover);
    out.push_str("<figure>");
    out.push_str(&board_svg(before, node.mv(), verdict.best_line.first().copied(), 300));
    out.push_str(&format!(
        "<figcaption><b class=\"{class}\">{}{dots} {}{mark}</b> {} {}<br>Better: {} {} (depth {})</figcaption></figure>\n",
        verdict.number,
        escape(node.san()),
        verdict.judgement.map_or(String::new(), |j| format!("({})", j.word())),
        white(verdict.played),
        escape(&san_line(before, &verdict.best_line)),
        white(verdict.best),
        verdict.depth
    ));
}
