//! Choosing a book move: Terra's algorithm (user-set group, then roulette wheel over
//! statistics) and Crafty's (`book random`, `book width`, `bookw`, `!` and `?`). Every choice
//! explains itself: each candidate with its probability, or why it was excluded.

use std::fmt;
use std::ops::RangeInclusive;

use rand::Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};

use crate::book::{Book, BookEntry};
use crate::evaluate;

/// Which program's selection rules to follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BookMode {
    /// Terra's: user-set values first, then statistics with a roulette wheel.
    #[default]
    Terra,
    /// Crafty's: `book random`, `book width`, `bookw` weights, `!` and `?` flags.
    Crafty,
}

/// Terra's `RandomType`: which statistic gives a move its value, and how the move is picked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RandomType {
    /// Roulette wheel over the fixed frequencies only (learned results ignored).
    Frequency,
    /// Terra's `RandomType=1`: the learned win% for moves with at least `min_learned_games`
    /// learned games, the fixed frequency turned into `100 * f / FSum` for the others;
    /// roulette wheel.
    #[default]
    LearnedOrFrequency,
    /// The learned win% when there are enough learned games, otherwise the fixed win%;
    /// roulette wheel.
    LearnedOrWinPct,
    /// As `LearnedOrWinPct`, but always the best value (no randomness).
    Best,
}

/// Crafty's `bookw freq|ratio|eval|learn` weights, each 0 to 1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CraftyWeights {
    /// How often the move was played.
    pub freq: f64,
    /// Wins against losses.
    pub ratio: f64,
    /// Static evaluation after the move.
    pub eval: f64,
    /// Learned score.
    pub learn: f64,
}

impl Default for CraftyWeights {
    fn default() -> Self {
        CraftyWeights { freq: 1.0, ratio: 0.2, eval: 0.1, learn: 0.5 }
    }
}

/// How the book chooses. The defaults are Terra's example settings without the limits.
/// Saved with the app's settings: missing fields take their defaults, and
/// [`BookSettings::sanitized`] brings the numbers into their ranges.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BookSettings {
    /// Terra's or Crafty's rules.
    pub mode: BookMode,
    /// Terra: `RandomType`.
    pub random_type: RandomType,
    /// Terra: `BookLimit`, the lowest fixed win% a move may have (0: no limit).
    pub book_limit: f64,
    /// Terra: `MinBookGames`, the fewest fixed games a move may have.
    pub min_book_games: u32,
    /// Terra: `MinTerraGames`, the fewest learned games for the learned win% to be used.
    pub min_learned_games: u32,
    /// Terra: `TerraLim`, a move whose learned win% is below this goes to the avoid list.
    pub learned_limit: f64,
    /// Crafty: `book random 0` (search among the book moves) or `1` (random, weighted).
    pub crafty_random: u8,
    /// Crafty: `book width`, how many of the best-sorted moves stay candidates.
    pub width: usize,
    /// Crafty: `bookw` weights.
    pub weights: CraftyWeights,
}

impl Default for BookSettings {
    fn default() -> Self {
        BookSettings {
            mode: BookMode::Terra,
            random_type: RandomType::LearnedOrFrequency,
            book_limit: 0.0,
            min_book_games: 1,
            min_learned_games: 3,
            learned_limit: 40.0,
            crafty_random: 1,
            width: 5,
            weights: CraftyWeights::default(),
        }
    }
}

impl BookSettings {
    /// The range of the percentages `book_limit` and `learned_limit`.
    pub const PCT_RANGE: RangeInclusive<f64> = 0.0..=100.0;
    /// The range of `min_book_games`.
    pub const BOOK_GAMES_RANGE: RangeInclusive<u32> = 0..=100_000;
    /// The range of `min_learned_games`.
    pub const LEARNED_GAMES_RANGE: RangeInclusive<u32> = 1..=1000;
    /// The range of `crafty_random`: 0 (search among the book moves) or 1 (random).
    pub const CRAFTY_RANDOM_RANGE: RangeInclusive<u8> = 0..=1;
    /// The range of `width`.
    pub const WIDTH_RANGE: RangeInclusive<usize> = 1..=100;
    /// The range of each of Crafty's weights.
    pub const WEIGHT_RANGE: RangeInclusive<f64> = 0.0..=1.0;

    /// The settings with every number brought into its range (a number that is not one, NaN,
    /// takes its default).
    ///
    /// ```
    /// use kibitz_engine::BookSettings;
    /// let wild = BookSettings { book_limit: 250.0, width: 0, learned_limit: f64::NAN, ..Default::default() };
    /// let s = wild.sanitized();
    /// assert_eq!((s.book_limit, s.width, s.learned_limit), (100.0, 1, 40.0));
    /// ```
    #[must_use]
    pub fn sanitized(self) -> BookSettings {
        let d = BookSettings::default();
        let real = |v: f64, range: &RangeInclusive<f64>, default: f64| {
            if v.is_nan() { default } else { v.clamp(*range.start(), *range.end()) }
        };
        let weight = |v: f64, default: f64| real(v, &Self::WEIGHT_RANGE, default);
        let w = self.weights;
        BookSettings {
            mode: self.mode,
            random_type: self.random_type,
            book_limit: real(self.book_limit, &Self::PCT_RANGE, d.book_limit),
            min_book_games: self
                .min_book_games
                .clamp(*Self::BOOK_GAMES_RANGE.start(), *Self::BOOK_GAMES_RANGE.end()),
            min_learned_games: self
                .min_learned_games
                .clamp(*Self::LEARNED_GAMES_RANGE.start(), *Self::LEARNED_GAMES_RANGE.end()),
            learned_limit: real(self.learned_limit, &Self::PCT_RANGE, d.learned_limit),
            crafty_random: self
                .crafty_random
                .clamp(*Self::CRAFTY_RANDOM_RANGE.start(), *Self::CRAFTY_RANDOM_RANGE.end()),
            width: self.width.clamp(*Self::WIDTH_RANGE.start(), *Self::WIDTH_RANGE.end()),
            weights: CraftyWeights {
                freq: weight(w.freq, d.weights.freq),
                ratio: weight(w.ratio, d.weights.ratio),
                eval: weight(w.eval, d.weights.eval),
                learn: weight(w.learn, d.weights.learn),
            },
        }
    }
}

/// The group a candidate was chosen from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// User value 100: always played (random among several).
    Always,
    /// Other user-set values (Terra).
    User,
    /// Fixed and learned statistics (Terra).
    Statistics,
    /// Crafty's sorted candidate list.
    Crafty,
}

/// Why a book move will not be played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exclusion {
    /// User value 0 (`?`): on the avoid list, which the search respects too.
    Avoid,
    /// Flagged "never play again" by result learning: on the avoid list.
    NeverPlayAgain,
    /// Another move has user value 100.
    NotAlways,
    /// Fewer fixed games than `MinBookGames`.
    MinBookGames(u32),
    /// Fixed win% below `BookLimit`.
    BookLimit(f64),
    /// Learned win% below `TerraLim`: on the avoid list.
    LearnedLimit(f64),
    /// Not the best value (`RandomType` Best).
    NotBest,
    /// Crafty: other moves are flagged `!`.
    NotFlagged,
    /// Crafty: learned score below -100, treated as `?`.
    LearnedLemon(i32),
    /// Crafty: no game won with this move.
    NoWins,
    /// Crafty: beyond `book width`.
    Width(usize),
}

impl Exclusion {
    /// The move is on the avoid list: the search must not play it either.
    #[must_use]
    pub fn avoids(&self) -> bool {
        matches!(self, Exclusion::Avoid | Exclusion::NeverPlayAgain | Exclusion::LearnedLimit(_))
    }
}

impl fmt::Display for Exclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exclusion::Avoid => f.write_str("user value 0 (avoid list)"),
            Exclusion::NeverPlayAgain => f.write_str("lost with it: never play again (avoid list)"),
            Exclusion::NotAlways => f.write_str("another move is set to always"),
            Exclusion::MinBookGames(min) => write!(f, "fewer than MinBookGames={min} games"),
            Exclusion::BookLimit(limit) => write!(f, "win% below BookLimit={limit}"),
            Exclusion::LearnedLimit(limit) => write!(f, "learned win% below TerraLim={limit} (avoid list)"),
            Exclusion::NotBest => f.write_str("not the best value"),
            Exclusion::NotFlagged => f.write_str("other moves are flagged !"),
            Exclusion::LearnedLemon(score) => write!(f, "learned score {score} below -100 (treated as ?)"),
            Exclusion::NoWins => f.write_str("no wins"),
            Exclusion::Width(w) => write!(f, "beyond book width {w}"),
        }
    }
}

/// One book move in a choice, with its chance or the reason it has none.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Its book entry.
    pub entry: BookEntry,
    /// The group it belongs to, if it is playable.
    pub group: Option<Group>,
    /// The comparable value used by the roulette wheel (Terra) or the sort value (Crafty).
    pub value: f64,
    /// Probability of being chosen, 0 to 1.
    pub probability: f64,
    /// Why it cannot be chosen, if so.
    pub excluded: Option<Exclusion>,
}

/// A book decision: the move and how it was reached.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// The chosen move. With `search_only`, the best-sorted candidate, to play if there is no
    /// time to search.
    pub mv: Move,
    /// Crafty's `book random 0`: the caller should search only the playable candidates briefly
    /// and play the best of them.
    pub search_only: bool,
    /// Every book move of the position.
    pub candidates: Vec<Candidate>,
}

impl Candidate {
    /// Whether the move has a chance of being played.
    #[must_use]
    pub fn is_playable(&self) -> bool {
        self.excluded.is_none() && self.probability > 0.0
    }
}

impl Choice {
    /// The moves with a chance of being played.
    pub fn playable(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter().filter(|c| c.is_playable())
    }
}

impl Book {
    /// Every book move of the position with its probability under `settings` or the reason it
    /// is excluded (Crafty's `show book`). No randomness involved.
    #[must_use]
    pub fn explain(&self, pos: &Chess, settings: &BookSettings) -> Vec<Candidate> {
        let moves = self.legal_moves(pos);
        let mut candidates: Vec<Candidate> = moves
            .into_iter()
            .map(|(mv, entry)| Candidate {
                mv,
                entry,
                group: None,
                value: 0.0,
                probability: 0.0,
                excluded: None,
            })
            .collect();
        match settings.mode {
            BookMode::Terra => explain_terra(&mut candidates, settings),
            BookMode::Crafty => explain_crafty(&mut candidates, pos, settings),
        }
        candidates
    }

    /// Chooses a book move, or `None` when no book move may be played (the search takes over).
    ///
    /// ```
    /// use kibitz_engine::{Book, BookSettings, GameRecord, book_key, encode_move};
    /// use rand::SeedableRng;
    /// let game = GameRecord::new();
    /// let mut book = Book::new();
    /// let key = book_key(game.position());
    /// let e4 = game.parse_move("e4").unwrap();
    /// book.entry_mut(key, encode_move(e4)).fixed.games = 10;
    /// let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    /// let choice = book.choose(game.position(), &BookSettings::default(), &mut rng).unwrap();
    /// assert_eq!(choice.mv, e4);
    /// assert_eq!(choice.candidates[0].probability, 1.0);
    /// ```
    pub fn choose<R: Rng + ?Sized>(
        &self,
        pos: &Chess,
        settings: &BookSettings,
        rng: &mut R,
    ) -> Option<Choice> {
        let candidates = self.explain(pos, settings);
        let playable: Vec<&Candidate> = candidates.iter().filter(|c| c.is_playable()).collect();
        if playable.is_empty() {
            return None;
        }
        let mv = match settings.mode {
            BookMode::Terra => draw_terra(&playable, rng),
            BookMode::Crafty if settings.crafty_random == 0 => {
                let mv = playable[0].mv;
                return Some(Choice { mv, search_only: true, candidates });
            }
            BookMode::Crafty => draw_weighted(&playable, rng),
        };
        Some(Choice { mv, search_only: false, candidates })
    }

    /// The avoid list of a position: book moves that neither the book nor the search should
    /// play (user value 0, "never play again", learned win% under `TerraLim`).
    #[must_use]
    pub fn avoid_list(&self, pos: &Chess, settings: &BookSettings) -> Vec<Move> {
        self.explain(pos, settings)
            .into_iter()
            .filter(|c| c.excluded.is_some_and(|e| e.avoids()))
            .map(|c| c.mv)
            .collect()
    }
}

/// Terra's probability that the user-set group is used: `1 - prod((100 - v) / 100)`.
#[must_use]
pub(crate) fn user_group_probability(values: &[f64]) -> f64 {
    1.0 - values.iter().map(|v| (100.0 - v) / 100.0).product::<f64>()
}

/// Terra's roulette wheel: go through the moves in the given (random) order, adding their
/// values, until the sum reaches `r` (drawn from 0..sum). Returns the index picked.
#[must_use]
pub(crate) fn roulette(values_in_order: &[f64], r: f64) -> usize {
    let mut sum = 0.0;
    for (i, v) in values_in_order.iter().enumerate() {
        sum += v;
        if sum >= r {
            return i;
        }
    }
    values_in_order.len().saturating_sub(1)
}

fn explain_terra(candidates: &mut [Candidate], s: &BookSettings) {
    for c in candidates.iter_mut() {
        if c.entry.never_play && c.entry.user.is_none() {
            c.excluded = Some(Exclusion::NeverPlayAgain);
        } else if c.entry.user == Some(0) {
            c.excluded = Some(Exclusion::Avoid);
        }
    }
    // Value 100: always played, at random among several.
    let always = candidates.iter().filter(|c| c.excluded.is_none() && c.entry.user == Some(100)).count();
    if always > 0 {
        for c in candidates.iter_mut().filter(|c| c.excluded.is_none()) {
            if c.entry.user == Some(100) {
                c.group = Some(Group::Always);
                c.value = 100.0;
                c.probability = 1.0 / always as f64;
            } else {
                c.excluded = Some(Exclusion::NotAlways);
            }
        }
        return;
    }
    // The statistics group: learned or fixed values, after the limits.
    let fsum: f64 = candidates.iter().map(|c| f64::from(c.entry.frequency())).sum();
    for c in candidates.iter_mut().filter(|c| c.excluded.is_none()) {
        if let Some(v) = c.entry.user {
            c.group = Some(Group::User);
            c.value = f64::from(v);
            continue;
        }
        let e = &c.entry;
        let learned = (s.random_type != RandomType::Frequency
            && e.learned.games >= s.min_learned_games.max(1))
        .then(|| e.learned.win_pct())
        .flatten();
        if let Some(pct) = learned {
            if pct < s.learned_limit {
                c.excluded = Some(Exclusion::LearnedLimit(s.learned_limit));
            } else {
                c.group = Some(Group::Statistics);
                c.value = pct;
            }
            continue;
        }
        if e.frequency() < s.min_book_games {
            c.excluded = Some(Exclusion::MinBookGames(s.min_book_games));
            continue;
        }
        if e.fixed.win_pct().is_some_and(|pct| pct < s.book_limit) {
            c.excluded = Some(Exclusion::BookLimit(s.book_limit));
            continue;
        }
        let frequency = (100.0 * f64::from(e.frequency()) / fsum.max(1.0)).round().max(1.0);
        c.group = Some(Group::Statistics);
        c.value = match s.random_type {
            RandomType::Frequency | RandomType::LearnedOrFrequency => frequency,
            RandomType::LearnedOrWinPct | RandomType::Best => e.fixed.win_pct().unwrap_or(frequency),
        };
    }
    if s.random_type == RandomType::Best {
        let best = candidates
            .iter()
            .enumerate()
            .filter(|(_, c)| c.group == Some(Group::Statistics))
            .max_by(|a, b| a.1.value.total_cmp(&b.1.value).then(b.0.cmp(&a.0)))
            .map(|(i, _)| i);
        for (i, c) in candidates.iter_mut().enumerate() {
            if c.group == Some(Group::Statistics) && Some(i) != best {
                c.group = None;
                c.excluded = Some(Exclusion::NotBest);
            }
        }
    }
    let user_values: Vec<f64> =
        candidates.iter().filter(|c| c.group == Some(Group::User)).map(|c| c.value).collect();
    let user_sum: f64 = user_values.iter().sum();
    let stats_sum: f64 =
        candidates.iter().filter(|c| c.group == Some(Group::Statistics)).map(|c| c.value).sum();
    let p_user = match (user_sum > 0.0, stats_sum > 0.0) {
        (true, true) => user_group_probability(&user_values),
        (true, false) => 1.0,
        _ => 0.0,
    };
    for c in candidates.iter_mut() {
        c.probability = match c.group {
            Some(Group::User) if user_sum > 0.0 => p_user * c.value / user_sum,
            Some(Group::Statistics) if stats_sum > 0.0 => (1.0 - p_user) * c.value / stats_sum,
            _ => 0.0,
        };
    }
}

/// Terra's draw: the group first (`Random(0,100) < P*100`), then the roulette wheel over the
/// group's moves in random order.
fn draw_terra<R: Rng + ?Sized>(playable: &[&Candidate], rng: &mut R) -> Move {
    let in_group = |g: Group| playable.iter().filter(|c| c.group == Some(g)).copied().collect::<Vec<_>>();
    let always = in_group(Group::Always);
    if !always.is_empty() {
        return always[rng.random_range(0..always.len())].mv;
    }
    let user = in_group(Group::User);
    let stats = in_group(Group::Statistics);
    let p_user: f64 = user.iter().map(|c| c.probability).sum();
    let roll = rng.random::<f64>() * 100.0;
    let mut group =
        if (roll < p_user * 100.0 && !user.is_empty()) || stats.is_empty() { user } else { stats };
    group.shuffle(rng);
    let values: Vec<f64> = group.iter().map(|c| c.value).collect();
    let total: f64 = values.iter().sum();
    let r = rng.random::<f64>() * total;
    group[roulette(&values, r)].mv
}

/// One draw by the candidates' probabilities.
fn draw_weighted<R: Rng + ?Sized>(playable: &[&Candidate], rng: &mut R) -> Move {
    let probabilities: Vec<f64> = playable.iter().map(|c| c.probability).collect();
    let total: f64 = probabilities.iter().sum();
    playable[roulette(&probabilities, rng.random::<f64>() * total)].mv
}

/// A move is a Crafty `!` move: user value 75 or more, or a learned score above +100.
fn crafty_flagged(e: &BookEntry) -> bool {
    e.user.is_some_and(|v| v >= 75) || (e.learned.games > 0 && e.learn_score > 100)
}

fn explain_crafty(candidates: &mut [Candidate], pos: &Chess, s: &BookSettings) {
    for c in candidates.iter_mut() {
        let e = &c.entry;
        if e.user == Some(0) {
            c.excluded = Some(Exclusion::Avoid);
        } else if e.frequency() == 0 && e.user.is_none() && e.play_pct.filter(|&p| p > 0).is_none() {
            c.excluded = Some(Exclusion::MinBookGames(1));
        } else if e.never_play {
            c.excluded = Some(Exclusion::NeverPlayAgain);
        } else if e.learned.games > 0 && e.learn_score < -100 && e.user.is_none() {
            c.excluded = Some(Exclusion::LearnedLemon(e.learn_score));
        }
    }
    if candidates.iter().any(|c| c.excluded.is_none() && crafty_flagged(&c.entry)) {
        for c in candidates.iter_mut().filter(|c| c.excluded.is_none() && !crafty_flagged(&c.entry)) {
            c.excluded = Some(Exclusion::NotFlagged);
        }
    }
    // The four parameters, each mapped to 0..1000 between its minimum and maximum.
    let live: Vec<usize> = (0..candidates.len()).filter(|&i| candidates[i].excluded.is_none()).collect();
    let params: Vec<[f64; 4]> = live
        .iter()
        .map(|&i| {
            let c = &candidates[i];
            let e = &c.entry;
            let ratio = f64::from(e.fixed.wins + 1) / f64::from(e.fixed.losses + 1);
            let mut after = pos.clone();
            after.play_unchecked(c.mv);
            let eval = -f64::from(evaluate(&after));
            let learn = if e.learned.games > 0 { f64::from(e.learn_score) } else { 0.0 };
            [f64::from(e.frequency()), ratio, eval, learn]
        })
        .collect();
    let weights = [s.weights.freq, s.weights.ratio, s.weights.eval, s.weights.learn];
    for (k, &i) in live.iter().enumerate() {
        let mut value = 1.0;
        for p in 0..4 {
            let (lo, hi) =
                params.iter().fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v[p]), hi.max(v[p])));
            let mapped = if hi > lo { (params[k][p] - lo) * 1000.0 / (hi - lo) } else { 0.0 };
            value += weights[p] * mapped;
        }
        candidates[i].value = value;
        candidates[i].group = Some(Group::Crafty);
    }
    // Sort: play percentage first, then the sort value.
    let play = |c: &Candidate| c.entry.play_pct.filter(|&p| p > 0);
    let mut order = live.clone();
    order.sort_by(|&a, &b| {
        let (a, b) = (&candidates[a], &candidates[b]);
        play(b).cmp(&play(a)).then(b.value.total_cmp(&a.value))
    });
    let mut kept = Vec::new();
    for i in order {
        let c = &mut candidates[i];
        let forced = c.entry.user.is_some() || play(c).is_some();
        if c.entry.fixed.games > 0 && c.entry.fixed.wins == 0 && !forced {
            c.excluded = Some(Exclusion::NoWins);
        } else if kept.len() >= s.width.max(1) {
            c.excluded = Some(Exclusion::Width(s.width));
        } else {
            kept.push(i);
        }
        if c.excluded.is_some() {
            c.group = None;
        }
    }
    // Fold in the play percentages.
    let pct_sum: f64 = kept.iter().filter_map(|&i| play(&candidates[i])).map(f64::from).sum();
    let others_sum: f64 =
        kept.iter().filter(|&&i| play(&candidates[i]).is_none()).map(|&i| candidates[i].value).sum();
    for &i in &kept {
        let c = &mut candidates[i];
        c.probability = match play(c) {
            Some(p) if pct_sum >= 100.0 || others_sum <= 0.0 => f64::from(p) / pct_sum,
            Some(p) => f64::from(p) / 100.0,
            None if pct_sum >= 100.0 => 0.0,
            None => (1.0 - pct_sum / 100.0) * c.value / others_sum,
        };
    }
    // Keep the sorted order for display: playable first.
    candidates.sort_by(|a, b| b.probability.total_cmp(&a.probability));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Terra's worked example, step by step with the seed's own dice.
    #[test]
    fn worked_example_dice() {
        // User group c5 (75) and d5 (15): P = 1 - 0.25 * 0.85 = 78.75% (the seed's text
        // multiplies 75 * 85 / 100 = 63.75 instead, which contradicts its own formula).
        let p = user_group_probability(&[75.0, 15.0]);
        assert!((p - 0.7875).abs() < 1e-12);
        // 1st case: Random(0,100) = 60 < 78.75 selects the user group; order d5, c5 and
        // Random(0,85) = 45: d5 gives 15, c5 gives 90 >= 45, so c5.
        assert!(60.0 < p * 100.0);
        assert_eq!(roulette(&[15.0, 75.0], 45.0), 1);
        // 2nd case: a roll above P selects the statistics group. The seed's table: e6 63,
        // d6 1, e5 60 in that random order, Random(0,124) = 113: 63, 64, 124 >= 113, so e5.
        assert_eq!(roulette(&[63.0, 1.0, 60.0], 113.0), 2);
        // With the frequency rule applied as the text states (e6 = 10): R = 70 of 71 is e5 too.
        assert_eq!(roulette(&[10.0, 1.0, 60.0], 70.0), 2);
        assert_eq!(roulette(&[10.0, 1.0, 60.0], 10.5), 1);
    }
}
