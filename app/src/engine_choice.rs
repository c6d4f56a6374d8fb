//! Choosing the engine for a background task (a test suite, an annotation): Kibitz or one of
//! the configured external engines, by name, and starting it.

use std::sync::Arc;

use egui::{ComboBox, Ui};
use kibitz_engine::{Command, EngineConfig, EngineHandle, ExternalEngine, Player, SyzygyTables};

/// The name that stands for Kibitz's own engine.
pub const KIBITZ: &str = "Kibitz";

/// A combo box captioned `label` choosing Kibitz or one of `engines` by name.
pub fn engine_combo(ui: &mut Ui, label: &str, engines: &[EngineConfig], chosen: &mut String) {
    let caption = ui.label(label);
    ComboBox::from_id_salt(("engine-choice", label))
        .selected_text(chosen.clone())
        .show_ui(ui, |ui| {
            ui.selectable_value(chosen, KIBITZ.to_owned(), KIBITZ);
            for engine in engines {
                ui.selectable_value(chosen, engine.name.clone(), &engine.name);
            }
        })
        .response
        .labelled_by(caption.id);
}

/// Starts the engine called `name` among `engines`, or Kibitz's own (searching with the
/// Syzygy tables in `tablebases`, if given) when it is [`KIBITZ`] or no longer configured;
/// `wake` is called whenever it has news. An external engine has its own options.
#[must_use]
pub fn spawn_player(
    name: &str,
    engines: &[EngineConfig],
    tablebases: Option<Arc<SyzygyTables>>,
    wake: Arc<dyn Fn() + Send + Sync>,
) -> Box<dyn Player> {
    match engines.iter().find(|e| e.name == name) {
        Some(config) => Box::new(ExternalEngine::spawn(config.clone(), move || wake())),
        None => Box::new(spawn_kibitz(tablebases, wake)),
    }
}

/// Kibitz's own engine, searching with the Syzygy tables `tablebases` when the user has them.
#[must_use]
pub fn spawn_kibitz(
    tablebases: Option<Arc<SyzygyTables>>,
    wake: Arc<dyn Fn() + Send + Sync>,
) -> EngineHandle {
    let handle = EngineHandle::spawn(move || wake());
    if tablebases.is_some() {
        handle.send(Command::SetTablebases(tablebases));
    }
    handle
}
