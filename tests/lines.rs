//! The line search: `solve` decides puzzles by a search over the line automata before
//! it builds a formula, and gives way to the SAT search at its budget; `--stats` says
//! which decided. (Its comparison with trying every grid is beside the code, in
//! `src/stages/solve/lines.rs`.)

use crate::common::{crossat, input_text, puzzle};
use crossat::pipeline;
use std::collections::BTreeSet;

/// Up to `limit` grids of `solve`, as rows, and the outcome; `budget` bounds the line
/// search (0: the SAT search alone).
fn solve(text: &str, limit: usize, budget: Option<usize>) -> (BTreeSet<Vec<String>>, usize, bool, Option<usize>) {
    let mut prep = pipeline::prepare(&input_text(text)).expect("prepare");
    if let Some(b) = budget {
        prep.set_line_budget(b);
    }
    let mut set = BTreeSet::new();
    let outcome = pipeline::solve(&mut prep, Some(limit), |p, g| {
        let _ = set.insert(g.rows(&p.shape));
        Ok(())
    })
    .expect("solve");
    (set, outcome.found, outcome.complete, prep.line_nodes())
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
    let (grids, found, complete, nodes) = solve(&text, 2, None);
    assert_eq!((found, complete), (1, true));
    assert!(nodes.is_some_and(|n| n > 1), "{nodes:?}");
    assert_eq!(grids.into_iter().next(), Some(answer.clone()));
    let (grids, found, complete, nodes) = solve(&text, 2, Some(1));
    assert_eq!((found, complete, nodes), (1, true, None));
    assert_eq!(grids.into_iter().next(), Some(answer));
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
