//! Rectangles: where each clue stands (left or right of its row, above or below its
//! column, or listed), the parts of the drawing that come from the clues alone
//! ([`RectLayout`], laid out once per [`super::Sketch`] and reused), and the rows of
//! cells between them.

use super::Drawer;
use super::text::{Piece, push_right};
use crossat::puzzle::Clue;

/// What a rectangle's drawing takes from its clues alone (see [`super::Sketch`]).
pub(super) struct RectLayout {
    /// Each row's left and right clues.
    left: Vec<Piece>,
    right: Vec<Piece>,
    /// Width of the left clues.
    lw: usize,
    /// Lines above the grid (the top header), then the three borders (top, between
    /// rows, bottom), then the lines below it (bottom header, listings, other clues).
    head: Vec<String>,
    borders: [String; 3],
    tail: Vec<String>,
}

impl Drawer<'_> {
    /// The parts of a rectangle's drawing that come from its clues.
    pub(super) fn rect_layout(&self, rows: usize, cols: usize) -> RectLayout {
        let inner = self.w + 2;
        let (mut left, mut right) = (vec![vec![]; rows], vec![vec![]; rows]);
        let (mut top, mut bottom) = (vec![vec![]; cols], vec![vec![]; cols]);
        let mut other = vec![];
        if self.opt.clues {
            for (i, clue) in self.puzzle.clues.iter().enumerate() {
                match place(clue, rows, cols) {
                    Some(Place::Row(r, false)) => left[r].push(i),
                    Some(Place::Row(r, true)) => right[r].push(i),
                    Some(Place::Col(c, false)) => top[c].push(i),
                    Some(Place::Col(c, true)) => bottom[c].push(i),
                    None => other.push(i),
                }
            }
        }
        let left: Vec<Piece> = left.iter().map(|l| self.clues(l)).collect();
        let right: Vec<Piece> = right.iter().map(|l| self.clues(l)).collect();
        let lw = left.iter().map(|p| p.width).max().unwrap_or(0);
        let indent = " ".repeat(if lw > 0 { lw + 1 } else { 0 });
        let mut listings: Vec<String> = Vec::new();
        let mut side_header = |side: &[Vec<usize>], name: &str, lines: &mut Vec<String>| {
            if side.iter().all(Vec::is_empty) {
                return;
            }
            let pieces: Vec<Piece> = side.iter().map(|l| self.clues(l)).collect();
            let fits = side.iter().all(|l| l.len() <= 1) && pieces.iter().all(|p| p.width <= inner);
            let heads: Vec<Piece> = if fits { pieces.clone() } else { (1..=cols).map(|j| Piece::plain(&j.to_string())).collect() };
            let mut line = format!("{indent} ");
            for h in &heads {
                line.push_str(&h.centred(inner));
                line.push(' ');
            }
            lines.push(line);
            if !fits {
                let nw = cols.to_string().len();
                listings.push(format!("{name} clues:"));
                for (j, p) in pieces.iter().enumerate() {
                    if p.width > 0 {
                        listings.push(format!("  {:>nw$}  {}", j + 1, p.text));
                    }
                }
            }
        };
        let (mut head, mut tail) = (Vec::new(), Vec::new());
        side_header(&top, "top", &mut head);
        side_header(&bottom, "bottom", &mut tail);
        tail.extend(listings);
        tail.extend(self.other_clues(&other));
        let borders = [0, 1, 2].map(|which| format!("{indent}{}", self.border(which, cols, inner)));
        RectLayout { left, right, lw, head, borders, tail }
    }

    /// A rectangle, its clues laid out by [`Drawer::rect_layout`].
    pub(super) fn rect(&self, rows: usize, cols: usize, layout: &RectLayout) -> String {
        let inner = self.w + 2;
        let RectLayout { left, right, lw, head, borders, tail } = layout;
        let lw = *lw;
        let mut out = String::with_capacity(
            head.iter().chain(tail).map(|l| l.len() + 1).sum::<usize>() + (2 * rows + 1) * (borders[1].len() + lw + 2) * 2,
        );
        let mut push = |line: &str| {
            out.push_str(line.trim_end_matches(' '));
            out.push('\n');
        };
        head.iter().for_each(|l| push(l));
        push(&borders[0]);
        let mut line = String::new();
        for r in 0..rows {
            line.clear();
            if lw > 0 {
                push_right(&mut line, &left[r], lw);
                line.push(' ');
            }
            line.push(self.g.v);
            for c in 0..cols {
                self.push_cell(&mut line, r * cols + c, inner);
                line.push(self.g.v);
            }
            if right[r].width > 0 {
                line.push(' ');
                line.push_str(&right[r].text);
            }
            push(&line);
            push(&borders[if r + 1 == rows { 2 } else { 1 }]);
        }
        tail.iter().for_each(|l| push(l));
        out
    }
}

/// Where a rectangle's clue stands.
enum Place {
    /// Row index; `true` for a right-hand clue.
    Row(usize, bool),
    /// Column index; `true` for a bottom clue.
    Col(usize, bool),
}

fn place(clue: &Clue, rows: usize, cols: usize) -> Option<Place> {
    let first = *clue.cells.first()?;
    let is_row = clue.cells.len() == cols && clue.cells.iter().enumerate().all(|(k, &c)| c == first + k) && first % cols == 0;
    let is_col = clue.cells.len() == rows && clue.cells.iter().enumerate().all(|(k, &c)| c == first + k * cols) && first < cols;
    let label = clue.label.as_str();
    // `(right` or `(bottom` anywhere in the label (searching for `(` alone is cheaper).
    let second = label.match_indices('(').any(|(k, _)| label[k + 1..].starts_with("right") || label[k + 1..].starts_with("bottom"));
    if is_col && (label.starts_with("column") || !is_row) {
        Some(Place::Col(first, second))
    } else if is_row {
        Some(Place::Row(first / cols, second))
    } else {
        None
    }
}
