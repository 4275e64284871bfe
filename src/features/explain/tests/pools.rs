//! `explain` on regex pools: every step re-checked independently of the engine. An
//! entry step is replayed with CPython (`scripts/line_support.py`, as line steps are
//! in `mod.rs`) for each regex the entry could hold before it: a regex goes exactly when no string over the
//! cells' candidates matches it, and a letter goes exactly when no matching string of
//! a regex left uses it at its cell. An assign step is checked by brute force over
//! the one-to-one assignments of the entries' candidate regexes (a dynamic programme
//! over sets of regexes, not the engine's matching): nothing removed is in any
//! assignment, and the rule it names holds.

use super::{Replay, explain, input_text, input_with_pool, letters};
use crate::deduce::constraints::{Constraint, constraint};
use crate::deduce::pool::Rule;
use crate::deduce::{Kind, Step, Why};
use crate::explain::Answer;
use crate::pipeline::Prepared;
use crate::propagate::SymSet;
use crate::rng::Rng;
use crate::test_support as common;
use serde_json::json;
use std::collections::HashSet;

/// One entry step to re-check.
pub(crate) struct EntryQuery {
    what: String,
    /// The regexes the entry could hold before the step (index, text).
    regexes: Vec<(usize, String)>,
    /// Candidates of its cells before the step.
    before: Vec<String>,
    /// The regexes it can hold after.
    after_regexes: SymSet,
    /// Candidates of its cells after.
    after: Vec<String>,
    extra: bool,
}

/// Replays an entry step (a line step of a pool entry) and queues its Python check.
pub(crate) fn entry_step(prep: &Prepared, what: &str, step: &Step, doms: &mut [SymSet], out: &mut Replay) {
    let pool = prep.puzzle.pool.as_ref().expect("a pool");
    let Some(Constraint::Entry(e)) = step.clue.map(|i| constraint(&prep.puzzle, i)) else { panic!("{what}: not an entry") };
    let (grid, cells) = (prep.puzzle.givens.len(), &pool.entries[e]);
    assert!(step.cells.iter().all(|c| *c == grid + e || cells.contains(c)), "{what}: a cell outside the entry");
    let regexes: Vec<(usize, String)> = doms[grid + e].iter().map(|r| (r, pool.regexes[r].clone())).collect();
    let before: Vec<String> = cells.iter().map(|&c| letters(prep, &doms[c])).collect();
    for (&c, left) in step.cells.iter().zip(&step.remaining) {
        doms[c] = *left;
    }
    out.entries.push(EntryQuery {
        what: format!("{what} (entry {})", pool.labels[e]),
        regexes,
        before,
        after_regexes: doms[grid + e],
        after: cells.iter().map(|&c| letters(prep, &doms[c])).collect(),
        extra: step.extra,
    });
}

/// Asks Python about every entry step; fails naming the first it contradicts. Steps
/// left unchecked (a regex of the entry too large for Python, or the documented CPython
/// crash) are counted, each kind at most 1 %, and at least `min` steps are compared.
/// Returns how many were compared.
pub(crate) fn check_entries(queries: &[EntryQuery], min: usize) -> usize {
    let requests = queries.iter().flat_map(|q| q.regexes.iter().map(|(_, p)| json!({"p": p, "cands": q.before}))).collect::<Vec<_>>();
    let mut answers = common::python_oracle("scripts/line_support.py", requests).into_iter();
    let (mut crashed, mut asked, mut too_large, mut compared) = (0, 0, 0, 0);
    for q in queries {
        let mut used = vec![String::new(); q.before.len()];
        let mut decided = true;
        let mut large = false;
        for (r, p) in &q.regexes {
            let a = answers.next().expect("an answer");
            asked += 1;
            if let Some(why) = a.get("skip") {
                eprintln!("{}: `{p}` too large to check: {why}", q.what);
                (decided, large) = (false, true);
                continue;
            }
            if a["ok"] != true {
                super::python_refusal(p, &a, &q.what);
                crashed += 1;
                decided = false;
                continue;
            }
            // Some string matches exactly when every cell has a letter some string uses.
            let fits = a["used"].as_array().expect("used").iter().all(|u| u.as_str().is_some_and(|u| !u.is_empty()));
            assert_eq!(
                fits,
                q.after_regexes.contains(*r),
                "{}: `{p}` {} a word over {:?}",
                q.what,
                if fits { "has" } else { "has no" },
                q.before
            );
            for (u, x) in used.iter_mut().zip(a["used"].as_array().expect("used")) {
                u.push_str(x.as_str().expect("str"));
            }
        }
        too_large += usize::from(large);
        if !decided {
            continue;
        }
        compared += 1;
        for (p, (u, after)) in used.iter().zip(&q.after).enumerate() {
            assert!(u.chars().all(|ch| after.contains(ch)), "{}: position {p} removes a letter of a matching string", q.what);
            if !q.extra {
                assert!(after.chars().all(|ch| u.contains(ch)), "{}: position {p} keeps a letter no matching string uses", q.what);
            }
        }
    }
    common::bound_skips("explain: entry regexes where CPython's matcher crashed", crashed, asked, asked - crashed, 0);
    common::bound_skips("explain: entry steps too large to check", too_large, queries.len(), compared, min);
    compared
}

/// Per entry, the regexes some one-to-one assignment of `doms` (each entry's candidate
/// regexes, as many regexes as entries) gives it.
fn assignable(doms: &[SymSet]) -> Vec<SymSet> {
    let n = doms.len();
    let full: u32 = (1u32 << n) - 1;
    let grow = |sets: &HashSet<u32>, d: &SymSet| -> HashSet<u32> {
        sets.iter().flat_map(|&m| d.iter().filter(move |&r| m & (1 << r) == 0).map(move |r| m | (1 << r))).collect()
    };
    let mut forward = vec![HashSet::from([0u32])];
    for d in doms {
        let next = grow(forward.last().expect("a layer"), d);
        forward.push(next);
    }
    let mut backward = vec![HashSet::from([0u32]); n + 1];
    for e in (0..n).rev() {
        backward[e] = grow(&backward[e + 1], &doms[e]);
    }
    (0..n)
        .map(|e| {
            let mut keep = SymSet::default();
            for r in doms[e].iter() {
                if forward[e].iter().any(|&m| m & (1 << r) == 0 && backward[e + 1].contains(&(full ^ m ^ (1 << r)))) {
                    keep.insert(r);
                }
            }
            keep
        })
        .collect()
}

/// Replays an assign step: removes only what no assignment allows, by the rule it names.
pub(crate) fn assign_step(prep: &Prepared, what: &str, step: &Step, doms: &mut [SymSet]) {
    let grid = prep.puzzle.givens.len();
    assert!(step.cells.iter().all(|&c| c >= grid), "{what}: an assign step changes a grid cell");
    let before = doms[grid..].to_vec();
    let exact = assignable(&before);
    for ((&c, removed), left) in step.cells.iter().zip(&step.removed).zip(&step.remaining) {
        assert!(removed.and(&exact[c - grid]).is_empty(), "{what}: entry {} loses a regex some assignment gives it", c - grid);
        match &step.why {
            Why::Pool(Rule::Taken { entry, regex }) => {
                assert!(c - grid != *entry && before[*entry].len() == 1 && before[*entry].contains(*regex), "{what}: not taken");
                assert!(removed.len() == 1 && removed.contains(*regex), "{what}: removes more than the regex taken");
            }
            Why::Pool(Rule::Only { entry, regex }) => {
                assert!(c - grid == *entry && left.len() == 1 && left.contains(*regex), "{what}: not the entry's");
                assert!((0..before.len()).all(|f| f == *entry || !before[f].contains(*regex)), "{what}: another entry can hold it");
            }
            Why::Pool(Rule::NoAssignment) => assert_eq!(*left, exact[c - grid], "{what}: keeps a regex no assignment gives"),
            other => panic!("{what}: an assign step with reason {other:?}"),
        }
        doms[c] = *left;
    }
}

/// A pool puzzle's explanation, replayed: returns the answer and steps of each kind.
fn explain_pool(text: &str, alphabet: Option<&[char]>, out: &mut Replay) -> (Answer, usize, usize) {
    let mut input = input_text(text);
    input.alphabet = alphabet.map(<[char]>::to_vec);
    let (_, ex, _) = explain(&input, 2_000, out);
    (ex.answer, ex.deduction.count(Kind::Assign), ex.deduction.count(Kind::Split))
}

#[test]
fn regex_pools_are_explained_step_by_step() {
    // The bundled Louridas puzzles, against their known solutions.
    let mut bundled = Replay::default();
    let mut assigns = 0;
    for name in ["films", "hex", "laughs"] {
        let path = common::puzzle(&format!("louridas/{name}.csv"));
        let (prep, ex, _) = explain(&input_with_pool(&path), 10_000, &mut bundled);
        // The expected output lists `INDEX REGEX WORD` per entry: the same words.
        let text = {
            let path = common::puzzle(&format!("louridas/expected_output_{name}.txt"));
            crate::puzzle::trux::decode(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        };
        let mut expected: Vec<&str> = text.lines().map(|l| l.split_whitespace().nth(2).expect("INDEX REGEX WORD")).collect();
        let Answer::Unique(cells) = &ex.answer else { panic!("{name}: {:?}", ex.answer) };
        let pool = prep.puzzle.pool.as_ref().expect("a pool");
        let mut words: Vec<String> = pool.entries.iter().map(|entry| entry.iter().map(|&c| cells[c]).collect()).collect();
        words.sort();
        expected.sort_unstable();
        assert_eq!(words, expected, "{name}: the entries' words are not the expected output's");
        assert!(ex.unique_by_deduction, "{name}");
        assigns += ex.deduction.count(Kind::Assign);
    }
    assert!(assigns > 0);
    let compared = check_entries(&bundled.entries, 70);
    let mut out = Replay::default();
    // Random pools: the rows and columns of a planted grid, their clues shuffled into a pool.
    let mut rng = Rng::new(2728);
    let alphabet = ['A', 'B', 'C'];
    let (mut total, mut unique, mut splits, mut assign) = (0, 0, 0, 0);
    for _ in 0..1000 {
        let (rows, cols) = (1 + rng.below(3), 2 + rng.below(2));
        let grid: Vec<char> = (0..rows * cols).map(|_| *rng.pick(&alphabet)).collect();
        let mut entries = Vec::new();
        let mut regexes = Vec::new();
        for r in 0..rows {
            let word: Vec<char> = (0..cols).map(|c| grid[r * cols + c]).collect();
            regexes.push(super::planted(&mut rng, &word, &alphabet));
            entries.push(json!({"label": format!("r{}", r + 1), "cells": (0..cols).map(|c| json!([r, c])).collect::<Vec<_>>()}));
        }
        for c in 0..cols {
            let word: Vec<char> = (0..rows).map(|r| grid[r * cols + c]).collect();
            regexes.push(super::planted(&mut rng, &word, &alphabet));
            entries.push(json!({"label": format!("c{}", c + 1), "cells": (0..rows).map(|r| json!([r, c])).collect::<Vec<_>>()}));
        }
        for k in (1..regexes.len()).rev() {
            regexes.swap(k, rng.below(k + 1));
        }
        let text = json!({"layout": "free", "alphabet": "ABC", "entries": entries, "pool": regexes}).to_string();
        let (answer, a, s) = explain_pool(&text, Some(&alphabet), &mut out);
        assert!(answer != Answer::None, "{text}: the planted grid is a solution");
        total += 1;
        unique += usize::from(matches!(answer, Answer::Unique(_)));
        (assign, splits) = (assign + a, splits + s);
    }
    check_entries(&out.entries, 8000);
    super::check_with_python(&out.queries, 0);
    assert!(assign > 0 && unique > 0);
    eprintln!(
        "explain: 3 Louridas pools ({compared} entry steps checked with Python) and {total} random ones ({unique} unique, {assign} assign steps, {splits} case splits, {} entry steps checked)",
        out.entries.len()
    );
}
