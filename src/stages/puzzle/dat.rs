//! The `.dat` format of dkesler/regex-crossword-solver: blank-line separated blocks
//! `rows cols`, one regex per row, one per column, and optionally the solution rows
//! (ignored here).

use super::{Puzzle, RectClues};
use crate::error::{Error, Result};

/// Reads a `.dat` puzzle.
pub(crate) fn read(source: &str, text: &str) -> Result<Puzzle> {
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
    if blocks[0].len() != 1 {
        return Err(Error::input(source, "the `rows cols` line must be followed by a blank line, then the row regexes"));
    }
    let (Some(row_block), Some(col_block)) = (blocks.get(1), blocks.get(2)) else {
        return Err(Error::input(source, "expected a block of row regexes and a block of column regexes, separated by a blank line"));
    };
    for (block, want, what) in [(row_block, rows, "row"), (col_block, cols, "column")] {
        if block.len() != want {
            return Err(Error::input(
                source,
                format!(
                    "{} {what} regexes for {want} {what}s (is a blank line missing between the row and the column regexes?)",
                    block.len()
                ),
            ));
        }
    }
    if let Some(solution) = blocks.get(3)
        && solution.len() != rows
    {
        return Err(Error::input(source, format!("the solution block has {} rows, the puzzle has {rows}", solution.len())));
    }
    if blocks.len() > 4 {
        return Err(Error::input(source, format!("{} blank-line separated blocks; a .dat file has at most 4", blocks.len())));
    }
    let one_each = |b: &Vec<&str>| Some(b.iter().map(|r| vec![r.to_string()]).collect());
    let sides = RectClues { left: one_each(row_block), top: one_each(col_block), ..RectClues::default() };
    Puzzle::rect(source, None, Some(rows), Some(cols), sides)
}
