//! How a tuning game ended, read from the runner's [`Remark`]s: who offered a draw and what
//! the answer was, who resigned, who won and by what kind of ending. This is what the
//! replacement rules look at and what the log keeps of each game.

use serde::{Deserialize, Serialize};
use shakmaty::{Color, KnownOutcome};

use crate::conductor::GameEvent;
use crate::runner::Remark;
use crate::{Ending, Termination};

/// A side, as the log writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Seat {
    fn from(c: Color) -> Seat {
        match c {
            Color::White => Seat::White,
            Color::Black => Seat::Black,
        }
    }
}

impl Seat {
    /// The winner of a game that ended as `outcome`; `None` for a draw.
    #[must_use]
    pub fn winner(outcome: KnownOutcome) -> Option<Seat> {
        match outcome {
            KnownOutcome::Decisive { winner } => Some(winner.into()),
            KnownOutcome::Draw => None,
        }
    }

    /// The other side.
    #[must_use]
    pub fn other(self) -> Seat {
        match self {
            Seat::White => Seat::Black,
            Seat::Black => Seat::White,
        }
    }

    /// A score from White's side, `white_cp`, as this side sees it.
    #[must_use]
    pub fn sees(self, white_cp: i32) -> i32 {
        match self {
            Seat::White => white_cp,
            Seat::Black => -white_cp,
        }
    }
}

/// The kinds of ending the rules and the summaries tell apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HowEnded {
    /// The players agreed to a draw.
    Agreement,
    /// Drawn by a rule: repetition, the fifty-move rule, stalemate, dead position, the move
    /// limit.
    Rule,
    /// A side resigned.
    Resignation,
    /// Checkmate.
    Mate,
    /// A side lost on time.
    Time,
    /// Anything else that decides a game (an engine failed, an arbiter's win rule).
    Other,
}

impl HowEnded {
    /// The kind of `ending`.
    #[must_use]
    pub fn of(ending: Ending) -> HowEnded {
        match (ending.outcome, ending.termination) {
            (_, Termination::Agreement) => HowEnded::Agreement,
            (_, Termination::Resignation) => HowEnded::Resignation,
            (_, Termination::Checkmate) => HowEnded::Mate,
            (_, Termination::TimeForfeit) => HowEnded::Time,
            (KnownOutcome::Draw, _) => HowEnded::Rule,
            (KnownOutcome::Decisive { .. }, _) => HowEnded::Other,
        }
    }
}

/// What became of a draw offer.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reply {
    /// Accepted: the game was drawn.
    Accepted,
    /// Declined (rejected).
    Declined,
    /// The game ended before an answer.
    Unanswered,
}

/// A draw offer of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// Who offered.
    pub side: Seat,
    /// The full-move number in the position where it stood.
    pub move_number: u32,
    /// What the other side did.
    pub reply: Reply,
    /// The game's moves played when it was made (0 in logs from before it was kept).
    #[serde(default)]
    pub ply: usize,
    /// How the game went on from the offer, when a declined offer was checked by playing
    /// on (see the `playout` module); `None` when it was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playout: Option<Playout>,
}

/// How a game ended, as the rules need it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finish {
    /// The winner; `None` for a draw.
    pub winner: Option<Seat>,
    /// The kind of ending.
    pub how: HowEnded,
    /// The draw offers, in order (one per side at most: the conductor sends no second one).
    pub offers: Vec<Offer>,
    /// Who resigned, if anyone.
    pub resigned: Option<Seat>,
    /// The plies played after the opening.
    pub plies: usize,
    /// How the game went on when an agreed draw or a resignation was checked by playing on
    /// (see the `playout` module); `None` when it was not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playout: Option<Playout>,
}

/// An agreed draw or a resignation checked by playing the game on from where it ended, the
/// same engine on both sides and neither offering nor resigning.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Playout {
    /// Who won the game played on; `None` for a draw.
    pub winner: Option<Seat>,
    /// The plies played on (0 for a referee's verdict).
    pub plies: usize,
    /// White's score, in centipawns, by the referee that judged the reading instead of
    /// playing it on (see [`super::referee`]); `None` for a game played on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// How the games went when the reading was played on more than once
    /// ([`Playout::majority`]); `None` for one game or a referee's verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tally: Option<Tally>,
}

/// The games a reading was played on in, counted by how they ended.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Won by White.
    pub white: u32,
    /// Won by Black.
    pub black: u32,
    /// Drawn.
    pub draws: u32,
}

impl Playout {
    /// The verdict of several games played on from one reading, each `(winner, plies)`: a
    /// side that won more than half of them won; otherwise the reading's position counts as
    /// drawn. With one game it is that game. `None` for no games (every one failed).
    #[must_use]
    pub fn majority(games: &[(Option<Seat>, usize)]) -> Option<Playout> {
        let n = u32::try_from(games.len()).ok().filter(|&n| n > 0)?;
        let count =
            |seat: Option<Seat>| u32::try_from(games.iter().filter(|g| g.0 == seat).count()).unwrap_or(n);
        let tally =
            Tally { white: count(Some(Seat::White)), black: count(Some(Seat::Black)), draws: count(None) };
        let winner = if 2 * tally.white > n {
            Some(Seat::White)
        } else if 2 * tally.black > n {
            Some(Seat::Black)
        } else {
            None
        };
        let plies = games.iter().map(|g| g.1).sum::<usize>() / games.len();
        Some(Playout { winner, plies, score: None, tally: (n > 1).then_some(tally) })
    }
}

impl Finish {
    /// Reads `remarks` (in order, the last one [`GameEvent::GameOver`]) of a game that ended
    /// as `ending` after `plies` plies.
    #[must_use]
    pub fn read(ending: Ending, remarks: &[Remark], plies: usize) -> Finish {
        let mut offers: Vec<Offer> = Vec::new();
        let mut resigned = None;
        for r in remarks {
            match &r.event {
                GameEvent::DrawOffered { side, .. } => {
                    let move_number = fullmove(&r.fen);
                    offers.push(Offer {
                        side: (*side).into(),
                        move_number,
                        reply: Reply::Unanswered,
                        ply: r.ply,
                        playout: None,
                    });
                }
                GameEvent::DrawAccepted { side, .. } | GameEvent::DrawDeclined { side, .. } => {
                    let accepted = matches!(r.event, GameEvent::DrawAccepted { .. });
                    let offerer = Seat::from(*side).other();
                    if let Some(offer) =
                        offers.iter_mut().rev().find(|o| o.side == offerer && o.reply == Reply::Unanswered)
                    {
                        offer.reply = if accepted { Reply::Accepted } else { Reply::Declined };
                    }
                }
                GameEvent::Resigned { side, .. } => resigned = Some((*side).into()),
                _ => {}
            }
        }
        let winner = Seat::winner(ending.outcome);
        Finish { winner, how: HowEnded::of(ending), offers, resigned, plies, playout: None }
    }

    /// Whether the ending is a reading the tuner checks by playing on: an agreed draw or a
    /// resignation.
    #[must_use]
    pub fn is_reading(&self) -> bool {
        matches!(self.how, HowEnded::Agreement | HowEnded::Resignation)
    }

    /// The first declined offer that was checked by playing on, if any: under the check it
    /// decides the game's replacements (see [`super::replacement`]).
    #[must_use]
    pub fn judged_decline(&self) -> Option<&Offer> {
        self.offers.iter().find(|o| o.reply == Reply::Declined && o.playout.is_some())
    }

    /// The side whose offer was accepted, if any.
    #[must_use]
    pub fn accepted_offer(&self) -> Option<Seat> {
        self.offers.iter().find(|o| o.reply == Reply::Accepted).map(|o| o.side)
    }

    /// The sides that declined an offer.
    #[must_use]
    pub fn rejecters(&self) -> Vec<Seat> {
        self.offers.iter().filter(|o| o.reply == Reply::Declined).map(|o| o.side.other()).collect()
    }
}

/// The full-move number of a FEN (1 when it does not say).
fn fullmove(fen: &str) -> u32 {
    fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn remark(event: GameEvent, fen: &str) -> Remark {
        Remark { ply: 17, fen: fen.to_owned(), event }
    }

    #[test]
    fn offers_answers_and_resignations_are_read() {
        let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 23";
        let remarks = [
            remark(GameEvent::DrawOffered { side: Color::White, why: None }, fen),
            remark(GameEvent::DrawDeclined { side: Color::Black, why: None }, fen),
            remark(GameEvent::Resigned { side: Color::Black, why: None }, fen),
        ];
        let ending = Ending::win(Color::White, Termination::Resignation);
        let f = Finish::read(ending, &remarks, 40);
        assert_eq!(f.winner, Some(Seat::White));
        assert_eq!(f.how, HowEnded::Resignation);
        assert_eq!(
            f.offers,
            [Offer { side: Seat::White, move_number: 23, reply: Reply::Declined, ply: 17, playout: None }]
        );
        assert_eq!(f.rejecters(), [Seat::Black]);
        assert_eq!(f.resigned, Some(Seat::Black));
    }

    #[test]
    fn several_games_played_on_give_the_verdict_of_a_side_that_won_most_of_them() {
        let (w, b) = (Some(Seat::White), Some(Seat::Black));
        let verdict = |games: &[Option<Seat>]| {
            let games: Vec<_> = games.iter().map(|&g| (g, 30)).collect();
            Playout::majority(&games).map(|p| p.winner)
        };
        assert_eq!(verdict(&[w, w, None]), Some(w));
        assert_eq!(verdict(&[b, b, w]), Some(b));
        // No side won more than half: a position the two would not reliably win.
        assert_eq!(verdict(&[w, b, None]), Some(None));
        assert_eq!(verdict(&[w, b]), Some(None));
        assert_eq!(verdict(&[w, None, None]), Some(None));
        // One game is that game, and is not counted.
        let one = Playout::majority(&[(b, 12)]).expect("a verdict");
        assert_eq!((one.winner, one.plies, one.tally), (b, 12, None));
        // Several are, with their mean length.
        let three = Playout::majority(&[(w, 10), (None, 20), (w, 30)]).expect("a verdict");
        assert_eq!((three.plies, three.tally), (20, Some(Tally { white: 2, black: 0, draws: 1 })));
        // Every game failed: no verdict.
        assert_eq!(Playout::majority(&[]), None);
    }

    #[test]
    fn endings_fall_into_their_kinds() {
        let w = |t| HowEnded::of(Ending::win(Color::Black, t));
        let d = |t| HowEnded::of(Ending::draw(t));
        assert_eq!(w(Termination::Checkmate), HowEnded::Mate);
        assert_eq!(w(Termination::TimeForfeit), HowEnded::Time);
        assert_eq!(w(Termination::Abandoned), HowEnded::Other);
        assert_eq!(d(Termination::ThreefoldRepetition), HowEnded::Rule);
        assert_eq!(d(Termination::Adjudication), HowEnded::Rule);
        assert_eq!(d(Termination::TimeoutVsInsufficientMaterial), HowEnded::Rule);
        assert_eq!(d(Termination::Agreement), HowEnded::Agreement);
    }
}
