//! Free layouts: a coordinate grid with row and column numbers and holes where there is
//! no cell (or a note when the cells lie too far apart to draw), and one line per entry
//! (clue, or pool entry): label, first cell, regex, word.

use super::Drawer;
use super::text::{Piece, finish};

impl Drawer<'_> {
    /// A free layout: its grid when it has coordinates, and its entries.
    pub(super) fn free(&self, coords: Option<&[(usize, usize)]>) -> String {
        /// Largest drawing of a free layout, in cells (holes included).
        const MAX_CANVAS: usize = 40_000;
        let mut lines = Vec::new();
        if let Some(xy) = coords {
            let (rows, cols) = xy.iter().fold((0usize, 0usize), |(r, c), &(y, x)| (r.max(y.saturating_add(1)), c.max(x.saturating_add(1))));
            // Cells far apart: the drawing's size is not bounded by the puzzle's, and it
            // would be mostly holes; the entries below say it all.
            if rows.saturating_mul(cols) > MAX_CANVAS.max(4 * xy.len()) {
                lines.push(format!("(the cells span {rows} rows and {cols} columns: too far apart to draw)"));
                lines.extend(self.entries(true));
                return finish(lines);
            }
            let mut at = vec![vec![None; cols]; rows];
            for (c, &(y, x)) in xy.iter().enumerate() {
                at[y][x] = Some(c);
            }
            let inner = self.w + 2;
            let numbers = self.opt.clues;
            let rw = if numbers { rows.to_string().len() + 1 } else { 0 };
            let indent = " ".repeat(rw);
            if numbers {
                let mut head = format!("{indent} ");
                for j in 1..=cols {
                    head.push_str(&Piece::plain(&j.to_string()).centred(inner));
                    head.push(' ');
                }
                lines.push(head);
            }
            lines.push(format!("{indent}{}", self.border(0, cols, inner)));
            for (r, row) in at.iter().enumerate() {
                let mut line = if numbers { format!("{:>w$} ", r + 1, w = rw - 1) } else { String::new() };
                line.push(self.g.v);
                for cell in row {
                    match cell {
                        Some(c) => line.push_str(&self.cell(*c, inner)),
                        None => line.extend(std::iter::repeat_n(self.g.hole, inner)),
                    }
                    line.push(self.g.v);
                }
                lines.push(line);
                lines.push(format!("{indent}{}", self.border(if r + 1 == rows { 2 } else { 1 }, cols, inner)));
            }
        }
        if self.opt.clues || coords.is_none() {
            lines.extend(self.entries(coords.is_some()));
        }
        finish(lines)
    }

    /// One line per entry (clue, or pool entry): label, first cell, regex, word.
    pub(super) fn entries(&self, coords: bool) -> Vec<String> {
        let word = |cells: &[usize]| -> String { cells.iter().map(|&c| self.shown[c].clone()).collect() };
        let start = |cells: &[usize]| -> String {
            match (coords, cells.first()) {
                (true, Some(&c)) => {
                    let (r, col) = self.puzzle.shape.coords(c);
                    format!("r{}c{}", r + 1, col + 1)
                }
                _ => String::new(),
            }
        };
        let rows: Vec<[Piece; 4]> = match &self.puzzle.pool {
            Some(pool) => pool
                .entries
                .iter()
                .enumerate()
                .map(|(e, cells)| {
                    let regex =
                        self.view.assignment.get(e).and_then(|&k| pool.regexes.get(k)).map_or_else(Piece::default, |r| Piece::plain(r));
                    [Piece::plain(&pool.labels[e]), Piece::plain(&start(cells)), regex, Piece::plain(&word(cells))]
                })
                .collect(),
            None => self
                .puzzle
                .clues
                .iter()
                .enumerate()
                .map(|(i, c)| [Piece::plain(&c.label), Piece::plain(&start(&c.cells)), self.clue(i), Piece::plain(&word(&c.cells))])
                .collect(),
        };
        let widths: Vec<usize> = (0..4).map(|k| rows.iter().map(|r| r[k].width).max().unwrap_or(0)).collect();
        rows.iter()
            .map(|r| {
                let mut parts = vec![];
                for (k, p) in r.iter().enumerate() {
                    if widths[k] > 0 {
                        parts.push(if k == 3 { p.text.clone() } else { p.left(widths[k]) });
                    }
                }
                parts.join("  ")
            })
            .collect()
    }
}
