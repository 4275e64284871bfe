//! Helpers shared by the tests beside the code and the integration tests (which
//! include this file as `tests/common.rs`'s `oracles` module): the Python oracles
//! (`scripts/*.py`, run from the repository root), the bundled puzzles and their
//! recorded solution counts, sample sizes read from the environment, and the bound on
//! skipped cases. Nothing here names the crate, so that
//! both test crates can compile it.
#![allow(dead_code, reason = "each test uses a different subset")]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The repository root.
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A path under `puzzles/`.
pub(crate) fn puzzle(rel: &str) -> PathBuf {
    root().join("puzzles").join(rel)
}

/// A solution count recorded beside a bundled puzzle, in `NAME.solutions.md`, from
/// sources independent of crossat (the peer's full enumeration, CPython).
#[derive(Debug)]
pub(crate) struct Recorded {
    /// The number of solutions.
    pub(crate) count: usize,
    /// The SHA-256 of the sorted solutions (rows joined by `/`, grids by newlines).
    pub(crate) sha256: String,
    /// The alphabet the count is over.
    pub(crate) alphabet: String,
}

/// The record of `puzzles/REL.solutions.md` (`REL` without `.input.txt`).
pub(crate) fn recorded_solutions(rel: &str) -> Recorded {
    let path = puzzle(&format!("{rel}.solutions.md"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let field = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .unwrap_or_else(|| panic!("{}: no line starting {key:?}", path.display()))
            .trim()
            .to_string()
    };
    let alphabet = field("alphabet:");
    Recorded {
        count: field("count:").parse().unwrap_or_else(|e| panic!("{}: count: {e}", path.display())),
        sha256: field("sha256:"),
        alphabet: serde_json::from_str(&alphabet).unwrap_or_else(|e| panic!("{}: alphabet {alphabet}: {e}", path.display())),
    }
}

/// sheep's solutions, as its record gives them.
pub(crate) fn sheep_solutions() -> usize {
    recorded_solutions("antoine-trux/player_puzzle_sheep").count
}

/// Marks an answer where Python's matcher raised instead of answering.
pub(crate) const CRASH: &str = "\u{0}crash";

/// CPython 3.11's answers (`scripts/clue_oracle.py`, one process for the batch): for
/// each `(pattern, alphabet, n)`, the strings of length `n` over `alphabet` that
/// `re.fullmatch(pattern, s)` accepts, or `None` when Python refuses the pattern. A
/// line length where Python's matcher itself raised (a CPython bug, see the script)
/// gets `Some` of the set `{"\u{0}crash"}`, which no real answer can equal.
/// Panics (so the calling test fails, never skips) without `python3` 3.11.
pub(crate) fn python_fullmatch(queries: &[(&str, &[char], usize)]) -> Vec<Option<std::collections::BTreeSet<String>>> {
    let requests = queries.iter().map(|(p, a, n)| serde_json::json!({"p": p, "alphabet": a.iter().collect::<String>(), "n": n})).collect();
    python_oracle("scripts/clue_oracle.py", requests)
        .into_iter()
        .map(|v| {
            if v.get("crash").is_some() {
                return Some(std::collections::BTreeSet::from([CRASH.to_string()]));
            }
            v["ok"]
                .as_bool()
                .expect("ok")
                .then(|| v["matches"].as_array().expect("matches").iter().map(|m| m.as_str().expect("str").to_string()).collect())
        })
        .collect()
}

/// Runs a Python oracle script of the repository (`python3 SCRIPT`, one process for the
/// batch): one JSON request per line in, one JSON answer per line out, in order.
/// Panics (so the calling test fails, never skips) if python3 is missing, the script
/// fails, or it answers fewer lines than asked.
pub(crate) fn python_oracle(script: &str, requests: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new("python3")
        .arg(root().join(script))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("python3 (CPython 3.11) is required for this test: {script}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let asked = requests.len();
    let writer = std::thread::spawn(move || {
        for r in requests {
            writeln!(stdin, "{r}").expect("write to the oracle");
        }
    });
    let out: Vec<serde_json::Value> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| serde_json::from_str(&l.expect("oracle output")).expect("oracle JSON"))
        .collect();
    writer.join().expect("writer");
    assert!(child.wait().expect("oracle").success(), "{script} failed (is python3 CPython 3.11?)");
    assert_eq!(out.len(), asked, "{script} answered {} of {asked} requests", out.len());
    out
}

/// A sample size read from the environment variable `var` (default `default`), which
/// may raise the size but never lower it below `floor`: a run asking for fewer cases
/// fails rather than passing having compared less.
pub(crate) fn sample_size(var: &str, default: usize, floor: usize) -> usize {
    let Ok(text) = std::env::var(var) else { return default };
    let n: usize = text.parse().unwrap_or_else(|e| panic!("{var}={text:?}: {e}"));
    assert!(n >= floor, "{var}={n} is below this test's floor of {floor} cases");
    n
}

/// Bounds one category of skipped cases: at most 1 % of `total`, and at least `min`
/// cases actually `compared`, whatever the sample size.
pub(crate) fn bound_skips(what: &str, skipped: usize, total: usize, compared: usize, min: usize) {
    eprintln!("{what}: {skipped} of {total} skipped, {compared} compared");
    assert!(skipped * 100 <= total, "{what}: {skipped} of {total} skipped (more than 1 %)");
    assert!(compared >= min, "{what}: only {compared} compared (at least {min} needed)");
}

/// Refuses a bless variable (one that rewrites expected output instead of failing)
/// under CI, and says whether it is set.
pub(crate) fn blessing(var: &str) -> bool {
    let set = std::env::var_os(var).is_some();
    assert!(!(set && std::env::var_os("CI").is_some()), "{var} rewrites expected output: it is refused when CI is set");
    set
}

/// CPython 3.11's `re.fullmatch` verdict on each string of each `(clue, strings)`
/// (`scripts/fullmatch_oracle.py`, one process for the batch), or `Err` with Python's
/// message where it refuses the clue.
pub(crate) fn python_verdicts(cases: &[(String, Vec<String>)]) -> Vec<Result<Vec<bool>, String>> {
    let requests = cases.iter().map(|(p, s)| serde_json::json!({"p": p, "s": s})).collect();
    python_oracle("scripts/fullmatch_oracle.py", requests)
        .into_iter()
        .map(|a| match a["ok"].as_bool().expect("ok") {
            true => Ok(a["r"].as_array().expect("r").iter().map(|b| b.as_bool().expect("bool")).collect()),
            false => Err(a["error"].as_str().expect("error").to_string()),
        })
        .collect()
}

/// Every puzzle file under `dir` (not expected outputs or solutions), sorted.
pub(crate) fn puzzle_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("read puzzles").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if p.is_dir() {
            puzzle_files(&p, out);
        } else if [".txt", ".json", ".dat"].iter().any(|s| name.ends_with(s)) && !name.contains("expected") && !name.contains("_solution") {
            out.push(p);
        }
    }
}

/// The counts of the binoternary hexagons (10^55 to 10^89 grids; four of them beyond
/// the branching search, counted by the frontier sweep), pinned to Ganak 2.8's counts
/// of crossat's DIMACS export (448, 26, 41 and 53 s of CPU for the four; see tests/ganak.rs
/// for the run that repeats them).
pub(crate) const HEXAGON_COUNTS: [(&str, &str); 11] = [
    ("1389923839891520", "16285115205727910372096110105618829671507719735119172577776193097643859042461894574080"),
    ("1389924189214500", "50850167323811279115591642857741264074913611776000000000000000000000"),
    ("1389924189506517", "10864810504226500802562934326747992427552590266368000000000000000000000000000"),
    ("1389924189788533", "49748163719374948641844877345314412142826349455283380723928879301918720"),
    ("1389924190075550", "515054001663856512749386224721510256712169076865884678985909628486401008861184"),
    ("1389924190358566", "1014790018536878283167105054607687776981620033522237440"),
    ("1389924190671584", "6937956518440461910166619208399929028307697777043162932761424807591936000"),
    ("1389924191034605", "23468371255018978357013301079969625744944652049840987911822864547840"),
    ("1389924191386625", "778996024795901122489465613851717863915820237420915180168764881662783185181339671230152704"),
    ("1389924191714643", "3033916381142556474504270902237969571481328476164875740148138067886080"),
    ("1389924192029662", "16138786242941881564571494851053015134348164396464992525541483463604961280"),
];

/// The binoternary hexagons (`puzzles/binoternary/*.json`, not their solutions), sorted.
pub(crate) fn binoternary() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(root().join("puzzles/binoternary")).expect("dir").map(|e| e.expect("entry").path()).collect();
    files.retain(|f| f.extension().is_some_and(|e| e == "json") && !f.to_string_lossy().contains("_solution"));
    files.sort();
    files
}
