//! No clue aborts the process (issue 42): deep, wide and self-referencing clues give an
//! answer or one clean error (exit 2, naming the file) from every command, in both
//! dialects, and the clues that once crashed or blew up give the oracle's answer.

use crate::common::{arg, crossat, tmp, write_file};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// A one-row puzzle of `cols` cells with one clue.
fn one_row(dir: &Path, name: &str, clue: &str, cols: usize, alphabet: &str, dialect: &str) -> std::path::PathBuf {
    let p = serde_json::json!({"rows": 1, "cols": cols, "left": [clue], "alphabet": alphabet, "dialect": dialect});
    write_file(dir, name, p.to_string())
}

/// Every line of `len` letters of `alphabet` that node's `RegExp` full-matches (node is
/// the ECMAScript oracle; tests/tools.rs requires it).
fn node_lines(clue: &str, alphabet: &str, len: usize) -> BTreeSet<String> {
    let script = r#"
const [clue, alphabet, len] = JSON.parse(process.argv[1]);
const re = new RegExp('^(?:' + clue + ')$');
const letters = [...alphabet], out = [];
const go = (w, d) => { if (d === len) { if (re.test(w)) out.push(w); return; } for (const c of letters) go(w + c, d + 1); };
go('', 0);
console.log(JSON.stringify(out));
"#;
    let args = serde_json::json!([clue, alphabet, len]).to_string();
    let out = Command::new("node").args(["-e", script, &args]).output().expect("node runs (tests/tools.rs requires it)");
    assert!(out.status.success(), "node: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<Vec<String>>(&out.stdout).expect("node's JSON").into_iter().collect()
}

/// Every line of `len` letters of `alphabet` that CPython's `re.fullmatch` accepts.
fn python_lines(clue: &str, alphabet: &str, len: usize) -> BTreeSet<String> {
    let script = "import itertools,json,re,sys\nc,a,n=json.loads(sys.argv[1])\nr=re.compile(c)\nprint(json.dumps([''.join(w) for w in itertools.product(a,repeat=n) if r.fullmatch(''.join(w))]))";
    let args = serde_json::json!([clue, alphabet, len]).to_string();
    let out = Command::new("python3").args(["-c", script, &args]).output().expect("python3 runs");
    assert!(out.status.success(), "python3: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<Vec<String>>(&out.stdout).expect("python's JSON").into_iter().collect()
}

/// The lines `crossat solve --all --json` prints, asserting a complete search.
fn crossat_lines(path: &Path) -> BTreeSet<String> {
    let r = crossat(&["solve", "--all", "--json", arg(path)], None);
    assert!(r.code == 0 || r.code == 1, "{r:?}");
    let (grids, summary) = crate::common::json_solutions(&r.stdout);
    assert_eq!(summary["complete"], true, "{summary}");
    grids.into_iter().map(|g| g.concat()).collect()
}

/// The two clues of issue 42 that overflowed the stack (a back-reference inside its own
/// group): crossat now lists exactly the lines node accepts.
#[test]
fn self_references_answer_as_node_does() {
    let dir = tmp();
    let cases = [
        (concat!(r"((?<n>\k<n>?)\k<n>)([\u00e9", "\n\u{1f}", r"\cJ]*?){0,0}\k<n>"), "-\u{e9}\u{1f}9\n", 4),
        ("(?<ab>x*(\\s|[^x]|\t?\t??\\2*))|[]a]{0,2}", "xb]\ta\r\u{17f}", 3),
    ];
    for (i, (clue, alphabet, cols)) in cases.iter().enumerate() {
        let path = one_row(dir.path(), &format!("r{i}.json"), clue, *cols, alphabet, "ecmascript");
        assert_eq!(crossat_lines(&path), node_lines(clue, alphabet, *cols), "{clue:?}");
    }
}

/// `(A)(\1\1)(\2\2)…`: each group twice the one before. Copying group bodies into
/// back-references once grew the tree exponentially (an ECMAScript clue of 30 groups
/// took 23 GB before the kernel killed it); both dialects now answer as their oracle.
#[test]
fn doubling_back_references_answer_as_the_oracles_do() {
    let dir = tmp();
    for n in [3, 6, 9, 12, 15, 40] {
        for optional in [false, true] {
            let q = if optional { "?" } else { "" };
            let clue = (1..n).fold("(A)".to_string(), |c, i| format!("{c}(\\{i}\\{i}){q}"));
            for cols in [3, 7] {
                let py = one_row(dir.path(), "py.json", &clue, cols, "AB", "python");
                assert_eq!(crossat_lines(&py), python_lines(&clue, "AB", cols), "python {clue:?} on {cols}");
                let es = one_row(dir.path(), "es.json", &clue, cols, "AB", "ecmascript");
                assert_eq!(crossat_lines(&es), node_lines(&clue, "AB", cols), "ecmascript {clue:?} on {cols}");
            }
        }
    }
}

/// Deep, wide and long clues of 10^5 constructs, given to every command in both
/// dialects: an answer (exit 0 or 1) or one clean error line naming the file (exit 2);
/// never a panic, an abort or a signal.
#[test]
fn huge_clues_never_abort_any_command() {
    const N: usize = 100_000;
    let families: [(&str, String); 9] = [
        ("nested groups", "(".repeat(N) + "A" + &")".repeat(N)),
        ("nested non-capturing groups", "(?:".repeat(N) + "A" + &")".repeat(N)),
        ("nested stars", "(?:".repeat(N) + "A" + &")*".repeat(N)),
        ("nested lookaheads", "(?=A".repeat(N) + &")".repeat(N) + "A"),
        ("nested alternations", "(?:B|".repeat(N) + "A" + &")".repeat(N)),
        ("alternations", vec!["A"; N].join("|")),
        ("optional chain", "A?".repeat(N)),
        ("back-reference chain", "(A)".to_string() + &"\\1?".repeat(N)),
        ("doubling back-references", (1..200).fold("(A)".to_string(), |c, i| format!("{c}(\\{i}\\{i})?"))),
    ];
    let dir = tmp();
    let grid = write_file(dir.path(), "grid.txt", "A\n");
    for dialect in ["python", "ecmascript"] {
        for (what, clue) in &families {
            let path = one_row(dir.path(), "huge.json", clue, 1, "AB", dialect);
            let file = arg(&path);
            let commands: [&[&str]; 9] = [
                &["solve", file],
                &["solve", "--all", "--json", file],
                &["solve", "--count", file],
                &["dimacs", file],
                &["list", file],
                &["check", file, arg(&grid)],
                &["hint", file],
                &["explain", file],
                &["lint", file],
            ];
            for args in commands {
                let r = crossat(args, None);
                let at = format!("{dialect} {what}: crossat {}", args.join(" "));
                assert!(matches!(r.code, 0..=2), "{at}: exit {} {}", r.code, r.stderr);
                assert!(!r.stderr.contains("panicked") && !r.stderr.contains("overflow"), "{at}: {}", r.stderr);
                let errors: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with("error: ")).collect();
                if r.code == 2 && args[0] != "lint" {
                    assert_eq!(errors.len(), 1, "{at}: one error line: {}", r.stderr);
                    assert!(errors[0].contains("huge.json"), "{at}: names the file: {}", errors[0]);
                } else {
                    assert!(errors.is_empty(), "{at}: {}", r.stderr);
                }
            }
        }
    }
}
