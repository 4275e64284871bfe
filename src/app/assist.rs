//! `check` and `hint`.

use super::{input, read_source, write_err};
use crate::assist::{Assistant, Conflict, Hint, Reason};
use crate::cli::{CheckArgs, HintArgs};
use crate::error::{Error, Result};
use crate::pipeline::{self, Prepared};
use crate::puzzle;
use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Reads a grid file (rows, `.` for empty) into per-cell values for this puzzle.
fn read_grid(prep: &Prepared, path: &Path) -> Result<Vec<Option<char>>> {
    let (name, bytes) = read_source(path)?;
    let text = puzzle::utf8(&name, &bytes)?;
    let mut p = prep.puzzle.clone();
    p.set_given_rows(&name, &puzzle::parse_grid_rows(text))?;
    Ok(p.givens)
}

fn cell_json(prep: &Prepared, c: usize) -> Value {
    let (r, col) = prep.puzzle.shape.coords(c);
    json!([r, col])
}

/// One line per clue and filled cell of `k`, each indented by `indent`.
fn conflict_text(prep: &Prepared, givens: &[Option<char>], k: &Conflict, indent: &str) -> String {
    let mut s = String::new();
    for &i in &k.clues {
        let c = &prep.puzzle.clues[i];
        s.push_str(&format!("{indent}clue {} '{}'\n", c.label, c.regex));
    }
    for &c in &k.givens {
        s.push_str(&format!("{indent}filled cell {} '{}'\n", prep.puzzle.shape.cell_name(c), givens[c].unwrap_or('?')));
    }
    s
}

fn conflict_json(prep: &Prepared, k: &Conflict) -> Value {
    json!({"clues": k.clues.iter().map(|&i| prep.puzzle.clues[i].label.clone()).collect::<Vec<_>>(), "cells": k.givens.iter().map(|&c| cell_json(prep, c)).collect::<Vec<_>>()})
}

pub(super) fn check(args: &CheckArgs, out: &mut dyn Write) -> Result<u8> {
    if args.puzzle.given.is_some() {
        return Err(Error::Usage(
            "check takes the filled cells from GRID; --given does not apply to it (put the given cells in GRID)".into(),
        ));
    }
    let mut inputs = super::input_paths(&args.puzzle);
    inputs.push(Some(args.grid.as_path()));
    super::one_stdin(&inputs)?;
    super::start(&args.stop, super::plain_epilogue(args.json, json!({"type": "summary"}), "the check did not finish"))?;
    let prep = pipeline::prepare(&input(&args.puzzle)?)?;
    let grid = read_grid(&prep, &args.grid)?;
    let mut assistant = Assistant::new(&prep)?;
    let unknown: Vec<usize> = (0..grid.len()).filter(|&c| grid[c].is_some_and(|ch| prep.compiled.alphabet.index(ch).is_none())).collect();
    let emit = |out: &mut dyn Write, v: Value, text: String| -> Result<()> {
        if v["type"] == "summary" {
            // The answer is complete: a stop from now on changes nothing.
            crate::stop::finish();
        }
        if args.json { writeln!(out, "{v}") } else { write!(out, "{text}") }.map_err(write_err)
    };
    if grid.iter().all(Option::is_some) {
        let full: Vec<char> = grid.iter().map(|c| c.unwrap_or(' ')).collect();
        let mut failures = 0;
        for (i, clue) in prep.puzzle.clues.iter().enumerate() {
            let word: String = clue.cells.iter().map(|&c| full[c]).collect();
            if prep.verifier.clue_matches(i, &word)? {
                continue;
            }
            failures += 1;
            let at = assistant.first_bad_cell(i, &full)?;
            let cell = at.map(|p| clue.cells[p]);
            let place = cell
                .map_or_else(|| "at the end of the line".to_string(), |c| format!("at {} '{}'", prep.puzzle.shape.cell_name(c), full[c]));
            emit(
                out,
                json!({"type": "failure", "clue": clue.label, "regex": clue.regex, "word": word, "cell": cell.map(|c| cell_json(&prep, c))}),
                format!("{} '{}' does not match \"{word}\": it can no longer match {place}\n", clue.label, clue.regex),
            )?;
        }
        let n = prep.puzzle.clues.len();
        let summary =
            if failures == 0 { format!("valid: all {n} clues match\n") } else { format!("invalid: {failures} of {n} clues fail\n") };
        emit(out, json!({"type": "summary", "complete": true, "valid": failures == 0, "failures": failures}), summary)?;
        return Ok(u8::from(failures > 0));
    }
    if !unknown.is_empty() {
        for &c in &unknown {
            let ch = grid[c].unwrap_or(' ');
            emit(
                out,
                json!({"type": "unknown_char", "cell": cell_json(&prep, c), "char": ch.to_string()}),
                format!("{} holds '{ch}', which no clue allows (not in the alphabet)\n", prep.puzzle.shape.cell_name(c)),
            )?;
        }
        emit(out, json!({"type": "summary", "complete": false, "completable": false}), "cannot be completed\n".to_string())?;
        return Ok(1);
    }
    match assistant.complete(&grid)? {
        Some(one) => {
            let several = assistant.several(&grid, &one)?;
            let text = format!("can be completed{}\n", if several { " (in more than one way)" } else { " (in exactly one way)" });
            emit(out, json!({"type": "summary", "complete": false, "completable": true, "unique_completion": !several}), text)?;
            Ok(0)
        }
        None => {
            let k = assistant.conflict(&grid)?;
            let text = format!("cannot be completed: these clues and filled cells conflict:\n{}", conflict_text(&prep, &grid, &k, "  "));
            emit(out, json!({"type": "summary", "complete": false, "completable": false, "conflict": conflict_json(&prep, &k)}), text)?;
            Ok(1)
        }
    }
}

pub(super) fn hint(args: &HintArgs, out: &mut dyn Write) -> Result<u8> {
    let shown = Arc::new(AtomicUsize::new(0));
    let count = shown.clone();
    let json = args.json;
    super::start(
        &args.stop,
        Box::new(move |reason| {
            let n = count.load(Ordering::SeqCst);
            let text = format!("{n} hint{} shown before that; the search did not finish", if n == 1 { "" } else { "s" });
            crate::stop::summary(json, reason, json!({"type": "summary", "hints": n}), &text)
        }),
    )?;
    let prep = pipeline::prepare(&input(&args.puzzle)?)?;
    let givens = prep.puzzle.givens.clone();
    let mut assistant = Assistant::new(&prep)?;
    let write = |out: &mut dyn Write, s: String| out.write_all(s.as_bytes()).map_err(write_err);
    if assistant.complete(&givens)?.is_none() {
        let k = assistant.conflict(&givens)?;
        crate::stop::finish();
        if args.json {
            write(out, format!("{}\n", json!({"type": "summary", "completable": false, "conflict": conflict_json(&prep, &k)})))?;
        } else {
            write(
                out,
                format!(
                    "no hint: the filled cells cannot be completed; these clues and filled cells conflict:\n{}",
                    conflict_text(&prep, &givens, &k, "  ")
                ),
            )?;
        }
        return Ok(1);
    }
    let hints: Vec<Hint> = if args.all { assistant.backbone(&givens)? } else { assistant.hint(&givens)?.into_iter().collect() };
    for h in &hints {
        let why = match h.reason {
            Reason::SingleLine(i) => format!("{} alone", prep.puzzle.clues[i].label),
            Reason::Lines => "combining the lines".to_string(),
            Reason::Search => "only by search over the whole grid".to_string(),
        };
        let because = if args.explain { Some(assistant.explain(&givens, h.cell, h.ch)?) } else { None };
        // One record: a stop prints the whole hint and counts it, or neither.
        crate::stop::record(|| -> Result<()> {
            if args.json {
                let reason = match h.reason {
                    Reason::SingleLine(_) => "single-line",
                    Reason::Lines => "lines",
                    Reason::Search => "search",
                };
                let mut v = json!({"type": "hint", "cell": cell_json(&prep, h.cell), "char": h.ch.to_string(), "reason": reason});
                if let Reason::SingleLine(i) = h.reason {
                    v["clue"] = json!(prep.puzzle.clues[i].label);
                }
                if let Some(k) = &because {
                    v["because"] = conflict_json(&prep, k);
                }
                write(out, format!("{v}\n"))?;
            } else {
                write(out, format!("{} is '{}' ({why})\n", prep.puzzle.shape.cell_name(h.cell), h.ch))?;
                if let Some(k) = &because {
                    write(out, format!("  because of:\n{}", conflict_text(&prep, &givens, k, "    ")))?;
                }
            }
            out.flush().map_err(write_err)?;
            let _ = shown.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })?;
    }
    crate::stop::finish();
    let empty = givens.iter().filter(|g| g.is_none()).count();
    if args.json {
        write(out, format!("{}\n", json!({"type": "summary", "completable": true, "hints": hints.len(), "empty_cells": empty})))?;
    } else if hints.is_empty() {
        write(
            out,
            if empty == 0 {
                "the grid is already complete\n".to_string()
            } else {
                "no cell is forced: the empty cells can be completed in more than one way\n".to_string()
            },
        )?;
    }
    Ok(0)
}
