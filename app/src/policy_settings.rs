//! The draw and resign settings panel: Crafty's `resign`, `draw` and `drawscore`, Terra's
//! numbers and the dead band's.

use egui::{Context, DragValue, Id, Modal, Ui};
use kibitz_engine::policy::{PolicySettings, Rules};

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
            number(ui, "Draw score (contempt), centipawns", &mut d.contempt, -500..=500);
            ui.horizontal(|ui| {
                ui.radio_value(&mut d.rules, Rules::Terra, "Terra's rules");
                ui.radio_value(&mut d.rules, Rules::DeadBand, "Dead band");
            });
            ui.separator();
            match d.rules {
                Rules::Terra => {
                    let t = &mut d.terra;
                    number(ui, "Resign below (centipawns)", &mut t.resign_score, -5000..=0);
                    count(ui, "for this many moves", &mut t.resign_moves, 1..=20);
                    number(ui, "with material at most (centipawns)", &mut t.resign_material, -5000..=0);
                    number(ui, "and the opponent improving by more than", &mut t.improvement, 0..=1000);
                    let mut short = t.short_time.as_secs_f64();
                    ui.horizontal(|ui| {
                        let label = ui.label("Short of time under (seconds per move)");
                        ui.add(DragValue::new(&mut short).range(0.0..=120.0).speed(0.1))
                            .labelled_by(label.id);
                    });
                    t.short_time = std::time::Duration::from_secs_f64(short);
                    ui.separator();
                    let mut first = t.first_move as i32;
                    number(ui, "Draws from move", &mut first, 1..=200);
                    t.first_move = first as u32;
                    let mut gap = t.offer_gap as i32;
                    number(ui, "Moves between offers", &mut gap, 1..=100);
                    t.offer_gap = gap as u32;
                    count(ui, "Scores at or below the draw score for", &mut t.recent, 1..=30);
                    number(ui, "No offer below (centipawns)", &mut t.offer_floor, -5000..=0);
                }
                Rules::DeadBand => {
                    let b = &mut d.dead_band;
                    number(ui, "Band width D (centipawns)", &mut b.width, 0..=500);
                    count(ui, "Offer after more than N moves in the band", &mut b.moves, 0..=100);
                    number(ui, "Resign when the sum falls below -T", &mut b.threshold, 0..=100_000);
                }
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

fn number(ui: &mut Ui, label: &str, value: &mut i32, range: std::ops::RangeInclusive<i32>) {
    ui.horizontal(|ui| {
        let label = ui.label(label);
        ui.add(DragValue::new(value).range(range)).labelled_by(label.id);
    });
}

fn count(ui: &mut Ui, label: &str, value: &mut usize, range: std::ops::RangeInclusive<usize>) {
    ui.horizontal(|ui| {
        let label = ui.label(label);
        ui.add(DragValue::new(value).range(range)).labelled_by(label.id);
    });
}
