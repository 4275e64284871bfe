//! Every call into the library beyond the [`crossat::Puzzle`] facade, in one place, so
//! that they are easy to move onto the facade as it grows. Each returns the records
//! the command line prints with `--json` for the same request, as JSON values.

use crossat::assist::{self, Assistant, Conflict, Reason};
use crossat::deduce;
use crossat::error::{Error, Result};
use crossat::generate::{self as g, Difficulty, Spec};
use crossat::lint::{self, Verdict};
use crossat::pipeline::{self, Input, Prepared};
use crossat::puzzle::{Format, Shape, hex};
use crossat::records::{self, LintVerdict};
use crossat::stop::Cancel;
use crossat::{dimacs, emit, verify};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// The formats by the names the command line's `--format` takes.
const FORMATS: [(&str, Format); 7] = [
    ("crossat", Format::Crossat),
    ("challenges", Format::Challenges),
    ("trux", Format::Trux),
    ("dat", Format::Dat),
    ("board", Format::Board),
    ("hesselink", Format::Hesselink),
    ("louridas", Format::Louridas),
];

/// A format by its `--format` name.
pub(crate) fn format_named(name: &str) -> Result<Format> {
    FORMATS.iter().find(|(n, _)| *n == name).map(|&(_, f)| f).ok_or_else(|| {
        let names: Vec<&str> = FORMATS.iter().map(|(n, _)| *n).collect();
        Error::Usage(format!("unknown format '{name}': one of {}", names.join(", ")))
    })
}

/// A format's `--format` name.
pub(crate) fn format_name(f: Format) -> &'static str {
    FORMATS.iter().find(|(_, g)| *g == f).map_or("crossat", |(n, _)| n)
}

/// Reads a file as `crossat solve FILE` does: a regex-pool CSV takes the pool beside it.
pub(crate) fn read_file(path: &str) -> Result<(String, Vec<u8>, crate::Pool)> {
    let limits = crossat::limits::Limits::default();
    let (source, bytes) = crossat::limits::read_input(std::path::Path::new(path), &limits)?;
    let pool = crossat::puzzle::louridas::pool_beside(std::path::Path::new(path))
        .map(|txt| crossat::limits::read_input(&txt, &limits))
        .transpose()?;
    Ok((source, bytes, pool))
}

/// What a notebook shows of a puzzle: its shape, clues, dialect and alphabet.
pub(crate) fn info(prep: &Prepared) -> Value {
    let p = &prep.puzzle;
    let shape = match &p.shape {
        Shape::Rect { rows, cols } => json!({"kind": "rect", "rows": rows, "cols": cols}),
        Shape::Hex(s) => json!({"kind": "hex", "top": s.top, "nw": s.nw, "ne": s.ne}),
        Shape::Free { cells, .. } => json!({"kind": "free", "cells": cells}),
    };
    let clues: Vec<Value> = p.clues.iter().map(|c| json!({"label": c.label, "regex": c.regex, "cells": c.cells})).collect();
    let rows: Vec<Vec<usize>> = p.shape.display_rows();
    json!({
        "name": p.name,
        "shape": shape,
        "clues": clues,
        "dialect": p.dialect.name(),
        "alphabet": emit::alphabet_text(prep),
        "display_rows": rows,
        "givens": p.givens.iter().map(|g| g.map(String::from)).collect::<Vec<_>>(),
        "pool": p.pool.is_some(),
    })
}

/// `solve --json --limit N`: each solution to `found` as the solver finds it, then
/// the summary.
pub(crate) fn solutions(
    prep: &mut Prepared,
    limit: Option<usize>,
    cancel: &Cancel,
    found: &mut dyn FnMut(Value) -> Result<()>,
) -> Result<Value> {
    let mut values = vec![BTreeSet::new(); prep.puzzle.givens.len()];
    prep.set_cancel(cancel.clone());
    let outcome = pipeline::solve(prep, limit, |puzzle, grid| {
        for (set, &ch) in values.iter_mut().zip(&grid.cells) {
            let _ = set.insert(ch);
        }
        found(records::value(&emit::solution(puzzle, grid)))
    });
    prep.set_cancel(Cancel::never());
    Ok(records::value(&emit::solve_summary(prep, outcome?, &values)))
}

/// `solve --count --json`: the summary.
pub(crate) fn count(prep: &mut Prepared, cancel: &Cancel) -> Result<Value> {
    prep.set_cancel(cancel.clone());
    let counted = pipeline::count(prep);
    prep.set_cancel(Cancel::never());
    Ok(records::value(&emit::count_summary(prep, &counted?)))
}

/// `explain --json`: the steps, then the summary.
pub(crate) fn explain(prep: &mut Prepared, cancel: &Cancel) -> Result<Value> {
    prep.set_cancel(cancel.clone());
    let ex = crossat::explain::explain(prep, deduce::Options::default());
    prep.set_cancel(Cancel::never());
    let ex = ex?;
    let mut out: Vec<Value> = crossat::explain::step_records(prep, &ex).iter().map(records::value).collect();
    out.push(records::value(&crossat::explain::summary_record(prep, &ex)));
    Ok(Value::Array(out))
}

/// A grid given as display rows, cell by cell, checked as the command line checks
/// `--grid`; with `dots`, `.` is an empty cell (a full grid may hold `.` as a letter).
fn grid_cells(prep: &Prepared, rows: &[String], dots: bool) -> Result<Vec<Option<char>>> {
    let mut filled = prep.puzzle.clone();
    let rows: Vec<Vec<Option<char>>> = rows.iter().map(|r| r.chars().map(|c| (!dots || c != '.').then_some(c)).collect()).collect();
    filled.set_given_rows("grid", &rows)?;
    Ok(filled.givens)
}

/// The labels of the clues a full grid fails (`check`).
pub(crate) fn check(prep: &Prepared, rows: &[String]) -> Result<Vec<String>> {
    if prep.puzzle.pool.is_some() {
        return Err(Error::Usage("check needs a puzzle with fixed clues, not a regex pool".into()));
    }
    let grid = verify::Grid { cells: grid_cells(prep, rows, false)?.iter().map(|g| g.unwrap_or(' ')).collect(), assignment: Vec::new() };
    let failures = prep.verifier.failures(&prep.puzzle, &grid)?;
    Ok(failures
        .iter()
        .filter_map(|f| match f {
            verify::Failure::Clue { clue, .. } => Some(prep.puzzle.clues[*clue].label.clone()),
            verify::Failure::Pool { .. } => None,
        })
        .collect())
}

/// A player's next forced cell with the clues behind it (`hint --json --grid`'s hint
/// record); `None` when the grid is full, an entry is wrong or it cannot be completed.
pub(crate) fn hint(prep: &Prepared, rows: &[String], cancel: &Cancel) -> Result<Option<Value>> {
    let givens = grid_cells(prep, rows, true)?;
    let mut assistant = Assistant::new(prep)?.with_cancel(cancel.clone());
    if !assist::wrong_entries(prep, &mut assistant, &givens)?.is_empty() || assistant.complete(&givens)?.is_none() {
        return Ok(None);
    }
    let Some(h) = assistant.hint(&givens)? else { return Ok(None) };
    let because = match h.reason {
        Reason::SingleLine(i) => {
            let line = &prep.puzzle.clues[i].cells;
            Conflict { clues: vec![i], givens: line.iter().copied().filter(|&c| givens[c].is_some()).collect() }
        }
        _ => assistant.explain(&givens, h.cell, h.ch)?,
    };
    Ok(Some(records::value(&assist::hint_record(prep, &h, Some(&because)))))
}

/// The formula in DIMACS CNF (`crossat dimacs`).
pub(crate) fn to_dimacs(prep: &Prepared) -> Result<String> {
    pipeline::require_exact(prep, "DIMACS export")?;
    let mut out = Vec::new();
    let f = prep.formula()?;
    dimacs::write(&mut out, &prep.puzzle, prep.alphabet(), &f.cnf, &f.vars).map_err(|e| Error::output("DIMACS", e.to_string()))?;
    String::from_utf8(out).map_err(|e| Error::Internal(format!("DIMACS output is not UTF-8: {e}")))
}

/// `lint --json`'s clue records: every clue whose meaning differs between the dialects.
pub(crate) fn lint(input: &Input, prep: &Prepared, cancel: &Cancel) -> Result<Value> {
    let p = &prep.puzzle;
    let (_, verdicts) = lint::lint(&input.source, p, input.alphabet.as_deref(), cancel)?;
    let name = p.name.clone().unwrap_or_else(|| input.source.clone());
    let mut out = Vec::new();
    for v in verdicts {
        let verdict = match v.verdict {
            Verdict::Same => continue,
            Verdict::Differs { witness, python } => LintVerdict::Differs { witness, python, ecmascript: !python },
            Verdict::Refused { python, ecmascript } => LintVerdict::Refused { python_error: python, ecmascript_error: ecmascript },
            Verdict::Undecided(reason) => LintVerdict::Undecided { reason },
        };
        let record = records::LintClue { puzzle: name.clone(), clue: v.label, regex: v.regex, length: v.length, verdict };
        out.push(records::value(&record));
    }
    Ok(Value::Array(out))
}

/// What `generate` is asked for.
pub(crate) struct Make {
    pub rows: usize,
    pub cols: usize,
    pub hex: Option<(usize, usize, usize)>,
    pub sides: usize,
    pub text: Option<String>,
    pub backrefs: bool,
    pub lookarounds: bool,
    pub difficulty: Option<String>,
    pub seed: Option<u64>,
}

/// `generate --json`: the puzzle record.
pub(crate) fn generate(m: &Make, cancel: &Cancel) -> Result<Value> {
    let bad = |m: String| Error::Usage(m);
    let shape = match m.hex {
        Some((top, nw, ne)) if [top, nw, ne].iter().all(|s| (1..=8).contains(s)) && nw + ne > 2 => Shape::Hex(hex::Sides { top, nw, ne }),
        Some(_) => return Err(bad("hex must be a side from 2 to 8, or (top, nw, ne) with each from 1 to 8".into())),
        None if (1..=g::MAX_SIDE).contains(&m.rows) && (1..=g::MAX_SIDE).contains(&m.cols) => Shape::Rect { rows: m.rows, cols: m.cols },
        None => return Err(bad(format!("size must be rows × cols with each from 1 to {}", g::MAX_SIDE))),
    };
    let difficulty = match m.difficulty.as_deref() {
        None => None,
        Some("easy") => Some(Difficulty::Easy),
        Some("medium") => Some(Difficulty::Medium),
        Some("hard") => Some(Difficulty::Hard),
        Some(d) => return Err(bad(format!("unknown difficulty '{d}': easy, medium or hard"))),
    };
    if !(1..=2).contains(&m.sides) {
        return Err(bad(format!("sides must be 1 or 2, got {}", m.sides)));
    }
    let seed = m.seed.unwrap_or_else(crossat::rng::fresh_seed);
    let spec = Spec { shape, sides: m.sides, text: m.text.clone(), backrefs: m.backrefs, lookarounds: m.lookarounds, difficulty, seed };
    let started = crossat::clock::Instant::now();
    let made = g::generate_cancellable(&spec, &mut |_| {}, cancel)?;
    Ok(records::value(&made.record(spec.sides, seed, started.elapsed().as_secs_f64() * 1e3)))
}

/// `squares --json`'s square records: up to `count` word squares of `width` × `height`
/// two-letter cells from `dictionary` (a word list file) or the built-in list, by the
/// dedicated search with `seed`. The search polls no token: a cancelled call stops at
/// the next square found.
pub(crate) fn squares(width: usize, height: usize, dictionary: Option<&str>, seed: u64, count: usize, cancel: &Cancel) -> Result<Value> {
    use crossat::squares::{self, Given, Lexicon, Progress, Size, search};
    let size = Size::new(width, height)?;
    let dict = match dictionary {
        Some(path) => crossat::puzzle::Dictionary::from_file(std::path::Path::new(path), false, &crossat::limits::Limits::default())?,
        None => crossat::puzzle::Dictionary::builtin(),
    };
    let lex = Lexicon::new(&dict, size);
    let mut out = Vec::new();
    let mut found = |sq: &squares::Square| {
        out.push(records::value(&records::Square { grid: sq.rows(), words: sq.words() }));
        cancel.check()
    };
    let progress = Progress::default();
    search::search(&lex, size, &dict, &Given::none(size), seed, count, search::Tuning::default(), 1, &progress, &mut found)?;
    Ok(Value::Array(out))
}
