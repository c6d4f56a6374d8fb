//! The app's action dispatch: `apply` does what an [`Action`] from the panels, dialogs or keys
//! asks, with the helpers only it uses (starting or resuming a game, taking back, editing the
//! shown game, playing a typed move).

use std::sync::Arc;

use kibitz_engine::{GameRecord, LearnFlags, pgn_date_today, write_pgn};
use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position};

use super::KibitzApp;
use crate::action::{Action, NewGameRequest, SeatChoice};
use crate::annotate_dialog::AnnotateDialog;
use crate::board_editor::BoardEditor;
use crate::clock_settings::ClockDialog;
use crate::dialog::Dialog;
use crate::engines_panel::EnginesDialog;
use crate::eval_breakdown::ScoreDialog;
use crate::learning_settings::{LearningChoices, LearningDialog};
use crate::new_game::NewGameDialog;
use crate::policy_settings::PolicyDialog;
use crate::tags_panel::TagsDialog;
use crate::test_suite::TestSuiteDialog;
use crate::tuning_view::TuningRequest;

impl KibitzApp {
    /// Does what one action from the UI (a button, a menu, a key, a dialog) asks.
    pub(super) fn apply(&mut self, action: Action) {
        match action {
            Action::ShowWorkspace(workspace) => self.show_workspace(workspace),
            Action::Analysis(action) => self.apply_analysis(action),
            Action::Book(request) => self.book_request(request),
            Action::Tournament(request) => self.tournament_request(request),
            Action::Tuning(TuningRequest::Open) => self.files.pick_tuning_log(),
            Action::Tuning(TuningRequest::UsePolicy(policy)) => self.apply(Action::SetPolicy(policy)),
            Action::Hint => self.hint(),
            Action::ShowNewGame => self.dialog = Some(Dialog::NewGame(NewGameDialog::new(&self.settings))),
            Action::CloseDialog => {
                if let Some(Dialog::NewGame(dialog)) = &self.dialog {
                    self.settings.color = dialog.color;
                }
                self.dialog = None;
            }
            Action::NewGame(request) => self.new_game(request),
            Action::TakeBack => self.take_back(),
            Action::Flip => {
                self.board.flipped = !self.board.flipped;
                self.settings.flipped = self.board.flipped;
            }
            Action::OpenGame => self.files.open_game(),
            Action::SaveGame => {
                let date = self.table().game().tag("Date").unwrap_or("game").replace(['.', '?'], "");
                self.files.save_game(write_pgn(self.table().game()), format!("kibitz-{date}.pgn"));
            }
            Action::GoTo(id) => {
                let keep = id.filter(|&id| id != self.table().game().main_end() || self.is_study());
                self.set_cursor(keep);
                self.side_panel.comment = self
                    .table()
                    .game()
                    .node(self.current())
                    .map(|n| n.comment().to_string())
                    .unwrap_or_default();
            }
            Action::Promote(id) => self.edit(|g| {
                g.promote_variation(id);
            }),
            Action::Demote(id) => self.edit(|g| {
                g.demote_variation(id);
            }),
            Action::MakeMain(id) => self.edit(|g| g.promote_to_main(id)),
            Action::DeleteVariation(id) => {
                let parent = self.table().game().node(id).and_then(|n| n.parent());
                self.edit(|g| {
                    g.delete_variation(id);
                });
                self.set_cursor(parent);
            }
            Action::DeleteAfter(id) => self.edit(|g| g.delete_after(id)),
            Action::ToggleNag(id, nag) => self.edit(|g| {
                if g.node(id).is_some_and(|n| n.nags().contains(&nag)) {
                    g.remove_nag(id, nag);
                } else {
                    g.add_nag(id, nag);
                }
            }),
            Action::SetComment(id, text) => {
                if self.table().game().node(id).is_some_and(|n| n.comment() != text.trim()) {
                    self.edit(|g| g.set_comment(id, &text));
                }
            }
            Action::CopyFen => {
                let fen = Fen::from_position(
                    self.table().game().position_at_node(self.current()),
                    EnPassantMode::Legal,
                );
                self.copy_text = Some(fen.to_string());
            }
            Action::CopyPgn => self.copy_text = Some(write_pgn(self.table().game())),
            Action::SavePosition => {
                let pos = self.table().game().position_at_node(self.current()).clone();
                self.files.save_position(pos);
            }
            Action::PlayFromHere => self.play_from_here(),
            Action::ToggleKeys => self.keys_help = !self.keys_help,
            Action::ShowPolicySettings => {
                self.dialog = Some(Dialog::Policy(PolicyDialog::new(&self.settings.policy)))
            }
            Action::SetPolicy(policy) => {
                self.settings.policy = policy;
                self.dialog = None;
                self.notices.push("The new draw and resign settings apply from the next game.".into());
            }
            Action::ShowLearningSettings => {
                let s = &self.settings;
                let choices = LearningChoices {
                    own_book: s.own_book,
                    flags: LearnFlags::from_bits(s.learn),
                    postbook: s.postbook,
                    book: s.book,
                };
                self.dialog = Some(Dialog::Learning(LearningDialog::new(choices, self.learning.summary())));
            }
            Action::SetLearning(choices) => {
                self.settings.own_book = choices.own_book;
                self.settings.learn = choices.flags.bits();
                self.settings.postbook = choices.postbook;
                self.settings.book = choices.book.sanitized();
                self.learning.configure(&self.settings);
                self.send_learning();
                self.dialog = None;
            }
            Action::ClearLearned => {
                for (path, bytes) in self.learning.clear() {
                    self.files.write(path, bytes);
                }
                self.send_learning();
                if let Some(Dialog::Learning(dialog)) = self.dialog.as_mut() {
                    dialog.summary = self.learning.summary();
                }
                self.notices.push("Kibitz forgot everything it had learned from its games.".into());
            }
            Action::ShowEngines => {
                let dialog = EnginesDialog::new(self.settings.engines.clone(), Arc::clone(&self.repaint));
                self.dialog = Some(Dialog::Engines(dialog));
            }
            Action::BrowseEngine => self.files.pick_engine(),
            Action::PickTablebases => self.files.pick_tablebases(),
            Action::SetPonder(on) => {
                self.settings.ponder = on;
                self.play.set_pondering(on);
            }
            Action::ShowTestSuite => {
                let dialog = TestSuiteDialog::new(self.settings.engines.clone(), Arc::clone(&self.repaint));
                self.dialog = Some(Dialog::TestSuite(dialog));
            }
            Action::BrowseSuite => self.files.pick_suite(),
            Action::StudyPosition(game) => self.open_study(game),
            Action::ShowAnnotate => {
                let game = self.table().game().clone();
                let dialog =
                    AnnotateDialog::new(game, self.settings.engines.clone(), Arc::clone(&self.repaint))
                        .with_tablebases(self.tablebases());
                self.dialog = Some(Dialog::Annotate(dialog));
            }
            Action::SetEngines(engines) => {
                self.settings.engines = engines;
                self.dialog = None;
            }
            Action::SetUpPosition => {
                let mut editor = BoardEditor::new(self.table().game().position_at_node(self.current()));
                editor.set_flipped(self.board.flipped);
                self.editor = Some(editor);
            }
            Action::PlayText(text) => self.play_text(&text),
            Action::Resume => self.resume_saved(),
            Action::DiscardSaved => {
                self.dialog = Some(Dialog::NewGame(NewGameDialog::new(&self.settings)));
            }
            Action::DismissNotice(i) => {
                if i < self.notices.len() {
                    self.notices.remove(i);
                }
            }
            Action::OfferDraw => {
                let events = self.play.conductor.offer_draw(self.human);
                self.game_events(events);
            }
            Action::AskResign => self.dialog = Some(Dialog::ConfirmResign),
            Action::Resign => {
                self.dialog = None;
                let events = self.play.conductor.resign(self.human);
                self.game_events(events);
            }
            Action::ClaimDraw => match self.play.conductor.claim_draw(self.human) {
                Ok(events) => self.game_events(events),
                Err(e) => self.notices.push(e.to_string()),
            },
            Action::AcceptDraw => {
                let events = self.play.conductor.accept_draw(self.human);
                self.game_events(events);
            }
            Action::DeclineDraw => {
                let events = self.play.conductor.decline_draw(self.human);
                self.game_events(events);
                self.engine_offer = None;
            }
            Action::ToggleClock => {
                if let Some(clock) = self.play.conductor.clock_mut() {
                    if clock.is_paused() { clock.resume() } else { clock.pause() }
                }
            }
            Action::ShowClockSettings => {
                self.dialog = Some(Dialog::Clock(ClockDialog::new(&self.settings.clock)))
            }
            Action::SetClock(clock) => {
                self.settings.clock = clock;
                self.dialog = None;
                self.notices.push("The new clock applies from the next game.".into());
            }
            Action::ShowTags => self.dialog = Some(Dialog::Tags(TagsDialog::new(self.table().game()))),
            Action::SetTags(tags) => {
                self.dialog = None;
                self.edit(|g| crate::tags_panel::set_tags(g, &tags));
            }
            Action::ShowScore => {
                let engines = self.settings.engines.clone();
                let wake = Arc::clone(&self.repaint);
                self.dialog =
                    Some(Dialog::Score(ScoreDialog::new(self.table().game(), self.current(), engines, wake)))
            }
            Action::ReplaceMove(id) => self.study.iter_mut().for_each(|s| s.replace_next(id)),
            Action::CancelReplace => self.study.iter_mut().for_each(|s| s.replacing = None),
            Action::CorrectClock(player, engine) => {
                self.dialog = None;
                match self.play.conductor.clock_mut() {
                    Some(clock) => {
                        clock.set_remaining(self.human, player);
                        clock.set_remaining(!self.human, engine);
                    }
                    None => self.notices.push("This game has no clock to set.".into()),
                }
            }
        }
    }

    /// Starts the game the New game dialog asked for, keeping the dialog's choices for next
    /// time and naming the players in the game's tags.
    fn new_game(&mut self, mut request: NewGameRequest) {
        if let Some(Dialog::NewGame(dialog)) = self.dialog.take() {
            self.settings.color = dialog.color;
            self.settings.opponent = dialog.opponent.clone();
            self.settings.watch = dialog.watch.clone();
            self.settings.hints_per_game = dialog.hints;
        }
        let level = request.level;
        let name = |choice: &SeatChoice| match choice {
            SeatChoice::Player => "Player".to_string(),
            SeatChoice::Kibitz => format!("Kibitz ({})", level.label()),
            SeatChoice::Engine(name) => name.clone(),
        };
        let (white, black) = (name(&request.seats.white), name(&request.seats.black));
        let game = &mut request.game;
        game.set_tag("Event", "Kibitz game");
        game.set_tag("Date", &pgn_date_today());
        game.set_tag("Round", "-");
        game.set_tag("White", &white);
        game.set_tag("Black", &black);
        self.start(request);
    }

    /// Resumes the saved game the Resume prompt offered: a game against an engine goes on in
    /// Play, a watched game (or an old study) opens as the study.
    fn resume_saved(&mut self) {
        if let Some(Dialog::Resume { game, saved }) = self.dialog.take() {
            if saved.study {
                // The Play file held a game watched between engines (or a study saved
                // before studies had their own file): it is the study now.
                self.open_study(game);
                let _ = std::fs::remove_file(self.paths.current_game_file());
            } else {
                let opponent = saved.opponent.clone().map_or(SeatChoice::Kibitz, SeatChoice::Engine);
                self.start(NewGameRequest::against(saved.human(), opponent, saved.level, game));
                self.hints.resume(self.play.game());
            }
        }
    }

    /// Takes back the last full move: moves are removed until one of the player's moves is
    /// gone and it is the player's turn again.
    fn take_back(&mut self) {
        self.stop_engine();
        let game = self.play.game();
        let mut removed_own = false;
        let mut plies = 0;
        while plies < game.len() {
            let mover = game.position_at(game.len() - plies - 1).turn();
            plies += 1;
            removed_own |= mover == self.human;
            if removed_own && game.position_at(game.len() - plies).turn() == self.human {
                break;
            }
        }
        self.play.conductor.take_back(plies);
        self.learning.take_back(self.play.game().len());
        self.engine_offer = None;
        self.note = None;
        self.cursor = None;
        self.board.clear();
        self.dialog = None;
        self.save_play();
    }

    /// Edits the game (a study's annotations or variations) and saves it.
    fn edit(&mut self, change: impl FnOnce(&mut GameRecord)) {
        change(self.table_mut().conductor.game_mut());
        self.save_shown();
    }

    /// Leaves a study (or the history of a game) to play Kibitz from the position shown: on
    /// the main line the moves after it are dropped; from a variation a new game starts.
    fn play_from_here(&mut self) {
        let id = self.current();
        let mut game = self.table().game().clone();
        if game.is_main_line(id) {
            let ply = game.node(id).map_or(game.len(), |n| n.ply());
            game.truncate(ply);
        } else {
            game = GameRecord::from_position(game.position_at_node(id).clone());
        }
        game.set_tag("Result", "*");
        let human = game.position().turn();
        self.start(NewGameRequest::against(human, SeatChoice::Kibitz, self.level, game));
    }

    fn play_text(&mut self, text: &str) {
        if !self.can_move() {
            self.side_panel.move_error = Some(if self.game_finished() {
                "The game is over.".into()
            } else if self.cursor().is_some() {
                "Return to the current position first (End).".into()
            } else {
                "It is not your turn.".into()
            });
            return;
        }
        match self.table().game().parse_move_at(self.current(), text) {
            Ok(m) => {
                self.side_panel.move_error = None;
                self.board_move(m);
            }
            Err(e) => self.side_panel.move_error = Some(e.to_string()),
        }
    }
}
