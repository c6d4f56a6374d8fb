//! The draw and resign settings panel: Crafty's `resign`, `draw` and `drawscore`, Terra's
//! numbers and the dead band's.

use egui::{Context, DragValue, Id, Modal, Ui};
use kibitz_engine::policy::{Parameter, PolicySettings, Rules, Unit};

/// What the dialog asks the app to do.
pub enum PolicyDialogResult {
    /// Keep it open.
    Open,
    /// Close without changes.
    Cancel,
    /// Use these settings from the next game on.
    Apply(PolicySettings),
}

/// The dialog, editing a copy of the settings.
pub struct PolicyDialog {
    draft: PolicySettings,
}

impl PolicyDialog {
    /// A dialog on a copy of `settings`.
    #[must_use]
    pub fn new(settings: &PolicySettings) -> Self {
        PolicyDialog { draft: settings.clone() }
    }

    /// Shows the dialog.
    pub fn ui(&mut self, ctx: &Context) -> PolicyDialogResult {
        let mut result = PolicyDialogResult::Open;
        let modal = Modal::new(Id::unique("policy-settings")).show(ctx, |ui| {
            ui.set_width(440.0);
            ui.heading("Draws and resignation");
            let d = &mut self.draft;
            ui.checkbox(&mut d.resign, "Kibitz may resign");
            ui.checkbox(&mut d.draw, "Kibitz may offer and accept draws");
            for p in PolicySettings::PARAMETERS.iter().filter(|p| !p.name.contains('.')) {
                parameter(ui, p, d);
            }
            ui.horizontal(|ui| {
                ui.radio_value(&mut d.rules, Rules::Terra, "Terra's rules");
                ui.radio_value(&mut d.rules, Rules::DeadBand, "Dead band");
            });
            ui.separator();
            let group = match d.rules {
                Rules::Terra => "terra.",
                Rules::DeadBand => "dead_band.",
            };
            for p in PolicySettings::PARAMETERS.iter().filter(|p| p.name.starts_with(group)) {
                parameter(ui, p, d);
            }
            ui.weak("The settings apply from the next game.");
            ui.horizontal(|ui| {
                if ui.button("Apply").clicked() {
                    result = PolicyDialogResult::Apply(self.draft.clone());
                }
                if ui.button("Defaults").clicked() {
                    self.draft = PolicySettings::default();
                }
                if ui.button("Cancel").clicked() {
                    result = PolicyDialogResult::Cancel;
                }
            });
        });
        if modal.should_close() && matches!(result, PolicyDialogResult::Open) {
            result = PolicyDialogResult::Cancel;
        }
        result
    }
}

/// A drag field for one of the policy's numbers, bounded by its range; times are shown in
/// seconds.
fn parameter(ui: &mut Ui, p: &Parameter, settings: &mut PolicySettings) {
    ui.horizontal(|ui| {
        let label = ui.label(p.label);
        let field = if p.unit == Unit::Milliseconds {
            let ms = |v: i64| v as f64 / 1000.0;
            let mut secs = ms(p.get(settings));
            let field = ui.add(DragValue::new(&mut secs).range(ms(p.min)..=ms(p.max)).speed(0.1));
            if field.changed() {
                p.set(settings, (secs * 1000.0).round() as i64);
            }
            field
        } else {
            let mut value = p.get(settings);
            let field = ui.add(DragValue::new(&mut value).range(p.range()));
            if field.changed() {
                p.set(settings, value);
            }
            field
        };
        field.labelled_by(label.id);
    });
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::*;

    /// Types `text` into every field of `rules`'s numbers, then applies the dialog.
    fn type_everywhere(rules: Rules, text: &str) -> PolicySettings {
        let start = PolicySettings { rules, ..PolicySettings::default() };
        let state = (PolicyDialog::new(&start), None);
        let mut h = Harness::new_ui_state(
            |ui, (dialog, applied): &mut (PolicyDialog, Option<PolicySettings>)| {
                if let PolicyDialogResult::Apply(settings) = dialog.ui(ui.ctx()) {
                    *applied = Some(settings);
                }
            },
            state,
        );
        let group = if rules == Rules::Terra { "terra." } else { "dead_band." };
        let shown =
            PolicySettings::PARAMETERS.iter().filter(|p| !p.name.contains('.') || p.name.starts_with(group));
        for p in shown {
            h.get_by_label(p.label).focus();
            h.run_steps(2);
            h.get_by_label(p.label).type_text(text);
            h.key_press(egui::Key::Enter);
            h.run_steps(2);
        }
        h.get_by_label("Apply").click();
        h.run_steps(2);
        h.state().1.clone().expect("the dialog applied")
    }

    #[test]
    fn typed_numbers_stay_in_their_ranges() {
        for rules in [Rules::Terra, Rules::DeadBand] {
            let high = type_everywhere(rules, "99999999");
            let low = type_everywhere(rules, "-99999999");
            assert_eq!(high.contempt, 500, "the range of contempt is the engine's");
            for p in PolicySettings::PARAMETERS {
                let shown = !p.name.contains('.')
                    || p.name.starts_with(if rules == Rules::Terra { "terra." } else { "dead_band." });
                let (hi, lo) = (p.get(&high), p.get(&low));
                if shown {
                    assert_eq!((hi, lo), (p.max, p.min), "{}", p.name);
                } else {
                    assert_eq!((hi, lo), (p.default_value(), p.default_value()), "{}", p.name);
                }
            }
        }
    }
}
