//! Kibitz's learning from its games, as the app drives it: the files load from a data folder,
//! a finished game is learned in the background (the book entry, the PostBook's first moves
//! after the book, the positions where the score dropped), the files written reload, and a
//! damaged file is set aside with an error naming it while the rest still loads.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::TempDir;
use kibitz_engine::{
    Book, BookFile, Command, Ending, GameRecord, LearnedFileErrorKind, LearnedPart, LearnedPosition,
    LearnedSummary, Learning, LearningFiles, LearningSettings, PositionTable, Rewrite, SaveMethod,
    Termination, book_key, encode_move, write_atomic,
};
use shakmaty::Color;

/// A book with 1. e4 e5 only: Kibitz (White) leaves it at its second move.
fn small_book() -> Vec<u8> {
    let mut game = GameRecord::new();
    let mut book = Book::new();
    for san in ["e4", "e5"] {
        let mv = game.parse_move(san).expect("legal");
        book.entry_mut(book_key(game.position()), encode_move(mv)).fixed.games = 10;
        game.play_text(san).expect("legal");
    }
    book.to_bytes()
}

/// Plays `moves` with Kibitz as White (its first move from the book, then searches with these
/// scores) and ends with `winner`.
fn game(learning: &mut Learning, moves: &[&str], scores: &[i32], winner: Color) -> GameRecord {
    let mut game = GameRecord::new();
    learning.new_game();
    for (ply, san) in moves.iter().enumerate() {
        game.play_text(san).expect("legal test move");
        if ply % 2 == 0 {
            let search = (ply > 0).then(|| (scores[ply / 2 - 1], 8));
            learning.engine_moved(ply, search);
        }
    }
    game.finish(Ending::win(winner, Termination::Resignation));
    game
}

/// Learns from `game` in the background, waits, writes the files and returns their paths.
fn learn(learning: &mut Learning, game: &GameRecord) -> Vec<std::path::PathBuf> {
    let wakes = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&wakes);
    assert!(learning.after_game(game, Color::White, move || {
        counter.fetch_add(1, Ordering::SeqCst);
    }));
    assert!(learning.is_learning());
    let learned = learning.wait().expect("learning was running").expect("learning ended");
    assert_eq!(wakes.load(Ordering::SeqCst), 1, "the owner is woken when the result is ready");
    for (path, bytes) in &learned.files {
        write_atomic(path, bytes).expect("writable");
    }
    learned.files.into_iter().map(|(path, _)| path).collect()
}

const LINE: [&str; 6] = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4"];

#[test]
fn a_lost_and_a_won_game_teach_the_book_the_postbook_and_the_positions() {
    let dir = TempDir::new("learning-games");
    let files = LearningFiles::in_folder(&dir.0);
    let (mut learning, set_aside) = Learning::load(files.clone(), LearningSettings::default(), &small_book());
    assert!(set_aside.is_empty(), "{set_aside:?}");
    assert_eq!(learning.summary(), LearnedSummary::default());

    // The score falls from 30 to -150 at Kibitz's third move, and Kibitz loses.
    let lost = game(&mut learning, &LINE, &[30, -150], Color::Black);
    let mut written = learn(&mut learning, &lost);
    written.sort();
    let mut expected =
        vec![files.book.clone(), files.positions.clone(), files.postbook.clone(), files.taught.clone()];
    expected.sort();
    assert_eq!(written, expected);
    assert!(!learning.after_game(&lost, Color::White, || {}), "a game is learned once");

    let start = lost.position_at(0);
    let e4 = encode_move(lost.moves()[0]);
    let book = learning.book().expect("Kibitz plays from its book");
    let entry = book.get(book_key(start), e4).expect("1. e4 is in the book");
    assert_eq!((entry.learned.games, entry.learned.losses), (1, 1));
    let Command::SetLearning { positions: Some(positions), postbook: Some(postbook) } = learning.command()
    else {
        panic!("positions and PostBook are used: {:?}", learning.command());
    };
    assert!(postbook.get(book_key(start), e4).is_none(), "a book move is not in the PostBook");
    let nf3 = postbook.get(book_key(lost.position_at(2)), encode_move(lost.moves()[2]));
    assert_eq!(
        nf3.map(|s| (s.stats.games, s.stats.losses, s.score_sum)),
        Some((1, 1, 30)),
        "the first move out of book"
    );
    assert_eq!(postbook.len(), 2, "Nf3 and Bc4");
    assert_eq!(
        positions.entries().copied().collect::<Vec<_>>(),
        [LearnedPosition {
            key: book_key(lost.position_at(4)),
            score: -150,
            depth: 8,
            mv: encode_move(lost.moves()[4])
        }]
    );

    // A won game adds to the same book entry and PostBook moves.
    let won = game(&mut learning, &LINE, &[40, 20], Color::White);
    learn(&mut learning, &won);
    let entry = *learning.book().expect("the book").get(book_key(start), e4).expect("1. e4");
    assert_eq!((entry.learned.games, entry.learned.wins, entry.learned.losses), (2, 1, 1));

    // Both games are kept, and both taught 1. e4 (the won one, the newer, first).
    let taught = learning.taught_games();
    assert_eq!(taught.len(), 2);
    let by = taught.index().taught_by(book_key(start), e4);
    assert_eq!(
        by.iter().map(|g| (g.index, g.ply, g.result.as_str())).collect::<Vec<_>>(),
        [(1, 0, "1-0"), (0, 0, "0-1")]
    );
    assert!(taught.index().taught_by(book_key(lost.position_at(1)), encode_move(lost.moves()[1])).is_empty());

    // What was written reloads.
    let (again, set_aside) = Learning::load(files, LearningSettings::default(), &[]);
    assert!(set_aside.is_empty(), "{set_aside:?}");
    assert_eq!(again.summary(), LearnedSummary { book_moves: 1, positions: 1, postbook_moves: 2 });
    assert_eq!(*again.taught_games(), *taught, "the games learned from reload");
    let reloaded = again.book().expect("the player's copy, not the (empty) default");
    assert_eq!(reloaded.get(book_key(start), e4).map(|e| e.learned), Some(entry.learned));
}

#[test]
fn the_switches_say_what_is_learned_and_used() {
    let dir = TempDir::new("learning-switches");
    let files = LearningFiles::in_folder(&dir.0);
    let mut settings = LearningSettings { own_book: false, ..LearningSettings::default() };
    settings.flags.position = false;
    let (mut learning, _) = Learning::load(files.clone(), settings, &small_book());
    assert!(learning.book().is_none(), "the book is off");
    let lost = game(&mut learning, &LINE, &[30, -150], Color::Black);
    assert_eq!(learn(&mut learning, &lost), [files.postbook.clone(), files.taught.clone()]);
    let Command::SetLearning { positions: None, postbook: Some(postbook) } = learning.command() else {
        panic!("only the PostBook is used: {:?}", learning.command());
    };
    assert_eq!(postbook.len(), 3, "without a book, all three of Kibitz's moves are after it");

    // An unfinished game, or one Kibitz did not play, teaches nothing.
    let mut unfinished = lost.clone();
    unfinished.truncate(lost.len() - 1);
    learning.take_back(unfinished.len());
    assert!(!learning.after_game(&unfinished, Color::White, || {}));
    learning.new_game();
    assert!(!learning.after_game(&lost, Color::White, || {}), "Kibitz played no move in this game");

    // Clearing forgets everything and writes the emptied files.
    learning.configure(LearningSettings::default());
    let cleared: Vec<_> = learning.clear().into_iter().collect();
    let paths: Vec<_> = cleared.iter().map(|(path, _)| path.clone()).collect();
    assert_eq!(paths, [files.postbook, files.taught.clone()]);
    assert!(cleared[1].1.is_empty(), "the games learned from are forgotten");
    assert_eq!(learning.summary(), LearnedSummary::default());
    assert!(learning.taught_games().is_empty());
}

#[test]
fn a_damaged_file_is_set_aside_with_an_error_naming_it_and_the_rest_loads() {
    let dir = TempDir::new("learning-damaged");
    let files = LearningFiles::in_folder(&dir.0);
    let mut table = PositionTable::default();
    table.insert(LearnedPosition { key: 7, score: -300, depth: 9, mv: 12 });
    table.save(&files.positions).expect("writable");
    let good = "0000000000000001 12 2 1 1 0 40";
    write_atomic(
        &files.postbook,
        format!("# Kibitz PostBook, version 1\n{good}\n0000000000000002 12 two 1 1 0 40\n").as_bytes(),
    )
    .expect("writable");
    write_atomic(&files.book, b"not a book").expect("writable");

    let (learning, set_aside) = Learning::load(files.clone(), LearningSettings::default(), &small_book());
    assert_eq!(
        set_aside.iter().map(|s| s.part).collect::<Vec<_>>(),
        [LearnedPart::Book, LearnedPart::PostBook]
    );
    let postbook = &set_aside[1];
    assert_eq!(postbook.error.path.as_deref(), Some(files.postbook.as_path()));
    assert_eq!(postbook.error.line, Some(3));
    assert!(
        matches!(&postbook.error.kind, LearnedFileErrorKind::BadLine { text, .. } if text.contains("two"))
    );
    let message = postbook.to_string();
    let named = format!("{}, line 3:", files.postbook.display());
    assert!(message.contains(&named) && message.contains(".bad"), "{message}");
    assert!(set_aside[0].to_string().contains("the default book is used"), "{}", set_aside[0]);
    for aside in &set_aside {
        assert!(aside.kept_as.exists(), "{} was kept", aside.kept_as.display());
    }
    assert!(!files.postbook.exists() && !files.book.exists());

    // The positions still load, and the default book stands in for the damaged copy.
    assert_eq!(learning.summary(), LearnedSummary { book_moves: 0, positions: 1, postbook_moves: 0 });
    assert_eq!(learning.book().map(|book| book.entries().len()), Some(2));
}

#[test]
fn a_book_saved_in_place_by_the_editor_is_adopted_and_learning_in_between_is_noticed() {
    let dir = TempDir::new("learning-adopt");
    let files = LearningFiles::in_folder(&dir.0);
    let (mut learning, _) = Learning::load(files, LearningSettings::default(), &small_book());
    let mut book = Book::clone(&learning.own_book().expect("the default book"));
    let (mut file, _) = BookFile::create(&learning.files().book, &book).expect("writable");
    // The player's value on 1... e5 (Kibitz plays White below, and learns about 1. e4).
    let mut after_e4 = GameRecord::new();
    after_e4.play_text("e4").expect("legal");
    let (key, e5) = (book_key(after_e4.position()), encode_move(after_e4.parse_move("e5").expect("legal")));
    book.get_mut(key, e5).expect("1... e5").user = Some(100);
    let report = file.save(&book, &[(key, e5)]).expect("saved");
    assert_eq!(report.method, SaveMethod::Patched { records: 1 });
    assert!(learning.adopt_book(Arc::new(book.clone())));
    assert_eq!(learning.book().as_deref(), Some(&book));

    // While a game is learned from, an edited book is not adopted.
    let lost = game(&mut learning, &LINE, &[30, -150], Color::Black);
    assert!(learning.after_game(&lost, Color::White, || {}));
    assert!(!learning.adopt_book(Arc::new(Book::new())));
    let learned = learning.wait().expect("running").expect("ended");
    for (path, bytes) in &learned.files {
        write_atomic(path, bytes).expect("writable");
    }
    // Learning wrote the file (1. e4 learned a loss), so it is not the one the editor saved:
    // the editor's next save rewrites it.
    assert!(
        learned
            .files
            .contains(&(learning.files().book.clone(), learning.own_book().expect("book").to_bytes()))
    );
    book.get_mut(key, e5).expect("1... e5").user = Some(90);
    let report = file.save(&book, &[(key, e5)]).expect("saved");
    assert_eq!(report.method, SaveMethod::Rewritten(Rewrite::ChangedOnDisk));
}
