//! The line search: `solve` decides puzzles by a search over the line
//! automata before it builds a formula. It must find what the SAT search finds, and
//! what trying every grid with the matcher finds. That brute force judges grids with
//! crossat's own matcher (the verifier that also filters solver output); the matcher is
//! cross-checked against CPython's `re.fullmatch` on every clue and line string it was
//! asked about, in the same test.

use crate::common::{crossat, input_text, puzzle};
use crossat::pipeline::{self, Prepared};
use std::collections::{BTreeMap, BTreeSet};

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

/// Every grid over `alphabet` that the matcher accepts on every clue; each verdict of
/// the matcher is recorded in `asked` for the cross-check against CPython.
fn brute_force(prep: &Prepared, alphabet: &[char], asked: &mut BTreeMap<(String, String), bool>) -> BTreeSet<Vec<String>> {
    let p = &prep.puzzle;
    let cells = p.givens.len();
    let mut found = BTreeSet::new();
    for k in 0..alphabet.len().pow(cells as u32) {
        let letters: Vec<char> = (0..cells).map(|c| alphabet[k / alphabet.len().pow(c as u32) % alphabet.len()]).collect();
        let ok = p.clues.iter().enumerate().all(|(i, clue)| {
            let word: String = clue.cells.iter().map(|&c| letters[c]).collect();
            let verdict = prep.verifier.clue_matches(i, &word).expect("the matcher decides");
            asked.insert((clue.regex.clone(), word), verdict);
            verdict
        });
        if ok {
            let grid = crossat::verify::Grid { cells: letters, assignment: Vec::new() };
            let _ = found.insert(grid.rows(&p.shape));
        }
    }
    found
}

#[test]
fn the_line_search_finds_what_every_grid_tried_finds_on_random_small_puzzles() {
    // Three by three over A and B (512 grids each), clues drawn from regular ones and
    // ones with back-references and lookarounds (whose automata over-approximate them:
    // the search must check each grid it reaches with the matcher).
    const POOL: &[&str] = &[
        ".*",
        "A*B*",
        "(AB|BA)*.?",
        "B*A.*",
        ".A.",
        "AB.|BA.",
        "A.B",
        "(.)\\1.*",
        ".*(.)\\1",
        "(?=.*B).*",
        "(.)(?!\\1).*",
        ".*(?<=A)",
        "(.).\\1",
        "AA?B*",
        "[^A]*A[^A]*",
        "(.)\\1\\1",
        "B.?A",
        "(?!A).(.)\\1",
        "ABA|BAB|AAA",
    ];
    let mut seed: u64 = 0x11e5;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let (mut by_lines, mut counts) = (0, [0usize; 3]);
    let mut asked = BTreeMap::new();
    for _ in 0..800 {
        let left: Vec<&str> = (0..3).map(|_| POOL[next(POOL.len())]).collect();
        let top: Vec<&str> = (0..3).map(|_| POOL[next(POOL.len())]).collect();
        let text = serde_json::json!({"left": left, "top": top, "alphabet": "AB"}).to_string();
        let prep = pipeline::prepare(&input_text(&text)).expect("prepare");
        let all = brute_force(&prep, &['A', 'B'], &mut asked);
        counts[all.len().min(2)] += 1;
        for limit in [1, 2] {
            // The default budget, a budget large enough for every puzzle, and none.
            for budget in [None, Some(100_000), Some(0)] {
                let (grids, found, complete, nodes) = solve(&text, limit, budget);
                let context = format!("{text}, limit {limit}, budget {budget:?}");
                assert_eq!(found, all.len().min(limit), "{context}: count");
                assert_eq!(complete, all.len() < limit, "{context}: complete");
                assert_eq!(grids.len(), found, "{context}: a grid found twice");
                assert!(grids.is_subset(&all), "{context}: {grids:?} is not among {all:?}");
                if budget == Some(0) {
                    assert_eq!(nodes, None, "{context}: no line search with no budget");
                }
                by_lines += usize::from(nodes.is_some());
            }
        }
    }
    // The matcher that judged the grids is CPython's reading of the clues.
    let mut by_clue: BTreeMap<String, Vec<(String, bool)>> = BTreeMap::new();
    for ((clue, word), verdict) in &asked {
        by_clue.entry(clue.clone()).or_default().push((word.clone(), *verdict));
    }
    let cases: Vec<(String, Vec<String>)> =
        by_clue.iter().map(|(c, ws)| (c.clone(), ws.iter().map(|(w, _)| w.clone()).collect())).collect();
    for ((clue, words), python) in by_clue.iter().zip(crate::common::python_verdicts(&cases)) {
        let python = python.unwrap_or_else(|e| panic!("Python refuses {clue:?}: {e}"));
        let ours: Vec<bool> = words.iter().map(|(_, v)| *v).collect();
        assert_eq!(ours, python, "{clue:?} on {words:?}: crossat's matcher and CPython differ");
    }
    assert_eq!(by_clue.len(), POOL.len(), "every clue of the pool cross-checked");
    eprintln!("no solution, one, several: {counts:?}; decided by the line search: {by_lines}");
    assert!(counts[0] >= 50 && counts[1] >= 10 && counts[2] >= 50, "too few puzzles of some kind: {counts:?}");
    assert!(by_lines >= 1000, "the line search decided too few: {by_lines}");
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
