//! `crossat generate`: unique, deterministic, readable in both output formats.

use crate::common::crossat;
use serde_json::Value;

pub(crate) fn generate(args: &[&str]) -> Value {
    let mut all = vec!["generate", "--json"];
    all.extend_from_slice(args);
    let run = crossat(&all, None);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    serde_json::from_str(run.stdout.trim()).expect("one JSON line")
}

/// Solves a generated puzzle written in `format`; returns the solutions found (up to 2)
/// and whether the search was exhausted.
pub(crate) fn solve_written(text: &str, ext: &str) -> (Vec<Vec<String>>, bool) {
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

/// The generator's `"unique": true` confirmed by solving the puzzle again: one solution,
/// the search exhausted, and it is the generated one.
fn assert_resolved_unique(g: &Value, what: &str) {
    assert_eq!(g["unique"], true, "{what}");
    let (grids, complete) = solve_written(&g["crossat"].to_string(), "json");
    assert!(complete && grids.len() == 1, "{what}: {} solutions found on solving again (complete: {complete})", grids.len());
    let solution: Vec<String> = g["solution"].as_array().expect("solution").iter().map(|r| r.as_str().expect("row").to_string()).collect();
    assert_eq!(grids[0], solution, "{what}: solving again finds another grid");
}

/// The challenges.json a rectangle is written as (read back as regexcrossword.com
/// reads it: ECMAScript clues, the alphabet their characters give, no `--id` for its
/// one puzzle) has the generated solution as its only one.
fn assert_challenges_round_trip(g: &Value, solution: &[String], what: &str) {
    let text = g["challenges"].to_string();
    assert!(text.starts_with('['), "{what}: a rectangle has a challenges collection: {text}");
    let (grids, complete) = solve_written(&text, "json");
    assert!(complete && grids == vec![solution.to_vec()], "{what} (challenges): {grids:?}");
}

/// Generated with back-references and lookarounds (checked by Python's `re`), the
/// puzzles mean the same to ECMAScript, the dialect their challenges.json is read in.
#[test]
fn generated_challenges_are_unique_as_the_site_reads_them() {
    for seed in 1..=6 {
        let seed = seed.to_string();
        for opts in [&["--size", "4x4", "--backrefs", "--lookarounds"][..], &["--size", "5x5", "--sides", "2", "--backrefs"][..]] {
            let args: Vec<&str> = opts.iter().copied().chain(["--seed", seed.as_str()]).collect();
            let g = generate(&args);
            let solution: Vec<String> =
                g["solution"].as_array().expect("solution").iter().map(|r| r.as_str().expect("row").to_string()).collect();
            assert_challenges_round_trip(&g, &solution, &format!("{args:?}"));
        }
    }
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
        if args[0] == "--size" {
            assert_challenges_round_trip(&g, &solution, &format!("{args:?}"));
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
        (vec!["generate", "--size", "25x4"], "--size must be ROWSxCOLS with each from 1 to 24, got '25x4'"),
        (vec!["generate", "--size", "4x25"], "from 1 to 24"),
        (vec!["generate", "--hex", "1"], "--hex must be a side from 2 to 8"),
        (vec!["generate", "--size", "2x2", "--sides", "3"], "3"),
        (vec!["generate"], "required"),
    ] {
        let run = crossat(&args, None);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
    }
}

/// The clues of a generated puzzle (crossat JSON) by line, and the puzzle prepared.
fn prepared(g: &Value) -> crossat::Puzzle {
    crossat::Puzzle::from_input(&crate::common::input_text(&g["crossat"].to_string())).expect("the generated puzzle reads back")
}

#[test]
fn generated_clues_are_fair_on_every_side() {
    let shapes: [&[&str]; 10] = [
        &["--size", "3x3"],
        &["--size", "3x4", "--sides", "2"],
        &["--size", "1x3"],
        &["--hex", "2", "--sides", "2"],
        &["--size", "3x3", "--backrefs"],
        &["--size", "3x3", "--lookarounds", "--sides", "2"],
        // Medium puzzles carry a block of alternations: the same rules hold.
        &["--size", "3x3", "--difficulty", "medium"],
        &["--size", "2x4", "--sides", "2", "--difficulty", "medium"],
        &["--hex", "2", "--difficulty", "medium"],
        // Hard puzzles list alternations: the same rules hold.
        &["--size", "3x3", "--sides", "2", "--difficulty", "hard"],
    ];
    for shape in shapes {
        for seed in 1..=6 {
            let seed = seed.to_string();
            let mut args = shape.to_vec();
            args.extend_from_slice(&["--seed", &seed]);
            let g = generate(&args);
            let sides = if shape.windows(2).any(|w| w == ["--sides", "2"]) { 2 } else { 1 };
            // Every requested side has a real clue on every line.
            if shape[0] == "--size" {
                for side in ["left", "top", "right", "bottom"].into_iter().take(if sides == 2 { 4 } else { 2 }) {
                    let list = g["crossat"][side].as_array().unwrap_or_else(|| panic!("{args:?}: no {side}: {g}"));
                    assert!(list.iter().all(Value::is_string), "{args:?}: a {side} clue is missing: {g}");
                }
            }
            let prep = prepared(&g);
            let solution: String = g["solution"].as_array().expect("rows").iter().map(|r| r.as_str().expect("row")).collect();
            let alphabet: Vec<char> = prep.alphabet().chars().collect();
            let lines = prep.puzzle().clues.iter().map(|c| c.cells.clone()).collect::<std::collections::BTreeSet<_>>();
            assert_eq!(prep.puzzle().clues.len(), lines.len() * sides, "{args:?}: {sides} clue(s) on each line");
            // The solution in cell order (the display rows are in cell order for these shapes).
            let cells: Vec<char> = solution.chars().collect();
            for (i, clue) in prep.puzzle().clues.iter().enumerate() {
                let len = clue.cells.len();
                let answer: String = clue.cells.iter().map(|&c| cells[c]).collect();
                // The independent matcher, on every string of the line's length.
                let mut words = vec![String::new()];
                for _ in 0..len {
                    words = words.iter().flat_map(|w| alphabet.iter().map(move |&a| format!("{w}{a}"))).collect();
                }
                let matched = words.iter().filter(|w| prep.clue_matches(i, w).expect("the matcher answers")).count();
                assert!(
                    prep.clue_matches(i, &answer).expect("the matcher answers"),
                    "{args:?}: '{}' does not match its answer {answer}",
                    clue.regex
                );
                assert!(matched > 1, "{args:?}: '{}' spells its answer {answer}", clue.regex);
                assert!(matched < words.len(), "{args:?}: '{}' says nothing ({matched} of {} strings)", clue.regex, words.len());
                let unwrapped: String = clue.regex.replace(['[', ']', '\\'], "");
                assert_ne!(unwrapped, answer, "{args:?}: '{}' is its answer with one-letter classes", clue.regex);
            }
            // Unique, by a fresh solve.
            let (grids, complete) = solve_written(&g["crossat"].to_string(), "json");
            assert!(complete && grids.len() == 1, "{args:?}: {grids:?}");
        }
    }
}

#[test]
fn back_references_and_lookarounds_appear_when_asked() {
    let mut backrefs = 0;
    let mut looks = 0;
    for seed in 1..=5 {
        let seed = seed.to_string();
        let b = generate(&["--size", "5x5", "--backrefs", "--seed", &seed]);
        backrefs += usize::from(b["trux"].as_str().expect("trux").contains("\\1"));
        let l = generate(&["--size", "5x5", "--lookarounds", "--seed", &seed]);
        looks += usize::from(l["trux"].as_str().expect("trux").contains("(?"));
        let plain = generate(&["--size", "5x5", "--seed", &seed]);
        assert!(!plain["trux"].as_str().expect("trux").contains("(?") && !plain["trux"].as_str().expect("trux").contains("\\1"));
    }
    assert!(backrefs >= 3 && looks >= 3, "{backrefs} {looks}");
}

#[test]
fn the_largest_sizes_succeed_for_sampled_seeds() {
    // The whole sweep (every seed in 1..20, every size and option) is
    // scripts/generate_sweep.sh; here a sample.
    for args in [["--size", "20x20", "--seed", "7"], ["--hex", "8", "--seed", "13"], ["--size", "20x20", "--seed", "19"]] {
        let g = generate(&args);
        assert_resolved_unique(&g, &format!("{args:?}"));
    }
    for args in [
        ["--size", "20x20", "--sides", "2", "--difficulty", "hard", "--seed", "7"],
        ["--hex", "8", "--sides", "2", "--difficulty", "hard", "--seed", "13"],
        // Past the old cap of 20; with one clue per line 24×24 takes up to a minute
        // (docs/performance.md), with two a fraction of a second.
        ["--size", "24x24", "--sides", "2", "--difficulty", "hard", "--seed", "3"],
    ] {
        let g = generate(&args);
        assert_eq!(g["difficulty"], "hard", "{args:?}");
        assert_resolved_unique(&g, &format!("{args:?}"));
    }
    let g = generate(&["--size", "20x20", "--sides", "2", "--backrefs", "--seed", "4"]);
    assert!(g["crossat"]["right"].as_array().expect("right").iter().all(Value::is_string));
    let g = generate(&["--size", "24x24", "--seed", "5"]);
    assert_eq!(g["solution"].as_array().map(Vec::len), Some(24));
    assert_resolved_unique(&g, "24x24, seed 5");
}

/// The numbers `solve --stats --json` reports for a puzzle written as crossat JSON.
fn stats_of(crossat_json: &Value) -> Value {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("p.json");
    std::fs::write(&path, crossat_json.to_string()).expect("write");
    let run = crossat(&["solve", "--json", "--stats", path.to_str().expect("path")], None);
    let summary: Value = serde_json::from_str(run.stdout.lines().last().expect("summary")).expect("json");
    summary["stats"]["difficulty"].clone()
}

/// The documented meaning of each class, checked on a rating's numbers: easy ⇔ the
/// lines fix every cell (no probe, no decision); medium ⇔ not, but probing does (no
/// decision); hard ⇔ a uniqueness proof needs search decisions.
fn check_class(r: &Value) {
    let n = |k: &str| r[k].as_u64().unwrap_or_else(|| panic!("{k} in {r}"));
    assert_eq!(r["complete"], true, "{r}");
    assert_eq!(n("solutions"), 1, "{r}");
    match r["class"].as_str().expect("class") {
        "easy" => assert!(n("by_lines") == n("cells") && n("probes") == 0 && n("decisions") == 0, "{r}"),
        "medium" => assert!(n("by_lines") < n("cells") && n("by_probing") == n("cells") && n("probes") > 0 && n("decisions") == 0, "{r}"),
        "hard" => assert!(n("by_probing") < n("cells") && n("decisions") >= 1, "{r}"),
        other => panic!("unknown class {other}"),
    }
}

#[test]
fn requested_difficulty_is_what_the_puzzle_rates_over_many_seeds() {
    let shapes: [&[&str]; 6] = [
        &["--size", "2x2"],
        &["--size", "5x5"],
        &["--size", "4x6", "--sides", "2"],
        &["--size", "6x6", "--backrefs"],
        &["--hex", "2"],
        &["--hex", "3", "--lookarounds"],
    ];
    // (decisions, probes) of every puzzle, by class: ordered easy < medium < hard.
    let mut effort: Vec<(u8, u64, u64)> = Vec::new();
    for shape in shapes {
        for seed in 1..=6 {
            for want in ["easy", "medium"] {
                let seed = seed.to_string();
                let mut args = shape.to_vec();
                args.extend_from_slice(&["--difficulty", want, "--seed", &seed]);
                let g = generate(&args);
                assert_eq!(g["difficulty"], want, "{args:?}");
                check_class(&g["rating"]);
                // `solve --stats` rates the written puzzle the same way.
                assert_eq!(stats_of(&g["crossat"]), g["rating"], "{args:?}");
                let rank = if want == "easy" { 0 } else { 1 };
                effort.push((rank, g["rating"]["decisions"].as_u64().expect("d"), g["rating"]["probes"].as_u64().expect("p")));
            }
        }
    }
    // Hard puzzles: every shape the construction takes, small enough for the
    // rating's proof to finish.
    let hard_shapes: [&[&str]; 5] =
        [&["--size", "4x4"], &["--size", "5x5"], &["--size", "4x6", "--sides", "2"], &["--size", "7x7"], &["--hex", "3"]];
    for shape in hard_shapes {
        for seed in 1..=6 {
            let seed = seed.to_string();
            let mut args = shape.to_vec();
            args.extend_from_slice(&["--difficulty", "hard", "--seed", &seed]);
            let g = generate(&args);
            assert_eq!(g["difficulty"], "hard", "{args:?}");
            check_class(&g["rating"]);
            // Nothing is fixed by the lines, and probing fixes nothing either.
            assert_eq!((g["rating"]["by_lines"].as_u64(), g["rating"]["by_probing"].as_u64()), (Some(0), Some(0)), "{args:?}");
            assert_eq!(stats_of(&g["crossat"]), g["rating"], "{args:?}");
            effort.push((2, g["rating"]["decisions"].as_u64().expect("d"), g["rating"]["probes"].as_u64().expect("p")));
            let (grids, complete) = solve_written(g["trux"].as_str().expect("trux"), "txt");
            let solution: Vec<String> =
                g["solution"].as_array().expect("rows").iter().map(|r| r.as_str().expect("row").to_string()).collect();
            assert!(complete && grids == vec![solution], "{args:?}: {grids:?}");
        }
    }
    // A published puzzle that needed search while its back-references took the tagged
    // route; all its groups are single characters, so expanded they are regular and
    // line propagation decides it: easy.
    let run = crossat(&["solve", "--json", "--stats", "puzzles/antoine-trux/player_puzzle_references.input.txt"], None);
    let easy = serde_json::from_str::<Value>(run.stdout.lines().last().expect("summary")).expect("json")["stats"]["difficulty"].clone();
    assert_eq!(easy["class"], "easy");
    check_class(&easy);
    effort.push((0, easy["decisions"].as_u64().expect("d"), easy["probes"].as_u64().expect("p")));
    effort.sort();
    for w in effort.windows(2) {
        let ((c0, d0, p0), (c1, d1, p1)) = (w[0], w[1]);
        if c0 < c1 {
            // A harder class never needs fewer decisions, nor (at equal decisions) fewer probes.
            assert!((d0, p0 > 0) <= (d1, p1 > 0), "{w:?}");
        }
    }
    let text = crossat(&["solve", "--stats", "puzzles/antoine-trux/beginner_1.input.txt"], None);
    assert!(
        text.stderr.contains(
            "stats: difficulty easy: line propagation fixes 4 of 4 cells, with probing 4 (0 probes); uniqueness proof: 0 search decisions"
        ),
        "{}",
        text.stderr
    );
}

#[test]
fn puzzles_without_one_solution_are_unrated() {
    // Two solutions (AA, BB) and none: no proof of uniqueness, so no class.
    for (left, solutions) in [("AA|BB", 2), ("AC", 0)] {
        let r = stats_of(&serde_json::json!({"rows": 1, "cols": 2, "left": [left], "top": ["A|B", "A|B"]}));
        assert_eq!(
            (&r["class"], &r["solutions"], &r["complete"]),
            (&Value::Null, &Value::from(solutions), &Value::Bool(true)),
            "{left}: {r}"
        );
    }
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("p.json");
    std::fs::write(&path, r#"{"rows":1,"cols":2,"left":["AA|BB"],"top":["A|B","A|B"]}"#).expect("write");
    let run = crossat(&["solve", "--stats", path.to_str().expect("path")], None);
    assert!(run.stderr.contains("stats: difficulty unrated: ") && run.stderr.contains("not unique ("), "{}", run.stderr);
}

#[test]
fn difficulties_not_offered_are_refused_up_front() {
    for (args, needle) in [
        (&["--size", "3x3", "--difficulty", "hard"][..], "--difficulty hard cannot be made for a 3x3 with 1 clue per line"),
        (&["--size", "2x6", "--sides", "2", "--difficulty", "hard"][..], "cannot be made for a 2x6 with 2 clues per line"),
        (&["--hex", "2", "--difficulty", "hard"][..], "cannot be made for a hexagon"),
        (&["--size", "5x5", "--backrefs", "--difficulty", "hard"][..], "cannot be combined with --backrefs or --lookarounds"),
        (&["--size", "5x5", "--lookarounds", "--difficulty", "hard"][..], "cannot be combined with --backrefs or --lookarounds"),
        (&["--size", "1x6", "--difficulty", "medium"][..], "needs at least 2 rows and 2 columns"),
        (&["--size", "7x1", "--sides", "2", "--difficulty", "medium"][..], "needs at least 2 rows and 2 columns"),
    ] {
        let mut all = vec!["generate"];
        all.extend_from_slice(args);
        let run = crossat(&all, None);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(needle) && run.stdout.is_empty(), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn no_progress_display_without_a_terminal() {
    for format in ["crossat", "challenges"] {
        let run = crossat(&["generate", "--size", "4x4", "--seed", "1", "--output-format", format], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stderr.starts_with("crossat: unique puzzle") && !run.stderr.contains('\r'), "{}", run.stderr);
    }
}
