//! Regular hexagons: geometry, and the hexagon formats of other tools.
//!
//! A hexagon of side `s` has `2s − 1` rows; row `r` holds `2s − 1 − |r − (s − 1)|`
//! cells, numbered left to right, rows top to bottom. Besides the rows there are two
//! diagonal families, each of `2s − 1` lines, indexed left to right along the top:
//!
//! - **NW–SE** diagonal `k`: the cells `(r, c)` with `c + max(0, s−1−r) = k`;
//! - **NE–SW** diagonal `k`: the cells `(r, c)` with `c + max(0, r−(s−1)) = k`.
//!
//! Sources disagree on which way the diagonals are read; each importer states the cell
//! order of every line explicitly and never reverses a regex.

use super::{Clue, Puzzle, Shape};
use crate::error::{Error, Result};
use serde_json::Value;

/// Number of cells of a hexagon of side `s`.
pub fn cells(s: usize) -> usize {
    3 * s * (s - 1) + 1
}

/// Cells in row `r`.
pub fn row_len(s: usize, r: usize) -> usize {
    2 * s - 1 - r.abs_diff(s - 1)
}

/// The cell ids of every row.
pub fn rows(s: usize) -> Vec<Vec<usize>> {
    let mut next = 0;
    (0..2 * s - 1)
        .map(|r| {
            let row: Vec<usize> = (next..next + row_len(s, r)).collect();
            next += row.len();
            row
        })
        .collect()
}

/// (row, index in row) of cell `id`.
pub fn coords(s: usize, id: usize) -> (usize, usize) {
    let mut start = 0;
    for r in 0..2 * s - 1 {
        let len = row_len(s, r);
        if id < start + len {
            return (r, id - start);
        }
        start += len;
    }
    (2 * s - 1, 0)
}

/// Cell id of (row, index), if inside.
pub fn id(s: usize, r: usize, c: usize) -> Option<usize> {
    (r < 2 * s - 1 && c < row_len(s, r)).then(|| (0..r).map(|q| row_len(s, q)).sum::<usize>() + c)
}

/// NW–SE diagonal `k`, top to bottom.
pub fn nw_se(s: usize, k: usize) -> Vec<usize> {
    (0..2 * s - 1).filter_map(|r| k.checked_sub((s - 1).saturating_sub(r)).and_then(|c| id(s, r, c))).collect()
}

/// NE–SW diagonal `k`, top to bottom.
pub fn ne_sw(s: usize, k: usize) -> Vec<usize> {
    (0..2 * s - 1).filter_map(|r| k.checked_sub(r.saturating_sub(s - 1)).and_then(|c| id(s, r, c))).collect()
}

/// Reading direction of a diagonal family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// Top to bottom.
    Down,
    /// Bottom to top.
    Up,
}

/// The clues of one axis: per line (in index order), its clues.
pub struct Axis {
    /// Clues per line.
    pub lines: Vec<Vec<String>>,
    /// How the lines are read (rows are always read left to right).
    pub read: Read,
}

/// Builds a hexagon puzzle from rows (read left to right) and the two diagonal families.
pub fn puzzle(source: &str, name: Option<String>, rows: Vec<Vec<String>>, nwse: Axis, nesw: Axis) -> Result<Puzzle> {
    let n = rows.len();
    let s = side_of(source, n)?;
    for (what, len) in [("NW-SE diagonals", nwse.lines.len()), ("NE-SW diagonals", nesw.lines.len())] {
        if len != n {
            return Err(Error::input(source, format!("{len} {what} for a hexagon with {n} rows (each axis needs one entry per line)")));
        }
    }
    let lists: Vec<Vec<String>> = rows.into_iter().chain(nwse.lines).chain(nesw.lines).collect();
    Ok(from_lines(name, s, &lines(s, nwse.read, nesw.read), &lists))
}

/// The side of a regular hexagon with `n` rows, within the cell limit.
pub fn side_of(source: &str, n: usize) -> Result<usize> {
    if n == 0 || n.is_multiple_of(2) {
        return Err(Error::input(source, format!("a regular hexagon has an odd number of rows, got {n}")));
    }
    let s = n.div_ceil(2);
    if cells(s) > super::MAX_CELLS {
        return Err(Error::input_limit(source, format!("hexagon of side {s} exceeds the limit of {} cells", super::MAX_CELLS)));
    }
    Ok(s)
}

/// Every line of a hexagon with its label and cells in reading order: the rows (left to
/// right), then the NW–SE diagonals, then the NE–SW diagonals, each family by index.
pub fn lines(s: usize, nwse: Read, nesw: Read) -> Vec<(String, Vec<usize>)> {
    let mut out: Vec<(String, Vec<usize>)> = rows(s).into_iter().enumerate().map(|(r, cells)| (format!("row {}", r + 1), cells)).collect();
    for (family, read, line) in [("NW-SE", nwse, nw_se as fn(usize, usize) -> Vec<usize>), ("NE-SW", nesw, ne_sw)] {
        for k in 0..2 * s - 1 {
            let mut cells = line(s, k);
            let dir = match read {
                Read::Down => "down",
                Read::Up => {
                    cells.reverse();
                    "up"
                }
            };
            out.push((format!("{family} diagonal {} (read {dir})", k + 1), cells));
        }
    }
    out
}

/// A hexagon puzzle from its lines and, line by line, their clues (`#2`… when several).
pub fn from_lines(name: Option<String>, s: usize, lines: &[(String, Vec<usize>)], clues: &[Vec<String>]) -> Puzzle {
    let mut all = Vec::new();
    for ((label, cells), list) in lines.iter().zip(clues) {
        for (j, regex) in list.iter().enumerate() {
            let label = if list.len() == 1 { label.clone() } else { format!("{label} #{}", j + 1) };
            all.push(Clue { label, regex: regex.clone(), cells: cells.clone() });
        }
    }
    Puzzle { name, shape: Shape::Hex { side: s }, clues: all, alphabet: None, givens: vec![None; cells(s)], pool: None }
}

/// The board JSON of Jimbly's regex-crossword game, also used by binoternary's
/// generator and CuSO4Deposit's hexregex: `{size, x, y, z}` (or `{kind: "hex", edge,
/// x, y, z}`): `y[r]` reads row r left to right, `z[k]` NW–SE diagonal k top to bottom,
/// `x[k]` NE–SW diagonal k bottom to top. `{kind: "rect", rows, cols, x, y}` is a
/// rectangle: `y[i]` row i, `x[j]` column j.
pub fn read_board(source: &str, obj: &serde_json::Map<String, Value>) -> Result<Puzzle> {
    let list = |k: &str| -> Result<Vec<Vec<String>>> {
        let Some(Value::Array(v)) = obj.get(k) else { return Err(Error::input(source, format!("board has no \"{k}\" array"))) };
        v.iter()
            .map(|c| match c {
                Value::String(s) => Ok(vec![s.clone()]),
                Value::Array(a) => a
                    .iter()
                    .map(|x| x.as_str().map(str::to_string).ok_or_else(|| Error::input(source, format!("\"{k}\": clues must be strings"))))
                    .collect(),
                _ => Err(Error::input(source, format!("\"{k}\": clues must be strings"))),
            })
            .collect()
    };
    let name = obj.get("name").or_else(|| obj.get("author")).and_then(Value::as_str).map(str::to_string);
    if obj.get("kind").and_then(Value::as_str) == Some("rect") {
        let sides = super::RectClues { left: Some(list("y")?), top: Some(list("x")?), ..Default::default() };
        let dim = |k: &str| obj.get(k).and_then(Value::as_u64).map(|v| v as usize);
        return Puzzle::rect(source, name, dim("rows"), dim("cols"), sides);
    }
    let p = puzzle(source, name, list("y")?, Axis { lines: list("z")?, read: Read::Down }, Axis { lines: list("x")?, read: Read::Up })?;
    let declared = obj
        .get("size")
        .and_then(Value::as_u64)
        .map(|v| v as usize)
        .or_else(|| obj.get("edge").and_then(Value::as_u64).map(|e| 2 * e as usize - 1));
    if let (Some(d), Shape::Hex { side }) = (declared, &p.shape)
        && d != 2 * side - 1
    {
        return Err(Error::input(source, format!("board size {d} does not match its {} rows of clues", 2 * side - 1)));
    }
    Ok(p)
}

/// The `(x,y) length regex` list of hesselink/regex-crossword: sections `Horizontal`,
/// `Vertical`, `Diagonal`; each line gives a start cell and a length. With `y` the row
/// and `x = c + max(0, y − (s−1))`, the sections step by (+1, 0), (0, +1) and (−1, −1).
pub fn read_hesselink(source: &str, text: &str) -> Result<Puzzle> {
    let mut section = None;
    let mut entries: Vec<(usize, (i64, i64), usize, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        match line {
            "" => continue,
            "Horizontal" => section = Some(0),
            "Vertical" => section = Some(1),
            "Diagonal" => section = Some(2),
            _ => {
                let Some(sec) = section else {
                    return Err(Error::input(source, format!("line {}: clue before a Horizontal/Vertical/Diagonal header", i + 1)));
                };
                let bad = || Error::input(source, format!("line {}: expected `(x,y) length regex`", i + 1));
                let rest = line.strip_prefix('(').ok_or_else(bad)?;
                let (xy, rest) = rest.split_once(')').ok_or_else(bad)?;
                let (x, y) = xy.split_once(',').ok_or_else(bad)?;
                let (x, y): (i64, i64) = (x.trim().parse().map_err(|_| bad())?, y.trim().parse().map_err(|_| bad())?);
                let (len, regex) = rest.trim_start().split_once(' ').ok_or_else(bad)?;
                let len: usize = len.parse().map_err(|_| bad())?;
                if len > super::MAX_CELLS {
                    return Err(Error::input(
                        source,
                        format!("line {}: length {len} exceeds the limit of {} cells", i + 1, super::MAX_CELLS),
                    ));
                }
                entries.push((sec, (x, y), len, regex.to_string()));
            }
        }
    }
    let rows = entries.iter().filter(|e| e.0 == 0).count();
    if rows == 0 || rows % 2 == 0 {
        return Err(Error::input(source, format!("expected an odd number of Horizontal lines, got {rows}")));
    }
    let s = rows.div_ceil(2);
    let mut clues = Vec::new();
    for (k, (sec, (x0, y0), len, regex)) in entries.into_iter().enumerate() {
        let step = [(1, 0), (0, 1), (-1, -1)][sec];
        let mut cells = Vec::with_capacity(len);
        for j in 0..len as i64 {
            let (x, y) = (x0 + step.0 * j, y0 + step.1 * j);
            let cell = (x >= 0 && y >= 0)
                .then(|| {
                    let (x, y) = (x as usize, y as usize);
                    x.checked_sub(y.saturating_sub(s - 1)).and_then(|c| id(s, y, c))
                })
                .flatten();
            let Some(c) = cell else {
                return Err(Error::input(source, format!("clue {} '{regex}': cell ({x},{y}) is outside the hexagon", k + 1)));
            };
            cells.push(c);
        }
        let label = format!("{} line {}", ["horizontal", "vertical", "diagonal"][sec], k + 1);
        clues.push(Clue { label, regex, cells });
    }
    Ok(Puzzle { name: None, shape: Shape::Hex { side: s }, clues, alphabet: None, givens: vec![None; cells(s)], pool: None })
}

/// Draws a hexagon as the reference solver does:
///
/// ```text
///    / \ / \
///   | F | L |
///  / \ / \ / \
/// | R | O | ! |
///  \ / \ / \ /
///   | W | E |
///    \ / \ /
/// ```
pub fn draw(s: usize, grid: &[char]) -> String {
    let rows = rows(s);
    let n = rows.len();
    let indent = |r: usize| 2 * (2 * s - 1 - row_len(s, r));
    let mut out = String::new();
    let border = |r: usize, up: bool| {
        let pat = if up { "/ \\" } else { "\\ /" };
        format!("{}{}\n", " ".repeat(indent(r) + 1), vec![pat; row_len(s, r)].join(" "))
    };
    for (r, row) in rows.iter().enumerate() {
        if r < s {
            out.push_str(&border(r, true));
        }
        let cells: String = row.iter().map(|&c| format!("| {} ", grid[c])).collect();
        out.push_str(&format!("{}{}|\n", " ".repeat(indent(r)), cells));
        if r + 1 >= s {
            out.push_str(&border(r, false));
        }
    }
    debug_assert_eq!(n, 2 * s - 1);
    out
}
