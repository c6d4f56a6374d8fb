//! A match's live feed: every game that ends was shown move by move on its board, with the
//! clocks of the sides on a clock and the arbiter's countdowns after every move.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use crossbeam_channel::unbounded;
use kibitz_engine::matches::{
    EngineSpec, FinishedGame, Flow, Format, LiveEvent, MatchSetup, OpeningSource, Order, Standings, Watcher,
    read_suite, run,
};
use kibitz_engine::{AdjudicationRules, SearchLimits, TimeControl};
use shakmaty::{Color, Move};

struct Collect(Vec<FinishedGame>);

impl Watcher for Collect {
    fn finished(&mut self, game: &FinishedGame, _: &Standings) -> Flow {
        self.0.push(game.clone());
        Flow::Continue
    }
}

#[test]
fn every_game_is_shown_move_by_move_with_clocks_and_countdowns() {
    let clocked = EngineSpec {
        limits: SearchLimits { depth: Some(2), ..SearchLimits::default() },
        ..EngineSpec::builtin("Clocked", TimeControl::parse("60+1").expect("a clock"))
    };
    let engines = vec![EngineSpec::builtin("Depth1", TimeControl::Depth(1)), clocked];
    let mut setup = MatchSetup::new(engines, Format::Match);
    setup.rounds = 2;
    setup.concurrency = 2;
    let wac = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/epd/wac.epd");
    setup.openings = OpeningSource::suite(read_suite(&wac, None).expect("WAC"), Order::Random, 3);
    let rules = AdjudicationRules::tcec();
    setup.adjudication = std::sync::Arc::new(move || Box::new(rules.arbiter(None)) as _);
    let (feed, shown) = unbounded();
    setup.live = Some(feed);

    let mut finished = Collect(Vec::new());
    run(&setup, &mut finished, &AtomicBool::new(false)).expect("the match is played");
    drop(setup);

    // Each game number's opening and moves, as the boards showed them.
    let mut boards: HashMap<usize, (usize, Vec<Move>)> = HashMap::new();
    let mut games: HashMap<usize, (Vec<Move>, Vec<Move>)> = HashMap::new();
    for event in shown.iter() {
        match event {
            LiveEvent::Started { board, fixture, names, opening } => {
                assert!(board < 2, "two workers, two boards");
                let engines = [fixture.white, fixture.black].map(|i| ["Depth1", "Clocked"][i]);
                assert_eq!([names.white.as_str(), names.black.as_str()], engines);
                boards.insert(board, (fixture.number, Vec::new()));
                games.insert(fixture.number, (opening.moves().to_vec(), Vec::new()));
            }
            LiveEvent::Moved(moved) => {
                let (number, _) = boards.get(&moved.board).expect("a move on a board whose game started");
                assert_eq!(*number, moved.fixture.number, "the board's game");
                games.get_mut(number).expect("started").1.push(moved.mv);
                let clocked = if moved.fixture.white == 1 { Color::White } else { Color::Black };
                assert!(moved.clocks.get(clocked).is_some(), "the side on a clock shows its time");
                assert!(moved.clocks.get(!clocked).is_none(), "the side on depth has no clock");
                let rules: Vec<&str> = moved.countdowns.iter().map(|c| c.rule.as_str()).collect();
                assert!(rules.contains(&"TCEC draw rule") && rules.contains(&"TCEC win rule"), "{rules:?}");
            }
        }
    }
    assert_eq!(finished.0.len(), 4);
    for game in &finished.0 {
        let (opening, played) = &games[&game.fixture.number];
        let shown: Vec<Move> = opening.iter().chain(played).copied().collect();
        assert_eq!(game.record.moves(), shown.as_slice(), "game {} as shown", game.fixture.number);
        assert_eq!(played.len(), game.moves.len(), "one live move per engine move");
    }
}
