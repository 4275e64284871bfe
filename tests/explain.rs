//! `explain` through the facade and the command line: a hard puzzle's explanation ends
//! with the search, the difficulty follows the kinds of step (and docs/examples.md's
//! table is current), a player's partial grid, the step limit, bad grids, and the line
//! oracle the step-by-step re-checks use. Every step re-checked against CPython, from
//! the engine's own steps, is in src/features/explain/tests/.

use crate::common;
use crossat::Puzzle;
use crossat::records::{Answer, Difficulty, StepKind};
use serde_json::json;

/// Where lines and splits stall, the explanation says so and ends with the SAT search:
/// on generated hard puzzles (rated hard because probing does not finish them), the
/// last step is one search step that settles every open cell to `solve`'s only
/// solution, and the answer is unique but not by deduction.
#[test]
fn a_hard_puzzle_ends_with_the_search_and_says_so() {
    for seed in ["1", "2", "3"] {
        let g = crate::generate::generate(&["--size", "5x5", "--difficulty", "hard", "--seed", seed]);
        let dir = common::tmp();
        let file = common::write_file(dir.path(), "hard.json", g["crossat"].to_string());
        let mut puzzle = Puzzle::read_file(&file).expect("read");
        let ex = puzzle.explain(None).expect("explain");
        let found = puzzle.solutions(2).expect("solve");
        assert!(found.complete && found.solutions.len() == 1, "seed {seed}: generated puzzles are unique");
        assert_eq!(ex.summary.answer, Answer::Unique, "seed {seed}");
        assert_eq!(ex.summary.grid.as_ref(), Some(&found.solutions[0].rows), "seed {seed}");
        assert!(!ex.summary.unique_by_deduction, "seed {seed}: a hard puzzle is not unique by deduction");
        assert_eq!(ex.summary.search, 1, "seed {seed}: one search step");
        assert_eq!(ex.steps.iter().filter(|s| s.step.kind == StepKind::Search).count(), 1, "seed {seed}: one search step");
        let last = &ex.steps.last().expect("steps").step;
        assert_eq!(last.kind, StepKind::Search, "seed {seed}");
        assert!(last.reason.contains("the SAT search finds the solution and proves it is the only one"), "seed {seed}: {}", last.reason);
        assert!(
            !last.cells.is_empty() && last.remaining.iter().all(|d| d.chars().count() == 1),
            "seed {seed}: the search fixes the open cells"
        );
        assert_eq!(ex.summary.difficulty, Some(Difficulty::Hard), "seed {seed}");
    }
}

/// The bundled puzzles explained: every antoine-trux grid test, the hexregex
/// hexagons, the solrabizna rectangles, the dkesler boards and the Louridas regex pools.
fn bundled() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for (dir, ends) in
        [("antoine-trux", ".input.txt"), ("hexregex", ".json"), ("solrabizna", ".json"), ("dkesler", ".dat"), ("louridas", ".csv")]
    {
        let dir = common::root().join("puzzles").join(dir);
        let mut some: Vec<_> = std::fs::read_dir(&dir).expect("dir").map(|e| e.expect("entry").path()).collect();
        some.retain(|p| p.to_string_lossy().ends_with(ends));
        some.sort();
        files.extend(some);
    }
    files
}

/// The difficulty `solve --stats` and `generate` rate (`Puzzle::rate`) is the one
/// explain's steps show: easy when line steps alone solve the puzzle, medium when
/// case splits of depth 1 are needed, hard when more is. Checked on every bundled
/// puzzle, with the explanation's default bounds. The same run makes the table of
/// steps per puzzle in docs/examples.md, which must be current
/// (`CROSSAT_BLESS_DOCS=1` rewrites it).
#[test]
fn the_rating_follows_the_kinds_of_step_and_the_docs_table_is_current() {
    let mut seen = std::collections::BTreeMap::new();
    let mut table =
        String::from("| puzzle | line | assign | split | search | unique by deduction | difficulty |\n|---|---|---|---|---|---|---|\n");
    for path in bundled() {
        let mut puzzle = Puzzle::from_input(&common::input_with_pool(&path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rating = puzzle.rate().expect("rates");
        let ex = puzzle.explain(None).expect("explain");
        let s = &ex.summary;
        match s.answer {
            Answer::Unique => assert_eq!(s.difficulty, Some(rating.difficulty), "{}: {}", path.display(), rating),
            // No single answer: no class, unless the rating's proof stopped first.
            _ => assert!(rating.class().is_none() || !rating.complete, "{}: {}", path.display(), rating),
        }
        *seen.entry(rating.class().unwrap_or("unrated")).or_insert(0) += 1;
        let name = path.file_name().expect("name").to_string_lossy().replace(".input.txt", "");
        let dir = path.parent().and_then(|d| d.file_name()).expect("dir").to_string_lossy().to_string();
        let name = if dir == "antoine-trux" { name } else { format!("{dir}/{name}") };
        let unique = match s.answer {
            Answer::Unique if s.unique_by_deduction => "yes",
            Answer::Unique => "no",
            Answer::Several => "no (not unique)",
            Answer::None => "no (no solution)",
            Answer::Unknown => "unknown",
        };
        table.push_str(&format!(
            "| `{name}` | {} | {} | {} | {} | {unique} | {} |\n",
            s.line,
            s.assign,
            s.split,
            s.search,
            s.difficulty.map_or("unrated".to_string(), |d| d.to_string())
        ));
    }
    assert!(seen.len() >= 3, "the puzzles compared cover several classes: {seen:?}");
    eprintln!("explain: ratings compared {seen:?}");
    let docs = common::root().join("docs/examples.md");
    let text = common::read_text(&docs);
    let (open, close) = ("<!-- explain table: made by tests/explain.rs -->\n", "<!-- end of explain table -->");
    let start = text.find(open).expect("the table's opening marker") + open.len();
    let end = text[start..].find(close).expect("the table's closing marker") + start;
    if crate::common::blessing("CROSSAT_BLESS_DOCS") {
        std::fs::write(&docs, format!("{}{table}{}", &text[..start], &text[end..])).expect("write docs");
    } else {
        assert!(
            text[start..end] == table,
            "docs/examples.md: the explain table is out of date (CROSSAT_BLESS_DOCS=1 rewrites it):\n{table}"
        );
    }
}

#[test]
fn the_command_line_explains_from_a_partial_grid_and_reports_what_it_cannot() {
    let beginner = common::puzzle("antoine-trux/beginner_1.input.txt");
    let dir = tempfile::tempdir().expect("dir");
    // A player's grid: the path starts from its filled cell, and no step touches it.
    let good = common::write_file(dir.path(), "good.txt", "H.\n..\n");
    let run = common::crossat(&["explain", "--json", common::arg(&beginner), "--grid", common::arg(&good)], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = common::json_lines(&run.stdout);
    let summary = lines.last().expect("summary");
    assert_eq!((summary["answer"].as_str(), summary["grid"][0].as_str()), (Some("unique"), Some("HE")));
    assert!(
        lines[..lines.len() - 1].iter().all(|s| s["type"] == "step" && !s["cells"].as_array().expect("cells").contains(&json!([0, 0])))
    );
    // Entries that cannot be completed: the step that empties a cell, exit status 1.
    let bad = common::write_file(dir.path(), "bad.txt", "HL\n..\n");
    let run = common::crossat(&["explain", common::arg(&beginner), "--grid", common::arg(&bad), "--draw", "none"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("no letter left") && run.stdout.ends_with("(1 line step)\n"), "{}", run.stdout);
    // --max-steps stops the path; --draw steps draws the grid after each step.
    let run = common::crossat(&["explain", common::arg(&beginner), "--max-steps", "2", "--draw", "steps", "--ascii"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.matches("top clues:").count(), 2, "{}", run.stdout);
    assert!(run.stdout.ends_with("stopped at the step limit (2 line steps)\n"), "{}", run.stdout);
    // A grid of the wrong shape, or one that cannot be read, is bad input naming it.
    let short = common::write_file(dir.path(), "short.txt", "H.\n");
    let missing = dir.path().join("missing.txt");
    for (grid, problem) in [(&short, "1 rows, the puzzle has 2"), (&missing, "cannot read file")] {
        let run = common::crossat(&["explain", common::arg(&beginner), "--grid", common::arg(grid)], None);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(run.stderr.contains(common::arg(grid)) && run.stderr.contains(problem) && run.stdout.is_empty(), "{}", run.stderr);
    }
    // A case split carries its sub-steps, numbered within it.
    let run = common::crossat(&["explain", "--json", common::arg(&common::puzzle("antoine-trux/search_required.input.txt"))], None);
    let split = common::json_lines(&run.stdout).into_iter().find(|s| s["kind"] == "split").expect("a split");
    assert_eq!(split["steps"][0]["number"], 1);
    assert!(split["assume"]["letter"].is_string() && split["reason"].as_str().expect("reason").starts_with("if "));
}

/// The oracle itself on lines far past enumeration, with answers worked out by hand:
/// alternation, back-references, a lookahead, word boundaries; a construct the automaton does not
/// follow is a skip, never an answer.
#[test]
fn the_line_oracle_answers_lines_too_large_to_enumerate() {
    let six = "ABCDEF".to_string();
    // A clue, its line's candidates, the letters used at each cell (None: a skip).
    type Case<'a> = (&'a str, Vec<String>, Option<Vec<&'a str>>);
    let cases: Vec<Case> = vec![
        ("(AB|CD)*", vec!["ABCD".to_string(); 14], Some([["AC", "BD"]; 7].concat())),
        ("(.)\\1*", vec!["ABCDEFGHIJ".to_string(); 12], Some(vec!["ABCDEFGHIJ"; 12])),
        ("(?=.*Z).*", [vec!["AB".to_string(); 15], vec!["AZ".to_string()]].concat(), Some([vec!["AB"; 15], vec!["Z"]].concat())),
        ("(?=.*Z)[A-Y]*", vec!["AZ".to_string(); 16], Some(vec![""; 16])),
        (
            "(.)(.)\\2\\1[A-F]*",
            [vec!["AB".to_string(), "C".to_string(), "CD".to_string()], vec![six.clone(); 11]].concat(),
            Some([vec!["AB", "C", "C", "AB"], vec!["ABCDEF"; 10]].concat()),
        ),
        // Word boundaries: a lone A anywhere; no boundary after the first A.
        ("[AB ]*\\bA\\b[AB ]*", vec!["A ".to_string(); 16], Some(vec![" A"; 16])),
        ("A\\B.*", [vec!["A".to_string()], vec!["A ".to_string(); 15]].concat(), Some([vec!["A", "A"], vec![" A"; 14]].concat())),
        ("(?!A).*", vec![six.clone(); 12], None),
    ];
    let requests = cases.iter().map(|(p, cands, _)| json!({"p": p, "cands": cands})).collect();
    for ((p, _, want), got) in cases.iter().zip(common::python_oracle("scripts/line_support.py", requests)) {
        match want {
            Some(want) => {
                assert_eq!((&got["ok"], &got["how"]), (&json!(true), &json!("automaton")), "`{p}`: {got}");
                assert_eq!(&got["used"], &json!(want), "`{p}`");
            }
            None => assert!(got["skip"].as_str().is_some_and(|s| s.contains("refuses")), "`{p}`: {got}"),
        }
    }
}
