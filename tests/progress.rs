//! Progress displays on standard error: shown on a terminal (here a pseudo-terminal from
//! util-linux `script`, or the `CROSSAT_PROGRESS_MS` hook), never with `-q`, `--json` or
//! when standard error is not a terminal.

use crate::common::{crossat, crossat_env, root, tmp, write_file};
use std::process::{Command, Stdio};

/// A 4×4 puzzle with four million solutions: `--count` runs the counting search for
/// about a second in a debug build, long enough for a few redraws.
fn many_solutions(dir: &std::path::Path) -> String {
    let row = "[ABCD]*(AB|CA|BB)[ABCD]*";
    let col = "[ABCD]*(BA|CC)[ABCD]*";
    let json = serde_json::json!({"left": vec![row; 4], "top": vec![col; 4]}).to_string();
    write_file(dir, "many.json", &json).to_str().expect("UTF-8 path").to_string()
}

/// The lines of the display drawn as plain lines by the test hook.
fn counting_lines(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains("crossat: counting:")).collect()
}

#[test]
fn count_shows_parts_done_of_parts_found_and_the_time() {
    let dir = tmp();
    let file = many_solutions(dir.path());
    let r = crossat_env(&["solve", "--count", &file], &[("CROSSAT_PROGRESS_MS", "0")]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.trim(), "4051740 solutions (exact count)");
    let lines = counting_lines(&r.stderr);
    // Each redraw says `done/total parts [elapsed]`, done never past total; the last
    // one drawn has every part found so far done.
    let parts: Vec<(u64, u64)> = lines
        .iter()
        .filter_map(|l| {
            let (_, rest) = l.split_once("counting: ")?;
            let (pair, _) = rest.split_once(" parts [")?;
            let (done, total) = pair.split_once('/')?;
            Some((done.parse().ok()?, total.parse().ok()?))
        })
        .collect();
    assert!(parts.len() >= 2, "no parts drawn: {}", r.stderr);
    assert!(parts.iter().all(|(d, t)| d <= t && *t > 0), "{parts:?}");
    assert!(lines.iter().all(|l| l.trim_end().ends_with(']') && l.contains(" [")), "no elapsed time: {lines:?}");
}

#[test]
fn count_progress_is_off_with_quiet_json_or_no_terminal() {
    let dir = tmp();
    let file = many_solutions(dir.path());
    for flag in ["-q", "--json"] {
        let r = crossat_env(&["solve", "--count", flag, &file], &[("CROSSAT_PROGRESS_MS", "0")]);
        assert_eq!(r.code, 0, "{flag}: {r:?}");
        assert!(r.stderr.is_empty(), "{flag}: {}", r.stderr);
    }
    // Standard error is a pipe here, and the hook is not set.
    let r = crossat(&["solve", "--count", &file], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}

/// On a real (pseudo-)terminal the display is drawn with no hook, and `-q` silences it.
#[test]
fn count_progress_is_drawn_on_a_terminal() {
    let dir = tmp();
    let file = many_solutions(dir.path());
    let on_tty = |extra: &str| -> String {
        let cmd = format!("'{}' solve --count {extra} '{file}'", env!("CARGO_BIN_EXE_crossat"));
        // `script` runs the command on a new pseudo-terminal and copies what it writes
        // (standard output and error alike) to its own standard output.
        let out = Command::new("script")
            .args(["-qec", &cmd, "/dev/null"])
            .env("LC_ALL", "C.UTF-8")
            .env_remove("CROSSAT_PROGRESS_MS")
            .current_dir(root())
            .stdin(Stdio::null())
            .output()
            .expect("util-linux `script` runs (the tests need it)");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let shown = on_tty("");
    assert!(shown.contains("crossat: counting:") && shown.contains(" parts ["), "{shown}");
    assert!(shown.contains("4051740 solutions (exact count)"), "{shown}");
    let quiet = on_tty("-q");
    assert!(!quiet.contains("counting"), "{quiet}");
    assert!(quiet.contains("4051740 solutions (exact count)"), "{quiet}");
}
