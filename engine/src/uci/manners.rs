//! Kibitz's draw and resign manners over UCI. UCI cannot carry an offer or a resignation, so
//! after each move it plays Kibitz says what its policy would do, in an `info string` before
//! the `bestmove`. The policy remembers its scores for one game (until `ucinewgame`).

use shakmaty::{Chess, Color, Move, Position};

use crate::policy::{ClockView, Decision, Policy, PolicySettings, Situation};
use crate::{Score, SearchInfo, SearchLimits};

/// A search for a move to play, and its latest score.
struct PlaySearch {
    id: u64,
    pos: Chess,
    clock: Option<ClockView>,
    score: Option<Score>,
}

/// The policy of the game under way and the play search it will judge.
pub(super) struct Manners {
    policy: Policy,
    search: Option<PlaySearch>,
}

impl Manners {
    /// Manners for a new game.
    pub(super) fn new(settings: PolicySettings) -> Manners {
        Manners { policy: Policy::new(settings), search: None }
    }

    /// A play search `id` of `pos` starts (not an analysis, an infinite or a pondering one).
    pub(super) fn start(&mut self, id: u64, pos: Chess, limits: &SearchLimits) {
        let clock = clock_view(pos.turn(), limits);
        self.search = Some(PlaySearch { id, pos, clock, score: None });
    }

    /// A search report: the main line's exact score of the play search is kept.
    pub(super) fn record(&mut self, id: u64, info: &SearchInfo) {
        if let Some(search) = self.search.as_mut().filter(|s| s.id == id)
            && info.multipv == 1
            && info.bound.is_none()
        {
            search.score = Some(info.score);
        }
    }

    /// Search `id` chose `best`: the line saying what Kibitz would do, if anything. A move
    /// chosen without a score of its own (a book move) is not judged.
    pub(super) fn judge(&mut self, id: u64, best: Option<Move>) -> Option<String> {
        let search = self.search.take_if(|s| s.id == id)?;
        let best = best.filter(|&m| search.pos.is_legal(m))?;
        let situation = Situation::after(&search.pos, Some(best), search.score?, search.clock);
        match self.policy.decide(&situation) {
            Decision::Play => None,
            Decision::OfferDraw(why) => Some(format!("info string Kibitz would offer a draw: {why}")),
            Decision::Resign(why) => Some(format!("info string Kibitz would resign: {why}")),
        }
    }
}

/// The clocks of `go wtime .. btime ..` as the side to move sees them, when both are given.
fn clock_view(side: Color, limits: &SearchLimits) -> Option<ClockView> {
    let (own, opponent, opponent_increment) = match side {
        Color::White => (limits.wtime?, limits.btime?, limits.binc),
        Color::Black => (limits.btime?, limits.wtime?, limits.winc),
    };
    Some(ClockView {
        own,
        opponent,
        opponent_increment: opponent_increment.unwrap_or_default(),
        moves_to_go: limits.movestogo,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::policy::Rules;

    fn info(score: i32) -> SearchInfo {
        SearchInfo {
            depth: 5,
            seldepth: 5,
            multipv: 1,
            score: Score::Cp(score),
            bound: None,
            hashfull: 0,
            tbhits: 0,
            nodes: 1,
            nps: 1,
            time: Duration::ZERO,
            pv: Vec::new(),
        }
    }

    fn a3() -> Move {
        let pos = Chess::default();
        pos.legal_moves().into_iter().find(|m| m.to().to_string() == "a3").expect("a3 is legal")
    }

    #[test]
    fn a_level_score_under_the_dead_band_offers_once_a_game() {
        let mut settings = PolicySettings { rules: Rules::DeadBand, ..Default::default() };
        settings.dead_band.moves = 0;
        let mut manners = Manners::new(settings);
        manners.start(1, Chess::default(), &SearchLimits::default());
        manners.record(1, &info(5));
        let line = manners.judge(1, Some(a3())).expect("an offer");
        assert!(line.starts_with("info string Kibitz would offer a draw: my score"), "{line}");
        manners.start(2, Chess::default(), &SearchLimits::default());
        manners.record(2, &info(5));
        assert_eq!(manners.judge(2, Some(a3())), None, "one offer per game");
    }

    #[test]
    fn only_the_play_search_with_a_score_is_judged() {
        let mut settings = PolicySettings { rules: Rules::DeadBand, ..Default::default() };
        settings.dead_band.moves = 0;
        let mut manners = Manners::new(settings);
        manners.start(1, Chess::default(), &SearchLimits::default());
        manners.record(2, &info(5));
        assert_eq!(manners.judge(1, Some(a3())), None, "no score of its own: a book move");
        manners.record(1, &info(5));
        assert_eq!(manners.judge(1, Some(a3())), None, "judged once");
        assert_eq!(manners.judge(3, Some(a3())), None, "not a play search");
    }

    #[test]
    fn the_clock_is_seen_from_the_side_to_move() {
        let limits = SearchLimits {
            wtime: Some(Duration::from_secs(60)),
            btime: Some(Duration::from_secs(5)),
            binc: Some(Duration::from_secs(1)),
            movestogo: Some(7),
            ..Default::default()
        };
        let view = clock_view(Color::White, &limits).expect("both clocks");
        assert_eq!((view.own, view.opponent), (Duration::from_secs(60), Duration::from_secs(5)));
        assert_eq!((view.opponent_increment, view.moves_to_go), (Duration::from_secs(1), Some(7)));
        assert_eq!(clock_view(Color::Black, &SearchLimits { btime: None, ..limits }), None);
    }
}
