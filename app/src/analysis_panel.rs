//! The analysis panel of a study: engines analysing the position on the board without end
//! (Crafty's `analyze`), each with its lines. It follows every navigation, move, variation and
//! board-editor change; one button or the A key turns it on and off for all of them.
//!
//! Per line: the score from White's side (`#N` for a mate, `++`/`--` when the search failed
//! high or low and waits for its re-search), depth/seldepth, nodes, speed, time and the
//! principal variation in SAN with move numbers, each move a button that plays the line up to
//! it. The first engine's best line fills the evaluation bar and every line of it draws an
//! arrow on the board.

use egui::{Button, RichText, Ui};
use kibitz_engine::{Analysis, Analyst, AnalystState, EngineConfig, Line, Player, ScoreBound};
use shakmaty::{Chess, KnownOutcome, Move};

use crate::action::{Action, AnalysisAction};
use crate::board_marks::Arrow;

/// Which engine an analyst runs, to start it again after a failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalystSource {
    /// Kibitz's own engine.
    Kibitz,
    /// A configured external engine, by name.
    Engine(String),
}

impl AnalystSource {
    /// The name shown.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            AnalystSource::Kibitz => "Kibitz",
            AnalystSource::Engine(name) => name,
        }
    }
}

/// One engine of the panel.
struct Entry {
    source: AnalystSource,
    analyst: Analyst,
}

/// The study's analysis: its engines, how many lines each shows, and whether it runs.
pub struct AnalysisPanel {
    entries: Vec<Entry>,
    multipv: u32,
    /// Whether the person turned analysis on (it pauses while another workspace is shown).
    on: bool,
    /// The position shown to the engines.
    shown: Option<(Chess, Vec<Move>)>,
}

impl Default for AnalysisPanel {
    fn default() -> Self {
        AnalysisPanel { entries: Vec::new(), multipv: 1, on: false, shown: None }
    }
}

impl AnalysisPanel {
    /// Whether analysis is on.
    #[must_use]
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Whether the panel has any engine yet (the first start adds Kibitz's).
    #[must_use]
    pub fn has_engines(&self) -> bool {
        !self.entries.is_empty()
    }

    /// Adds an engine, analysing at once when analysis is on.
    pub fn add(&mut self, source: AnalystSource, player: Box<dyn Player>) {
        let mut analyst = Analyst::new(player);
        analyst.set_multipv(self.multipv);
        if let Some((start, moves)) = &self.shown {
            analyst.show(start, moves);
        }
        if self.on {
            analyst.start();
        }
        self.entries.push(Entry { source, analyst });
    }

    /// Removes the engine at `index`.
    pub fn remove(&mut self, index: usize) {
        if index < self.entries.len() {
            self.entries.remove(index);
        }
        if self.entries.is_empty() {
            self.on = false;
        }
    }

    /// Replaces the player of the engine at `index` by a fresh one (after a failure).
    pub fn restart(&mut self, index: usize, player: Box<dyn Player>) {
        if let Some(entry) = self.entries.get_mut(index) {
            entry.analyst.restart(player);
            if !self.on {
                entry.analyst.stop();
            }
        }
    }

    /// The source of the engine at `index`.
    #[must_use]
    pub fn source(&self, index: usize) -> Option<&AnalystSource> {
        self.entries.get(index).map(|e| &e.source)
    }

    /// Turns analysis on or off for every engine.
    pub fn set_on(&mut self, on: bool) {
        self.on = on;
        for entry in &mut self.entries {
            if on { entry.analyst.start() } else { entry.analyst.stop() }
        }
    }

    /// Pauses every engine (another workspace is shown) without turning analysis off.
    pub fn pause(&mut self) {
        for entry in &mut self.entries {
            entry.analyst.stop();
        }
    }

    /// Shows every engine the position after `moves` from `start`; engines that were paused
    /// start again when analysis is on.
    pub fn follow(&mut self, start: &Chess, moves: &[Move]) {
        if self.shown.as_ref().is_none_or(|(s, m)| s != start || m != moves) {
            self.shown = Some((start.clone(), moves.to_vec()));
        }
        for entry in &mut self.entries {
            entry.analyst.show(start, moves);
            let idle = matches!(entry.analyst.state(), AnalystState::Stopped);
            if self.on && idle {
                entry.analyst.start();
            }
        }
    }

    /// Sets how many lines every engine shows.
    pub fn set_multipv(&mut self, n: u32) {
        self.multipv = n.max(1);
        for entry in &mut self.entries {
            entry.analyst.set_multipv(self.multipv);
        }
    }

    /// Takes every engine's events; returns whether anything shown changed.
    pub fn drain(&mut self) -> bool {
        let mut changed = false;
        for entry in &mut self.entries {
            changed |= entry.analyst.drain();
        }
        changed
    }

    /// The first engine's current analysis, for the evaluation bar, the arrows and Space.
    #[must_use]
    pub fn lead(&self) -> Option<&Analysis> {
        self.entries.first().and_then(|e| e.analyst.analysis())
    }

    /// The first engine's best move, if it has reported one for the position shown.
    #[must_use]
    pub fn best_move(&self) -> Option<Move> {
        self.lead().and_then(Analysis::best).and_then(|l| l.pv.first().copied())
    }

    /// An arrow for the first move of each of the first engine's lines, the best strongest.
    #[must_use]
    pub fn arrows(&self) -> Vec<Arrow> {
        let Some(analysis) = self.lead().filter(|_| self.on) else { return Vec::new() };
        analysis
            .lines()
            .iter()
            .filter_map(|line| {
                let m = line.pv.first()?;
                let color = if line.multipv == 1 { Arrow::BEST } else { Arrow::SECOND };
                let mut arrow = Arrow::from_move(m, color, Some(score_text(line)));
                if line.multipv > 1 {
                    arrow.width *= 0.7;
                }
                Some(arrow)
            })
            .collect()
    }

    /// Shows the panel: the controls, then each engine with its lines.
    pub fn ui(&mut self, ui: &mut Ui, engines: &[EngineConfig], actions: &mut Vec<Action>) {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new("Analysis").strong());
            let text = if self.on { "Stop analysis" } else { "Start analysis" };
            if ui.button(text).on_hover_text("Analyse the position on the board (A)").clicked() {
                actions.push(Action::Analysis(AnalysisAction::Toggle));
            }
            let label = ui.label("Lines");
            let mut multipv = self.multipv;
            let most =
                self.entries.iter().map(|e| e.analyst.max_lines()).min().unwrap_or(kibitz_engine::MAX_LINES);
            let drag =
                ui.add(egui::DragValue::new(&mut multipv).range(1..=most.max(1))).labelled_by(label.id);
            if drag.changed() && multipv != self.multipv {
                self.set_multipv(multipv);
            }
            let mut picked = None;
            ui.menu_button("Add engine", |ui| {
                let present = |name: &str| self.entries.iter().any(|e| e.source.name() == name);
                if !present("Kibitz") && ui.button("Kibitz").clicked() {
                    picked = Some(AnalystSource::Kibitz);
                }
                for name in engines.iter().map(|e| &e.name).filter(|n| !present(n)) {
                    if ui.button(name.as_str()).clicked() {
                        picked = Some(AnalystSource::Engine(name.clone()));
                    }
                }
                if engines.is_empty() {
                    ui.weak("Add engines under Engines to analyse with them.");
                }
            });
            if let Some(source) = picked {
                actions.push(Action::Analysis(AnalysisAction::Add(source)));
            }
        });
        if self.entries.is_empty() {
            ui.weak(
                "Press Start analysis (or A) to let Kibitz analyse the position; Add engine adds another.",
            );
        }
        for (index, entry) in self.entries.iter().enumerate() {
            ui.separator();
            // Each engine's widgets get ids of their own, so that another engine's lines
            // arriving above them do not change them between two frames (a click would be
            // lost).
            ui.push_id(index, |ui| entry_ui(ui, index, entry, actions));
        }
    }
}

fn entry_ui(ui: &mut Ui, index: usize, entry: &Entry, actions: &mut Vec<Action>) {
    let analyst = &entry.analyst;
    let analysis = analyst.analysis();
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(entry.source.name()).strong());
        let status = match analyst.state() {
            AnalystState::Stopped => "stopped".to_string(),
            AnalystState::Running => analysis.and_then(Analysis::totals).map_or("thinking".into(), |t| {
                format!("{} nodes · {} · {}", count(t.nodes), speed(t.nps), time(t.time))
            }),
            AnalystState::GameOver(KnownOutcome::Draw) => "no legal move: a draw".into(),
            AnalystState::GameOver(KnownOutcome::Decisive { .. }) => "no legal move: checkmate".into(),
            AnalystState::Failed => "failed".into(),
        };
        ui.weak(status);
        if analyst.state() == &AnalystState::Failed && ui.button("Restart").clicked() {
            actions.push(Action::Analysis(AnalysisAction::Restart(index)));
        }
        if ui
            .small_button("Remove")
            .on_hover_text(format!("Stop and remove {}", entry.source.name()))
            .clicked()
        {
            actions.push(Action::Analysis(AnalysisAction::Remove(index)));
        }
    });
    if let Some(failure) = analyst.failure() {
        ui.colored_label(ui.visuals().error_fg_color, failure.to_string());
    }
    if let Some(said) = analyst.said() {
        ui.weak(said);
    }
    let Some(analysis) = analysis else { return };
    for line in analysis.lines() {
        line_ui(ui, analysis, line, actions);
    }
}

fn line_ui(ui: &mut Ui, analysis: &Analysis, line: &Line, actions: &mut Vec<Action>) {
    // One row per line, cut at the panel's edge: rows do not move as lines grow.
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        ui.add_sized([64.0, 16.0], egui::Label::new(RichText::new(score_text(line)).monospace().strong()))
            .on_hover_text(analysis.san(line));
        let depth = RichText::new(format!("d{}/{}", line.depth, line.seldepth)).monospace().weak();
        // Fixed widths, so that the moves do not shift under the pointer as the search deepens.
        ui.add_sized([48.0, 16.0], egui::Label::new(depth));
        let add = ui.small_button("+").on_hover_text("Add this line to the game as a variation");
        if add.clicked() {
            actions.push(Action::Analysis(AnalysisAction::AddLine(line.pv.clone())));
        }
        for (i, word) in analysis.pv_words(line).into_iter().enumerate() {
            let text = word.to_string();
            let button = ui.add(Button::new(RichText::new(text).monospace()).frame(false));
            if button.on_hover_text("Play the line up to this move").clicked() {
                actions.push(Action::Analysis(AnalysisAction::PlayLine(line.pv[..=i].to_vec())));
            }
        }
    });
}

/// The line's score from White's side, with Crafty's `++`/`--` for a fail-high or fail-low.
#[must_use]
pub fn score_text(line: &Line) -> String {
    let mark = match line.bound {
        None => "",
        Some(ScoreBound::Lower) => "++",
        Some(ScoreBound::Upper) => "--",
    };
    format!("{}{mark}", line.white_score)
}

fn count(nodes: u64) -> String {
    match nodes {
        n if n >= 10_000_000 => format!("{} M", n / 1_000_000),
        n if n >= 1_000_000 => format!("{:.1} M", n as f64 / 1e6),
        n if n >= 10_000 => format!("{} k", n / 1000),
        n => n.to_string(),
    }
}

fn speed(nps: u64) -> String {
    if nps >= 1_000_000 { format!("{:.1} Mn/s", nps as f64 / 1e6) } else { format!("{} kn/s", nps / 1000) }
}

fn time(t: std::time::Duration) -> String {
    let s = t.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_at_a_glance() {
        assert_eq!(count(950), "950");
        assert_eq!(count(45_678), "45 k");
        assert_eq!(count(2_345_678), "2.3 M");
        assert_eq!(count(123_456_789), "123 M");
        assert_eq!(speed(850_000), "850 kn/s");
        assert_eq!(speed(1_500_000), "1.5 Mn/s");
        assert_eq!(time(std::time::Duration::from_secs(75)), "1:15");
    }
}
