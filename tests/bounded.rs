//! Bounded, interruptible, nothing lost (issue 13): output errors, closed pipes,
//! timeouts, signals, streaming `--all`, limits.

use crate::common::{Run, arg, crossat, write_file};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tempfile::TempDir;

const BEGINNER: &str = "puzzles/antoine-trux/beginner_1.input.txt";

fn tmp() -> TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// One line of 22 cells over two letters: 2^22 solutions.
fn many_solutions(dir: &Path) -> PathBuf {
    let top: Vec<&str> = vec!["[AB]"; 22];
    write_file(dir, "many.json", serde_json::json!({"left": ["[AB]{22}"], "top": top}).to_string())
}

#[track_caller]
fn assert_one_error(r: &Run, code: i32, needles: &[&str]) {
    assert_eq!(r.code, code, "exit code: {r:?}");
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one error line: {:?}", r.stderr);
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    for n in needles {
        assert!(lines[0].contains(n), "{n:?} in {:?}", lines[0]);
    }
}

/// Runs crossat with stdout redirected to `/dev/full`.
fn to_dev_full(args: &[&str]) -> Run {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let out = Command::new(env!("CARGO_BIN_EXE_crossat"))
        .args(args)
        .current_dir(crate::common::root())
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("run crossat");
    Run { code: out.status.code().unwrap_or(-1), stdout: String::new(), stderr: String::from_utf8_lossy(&out.stderr).into_owned() }
}

#[test]
fn a_full_disk_is_an_error_naming_the_file() {
    let r = crossat(&["dimacs", BEGINNER, "-o", "/dev/full"], None);
    assert_one_error(&r, 2, &["/dev/full", "No space left"]);
    let r = crossat(&["solve", BEGINNER, "--unique", "--proof", "/dev/full"], None);
    assert_one_error(&r, 2, &["/dev/full", "proof", "No space left"]);
    let dir = tmp();
    let proof = dir.path().join("p.drat");
    let r = crossat(&["solve", BEGINNER, "--unique", "--proof", arg(&proof), "--proof-cnf", "/dev/full"], None);
    assert_one_error(&r, 2, &["/dev/full", "No space left"]);
    for args in [&["dimacs", BEGINNER][..], &["solve", BEGINNER], &["solve", BEGINNER, "--json"], &["list", BEGINNER]] {
        let r = to_dev_full(args);
        assert_one_error(&r, 2, &["standard output", "No space left"]);
    }
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = tmp();
    let many = many_solutions(dir.path());
    for json in [false, true] {
        let mut args = vec!["solve", arg(&many), "--all"];
        if json {
            args.push("--json");
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_crossat"))
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("read a line");
        // The reader is dropped here: the pipe is closed, like `| head -1`.
        let out = child.wait_with_output().expect("wait");
        assert!(!first.is_empty());
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "quiet");
    }
}

#[test]
fn output_files_never_overwrite_an_input() {
    let dir = tmp();
    let puzzle = write_file(dir.path(), "p.txt", std::fs::read(crate::common::root().join(BEGINNER)).expect("read"));
    let before = std::fs::read(&puzzle).expect("read");
    // The same file, spelt differently.
    let other = format!("{}/../{}/p.txt", arg(dir.path()), dir.path().file_name().and_then(|n| n.to_str()).expect("name"));
    for args in [
        vec!["dimacs", arg(&puzzle), "-o", &other],
        vec!["solve", arg(&puzzle), "--unique", "--proof", &other],
        vec!["solve", arg(&puzzle), "--unique", "--proof", "x.drat", "--proof-cnf", arg(&puzzle)],
    ] {
        let r = crossat(&args, None);
        assert_one_error(&r, 2, &["refusing to overwrite the input file"]);
        assert_eq!(std::fs::read(&puzzle).expect("read"), before, "input untouched");
    }
    // A link to the input is the input too.
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&puzzle, &link).expect("symlink");
    let r = crossat(&["dimacs", arg(&puzzle), "-o", arg(&link)], None);
    assert_one_error(&r, 2, &["refusing to overwrite"]);
    // Another file is fine.
    let out = dir.path().join("out.cnf");
    let r = crossat(&["dimacs", arg(&puzzle), "-o", arg(&out)], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(std::fs::read_to_string(&out).expect("written").contains("p cnf"));
}
