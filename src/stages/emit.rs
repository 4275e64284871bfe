//! The **emit** stage: grids as JSON Lines for programs (people get [`crate::draw`]).

use crate::puzzle::{Puzzle, Shape};
use crate::verify::Grid;
use serde_json::{Value, json};

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
