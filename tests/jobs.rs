//! `--jobs`: what the commands print does not depend on the number of threads (timings
//! aside). Speed is measured by `scripts/jobs_speedup`, not here.

use crate::common::{crossat, json_lines};
use serde_json::Value;

/// The JSON lines of a run that must succeed, with the timings (which vary) removed.
fn records(args: &[&str]) -> Vec<Value> {
    let run = crossat(args, None);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    let mut lines = json_lines(&run.stdout);
    for v in &mut lines {
        if let Some(o) = v.as_object_mut() {
            o.retain(|k, _| !k.ends_with("_ms") && k != "median" && k != "sum_of_medians");
        }
    }
    lines
}

fn with_jobs(args: &[&str], jobs: &str) -> Vec<Value> {
    let mut all = args.to_vec();
    all.extend(["--jobs", jobs]);
    records(&all)
}

#[test]
fn counts_do_not_depend_on_the_jobs() {
    // A count the sequential search does not finish within its first budget, so that
    // the threads share it out.
    let args = ["solve", "--count", "--json", "-q", "puzzles/binoternary/1389924189214500.json"];
    let one = with_jobs(&args, "1");
    assert!(one[0]["count"].as_str().is_some_and(|n| n.len() > 60), "{one:?}");
    for jobs in ["2", "5"] {
        assert_eq!(with_jobs(&args, jobs), one, "--jobs {jobs}");
    }
}

#[test]
fn a_batch_is_the_puzzles_of_its_seeds_whatever_the_jobs() {
    let args = ["generate", "--size", "4x4", "--seed", "11", "--batch", "4", "--json", "-q"];
    let one = with_jobs(&args, "1");
    assert_eq!(one.len(), 4);
    assert_eq!(with_jobs(&args, "3"), one);
    for (i, made) in one.iter().enumerate() {
        assert_eq!(made["seed"], 11 + i as u64);
        let seed = (11 + i).to_string();
        let alone = records(&["generate", "--size", "4x4", "--seed", &seed, "--json", "-q"]);
        assert_eq!(alone, vec![made.clone()], "seed {seed}");
    }
    // In text, the puzzles follow each other, one stderr line each.
    let run = crossat(&["generate", "--size", "3x3", "--seed", "5", "--batch", "2", "--jobs", "2", "-q"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.matches("unique puzzle after").count(), 2, "{}", run.stderr);
    assert!(run.stderr.contains("seed 6 (--seed 6 makes it again)"), "{}", run.stderr);
}

#[test]
fn squares_do_not_depend_on_the_jobs() {
    let args = ["squares", "--seed", "3", "--count", "3", "--json", "-q"];
    let one = with_jobs(&args, "1");
    assert_eq!(one.len(), 4, "{one:?}");
    for jobs in ["2", "8", "16"] {
        assert_eq!(with_jobs(&args, jobs), one, "--jobs {jobs}");
    }
    // An exhausted search says so on any number of threads.
    let dict = crate::common::tmp();
    // Two 3x3 squares, both using all six words (as in tests/squares.rs).
    let words = crate::common::write_file(dict.path(), "words.txt", "past\nnear\nedge\nneed\npage\nstar\n");
    let small = ["squares", "-W", "3", "-H", "3", "--dict", crate::common::arg(&words), "--count", "5", "--seed", "1", "--json", "-q"];
    let one = with_jobs(&small, "1");
    let summary = one.last().expect("summary");
    assert_eq!((summary["solutions"].as_u64(), summary["complete"].as_bool()), (Some(2), Some(true)), "{one:?}");
    assert_eq!(with_jobs(&small, "4"), one);
}

#[test]
fn bench_lines_come_in_the_puzzles_order() {
    let args = ["bench", "--repeat", "1", "--json", "-q", "puzzles/dkesler"];
    let one = with_jobs(&args, "1");
    assert!(one.len() > 5, "{one:?}");
    assert_eq!(with_jobs(&args, "3"), one);
}

#[test]
fn jobs_must_be_a_positive_number() {
    for bad in ["0", "-1", "many"] {
        let run = crossat(&["solve", "--count", "--jobs", bad, "puzzles/binoternary/1389924190358566.json"], None);
        assert_eq!(run.code, 2, "--jobs {bad}: {}", run.stderr);
        // clap takes `-1` for a flag of its own.
        assert!(bad == "-1" || run.stderr.contains("--jobs"), "{}", run.stderr);
    }
}
