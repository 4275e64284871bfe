//! The library keeps no process state: limits and cancellation are values each call
//! is given ([`crossat::stop::Cancel`], [`crossat::limits::Limits`]), so calls on
//! several threads with different limits do not affect each other, and answers do
//! not depend on what else runs.

use crate::common::{input_file, input_text, root};
use crossat::limits::Limits;
use crossat::puzzle::Input;
use crossat::stop::Cancel;
use crossat::{Error, Puzzle};
use std::path::PathBuf;
use std::sync::{Arc, Barrier};
use std::time::Duration;

/// A puzzle whose search is the counterexample loop (the one `bench`'s own test
/// uses): its clue (a back-reference that a negative lookahead contradicts) has no
/// match, but its CNF admits every line, so the loop rejects grid after grid, one SAT
/// call each, until its limit: far longer than the deadlines below.
fn slow() -> Input {
    let json = serde_json::json!({"left": [r"(.)(?!\1)\1.*"], "top": vec!["."; 6], "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"});
    input_text(&json.to_string())
}

/// What a solve of `input` (up to two solutions) answers: the grids and whether the
/// search was exhausted, or the error's text.
type Answer = Result<(Vec<Vec<String>>, bool), String>;

fn solve(mut input: Input, cancel: &Cancel) -> Answer {
    input.cancel = cancel.clone();
    let mut puzzle = Puzzle::from_input(&input).map_err(|e| e.to_string())?;
    let found = puzzle.solutions(2).map_err(|e| e.to_string())?;
    Ok((found.solutions.into_iter().map(|s| s.rows).collect(), found.complete))
}

/// The bundled collections: every antoine-trux puzzle, every regexcrossword.com
/// challenge (by id), the dkesler, seed000, bbc, solrabizna and binoternary puzzles.
fn bundled() -> Vec<(String, Input)> {
    let dir = |d: &str| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> =
            std::fs::read_dir(root().join("puzzles").join(d)).expect("puzzle folder").map(|e| e.expect("entry").path()).collect();
        v.sort();
        v
    };
    let mut out = Vec::new();
    let mut add = |path: &PathBuf, id: Option<&str>| {
        let name = format!("{}{}", path.display(), id.map_or(String::new(), |i| format!("#{i}")));
        out.push((name, input_file(path, id)));
    };
    for p in dir("antoine-trux").iter().filter(|p| p.to_string_lossy().ends_with(".input.txt")) {
        add(p, None);
    }
    let challenges = root().join("puzzles/regexcrossword-com/challenges.json");
    let sets: serde_json::Value = serde_json::from_slice(&std::fs::read(&challenges).expect("read")).expect("JSON");
    for set in sets.as_array().expect("sets") {
        for p in set["puzzles"].as_array().expect("puzzles") {
            add(&challenges, p["id"].as_str());
        }
    }
    for d in ["dkesler", "seed000", "bbc", "solrabizna", "binoternary"] {
        for p in dir(d) {
            let name = p.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            if (name.ends_with(".json") || name.ends_with(".dat")) && !name.contains("solution") {
                add(&p, None);
            }
        }
    }
    out
}

#[test]
fn two_threads_with_different_limits_do_not_affect_each_other() {
    let puzzles: Vec<(String, Input)> = bundled().into_iter().filter(|(n, _)| n.contains("antoine-trux")).collect();
    assert!(puzzles.len() >= 80);
    let sequential: Vec<Answer> = puzzles.iter().map(|(_, i)| solve(i.clone(), &Cancel::never())).collect();
    let start = Arc::new(Barrier::new(2));
    // One thread: a slow puzzle with a tiny deadline, which must time out.
    let timed = {
        let start = start.clone();
        std::thread::spawn(move || {
            start.wait();
            solve(slow(), &Cancel::never().with_timeout(Duration::from_millis(30)))
        })
    };
    // The other: every antoine-trux puzzle under its own token, whose deadline is far.
    let full = {
        let (start, puzzles) = (start.clone(), puzzles.clone());
        std::thread::spawn(move || {
            start.wait();
            let mine = Cancel::new().with_timeout(Duration::from_secs(3600));
            puzzles.iter().map(|(_, i)| solve(i.clone(), &mine)).collect::<Vec<Answer>>()
        })
    };
    assert_eq!(timed.join().expect("timed thread"), Err(Error::Cancelled.to_string()));
    let answers = full.join().expect("full thread");
    for (((name, _), got), want) in puzzles.iter().zip(&answers).zip(&sequential) {
        assert_eq!(got, want, "{name}");
        assert!(matches!(got, Ok((grids, _)) if !grids.is_empty()), "{name}: the full answer, not a stop: {got:?}");
    }
}

#[test]
fn a_token_cancelled_from_another_thread_stops_only_its_own_work() {
    let (mine, other) = (Cancel::new(), Cancel::new());
    let worker = {
        let mine = mine.clone();
        std::thread::spawn(move || solve(slow(), &mine))
    };
    std::thread::sleep(Duration::from_millis(20));
    mine.cancel();
    assert_eq!(worker.join().expect("worker"), Err(Error::Cancelled.to_string()));
    // A clone of the other token is untouched: its work finishes.
    let beatles = r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#;
    assert_eq!(solve(input_text(beatles), &other.clone()), Ok((vec![vec!["HE".to_string(), "LP".to_string()]], true)));
    assert!(mine.is_cancelled() && !other.is_cancelled());
}

#[test]
fn eight_threads_solve_the_bundled_collections_as_one_does() {
    let puzzles = bundled();
    assert!(puzzles.len() >= 140, "{} puzzles", puzzles.len());
    let sequential: Vec<Answer> = puzzles.iter().map(|(_, i)| solve(i.clone(), &Cancel::never())).collect();
    let puzzles = Arc::new(puzzles);
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let puzzles = puzzles.clone();
            std::thread::spawn(move || {
                // Each thread its own kind of token: none, a flag, a far deadline.
                let cancel = match t % 3 {
                    0 => Cancel::never(),
                    1 => Cancel::new(),
                    _ => Cancel::new().with_timeout(Duration::from_secs(3600)),
                };
                // Thread t takes every eighth puzzle, from the t-th.
                (t..puzzles.len()).step_by(8).map(|k| (k, solve(puzzles[k].1.clone(), &cancel))).collect::<Vec<_>>()
            })
        })
        .collect();
    let mut seen = 0;
    for t in threads {
        for (k, got) in t.join().expect("thread") {
            assert_eq!(got, sequential[k], "{}", puzzles[k].0);
            seen += 1;
        }
    }
    assert_eq!(seen, puzzles.len());
    assert!(sequential.iter().filter(|a| a.is_ok()).count() >= 140);
}

#[test]
fn input_limits_are_per_call() {
    let path = root().join("puzzles/antoine-trux/beginner_1.input.txt");
    let small = Limits::default().with_max_input_bytes(10);
    let err = Puzzle::read_file_within(&path, &small).err().expect("too large for 10 bytes");
    assert!(err.to_string().contains("input limit of 10 bytes") && err.to_string().contains("max_input_bytes"), "{err}");
    // The default limits of another call are not changed by it.
    assert!(Puzzle::read_file(&path).is_ok());
}
