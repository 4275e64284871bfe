//! Text tables: each column as wide as its widest cell (or its minimum), measured in
//! terminal columns (`unicode-width`), so that a long label or a wide character never
//! shifts the columns after it.

use unicode_width::UnicodeWidthStr;

/// One column: how its cells sit in its width, its least width, and the spaces before
/// it (none before the first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub right: bool,
    pub min: usize,
    pub gap: usize,
}

/// A left-aligned column at least `min` wide after `gap` spaces.
pub const fn left(min: usize, gap: usize) -> Column {
    Column { right: false, min, gap }
}

/// A right-aligned column at least `min` wide after `gap` spaces.
pub const fn right(min: usize, gap: usize) -> Column {
    Column { right: true, min, gap }
}

/// The rows laid out as lines (no newline, no trailing spaces). Rows shorter than
/// `columns` leave the rest empty.
pub fn lines(rows: &[Vec<String>], columns: &[Column]) -> Vec<String> {
    let mut widths: Vec<usize> = columns.iter().map(|c| c.min).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.width());
        }
    }
    rows.iter()
        .map(|row| {
            let mut line = String::new();
            for (i, (cell, (&w, c))) in row.iter().zip(widths.iter().zip(columns)).enumerate() {
                if i > 0 {
                    line.push_str(&" ".repeat(c.gap));
                }
                let pad = " ".repeat(w - cell.width());
                if c.right {
                    line.push_str(&pad);
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.push_str(&pad);
                }
            }
            line.trim_end().to_string()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_as_wide_as_their_widest_cell_in_terminal_columns() {
        let rows = vec![
            vec!["a".to_string(), "1".to_string(), "x".to_string()],
            vec!["日本".to_string(), "100".to_string(), "y".to_string()],
            vec!["long label".to_string(), "22".to_string(), "".to_string()],
        ];
        assert_eq!(lines(&rows, &[left(0, 0), right(0, 1), left(0, 1)]), ["a            1 x", "日本       100 y", "long label  22"]);
        // A minimum width holds when every cell fits in it.
        assert_eq!(lines(&rows[..1], &[left(4, 0), right(3, 2), left(0, 1)]), ["a       1 x"]);
    }
}
