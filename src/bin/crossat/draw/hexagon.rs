//! Hexagons: each row's clues before the row, the diagonal clues listed after by label,
//! and the slanted borders, each row shifted by half a cell.

use super::Drawer;
use super::text::{Piece, finish};
use crossat::puzzle::Sides;

impl Drawer<'_> {
    /// A hexagon with sides `h`.
    pub(super) fn hex(&self, h: Sides) -> String {
        // Odd inner width, so that rows shift by a whole half cell.
        let inner = if self.w % 2 == 1 { self.w + 2 } else { self.w + 3 };
        let period = inner + 1;
        let half = period / 2;
        let rows = self.puzzle.shape.display_rows();
        let mut row_clues: Vec<Vec<usize>> = vec![vec![]; rows.len()];
        let mut other = vec![];
        if self.opt.clues {
            for (i, clue) in self.puzzle.clues.iter().enumerate() {
                match rows.iter().position(|r| *r == clue.cells) {
                    Some(r) => row_clues[r].push(i),
                    None => other.push(i),
                }
            }
        }
        let pieces: Vec<Piece> = row_clues.iter().map(|l| self.clues(l)).collect();
        let indent = |r: usize| half * h.indent(r);
        // Room for each row's clue (and a space) before its first bar.
        let shift = (0..rows.len())
            .map(|r| if pieces[r].width > 0 { (pieces[r].width + 1).saturating_sub(indent(r)) } else { 0 })
            .max()
            .unwrap_or(0);
        let (up, down) = self.g.up;
        let border = |r: usize, rising: bool| {
            let mut line = " ".repeat(shift + indent(r));
            for _ in 0..rows[r].len() {
                let cell: String = (0..period)
                    .map(|x| match (x, rising) {
                        (x, true) if x == half - 1 => up,
                        (x, true) if x == half + 1 => down,
                        (x, false) if x == half - 1 => down,
                        (x, false) if x == half + 1 => up,
                        _ => ' ',
                    })
                    .collect();
                line.push_str(&cell);
            }
            line
        };
        let mut lines = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            lines.extend(border_above(&rows, r, border));
            let lead = shift + indent(r);
            let mut line = if pieces[r].width > 0 { format!("{} ", pieces[r].right(lead - 1)) } else { " ".repeat(lead) };
            for &c in row {
                line.push(self.g.v);
                line.push_str(&self.cell(c, inner));
            }
            line.push(self.g.v);
            lines.push(line);
        }
        lines.extend(border_above(&rows, rows.len(), border));
        lines.extend(self.other_clues(&other));
        finish(lines)
    }
}

/// The border line above row `r` of `rows` (`r` = the number of rows: below the last), from
/// `edge(row, rising)`, which draws the rising edges above a row or the falling edges
/// below it. Of two neighbouring rows the wider one's edges make the border; rows of
/// equal width (only in irregular hexagons) overlay both, which meet at the same
/// characters when the cells are narrow.
fn border_above(rows: &[Vec<usize>], r: usize, edge: impl Fn(usize, bool) -> String) -> Option<String> {
    let n = rows.len();
    let (above, below) = (r.checked_sub(1), (r < n).then_some(r));
    let line = match (above, below) {
        (None, None) => return None,
        (None, Some(b)) => edge(b, true),
        (Some(a), None) => edge(a, false),
        (Some(a), Some(b)) => match rows[a].len().cmp(&rows[b].len()) {
            std::cmp::Ordering::Less => edge(b, true),
            std::cmp::Ordering::Greater => edge(a, false),
            std::cmp::Ordering::Equal => overlay(&edge(a, false), &edge(b, true)),
        },
    };
    Some(line)
}

/// Two lines laid over each other: a character that is not a space wins.
fn overlay(a: &str, b: &str) -> String {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let line: String = (0..a.len().max(b.len()))
        .map(|i| match (a.get(i).copied().unwrap_or(' '), b.get(i).copied().unwrap_or(' ')) {
            (' ', y) => y,
            (x, _) => x,
        })
        .collect();
    line.trim_end().to_string()
}
