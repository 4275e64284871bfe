//! Helpers shared by the integration tests.
#![allow(dead_code, reason = "each test module uses a different subset")]

use crossat::puzzle::Input;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "../src/test_support.rs"]
mod oracles;
pub(crate) use oracles::*;

/// What a run of the binary produced.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the `crossat` binary with `args`, feeding `stdin` (if any), from the repo root.
pub fn crossat(args: &[&str], stdin: Option<&[u8]>) -> Run {
    run_with(args, stdin, &[])
}

/// Like [`crossat`], with extra environment variables and no stdin.
pub fn crossat_env(args: &[&str], envs: &[(&str, &str)]) -> Run {
    run_with(args, None, envs)
}

fn run_with(args: &[&str], stdin: Option<&[u8]>, envs: &[(&str, &str)]) -> Run {
    // The same drawing wherever the tests run: a UTF-8 locale, colour decided by the
    // flags alone (standard output is a pipe).
    let mut child = Command::new(env!("CARGO_BIN_EXE_crossat"))
        .args(args)
        .env("LC_ALL", "C.UTF-8")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("NO_COLOR")
        .envs(envs.iter().copied())
        .current_dir(root())
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn crossat");
    if let Some(bytes) = stdin {
        // crossat may refuse its input (and exit) before reading all of it; a closed
        // pipe here is its answer, not a test failure.
        if let Err(e) = child.stdin.take().expect("stdin").write_all(bytes) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
        }
    }
    let out = child.wait_with_output().expect("wait crossat");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Every solution (as display rows) found in-process through the facade, up to `limit`,
/// and whether the search was exhausted.
pub fn solve_in_process(input: Input, limit: Option<usize>) -> crossat::error::Result<(Vec<Vec<String>>, bool)> {
    let found = crossat::Puzzle::from_input(&input)?.solutions(limit.unwrap_or(usize::MAX))?;
    Ok((found.solutions.into_iter().map(|s| s.rows).collect(), found.complete))
}

/// An `Input` for a file on disk.
pub fn input_file(path: &Path, id: Option<&str>) -> Input {
    Input {
        source: path.display().to_string(),
        bytes: std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        id: id.map(str::to_string),
        ..Input::default()
    }
}

/// An `Input` from a file, with the regex pool beside a Louridas `.csv` (its `.txt`).
pub fn input_with_pool(path: &Path) -> Input {
    let mut input = input_file(path, None);
    if path.extension().is_some_and(|e| e == "csv") {
        let txt = path.with_extension("txt");
        input.pool = Some((txt.display().to_string(), std::fs::read(&txt).unwrap_or_else(|e| panic!("{}: {e}", txt.display()))));
    }
    input
}

/// An `Input` from text.
pub fn input_text(text: &str) -> Input {
    Input { source: "<test>".into(), bytes: text.as_bytes().to_vec(), ..Input::default() }
}

/// A corpus text file decoded the way crossat reads antoine-trux files: UTF-8 when
/// valid, Windows-1252 otherwise (by CPython's `cp1252` codec, an independent decoder).
pub fn read_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8(bytes).unwrap_or_else(|_| {
        let script = "import sys; sys.stdout.buffer.write(open(sys.argv[1], 'rb').read().decode('cp1252').encode())";
        let out = Command::new("python3")
            .args(["-c", script])
            .arg(path)
            .output()
            .unwrap_or_else(|e| panic!("python3 is required to decode {}: {e}", path.display()));
        assert!(out.status.success(), "{}: not Windows-1252: {}", path.display(), String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8 from python3")
    })
}

/// A fresh temporary directory, removed when dropped.
pub fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// Writes `bytes` to `dir/name` and returns the path.
pub fn write_file(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path
}

/// A path as a `&str` argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// An antoine-trux `*.output_expected.txt`: its header and the grids it draws.
#[derive(Debug)]
pub struct Expected {
    /// The header says "there are no other solutions".
    pub unique: bool,
    /// The grids, each as display rows top to bottom.
    pub grids: Vec<Vec<String>>,
}

/// Parses an antoine-trux expected output. Rectangular grids are drawn as ` -- -- `
/// borders and `|H |E |` rows (3 characters per cell: the character, a space, `|`);
/// hexagonal ones as `/ \` borders and `| F | L |` rows (4 per cell). A cell character
/// may be a space or `|`, so rows are read by fixed width.
pub fn parse_trux_expected(text: &str) -> Expected {
    let mut lines = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l));
    let header = lines.next().unwrap_or("");
    assert!(header.starts_with("found ") || header.starts_with("first "), "unexpected header line {header:?}");
    let unique = header.contains("there are no other solutions");
    let mut grids = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut flush = |current: &mut Vec<String>| {
        if !current.is_empty() {
            grids.push(std::mem::take(current));
        }
    };
    // Which kind of grid the last border line drew.
    let mut hex = false;
    for line in lines {
        let t = line.trim_start();
        if t.starts_with("--") || t.starts_with('/') || t.starts_with('\\') {
            hex = !t.starts_with("--");
            continue;
        }
        if t.starts_with('|') {
            current.push(if hex { parse_hex_row(line) } else { parse_rect_row(line) });
        } else {
            flush(&mut current);
        }
    }
    flush(&mut current);
    Expected { unique, grids }
}

fn parse_rect_row(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    assert!(chars[0] == '|' && (chars.len() - 1).is_multiple_of(3), "bad grid row {line:?}");
    chars[1..]
        .chunks(3)
        .map(|cell| {
            assert!(cell[1] == ' ' && cell[2] == '|', "bad grid row {line:?}");
            cell[0]
        })
        .collect()
}

fn parse_hex_row(line: &str) -> String {
    let chars: Vec<char> = line.trim_start().trim_end_matches(' ').chars().collect();
    assert!(chars[0] == '|' && (chars.len() - 1).is_multiple_of(4), "bad hex row {line:?}");
    chars[1..]
        .chunks(4)
        .map(|cell| {
            assert!(cell[0] == ' ' && cell[2] == ' ' && cell[3] == '|', "bad hex row {line:?}");
            cell[1]
        })
        .collect()
}

/// The grids of crossat's text output, Unicode or ASCII (`┌───┬` or `+---+` borders,
/// `│ H │` rows, clues beside them): the characters of each row, `␣` read as a space,
/// a cell with no cell (`░░░`, `###`) as `#`, an empty cell as `.`.
pub fn parse_text_grids(stdout: &str) -> Vec<Vec<String>> {
    const CORNERS: &str = "+┌┬┐├┼┤└┴┘";
    let mut grids = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut corners: Option<Vec<usize>> = None;
    for line in stdout.lines() {
        let chars: Vec<char> = line.chars().collect();
        let trimmed = line.trim_start();
        if trimmed.starts_with(|c| CORNERS.contains(c)) && trimmed.chars().all(|c| CORNERS.contains(c) || c == '-' || c == '─') {
            corners = Some(chars.iter().enumerate().filter(|(_, c)| CORNERS.contains(**c)).map(|(k, _)| k).collect());
            continue;
        }
        match &corners {
            Some(at) if chars.get(at[0]).is_some_and(|&c| c == '|' || c == '│') => {
                let row: String = at
                    .windows(2)
                    .map(|w| {
                        let cell: String = chars[w[0] + 1..w[1]].iter().collect();
                        let t = cell.trim_matches(' ');
                        let t = if t.chars().count() == 3 && (t.starts_with('[') || t.starts_with('!')) { &t[1..t.len() - 1] } else { t };
                        match t {
                            "" | "␣" => ' ',
                            t if t.chars().all(|c| c == '░') || (t.len() > 1 && t.chars().all(|c| c == '#')) => '#',
                            t => t.trim().chars().next().unwrap_or(' '),
                        }
                    })
                    .collect();
                current.push(row);
            }
            _ => {
                corners = None;
                if !current.is_empty() {
                    grids.push(std::mem::take(&mut current));
                }
            }
        }
    }
    if !current.is_empty() {
        grids.push(current);
    }
    grids
}

/// Every stdout line parsed as JSON (panics on a line that is not).
pub fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l:?}"))).collect()
}

/// The solution grids and the summary of `crossat solve --json` output, checking the
/// contract: every line is JSON, `{"type":"solution","grid":[rows]}` lines, then one
/// `{"type":"summary",…}` line last.
pub fn json_solutions(stdout: &str) -> (Vec<Vec<String>>, serde_json::Value) {
    let mut lines = json_lines(stdout);
    let summary = lines.pop().expect("no output");
    assert_eq!(summary["type"], "summary", "last line must be the summary: {stdout}");
    let grids = lines
        .iter()
        .map(|l| {
            assert_eq!(l["type"], "solution", "only solutions may precede the summary: {stdout}");
            l["grid"].as_array().expect("grid array").iter().map(|r| r.as_str().expect("grid rows are strings").to_string()).collect()
        })
        .collect();
    (grids, summary)
}

/// An executable on `PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// A DIMACS file: the `p cnf` header, the clauses, and the `c cell VAR ROW COL "CH"` map.
pub struct Dimacs {
    /// V of `p cnf V C`.
    pub vars: usize,
    /// The clauses, without their final 0.
    pub clauses: Vec<Vec<i64>>,
    /// (row, col) → [(var, char)].
    pub cells: BTreeMap<(usize, usize), Vec<(usize, char)>>,
}

pub fn parse_dimacs(text: &str) -> Dimacs {
    let mut header = None;
    let mut clauses = Vec::new();
    let mut cells: BTreeMap<(usize, usize), Vec<(usize, char)>> = BTreeMap::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("c cell ") {
            let mut it = rest.splitn(4, ' ');
            let mut num = || it.next().expect("field").parse::<usize>().expect("number");
            let (var, row, col) = (num(), num(), num());
            let ch: String = serde_json::from_str(it.next().expect("char")).expect("JSON string");
            assert_eq!(ch.chars().count(), 1, "{line}");
            cells.entry((row, col)).or_default().push((var, ch.chars().next().expect("char")));
        } else if line.starts_with('c') {
            continue;
        } else if let Some(rest) = line.strip_prefix("p cnf ") {
            assert!(header.is_none() && clauses.is_empty(), "one header, before the clauses");
            let v: Vec<usize> = rest.split_whitespace().map(|n| n.parse().expect("number")).collect();
            header = Some((v[0], v[1]));
        } else {
            let lits: Vec<i64> = line.split_whitespace().map(|n| n.parse().expect("literal")).collect();
            assert_eq!(lits.last(), Some(&0), "clause ends with 0: {line}");
            assert!(!lits[..lits.len() - 1].contains(&0), "{line}");
            clauses.push(lits[..lits.len() - 1].to_vec());
        }
    }
    let (vars, n) = header.expect("p cnf header");
    assert_eq!(clauses.len(), n, "the header's clause count");
    assert!(clauses.iter().flatten().all(|l| l.unsigned_abs() as usize <= vars), "literals within 1..=V");
    Dimacs { vars, clauses, cells }
}

/// The reference matcher (crossat's port of sre) for one clue, as `re.fullmatch`,
/// reached through the facade: a one-row puzzle of the clue alone over the string's
/// own letters, whose `check` re-runs the matcher on the string. Verdicts are kept.
pub struct Full {
    re: String,
    seen: std::cell::RefCell<std::collections::HashMap<String, Result<bool, String>>>,
}

impl Full {
    /// Parses `re` as Python does; panics if Python would refuse it.
    pub fn new(re: &str) -> Full {
        let full = Full { re: re.to_string(), seen: Default::default() };
        let _ = full.is_match("A").unwrap_or_else(|e| panic!("{re:?}: {e}"));
        full
    }

    /// Whether `re.fullmatch(re, s)` matches.
    pub fn is_match(&self, s: &str) -> Result<bool, String> {
        if let Some(known) = self.seen.borrow().get(s) {
            return known.clone();
        }
        let verdict = self.check(s);
        let _ = self.seen.borrow_mut().insert(s.to_string(), verdict.clone());
        verdict
    }

    fn check(&self, s: &str) -> Result<bool, String> {
        // A row has one cell at least.
        if s.is_empty() {
            return Err("no row of zero cells".into());
        }
        let mut letters: Vec<char> = s.chars().collect();
        letters.sort_unstable();
        letters.dedup();
        let alphabet: String = letters.into_iter().collect();
        let text = serde_json::json!({"rows": 1, "cols": s.chars().count(), "left": [&self.re], "alphabet": alphabet}).to_string();
        let puzzle = crossat::Puzzle::read("<full>", text.as_bytes()).map_err(|e| e.to_string())?;
        Ok(puzzle.check(&[s]).map_err(|e| e.to_string())?.is_empty())
    }
}

// ---- TestRng (the integration tests' own generator) ----

/// A seeded generator for the integration tests (splitmix64), so that they need none
/// of the library's internals: a test's sample depends on its seed alone.
pub struct TestRng(u64);

impl TestRng {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> TestRng {
        TestRng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let z = (self.0 ^ (self.0 >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// An element of `v` (not empty).
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

// ---- end of TestRng ----
