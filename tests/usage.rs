//! What a newcomer meets first on the command line: help for every command (and for
//! `help`), the command table of docs/cli.md, columns that line up, messages that say
//! what went wrong (issue 39).

use crate::common::{crossat, root};

/// The command names listed by `crossat --help`.
fn commands() -> Vec<String> {
    let help = crossat(&["--help"], None);
    assert_eq!(help.code, 0, "{help:?}");
    let listed = help.stdout.split("Commands:\n").nth(1).expect("a Commands: section");
    listed.lines().take_while(|l| l.starts_with("  ")).filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect()
}

#[test]
fn help_takes_help_and_prints_a_commands_help() {
    let own = crossat(&["help", "--help"], None);
    assert_eq!(own.code, 0, "{own:?}");
    assert!(own.stdout.contains("Usage: crossat help [OPTIONS] [COMMAND]"), "{}", own.stdout);
    assert_eq!(crossat(&["help", "-h"], None).code, 0);
    for cmd in commands() {
        let via_help = crossat(&["help", &cmd], None);
        let direct = crossat(&[&cmd, "--help"], None);
        assert_eq!((via_help.code, &via_help.stdout), (0, &direct.stdout), "crossat help {cmd}");
    }
    assert_eq!(crossat(&["help"], None).stdout, crossat(&["--help"], None).stdout);
    let unknown = crossat(&["help", "solv"], None);
    assert_eq!(unknown.code, 2, "{unknown:?}");
    assert!(unknown.stderr.contains("'solv'"), "{}", unknown.stderr);
}

#[test]
fn the_command_table_of_cli_md_lists_every_command() {
    let cli_md = std::fs::read_to_string(root().join("docs/cli.md")).expect("docs/cli.md");
    let table = cli_md.split("| command | purpose |").nth(1).expect("the command table");
    let rows: Vec<&str> = table.lines().skip(2).take_while(|l| l.starts_with('|')).collect();
    for cmd in commands() {
        let link = format!("[`crossat {cmd}`](#crossat-{cmd})");
        assert!(rows.iter().any(|r| r.starts_with(&format!("| {link} |"))), "docs/cli.md's command table has no row for {cmd}");
        assert!(cli_md.contains(&format!("\n## crossat {cmd}\n")), "docs/cli.md has no section for crossat {cmd}");
    }
    assert_eq!(rows.len(), commands().len(), "a row for a command crossat does not have: {rows:#?}");
}

/// Where (in characters) each line has `find`'s match, for lines that have one.
fn columns_of<'a>(lines: impl Iterator<Item = &'a str>, find: impl Fn(&str) -> Option<usize>) -> Vec<usize> {
    lines.filter_map(|l| find(l).map(|byte| l[..byte].chars().count())).collect()
}

#[test]
fn list_lines_up_ids_and_names_past_long_sizes() {
    let r = crossat(&["list", "puzzles/regexcrossword-com/challenges.json"], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("hexagon of sides 1, 2, 2"), "{}", r.stdout);
    // The id is the only 36-character word with four dashes.
    let is_id = |w: &str| w.len() == 36 && w.matches('-').count() == 4;
    let id_at = |l: &str| l.split(' ').find(|w| is_id(w)).map(|w| w.as_ptr() as usize - l.as_ptr() as usize);
    let starts = columns_of(r.stdout.lines(), id_at);
    assert_eq!(starts.len(), r.stdout.lines().count(), "a line without an id: {}", r.stdout);
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "ids not in one column: {starts:?}\n{}", r.stdout);
}

#[test]
fn stats_clue_table_lines_up_long_labels() {
    let r = crossat(&["solve", "--stats", "puzzles/antoine-trux/MIT.input.txt"], None);
    assert_eq!(r.code, 0, "{r:?}");
    let table: Vec<&str> =
        r.stderr.lines().skip_while(|l| !l.starts_with("stats: clue ")).take_while(|l| l.starts_with("stats: ")).collect();
    assert!(table.iter().any(|l| l.contains("NE-SW diagonal 10 (read down)")), "{table:#?}");
    assert!(table.len() > 30, "{table:#?}");
    // The route column starts, and the last column ends, at one place on every line.
    let routes = ["route", "regular", "tagged", "bounded", "loop", "counterexample", "position"];
    let route_at = |l: &str| routes.iter().filter_map(|r| l.find(&format!(" {r} ")).map(|i| i + 1)).min();
    let starts = columns_of(table.iter().copied(), route_at);
    assert_eq!(starts.len(), table.len(), "a line without a route: {table:#?}");
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "routes not in one column: {starts:?}\n{table:#?}");
    let ends: Vec<usize> = table.iter().map(|l| l.chars().count()).collect();
    assert!(ends.windows(2).all(|w| w[0] == w[1]), "right edges differ: {ends:?}\n{table:#?}");
}

/// One rule (docs/cli.md, Difficulty): a puzzle with several solutions is unrated, also
/// when the rating's own proof stopped at its limits before it could tell.
#[test]
fn a_puzzle_with_several_solutions_is_unrated() {
    let file = "puzzles/binoternary/1389923839891520.json";
    let text = crossat(&["solve", "--stats", file], None);
    assert_eq!(text.code, 0, "{text:?}");
    assert!(text.stdout.contains("not unique"), "{}", text.stdout);
    let line = text.stderr.lines().find(|l| l.starts_with("stats: difficulty ")).expect("a difficulty line");
    assert!(line.starts_with("stats: difficulty unrated: "), "{line}");
    assert!(line.contains("; not unique (") && !line.contains("stopped at its limits"), "{line}");
    let json = crossat(&["solve", "--stats", "--json", file], None);
    let summary = crate::common::json_lines(&json.stdout).pop().expect("a summary");
    assert_eq!(summary["unique"], false, "{summary}");
    let rating = &summary["stats"]["difficulty"];
    assert!(rating["class"].is_null() && rating["solutions"] == 2, "{rating}");
}

/// Explanations and hints name every letter visibly: a space as `␣`, another
/// invisible character by its code point (the page shows the same library text).
#[test]
fn prose_shows_spaces_and_invisible_letters() {
    let dir = crate::common::tmp();
    // Row 1 needs two spaces, and only two cells can hold one; no solution in the end.
    let spaces = r#"{"left": [".* .* .*", "[AB]*"], "top": ["A?[ B]", "[A ]B", "A?[ B]", "[AB]*"]}"#;
    let file = crate::common::write_file(dir.path(), "spaces.json", spaces);
    let r = crossat(&["explain", file.to_str().expect("UTF-8")], None);
    assert_eq!(r.code, 1, "{r:?}");
    for want in ["needs 2 ␣'s and only", ": not A; it is ␣", ": not ␣; no letter left", ": not ␣ B; it is A"] {
        assert!(r.stdout.contains(want), "no {want:?} in:\n{}", r.stdout);
    }
    assert!(r.stdout.lines().all(|l| !l.ends_with(' ')), "a line ends in a space:\n{}", r.stdout);
    assert!(!r.stdout.contains("  '") && !r.stdout.contains("not  "), "{}", r.stdout);
    let json = crossat(&["explain", "--json", file.to_str().expect("UTF-8")], None);
    assert!(json.stdout.contains("needs 2 ␣'s and only"), "{}", json.stdout);
    // A no-break space: its code point, in an explanation and in a hint.
    let nbsp = crate::common::write_file(dir.path(), "nbsp.json", "{\"left\": [\"\u{a0}A\"], \"top\": [\"\u{a0}\", \"A\"]}");
    let nbsp = nbsp.to_str().expect("UTF-8");
    let r = crossat(&["explain", nbsp], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("it is U+00A0"), "{}", r.stdout);
    assert!(!r.stdout.lines().filter(|l| l.contains("it is")).any(|l| l.contains('\u{a0}')), "{}", r.stdout);
    let r = crossat(&["hint", nbsp], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("(row 1, column 1) is 'U+00A0'"), "{}", r.stdout);
    assert!(!r.stdout.contains("'\u{a0}'"), "{}", r.stdout);
}

/// `check` on a grid typed in lower case says that case is the problem when the
/// upper-case grid passes.
#[test]
fn check_says_when_only_the_case_is_wrong() {
    let dir = crate::common::tmp();
    let p = "puzzles/seed000/problem1.json";
    let lower = crate::common::write_file(dir.path(), "lower.txt", "he\nlp\n");
    let r = crossat(&["check", p, lower.to_str().expect("UTF-8")], None);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("invalid: 3 of 4 clues fail"), "{}", r.stdout);
    assert!(r.stdout.contains("note: the grid has lower-case letters, and in upper case it matches every clue"), "{}", r.stdout);
    let json = crossat(&["check", "--json", p, lower.to_str().expect("UTF-8")], None);
    let summary = crate::common::json_lines(&json.stdout).pop().expect("a summary");
    assert_eq!((summary["valid"].clone(), summary["upper_case_valid"].clone()), (false.into(), true.into()), "{summary}");
    // Wrong in upper case too: no note.
    let wrong = crate::common::write_file(dir.path(), "wrong.txt", "hx\nlp\n");
    let r = crossat(&["check", p, wrong.to_str().expect("UTF-8")], None);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!r.stdout.contains("lower-case"), "{}", r.stdout);
    let upper = crate::common::write_file(dir.path(), "upper.txt", "HE\nLP\n");
    assert_eq!(crossat(&["check", p, upper.to_str().expect("UTF-8")], None).code, 0);
}

/// `squares` draws with Unicode boxes like every other grid, and with `--ascii` in ASCII.
#[test]
fn squares_draw_unicode_boxes_or_ascii() {
    let dict = "puzzles/squares/doctest.txt";
    let run = |extra: &[&str]| {
        let mut args = vec!["squares", "-W", "3", "-H", "3", "--dict", dict, "-q", "--seed", "1"];
        args.extend(extra);
        let r = crossat(&args, None);
        assert_eq!(r.code, 0, "{r:?}");
        r.stdout
    };
    let boxes = run(&[]);
    let lines: Vec<&str> = boxes.lines().collect();
    assert!(lines[0] == "┌──┬──┬──┐" && lines[2] == "├──┼──┼──┤" && lines[6] == "└──┴──┴──┘", "{boxes}");
    assert!(lines[1].starts_with('│') && lines[1].ends_with('│') && !boxes.contains('+'), "{boxes}");
    let ascii = run(&["--ascii"]);
    assert!(ascii.starts_with("+--+--+--+\n|") && !ascii.contains('─'), "{ascii}");
    // The same square either way.
    let cells = |s: &str| s.lines().filter(|l| l.starts_with(['|', '│'])).map(|l| l.replace('│', "|")).collect::<Vec<_>>();
    assert_eq!(cells(&boxes), cells(&ascii));
}

/// A model with many more variables than the puzzle's CNF is decoded with a note.
#[test]
fn solve_model_notes_a_model_of_a_bigger_formula() {
    let Some(cadical) = crate::dimacs::cadical() else { return };
    let dir = crate::common::tmp();
    let p = "puzzles/seed000/problem1.json";
    let cnf = dir.path().join("p.cnf");
    let r = crossat(&["dimacs", p, "-o", cnf.to_str().expect("UTF-8")], None);
    assert_eq!(r.code, 0, "{r:?}");
    let out = std::process::Command::new(cadical).arg(&cnf).output().expect("run cadical");
    assert_eq!(out.status.code(), Some(10), "{out:?}");
    let model = String::from_utf8_lossy(&out.stdout).into_owned();
    let fits = crate::common::write_file(dir.path(), "fits.out", &model);
    let r = crossat(&["solve", p, "--model", fits.to_str().expect("UTF-8")], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("note:"), "{}", r.stderr);
    let bigger = crate::common::write_file(dir.path(), "bigger.out", format!("{model}v 5000 -5001 0\n"));
    let r = crossat(&["solve", p, "--model", bigger.to_str().expect("UTF-8")], None);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("sets variables up to 5001, but this puzzle's CNF has"), "{}", r.stderr);
}
