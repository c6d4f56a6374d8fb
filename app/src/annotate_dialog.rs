//! The "Analyze game" window (Crafty's `annotate`): whose moves, which move numbers, the
//! margin in pawns, the time or depth per search, the number of alternatives and the engine;
//! then the annotation runs in the background with a progress bar and Cancel. The annotated
//! game opens in the Study workspace, and the window keeps a summary per side whose marked
//! moves jump to the move when clicked.

use std::sync::Arc;
use std::time::Duration;

use egui::{Context, DragValue, Grid, ProgressBar, RichText, ScrollArea, TextEdit, Ui};
use kibitz_engine::{
    AnnotateError, AnnotateJob, AnnotateLimit, AnnotateSettings, Annotated, EngineConfig, GameRecord,
    JobError, MoveRange, NodeId, Side,
};
use shakmaty::Color;

use crate::dialog::side_window;
use crate::engine_choice::{KIBITZ, engine_combo, spawn_player};

/// The window's width at first.
const WIDTH: f32 = 460.0;

/// What the window asks of the app.
#[derive(Debug)]
pub enum AnnotateResult {
    /// Still open.
    Open,
    /// Open the annotated game in the Study workspace.
    Study(GameRecord),
    /// Show this move of the annotated game.
    Jump(NodeId),
    /// Close the window (a running annotation is cancelled).
    Close,
}

/// Whose moves, as the window offers it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SideChoice {
    Both,
    White,
    Black,
    Player,
}

/// Where the annotation stands.
enum State {
    Setup,
    Running(AnnotateJob),
    Done(Box<Annotated>),
    Failed(String),
}

/// The window's state.
pub struct AnnotateDialog {
    game: GameRecord,
    side: SideChoice,
    player: String,
    moves: String,
    margin: f64,
    by_depth: bool,
    seconds: f64,
    depth: u32,
    alternatives: u32,
    engine: String,
    engines: Vec<EngineConfig>,
    /// The Syzygy tables Kibitz searches with, if the user has them.
    tablebases: Option<Arc<kibitz_engine::SyzygyTables>>,
    state: State,
    error: Option<String>,
    repaint: Arc<dyn Fn() + Send + Sync>,
}

impl AnnotateDialog {
    /// A window to annotate `game` with Kibitz or one of `engines`.
    #[must_use]
    pub fn new(game: GameRecord, engines: Vec<EngineConfig>, repaint: Arc<dyn Fn() + Send + Sync>) -> Self {
        AnnotateDialog {
            game,
            side: SideChoice::Both,
            player: String::new(),
            moves: "1-999".into(),
            margin: 0.5,
            by_depth: false,
            seconds: 1.0,
            depth: 12,
            alternatives: 1,
            engine: KIBITZ.into(),
            engines,
            tablebases: None,
            state: State::Setup,
            error: None,
            repaint,
        }
    }

    /// Kibitz annotates with these Syzygy tables.
    #[must_use]
    pub fn with_tablebases(mut self, tables: Option<Arc<kibitz_engine::SyzygyTables>>) -> Self {
        self.tablebases = tables;
        self
    }

    /// Whether an annotation is running.
    #[must_use]
    pub fn is_running(&self) -> bool {
        matches!(self.state, State::Running(_))
    }

    /// Shows the window.
    pub fn show(&mut self, ctx: &Context) -> AnnotateResult {
        let mut result = AnnotateResult::Open;
        let open = side_window(ctx, "Analyze game", WIDTH, |ui| result = self.ui(ui));
        if !open {
            result = AnnotateResult::Close;
        }
        if matches!(result, AnnotateResult::Close)
            && let State::Running(job) = &self.state
        {
            job.cancel();
        }
        result
    }

    fn ui(&mut self, ui: &mut Ui) -> AnnotateResult {
        let mut result = self.poll();
        let running = self.is_running();
        ui.add_enabled_ui(!running, |ui| self.settings_ui(ui));
        if let Some(error) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, error);
        }
        ui.horizontal(|ui| {
            if ui.add_enabled(!running, egui::Button::new("Analyze")).clicked() {
                self.start();
            }
            if ui.add_enabled(running, egui::Button::new("Cancel")).clicked()
                && let State::Running(job) = &self.state
            {
                job.cancel();
            }
            if ui.button("Close").clicked() {
                result = AnnotateResult::Close;
            }
        });
        match &self.state {
            State::Setup => {}
            State::Running(job) => {
                let (done, total) = job.progress().map_or((0, 0), |p| (p.done, p.total));
                let fraction = if total == 0 { 0.0 } else { done as f32 / total as f32 };
                ui.add(ProgressBar::new(fraction).text(format!("{done} of {total} moves")));
            }
            State::Failed(why) => {
                ui.colored_label(ui.visuals().error_fg_color, why);
            }
            State::Done(annotated) => {
                if let Some(node) = summary_ui(ui, annotated) {
                    result = AnnotateResult::Jump(node);
                }
            }
        }
        result
    }

    fn settings_ui(&mut self, ui: &mut Ui) {
        ui.horizontal_wrapped(|ui| {
            ui.label("Moves of");
            ui.radio_value(&mut self.side, SideChoice::Both, "both sides");
            ui.radio_value(&mut self.side, SideChoice::White, "White");
            ui.radio_value(&mut self.side, SideChoice::Black, "Black");
            ui.radio_value(&mut self.side, SideChoice::Player, "the player");
            if self.side == SideChoice::Player {
                let label = ui.label("named");
                ui.add(TextEdit::singleline(&mut self.player).desired_width(120.0)).labelled_by(label.id);
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label("Move numbers");
            ui.add(TextEdit::singleline(&mut self.moves).desired_width(80.0).hint_text("1-999"))
                .labelled_by(label.id);
            let label = ui.label("Margin (pawns)");
            ui.add(DragValue::new(&mut self.margin).range(0.0..=10.0).speed(0.05).max_decimals(2))
                .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            let time = ui.radio_value(&mut self.by_depth, false, "Seconds per search");
            ui.add_enabled(!self.by_depth, DragValue::new(&mut self.seconds).range(0.05..=600.0).speed(0.1))
                .labelled_by(time.id);
            let depth = ui.radio_value(&mut self.by_depth, true, "Depth");
            ui.add_enabled(self.by_depth, DragValue::new(&mut self.depth).range(1..=60))
                .labelled_by(depth.id);
        });
        ui.horizontal(|ui| {
            let label = ui.label("Alternatives");
            ui.add(DragValue::new(&mut self.alternatives).range(1..=5)).labelled_by(label.id);
            engine_combo(ui, "Engine", &self.engines, &mut self.engine);
        });
    }

    /// The settings as typed, or why they cannot be used.
    fn settings(&self) -> Result<AnnotateSettings, String> {
        let side = match self.side {
            SideChoice::Both => Side::Both,
            SideChoice::White => Side::White,
            SideChoice::Black => Side::Black,
            SideChoice::Player if self.player.trim().is_empty() => {
                return Err("Type the player's name, as in the White or Black tag.".into());
            }
            SideChoice::Player => Side::Player(self.player.trim().to_string()),
        };
        side.colors(&self.game).map_err(|e| e.to_string())?;
        let moves: MoveRange =
            self.moves.trim().parse().map_err(|e: kibitz_engine::BadMoveRange| e.to_string())?;
        let limit = if self.by_depth {
            AnnotateLimit::Depth(self.depth.max(1))
        } else {
            AnnotateLimit::Time(Duration::from_secs_f64(self.seconds.clamp(0.05, 600.0)))
        };
        let margin = (self.margin.clamp(0.0, 10.0) * 100.0).round() as i32;
        Ok(AnnotateSettings { side, moves, margin, limit, alternatives: self.alternatives.clamp(1, 5) })
    }

    fn start(&mut self) {
        match self.settings() {
            Ok(settings) => {
                self.error = None;
                let tables = self.tablebases.clone();
                let player = spawn_player(&self.engine, &self.engines, tables, Arc::clone(&self.repaint));
                let repaint = Arc::clone(&self.repaint);
                let job = AnnotateJob::start(player, self.game.clone(), settings, move || repaint());
                self.state = State::Running(job);
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Takes the job's news: a finished annotation opens as a study.
    fn poll(&mut self) -> AnnotateResult {
        let State::Running(job) = &mut self.state else { return AnnotateResult::Open };
        match job.try_finish() {
            None => AnnotateResult::Open,
            Some(Ok(annotated)) => {
                let game = annotated.game.clone();
                self.state = State::Done(Box::new(annotated));
                AnnotateResult::Study(game)
            }
            Some(Err(JobError::Cancelled) | Err(JobError::Failed(AnnotateError::Cancelled))) => {
                self.state = State::Failed("Cancelled: the game is unchanged.".into());
                AnnotateResult::Open
            }
            Some(Err(e)) => {
                self.state = State::Failed(format!("The annotation stopped: {e}"));
                AnnotateResult::Open
            }
        }
    }
}

/// Per side: the counts and the average loss, then each marked move, a button that jumps to
/// it. Returns the move clicked.
fn summary_ui(ui: &mut Ui, annotated: &Annotated) -> Option<NodeId> {
    let mut jump = None;
    ui.separator();
    Grid::new("annotation-summary").striped(true).show(ui, |ui| {
        ui.strong("");
        for word in ["inaccuracies ?!", "mistakes ?", "blunders ??", "average loss"] {
            ui.strong(word);
        }
        ui.end_row();
        for (color, name) in [(Color::White, "White"), (Color::Black, "Black")] {
            let summary = annotated.summary.get(color);
            ui.label(name);
            ui.label(summary.inaccuracies.to_string());
            ui.label(summary.mistakes.to_string());
            ui.label(summary.blunders.to_string());
            ui.label(summary.average_loss().map_or("-".into(), |cp| format!("{:.2} pawns", cp / 100.0)));
            ui.end_row();
        }
    });
    ui.label(RichText::new("Marked moves").strong());
    ScrollArea::vertical().max_height(240.0).show(ui, |ui| {
        for verdict in annotated.verdicts.iter().filter(|v| v.judgement.is_some()) {
            let Some(judgement) = verdict.judgement else { continue };
            let san = annotated.game.node(verdict.node).map(|n| n.san().to_string()).unwrap_or_default();
            let dots = if verdict.mover == Color::White { "." } else { "..." };
            let text = format!(
                "{}{dots} {san}{} ({}, best {})",
                verdict.number,
                judgement.symbol(),
                verdict.played,
                verdict.best
            );
            if ui.button(text).on_hover_text(format!("Show this {}", judgement.word())).clicked() {
                jump = Some(verdict.node);
            }
        }
    });
    jump
}
