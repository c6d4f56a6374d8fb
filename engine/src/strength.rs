//! The strength model: how Kibitz plays below its full strength the way a weaker person does.
//!
//! A [`Strength`] is a setting on a nominal Elo scale (the [`Level`](crate::Level)s map their
//! measured ratings onto it). From the setting come
//!
//! - a horizon: a depth and a node count the search never goes beyond, so tactics deeper than
//!   that are missed;
//! - a share of the clock: the search sees that share of its remaining time and increment,
//!   so a weaker player spends less, by the game's clock, through the usual allotment;
//! - a choice among the good moves: the search looks at several lines (MultiPV) and the move
//!   is drawn among those within a margin of the best, weighted towards the best, the margin
//!   growing as the setting falls. A move outside the margin is never played, nor a move the
//!   search did not rank among its best lines.
//!
//! The draw comes from the caller's random number generator, so a seeded one makes the choice
//! reproducible.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use rand::Rng;
use shakmaty::{Chess, Move};

use crate::policy::score_cp;
use crate::{Engine, Listener, SearchInfo, SearchLimits, SearchOutcome};

/// The weakest setting of the model; lower ones are taken as this.
pub const MIN_SETTING: u32 = 400;
/// The strongest setting of the model; higher ones are taken as this.
pub const MAX_SETTING: u32 = 2400;

/// A playing strength below Kibitz's full strength: one setting of the model.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Strength {
    setting: u32,
}

impl Strength {
    /// The strength of `setting` on the model's nominal Elo scale, clamped to
    /// [`MIN_SETTING`]..=[`MAX_SETTING`].
    #[must_use]
    pub fn new(setting: u32) -> Strength {
        Strength { setting: setting.clamp(MIN_SETTING, MAX_SETTING) }
    }

    /// The setting, on the model's nominal Elo scale.
    #[must_use]
    pub fn setting(self) -> u32 {
        self.setting
    }

    /// Where the setting lies between the weakest (0) and the strongest (1).
    fn fraction(self) -> f64 {
        f64::from(self.setting - MIN_SETTING) / f64::from(MAX_SETTING - MIN_SETTING)
    }

    /// The deepest iteration searched, in plies: 1 at the bottom, 10 at the top. The depth,
    /// not the clock, is what binds at every level (10 plies take a few hundredths of a
    /// second), so that a level calibrated at 10+0.1 plays alike at 90+30; a deeper horizon
    /// at the top made the strongest levels players of the clock, as strong as each other.
    #[must_use]
    pub fn depth(self) -> u32 {
        1 + (self.fraction() * 9.0) as u32
    }

    /// The most nodes one move's search visits: 20,000 at the bottom (enough for its first
    /// iteration to rank all its lines), a million at the top, rising geometrically. With the
    /// depth, this is the horizon, so that a weak level plays alike at any time control;
    /// the strongest settings also meet the clock in fast games.
    #[must_use]
    pub fn nodes(self) -> u64 {
        (20_000.0 * 50f64.powf(self.fraction())) as u64
    }

    /// How many lines the search ranks to choose among: 6 at the bottom, 2 at the top.
    #[must_use]
    pub fn lines(self) -> u32 {
        6 - (self.fraction() * 4.0).round() as u32
    }

    /// How far below the best line, in centipawns, a line may score and still be chosen: 400
    /// at the bottom, 20 at the top, falling fastest at the bottom (a club player's
    /// inaccuracies are small, a beginner's are not).
    #[must_use]
    pub fn margin(self) -> i32 {
        20 + ((1.0 - self.fraction()).powi(2) * 380.0).round() as i32
    }

    /// The share of the clock the player sees, in percent: 25 at the bottom, 100 at the top.
    #[must_use]
    pub fn time_percent(self) -> u32 {
        25 + (self.fraction() * 75.0).round() as u32
    }

    /// The limits of a search for a move at this strength, from the limits `given` (the
    /// game's clock, a fixed time, a depth): the horizon caps depth and nodes, MultiPV ranks
    /// [`lines`](Strength::lines) lines (more if asked), and the clock's times and increments
    /// are scaled to the player's share. A fixed time per move is kept as it is.
    #[must_use]
    pub fn limits(self, given: &SearchLimits) -> SearchLimits {
        let percent = self.time_percent();
        let share = |time: Option<Duration>| time.map(|t| t * percent / 100);
        SearchLimits {
            depth: Some(given.depth.map_or(self.depth(), |d| d.min(self.depth()))),
            nodes: Some(given.nodes.map_or(self.nodes(), |n| n.min(self.nodes()))),
            multipv: Some(given.multipv.unwrap_or(1).max(self.lines())),
            wtime: share(given.wtime),
            btime: share(given.btime),
            winc: share(given.winc),
            binc: share(given.binc),
            ..given.clone()
        }
    }

    /// Chooses among `lines`, the ranked lines of one iteration (best first): the index of a
    /// line within [`margin`](Strength::margin) of the best, drawn with weights falling
    /// exponentially with the line's loss (a line a third of the margin worse is about half as
    /// likely as the best). `None` only for no lines.
    pub fn choose(self, lines: &[SearchInfo], rng: &mut impl Rng) -> Option<usize> {
        let best = lines.iter().map(|l| score_cp(l.score)).max()?;
        let margin = self.margin();
        let scale = f64::from(margin) / 2.0;
        let weights: Vec<f64> = lines
            .iter()
            .map(|l| {
                let loss = best - score_cp(l.score);
                if loss <= margin { (-f64::from(loss) / scale).exp() } else { 0.0 }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        let mut pick = rng.random::<f64>() * total;
        for (i, w) in weights.iter().enumerate() {
            if *w > 0.0 && pick < *w {
                return Some(i);
            }
            pick -= w;
        }
        // Rounding left the draw past the end: the last eligible line.
        weights.iter().rposition(|w| *w > 0.0)
    }

    /// Searches `pos` at this strength and chooses the move to play: the search of
    /// [`Engine::search_pondering`] within [`Strength::limits`], then
    /// [`Strength::choose`] among the lines of its deepest iteration with the most lines. The
    /// `listener` hears the lines the caller asked for (`given.multipv`, one by default) and,
    /// when the move chosen is not the best line's, that line last, as line 1, so that the
    /// final report is the move played. `nodes` counts the whole search.
    #[allow(clippy::too_many_arguments)]
    pub fn search(
        self,
        engine: &mut Engine,
        pos: &Chess,
        history: &[u64],
        given: &SearchLimits,
        stop: &AtomicBool,
        pondering: &AtomicBool,
        listener: &mut dyn Listener,
        rng: &mut impl Rng,
    ) -> SearchOutcome {
        let limits = self.limits(given);
        let shown = given.multipv.unwrap_or(1).max(1);
        let mut ranked = Ranked { lines: Vec::new(), shown, listener };
        // The levels were calibrated with the classical evaluation, and keep playing with it.
        let network = engine.network().cloned();
        engine.set_network(None);
        let mut outcome = engine.search_pondering(pos, history, &limits, stop, pondering, &mut ranked);
        engine.set_network(network);
        let lines = ranked.deepest();
        let chosen = self.choose(&lines, rng).and_then(|i| lines.get(i));
        if let Some(line) = chosen
            && let Some(&m) = line.pv.first()
            && outcome.best != Some(m)
        {
            let info = SearchInfo { multipv: 1, nodes: outcome.nodes, ..line.clone() };
            ranked.listener.info(&info);
            outcome.best = Some(m);
            outcome.ponder = line.pv.get(1).copied();
            outcome.info = Some(info);
        }
        outcome
    }
}

/// Collects the exact lines of every iteration and passes on those the caller asked for.
struct Ranked<'a> {
    /// The last exact report of each line (depth and MultiPV index): when a later line of an
    /// iteration beats an earlier one, the search reports the iteration's lines again in
    /// their new order, and only that order counts.
    lines: Vec<SearchInfo>,
    /// Lines up to this MultiPV index are passed on.
    shown: u32,
    listener: &'a mut dyn Listener,
}

impl Ranked<'_> {
    /// The lines of the deepest iteration among those that ranked the most lines (a search
    /// cut short by its nodes or its time ranks fewer in its last iteration), best first.
    fn deepest(&self) -> Vec<SearchInfo> {
        let count = |depth: u32| self.lines.iter().filter(|l| l.depth == depth).count();
        let most = self.lines.iter().map(|l| count(l.depth)).max().unwrap_or(0);
        let depth = self.lines.iter().map(|l| l.depth).filter(|&d| count(d) == most).max();
        let mut lines: Vec<SearchInfo> =
            self.lines.iter().filter(|l| Some(l.depth) == depth).cloned().collect();
        lines.sort_by_key(|l| l.multipv);
        lines
    }
}

impl Listener for Ranked<'_> {
    fn info(&mut self, info: &SearchInfo) {
        if info.bound.is_none() {
            self.lines.retain(|l| (l.depth, l.multipv) != (info.depth, info.multipv));
            self.lines.push(info.clone());
        }
        if info.multipv <= self.shown {
            self.listener.info(info);
        }
    }

    fn currmove(&mut self, depth: u32, m: Move, number: u32) {
        self.listener.currmove(depth, m, number);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn line(multipv: u32, score: Score) -> SearchInfo {
        SearchInfo {
            depth: 3,
            seldepth: 3,
            multipv,
            score,
            bound: None,
            nodes: 0,
            nps: 0,
            time: Duration::ZERO,
            hashfull: 0,
            tbhits: 0,
            pv: Vec::new(),
        }
    }

    #[test]
    fn the_model_weakens_steadily_as_the_setting_falls() {
        let settings: Vec<Strength> = (MIN_SETTING..=MAX_SETTING).step_by(100).map(Strength::new).collect();
        for pair in settings.windows(2) {
            let (weak, strong) = (pair[0], pair[1]);
            assert!(weak.depth() <= strong.depth() && weak.nodes() < strong.nodes(), "{weak:?} {strong:?}");
            assert!(weak.margin() > strong.margin() && weak.time_percent() <= strong.time_percent());
            assert!(weak.lines() >= strong.lines());
        }
        assert_eq!(Strength::new(0), Strength::new(MIN_SETTING));
        let depths: Vec<u32> =
            [400, 700, 1000, 1300, 1600, 1950, 2400].map(|s| Strength::new(s).depth()).to_vec();
        assert_eq!(depths, [1, 2, 3, 5, 6, 7, 10], "the horizon of each calibrated setting");
        assert_eq!(Strength::new(u32::MAX).time_percent(), 100);
    }

    #[test]
    fn the_clock_is_shared_and_the_horizon_caps_the_search() {
        let weak = Strength::new(800);
        let clock = SearchLimits {
            wtime: Some(Duration::from_secs(100)),
            btime: Some(Duration::from_secs(80)),
            winc: Some(Duration::from_secs(2)),
            depth: Some(40),
            ..SearchLimits::default()
        };
        let limits = weak.limits(&clock);
        let percent = weak.time_percent();
        assert!(percent < 100);
        assert_eq!(limits.wtime, Some(Duration::from_secs(100) * percent / 100));
        assert_eq!(limits.binc, None);
        assert_eq!((limits.depth, limits.nodes), (Some(weak.depth()), Some(weak.nodes())));
        assert_eq!(limits.multipv, Some(weak.lines()));
        let shallow = weak.limits(&SearchLimits::depth(1));
        assert_eq!(shallow.depth, Some(1), "a tighter depth asked for stays");
    }

    #[test]
    fn the_choice_stays_within_the_margin_and_favours_the_best() {
        let strength = Strength::new(1000);
        let margin = strength.margin();
        let lines = [
            line(1, Score::Cp(50)),
            line(2, Score::Cp(50 - margin / 3)),
            line(3, Score::Cp(50 - margin)),
            line(4, Score::Cp(50 - margin - 1)),
            line(5, Score::Mate(-2)),
        ];
        let mut rng = StdRng::seed_from_u64(7);
        let mut counts = [0; 5];
        for _ in 0..3000 {
            counts[strength.choose(&lines, &mut rng).expect("a line")] += 1;
        }
        assert_eq!((counts[3], counts[4]), (0, 0), "nothing beyond the margin: {counts:?}");
        assert!(counts[0] > counts[1] && counts[1] > counts[2] && counts[2] > 0, "{counts:?}");
        // A mate is always taken over any material.
        let mate = [line(1, Score::Mate(3)), line(2, Score::Cp(900))];
        assert!((0..100).all(|_| strength.choose(&mate, &mut rng) == Some(0)));
        assert_eq!(strength.choose(&[], &mut rng), None);
    }

    #[test]
    fn the_choice_is_reproducible_with_a_seed() {
        let strength = Strength::new(600);
        let lines: Vec<SearchInfo> = (1..=6).map(|i| line(i, Score::Cp(100 - 20 * i as i32))).collect();
        let draws = |seed| {
            let mut rng = StdRng::seed_from_u64(seed);
            (0..50).map(|_| strength.choose(&lines, &mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(draws(3), draws(3));
        assert_ne!(draws(3), draws(4));
    }

    #[test]
    fn the_deepest_iteration_with_the_most_lines_is_chosen_from() {
        let mut sink = |_: &SearchInfo| {};
        let mut ranked = Ranked { lines: Vec::new(), shown: 1, listener: &mut sink };
        for (depth, multipv) in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)] {
            ranked.info(&SearchInfo { depth, ..line(multipv, Score::Cp(0)) });
        }
        ranked.info(&SearchInfo { depth: 3, bound: Some(crate::ScoreBound::Lower), ..line(2, Score::Cp(9)) });
        let lines = ranked.deepest();
        assert_eq!(lines.iter().map(|l| (l.depth, l.multipv)).collect::<Vec<_>>(), [(2, 1), (2, 2)]);
    }

    #[test]
    fn an_iteration_reported_again_in_a_new_order_counts_once_in_that_order() {
        let mut sink = |_: &SearchInfo| {};
        let mut ranked = Ranked { lines: Vec::new(), shown: 1, listener: &mut sink };
        let report = |depth, multipv, cp| SearchInfo { depth, ..line(multipv, Score::Cp(cp)) };
        // Depth 1's second line beat its first: both are reported again, best first. Depth 2
        // is reported once; it is the deepest complete iteration, not depth 1 with its four
        // reports (session 16's levels chose among depth 1's lines, twice each).
        for (depth, multipv, cp) in [(1, 1, 10), (1, 2, 30), (1, 1, 30), (1, 2, 10), (2, 1, 20), (2, 2, 5)] {
            ranked.info(&report(depth, multipv, cp));
        }
        let scores = |lines: Vec<SearchInfo>| lines.iter().map(|l| (l.depth, l.score)).collect::<Vec<_>>();
        assert_eq!(scores(ranked.deepest()), [(2, Score::Cp(20)), (2, Score::Cp(5))]);
        // Cut short after depth 2's first line, then depth 3 reordered: depth 3 in its new order.
        for (depth, multipv, cp) in [(3, 1, 0), (3, 2, 40), (3, 1, 40), (3, 2, 0)] {
            ranked.info(&report(depth, multipv, cp));
        }
        assert_eq!(scores(ranked.deepest()), [(3, Score::Cp(40)), (3, Score::Cp(0))]);
    }
}
