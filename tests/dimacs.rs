//! DIMACS round trip with an external solver: `crossat dimacs` → CaDiCaL →
//! `crossat solve --model`.
//!
//! CaDiCaL (Debian package `cadical`; `.ci/run` installs it) exits 10 on SAT and 20 on
//! UNSAT and prints `s …` and `v … 0` lines. Without it, these tests fail with the
//! install command (see `tests/tools.rs` for the one, loud, opt-out).

use crate::common::{
    Run, arg, crossat, find_on_path, json_solutions, parse_dimacs, parse_text_grids, parse_trux_expected, puzzle, read_text, write_file,
};
use crate::tools::{self, Tool};
use std::path::{Path, PathBuf};
use std::process::Command;

/// CaDiCaL's path; `None` only where `CROSSAT_ALLOW_MISSING_TOOLS=1` skips the test.
pub(crate) fn cadical() -> Option<PathBuf> {
    tools::require(Tool::Cadical).then(|| find_on_path("cadical").expect("cadical runs, so it is on PATH"))
}

/// Writes the CNF of `puzzle` (with extra options) to `dir/name.cnf`, runs CaDiCaL on
/// it and saves its output as `dir/name.out`; returns CaDiCaL's exit code and the paths.
fn export_and_solve(cadical: &Path, dir: &Path, name: &str, puzzle: &str, options: &[&str]) -> (i32, PathBuf, PathBuf) {
    let cnf = dir.join(format!("{name}.cnf"));
    let mut args = vec!["dimacs", puzzle, "-o", arg(&cnf)];
    args.extend_from_slice(options);
    let r = crossat(&args, None);
    assert_eq!(r.code, 0, "{r:?}");
    let out = Command::new(cadical).arg(&cnf).output().expect("run cadical");
    let model = write_file(dir, &format!("{name}.out"), &out.stdout);
    (out.status.code().unwrap_or(-1), cnf, model)
}

fn solve_model(puzzle: &str, model: &Path, options: &[&str]) -> Run {
    let mut args = vec!["solve", puzzle, "--model", arg(model)];
    args.extend_from_slice(options);
    crossat(&args, None)
}

/// The assignment of CaDiCaL's `v` lines, indexed by variable.
fn model_values(text: &str) -> Vec<bool> {
    let mut values = Vec::new();
    for lit in text.lines().filter_map(|l| l.strip_prefix("v ")).flat_map(str::split_whitespace) {
        let lit: i64 = lit.parse().expect("literal");
        let var = lit.unsigned_abs() as usize;
        if var == 0 {
            continue;
        }
        if values.len() <= var {
            values.resize(var + 1, false);
        }
        values[var] = lit > 0;
    }
    values
}

fn satisfies(clauses: &[Vec<i64>], values: &[bool]) -> bool {
    clauses.iter().all(|c| c.iter().any(|&l| values.get(l.unsigned_abs() as usize).copied().unwrap_or(false) == (l > 0)))
}

fn expected_trux(name: &str) -> Vec<String> {
    parse_trux_expected(&read_text(&puzzle(&format!("antoine-trux/{name}.output_expected.txt")))).grids[0].clone()
}

#[test]
fn cadical_models_decode_to_the_expected_grids() {
    let Some(cadical) = cadical() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        ("search_required", "puzzles/antoine-trux/search_required.input.txt", expected_trux("search_required")),
        ("hamlet_3", "puzzles/antoine-trux/hamlet_3.input.txt", expected_trux("hamlet_3")),
        (
            "problem3",
            "puzzles/seed000/problem3.json",
            read_text(&puzzle("seed000/problem3.expected")).lines().map(str::to_string).collect(),
        ),
    ];
    for (name, file, expected) in cases {
        let (code, cnf, model) = export_and_solve(&cadical, dir.path(), name, file, &[]);
        assert_eq!(code, 10, "{name}: cadical says SAT");
        let out = std::fs::read_to_string(&model).expect("read model");
        assert!(out.lines().any(|l| l == "s SATISFIABLE"), "{name}: {out}");
        // The model satisfies the CNF (checked here, independently of crossat).
        let d = parse_dimacs(&std::fs::read_to_string(&cnf).expect("read cnf"));
        assert!(satisfies(&d.clauses, &model_values(&out)), "{name}");

        let r = solve_model(file, &model, &[]);
        assert_eq!(r.code, 0, "{name}: {r:?}");
        assert_eq!(parse_text_grids(&r.stdout), vec![expected.clone()], "{name}");
        assert!(r.stdout.contains("verified"), "{name}: {}", r.stdout);
        let r = solve_model(file, &model, &["--json"]);
        assert_eq!(r.code, 0, "{name}: {r:?}");
        let (grids, summary) = json_solutions(&r.stdout);
        assert_eq!(grids, vec![expected], "{name}");
        assert_eq!(summary["solutions"], 1);
    }
}

#[test]
fn cadical_round_trip_keeps_the_alphabet_and_givens() {
    let Some(cadical) = cadical() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    // Over B and Z, the first cell can only be B ([AB] but not A); the second is given.
    let file = write_file(dir.path(), "dots.json", r#"{"left": ["[AB]."], "top": ["[^A]", "."]}"#);
    let given = write_file(dir.path(), "given.txt", ".Z\n");
    let options = ["--alphabet", "BZ", "--given", arg(&given)];
    let (code, _, model) = export_and_solve(&cadical, dir.path(), "dots", arg(&file), &options);
    assert_eq!(code, 10);
    let r = solve_model(arg(&file), &model, &options);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(parse_text_grids(&r.stdout), vec![vec!["BZ".to_string()]]);
}

#[test]
fn cadical_unsat_means_no_solution() {
    let Some(cadical) = cadical() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let trivial = write_file(dir.path(), "trivial.json", r#"{"left": ["A"], "top": ["B"]}"#);
    // Each line can be satisfied alone; together they cannot (row 1 says AB, column 1 says B.).
    let crossing = write_file(dir.path(), "crossing.json", r#"{"left": ["A[AB]", "[AB]{2}"], "top": ["B[AB]", "[AB]{2}"]}"#);
    for (name, file) in [("trivial", &trivial), ("crossing", &crossing)] {
        assert_eq!(crossat(&["solve", arg(file)], None).code, 1, "{name} has no solution");
        let (code, _, model) = export_and_solve(&cadical, dir.path(), name, arg(file), &[]);
        assert_eq!(code, 20, "{name}: cadical says UNSAT");
        assert!(std::fs::read_to_string(&model).expect("read").lines().any(|l| l == "s UNSATISFIABLE"));
        let r = solve_model(arg(file), &model, &[]);
        assert_eq!(r.code, 1, "{name}: {r:?}");
        assert!(r.stdout.contains("no solution"), "{}", r.stdout);
        let r = solve_model(arg(file), &model, &["--json"]);
        assert_eq!(r.code, 1, "{name}: {r:?}");
        let (grids, summary) = json_solutions(&r.stdout);
        assert!(grids.is_empty());
        assert_eq!(summary["solutions"], 0);
    }
}

#[test]
fn a_model_that_violates_the_cnf_is_rejected() {
    let Some(cadical) = cadical() else { return };
    let dir = tempfile::tempdir().expect("tempdir");
    let file = "puzzles/antoine-trux/search_required.input.txt";
    let (code, cnf, model) = export_and_solve(&cadical, dir.path(), "p", file, &[]);
    assert_eq!(code, 10);
    let d = parse_dimacs(&std::fs::read_to_string(&cnf).expect("read cnf"));
    let out = std::fs::read_to_string(&model).expect("read model");
    let values = model_values(&out);
    // Flip one cell variable's literal in the `v` lines; check here that the CNF is now
    // violated, then expect crossat to refuse the model.
    let cell_vars: Vec<usize> = d.cells.values().flatten().map(|&(v, _)| v).collect();
    let flip = cell_vars
        .iter()
        .copied()
        .find(|&v| {
            let mut flipped = values.clone();
            flipped[v] = !flipped[v];
            !satisfies(&d.clauses, &flipped)
        })
        .expect("some flip violates the CNF");
    let lit = if values[flip] { flip.to_string() } else { format!("-{flip}") };
    let neg = if values[flip] { format!("-{flip}") } else { flip.to_string() };
    let flipped: String = out
        .lines()
        .map(|l| match l.strip_prefix("v ") {
            Some(rest) => {
                let toks: Vec<String> = rest.split_whitespace().map(|t| if t == lit { neg.clone() } else { t.to_string() }).collect();
                format!("v {}\n", toks.join(" "))
            }
            None => format!("{l}\n"),
        })
        .collect();
    assert_ne!(flipped, out, "the literal was found and flipped");
    let bad = write_file(dir.path(), "flipped.out", flipped);
    let r = solve_model(file, &bad, &[]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.starts_with("error: ") && r.stderr.contains(arg(&bad)) && r.stderr.contains("violates clause"), "{}", r.stderr);
    // A model of another puzzle's CNF is refused too.
    let r = solve_model("puzzles/seed000/problem3.json", &model, &[]);
    assert_eq!(r.code, 2, "{r:?}");
}

/// The header's counts are those `solve --stats --json` reports (no external solver needed).
#[test]
fn dimacs_header_counts_match_the_stats() {
    let dir = tempfile::tempdir().expect("tempdir");
    let given = write_file(dir.path(), "given.txt", "B.\n..\n");
    let cases: [(&str, &[&str]); 5] = [
        ("puzzles/seed000/problem1.json", &[]),
        ("puzzles/antoine-trux/search_required.input.txt", &[]),
        ("puzzles/antoine-trux/hamlet_3.input.txt", &[]),
        ("puzzles/antoine-trux/search_required.input.txt", &["--alphabet", "ABC"]),
        ("puzzles/antoine-trux/search_required.input.txt", &["--given", arg(&given)]),
    ];
    for (file, options) in cases {
        let mut args = vec!["dimacs", file];
        args.extend_from_slice(options);
        let r = crossat(&args, None);
        assert_eq!(r.code, 0, "{r:?}");
        let d = parse_dimacs(&r.stdout);
        let mut args = vec!["solve", "--stats", "--json", file];
        args.extend_from_slice(options);
        let (_, summary) = json_solutions(&crossat(&args, None).stdout);
        let stats = &summary["stats"];
        assert_eq!(stats["clauses"].as_u64(), Some(d.clauses.len() as u64), "{file} {options:?}: {stats}");
        assert_eq!(stats["variables"].as_u64(), Some(d.vars as u64), "{file} {options:?}: {stats}");
    }
}
