//! What the panels ask the app to do. Panels only report actions; the app applies them in one
//! place, after drawing.

use shakmaty::Color;

use kibitz_engine::{GameRecord, Level};

/// A request for a new game, validated by the dialog.
#[derive(Clone, Debug)]
pub struct NewGameRequest {
    /// The player's colour.
    pub human: Color,
    /// The engine's strength.
    pub level: Level,
    /// The start position (the initial one or a FEN's).
    pub game: GameRecord,
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
    /// Look at the position after this many plies; `None` returns to the live position.
    View(Option<usize>),
    /// Play a move typed by the player.
    PlayText(String),
    /// Resume the game saved at the last run.
    Resume,
    /// Decline to resume it.
    DiscardSaved,
    /// Close the game-over dialog.
    CloseGameOver,
    /// Dismiss a notice.
    DismissNotice(usize),
    /// Offer Kibitz a draw (it answers after its next search).
    OfferDraw,
    /// Ask for confirmation to resign.
    AskResign,
    /// Resign, confirmed.
    Resign,
    /// Close the resignation prompt without resigning.
    CancelResign,
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
    /// Close the clock settings.
    CloseClockSettings,
    /// Set the running clocks by hand: the player's time, then Kibitz's.
    CorrectClock(std::time::Duration, std::time::Duration),
}
