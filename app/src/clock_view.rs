//! The two clocks beside the board.

use std::time::Duration;

use egui::{Color32, RichText, Ui};
use kibitz_engine::{Clock, format_clock};
use shakmaty::Color;

/// Shows one side's clock as a large readout; the running one is highlighted and turns red
/// under `warn`.
pub fn clock_ui(ui: &mut Ui, clock: &Clock, side: Color, name: &str, warn: Duration) {
    let remaining = clock.remaining(side);
    let running = clock.running() == Some(side);
    let low = clock.is_timed() && remaining < warn;
    let text = if clock.is_timed() { format_clock(remaining) } else { "--:--".to_string() };
    let colour = if low {
        Color32::from_rgb(0xe0, 0x40, 0x30)
    } else if running {
        ui.visuals().strong_text_color()
    } else {
        ui.visuals().weak_text_color()
    };
    let frame = egui::Frame::new()
        .fill(if running { ui.visuals().faint_bg_color } else { Color32::TRANSPARENT })
        .inner_margin(egui::Margin::symmetric(8, 2))
        .corner_radius(4.0);
    frame.show(ui, |ui| {
        ui.horizontal(|ui| {
            let label = ui.label(RichText::new(text).size(28.0).monospace().color(colour));
            label.widget_info(|| {
                egui::WidgetInfo::labeled(egui::accesskit::Role::Label, true, format!("{name} clock"))
            });
            ui.label(RichText::new(name).color(colour));
            if low && running {
                ui.label(RichText::new("low on time").color(colour).small());
            }
        });
    });
}

/// How long until the readout of a running clock changes, for the next repaint.
#[must_use]
pub fn next_tick(clock: &Clock) -> Option<Duration> {
    let side = clock.running()?;
    if !clock.is_timed() {
        return None;
    }
    let ms = clock.remaining(side).as_millis() as u64;
    let step = if ms < 10_000 { 100 } else { 1000 };
    Some(Duration::from_millis(ms % step + 1))
}
