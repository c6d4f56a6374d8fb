//! The Tuning workspace: a self-play tuning run of the draw and resign policy (`kibitz
//! tune-policy --log RUN.log`), read in the background and shown as plots over its
//! generations: each tuned parameter's mean with its lowest and highest member, and the share
//! of games that ended by agreement, by rule, by resignation, by mate and on time (and, when
//! the run checked them, the games whose replacements a reading refuted by playing on
//! decided). The best member can become Kibitz's draw and resign settings: the candidate a
//! closing trial chose (`--trial`, shown with each candidate's games), else the last
//! generation's consensus.

use std::path::PathBuf;
use std::sync::Arc;

use crossbeam_channel::{Receiver, bounded};
use egui::{Grid, RichText, Ui};
use egui_plot::{Legend, Line, Plot, PlotPoints};
use kibitz_engine::policy::{PolicySettings, Rules};
use kibitz_engine::tuning::{
    GenerationSummary, HowEnded, RefereeJudges, Targets, Trial, TrialRecord, TuningLog,
};

/// What the workspace asks of the app.
#[derive(Clone, Debug)]
pub enum TuningRequest {
    /// Ask for a tuning log to open.
    Open,
    /// Make these Kibitz's draw and resign settings.
    UsePolicy(PolicySettings),
}

/// A run read from its log.
struct Run {
    path: PathBuf,
    log: TuningLog,
    summaries: Vec<GenerationSummary>,
}

/// The workspace's state: the run shown, or the one being read.
#[derive(Default)]
pub struct TuningView {
    run: Option<Run>,
    reading: Option<(PathBuf, Receiver<Result<TuningLog, String>>)>,
    /// The parameter plotted, by its index in the genome.
    parameter: usize,
    /// Why the last log could not be read.
    error: Option<String>,
}

/// How the endings are plotted: the kind and its name.
const ENDINGS: [(HowEnded, &str); 5] = [
    (HowEnded::Agreement, "agreed draws"),
    (HowEnded::Rule, "draws by rule"),
    (HowEnded::Resignation, "resignations"),
    (HowEnded::Mate, "mates"),
    (HowEnded::Time, "time losses"),
];

/// A closing trial: each candidate's games and readings, and which one it chose.
fn trial_ui(ui: &mut Ui, trial: &TrialRecord, chosen: &Trial) {
    ui.label(RichText::new(format!("Trial after generation {}", trial.after)).strong());
    ui.label(format!(
        "Each candidate played {} fresh self-play games; the referee scored every resignation (right at least 3 \
         pawns behind) and agreed draw (wrong with a side more than 1.5 pawns ahead).",
        trial.games
    ));
    let percent = |part: usize, whole: usize| {
        if whole == 0 { "-".to_owned() } else { format!("{:.0}%", 100.0 * part as f64 / whole as f64) }
    };
    Grid::new("trial").striped(true).show(ui, |ui| {
        for head in ["candidate", "generation", "resigned", "agreed", "wrong resignations", "wrong draws", ""]
        {
            ui.label(RichText::new(head).weak());
        }
        ui.end_row();
        for t in &trial.trials {
            let c = &t.counts;
            ui.label(format!("#{}", t.candidate.id));
            ui.label(t.generation.to_string());
            ui.label(percent(c.resigned, c.decisive))
                .on_hover_text("of the decisive games (at least a third)");
            ui.label(percent(c.agreed, c.drawn)).on_hover_text("of the drawn games (at least a quarter)");
            ui.label(format!("{} of {}", c.wrong_resignations, c.judged_resignations))
                .on_hover_text("at most 2%");
            ui.label(format!("{} of {}", c.wrong_agreements, c.judged_agreements))
                .on_hover_text("at most 2%");
            let misses = c.misses(&Targets::default());
            if misses.is_empty() {
                ui.label("meets the targets");
            } else {
                let why: Vec<String> = misses.iter().map(ToString::to_string).collect();
                ui.label(RichText::new("misses").color(ui.visuals().warn_fg_color))
                    .on_hover_text(why.join("; "));
            }
            ui.end_row();
        }
    });
    if trial.met {
        ui.label(format!(
            "Candidate #{} met every target, its weakest by the widest margin.",
            chosen.candidate.id
        ));
    } else {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!("No candidate met the targets; #{} came nearest.", chosen.candidate.id),
        );
    }
}

impl TuningView {
    /// Reads the log at `path` in the background; `repaint` wakes the UI when it is read.
    pub fn open(&mut self, path: PathBuf, repaint: Arc<dyn Fn() + Send + Sync>) {
        let (tx, rx) = bounded(1);
        let file = path.clone();
        std::thread::spawn(move || {
            let read = TuningLog::read(&file).map_err(|e| e.to_string());
            let _ = tx.send(read);
            repaint();
        });
        self.reading = Some((path, rx));
    }

    /// Takes in a log read since the last frame.
    pub fn poll(&mut self) {
        let Some((path, rx)) = &self.reading else { return };
        let Ok(read) = rx.try_recv() else { return };
        let path = path.clone();
        self.reading = None;
        match read {
            Ok(log) => {
                let summaries = log.summaries();
                self.run = Some(Run { path, log, summaries });
                self.parameter = 0;
                self.error = None;
            }
            Err(e) => self.error = Some(format!("{}: {e}", path.display())),
        }
    }

    /// The side panel: the run, the parameter to plot, and the best member.
    pub fn side_ui(&mut self, ui: &mut Ui) -> Option<TuningRequest> {
        let mut request = None;
        ui.heading("Tuning");
        ui.label("A self-play tuning run of the draw and resign rules (kibitz tune-policy --log RUN.log).");
        if ui.button("Open tuning log…").clicked() {
            request = Some(TuningRequest::Open);
        }
        if let Some((path, _)) = &self.reading {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(format!("Reading {}…", path.display()));
            });
        }
        if let Some(error) = &self.error {
            ui.colored_label(ui.visuals().warn_fg_color, error);
        }
        let Some(run) = &self.run else { return request };
        let header = &run.log.header;
        let name = crate::book_files::file_name(&run.path);
        ui.separator();
        ui.label(RichText::new(name).strong());
        let rules = match header.rules {
            Rules::Terra => "Terra's rules",
            Rules::DeadBand => "the dead band",
        };
        ui.label(format!(
            "{} generations of {} members, {rules}, {}",
            run.summaries.len(),
            header.population,
            header.control
        ));
        if let Some(folder) = &header.tablebases {
            ui.label(format!("The members probed the Syzygy tables in {}.", folder.display()));
        }
        if header.check_readings {
            let judge = match &header.judge {
                Some(judge) => judge.as_str(),
                None => "Kibitz at the run's control",
            };
            let several = header.playouts > 1;
            let majority = " A side that won more than half of the games refuted a draw; a resignation stood when \
                            the resigner lost more than half.";
            let played_on = format!(
                "Every declined draw offer, agreed draw and resignation was played on by this engine to see \
                 whether it was right; a wrong one cost the side that made it.{}",
                if several { majority } else { "" }
            );
            let on = if several {
                format!("playing the game on, {} games each", header.playouts)
            } else {
                "playing the game on".to_owned()
            };
            let margins = header.referee_margins;
            let scored = format!(
                "The referee scored the position where each was made: a resignation is right at least {:.2} \
                 pawns behind, a draw offer wrong with a side more than {:.2} pawns ahead; a wrong one cost the \
                 side that made it.",
                f64::from(margins.resign_behind) / 100.0,
                f64::from(margins.draw_ahead) / 100.0
            );
            match (&header.referee, header.referee_judges) {
                (None, _) => {
                    ui.label(format!("Readings checked by {on}: {judge}.")).on_hover_text(played_on);
                }
                (Some(referee), RefereeJudges::All) => {
                    ui.label(format!("Readings judged by a referee's score: {referee}."))
                        .on_hover_text(&scored);
                    if margins.draw_odds > 0 {
                        ui.label(format!(
                            "A draw counted only where Kibitz's own games from positions with as many men and \
                             as large a score were drawn at least {}% of the time.",
                            margins.draw_odds
                        ));
                    }
                }
                (Some(referee), RefereeJudges::Resignations) => {
                    ui.label(format!("Resignations judged by a referee's score: {referee}."))
                        .on_hover_text(&scored);
                    ui.label(format!("Draw offers checked by {on}: {judge}.")).on_hover_text(played_on);
                }
            }
        }
        if run.log.torn {
            ui.label(RichText::new("Its last line was torn and is left out.").weak());
        }
        ui.separator();
        ui.label(RichText::new("Parameter plotted").strong());
        ui.horizontal_wrapped(|ui| {
            for (i, p) in run.log.genome.parameters().iter().enumerate() {
                ui.selectable_value(&mut self.parameter, i, p.name).on_hover_text(p.label);
            }
        });
        let Some(last) = run.summaries.last() else { return request };
        ui.separator();
        // A trial of the last generation decides the best member; an older one is only told of.
        let trial = run.log.trial.as_ref().filter(|t| t.after == last.generation);
        let chosen = trial.and_then(TrialRecord::chosen);
        match (trial.zip(chosen), &run.log.trial) {
            (Some((trial, chosen)), _) => trial_ui(ui, trial, chosen),
            (None, Some(old)) => {
                ui.label(format!(
                    "A trial after generation {} chose a candidate; the run went on since, so the best is the \
                     last generation's consensus.",
                    old.after
                ));
            }
            (None, None) => {}
        }
        let (title, best) = match chosen {
            Some(t) => (format!("Best: candidate #{} of the trial", t.candidate.id), &t.candidate.values),
            None => (format!("Best of generation {}", last.generation), &last.best.values),
        };
        ui.label(RichText::new(title).strong());
        Grid::new("best-member").striped(true).show(ui, |ui| {
            for (p, value) in run.log.genome.parameters().iter().zip(best) {
                ui.label(p.label);
                ui.label(value.to_string());
                ui.label(RichText::new(format!("{} to {}", p.min, p.max)).weak());
                ui.end_row();
            }
        });
        if ui
            .button("Use the best parameters")
            .on_hover_text("Kibitz offers, accepts and resigns by them from its next game on")
            .clicked()
        {
            request = Some(TuningRequest::UsePolicy(run.log.genome.settings(best)));
        }
        request
    }

    /// The central panel: the plots.
    pub fn ui(&mut self, ui: &mut Ui) {
        let Some(run) = &self.run else {
            ui.heading("Tuning");
            ui.label("Open the log of a tuning run to see how its population evolved.");
            return;
        };
        let Some(parameter) = run.log.genome.parameters().get(self.parameter) else { return };
        let x = |s: &GenerationSummary| f64::from(s.generation);
        let series = |value: fn(&kibitz_engine::tuning::ParameterStats) -> f64| -> PlotPoints<'static> {
            run.summaries
                .iter()
                .filter_map(|s| {
                    s.parameters.iter().find(|p| p.name == parameter.name).map(|p| [x(s), value(p)])
                })
                .collect()
        };
        ui.label(
            RichText::new(format!("{} ({}) over the generations", parameter.label, parameter.name)).strong(),
        );
        Plot::new("tuning-parameter")
            .height((ui.available_height() / 2.0 - 30.0).max(120.0))
            .legend(Legend::default())
            .x_axis_label("generation")
            .show(ui, |plot| {
                plot.line(Line::new("mean", series(|p| p.mean)));
                plot.line(Line::new("lowest", series(|p| p.min as f64)));
                plot.line(Line::new("highest", series(|p| p.max as f64)));
            });
        ui.label(RichText::new("How the games ended (% of each generation's games)").strong());
        Plot::new("tuning-endings")
            .height((ui.available_height() - 10.0).max(120.0))
            .legend(Legend::default())
            .x_axis_label("generation")
            .include_y(0.0)
            .include_y(100.0)
            .show(ui, |plot| {
                for (how, name) in ENDINGS {
                    let points: PlotPoints<'static> =
                        run.summaries.iter().map(|s| [x(s), 100.0 * s.endings.share(how)]).collect();
                    plot.line(Line::new(name, points));
                }
                if run.log.header.check_readings {
                    let refuted: PlotPoints<'static> = run
                        .summaries
                        .iter()
                        .map(|s| [x(s), 100.0 * s.endings.refuted as f64 / s.endings.games.max(1) as f64])
                        .collect();
                    let judged = if run.log.header.referee.is_some() {
                        "misread (judged)"
                    } else {
                        "misread (played on)"
                    };
                    plot.line(Line::new(judged, refuted));
                }
            });
    }
}
