//! The JSON records of `crossat solve`, `solve --count`, `check`, `hint` and `explain`
//! with `--json`, for the same input: the command line prints them one per line, these
//! calls return them as one JSON array (the count as its one summary object). A call
//! that runs out of time ends with the summary the command line prints when its
//! `--timeout` passes (`"complete": false, "reason": "timeout"`).
//!
//! Every record is a type of [`crossat::records`], built by the library's facade
//! ([`crossat::Puzzle`]) as on the command line; web/test/api.mjs
//! compares the two front ends' records on every bundled puzzle.

use crate::limit::{limited, limited_puzzle};
use crossat::assist::{CheckOptions, HintOptions, Named};
use crossat::puzzle::Input;
use crossat::records::{self, Printed, Unfinished};
use crossat::{Listing, Puzzle};
use serde::Serialize;
use serde_json::Value;

/// The JSON text of a call's answer.
pub(crate) fn text(v: &impl Serialize) -> String {
    serde_json::to_string(v).expect("a record serializes")
}

/// A record as a JSON value, for the arrays of records the calls return.
fn value(v: &impl Serialize) -> Value {
    serde_json::to_value(v).expect("a record serializes")
}

/// The summary of a command stopped by its time limit, as the command line writes it.
fn stopped(base: impl Serialize) -> Value {
    value(&records::Stopped::new(base, records::StopReason::Timeout))
}

/// `solve --json [--limit N]`: the solutions, then the summary.
pub fn solve(puzzle: &mut Puzzle, limit: Option<usize>, timeout_ms: Option<f64>) -> Result<Value, String> {
    let mut out: Vec<Value> = Vec::new();
    let listing = Listing { limit: Some(limit.unwrap_or(2)), ..Listing::default() };
    let summary = limited_puzzle(puzzle, timeout_ms, |puzzle| {
        puzzle.search(listing, |p, solution| {
            out.push(value(&solution.record(p)));
            Ok(())
        })
    })?;
    let summary = match summary {
        Some(summary) => value(&summary),
        None => stopped(records::StoppedSolve::new(puzzle.puzzle().name.clone(), Some(puzzle.alphabet()), out.len())),
    };
    out.push(summary);
    Ok(Value::Array(out))
}

/// `solve --count --json`: the summary.
pub fn count(puzzle: &mut Puzzle, timeout_ms: Option<f64>) -> Result<Value, String> {
    Ok(match limited_puzzle(puzzle, timeout_ms, Puzzle::count_record)? {
        Some(summary) => value(&summary),
        None => stopped(records::StoppedCount::new(puzzle.puzzle().name.clone(), Some(puzzle.alphabet()))),
    })
}

/// For setters: the solutions up to `bound` (their grids), whether that is all of
/// them, the cells that differ between them (with their ids), and the exact count when
/// the counting search finishes within the time left ([`Puzzle::analyse`]).
pub fn analyse(puzzle: &mut Puzzle, bound: usize, timeout_ms: Option<f64>) -> Result<records::Analysis, String> {
    // The time limit is the puzzle's cancel token: `analyse` reports what it found
    // before it, and a count it cut short as no count.
    limited_puzzle(puzzle, timeout_ms, |puzzle| puzzle.analyse(bound))?
        .ok_or_else(|| "the analysis stopped at its time limit without its partial answer".to_string())
}

/// The records `call` hands over, then its summary, within the time limit; a call
/// that runs out of time ends with `stop(records so far)` instead of the summary.
fn gathered<R: Serialize, S: Serialize>(
    puzzle: &mut Puzzle,
    timeout_ms: Option<f64>,
    call: impl FnOnce(&mut Puzzle, &mut dyn FnMut(Named<R>) -> crossat::Result<()>) -> crossat::Result<Named<S>>,
    stop: impl FnOnce(usize) -> Value,
) -> Result<Value, String> {
    let mut out = Vec::new();
    let done = limited_puzzle(puzzle, timeout_ms, |puzzle| {
        let summary = call(puzzle, &mut |found| {
            out.push(value(&found.record));
            Ok(())
        })?;
        out.push(value(&summary.record));
        Ok(())
    })?;
    if done.is_none() {
        let n = out.len();
        out.push(stop(n));
    }
    Ok(Value::Array(out))
}

/// `check --json` on a grid.
pub fn check(puzzle: &mut Puzzle, grid: &[Option<char>], timeout_ms: Option<f64>) -> Result<Value, String> {
    gathered(puzzle, timeout_ms, |puzzle, found| puzzle.check_records(grid, CheckOptions::default(), found), |_| stopped(Unfinished {}))
}

/// `hint --json --grid` on a partial grid.
pub fn hint(puzzle: &mut Puzzle, grid: &[Option<char>], timeout_ms: Option<f64>) -> Result<Value, String> {
    gathered(
        puzzle,
        timeout_ms,
        |puzzle, found| puzzle.hint_records(Some(grid), HintOptions::default(), found),
        |n| stopped(Printed { key: "hints", n }),
    )
}

/// `explain --json --grid [--max-steps N]`: the steps, then the summary.
pub fn explain(input: &Input, max_steps: Option<usize>, timeout_ms: Option<f64>) -> Result<Value, String> {
    let done = limited(timeout_ms, |cancel| {
        let ex = Puzzle::from_input(&Input { cancel: cancel.clone(), ..input.clone() })?.explain(max_steps)?;
        let mut out: Vec<Value> = ex.steps.iter().map(value).collect();
        out.push(value(&ex.summary));
        Ok(out)
    })?;
    Ok(Value::Array(done.unwrap_or_else(|| vec![stopped(Unfinished {})])))
}
