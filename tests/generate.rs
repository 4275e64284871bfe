//! `crossat generate`: unique, deterministic, readable in both output formats.

use crate::common::crossat;
use serde_json::Value;

fn generate(args: &[&str]) -> Value {
    let mut all = vec!["generate", "--json"];
    all.extend_from_slice(args);
    let run = crossat(&all, None);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    serde_json::from_str(run.stdout.trim()).expect("one JSON line")
}

/// Solves a generated puzzle written in `format`; returns the solutions found (up to 2)
/// and whether the search was exhausted.
fn solve_written(text: &str, ext: &str) -> (Vec<Vec<String>>, bool) {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join(format!("p.{ext}"));
    std::fs::write(&path, text).expect("write");
    let run = crossat(&["solve", path.to_str().expect("path"), "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<Value> = run.stdout.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    let grids = lines
        .iter()
        .filter(|l| l["type"] == "solution")
        .map(|l| l["grid"].as_array().expect("grid").iter().map(|r| r.as_str().expect("row").to_string()).collect())
        .collect();
    (grids, lines.last().expect("summary")["complete"] == true)
}

#[test]
fn generated_puzzles_are_unique_in_both_formats() {
    let cases: [&[&str]; 4] = [
        &["--size", "4x5", "--text", "REGEXCROSSWORDPUZZLE", "--seed", "11"],
        &["--size", "3x4", "--sides", "2", "--text", "ABBACDDCEFFE", "--backrefs", "--seed", "3"],
        &["--hex", "3", "--text", "HEXAGONALGRIDSOLVER", "--seed", "5"],
        &["--size", "2x3", "--seed", "9"],
    ];
    for args in cases {
        let g = generate(args);
        let solution: Vec<String> =
            g["solution"].as_array().expect("solution").iter().map(|r| r.as_str().expect("row").to_string()).collect();
        if let Some(k) = args.iter().position(|a| *a == "--text") {
            assert!(solution.concat().starts_with(args[k + 1]), "{args:?}: the text fills the grid");
        }
        for (text, ext) in [(g["crossat"].to_string(), "json"), (g["trux"].as_str().expect("trux").to_string(), "txt")] {
            let (grids, complete) = solve_written(&text, ext);
            assert!(complete && grids == vec![solution.clone()], "{args:?} ({ext}): {grids:?}");
        }
        if args.contains(&"--backrefs") {
            assert!(
                g["trux"].as_str().expect("trux").contains("\\1"),
                "{args:?}: back-references were allowed and the text repeats letters"
            );
        } else {
            assert!(!g["trux"].as_str().expect("trux").contains("\\1"), "{args:?}");
        }
    }
}

#[test]
fn the_seed_decides_the_puzzle() {
    let a = generate(&["--size", "4x4", "--text", "SEEDSMAKEPUZZLES", "--seed", "1"]);
    let b = generate(&["--size", "4x4", "--text", "SEEDSMAKEPUZZLES", "--seed", "1"]);
    let c = generate(&["--size", "4x4", "--text", "SEEDSMAKEPUZZLES", "--seed", "2"]);
    assert_eq!(a["crossat"], b["crossat"]);
    assert_ne!(a["crossat"], c["crossat"]);
}

#[test]
fn generate_bad_input() {
    for (args, message) in [
        (vec!["generate", "--size", "2x2", "--text", "TOOLONG"], "more than the 4 cells"),
        (vec!["generate", "--size", "0x3"], "--size must be ROWSxCOLS"),
        (vec!["generate", "--size", "axb"], "--size must be ROWSxCOLS"),
        (vec!["generate", "--hex", "1"], "--hex must be a side from 2 to 8"),
        (vec!["generate", "--size", "2x2", "--sides", "3"], "3"),
        (vec!["generate"], "required"),
    ] {
        let run = crossat(&args, None);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
    }
}
