//! The drawing data of a puzzle: its shape, each cell's place, the display rows, the
//! clues with the side they stand on, the givens, the alphabet, a regex pool and the
//! clues' dialect.

use crossat::puzzle::Shape;
use crossat::records::{View, ViewCell, ViewClue, ViewPool, ViewShape};

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
pub fn view(puzzle: &crossat::Puzzle) -> View {
    let p = puzzle.puzzle();
    let shape = match &p.shape {
        Shape::Rect { rows, cols } => ViewShape::Rect { rows: *rows, cols: *cols },
        Shape::Hex(h) => ViewShape::Hex { sides: [h.top, h.nw, h.ne] },
        Shape::Free { .. } => ViewShape::Free,
    };
    let cells = (0..p.givens.len())
        .map(|c| {
            let (row, col) = p.shape.coords(c);
            // A hexagon's row starts `indent` half cells right of the leftmost row.
            let x = match &p.shape {
                Shape::Hex(h) => col as f64 + h.indent(row) as f64 / 2.0,
                _ => col as f64,
            };
            ViewCell { row, col, x, y: row, name: p.shape.cell_name(c) }
        })
        .collect();
    let clues = p
        .clues
        .iter()
        .map(|c| ViewClue { label: c.label.clone(), regex: c.regex.clone(), cells: c.cells.clone(), side: side(&p.shape, &c.label).into() })
        .collect();
    let pool =
        p.pool.as_ref().map(|pool| ViewPool { labels: pool.labels.clone(), entries: pool.entries.clone(), regexes: pool.regexes.clone() });
    View {
        name: p.name.clone(),
        shape,
        hexagon_side: match &p.shape {
            Shape::Hex(h) => h.regular_side(),
            _ => None,
        },
        cells,
        rows: p.shape.display_rows(),
        clues,
        givens: p.givens.iter().map(|g| g.map(|c| c.to_string())).collect(),
        alphabet: puzzle.alphabet().chars().map(|c| c.to_string()).collect(),
        pool,
        dialect: p.dialect.to_string(),
    }
}
