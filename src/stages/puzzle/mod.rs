//! The **parse** stage: bytes → [`Puzzle`].
//!
//! A puzzle is a set of cells and a list of clues; each clue is a regex that must
//! fully match the characters of an ordered list of cells. Rectangles are one shape of
//! that model. Every input format (see `docs/format.md`) is read into it:
//!
//! | format | module | detected by |
//! |---|---|---|
//! | crossat JSON | `native` | a JSON object with `left`/`right`/`top`/`bottom` |
//! | regexcrossword.com `challenges.json` | `challenges` | a JSON array of sets with `puzzles` |
//! | seed-notebook JSON | `native` | a JSON object with `left_lines`/`top_columns` |
//! | `{width, height, top_hints, …}` JSON | `native` | a JSON object with `*_hints` |
//! | antoine-trux text | `trux` | a `shape = …` line |
//! | dkesler `.dat` | `dat` | a first line of two numbers |
//! | hexagon board JSON | `hex` | a JSON object with `x` and `y`, or `kind` |
//! | hesselink's list | `hex` | a first line `Horizontal` |
//! | Louridas' regex-pool CSV | `louridas` | a first line `entry, pattern, entry, position, …` |
//!
//! [`read`] reads one puzzle, [`read_collection`] every puzzle of a `challenges.json`;
//! `read_input` reads one with the caller's overrides ([`Input`]). [`write()`] writes a
//! puzzle in the three formats crossat writes (crossat JSON, `challenges.json`,
//! antoine-trux text). Word lists (`--dict`, the built-in list) are read here too:
//! `dictionary`.

pub(crate) mod challenges;
pub(crate) mod dat;
pub(crate) mod dictionary;
pub(crate) mod hex;
pub(crate) mod input;
pub(crate) mod json;
pub(crate) mod louridas;
pub(crate) mod native;
pub(crate) mod trux;

pub use dictionary::Dictionary;
pub use hex::Sides;
pub use input::Input;
pub(crate) use input::read_input;

use crate::error::{Error, Result};

/// The shape of the grid, used to lay out cells for display.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `rows × cols` cells in row-major order.
    Rect {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
    },
    /// A hexagon with the given side lengths, cells numbered row by row (see [`Sides`]);
    /// a regular one of side `s` has `2s − 1` rows of `s … 2s − 1 … s` cells.
    Hex(Sides),
    /// Any set of cells; `coords` gives each cell's (row, column) for drawing, when known.
    Free {
        /// Number of cells.
        cells: usize,
        /// Display coordinates of each cell.
        coords: Option<Vec<(usize, usize)>>,
    },
}

impl Shape {
    /// Number of cells.
    pub(crate) fn cells(&self) -> usize {
        match *self {
            Shape::Rect { rows, cols } => rows * cols,
            Shape::Hex(h) => hex::cells(h),
            Shape::Free { cells, .. } => cells,
        }
    }

    /// The cell ids of each display row, top to bottom (for a free layout without
    /// coordinates: one row holding every cell).
    pub fn display_rows(&self) -> Vec<Vec<usize>> {
        match self {
            Shape::Rect { rows, cols } => (0..*rows).map(|r| (r * cols..(r + 1) * cols).collect()).collect(),
            Shape::Hex(h) => hex::rows(*h),
            Shape::Free { cells, coords: None } => vec![(0..*cells).collect()],
            Shape::Free { coords: Some(xy), .. } => {
                let mut rows: std::collections::BTreeMap<usize, Vec<(usize, usize)>> = std::collections::BTreeMap::new();
                for (c, &(r, col)) in xy.iter().enumerate() {
                    rows.entry(r).or_default().push((col, c));
                }
                rows.into_values()
                    .map(|mut v| {
                        v.sort_unstable();
                        v.into_iter().map(|(_, c)| c).collect()
                    })
                    .collect()
            }
        }
    }

    /// Cell `c` in JSON output: `[row, column]`, 0-based ([`Shape::coords`]).
    pub(crate) fn cell_json(&self, c: usize) -> crate::records::Cell {
        let (r, col) = self.coords(c);
        [r, col]
    }

    /// A human name for cell `c`, e.g. `(row 2, column 3)`.
    pub fn cell_name(&self, c: usize) -> String {
        match self {
            Shape::Free { coords: None, .. } => format!("cell {}", c + 1),
            _ => {
                let (r, col) = self.coords(c);
                format!("(row {}, column {})", r + 1, col + 1)
            }
        }
    }

    /// Row and column (0-based) of cell `c`, as written in DIMACS comments; for a
    /// free layout without coordinates, (0, c).
    pub fn coords(&self, c: usize) -> (usize, usize) {
        match self {
            Shape::Rect { cols, .. } => (c / cols, c % cols),
            Shape::Hex(h) => hex::coords(*h, c),
            Shape::Free { coords: Some(xy), .. } => xy[c],
            Shape::Free { coords: None, .. } => (0, c),
        }
    }

    /// The cell at row and column (0-based) `at`, as [`Shape::coords`] gives them
    /// (and JSON records print them); `None` when no cell is there.
    pub fn cell_at(&self, at: (usize, usize)) -> Option<usize> {
        let (r, col) = at;
        match self {
            Shape::Rect { rows, cols } => (r < *rows && col < *cols).then_some(r * cols + col),
            Shape::Hex(h) => hex::id(*h, r, col),
            Shape::Free { coords: Some(xy), .. } => xy.iter().position(|&p| p == at),
            Shape::Free { cells, coords: None } => (r == 0 && col < *cells).then_some(col),
        }
    }
}

/// Short description, e.g. `5x5`, `hexagon of side 7`, `hexagon of sides 4, 5, 5`,
/// `free layout of 16 cells`.
impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shape::Rect { rows, cols } => write!(f, "{rows}x{cols}"),
            Shape::Hex(h) => h.fmt(f),
            Shape::Free { cells, .. } => write!(f, "free layout of {cells} cells"),
        }
    }
}

/// One clue: a regex that must fully match the cells it lists, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clue {
    /// Where the clue stands, e.g. `row 2 (left)`.
    pub label: String,
    /// The regex, Python `re` syntax.
    pub regex: String,
    /// The cells, in reading order.
    pub cells: Vec<usize>,
}

/// A puzzle, independent of the format it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// Title, when the format has one.
    pub name: Option<String>,
    /// Layout of the cells.
    pub shape: Shape,
    /// Every clue.
    pub clues: Vec<Clue>,
    /// The alphabet stated by the puzzle, if any.
    pub alphabet: Option<Vec<char>>,
    /// Pre-filled cells.
    pub givens: Vec<Option<char>>,
    /// Regexes to be assigned to entries, one each (regex-pool crosswords).
    pub pool: Option<Pool>,
    /// The regex dialect the clues are written in.
    pub dialect: Dialect,
}

/// The regex dialect of a puzzle's clues: what a clue means on a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Dialect {
    /// Python 3.11's `re`: the clue C matches the line s when `re.fullmatch(C, s)`.
    #[default]
    Python,
    /// ECMAScript (ES2024 `RegExp` without flags, with Annex B, as browsers run it):
    /// C matches s when `new RegExp('^(?:' + C + ')$').test(s)`.
    #[cfg_attr(feature = "cli", value(name = "ecmascript"))]
    Ecmascript,
}

/// The name used on the command line and in JSON: `python` or `ecmascript`.
impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Dialect::Python => "python",
            Dialect::Ecmascript => "ecmascript",
        })
    }
}

/// Reads a name as `Display` writes it; another name is an [`Error::Usage`] that lists
/// the two.
impl std::str::FromStr for Dialect {
    type Err = Error;

    fn from_str(name: &str) -> Result<Dialect> {
        match name {
            "python" => Ok(Dialect::Python),
            "ecmascript" => Ok(Dialect::Ecmascript),
            _ => Err(Error::Usage(format!("unknown dialect '{name}': python or ecmascript"))),
        }
    }
}

/// A regex-pool crossword: each regex must be used by exactly one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    /// Label of each entry (e.g. its number), in output order.
    pub labels: Vec<String>,
    /// Cells of each entry, in reading order.
    pub entries: Vec<Vec<usize>>,
    /// The regexes.
    pub regexes: Vec<String>,
}

/// Clues of a rectangle by side; each side lists, per row or column, zero or more clues.
#[derive(Clone, Debug, Default)]
pub(crate) struct RectClues {
    /// Per row, read left to right (the left-hand clues).
    pub left: Option<Vec<Vec<String>>>,
    /// Per row, read left to right (the right-hand clues).
    pub right: Option<Vec<Vec<String>>>,
    /// Per column, read top to bottom.
    pub top: Option<Vec<Vec<String>>>,
    /// Per column, read top to bottom.
    pub bottom: Option<Vec<Vec<String>>>,
}

impl Puzzle {
    /// Builds a rectangular puzzle; checks that every side has one entry per row or column.
    pub(crate) fn rect(source: &str, name: Option<String>, rows: Option<usize>, cols: Option<usize>, sides: RectClues) -> Result<Puzzle> {
        let count = |v: &Option<Vec<Vec<String>>>| v.as_ref().map(Vec::len);
        let rows = rows.or(count(&sides.left)).or(count(&sides.right)).unwrap_or(0);
        let cols = cols.or(count(&sides.top)).or(count(&sides.bottom)).unwrap_or(0);
        if rows == 0 || cols == 0 {
            return Err(Error::input(source, format!("empty grid ({rows} rows × {cols} columns): need clues for rows and for columns")));
        }
        if rows * cols > MAX_CELLS {
            return Err(Error::input_limit(source, format!("grid of {rows}×{cols} cells exceeds the limit of {MAX_CELLS} cells")));
        }
        let mut clues = Vec::new();
        type Side<'a> = (&'a str, &'a Option<Vec<Vec<String>>>, bool);
        let sides_spec: [Side; 4] =
            [("left", &sides.left, true), ("right", &sides.right, true), ("top", &sides.top, false), ("bottom", &sides.bottom, false)];
        for (side, lists, is_row) in sides_spec {
            let Some(lists) = lists else { continue };
            let (want, what) = if is_row { (rows, "rows") } else { (cols, "columns") };
            if lists.len() != want {
                return Err(Error::input(source, format!("{} {side} clues for {want} {what}", lists.len())));
            }
            for (i, list) in lists.iter().enumerate() {
                let cells: Vec<usize> =
                    if is_row { (0..cols).map(|c| i * cols + c).collect() } else { (0..rows).map(|r| r * cols + i).collect() };
                let unit = if is_row { "row" } else { "column" };
                for (k, regex) in list.iter().enumerate() {
                    let label = if list.len() == 1 {
                        format!("{unit} {} ({side})", i + 1)
                    } else {
                        format!("{unit} {} ({side} #{})", i + 1, k + 1)
                    };
                    clues.push(Clue { label, regex: regex.clone(), cells: cells.clone() });
                }
            }
        }
        Ok(Puzzle {
            name,
            shape: Shape::Rect { rows, cols },
            clues,
            alphabet: None,
            givens: vec![None; rows * cols],
            pool: None,
            dialect: Dialect::Python,
        })
    }

    /// Sets givens from display rows; `None` marks an empty cell.
    pub(crate) fn set_given_rows(&mut self, source: &str, rows: &[Vec<Option<char>>]) -> Result<()> {
        let layout = self.shape.display_rows();
        if rows.len() != layout.len() {
            return Err(Error::input(source, format!("given grid has {} rows, the puzzle has {}", rows.len(), layout.len())));
        }
        for (r, (row, cells)) in rows.iter().zip(&layout).enumerate() {
            if row.len() != cells.len() {
                return Err(Error::input(
                    source,
                    format!("given grid row {} has {} cells, the puzzle row has {}", r + 1, row.len(), cells.len()),
                ));
            }
            for (&v, &c) in row.iter().zip(cells) {
                self.givens[c] = v;
            }
        }
        Ok(())
    }
}

/// Largest grid accepted, in cells.
pub(crate) const MAX_CELLS: usize = 10_000;

/// Most clues (or pool regexes) accepted in one puzzle.
pub(crate) const MAX_CLUES: usize = 10_000;

/// Checks the limits every puzzle must meet, whatever its format.
pub(crate) fn check_limits(source: &str, p: &Puzzle) -> Result<()> {
    let cells = p.shape.cells();
    if cells > MAX_CELLS {
        return Err(Error::input_limit(source, format!("{cells} cells exceed the limit of {MAX_CELLS} cells")));
    }
    let clues = p.clues.len() + p.pool.as_ref().map_or(0, |pool| pool.regexes.len());
    if clues > MAX_CLUES {
        return Err(Error::input_limit(source, format!("{clues} clues exceed the limit of {MAX_CLUES} clues")));
    }
    Ok(())
}

/// The input formats crossat reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// crossat's own JSON (also reads the seed-notebook and `*_hints` JSON shapes).
    Crossat,
    /// regexcrossword.com `challenges.json`; pick a puzzle with `--id`.
    Challenges,
    /// antoine-trux text format (`shape = rectangular`, quoted regexes).
    Trux,
    /// dkesler `.dat` format.
    Dat,
    /// Hexagon board JSON `{size, x, y, z}` (Jimbly, binoternary, hexregex).
    Board,
    /// hesselink's `(x,y) length regex` list.
    Hesselink,
    /// Louridas' regex-pool CSV; the pool comes from `--pool` or the `.txt` file beside it.
    Louridas,
}

/// Reads a puzzle from raw bytes; `format` forces a format, `id` picks from a collection,
/// `pool` is the regex pool of a Louridas CSV (its source name and bytes).
pub fn read(source: &str, bytes: &[u8], format: Option<Format>, id: Option<&str>, pool: Option<(&str, &[u8])>) -> Result<Puzzle> {
    let bytes = strip_bom(bytes);
    let pool = pool.map(|(n, b)| (n, strip_bom(b)));
    let format = match format {
        Some(f) => f,
        None => detect(source, bytes)?,
    };
    if id.is_some() && format != Format::Challenges {
        return Err(Error::Request(crate::error::RequestError::IdForSinglePuzzle { source: source.to_string() }));
    }
    let puzzle = match format {
        Format::Crossat => native::read(source, utf8(source, bytes)?),
        Format::Challenges => challenges::read(source, utf8(source, bytes)?, id),
        Format::Trux => trux::read(source, &trux::decode(bytes)),
        Format::Dat => dat::read(source, utf8(source, bytes)?),
        Format::Board => native::read(source, utf8(source, bytes)?),
        Format::Hesselink => hex::read_hesselink(source, utf8(source, bytes)?),
        Format::Louridas => {
            let Some((pool_source, pool)) = pool else {
                return Err(Error::input(
                    source,
                    "a regex-pool CSV needs its pool of regexes: give --pool FILE (default: the .txt file beside the CSV)",
                ));
            };
            louridas::read(source, utf8(source, bytes)?, pool_source, utf8(pool_source, pool)?)
        }
    }?;
    check_limits(source, &puzzle)?;
    Ok(puzzle)
}

/// Where the regex pool of a regex-pool CSV (Louridas' format) is when none is named:
/// the `.txt` file beside it, if there is one.
pub fn pool_beside(csv: &std::path::Path) -> Option<std::path::PathBuf> {
    let txt = csv.with_extension("txt");
    (csv.extension().is_some_and(|e| e == "csv") && txt.is_file()).then_some(txt)
}

/// One puzzle of a regexcrossword.com `challenges.json` ([`read_collection`]).
#[derive(Clone, Debug)]
pub struct CollectionEntry {
    /// `set/number`, 1-based, e.g. `beginner/1`.
    pub key: String,
    /// The puzzle's id (a UUID).
    pub id: String,
    /// Its title.
    pub name: String,
    /// Its shape as [`Shape`] prints it (`5x5`, `hexagon of side 3`), read from the
    /// number of its lines even when the puzzle cannot be read.
    pub size: String,
    /// The puzzle, or why it cannot be read.
    pub puzzle: Result<Puzzle>,
}

/// Every puzzle of a regexcrossword.com `challenges.json`, in file order, each read on
/// its own: one that cannot be read leaves the others readable. The file must be UTF-8
/// JSON holding the sets.
pub fn read_collection(source: &str, bytes: &[u8]) -> Result<Vec<CollectionEntry>> {
    challenges::read_all(source, utf8(source, bytes)?)
}

/// The puzzle in `format`: crossat JSON ([`Format::Crossat`], pretty-printed), a
/// regexcrossword.com `challenges.json` holding it alone ([`Format::Challenges`], named
/// by the puzzle's name, else `crossat`) or antoine-trux text ([`Format::Trux`]). Given
/// cells are not written. The writers hold rectangles and regular hexagons with at most
/// two clues a line, each read forwards; anything else (and another format) is an
/// [`Error::Usage`] that says why.
pub fn write(p: &Puzzle, format: Format) -> Result<String> {
    fn pretty(v: &impl serde::Serialize) -> String {
        serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
    }
    match format {
        Format::Crossat => Ok(pretty(&native::file(&trux::relabel(p, "crossat JSON")?.0))),
        Format::Challenges => {
            let (q, _) = trux::relabel(p, "challenges.json")?;
            match challenges::sets(&q, p.name.as_deref().unwrap_or("crossat")) {
                Some(v) => Ok(pretty(&v)),
                None => Err(Error::Usage("this puzzle cannot be written as challenges.json".into())),
            }
        }
        Format::Trux => {
            let (q, sides) = trux::relabel(p, "antoine-trux text")?;
            Ok(trux::write(&q, sides))
        }
        other => {
            Err(Error::Usage(format!("crossat does not write the {other:?} format: crossat JSON, challenges.json or antoine-trux text")))
        }
    }
}

/// Guesses the format from the content.
pub fn detect(source: &str, bytes: &[u8]) -> Result<Format> {
    let text = String::from_utf8_lossy(strip_bom(bytes));
    let trimmed = text.trim_start();
    if trimmed.is_empty() {
        return Err(Error::input(source, "empty input"));
    }
    if trimmed.starts_with('[') {
        return Ok(Format::Challenges);
    }
    if trimmed.starts_with('{') {
        return Ok(Format::Crossat);
    }
    let is_key = |l: &str| l.split_once('=').is_some_and(|(k, _)| k.trim() == "shape");
    if text.lines().any(is_key) {
        return Ok(Format::Trux);
    }
    let first = trimmed.lines().next().unwrap_or("");
    if first.trim() == "Horizontal" {
        return Ok(Format::Hesselink);
    }
    let fields: Vec<&str> = first.split(',').map(str::trim).collect();
    if fields.len() >= 2
        && fields.len().is_multiple_of(2)
        && fields[0].parse::<usize>().is_ok()
        && fields[2..].iter().all(|f| f.parse::<usize>().is_ok())
    {
        return Ok(Format::Louridas);
    }
    let nums: Vec<&str> = first.split_whitespace().collect();
    if nums.len() == 2 && nums.iter().all(|n| n.parse::<usize>().is_ok()) {
        return Ok(Format::Dat);
    }
    Err(Error::input(
        source,
        "unknown puzzle format (expected crossat JSON, challenges.json, a hexagon board, antoine-trux text, .dat, hesselink list or Louridas CSV; see docs/format.md, or force one with --format)",
    ))
}

/// The bytes without a leading UTF-8 byte-order mark (some editors write one).
pub(crate) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// The bytes as UTF-8 text (without a byte-order mark), or an error that says where
/// they are not UTF-8 and what to do about it.
pub fn utf8<'a>(source: &str, bytes: &'a [u8]) -> Result<&'a str> {
    let bytes = strip_bom(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let byte = bytes.get(at).map_or(String::new(), |b| format!(" (0x{b:02X})"));
        Error::input(
            source,
            format!(
                "not UTF-8: invalid byte{byte} at byte offset {at} (line {line}); save the file as UTF-8 (a Windows-1252 or Latin-1 file must be converted, e.g. with `iconv -f cp1252 -t utf-8`)"
            ),
        )
    })
}

/// Parses a grid written as text rows (`.` for an empty cell) into display rows.
pub fn parse_grid_rows(text: &str) -> Vec<Vec<Option<char>>> {
    text.lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.is_empty())
        .map(|l| l.chars().map(|c| if c == '.' { None } else { Some(c) }).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Shape::cell_at`] undoes [`Shape::coords`] on every kind of shape, and finds
    /// no cell where there is none.
    #[test]
    fn cell_at_is_the_inverse_of_coords() {
        let shapes = [
            Shape::Rect { rows: 3, cols: 4 },
            Shape::Hex(hex::Sides::regular(3)),
            Shape::Hex(hex::Sides { top: 2, nw: 3, ne: 4 }),
            Shape::Free { cells: 3, coords: Some(vec![(0, 5), (2, 1), (7, 0)]) },
            Shape::Free { cells: 4, coords: None },
        ];
        for shape in shapes {
            let n = shape.cells();
            let mut at = std::collections::BTreeSet::new();
            for c in 0..n {
                assert_eq!(shape.cell_at(shape.coords(c)), Some(c), "{shape:?}: cell {c}");
                let _ = at.insert(shape.coords(c));
            }
            // Every other place in (and around) the bounding box holds no cell.
            let (rows, cols) = at.iter().fold((0, 0), |(r, c), &(y, x)| (r.max(y + 2), c.max(x + 2)));
            for r in 0..rows {
                for c in 0..cols {
                    if !at.contains(&(r, c)) {
                        assert_eq!(shape.cell_at((r, c)), None, "{shape:?}: ({r}, {c})");
                    }
                }
            }
        }
    }
}
