//! Exact counting: the count equals the length of the listing on generated puzzles
//! and the recorded count of sheep, and `solve --count` and `check` give counts on the
//! command line. The counting search itself is tested beside the code
//! (src/pipeline/tests/count.rs).

use crate::common::{HEXAGON_COUNTS, arg, binoternary, input_file, puzzle};
use crossat::Big;
use crossat::Puzzle;
use crossat::stop::Cancel;

/// Generated puzzles: unique as made, then with clues replaced by `.*` (every third,
/// every second, three of every four), which gives anything from a few to
/// astronomically many grids.
pub(crate) fn generated() -> Vec<(String, Puzzle)> {
    let mut out = Vec::new();
    for seed in 0..20u64 {
        let shape = match seed % 4 {
            0 => crossat::puzzle::Shape::Rect { rows: 4, cols: 4 },
            1 => crossat::puzzle::Shape::Rect { rows: 5, cols: 6 },
            2 => crossat::puzzle::Shape::Hex(crossat::puzzle::Sides::regular(3)),
            _ => crossat::puzzle::Shape::Rect { rows: 3, cols: 7 },
        };
        let spec = crossat::generate::Spec {
            shape,
            sides: 1 + (seed % 2) as usize,
            text: None,
            backrefs: seed % 3 == 1,
            lookarounds: false,
            difficulty: None,
            seed,
        };
        let made = crossat::generate::generate(&spec, &mut |_| {}, &Cancel::never()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // (name, m, loosened when k % m == 0 or, with `false`, when it is not)
        let variants = [
            ("as made", 1, false),
            ("every third clue .*", 3, true),
            ("every second clue .*", 2, true),
            ("three clues of four .*", 4, false),
        ];
        for (what, m, on_zero) in variants {
            let mut puzzle = made.puzzle.clone();
            for (k, clue) in puzzle.clues.iter_mut().enumerate() {
                if (k + seed as usize).is_multiple_of(m) == on_zero {
                    clue.regex = ".*".into();
                }
            }
            let name = format!("seed {seed}, {what}");
            let prep = Puzzle::from_parsed("<generated>", puzzle, None, &Cancel::never()).unwrap_or_else(|e| panic!("{name}: {e}"));
            out.push((name, prep));
        }
    }
    out
}

#[test]
fn counts_equal_the_length_of_the_listing_on_generated_puzzles() {
    let (mut compared, mut several, mut larger) = (0, Vec::new(), 0);
    for (name, mut prep) in generated() {
        let counted = prep.count().unwrap_or_else(|e| panic!("{name}: {e}"));
        // Listings of at most 10^5 grids.
        if counted > Big::from(100_000u64) {
            larger += 1;
            continue;
        }
        let listed = prep.solutions(usize::MAX).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(listed.complete, "{name}");
        let found = listed.solutions.len();
        assert_eq!(counted, Big::from(found), "{name}: count and listing differ");
        compared += 1;
        if found > 1 {
            several.push(found);
        }
    }
    eprintln!("count = listing on {compared} generated puzzles; several solutions: {several:?}; more than 10^5: {larger}");
    assert!(compared >= 40 && several.len() >= 15, "too few compared: {compared}, {several:?}");
}

#[test]
fn sheep_counts_its_recorded_solutions() {
    let mut sheep = Puzzle::from_input(&input_file(&puzzle("antoine-trux/player_puzzle_sheep.input.txt"), None)).expect("prepare");
    let counted = sheep.count_record().expect("count");
    // Counted by the counting search, not by listing (`counted_by` says "listing" then).
    let count = serde_json::to_string(&counted.count).expect("JSON");
    assert_eq!((count, counted.counted_by), (crate::common::sheep_solutions().to_string(), None));
}

/// `solve --count` on the command line gives every hexagon's count, the same on one
/// thread and on two.
#[test]
fn hexagon_counts_on_the_command_line_do_not_depend_on_the_jobs() {
    for (file, (name, expected)) in binoternary().iter().zip(HEXAGON_COUNTS) {
        for jobs in ["1", "2"] {
            let run = crate::common::crossat(&["solve", "--count", "--jobs", jobs, arg(file)], None);
            assert_eq!(
                (run.code, run.stdout.as_str()),
                (0, format!("{expected} solutions (exact count)\n").as_str()),
                "{name} --jobs {jobs}"
            );
        }
    }
}

#[test]
fn limit_3_lists_three_grids_of_every_binoternary_hexagon() {
    for file in binoternary() {
        let run = crate::common::crossat(&["solve", "--limit", "3", "--json", "--timeout", "20", arg(&file)], None);
        assert_eq!(run.code, 0, "{}: {}", file.display(), run.stderr);
        assert_eq!(run.stdout.lines().filter(|l| l.starts_with(r#"{"type":"solution""#)).count(), 3, "{}", file.display());
    }
}

#[test]
fn count_on_the_command_line_and_a_stopped_count() {
    let sheep = puzzle("antoine-trux/player_puzzle_sheep.input.txt");
    let run = crate::common::crossat(&["solve", "--count", arg(&sheep)], None);
    let want = format!("{} solutions (exact count)\n", crate::common::sheep_solutions());
    assert_eq!((run.code, run.stdout.as_str()), (0, want.as_str()));
    // A count too hard for a tenth of a second ends with no number: a 12×12 grid of
    // A and B whose every row and column holds a multiple of five As (the frontier
    // sweep's table would need 5^12 entries; the branching search takes minutes).
    let dir = crate::common::tmp();
    let five = "(?:B*AB*AB*AB*AB*A)*B*";
    let text = serde_json::json!({"left": vec![five; 12], "top": vec![five; 12], "alphabet": "AB"}).to_string();
    let hard = crate::common::write_file(dir.path(), "fives.json", text);
    let run = crate::common::crossat(&["solve", "--count", "--json", "--timeout", "0.1", arg(&hard)], None);
    assert_eq!(run.code, 4, "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    assert_eq!((summary["complete"].clone(), summary["count"].clone()), (serde_json::json!(false), serde_json::Value::Null));
    let run = crate::common::crossat(&["solve", "--count", "--all", arg(&sheep)], None);
    assert_eq!(run.code, 2);
}

#[test]
fn check_counts_the_completions_of_a_partial_grid() {
    let dir = crate::common::tmp();
    // Row 1 holds an A (its first cell does): 4 words; row 2 holds a B: 7 words.
    let text = serde_json::json!({"left": ["[AB]*A[AB]*", "[AB]*B[AB]*"], "top": vec!["[AB][AB]"; 3]}).to_string();
    let file = crate::common::write_file(dir.path(), "two.json", text);
    let run = crate::common::crossat(&["check", arg(&file), "-"], Some(b"A..\n...\n"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.ends_with("can be completed in 28 ways\n"), "{}", run.stdout);
    let run = crate::common::crossat(&["check", "--json", arg(&file), "-"], Some(b"AB.\n...\n"));
    let summary: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    assert_eq!((summary["completions"].clone(), summary["unique_completion"].clone()), (serde_json::json!(14), serde_json::json!(false)));
}
