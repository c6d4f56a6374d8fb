//! The settings and the saved game under fuzzing: mutated JSON written to a file and loaded.
//! Loading never panics; a damaged file gives a notice (the settings then are the defaults).

use std::path::Path;
use std::time::Instant;

use kibitz_app::{SavedGame, Settings};
use kibitz_engine::fuzz::{MAX_INPUT, Mutator, SLOW, escape};
use kibitz_engine::{GameRecord, Level};
use shakmaty::Color;

const INPUTS: usize = 1500;

/// Writes each mutated input to a file and loads it with `load`, which says whether it gave a
/// notice; `damaged` says whether the input should give one.
fn fuzz_file(seeds: Vec<Vec<u8>>, load: impl Fn(&Path) -> bool, damaged: impl Fn(&[u8]) -> bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("file.json");
    let mut mutator = Mutator::new(seeds, 1, MAX_INPUT);
    let mut notices = 0;
    for _ in 0..INPUTS {
        let input = mutator.next_input();
        std::fs::write(&path, &input).expect("write");
        let began = Instant::now();
        let noticed = load(&path);
        let took = began.elapsed();
        assert!(took <= SLOW, "took {took:?} on b\"{}\"", escape(&input));
        assert_eq!(noticed, damaged(&input), "b\"{}\"", escape(&input));
        notices += usize::from(noticed);
    }
    assert!(notices > INPUTS / 4 && notices < INPUTS, "{notices} notices: the mutations damage some files");
}

#[test]
fn damaged_settings_give_a_notice_and_the_defaults() {
    let mut settings = Settings::default();
    settings.engines.clear();
    let seeds = vec![Settings::default().to_json(), settings.to_json(), b"{}".to_vec()];
    fuzz_file(
        seeds,
        |path| {
            let peeked = Settings::peek(path);
            let (loaded, notice) = Settings::load(path);
            if notice.is_some() {
                assert_eq!(loaded, Settings::default(), "{notice:?}");
                assert!(peeked.is_none());
            }
            notice.is_some()
        },
        |bytes| serde_json::from_slice::<Settings>(bytes).is_err(),
    );
}

#[test]
fn a_damaged_saved_game_gives_a_notice() {
    let mut game = GameRecord::new();
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
        game.play_text(san).expect("legal");
    }
    let seeds = vec![
        SavedGame::new(&game, Color::White, Level::default()).to_json(),
        SavedGame::new(&GameRecord::new(), Color::Black, Level::default()).to_json(),
    ];
    fuzz_file(
        seeds,
        |path| {
            let (saved, notice) = SavedGame::load_unfinished(path);
            assert!(saved.is_none() || notice.is_none());
            notice.is_some()
        },
        |bytes| serde_json::from_slice::<SavedGame>(bytes).map_or(true, |saved| saved.game().is_err()),
    );
}
