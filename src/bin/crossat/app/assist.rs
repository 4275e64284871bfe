//! `check` and `hint`.

use crate::cli::{CheckArgs, HintArgs};
use crate::draw::{Mark, View};
use crate::exit::ExitCode;
use crate::print::Printer;
use crossat::assist::{CheckOptions, HintOptions};
use crossat::error::{Error, Result};
use crossat::puzzle;
use crossat::records::{self, CheckRecord, Count, HintReason, HintRecord};
use std::path::Path;
use std::sync::atomic::Ordering;

/// Reads a grid file (rows, `.` for empty) into per-cell values for this puzzle, row by
/// row as the puzzle displays its cells. A leading U+FEFF is a byte-order mark unless
/// the puzzle's alphabet holds it.
fn read_grid(prep: &crossat::Puzzle, path: &Path) -> Result<Vec<Option<char>>> {
    let (name, bytes) = crossat::limits::read_input_whole(path, &crate::io::limits())?;
    let stripped = puzzle::utf8(&name, &bytes)?;
    let text = if prep.alphabet().contains('\u{feff}') { std::str::from_utf8(&bytes).unwrap_or(stripped) } else { stripped };
    let rows = puzzle::parse_grid_rows(text);
    let layout = prep.puzzle().shape.display_rows();
    if rows.len() != layout.len() {
        return Err(crate::io::input_error(&name, format!("the grid has {} rows, the puzzle has {}", rows.len(), layout.len())));
    }
    let mut cells = vec![None; prep.puzzle().givens.len()];
    for (r, (row, ids)) in rows.iter().zip(&layout).enumerate() {
        if row.len() != ids.len() {
            let message = format!("the grid row {} has {} cells, the puzzle row has {}", r + 1, row.len(), ids.len());
            return Err(crate::io::input_error(&name, message));
        }
        for (&v, &c) in row.iter().zip(ids) {
            cells[c] = v;
        }
    }
    Ok(cells)
}

/// The cell a record names by its `[row, column]`.
fn cell_of(prep: &crossat::Puzzle, cell: records::Cell) -> Result<usize> {
    super::cell_of(prep.puzzle(), cell)
}

/// A clue as the text lists it: its label and its regex.
fn clue_text(prep: &crossat::Puzzle, i: usize) -> String {
    let c = &prep.puzzle().clues[i];
    format!("{} '{}'", c.label, c.regex)
}

/// One line per clue (`clues`, the conflict's as indices) and filled cell of `k`, each
/// indented by `indent`.
fn conflict_text(prep: &crossat::Puzzle, givens: &[Option<char>], k: &records::Conflict, clues: &[usize], indent: &str) -> Result<String> {
    let mut s = String::new();
    for &i in clues {
        s.push_str(&format!("{indent}clue {}\n", clue_text(prep, i)));
    }
    for &cell in &k.cells {
        let c = cell_of(prep, cell)?;
        s.push_str(&format!(
            "{indent}filled cell {} '{}'\n",
            prep.puzzle().shape.cell_name(c),
            givens[c].map_or("?".into(), crate::draw::visible)
        ));
    }
    Ok(s)
}

/// Marks the cells of conflict `k` bad on `view`.
fn mark_cells(prep: &crossat::Puzzle, view: &mut View, k: &records::Conflict) -> Result<()> {
    for &cell in &k.cells {
        view.marks[cell_of(prep, cell)?] = Mark::Bad;
    }
    Ok(())
}

/// The grid drawn for `check` and `hint`.
fn drawing(prep: &crossat::Puzzle, view: &View, look: crate::draw::Options) -> String {
    crate::draw::draw(prep.puzzle(), view, look)
}

/// Most decisions of the counting search behind "can be completed in N ways".
const COMPLETIONS_COUNT: usize = 2_000;

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
    let prep = super::open(&args.puzzle)?;
    let grid = read_grid(&prep, &args.grid)?;
    let name = |c: usize| prep.puzzle().shape.cell_name(c);
    let shown = |c: usize| crate::draw::visible(grid[c].unwrap_or(' '));
    // Text is gathered, and printed under the grid drawn with its failing cells and clues.
    let mut view = View::partial(&grid);
    let mut text = String::new();
    let options = CheckOptions { count_within: Some(COMPLETIONS_COUNT), upper_case: true };
    let summary = prep.check_records(&grid, options, |found| {
        if args.json {
            return writeln!(out, "{}", crate::print::line(&found.record));
        }
        match &found.record {
            CheckRecord::Failure(f) => {
                view.bad_clues.extend(&found.clues);
                let cell = f.cell.map(|c| cell_of(&prep, c)).transpose()?;
                if let Some(c) = cell {
                    view.marks[c] = Mark::Bad;
                }
                let place = cell.map_or_else(|| "at the end of the line".to_string(), |c| format!("at {} '{}'", name(c), shown(c)));
                text.push_str(&format!(
                    "{} '{}' does not match \"{}\": it can no longer match {place}\n",
                    f.clue,
                    f.regex,
                    crate::draw::visible_word(&f.word)
                ));
            }
            CheckRecord::UnknownChar(u) => {
                let c = cell_of(&prep, u.cell)?;
                view.marks[c] = Mark::Bad;
                text.push_str(&format!("{} holds '{}', which no clue allows (not in the alphabet)\n", name(c), shown(c)));
            }
        }
        Ok(())
    })?;
    // The answer is complete: a stop from now on changes nothing.
    crate::stop::finish();
    let s = &summary.record;
    let code = if s.complete { ExitCode::from_ok(s.valid == Some(true)) } else { ExitCode::from_ok(s.completable == Some(true)) };
    if args.json {
        writeln!(out, "{}", crate::print::line(s))?;
        return Ok(code);
    }
    if s.complete {
        let (n, failures) = (prep.puzzle().clues.len(), s.failures.unwrap_or(0));
        text.push_str(&if failures == 0 {
            format!("valid: all {n} clues match\n")
        } else {
            format!("invalid: {failures} of {n} clues fail\n")
        });
        if s.upper_case_valid == Some(true) {
            text.push_str(
                "note: the grid has lower-case letters, and in upper case it matches every clue (letters are compared exactly)\n",
            );
        }
    } else if s.completable == Some(true) {
        let ways = match (&s.completions, s.unique_completion) {
            (_, Some(true)) => " (in exactly one way)".to_string(),
            (Some(Some(Count::Number(n))), _) => format!(" in {n} ways"),
            (Some(Some(Count::Digits(n))), _) => format!(" in {n} ways"),
            _ => " (in more than one way)".to_string(),
        };
        text.push_str(&format!("can be completed{ways}\n"));
    } else if let Some(k) = &s.conflict {
        let (core, broken) = summary.clues.split_at(k.clues.len());
        view.bad_clues.extend(&summary.clues);
        view.bad_clues.sort_unstable();
        view.bad_clues.dedup();
        mark_cells(&prep, &mut view, k)?;
        text.push_str(&format!(
            "cannot be completed: these clues and filled cells conflict:\n{}",
            conflict_text(&prep, &grid, k, core, "  ")?
        ));
        if !broken.is_empty() {
            text.push_str("clues the entries on their own line break:\n");
            for &i in broken {
                text.push_str(&format!("  {}\n", clue_text(&prep, i)));
            }
        }
    } else {
        text.push_str("cannot be completed\n");
    }
    write!(out, "{}{text}", drawing(&prep, &view, args.draw.options()))?;
    Ok(code)
}

pub(super) fn hint(args: &HintArgs, out: &mut Printer<'_>) -> Result<ExitCode> {
    let shown = super::start_counted(&args.stop, args.json, "hints", "hint", "shown before that; the search did not finish")?;
    let prep = super::open(&args.puzzle)?;
    let look = args.draw.options();
    let player = args.grid.as_deref().map(|p| read_grid(&prep, p)).transpose()?;
    let givens = player.clone().unwrap_or_else(|| prep.puzzle().givens.clone());
    let name = |c: usize| prep.puzzle().shape.cell_name(c);
    let mut view = View::partial(&givens);
    let mut text = String::new();
    // The clues drawn as behind the hint, when there is one hint.
    let mut first_clues: Option<Vec<usize>> = None;
    let options = HintOptions { all: args.all, explain: args.explain };
    let summary = prep.hint_records(player.as_deref(), options, |found| match &found.record {
        HintRecord::Wrong(w) => {
            let c = cell_of(&prep, w.cell)?;
            let ch = givens[c].unwrap_or(' ');
            view.marks[c] = Mark::Bad;
            view.bad_clues.extend(&found.clues);
            if args.json {
                writeln!(out, "{}", crate::print::line(&found.record))?;
            } else if found.clues.is_empty() {
                text.push_str(&format!("{} '{ch}' is wrong: no clue allows it (not in the alphabet)\n", name(c)));
            } else {
                text.push_str(&format!("{} '{}' is wrong: with it these clues cannot all hold:\n", name(c), crate::draw::visible(ch)));
                for &i in &found.clues {
                    text.push_str(&format!("  {}\n", clue_text(&prep, i)));
                }
            }
            Ok(())
        }
        HintRecord::Hint(h) => {
            let c = cell_of(&prep, h.cell)?;
            let ch = h.ch.chars().next().unwrap_or(' ');
            let why = match (h.reason, &h.clue) {
                (HintReason::SingleLine, Some(label)) => format!("{label} alone"),
                (HintReason::Lines, _) => "combining the lines".to_string(),
                _ => "only by search over the whole grid".to_string(),
            };
            view.cells[c] = Some(ch);
            view.marks[c] = Mark::Hint;
            let _ = first_clues.get_or_insert_with(|| found.clues.clone());
            // One record: a stop prints the whole hint and counts it, or neither.
            crate::stop::record(|| -> Result<()> {
                if args.json {
                    writeln!(out, "{}", crate::print::line(&found.record))?;
                    out.flush()?;
                } else {
                    text.push_str(&format!("{} is '{}' ({why})\n", name(c), crate::draw::visible(ch)));
                    if let Some(k) = &h.because {
                        text.push_str(&format!("  because of:\n{}", conflict_text(&prep, &givens, k, &found.clues, "    ")?));
                    }
                }
                let _ = shown.fetch_add(1, Ordering::SeqCst);
                Ok(())
            })
        }
    })?;
    let s = &summary.record;
    if s.wrong.is_some() {
        if args.json {
            writeln!(out, "{}", crate::print::line(s))?;
        } else {
            view.bad_clues.sort_unstable();
            view.bad_clues.dedup();
            write!(out, "{}{text}", drawing(&prep, &view, look))?;
        }
        return Ok(ExitCode::NoSolution);
    }
    crate::stop::finish();
    if args.json {
        writeln!(out, "{}", crate::print::line(s))?;
    } else if let Some(k) = &s.conflict {
        view.bad_clues.clone_from(&summary.clues);
        mark_cells(&prep, &mut view, k)?;
        write!(
            out,
            "{}no hint: the filled cells cannot be completed; these clues and filled cells conflict:\n{}",
            drawing(&prep, &view, look),
            conflict_text(&prep, &givens, k, &summary.clues, "  ")?
        )?;
    } else {
        if s.hints == Some(1) {
            view.hint_clues = first_clues.unwrap_or_default();
        }
        if s.hints == Some(0) {
            text.push_str(if s.empty_cells == Some(0) {
                "the grid is already complete\n"
            } else {
                "no cell is forced: the empty cells can be completed in more than one way\n"
            });
        }
        write!(out, "{}{text}", drawing(&prep, &view, look))?;
    }
    Ok(if s.completable == Some(true) { ExitCode::Solved } else { ExitCode::NoSolution })
}
