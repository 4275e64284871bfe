//! The manual page and the shell completions, both written from [`command`]'s
//! description of the command line.

use crate::cli::command;
use crate::exit::ExitCode;

/// Writes the completion script of `shell` for `crossat`.
pub fn completions(shell: clap_complete::Shell, out: &mut dyn std::io::Write) {
    clap_complete::generate(shell, &mut command(), "crossat", out);
}

/// The manual's sections beyond the commands: each a heading and its paragraphs.
const MAN_SECTIONS: &[(&str, &[&str])] = &[
    (
        "DIFFICULTY",
        &[
            "crossat generate --difficulty, and solve --stats, rate a puzzle by the kinds of step crossat explain needs to show that its solution is the only one:",
            "easy: propagating every line's possibilities to a fixpoint (each clue keeps the letters that some match of its line can use, given the other cells' letters) fixes every cell; no probes, no decisions.",
            "medium: not easy, but probing finishes it: a letter is tried in an undecided cell and the lines propagated; when that fails, the letter is ruled out; repeated until nothing changes. Probes > 0, no decisions.",
            "hard: the proof needs search decisions: a cell that propagation and probing leave with several letters is split into them, each branch propagated and probed in turn, until every branch but the solution's has failed. At least one decision.",
            "The proof's search stops at 20,000 probes past the first probing or 1,000 decisions; the class is then hard and the counts are lower bounds. A puzzle with no solution or several is unrated.",
            "--difficulty hard builds its clues from alternations of whole words, which only search can tell apart; back-references and lookarounds would let line propagation decide such clues, so --difficulty hard cannot be combined with --backrefs or --lookarounds. It needs at least 2 rows and 2 columns, and a rectangle.",
        ],
    ),
    (
        "DIALECTS",
        &[
            "A clue is a regular expression in one of two dialects. python (the default for most formats): Python 3.11's re module, its syntax, its flags ((?i), (?x), (?a), (?s), (?m), (?u)), its Unicode classes, and re.fullmatch's meaning on the line's letters; a clue that Python refuses is refused with Python's message and position. ecmascript (the default for regexcrossword.com's challenges.json, and for crossat JSON with \"dialect\": \"ecmascript\"): JavaScript's RegExp without flags, with Annex B, as new RegExp('^(?:' + clue + ')$').test(line); a clue that RegExp refuses is refused with its message.",
            "--dialect python|ecmascript overrides the puzzle's dialect; crossat lint lists the clues whose meaning differs between the two. Back-references and lookarounds are supported in both; in Python a back-reference inside a lookaround is not. docs/format.md in crossat's source lists the differences, what is encoded exactly and the limits.",
        ],
    ),
];

/// The page as groff reads it without a preprocessor: every character outside ASCII
/// written as its escape (`…` as `\[u2026]`).
fn roff_ascii(page: &str) -> String {
    let mut s = String::with_capacity(page.len());
    for c in page.chars() {
        if c.is_ascii() {
            s.push(c);
        } else {
            s.push_str(&format!("\\[u{:04X}]", u32::from(c)));
        }
    }
    s
}

/// Writes the manual page (roff): the program, its global options, every command with
/// its long help and options, the difficulty classes, the dialects, the input formats
/// and the exit statuses.
pub fn man(out: &mut crate::print::Printer<'_>) -> crossat::Result<()> {
    let mut page = Vec::new();
    man_page(&mut page).map_err(|e| crossat::Error::Internal(format!("cannot render the manual page: {e}")))?;
    write!(out, "{}", roff_ascii(&String::from_utf8_lossy(&page)))
}

fn man_page(out: &mut dyn std::io::Write) -> std::io::Result<()> {
    use clap::ValueEnum;
    let cmd = command();
    let page = clap_mangen::Man::new(cmd.clone());
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    page.render_description_section(out)?;
    page.render_options_section(out)?;
    // The commands, each described in its own section below.
    let mut list = clap_mangen::roff::Roff::new();
    list.control("SH", ["COMMANDS"]);
    for sub in cmd.get_subcommands() {
        list.control("TP", []);
        list.text([clap_mangen::roff::bold(format!("crossat {}", sub.get_name()))]);
        list.text([clap_mangen::roff::roman(sub.get_about().map(ToString::to_string).unwrap_or_default())]);
    }
    list.to_writer(out)?;
    // Each command: its synopsis and options, under a section of its own.
    for sub in cmd.get_subcommands() {
        let name = format!("crossat {}", sub.get_name());
        let sub_page = clap_mangen::Man::new(sub.clone().bin_name(name.clone()));
        let mut text = Vec::new();
        sub_page.render_synopsis_section(&mut text)?;
        sub_page.render_description_section(&mut text)?;
        sub_page.render_options_section(&mut text)?;
        writeln!(out, ".SH \"{}\"", name.to_uppercase())?;
        for line in String::from_utf8_lossy(&text).lines() {
            // The command's own sections become subsections of its section.
            match line.strip_prefix(".SH ") {
                Some(heading) => writeln!(out, ".SS {heading}")?,
                None => writeln!(out, "{line}")?,
            }
        }
    }
    let mut roff = clap_mangen::roff::Roff::new();
    for (heading, paragraphs) in MAN_SECTIONS {
        roff.control("SH", [*heading]);
        for p in *paragraphs {
            roff.control("PP", []);
            roff.text([clap_mangen::roff::roman(*p)]);
        }
    }
    roff.control("SH", ["FORMATS"]);
    roff.text([clap_mangen::roff::roman(
        "The puzzle format is detected from the content; --format forces one of these (crossat's documentation, docs/format.md in its source, describes each):",
    )]);
    for f in crossat::puzzle::Format::value_variants() {
        if let Some(v) = f.to_possible_value() {
            roff.control("TP", []);
            roff.text([clap_mangen::roff::bold(v.get_name())]);
            roff.text([clap_mangen::roff::roman(v.get_help().map(ToString::to_string).unwrap_or_default())]);
        }
    }
    roff.control("SH", ["EXIT STATUS"]);
    for code in ExitCode::DOCUMENTED {
        roff.control("TP", []);
        roff.text([clap_mangen::roff::bold(code.code().to_string())]);
        roff.text([clap_mangen::roff::roman(code.meaning())]);
    }
    roff.to_writer(out)?;
    page.render_version_section(out)
}
