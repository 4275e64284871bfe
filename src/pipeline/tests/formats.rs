//! crossat JSON through the whole chain: a puzzle read, written and read again solves
//! the same.

use super::{input_text, solve_in_process};
use crate::pipeline::{self, Input};

/// An `Input` for a file on disk.
fn input_file(path: &std::path::Path, id: Option<&str>) -> Input {
    Input {
        source: path.display().to_string(),
        bytes: std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        id: id.map(str::to_string),
        ..Input::default()
    }
}

#[test]
fn crossat_json_holds_three_sides_and_reads_back() {
    let file = crate::test_support::root().join("puzzles/regexcrossword-com/challenges.json");
    let p = pipeline::prepare(&input_file(&file, Some("hexagonal/5"))).expect("reads").puzzle;
    let json = crate::puzzle::native::write(&p);
    assert_eq!(json["sides"], serde_json::json!([4, 5, 5]), "{json}");
    assert!(json.get("side").is_none(), "{json}");
    let back = pipeline::prepare(&input_text(&json.to_string())).expect("reads back").puzzle;
    assert_eq!((back.shape, back.clues), (p.shape.clone(), p.clues.clone()));
    let (a, _) = solve_in_process(input_text(&json.to_string())).expect("solves");
    let (b, _) = solve_in_process(input_file(&file, Some("hexagonal/5"))).expect("solves");
    assert_eq!(a, b);
    // A regular hexagon keeps `side`.
    let p = pipeline::prepare(&input_file(&file, Some("hexagonal/3"))).expect("reads").puzzle;
    assert_eq!(crate::puzzle::native::write(&p)["side"], 3);
}
