//! `check` and `hint`.

use crate::cli::{CheckArgs, HintArgs};
use crate::draw::{Mark, View};
use crate::exit::ExitCode;
use crate::print::Printer;
use crossat::assist::{Assistant, Conflict, Hint, Reason};
use crossat::error::{Error, Result};
use crossat::pipeline::Prepared;
use crossat::puzzle;
use crossat::records::{self, CheckSummary, HintSummary};
use std::path::Path;
use std::sync::atomic::Ordering;

/// Reads a grid file (rows, `.` for empty) into per-cell values for this puzzle. A
/// leading U+FEFF is a byte-order mark unless the puzzle's alphabet holds it.
fn read_grid(prep: &Prepared, path: &Path) -> Result<Vec<Option<char>>> {
    let (name, bytes) = crossat::limits::read_input_whole(path, &crate::io::limits())?;
    let stripped = puzzle::utf8(&name, &bytes)?;
    let text = if prep.alphabet().index('\u{feff}').is_some() { std::str::from_utf8(&bytes).unwrap_or(stripped) } else { stripped };
    let mut p = prep.puzzle.clone();
    p.set_given_rows(&name, &puzzle::parse_grid_rows(text)).map_err(|e| match e {
        // The grid is the command's GRID argument, not the puzzle's given cells.
        Error::Input(i) => Error::input(&i.source, i.message.replacen("given grid", "the grid", 1)),
        other => other,
    })?;
    Ok(p.givens)
}

/// One line per clue and filled cell of `k`, each indented by `indent`.
fn conflict_text(prep: &Prepared, givens: &[Option<char>], k: &Conflict, indent: &str) -> String {
    let mut s = String::new();
    for &i in &k.clues {
        let c = &prep.puzzle.clues[i];
        s.push_str(&format!("{indent}clue {} '{}'\n", c.label, c.regex));
    }
    for &c in &k.givens {
        s.push_str(&format!(
            "{indent}filled cell {} '{}'\n",
            prep.puzzle.shape.cell_name(c),
            givens[c].map_or("?".into(), crate::draw::visible)
        ));
    }
    s
}

/// The grid drawn for `check` and `hint`.
fn drawing(prep: &Prepared, view: &View, look: crate::draw::Options) -> String {
    crate::draw::draw(&prep.puzzle, view, look)
}

pub(super) fn check(args: &CheckArgs, out: &mut Printer<'_>) -> Result<ExitCode> {
    if args.puzzle.given.is_some() {
        return Err(Error::Usage(
            "check takes the filled cells from GRID; --given does not apply to it (put the given cells in GRID)".into(),
        ));
    }
    let mut inputs = super::input_paths(&args.puzzle);
    inputs.push(Some(args.grid.as_path()));
    super::one_stdin(&inputs)?;
    super::start(&args.stop, super::plain_epilogue(args.json, records::Unfinished {}, "the check did not finish"))?;
    let prep = super::prepare(&args.puzzle)?;
    let grid = read_grid(&prep, &args.grid)?;
    let mut assistant = Assistant::new(&prep)?;
    let unknown: Vec<usize> = (0..grid.len()).filter(|&c| grid[c].is_some_and(|ch| prep.alphabet().index(ch).is_none())).collect();
    // Text is gathered, and printed under the grid drawn with its failing cells and clues.
    let mut view = View::partial(&grid);
    let mut text = String::new();
    // A record (`summary`: the last one) as a JSON line, or its text.
    let mut emit = |out: &mut Printer<'_>, summary: bool, line: String, t: String| -> Result<()> {
        if summary {
            // The answer is complete: a stop from now on changes nothing.
            crate::stop::finish();
        }
        if args.json {
            writeln!(out, "{line}")
        } else {
            text.push_str(&t);
            Ok(())
        }
    };
    let code = 'done: {
        if grid.iter().all(Option::is_some) {
            let full: Vec<char> = grid.iter().map(|c| c.unwrap_or(' ')).collect();
            let found = assistant.failures(&full)?;
            let failures = found.len();
            for failure in &found {
                let (i, word, cell) = failure;
                let clue = &prep.puzzle.clues[*i];
                view.bad_clues.push(*i);
                if let Some(c) = *cell {
                    view.marks[c] = Mark::Bad;
                }
                let place = cell.map_or_else(
                    || "at the end of the line".to_string(),
                    |c| format!("at {} '{}'", prep.puzzle.shape.cell_name(c), crate::draw::visible(full[c])),
                );
                emit(
                    out,
                    false,
                    records::line(&crossat::assist::failure_record(&prep, failure)),
                    format!(
                        "{} '{}' does not match \"{}\": it can no longer match {place}\n",
                        clue.label,
                        clue.regex,
                        crate::draw::visible_word(word)
                    ),
                )?;
            }
            let n = prep.puzzle.clues.len();
            let mut summary =
                if failures == 0 { format!("valid: all {n} clues match\n") } else { format!("invalid: {failures} of {n} clues fail\n") };
            // Letters are compared exactly; a grid typed in lower case is told so when
            // its upper-case form passes (the page upper-cases as it is typed).
            let upper: Vec<char> = full.iter().flat_map(|c| c.to_uppercase()).collect();
            let case_only = failures > 0 && upper.len() == full.len() && upper != full && assistant.failures(&upper)?.is_empty();
            if case_only {
                summary.push_str(
                    "note: the grid has lower-case letters, and in upper case it matches every clue (letters are compared exactly)\n",
                );
            }
            let record = CheckSummary {
                valid: Some(failures == 0),
                failures: Some(failures),
                upper_case_valid: case_only.then_some(true),
                ..CheckSummary::new(true)
            };
            emit(out, true, records::line(&record), summary)?;
            break 'done ExitCode::from_ok(failures == 0);
        }
        if !unknown.is_empty() {
            for &c in &unknown {
                let ch = grid[c].unwrap_or(' ');
                view.marks[c] = Mark::Bad;
                emit(
                    out,
                    false,
                    records::line(&crossat::assist::unknown_char_record(&prep, c, ch)),
                    format!(
                        "{} holds '{}', which no clue allows (not in the alphabet)\n",
                        prep.puzzle.shape.cell_name(c),
                        crate::draw::visible(ch)
                    ),
                )?;
            }
            let record = CheckSummary { completable: Some(false), ..CheckSummary::new(false) };
            emit(out, true, records::line(&record), "cannot be completed\n".to_string())?;
            break 'done ExitCode::NoSolution;
        }
        match assistant.complete(&grid)? {
            Some(one) => {
                let several = assistant.several(&grid, &one)?;
                let completions = if several { completions(&prep, &grid)? } else { Some(crossat::solve::count::Big::one()) };
                let ways = match (&completions, several) {
                    (_, false) => " (in exactly one way)".to_string(),
                    (Some(n), true) => format!(" in {n} ways"),
                    (None, true) => " (in more than one way)".to_string(),
                };
                let record = CheckSummary {
                    completable: Some(true),
                    unique_completion: Some(!several),
                    completions: Some(completions.as_ref().map(crossat::emit::count_value)),
                    ..CheckSummary::new(false)
                };
                emit(out, true, records::line(&record), format!("can be completed{ways}\n"))?;
                ExitCode::Solved
            }
            None => {
                let k = assistant.conflict(&grid)?;
                // Clues whose own line's entries already break them, beyond the core.
                let broken = assistant.broken_clues(&grid)?;
                view.bad_clues.extend(&k.clues);
                view.bad_clues.extend(&broken);
                view.bad_clues.sort_unstable();
                view.bad_clues.dedup();
                for &c in &k.givens {
                    view.marks[c] = Mark::Bad;
                }
                let mut t =
                    format!("cannot be completed: these clues and filled cells conflict:\n{}", conflict_text(&prep, &grid, &k, "  "));
                if !broken.is_empty() {
                    t.push_str("clues the entries on their own line break:\n");
                    for &i in &broken {
                        let clue = &prep.puzzle.clues[i];
                        t.push_str(&format!("  {} '{}'\n", clue.label, clue.regex));
                    }
                }
                let record = CheckSummary {
                    completable: Some(false),
                    conflict: Some(crossat::assist::conflict_record(&prep, &k)),
                    broken: Some(crossat::assist::labels(&prep, &broken)),
                    ..CheckSummary::new(false)
                };
                emit(out, true, records::line(&record), t)?;
                ExitCode::NoSolution
            }
        }
    };
    if !args.json {
        write!(out, "{}{text}", drawing(&prep, &view, args.draw.options()))?;
    }
    Ok(code)
}

/// How many ways the filled cells of `grid` can be completed, when the counting search
/// settles it within [`COMPLETIONS_COUNT`] decisions (as `solve`'s "not unique: N
/// solutions"); `None` when that would take longer.
fn completions(prep: &Prepared, grid: &[Option<char>]) -> Result<Option<crossat::solve::count::Big>> {
    let mut puzzle = prep.puzzle.clone();
    for (g, &c) in puzzle.givens.iter_mut().zip(grid) {
        *g = c.or(*g);
    }
    let mut filled = crossat::pipeline::prepare_puzzle(&prep.source, puzzle, Some(prep.alphabet().chars()), Default::default())?;
    crossat::pipeline::count_within(&mut filled, COMPLETIONS_COUNT)
}

/// Most decisions of the counting search behind "can be completed in N ways".
const COMPLETIONS_COUNT: usize = 2_000;

pub(super) fn hint(args: &HintArgs, out: &mut Printer<'_>) -> Result<ExitCode> {
    let shown = super::start_counted(&args.stop, args.json, "hints", "hint", "shown before that; the search did not finish")?;
    let prep = super::prepare(&args.puzzle)?;
    let look = args.draw.options();
    let player = args.grid.as_deref().map(|p| read_grid(&prep, p)).transpose()?;
    let givens = player.clone().unwrap_or_else(|| prep.puzzle.givens.clone());
    let mut assistant = Assistant::new(&prep)?;
    let write = |out: &mut Printer<'_>, s: String| write!(out, "{s}");
    if player.is_some() {
        let wrong = crossat::assist::wrong_entries(&prep, &mut assistant, &givens)?;
        if !wrong.is_empty() {
            let mut view = View::partial(&givens);
            let mut text = String::new();
            for (c, clues) in &wrong {
                let ch = givens[*c].unwrap_or(' ');
                view.marks[*c] = Mark::Bad;
                view.bad_clues.extend(clues);
                if args.json {
                    write(out, format!("{}\n", records::line(&crossat::assist::wrong_record(&prep, *c, ch, clues))))?;
                } else if clues.is_empty() {
                    text.push_str(&format!(
                        "{} '{ch}' is wrong: no clue allows it (not in the alphabet)\n",
                        prep.puzzle.shape.cell_name(*c)
                    ));
                } else {
                    text.push_str(&format!(
                        "{} '{}' is wrong: with it these clues cannot all hold:\n",
                        prep.puzzle.shape.cell_name(*c),
                        crate::draw::visible(ch)
                    ));
                    for &i in clues {
                        let clue = &prep.puzzle.clues[i];
                        text.push_str(&format!("  {} '{}'\n", clue.label, clue.regex));
                    }
                }
            }
            if args.json {
                let record = HintSummary { completable: Some(false), wrong: Some(wrong.len()), ..HintSummary::default() };
                write(out, format!("{}\n", records::line(&record)))?;
            } else {
                view.bad_clues.sort_unstable();
                view.bad_clues.dedup();
                write(out, format!("{}{text}", drawing(&prep, &view, look)))?;
            }
            return Ok(ExitCode::NoSolution);
        }
    }
    if assistant.complete(&givens)?.is_none() {
        let k = assistant.conflict(&givens)?;
        crate::stop::finish();
        if args.json {
            let record = HintSummary {
                completable: Some(false),
                conflict: Some(crossat::assist::conflict_record(&prep, &k)),
                ..HintSummary::default()
            };
            write(out, format!("{}\n", records::line(&record)))?;
        } else {
            let mut view = View::partial(&givens);
            view.bad_clues.clone_from(&k.clues);
            for &c in &k.givens {
                view.marks[c] = Mark::Bad;
            }
            write(
                out,
                format!(
                    "{}no hint: the filled cells cannot be completed; these clues and filled cells conflict:\n{}",
                    drawing(&prep, &view, look),
                    conflict_text(&prep, &givens, &k, "  ")
                ),
            )?;
        }
        return Ok(ExitCode::NoSolution);
    }
    let hints: Vec<Hint> = if args.all { assistant.backbone(&givens)? } else { assistant.hint(&givens)?.into_iter().collect() };
    // A player's next hint always names the clues behind it.
    let explain = args.explain || (player.is_some() && !args.all);
    let mut view = View::partial(&givens);
    let mut text = String::new();
    for h in &hints {
        let why = match h.reason {
            Reason::SingleLine(i) => format!("{} alone", prep.puzzle.clues[i].label),
            Reason::Lines => "combining the lines".to_string(),
            Reason::Search => "only by search over the whole grid".to_string(),
        };
        let because = match (&h.reason, args.explain) {
            // The clue that forces it alone, with the filled cells of its line.
            (Reason::SingleLine(i), false) if explain => {
                let line = &prep.puzzle.clues[*i].cells;
                Some(Conflict { clues: vec![*i], givens: line.iter().copied().filter(|&c| givens[c].is_some()).collect() })
            }
            _ if explain => Some(assistant.explain(&givens, h.cell, h.ch)?),
            _ => None,
        };
        view.cells[h.cell] = Some(h.ch);
        view.marks[h.cell] = Mark::Hint;
        // One record: a stop prints the whole hint and counts it, or neither.
        crate::stop::record(|| -> Result<()> {
            if args.json {
                write(out, format!("{}\n", records::line(&crossat::assist::hint_record(&prep, h, because.as_ref()))))?;
                out.flush()?;
            } else {
                if hints.len() == 1 {
                    match (&because, &h.reason) {
                        (Some(k), _) => view.hint_clues.clone_from(&k.clues),
                        (None, Reason::SingleLine(i)) => view.hint_clues.push(*i),
                        _ => {}
                    }
                }
                text.push_str(&format!("{} is '{}' ({why})\n", prep.puzzle.shape.cell_name(h.cell), crate::draw::visible(h.ch)));
                if let Some(k) = &because {
                    text.push_str(&format!("  because of:\n{}", conflict_text(&prep, &givens, k, "    ")));
                }
            }
            let _ = shown.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })?;
    }
    crate::stop::finish();
    let empty = givens.iter().filter(|g| g.is_none()).count();
    if args.json {
        let record = HintSummary { completable: Some(true), hints: Some(hints.len()), empty_cells: Some(empty), ..HintSummary::default() };
        write(out, format!("{}\n", records::line(&record)))?;
    } else {
        if hints.is_empty() {
            text.push_str(if empty == 0 {
                "the grid is already complete\n"
            } else {
                "no cell is forced: the empty cells can be completed in more than one way\n"
            });
        }
        write(out, format!("{}{text}", drawing(&prep, &view, look)))?;
    }
    Ok(ExitCode::Solved)
}
