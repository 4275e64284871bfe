//! The **emit** stage: grids and summaries as JSON Lines for programs (people get
//! [`crate::draw`]). The command line and the browser's API print the same records.

use crate::puzzle::{Puzzle, Shape};
use crate::solve::strategy::Count;
use crate::solve::{Outcome, Prepared};
use crate::verify::Grid;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// `(entry, regex, word)` for each entry of a free layout or regex pool, in entry order.
pub fn entries(puzzle: &Puzzle, grid: &Grid) -> Vec<(String, String, String)> {
    match &puzzle.pool {
        Some(pool) => pool
            .entries
            .iter()
            .enumerate()
            .map(|(e, cells)| (pool.labels[e].clone(), pool.regexes[grid.assignment[e]].clone(), grid.word(cells)))
            .collect(),
        None => puzzle.clues.iter().map(|c| (c.label.clone(), c.regex.clone(), grid.word(&c.cells))).collect(),
    }
}

/// `{"type":"solution","grid":[rows…]}`, plus `"entries"` for free layouts and pools.
pub fn json_solution(puzzle: &Puzzle, grid: &Grid) -> Value {
    let mut v = json!({"type": "solution", "grid": grid.rows(&puzzle.shape)});
    if matches!(puzzle.shape, Shape::Free { .. }) || puzzle.pool.is_some() {
        let list: Vec<Value> = entries(puzzle, grid)
            .into_iter()
            .map(|(e, regex, word)| {
                let entry = e.parse::<u64>().map_or(Value::from(e), Value::from);
                json!({"entry": entry, "regex": regex, "word": word})
            })
            .collect();
        v["entries"] = Value::Array(list);
    }
    v
}

/// One JSON Lines record as a string.
pub fn line(v: &Value) -> String {
    v.to_string()
}

/// `"unique"` of a summary: `true` when the search found one solution and was
/// exhausted, `false` when it found two, else `null` (not decided).
pub fn unique(o: Outcome) -> Value {
    match (o.found, o.complete) {
        (1, true) => Value::Bool(true),
        (n, _) if n >= 2 => Value::Bool(false),
        _ => Value::Null,
    }
}

/// The puzzle's alphabet as one string.
fn alphabet_text(prep: &Prepared) -> String {
    prep.alphabet().chars().iter().collect()
}

/// The summary of `solve --json` after a search that ended (`values`: per cell, the
/// letters it takes in the solutions found), with the cells that differ.
pub fn solve_summary(prep: &Prepared, o: Outcome, values: &[BTreeSet<char>]) -> Value {
    let mut summary = json!({
        "type": "summary",
        "solutions": o.found,
        "complete": o.complete,
        "unique": unique(o),
        "puzzle": prep.puzzle.name,
        "alphabet": alphabet_text(prep),
        "dialect": prep.puzzle.dialect.name(),
    });
    add_ambiguity(prep, values, &mut summary, false);
    summary
}

/// The start of the summary of a `solve` stopped after `found` solutions (its time
/// limit or a signal; the command line adds why).
pub fn stopped_solve_summary(puzzle: &Value, alphabet: &Value, found: usize) -> Value {
    json!({"type": "summary", "solutions": found, "unique": if found >= 2 { json!(false) } else { Value::Null }, "puzzle": puzzle, "alphabet": alphabet})
}

/// `"ambiguous_cells"` (each `{"cell", "values"}`, with the cell's `"id"` when `ids`)
/// and `"ambiguous_clues"` (the clues through them), added to `v` when some cell takes
/// more than one letter in `values`.
pub fn add_ambiguity(prep: &Prepared, values: &[BTreeSet<char>], v: &mut Value, ids: bool) {
    let ambiguous: Vec<usize> = (0..values.len()).filter(|&c| values[c].len() > 1).collect();
    if ambiguous.is_empty() {
        return;
    }
    v["ambiguous_cells"] = ambiguous
        .iter()
        .map(|&c| {
            let mut cell =
                json!({"cell": prep.puzzle.shape.cell_json(c), "values": values[c].iter().map(char::to_string).collect::<Vec<_>>()});
            if ids {
                cell["id"] = json!(c);
            }
            cell
        })
        .collect();
    v["ambiguous_clues"] = json!(ambiguous_clues(prep, values));
}

/// The labels of the clues through a cell that takes more than one letter in `values`.
pub fn ambiguous_clues<'a>(prep: &'a Prepared, values: &[BTreeSet<char>]) -> Vec<&'a str> {
    let open = |c: &usize| values.get(*c).is_some_and(|v| v.len() > 1);
    prep.puzzle.clues.iter().filter(|clue| clue.cells.iter().any(open)).map(|clue| clue.label.as_str()).collect()
}

/// A count in JSON: a number up to 2^53 (exact in every JSON reader), else a string of
/// digits.
pub fn count_value(n: &crate::solve::count::Big) -> Value {
    match n.to_u64().filter(|&k| k <= 1 << 53) {
        Some(k) => json!(k),
        None => json!(n.to_string()),
    }
}

/// The summary of `solve --count --json`.
pub fn count_summary(prep: &Prepared, counted: &Count) -> Value {
    let n = &counted.count;
    let mut summary = json!({
        "type": "summary",
        "solutions": 0,
        "count": count_value(n),
        "complete": true,
        "unique": n.to_u64() == Some(1),
        "puzzle": prep.puzzle.name,
        "alphabet": alphabet_text(prep),
        "dialect": prep.puzzle.dialect.name(),
    });
    if counted.listed {
        summary["counted_by"] = json!("listing");
    }
    summary
}

/// The start of the summary of a count that did not finish.
pub fn stopped_count_summary(puzzle: &Value, alphabet: &Value) -> Value {
    json!({"type": "summary", "solutions": 0, "count": Value::Null, "unique": Value::Null, "puzzle": puzzle, "alphabet": alphabet})
}
