//! The tiebreaks' time controls (rule 3.c.iii of the TCEC Cup): the duel's own up to game
//! 32, then a step shorter with each pair.

use std::time::Duration;

use crate::TimeControl;

/// Rule 3.c.iii's steps after game 32, as fractions of the duel's own base time and
/// increment (TCEC's 30+5: 16+4, 8+3, 4+2, 2+1, 1+1, 32s+1, 16s+1, 8s+1, 4s+1, 2s+1, 1s+1).
const SHORTER: [(f64, f64); 11] = [
    (16.0 / 30.0, 4.0 / 5.0),
    (8.0 / 30.0, 3.0 / 5.0),
    (4.0 / 30.0, 2.0 / 5.0),
    (2.0 / 30.0, 1.0 / 5.0),
    (1.0 / 30.0, 1.0 / 5.0),
    (32.0 / 1800.0, 1.0 / 5.0),
    (16.0 / 1800.0, 1.0 / 5.0),
    (8.0 / 1800.0, 1.0 / 5.0),
    (4.0 / 1800.0, 1.0 / 5.0),
    (2.0 / 1800.0, 1.0 / 5.0),
    (1.0 / 1800.0, 1.0 / 5.0),
];

/// Games after which the tiebreak controls shorten (rule 3.c.iii).
const FULL_CONTROL_GAMES: usize = 32;

/// The duel's time control for the tiebreak pair played after `games` games: the duel's
/// own until game 32, then each pair a step shorter (rule 3.c.iii), scaled from TCEC's 30+5
/// to the duel's clock. Other controls (depth, nodes, a fixed time) stay.
#[must_use]
pub fn tiebreak_control(control: &TimeControl, games: usize) -> TimeControl {
    let TimeControl::Clock { stages, increment } = control else { return control.clone() };
    if games < FULL_CONTROL_GAMES {
        return control.clone();
    }
    let step = ((games - FULL_CONTROL_GAMES) / 2).min(SHORTER.len() - 1);
    let (base, inc) = SHORTER[step];
    let mut stages = stages.clone();
    for stage in &mut stages {
        stage.time = stage.time.mul_f64(base).max(Duration::from_millis(100));
    }
    TimeControl::Clock { stages, increment: increment.mul_f64(inc) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::Stage;

    #[test]
    fn tiebreak_controls_shorten_from_game_33_scaled_from_30_plus_5() {
        let tcec = TimeControl::Clock {
            stages: vec![Stage { moves: None, time: Duration::from_secs(1800) }],
            increment: Duration::from_secs(5),
        };
        assert_eq!(tiebreak_control(&tcec, 30), tcec, "up to game 32 the duel's own");
        let at = |games| match tiebreak_control(&tcec, games) {
            TimeControl::Clock { stages, increment } => (stages[0].time.as_secs(), increment.as_secs()),
            other => panic!("{other:?}"),
        };
        assert_eq!(at(32), (16 * 60, 4), "16+4");
        assert_eq!(at(34), (8 * 60, 3), "8+3");
        assert_eq!(at(40), (60, 1), "1+1");
        assert_eq!(at(42), (32, 1), "32s+1");
        assert_eq!(at(500), (1, 1), "1s+1 until a decisive pair");
        assert_eq!(tiebreak_control(&TimeControl::Depth(3), 40), TimeControl::Depth(3), "depth stays");
    }
}
