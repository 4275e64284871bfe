//! The text format of antoine-trux/regex-crossword-solver, read (`read`) and written
//! ([`write()`]); [`relabel`] gives any puzzle the labels the writers want:
//!
//! ```text
//! shape = rectangular
//! num_rows = 2
//! num_cols = 2
//! num_regexes_per_row = 1
//! num_regexes_per_col = 1
//! # rows, then columns, each regex in single quotes
//! 'HE|LL|O+'
//! '[PLEASE]+'
//! '[^SPEAK]+'
//! 'EP|IP|EF'
//! ```
//! Files that are not valid UTF-8 are read as Windows-1252 (some published files hold
//! single Latin-1/cp1252 bytes such as 0x96, an en dash).

use super::{Clue, Puzzle, RectClues, Shape};
use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// Decodes the bytes: UTF-8 when valid, Windows-1252 otherwise.
pub(crate) fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes.iter().map(|&b| cp1252(b)).collect(),
    }
}

fn cp1252(b: u8) -> char {
    const HIGH: [u16; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F, //
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    match b {
        0x80..=0x9F => char::from_u32(u32::from(HIGH[usize::from(b - 0x80)])).unwrap_or('\u{FFFD}'),
        _ => char::from(b),
    }
}

/// Reads a puzzle in the antoine-trux text format.
pub(crate) fn read(source: &str, text: &str) -> Result<Puzzle> {
    let mut keys = BTreeMap::new();
    let mut regexes = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.starts_with('\'') {
            let Some(inner) = line.strip_prefix('\'').and_then(|l| l.strip_suffix('\'')).filter(|_| line.len() >= 2) else {
                return Err(Error::input(source, format!("line {}: regex must be enclosed in single quotes", i + 1)));
            };
            regexes.push(inner.to_string());
        } else if let Some((k, v)) = line.split_once('=') {
            let _ = keys.insert(k.trim().to_string(), v.trim().to_string());
        } else {
            return Err(Error::input(source, format!("line {}: expected `key = value` or a quoted regex", i + 1)));
        }
    }
    let num = |k: &str| -> Result<usize> {
        let v = keys.get(k).ok_or_else(|| Error::input(source, format!("missing `{k} = …`")))?;
        v.parse().map_err(|_| Error::input(source, format!("`{k}` must be a number, got '{v}'")))
    };
    let name = text.lines().next().and_then(|l| l.strip_prefix('#')).map(|l| l.trim().to_string());
    match keys.get("shape").map(String::as_str) {
        Some("rectangular") => {}
        Some("hexagonal") => return read_hex(source, name, &regexes, num("num_regexes_per_line")?),
        Some(other) => return Err(Error::input(source, format!("unknown shape '{other}'"))),
        None => return Err(Error::input(source, "missing `shape = …`")),
    }
    let (rows, cols) = (num("num_rows")?, num("num_cols")?);
    let (per_row, per_col) = (num("num_regexes_per_row")?, num("num_regexes_per_col")?);
    let Some(want) = rows.checked_mul(per_row).zip(cols.checked_mul(per_col)).and_then(|(r, c)| r.checked_add(c)) else {
        return Err(Error::input(source, format!("{rows} rows × {per_row} + {cols} columns × {per_col} clues is too many")));
    };
    if regexes.len() != want {
        return Err(Error::input(
            source,
            format!("{} regexes for {rows} rows × {per_row} + {cols} columns × {per_col} = {want} clues", regexes.len()),
        ));
    }
    let (row_part, col_part) = regexes.split_at(rows * per_row);
    let chunk = |part: &[String], k: usize| -> Vec<Vec<String>> { part.chunks(k.max(1)).map(<[String]>::to_vec).collect() };
    // The format has no sides: all row clues read left to right, all column clues top to bottom.
    let sides = RectClues {
        left: (per_row > 0).then(|| chunk(row_part, per_row)),
        top: (per_col > 0).then(|| chunk(col_part, per_col)),
        ..RectClues::default()
    };
    Puzzle::rect(source, name, Some(rows), Some(cols), sides)
}

/// Hexagons: `k` regexes per line; rows top to bottom (read west to east), then the
/// NW–SE diagonals in index order read south-east to north-west, then the NE–SW
/// diagonals in reverse index order read north-east to south-west ("listed
/// counterclockwise", checked against the published solutions).
fn read_hex(source: &str, name: Option<String>, regexes: &[String], k: usize) -> Result<Puzzle> {
    if k == 0 || !k.checked_mul(3).is_some_and(|axes| regexes.len().is_multiple_of(axes)) {
        return Err(Error::input(source, format!("{} regexes cannot fill 3 axes with {k} per line", regexes.len())));
    }
    let lines: Vec<Vec<String>> = regexes.chunks(k).map(<[String]>::to_vec).collect();
    let h = super::hex::Sides::regular(super::hex::side_of(source, lines.len() / 3)?);
    Ok(super::hex::from_lines(name, h, &hex_lines(h), &lines))
}

/// The lines of a shape in the order this format lists its regexes, as (label, cells):
/// a rectangle's rows (`row 1`, …) then its columns (`column 1`, …), a hexagon's lines
/// as `hex_lines` gives them; a free shape has none.
pub(crate) fn lines(shape: &Shape) -> Vec<(String, Vec<usize>)> {
    match shape {
        Shape::Rect { rows, cols } => (0..*rows)
            .map(|r| (format!("row {}", r + 1), (0..*cols).map(|c| r * cols + c).collect()))
            .chain((0..*cols).map(|c| (format!("column {}", c + 1), (0..*rows).map(|r| r * cols + c).collect())))
            .collect(),
        Shape::Hex(h) => hex_lines(*h),
        Shape::Free { .. } => vec![],
    }
}

/// The lines of a hexagon in the order and reading direction of this format (the order
/// its regexes are listed in): rows, NW–SE diagonals read up, NE–SW diagonals read down
/// from the last to the first.
pub(crate) fn hex_lines(h: super::hex::Sides) -> Vec<(String, Vec<usize>)> {
    use super::hex::{Read, lines};
    let mut all = lines(h, Read::Up, Read::Down);
    all[h.rows() + h.nw_se_lines()..].reverse();
    all
}

/// The puzzle in this format, `sides` regexes per line (a line with fewer gets `'.*'`
/// for the missing ones), the lines in the order of [`lines`]. The clues must carry
/// the labels [`lines`] gives their lines, a second clue on a line the label plus
/// ` #2` (as `crossat generate` labels them).
pub(crate) fn write(p: &Puzzle, sides: usize) -> String {
    let quote = |re: &str| format!("'{re}'");
    let lines = lines(&p.shape);
    let clues_of = |label: &str| -> Vec<String> {
        let mut v: Vec<String> =
            p.clues.iter().filter(|c| c.label == label || c.label == format!("{label} #2")).map(|c| quote(&c.regex)).collect();
        while v.len() < sides {
            v.push("'.*'".into());
        }
        v
    };
    let body: Vec<String> = lines.iter().flat_map(|(label, _)| clues_of(label)).collect();
    match &p.shape {
        Shape::Rect { rows, cols } => format!(
            "# generated by crossat\n\nshape = rectangular\n\nnum_rows = {rows}\nnum_cols = {cols}\n\nnum_regexes_per_row = {sides}\nnum_regexes_per_col = {sides}\n\n{}\n",
            body.join("\n")
        ),
        _ => format!(
            "# generated by crossat\n\nshape = hexagonal\n\nnum_regexes_per_line = {sides}\n\n# the regexes are listed counterclockwise\n\n{}\n",
            body.join("\n")
        ),
    }
}

/// The puzzle with its clues labelled as the writers (this one, `native::file`,
/// `challenges::sets`) want them: each clue on the line of [`lines`] with the same cells
/// in the same order, a second clue on a line as its `#2`; with the most clues on one
/// line (1 or 2). `format` names the format for the refusal: a free layout, a hexagon
/// that is not regular, a regex pool, a clue that reads its line backwards and a third
/// clue on a line cannot be written.
pub(crate) fn relabel(p: &Puzzle, format: &str) -> Result<(Puzzle, usize)> {
    let refuse = |why: String| Err(Error::Usage(format!("this puzzle cannot be written as {format}: {why}")));
    match &p.shape {
        Shape::Free { .. } => return refuse("the writers hold rectangles and regular hexagons only".into()),
        Shape::Hex(h) if h.regular_side().is_none() => return refuse("the writers hold regular hexagons only".into()),
        _ => {}
    }
    if p.pool.is_some() {
        return refuse("a regex pool has no fixed clues".into());
    }
    let lines = lines(&p.shape);
    let mut per_line = vec![0usize; lines.len()];
    let mut clues = Vec::new();
    for c in &p.clues {
        let Some(k) = lines.iter().position(|(_, cells)| *cells == c.cells) else {
            return refuse(format!("{} reads its line the other way", c.label));
        };
        per_line[k] += 1;
        let label = match per_line[k] {
            1 => lines[k].0.clone(),
            2 => format!("{} #2", lines[k].0),
            _ => return refuse(format!("{} is the third clue on its line (two at most)", c.label)),
        };
        clues.push(Clue { label, regex: c.regex.clone(), cells: c.cells.clone() });
    }
    let sides = per_line.iter().copied().max().unwrap_or(1).max(1);
    Ok((Puzzle { clues, ..p.clone() }, sides))
}
