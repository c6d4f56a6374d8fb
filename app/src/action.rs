//! What the panels ask the app to do. Panels only report actions; the app applies them in one
//! place, after drawing.

use shakmaty::{ByColor, Color};

use kibitz_engine::{GameRecord, Level, Nag, NodeId};

/// Who plays a side in a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatChoice {
    /// The person at the keyboard.
    Player,
    /// Kibitz's own engine, at the request's level.
    Kibitz,
    /// A configured external engine, by its name in the settings.
    Engine(String),
}

/// A request for a new game, validated by the dialog.
#[derive(Clone, Debug)]
pub struct NewGameRequest {
    /// The player's colour (the side shown at the bottom when two engines play).
    pub human: Color,
    /// Kibitz's strength.
    pub level: Level,
    /// The start position (the initial one or a FEN's).
    pub game: GameRecord,
    /// Who plays White and Black.
    pub seats: ByColor<SeatChoice>,
}

impl NewGameRequest {
    /// The player (`human`) against `opponent`.
    #[must_use]
    pub fn against(human: Color, opponent: SeatChoice, level: Level, game: GameRecord) -> Self {
        let mut seats = ByColor::new_with(|_| SeatChoice::Player);
        *seats.get_mut(!human) = opponent;
        NewGameRequest { human, level, game, seats }
    }
}

/// A user's request.
#[derive(Clone, Debug)]
pub enum Action {
    /// Open the "New game" dialog.
    ShowNewGame,
    /// Start a new game.
    NewGame(NewGameRequest),
    /// Take back the last full move.
    TakeBack,
    /// Turn the board around.
    Flip,
    /// Open a PGN file.
    OpenGame,
    /// Save the game as PGN.
    SaveGame,
    /// Look at the position at this move; `None` returns to the game's current position.
    GoTo(Option<NodeId>),
    /// Move a variation one place up (to the main continuation if it is the second).
    Promote(NodeId),
    /// Move a variation one place down.
    Demote(NodeId),
    /// Make the line through this move the main line.
    MakeMain(NodeId),
    /// Delete this move and everything after it.
    DeleteVariation(NodeId),
    /// Delete everything after this move.
    DeleteAfter(NodeId),
    /// Add or remove an annotation glyph.
    ToggleNag(NodeId, Nag),
    /// Set the comment after a move.
    SetComment(NodeId, String),
    /// Copy the position's FEN to the clipboard.
    CopyFen,
    /// Copy the game's PGN to the clipboard.
    CopyPgn,
    /// Save the position as FEN or EPD (Crafty's `savepos`).
    SavePosition,
    /// Play against Kibitz from the position on the board.
    PlayFromHere,
    /// Show or hide the list of keys.
    ToggleKeys,
    /// Open the board editor on the position shown.
    SetUpPosition,
    /// Open the draw and resign settings.
    ShowPolicySettings,
    /// Use these draw and resign settings from the next game on.
    SetPolicy(kibitz_engine::policy::PolicySettings),
    /// Open the learning and book settings.
    ShowLearningSettings,
    /// Use these learning and book settings from now on.
    SetLearning(crate::learning_settings::LearningChoices),
    /// Forget everything Kibitz learned (confirmed by the player).
    ClearLearned,
    /// Play a move typed by the player.
    PlayText(String),
    /// Resume the game saved at the last run.
    Resume,
    /// Decline to resume it.
    DiscardSaved,
    /// Dismiss a notice.
    DismissNotice(usize),
    /// Offer Kibitz a draw (it answers after its next search).
    OfferDraw,
    /// Ask for confirmation to resign.
    AskResign,
    /// Resign, confirmed.
    Resign,
    /// Claim a draw by threefold repetition or the fifty-move rule.
    ClaimDraw,
    /// Accept Kibitz's draw offer.
    AcceptDraw,
    /// Decline Kibitz's draw offer.
    DeclineDraw,
    /// Stop or restart the clocks.
    ToggleClock,
    /// Open the clock settings.
    ShowClockSettings,
    /// Save new clock settings (they apply from the next game).
    SetClock(crate::clock_settings::ClockSettings),
    /// Show a workspace (Play, Study).
    ShowWorkspace(crate::workspace::Workspace),
    /// Close the open dialog without doing anything more.
    CloseDialog,
    /// Open the list of external engines.
    ShowEngines,
    /// Pick an engine program in the native file dialog.
    BrowseEngine,
    /// Keep this list of engines.
    SetEngines(Vec<kibitz_engine::EngineConfig>),
    /// Open the test suite window.
    ShowTestSuite,
    /// Choose the folder of the Syzygy tablebases in the native folder dialog.
    PickTablebases,
    /// Let Kibitz think on the player's time, or stop it.
    SetPonder(bool),
    /// Pick a test suite in the native file dialog.
    BrowseSuite,
    /// Open a position (of a test suite) in the Study workspace.
    StudyPosition(GameRecord),
    /// Set the running clocks by hand: the player's time, then Kibitz's.
    CorrectClock(std::time::Duration, std::time::Duration),
    /// Something for the study's analysis.
    Analysis(AnalysisAction),
    /// Open the "Analyze game" window for the game shown.
    ShowAnnotate,
    /// Something the Book workspace asks (save the edited book).
    Book(crate::book_view::BookRequest),
    /// A request of the Tournament workspace.
    Tournament(crate::tournament::TournamentRequest),
    /// A request of the Tuning workspace.
    Tuning(crate::tuning_view::TuningRequest),
    /// Ask for a hint (the first press shows the piece, the second the move).
    Hint,
    /// Open the study's tags editor.
    ShowTags,
    /// Give the study's game these tags (the roster stays).
    SetTags(Vec<(String, String)>),
    /// Show the static evaluation of the position on the board, term by term.
    ShowScore,
    /// Replace this move of the study with the next move made from the position before it.
    ReplaceMove(NodeId),
    /// Keep the move that was to be replaced.
    CancelReplace,
}

/// What the person asks of the study's analysis.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisAction {
    /// Turn analysis on or off (the A key).
    Toggle,
    /// Add an engine to the analysis.
    Add(crate::analysis_panel::AnalystSource),
    /// Remove the engine at this index.
    Remove(usize),
    /// Start the failed engine at this index again.
    Restart(usize),
    /// Play these moves from the position shown and show the last (a PV clicked up to a move).
    PlayLine(Vec<shakmaty::Move>),
    /// Add these moves from the position shown as a variation, staying where we are.
    AddLine(Vec<shakmaty::Move>),
    /// Play the first engine's best move (Space).
    PlayBest,
}
