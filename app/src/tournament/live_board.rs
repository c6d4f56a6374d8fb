//! One game of a running tournament as TCEC's site shows it: the board, both engines with
//! their latest evaluation (from White's side, with its depth) and clock, and how far each
//! adjudication rule is from ending the game.

use std::time::Duration;

use egui::{RichText, Ui, Vec2};
use kibitz_engine::matches::{FinishedGame, Fixture, LiveEvent};
use kibitz_engine::{Countdown, GameRecord, Score, format_clock};
use shakmaty::{ByColor, Color, Position};

use crate::board::{BoardState, BoardView, board_ui};
use crate::pieces::PieceTextures;

/// The side of a live board, in points.
const BOARD_SIDE: f32 = 240.0;

/// A board of the tournament: the game its worker plays, or played last.
#[derive(Default)]
pub struct LiveBoard {
    /// The game on it: its schedule entry, its engines and its moves.
    game: Option<Shown>,
    /// The board's own state (nothing is dragged on it).
    state: BoardState,
}

/// The game a board shows.
struct Shown {
    fixture: Fixture,
    names: ByColor<String>,
    record: GameRecord,
    /// Each engine's latest score, from White's side, with its depth.
    scores: ByColor<Option<(Score, Option<u32>)>>,
    clocks: ByColor<Option<Duration>>,
    countdowns: Vec<Countdown>,
    /// The result and how the game ended, once it did.
    result: Option<String>,
}

impl LiveBoard {
    /// Takes in a start or a move of the board's game.
    pub fn apply(&mut self, event: LiveEvent) {
        match event {
            LiveEvent::Started { fixture, names, opening, .. } => {
                self.game = Some(Shown {
                    fixture,
                    names,
                    record: *opening,
                    scores: ByColor::new_with(|_| None),
                    clocks: ByColor::new_with(|_| None),
                    countdowns: Vec::new(),
                    result: None,
                });
            }
            LiveEvent::Moved(moved) => {
                let Some(shown) = self.game.as_mut().filter(|s| s.fixture == moved.fixture) else { return };
                if shown.record.play(moved.mv).is_err() {
                    return;
                }
                let side = moved.report.side;
                *shown.scores.get_mut(side) =
                    moved.report.score.map(|s| (s.white_pov(side), moved.report.depth));
                shown.clocks = moved.clocks;
                shown.countdowns = moved.countdowns;
            }
        }
    }

    /// Marks the board's game as over when `game` is it.
    pub fn finished(&mut self, game: &FinishedGame) {
        if let Some(shown) = self.game.as_mut().filter(|s| s.fixture == game.fixture) {
            shown.result = Some(format!("{} {{{}}}", game.result(), game.verdict));
        }
    }

    /// Draws the board with its engines, evaluations, clocks and countdowns.
    pub fn ui(&mut self, ui: &mut Ui, pieces: &PieceTextures) {
        let Some(shown) = &self.game else {
            ui.label("Waiting for a game…");
            return;
        };
        ui.vertical(|ui| {
            ui.set_width(BOARD_SIDE);
            ui.label(RichText::new(format!("Game {}", shown.fixture.number)).strong());
            engine_line(ui, shown, Color::Black);
            let view = BoardView {
                position: shown.record.position(),
                last_move: shown.record.moves().last().copied(),
                interactive: false,
                arrows: &[],
                marks: &[],
            };
            ui.allocate_ui(Vec2::splat(BOARD_SIDE), |ui| board_ui(ui, &mut self.state, &view, pieces));
            engine_line(ui, shown, Color::White);
            match &shown.result {
                Some(result) => {
                    ui.label(RichText::new(result).strong());
                }
                None => {
                    for countdown in &shown.countdowns {
                        ui.label(countdown_words(countdown)).on_hover_text(format!(
                            "{} of {} plies count now",
                            countdown.counted, countdown.needed
                        ));
                    }
                }
            }
        });
    }
}

/// A side's engine, its latest evaluation and its clock.
fn engine_line(ui: &mut Ui, shown: &Shown, side: Color) {
    ui.horizontal(|ui| {
        let mover = shown.result.is_none() && shown.record.position().turn() == side;
        let name = RichText::new(shown.names.get(side));
        ui.label(if mover { name.strong() } else { name });
        if let Some((score, depth)) = shown.scores.get(side) {
            let depth = depth.map(|d| format!("/{d}")).unwrap_or_default();
            ui.label(RichText::new(format!("{score}{depth}")).monospace());
        }
        if let Some(left) = shown.clocks.get(side) {
            ui.label(RichText::new(format_clock(*left)).monospace());
        }
    });
}

/// `TCEC draw rule: 6 of 10 plies, 4 to go`; a win rule names the side it counts for.
fn countdown_words(c: &Countdown) -> String {
    let side = match c.favours {
        Some(Color::White) => " for White",
        Some(Color::Black) => " for Black",
        None => "",
    };
    format!("{}{side}: {} of {} plies, {} to go", c.rule, c.counted, c.needed, c.plies_left)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countdowns_read_as_words() {
        let c =
            Countdown { rule: "TCEC draw rule".into(), counted: 6, needed: 10, plies_left: 4, favours: None };
        assert_eq!(countdown_words(&c), "TCEC draw rule: 6 of 10 plies, 4 to go");
        let win = Countdown { rule: "TCEC win rule".into(), favours: Some(Color::Black), ..c };
        assert_eq!(countdown_words(&win), "TCEC win rule for Black: 6 of 10 plies, 4 to go");
    }
}
