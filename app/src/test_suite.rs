//! The "Test suite" window (Crafty's `test`): choose an EPD file (or one in Crafty's own
//! format), the seconds per position and the engine (Kibitz or a configured external one),
//! run it in the background, and see each position solved or failed with the engine's move,
//! the expected one, and the total. Clicking a position opens it in the Study workspace; the
//! window stays beside the board so that the positions can be looked at one after the other.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use egui::{Context, DragValue, ProgressBar, RichText, ScrollArea, TextEdit, Ui};
use kibitz_engine::{
    EngineConfig, EpdJob, EpdReport, EpdSuiteError, EpdTest, GameRecord, Job, JobError, Player, SuiteLimits,
};
use shakmaty::Move;

use crate::dialog::side_window;
use crate::engine_choice::{KIBITZ, engine_combo, spawn_player};
use shakmaty::san::SanPlus;

/// Iterations in a row the solution must hold before the next position (Crafty's `test FILE 2`).
const EARLY_EXIT: u32 = 2;
/// The window's width at first.
const WIDTH: f32 = 600.0;

/// What the window asks of the app.
#[derive(Debug)]
pub enum TestSuiteResult {
    /// Still open.
    Open,
    /// Open the native file dialog to pick a suite.
    Browse,
    /// Open this position in the Study workspace.
    Study(GameRecord),
    /// Close the window (a running suite is cancelled).
    Close,
}

/// Where the suite stands.
enum State {
    /// Nothing run yet.
    Idle,
    /// The file is being read.
    Reading(Job<(), Vec<EpdTest>, EpdSuiteError>),
    /// The positions are being searched.
    Running(EpdJob),
    /// The last run's outcome: finished, cancelled, or ended by the engine's failure.
    Finished {
        /// Whether it was cancelled.
        cancelled: bool,
    },
    /// The suite could not be run.
    Failed(String),
}

/// The window's state.
pub struct TestSuiteDialog {
    /// The suite's file, as typed or picked.
    pub path: String,
    seconds: f64,
    /// The engine's name: [`KIBITZ`] or one of `engines`.
    engine: String,
    engines: Vec<EngineConfig>,
    /// Show only the positions that were failed.
    failed_only: bool,
    state: State,
    /// The positions of the suite run last.
    tests: Vec<EpdTest>,
    /// Its results so far.
    report: EpdReport,
    /// The position last opened to study, by its place in the suite.
    studied: Option<usize>,
    repaint: Arc<dyn Fn() + Send + Sync>,
}

impl TestSuiteDialog {
    /// A window that runs suites with Kibitz or one of `engines`; `repaint` wakes the UI when
    /// the suite makes progress.
    #[must_use]
    pub fn new(engines: Vec<EngineConfig>, repaint: Arc<dyn Fn() + Send + Sync>) -> Self {
        TestSuiteDialog {
            path: String::new(),
            seconds: 1.0,
            engine: KIBITZ.to_owned(),
            engines,
            failed_only: false,
            state: State::Idle,
            tests: Vec::new(),
            report: EpdReport::default(),
            studied: None,
            repaint,
        }
    }

    /// Shows the window beside the board.
    pub fn show(&mut self, ctx: &Context) -> TestSuiteResult {
        let mut result = TestSuiteResult::Open;
        let open = side_window(ctx, "Test suite", WIDTH, |ui| result = self.ui(ui));
        if !open {
            result = TestSuiteResult::Close;
        }
        result
    }

    /// The window's contents.
    pub fn ui(&mut self, ui: &mut Ui) -> TestSuiteResult {
        self.poll();
        let mut result = TestSuiteResult::Open;
        let running = matches!(self.state, State::Reading(_) | State::Running(_));
        ui.label("Searches each position of an EPD suite (bm, am, id) or one in Crafty's format (title, setboard, solution).");
        ui.add_enabled_ui(!running, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label("Suite file");
                ui.add(TextEdit::singleline(&mut self.path).desired_width(340.0).hint_text("wac.epd"))
                    .labelled_by(label.id);
                if ui.button("Browse...").clicked() {
                    result = TestSuiteResult::Browse;
                }
            });
            ui.horizontal(|ui| {
                let label = ui.label("Seconds per position");
                ui.add(DragValue::new(&mut self.seconds).range(0.1..=3600.0).speed(0.1).max_decimals(1))
                    .labelled_by(label.id);
                engine_combo(ui, "Engine", &self.engines, &mut self.engine);
            });
        });
        ui.horizontal(|ui| {
            if ui.add_enabled(!running && !self.path.trim().is_empty(), egui::Button::new("Run")).clicked() {
                self.read(PathBuf::from(self.path.trim()));
            }
            if ui.add_enabled(running, egui::Button::new("Cancel")).clicked() {
                self.cancel();
            }
            if ui.button("Close").clicked() {
                result = TestSuiteResult::Close;
            }
        });
        self.status_ui(ui);
        if !self.report.results.is_empty() {
            ui.separator();
            ui.checkbox(&mut self.failed_only, "Show failed positions only");
            if let Some(game) = self.results_ui(ui) {
                result = TestSuiteResult::Study(game);
            }
        }
        result
    }

    /// Starts reading the suite at `path`; the run starts once it is read.
    fn read(&mut self, path: PathBuf) {
        let repaint = Arc::clone(&self.repaint);
        self.tests.clear();
        self.report = EpdReport::default();
        self.studied = None;
        self.state = State::Reading(Job::spawn(
            "read test suite",
            move || repaint(),
            move |_| EpdTest::read_suite(&path),
        ));
    }

    /// The engine chosen, started.
    fn player(&self) -> Box<dyn Player> {
        // A suite measures the search itself, without the tables.
        spawn_player(&self.engine, &self.engines, None, Arc::clone(&self.repaint))
    }

    fn cancel(&mut self) {
        match &self.state {
            State::Running(job) => job.cancel(),
            State::Reading(_) => self.state = State::Idle,
            _ => {}
        }
    }

    /// Takes the background work's news.
    fn poll(&mut self) {
        match &mut self.state {
            State::Reading(job) => match job.try_finish() {
                Some(Ok(tests)) => {
                    let time = Duration::from_secs_f64(self.seconds.clamp(0.1, 3600.0));
                    let limits = SuiteLimits { time, early_exit: EARLY_EXIT };
                    let repaint = Arc::clone(&self.repaint);
                    self.report = EpdReport { suite: tests.len(), ..EpdReport::default() };
                    self.tests = tests.clone();
                    let job = EpdJob::start(vec![self.player()], tests, limits, move || repaint());
                    self.state = State::Running(job);
                }
                Some(Err(JobError::Failed(e))) => {
                    self.state = State::Failed(suite_error(Path::new(self.path.trim()), &e))
                }
                Some(Err(e)) => self.state = State::Failed(e.to_string()),
                None => {}
            },
            State::Running(job) => {
                if let Some(report) = job.progress() {
                    self.report = report;
                }
                match job.try_finish() {
                    Some(Ok(report)) => {
                        self.report = report;
                        self.state = State::Finished { cancelled: false };
                    }
                    Some(Err(JobError::Cancelled)) => self.state = State::Finished { cancelled: true },
                    Some(Err(e)) => self.state = State::Failed(e.to_string()),
                    None => {}
                }
            }
            State::Idle | State::Finished { .. } | State::Failed(_) => {}
        }
    }

    fn status_ui(&self, ui: &mut Ui) {
        let r = &self.report;
        match &self.state {
            State::Idle => {}
            State::Reading(_) => {
                ui.label("Reading the suite...");
            }
            State::Running(_) => {
                let fraction = if r.suite == 0 { 0.0 } else { r.total as f32 / r.suite as f32 };
                let text = format!("{} of {} positions, {} solved", r.total, r.suite, r.solved);
                ui.add(ProgressBar::new(fraction).text(text).animate(true));
            }
            State::Finished { cancelled } => {
                let mut total = format!("Solved {} of {}", r.solved, r.total);
                if *cancelled || r.failure.is_some() {
                    total.push_str(&format!(" (stopped after {} of {} positions)", r.total, r.suite));
                }
                ui.label(RichText::new(total).strong());
                if let Some(failure) = &r.failure {
                    ui.colored_label(ui.visuals().error_fg_color, format!("The engine failed {failure}"));
                }
            }
            State::Failed(message) => {
                ui.colored_label(ui.visuals().error_fg_color, message);
            }
        }
    }

    /// The positions, one clickable row each; the position clicked, as a game to study.
    fn results_ui(&mut self, ui: &mut Ui) -> Option<GameRecord> {
        let mut clicked = None;
        let header = format!(
            "{:>4}  {:<14} {:<7} {:<8} {:>5} {:>6}  {}",
            "#", "position", "result", "played", "depth", "time", "expected"
        );
        ui.label(RichText::new(header).monospace().weak());
        ScrollArea::vertical().max_height(360.0).auto_shrink([false, true]).show(ui, |ui| {
            for result in self.report.results.iter().filter(|r| !(self.failed_only && r.solved)) {
                let Some(test) = self.tests.get(result.index) else { continue };
                let san = |m: Move| SanPlus::from_move(test.pos.clone(), m).to_string();
                let played = result.chosen.map_or_else(|| "-".to_owned(), san);
                let mut expected: Vec<String> = test.best.iter().map(|&m| san(m)).collect();
                expected.extend(test.avoid.iter().map(|&m| format!("not {}", san(m))));
                let verdict = if result.solved { "solved" } else { "failed" };
                let depth = result.info.as_ref().map_or(0, |i| i.depth);
                let time = format!("{:.1} s", result.time.as_secs_f64());
                let text = format!(
                    "{:>4}  {:<14} {verdict:<7} {played:<8} {depth:>5} {time:>6}  {}",
                    result.index + 1,
                    result.id,
                    expected.join(" ")
                );
                let studied = self.studied == Some(result.index);
                let mut text = RichText::new(text).monospace();
                // The failed in red, except on the highlight of the position studied.
                if !result.solved && !studied {
                    text = text.color(ui.visuals().error_fg_color);
                }
                let row = ui.selectable_label(studied, text).on_hover_text("Click to study the position");
                if row.clicked() {
                    let mut game = GameRecord::from_position(test.pos.clone());
                    game.set_tag("Event", &format!("Test suite: {}", result.id));
                    clicked = Some((result.index, game));
                }
            }
        });
        let (index, game) = clicked?;
        self.studied = Some(index);
        Some(game)
    }
}

/// A suite that cannot be run, in words.
fn suite_error(path: &Path, error: &EpdSuiteError) -> String {
    match error {
        EpdSuiteError::BadLine { number, why } => format!("{}, line {number}: {why}", path.display()),
        EpdSuiteError::Empty => format!("{} holds no test positions.", path.display()),
        EpdSuiteError::Unreadable { .. } => format!("{error}."),
    }
}
