//! The evaluation bar beside the board: White's share filled by winning chance (lichess's
//! curve, so that +1 in an even position moves it far more than +1 at +8), not by raw
//! centipawns, with the score written at its end.

use egui::{Color32, FontId, Rect, Sense, Ui, Vec2, WidgetInfo, pos2};
use kibitz_engine::{Score, win_chance};

/// The bar's width in points.
pub const WIDTH: f32 = 18.0;

/// White's share of the bar for `score` (White's side): 0.5 when even, towards 1 when White
/// wins.
#[must_use]
pub fn white_share(score: Score) -> f32 {
    ((1.0 + win_chance(score)) / 2.0) as f32
}

/// Draws the bar in a rectangle of [`WIDTH`] by `height`; White's part is at the bottom
/// unless the board is `flipped`. `None` draws an empty (even) bar.
pub fn eval_bar_ui(ui: &mut Ui, score: Option<Score>, height: f32, flipped: bool) {
    // Size and allocate.
    let (rect, response) = ui.allocate_exact_size(Vec2::new(WIDTH, height), Sense::hover());
    let text = score.map_or_else(|| "no evaluation".to_string(), |s| s.to_string());
    response.widget_info(|| {
        WidgetInfo::labeled(egui::Role::ProgressIndicator, true, format!("Evaluation bar {text}"))
    });
    let share = score.map_or(0.5, white_share);
    // Paint.
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_gray(60));
    let white_height = rect.height() * share;
    let white = if flipped {
        Rect::from_min_max(rect.min, pos2(rect.max.x, rect.min.y + white_height))
    } else {
        Rect::from_min_max(pos2(rect.min.x, rect.max.y - white_height), rect.max)
    };
    painter.rect_filled(white, 2.0, Color32::from_gray(235));
    let mid = rect.center().y;
    painter
        .line_segment([pos2(rect.min.x, mid), pos2(rect.max.x, mid)], (1.0, Color32::from_rgb(200, 60, 60)));
    if let Some(score) = score {
        let white_ahead = share >= 0.5;
        // The score is written on the leading side's end, in the other colour.
        let at_bottom = white_ahead != flipped;
        let (y, align, color) = if at_bottom {
            (rect.max.y - 2.0, egui::Align2::CENTER_BOTTOM, Color32::from_gray(40))
        } else {
            (rect.min.y + 2.0, egui::Align2::CENTER_TOP, Color32::from_gray(220))
        };
        let short = match score {
            Score::Cp(cp) => format!("{:.1}", f64::from(cp.unsigned_abs()) / 100.0),
            Score::Mate(n) => format!("M{}", n.unsigned_abs()),
        };
        painter.text(pos2(rect.center().x, y), align, short, FontId::proportional(9.0), color);
    }
    response.on_hover_text(format!("Evaluation: {text} (White's side)"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_follows_winning_chance() {
        assert!((white_share(Score::Cp(0)) - 0.5).abs() < 1e-6);
        assert!(white_share(Score::Cp(100)) > 0.5);
        assert!(white_share(Score::Cp(-100)) < 0.5);
        // A pawn at equality moves it more than a pawn at +8.
        let near = white_share(Score::Cp(100)) - white_share(Score::Cp(0));
        let far = white_share(Score::Cp(900)) - white_share(Score::Cp(800));
        assert!(near > 3.0 * far, "{near} {far}");
        assert!(white_share(Score::Mate(2)) > 0.95);
    }
}
