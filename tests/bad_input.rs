//! Bad input: every case gives exit code 2 and exactly one line on stderr, starting with
//! `error: `, naming the file at fault (and the clue, with its text, when one clue is
//! at fault), without a panic and without output on stdout.

use crate::common::{Run, arg, crossat, tmp, write_file};
use std::path::Path;
use std::time::{Duration, Instant};

/// Asserts a clean bad-input error whose line contains every one of `needles`.
#[track_caller]
fn assert_error(r: &Run, needles: &[&str]) {
    assert_eq!(r.code, 2, "exit code: {r:?}");
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "nothing on stdout: {}", r.stdout);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one error line: {:?}", r.stderr);
    assert!(lines[0].starts_with("error: "), "{}", lines[0]);
    for n in needles {
        assert!(lines[0].contains(n), "{n:?} in {:?}", lines[0]);
    }
}

/// A 2×2 crossat JSON puzzle whose clue at `side`/`index` is `clue`, the others `.`.
fn with_clue(dir: &Path, side: &str, index: usize, clue: &str) -> std::path::PathBuf {
    let mut p = serde_json::json!({"left": ["[AB]{2}", "[AB]{2}"], "top": ["[AB]{2}", "[AB]{2}"]});
    p[side][index] = clue.into();
    write_file(dir, "puzzle.json", p.to_string())
}

fn solve(path: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["solve", arg(path)];
    args.extend_from_slice(extra);
    crossat(&args, None)
}

#[test]
fn malformed_regexes_name_the_file_the_clue_and_its_text() {
    let cases = [
        ("left", 0, "row 1 (left)", "(AB", "missing )"),
        ("left", 1, "row 2 (left)", "A(B))", "unbalanced parenthesis"),
        ("top", 0, "column 1 (top)", "*A", "nothing to repeat"),
        ("top", 1, "column 2 (top)", "[z-a]", "bad character range"),
        ("left", 0, "row 1 (left)", r"\q", "bad escape"),
        ("left", 1, "row 2 (left)", "[AB", "unterminated character set"),
        ("top", 0, "column 1 (top)", "A{3,1}", "min repeat greater than max repeat"),
        ("top", 1, "column 2 (top)", r"(A)\2", "invalid group reference"),
    ];
    for (side, i, label, clue, why) in cases {
        let dir = tmp();
        let file = with_clue(dir.path(), side, i, clue);
        assert_error(&solve(&file, &[]), &[arg(&file), label, &format!("'{clue}'"), why]);
    }
}

#[test]
fn a_bad_clue_in_a_trux_file_is_named_by_row_or_column() {
    let dir = tmp();
    let file = write_file(
        dir.path(),
        "p.txt",
        "shape = rectangular\nnum_rows = 2\nnum_cols = 2\nnum_regexes_per_row = 1\nnum_regexes_per_col = 1\n'AB'\n'AB'\n'A'\n'B(?<=A|BC)'\n",
    );
    assert_error(&solve(&file, &[]), &[arg(&file), "column 2", "'B(?<=A|BC)'", "look-behind requires fixed-width pattern"]);
}

#[test]
fn empty_grids_are_rejected() {
    let dir = tmp();
    for (name, text) in [("a.json", "{}"), ("b.json", r#"{"left": [], "top": []}"#), ("c.json", r#"{"rows": 0, "top": ["A"]}"#)] {
        let file = write_file(dir.path(), name, text);
        assert_error(&solve(&file, &[]), &[arg(&file), "empty grid"]);
    }
    let file = write_file(dir.path(), "empty.json", "");
    assert_error(&solve(&file, &[]), &[arg(&file), "empty input"]);
    let file = write_file(dir.path(), "blank.txt", "  \n\n");
    assert_error(&solve(&file, &[]), &[arg(&file), "empty input"]);
}

#[test]
fn mismatched_sizes_are_rejected() {
    let dir = tmp();
    let cases = [
        (r#"{"left": ["A", "B", "C"], "right": ["A", "B"], "top": ["A"]}"#, "2 right clues for 3 rows"),
        (r#"{"left": ["A", "B", "C"], "top": ["A", "B"], "bottom": ["A", "B", "C"]}"#, "3 bottom clues for 2 columns"),
        (r#"{"rows": 2, "left": ["A", "B", "C"], "top": ["A"]}"#, "3 left clues for 2 rows"),
        (r#"{"cols": 3, "left": ["A"], "top": ["A", "B"]}"#, "2 top clues for 3 columns"),
        (r#"{"left": ["A", "B"], "top": ["A"], "given": ["A", "BB"]}"#, "given grid row 2 has 2 cells"),
        (r#"{"left": ["A", "B"], "top": ["A"], "given": ["A"]}"#, "given grid has 1 rows"),
    ];
    for (text, why) in cases {
        let file = write_file(dir.path(), "p.json", text);
        assert_error(&solve(&file, &[]), &[arg(&file), why]);
    }
    let trux = write_file(
        dir.path(),
        "p.txt",
        "shape = rectangular\nnum_rows = 2\nnum_cols = 2\nnum_regexes_per_row = 1\nnum_regexes_per_col = 1\n'A'\n'B'\n'C'\n",
    );
    assert_error(&solve(&trux, &[]), &[arg(&trux), "3 regexes", "4 clues"]);
    // Counts whose products overflow are bad input, not an arithmetic panic (a fuzz finding).
    let huge = "10000000000000000014";
    for (name, text, why) in [
        ("hex.txt", format!("shape = hexagonal\nnum_regexes_per_line = {huge}\n"), "cannot fill 3 axes"),
        (
            "rect.txt",
            format!("shape = rectangular\nnum_rows = 2\nnum_cols = 2\nnum_regexes_per_row = {huge}\nnum_regexes_per_col = 1\n"),
            "is too many",
        ),
    ] {
        let file = write_file(dir.path(), name, &text);
        assert_error(&solve(&file, &[]), &[arg(&file), why]);
    }
    let dat = write_file(dir.path(), "p.dat", "2 2\n\nA\n\nB\nC\n");
    assert_error(&solve(&dat, &[]), &[arg(&dat), "1 row regexes for 2 rows"]);
}

/// The --given file is checked against the puzzle: wrong row length, wrong number of rows.
#[test]
fn given_file_of_the_wrong_shape_is_rejected() {
    let dir = tmp();
    let puzzle = write_file(dir.path(), "p.json", r#"{"left": ["[AB]+", "[AB]+"], "top": ["[AB]+", "[AB]+"]}"#);
    let long = write_file(dir.path(), "long.txt", "AB.\n..\n");
    assert_error(&solve(&puzzle, &["--given", arg(&long)]), &["given grid row 1 has 3 cells, the puzzle row has 2"]);
    let short = write_file(dir.path(), "short.txt", "AB\n");
    assert_error(&solve(&puzzle, &["--given", arg(&short)]), &["given grid has 1 rows, the puzzle has 2"]);
    let binary = write_file(dir.path(), "bin.txt", b"A\xff\n..\n");
    assert_error(&solve(&puzzle, &["--given", arg(&binary)]), &[arg(&binary), "UTF-8"]);
    let missing = dir.path().join("missing.txt");
    assert_error(&solve(&puzzle, &["--given", arg(&missing)]), &[arg(&missing), "no such file"]);
}

/// Like every other bad file, a bad --given file should be named in the error; the
/// message names the option instead (`error: --given: given grid row 1 has 3 cells…`).
#[test]
fn given_file_of_the_wrong_shape_is_named_in_the_error() {
    let dir = tmp();
    let puzzle = write_file(dir.path(), "p.json", r#"{"left": ["[AB]+", "[AB]+"], "top": ["[AB]+", "[AB]+"]}"#);
    let long = write_file(dir.path(), "long.txt", "AB.\n..\n");
    assert_error(&solve(&puzzle, &["--given", arg(&long)]), &[arg(&long), "row 1 has 3 cells"]);
    let short = write_file(dir.path(), "short.txt", "AB\n");
    assert_error(&solve(&puzzle, &["--given", arg(&short)]), &[arg(&short), "has 1 rows"]);
}

#[test]
fn given_letter_outside_an_explicit_alphabet() {
    let dir = tmp();
    let puzzle = write_file(dir.path(), "p.json", r#"{"left": ["..", ".."], "top": ["..", ".."]}"#);
    let given = write_file(dir.path(), "g.txt", "..\n.Z\n");
    assert_error(
        &solve(&puzzle, &["--given", arg(&given), "--alphabet", "ABC"]),
        // The file that filled the cell is named, not the puzzle.
        &[arg(&given), "'Z'", "(row 2, column 2)", "not in the alphabet"],
    );
    let inline = write_file(dir.path(), "q.json", r#"{"left": [".", "."], "top": [".."], "alphabet": "AB", "given": ["C", "."]}"#);
    assert_error(&solve(&inline, &[]), &[arg(&inline), "'C'", "(row 1, column 1)", "not in the alphabet"]);
}

#[test]
fn unknown_format_invalid_json_and_invalid_utf8() {
    let dir = tmp();
    let text = write_file(dir.path(), "notes.txt", "Dear diary,\ntoday I solved a crossword.\n");
    assert_error(&solve(&text, &[]), &[arg(&text), "unknown puzzle format"]);
    let json = write_file(dir.path(), "broken.json", r#"{"left": ["A", "#);
    assert_error(&solve(&json, &[]), &[arg(&json), "invalid JSON"]);
    let array = write_file(dir.path(), "broken2.json", "[1, 2");
    assert_error(&solve(&array, &[]), &[arg(&array), "invalid JSON"]);
    let wrong = write_file(dir.path(), "wrong.json", r#"{"left": ["A"], "top": ["A"], "colour": "red"}"#);
    assert_error(&solve(&wrong, &[]), &[arg(&wrong), "unknown key \"colour\""]);
    let latin1 = write_file(dir.path(), "latin1.json", b"{\"left\": [\"caf\xe9\"], \"top\": [\"c\", \"a\", \"f\", \"e\"]}");
    assert_error(&solve(&latin1, &[]), &[arg(&latin1), "not UTF-8"]);
    // Standard input is named `-`.
    assert_error(&crossat(&["solve", "-"], Some(b"not a puzzle at all")), &["error: -: ", "unknown puzzle format"]);
}

#[test]
fn missing_or_unreadable_files() {
    let dir = tmp();
    let missing = dir.path().join("nope.json");
    assert_error(&solve(&missing, &[]), &[arg(&missing), "no such file"]);
    assert_error(&crossat(&["list", arg(&missing)], None), &[arg(&missing), "no such file"]);
    assert_error(&crossat(&["dimacs", arg(&missing)], None), &[arg(&missing), "no such file"]);
    assert_error(&solve(dir.path(), &[]), &[arg(dir.path()), "cannot read file"]);
}

#[test]
fn challenges_collection_needs_an_existing_id() {
    let file = "puzzles/regexcrossword-com/challenges.json";
    assert_error(&crossat(&["solve", file, "--id", "beginner/99"], None), &[file, "'beginner/99'"]);
    assert_error(&crossat(&["solve", file, "--id", "00000000-0000-0000-0000-000000000000"], None), &[file, "no puzzle"]);
    assert_error(&crossat(&["solve", file], None), &[file, "--id", "55 puzzles"]);
    // A collection of no puzzle names the file.
    let dir = tmp();
    let empty = write_file(dir.path(), "empty.json", r#"[{"id": "s", "puzzles": []}]"#);
    assert_error(&crossat(&["solve", arg(&empty)], None), &[arg(&empty), "no puzzle"]);
    // --id on a single puzzle is a usage error too.
    assert_error(
        &crossat(&["solve", "puzzles/seed000/problem1.json", "--id", "beginner/1"], None),
        &["puzzles/seed000/problem1.json", "--id"],
    );
}

#[test]
fn an_automaton_too_large_fails_fast() {
    let dir = tmp();
    let file = write_file(dir.path(), "big.json", r#"{"cols": 30, "left": ["(.*A.{25})"]}"#);
    let alphabet: String = ('A'..='Z').chain('a'..='n').collect();
    assert_eq!(alphabet.chars().count(), 40);
    let start = Instant::now();
    let r = solve(&file, &["--alphabet", &alphabet]);
    let took = start.elapsed();
    assert_error(&r, &[arg(&file), "row 1 (left)", "'(.*A.{25})'", "automaton too large"]);
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn bad_option_values() {
    let p = "puzzles/seed000/problem1.json";
    assert_error(&crossat(&["solve", p, "--limit", "0"], None), &["--limit"]);
    assert_error(&crossat(&["solve", p, "--alphabet", ""], None), &["--alphabet", "empty"]);
    assert_error(&crossat(&["dimacs", p, "--alphabet", ""], None), &["--alphabet", "empty"]);
    // A puzzle whose clues mention no character at all has no alphabet to infer.
    let dir = tmp();
    let dots = write_file(dir.path(), "dots.json", r#"{"left": [".."], "top": [".", "."]}"#);
    assert_error(&solve(&dots, &[]), &[arg(&dots), "alphabet is empty"]);
}

#[test]
fn garbage_model_files() {
    let dir = tmp();
    let p = "puzzles/seed000/problem1.json";
    let cases: [(&str, &[u8], &str); 5] = [
        ("garbage.txt", b"this is not solver output\n", "no `s SATISFIABLE`"),
        ("literal.txt", b"s SATISFIABLE\nv 1 x 0\n", "line 2: 'x' is not a literal"),
        ("unknown.txt", b"s UNKNOWN\n", "did not decide"),
        ("huge.txt", b"s SATISFIABLE\nv -99999999999 0\n", "out of range"),
        // Every variable false: the CNF is violated.
        ("allfalse.txt", b"s SATISFIABLE\nv 0\n", "violates clause"),
    ];
    for (name, bytes, why) in cases {
        let model = write_file(dir.path(), name, bytes);
        assert_error(&crossat(&["solve", p, "--model", arg(&model)], None), &[arg(&model), why]);
    }
    let missing = dir.path().join("missing.out");
    assert_error(&crossat(&["solve", p, "--model", arg(&missing)], None), &[arg(&missing), "no such file"]);
}

#[test]
fn dimacs_output_file_that_cannot_be_created() {
    let dir = tmp();
    let out = dir.path().join("no/such/dir/out.cnf");
    assert_error(&crossat(&["dimacs", "puzzles/seed000/problem1.json", "-o", arg(&out)], None), &[arg(&out), "cannot create"]);
}

/// Random clue text — metacharacters, escapes, quantifiers, groups in any order — never
/// makes any stage panic: each clue is solved or refused with an error.
#[test]
fn random_clue_text_never_panics() {
    let pieces = [
        "A", "B", ".", "|", "(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?P<n>", "(?P=n)", "[", "]", "^", "-", "*", "+", "?", "{", "}",
        "{2}", "{1,", ",", "\\", "\\1", "\\2", "\\b", "\\B", "\\d", "\\w", "\\s", "\\x4", "\\x41", "\\0", "$", "{,3}", "*?", "+?", "(?#c)",
        "(?i)", "(?>",
    ];
    let mut state = 99u64;
    let (mut solved, mut refused) = (0, 0);
    for _ in 0..3000 {
        let mut clue = String::new();
        for _ in 0..1 + (state >> 60) as usize {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            clue.push_str(pieces[(state >> 33) as usize % pieces.len()]);
        }
        let input = crossat::puzzle::Input {
            source: "<fuzz>".into(),
            bytes: serde_json::json!({"rows": 1, "cols": 3, "alphabet": "AB ", "left": [clue], "top": [null, null, null]})
                .to_string()
                .into_bytes(),
            ..Default::default()
        };
        let outcome = std::panic::catch_unwind(|| crate::common::solve_in_process(input, Some(3)));
        match outcome {
            Err(_) => panic!("clue {clue:?} panicked"),
            Ok(Ok(_)) => solved += 1,
            Ok(Err(e)) => {
                // Bad input, never a bug (the command line's exit 2, not 3).
                assert!(!matches!(e, crossat::Error::Internal(_) | crossat::Error::Cancelled), "clue {clue:?}: {e}");
                refused += 1;
            }
        }
    }
    assert!(solved > 100 && refused > 1000, "{solved} solved, {refused} refused");
}

/// Damaged puzzle files in every format — truncated, or with bytes changed — never make
/// a stage panic or report an internal error.
#[test]
fn damaged_files_never_panic() {
    let files = [
        "antoine-trux/beginner_1.input.txt",
        "antoine-trux/hexagonal_2.input.txt",
        "dkesler/intermediate-1.dat",
        "seed000/problem3.json",
        "hesselink/puzzle.txt",
        "binoternary/1389923839891520.json",
        "louridas/hex.csv",
        "solrabizna/hamlet-1.json",
    ];
    let mut state = 7u64;
    let mut next = |n: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize % n.max(1)
    };
    for file in files {
        let path = crate::common::puzzle(file);
        let original = std::fs::read(&path).expect("read");
        let pool = path.with_extension("txt");
        for round in 0..150 {
            let mut bytes = original.clone();
            if round % 3 == 0 {
                bytes.truncate(next(bytes.len()));
            } else {
                for _ in 0..1 + next(4) {
                    let i = next(bytes.len());
                    let noise = b"(){}[]|*+?\\.,'\"0123456789\n:AZ\xff";
                    bytes[i] = noise[next(noise.len())];
                }
            }
            let input = crossat::puzzle::Input {
                source: file.into(),
                bytes,
                pool: file.ends_with(".csv").then(|| ("pool".to_string(), std::fs::read(&pool).expect("pool"))),
                ..Default::default()
            };
            match std::panic::catch_unwind(|| crate::common::solve_in_process(input, Some(2))) {
                Err(_) => panic!("{file}, round {round}: panicked"),
                Ok(Err(e)) => {
                    assert!(!matches!(e, crossat::Error::Internal(_) | crossat::Error::Cancelled), "{file}, round {round}: {e}")
                }
                Ok(Ok(_)) => {}
            }
        }
    }
}
