//! Bounded, interruptible, nothing lost: output errors, closed pipes,
//! timeouts, signals, streaming `--all`, limits.

use crate::common::{Run, arg, crossat, tmp, write_file};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BEGINNER: &str = "puzzles/antoine-trux/beginner_1.input.txt";

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

/// Asserts a clean bad-input error (exit 2, one `error:` line, nothing on stdout).
#[track_caller]
fn assert_bad(r: &Run, needles: &[&str]) {
    assert_one_error(r, 2, needles);
    assert!(r.stdout.is_empty(), "nothing on stdout: {}", r.stdout);
}

#[test]
fn a_dat_file_without_its_blank_lines_is_refused() {
    let dir = tmp();
    // The published file, then the same without one separator or another.
    let good = "2 2\n\nHE|LL|O+\n[PLEASE]+\n\n[^SPEAK]+\nEP|IP|EF\n\nHE\nLP\n";
    let ok = crossat(&["solve", arg(&write_file(dir.path(), "good.dat", good))], None);
    assert_eq!(ok.code, 0, "{ok:?}");
    for (name, text, needle) in [
        ("a.dat", "2 2\nHE|LL|O+\n[PLEASE]+\n\n[^SPEAK]+\nEP|IP|EF\n\nHE\nLP\n", "followed by a blank line"),
        ("b.dat", "2 2\n\nHE|LL|O+\n[PLEASE]+\n[^SPEAK]+\nEP|IP|EF\n\nHE\nLP\n", "blank line missing"),
        ("c.dat", "2 2\n\nHE|LL|O+\n[PLEASE]+\n\n[^SPEAK]+\nEP|IP|EF\nHE\nLP\n", "4 column regexes for 2 columns"),
    ] {
        let f = write_file(dir.path(), name, text);
        assert_bad(&crossat(&["solve", arg(&f)], None), &[arg(&f), needle]);
    }
}

#[test]
fn check_refuses_given_and_a_second_stdin() {
    let dir = tmp();
    let grid = write_file(dir.path(), "grid.txt", "HE\nLP\n");
    let r = crossat(&["check", BEGINNER, arg(&grid), "--given", arg(&grid)], None);
    assert_bad(&r, &["--given does not apply"]);
    let puzzle = std::fs::read(crate::common::root().join(BEGINNER)).expect("read");
    let r = crossat(&["check", "-", "-"], Some(&puzzle));
    assert_bad(&r, &["standard input"]);
    let r = crossat(&["solve", "-", "--given", "-"], Some(&puzzle));
    assert_bad(&r, &["standard input"]);
    let r = crossat(&["solve", "-", "--model", "-"], Some(&puzzle));
    assert_bad(&r, &["standard input"]);
}

#[test]
fn duplicate_json_keys_are_errors_naming_the_key() {
    let dir = tmp();
    let f = write_file(dir.path(), "dup.json", r#"{"left": ["A", "B"], "top": ["AB"], "left": ["B", "A"]}"#);
    assert_bad(&crossat(&["solve", arg(&f)], None), &[arg(&f), "duplicate key \"left\""]);
    let f = write_file(dir.path(), "dup2.json", r#"{"layout": "free", "entries": [{"cells": [[0, 0]], "clues": ["A"], "clues": ["B"]}]}"#);
    assert_bad(&crossat(&["solve", arg(&f)], None), &[arg(&f), "duplicate key \"clues\""]);
    let f = write_file(dir.path(), "blocks.json", r#"{"patterns": ["..."], "blocks": ["a"], "blocks": ["b"]}"#);
    assert_bad(&crossat(&["blocks", arg(&f)], None), &[arg(&f), "duplicate key \"blocks\""]);
}

#[test]
fn duplicate_ids_in_a_collection_are_errors() {
    let dir = tmp();
    let p = |id: &str, name: &str| serde_json::json!({"id": id, "name": name, "patternsX": [["A"]], "patternsY": [["A"]]});
    let two_ids = serde_json::json!([{"id": "s", "puzzles": [p("x", "one"), p("x", "two")]}]);
    let f = write_file(dir.path(), "ids.json", two_ids.to_string());
    assert_bad(&crossat(&["solve", arg(&f), "--id", "s/1"], None), &[arg(&f), "same id 'x'"]);
    assert_bad(&crossat(&["list", arg(&f)], None), &[arg(&f), "same id 'x'"]);
    let two_names = serde_json::json!([{"id": "s", "puzzles": [p("x", "same"), p("y", "same")]}]);
    let f = write_file(dir.path(), "names.json", two_names.to_string());
    assert_bad(&crossat(&["solve", arg(&f), "--id", "same"], None), &[arg(&f), "names both s/1 and s/2"]);
    assert_eq!(crossat(&["solve", arg(&f), "--id", "s/2"], None).code, 0);
}

#[test]
fn a_model_with_two_status_lines_is_refused() {
    let dir = tmp();
    let m = write_file(dir.path(), "model.txt", "s SATISFIABLE\nv 1 0\ns UNSATISFIABLE\n");
    assert_bad(&crossat(&["solve", BEGINNER, "--model", arg(&m)], None), &[arg(&m), "second status line"]);
}

#[test]
fn bench_of_a_missing_path_is_an_error() {
    assert_bad(&crossat(&["bench", "nosuchdir"], None), &["nosuchdir", "no such file or folder"]);
}

#[test]
fn a_byte_order_mark_is_accepted_everywhere() {
    let dir = tmp();
    let bom = |text: &str| [&b"\xEF\xBB\xBF"[..], text.as_bytes()].concat();
    let trux = std::fs::read_to_string(crate::common::root().join(BEGINNER)).expect("read");
    let inputs = [
        ("p.txt", trux),
        ("p.json", r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#.to_string()),
        ("p.dat", "2 2\n\nHE|LL|O+\n[PLEASE]+\n\n[^SPEAK]+\nEP|IP|EF\n".to_string()),
    ];
    for (name, text) in inputs {
        let f = write_file(dir.path(), name, bom(&text));
        let r = crossat(&["solve", arg(&f)], None);
        assert_eq!(r.code, 0, "{name}: {r:?}");
        assert!(r.stdout.contains("│ H │ E │") || r.stdout.contains("| H | E |"), "{}", r.stdout);
    }
    let given = write_file(dir.path(), "given.txt", bom("H.\n..\n"));
    assert_eq!(crossat(&["solve", BEGINNER, "--given", arg(&given)], None).code, 0);
    let grid = write_file(dir.path(), "grid.txt", bom("HE\nLP\n"));
    assert_eq!(crossat(&["check", BEGINNER, arg(&grid)], None).code, 0);
    let dict = write_file(dir.path(), "dict.txt", bom("ab\ncd\n"));
    let blocks = write_file(dir.path(), "blocks.txt", bom("patterns: ..\nblocks: a b\n"));
    let r = crossat(&["blocks", arg(&blocks), "--dict", arg(&dict)], None);
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn bytes_that_are_not_utf8_say_where() {
    let dir = tmp();
    let f = write_file(dir.path(), "p.json", b"{\"left\": [\"A\x96B\"], \"top\": [\"A\", \"B\"]}".as_slice());
    assert_bad(&crossat(&["solve", arg(&f)], None), &[arg(&f), "not UTF-8", "0x96", "byte offset 12", "line 1"]);
    let g = write_file(dir.path(), "g.txt", b"H.\n\xE9.\n".as_slice());
    assert_bad(&crossat(&["solve", BEGINNER, "--given", arg(&g)], None), &[arg(&g), "not UTF-8", "byte offset 3", "line 2"]);
    let d = write_file(dir.path(), "d.txt", b"ab\ncaf\xE9\n".as_slice());
    let blocks = write_file(dir.path(), "b.txt", "patterns: ..\nblocks: a b\n");
    assert_bad(&crossat(&["blocks", arg(&blocks), "--dict", arg(&d)], None), &[arg(&d), "not UTF-8", "line 2"]);
}

/// Every line of JSON output parses, the last is the summary of a stopped search.
#[track_caller]
pub(crate) fn stopped_json(stdout: &str, reason: &str) -> (usize, serde_json::Value) {
    let (grids, summary) = crate::common::json_solutions(stdout);
    assert_eq!(summary["complete"], false, "{summary}");
    assert_eq!(summary["reason"], reason, "{summary}");
    (grids.len(), summary)
}

/// A puzzle no search finishes soon: 15 pigeons (one `A` per row) in 14 holes (at most
/// one `A` per column).
fn pigeonhole(dir: &Path) -> PathBuf {
    let p = serde_json::json!({"left": vec!["B*AB*"; 15], "top": vec!["B*A?B*"; 14]});
    write_file(dir, "php.json", p.to_string())
}

#[test]
fn timeout_prints_what_was_found_and_exits_4() {
    let dir = tmp();
    let many = many_solutions(dir.path());
    let r = crossat(&["solve", arg(&many), "--all", "--json", "--timeout", "0.5"], None);
    assert_eq!(r.code, 4, "{}", r.stderr);
    let (n, summary) = stopped_json(&r.stdout, "timeout");
    assert!(n > 0, "solutions found before the timeout are printed");
    assert_eq!(summary["solutions"], n, "the summary counts exactly the printed solutions");
    assert_eq!(summary["unique"], false);
    // Text: whole grids, then a line that says the limit was hit (no verdict).
    let r = crossat(&["solve", arg(&many), "--all", "--timeout", "0.5", "--ascii", "--no-clues"], None);
    assert_eq!(r.code, 4, "{}", r.stderr);
    let last = r.stdout.lines().last().expect("output");
    assert!(last.starts_with("stopped: the --timeout of 0.5 s was reached;"), "{last}");
    assert!(!r.stdout.contains("search exhausted") && !r.stdout.contains("unique"), "no verdict");
    let grid_lines = r.stdout.lines().filter(|l| l.starts_with('|')).count();
    assert!(grid_lines > 0);
    let width = r.stdout.lines().find(|l| l.starts_with('|')).map_or(0, str::len);
    assert!(r.stdout.lines().filter(|l| l.starts_with('|') || l.starts_with('+')).all(|l| l.len() == width), "no grid cut in half");
    assert!(last.contains(&format!("{grid_lines} solutions found")), "{last}");

    let php = pigeonhole(dir.path());
    let r = crossat(&["solve", arg(&php), "--json", "--timeout", "0.5"], None);
    assert_eq!(r.code, 4, "{r:?}");
    let (n, summary) = stopped_json(&r.stdout, "timeout");
    assert_eq!((n, &summary["solutions"], &summary["unique"]), (0, &serde_json::json!(0), &serde_json::Value::Null));
    for args in [
        vec!["check", arg(&php), "-", "--timeout", "0.5", "--json"],
        vec!["hint", arg(&php), "--timeout", "0.5", "--json"],
        vec!["generate", "--size", "20x20", "--timeout", "0.01", "--json"],
        vec!["squares", "-W", "7", "-H", "7", "--timeout", "0.5", "--json", "-q"],
    ] {
        let grid = vec![".".repeat(14); 15].join("\n");
        let r = crossat(&args, Some(grid.as_bytes()));
        assert_eq!(r.code, 4, "{args:?}: {r:?}");
        let last = crate::common::json_lines(&r.stdout).pop().expect("a summary");
        assert_eq!((&last["type"], &last["complete"], &last["reason"]), (&"summary".into(), &false.into(), &"timeout".into()), "{args:?}");
    }
    let r = crossat(&["hint", arg(&php), "--timeout", "0.5"], None);
    assert_eq!(r.code, 4);
    assert!(r.stdout.starts_with("stopped: the --timeout of 0.5 s was reached"), "{}", r.stdout);
    // A search that ends in time is unaffected.
    let r = crossat(&["solve", BEGINNER, "--timeout", "60"], None);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("unique: no other solution exists"));
    let r = crossat(&["solve", BEGINNER, "--timeout", "0"], None);
    assert_one_error(&r, 2, &["--timeout must be a positive number"]);
}

#[test]
fn bench_timeout_skips_the_puzzle_and_goes_on() {
    let dir = tmp();
    let _ = pigeonhole(dir.path());
    let _ = write_file(dir.path(), "b.dat", "2 2\n\nHE|LL|O+\n[PLEASE]+\n\n[^SPEAK]+\nEP|IP|EF\n");
    let r = crossat(&["bench", arg(dir.path()), "--timeout", "0.5", "--repeat", "1", "--json"], None);
    assert_eq!(r.code, 0, "{r:?}");
    let lines = crate::common::json_lines(&r.stdout);
    assert!(
        lines
            .iter()
            .any(|l| l["type"] == "skipped" && l["puzzle"] == "php.json" && l["reason"].as_str().is_some_and(|s| s.contains("timeout"))),
        "{}",
        r.stdout
    );
    assert!(lines.iter().any(|l| l["type"] == "puzzle" && l["puzzle"] == "b.dat" && l["unique"] == true), "{}", r.stdout);
}

/// A signal stops a command still waiting for its puzzle on standard input or a pipe (the
/// signal thread starts before the read; otherwise it starts only when needed).
#[test]
fn sigint_stops_a_command_waiting_for_standard_input() {
    // And one waiting for a writer on a named pipe.
    let dir = tmp();
    let fifo = dir.path().join("puzzle.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let fifo = arg(&fifo);
    for (args, want) in [(&["solve", "-", "--json"][..], Some("interrupted")), (&["dimacs", "-"][..], None), (&["solve", fifo][..], None)] {
        let mut child = spawn(args, Stdio::piped());
        send("-INT", &child);
        // The pipe stays open (the child's stdin handle is still held here): only the
        // signal can end the command. Wait at most 10 s for it.
        let start = std::time::Instant::now();
        let code = loop {
            if let Some(s) = child.try_wait().expect("wait") {
                break s.code();
            }
            if start.elapsed() > std::time::Duration::from_secs(10) {
                child.kill().expect("kill");
                panic!("{args:?}: still waiting 10 s after SIGINT");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        };
        let out = child.wait_with_output().expect("output");
        assert_eq!(code, Some(130), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        if let Some(reason) = want {
            let (n, _) = stopped_json(&String::from_utf8_lossy(&out.stdout), reason);
            assert_eq!(n, 0);
        }
    }
}

/// crossat with `args`, standard input from `stdin`, its outputs piped.
fn spawn(args: &[&str], stdin: Stdio) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_crossat"))
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn")
}

/// Sends `signal` (`-INT`, `-TERM`) to `child`, once `child` catches it: a signal sent
/// before the handler is in place would kill the process instead of stopping it, which
/// no sleep of a fixed length rules out on a loaded machine.
fn send(signal: &str, child: &std::process::Child) {
    wait_until_caught(signal, child);
    let status = Command::new("kill").args([signal, &child.id().to_string()]).status().expect("kill");
    assert!(status.success());
}

/// Waits (up to a minute) until `child` has a handler for `signal`: Linux lists the
/// signals a process catches as the hexadecimal mask `SigCgt:` of `/proc/PID/status`.
fn wait_until_caught(signal: &str, child: &std::process::Child) {
    let number: u32 = match signal {
        "-INT" => 2,
        "-TERM" => 15,
        _ => panic!("unknown signal {signal}"),
    };
    let status = format!("/proc/{}/status", child.id());
    let start = std::time::Instant::now();
    loop {
        let text = std::fs::read_to_string(&status).unwrap_or_else(|e| panic!("{status}: {e} (did crossat exit before the signal?)"));
        let mask = text.lines().find_map(|l| l.strip_prefix("SigCgt:")).expect("SigCgt line");
        let mask = u64::from_str_radix(mask.trim(), 16).expect("hex mask");
        if mask >> (number - 1) & 1 == 1 {
            return;
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(60), "crossat does not catch {signal} after a minute");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Sends `signal` once the first solution line is out; returns the run.
pub(crate) fn signalled(args: &[&str], signal: &str) -> Run {
    let mut child = spawn(args, Stdio::null());
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("a first line");
    send(signal, &child);
    let mut rest = String::new();
    let _ = std::io::Read::read_to_string(&mut stdout, &mut rest).expect("read the rest");
    let out = child.wait_with_output().expect("wait");
    Run { code: out.status.code().unwrap_or(-1), stdout: first + &rest, stderr: String::from_utf8_lossy(&out.stderr).into_owned() }
}

#[test]
fn sigint_and_sigterm_stop_in_order() {
    let dir = tmp();
    let many = many_solutions(dir.path());
    for (signal, code) in [("-INT", 130), ("-TERM", 143)] {
        let r = signalled(&["solve", arg(&many), "--all", "--json"], signal);
        assert_eq!(r.code, code, "{signal}: {}", r.stderr);
        let (n, summary) = stopped_json(&r.stdout, "interrupted");
        assert!(n >= 1);
        assert_eq!(summary["solutions"], n);
    }
    let r = signalled(&["solve", arg(&many), "--all"], "-INT");
    assert_eq!(r.code, 130);
    assert!(r.stdout.lines().last().is_some_and(|l| l.starts_with("stopped: interrupted by SIGINT;")), "{}", r.stdout);
}

#[test]
fn all_counts_stay_exact_over_many_cubes() {
    // 3^9 words without "AB": thousands of solutions, so the search splits into cubes.
    let top: Vec<&str> = vec!["[ABC]"; 9];
    let p = serde_json::json!({"left": [["[ABC]{9}", "(?!.*AB).*"]], "top": top});
    let r = crossat(&["solve", "-", "--all", "--json"], Some(p.to_string().as_bytes()));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (grids, summary) = crate::common::json_solutions(&r.stdout);
    let mut want = 0;
    for n in 0..3usize.pow(9) {
        let word: String = (0..9).map(|i| ['A', 'B', 'C'][n / 3usize.pow(i) % 3]).collect();
        want += usize::from(!word.contains("AB"));
    }
    assert_eq!(grids.len(), want);
    assert_eq!(summary["solutions"], want);
    assert_eq!(summary["complete"], true);
    let distinct: std::collections::BTreeSet<&Vec<String>> = grids.iter().collect();
    assert_eq!(distinct.len(), want, "every solution once");
    assert!(grids.iter().all(|g| !g[0].contains("AB")));
    // A limit below the count stops exactly there, incomplete.
    let r = crossat(&["solve", "-", "--limit", "1500", "--json"], Some(p.to_string().as_bytes()));
    let (grids, summary) = crate::common::json_solutions(&r.stdout);
    assert_eq!((grids.len(), &summary["complete"]), (1500, &false.into()));
}

#[test]
fn input_size_is_capped() {
    let r = crossat(&["solve", "/dev/zero"], None);
    assert_bad(&r, &["/dev/zero", "larger than the input limit of 67108864 bytes", "--max-input-bytes"]);
    let r = crossat(&["solve", BEGINNER, "--max-input-bytes", "100"], None);
    assert_bad(&r, &[BEGINNER, "input limit of 100 bytes"]);
    let r = crossat(&["solve", "-", "--max-input-bytes", "10"], Some(b"{\"left\": [\"A\"], \"top\": [\"A\"]}"));
    assert_bad(&r, &["-: ", "input limit of 10 bytes"]);
    assert_eq!(crossat(&["solve", BEGINNER, "--max-input-bytes", "100000"], None).code, 0);
    let dir = tmp();
    let blocks = write_file(dir.path(), "b.txt", "patterns: ..\nblocks: a b\n");
    let dict = write_file(dir.path(), "d.txt", "ab\n".repeat(100));
    let r = crossat(&["blocks", arg(&blocks), "--dict", arg(&dict), "--max-input-bytes", "200"], None);
    assert_bad(&r, &[arg(&dict), "input limit of 200 bytes"]);
}

#[test]
fn clue_cell_and_dictionary_counts_are_capped() {
    let dir = tmp();
    // 10,001 clues on one cell.
    let entries: Vec<serde_json::Value> = (0..10_001).map(|_| serde_json::json!({"cells": [[0, 0]], "clues": ["A"]})).collect();
    let f = write_file(dir.path(), "clues.json", serde_json::json!({"layout": "free", "entries": entries}).to_string());
    assert_bad(&crossat(&["solve", arg(&f)], None), &[arg(&f), "10001 clues exceed the limit of 10000 clues"]);
    let f = write_file(dir.path(), "cells.json", serde_json::json!({"rows": 101, "cols": 100, "left": vec!["A*"; 101]}).to_string());
    assert_bad(&crossat(&["solve", arg(&f)], None), &[arg(&f), "exceeds the limit of 10000 cells"]);
    // 1,000,001 distinct lowercase words.
    let mut words = String::new();
    for n in 0..1_000_001u32 {
        let w: String = (0..5).map(|i| char::from(b'a' + (n / 26u32.pow(i) % 26) as u8)).collect();
        words.push_str(&w);
        words.push('\n');
    }
    let dict = write_file(dir.path(), "dict.txt", words);
    let blocks = write_file(dir.path(), "b.txt", "patterns: ....\nblocks: aa bb\n");
    assert_bad(&crossat(&["blocks", arg(&blocks), "--dict", arg(&dict)], None), &[arg(&dict), "more than 1000000 words"]);
}

#[test]
fn far_apart_free_cells_are_not_drawn_by_their_bounding_box() {
    let p = serde_json::json!({"layout": "free", "entries": [
        {"label": "1", "cells": [[0, 0], [0, 1]], "clues": ["AB"]},
        {"label": "2", "cells": [[1_000_000_000_000u64, 1_000_000_000_000u64], [0, 1]], "clues": ["CB"]}]});
    let r = crossat(&["solve", "-"], Some(p.to_string().as_bytes()));
    assert_eq!(r.code, 0, "{r:?}");
    let entry = |label: &str, re: &str| r.stdout.lines().any(|l| l.split_whitespace().next() == Some(label) && l.matches(re).count() == 2);
    assert!(entry("1", "AB") && entry("2", "CB"), "{}", r.stdout);
    assert!(r.stdout.contains("too far apart to draw"), "{}", r.stdout);
    assert!(r.stdout.len() < 1000);
}

#[test]
fn bench_reads_a_large_collection_once() {
    // Each puzzle used to re-read the whole collection (quadratic in its size).
    let dir = tmp();
    let puzzles: Vec<serde_json::Value> =
        (0..3000).map(|i| serde_json::json!({"id": format!("p{i}"), "patternsX": [["A"], ["B"]], "patternsY": [["AB"]]})).collect();
    let f = write_file(dir.path(), "challenges.json", serde_json::json!([{"id": "s", "puzzles": puzzles}]).to_string());
    let r = crossat(&["bench", arg(&f), "--repeat", "1", "--json"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let summary = crate::common::json_lines(&r.stdout).pop().expect("summary");
    assert_eq!((&summary["puzzles"], &summary["skipped"]), (&3000.into(), &0.into()));
}

/// A clue whose back-reference a negative lookahead contradicts: no line matches it,
/// but its CNF (an over-approximation: more than a million candidate strings on six
/// cells over 26 letters) admits every line.
fn hostile_guarded(dir: &Path) -> PathBuf {
    let p = serde_json::json!({"left": [r"(.)(?!\1)\1.*"], "top": vec!["."; 6], "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"});
    write_file(dir, "hostile.json", p.to_string())
}

#[test]
fn the_counterexample_loop_ends_in_a_limit_never_a_verdict() {
    let dir = tmp();
    let f = hostile_guarded(dir.path());
    // The limit docs/format.md documents (`MAX_COUNTEREXAMPLES`).
    let limit = 20_000.to_string();
    for json in [false, true] {
        let mut args = vec!["solve", arg(&f)];
        if json {
            args.push("--json");
        }
        let r = crossat(&args, None);
        assert_one_error(&r, 2, &[arg(&f), "row 1 (left)", r"(.)(?!\1)\1.*", "counterexample loop", &limit, "its limit"]);
        assert_eq!(r.stdout, "", "no verdict: {}", r.stdout);
    }
    // A timeout shorter than the loop stops it as a timeout, incomplete.
    let r = crossat(&["solve", arg(&f), "--json", "--timeout", "0.05"], None);
    assert_eq!(r.code, 4, "{r:?}");
    let (n, summary) = stopped_json(&r.stdout, "timeout");
    assert_eq!((n, &summary["unique"]), (0, &serde_json::Value::Null));
}

#[test]
fn clause_and_state_limits_name_the_file_and_the_clue() {
    let dir = tmp();
    // An A exactly 13 from the end: 2^13 states, over 160 cells more than 10^7 clauses.
    let f = write_file(
        dir.path(),
        "clauses.json",
        serde_json::json!({"left": [".*A.{12}"], "top": vec!["."; 160], "alphabet": "AB"}).to_string(),
    );
    let r = crossat(&["dimacs", arg(&f)], None);
    assert_one_error(&r, 2, &[arg(&f), "row 1 (left) clue '.*A.{12}'", "encoding too large: more than 10000000 clauses"]);
    // 2^15 states on a line of 400 cells: more than the 50,000 states of one clue.
    let f = write_file(
        dir.path(),
        "states.json",
        serde_json::json!({"left": [".*A.{14}"], "top": vec!["."; 400], "alphabet": "AB"}).to_string(),
    );
    let r = crossat(&["solve", arg(&f)], None);
    assert_one_error(&r, 2, &[arg(&f), "row 1 (left) clue '.*A.{14}'", "more than 50000 states"]);
}

#[test]
fn solve_stats_still_listens_to_the_timeout() {
    // Solved in a quarter of a second, but rating its difficulty (probing every cell
    // of 50x50, 26 letters each) takes seconds: that too must end at the --timeout.
    let dir = tmp();
    let f = write_file(
        dir.path(),
        "st.json",
        serde_json::json!({"left": vec![".*A.{6}.*"; 50], "top": vec![".*B.{6}.*"; 50], "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"})
            .to_string(),
    );
    let start = std::time::Instant::now();
    let r = crossat(&["solve", arg(&f), "--stats", "--json", "--timeout", "0.5"], None);
    assert_eq!(r.code, 4, "{r:?}");
    let _ = stopped_json(&r.stdout, "timeout");
    assert!(start.elapsed().as_secs_f64() < 30.0);
}

#[test]
fn alphabet_limits_name_the_file_and_the_limit() {
    let dir = tmp();
    let f = write_file(dir.path(), "p.json", r#"{"left": ["A|B"], "top": ["A"]}"#);
    // 220 characters (beyond the 160 symbols of the DFA byte classes).
    let wide: String = (0..220).map(|i| char::from_u32(0x100 + i).expect("char")).chain(['A', 'B']).collect();
    assert_bad(
        &crossat(&["solve", arg(&f), "--alphabet", &wide], None),
        &[arg(&f), "the alphabet has 222 characters, more than the limit of 160"],
    );
    let p = serde_json::json!({"left": [format!("[{}]", &wide[..wide.len() - 2])], "top": ["."]});
    let g = write_file(dir.path(), "wide.json", p.to_string());
    assert_bad(&crossat(&["solve", arg(&g)], None), &[arg(&g), "more than the limit of 160"]);
    // 64 word characters: one more than the ASCII word bytes they are mapped to.
    let words: String = ('a'..='z').chain('A'..='Z').chain('0'..='9').chain(['_', 'é']).collect();
    assert_bad(&crossat(&["solve", arg(&f), "--alphabet", &words], None), &[arg(&f), "64 word characters", "more than the limit of 63"]);
    assert_eq!(crossat(&["solve", arg(&f), "--alphabet", &words[..words.len() - 2]], None).code, 0, "63 word characters are fine");
    // A range too wide to infer the alphabet from names the clue.
    let h = write_file(dir.path(), "range.json", r#"{"left": ["[\u0000-\uffff]"], "top": ["."]}"#);
    assert_bad(&crossat(&["solve", arg(&h)], None), &[arg(&h), "row 1 (left)", "too many to infer the alphabet from (limit 256)"]);
}

#[test]
fn hostile_clues_end_quickly() {
    let dir = tmp();
    let start = std::time::Instant::now();
    // Blow-ups: an A exactly 31 from the end of a long line (2^31 DFA states unbounded).
    let p = serde_json::json!({"left": ["(.*A.{30})"], "top": vec!["."; 100]});
    let f = write_file(dir.path(), "blowup.json", p.to_string());
    let r = crossat(&["solve", arg(&f)], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("unique: no other solution exists"), "{}", r.stdout);
    // Thirty of them, and columns that propagation does not decide: the DFA is needed,
    // and too large.
    let p = serde_json::json!({"left": vec!["(.*A.{30}).*B.{20}"; 30], "top": vec!["[AB]*"; 60]});
    let f = write_file(dir.path(), "blowup30.json", p.to_string());
    assert_one_error(&crossat(&["solve", arg(&f)], None), 2, &[arg(&f), "row 1 (left)", "more than 50000 states"]);
    // With columns of `.` (one cell, on lines of 30), propagation over the position
    // automata finds no solution before any DFA is built.
    let p = serde_json::json!({"left": vec!["(.*A.{30}).*B.{20}"; 30], "top": vec!["."; 60]});
    let f = write_file(dir.path(), "blowup30-decided.json", p.to_string());
    let r = crossat(&["solve", arg(&f), "--json"], None);
    assert_eq!(r.code, 1, "no solution: {r:?}");
    assert_eq!(crate::common::json_lines(&r.stdout).pop().expect("summary")["complete"], true);
    // A clue of 10^4 characters, and a repeat of 65535, on short lines.
    let p = serde_json::json!({"left": ["A".repeat(10_000), "A{65535}|B{3}"], "top": [".", ".", "."]});
    let f = write_file(dir.path(), "long.json", p.to_string());
    let r = crossat(&["solve", arg(&f), "--json"], None);
    assert_eq!(r.code, 1, "no solution: {r:?}");
    assert_eq!(crate::common::json_lines(&r.stdout).pop().expect("summary")["complete"], true);
    assert!(start.elapsed().as_secs() < 60, "{:?}", start.elapsed());
}

/// The peak resident memory of a running process, in kB (Linux).
fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next()?.parse().ok()).expect("VmHWM")
}

#[test]
fn all_streams_in_flat_memory() {
    // 2^22 solutions: the peak memory after 100,000 of them is about that after 10,000
    // (one blocking clause kept per solution grew it by about 20 MB over those 90,000).
    let dir = tmp();
    let many = many_solutions(dir.path());
    let mut child = Command::new(env!("CARGO_BIN_EXE_crossat"))
        .args(["solve", arg(&many), "--all", "--json", "-q"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut peaks = vec![];
    for (n, line) in (1..=100_000).zip(lines.by_ref()) {
        assert!(line.expect("a line").starts_with(r#"{"type":"solution""#));
        if n == 10_000 || n == 100_000 {
            peaks.push(peak_kb(child.id()));
        }
    }
    child.kill().expect("kill");
    let _ = child.wait();
    assert_eq!(peaks.len(), 2);
    assert!(peaks[1] < peaks[0] + 8 * 1024, "peak memory grew from {} kB to {} kB", peaks[0], peaks[1]);
}
