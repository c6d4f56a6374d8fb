//! The Kibitz application: the game against the engine, its panels and dialogs.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use egui::Ui;
use kibitz_engine::SyzygyTables;
use kibitz_engine::conductor::{Conductor, GameEvent};
use kibitz_engine::{Clock, Command, ExternalEngine, GameRecord, Level, NodeId, SearchLimits};
use shakmaty::{Color, Move, Position};

use crate::action::{NewGameRequest, SeatChoice};
use crate::board::BoardState;
use crate::board_editor::BoardEditor;
use crate::book_view::BookView;
use crate::dialog::Dialog;
use crate::files::{FileEvent, FilePicker, Files, NativePicker};
use crate::game_list::GameList;
use crate::hint::Hints;
use crate::learning::Learning;
use crate::paths::Paths;
use crate::pieces::PieceTextures;
use crate::session::SavedGame;
use crate::settings::{ColorChoice, Settings};
use crate::shown_log::ShownLog;
use crate::side_panel::SidePanel;
use crate::table::{EngineSeat, News, Seat, Table};
use crate::tournament::TournamentView;
use crate::tuning_view::TuningView;
use crate::workspace::{Study, Workspace};

mod actions;
mod analysis;
mod book;
mod frame;
mod hints;
mod tournament;

/// How long an external engine thinks per move in a game without a clock.
const EXTERNAL_MOVE_TIME: Duration = Duration::from_secs(2);

/// How the app is set up: where files live, how files are picked, and whether to take a
/// screenshot and quit.
pub struct AppOptions {
    /// The folders for settings and the game in progress.
    pub paths: Paths,
    /// The open/save dialogs.
    pub picker: Arc<dyn FilePicker>,
    /// Save a screenshot of the first frames here, then quit.
    pub screenshot: Option<PathBuf>,
    /// A PGN file to open at start (`kibitz games.pgn`).
    pub open: Option<PathBuf>,
}

impl AppOptions {
    /// The options of a normal run: platform folders and native dialogs.
    #[must_use]
    pub fn from_env() -> Self {
        AppOptions { paths: Paths::from_env(), picker: Arc::new(NativePicker), screenshot: None, open: None }
    }
}

/// The application state.
pub struct KibitzApp {
    paths: Paths,
    settings: Settings,
    saved_settings: Settings,
    last_settings_write: Option<Instant>,
    /// The Play workspace: the game against engines and who plays each side.
    play: Table,
    /// The Study workspace's game, once a game was opened.
    study: Option<Study>,
    /// The workspace shown.
    workspace: Workspace,
    /// The player's side (the one shown at the bottom).
    human: Color,
    level: Level,
    /// The move of the Play game shown on the board; `None` follows its current position.
    cursor: Option<NodeId>,
    /// Whether the list of keys is shown.
    keys_help: bool,
    /// Text to put on the clipboard this frame.
    copy_text: Option<String>,
    /// The board editor, shown instead of the board while it is open.
    editor: Option<BoardEditor>,
    /// The game list of a multi-game file, shown instead of the board while it is open.
    game_list: Option<GameList>,
    board: BoardState,
    side_panel: SidePanel,
    /// Wakes the UI when an engine has news.
    repaint: Arc<dyn Fn() + Send + Sync>,
    notices: Vec<String>,
    /// The one dialog open, if any.
    dialog: Option<Dialog>,
    /// The engine's standing draw offer, in its words.
    engine_offer: Option<String>,
    /// Why the game ended, in words.
    note: Option<String>,
    /// The hints of the game being played.
    hints: Hints,
    /// The Book workspace, once opened.
    book: Option<BookView>,
    /// A book being read or written for the Book workspace, and what to do when it is done.
    book_job: Option<book::Running>,
    /// The Tournament workspace: the tournament under way or run last.
    tournament: TournamentView,
    /// The Tuning workspace: a tuning run's plots.
    tuning: TuningView,
    /// The book and what Kibitz learns from its games.
    learning: Learning,
    files: Files,
    /// The Syzygy tables of `settings.tablebases`, once opened in the background.
    tables: Option<Arc<SyzygyTables>>,
    pieces: Option<PieceTextures>,
    screenshot: Option<Screenshot>,
    frames: u64,
    /// How long the last save of the Play game took on the UI thread.
    last_save: Duration,
    /// What the board showed, for the kill test (`KIBITZ_SHOWN_LOG`).
    shown_log: Option<ShownLog>,
}

/// A pending `--screenshot` request.
struct Screenshot {
    path: PathBuf,
    requested: bool,
    done: Arc<AtomicBool>,
}

impl KibitzApp {
    /// Creates the app, loads settings and offers to resume the saved game.
    #[must_use]
    pub fn new(cc: &eframe::CreationContext<'_>, options: AppOptions) -> Self {
        Self::with_context(&cc.egui_ctx, options)
    }

    /// Creates the app for a given egui context.
    #[must_use]
    pub fn with_context(ctx: &egui::Context, options: AppOptions) -> Self {
        let AppOptions { paths, picker, screenshot, open } = options;
        let mut notices = Vec::new();
        let (settings, notice) = Settings::load(&paths.settings_file());
        notices.extend(notice);
        let (saved, notice) = SavedGame::load_unfinished(&paths.current_game_file());
        notices.extend(notice);
        let (studied, notice) = SavedGame::load(&paths.study_file());
        notices.extend(notice);

        let ui = ctx.clone();
        let repaint: Arc<dyn Fn() + Send + Sync> = Arc::new(move || ui.request_repaint());
        let (learning, notice) = Learning::load(&paths, &settings);
        notices.extend(notice);
        let files = Files::new(picker, Arc::clone(&repaint));
        files.remove_stale_temporaries(vec![paths.config_dir.clone(), paths.data_dir.clone()]);
        if let Some(path) = open {
            files.open_path(path);
        }
        if let Some(folder) = settings.tablebases.clone() {
            files.open_tablebases(folder);
        }

        let mut board = BoardState::default();
        board.flipped = settings.flipped;
        let human = match settings.color {
            ColorChoice::Black => Color::Black,
            _ => Color::White,
        };
        let dialog = saved.map(|(saved, game)| Dialog::Resume { game, saved });
        let mut app = KibitzApp {
            paths,
            level: settings.level,
            saved_settings: settings.clone(),
            settings,
            last_settings_write: None,
            play: Table::study(GameRecord::new()),
            study: studied.map(|(_, game)| Study::new(game)),
            workspace: Workspace::Play,
            human,
            cursor: None,
            keys_help: false,
            copy_text: None,
            editor: None,
            game_list: None,
            board,
            side_panel: SidePanel::default(),
            repaint,
            notices,
            dialog,
            engine_offer: None,
            note: None,
            hints: Hints::default(),
            book: None,
            book_job: None,
            tournament: TournamentView::default(),
            tuning: TuningView::default(),
            learning,
            tables: None,
            files,
            pieces: None,
            screenshot: screenshot.map(|path| Screenshot { path, requested: false, done: Arc::default() }),
            frames: 0,
            last_save: Duration::ZERO,
            shown_log: ShownLog::from_env(),
        };
        let first = NewGameRequest::against(human, SeatChoice::Kibitz, app.level, GameRecord::new());
        app.play = app.new_table(&first);
        app
    }

    /// The game shown: the Play game, or the studied one.
    #[must_use]
    pub fn game(&self) -> &GameRecord {
        self.table().game()
    }

    /// The workspace shown.
    #[must_use]
    pub fn workspace(&self) -> Workspace {
        self.workspace
    }

    /// The table of the workspace shown.
    fn table(&self) -> &Table {
        match (&self.study, self.workspace) {
            (Some(study), Workspace::Study) => &study.table,
            _ => &self.play,
        }
    }

    /// The table of the workspace shown, to edit its game.
    fn table_mut(&mut self) -> &mut Table {
        match (&mut self.study, self.workspace) {
            (Some(study), Workspace::Study) => &mut study.table,
            _ => &mut self.play,
        }
    }

    /// The move shown in the workspace shown (`None`: the end of the game).
    fn cursor(&self) -> Option<NodeId> {
        match (&self.study, self.workspace) {
            (Some(study), Workspace::Study) => study.cursor,
            _ => self.cursor,
        }
    }

    /// Shows another move of the workspace's game.
    fn set_cursor(&mut self, to: Option<NodeId>) {
        match (&mut self.study, self.workspace) {
            (Some(study), Workspace::Study) => study.cursor = to,
            _ => self.cursor = to,
        }
    }

    /// The player's colour.
    #[must_use]
    pub fn human(&self) -> Color {
        self.human
    }

    /// The engine's strength in this game.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// Whether the engine is searching for its move.
    #[must_use]
    pub fn is_thinking(&self) -> bool {
        self.play.is_thinking()
    }

    /// The reply Kibitz ponders on in the game being played, if it ponders now.
    #[must_use]
    pub fn pondering_on(&self) -> Option<shakmaty::Move> {
        self.play.pondering_on(!self.human)
    }

    /// Whether the board is shown from Black's side.
    #[must_use]
    pub fn is_flipped(&self) -> bool {
        self.board.flipped
    }

    /// The messages shown to the player.
    #[must_use]
    pub fn notices(&self) -> &[String] {
        &self.notices
    }

    /// The ply on the board.
    #[must_use]
    pub fn viewing(&self) -> usize {
        self.table().game().node(self.current()).map_or(self.table().game().len(), |n| n.ply())
    }

    /// The move shown on the board.
    #[must_use]
    pub fn current(&self) -> NodeId {
        self.cursor()
            .filter(|&id| self.table().game().node(id).is_some())
            .unwrap_or_else(|| self.table().game().main_end())
    }

    /// Whether the app is in a study (an opened game) rather than a game against Kibitz.
    #[must_use]
    pub fn is_study(&self) -> bool {
        self.workspace == Workspace::Study
    }

    /// Drains engine and file events: the one place where background results enter.
    fn drain_events(&mut self) {
        for news in self.play.drain() {
            match news {
                News::Searched { side, ply, search } => {
                    if self.kibitz_plays(side) {
                        self.learning.engine_moved(ply, search);
                    }
                }
                News::Game(event) => self.game_event(event),
            }
        }
        if let Some(study) = self.study.as_mut() {
            study.analysis.drain();
        }
        self.hints.drain();
        self.poll_book_job();
        self.tournament.poll();
        self.tuning.poll();
        match self.learning.try_finish() {
            Some(Ok(learned)) if !learned.files.is_empty() => {
                for (path, bytes) in learned.files {
                    self.files.write(path, bytes);
                }
                self.send_learning();
                self.book_learned();
            }
            Some(Err(e)) => self.notices.push(format!("Kibitz could not learn from the game: {e}")),
            _ => {}
        }
        if let Some(Dialog::Engines(dialog)) = self.dialog.as_mut() {
            dialog.drain();
        }
        while let Some(event) = self.files.try_recv() {
            match event {
                FileEvent::Opened(path, Ok(game)) => {
                    let name = crate::book_files::file_name(&path);
                    self.open_study(game);
                    self.notices.push(format!(
                        "Opened {name} to study: moves you make become variations; \"Play from here\" plays Kibitz."
                    ));
                }
                FileEvent::Database(path) => self.game_list = Some(GameList::open(path)),
                FileEvent::Partial(game, message) => {
                    self.open_study(game);
                    self.notices.push(format!(
                        "The game is broken; it was read up to the last legal move. {message}"
                    ));
                }
                FileEvent::Opened(_, Err(e)) => {
                    self.notices.push(format!("The game could not be opened: {e}"))
                }
                FileEvent::Saved(path, Ok(())) => self.notices.push(format!("Saved to {}.", path.display())),
                FileEvent::Saved(path, Err(e)) => {
                    self.notices.push(format!("The game could not be saved to {}: {e}", path.display()));
                }
                FileEvent::WriteFailed(path, e) => {
                    self.notices.push(format!("Could not write {}: {e}", path.display()));
                }
                FileEvent::EnginePicked(path) => {
                    if let Some(Dialog::Engines(dialog)) = self.dialog.as_mut() {
                        dialog.add(path);
                    }
                }
                FileEvent::SuitePicked(path) => {
                    if let Some(Dialog::TestSuite(dialog)) = self.dialog.as_mut() {
                        dialog.path = path.display().to_string();
                    }
                }
                FileEvent::OpeningsPicked(path) => self.settings.tournament.openings = Some(path),
                FileEvent::TablebasesOpened { folder, tables, chosen } => {
                    self.take_tablebases(folder, tables, chosen);
                }
                FileEvent::TuningLogPicked(path) => self.tuning.open(path, Arc::clone(&self.repaint)),
            }
        }
    }

    /// Whether Kibitz's own engine plays `side` against the person (and so learns).
    fn kibitz_plays(&self, side: Color) -> bool {
        side != self.human
            && !self.play.is_engine(self.human)
            && self.play.seats.get(side).engine.as_ref().is_some_and(|e| e.builtin)
    }

    /// The name of the side's player as the player reads it.
    fn name(&self, side: Color) -> String {
        self.play.seats.get(side).name.clone()
    }

    /// Shows what happened in the game: a move, an offer, an answer, the end.
    fn game_event(&mut self, event: GameEvent) {
        match &event {
            GameEvent::Moved { .. } => {
                if self.workspace == Workspace::Play {
                    self.board.clear();
                }
                self.cursor = None;
                self.save_play();
            }
            GameEvent::GameOver { ending } => {
                self.play.stop();
                self.engine_offer = None;
                self.save_play();
                if self.workspace != Workspace::Play {
                    self.notices.push(format!("The game in Play is over: {ending}."));
                } else if matches!(self.dialog, None | Some(Dialog::ConfirmResign)) {
                    self.dialog = Some(Dialog::GameOver);
                }
            }
            // Between two engines nobody at the keyboard answers: their words are reported.
            _ if self.play.is_engine(self.human) && self.play.is_engine(!self.human) => {
                self.watched_words(event)
            }
            _ => self.player_words(event),
        }
    }

    /// Shows each of `events`.
    fn game_events(&mut self, events: Vec<GameEvent>) {
        for event in events {
            self.game_event(event);
        }
    }

    /// Offers, answers, claims, resignations and failures in a game the player plays: the
    /// engine's offer waits for an answer, the rest become notices or the game's note.
    fn player_words(&mut self, event: GameEvent) {
        let person = |side: Color| !self.play.is_engine(side);
        let because = |why: Option<String>| why.map(|w| format!(": {w}")).unwrap_or_default();
        match event {
            GameEvent::DrawOffered { side, why } if !person(side) => {
                self.engine_offer = Some(format!("{}: I offer a draw{}.", self.name(side), because(why)));
            }
            GameEvent::OfferNotSent { side } if person(side) => {
                self.notices
                    .push("You already offered a draw in this game; a draw may be offered once.".into());
            }
            GameEvent::DrawDeclined { side, why } if !person(side) => {
                self.notices.push(format!("{} declines your draw offer{}.", self.name(side), because(why)));
            }
            GameEvent::DrawDeclined { .. } => self.engine_offer = None,
            GameEvent::DrawAccepted { side, why } => {
                self.note = Some(if person(side) {
                    format!("You accepted {}'s draw offer.", self.name(!side))
                } else {
                    format!("{} accepts your draw offer{}.", self.name(side), because(why))
                });
            }
            GameEvent::DrawClaimed { side, rule, why } => {
                self.note = Some(if person(side) {
                    format!("You claimed a draw by {}.", rule.describe())
                } else {
                    format!("{} claims a draw by {}{}.", self.name(side), rule.describe(), because(why))
                });
            }
            GameEvent::Resigned { side, why } => {
                self.note = Some(if person(side) {
                    "You resigned.".into()
                } else {
                    format!("{}: I resign: {}.", self.name(side), why.unwrap_or_default())
                });
            }
            GameEvent::PlayerFailed { failure, .. } => {
                let text = failure.to_string();
                self.notices.push(text.clone());
                self.note = Some(text);
            }
            GameEvent::Adjudicated { why } => self.note = Some(format!("Adjudicated: {why}.")),
            _ => {}
        }
    }

    /// The same in a game between two engines, told to the watcher under the engines' names:
    /// offers and answers as notices, the rest as the game's note.
    fn watched_words(&mut self, event: GameEvent) {
        // "Black declines ..." becomes "Stockfish declines ...".
        let text = event.to_string();
        let text = match event.side() {
            Some(side) => {
                let colour = if side == Color::White { "White" } else { "Black" };
                match text.strip_prefix(colour) {
                    Some(rest) => format!("{}{rest}", self.name(side)),
                    None => text,
                }
            }
            None => text,
        };
        match event {
            GameEvent::DrawOffered { .. }
            | GameEvent::DrawDeclined { .. }
            | GameEvent::OfferNotSent { .. } => {
                self.notices.push(format!("{text}."));
            }
            _ => self.note = Some(format!("{text}.")),
        }
    }

    /// Starts the engine when it is its turn.
    fn maybe_start_engine(&mut self) {
        if matches!(self.dialog, Some(Dialog::Resume { .. })) {
            return;
        }
        self.play.start_search();
    }

    fn stop_engine(&mut self) {
        self.play.stop();
    }

    /// Whether the Play game is over.
    fn game_finished(&self) -> bool {
        self.play.conductor.is_over()
    }

    /// The player's move on the board or typed: in a study it is added at the move shown (a
    /// new variation unless it is already there); in a game it is played.
    fn board_move(&mut self, m: Move) {
        if self.workspace == Workspace::Play {
            let side = self.play.game().position().turn();
            match self.play.conductor.person_move(side, m) {
                Ok(events) => {
                    self.note_hint();
                    self.game_events(events);
                }
                Err(e) => self.notices.push(format!("Move refused: {e}")),
            }
            return;
        }
        let at = self.current();
        let replacing = self
            .study
            .as_mut()
            .filter(|_| self.workspace == Workspace::Study)
            .and_then(|s| s.replacing.take());
        match crate::force::play(self.table_mut().conductor.game_mut(), replacing, at, m) {
            Ok(id) => {
                self.set_cursor(Some(id));
                self.board.clear();
                self.side_panel.comment.clear();
                self.save_study();
            }
            Err(e) => self.side_panel.move_error = Some(e.to_string()),
        }
    }

    /// Saves the Play game, on this thread: it is in its file before the frame that shows its
    /// last move is painted, so that no move seen is lost if Kibitz is killed (see
    /// `docs/RELIABILITY.md`). The file is small; writing it takes microseconds, and the disk
    /// flush is left to the writer thread.
    fn save_play(&mut self) {
        let mut saved = SavedGame::new(self.play.game(), self.human, self.level);
        // A game between two engines comes back as a study of its moves.
        saved.study = self.play.is_engine(self.human);
        let opponent = self.play.seats.get(!self.human);
        if opponent.engine.as_ref().is_some_and(|e| !e.builtin) {
            saved.opponent = Some(opponent.name.clone());
        }
        let started = Instant::now();
        self.write_session(self.paths.current_game_file(), &saved);
        self.last_save = started.elapsed();
    }

    /// Saves the studied game, in its own file, so that the Play game and the study are both
    /// kept.
    fn save_study(&mut self) {
        let Some(study) = &self.study else { return };
        let mut saved = SavedGame::new(study.table.game(), self.human, self.level);
        saved.study = true;
        self.write_session(self.paths.study_file(), &saved);
    }

    /// Saves the game of the workspace shown.
    fn save_shown(&mut self) {
        match (&self.study, self.workspace) {
            (Some(_), Workspace::Study) => self.save_study(),
            _ => self.save_play(),
        }
    }

    fn write_session(&mut self, path: PathBuf, saved: &SavedGame) {
        if let Err(e) = self.files.write_now(path.clone(), &saved.to_json()) {
            self.notices.push(format!("Could not write {}: {e}", path.display()));
        }
    }

    /// A table for a new game: its seats as requested, the clock and the engines' manners
    /// of the settings. The player's clock is the first of the settings' controls, every
    /// engine's the second.
    fn new_table(&self, request: &NewGameRequest) -> Table {
        let mut game = request.game.clone();
        let person = |side: Color| *request.seats.get(side) == SeatChoice::Player;
        let clock = self.settings.clock.controls().map(|(player, engine)| {
            let control = |side: Color| if person(side) { player.clone() } else { engine.clone() };
            Clock::new(control(Color::White), control(Color::Black))
        });
        if let Some(clock) = &clock {
            let (white, black) = (clock.control(Color::White).to_pgn(), clock.control(Color::Black).to_pgn());
            if white == black {
                game.set_tag("TimeControl", &white);
            } else {
                // Time odds: PGN's tag holds one control, so each side's is kept in its own.
                game.set_tag("WhiteTimeControl", &white);
                game.set_tag("BlackTimeControl", &black);
            }
        }
        let timed = clock.as_ref().is_some_and(Clock::is_timed);
        let seats = request.seats.clone().map(|choice| match choice {
            SeatChoice::Player => Seat::person("You"),
            SeatChoice::Kibitz => self.kibitz_seat(request.level, timed),
            SeatChoice::Engine(name) => self.external_seat(&name, timed),
        });
        let policies =
            request.seats.clone().map(|c| (c != SeatChoice::Player).then(|| self.settings.policy.clone()));
        let mut conductor = Conductor::new(game, clock, policies);
        if !person(Color::White) && !person(Color::Black) {
            // Engines need no first move to settle in: their clocks run from the start.
            conductor.start_clock();
        }
        Table::new(conductor, seats)
    }

    /// Keeps the tables of a folder opened in the background. One the user just picked
    /// becomes the setting and is reported ("Tablebases: 70 files..."); a folder without
    /// tables is refused and the old one kept. Engines started from now on search with them.
    fn take_tablebases(&mut self, folder: PathBuf, tables: Result<Arc<SyzygyTables>, String>, chosen: bool) {
        match tables {
            Ok(tables) => {
                if chosen {
                    self.notices.push(format!(
                        "Tablebases: {} files, up to {} pieces, in {}.",
                        tables.files(),
                        tables.max_pieces(),
                        folder.display()
                    ));
                    self.settings.tablebases = Some(folder);
                }
                self.tables = Some(tables);
            }
            Err(e) => self.notices.push(e),
        }
    }

    /// The Syzygy tables engines search with: those of the folder the settings name, once
    /// opened.
    fn tablebases(&self) -> Option<Arc<SyzygyTables>> {
        self.settings.tablebases.as_ref().and(self.tables.clone())
    }

    /// Kibitz's own engine at `level`, with its book and what it learned; on the game's clock
    /// (`timed`), or within the level's limits for a game without one.
    fn kibitz_seat(&self, level: Level, timed: bool) -> Seat {
        let repaint = Arc::clone(&self.repaint);
        // The tables play perfect endings: for full strength only.
        let tables = self.tablebases().filter(|_| level == Level::Full);
        let handle = crate::engine_choice::spawn_kibitz(tables, repaint);
        handle.send(Command::SetBook {
            book: self.learning.book(),
            settings: self.settings.book,
            seed: None,
        });
        handle.send(self.learning.command());
        handle.send(Command::SetDrawScore(self.settings.policy.contempt));
        handle.set_level(level);
        let base = if timed { SearchLimits::default() } else { level.limits() };
        Seat::engine("Kibitz", EngineSeat::new(Box::new(handle), base, true).pondering(self.settings.ponder))
    }

    /// A configured external engine, started now; it searches within the clock, or for
    /// [`EXTERNAL_MOVE_TIME`] a move when the game has none.
    fn external_seat(&self, name: &str, timed: bool) -> Seat {
        let Some(config) = self.settings.engine(name).cloned() else {
            // `start` replaces engines that are not configured; this is only a safe fallback.
            return self.kibitz_seat(Level::default(), timed);
        };
        let repaint = Arc::clone(&self.repaint);
        let player = ExternalEngine::spawn(config, move || repaint());
        let base = if timed { SearchLimits::default() } else { SearchLimits::movetime(EXTERNAL_MOVE_TIME) };
        Seat::engine(name, EngineSeat::new(Box::new(player), base, false))
    }

    fn start(&mut self, mut request: NewGameRequest) {
        self.stop_engine();
        // An engine that is no longer configured (a resumed game) is replaced by Kibitz.
        for side in [Color::White, Color::Black] {
            if let SeatChoice::Engine(name) = request.seats.get(side)
                && self.settings.engine(name).is_none()
            {
                self.notices
                    .push(format!("The engine {name} is no longer in your list; Kibitz plays instead."));
                *request.seats.get_mut(side) = SeatChoice::Kibitz;
            }
        }
        self.human = request.human;
        self.level = request.level;
        self.play = self.new_table(&request);
        self.workspace = Workspace::Play;
        self.cursor = None;
        self.board.clear();
        self.board.flipped = self.human == Color::Black;
        self.dialog = self.play.game().ending().is_some().then_some(Dialog::GameOver);
        self.side_panel.move_error = None;
        self.learning.new_game();
        self.hints.new_game();
        self.engine_offer = None;
        self.note = None;
        self.settings.level = request.level;
        self.settings.flipped = self.board.flipped;
        self.save_play();
    }

    /// Opens a game to study: browse, annotate, add variations; Kibitz does not play.
    /// The Play game, if any, goes on in its own workspace.
    fn open_study(&mut self, game: GameRecord) {
        let mut study = Study::new(game);
        if let Some(old) = self.study.take() {
            // The engines keep analysing, now the new game's position.
            study.analysis = old.analysis;
        }
        self.study = Some(study);
        self.show_workspace(Workspace::Study);
        self.board.clear();
        self.side_panel.move_error = None;
        if matches!(self.dialog, Some(Dialog::GameOver)) {
            self.dialog = None;
        }
        self.save_study();
    }

    /// Switches workspace. A game against a person's clock is paused while the player is
    /// away from Play, and runs again on return.
    fn show_workspace(&mut self, workspace: Workspace) {
        if workspace == self.workspace {
            return;
        }
        let person_plays = !self.play.is_engine(self.human);
        let live = !self.game_finished();
        if let Some(clock) = self.play.conductor.clock_mut().filter(|_| person_plays && live) {
            match workspace {
                Workspace::Play => clock.resume(),
                _ => clock.pause(),
            }
        }
        if self.workspace == Workspace::Study
            && let Some(study) = self.study.as_mut()
        {
            study.analysis.pause();
        }
        self.workspace = workspace;
        self.board.clear();
        self.follow_analysis();
        self.open_book_view();
    }

    fn can_move(&self) -> bool {
        let blocked = self.editor.is_some() || self.game_list.is_some() || self.dialog.is_some();
        if self.is_study() {
            return !blocked;
        }
        self.cursor.is_none()
            && !blocked
            && !self.game_finished()
            && !self.play.is_engine(self.play.game().position().turn())
    }

    /// Gives Kibitz's engine the book to play from, how it chooses, and what was learned.
    fn send_learning(&self) {
        let book = self.learning.book();
        let settings = self.settings.book;
        self.play.send_engines(|e| {
            e.builtin.then(|| Command::SetBook { book: book.clone(), settings, seed: None })
        });
        self.play.send_engines(|e| e.builtin.then(|| self.learning.command()));
    }
}

impl eframe::App for KibitzApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }

    fn on_exit(&mut self) {
        if let Some(running) = &self.tournament.running {
            running.cancel();
        }
        if self.settings != self.saved_settings
            && let Err(e) = kibitz_engine::write_atomic(&self.paths.settings_file(), &self.settings.to_json())
        {
            eprintln!("kibitz: could not save settings: {e}");
        }
    }
}
