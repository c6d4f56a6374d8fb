//! A tournament's results as they come: progress, the table, the cross table of a round
//! robin, the first engine's Elo and pair statistics, the knockout's bracket, and the games,
//! each of which opens to study.

use egui::{Grid, RichText, Ui};
use kibitz_engine::matches::{FinishedGame, KnockoutReport, Standings};
use shakmaty::KnownOutcome;

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
        Some(Ok(_)) if !running.resumable() => format!("Tournament over: {played} games."),
        Some(Ok(_)) => {
            format!("Stopped after {played} of {} games; Resume plays the rest.", running.scheduled)
        }
        Some(Err(why)) => format!("The tournament could not go on: {why}"),
    };
    ui.label(RichText::new(line).strong());
}

/// The results and the games.
pub fn results_ui(ui: &mut Ui, running: &Running) -> Option<TournamentRequest> {
    let mut request = None;
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
    if running.choices.format == FormatChoice::Knockout {
        ui.add_space(6.0);
        ui.label(RichText::new("Bracket").strong());
        let report = match &running.ending {
            Some(Ok(Ending::Knockout(report))) => Some(report),
            _ => None,
        };
        bracket_ui(ui, &running.games, report, &running.names);
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
    let order = standings.order();
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

/// A duel of the bracket as its games so far tell it.
struct DuelSoFar {
    round: usize,
    number: usize,
    /// The two engines, the better seed (lower index) first, and their points.
    engines: [(usize, f64); 2],
    games: usize,
}

/// The knockout's duels so far, by round and number, from its finished games.
fn duels_so_far(games: &[FinishedGame]) -> Vec<DuelSoFar> {
    let mut duels: Vec<DuelSoFar> = Vec::new();
    for game in games {
        let Some(number) = game.fixture.duel else { continue };
        let (white, black) = (game.fixture.white, game.fixture.black);
        let index = match duels.iter().position(|d| d.round == game.fixture.round && d.number == number) {
            Some(i) => i,
            None => {
                let engines = [(white.min(black), 0.0), (white.max(black), 0.0)];
                duels.push(DuelSoFar { round: game.fixture.round, number, engines, games: 0 });
                duels.len() - 1
            }
        };
        let duel = &mut duels[index];
        duel.games += 1;
        let white_points = match game.outcome {
            KnownOutcome::Draw => 0.5,
            KnownOutcome::Decisive { winner } => f64::from(u8::from(winner == shakmaty::Color::White)),
        };
        for (engine, points) in &mut duel.engines {
            *points += if *engine == white { white_points } else { 1.0 - white_points };
        }
    }
    duels.sort_by_key(|d| (d.round, d.number));
    duels
}

/// The knockout's duels by round, each with its score so far; once it is over, who went
/// through (in bold), the byes, and the medals.
fn bracket_ui(ui: &mut Ui, games: &[FinishedGame], report: Option<&KnockoutReport>, names: &[String]) {
    let name = |i: usize| names.get(i).map_or("?", String::as_str);
    let duels = duels_so_far(games);
    let rounds = duels.iter().map(|d| d.round).max().unwrap_or(0);
    let winner = |round: usize, engine: usize| {
        report.is_some_and(|r| {
            r.duels.iter().any(|d| d.round == round && d.winner == engine && d.low.is_some())
        })
    };
    ui.horizontal_top(|ui| {
        for round in 1..=rounds {
            ui.vertical(|ui| {
                ui.label(RichText::new(format!("Round {round}")).strong());
                if let Some(report) = report {
                    for d in report.duels.iter().filter(|d| d.round == round && d.low.is_none()) {
                        ui.label(format!("{} (bye)", name(d.high)));
                    }
                }
                for d in duels.iter().filter(|d| d.round == round) {
                    ui.group(|ui| {
                        // The round after the semi-finals: the final, then the match for third.
                        let semis = duels.iter().filter(|e| e.round + 1 == round).count() == 2;
                        if semis && d.number == 2 {
                            ui.label(RichText::new("For third place").weak());
                        }
                        for (engine, points) in d.engines {
                            let line = RichText::new(format!("{}: {points}", name(engine)));
                            ui.label(if winner(round, engine) { line.strong() } else { line });
                        }
                        ui.label(RichText::new(format!("{} games", d.games)).weak());
                    });
                }
            });
        }
    });
    if let Some(report) = report {
        let medal = |i: Option<usize>| i.map_or("–", name);
        ui.label(format!("Winner: {} · third: {}", medal(report.champion), medal(report.third)));
    }
}
