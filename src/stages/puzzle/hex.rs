//! Hexagons: geometry, and the hexagon formats of other tools.
//!
//! A hexagon is given by three side lengths ([`Sides`]): `top` cells along the top
//! edge, `nw` along the upper-left edge and `ne` along the upper-right edge; opposite
//! edges are equal, so going round clockwise the edges hold `top, ne, nw, top, ne, nw`
//! cells. A regular hexagon of side `s` has all three equal to `s`. There are
//! `nw + ne − 1` rows; row `r` holds `top + min(r, nw−1) + min(r, ne−1) − r` cells,
//! numbered left to right, rows top to bottom, and starts `|r − (nw−1)|` half cells
//! right of the leftmost row. Besides the rows there are two diagonal families,
//! indexed left to right along the top:
//!
//! - **NW–SE** diagonal `k` (`top + nw − 1` of them): the cells `(r, c)` with
//!   `c + max(0, nw−1−r) = k`;
//! - **NE–SW** diagonal `k` (`top + ne − 1` of them): the cells `(r, c)` with
//!   `c + max(0, r−(nw−1)) = k`.
//!
//! The hexagon holds `top·nw + nw·ne + ne·top − top − nw − ne + 1` cells.
//!
//! Sources disagree on which way the diagonals are read; each importer states the cell
//! order of every line explicitly and never reverses a regex.

use super::{Clue, Puzzle, Shape};
use crate::error::{Error, Result};
use serde_json::Value;

/// The side lengths of a hexagon, in cells: its top edge (also the bottom), its
/// upper-left edge (also the lower-right) and its upper-right edge (also the
/// lower-left). Each is at least 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sides {
    /// Cells along the top (and bottom) edge.
    pub top: usize,
    /// Cells along the upper-left (and lower-right) edge.
    pub nw: usize,
    /// Cells along the upper-right (and lower-left) edge.
    pub ne: usize,
}

impl Sides {
    /// The regular hexagon of side `s`.
    pub fn regular(s: usize) -> Self {
        Sides { top: s, nw: s, ne: s }
    }

    /// The side when all three are equal.
    pub fn regular_side(&self) -> Option<usize> {
        (self.top == self.nw && self.nw == self.ne).then_some(self.top)
    }

    /// Number of rows: `nw + ne − 1`.
    pub(crate) fn rows(&self) -> usize {
        self.nw + self.ne - 1
    }

    /// Number of NW–SE diagonals: `top + nw − 1`.
    pub(crate) fn nw_se_lines(&self) -> usize {
        self.top + self.nw - 1
    }

    /// Number of NE–SW diagonals: `top + ne − 1`.
    pub(crate) fn ne_sw_lines(&self) -> usize {
        self.top + self.ne - 1
    }

    /// Half cells between the start of row `r` and the leftmost row's start.
    pub fn indent(&self, r: usize) -> usize {
        r.abs_diff(self.nw - 1)
    }

    /// The hexagon with `rows` rows, `nwse` NW–SE and `nesw` NE–SW diagonals, within
    /// the cell limit: `top = (nwse + nesw − rows + 1) / 2`, `nw = nwse − top + 1`,
    /// `ne = nesw − top + 1`, when these are whole and at least 1.
    pub(crate) fn from_lines(source: &str, rows: usize, nwse: usize, nesw: usize) -> Result<Sides> {
        let twice = (nwse + nesw + 1).checked_sub(rows).filter(|t| t % 2 == 0 && *t >= 2);
        let sides = twice.and_then(|t| {
            let top = t / 2;
            Some(Sides { top, nw: (nwse + 1).checked_sub(top).filter(|&v| v >= 1)?, ne: (nesw + 1).checked_sub(top).filter(|&v| v >= 1)? })
        });
        let Some(sides) = sides else {
            return Err(Error::input(
                source,
                format!(
                    "{rows} rows, {nwse} NW-SE and {nesw} NE-SW diagonals fit no hexagon (sides top, nw, ne have nw+ne-1 rows, \
                     top+nw-1 NW-SE and top+ne-1 NE-SW diagonals)"
                ),
            ));
        };
        if cells(sides) > super::MAX_CELLS {
            return Err(Error::input_limit(source, format!("{} exceeds the limit of {} cells", sides, super::MAX_CELLS)));
        }
        Ok(sides)
    }
}

/// `hexagon of side 3` or `hexagon of sides 4, 5, 5` (top, upper-left, upper-right).
impl std::fmt::Display for Sides {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.regular_side() {
            Some(s) => write!(f, "hexagon of side {s}"),
            None => write!(f, "hexagon of sides {}, {}, {}", self.top, self.nw, self.ne),
        }
    }
}

/// Number of cells of a hexagon.
pub(crate) fn cells(h: Sides) -> usize {
    let Sides { top, nw, ne } = h;
    top * nw + nw * ne + ne * top + 1 - top - nw - ne
}

/// Cells in row `r`.
pub(crate) fn row_len(h: Sides, r: usize) -> usize {
    h.top + r.min(h.nw - 1) + r.min(h.ne - 1) - r
}

/// The cell ids of every row.
pub(crate) fn rows(h: Sides) -> Vec<Vec<usize>> {
    let mut next = 0;
    (0..h.rows())
        .map(|r| {
            let row: Vec<usize> = (next..next + row_len(h, r)).collect();
            next += row.len();
            row
        })
        .collect()
}

/// (row, index in row) of cell `id`.
pub(crate) fn coords(h: Sides, id: usize) -> (usize, usize) {
    let mut start = 0;
    for r in 0..h.rows() {
        let len = row_len(h, r);
        if id < start + len {
            return (r, id - start);
        }
        start += len;
    }
    (h.rows(), 0)
}

/// Cell id of (row, index), if inside.
pub(crate) fn id(h: Sides, r: usize, c: usize) -> Option<usize> {
    (r < h.rows() && c < row_len(h, r)).then(|| (0..r).map(|q| row_len(h, q)).sum::<usize>() + c)
}

/// NW–SE diagonal `k`, top to bottom.
pub(crate) fn nw_se(h: Sides, k: usize) -> Vec<usize> {
    (0..h.rows()).filter_map(|r| k.checked_sub((h.nw - 1).saturating_sub(r)).and_then(|c| id(h, r, c))).collect()
}

/// NE–SW diagonal `k`, top to bottom.
pub(crate) fn ne_sw(h: Sides, k: usize) -> Vec<usize> {
    (0..h.rows()).filter_map(|r| k.checked_sub(r.saturating_sub(h.nw - 1)).and_then(|c| id(h, r, c))).collect()
}

/// Reading direction of a diagonal family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Read {
    /// Top to bottom.
    Down,
    /// Bottom to top.
    Up,
}

/// The clues of one axis: per line (in index order), its clues.
pub(crate) struct Axis {
    /// Clues per line.
    pub lines: Vec<Vec<String>>,
    /// How the lines are read (rows are always read left to right).
    pub read: Read,
}

/// Builds a hexagon puzzle from rows (read left to right) and the two diagonal
/// families; the number of lines on each axis gives the side lengths
/// ([`Sides::from_lines`]).
pub(crate) fn puzzle(source: &str, name: Option<String>, rows: Vec<Vec<String>>, nwse: Axis, nesw: Axis) -> Result<Puzzle> {
    let h = Sides::from_lines(source, rows.len(), nwse.lines.len(), nesw.lines.len())?;
    let lists: Vec<Vec<String>> = rows.into_iter().chain(nwse.lines).chain(nesw.lines).collect();
    Ok(from_lines(name, h, &lines(h, nwse.read, nesw.read), &lists))
}

/// The side of a regular hexagon with `n` rows, within the cell limit.
pub(crate) fn side_of(source: &str, n: usize) -> Result<usize> {
    if n == 0 || n.is_multiple_of(2) {
        return Err(Error::input(source, format!("a regular hexagon has an odd number of rows, got {n}")));
    }
    let s = n.div_ceil(2);
    if cells(Sides::regular(s)) > super::MAX_CELLS {
        return Err(Error::input_limit(source, format!("hexagon of side {s} exceeds the limit of {} cells", super::MAX_CELLS)));
    }
    Ok(s)
}

/// Every line of a hexagon with its label and cells in reading order: the rows (left to
/// right), then the NW–SE diagonals, then the NE–SW diagonals, each family by index.
pub(crate) fn lines(h: Sides, nwse: Read, nesw: Read) -> Vec<(String, Vec<usize>)> {
    let mut out: Vec<(String, Vec<usize>)> = rows(h).into_iter().enumerate().map(|(r, cells)| (format!("row {}", r + 1), cells)).collect();
    for (family, read, count, line) in
        [("NW-SE", nwse, h.nw_se_lines(), nw_se as fn(Sides, usize) -> Vec<usize>), ("NE-SW", nesw, h.ne_sw_lines(), ne_sw)]
    {
        for k in 0..count {
            let mut cells = line(h, k);
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
pub(crate) fn from_lines(name: Option<String>, h: Sides, lines: &[(String, Vec<usize>)], clues: &[Vec<String>]) -> Puzzle {
    let mut all = Vec::new();
    for ((label, cells), list) in lines.iter().zip(clues) {
        for (j, regex) in list.iter().enumerate() {
            let label = if list.len() == 1 { label.clone() } else { format!("{label} #{}", j + 1) };
            all.push(Clue { label, regex: regex.clone(), cells: cells.clone() });
        }
    }
    Puzzle { name, shape: Shape::Hex(h), clues: all, alphabet: None, givens: vec![None; cells(h)], pool: None, dialect: Default::default() }
}

/// The board JSON of Jimbly's regex-crossword game, also used by binoternary's
/// generator and CuSO4Deposit's hexregex: `{size, x, y, z}` (or `{kind: "hex", edge,
/// x, y, z}`): `y[r]` reads row r left to right, `z[k]` NW–SE diagonal k top to bottom,
/// `x[k]` NE–SW diagonal k bottom to top. `{kind: "rect", rows, cols, x, y}` is a
/// rectangle: `y[i]` row i, `x[j]` column j.
pub(crate) fn read_board(source: &str, obj: &serde_json::Map<String, Value>) -> Result<Puzzle> {
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
    let regexle = is_regexle(obj);
    let name = match (name, obj.get("day").and_then(Value::as_u64)) {
        (None, Some(day)) if regexle => Some(format!("regexle day {day}")),
        (name, _) => name,
    };
    let mut p = puzzle(source, name, list("y")?, Axis { lines: list("z")?, read: Read::Down }, Axis { lines: list("x")?, read: Read::Up })?;
    let number = |k: &str| -> Result<Option<usize>> {
        match obj.get(k) {
            None => Ok(None),
            Some(v) => {
                v.as_u64().map(|v| Some(v as usize)).ok_or_else(|| Error::input(source, format!("\"{k}\" must be a non-negative integer")))
            }
        }
    };
    let declared = [
        ("size", number("size")?),
        ("edge", number("edge")?.map(|e| (2 * e).saturating_sub(1))),
        ("side", number("side")?.map(|s| (2 * s).saturating_sub(1))),
        ("diameter", number("diameter")?),
    ];
    if let Shape::Hex(h) = &p.shape {
        for (key, rows) in declared {
            if let Some(d) = rows
                && d != h.rows()
            {
                let value = &obj[key];
                let means = if matches!(key, "side" | "edge") { format!(" (a hexagon of {d} rows)") } else { String::new() };
                return Err(Error::input(source, format!("board \"{key}\" {value}{means} does not match its {} rows of clues", h.rows())));
            }
        }
    }
    if regexle {
        p.alphabet = Some(('A'..='Z').collect());
    }
    Ok(p)
}

/// A regexle.com puzzle (`{"side", "diameter", "day", "x", "y", "z"}`, as the site's
/// generator serves it): board JSON whose cells are the letters A–Z and whose clues the
/// page tests in the browser, so they are read as ECMAScript unless `"dialect"` says
/// otherwise. Its axes are board JSON's (nelhage's regexle solver walks `x` with `y`
/// descending, `y` with `x` ascending and `z` along `y − x` constant).
pub(crate) fn is_regexle(obj: &serde_json::Map<String, Value>) -> bool {
    obj.contains_key("side") && obj.contains_key("x") && obj.contains_key("y") && obj.contains_key("z") && !obj.contains_key("kind")
}

/// The `(x,y) length regex` list of hesselink/regex-crossword: sections `Horizontal`,
/// `Vertical`, `Diagonal`; each line gives a start cell and a length. With `y` the row
/// and `x = c + max(0, y − (s−1))`, the sections step by (+1, 0), (0, +1) and (−1, −1).
pub(crate) fn read_hesselink(source: &str, text: &str) -> Result<Puzzle> {
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
    let h = Sides::regular(rows.div_ceil(2));
    let s = h.top;
    let mut clues = Vec::new();
    for (k, (sec, (x0, y0), len, regex)) in entries.into_iter().enumerate() {
        let step = [(1, 0), (0, 1), (-1, -1)][sec];
        let mut cells = Vec::with_capacity(len);
        for j in 0..len as i64 {
            let (x, y) = (x0 + step.0 * j, y0 + step.1 * j);
            let cell = (x >= 0 && y >= 0)
                .then(|| {
                    let (x, y) = (x as usize, y as usize);
                    x.checked_sub(y.saturating_sub(s - 1)).and_then(|c| id(h, y, c))
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
    Ok(Puzzle {
        name: None,
        shape: Shape::Hex(h),
        clues,
        alphabet: None,
        givens: vec![None; cells(h)],
        pool: None,
        dialect: Default::default(),
    })
}

#[cfg(test)]
mod tests;
