//! Who plays whom, with which colours and which opening: the fixtures of a match, a gauntlet
//! or a round robin, known in full before the first game (a knockout's, which depend on the
//! results, are made round by round: see [`super::run_knockout`]).
//!
//! Every encounter of two engines is played in game pairs: both games of a pair start from
//! the same opening with the colours reversed (TCEC's rule 4). A round gives every encounter
//! `games` games, and every encounter of a round plays the same openings, so that each engine
//! meets the same positions.

use std::fmt;

/// How the engines meet.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Two engines against each other.
    Match,
    /// The first engine against each of the others.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
    // A knockout (TCEC Cup) is not a format of `schedule`: its fixtures depend on the
    // results, so `run_knockout` hands them to the runner round by round.
}

impl Format {
    /// The encounters: pairs of engine indices, the first playing White in the first game of
    /// each pair.
    #[must_use]
    pub fn encounters(self, engines: usize) -> Vec<(usize, usize)> {
        match self {
            Format::Match => vec![(0, 1)],
            Format::Gauntlet => (1..engines).map(|j| (0, j)).collect(),
            Format::RoundRobin => (0..engines).flat_map(|i| (i + 1..engines).map(move |j| (i, j))).collect(),
        }
    }
}

/// One game to play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fixture {
    /// Its number in the whole event, from 1, in the order of the schedule.
    pub number: usize,
    /// The round, from 1.
    pub round: usize,
    /// Its number within the round, from 1.
    pub game: usize,
    /// The index of the encounter (see [`Format::encounters`]).
    pub encounter: usize,
    /// White's engine index.
    pub white: usize,
    /// Black's engine index.
    pub black: usize,
    /// The index of the opening (in a knockout: the pair's number within its duel); the two
    /// games of a pair share it.
    pub opening: usize,
    /// In a knockout, the duel's number within its round, from 1 (`None` otherwise).
    pub duel: Option<usize>,
}

impl Fixture {
    /// The game pair it belongs to: its encounter and opening. The two games of a pair have
    /// the same key and reversed colours (pentanomial statistics count pairs).
    #[must_use]
    pub fn pair(&self) -> (usize, usize) {
        (self.encounter, self.opening)
    }

    /// The PGN `Round` tag that names it: `round.game` (`3.2`), in a knockout
    /// `round.duel.game` (`2.1.9`: round 2, its first duel, the duel's ninth game).
    #[must_use]
    pub fn round_tag(&self) -> String {
        match self.duel {
            Some(duel) => format!("{}.{duel}.{}", self.round, self.game),
            None => format!("{}.{}", self.round, self.game),
        }
    }
}

/// Why a schedule cannot be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    /// Fewer than two engines, or a match of other than two.
    Engines {
        /// The format asked for.
        format: Format,
        /// How many engines were given.
        count: usize,
    },
    /// No round or no game.
    Nothing,
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::Engines { format: Format::Match, count } => {
                write!(f, "a match is between two engines, not {count}")
            }
            ScheduleError::Engines { count, .. } => {
                write!(f, "a tournament needs two engines or more, not {count}")
            }
            ScheduleError::Nothing => {
                write!(f, "there is no game to play: give one round and one game or more")
            }
        }
    }
}

impl std::error::Error for ScheduleError {}

/// Every fixture, round by round; within a round, encounter by encounter, the two games of
/// each pair one after the other.
///
/// # Errors
/// [`ScheduleError`] when the format does not fit the number of engines, or there is no game.
pub fn schedule(
    format: Format,
    engines: usize,
    rounds: usize,
    games: usize,
) -> Result<Vec<Fixture>, ScheduleError> {
    if engines < 2 || (format == Format::Match && engines != 2) {
        return Err(ScheduleError::Engines { format, count: engines });
    }
    if rounds == 0 || games == 0 {
        return Err(ScheduleError::Nothing);
    }
    let encounters = format.encounters(engines);
    let mut fixtures = Vec::with_capacity(rounds * games * encounters.len());
    for round in 1..=rounds {
        let mut game = 0;
        for (encounter, &(first, second)) in encounters.iter().enumerate() {
            for k in 0..games {
                // Counted over the whole event, so that an odd number of games per round
                // still alternates colours and pairs games across rounds.
                let g = (round - 1) * games + k;
                let (white, black) = if g.is_multiple_of(2) { (first, second) } else { (second, first) };
                game += 1;
                fixtures.push(Fixture {
                    number: fixtures.len() + 1,
                    round,
                    game,
                    encounter,
                    white,
                    black,
                    opening: g / 2,
                    duel: None,
                });
            }
        }
    }
    Ok(fixtures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_share_an_opening_with_the_colours_reversed() {
        let fixtures = schedule(Format::Match, 2, 3, 2).expect("a match");
        assert_eq!(fixtures.len(), 6);
        for pair in fixtures.chunks(2) {
            assert_eq!(pair[0].pair(), pair[1].pair());
            assert_eq!((pair[0].white, pair[0].black), (pair[1].black, pair[1].white));
        }
        let openings: Vec<usize> = fixtures.iter().map(|f| f.opening).collect();
        assert_eq!(openings, [0, 0, 1, 1, 2, 2]);
        assert_eq!(fixtures[3].round_tag(), "2.2");
        assert_eq!(
            Fixture { duel: Some(3), ..fixtures[3] }.round_tag(),
            "2.3.2",
            "a knockout's round.duel.game"
        );
        assert_eq!(fixtures.iter().map(|f| f.number).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn one_game_a_round_alternates_colours_and_pairs_rounds() {
        let fixtures = schedule(Format::Match, 2, 4, 1).expect("a match");
        let seen: Vec<(usize, usize)> = fixtures.iter().map(|f| (f.white, f.opening)).collect();
        assert_eq!(seen, [(0, 0), (1, 0), (0, 1), (1, 1)]);
    }

    #[test]
    fn gauntlets_and_round_robins_meet_the_right_engines() {
        let gauntlet = schedule(Format::Gauntlet, 4, 1, 2).expect("a gauntlet");
        assert_eq!(gauntlet.len(), 6);
        assert!(gauntlet.iter().all(|f| f.white == 0 || f.black == 0));
        let robin = schedule(Format::RoundRobin, 4, 2, 2).expect("a round robin");
        assert_eq!(robin.len(), 6 * 2 * 2);
        // Each engine plays each other engine once with each colour per round.
        for i in 0..4 {
            for j in (0..4).filter(|&j| j != i) {
                let n = robin.iter().filter(|f| f.round == 1 && f.white == i && f.black == j).count();
                assert_eq!(n, 1, "{i} against {j}");
            }
        }
        // Every encounter of a round plays the same openings.
        assert!(robin.iter().filter(|f| f.round == 2).all(|f| f.opening == 1));
    }

    #[test]
    fn impossible_schedules_are_refused() {
        assert_eq!(
            schedule(Format::Match, 3, 1, 2),
            Err(ScheduleError::Engines { format: Format::Match, count: 3 })
        );
        assert!(schedule(Format::RoundRobin, 1, 1, 2).is_err());
        assert_eq!(schedule(Format::Gauntlet, 3, 0, 2), Err(ScheduleError::Nothing));
    }
}
