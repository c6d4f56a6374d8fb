//! User values from annotated PGN (import and export), and learning after scripted games:
//! won, lost, drawn; user values untouched. Also the command line.

use kibitz_engine::{
    Book, BookSettings, GameRecord, LearnFlags, LearnedPosition, PlayedGame, PositionTable, PostBook,
    book_key, encode_move, read_pgn,
};
use shakmaty::Color;

/// Terra's ownscore.pgn example, then a line that overrides a NAG (the last one wins).
const OWNSCORE: &str = "[Event \"Line 1\"]\n\n1. e4!! c6!? 2. d4!! *\n\n[Event \"Line 2\"]\n\n1. d4!! Nf6! 2. c4! d6! *\n\n[Event \"Line 3\"]\n\n1. d4 d5! 2. c4 a6? *\n\n[Event \"Line 4\"]\n\n1. f4! {play 40%} e5 $6 *\n\n[Event \"Line 5\"]\n\n1. f4? *\n";

fn value(book: &Book, line: &str) -> (Option<u8>, Option<u8>) {
    let game = read_pgn(line).unwrap();
    let ply = game.len() - 1;
    let e = book.get(book_key(game.position_at(ply)), encode_move(game.moves()[ply])).unwrap();
    (e.user, e.play_pct)
}

#[test]
fn nags_import_and_export() {
    let mut book = Book::new();
    let report = book.import_nags(OWNSCORE.as_bytes()).unwrap();
    assert_eq!(report.games, 5);
    assert_eq!(value(&book, "1. e4"), (Some(100), None));
    assert_eq!(value(&book, "1. e4 c6"), (Some(15), None));
    assert_eq!(value(&book, "1. d4"), (Some(100), None));
    assert_eq!(value(&book, "1. d4 Nf6"), (Some(75), None));
    assert_eq!(value(&book, "1. d4 d5 2. c4 a6"), (Some(0), None));
    assert_eq!(value(&book, "1. f4"), (Some(0), Some(40)), "the last NAG wins, the play% stays");
    assert_eq!(value(&book, "1. f4 e5"), (Some(0), None));
    // Export and import again: the same user values.
    let text = book.export_nags();
    assert!(text.contains("1. e4!! c6!? 2. d4!!"), "{text}");
    let mut again = Book::new();
    again.import_nags(text.as_bytes()).unwrap();
    let strip = |b: &Book| b.entries().iter().map(|e| (e.key, e.mv, e.user, e.play_pct)).collect::<Vec<_>>();
    assert_eq!(strip(&again), strip(&book));
    // 1.e4 and 1.d4 are always played.
    let start = GameRecord::new();
    let candidates = book.explain(start.position(), &BookSettings::default());
    let playable: Vec<_> = candidates.iter().filter(|c| c.probability > 0.0).collect();
    assert_eq!(playable.len(), 2);
}

/// A book with two choices for White at the start and statistics for the replies.
fn book() -> Book {
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 2. c4 e6 0-1\n\n[Result \"1/2-1/2\"]\n\n1. e4 c5 1/2-1/2\n";
    let mut builder = kibitz_engine::BookBuilder::new(kibitz_engine::BuildOptions::default());
    builder.add_pgn(pgn.as_bytes(), &mut |_| std::ops::ControlFlow::Continue(())).unwrap();
    builder.finish()
}

fn play(moves: &str, result: &str) -> GameRecord {
    let mut game = read_pgn(&format!("[Result \"{result}\"]\n\n{moves} {result}\n")).unwrap();
    game.set_tag("Result", result);
    game
}

#[test]
fn learning_after_won_lost_and_drawn_games() {
    let settings = BookSettings::default();
    let flags = LearnFlags::default();
    let start = GameRecord::new();
    let key = book_key(start.position());
    let e4 = encode_move(start.parse_move("e4").unwrap());
    let d4 = encode_move(start.parse_move("d4").unwrap());
    let mut book = book();
    book.get_mut(key, d4).unwrap().user = Some(50);
    let user_before = *book.get(key, d4).unwrap();

    // Won with 1.e4, out of book after 2.Nf3 Nc6; Kibitz's searches afterwards score +30.
    let game = play("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6", "1-0");
    let mut scores = vec![None; game.len()];
    scores[4] = Some((20, 10));
    scores[6] = Some((30, 11));
    let report =
        book.learn(&PlayedGame { game: &game, engine: Color::White, scores: &scores }, flags, &settings);
    assert_eq!(report.book_plies, 4);
    assert_eq!(report.updated, 2);
    assert_eq!(report.score, Some(30));
    let e = book.get(key, e4).unwrap();
    assert_eq!((e.learned.games, e.learned.wins, e.learn_score), (1, 1, 30));

    // Drawn with 1.e4 c5.
    let game = play("1. e4 c5", "1/2-1/2");
    book.learn(&PlayedGame { game: &game, engine: Color::White, scores: &[] }, flags, &settings);
    let e = book.get(key, e4).unwrap();
    assert_eq!((e.learned.games, e.learned.wins, e.learned.draws), (2, 1, 1));

    // Lost with 1.e4 e5: result learning flags 1.e4, the last choice Kibitz had.
    let game = play("1. e4 e5 2. Nf3 Nc6 3. Bc4", "0-1");
    let report = book.learn(&PlayedGame { game: &game, engine: Color::White, scores: &[] }, flags, &settings);
    assert_eq!(report.never_play, Some((key, e4)));
    let e = book.get(key, e4).unwrap();
    assert_eq!((e.learned.games, e.learned.losses), (3, 1));
    assert!(e.never_play);
    assert!(book.avoid_list(start.position(), &settings).contains(&start.parse_move("e4").unwrap()));

    // A lost game with the user-set 1.d4: nothing about 1.d4 changes.
    let game = play("1. d4 d5 2. c4 e6", "0-1");
    let report = book.learn(&PlayedGame { game: &game, engine: Color::White, scores: &[] }, flags, &settings);
    assert_eq!(*book.get(key, d4).unwrap(), user_before);
    assert_eq!(report.never_play, None);

    // Learning switched off.
    let before = book.clone();
    let game = play("1. e4 e5", "1-0");
    book.learn(
        &PlayedGame { game: &game, engine: Color::White, scores: &[] },
        LearnFlags::from_bits(0),
        &settings,
    );
    assert_eq!(book, before);

    // Export, clear and import the learned data.
    let text = book.export_learning();
    let mut fresh = self::book();
    fresh.get_mut(key, d4).unwrap().user = Some(50);
    assert_eq!(fresh.import_learning(&text, true).unwrap(), 3); // 1.e4, 2.Nf3, 2.c4
    assert_eq!(fresh.get(key, e4), book.get(key, e4));
}

#[test]
fn postbook_and_position_learning() {
    let book = book();
    let mut post = PostBook::new();
    let game = play("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6", "0-1");
    let mut scores = vec![None; game.len()];
    scores[4] = Some((10, 8));
    scores[6] = Some((-250, 9));
    let played = PlayedGame { game: &game, engine: Color::White, scores: &scores };
    assert_eq!(post.learn(&book, &played), 2);
    post.learn(&book, &played);
    let after_book = game.position_at(4);
    assert_eq!(post.avoid(after_book), vec![game.moves()[4]]);
    assert_eq!(PostBook::from_text(&post.to_text()).unwrap(), post);
    post.clear();
    assert!(post.is_empty());

    let mut table = PositionTable::new(4);
    assert_eq!(table.learn(&played), 1);
    let learned: Vec<&LearnedPosition> = table.entries().collect();
    assert_eq!(
        (learned[0].key, learned[0].score, learned[0].depth),
        (book_key(game.position_at(6)), -250, 9)
    );
    let mut copy = PositionTable::new(4);
    copy.import(&table.export(), true).unwrap();
    assert_eq!(copy, table);
    let bytes = table.to_bytes();
    assert!(PositionTable::from_bytes(&bytes[..bytes.len() - 1], 4).is_err());
}

#[test]
fn command_line_build_probe_export_merge() {
    let dir = std::env::temp_dir().join(format!("kibitz-book-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[Result \"1-0\"]\n\n1. e4 c5 1-0\n\n[Result \"0-1\"]\n\n1. d4 d5 0-1\n").unwrap();
    let nags = dir.join("own.pgn");
    std::fs::write(&nags, OWNSCORE).unwrap();
    let s = |p: &std::path::Path| p.display().to_string();
    let run = |args: &[&str]| {
        let args: Vec<String> =
            std::iter::once("book").chain(args.iter().copied()).map(String::from).collect();
        kibitz_engine::cli::run(&args)
    };
    let ok = std::process::ExitCode::SUCCESS;
    let book = dir.join("own.kbook");
    let bin = dir.join("own.bin");
    let merged = dir.join("merged.kbook");
    assert_eq!(run(&["build", &s(&pgn), &s(&book), "--plies", "4", "--min-games", "1"]), ok);
    assert_eq!(run(&["nags", "import", &s(&book), &s(&nags)]), ok);
    assert_eq!(run(&["probe", &s(&book)]), ok);
    assert_eq!(
        run(&[
            "probe",
            &s(&book),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "--mode",
            "crafty"
        ]),
        ok
    );
    assert_eq!(run(&["export", &s(&book), &s(&bin)]), ok);
    assert_eq!(run(&["merge", &s(&book), &s(&bin), &s(&merged), "--min-games", "1"]), ok);
    assert_eq!(run(&["nags", "export", &s(&book), &s(&dir.join("back.pgn"))]), ok);
    assert_ne!(run(&["probe", &s(&pgn)]), ok, "a PGN is not a book");
    let b = Book::load(&book).unwrap();
    assert_eq!(b.legal_moves(GameRecord::new().position()).len(), 3);
}
