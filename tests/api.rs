//! The library's facade (`crossat::Puzzle`) and its typed errors, as a caller uses them.
//! Expected solution sets come from brute force over the clues restated in Python's
//! `re` terms by hand, never from crossat itself.

use crate::common::{root, write_file};
use crossat::error::{ClueErrorKind, InputErrorKind};
use crossat::{Error, Puzzle};

/// A 2×2 puzzle with several solutions: rows `[AB]+` and `A.|.A`, columns `[^C]*`
/// and `(.)[BC]` over the alphabet ABC.
const THREE: &str = r#"{"left": ["[AB]+", "A.|.A"], "top": ["[^C]*", "(.)[BC]"]}"#;

/// The solutions of [`THREE`], by brute force over its alphabet.
fn three_solutions() -> Vec<Vec<String>> {
    let abc = ['A', 'B', 'C'];
    let mut out = Vec::new();
    for a in abc {
        for b in abc {
            for c in abc {
                for d in abc {
                    let ok = "AB".contains(a) && "AB".contains(b) && (c == 'A' || d == 'A') && a != 'C' && c != 'C' && "BC".contains(d);
                    if ok {
                        out.push(vec![format!("{a}{b}"), format!("{c}{d}")]);
                    }
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn solutions_counts_and_uniqueness_follow_the_limit() {
    let want = three_solutions();
    assert!(want.len() > 2, "the test needs a puzzle with more than two solutions");
    let mut p = Puzzle::read("three.json", THREE.as_bytes()).expect("reads");
    assert!(!p.is_unique().expect("solves"));
    let some = p.solutions(2).expect("solves");
    assert_eq!((some.solutions.len(), some.complete), (2, false));
    let all = p.solutions(100).expect("solves");
    assert!(all.complete);
    let mut got: Vec<Vec<String>> = all.solutions.iter().map(|s| s.rows.clone()).collect();
    got.sort();
    assert_eq!(got, want);
    // Every solution passes check, and a grid that breaks a clue names it.
    for s in &want {
        assert!(p.check(&[&s[0], &s[1]]).expect("checks").is_empty(), "{s:?}");
    }
    assert_eq!(p.check(&["CB", "BB"]).expect("checks"), ["row 1 (left)", "row 2 (left)", "column 1 (top)"]);
    let Err(Error::Input(e)) = p.check(&["AB"]) else { panic!("a grid of one row is refused") };
    assert_eq!((e.source.as_str(), e.kind), ("grid", InputErrorKind::Invalid));
}

#[test]
fn read_file_reads_every_bundled_format_and_dimacs_has_the_formula() {
    for path in ["puzzles/antoine-trux/beginner_1.input.txt", "puzzles/dkesler/beginner-1.dat"] {
        let full = root().join(path);
        let mut p = Puzzle::read_file(&full).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(p.solve().expect("solves").map(|s| s.rows), Some(vec!["HE".to_string(), "LP".to_string()]), "{path}");
        assert!(p.is_unique().expect("solves"));
        let cnf = p.to_dimacs().expect("exports");
        let header = cnf.lines().find(|l| l.starts_with("p cnf ")).expect("a DIMACS header");
        let n: Vec<usize> = header[6..].split_whitespace().map(|x| x.parse().expect("number")).collect();
        let stats = p.stats(None).expect("stats");
        assert_eq!(n, [stats.variables, stats.clauses]);
    }
}

#[test]
fn errors_are_typed_by_stage_and_kind() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Parse stage: a missing file, a puzzle over the cell limit, a malformed one.
    let Err(Error::Input(e)) = Puzzle::read_file(dir.path().join("absent.json")) else { panic!("a missing file") };
    assert_eq!(e.kind, InputErrorKind::Io);
    assert!(e.to_string().ends_with("absent.json: cannot read file: no such file"), "{e}");
    let big = write_file(dir.path(), "big.json", r#"{"rows": 200, "cols": 200, "left": null, "top": null}"#);
    let Err(Error::Input(e)) = Puzzle::read_file(&big) else { panic!("too many cells") };
    assert_eq!(e.kind, InputErrorKind::Limit, "{e}");
    let Err(Error::Input(e)) = Puzzle::read("x.json", b"{\"left\": 3}") else { panic!("bad JSON shape") };
    assert_eq!((e.source.as_str(), e.kind), ("x.json", InputErrorKind::Invalid));
    // Compile stage: each kind of clue problem, with the clue's place.
    let clue_kind = |clue: &str| -> ClueErrorKind {
        let text = serde_json::json!({"left": [clue], "top": ["A", "A"]}).to_string();
        match Puzzle::read("c.json", text.as_bytes()) {
            Err(Error::Clue(e)) => {
                assert_eq!((e.source.as_str(), e.clue.as_str(), e.regex.as_str()), ("c.json", "row 1 (left)", clue));
                e.kind
            }
            Err(other) => panic!("{clue}: not a clue error: {other}"),
            Ok(_) => panic!("{clue}: accepted"),
        }
    };
    assert!(matches!(clue_kind("A{2,1}"), ClueErrorKind::Syntax { position: Some(2), exception: None, .. }));
    assert!(matches!(clue_kind("A{99999999999}"), ClueErrorKind::Syntax { exception: Some("OverflowError"), .. }));
    assert!(matches!(clue_kind("(?<=A+)A"), ClueErrorKind::Syntax { position: None, .. }));
    assert!(matches!(clue_kind(&"(".repeat(300)), ClueErrorKind::Limit(_)));
}

/// The JSON Lines the command line prints for `args` on `puzzle` (standard input).
fn cli_records(args: &[&str], puzzle: &str) -> Vec<serde_json::Value> {
    let run = crate::common::crossat(args, Some(puzzle.as_bytes()));
    assert!(run.code <= 1, "crossat {args:?}: {}", run.stderr);
    run.stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

/// One record as JSON.
fn value(record: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(record).expect("serializes")
}

/// Whatever the facade returns as records is what `--json` prints for the same request:
/// the solutions and summary, the count, the explanation and a player's hint.
#[test]
fn the_facades_records_are_the_command_lines() {
    let beatles = r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#;
    for (text, limit) in [(THREE, 2), (THREE, 50), (beatles, 2)] {
        let mut p = Puzzle::read("-", text.as_bytes()).expect("reads");
        let mut got = Vec::new();
        let summary = p
            .search(crossat::Listing { limit: Some(limit), ..Default::default() }, |puzzle, s| {
                got.push(value(&s.record(puzzle)));
                Ok(())
            })
            .expect("solves");
        got.push(value(&summary));
        assert_eq!(got, cli_records(&["solve", "--json", "--limit", &limit.to_string(), "-"], text), "{text}");
        assert_eq!(vec![value(&p.count_record().expect("counts"))], cli_records(&["solve", "--count", "--json", "-"], text));
        let explained = p.explain(None).expect("explains");
        let mut got: Vec<_> = explained.steps.iter().map(value).collect();
        got.push(value(&explained.summary));
        assert_eq!(got, cli_records(&["explain", "--json", "-"], text), "{text}");
    }
    // A player's hint: the hint record `hint --json --grid` prints.
    let p = Puzzle::read("-", beatles.as_bytes()).expect("reads");
    let dir = crate::common::tmp();
    for rows in [["..", ".."], ["H.", ".."], ["H.", ".P"]] {
        let grid = write_file(dir.path(), "grid.txt", rows.join("\n"));
        let hint = p.hint(&rows).expect("hints").expect("a forced cell");
        let cli = cli_records(&["hint", "--json", "--grid", &grid.display().to_string(), "-"], beatles);
        assert_eq!(cli.iter().filter(|r| r["type"] == "hint").collect::<Vec<_>>(), [&value(&hint)], "{rows:?}");
    }
    // Wrong or unfinishable grids have no hint.
    assert_eq!(p.hint(&["HL", ".."]).expect("hints"), None);
    assert_eq!(p.hint(&["HE", "LP"]).expect("hints"), None, "a full grid");
}
