//! An analysis: the current lines of one search, one per MultiPV index, with their typed
//! data, fed by the [`Event`]s of any [`Player`](crate::Player).
//!
//! The owner creates an [`Analysis`] for the position it sends and the `id` of its `Go`,
//! then passes it every event it drains. Reports of other searches are ignored; each report
//! of this one replaces the line of its MultiPV index, so the lines are always the latest
//! word of the search, in the order of their index.

use std::fmt;
use std::time::Duration;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use crate::search::legal_prefix;
use crate::{Event, Score, ScoreBound, SearchInfo};

/// The search-wide figures of a report: how much work the search had done when it sent it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time spent so far.
    pub time: Duration,
    /// How full the transposition table is, in permille.
    pub hashfull: u32,
}

/// One line of the analysis: the latest report for its MultiPV index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The MultiPV index, 1 for the best line.
    pub multipv: u32,
    /// Depth in plies of the iteration that reported it.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score from the side to move's point of view (as engines report it).
    pub score: Score,
    /// The same score from White's side.
    pub white_score: Score,
    /// `None` when the score is exact; otherwise the report was a fail-high or fail-low and
    /// the line waits for the re-search.
    pub bound: Option<ScoreBound>,
    /// The principal variation, legal from the root (cut at the first move that is not).
    pub pv: Vec<Move>,
    /// The search's work when it sent this line.
    pub totals: Totals,
}

impl Line {
    /// Whether the score is exact (not a bound).
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.bound.is_none()
    }
}

/// The current lines of one search of one position.
#[derive(Clone, Debug)]
pub struct Analysis {
    root: Chess,
    id: u64,
    multipv: u32,
    /// Sorted by MultiPV index, at most one per index.
    lines: Vec<Line>,
    /// The totals of the latest report, whatever its index.
    totals: Option<Totals>,
}

impl Analysis {
    /// An empty analysis of `root` for the search `id`, showing up to `multipv` lines
    /// (at least one).
    #[must_use]
    pub fn new(root: Chess, id: u64, multipv: u32) -> Analysis {
        Analysis { root, id, multipv: multipv.max(1), lines: Vec::new(), totals: None }
    }

    /// The position searched.
    #[must_use]
    pub fn root(&self) -> &Chess {
        &self.root
    }

    /// The `id` of the search followed.
    #[must_use]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// How many lines are kept.
    #[must_use]
    pub fn multipv(&self) -> u32 {
        self.multipv
    }

    /// Keeps up to `multipv` lines (at least one) from now on; lowering it drops the lines
    /// past the new count.
    pub fn set_multipv(&mut self, multipv: u32) {
        self.multipv = multipv.max(1);
        self.lines.retain(|line| line.multipv <= self.multipv);
    }

    /// Takes one event. Returns whether a line changed: only the `Info` reports of this
    /// search, for an index within the MultiPV count, do.
    pub fn update(&mut self, event: &Event) -> bool {
        match event {
            Event::Info { id, info } if *id == self.id => self.report(info),
            _ => false,
        }
    }

    fn report(&mut self, info: &SearchInfo) -> bool {
        let multipv = info.multipv.max(1);
        if multipv > self.multipv {
            return false;
        }
        let totals = Totals { nodes: info.nodes, nps: info.nps, time: info.time, hashfull: info.hashfull };
        self.totals = Some(totals);
        let line = Line {
            multipv,
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            white_score: info.score.white_pov(self.root.turn()),
            bound: info.bound,
            pv: legal_prefix(&self.root, &info.pv),
            totals,
        };
        match self.lines.binary_search_by_key(&multipv, |l| l.multipv) {
            Ok(i) => self.lines[i] = line,
            Err(i) => self.lines.insert(i, line),
        }
        true
    }

    /// The lines, by MultiPV index.
    #[must_use]
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// The line of MultiPV index 1, once reported.
    #[must_use]
    pub fn best(&self) -> Option<&Line> {
        self.lines.first().filter(|line| line.multipv == 1)
    }

    /// The totals of the latest report of this search, whatever its index.
    #[must_use]
    pub fn totals(&self) -> Option<Totals> {
        self.totals
    }

    /// A line's moves in SAN with move numbers from the root, as a PGN shows them:
    /// `12... Nf6 13. Bg5 h6`.
    #[must_use]
    pub fn san(&self, line: &Line) -> String {
        san_line(&self.root, &line.pv)
    }

    /// A line's moves one by one, each in SAN with the move number it is written with (the
    /// first move and White's moves have one), for a GUI that makes each move clickable.
    #[must_use]
    pub fn pv_words(&self, line: &Line) -> Vec<PvWord> {
        pv_words(&self.root, &line.pv)
    }
}

/// Moves legal from `root` in SAN with move numbers, as a PGN shows them: `12... Nf6 13. Bg5`.
#[must_use]
pub fn san_line(root: &Chess, moves: &[Move]) -> String {
    let words: Vec<String> = pv_words(root, moves).iter().map(PvWord::to_string).collect();
    words.join(" ")
}

/// Moves legal from `root` one by one, in SAN, with the move number each is written with.
fn pv_words(root: &Chess, moves: &[Move]) -> Vec<PvWord> {
    let mut pos = root.clone();
    let mut number = pos.fullmoves().get();
    let mut words = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        let prefix = match pos.turn() {
            Color::White => Some(format!("{number}.")),
            Color::Black if i == 0 => Some(format!("{number}...")),
            Color::Black => None,
        };
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        if pos.turn() == Color::White {
            number += 1;
        }
        words.push(PvWord { number: prefix, san });
    }
    words
}

/// One move of a principal variation as written: `12.` or `12...` when it carries its move
/// number, and the move in SAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvWord {
    /// The move number as written before the move, if it has one.
    pub number: Option<String>,
    /// The move in SAN with its check sign.
    pub san: String,
}

impl fmt::Display for PvWord {
    /// `12... Nf6`, or `h6` without a number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.number {
            Some(number) => write!(f, "{number} {}", self.san),
            None => f.write_str(&self.san),
        }
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::san::San;
    use shakmaty::uci::UciMove;
    use shakmaty::{Role, Square};

    use super::*;

    /// The Breyer Ruy Lopez after 12. Bc2, Black to move.
    fn breyer() -> Chess {
        let mut pos = Chess::default();
        let game = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 Nbd2 Bb7 Bc2";
        for san in game.split_whitespace() {
            let m = san.parse::<San>().expect("SAN").to_move(&pos).expect("legal in the test");
            pos.play_unchecked(m);
        }
        pos
    }

    fn moves(pos: &Chess, text: &str) -> Vec<Move> {
        let mut pos = pos.clone();
        let mut out = Vec::new();
        for uci in text.split_whitespace() {
            let m = uci.parse::<UciMove>().expect("UCI move").to_move(&pos).expect("legal in the test");
            pos.play_unchecked(m);
            out.push(m);
        }
        out
    }

    fn info(multipv: u32, depth: u32, score: Score, pv: Vec<Move>) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: depth + 4,
            multipv,
            score,
            bound: None,
            nodes: u64::from(depth) * 1000,
            nps: 500_000,
            time: Duration::from_millis(u64::from(depth) * 10),
            hashfull: depth,
            tbhits: 0,
            pv,
        }
    }

    fn event(id: u64, info: SearchInfo) -> Event {
        Event::Info { id, info }
    }

    #[test]
    fn lines_are_kept_by_index_whatever_order_they_arrive_in() {
        let root = breyer();
        let mut analysis = Analysis::new(root.clone(), 7, 3);
        assert!(analysis.best().is_none());
        assert!(analysis.update(&event(7, info(3, 10, Score::Cp(-40), moves(&root, "c7c5")))));
        assert!(analysis.update(&event(7, info(1, 10, Score::Cp(-10), moves(&root, "c7c5 d4d5")))));
        assert!(analysis.update(&event(7, info(2, 10, Score::Cp(-25), moves(&root, "f8e8")))));
        // A deeper report of index 1 replaces the first.
        assert!(analysis.update(&event(7, info(1, 11, Score::Cp(-15), moves(&root, "f8e8 b2b3")))));

        let indexes: Vec<u32> = analysis.lines().iter().map(|l| l.multipv).collect();
        assert_eq!(indexes, [1, 2, 3]);
        let best = analysis.best().expect("line 1");
        assert_eq!((best.depth, best.seldepth, best.score), (11, 15, Score::Cp(-15)));
        // Black is to move: White's view is the opposite.
        assert_eq!(best.white_score, Score::Cp(15));
        assert_eq!(best.pv, moves(&root, "f8e8 b2b3"));
        assert!(best.is_exact());
        assert_eq!(
            best.totals,
            Totals { nodes: 11_000, nps: 500_000, time: Duration::from_millis(110), hashfull: 11 }
        );
        // The totals are the latest report's, whatever its index.
        assert_eq!(analysis.totals().map(|t| t.nodes), Some(11_000));
        assert_eq!(analysis.lines()[1].totals.nodes, 10_000);
    }

    #[test]
    fn a_bound_report_replaces_the_line_and_is_marked() {
        let root = Chess::default();
        let mut analysis = Analysis::new(root.clone(), 1, 1);
        analysis.update(&event(1, info(1, 8, Score::Cp(30), moves(&root, "e2e4 e7e5"))));
        let mut fail_high = info(1, 9, Score::Cp(55), moves(&root, "d2d4"));
        fail_high.bound = Some(ScoreBound::Lower);
        assert!(analysis.update(&event(1, fail_high)));
        let best = analysis.best().expect("line 1");
        assert_eq!((best.depth, best.score, best.bound), (9, Score::Cp(55), Some(ScoreBound::Lower)));
        assert!(!best.is_exact());
        assert_eq!(best.pv, moves(&root, "d2d4"));
        // The re-search settles it.
        analysis.update(&event(1, info(1, 9, Score::Cp(48), moves(&root, "d2d4 d7d5"))));
        assert!(analysis.best().expect("line 1").is_exact());
    }

    #[test]
    fn a_pv_is_cut_at_its_first_illegal_move() {
        let root = Chess::default();
        let mut analysis = Analysis::new(root.clone(), 1, 1);
        let mut pv = moves(&root, "e2e4 e7e5");
        // White's e-pawn cannot move again from e2 after 1. e4 e5.
        let stale = moves(&root, "e2e3")[0];
        pv.push(stale);
        pv.extend(moves(&root, "g1f3"));
        analysis.update(&event(1, info(1, 5, Score::Cp(20), pv)));
        assert_eq!(analysis.best().expect("line 1").pv, moves(&root, "e2e4 e7e5"));

        // A line whose first move is illegal keeps its score with an empty PV.
        let wrong = Move::Normal {
            role: Role::Queen,
            from: Square::D1,
            capture: None,
            to: Square::H5,
            promotion: None,
        };
        analysis.update(&event(1, info(1, 6, Score::Cp(25), vec![wrong])));
        let best = analysis.best().expect("line 1");
        assert_eq!((best.depth, best.pv.len()), (6, 0));
    }

    #[test]
    fn other_searches_and_other_events_are_ignored() {
        let root = Chess::default();
        let mut analysis = Analysis::new(root.clone(), 5, 2);
        assert!(!analysis.update(&event(4, info(1, 20, Score::Cp(90), moves(&root, "d2d4")))));
        assert!(!analysis.update(&Event::BestMove {
            id: 5,
            best: None,
            ponder: None,
            nodes: 0,
            time: Duration::ZERO
        }));
        assert!(analysis.lines().is_empty());
        assert!(analysis.totals().is_none());
        // An index past the MultiPV count is not kept either.
        assert!(!analysis.update(&event(5, info(3, 20, Score::Cp(90), moves(&root, "d2d4")))));
        assert!(analysis.update(&event(5, info(2, 20, Score::Cp(10), moves(&root, "c2c4")))));
        // Line 2 alone is no best line.
        assert!(analysis.best().is_none());
        assert_eq!(analysis.lines().len(), 1);
    }

    #[test]
    fn lowering_multipv_drops_the_lines_past_it() {
        let root = Chess::default();
        let mut analysis = Analysis::new(root.clone(), 1, 3);
        for (index, uci) in [(2, "d2d4"), (1, "e2e4"), (3, "c2c4")] {
            analysis.update(&event(1, info(index, 9, Score::Cp(10), moves(&root, uci))));
        }
        assert_eq!(analysis.lines().len(), 3);
        analysis.set_multipv(2);
        let indexes: Vec<u32> = analysis.lines().iter().map(|l| l.multipv).collect();
        assert_eq!(indexes, [1, 2]);
        assert!(!analysis.update(&event(1, info(3, 10, Score::Cp(10), moves(&root, "c2c4")))));
        analysis.set_multipv(0);
        assert_eq!((analysis.multipv(), analysis.lines().len()), (1, 1));
    }

    #[test]
    fn san_numbers_the_moves_from_the_root() {
        let root = breyer();
        let mut analysis = Analysis::new(root.clone(), 1, 1);
        analysis.update(&event(1, info(1, 12, Score::Cp(-12), moves(&root, "f8e8 d2f1 e7f8"))));
        let best = analysis.best().expect("line 1").clone();
        assert_eq!(analysis.san(&best), "12... Re8 13. Nf1 Bf8");

        let start = Chess::default();
        let mut analysis = Analysis::new(start.clone(), 1, 1);
        analysis.update(&event(
            1,
            info(1, 5, Score::Cp(30), moves(&start, "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7")),
        ));
        let best = analysis.best().expect("line 1").clone();
        assert_eq!(analysis.san(&best), "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#");
    }
}
