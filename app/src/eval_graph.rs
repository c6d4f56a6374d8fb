//! The evaluation graph under the board: White's winning chance after every move of the main
//! line that has an evaluation (annotated, played or loaded with `[%eval]`), on lichess's
//! curve, with an axis in pawns. Blunders, mistakes and inaccuracies (by their glyph or by the
//! winning chance the move gave away) are marked; the move shown is highlighted; a click or a
//! drag goes to a move.

use egui::{
    Align2, Color32, FontId, Pos2, Rect, Sense, Shape, Stroke, Ui, WidgetInfo, accesskit, pos2, vec2,
};
use kibitz_engine::{Eval, GameRecord, Judgement, Nag, NodeId, Score, win_chance};
use shakmaty::{Color, Position};

use crate::action::Action;

/// The graph is shown only for a game with at least this many evaluations on its main line.
pub const MIN_EVALS: usize = 3;

/// The graph's height in points.
const HEIGHT: f32 = 110.0;

/// The room on the left for the axis labels.
const AXIS_WIDTH: f32 = 26.0;

/// The scores, in centipawns, labelled on the axis.
const TICKS: [i32; 5] = [500, 200, 0, -200, -500];

/// One position of the main line as the graph plots it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The node: the root, then one per move.
    pub node: NodeId,
    /// White's winning chance there, −1 to 1, when the position has an evaluation.
    pub chance: Option<f64>,
    /// How bad the move leading here was: by its glyph, or by the chance it gave away.
    pub judgement: Option<Judgement>,
}

/// The main line's positions, the start first, with their winning chances and judgements.
#[must_use]
pub fn points(game: &GameRecord) -> Vec<Point> {
    let mut before: Option<Eval> = None;
    let mut points = Vec::with_capacity(game.len() + 1);
    for &id in game.main_line() {
        let Some(node) = game.node(id) else { continue };
        let eval = node.eval();
        // The mover is the side not to move after the move.
        let mover = !node.position().turn();
        let mover_pov = |score: Score| if mover == Color::White { score } else { score.negate() };
        let by_eval = match (before, eval) {
            (Some(b), Some(a)) if id != NodeId::ROOT => Judgement::of(mover_pov(b.score), mover_pov(a.score)),
            _ => None,
        };
        points.push(Point {
            node: id,
            chance: eval.map(|e| win_chance(e.score)),
            judgement: by_eval.max(glyph_judgement(node.nags())),
        });
        before = eval;
    }
    points
}

/// The judgement a move's glyphs give it: `??`, `?` or `?!`.
fn glyph_judgement(nags: &[Nag]) -> Option<Judgement> {
    Judgement::ALL.into_iter().rev().find(|j| nags.contains(&Nag(j.nag())))
}

/// Shows the graph at the bottom of `ui` when the game has enough evaluations; a click or a
/// drag on it asks to go to a move.
pub fn eval_graph_panel(ui: &mut Ui, game: &GameRecord, current: NodeId, actions: &mut Vec<Action>) {
    let points = points(game);
    if points.iter().filter(|p| p.chance.is_some()).count() < MIN_EVALS {
        return;
    }
    let current_ply = game.node(current).map(|n| n.ply());
    let on_main = game.is_main_line(current);
    egui::Panel::bottom("eval-graph").exact_size(HEIGHT).show(ui, |ui| {
        if let Some(to) = eval_graph(ui, game, &points, current_ply, on_main)
            && to != current
        {
            actions.push(Action::GoTo(Some(to)));
        }
    });
}

/// The graph widget; returns the node under the pointer while it is pressed or dragged.
fn eval_graph(
    ui: &mut Ui,
    game: &GameRecord,
    points: &[Point],
    current_ply: Option<usize>,
    on_main: bool,
) -> Option<NodeId> {
    // Size.
    let size = vec2(ui.available_width(), (ui.available_height() - 4.0).max(40.0));

    // Allocate.
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    response.widget_info(|| WidgetInfo::labeled(accesskit::Role::Slider, true, "Evaluation graph"));
    let plot =
        Rect::from_min_max(pos2(rect.left() + AXIS_WIDTH, rect.top() + 2.0), rect.max - vec2(4.0, 2.0));
    let last = points.len().saturating_sub(1).max(1);
    let x = |ply: usize| plot.left() + plot.width() * ply as f32 / last as f32;
    let y = |chance: f64| plot.center().y - plot.height() / 2.0 * chance as f32;
    let ply_at = |pos: Pos2| {
        let ply = ((pos.x - plot.left()) / plot.width() * last as f32).round();
        (ply.max(0.0) as usize).min(points.len().saturating_sub(1))
    };

    // Interact.
    let mut chosen = None;
    if (response.is_pointer_button_down_on() || response.clicked())
        && let Some(pos) = response.interact_pointer_pos()
    {
        chosen = points.get(ply_at(pos)).map(|p| p.node);
    }

    // Paint.
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(plot, 2.0, visuals.extreme_bg_color);
    let font = FontId::proportional(10.0);
    for cp in TICKS {
        let at = y(win_chance(Score::Cp(cp)));
        let stroke = Stroke::new(if cp == 0 { 1.0 } else { 0.5 }, visuals.weak_text_color());
        painter.hline(plot.x_range(), at, stroke);
        let label = if cp == 0 { "0".to_string() } else { format!("{:+}", cp / 100) };
        painter.text(
            pos2(plot.left() - 4.0, at),
            Align2::RIGHT_CENTER,
            label,
            font.clone(),
            visuals.text_color(),
        );
    }
    let plotted: Vec<(usize, f64)> =
        points.iter().enumerate().filter_map(|(ply, p)| p.chance.map(|c| (ply, c))).collect();
    let (white, black) = (Color32::from_gray(225), Color32::from_gray(45));
    for pair in plotted.windows(2) {
        fill_segment(&painter, (x(pair[0].0), pair[0].1), (x(pair[1].0), pair[1].1), &y, white, black);
    }
    let line: Vec<Pos2> = plotted.iter().map(|&(ply, c)| pos2(x(ply), y(c))).collect();
    painter.add(Shape::line(line, Stroke::new(1.5, visuals.strong_text_color())));
    if let Some(ply) = current_ply.filter(|&p| p < points.len()) {
        let colour = if on_main { visuals.selection.bg_fill } else { visuals.weak_text_color() };
        painter.vline(x(ply), plot.y_range(), Stroke::new(2.0, colour));
    }
    for (ply, point) in points.iter().enumerate() {
        if let Some(judgement) = point.judgement {
            let at = pos2(x(ply), y(point.chance.unwrap_or(0.0)));
            painter.circle(at, 4.0, judgement_colour(judgement), Stroke::new(1.0, Color32::BLACK));
        }
    }
    if response.hover_pos().is_none() {
        let caption = "White's winning chance, axis in pawns";
        painter.text(
            plot.left_top() + vec2(4.0, 2.0),
            Align2::LEFT_TOP,
            caption,
            font,
            visuals.weak_text_color(),
        );
    }
    if let Some(pos) = response.hover_pos() {
        let point = points[ply_at(pos)];
        if let Some(text) = describe(game, point) {
            let anchor = if pos.x > plot.center().x { Align2::RIGHT_TOP } else { Align2::LEFT_TOP };
            let at = pos2(pos.x.clamp(plot.left() + 4.0, plot.right() - 4.0), plot.top() + 2.0);
            painter.text(at, anchor, text, FontId::proportional(12.0), visuals.strong_text_color());
        }
    }
    chosen
}

/// Fills the area between the curve and the even line from `a` to `b` (each an x and a
/// chance): light where White is better, dark where Black is, split where the curve crosses.
fn fill_segment(
    painter: &egui::Painter,
    a: (f32, f64),
    b: (f32, f64),
    y: &impl Fn(f64) -> f32,
    white: Color32,
    black: Color32,
) {
    let mid = y(0.0);
    let colour = |c: f64| if c >= 0.0 { white } else { black };
    let piece = |(xa, ca): (f32, f64), (xb, cb): (f32, f64)| {
        let shape = vec![pos2(xa, mid), pos2(xa, y(ca)), pos2(xb, y(cb)), pos2(xb, mid)];
        painter.add(Shape::convex_polygon(shape, colour(ca + cb), Stroke::NONE));
    };
    if (a.1 >= 0.0) == (b.1 >= 0.0) {
        piece(a, b);
    } else {
        let t = a.1 / (a.1 - b.1);
        let cross = a.0 + (b.0 - a.0) * t as f32;
        piece(a, (cross, 0.0));
        piece((cross, 0.0), b);
    }
}

/// The mark of a judgement: red for a blunder, orange for a mistake, yellow for an inaccuracy.
fn judgement_colour(judgement: Judgement) -> Color32 {
    match judgement {
        Judgement::Blunder => Color32::from_rgb(220, 40, 40),
        Judgement::Mistake => Color32::from_rgb(240, 140, 20),
        Judgement::Inaccuracy => Color32::from_rgb(230, 210, 60),
    }
}

/// "12. Nf3?? −3.15": the move at a point with its glyphs and evaluation.
fn describe(game: &GameRecord, point: Point) -> Option<String> {
    let node = game.node(point.node)?;
    let eval = node.eval().map(|e| format!(" {e}")).unwrap_or_default();
    let Some(parent) = node.parent().and_then(|p| game.node(p)) else {
        return Some(format!("Start{eval}"));
    };
    let before = parent.position();
    let dots = if before.turn() == Color::White { "." } else { "..." };
    let glyph = point.judgement.map(Judgement::symbol).unwrap_or_default();
    Some(format!("{}{dots} {}{glyph}{eval}", before.fullmoves(), node.san()))
}

#[cfg(test)]
mod tests {
    use kibitz_engine::read_pgn;

    use super::*;

    #[test]
    fn points_carry_chances_and_judgements() {
        let pgn = "1. e4 { [%eval 0.2] } e5 { [%eval 0.3] } 2. Qh5 { [%eval -0.1] } Ke7?? { [%eval 4.0] } \
                   3. Nc3 { [%eval 4.2] } Nf6 $6 *";
        let game = read_pgn(pgn).expect("the test game reads");
        let points = points(&game);
        assert_eq!(points.len(), 7, "the start and six moves");
        assert_eq!(points[0].chance, None);
        assert_eq!(points[1].chance, Some(win_chance(Score::Cp(20))));
        assert_eq!(points[1].judgement, None, "no eval before the first move");
        assert_eq!(points[3].judgement, None, "0.3 to -0.1 is within 0.1 of winning chance");
        assert_eq!(points[4].judgement, Some(Judgement::Blunder), "by glyph and by eval");
        assert_eq!(points[5].judgement, None, "White gained");
        assert_eq!(points[6].judgement, Some(Judgement::Inaccuracy), "by glyph alone");
        assert_eq!(points[6].chance, None);
        assert_eq!(describe(&game, points[4]).as_deref(), Some("2... Ke7?? +4.00"));
    }

    #[test]
    fn a_drop_of_winning_chance_is_judged_for_the_mover() {
        // Black's move takes the score from -2 to +2: a blunder by Black.
        let game = read_pgn("1. e4 { [%eval -2.0] } e5 { [%eval 2.0] } *").expect("reads");
        assert_eq!(points(&game)[2].judgement, Some(Judgement::Blunder));
        let game = read_pgn("1. e4 { [%eval 2.0] } e5 { [%eval -2.0] } *").expect("reads");
        assert_eq!(points(&game)[2].judgement, None, "good for Black");
    }
}
