//! The JSON records of `crossat solve`, `solve --count`, `check`, `hint` and `explain`
//! with `--json`, for the same input: the command line prints them one per line, these
//! calls return them as one JSON array (the count as its one summary object). A call
//! that runs out of time ends with the summary the command line prints when its
//! `--timeout` passes (`"complete": false, "reason": "timeout"`).
//!
//! Every record is a type of [`crossat::records`], built by the library ([`crossat::emit`],
//! [`crossat::assist`], [`crossat::Puzzle::explain`]) as on the command line; web/test/api.mjs
//! compares the two front ends' records on every bundled puzzle.

use crate::limit::{limited, limited_prep};
use crossat::assist::{self, CheckOptions, HintOptions};
use crossat::emit;
use crossat::pipeline::{self, Input, Prepared};
use crossat::records::{self, Printed, Unfinished, Uniqueness};
use crossat::solve::Outcome;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeSet;

/// The summary of a command stopped by its time limit, as the command line writes it.
fn stopped(base: impl Serialize) -> Value {
    records::value(&crossat::stop::stopped_json(crossat::stop::Reason::Timeout, base))
}

/// What a search found: the solutions and each cell's values.
struct Found {
    solutions: Vec<records::Solution>,
    values: Vec<BTreeSet<char>>,
}

fn search(prep: &mut Prepared, limit: Option<usize>, timeout_ms: Option<f64>) -> Result<(Found, Option<Outcome>), String> {
    let mut found = Found { solutions: Vec::new(), values: vec![BTreeSet::new(); prep.puzzle.givens.len()] };
    let outcome = limited_prep(prep, timeout_ms, |prep| {
        pipeline::solve(prep, limit, |puzzle, grid| {
            for (set, &ch) in found.values.iter_mut().zip(&grid.cells) {
                let _ = set.insert(ch);
            }
            found.solutions.push(emit::solution(puzzle, grid));
            Ok(())
        })
    })?;
    Ok((found, outcome))
}

/// `solve --json [--limit N]`: the solutions, then the summary.
pub fn solve(prep: &mut Prepared, limit: Option<usize>, timeout_ms: Option<f64>) -> Result<Value, String> {
    let (found, outcome) = search(prep, Some(limit.unwrap_or(2)), timeout_ms)?;
    let mut out: Vec<Value> = found.solutions.iter().map(records::value).collect();
    out.push(match outcome {
        Some(outcome) => records::value(&emit::solve_summary(prep, outcome, &found.values)),
        None => stopped(records::StoppedSolve::new(prep.puzzle.name.clone(), Some(emit::alphabet_text(prep)), out.len())),
    });
    Ok(Value::Array(out))
}

/// `solve --count --json`: the summary.
pub fn count(prep: &mut Prepared, timeout_ms: Option<f64>) -> Result<Value, String> {
    Ok(match limited_prep(prep, timeout_ms, pipeline::count)? {
        Some(counted) => records::value(&emit::count_summary(prep, &counted)),
        None => stopped(records::StoppedCount::new(prep.puzzle.name.clone(), Some(emit::alphabet_text(prep)))),
    })
}

/// For setters: the solutions up to `bound` (their grids), whether that is all of
/// them, the cells that differ between them (with their ids), and the exact count when
/// the counting search finishes within the time left.
pub fn analyse(prep: &mut Prepared, bound: usize, timeout_ms: Option<f64>) -> Result<records::Analysis, String> {
    let start = crossat::clock::Instant::now();
    let (found, outcome) = search(prep, Some(bound), timeout_ms)?;
    let (cells, clues) = emit::ambiguity(prep, &found.values, true);
    let count = match outcome {
        Some(o) if o.complete => Some(records::Count::Number(o.found as u64)),
        Some(_) => {
            let left = timeout_ms.map(|ms| ms - start.elapsed().as_secs_f64() * 1e3);
            if left.is_some_and(|ms| ms <= 0.0) {
                None
            } else {
                limited_prep(prep, left, pipeline::count)?.map(|c| emit::count_value(&c.count))
            }
        }
        None => None,
    };
    Ok(records::Analysis {
        solutions: found.solutions.len(),
        complete: outcome.is_some_and(|o| o.complete),
        unique: outcome.map_or(Uniqueness::Undecided, emit::unique),
        grids: found.solutions.into_iter().map(|s| s.grid).collect(),
        ambiguous_cells: cells.unwrap_or_default(),
        ambiguous_clues: clues.unwrap_or_default(),
        count,
        reason: outcome.is_none().then_some(records::StopReason::Timeout),
    })
}

/// `check --json` on a grid.
pub fn check(prep: &mut Prepared, grid: &[Option<char>], timeout_ms: Option<f64>) -> Result<Value, String> {
    let mut out = Vec::new();
    let done = limited_prep(prep, timeout_ms, |prep| {
        let summary = assist::check(prep, grid, CheckOptions::default(), |found| {
            out.push(records::value(&found.record));
            Ok(())
        })?;
        out.push(records::value(&summary.record));
        Ok(())
    })?;
    if done.is_none() {
        out.push(stopped(Unfinished {}));
    }
    Ok(Value::Array(out))
}

/// `hint --json --grid` on a partial grid.
pub fn hint(prep: &mut Prepared, grid: &[Option<char>], timeout_ms: Option<f64>) -> Result<Value, String> {
    let mut out = Vec::new();
    let done = limited_prep(prep, timeout_ms, |prep| {
        let summary = assist::hint(prep, Some(grid), HintOptions::default(), |found| {
            out.push(records::value(&found.record));
            Ok(())
        })?;
        out.push(records::value(&summary.record));
        Ok(())
    })?;
    if done.is_none() {
        let n = out.len();
        out.push(stopped(Printed { key: "hints", n }));
    }
    Ok(Value::Array(out))
}

/// `explain --json --grid [--max-steps N]`: the steps, then the summary.
pub fn explain(input: &Input, max_steps: Option<usize>, timeout_ms: Option<f64>) -> Result<Value, String> {
    let done = limited(timeout_ms, |cancel| {
        let ex = crossat::Puzzle::from_input(&Input { cancel: cancel.clone(), ..input.clone() })?.explain(max_steps)?;
        let mut out: Vec<Value> = ex.steps.iter().map(records::value).collect();
        out.push(records::value(&ex.summary));
        Ok(out)
    })?;
    Ok(Value::Array(done.unwrap_or_else(|| vec![stopped(Unfinished {})])))
}
