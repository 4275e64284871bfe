//! Word squares: the `squares` command as a user runs it. Every printed square is
//! checked by the rules as the manual states them (each row and column holds a blank,
//! is at least half filled, spells a dictionary word, and no word is used twice), read
//! here independently of the library; the search and the encoding themselves are
//! tested against brute force beside the code (src/features/squares/tests.rs).

use crate::common::{crossat, root};
use crossat::puzzle::Dictionary;
use serde_json::Value;
use std::collections::BTreeSet;

/// The rows and columns of a square given as its JSON rows (2·W characters, a blank
/// as two spaces): each line's cells, `None` for a blank.
fn lines_of(rows: &[String]) -> Vec<(String, Vec<Option<String>>)> {
    let grid: Vec<Vec<Option<String>>> = rows
        .iter()
        .map(|r| r.as_bytes().chunks(2).map(|p| (p != b"  ").then(|| String::from_utf8_lossy(p).into_owned())).collect())
        .collect();
    let width = grid.first().map_or(0, Vec::len);
    let mut out: Vec<(String, Vec<Option<String>>)> =
        grid.iter().enumerate().map(|(r, row)| (format!("row {}", r + 1), row.clone())).collect();
    out.extend((0..width).map(|c| (format!("column {}", c + 1), grid.iter().map(|row| row[c].clone()).collect())));
    out
}

/// The rules of a square, on its JSON rows: every line has a blank, is at least half
/// filled, and spells (its filled cells in order) a word of `words`, used once.
fn rule_check(rows: &[String], words: &BTreeSet<String>) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for (name, line) in lines_of(rows) {
        let filled: Vec<&String> = line.iter().flatten().collect();
        if filled.len() == line.len() || 2 * filled.len() < line.len() {
            return Err(format!("{name} has {} of {} cells filled", filled.len(), line.len()));
        }
        let word: String = filled.into_iter().map(String::as_str).collect();
        if !words.contains(&word) {
            return Err(format!("{name} spells `{word}`, which is not in the dictionary"));
        }
        if !seen.insert(word.clone()) {
            return Err(format!("`{word}` is used twice ({name})"));
        }
    }
    Ok(())
}

/// Every square of `width`×`height` over `words`, by brute force: every row a word
/// with blanks placed anywhere, every choice of rows, kept when the rules hold.
fn brute_force(words: &BTreeSet<String>, width: usize, height: usize) -> BTreeSet<Vec<String>> {
    let mut rows = Vec::new();
    for w in words.iter().filter(|w| w.len().is_multiple_of(2)) {
        let pairs: Vec<&str> = (0..w.len()).step_by(2).map(|i| &w[i..i + 2]).collect();
        for mask in 0u32..1 << width {
            if mask.count_ones() as usize == pairs.len() {
                let mut it = pairs.iter();
                rows.push((0..width).map(|i| if mask >> i & 1 == 1 { it.next().copied().unwrap_or("") } else { "  " }).collect::<String>());
            }
        }
    }
    let mut found = BTreeSet::new();
    let mut pick = vec![0usize; height];
    while !rows.is_empty() {
        let square: Vec<String> = pick.iter().map(|&r| rows[r].clone()).collect();
        if rule_check(&square, words).is_ok() {
            let _ = found.insert(square);
        }
        let Some(i) = (0..height).find(|&i| pick[i] + 1 < rows.len()) else { break };
        pick[i] += 1;
        pick[..i].iter_mut().for_each(|p| *p = 0);
    }
    found
}

fn words_of(text: &str) -> BTreeSet<String> {
    text.lines().map(str::to_string).collect()
}

fn write_dict(name: &str, text: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("crossat-squares-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write dict");
    path.display().to_string()
}

fn json_lines(s: &str) -> Vec<Value> {
    s.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect()
}

const SMALL: &str = "past\nnear\nedge\nneed\npage\nstar\nNEAR\nten\n";

/// JSON rows are 2·W characters with a blank as two spaces, every word is listed, and
/// the summary says the search was exhausted when fewer squares exist than asked for.
#[test]
fn squares_json_output() {
    let path = write_dict("small.txt", SMALL.as_bytes());
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path, "--count", "5", "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    assert_eq!(lines.len(), 3);
    let grids: BTreeSet<String> = lines[..2].iter().map(|l| l["grid"].to_string()).collect();
    let expected = [serde_json::json!(["  past", "ne  ar", "edge  "]), serde_json::json!(["  need", "pa  ge", "star  "])];
    assert_eq!(grids, expected.iter().map(Value::to_string).collect());
    for l in &lines[..2] {
        assert_eq!(l["type"], "solution");
        let mut words: Vec<&str> = l["words"].as_array().expect("words").iter().filter_map(Value::as_str).collect();
        words.sort_unstable();
        assert_eq!(words, ["edge", "near", "need", "page", "past", "star"]);
    }
    assert_eq!(lines[2]["type"], "summary");
    assert_eq!(lines[2]["solutions"], 2);
    assert_eq!(lines[2]["complete"], true);
    assert_eq!(lines[2]["dictionary_words"], 7, "uppercase NEAR is skipped without --fold-case");
    assert_eq!(lines[2]["usable_words"], 6, "ten has an odd length");
}

/// The text form draws every cell boundary and lists the words.
#[test]
fn squares_text_output_draws_cell_boundaries() {
    let path = write_dict("small-text.txt", SMALL.as_bytes());
    let run = crossat(&["squares", "--width", "3", "--height", "3", "--dict", &path, "--ascii"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The dictionary has exactly two squares, each the other's transpose; which one
    // the default seed finds depends on the generator.
    let one = "+--+--+--+\n|  |pa|st|\n+--+--+--+\n|ne|  |ar|\n+--+--+--+\n|ed|ge|  |\n+--+--+--+\nrows:    past near edge\ncolumns: need page star\n";
    let other = "+--+--+--+\n|  |ne|ed|\n+--+--+--+\n|pa|  |ge|\n+--+--+--+\n|st|ar|  |\n+--+--+--+\nrows:    need page star\ncolumns: past near edge\n";
    assert!(run.stdout == one || run.stdout == other, "{}", run.stdout);
    assert!(run.stderr.contains("dictionary:") && run.stderr.contains("(7 words)"), "{}", run.stderr);
}

/// The same seed prints the same squares; different seeds print different ones.
#[test]
fn squares_are_deterministic_per_seed_and_vary_across_seeds() {
    let grid = |seed: &str| {
        let run = crossat(&["squares", "-W", "3", "-H", "3", "--seed", seed, "--json"], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        json_lines(&run.stdout)[0]["grid"].clone()
    };
    let first: Vec<Value> = ["1", "2", "3"].iter().map(|s| grid(s)).collect();
    assert_eq!(grid("1"), first[0]);
    assert!(first[0] != first[1] || first[1] != first[2], "three seeds gave one square: {first:?}");
    let distinct: BTreeSet<String> = first.iter().map(Value::to_string).collect();
    assert!(distinct.len() >= 2);
}

/// `--count` prints that many different squares, each valid.
#[test]
fn squares_count_gives_different_valid_squares() {
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--count", "4", "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    let grids: BTreeSet<String> = lines.iter().filter(|l| l["type"] == "solution").map(|l| l["grid"].to_string()).collect();
    assert_eq!(grids.len(), 4);
    let summary = lines.last().expect("summary");
    assert_eq!((summary["solutions"].as_u64(), summary["complete"].as_bool()), (Some(4), Some(false)));
    let words: BTreeSet<String> = Dictionary::default().words.into_iter().collect();
    for l in lines.iter().filter(|l| l["type"] == "solution") {
        let ws: Vec<&str> = l["words"].as_array().expect("words").iter().filter_map(Value::as_str).collect();
        assert!(ws.iter().all(|w| words.contains(*w)), "{ws:?}");
        assert_eq!(ws.iter().collect::<BTreeSet<_>>().len(), ws.len(), "a repeated word: {ws:?}");
        for row in l["grid"].as_array().expect("grid").iter().filter_map(Value::as_str) {
            assert_eq!(row.len(), 6);
        }
    }
}

/// A long run reports progress on stderr (the delay is shortened to nothing for the
/// test, so that even a fast search is seen).
#[test]
fn squares_report_progress_when_slow() {
    let run = crate::common::crossat_env(&["squares", "-W", "3", "-H", "3"], &[("CROSSAT_PROGRESS_MS", "0")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("crossat: 3x3 squares: "), "{}", run.stderr);
    let quiet = crate::common::crossat_env(&["squares", "-W", "3", "-H", "3", "--quiet"], &[("CROSSAT_PROGRESS_MS", "1")]);
    assert_eq!(quiet.stderr, "");
}

/// No square: exit 1 and a message saying the search was exhausted.
#[test]
fn squares_without_solution_exit_1() {
    let path = write_dict("none.txt", b"ab\ncd\n");
    let run = crossat(&["squares", "-W", "2", "-H", "2", "--dict", &path], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("no 2x2 square exists") && run.stdout.contains("exhausted"), "{}", run.stdout);
}

/// Bad sizes and bad dictionaries: one clear error, exit 2.
#[test]
fn squares_bad_input_exits_2() {
    let empty = write_dict("empty.txt", b"");
    let upper = write_dict("upper.txt", b"ABBA\nZulu\n");
    let binary = write_dict("binary.txt", b"abba\n\xff\xfe\n");
    let missing = root().join("no-such-dictionary.txt").display().to_string();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["-W", "1", "-H", "3"], "--width 1"),
        (vec!["-W", "3", "-H", "0"], "--height 0"),
        (vec!["-W", "11", "-H", "3"], "--width 11"),
        (vec!["--dict", &missing], "no-such-dictionary.txt"),
        (vec!["--dict", &empty], "empty.txt"),
        (vec!["--dict", &upper], "no usable words"),
        (vec!["--dict", &binary], "line 2: not UTF-8"),
        (vec!["--count", "0"], "--count"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["squares"];
        all.extend(args.iter().copied());
        let run = crossat(&all, None);
        assert_eq!(run.code, 2, "{all:?}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{all:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{all:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().filter(|l| l.contains("error")).count(), 1, "{all:?}: {}", run.stderr);
    }
}

/// The DIMACS export is the same formula: an external solver's model, read back through
/// the `c cell` comments, is a grid whose rows and columns are dictionary words.
#[test]
fn squares_dimacs_round_trip_through_cadical() {
    let Some(cadical) = crate::dimacs::cadical() else { return };
    let dict_path = write_dict("rt.txt", SMALL.as_bytes());
    let cnf = write_dict("rt.cnf", b"");
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &dict_path, "--dimacs", &cnf], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = std::fs::read_to_string(&cnf).expect("cnf");
    let out = std::process::Command::new(cadical).arg(&cnf).output().expect("cadical");
    let model: BTreeSet<i64> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("v "))
        .flat_map(|l| l[2..].split_whitespace().map(|t| t.parse::<i64>().expect("literal")).collect::<Vec<_>>())
        .filter(|&l| l > 0)
        .collect();
    let mut grid = vec![vec!["??".to_string(); 3]; 3];
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["c", "blank", v, r, c] if model.contains(&v.parse::<i64>().expect("var")) => {
                grid[r.parse::<usize>().expect("row")][c.parse::<usize>().expect("col")] = "  ".into();
            }
            ["c", "cell", v, r, c, p] if model.contains(&v.parse::<i64>().expect("var")) => {
                grid[r.parse::<usize>().expect("row")][c.parse::<usize>().expect("col")] = p.trim_matches('"').into();
            }
            _ => {}
        }
    }
    // The export has no no-repeat clauses (they are added lazily while solving), so the
    // external model may repeat a word; everything else must hold.
    let rows: Vec<String> = grid.iter().map(|r| r.concat()).collect();
    match rule_check(&rows, &words_of(SMALL)) {
        Ok(()) => {}
        Err(e) => assert!(e.contains(" is used twice "), "{e}\n{rows:#?}"),
    }
}

/// The squares a run printed, each checked against the rules and the dictionary.
fn printed_squares(stdout: &str, words: &BTreeSet<String>) -> Vec<Vec<String>> {
    json_lines(stdout)
        .iter()
        .filter(|l| l["type"] == "solution")
        .map(|l| {
            let rows: Vec<String> = l["grid"].as_array().expect("grid").iter().map(|r| r.as_str().expect("row").to_string()).collect();
            rule_check(&rows, words).unwrap_or_else(|e| panic!("a printed square breaks the rules: {e}\n{rows:#?}"));
            rows
        })
        .collect()
}

const DOCTEST: &str = "past\nnear\nedge\nneed\npage\nstar\n";

/// Without `star` the doctest words have no 3×3 square (both of its squares use all
/// six words): the search says it exhausted the space, and SAT proves it.
#[test]
fn a_dictionary_without_squares_is_proven_empty() {
    let path = write_dict("nosquare.txt", b"past\nnear\nedge\nneed\npage\n");
    assert!(brute_force(&words_of("past\nnear\nedge\nneed\npage\n"), 3, 3).is_empty());
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path, "--prove-none"], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("no 3x3 square exists") && run.stdout.contains("proven by the SAT solver"), "{}", run.stdout);
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path], None);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.contains("no 3x3 square exists") && run.stdout.contains("exhausted"), "{}", run.stdout);
}

/// The doctest words make exactly two 3×3 squares (one and its transpose): both
/// methods print both and say the search is exhausted; `--prove-none` prints one.
#[test]
fn exactly_two_squares_by_both_methods() {
    let path = write_dict("two.txt", DOCTEST.as_bytes());
    let d = words_of(DOCTEST);
    let expected = brute_force(&d, 3, 3);
    assert_eq!(expected.len(), 2);
    for method in ["search", "sat"] {
        let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path, "--count", "5", "--json", "--method", method], None);
        assert_eq!(run.code, 0, "{method}: {}", run.stderr);
        let got: BTreeSet<Vec<String>> = printed_squares(&run.stdout, &d).into_iter().collect();
        assert_eq!(got, expected, "{method}");
        let summary = json_lines(&run.stdout).pop().expect("summary");
        assert_eq!((summary["solutions"].as_u64(), summary["complete"].as_bool()), (Some(2), Some(true)), "{method}");
        assert_eq!(summary["method"], method);
    }
    let run = crossat(&["squares", "-W", "3", "-H", "3", "--dict", &path, "--prove-none", "--json"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(expected.contains(&printed_squares(&run.stdout, &d)[0]));
}

/// Larger squares from the built-in list: every printed square passes the rule check,
/// a seed always gives the same square, and seeds differ.
#[test]
fn searched_squares_are_valid_and_repeatable_per_seed() {
    let d = Dictionary::default().words;
    let grid = |seed: &str| {
        let run = crossat(&["squares", "-W", "5", "-H", "4", "--seed", seed, "--json", "--count", "2"], None);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let squares = printed_squares(&run.stdout, &d);
        assert_eq!(squares.len(), 2);
        assert_ne!(squares[0], squares[1]);
        squares
    };
    let seeds: Vec<Vec<Vec<String>>> = ["1", "2", "3"].iter().map(|s| grid(s)).collect();
    assert_eq!(grid("1"), seeds[0]);
    assert_eq!(grid("3"), seeds[2]);
    let firsts: BTreeSet<&Vec<String>> = seeds.iter().map(|s| &s[0]).collect();
    assert!(firsts.len() >= 2, "three seeds gave one square: {seeds:?}");
}

/// `--given` fixes cells: the printed square keeps them, under both methods; cells
/// that no square completes give exit 1 (proven by SAT with `--prove-none`).
#[test]
fn given_cells_are_respected() {
    let path = write_dict("given.txt", DOCTEST.as_bytes());
    let d = words_of(DOCTEST);
    // Fixing `st` in the bottom-left cell leaves only the transpose of the doctest square.
    let given = write_dict("given-grid.txt", b"# a setter's partial grid\n?  ?  ?\n?  -  ?\nst ?  ?\n");
    for method in ["search", "sat"] {
        let run = crossat(
            &["squares", "-W", "3", "-H", "3", "--dict", &path, "--given", &given, "--count", "3", "--json", "--method", method],
            None,
        );
        assert_eq!(run.code, 0, "{method}: {}", run.stderr);
        let got = printed_squares(&run.stdout, &d);
        assert_eq!(got, vec![vec!["  need".to_string(), "pa  ge".into(), "star  ".into()]], "{method}");
        let summary = json_lines(&run.stdout).pop().expect("summary");
        assert_eq!((summary["complete"].as_bool(), summary["given_cells"].as_u64()), (Some(true), Some(2)));
    }
    let blocked = write_dict("given-blocked.txt", b"pa ? ?\n? ? ?\n? ? ?\n");
    for extra in [&[][..], &["--prove-none"][..]] {
        let mut args = vec!["squares", "-W", "3", "-H", "3", "--dict", &path, "--given", &blocked];
        args.extend(extra);
        let run = crossat(&args, None);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        assert!(run.stdout.contains("no completion of the given cells"), "{}", run.stdout);
    }
}

/// A progress line goes to stderr only when it is a terminal: piped, a run is silent
/// (beyond the dictionary line); the test hook forces it, `--quiet` silences it.
#[test]
fn squares_progress_only_on_a_terminal() {
    let run = crossat(&["squares", "-W", "4", "-H", "4"], None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("squares:"), "{}", run.stderr);
    let forced = crate::common::crossat_env(&["squares", "-W", "4", "-H", "4"], &[("CROSSAT_PROGRESS_MS", "1")]);
    assert!(forced.stderr.contains("crossat: 4x4 squares: "), "{}", forced.stderr);
}

/// Bad partial grids: one clear error, exit 2.
#[test]
fn squares_bad_given_exits_2() {
    let cases: [(&[u8], &str); 5] = [
        (b"ab ? ?\n? ? ?\n", "2 rows"),
        (b"ab ? ?\n? ? ?\n? ? ?\n? ? ?\n", "more than 3 rows"),
        (b"ab ? \n? ? ?\n? ? ?\n", "line 1: 2 cells"),
        (b"AB ? ?\n? ? ?\n? ? ?\n", "`AB` is not a cell"),
        (b"ab ? ?\n? \xff ?\n? ? ?\n", "invalid UTF-8"),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let path = write_dict(&format!("bad-given-{i}.txt"), text);
        let run = crossat(&["squares", "-W", "3", "-H", "3", "--given", &path], None);
        assert_eq!(run.code, 2, "{needle}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{needle}: {}", run.stderr);
        assert_eq!(run.stderr.lines().filter(|l| l.contains("error")).count(), 1, "{}", run.stderr);
    }
}
