//! Stage 6, **emit**: grids as text for people and as JSON Lines for programs.

use crate::puzzle::Shape;
use crate::verify::Grid;
use serde_json::{Value, json};

/// A grid drawn with ASCII cell borders, so that spaces stay visible:
///
/// ```text
/// +-+-+
/// |H|E|
/// +-+-+
/// |L|P|
/// +-+-+
/// ```
pub fn text_grid(shape: &Shape, grid: &Grid) -> String {
    let rows = grid.rows(shape);
    let width = rows.first().map_or(0, |r| r.chars().count());
    let border = format!("+{}\n", "-+".repeat(width));
    let mut out = border.clone();
    for row in &rows {
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

/// `{"type":"solution","grid":[rows…]}`.
pub fn json_solution(shape: &Shape, grid: &Grid) -> Value {
    json!({"type": "solution", "grid": grid.rows(shape)})
}

/// One JSON Lines record as a string.
pub fn line(v: &Value) -> String {
    v.to_string()
}
