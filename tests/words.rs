//! Word lists as constraints: building-blocks puzzles (the token automaton is tested
//! beside the code).

use crate::common::crossat;
use serde_json::Value;

fn expected(path: &str) -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(crate::common::puzzle(path)).expect("expected file");
    let mut lines = text.lines();
    let words = lines.next().expect("words").split_whitespace().map(str::to_string).collect();
    let unused = lines.next().and_then(|l| l.strip_prefix("unused:")).expect("unused").split_whitespace().map(str::to_string).collect();
    (words, unused)
}

#[test]
fn published_building_blocks_puzzles_are_unique_under_the_builtin_list() {
    for p in ["p1", "p2", "p3"] {
        let run = crossat(&["blocks", &format!("puzzles/blocks/{p}.json"), "--all", "--json"], None);
        assert_eq!(run.code, 0, "{p}: {}", run.stderr);
        let lines: Vec<Value> = run.stdout.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
        let (words, unused) = expected(&format!("blocks/{p}.expected"));
        assert_eq!(lines.len(), 2, "{p}: one solution and the summary");
        assert_eq!(lines[0]["type"], "solution");
        assert_eq!(lines[0]["words"], serde_json::json!(words), "{p}");
        let mut got: Vec<String> =
            lines[0]["unused"].as_array().expect("unused").iter().map(|u| u.as_str().expect("block").to_string()).collect();
        got.sort();
        assert_eq!(got, unused, "{p}");
        assert_eq!((lines[1]["solutions"].as_u64(), lines[1]["complete"].as_bool()), (Some(1), Some(true)));
        assert!(lines[1]["dictionary_words"].as_u64().is_some_and(|n| n > 100_000));
    }
    // The text output names the list and shows each word's blocks.
    let run = crossat(&["blocks", "puzzles/blocks/p1.json"], None);
    assert!(run.stderr.contains("built-in Wordnik word list"), "{}", run.stderr);
    assert!(run.stdout.contains("strongman    str + ong + man") && run.stdout.contains("unused: hig hti mes"), "{}", run.stdout);
}

#[test]
fn a_dictionary_file_decides_the_answer() {
    let dir = tempfile::tempdir().expect("dir");
    let dict = dir.path().join("words.txt");
    let puzzle = dir.path().join("p.txt");
    std::fs::write(&puzzle, "patterns: ab.... ..cd..\nblocks: cd ef gh ab ij\n").expect("write");
    // A capitalised word counts only with --fold-case.
    std::fs::write(&dict, "abcdef\nabghij\nIJcdAB\nefcdgh\n").expect("write");
    let run = crossat(&["blocks", puzzle.to_str().expect("p"), "--dict", dict.to_str().expect("d"), "--all", "--json"], None);
    let count = |s: &str| s.lines().filter(|l| l.contains("\"solution\"")).count();
    // Each block once: abghij (gh, ij) with abcdef read as ab+[cd]+ef is the only way
    // (efcdgh would need gh or ef twice). Folding case adds ijcdab: abcdef + ijcdab.
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(count(&run.stdout), 1, "{}", run.stdout);
    let folded =
        crossat(&["blocks", puzzle.to_str().expect("p"), "--dict", dict.to_str().expect("d"), "--fold-case", "--all", "--json"], None);
    assert_eq!(count(&folded.stdout), 2, "{}", folded.stdout);
}

#[test]
fn blocks_bad_input() {
    let dir = tempfile::tempdir().expect("dir");
    let write = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).expect("write");
        p.to_str().expect("path").to_string()
    };
    let good = write("good.txt", b"patterns: ab....\nblocks: cd ef\n");
    let empty = write("empty.txt", b"ABC\n\n");
    let latin1 = write("latin1.txt", b"abcdef\ncaf\xe9\n");
    let cases: Vec<(Vec<String>, i32, &str)> = vec![
        (vec![write("unequal.json", br#"{"patterns": ["ab...."], "blocks": ["cd", "efg"]}"#)], 2, "same length"),
        (vec![write("misfit.json", br#"{"patterns": ["ab..."], "blocks": ["cd", "ef"]}"#)], 2, "whole number of 2-letter blocks"),
        (vec![write("misaligned.json", br#"{"patterns": ["a.b..."], "blocks": ["cd", "ef"]}"#)], 2, "do not line up"),
        (vec![write("nofield.txt", b"blocks: ab\n")], 2, "missing a `patterns: ...` line".trim_end_matches("...` line")),
        (vec![good.clone(), "--dict".into(), dir.path().join("missing.txt").to_str().expect("p").into()], 2, "cannot read dictionary"),
        (vec![good.clone(), "--dict".into(), empty], 2, "no usable words"),
        (vec![good.clone(), "--dict".into(), latin1], 2, "not UTF-8"),
        (vec![write("nosolution.txt", b"patterns: zz....\nblocks: qq xx\n")], 1, "no solution"),
    ];
    for (args, code, message) in cases {
        let mut all = vec!["blocks".to_string()];
        all.extend(args);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let run = crossat(&refs, None);
        assert_eq!(run.code, code, "{all:?}: {} {}", run.stdout, run.stderr);
        assert!(run.stderr.contains(message) || run.stdout.contains(message), "{all:?}: {}{}", run.stdout, run.stderr);
        assert!(!run.stderr.contains("panicked"));
    }
}
