//! The one dialog open at a time. Every dialog reports what the user asked for as
//! [`Action`]s, which the app applies in one place after drawing; closing any of them is
//! [`Action::CloseDialog`].

use egui::Context;
use kibitz_engine::GameRecord;

use crate::action::Action;
use crate::annotate_dialog::{AnnotateDialog, AnnotateResult};
use crate::clock_settings::{ClockDialog, ClockDialogResult};
use crate::engines_panel::{EnginesDialog, EnginesResult};
use crate::eval_breakdown::ScoreDialog;
use crate::learning_settings::{LearningDialog, LearningDialogResult};
use crate::new_game::NewGameDialog;
use crate::policy_settings::{PolicyDialog, PolicyDialogResult};
use crate::prompts::{confirm_resign_ui, game_over_ui, resume_ui};
use crate::session::SavedGame;
use crate::tags_panel::{TagsDialog, TagsResult};
use crate::test_suite::{TestSuiteDialog, TestSuiteResult};

/// A modal dialog.
pub enum Dialog {
    /// Resume the game saved at the last run?
    Resume {
        /// The saved game, replayed.
        game: GameRecord,
        /// How it was saved.
        saved: SavedGame,
    },
    /// Choose colour, opponent and start position.
    NewGame(NewGameDialog),
    /// The clock settings.
    Clock(ClockDialog),
    /// The draw and resign settings.
    Policy(PolicyDialog),
    /// The learning and book settings.
    Learning(LearningDialog),
    /// The external engines.
    Engines(EnginesDialog),
    /// A test suite and its results (a window beside the board rather than a modal, so that
    /// its positions can be studied one after the other).
    TestSuite(TestSuiteDialog),
    /// Annotate the game shown ("Analyze game").
    Annotate(AnnotateDialog),
    /// Resign this game?
    ConfirmResign,
    /// The game is over: its result and why.
    GameOver,
    /// The study's tags.
    Tags(TagsDialog),
    /// The static evaluation of a position, term by term.
    Score(ScoreDialog),
}

impl Dialog {
    /// Shows the dialog over the window. `game` and `note` are the game at the board and why
    /// it ended, for the game-over dialog.
    pub fn ui(&mut self, ctx: &Context, game: &GameRecord, note: Option<&str>, actions: &mut Vec<Action>) {
        match self {
            Dialog::Resume { game, .. } => resume_ui(ctx, game, actions),
            Dialog::NewGame(dialog) => {
                // Starting a game closes the dialog by itself.
                if !dialog.ui(ctx, actions) && !matches!(actions.last(), Some(Action::NewGame(_))) {
                    actions.push(Action::CloseDialog);
                }
            }
            Dialog::Clock(dialog) => match dialog.ui(ctx) {
                ClockDialogResult::Open => {}
                ClockDialogResult::Cancel => actions.push(Action::CloseDialog),
                ClockDialogResult::Apply(clock) => actions.push(Action::SetClock(clock)),
                ClockDialogResult::Correct(player, engine) => {
                    actions.push(Action::CorrectClock(player, engine))
                }
            },
            Dialog::Policy(dialog) => match dialog.ui(ctx) {
                PolicyDialogResult::Open => {}
                PolicyDialogResult::Cancel => actions.push(Action::CloseDialog),
                PolicyDialogResult::Apply(policy) => actions.push(Action::SetPolicy(policy)),
            },
            Dialog::Learning(dialog) => match dialog.ui(ctx) {
                LearningDialogResult::Open => {}
                LearningDialogResult::Cancel => actions.push(Action::CloseDialog),
                LearningDialogResult::Apply(choices) => actions.push(Action::SetLearning(choices)),
                LearningDialogResult::Clear => actions.push(Action::ClearLearned),
            },
            Dialog::Engines(dialog) => match dialog.ui(ctx) {
                EnginesResult::Open => {}
                EnginesResult::Browse => actions.push(Action::BrowseEngine),
                EnginesResult::Save(engines) => actions.push(Action::SetEngines(engines)),
                EnginesResult::Cancel => actions.push(Action::CloseDialog),
            },
            Dialog::TestSuite(dialog) => match dialog.show(ctx) {
                TestSuiteResult::Open => {}
                TestSuiteResult::Browse => actions.push(Action::BrowseSuite),
                TestSuiteResult::Study(game) => actions.push(Action::StudyPosition(game)),
                TestSuiteResult::Close => actions.push(Action::CloseDialog),
            },
            Dialog::Annotate(dialog) => match dialog.show(ctx) {
                AnnotateResult::Open => {}
                AnnotateResult::Study(game) => actions.push(Action::StudyPosition(game)),
                AnnotateResult::Jump(node) => actions.push(Action::GoTo(Some(node))),
                AnnotateResult::Close => actions.push(Action::CloseDialog),
            },
            Dialog::ConfirmResign => confirm_resign_ui(ctx, actions),
            Dialog::GameOver => game_over_ui(ctx, game, note, actions),
            Dialog::Tags(dialog) => match dialog.ui(ctx) {
                TagsResult::Open => {}
                TagsResult::Cancel => actions.push(Action::CloseDialog),
                TagsResult::Apply(tags) => actions.push(Action::SetTags(tags)),
            },
            Dialog::Score(dialog) => {
                if !dialog.ui(ctx) {
                    actions.push(Action::CloseDialog);
                }
            }
        }
    }
}

/// A movable window over the side panel, leaving the board free (the test suite, the
/// annotation); returns `false` once its close button was clicked.
pub fn side_window(ctx: &Context, title: &str, width: f32, add_contents: impl FnOnce(&mut egui::Ui)) -> bool {
    let mut open = true;
    let right = ctx.content_rect().right();
    egui::Window::new(title)
        .open(&mut open)
        .default_pos([(right - width - 24.0).max(0.0), 40.0])
        .default_width(width)
        .resizable(true)
        .show(ctx, add_contents);
    open
}
