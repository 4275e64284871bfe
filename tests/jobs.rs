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

/// A puzzle whose rows and columns are coupled (one part, so the listing is a SAT search
/// over whole grids, split into cubes on several threads): 556 solutions.
const COUPLED: &str = r#"{"left":["[ABC]*(AB|BC|CA)[ABC]*","[ABC]*(AB|BC|CA)[ABC]*","[ABC]*(AB|BC|CA)[ABC]*"],"top":["[ABC]*(AA|CB|BB)[ABC]*","[ABC]*(AA|CB|BB)[ABC]*","[ABC]*(AA|CB|BB)[ABC]*"]}"#;

/// Back-references and a lookahead: 12,150 solutions.
const BACKREFS: &str = r#"{"left":["(.)[ABC]*\\1","[ABC]*(AB|BC)[ABC]*\\w","(.)(.)\\2?\\1|[ABC]*"],"top":["(.)\\1*[ABC]*","([ABC])(?!\\1)..","(?=.*B)[ABC]+.","(.).\\1.|BBBB|A.*"]}"#;

/// The same as [`COUPLED`] on 4×4: 984,688 solutions, more than a test waits for.
const COUPLED_4: &str = r#"{"left":["[ABC]*(AB|BC|CA)[ABC]*","[ABC]*(AB|BC|CA)[ABC]*","[ABC]*(AB|BC|CA)[ABC]*","[ABC]*(AB|BC|CA)[ABC]*"],"top":["[ABC]*(AA|CB)[ABC]*","[ABC]*(AA|CB)[ABC]*","[ABC]*(AA|CB)[ABC]*","[ABC]*(AA|CB)[ABC]*"]}"#;

/// The grids of a listing (each a row string joined by `/`) and its summary.
fn listing(args: &[&str], jobs: &str) -> (Vec<String>, Value) {
    let mut all = args.to_vec();
    all.extend(["--json", "-q", "--jobs", jobs]);
    let run = crossat(&all, None);
    assert!(run.code == 0, "{all:?}: {}", run.stderr);
    let (grids, mut summary) = crate::common::json_solutions(&run.stdout);
    if let Some(o) = summary.as_object_mut() {
        o.retain(|k, _| !k.ends_with("_ms"));
    }
    (grids.iter().map(|g| g.join("/")).collect(), summary)
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn listings_do_not_depend_on_the_jobs() {
    let dir = crate::common::tmp();
    let coupled = crate::common::write_file(dir.path(), "coupled.json", COUPLED);
    let backrefs = crate::common::write_file(dir.path(), "backrefs.json", BACKREFS);
    let cases: [(&[&str], usize); 6] = [
        (&["solve", "--all", "puzzles/antoine-trux/player_puzzle_sheep.input.txt"], crate::common::sheep_solutions()),
        (&["solve", "--all", "puzzles/hexregex/rect_easy_1000.json"], 63),
        (&["solve", "--all", crate::common::arg(&coupled)], 556),
        (&["solve", "--all", crate::common::arg(&backrefs)], 12_150),
        (&["solve", "--limit", "3000", "puzzles/binoternary/1389924189214500.json"], 3000),
        (&["solve", "--limit", "2000", crate::common::arg(&backrefs)], 2000),
    ];
    for (args, n) in cases {
        let (one, summary) = listing(args, "1");
        assert_eq!(one.len(), n, "{args:?}");
        assert_eq!(summary["solutions"], n, "{args:?}");
        let one = sorted(one);
        for jobs in ["2", "3"] {
            let (got, got_summary) = listing(args, jobs);
            if args.contains(&"--all") {
                assert_eq!(sorted(got), one, "{args:?} --jobs {jobs}: the same grids");
                assert_eq!(got_summary, summary, "{args:?} --jobs {jobs}");
            } else {
                // A limit: that many distinct solutions, the search not exhausted.
                let got = sorted(got);
                assert!(got.len() == n && got.windows(2).all(|w| w[0] < w[1]), "{args:?} --jobs {jobs}");
                assert_eq!((&got_summary["solutions"], &got_summary["complete"]), (&n.into(), &false.into()), "{args:?}");
            }
        }
    }
    // Every grid of a limited listing on several threads is one of the puzzle's.
    let (all, _) = listing(&["solve", "--all", crate::common::arg(&backrefs)], "1");
    let all: std::collections::BTreeSet<String> = all.into_iter().collect();
    let (some, summary) = listing(&["solve", "--limit", "5000", crate::common::arg(&backrefs)], "3");
    assert!(some.iter().all(|g| all.contains(g)), "only solutions");
    assert_eq!((some.len(), &summary["complete"]), (5000, &false.into()));
    // A limit above the count lists them all and says the search is exhausted.
    let (every, summary) = listing(&["solve", "--limit", "20000", crate::common::arg(&backrefs)], "2");
    assert_eq!((every.len(), &summary["complete"]), (all.len(), &true.into()));
}

#[test]
fn sorted_listings_are_the_same_for_any_jobs() {
    let dir = crate::common::tmp();
    let coupled = crate::common::write_file(dir.path(), "coupled.json", COUPLED);
    for puzzle in [crate::common::arg(&coupled), "puzzles/antoine-trux/player_puzzle_sheep.input.txt"] {
        let (unsorted, _) = listing(&["solve", "--all", puzzle], "2");
        let run = |extra: &[&str], jobs: &str| {
            let mut args = vec!["solve", puzzle, "--sorted", "--json", "-q", "--jobs", jobs];
            args.extend(extra);
            let r = crossat(&args, None);
            assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
            r.stdout
        };
        let all = run(&["--all"], "1");
        let (grids, summary) = crate::common::json_solutions(&all);
        let grids: Vec<String> = grids.iter().map(|g| g.join("/")).collect();
        assert_eq!(grids, sorted(unsorted.clone()), "{puzzle}: sorted, the same grids");
        assert_eq!(summary["complete"], true);
        let smallest = run(&["--limit", "10"], "1");
        let (first, summary) = crate::common::json_solutions(&smallest);
        let first: Vec<String> = first.iter().map(|g| g.join("/")).collect();
        assert_eq!(first, grids[..10], "{puzzle}: --limit 10 gives the 10 smallest");
        assert_eq!((&summary["solutions"], &summary["complete"]), (&10.into(), &false.into()));
        let enough = run(&["--limit", "100000"], "1");
        assert_eq!(crate::common::json_solutions(&enough).1["complete"], true, "{puzzle}: every solution printed");
        for jobs in ["2", "3", "8"] {
            assert!(run(&["--all"], jobs) == all, "{puzzle} --sorted --all --jobs {jobs}: byte for byte");
            assert!(run(&["--limit", "10"], jobs) == smallest, "{puzzle} --sorted --limit 10 --jobs {jobs}");
        }
    }
    let r = crossat(&["solve", "--sorted", "puzzles/antoine-trux/player_puzzle_sheep.input.txt"], None);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--sorted") && r.stderr.contains("--all"), "{}", r.stderr);
}

#[test]
fn stops_on_several_threads_are_honest() {
    let dir = crate::common::tmp();
    let many = crate::common::write_file(dir.path(), "coupled4.json", COUPLED_4);
    let r = crossat(&["solve", crate::common::arg(&many), "--all", "--json", "--jobs", "2", "--timeout", "0.5"], None);
    assert_eq!(r.code, 4, "{}", r.stderr);
    let (n, summary) = crate::bounded::stopped_json(&r.stdout, "timeout");
    assert!(n > 0, "solutions found before the timeout are printed");
    assert_eq!(summary["solutions"], n, "the summary counts exactly the printed solutions");
    let r = crate::bounded::signalled(&["solve", crate::common::arg(&many), "--all", "--json", "--jobs", "2"], "-INT");
    assert_eq!(r.code, 130, "{}", r.stderr);
    let (n, summary) = crate::bounded::stopped_json(&r.stdout, "interrupted");
    assert!(n >= 1 && summary["solutions"] == n, "{summary}");
    // Sorted, nothing is printed before the search ends: a stop prints the summary alone.
    let r = crossat(&["solve", crate::common::arg(&many), "--all", "--sorted", "--json", "--jobs", "2", "--timeout", "0.5"], None);
    assert_eq!(r.code, 4, "{}", r.stderr);
    let (n, summary) = crate::bounded::stopped_json(&r.stdout, "timeout");
    assert_eq!((n, &summary["solutions"]), (0, &0.into()));
}
