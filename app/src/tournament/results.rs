//! A tournament's results as they come: progress, the table, the cross table of a round
//! robin, the first engine's Elo and pair statistics, the knockout's bracket, and the games,
//! each of which opens to study.

use egui::{Grid, RichText, Ui};
use kibitz_engine::matches::{KnockoutReport, Standings};

use super::TournamentRequest;
use super::choices::FormatChoice;
use super::running::{Ending, Running};

/// `Game 3 of 8 · 2:14`, or how the run ended.
pub fn progress_ui(ui: &mut Ui, running: &Running) {
    let played = running.games.len();
    let elapsed = running.started.elapsed().as_secs();
    let time = format!("{}:{:02}", elapsed / 60, elapsed % 60);
    let line = match &running.ending {
        None if running.is_cancelled() => "Stopping: the games under way are abandoned…".to_owned(),
        None => format!("{} of {} games played · {time}", played, running.scheduled),
        Some(Ok(Ending::Played { complete: true })) | Some(Ok(Ending::Knockout(_))) => {
            format!("Tournament over: {played} games.")
        }
        Some(Ok(Ending::Played { complete: false })) => {
            format!("Stopped after {played} of {} games; Resume plays the rest.", running.scheduled)
        }
        Some(Err(why)) => format!("The tournament could not go on: {why}"),
    };
    ui.label(RichText::new(line).strong());
}

/// The results and the games.
pub fn results_ui(ui: &mut Ui, running: &Running) -> Option<TournamentRequest> {
    let mut request = None;
    if running.choices.format == FormatChoice::Knockout {
        ui.label(RichText::new("Duel under way").strong());
    }
    standings_ui(ui, &running.standings);
    let many = running.standings.engines.len() > 2;
    if running.choices.format == FormatChoice::RoundRobin && many {
        ui.add_space(6.0);
        ui.label(RichText::new("Cross table").strong());
        cross_table_ui(ui, &running.standings);
    }
    if running.choices.format != FormatChoice::Knockout && running.tally.games().games() > 0 {
        ui.add_space(6.0);
        let first = running.names.first().map_or("", String::as_str);
        ui.label(RichText::new(format!("{first} against the others")).strong());
        ui.label(RichText::new(running.tally.to_string()).monospace());
    }
    if let Some(Ok(Ending::Knockout(report))) = &running.ending {
        ui.add_space(6.0);
        ui.label(RichText::new("Bracket").strong());
        bracket_ui(ui, report, &running.names);
    }
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new("Games").strong());
        let written = !running.games.is_empty() && running.pgn.exists();
        if written && ui.button("Open all games").on_hover_text(running.pgn.display().to_string()).clicked() {
            request = Some(TournamentRequest::OpenGames(running.pgn.clone()));
        }
    });
    for game in running.games.iter().rev().take(GAMES_SHOWN) {
        ui.horizontal(|ui| {
            let number = game.fixture.number;
            if ui
                .small_button("Open")
                .on_hover_text("Study this game")
                .widget_info_labeled(format!("Open game {number}"))
                .clicked()
            {
                request = Some(TournamentRequest::OpenGame(Box::new(game.record.clone())));
            }
            ui.label(format!(
                "{number}. {} – {}  {}  {{{}}}",
                game.white,
                game.black,
                game.result(),
                game.verdict
            ));
        });
    }
    if running.games.len() > GAMES_SHOWN {
        ui.label(format!(
            "… and {} earlier games: Open all games lists them.",
            running.games.len() - GAMES_SHOWN
        ));
    }
    request
}

/// How many of the latest games the list shows (a long tournament's are all in its PGN).
const GAMES_SHOWN: usize = 50;

/// Gives a response an accessible name of its own (a short button's label is a symbol).
trait Labeled {
    fn widget_info_labeled(self, label: String) -> Self;
}

impl Labeled for egui::Response {
    fn widget_info_labeled(self, label: String) -> Self {
        self.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
        self
    }
}

/// The table: rank, engine, games, points, score, wins, draws, losses and failures.
fn standings_ui(ui: &mut Ui, standings: &Standings) {
    Grid::new("standings").striped(true).num_columns(10).show(ui, |ui| {
        for head in ["#", "Engine", "Games", "Points", "Score", "W", "D", "L", "Time", "Crash/illegal"] {
            ui.label(RichText::new(head).strong());
        }
        ui.end_row();
        for (rank, e) in standings.ranked().into_iter().enumerate() {
            let score = if e.games() == 0 { 0.0 } else { 100.0 * e.points() / f64::from(e.games()) };
            ui.label(format!("{}", rank + 1));
            ui.label(&e.name);
            ui.label(e.games().to_string());
            ui.label(format!("{:.1}", e.points()));
            ui.label(format!("{score:.1}%"));
            ui.label(e.wins.to_string());
            ui.label(e.draws.to_string());
            ui.label(e.losses.to_string());
            ui.label(e.time_losses.to_string());
            ui.label((e.abandoned + e.illegal).to_string());
            ui.end_row();
        }
    });
}

/// Each engine's points against each other, best first.
fn cross_table_ui(ui: &mut Ui, standings: &Standings) {
    let mut order: Vec<usize> = (0..standings.engines.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(standings.engines[i].half_points()));
    Grid::new("cross-table").striped(true).show(ui, |ui| {
        ui.label("");
        for rank in 1..=order.len() {
            ui.label(RichText::new(rank.to_string()).strong());
        }
        ui.end_row();
        for (rank, &i) in order.iter().enumerate() {
            ui.label(format!("{}. {}", rank + 1, standings.engines[i].name));
            for &j in &order {
                let cell = match standings.against(i, j) {
                    _ if i == j => "·".to_owned(),
                    Some((points, games)) => format!("{points:.1}/{games}"),
                    None => "–".to_owned(),
                };
                ui.label(cell);
            }
            ui.end_row();
        }
    });
}

/// The knockout's duels by round, each with its score and who went through.
fn bracket_ui(ui: &mut Ui, report: &KnockoutReport, names: &[String]) {
    let name = |i: usize| names.get(i).map_or("?", String::as_str);
    let rounds = report.duels.iter().map(|d| d.round).max().unwrap_or(0);
    ui.horizontal_top(|ui| {
        for round in 1..=rounds {
            ui.vertical(|ui| {
                ui.label(RichText::new(format!("Round {round}")).strong());
                for d in report.duels.iter().filter(|d| d.round == round) {
                    ui.group(|ui| {
                        if d.third_place {
                            ui.label(RichText::new("For third place").weak());
                        }
                        match d.low {
                            None => {
                                ui.label(format!("{} (bye)", name(d.high)));
                            }
                            Some(low) => {
                                for (who, points) in [(d.high, d.points.0), (low, d.points.1)] {
                                    let line = RichText::new(format!("{}  {points}", name(who)));
                                    ui.label(if who == d.winner { line.strong() } else { line });
                                }
                                ui.label(RichText::new(format!("{} games", d.games)).weak());
                            }
                        }
                    });
                }
            });
        }
    });
    let medal = |i: Option<usize>| i.map_or("–", name);
    ui.label(format!("Winner: {} · third: {}", medal(report.champion), medal(report.third)));
}
