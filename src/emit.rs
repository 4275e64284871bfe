//! Stage 6, **emit**: grids as text for people and as JSON Lines for programs.

use crate::puzzle::{Puzzle, Shape, hex};
use crate::verify::Grid;
use serde_json::{Value, json};

/// A solution as text: rectangles with ASCII cell borders (so that spaces stay
/// visible), hexagons drawn as hexagons, free layouts as `entry regex word` lines
/// followed by the grid (`#` where there is no cell) when cells have coordinates.
///
/// ```text
/// +-+-+
/// |H|E|
/// +-+-+
/// |L|P|
/// +-+-+
/// ```
pub fn text(puzzle: &Puzzle, grid: &Grid) -> String {
    match &puzzle.shape {
        Shape::Rect { .. } => boxed(&grid.rows(&puzzle.shape)),
        Shape::Hex { side } => hex::draw(*side, &grid.cells),
        Shape::Free { coords, .. } => {
            let mut out: String = entries(puzzle, grid).iter().map(|(e, re, w)| format!("{e} {re} {w}\n")).collect();
            if let Some(xy) = coords {
                let (rows, cols) = xy.iter().fold((0, 0), |(r, c), &(y, x)| (r.max(y.saturating_add(1)), c.max(x.saturating_add(1))));
                // Cells far apart: the drawing would be mostly `#` (and its size is not
                // bounded by the puzzle's); the entries above say it all.
                if rows.saturating_mul(cols) > MAX_CANVAS.max(4 * xy.len()) {
                    out.push_str(&format!("\n(the cells span {rows} rows and {cols} columns: too far apart to draw)\n"));
                    return out;
                }
                let mut canvas = vec![vec!['#'; cols]; rows];
                for (c, &(y, x)) in xy.iter().enumerate() {
                    canvas[y][x] = grid.cells[c];
                }
                out.push('\n');
                out.push_str(&boxed(&canvas.into_iter().map(|r| r.into_iter().collect()).collect::<Vec<String>>()));
            }
            out
        }
    }
}

/// Largest drawing of a free layout, in cells (`#` included).
const MAX_CANVAS: usize = 40_000;

fn boxed(rows: &[String]) -> String {
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let border = format!("+{}\n", "-+".repeat(width));
    let mut out = border.clone();
    for row in rows {
        out.push('|');
        for ch in row.chars() {
            out.push(ch);
            out.push('|');
        }
        out.push('\n');
        out.push_str(&border);
    }
    out
}

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
