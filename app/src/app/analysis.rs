//! The app's side of the study's analysis: starting the engines' players, following the
//! position shown, and the person's requests (play a line, add it as a variation, play the
//! best move).

use std::sync::Arc;

use egui::{Rect, Ui, UiBuilder, vec2};
use kibitz_engine::{Player, Score};
use shakmaty::{Chess, Move};

use super::KibitzApp;
use crate::action::AnalysisAction;
use crate::analysis_panel::AnalystSource;
use crate::board::{BoardState, BoardView, board_ui};
use crate::engine_choice::{KIBITZ, spawn_player};
use crate::eval_bar::{WIDTH, eval_bar_ui};
use crate::pieces::PieceTextures;
use crate::workspace::Workspace;

/// The board with the evaluation bar at its left, both as large as the space allows.
pub(super) fn board_with_bar(
    ui: &mut Ui,
    state: &mut BoardState,
    view: &BoardView<'_>,
    pieces: &PieceTextures,
    score: Option<Score>,
) -> Option<Move> {
    let gap = 6.0;
    let available = ui.available_rect_before_wrap();
    let side = (available.width() - WIDTH - gap).min(available.height()).max(8.0 * 12.0);
    let whole = Rect::from_center_size(available.center(), vec2(side + WIDTH + gap, side));
    let bar = Rect::from_min_size(whole.min, vec2(WIDTH, side));
    let board = Rect::from_min_size(whole.min + vec2(WIDTH + gap, 0.0), vec2(side, side));
    ui.scope_builder(UiBuilder::new().max_rect(bar), |ui| eval_bar_ui(ui, score, side, state.flipped));
    ui.scope_builder(UiBuilder::new().max_rect(board), |ui| board_ui(ui, state, view, pieces)).inner
}

impl KibitzApp {
    /// A fresh player for an analysis engine; `None` (with a notice) when the engine is no
    /// longer configured.
    fn analysis_player(&mut self, source: &AnalystSource) -> Option<Box<dyn Player>> {
        let repaint = Arc::clone(&self.repaint);
        match source {
            AnalystSource::Kibitz => Some(spawn_player(KIBITZ, &[], self.tablebases(), repaint)),
            AnalystSource::Engine(name) if self.settings.engine(name).is_some() => {
                Some(spawn_player(name, &self.settings.engines, None, repaint))
            }
            AnalystSource::Engine(name) => {
                self.notices.push(format!("{name} is no longer among the engines (see Engines)."));
                None
            }
        }
    }

    /// Carries out a request of the analysis panel or its keys.
    pub(super) fn apply_analysis(&mut self, action: AnalysisAction) {
        if self.workspace != Workspace::Study {
            return;
        }
        match action {
            AnalysisAction::Toggle => {
                let Some(study) = self.study.as_mut() else { return };
                let on = !study.analysis.is_on();
                if on
                    && !study.analysis.has_engines()
                    && let Some(player) = self.analysis_player(&AnalystSource::Kibitz)
                    && let Some(study) = self.study.as_mut()
                {
                    study.analysis.add(AnalystSource::Kibitz, player);
                }
                if let Some(study) = self.study.as_mut() {
                    study.analysis.set_on(on);
                }
                self.follow_analysis();
            }
            AnalysisAction::Add(source) => {
                if let Some(player) = self.analysis_player(&source)
                    && let Some(study) = self.study.as_mut()
                {
                    study.analysis.add(source, player);
                }
                self.follow_analysis();
            }
            AnalysisAction::Remove(index) => {
                if let Some(study) = self.study.as_mut() {
                    study.analysis.remove(index);
                }
            }
            AnalysisAction::Restart(index) => {
                let source = self.study.as_ref().and_then(|s| s.analysis.source(index).cloned());
                if let Some(source) = source
                    && let Some(player) = self.analysis_player(&source)
                    && let Some(study) = self.study.as_mut()
                {
                    study.analysis.restart(index, player);
                }
                self.follow_analysis();
            }
            AnalysisAction::PlayLine(moves) => self.play_line(&moves, true),
            AnalysisAction::AddLine(moves) => self.play_line(&moves, false),
            AnalysisAction::PlayBest => {
                let shown = self.table().game().position_at_node(self.current()).clone();
                let best = self.study.as_ref().and_then(|s| {
                    let lead = s.analysis.lead()?;
                    (lead.root() == &shown).then(|| s.analysis.best_move()).flatten()
                });
                if let Some(m) = best {
                    self.play_line(&[m], true);
                }
            }
        }
    }

    /// Adds `moves` from the move shown to the study (each a new variation unless it is
    /// already there), and shows the last when `go` (else stays).
    fn play_line(&mut self, moves: &[Move], go: bool) {
        let mut at = self.current();
        let Some(study) = self.study.as_mut() else { return };
        let game = study.table.conductor.game_mut();
        for &m in moves {
            match game.play_at(at, m) {
                Ok(id) => at = id,
                Err(e) => {
                    self.notices.push(format!("The engine's line does not fit the position: {e}"));
                    return;
                }
            }
        }
        if go {
            self.set_cursor(Some(at));
            self.board.clear();
        }
        self.save_study();
        self.follow_analysis();
    }

    /// Shows the study's engines the position on the board (the start and the moves to it,
    /// for repetitions); called every frame, it costs nothing when the position is the same.
    pub(super) fn follow_analysis(&mut self) {
        if self.workspace != Workspace::Study {
            return;
        }
        let at = self.current();
        let Some(study) = self.study.as_mut() else { return };
        if !study.analysis.has_engines() {
            return;
        }
        let game = study.table.game();
        let start: Chess = game.start().clone();
        let moves: Vec<Move> = game.path_to(at).iter().filter_map(|&id| game.node(id)?.mv()).collect();
        study.analysis.follow(&start, &moves);
    }
}
