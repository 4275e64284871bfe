//! The line search, as the command line shows it: `solve` decides puzzles by a search
//! over the line automata before it builds a formula, and gives way to the SAT search
//! at its budget (`--line-search-nodes`); `--stats` says which decided. (Its comparison with trying every grid is beside the code, in
//! `src/stages/solve/lines.rs`.)

use crate::common::{crossat, json_solutions, puzzle};

/// The grids and the summary of `crossat solve - --json --stats` (up to two grids, as
/// a uniqueness check asks) on `text`, with `extra` arguments.
fn solve(text: &str, extra: &[&str]) -> (Vec<Vec<String>>, serde_json::Value) {
    let args: Vec<&str> = ["solve", "-", "--json", "--stats", "--limit", "2"].into_iter().chain(extra.iter().copied()).collect();
    let r = crossat(&args, Some(text.as_bytes()));
    assert_eq!(r.code, 0, "{r:?}");
    json_solutions(&r.stdout)
}

#[test]
fn the_line_search_gives_way_to_sat_at_its_budget() {
    // A generated hard puzzle: no cell is fixed by its lines, so the line search needs
    // many decisions. With one node it gives up and the SAT search answers the same.
    let r = crossat(&["generate", "--size", "5x5", "--difficulty", "hard", "--seed", "2", "--json", "-q"], None);
    assert_eq!(r.code, 0, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    let text = v["crossat"].to_string();
    let answer: Vec<String> = serde_json::from_value(v["solution"].clone()).expect("solution rows");
    let (grids, summary) = solve(&text, &[]);
    assert_eq!((summary["solutions"].clone(), summary["complete"].clone()), (1.into(), true.into()), "{summary}");
    let nodes = &summary["stats"]["line_search_nodes"];
    assert!(nodes.as_u64().is_some_and(|n| n > 1), "{summary}");
    assert_eq!(grids, vec![answer.clone()]);
    let (grids, summary) = solve(&text, &["--line-search-nodes", "1"]);
    assert_eq!((summary["solutions"].clone(), summary["complete"].clone()), (1.into(), true.into()), "{summary}");
    assert_eq!(summary["stats"]["line_search_nodes"], serde_json::Value::Null, "{summary}");
    assert_eq!(grids, vec![answer]);
}

#[test]
fn stats_say_when_the_line_search_decided() {
    let f = puzzle("antoine-trux/search_required.input.txt");
    let f = f.to_str().expect("UTF-8 path");
    let r = crossat(&["solve", f, "--stats"], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("stats: the line search decided the puzzle in 2 nodes: no SAT search"), "{}", r.stderr);
    let r = crossat(&["solve", f, "--stats", "--json", "--line-search-nodes", "0"], None);
    assert_eq!(r.code, 0, "{r:?}");
    let summary: serde_json::Value = serde_json::from_str(r.stdout.lines().last().expect("summary")).expect("JSON");
    assert_eq!(summary["unique"], true);
    assert_eq!(summary["stats"]["searched"], true);
    assert_eq!(summary["stats"]["line_search_nodes"], serde_json::Value::Null);
    let r = crossat(&["solve", f, "--stats", "--json"], None);
    let summary: serde_json::Value = serde_json::from_str(r.stdout.lines().last().expect("summary")).expect("JSON");
    assert_eq!((summary["unique"].clone(), summary["stats"]["line_search_nodes"].clone()), (true.into(), 2.into()));
}
