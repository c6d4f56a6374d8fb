//! The clock settings panel: presets, and a custom editor that reads Crafty's text forms
//! (`level 0 5 3`, `time 60/30/sd/30`, `st 10`) and PGN's (`300+3`, `40/5400:1800`).

use std::time::Duration;

use egui::{Context, Id, Modal, RichText, TextEdit, Ui};
use kibitz_engine::TimeControl;
use serde::{Deserialize, Serialize};

/// The clock the player asked for, kept in the settings as text so that any form survives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClockSettings {
    /// Whether games are played with a clock.
    pub enabled: bool,
    /// The player's time control, in Crafty's or PGN's notation.
    pub player: String,
    /// Kibitz's own control for time odds; `None` gives it the player's.
    pub engine: Option<String>,
    /// The clock turns red under this many seconds.
    pub warn_seconds: u64,
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings { enabled: true, player: "level 0 15 10".into(), engine: None, warn_seconds: 20 }
    }
}

impl ClockSettings {
    /// The player's and the engine's controls, or `None` without a clock. A setting that no
    /// longer parses falls back to the default control.
    #[must_use]
    pub fn controls(&self) -> Option<(TimeControl, TimeControl)> {
        if !self.enabled {
            return None;
        }
        let fallback = || parse_control(&ClockSettings::default().player).unwrap_or(TimeControl::Infinite);
        let player = parse_control(&self.player).unwrap_or_else(|_| fallback());
        let engine = match &self.engine {
            Some(text) => parse_control(text).unwrap_or_else(|_| player.clone()),
            None => player.clone(),
        };
        Some((player, engine))
    }
}

/// The presets: name and Crafty form.
const PRESETS: [(&str, &str); 6] = [
    ("Bullet 1+0", "level 0 1 0"),
    ("Blitz 3+2", "level 0 3 2"),
    ("Blitz 5+3", "level 0 5 3"),
    ("Rapid 15+10", "level 0 15 10"),
    ("Classical 90+30", "level 0 90 30"),
    ("TCEC 30+5", "level 0 30 5"),
];

/// Reads a time control for a game clock, in Crafty's notation or PGN's
/// ([`TimeControl::parse`]); a depth, node count or fixed time per move is refused. The error
/// explains what is wrong.
pub fn parse_control(text: &str) -> Result<TimeControl, String> {
    match TimeControl::parse(text) {
        Ok(control @ (TimeControl::Clock { .. } | TimeControl::Sandclock(_))) => Ok(control),
        Ok(_) => {
            Err("A clock needs time: use \"st\", \"sd\" or \"sn\" for engine analysis, not for games.".into())
        }
        Err(e) => Err(format!(
            "Not understood: {e}. Try \"level 0 5 3\" (5 minutes + 3 s), \"time 40/90/sd/30\" or \"300+3\"."
        )),
    }
}

/// The clock settings dialog while it is open.
pub struct ClockDialog {
    draft: ClockSettings,
    odds: bool,
    engine_text: String,
    /// Crafty's `clock`: the times to set on the running game's clocks.
    correct_player: String,
    correct_engine: String,
    correct_error: Option<String>,
}

/// What the dialog asks the app to do.
pub enum ClockDialogResult {
    /// Keep it open.
    Open,
    /// Close without changes.
    Cancel,
    /// Save these settings (they apply from the next game).
    Apply(ClockSettings),
    /// Set the current game's clocks to these times: the player's, then Kibitz's.
    Correct(Duration, Duration),
}

impl ClockDialog {
    /// A dialog editing a copy of the settings.
    #[must_use]
    pub fn new(settings: &ClockSettings) -> Self {
        ClockDialog {
            correct_player: String::new(),
            correct_engine: String::new(),
            correct_error: None,
            engine_text: settings.engine.clone().unwrap_or_else(|| settings.player.clone()),
            odds: settings.engine.is_some(),
            draft: settings.clone(),
        }
    }

    /// Shows the dialog.
    pub fn ui(&mut self, ctx: &Context) -> ClockDialogResult {
        let mut result = ClockDialogResult::Open;
        let modal = Modal::new(Id::unique("clock-settings")).show(ctx, |ui| {
            ui.set_width(460.0);
            ui.heading("Clock settings");
            ui.checkbox(&mut self.draft.enabled, "Play with a clock");
            ui.add_enabled_ui(self.draft.enabled, |ui| {
                ui.horizontal_wrapped(|ui| {
                    for (name, text) in PRESETS {
                        if ui.selectable_label(self.draft.player == text, name).clicked() {
                            self.draft.player = text.to_string();
                        }
                    }
                });
                let player_ok = control_field(ui, "Your time control", &mut self.draft.player);
                ui.checkbox(&mut self.odds, "Time odds: Kibitz gets a different control");
                let engine_ok = if self.odds {
                    control_field(ui, "Kibitz's time control", &mut self.engine_text)
                } else {
                    true
                };
                ui.horizontal(|ui| {
                    let label = ui.label("Warn under (seconds)");
                    ui.add(egui::DragValue::new(&mut self.draft.warn_seconds).range(0..=600))
                        .labelled_by(label.id);
                });
                ui.weak("The new control applies from the next game.");
                ui.separator();
                ui.label("Correct the running clocks (Crafty's clock command): minutes, m:ss or h:mm:ss");
                ui.horizontal(|ui| {
                    let you = ui.label("You");
                    ui.add(TextEdit::singleline(&mut self.correct_player).desired_width(70.0))
                        .labelled_by(you.id);
                    let kibitz = ui.label("Kibitz");
                    ui.add(TextEdit::singleline(&mut self.correct_engine).desired_width(70.0))
                        .labelled_by(kibitz.id);
                    if ui.button("Set clocks").clicked() {
                        match (parse_clock_time(&self.correct_player), parse_clock_time(&self.correct_engine))
                        {
                            (Ok(p), Ok(e)) => result = ClockDialogResult::Correct(p, e),
                            (Err(e), _) | (_, Err(e)) => self.correct_error = Some(e),
                        }
                    }
                });
                if let Some(e) = &self.correct_error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                ui.horizontal(|ui| {
                    if ui.add_enabled(player_ok && engine_ok, egui::Button::new("Apply")).clicked() {
                        let mut settings = self.draft.clone();
                        settings.engine = self.odds.then(|| self.engine_text.trim().to_string());
                        settings.player = settings.player.trim().to_string();
                        result = ClockDialogResult::Apply(settings);
                    }
                    if ui.button("Cancel").clicked() {
                        result = ClockDialogResult::Cancel;
                    }
                });
            });
            if !self.draft.enabled {
                ui.horizontal(|ui| {
                    if ui.button("Apply").clicked() {
                        result = ClockDialogResult::Apply(self.draft.clone());
                    }
                    if ui.button("Cancel").clicked() {
                        result = ClockDialogResult::Cancel;
                    }
                });
            }
        });
        if modal.should_close() && matches!(result, ClockDialogResult::Open) {
            result = ClockDialogResult::Cancel;
        }
        result
    }
}

/// Reads a clock reading: minutes (`5`, `2.5`), `m:ss` or `h:mm:ss`.
pub fn parse_clock_time(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let bad = || format!("\"{text}\" is not a time: write minutes (5), m:ss (4:30) or h:mm:ss (1:05:00)");
    let parts: Vec<&str> = text.split(':').collect();
    let seconds = match parts.as_slice() {
        [m] => m.parse::<f64>().map_err(|_| bad())? * 60.0,
        [m, s] => {
            let s: f64 = s.parse().map_err(|_| bad())?;
            if s >= 60.0 {
                return Err(bad());
            }
            m.parse::<f64>().map_err(|_| bad())? * 60.0 + s
        }
        [h, m, s] => {
            let (m, s): (f64, f64) = (m.parse().map_err(|_| bad())?, s.parse().map_err(|_| bad())?);
            if m >= 60.0 || s >= 60.0 {
                return Err(bad());
            }
            h.parse::<f64>().map_err(|_| bad())? * 3600.0 + m * 60.0 + s
        }
        _ => return Err(bad()),
    };
    if !seconds.is_finite() || !(0.0..=1e7).contains(&seconds) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// A labelled text field for a time control with its reading (or what is wrong) below.
/// Returns whether the text is a valid control.
fn control_field(ui: &mut Ui, label: &str, text: &mut String) -> bool {
    let heading = ui.label(label);
    ui.add(TextEdit::singleline(text).desired_width(f32::INFINITY)).labelled_by(heading.id);
    match parse_control(text) {
        Ok(control) => {
            ui.label(RichText::new(format!("{}  (PGN {})", describe(&control), control.to_pgn())).weak());
            true
        }
        Err(e) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
            false
        }
    }
}

/// A time control in words: "15 minutes + 10 seconds per move", "40 moves in 90 minutes,
/// then 30 minutes".
#[must_use]
pub fn describe(control: &TimeControl) -> String {
    let minutes = |d: std::time::Duration| {
        let s = d.as_secs();
        if s.is_multiple_of(60) { format!("{} minutes", s / 60) } else { format!("{s} seconds") }
    };
    match control {
        TimeControl::Clock { stages, increment } => {
            let mut parts = Vec::new();
            for stage in stages {
                match stage.moves {
                    Some(n) => parts.push(format!("{n} moves in {}", minutes(stage.time))),
                    None => parts.push(minutes(stage.time)),
                }
            }
            let mut text = parts.join(", then ");
            if stages.last().is_some_and(|s| s.moves.is_some()) {
                text.push_str(", repeating");
            }
            if !increment.is_zero() {
                text.push_str(&format!(" + {} seconds per move", increment.as_secs_f64()));
            }
            text
        }
        TimeControl::Sandclock(t) => format!("an hourglass of {}", minutes(*t)),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_notations_and_explains_errors() {
        assert_eq!(describe(&parse_control("level 0 5 3").unwrap()), "5 minutes + 3 seconds per move");
        assert_eq!(describe(&parse_control("300+3").unwrap()), "5 minutes + 3 seconds per move");
        assert_eq!(
            describe(&parse_control("time 60/30/sd/30").unwrap()),
            "60 moves in 30 minutes, then 30 minutes"
        );
        assert_eq!(describe(&parse_control("40/5400").unwrap()), "40 moves in 90 minutes, repeating");
        assert!(parse_control("level 0 five 3").unwrap_err().starts_with("Not understood"));
        assert!(parse_control("sd 12").unwrap_err().contains("A clock needs time"));
        assert!(parse_control("banana").is_err());
    }

    #[test]
    fn clock_readings_in_minutes_or_colons() {
        assert_eq!(parse_clock_time("5"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_clock_time("4:30"), Ok(Duration::from_secs(270)));
        assert_eq!(parse_clock_time("1:05:00"), Ok(Duration::from_secs(3900)));
        for bad in ["", "4:75", "-3", "x", "1:2:3:4", "inf"] {
            assert!(parse_clock_time(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_damaged_setting_falls_back_to_the_default() {
        let settings = ClockSettings { player: "rubbish".into(), ..Default::default() };
        let (player, engine) = settings.controls().unwrap();
        assert_eq!(player, parse_control("level 0 15 10").unwrap());
        assert_eq!(engine, player);
        assert!(ClockSettings { enabled: false, ..Default::default() }.controls().is_none());
    }
}
