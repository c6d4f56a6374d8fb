//! One frame of the app's UI: `frame` lays out the workspace tabs, the side panel, the
//! analysis panel, the board (or the Tuning, Tournament, game list or editor view) and the
//! dialogs, then applies what they asked; with the keys, pasted text, the saved settings and
//! the `--screenshot` it handles each frame.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use egui::{Key, Ui};
use kibitz_engine::{GameRecord, Nag, NodeId};
use shakmaty::Color;

use super::KibitzApp;
use super::analysis::board_with_bar;
use crate::action::{Action, AnalysisAction};
use crate::analysis_panel::AnalysisPanel;
use crate::board::{BoardView, board_ui};
use crate::board_editor::EditorEvent;
use crate::board_marks::{Arrow, Mark};
use crate::book_view::{BookView, Shelf};
use crate::dialog::Dialog;
use crate::game_list::GameListEvent;
use crate::hint::{HintShown, HintSource};
use crate::move_tree::{KEY_NAGS, navigate};
use crate::pieces::PieceTextures;
use crate::side_panel::{EngineLine, PanelModel};
use crate::workspace::{Workspace, workspace_tabs};

impl KibitzApp {
    /// One frame of the whole UI.
    pub fn frame(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        self.frames += 1;
        if self.frames == 2 && std::env::var_os("KIBITZ_TRACE_STARTUP").is_some() {
            eprintln!("kibitz: first frame shown {} ms after start", crate::process_uptime().as_millis());
        }
        let pieces = self.pieces.get_or_insert_with(|| PieceTextures::load(&ctx));
        let _ = pieces;
        self.drain_events();
        let flag = self.play.conductor.check_flag();
        self.game_events(flag);
        self.maybe_start_engine();
        if let Some(tick) = self.play.conductor.clock().and_then(crate::clock_view::next_tick) {
            ctx.request_repaint_after(tick);
        }

        let mut actions = Vec::new();
        self.handle_keys(&ctx, &mut actions);

        let (current, viewing, study, live, interactive) = (
            self.current(),
            self.viewing(),
            self.is_study(),
            !self.is_study() && !self.game_finished() && !matches!(self.dialog, Some(Dialog::Resume { .. })),
            self.can_move(),
        );
        let cursor = self.cursor();
        let replacing = self.study.as_ref().filter(|_| study).and_then(|s| s.replacing);
        // The table shown, borrowed field by field so that the panels can be drawn beside it.
        let has_study = self.study.is_some();
        let (table, mut analysis) = match (&mut self.study, self.workspace) {
            (Some(s), Workspace::Study) => (&s.table, Some(&mut s.analysis)),
            _ => (&self.play, None),
        };
        let seats = &table.seats;
        let lines: Vec<EngineLine<'_>> = [Color::White, Color::Black]
            .into_iter()
            .map(|c| seats.get(c))
            .filter(|seat| seat.engine.is_some())
            .map(|seat| EngineLine {
                name: &seat.name,
                line: seat.line.as_deref(),
                said: seat.said.as_deref(),
            })
            .collect();
        let tablebases = self.settings.tablebases.clone();
        let model = PanelModel {
            game: table.game(),
            current,
            study,
            viewing,
            human: self.human,
            names: [seats.white.name.as_str(), seats.black.name.as_str()],
            lines,
            watching: self.play.is_engine(self.human),
            notices: &self.notices,
            clock: table.conductor.clock(),
            warn: Duration::from_secs(self.settings.clock.warn_seconds),
            live,
            claimable: table.game().claimable(),
            engine_offer: self.engine_offer.as_deref(),
            offer_pending: self.play.conductor.standing_offer() == Some(self.human),
            hints: (!study && !self.play.is_engine(self.human)).then(|| {
                let allowed = self.settings.hints_per_game;
                (self.hints.left(allowed), allowed)
            }),
            hint: if study { None } else { self.hints.words(table.game().position_at_node(current)) },
            tablebases: tablebases.as_deref(),
            ponder: self.settings.ponder,
        };
        egui::Panel::top("workspaces").show(ui, |ui| {
            workspace_tabs(ui, self.workspace, has_study, &mut actions);
        });
        egui::Panel::right("side-panel").resizable(true).default_size(340.0).min_size(260.0).show(ui, |ui| {
            if self.workspace == Workspace::Tuning {
                crate::side_panel::notices_ui(ui, &self.notices, &mut actions);
                actions.extend(self.tuning.side_ui(ui).map(Action::Tuning));
                return;
            }
            if self.workspace == Workspace::Tournament {
                crate::side_panel::notices_ui(ui, &self.notices, &mut actions);
                let settings = &mut self.settings;
                let form = self.tournament.form_ui(
                    ui,
                    &mut settings.tournament,
                    &settings.engines,
                    &mut settings.tablebases,
                );
                actions.extend(form.map(Action::Tournament));
                return;
            }
            match self.book.as_mut().filter(|_| self.workspace == Workspace::Book) {
                Some(book) => {
                    crate::side_panel::notices_ui(ui, &self.notices, &mut actions);
                    let shelf = Shelf {
                        playing: self.learning.book_file(),
                        recent: &self.settings.recent_books,
                        busy: self.book_job.as_ref().map(|r| r.what.as_str()),
                    };
                    if let Some(request) = book.ui(ui, &mut self.settings.book, &shelf) {
                        actions.push(Action::Book(request));
                    }
                }
                None => self.side_panel.ui(ui, &model, &mut actions),
            }
        });

        if self.workspace == Workspace::Tournament && self.tournament.is_running() {
            // The clocks of the live boards run between the runner's news.
            ctx.request_repaint_after(Duration::from_millis(100));
        }
        if let Some(analysis) = analysis.as_deref_mut() {
            egui::Panel::bottom("analysis").resizable(true).default_size(150.0).min_size(60.0).show(
                ui,
                |ui| {
                    egui::ScrollArea::vertical()
                        .auto_shrink([false, false])
                        .show(ui, |ui| analysis.ui(ui, &self.settings.engines, &mut actions));
                },
            );
        }
        // While two engines play, the board shows the move the one to move is considering;
        // in a study, the analysis's lines.
        let arrows: Vec<Arrow> = match table.considered() {
            Some((m, score)) if cursor.is_none() && self.play.is_engine(self.human) => {
                vec![Arrow::from_move(&m, Arrow::BEST, Some(score))]
            }
            _ => analysis.as_deref().map(AnalysisPanel::arrows).unwrap_or_default(),
        };
        // The evaluation bar, while analysis is on: the first engine's best line.
        let bar = analysis
            .as_deref()
            .filter(|a| a.is_on())
            .map(|a| a.lead().and_then(|l| l.best()).map(|line| line.white_score));
        let in_book = self.book.as_ref().filter(|_| self.workspace == Workspace::Book);
        let position = in_book.map_or_else(|| table.game().position_at_node(current), BookView::position);
        let arrows = in_book.map_or(arrows, |b| b.arrows(&self.settings.book));
        let (marks, arrows) = match self.hints.shown(position).filter(|_| !study) {
            Some(HintShown::Piece(square)) => (vec![Mark { square, color: Mark::NOTE }], arrows),
            Some(HintShown::Move(m, source)) => {
                let color = if source == HintSource::Book { Arrow::BOOK } else { Arrow::BEST };
                (Vec::new(), vec![Arrow::from_move(&m, color, None)])
            }
            None => (Vec::new(), arrows),
        };
        let view = BoardView {
            position,
            last_move: if in_book.is_some() { None } else { table.game().node(current).and_then(|n| n.mv()) },
            interactive: interactive || in_book.is_some(),
            arrows: &arrows,
            marks: &marks,
        };
        let mut played = None;
        let mut edited = None;
        let mut listed = None;
        egui::CentralPanel::default().show(ui, |ui| {
            if self.workspace == Workspace::Tuning {
                self.tuning.ui(ui);
            } else if self.workspace == Workspace::Tournament {
                if let Some(pieces) = &self.pieces {
                    actions.extend(self.tournament.ui(ui, pieces).map(Action::Tournament));
                }
            } else if let Some(list) = self.game_list.as_mut() {
                listed = list.ui(ui);
            } else if let Some(pieces) = &self.pieces {
                match self.editor.as_mut() {
                    Some(editor) => edited = editor.ui(ui, pieces),
                    None => {
                        crate::force::replace_banner(ui, table.game(), replacing, &mut actions);
                        crate::eval_graph::eval_graph_panel(ui, table.game(), current, &mut actions);
                        played = match bar {
                            Some(score) => board_with_bar(ui, &mut self.board, &view, pieces, score),
                            None => board_ui(ui, &mut self.board, &view, pieces),
                        };
                    }
                }
            }
        });
        match listed {
            Some(GameListEvent::Loaded(game)) => {
                self.game_list = None;
                self.open_study(*game);
            }
            Some(GameListEvent::Partial(game, message)) => {
                self.game_list = None;
                self.open_study(*game);
                self.notices
                    .push(format!("The game is broken; it was read up to the last legal move. {message}"));
            }
            Some(GameListEvent::Error(e)) => self.notices.push(e),
            Some(GameListEvent::Closed) => self.game_list = None,
            None => {}
        }
        match edited {
            Some(EditorEvent::Done(position)) => {
                self.editor = None;
                self.open_study(GameRecord::from_position(position));
            }
            Some(EditorEvent::Cancelled) => self.editor = None,
            None => {}
        }
        if let Some((arrow, notches)) = self.board.take_wheel()
            && let Some(book) = self.book.as_mut().filter(|_| self.workspace == Workspace::Book)
        {
            book.nudge(arrow, notches, &self.settings.book);
        }
        if let Some(m) = played {
            match self.book.as_mut().filter(|_| self.workspace == Workspace::Book) {
                Some(book) => book.play(m),
                None => self.board_move(m),
            }
        }

        if let Some(dialog) = self.dialog.as_mut() {
            dialog.ui(&ctx, self.play.game(), self.note.as_deref(), &mut actions);
        }

        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        for path in dropped {
            self.files.open_path(path);
        }
        let pasted = ctx.input(|i| {
            i.events.iter().find_map(|e| match e {
                egui::Event::Paste(text) => Some(text.clone()),
                _ => None,
            })
        });
        if let Some(text) = pasted.filter(|_| !ctx.egui_wants_keyboard_input() && self.dialog.is_none()) {
            self.paste(&text);
        }
        for action in actions {
            self.apply(action);
        }
        self.follow_analysis();
        if let Some(text) = self.copy_text.take() {
            ctx.copy_text(text);
        }
        if self.keys_help {
            crate::prompts::keys_ui(&ctx, &mut self.keys_help);
        }
        if self.game_finished() && self.kibitz_plays(!self.human) {
            self.learning.after_game(self.play.game(), !self.human, &self.repaint);
        }
        self.persist_settings(&ctx);
        self.take_screenshot(&ctx);
        if let Some(log) = self.shown_log.as_mut().filter(|_| self.workspace == Workspace::Play) {
            log.shown(self.play.game(), self.last_save);
        }
    }

    fn handle_keys(&mut self, ctx: &egui::Context, actions: &mut Vec<Action>) {
        if ctx.egui_wants_keyboard_input()
            || self.dialog.is_some()
            || self.editor.is_some()
            || self.game_list.is_some()
            || self.board.is_promoting()
        {
            return;
        }
        if self.book_keys(ctx) {
            return;
        }
        let game = self.table().game();
        let at = self.current();
        let study = self.is_study();
        ctx.input(|i| {
            if i.key_pressed(Key::F) {
                actions.push(Action::Flip);
            }
            let go = |id: NodeId| Action::GoTo(Some(id));
            if i.key_pressed(Key::ArrowLeft) {
                let to = if i.modifiers.shift {
                    navigate::out_of_variation(game, at)
                } else {
                    navigate::back(game, at)
                };
                actions.push(go(to));
            }
            if i.key_pressed(Key::ArrowRight) {
                actions.push(go(navigate::forward(game, at)));
            }
            if i.key_pressed(Key::ArrowUp) {
                actions.push(go(navigate::previous_fork(game, at)));
            }
            if i.key_pressed(Key::ArrowDown) {
                actions.push(go(navigate::next_fork(game, at)));
            }
            if i.key_pressed(Key::Home) {
                actions.push(go(NodeId::ROOT));
            }
            if i.key_pressed(Key::End) {
                actions.push(if study { go(game.line_end(at)) } else { Action::GoTo(None) });
            }
            if !study && i.key_pressed(Key::H) {
                actions.push(Action::Hint);
            }
            if study && i.key_pressed(Key::A) {
                actions.push(Action::Analysis(AnalysisAction::Toggle));
            }
            if study && i.key_pressed(Key::Space) {
                actions.push(Action::Analysis(AnalysisAction::PlayBest));
            }
            if i.key_pressed(Key::Questionmark)
                || i.events.iter().any(|e| matches!(e, egui::Event::Text(t) if t == "?"))
            {
                actions.push(Action::ToggleKeys);
            }
            if study && at != NodeId::ROOT {
                let keys = [Key::Num1, Key::Num2, Key::Num3, Key::Num4, Key::Num5, Key::Num6];
                for (key, n) in keys.into_iter().zip(KEY_NAGS) {
                    if i.key_pressed(key) {
                        actions.push(Action::ToggleNag(at, Nag(n)));
                    }
                }
            }
        });
    }

    /// Reads pasted text: a FEN starts a study of that position, a PGN opens the game.
    fn paste(&mut self, text: &str) {
        if let Ok(game) = GameRecord::from_fen(text) {
            self.open_study(game);
            return;
        }
        match kibitz_engine::read_pgn(text) {
            Ok(game) if !game.is_empty() || game.start_fen().is_some() => self.open_study(game),
            Ok(_) => self.notices.push("The pasted text is neither a FEN nor a PGN game.".into()),
            Err(e) => self.notices.push(format!("The pasted text is neither a FEN nor a readable PGN: {e}")),
        }
    }

    /// Saves settings that changed, at most once a second.
    fn persist_settings(&mut self, ctx: &egui::Context) {
        if let Some(rect) = ctx.input(|i| i.viewport().inner_rect) {
            self.settings.window_size = [rect.width().round(), rect.height().round()];
        }
        if self.settings == self.saved_settings {
            return;
        }
        let due = self.last_settings_write.is_none_or(|t| t.elapsed() >= Duration::from_secs(1));
        if due {
            self.files.write(self.paths.settings_file(), self.settings.to_json());
            self.saved_settings = self.settings.clone();
            self.last_settings_write = Some(Instant::now());
        } else {
            ctx.request_repaint_after(Duration::from_secs(1));
        }
    }

    fn take_screenshot(&mut self, ctx: &egui::Context) {
        let Some(shot) = self.screenshot.as_mut() else { return };
        if shot.done.load(Ordering::Acquire) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        } else if !shot.requested && self.frames >= 10 {
            shot.requested = true;
            let (path, done, repaint) = (shot.path.clone(), shot.done.clone(), ctx.clone());
            let callback = egui::ScreenshotCallback::new(move |image| {
                let [w, h] = image.size;
                let bytes: Vec<u8> = image.pixels.iter().flat_map(|c| c.to_array()).collect();
                if let Some(img) = image::RgbaImage::from_raw(w as u32, h as u32, bytes)
                    && let Err(e) = img.save(&path)
                {
                    eprintln!("kibitz: could not save the screenshot to {}: {e}", path.display());
                }
                done.store(true, Ordering::Release);
                repaint.request_repaint();
            });
            ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(callback));
        } else {
            ctx.request_repaint();
        }
    }
}
