//! The Tournament workspace's form: the engines in seeding order, their time control, the
//! format, the game pairs, the games at once, the arbiter's rules and the openings; Start,
//! Cancel and Resume.

use std::path::PathBuf;

use egui::{Color32, RichText, Ui};
use kibitz_engine::{EngineConfig, Level};

use super::choices::{Entrant, FormatChoice, MAX_CONCURRENCY, MAX_PAIRS, RulesChoice, TournamentChoices};
use super::{Running, TournamentRequest};

/// Draws the form; changes are made to `choices` at once (they are remembered), and a start
/// is asked for by the request returned.
pub fn form_ui(
    ui: &mut Ui,
    choices: &mut TournamentChoices,
    engines: &[EngineConfig],
    tablebases: &mut Option<PathBuf>,
    running: Option<&Running>,
) -> Option<TournamentRequest> {
    let mut request = None;
    let busy = running.is_some_and(Running::is_running);
    ui.heading("Tournament");
    ui.add_enabled_ui(!busy, |ui| {
        entrants_ui(ui, choices, engines);
        ui.separator();
        ui.horizontal(|ui| {
            let label = ui.label("Time control");
            ui.text_edit_singleline(&mut choices.control)
                .labelled_by(label.id)
                .on_hover_text("PGN notation in seconds: 60+0.5 (a minute, half a second a move), 40/300; or st 1 (a second a move), sd 8 (depth 8)");
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Format");
            for format in FormatChoice::ALL {
                ui.selectable_value(&mut choices.format, format, format.label());
            }
        });
        ui.horizontal(|ui| {
            let label = ui.label(if choices.format == FormatChoice::Knockout {
                "Game pairs a duel"
            } else {
                "Game pairs"
            });
            ui.add(egui::DragValue::new(&mut choices.pairs).range(1..=MAX_PAIRS)).labelled_by(label.id);
            let label = ui.label("Games at once");
            ui.add(egui::DragValue::new(&mut choices.concurrency).range(1..=MAX_CONCURRENCY))
                .labelled_by(label.id);
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Adjudication");
            for rules in RulesChoice::ALL {
                ui.selectable_value(&mut choices.rules, rules, rules.label())
                    .on_hover_text(rules_words(rules));
            }
        });
        tablebases_ui(ui, choices.rules, tablebases, &mut request);
        openings_ui(ui, choices, &mut request);
    });
    ui.separator();
    let check = choices.engines(engines);
    if let Err(why) = &check {
        ui.label(RichText::new(why).color(Color32::from_rgb(200, 80, 60)));
    }
    ui.horizontal(|ui| {
        if busy {
            if ui.button("Cancel tournament").clicked() {
                request = Some(TournamentRequest::Cancel);
            }
        } else if ui.add_enabled(check.is_ok(), egui::Button::new("Start")).clicked() {
            request = Some(TournamentRequest::Start);
        }
        if running.is_some_and(Running::resumable)
            && ui
                .button("Resume")
                .on_hover_text("Play the games the stopped tournament has not played yet")
                .clicked()
        {
            request = Some(TournamentRequest::Resume);
        }
    });
    request
}

/// The engines in seeding order, each with Up and Remove, then what can be added.
fn entrants_ui(ui: &mut Ui, choices: &mut TournamentChoices, engines: &[EngineConfig]) {
    ui.label(RichText::new("Engines").strong());
    let mut up = None;
    let mut remove = None;
    for (i, entrant) in choices.entrants.iter().enumerate() {
        ui.horizontal(|ui| {
            let name = entrant.label();
            ui.label(format!("{}. {name}", i + 1));
            if i > 0 && ui.small_button("Up").on_hover_text("Seed higher").clicked() {
                up = Some(i);
            }
            let remove_button = ui.small_button("×").on_hover_text(format!("Remove {name}"));
            let label = format!("Remove {name}");
            remove_button.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
            if remove_button.clicked() {
                remove = Some(i);
            }
        });
    }
    if let Some(i) = up {
        choices.entrants.swap(i - 1, i);
    }
    if let Some(i) = remove {
        choices.entrants.remove(i);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Add:");
        let mut add = None;
        for level in Level::all() {
            let entrant = Entrant::Kibitz(level);
            if ui.small_button(entrant.label()).on_hover_text("Kibitz's own engine at this level").clicked() {
                add = Some(entrant);
            }
        }
        for engine in engines {
            if ui.small_button(&engine.name).on_hover_text(engine.path.display().to_string()).clicked() {
                add = Some(Entrant::Engine(engine.name.clone()));
            }
        }
        choices.entrants.extend(add);
    });
    if engines.is_empty() {
        ui.label(RichText::new("Add external engines under Engines… in the Play workspace.").weak());
    }
}

/// The Syzygy tablebases the arbiter adjudicates by (TCEC's and Fishtest's rules).
fn tablebases_ui(
    ui: &mut Ui,
    rules: RulesChoice,
    tablebases: &mut Option<PathBuf>,
    request: &mut Option<TournamentRequest>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Tablebases");
        match tablebases.as_ref() {
            Some(folder) => {
                let name = crate::book_files::file_name(folder);
                ui.label(RichText::new(name).monospace()).on_hover_text(folder.display().to_string());
                if rules == RulesChoice::None {
                    ui.label(RichText::new("(not used without adjudication)").weak());
                }
            }
            None => {
                ui.label("none");
            }
        }
    });
    ui.horizontal(|ui| {
        if ui
            .button("Choose tablebases…")
            .on_hover_text("A folder of Syzygy tables (KRvK.rtbw, ...): positions they cover are adjudicated")
            .clicked()
        {
            *request = Some(TournamentRequest::PickTablebases);
        }
        if tablebases.is_some() && ui.button("No tablebases").clicked() {
            *tablebases = None;
        }
    });
}

/// Where the games start.
fn openings_ui(ui: &mut Ui, choices: &mut TournamentChoices, request: &mut Option<TournamentRequest>) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Openings");
        match &choices.openings {
            Some(path) => {
                let name = crate::book_files::file_name(path);
                ui.label(RichText::new(name).monospace()).on_hover_text(path.display().to_string());
            }
            None => {
                ui.label("the initial position");
            }
        }
    });
    ui.horizontal(|ui| {
        if ui
            .button("Choose openings…")
            .on_hover_text("An EPD or PGN suite; each opening is played twice")
            .clicked()
        {
            *request = Some(TournamentRequest::PickOpenings);
        }
        if choices.openings.is_some() {
            if ui.button("Initial position").clicked() {
                choices.openings = None;
            }
            ui.checkbox(&mut choices.random_order, "Random order");
        }
    });
}

/// What a preset does, for its tooltip.
fn rules_words(rules: RulesChoice) -> &'static str {
    match rules {
        RulesChoice::Tcec => {
            "Draw from move 35 when both evaluations stay within ±0.08 for 5 moves each; win when both \
             agree on +10.00 for 4 moves each"
        }
        RulesChoice::Fishtest => {
            "Resign after 3 moves at 6.00 or worse by both; draw from move 34 after 8 moves within 0.20"
        }
        RulesChoice::None => {
            "Games are played out (threefold repetition and the fifty-move rule still end them)"
        }
    }
}
