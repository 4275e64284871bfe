//! The `crossat` binary as a user runs it: output formats, options, exit codes.
//!
//! Small puzzles are written here with a brute-force oracle: the clues' meaning is
//! restated as Rust predicates and every grid over the alphabet is tried, so expected
//! solution sets never come from crossat itself.

use crate::common::{
    arg, crossat, json_lines, json_solutions, parse_dimacs, parse_text_grids, parse_trux_expected, puzzle, read_text, write_file,
};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A 2×2 puzzle with several solutions; its alphabet is the letters the clues mention, ABC.
const TINY: &str = r#"{"left": ["[AB]+", "A.|.A"], "top": ["[^C]*", "(.)[BC]"]}"#;
const TINY_ALPHABET: &[char] = &['A', 'B', 'C'];

/// TINY's clues as predicates on the cells `[a, b, c, d]` (rows `ab`, `cd`).
fn tiny_holds(g: &[char]) -> bool {
    let row1 = g[0..2].iter().all(|c| "AB".contains(*c));
    let row2 = g[2] == 'A' || g[3] == 'A';
    let col1 = g[0] != 'C' && g[2] != 'C';
    let col2 = "BC".contains(g[3]);
    row1 && row2 && col1 && col2
}

/// Every `rows × cols` grid over `alphabet` for which `holds` is true, as display rows.
fn brute_force(alphabet: &[char], rows: usize, cols: usize, holds: impl Fn(&[char]) -> bool) -> BTreeSet<Vec<String>> {
    let n = rows * cols;
    let mut idx = vec![0; n];
    let mut out = BTreeSet::new();
    loop {
        let cells: Vec<char> = idx.iter().map(|&i| alphabet[i]).collect();
        if holds(&cells) {
            let _ = out.insert(cells.chunks(cols).map(|r| r.iter().collect()).collect());
        }
        // Next combination, odometer style.
        let mut k = 0;
        while k < n && idx[k] + 1 == alphabet.len() {
            idx[k] = 0;
            k += 1;
        }
        if k == n {
            return out;
        }
        idx[k] += 1;
    }
}

fn tiny_solutions() -> BTreeSet<Vec<String>> {
    let s = brute_force(TINY_ALPHABET, 2, 2, tiny_holds);
    assert!(s.len() >= 4, "the test needs a puzzle with several solutions");
    s
}

fn tiny_file(dir: &Path) -> PathBuf {
    write_file(dir, "tiny.json", TINY)
}

/// The status line of text output: the first line after the grids.
fn status(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| {
            ["unique:", "not unique:", "no solution", "verified:"].iter().any(|p| l.starts_with(p))
                || l.split(' ').nth(1).is_some_and(|w| w.starts_with("solution"))
        })
        .unwrap_or_else(|| panic!("no status line: {stdout}"))
}

fn rows(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn solve_prints_a_bordered_grid_and_a_uniqueness_line() {
    let r = crossat(&["solve", "puzzles/seed000/problem3.json"], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    let expected: Vec<String> = read_text(&puzzle("seed000/problem3.expected")).lines().map(str::to_string).collect();
    assert_eq!(parse_text_grids(&r.stdout), vec![expected]);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let borders: Vec<usize> = (0..lines.len()).filter(|&k| lines[k].trim_start().starts_with(['┌', '├', '└'])).collect();
    assert_eq!(borders.len(), 4, "borders above, between and below rows: {}", r.stdout);
    assert!(lines[borders[0]].ends_with("┌───┬───┬───┐"), "{}", r.stdout);
    let at = lines.iter().position(|l| *l == status(&r.stdout)).expect("status line");
    assert!(at > borders[3], "the status line follows the grid and its clues");
    assert!(status(&r.stdout).contains("unique"), "{}", r.stdout);
}

#[test]
fn text_grid_cells_are_fixed_width_even_for_bars_and_spaces() {
    // hamlet_3's solution holds spaces.
    let expected = parse_trux_expected(&read_text(&puzzle("antoine-trux/hamlet_3.output_expected.txt")));
    assert!(expected.grids[0].iter().any(|r| r.contains(' ')));
    let r = crossat(&["solve", "puzzles/antoine-trux/hamlet_3.input.txt"], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(parse_text_grids(&r.stdout), vec![expected.grids[0].clone()]);
    // Literal clues: the only grid is `|` then a space, drawn `||| |`.
    let dir = tempfile::tempdir().expect("tempdir");
    let file = write_file(dir.path(), "bars.json", r#"{"left": ["\\| "], "top": ["\\|", " "]}"#);
    let r = crossat(&["solve", arg(&file)], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.lines().any(|l| l == "\\|  │ | │ ␣ │"), "{}", r.stdout);
    let ascii = crossat(&["solve", "--ascii", arg(&file)], None);
    assert!(ascii.stdout.lines().any(|l| l == "\\|  | | |   |"), "{}", ascii.stdout);
    assert!(ascii.stdout.contains("legend: a blank cell holds a space; '|' inside a cell is the cell's letter"), "{}", ascii.stdout);
    assert_eq!(parse_text_grids(&r.stdout), vec![rows(&["| "])]);
}

#[test]
fn json_output_follows_the_contract() {
    let expected = parse_trux_expected(&read_text(&puzzle("antoine-trux/hamlet_3.output_expected.txt")));
    let r = crossat(&["solve", "--json", "puzzles/antoine-trux/hamlet_3.input.txt"], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.is_empty());
    let (grids, summary) = json_solutions(&r.stdout);
    assert_eq!(grids, vec![expected.grids[0].clone()]);
    assert_eq!(summary["solutions"], 1);
    assert_eq!(summary["complete"], true);
    assert_eq!(summary["unique"], true);
    assert!(summary.get("stats").is_none(), "stats only with --stats");
    // Exactly one solution object per line, with just a type and a grid.
    let first = &json_lines(&r.stdout)[0];
    assert_eq!(first.as_object().expect("object").len(), 2, "{first}");
}

#[test]
fn all_lists_every_solution_then_the_exact_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = tiny_file(dir.path());
    let want = tiny_solutions();
    let r = crossat(&["solve", "--all", "--json", arg(&file)], None);
    assert_eq!(r.code, 0, "{r:?}");
    let (grids, summary) = json_solutions(&r.stdout);
    assert_eq!(grids.len(), want.len(), "no grid twice");
    assert_eq!(grids.into_iter().collect::<BTreeSet<_>>(), want);
    assert_eq!(summary["solutions"], want.len());
    assert_eq!(summary["complete"], true);
    assert_eq!(summary["unique"], false);
    assert_eq!(summary["alphabet"], "ABC");

    let r = crossat(&["solve", "--all", arg(&file)], None);
    assert_eq!(r.code, 0, "{r:?}");
    let drawn = parse_text_grids(&r.stdout);
    assert_eq!(drawn.into_iter().collect::<BTreeSet<_>>(), want);
    let status = status(&r.stdout);
    assert!(status.contains(&format!("{} solutions", want.len())) && status.contains("exhausted"), "{status}");
}

#[test]
fn default_solve_of_an_ambiguous_puzzle_shows_one_grid_and_says_not_unique() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = tiny_file(dir.path());
    let r = crossat(&["solve", arg(&file)], None);
    assert_eq!(r.code, 0, "{r:?}");
    let drawn = parse_text_grids(&r.stdout);
    assert_eq!(drawn.len(), 1);
    assert!(tiny_solutions().contains(&drawn[0]));
    assert!(status(&r.stdout).contains("not unique"), "{}", r.stdout);
    let (grids, summary) = json_solutions(&crossat(&["solve", "--json", arg(&file)], None).stdout);
    assert_eq!(grids.len(), 2, "two solutions are looked for to decide uniqueness");
    assert_eq!((summary["unique"].clone(), summary["complete"].clone()), (Value::Bool(false), Value::Bool(false)));
}

#[test]
fn limit_stops_early_and_says_the_search_is_incomplete() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = tiny_file(dir.path());
    let want = tiny_solutions();
    let r = crossat(&["solve", "--limit", "3", "--json", arg(&file)], None);
    assert_eq!(r.code, 0, "{r:?}");
    let (grids, summary) = json_solutions(&r.stdout);
    assert_eq!(grids.len(), 3);
    assert!(grids.iter().all(|g| want.contains(g)), "{grids:?}");
    assert_eq!(grids.iter().collect::<BTreeSet<_>>().len(), 3);
    assert_eq!(summary["solutions"], 3);
    assert_eq!(summary["complete"], false);
    assert_eq!(summary["unique"], false);

    let r = crossat(&["solve", "--limit", "3", arg(&file)], None);
    assert_eq!(parse_text_grids(&r.stdout).len(), 3);
    assert!(status(&r.stdout).contains("limit reached"), "{}", r.stdout);

    // A limit above the count: the search ends by itself and is complete.
    let (grids, summary) = json_solutions(&crossat(&["solve", "--limit", "100", "--json", arg(&file)], None).stdout);
    assert_eq!((grids.len(), summary["complete"].clone()), (want.len(), Value::Bool(true)));
}

#[test]
fn limit_one_on_a_unique_puzzle_does_not_claim_uniqueness() {
    let r = crossat(&["solve", "--limit", "1", "--json", "puzzles/seed000/problem1.json"], None);
    let (grids, summary) = json_solutions(&r.stdout);
    assert_eq!(grids, vec![rows(&["HE", "LP"])]);
    assert_eq!(summary["complete"], false);
    assert_eq!(summary["unique"], Value::Null);
}

#[test]
fn puzzle_from_stdin() {
    let bytes = std::fs::read(puzzle("seed000/problem3.json")).expect("read");
    let r = crossat(&["solve", "--json", "-"], Some(&bytes));
    assert_eq!(r.code, 0, "{r:?}");
    let (grids, summary) = json_solutions(&r.stdout);
    assert_eq!(grids, vec![rows(&["NOS", "FER", "ATU"])]);
    assert_eq!(summary["unique"], true);
    // Any format, detected from the content.
    let bytes = std::fs::read(puzzle("antoine-trux/beginner_1.input.txt")).expect("read");
    let r = crossat(&["solve", "--json", "-"], Some(&bytes));
    assert_eq!(json_solutions(&r.stdout).0, vec![rows(&["HE", "LP"])]);
}

#[test]
fn given_cells_narrow_the_solutions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = tiny_file(dir.path());
    let all = tiny_solutions();
    let consistent = |given: &[&str]| -> BTreeSet<Vec<String>> {
        all.iter()
            .filter(|g| g.iter().zip(given).all(|(row, gr)| row.chars().zip(gr.chars()).all(|(c, x)| x == '.' || c == x)))
            .cloned()
            .collect()
    };

    // Some cells given: fewer solutions, all consistent.
    let some = ["B.", ".."];
    let want = consistent(&some);
    assert!(want.len() > 1 && want.len() < all.len());
    let g = write_file(dir.path(), "some.txt", some.join("\n"));
    let (grids, _) = json_solutions(&crossat(&["solve", "--all", "--json", arg(&file), "--given", arg(&g)], None).stdout);
    assert_eq!(grids.into_iter().collect::<BTreeSet<_>>(), want);

    // Enough cells given: unique.
    let pin = ["BA", ".C"];
    let want = consistent(&pin);
    assert_eq!(want.len(), 1);
    let g = write_file(dir.path(), "pin.txt", format!("{}\r\n{}\r\n", pin[0], pin[1]));
    let r = crossat(&["solve", arg(&file), "--given", arg(&g)], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(parse_text_grids(&r.stdout), want.into_iter().collect::<Vec<_>>());
    assert!(status(&r.stdout).starts_with("unique"), "{}", r.stdout);

    // An impossible given: no solution, exit 1.
    let none = ["..", ".A"];
    assert!(consistent(&none).is_empty());
    let g = write_file(dir.path(), "none.txt", none.join("\n"));
    let r = crossat(&["solve", arg(&file), "--given", arg(&g)], None);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("no solution"), "{}", r.stdout);
    assert!(r.stderr.is_empty(), "no solution is not an error: {}", r.stderr);
}

#[test]
fn alphabet_changes_what_dot_and_negated_classes_can_be() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = write_file(dir.path(), "dots.json", r#"{"left": ["[AB]."], "top": ["[^A]", "."]}"#);
    let holds = |g: &[char]| "AB".contains(g[0]) && g[0] != 'A';
    for (alphabet, flag) in [("AB", None), ("ABC", Some("ABC")), ("BXYZ", Some("BXYZ")), ("XY", Some("XY"))] {
        let chars: Vec<char> = alphabet.chars().collect();
        let want = brute_force(&chars, 1, 2, holds);
        let mut args = vec!["solve", "--all", "--json", arg(&file)];
        if let Some(a) = flag {
            args.extend(["--alphabet", a]);
        }
        let r = crossat(&args, None);
        assert_eq!(r.code, if want.is_empty() { 1 } else { 0 }, "{alphabet}: {r:?}");
        let (grids, summary) = json_solutions(&r.stdout);
        assert_eq!(grids.into_iter().collect::<BTreeSet<_>>(), want, "alphabet {alphabet}");
        assert_eq!(summary["solutions"], want.len());
        assert_eq!(summary["alphabet"], alphabet);
    }
}

#[test]
fn format_flag_forces_the_reader() {
    for (file, format) in [
        ("puzzles/seed000/problem1.json", "crossat"),
        ("puzzles/antoine-trux/beginner_1.input.txt", "trux"),
        ("puzzles/dkesler/beginner-1.dat", "dat"),
    ] {
        let r = crossat(&["solve", "--json", "--format", format, file], None);
        assert_eq!(r.code, 0, "{file} as {format}: {r:?}");
        assert_eq!(json_solutions(&r.stdout).0, vec![rows(&["HE", "LP"])], "{file}");
    }
    // The same JSON forced through other readers fails with their messages.
    let r = crossat(&["solve", "--format", "dat", "puzzles/seed000/problem1.json"], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("rows cols"), "{}", r.stderr);
    let r = crossat(&["solve", "--format", "challenges", "puzzles/seed000/problem1.json"], None);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("array"), "{}", r.stderr);
    let r = crossat(&["solve", "--format", "nonsense", "puzzles/seed000/problem1.json"], None);
    assert_eq!(r.code, 2, "unknown format name is a usage error");
}

#[test]
fn challenges_collection_with_id() {
    let (grids, summary) =
        json_solutions(&crossat(&["solve", "--json", "puzzles/regexcrossword-com/challenges.json", "--id", "beginner/1"], None).stdout);
    assert_eq!(grids, vec![rows(&["HE", "LP"])]);
    assert_eq!(summary["puzzle"], "beginner/1 Beatles");
    let by_uuid =
        crossat(&["solve", "--json", "puzzles/regexcrossword-com/challenges.json", "--id", "475e811a-da59-4ce8-9b80-3124b33cc041"], None);
    assert_eq!(json_solutions(&by_uuid.stdout).0, vec![rows(&["HE", "LP"])]);
}

#[test]
fn stats_report_every_stage() {
    let file = "puzzles/antoine-trux/beginner_1.input.txt";
    let plain = crossat(&["solve", file], None);
    let r = crossat(&["solve", "--stats", file], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, plain.stdout, "stats go to stderr only");
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert!(!lines.is_empty() && lines.iter().all(|l| l.starts_with("stats:")), "{}", r.stderr);
    for stage in ["parse", "compile", "encode", "solve", "verify"] {
        assert!(lines[0].contains(&format!(" {stage} ")) && lines[0].contains(" ms"), "{stage} in {}", lines[0]);
    }
    assert!(r.stderr.contains("variables") && r.stderr.contains("clauses"));
    for label in ["row 1 (left)", "row 2 (left)", "column 1 (top)", "column 2 (top)"] {
        assert!(lines.iter().any(|l| l.contains(label)), "a line for {label}: {}", r.stderr);
    }

    let r = crossat(&["solve", "--stats", "--json", file], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.is_empty(), "with --json, stats live in the summary: {}", r.stderr);
    let (_, summary) = json_solutions(&r.stdout);
    let stats = &summary["stats"];
    assert!(stats["variables"].as_u64().is_some_and(|v| v > 0), "{stats}");
    assert!(stats["clauses"].as_u64().is_some_and(|v| v > 0), "{stats}");
    let times = stats["times"].as_object().expect("times");
    for stage in ["parse", "compile", "encode", "solve", "verify"] {
        assert!(times[&format!("{stage}_ms")].as_f64().is_some_and(|t| t >= 0.0), "{stage}: {stats}");
    }
    let clues = stats["clues"].as_array().expect("per-clue stats");
    assert_eq!(clues.len(), 4);
    let per_clue: u64 = clues.iter().map(|c| c["clauses"].as_u64().expect("clauses")).sum();
    assert!(per_clue <= stats["clauses"].as_u64().expect("clauses"));
}

#[test]
fn list_describes_a_single_puzzle() {
    let r = crossat(&["list", "puzzles/seed000/problem3.json"], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.lines().count(), 1);
    assert!(r.stdout.starts_with("puzzles/seed000/problem3.json: 3x3, 12 clues"), "{}", r.stdout);
    let r = crossat(&["list", "--json", "puzzles/antoine-trux/beginner_1.input.txt"], None);
    let v = &json_lines(&r.stdout)[0];
    assert_eq!(v["type"], "puzzle");
    assert_eq!(v["size"], "2x2");
    assert_eq!(v["clues"], 4);
    assert_eq!(v["name"], "https://regexcrossword.com/challenges/beginner/puzzles/1");
}

#[test]
fn dimacs_writes_a_consistent_cnf_with_a_cell_map() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = tiny_file(dir.path());
    let out = dir.path().join("out.cnf");
    let r = crossat(&["dimacs", arg(&file), "-o", arg(&out)], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.is_empty() && r.stderr.is_empty(), "{r:?}");
    let text = std::fs::read_to_string(&out).expect("read cnf");
    let d = parse_dimacs(&text);
    assert!(!d.clauses.is_empty());
    // Every cell is mapped; variables are distinct; every letter some solution puts in a
    // cell is available there.
    let keys: Vec<(usize, usize)> = d.cells.keys().copied().collect();
    assert_eq!(keys, vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
    let vars: Vec<usize> = d.cells.values().flatten().map(|&(v, _)| v).collect();
    assert_eq!(vars.iter().collect::<BTreeSet<_>>().len(), vars.len(), "one variable per cell and letter");
    assert!(vars.iter().all(|&v| v >= 1 && v <= d.vars));
    for g in tiny_solutions() {
        for (r, row) in g.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                assert!(d.cells[&(r, c)].iter().any(|&(_, x)| x == ch), "{ch} at ({r}, {c}) of {g:?}");
            }
        }
    }
    // `-o -` (the default) writes the same text to stdout.
    let r = crossat(&["dimacs", arg(&file)], None);
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout, text);
}

#[test]
fn dimacs_cell_map_covers_every_cell_of_real_puzzles() {
    for (file, rows, cols) in [("puzzles/antoine-trux/search_required.input.txt", 2, 2), ("puzzles/antoine-trux/hamlet_3.input.txt", 4, 7)]
    {
        let r = crossat(&["dimacs", file], None);
        assert_eq!(r.code, 0, "{r:?}");
        let d = parse_dimacs(&r.stdout);
        let want: Vec<(usize, usize)> = (0..rows).flat_map(|r| (0..cols).map(move |c| (r, c))).collect();
        assert_eq!(d.cells.keys().copied().collect::<Vec<_>>(), want, "{file}");
    }
}

#[test]
fn exit_codes_are_0_solved_1_no_solution_2_bad_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let unsat = write_file(dir.path(), "unsat.json", r#"{"left": ["A"], "top": ["B"]}"#);
    let bad = write_file(dir.path(), "bad.json", r#"{"left": ["(A"], "top": ["A"]}"#);
    assert_eq!(crossat(&["solve", "puzzles/seed000/problem1.json"], None).code, 0);
    let r = crossat(&["solve", arg(&unsat)], None);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("no solution"));
    let r = crossat(&["solve", "--json", arg(&unsat)], None);
    assert_eq!(r.code, 1, "{r:?}");
    let (grids, summary) = json_solutions(&r.stdout);
    assert!(grids.is_empty());
    assert_eq!((summary["solutions"].clone(), summary["complete"].clone()), (Value::from(0), Value::Bool(true)));
    let r = crossat(&["solve", arg(&bad)], None);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stdout.is_empty(), "nothing on stdout after an error: {}", r.stdout);
}

#[test]
fn help_and_version() {
    let r = crossat(&["--help"], None);
    assert_eq!(r.code, 0, "{r:?}");
    for word in ["Usage", "solve", "dimacs", "list"] {
        assert!(r.stdout.contains(word), "{word} in {}", r.stdout);
    }
    let r = crossat(&["solve", "--help"], None);
    assert_eq!(r.code, 0, "{r:?}");
    for flag in ["--all", "--limit", "--json", "--stats", "--given", "--alphabet", "--format", "--id", "--model"] {
        assert!(r.stdout.contains(flag), "{flag} in solve --help");
    }
    let r = crossat(&["--version"], None);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains(env!("CARGO_PKG_VERSION")), "{}", r.stdout);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["solve", "--frobnicate", "puzzles/seed000/problem1.json"][..],
        &["solve"],
        &[],
        &["transmogrify", "puzzles/seed000/problem1.json"],
        &["solve", "--all", "--limit", "2", "puzzles/seed000/problem1.json"],
        &["solve", "--limit", "many", "puzzles/seed000/problem1.json"],
    ] {
        let r = crossat(args, None);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
        // Without arguments, clap shows the help (on stderr); otherwise an error line.
        assert!(args.is_empty() || r.stderr.starts_with("error:"), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("--help") && !r.stderr.contains("panicked"), "points to --help: {args:?}: {}", r.stderr);
    }
    let r = crossat(&["solve", "--frobnicate", "puzzles/seed000/problem1.json"], None);
    assert!(r.stderr.contains("--frobnicate"), "{}", r.stderr);
}

/// The subcommands a completion script must offer (every one clap declares).
const SUBCOMMANDS: &[&str] = &["solve", "dimacs", "list", "check", "hint", "blocks", "generate", "squares", "bench", "completions", "man"];

#[test]
fn completions_offer_every_subcommand() {
    for shell in ["bash", "zsh", "fish"] {
        let r = crossat(&["completions", shell], None);
        assert_eq!(r.code, 0, "{shell}: {}", r.stderr);
        for sub in SUBCOMMANDS {
            assert!(r.stdout.contains(sub), "{shell} completions do not mention `{sub}`");
        }
        // Options of a subcommand are completed too.
        assert!(r.stdout.contains("max-input-bytes") && r.stdout.contains("proof-format"), "{shell} completions lack options");
    }
    let r = crossat(&["completions", "tcsh"], None);
    assert_eq!(r.code, 2, "an unknown shell is a usage error");
    assert!(r.stderr.contains("possible values: bash"), "{}", r.stderr);
}

#[test]
fn man_page_is_roff_with_name_synopsis_commands_and_exit_status() {
    let r = crossat(&["man"], None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = &r.stdout;
    assert!(page.lines().any(|l| l.starts_with(".TH crossat 1 ")), "no title line:\n{}", &page[..page.len().min(300)]);
    let headings: Vec<&str> = page.lines().filter_map(|l| l.strip_prefix(".SH ")).collect();
    for want in ["NAME", "SYNOPSIS", "OPTIONS", "COMMANDS", "\"CROSSAT SOLVE\"", "FORMATS", "\"EXIT STATUS\""] {
        assert!(headings.contains(&want), "no section {want} in {headings:?}");
    }
    for sub in SUBCOMMANDS {
        assert!(headings.contains(&format!("\"CROSSAT {}\"", sub.to_uppercase()).as_str()), "no section for `crossat {sub}`");
    }
    // The exit statuses the help footer lists, each an entry of the section.
    let exit = page.split(".SH \"EXIT STATUS\"").nth(1).expect("exit status section");
    for code in ["0", "1", "2", "3", "4", "130", "143"] {
        assert!(exit.contains(&format!(".TP\n\\fB{code}\\fR")), "exit status {code} missing:\n{exit}");
    }
    // Every control line is a request (a dot and a name) or the empty request `.`.
    for line in page.lines() {
        if let Some(req) = line.strip_prefix('.') {
            assert!(req.chars().next().is_none_or(|c| c.is_ascii_alphabetic() || c == '\\'), "bad request line {line:?}");
        }
    }
    // groff reads the page without a warning.
    if !crate::tools::require(crate::tools::Tool::Groff) {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_file(dir.path(), "crossat.1", page);
    let out = std::process::Command::new("groff").args(["-k", "-ww", "-z", "-man"]).arg(&path).output().expect("groff");
    assert!(out.status.success() && out.stderr.is_empty(), "groff: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn help_stands_on_its_own() {
    let r = crossat(&["--help"], None);
    assert_eq!(r.code, 0);
    assert!(!r.stdout.contains("docs/"), "the help points at a path of the source tree:\n{}", r.stdout);
    assert!(r.stdout.contains("crossat man") && r.stdout.contains("Exit status: 0 solved"), "{}", r.stdout);
    for sub in ["completions", "man"] {
        assert!(r.stdout.contains(&format!("  {sub} ")), "`{sub}` missing from the help:\n{}", r.stdout);
    }
}

/// Each subcommand's own help opens with the summary `crossat --help` lists for it
/// (its arguments are declared lazily; a struct's doc comment once replaced it).
#[test]
fn subcommand_help_opens_with_its_summary() {
    let top = crossat(&["--help"], None);
    assert_eq!(top.code, 0, "{}", top.stderr);
    for sub in SUBCOMMANDS {
        let listed = top
            .stdout
            .lines()
            .find_map(|l| l.trim_start().strip_prefix(sub).filter(|rest| rest.starts_with(' ')).map(str::trim))
            .unwrap_or_else(|| panic!("`crossat --help` lists no {sub}:\n{}", top.stdout));
        let own = crossat(&["help", sub], None);
        assert_eq!(own.code, 0, "{}", own.stderr);
        assert_eq!(own.stdout.lines().next(), Some(listed), "`crossat help {sub}` opens with another summary");
    }
}
