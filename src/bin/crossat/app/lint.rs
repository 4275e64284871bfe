//! `crossat lint`: every clue whose meaning differs between the two dialects.

use crate::cli::LintArgs;
use crate::exit::ExitCode;
use crate::io::read_source;
use crate::print::Printer;
use crossat::error::Result;
use crossat::lint;
use crossat::puzzle::{self, Format, Puzzle};
use crossat::records::{self, LintVerdict};

pub(super) fn lint(args: &LintArgs, out: &mut Printer<'_>) -> Result<ExitCode> {
    let (source, bytes) = read_source(&args.file)?;
    let alphabet = args.chars.clone();
    let format = match args.format {
        Some(f) => f,
        None => puzzle::detect(&source, &bytes)?,
    };
    // A collection without --id: every puzzle of it, each named by its key.
    let puzzles: Vec<(String, Puzzle)> = if format == Format::Challenges && args.id.is_none() {
        puzzle::read_collection(&source, &bytes)?.into_iter().map(|e| e.puzzle.map(|p| (e.key, p))).collect::<Result<_>>()?
    } else {
        let pool = crate::io::pool_file(&args.file, args.pool.as_deref())?;
        let pool = pool.as_ref().map(|(name, bytes)| (name.as_str(), bytes.as_slice()));
        let p = puzzle::read(&source, &bytes, Some(format), args.id.as_deref(), pool)?;
        vec![(p.name.clone().unwrap_or_else(|| source.clone()), p)]
    };
    let (mut clues, mut differ, mut refused, mut bad, mut undecided) = (0, 0, 0, 0, 0);
    for (name, p) in &puzzles {
        let verdicts = lint::lint(&source, p, alphabet.as_deref(), &crate::stop::token())?;
        for v in verdicts {
            clues += 1;
            let Some(verdict) = v.verdict else { continue };
            let head = format!("{name}: {} '{}' ({} cells)", v.label, v.regex, v.length);
            let text = match &verdict {
                LintVerdict::Differs { witness, python, .. } => {
                    differ += 1;
                    let (yes, no) = if *python { ("Python", "ECMAScript") } else { ("ECMAScript", "Python") };
                    format!("{head}: differs: \"{}\" matches in {yes}, not in {no}", witness.escape_debug())
                }
                LintVerdict::Refused { python_error: python, ecmascript_error: ecmascript } => {
                    let by = |d: &str, e: &Option<String>| e.as_ref().map(|e| format!("{d} refuses it: {e}"));
                    let reasons: Vec<String> = [by("Python", python), by("ECMAScript", ecmascript)].into_iter().flatten().collect();
                    if python.is_some() && ecmascript.is_some() {
                        bad += 1;
                    } else {
                        refused += 1;
                    }
                    format!("{head}: {}", reasons.join("; "))
                }
                LintVerdict::Undecided { reason } => {
                    undecided += 1;
                    format!("{head}: undecided: {reason}")
                }
            };
            if args.json {
                let record = records::LintClue { puzzle: name.clone(), clue: v.label, regex: v.regex, length: v.length, verdict };
                writeln!(out, "{}", crate::print::line(&record))?;
            } else {
                writeln!(out, "{text}")?;
            }
        }
    }
    let n = puzzles.len();
    if args.json {
        let summary = records::LintSummary { puzzles: n, clues, differ, refused_by_one: refused, refused_by_both: bad, undecided };
        writeln!(out, "{}", crate::print::line(&summary))?;
    } else {
        let plural = |k: usize, w: &str| format!("{k} {w}{}", if k == 1 { "" } else { "s" });
        writeln!(
            out,
            "{}, {}: {differ} differ between Python and ECMAScript, {refused} refused by one dialect, {bad} by both, {undecided} undecided",
            plural(n, "puzzle"),
            plural(clues, "clue")
        )?;
    }
    Ok(if bad > 0 {
        ExitCode::BadInput
    } else if differ + refused > 0 {
        ExitCode::NoSolution
    } else {
        ExitCode::Solved
    })
}
