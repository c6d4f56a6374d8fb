//! The game list of a multi-game PGN file: indexed in the background with a progress bar,
//! sorted and filtered off the UI thread, drawn with only its visible rows, and one game loaded
//! (in the background) when it is opened. All three are [`Job`]s that wake the UI when they
//! have news; the panel reads their progress and outcomes without blocking.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use egui::{Align2, Button, ProgressBar, Rect, ScrollArea, Sense, TextEdit, TextStyle, Ui, WidgetInfo, vec2};
use kibitz_engine::{Column, GameHeader, GameIndex, GameRecord, IndexJob, Job, JobError, PgnError};

/// The columns shown, with their titles and relative widths.
const COLUMNS: [(Column, &str, f32); 7] = [
    (Column::White, "White", 3.0),
    (Column::Black, "Black", 3.0),
    (Column::Result, "Result", 1.3),
    (Column::Date, "Date", 1.8),
    (Column::Event, "Event", 3.0),
    (Column::Eco, "ECO", 1.0),
    (Column::Plies, "Plies", 1.0),
];

/// What the game list asks of its owner.
#[derive(Debug)]
pub enum GameListEvent {
    /// The selected game was read from the file.
    Loaded(Box<GameRecord>),
    /// The selected game is broken: it was read up to its last legal move, and the message
    /// names the game, line and column where it broke.
    Partial(Box<GameRecord>, String),
    /// The selected game could not be read at all; the message names the game, line and column.
    Error(String),
    /// The player closed the list.
    Closed,
}

/// The panel listing the games of a PGN file.
///
/// ```no_run
/// # fn show(ui: &mut egui::Ui, list: &mut kibitz_app::GameList) {
/// match list.ui(ui) {
///     Some(kibitz_app::GameListEvent::Loaded(game)) => println!("{} moves", game.san_moves().len()),
///     Some(kibitz_app::GameListEvent::Partial(game, message)) => {
///         eprintln!("{message}; {} moves were read", game.san_moves().len())
///     }
///     Some(kibitz_app::GameListEvent::Error(message)) => eprintln!("{message}"),
///     Some(kibitz_app::GameListEvent::Closed) | None => {}
/// }
/// # }
/// ```
pub struct GameList {
    /// The file listed.
    path: PathBuf,
    /// The file's name, for the title.
    name: String,
    /// The index, being built or built.
    state: State,
    /// The filter as typed.
    filter: String,
    /// The sort column and whether it is descending; `None` keeps file order.
    sort: Option<(Column, bool)>,
    /// The games shown, as game numbers in file order, filtered and sorted.
    rows: Vec<u32>,
    /// The filter and sort the rows were made for.
    rows_made_for: (String, Option<(Column, bool)>),
    /// A filter and sort being computed in the background; cancelled when it is out of date.
    query: Option<Job<(), Vec<u32>, Infallible>>,
    /// The selected game (number in file order).
    selected: Option<u32>,
    /// A game being read in the background.
    loading: Option<(u32, Job<(), GameRecord, PgnError>)>,
    /// A message for the player (errors, cancellation).
    message: Option<String>,
    /// The UI to repaint when a job has news; known from the first frame on.
    repaint: Arc<OnceLock<egui::Context>>,
}

/// Where the index is.
enum State {
    /// Being built in the background.
    Indexing(IndexJob),
    /// Built; shared with the query and loading jobs.
    Ready(Arc<GameIndex>),
    /// Not built (the message says why).
    Failed,
}

impl GameList {
    /// Starts indexing a PGN file in the background; never blocks.
    #[must_use]
    pub fn open(path: impl Into<PathBuf>) -> GameList {
        let path = path.into();
        let name =
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        let repaint = Arc::new(OnceLock::new());
        let state = State::Indexing(IndexJob::start(path.clone(), waker(&repaint)));
        GameList {
            path,
            name,
            state,
            filter: String::new(),
            sort: None,
            rows: Vec::new(),
            rows_made_for: (String::new(), None),
            query: None,
            selected: None,
            loading: None,
            message: None,
            repaint,
        }
    }

    /// The file listed.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file is still being indexed.
    #[must_use]
    pub fn is_indexing(&self) -> bool {
        matches!(self.state, State::Indexing(_))
    }

    /// Whether the list is ready and up to date with the filter and sort (no work pending).
    #[must_use]
    pub fn is_settled(&self) -> bool {
        !self.is_indexing()
            && self.query.is_none()
            && self.loading.is_none()
            && (!matches!(self.state, State::Ready(_)) || self.rows_are_current())
    }

    /// Number of games in the file (0 until indexed).
    #[must_use]
    pub fn game_count(&self) -> usize {
        match &self.state {
            State::Ready(index) => index.len(),
            _ => 0,
        }
    }

    /// Number of rows shown (after filtering).
    #[must_use]
    pub fn row_count(&self) -> usize {
        self.rows.len()
    }

    /// The game number (in file order, from 0) shown in row `row`.
    #[must_use]
    pub fn game_at_row(&self, row: usize) -> Option<usize> {
        self.rows.get(row).map(|&g| g as usize)
    }

    /// The selected game number (in file order, from 0).
    #[must_use]
    pub fn selected(&self) -> Option<usize> {
        self.selected.map(|g| g as usize)
    }

    /// The message shown to the player, if any (an error or "Indexing cancelled").
    #[must_use]
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// Draws the panel, collects finished background work and reports what the player asked
    /// for.
    pub fn ui(&mut self, ui: &mut Ui) -> Option<GameListEvent> {
        // Before looking at the jobs, so that news after the look repaints.
        let _ = self.repaint.set(ui.ctx().clone());
        let mut event = self.collect();
        ui.horizontal(|ui| {
            ui.heading(&self.name);
            if ui.button("Close").clicked() {
                event = Some(GameListEvent::Closed);
            }
        });
        if let Some(message) = &self.message {
            ui.colored_label(ui.visuals().warn_fg_color, message);
        }
        match &self.state {
            State::Indexing(job) => {
                let (games, fraction) = job.progress().map_or((0, 0.0), |p| (p.games, p.fraction()));
                let text = format!("Indexing: {games} games, {:.0}%", fraction * 100.0);
                ui.add(ProgressBar::new(fraction).text(text));
                if ui.button("Cancel").clicked() {
                    job.cancel();
                }
            }
            State::Ready(index) => {
                let index = Arc::clone(index);
                if let Some(e) = self.list_ui(ui, &index) {
                    event = Some(e);
                }
            }
            State::Failed => {}
        }
        self.start_query_if_needed();
        event
    }

    /// Collects the outcomes of finished jobs.
    fn collect(&mut self) -> Option<GameListEvent> {
        let indexed = match &mut self.state {
            State::Indexing(job) => job.try_finish(),
            _ => None,
        };
        match indexed {
            Some(Ok(index)) => {
                self.rows = index.all();
                self.rows_made_for = (String::new(), None);
                self.state = State::Ready(Arc::new(index));
            }
            Some(Err(JobError::Cancelled)) => {
                self.state = State::Failed;
                self.message = Some("Indexing cancelled".to_owned());
            }
            Some(Err(e)) => {
                self.state = State::Failed;
                self.message = Some(format!("Could not index {}: {e}", self.name));
            }
            None => {}
        }
        if let Some(outcome) = self.query.as_mut().and_then(Job::try_finish) {
            self.query = None;
            match outcome {
                Ok(rows) => {
                    if let Some(g) = self.selected
                        && !rows.contains(&g)
                    {
                        self.selected = None;
                    }
                    self.rows = rows;
                }
                // It was out of date; a newer query replaces it.
                Err(JobError::Cancelled) => {}
                Err(e) => self.message = Some(format!("Filtering the list failed: {e}")),
            }
        }
        let loaded = self.loading.as_mut().and_then(|(game, job)| Some((*game, job.try_finish()?)));
        if let Some((game, outcome)) = loaded {
            self.loading = None;
            let error = match outcome {
                Ok(record) => {
                    self.message = None;
                    return Some(GameListEvent::Loaded(Box::new(record)));
                }
                Err(JobError::Failed(e)) => {
                    let message = format!("Game {} of {}: {e}", game + 1, self.name);
                    if let Some(partial) = e.partial {
                        self.message = Some(message.clone());
                        return Some(GameListEvent::Partial(partial, message));
                    }
                    message
                }
                Err(e) => format!("Game {} of {}: {e}", game + 1, self.name),
            };
            self.message = Some(error.clone());
            return Some(GameListEvent::Error(error));
        }
        None
    }

    /// Starts filtering and sorting again when the filter or sort changed and no query runs.
    fn start_query_if_needed(&mut self) {
        let State::Ready(index) = &self.state else { return };
        if self.rows_are_current() {
            return;
        }
        if let Some(query) = &self.query {
            // The running query is out of date: let it give up before sorting.
            query.cancel();
        } else {
            self.query = Some(self.start_query(Arc::clone(index)));
            self.rows_made_for = (self.filter.trim().to_owned(), self.sort);
        }
    }

    /// Whether the rows match the filter and sort as they are now.
    fn rows_are_current(&self) -> bool {
        self.rows_made_for.0 == self.filter.trim() && self.rows_made_for.1 == self.sort
    }

    /// Filters and sorts in the background; cancelling makes the job give up before sorting.
    fn start_query(&self, index: Arc<GameIndex>) -> Job<(), Vec<u32>, Infallible> {
        let filter = self.filter.trim().to_owned();
        let sort = self.sort;
        Job::spawn("game-list-query", waker(&self.repaint), move |ctx| {
            let mut rows = index.filter(&filter);
            if let Some((column, descending)) = sort
                && !ctx.is_cancelled()
            {
                index.sort(&mut rows, column, descending);
            }
            Ok(rows)
        })
    }

    /// Reads a game in the background.
    fn start_loading(&mut self, index: &Arc<GameIndex>, game: u32) {
        let index = Arc::clone(index);
        let job = Job::spawn("game-load", waker(&self.repaint), move |_| index.load(game as usize));
        self.loading = Some((game, job));
    }

    /// The filter, the header and the rows.
    fn list_ui(&mut self, ui: &mut Ui, index: &Arc<GameIndex>) -> Option<GameListEvent> {
        let mut open = None;
        ui.horizontal(|ui| {
            let label = ui.label("Filter");
            ui.add(
                TextEdit::singleline(&mut self.filter).hint_text("Player, event or ECO").desired_width(200.0),
            )
            .labelled_by(label.id);
            let shown = if self.rows.len() == index.len() {
                format!("{} games", index.len())
            } else {
                format!("{} of {} games", self.rows.len(), index.len())
            };
            ui.label(shown);
            let can_open = self.selected.is_some() && self.loading.is_none();
            if ui.add_enabled(can_open, Button::new("Open game")).clicked() {
                open = self.selected;
            }
            if self.loading.is_some() {
                ui.spinner();
            }
        });

        let widths = column_widths(ui.available_width(), ui.spacing().item_spacing.x);
        ui.horizontal(|ui| {
            for ((column, title, _), width) in COLUMNS.iter().zip(widths) {
                let direction = self.sort.filter(|(c, _)| c == column).map(|(_, descending)| descending);
                if header_ui(ui, title, direction, width).clicked() {
                    self.sort = match self.sort {
                        Some((c, descending)) if c == *column => Some((c, !descending)),
                        _ => Some((*column, false)),
                    };
                }
            }
        });
        ui.separator();

        let row_height = ui.text_style_height(&TextStyle::Body).max(ui.spacing().interact_size.y);
        ScrollArea::vertical().auto_shrink([false, false]).show_rows(
            ui,
            row_height,
            self.rows.len(),
            |ui, range| {
                for row in range {
                    let Some(&game) = self.rows.get(row) else { break };
                    let Some(header) = index.header(game as usize) else { continue };
                    let response =
                        row_ui(ui, &header, game, self.selected == Some(game), row_height, &widths);
                    if response.clicked() {
                        self.selected = Some(game);
                    }
                    if response.double_clicked() {
                        self.selected = Some(game);
                        open = Some(game);
                    }
                }
            },
        );

        if let Some(game) = open
            && self.loading.is_none()
        {
            self.start_loading(index, game);
        }
        None
    }
}

/// A job's wake callback: repaints the UI once the list has seen it (before the first frame
/// nobody is waiting, and the first frame looks at the jobs anyway).
fn waker(repaint: &Arc<OnceLock<egui::Context>>) -> impl Fn() + Send + Sync + 'static {
    let repaint = Arc::clone(repaint);
    move || {
        if let Some(ctx) = repaint.get() {
            ctx.request_repaint();
        }
    }
}

/// The width of each column, sharing the available width by weight (with a minimum).
fn column_widths(available: f32, spacing: f32) -> [f32; 7] {
    let total: f32 = COLUMNS.iter().map(|c| c.2).sum();
    let usable = (available - spacing * (COLUMNS.len() - 1) as f32).max(420.0);
    COLUMNS.map(|c| usable * c.2 / total)
}

/// What a screen reader says for a row (and how tests find it).
fn row_label(header: &GameHeader<'_>, game: usize) -> String {
    let or_unknown = |s: &str| if s.is_empty() { "?".to_owned() } else { s.to_owned() };
    format!(
        "{} - {} {} {}, game {}",
        or_unknown(header.white),
        or_unknown(header.black),
        or_unknown(header.result),
        or_unknown(header.date),
        game + 1
    )
}

/// A column header: its title and, on the sorted column, an arrow (painted, so that no font
/// needs the glyph). Its accessible name says how the column is sorted.
fn header_ui(ui: &mut Ui, title: &str, descending: Option<bool>, width: f32) -> egui::Response {
    let height = ui.spacing().interact_size.y;
    let (rect, response) = ui.allocate_exact_size(vec2(width, height), Sense::click());
    let label = match descending {
        None => title.to_owned(),
        Some(false) => format!("{title}, sorted ascending"),
        Some(true) => format!("{title}, sorted descending"),
    };
    response.widget_info(|| WidgetInfo::labeled(egui::accesskit::Role::ColumnHeader, true, &label));
    if ui.is_rect_visible(rect) {
        let visuals = ui.style().interact(&response);
        if response.hovered() {
            ui.painter().rect_filled(rect, 2.0, visuals.weak_bg_fill);
        }
        let painter = ui.painter().with_clip_rect(rect.intersect(ui.clip_rect()));
        let text = painter.text(
            rect.left_center() + vec2(4.0, 0.0),
            Align2::LEFT_CENTER,
            title,
            TextStyle::Button.resolve(ui.style()),
            visuals.text_color(),
        );
        if let Some(descending) = descending {
            let size = 4.0;
            let c = egui::pos2(text.right() + 4.0 + size, rect.center().y);
            let (tip, base) = if descending { (size, -size) } else { (-size, size) };
            let points = vec![
                egui::pos2(c.x - size, c.y + base * 0.6),
                egui::pos2(c.x + size, c.y + base * 0.6),
                egui::pos2(c.x, c.y + tip * 0.8),
            ];
            painter.add(egui::Shape::convex_polygon(points, visuals.text_color(), egui::Stroke::NONE));
        }
    }
    response
}

/// One row: a selectable widget over the whole width, its cells painted (and clipped) in place.
fn row_ui(
    ui: &mut Ui,
    header: &GameHeader<'_>,
    game: u32,
    selected: bool,
    height: f32,
    widths: &[f32; 7],
) -> egui::Response {
    let width = widths.iter().sum::<f32>() + ui.spacing().item_spacing.x * (widths.len() - 1) as f32;
    let (rect, response) =
        ui.allocate_exact_size(vec2(width.max(ui.available_width()), height), Sense::click());
    response.widget_info(|| {
        WidgetInfo::selected(egui::accesskit::Role::Row, true, selected, row_label(header, game as usize))
    });
    if ui.is_rect_visible(rect) {
        let visuals = ui.style().interact_selectable(&response, selected);
        if selected || response.hovered() {
            ui.painter().rect_filled(rect, 2.0, visuals.weak_bg_fill);
        }
        let color = if selected { visuals.text_color() } else { ui.visuals().text_color() };
        let font = TextStyle::Body.resolve(ui.style());
        let plies = header.plies.to_string();
        let cells =
            [header.white, header.black, header.result, header.date, header.event, header.eco, &plies];
        let mut x = rect.left();
        for (text, w) in cells.iter().zip(widths) {
            let cell = Rect::from_min_size(egui::pos2(x, rect.top()), vec2(*w, rect.height()));
            ui.painter().with_clip_rect(cell.intersect(ui.clip_rect())).text(
                cell.left_center() + vec2(4.0, 0.0),
                Align2::LEFT_CENTER,
                *text,
                font.clone(),
                color,
            );
            x += w + ui.spacing().item_spacing.x;
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_share_the_width() {
        let widths = column_widths(1000.0, 8.0);
        let sum: f32 = widths.iter().sum();
        assert!((sum + 6.0 * 8.0 - 1000.0).abs() < 0.01, "{sum}");
        assert!(widths[0] > widths[5]);
    }

    #[test]
    fn rows_name_both_players() {
        let header = GameHeader {
            white: "Carlsen, Magnus",
            black: "Anand, V.",
            result: "1-0",
            date: "2014.11.23",
            event: "",
            eco: "",
            plies: 0,
            offset: 0,
        };
        assert_eq!(row_label(&header, 4), "Carlsen, Magnus - Anand, V. 1-0 2014.11.23, game 5");
        let blank = GameHeader { white: "", black: "", result: "", date: "", ..header };
        assert_eq!(row_label(&blank, 0), "? - ? ? ?, game 1");
    }

    #[test]
    fn the_index_job_wakes_the_ui() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("many.pgn");
        std::fs::write(&path, "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n".repeat(200_000))
            .expect("written");
        let ctx = egui::Context::default();
        let (requests, requested) = std::sync::mpsc::channel();
        let requests = std::sync::Mutex::new(requests);
        ctx.set_repaint_observer(move |_| {
            let name = std::thread::current().name().map(str::to_owned);
            let _ = requests.lock().map(|r| r.send(name));
        });
        let mut list = GameList::open(&path);
        ctx.run_ui(egui::RawInput::default(), |ui| drop(list.ui(ui))).drop_without_applying_deltas();
        assert!(list.is_indexing(), "the file was indexed before the first frame; make it bigger");
        // No frame runs now: only the job can ask for one.
        let woken = requested.iter().any(|name| name.as_deref() == Some("pgn-index"));
        assert!(woken, "the index job never asked for a repaint");
    }
}
