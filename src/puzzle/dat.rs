//! The `.dat` format of dkesler/regex-crossword-solver: blank-line separated blocks
//! `rows cols`, one regex per row, one per column, and optionally the solution rows
//! (ignored here).

use super::{Puzzle, RectClues};
use crate::error::{Error, Result};

/// Reads a `.dat` puzzle.
pub fn read(source: &str, text: &str) -> Result<Puzzle> {
    let text = text.replace("\r\n", "\n");
    let blocks: Vec<Vec<&str>> = text
        .split("\n\n")
        .map(|b| b.lines().map(|l| l.strip_suffix('\r').unwrap_or(l)).filter(|l| !l.is_empty()).collect::<Vec<_>>())
        .filter(|b| !b.is_empty())
        .collect();
    let dims: Vec<usize> =
        blocks.first().and_then(|b| b.first()).map_or(vec![], |l| l.split_whitespace().filter_map(|n| n.parse().ok()).collect());
    let [rows, cols] = dims[..] else {
        return Err(Error::input(source, "first line must be `rows cols`"));
    };
    let (Some(row_block), Some(col_block)) = (blocks.get(1), blocks.get(2)) else {
        return Err(Error::input(source, "expected a block of row regexes and a block of column regexes"));
    };
    let one_each = |b: &Vec<&str>| Some(b.iter().map(|r| vec![r.to_string()]).collect());
    let sides = RectClues { left: one_each(row_block), top: one_each(col_block), ..RectClues::default() };
    Puzzle::rect(source, None, Some(rows), Some(cols), sides)
}
