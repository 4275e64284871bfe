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
