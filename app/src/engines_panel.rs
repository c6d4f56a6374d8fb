//! The "Engines" dialog: the external UCI and xboard engines Kibitz can play. Add one by its
//! program (typed, or chosen in the native file dialog), see and set the options it declares,
//! test that it plays, and remove it.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{ComboBox, Context, DragValue, Id, Modal, ScrollArea, TextEdit, Ui};
use kibitz_engine::{
    Command, EngineConfig, EngineOption, Event, ExternalEngine, OptionKind, Player, Protocol, Purpose,
    SearchLimits,
};
use shakmaty::{CastlingMode, Chess};

/// How deep the test search goes.
const TEST_DEPTH: u32 = 6;

/// What the dialog asks of the app.
#[derive(Debug, PartialEq)]
pub enum EnginesResult {
    /// Still open.
    Open,
    /// Open the native file dialog to pick a program.
    Browse,
    /// Keep these engines and close.
    Save(Vec<EngineConfig>),
    /// Close without keeping changes.
    Cancel,
}

/// Where the test of the selected engine stands.
enum ProbeState {
    /// Started, handshake not done.
    Starting,
    /// Handshake done; the test search runs.
    Searching { since: Instant },
    /// It played a move.
    Passed(String),
    /// It failed: the message names the engine and quotes its last lines.
    Failed(String),
}

/// A running test of one engine: its handshake, its declared options and a short search.
struct Probe {
    index: usize,
    player: ExternalEngine,
    state: ProbeState,
    /// The name the engine gave itself.
    id_name: Option<String>,
    options: Vec<EngineOption>,
}

/// The dialog's state.
pub struct EnginesDialog {
    engines: Vec<EngineConfig>,
    selected: Option<usize>,
    probe: Option<Probe>,
    /// A program path typed by the user.
    path: String,
    repaint: Arc<dyn Fn() + Send + Sync>,
}

impl EnginesDialog {
    /// A dialog over the configured engines; `repaint` wakes the UI when a tested engine
    /// answers.
    #[must_use]
    pub fn new(engines: Vec<EngineConfig>, repaint: Arc<dyn Fn() + Send + Sync>) -> Self {
        EnginesDialog { engines, selected: None, probe: None, path: String::new(), repaint }
    }

    /// Adds the program at `path` (its name from the file name, made unique, protocol
    /// detected) and tests it.
    pub fn add(&mut self, path: PathBuf) {
        let mut config = EngineConfig::from_path(path);
        let base = config.name.clone();
        let mut n = 2;
        while self.engines.iter().any(|e| e.name == config.name) {
            config.name = format!("{base} {n}");
            n += 1;
        }
        self.engines.push(config);
        self.select(self.engines.len() - 1);
    }

    /// Selects an engine and starts testing it.
    fn select(&mut self, index: usize) {
        self.selected = Some(index);
        let Some(config) = self.engines.get(index).cloned() else { return };
        let repaint = Arc::clone(&self.repaint);
        let player = ExternalEngine::spawn(config, move || repaint());
        self.probe =
            Some(Probe { index, player, state: ProbeState::Starting, id_name: None, options: Vec::new() });
    }

    /// Takes the tested engine's news: the app calls this in its one per-frame drain.
    pub fn drain(&mut self) {
        let Some(probe) = self.probe.as_mut() else { return };
        while let Some(event) = probe.player.try_recv() {
            match event {
                Event::Ready { name, options } => {
                    probe.id_name = Some(name);
                    probe.options = options;
                    probe.player.send(Command::Position { start: Chess::default(), moves: Vec::new() });
                    let limits = SearchLimits::depth(TEST_DEPTH);
                    probe.player.send(Command::Go { id: 1, purpose: Purpose::Analyse, limits });
                    probe.state = ProbeState::Searching { since: Instant::now() };
                }
                Event::BestMove { best: Some(m), .. } => {
                    let took = match probe.state {
                        ProbeState::Searching { since } => since.elapsed(),
                        _ => Duration::ZERO,
                    };
                    probe.state = ProbeState::Passed(format!(
                        "It works: it answered {} from the start position in {} ms.",
                        m.to_uci(CastlingMode::Standard),
                        took.as_millis()
                    ));
                }
                Event::Failed(failure) => probe.state = ProbeState::Failed(failure.to_string()),
                _ => {}
            }
        }
    }

    /// The test's outcome in words, for tests and the screen.
    #[must_use]
    pub fn status(&self) -> Option<String> {
        self.probe.as_ref().map(|p| match &p.state {
            ProbeState::Starting => "Starting the engine...".to_string(),
            ProbeState::Searching { .. } => "Testing: it is searching the start position...".to_string(),
            ProbeState::Passed(text) | ProbeState::Failed(text) => text.clone(),
        })
    }

    /// Shows the dialog.
    pub fn ui(&mut self, ctx: &Context) -> EnginesResult {
        let mut result = EnginesResult::Open;
        let modal = Modal::new(Id::unique("engines")).show(ctx, |ui| {
            ui.set_width(560.0);
            ui.heading("Engines");
            ui.label("UCI and xboard engines to play against, or to watch play each other.");
            ui.add_space(4.0);
            ui.horizontal(|ui| {
                let label = ui.label("Engine program");
                ui.add(
                    TextEdit::singleline(&mut self.path)
                        .desired_width(260.0)
                        .hint_text("/usr/games/stockfish"),
                )
                .labelled_by(label.id);
                if ui.button("Add").clicked() && !self.path.trim().is_empty() {
                    let path = PathBuf::from(self.path.trim());
                    self.path.clear();
                    self.add(path);
                }
                if ui.button("Browse...").clicked() {
                    result = EnginesResult::Browse;
                }
            });
            ui.separator();
            self.list_ui(ui);
            if let Some(index) = self.selected.filter(|&i| i < self.engines.len()) {
                ui.separator();
                self.engine_ui(ui, index);
            }
            ui.separator();
            ui.horizontal(|ui| {
                if ui.button("Save engines").clicked() {
                    result = EnginesResult::Save(self.engines.clone());
                }
                if ui.button("Cancel").clicked() {
                    result = EnginesResult::Cancel;
                }
            });
        });
        if modal.should_close() && result == EnginesResult::Open {
            result = EnginesResult::Cancel;
        }
        result
    }

    fn list_ui(&mut self, ui: &mut Ui) {
        if self.engines.is_empty() {
            ui.weak("No engine yet: type a program's path and press Add, or Browse.");
        }
        let mut clicked = None;
        for (i, engine) in self.engines.iter().enumerate() {
            let protocol = engine.protocol.map_or("detect protocol", Protocol::label);
            let text = format!("{} ({protocol}): {}", engine.name, engine.path.display());
            if ui.selectable_label(self.selected == Some(i), text).clicked() {
                clicked = Some(i);
            }
        }
        if let Some(i) = clicked {
            self.select(i);
        }
    }

    fn engine_ui(&mut self, ui: &mut Ui, index: usize) {
        let mut retest = false;
        let mut remove = false;
        if let Some(engine) = self.engines.get_mut(index) {
            ui.horizontal(|ui| {
                let label = ui.label("Name");
                ui.text_edit_singleline(&mut engine.name).labelled_by(label.id);
            });
            ui.horizontal(|ui| {
                ui.label("Protocol");
                let before = engine.protocol;
                ui.radio_value(&mut engine.protocol, None, "Detect");
                ui.radio_value(&mut engine.protocol, Some(Protocol::Uci), "UCI");
                ui.radio_value(&mut engine.protocol, Some(Protocol::Xboard), "xboard");
                retest |= before != engine.protocol;
            });
            ui.horizontal(|ui| {
                retest |= ui.button("Test engine").clicked();
                remove = ui.button("Remove engine").clicked();
            });
        }
        if let Some(status) = self.status() {
            let failed = matches!(self.probe.as_ref().map(|p| &p.state), Some(ProbeState::Failed(_)));
            let color = if failed { ui.visuals().error_fg_color } else { ui.visuals().text_color() };
            ui.colored_label(color, status);
        }
        if let (Some(probe), Some(engine)) = (&self.probe, self.engines.get_mut(index))
            && probe.index == index
            && !probe.options.is_empty()
        {
            if let Some(name) = &probe.id_name {
                ui.label(format!("It calls itself {name}. Its options:"));
            }
            ScrollArea::vertical().max_height(220.0).show(ui, |ui| {
                for option in &probe.options {
                    option_ui(ui, engine, option);
                }
            });
        }
        if remove {
            self.engines.remove(index);
            self.selected = None;
            self.probe = None;
        } else if retest {
            self.select(index);
        }
    }
}

/// One option as a widget of its kind; a value the user sets is kept in the engine's config
/// (and dropped again when it returns to the default).
fn option_ui(ui: &mut Ui, config: &mut EngineConfig, option: &EngineOption) {
    let name = option.name.as_str();
    let current = config.option(name).map(str::to_string).unwrap_or_else(|| option.default_value());
    let mut chosen = current.clone();
    ui.horizontal(|ui| match &option.kind {
        OptionKind::Check { .. } => {
            let mut on = chosen == "true";
            ui.checkbox(&mut on, name);
            chosen = on.to_string();
        }
        OptionKind::Spin { min, max, .. } => {
            let mut n = chosen.parse::<i64>().unwrap_or(*min).clamp(*min, *max);
            let label = ui.label(name);
            ui.add(DragValue::new(&mut n).range(*min..=*max)).labelled_by(label.id);
            chosen = n.to_string();
        }
        OptionKind::Combo { choices, .. } => {
            let label = ui.label(name);
            ComboBox::from_id_salt(("engine-option", name))
                .selected_text(chosen.clone())
                .show_ui(ui, |ui| {
                    for choice in choices {
                        ui.selectable_value(&mut chosen, choice.clone(), choice);
                    }
                })
                .response
                .labelled_by(label.id);
        }
        OptionKind::Text { .. } | OptionKind::Path { .. } => {
            let label = ui.label(name);
            ui.text_edit_singleline(&mut chosen).labelled_by(label.id);
        }
        OptionKind::Button => {}
    });
    if chosen != current {
        if chosen == option.default_value() {
            config.options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        } else if let Ok(value) = option.check(&chosen) {
            config.set_option(name, &value);
        }
    }
}
