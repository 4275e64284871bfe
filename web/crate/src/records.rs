//! The JSON records of `crossat solve`, `solve --count`, `check`, `hint` and `explain`
//! with `--json`, for the same input: the command line prints them one per line, these
//! calls return them as one JSON array (the count as its one summary object). A call
//! that runs out of time ends with the summary the command line prints when its
//! `--timeout` passes (`"complete": false, "reason": "timeout"`).
//!
//! The summaries of `solve` and `solve --count` are the library's
//! ([`crossat::emit`]), as on the command line; web/test/api.mjs compares the two
//! front ends' records on every bundled puzzle.

use crate::session::{limited, limited_prep};
use crossat::assist::{Assistant, Conflict, Hint, Reason};
use crossat::emit;
use crossat::pipeline::{self, Input, Prepared};
use crossat::solve::{Outcome, deduce};
use crossat::stop::Cancel;
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn alphabet_text(prep: &Prepared) -> String {
    prep.alphabet().chars().iter().collect()
}

/// The summary of a command stopped by its time limit, as the command line writes it.
fn stopped(base: Value) -> Value {
    crossat::stop::stopped_json(crossat::stop::Reason::Timeout, base)
}

/// What a search found: the solution records and each cell's values.
struct Found {
    records: Vec<Value>,
    values: Vec<BTreeSet<char>>,
}

fn search(prep: &mut Prepared, limit: Option<usize>, timeout_ms: Option<f64>) -> Result<(Found, Option<Outcome>), String> {
    let mut found = Found { records: Vec::new(), values: vec![BTreeSet::new(); prep.puzzle.givens.len()] };
    let outcome = limited_prep(prep, timeout_ms, |prep| {
        pipeline::solve(prep, limit, |puzzle, grid| {
            for (set, &ch) in found.values.iter_mut().zip(&grid.cells) {
                let _ = set.insert(ch);
            }
            found.records.push(emit::json_solution(puzzle, grid));
            Ok(())
        })
    })?;
    Ok((found, outcome))
}

/// `solve --json [--limit N]`: the solutions, then the summary.
pub fn solve(prep: &mut Prepared, limit: Option<usize>, timeout_ms: Option<f64>) -> Result<Value, String> {
    let (found, outcome) = search(prep, Some(limit.unwrap_or(2)), timeout_ms)?;
    let mut records = found.records;
    records.push(match outcome {
        Some(outcome) => emit::solve_summary(prep, outcome, &found.values),
        None => stopped(emit::stopped_solve_summary(&json!(prep.puzzle.name), &json!(alphabet_text(prep)), records.len())),
    });
    Ok(Value::Array(records))
}

/// `solve --count --json`: the summary.
pub fn count(prep: &mut Prepared, timeout_ms: Option<f64>) -> Result<Value, String> {
    Ok(match limited_prep(prep, timeout_ms, pipeline::count)? {
        Some(counted) => emit::count_summary(prep, &counted),
        None => stopped(emit::stopped_count_summary(&json!(prep.puzzle.name), &json!(alphabet_text(prep)))),
    })
}

/// For setters: the solutions up to `bound` (their grids), whether that is all of
/// them, the cells that differ between them (with their ids), and the exact count when
/// the counting search finishes within the time left.
pub fn analyse(prep: &mut Prepared, bound: usize, timeout_ms: Option<f64>) -> Result<Value, String> {
    let start = crossat::clock::Instant::now();
    let (found, outcome) = search(prep, Some(bound), timeout_ms)?;
    let grids: Vec<Value> = found.records.iter().map(|r| r["grid"].clone()).collect();
    let mut v = json!({
        "type": "analysis",
        "solutions": grids.len(),
        "complete": outcome.is_some_and(|o| o.complete),
        "unique": outcome.map_or(Value::Null, emit::unique),
        "grids": grids,
    });
    emit::add_ambiguity(prep, &found.values, &mut v, true);
    if !v.as_object().is_some_and(|o| o.contains_key("ambiguous_cells")) {
        v["ambiguous_cells"] = json!([]);
        v["ambiguous_clues"] = json!([]);
    }
    v["count"] = match outcome {
        Some(o) if o.complete => json!(o.found),
        Some(_) => {
            let left = timeout_ms.map(|ms| ms - start.elapsed().as_secs_f64() * 1e3);
            if left.is_some_and(|ms| ms <= 0.0) {
                Value::Null
            } else {
                limited_prep(prep, left, pipeline::count)?.map_or(Value::Null, |c| emit::count_value(&c.count))
            }
        }
        None => Value::Null,
    };
    if outcome.is_none() {
        v["reason"] = "timeout".into();
    }
    Ok(v)
}

fn conflict_json(prep: &Prepared, k: &Conflict) -> Value {
    json!({"clues": k.clues.iter().map(|&i| prep.puzzle.clues[i].label.clone()).collect::<Vec<_>>(), "cells": k.givens.iter().map(|&c| prep.puzzle.shape.cell_json(c)).collect::<Vec<_>>()})
}

/// `check --json` on a grid.
pub fn check(prep: &Prepared, grid: &[Option<char>], timeout_ms: Option<f64>) -> Result<Value, String> {
    let mut records = Vec::new();
    let done = limited(timeout_ms, |cancel| check_records(prep, grid, &mut records, cancel))?;
    if done.is_none() {
        records.push(stopped(json!({"type": "summary"})));
    }
    Ok(Value::Array(records))
}

fn check_records(prep: &Prepared, grid: &[Option<char>], out: &mut Vec<Value>, cancel: &Cancel) -> crossat::Result<()> {
    let mut assistant = Assistant::new(prep)?.with_cancel(cancel.clone());
    if grid.iter().all(Option::is_some) {
        let full: Vec<char> = grid.iter().map(|c| c.unwrap_or(' ')).collect();
        let found = assistant.failures(&full)?;
        let failures = found.len();
        out.extend(found.iter().map(|f| crossat::assist::failure_json(prep, f)));
        out.push(json!({"type": "summary", "complete": true, "valid": failures == 0, "failures": failures}));
        return Ok(());
    }
    let unknown: Vec<usize> = (0..grid.len()).filter(|&c| grid[c].is_some_and(|ch| prep.alphabet().index(ch).is_none())).collect();
    if !unknown.is_empty() {
        for &c in &unknown {
            out.push(json!({"type": "unknown_char", "cell": prep.puzzle.shape.cell_json(c), "char": grid[c].unwrap_or(' ').to_string()}));
        }
        out.push(json!({"type": "summary", "complete": false, "completable": false}));
        return Ok(());
    }
    match assistant.complete(grid)? {
        Some(one) => {
            let several = assistant.several(grid, &one)?;
            out.push(json!({"type": "summary", "complete": false, "completable": true, "unique_completion": !several}));
        }
        None => {
            let k = assistant.conflict(grid)?;
            let broken = assistant.broken_clues(grid)?;
            let labels: Vec<&str> = broken.iter().map(|&i| prep.puzzle.clues[i].label.as_str()).collect();
            out.push(
                json!({"type": "summary", "complete": false, "completable": false, "conflict": conflict_json(prep, &k), "broken": labels}),
            );
        }
    }
    Ok(())
}

/// `hint --json --grid` on a partial grid.
pub fn hint(prep: &Prepared, grid: &[Option<char>], timeout_ms: Option<f64>) -> Result<Value, String> {
    let mut records = Vec::new();
    let done = limited(timeout_ms, |cancel| hint_records(prep, grid, &mut records, cancel))?;
    if done.is_none() {
        let n = records.len();
        records.push(stopped(json!({"type": "summary", "hints": n})));
    }
    Ok(Value::Array(records))
}

fn hint_records(prep: &Prepared, givens: &[Option<char>], out: &mut Vec<Value>, cancel: &Cancel) -> crossat::Result<()> {
    let mut assistant = Assistant::new(prep)?.with_cancel(cancel.clone());
    let wrong = crossat::assist::wrong_entries(prep, &mut assistant, givens)?;
    if !wrong.is_empty() {
        let mut records = Vec::new();
        for (c, clues) in &wrong {
            let labels: Vec<&str> = clues.iter().map(|&i| prep.puzzle.clues[i].label.as_str()).collect();
            records.push(
                json!({"type": "wrong", "cell": prep.puzzle.shape.cell_json(*c), "char": givens[*c].unwrap_or(' ').to_string(), "clues": labels}),
            );
        }
        records.push(json!({"type": "summary", "completable": false, "wrong": wrong.len()}));
        out.extend(records);
        return Ok(());
    }
    if assistant.complete(givens)?.is_none() {
        let k = assistant.conflict(givens)?;
        out.push(json!({"type": "summary", "completable": false, "conflict": conflict_json(prep, &k)}));
        return Ok(());
    }
    let hints: Vec<Hint> = assistant.hint(givens)?.into_iter().collect();
    for h in &hints {
        // A player's hint names the clues behind it: the clue that forces it alone
        // with the filled cells of its line, else a minimal core.
        let because = match h.reason {
            Reason::SingleLine(i) => {
                let line = &prep.puzzle.clues[i].cells;
                Conflict { clues: vec![i], givens: line.iter().copied().filter(|&c| givens[c].is_some()).collect() }
            }
            _ => assistant.explain(givens, h.cell, h.ch)?,
        };
        let reason = match h.reason {
            Reason::SingleLine(_) => "single-line",
            Reason::Lines => "lines",
            Reason::Search => "search",
        };
        let mut v = json!({"type": "hint", "cell": prep.puzzle.shape.cell_json(h.cell), "char": h.ch.to_string(), "reason": reason});
        if let Reason::SingleLine(i) = h.reason {
            v["clue"] = json!(prep.puzzle.clues[i].label);
        }
        v["because"] = conflict_json(prep, &because);
        out.push(v);
    }
    let empty = givens.iter().filter(|g| g.is_none()).count();
    out.push(json!({"type": "summary", "completable": true, "hints": hints.len(), "empty_cells": empty}));
    Ok(())
}

/// `explain --json --grid [--max-steps N]`: the steps, then the summary.
pub fn explain(input: &Input, max_steps: Option<usize>, timeout_ms: Option<f64>) -> Result<Value, String> {
    let done = limited(timeout_ms, |cancel| {
        let mut prep = pipeline::prepare(&Input { cancel: cancel.clone(), ..input.clone() })?;
        let ex = crossat::explain::explain(&mut prep, deduce::Options { max_steps, ..deduce::Options::default() })?;
        let mut records: Vec<Value> =
            ex.deduction.steps.iter().enumerate().map(|(n, s)| crossat::explain::step_json(&prep, s, n + 1, true)).collect();
        records.push(crossat::explain::summary_json(&prep, &ex));
        Ok(records)
    })?;
    Ok(Value::Array(done.unwrap_or_else(|| vec![stopped(json!({"type": "summary"}))])))
}
