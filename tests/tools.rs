//! The external tools the tests need, each required at a pinned version.
//!
//! A test that needs CaDiCaL, groff, node or pyganak calls [`require`] first. When the
//! tool is missing (or at another version than the one the oracle is defined by) the
//! test fails with the command that installs it — `cargo test` alone runs the same
//! tests as `.ci/run`, which installs them all. Only an explicit opt-out,
//! `CROSSAT_ALLOW_MISSING_TOOLS=1` (which `.ci/run` never sets), turns that failure into
//! a skip, and then every skip is printed past the test harness's capture as it happens
//! and once more, as a summary, when the test process exits.
//!
//! CPython 3.11 has no opt-out: it is the oracle of most differential tests, and
//! `scripts/*.py` assert its version themselves.

use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// node's major version: the engine the ECMAScript dialect is defined by (Debian's
/// `nodejs` in bookworm/trixie is node 20).
pub const NODE_MAJOR: u32 = 20;

/// pyganak's version, the one `.ci/run` installs (`pip install pyganak==…`).
pub const PYGANAK_VERSION: &str = "2.9.0";

/// The variable that turns a missing tool into a (loud) skip.
pub const ALLOW_MISSING: &str = "CROSSAT_ALLOW_MISSING_TOOLS";

/// An external tool some test needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// The CaDiCaL SAT solver (DIMACS round trips).
    Cadical,
    /// groff (the manual page reads without warnings).
    Groff,
    /// node 20 (the ECMAScript dialect's oracle).
    Node,
    /// pyganak, Ganak's Python bindings (exact model counts).
    Pyganak,
}

impl Tool {
    const ALL: [Tool; 4] = [Tool::Cadical, Tool::Groff, Tool::Node, Tool::Pyganak];

    fn name(self) -> &'static str {
        match self {
            Tool::Cadical => "cadical",
            Tool::Groff => "groff",
            Tool::Node => "node",
            Tool::Pyganak => "pyganak",
        }
    }

    /// The command that installs the pinned version.
    pub fn install(self) -> String {
        match self {
            Tool::Cadical => "apt-get install cadical".into(),
            Tool::Groff => "apt-get install groff-base".into(),
            Tool::Node => format!("apt-get install nodejs (node {NODE_MAJOR})"),
            Tool::Pyganak => format!("python3 -m pip install pyganak=={PYGANAK_VERSION}"),
        }
    }

    /// `Ok` when the tool runs at the pinned version, else why not.
    fn probe(self) -> Result<(), String> {
        let run = |program: &str, args: &[&str]| -> Result<String, String> {
            let out = Command::new(program).args(args).output().map_err(|e| format!("`{program}` does not run: {e}"))?;
            if !out.status.success() {
                return Err(format!("`{program} {}` failed: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim()));
            }
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        match self {
            Tool::Cadical => run("cadical", &["--version"]).map(drop),
            Tool::Groff => run("groff", &["--version"]).map(drop),
            Tool::Node => {
                let v = run("node", &["--version"])?;
                let major = v.strip_prefix('v').and_then(|v| v.split('.').next()).and_then(|m| m.parse::<u32>().ok());
                (major == Some(NODE_MAJOR)).then_some(()).ok_or(format!("node is {v}, not node {NODE_MAJOR}"))
            }
            Tool::Pyganak => {
                let v = run("python3", &["-c", "import importlib.metadata as m, pyganak; print(m.version('pyganak'))"])?;
                (v == PYGANAK_VERSION).then_some(()).ok_or(format!("pyganak is {v}, not {PYGANAK_VERSION}"))
            }
        }
    }
}

/// Each tool's probe, run once per test process.
fn probed(tool: Tool) -> &'static Result<(), String> {
    static CELLS: [OnceLock<Result<(), String>>; 4] = [const { OnceLock::new() }; 4];
    let k = Tool::ALL.iter().position(|&t| t == tool).expect("a tool");
    CELLS[k].get_or_init(|| tool.probe())
}

/// The skips of this process: (test, tool, why).
static SKIPPED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Writes past libtest's capture (which takes `print!`/`eprint!` only), so a skip is
/// seen even when its test passes.
fn loud(text: &str) {
    use std::io::Write;
    let _ = std::io::stderr().write_all(text.as_bytes());
}

extern "C" fn summary() {
    let skipped = SKIPPED.lock().map(|s| s.clone()).unwrap_or_default();
    let mut text = format!("\n*** {ALLOW_MISSING}=1: {} test(s) SKIPPED for a missing tool; they tested nothing:\n", skipped.len());
    for s in &skipped {
        text += &format!("***   {s}\n");
    }
    loud(&text);
}

unsafe extern "C" {
    fn atexit(callback: extern "C" fn()) -> std::ffi::c_int;
}

/// Whether the calling test may go on: `true` when `tool` runs at its pinned version.
/// When it does not, panics with the install command — unless
/// `CROSSAT_ALLOW_MISSING_TOOLS=1`, where it records and prints the skip and returns
/// `false` (the test then returns at once).
pub fn require(tool: Tool) -> bool {
    let Err(why) = probed(tool) else { return true };
    let allowed = std::env::var(ALLOW_MISSING).is_ok_and(|v| v == "1");
    assert!(
        allowed,
        "{why}: this test needs {} — install it with `{}` (or set {ALLOW_MISSING}=1 to skip, loudly)",
        tool.name(),
        tool.install()
    );
    let test = std::thread::current().name().unwrap_or("?").to_string();
    let line = format!("{test}: needs {} ({why}; {})", tool.name(), tool.install());
    loud(&format!("*** SKIPPED {line}\n"));
    let mut skipped = SKIPPED.lock().unwrap_or_else(|e| e.into_inner());
    if skipped.is_empty() {
        // SAFETY: `summary` is a plain function that only reads a static and writes to
        // stderr; registering it once is all `atexit` asks.
        unsafe { atexit(summary) };
    }
    skipped.push(line);
    false
}

/// `.ci/run` installs the versions pinned here.
#[test]
fn ci_installs_the_pinned_versions() {
    let ci = std::fs::read_to_string(crate::common::root().join(".ci/run")).expect(".ci/run");
    assert!(ci.contains(&format!("pyganak=={PYGANAK_VERSION}")), ".ci/run must install pyganak=={PYGANAK_VERSION}");
    assert!(ci.contains(&format!("NODE_MAJOR={NODE_MAJOR}")), ".ci/run must check node {NODE_MAJOR}");
    assert!(!ci.contains(ALLOW_MISSING), ".ci/run never allows a missing tool");
}

/// Without the opt-out a missing tool fails the test with its install command; with it
/// the test is skipped and the skip recorded.
#[test]
fn a_missing_tool_fails_unless_allowed() {
    // A child test process with an empty PATH: cadical and groff are not found.
    let exe = std::env::current_exe().expect("test binary");
    for (allow, want_ok) in [(None, false), (Some("1"), true)] {
        let mut cmd = Command::new(&exe);
        cmd.args([
            "--exact",
            "dimacs::cadical_unsat_means_no_solution",
            "frontend::groff_reads_the_manual_without_warnings",
            "--test-threads=1",
        ])
        .env("PATH", "/nonexistent")
        .env_remove(ALLOW_MISSING);
        if let Some(v) = allow {
            cmd.env(ALLOW_MISSING, v);
        }
        let out = cmd.output().expect("run the test binary");
        let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.success(), want_ok, "{allow:?}: {all}");
        if want_ok {
            assert!(all.contains("2 passed") && all.contains("2 test(s) SKIPPED"), "{all}");
        } else {
            assert!(
                all.contains("2 failed") && all.contains("apt-get install cadical") && all.contains("apt-get install groff-base"),
                "{all}"
            );
        }
    }
}
