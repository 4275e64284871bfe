//! The drawing data of a puzzle: its shape, each cell's place, the display rows, the
//! clues with the side they stand on, the givens, the alphabet, a regex pool and the
//! clues' dialect.

use crossat::pipeline::Prepared;
use crossat::puzzle::Shape;
use serde_json::{Value, json};

/// Where a clue stands, as the command line draws it: a rectangle's clue on its side
/// (`left`, `right`, `top`, `bottom`, from its label); a hexagon's row clue on the
/// `left`, its diagonals `nw-se` and `ne-sw` (listed after the grid); a free layout's
/// entries `entry`.
fn side(shape: &Shape, label: &str) -> &'static str {
    match shape {
        Shape::Rect { .. } => ["left", "right", "top", "bottom"].into_iter().find(|s| label.contains(&format!("({s}"))).unwrap_or("entry"),
        Shape::Hex(_) if label.starts_with("row ") => "left",
        Shape::Hex(_) if label.starts_with("NW-SE") => "nw-se",
        Shape::Hex(_) if label.starts_with("NE-SW") => "ne-sw",
        _ => "entry",
    }
}

/// The view of web/API.md.
pub fn view(prep: &Prepared) -> Value {
    let p = &prep.puzzle;
    let shape = match &p.shape {
        Shape::Rect { rows, cols } => json!({"kind": "rect", "rows": rows, "cols": cols}),
        Shape::Hex(h) => json!({"kind": "hex", "sides": [h.top, h.nw, h.ne]}),
        Shape::Free { .. } => json!({"kind": "free"}),
    };
    let cells: Vec<Value> = (0..p.givens.len())
        .map(|c| {
            let (row, col) = p.shape.coords(c);
            // A hexagon's row starts `indent` half cells right of the leftmost row.
            let x = match &p.shape {
                Shape::Hex(h) => col as f64 + h.indent(row) as f64 / 2.0,
                _ => col as f64,
            };
            json!({"row": row, "col": col, "x": x, "y": row, "name": p.shape.cell_name(c)})
        })
        .collect();
    let clues: Vec<Value> =
        p.clues.iter().map(|c| json!({"label": c.label, "regex": c.regex, "cells": c.cells, "side": side(&p.shape, &c.label)})).collect();
    let pool = p.pool.as_ref().map(|pool| json!({"labels": pool.labels, "entries": pool.entries, "regexes": pool.regexes}));
    let regular = match &p.shape {
        Shape::Hex(h) => h.regular_side().map(|s| json!(s)).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    json!({
        "name": p.name,
        "shape": shape,
        "hexagon_side": regular,
        "cells": cells,
        "rows": p.shape.display_rows(),
        "clues": clues,
        "givens": p.givens.iter().map(|g| g.map(|c| c.to_string())).collect::<Vec<_>>(),
        "alphabet": prep.alphabet().chars().iter().map(char::to_string).collect::<Vec<_>>(),
        "pool": pool,
        "dialect": p.dialect.name(),
    })
}
