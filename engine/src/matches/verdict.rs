//! How a game ended, in cutechess-cli's words: `White mates`, `Black loses on time`,
//! `Draw by 3-fold repetition`, `White disconnects`, `Black makes an illegal move: e2e5`.

use shakmaty::{Color, KnownOutcome};

use crate::conductor::GameEvent;
use crate::runner::Remark;
use crate::{Ending, FailureKind, Termination};

/// The ending of a game in a few words, with the failure or the arbiter's rule that decided
/// it when there was one.
#[must_use]
pub fn verdict(ending: Option<Ending>, remarks: &[Remark]) -> String {
    let Some(ending) = ending else { return "No result".to_owned() };
    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
    let (winner, loser) = match ending.outcome {
        KnownOutcome::Decisive { winner } => (name(winner), name(!winner)),
        KnownOutcome::Draw => ("", ""),
    };
    let decisive = matches!(ending.outcome, KnownOutcome::Decisive { .. });
    let failure = remarks.iter().find_map(|r| match &r.event {
        GameEvent::PlayerFailed { failure, .. } => Some(failure),
        _ => None,
    });
    let adjudicated = remarks.iter().find_map(|r| match &r.event {
        GameEvent::Adjudicated { why } => Some(why.as_str()),
        _ => None,
    });
    match ending.termination {
        Termination::Checkmate => format!("{winner} mates"),
        Termination::Stalemate => "Draw by stalemate".to_owned(),
        Termination::InsufficientMaterial => "Draw by insufficient mating material".to_owned(),
        Termination::ThreefoldRepetition => "Draw by 3-fold repetition".to_owned(),
        Termination::FivefoldRepetition => "Draw by 5-fold repetition".to_owned(),
        Termination::FiftyMoveRule => "Draw by fifty moves rule".to_owned(),
        Termination::SeventyFiveMoveRule => "Draw by seventy-five moves rule".to_owned(),
        Termination::Resignation => format!("{loser} resigns"),
        Termination::Agreement => "Draw by agreement".to_owned(),
        Termination::TimeForfeit => format!("{loser} loses on time"),
        Termination::TimeoutVsInsufficientMaterial => "Draw by timeout vs insufficient material".to_owned(),
        Termination::Adjudication => {
            let rule = adjudicated.map(|why| format!(": {why}")).unwrap_or_default();
            if decisive {
                format!("{winner} wins by adjudication{rule}")
            } else {
                format!("Draw by adjudication{rule}")
            }
        }
        Termination::RulesInfraction => match failure.map(|f| &f.kind) {
            Some(FailureKind::IllegalMove { sent, .. }) => format!("{loser} makes an illegal move: {sent}"),
            _ => format!("{loser} makes an illegal move"),
        },
        Termination::Abandoned => match failure.map(|f| &f.kind) {
            Some(FailureKind::Crashed(_)) => format!("{loser} disconnects"),
            Some(FailureKind::Hung(what)) => format!("{loser}'s connection stalls ({what})"),
            Some(FailureKind::CouldNotStart(why)) => format!("{loser} could not be started: {why}"),
            Some(FailureKind::NoProtocol) => format!("{loser} does not speak UCI or xboard"),
            Some(FailureKind::Panicked(_)) => format!("{loser}'s search failed"),
            _ => format!("{loser} abandons the game"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PlayerFailure;

    fn failed(kind: FailureKind) -> Vec<Remark> {
        let failure = PlayerFailure { engine: "X".into(), kind, last_lines: vec![] };
        vec![Remark {
            ply: 3,
            fen: String::new(),
            event: GameEvent::PlayerFailed { side: Color::Black, failure },
        }]
    }

    #[test]
    fn endings_are_told_as_cutechess_tells_them() {
        assert_eq!(verdict(Some(Ending::win(Color::White, Termination::Checkmate)), &[]), "White mates");
        assert_eq!(
            verdict(Some(Ending::win(Color::Black, Termination::TimeForfeit)), &[]),
            "White loses on time"
        );
        assert_eq!(
            verdict(Some(Ending::draw(Termination::ThreefoldRepetition)), &[]),
            "Draw by 3-fold repetition"
        );
        let illegal = failed(FailureKind::IllegalMove { sent: "e2e5".into(), fen: String::new() });
        assert_eq!(
            verdict(Some(Ending::win(Color::White, Termination::RulesInfraction)), &illegal),
            "Black makes an illegal move: e2e5"
        );
        let crash = failed(FailureKind::Crashed(None));
        assert_eq!(
            verdict(Some(Ending::win(Color::White, Termination::Abandoned)), &crash),
            "Black disconnects"
        );
        let adjudicated = vec![Remark {
            ply: 9,
            fen: String::new(),
            event: GameEvent::Adjudicated { why: "the limit".into() },
        }];
        assert_eq!(
            verdict(Some(Ending::draw(Termination::Adjudication)), &adjudicated),
            "Draw by adjudication: the limit"
        );
        assert_eq!(verdict(None, &[]), "No result");
    }
}
