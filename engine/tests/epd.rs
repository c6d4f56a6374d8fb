//! The `epd` command (Crafty's `test`) through the real program.

use std::process::Command;

const SUITE: &str = "\
# mate in one, a hanging queen, and a move to avoid
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\";
4k3/8/8/3q4/8/8/3R4/4K3 w - - bm Rxd5; id \"queen\";
4k3/8/8/3q4/8/8/3R4/4K3 w - - am Kf1; id \"avoid\";
";

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kibitz-engine")).args(args).output().expect("kibitz-engine runs")
}

#[test]
fn solves_a_small_suite() {
    let path = std::env::temp_dir().join(format!("kibitz-epd-{}.epd", std::process::id()));
    std::fs::write(&path, SUITE).expect("temp file");
    let output = run(&["epd", path.to_str().expect("utf-8 path"), "--time", "0.5"]);
    let _ = std::fs::remove_file(&path);
    assert!(output.status.success());
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.lines().last(), Some("solved 3 of 3"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with("ok")).count(), 3);
}

#[test]
fn bad_arguments_and_files_exit_with_code_two() {
    let path = std::env::temp_dir().join(format!("kibitz-bad-{}.epd", std::process::id()));
    std::fs::write(&path, "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qh5;\n").expect("temp file");
    let bad = path.to_str().expect("utf-8 path");
    for args in [
        &["epd"][..],
        &["epd", "/no/such/file.epd", "--time", "1"],
        &["epd", bad, "--time", "1"],
        &["epd", bad],
        &["epd", bad, "--time", "-1"],
        &["epd", bad, "--time", "1", "--bogus", "2"],
    ] {
        let output = run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty());
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_suite_with_no_test_is_an_error() {
    let dir = std::env::temp_dir().join(format!("kibitz-epd-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    for (name, text, says) in [
        ("empty.epd", "", "nothing to test"),
        ("comments.epd", "# nothing here\n\n", "nothing to test"),
        ("junk.epd", "# junk follows\n\nnot a position\nneither is this\n", "junk.epd:3: "),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("temp file");
        let output = run(&["epd", path.to_str().expect("utf-8 path"), "--time", "1"]);
        assert_eq!(output.status.code(), Some(2), "{name}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{name}: {stderr}");
        assert!(output.stdout.is_empty(), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reads_crafty_s_own_format() {
    let path = std::env::temp_dir().join(format!("kibitz-crafty-{}.epd", std::process::id()));
    let suite = "title mate\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w\nsolution Ra8\n\n\
                 title no rook move\nsetboard 6k1/5ppp/8/8/8/8/8/R5K1 w\nsolution Ra8? Ra7?\nend\n";
    std::fs::write(&path, suite).expect("temp file");
    let output = run(&["epd", path.to_str().expect("utf-8 path"), "--time", "0.5"]);
    let _ = std::fs::remove_file(&path);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(text.lines().last(), Some("solved 1 of 2"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("FAIL no rook move")), "{text}");
}
