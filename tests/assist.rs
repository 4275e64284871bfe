//! check, hint, explain, the ambiguity report and certified uniqueness, against brute
//! force on small puzzles and an independent proof checker.

use crate::common::crossat;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const TUTORIAL: &str = "puzzles/antoine-trux/beginner_1.input.txt";
/// beginner_1's clues, as rows then columns of a 2×2 grid.
const CLUES: [(&str, [usize; 2]); 4] = [("HE|LL|O+", [0, 1]), ("[PLEASE]+", [2, 3]), ("[^SPEAK]+", [0, 2]), ("EP|IP|EF", [1, 3])];
const ALPHABET: &str = "AEFHIKLOPS";

fn full(re: &str) -> crate::common::Full {
    crate::common::Full::new(re)
}

/// Every 2×2 grid over the alphabet satisfying the chosen clues and givens.
fn brute(clues: &[usize], givens: &[Option<char>; 4]) -> Vec<[char; 4]> {
    let m: Vec<_> = clues.iter().map(|&i| (full(CLUES[i].0), CLUES[i].1)).collect();
    let a: Vec<char> = ALPHABET.chars().collect();
    let mut out = Vec::new();
    for n in 0..a.len().pow(4) {
        let g = [a[n % 10], a[n / 10 % 10], a[n / 100 % 10], a[n / 1000 % 10]];
        if givens.iter().zip(&g).all(|(x, y)| x.is_none_or(|x| x == *y))
            && m.iter().all(|(r, [p, q])| r.is_match(&format!("{}{}", g[*p], g[*q])).unwrap_or(false))
        {
            out.push(g);
        }
    }
    out
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, text).expect("write");
    p.to_str().expect("utf-8").to_string()
}

fn json_lines(s: &str) -> Vec<Value> {
    s.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"))).collect()
}

fn clue_index(label: &str) -> usize {
    ["row 1 (left)", "row 2 (left)", "column 1 (top)", "column 2 (top)"].iter().position(|l| *l == label).expect("label")
}

#[test]
fn check_reports_each_failing_clue_and_the_first_cell_it_cannot_pass() {
    let dir = tempfile::tempdir().expect("dir");
    for grid in ["HE\nLX\n", "OE\nLP\n", "HE\nLP\n", "LL\nEE\n"] {
        let g = write(&dir, "g", grid);
        let run = crossat(&["check", TUTORIAL, &g, "--json"], None);
        let cells: Vec<char> = grid.chars().filter(|c| *c != '\n').collect();
        let lines = json_lines(&run.stdout);
        let mut failed = BTreeSet::new();
        for l in lines.iter().filter(|l| l["type"] == "failure") {
            let i = clue_index(l["clue"].as_str().expect("clue"));
            let _ = failed.insert(i);
            // Independently: the first position p such that no completion of the
            // line's prefix up to p matches.
            let (re, [p, q]) = CLUES[i];
            let m = full(re);
            let a: Vec<char> = ALPHABET.chars().collect();
            let first = if !a.iter().any(|&y| m.is_match(&format!("{}{y}", cells[p])).unwrap_or(false)) { p } else { q };
            let (r, c) = (first / 2, first % 2);
            assert_eq!(l["cell"], serde_json::json!([r, c]), "{grid:?}: {}", l["clue"]);
        }
        let want: BTreeSet<usize> = (0..4)
            .filter(|&i| !full(CLUES[i].0).is_match(&CLUES[i].1.iter().map(|&k| cells[k]).collect::<String>()).unwrap_or(false))
            .collect();
        assert_eq!(failed, want, "{grid:?}");
        assert_eq!(run.code, i32::from(!want.is_empty()), "{grid:?}: {}", run.stderr);
    }
}

#[test]
fn partial_grids_are_completable_or_come_with_a_minimal_conflict() {
    let dir = tempfile::tempdir().expect("dir");
    for grid in ["H.\n..\n", "L.\n..\n", ".X\n..\n", "..\n.A\n", "O.\n.P\n", "..\n..\n"] {
        let g = write(&dir, "g", grid);
        let run = crossat(&["check", TUTORIAL, &g, "--json"], None);
        let cells: Vec<Option<char>> = grid.chars().filter(|c| *c != '\n').map(|c| (c != '.').then_some(c)).collect();
        let givens: [Option<char>; 4] = [cells[0], cells[1], cells[2], cells[3]];
        let solutions = brute(&[0, 1, 2, 3], &givens);
        let summary = json_lines(&run.stdout).pop().expect("summary");
        if givens.iter().any(|g| g.is_some_and(|c| !ALPHABET.contains(c))) {
            assert_eq!((run.code, summary["completable"].clone()), (1, Value::Bool(false)), "{grid:?}");
            continue;
        }
        assert_eq!(summary["completable"], !solutions.is_empty(), "{grid:?}");
        if !solutions.is_empty() {
            assert_eq!(run.code, 0);
            assert_eq!(summary["unique_completion"], solutions.len() == 1, "{grid:?}");
            continue;
        }
        assert_eq!(run.code, 1);
        // The conflict: unsatisfiable together, satisfiable without any one part.
        let clues: Vec<usize> =
            summary["conflict"]["clues"].as_array().expect("clues").iter().map(|c| clue_index(c.as_str().expect("label"))).collect();
        let given_cells: Vec<usize> = summary["conflict"]["cells"]
            .as_array()
            .expect("cells")
            .iter()
            .map(|c| (c[0].as_u64().expect("r") * 2 + c[1].as_u64().expect("c")) as usize)
            .collect();
        let keep =
            |cells_kept: &[usize]| -> [Option<char>; 4] { std::array::from_fn(|k| if cells_kept.contains(&k) { givens[k] } else { None }) };
        assert!(brute(&clues, &keep(&given_cells)).is_empty(), "{grid:?}: not a conflict");
        for drop in 0..clues.len() {
            let fewer: Vec<usize> = clues.iter().enumerate().filter(|&(j, _)| j != drop).map(|(_, &c)| c).collect();
            assert!(!brute(&fewer, &keep(&given_cells)).is_empty(), "{grid:?}: clue {} is not needed", clues[drop]);
        }
        for drop in 0..given_cells.len() {
            let fewer: Vec<usize> = given_cells.iter().enumerate().filter(|&(j, _)| j != drop).map(|(_, &c)| c).collect();
            assert!(!brute(&clues, &keep(&fewer)).is_empty(), "{grid:?}: given {} is not needed", given_cells[drop]);
        }
    }
}

#[test]
fn hints_are_forced_and_explanations_are_minimal() {
    let dir = tempfile::tempdir().expect("dir");
    for grid in ["..\n..\n", "H.\n..\n", ".E\n.P\n"] {
        let g = write(&dir, "g", grid);
        let cells: Vec<Option<char>> = grid.chars().filter(|c| *c != '\n').map(|c| (c != '.').then_some(c)).collect();
        let givens: [Option<char>; 4] = [cells[0], cells[1], cells[2], cells[3]];
        let solutions = brute(&[0, 1, 2, 3], &givens);
        let run = crossat(&["hint", TUTORIAL, "--given", &g, "--explain", "--json", "--all"], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let hints: Vec<Value> = json_lines(&run.stdout).into_iter().filter(|l| l["type"] == "hint").collect();
        // --all lists exactly the empty cells on which every solution agrees.
        let backbone: BTreeMap<usize, char> = (0..4)
            .filter(|&k| givens[k].is_none() && solutions.iter().all(|s| s[k] == solutions[0][k]))
            .map(|k| (k, solutions[0][k]))
            .collect();
        let got: BTreeMap<usize, char> = hints
            .iter()
            .map(|h| {
                (
                    (h["cell"][0].as_u64().expect("r") * 2 + h["cell"][1].as_u64().expect("c")) as usize,
                    h["char"].as_str().expect("ch").chars().next().expect("ch"),
                )
            })
            .collect();
        assert_eq!(got, backbone, "{grid:?}");
        for h in &hints {
            let k = (h["cell"][0].as_u64().expect("r") * 2 + h["cell"][1].as_u64().expect("c")) as usize;
            let ch = got[&k];
            let clues: Vec<usize> =
                h["because"]["clues"].as_array().expect("clues").iter().map(|c| clue_index(c.as_str().expect("label"))).collect();
            let kept: Vec<usize> = h["because"]["cells"]
                .as_array()
                .expect("cells")
                .iter()
                .map(|c| (c[0].as_u64().expect("r") * 2 + c[1].as_u64().expect("c")) as usize)
                .collect();
            let keep = |cells_kept: &[usize]| -> [Option<char>; 4] {
                std::array::from_fn(|j| if cells_kept.contains(&j) { givens[j] } else { None })
            };
            // Those clues and givens force the cell; none of them can be left out.
            assert!(brute(&clues, &keep(&kept)).iter().all(|s| s[k] == ch), "{grid:?}: explanation does not force {k}");
            for drop in 0..clues.len() {
                let fewer: Vec<usize> = clues.iter().enumerate().filter(|&(j, _)| j != drop).map(|(_, &c)| c).collect();
                assert!(brute(&fewer, &keep(&kept)).iter().any(|s| s[k] != ch), "{grid:?}: clue {} is not needed", clues[drop]);
            }
            if h["reason"] == "single-line" {
                let clue = clue_index(h["clue"].as_str().expect("clue"));
                assert!(brute(&[clue], &givens).iter().all(|s| s[k] == ch), "{grid:?}: not forced by {clue} alone");
            }
        }
    }
    // Without --all: one hint, preferring a cell one line forces by itself.
    let run = crossat(&["hint", "puzzles/antoine-trux/MIT.input.txt", "--json"], None);
    let first = &json_lines(&run.stdout)[0];
    assert_eq!(first["reason"], "single-line", "{}", run.stdout);
}

/// The ambiguity report of `solve` (its JSON summary) against the cells where the
/// listed solutions really differ; returns them, with the number of solutions.
fn ambiguity_matches_solutions(args: &[&str]) -> (BTreeMap<(usize, usize), Vec<String>>, usize) {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.push("--json");
    let run = crossat(&all, None);
    let lines = json_lines(&run.stdout);
    let grids: Vec<Vec<String>> = lines
        .iter()
        .filter(|l| l["type"] == "solution")
        .map(|l| l["grid"].as_array().expect("grid").iter().map(|r| r.as_str().expect("row").to_string()).collect())
        .collect();
    let mut differ: BTreeMap<(usize, usize), BTreeSet<char>> = BTreeMap::new();
    for g in &grids {
        for (r, row) in g.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let _ = differ.entry((r, c)).or_default().insert(ch);
            }
        }
    }
    let want: BTreeMap<(usize, usize), Vec<String>> =
        differ.into_iter().filter(|(_, v)| v.len() > 1).map(|(k, v)| (k, v.into_iter().map(String::from).collect())).collect();
    let summary = lines.last().expect("summary");
    let got: BTreeMap<(usize, usize), Vec<String>> = summary["ambiguous_cells"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|a| {
            (
                (a["cell"][0].as_u64().expect("r") as usize, a["cell"][1].as_u64().expect("c") as usize),
                a["values"].as_array().expect("values").iter().map(|v| v.as_str().expect("v").to_string()).collect(),
            )
        })
        .collect();
    assert_eq!(got, want, "{args:?}");
    (want, grids.len())
}

#[test]
fn the_ambiguity_report_on_generated_boards() {
    // A generated 5×5 with exactly 63 solutions, and a generated hexagon with thousands
    // (the report then covers the solutions listed).
    let (cells, n) = ambiguity_matches_solutions(&["puzzles/hexregex/rect_easy_1000.json", "--all"]);
    assert_eq!(n, 63);
    assert!(!cells.is_empty());
    let (cells, n) = ambiguity_matches_solutions(&["puzzles/binoternary/1389924189788533.json", "--limit", "200"]);
    assert_eq!(n, 200);
    assert!(!cells.is_empty());
    let text = crossat(&["solve", "puzzles/binoternary/1389924189788533.json", "--limit", "200"], None);
    assert!(text.stdout.contains("cells that differ between the 200 found solutions:"), "{}", text.stdout);
}

#[test]
fn the_ambiguity_report_names_exactly_the_cells_that_differ() {
    let (want, n) = ambiguity_matches_solutions(&["puzzles/antoine-trux/player_puzzle_sheep.input.txt", "--all"]);
    assert_eq!(n, crate::common::sheep_solutions());
    // hint --all on the same puzzle: the forced cells are all the others.
    let hints = crossat(&["hint", "puzzles/antoine-trux/player_puzzle_sheep.input.txt", "--all", "--json"], None);
    let forced = json_lines(&hints.stdout).iter().filter(|l| l["type"] == "hint").count();
    assert_eq!(forced, 55 - want.len());
}

#[test]
fn uniqueness_proofs_check_with_an_independent_checker() {
    let dir = tempfile::tempdir().expect("dir");
    let proof = dir.path().join("p.varisat");
    let cnf = dir.path().join("p.cnf");
    for puzzle in ["puzzles/antoine-trux/MIT.input.txt", TUTORIAL] {
        let run = crossat(
            &[
                "solve",
                puzzle,
                "--unique",
                "--proof",
                proof.to_str().expect("p"),
                "--proof-format",
                "varisat",
                "--proof-cnf",
                cnf.to_str().expect("c"),
            ],
            None,
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut checker = varisat_checker::Checker::new();
        checker.add_dimacs_cnf(std::fs::File::open(&cnf).expect("cnf")).expect("formula");
        checker.check_proof(std::fs::File::open(&proof).expect("proof")).unwrap_or_else(|e| panic!("{puzzle}: proof rejected: {e}"));
        // The formula really is the puzzle's CNF plus one clause blocking the solution.
        let header = |t: &str| t.lines().find(|l| l.starts_with("p cnf")).map(str::to_string).expect("header");
        let plain = crossat(&["dimacs", puzzle], None).stdout;
        let (p0, p1) = (header(&plain), header(&std::fs::read_to_string(&cnf).expect("cnf")));
        let clauses = |h: &str| h.split_whitespace().nth(3).and_then(|n| n.parse::<usize>().ok()).expect("count");
        assert_eq!(clauses(&p1), clauses(&p0) + 1, "{puzzle}");
    }
    // A DRAT proof is written too (drat-trim is not packaged here to check it); MIT
    // needs search, so its refutation ends by adding the empty clause.
    let drat = dir.path().join("p.drat");
    let run = crossat(&["solve", "puzzles/antoine-trux/MIT.input.txt", "--unique", "--proof", drat.to_str().expect("p")], None);
    assert_eq!(run.code, 0);
    assert_eq!(
        std::fs::read_to_string(&drat).expect("drat").lines().last().map(str::trim),
        Some("0"),
        "a DRAT refutation ends with the empty clause"
    );
    // Not unique: exit 1, no proof; --proof without --unique is a usage error.
    let run =
        crossat(&["solve", "puzzles/antoine-trux/player_puzzle_sheep.input.txt", "--unique", "--proof", drat.to_str().expect("p")], None);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("more than one solution"), "{}", run.stderr);
    assert_eq!(crossat(&["solve", TUTORIAL, "--proof", "x"], None).code, 2);
}

#[test]
fn assist_bad_input() {
    let dir = tempfile::tempdir().expect("dir");
    let g = write(&dir, "g", "HEL\nLP\n");
    let run = crossat(&["check", TUTORIAL, &g], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.starts_with("error: ") && run.stderr.contains("row 1 has 3 cells"), "{}", run.stderr);
    let run = crossat(&["check", TUTORIAL, "/nonexistent/grid"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("no such file"), "{}", run.stderr);
    let conflict = write(&dir, "c", "L.\n..\n");
    let run = crossat(&["hint", TUTORIAL, "--given", &conflict], None);
    assert_eq!(run.code, 1);
    assert!(run.stdout.contains("conflict") && run.stdout.contains("HE|LL|O+"), "{}", run.stdout);
}
