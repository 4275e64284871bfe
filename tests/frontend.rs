//! The command line as a newcomer meets it: fresh seeds that can be reused, folders
//! wherever files are taken, unreadable input reported, usage messages that point the
//! right way, the same flags in `--help` and in docs/cli.md, and a manual that says
//! more than the help.

use crate::common::{arg, crossat, root, write_file};
use serde_json::Value;
use std::collections::BTreeSet;

const BEGINNER: &str = "puzzles/antoine-trux/beginner_1.input.txt";
const DICT: &str = "puzzles/squares/doctest.txt";

fn json_line(stdout: &str) -> Value {
    serde_json::from_str(stdout.lines().last().expect("a line")).expect("JSON")
}

#[test]
fn generate_draws_a_fresh_seed_that_makes_the_puzzle_again() {
    let run = |extra: &[&str]| {
        let mut args = vec!["generate", "--size", "3x3", "--quiet"];
        args.extend_from_slice(extra);
        let r = crossat(&args, None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r
    };
    let (a, b) = (json_line(&run(&["--json"]).stdout), json_line(&run(&["--json"]).stdout));
    let seed = a["seed"].as_u64().expect("the JSON line holds the seed");
    assert_ne!(Some(seed), b["seed"].as_u64(), "two runs without --seed drew the same seed");
    let again = json_line(&run(&["--json", "--seed", &seed.to_string()]).stdout);
    assert_eq!((&again["crossat"], &again["solution"]), (&a["crossat"], &a["solution"]));
    // In text, the seed is on the summary line, and --seed with it prints the same puzzle.
    let text = run(&[]);
    let said = text.stderr.split("seed ").nth(1).and_then(|s| s.split(' ').next()).expect("the seed on stderr");
    assert_eq!(run(&["--seed", said]).stdout, text.stdout);
}

#[test]
fn squares_draws_a_fresh_seed_that_makes_the_squares_again() {
    let run = |extra: &[&str]| {
        let mut args = vec!["squares", "-W", "3", "-H", "3", "--dict", DICT, "--count", "2"];
        args.extend_from_slice(extra);
        let r = crossat(&args, None);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r
    };
    let first = run(&["--json"]);
    let seed = json_line(&first.stdout)["seed"].as_u64().expect("seed");
    let second = json_line(&run(&["--json"]).stdout)["seed"].as_u64().expect("seed");
    assert_ne!(seed, second);
    let grids = |out: &str| out.lines().filter(|l| l.contains("\"solution\"")).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(grids(&run(&["--json", "--seed", &seed.to_string()]).stdout), grids(&first.stdout));
    let text = run(&[]);
    let said = text.stderr.split("seed ").nth(1).and_then(|s| s.split(' ').next()).expect("the seed on stderr");
    assert_eq!(run(&["--seed", said]).stdout, text.stdout);
}

#[test]
fn list_takes_files_and_folders() {
    let folder = crossat(&["list", "puzzles/antoine-trux"], None);
    assert_eq!(folder.code, 0, "{}", folder.stderr);
    let inputs = std::fs::read_dir(root().join("puzzles/antoine-trux"))
        .expect("folder")
        .filter(|e| e.as_ref().is_ok_and(|e| e.file_name().to_string_lossy().ends_with(".input.txt")))
        .count();
    assert!(inputs > 1);
    assert_eq!(folder.stdout.lines().count(), inputs, "{}", folder.stdout);
    assert!(folder.stdout.lines().all(|l| l.starts_with("puzzles/antoine-trux/")));
    let two = crossat(&["list", "--json", BEGINNER, "puzzles/seed000/problem3.json"], None);
    assert_eq!(two.code, 0, "{}", two.stderr);
    let keys: Vec<Value> = two.stdout.lines().map(|l| serde_json::from_str::<Value>(l).expect("json")["key"].clone()).collect();
    assert_eq!(keys, [BEGINNER, "puzzles/seed000/problem3.json"]);
    // A file that cannot be listed is reported; the others are still listed.
    let dir = tempfile::tempdir().expect("dir");
    let bad = write_file(dir.path(), "bad.json", "{}");
    let mixed = crossat(&["list", BEGINNER, arg(&bad)], None);
    assert_eq!(mixed.code, 2);
    assert!(mixed.stdout.starts_with(BEGINNER) && mixed.stderr.contains(arg(&bad)), "{mixed:?}");
}

#[test]
fn another_commands_input_names_that_command() {
    for cmd in ["solve", "list", "dimacs", "hint"] {
        let r = crossat(&[cmd, "puzzles/blocks/p1.json"], None);
        assert_eq!(r.code, 2, "{cmd}");
        assert!(r.stderr.contains("`crossat blocks puzzles/blocks/p1.json`"), "{cmd}: {}", r.stderr);
    }
    let text = crossat(&["solve", "-"], Some(b"patterns: ab..\nblocks: cd ef\n"));
    assert!(text.code == 2 && text.stderr.contains("crossat blocks -"), "{}", text.stderr);
    let model = crossat(&["solve", "-"], Some(b"s SATISFIABLE\nv 1 -2 0\n"));
    assert!(model.code == 2 && model.stderr.contains("`crossat solve --model - PUZZLE`"), "{}", model.stderr);
    let r = crossat(&["blocks", BEGINNER], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains(&format!("`crossat solve {BEGINNER}`")), "{}", r.stderr);
}

#[test]
fn bench_says_what_it_could_not_read() {
    let dir = tempfile::tempdir().expect("dir");
    let garbage = write_file(dir.path(), "garbage.txt", "not a puzzle\n");
    let r = crossat(&["bench", "--repeat", "1", "-q", arg(&garbage)], None);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stdout.contains(arg(&garbage)) && r.stdout.contains("not read: unknown puzzle format"), "{}", r.stdout);
    assert!(r.stderr.contains("no puzzle could be read"), "{}", r.stderr);
    // Beside a puzzle, the unreadable file is listed and counted, and the run succeeds.
    let r = crossat(&["bench", "--repeat", "1", "-q", BEGINNER, arg(&garbage)], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let total = r.stdout.lines().last().expect("total");
    assert!(total.starts_with("TOTAL (1 puzzle, 0 skipped, 1 file not read;"), "{total}");
    assert!(r.stdout.lines().any(|l| l.starts_with("puzzle (times in ms)")), "{}", r.stdout);
    let json = crossat(&["bench", "--repeat", "1", "-q", "--json", BEGINNER, arg(&garbage)], None);
    assert!(json.stdout.lines().any(|l| l.contains("\"type\":\"unreadable\"")), "{}", json.stdout);
    assert_eq!(json_line(&json.stdout)["unreadable"], 1);
    let zero = crossat(&["bench", "--repeat", "0", BEGINNER], None);
    assert!(zero.code == 2 && zero.stderr.contains("--repeat"), "{}", zero.stderr);
    let empty = tempfile::tempdir().expect("dir");
    let none = crossat(&["bench", arg(empty.path())], None);
    assert!(none.code == 2 && none.stderr.contains("no puzzle file found"), "{}", none.stderr);
}

#[test]
fn dimacs_takes_a_timeout() {
    let r = crossat(&["dimacs", "--timeout", "30", BEGINNER], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.lines().any(|l| l.starts_with("p cnf ")));
    let bad = crossat(&["dimacs", "--timeout", "0", BEGINNER], None);
    assert!(bad.code == 2 && bad.stderr.contains("--timeout must be a positive number"), "{}", bad.stderr);
}

#[test]
fn usage_messages_point_the_right_way() {
    let proof = crossat(&["solve", "--proof", "x.drat", BEGINNER], None);
    assert_eq!(proof.code, 2);
    assert!(proof.stderr.contains("--unique") && !proof.stderr.contains("<FILE> <FILE>"), "{}", proof.stderr);
    for cmd in ["solve", "check", "hint", "explain", "dimacs", "blocks", "generate", "squares", "bench"] {
        let mut args = vec![cmd, "--timeout", "-1"];
        args.extend_from_slice(match cmd {
            "generate" => &["--size", "2x2"][..],
            "squares" => &["--dict", DICT][..],
            "check" => &[BEGINNER, BEGINNER][..],
            "blocks" => &["puzzles/blocks/p1.json"][..],
            _ => &[BEGINNER][..],
        });
        let r = crossat(&args, None);
        assert_eq!(r.code, 2, "{cmd}");
        assert!(r.stderr.contains("--timeout must be a positive number of seconds, got -1"), "{cmd}: {}", r.stderr);
        assert!(!r.stderr.contains("-- -1"), "{cmd}: {}", r.stderr);
    }
    let bare = crossat(&["generate"], None);
    assert!(bare.code == 2 && bare.stderr.contains("--size") && bare.stderr.contains("--hex"), "{}", bare.stderr);
}

#[test]
fn outcomes_are_said_and_labelled_as_they_are() {
    let dir = tempfile::tempdir().expect("dir");
    // Two solutions: AB or BA on one line of two cells.
    let puzzle = write_file(dir.path(), "two.json", r#"{"left": ["AB|BA"], "top": ["[AB]", "[AB]"]}"#);
    let proof = dir.path().join("p.drat");
    let r = crossat(&["solve", "--unique", "--proof", arg(&proof), arg(&puzzle)], None);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("no proof written"), "{}", r.stderr);
    assert!(!proof.exists());
    let r = crossat(&["solve", "--unique", "--proof", arg(&proof), "--json", arg(&puzzle)], None);
    assert_eq!(json_line(&r.stdout)["proof"], Value::Null);
    // check's GRID is the grid, not the puzzle's given cells.
    let grid = write_file(dir.path(), "grid.txt", "AB\nAB\n");
    let r = crossat(&["check", arg(&puzzle), arg(&grid)], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("the grid has 2 rows") && !r.stderr.contains("given"), "{}", r.stderr);
    let help = crossat(&["generate", "--help"], None).stdout;
    assert!(help.contains("crossat, trux, challenges") && !help.contains("both formats"), "{help}");
    assert!(!help.contains("prints what was found"), "{help}");
    // A regex-pool CSV has entries and a pool, in JSON as in text.
    let text = crossat(&["list", "puzzles/louridas/hex.csv"], None).stdout;
    let json = json_line(&crossat(&["list", "--json", "puzzles/louridas/hex.csv"], None).stdout);
    let (entries, pool) = (json["entries"].as_u64().expect("entries"), json["pool"].as_u64().expect("pool"));
    assert!(text.contains(&format!("{entries} entries, pool of {pool} regexes")), "{text}");
    assert_eq!(json["clues"], Value::Null);
}

#[test]
fn a_feff_in_the_alphabet_is_a_cell() {
    let dir = tempfile::tempdir().expect("dir");
    let puzzle = write_file(dir.path(), "feff.json", r#"{"left": ["\ufeffA"], "top": ["\ufeff", "A"]}"#);
    let grid = write_file(dir.path(), "grid.txt", "\u{feff}A\n");
    let r = crossat(&["check", arg(&puzzle), arg(&grid)], None);
    assert_eq!((r.code, r.stdout.lines().last()), (0, Some("valid: all 3 clues match")), "{}", r.stderr);
    let partial = write_file(dir.path(), "partial.txt", "\u{feff}.\n");
    let r = crossat(&["hint", "--json", arg(&puzzle), "--grid", arg(&partial)], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(serde_json::from_str::<Value>(r.stdout.lines().next().expect("hint")).expect("json")["char"], "A");
    // Over an alphabet without it, a leading U+FEFF is still a byte-order mark.
    let plain = write_file(dir.path(), "plain.json", r#"{"left": ["AB"], "top": ["A", "B"]}"#);
    let bom = write_file(dir.path(), "bom.txt", "\u{feff}AB\n");
    assert_eq!(crossat(&["check", arg(&plain), arg(&bom)], None).code, 0);
}

#[test]
fn the_sre_oracle_is_quiet_about_sets_a_later_python_may_nest() {
    let mut child = std::process::Command::new("python3")
        .arg(root().join("scripts/sre_oracle.py"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), b"{\"p\": \"[[a]\", \"s\": [\"a\", \"[\"]}\n").expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), r#"{"r": [[null, []], [null, []]]}"#);
}

/// The long flags `crossat CMD --help` lists (without `--help` and the global ones).
fn help_flags(cmd: &str) -> BTreeSet<String> {
    let help = crossat(&[cmd, "--help"], None).stdout;
    help.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = if l.starts_with('-') && !l.starts_with("--") { l.split_once(", ").map_or(l, |(_, r)| r) } else { l };
            let flag = l.strip_prefix("--")?.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).next()?;
            Some(format!("--{flag}"))
        })
        .filter(|f| !["--help", "--version", "--max-input-bytes"].contains(&f.as_str()))
        .collect()
}

/// The long flags in the first column of the options table (`| option | meaning |`)
/// of the `## crossat CMD` section of docs/cli.md, if it has one.
fn documented_flags(cli_md: &str, cmd: &str) -> Option<BTreeSet<String>> {
    let mut section = None;
    for part in cli_md.split("\n## ").skip(1) {
        let heading = part.lines().next().unwrap_or_default().replace('`', "");
        if heading.trim() == format!("crossat {cmd}") {
            section = Some(part);
        }
    }
    let section = section?;
    let table = section.split("| option | meaning |").nth(1)?;
    let mut flags = BTreeSet::new();
    for row in table.lines().skip(2).take_while(|l| l.starts_with('|')) {
        let first = row.split('|').nth(1).unwrap_or_default();
        for quoted in first.split('`').skip(1).step_by(2) {
            for word in quoted.split([' ', ',', '=']) {
                if let Some(name) = word.strip_prefix("--")
                    && !name.is_empty()
                {
                    let _ = flags.insert(format!("--{name}"));
                }
            }
        }
    }
    flags.retain(|f| f != "--help" && f != "--max-input-bytes");
    Some(flags)
}

#[test]
fn every_command_takes_the_flags_its_docs_list() {
    let cli_md = std::fs::read_to_string(root().join("docs/cli.md")).expect("docs/cli.md");
    for cmd in ["solve", "check", "hint", "explain", "dimacs", "list", "blocks", "generate", "squares", "bench"] {
        let help = help_flags(cmd);
        assert!(!help.is_empty(), "{cmd}");
        let docs = documented_flags(&cli_md, cmd).unwrap_or_else(|| panic!("docs/cli.md has no options table for crossat {cmd}"));
        assert_eq!(docs, help, "crossat {cmd}: the options table of docs/cli.md against --help");
    }
    // Every command that searches or compiles can be bounded in time.
    for cmd in ["solve", "check", "hint", "explain", "dimacs", "blocks", "generate", "squares", "bench"] {
        assert!(help_flags(cmd).contains("--timeout"), "{cmd}");
    }
}

/// The man page with its roff escapes undone, words separated by single spaces.
fn man_text() -> String {
    let page = crossat(&["man"], None).stdout;
    let mut text = page.replace("\\-", "-").replace("\\*(Aq", "'").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "");
    while let Some(at) = text.find("\\[u") {
        let end = at + text[at..].find(']').expect("escape end");
        let c = u32::from_str_radix(&text[at + 3..end], 16).ok().and_then(char::from_u32).expect("code point");
        text.replace_range(at..=end, &c.to_string());
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_manual_carries_every_commands_long_help() {
    let man = man_text();
    for cmd in ["solve", "dimacs", "list", "check", "hint", "explain", "blocks", "generate", "squares", "bench", "completions"] {
        let help = crossat(&[cmd, "--help"], None).stdout;
        // Every sentence of the help but the usage line and clap's headings.
        for para in help.split("\n\n") {
            let words = para.split_whitespace().collect::<Vec<_>>().join(" ");
            if words.is_empty() || words.starts_with("Usage:") {
                continue;
            }
            for line in para.lines().map(str::trim).filter(|l| !l.is_empty() && !l.ends_with(':') && !l.starts_with('-')) {
                let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
                // clap's value lists ("[default: …]", "[possible values: …]") are rendered by mangen in its own way.
                let line = line.split(" [default:").next().unwrap_or_default().split(" [possible values:").next().unwrap_or_default();
                if line.starts_with('[') || line.starts_with('<') || line.is_empty() {
                    continue;
                }
                assert!(man.contains(line), "crossat man lacks `crossat {cmd} --help`'s {line:?}");
            }
        }
    }
    for section in ["DIFFICULTY", "DIALECTS", "FORMATS", "EXIT STATUS"] {
        assert!(man.contains(section), "{section}");
    }
    assert!(man.contains("probing") && man.contains("ecmascript (the default for regexcrossword.com"));
    for code in ["130", "143"] {
        assert!(man.contains(code));
    }
}

#[test]
fn groff_reads_the_manual_without_warnings() {
    if !crate::tools::require(crate::tools::Tool::Groff) {
        return;
    }
    let page = crossat(&["man"], None).stdout;
    let mut child = std::process::Command::new("groff")
        .args(["-ww", "-man", "-Tutf8"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("groff");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), page.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("groff");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
