//! Grids as a person reads them: box drawing (Unicode or ASCII), the clues beside the
//! lines, marked cells and clues, colour.
//!
//! - **Rectangles**: left clues right-aligned before each row, right clues after it;
//!   column clues above (top) and below (bottom) the columns when every clue of that
//!   side fits in its column, otherwise the column numbers there and the clues listed
//!   underneath, numbered.
//! - **Hexagons**: row clues before each row; the diagonal clues listed after, by label.
//! - **Free layouts**: a coordinate grid (row and column numbers, `░`/`#` where there is
//!   no cell) and one line per entry: label, first cell, regex, word.
//!
//! Cells are padded to the widest character's display width (`unicode-width`), so wide
//! characters keep the columns aligned. A space is drawn `␣` (Unicode), a control
//! character as its Unicode control picture (`␉`) or `?` (ASCII); an empty cell is blank
//! (Unicode) or `.` (ASCII). A `legend:` line explains whatever of this the grid uses.
//!
//! This file holds what callers use ([`draw`], [`Sketch`], [`View`], [`Options`]) and
//! picks the shape; each shape has its own file (`rect.rs`, `hexagon.rs`, `free.rs`),
//! and what they all draw alike — marked cells and clues, borders, the legend — is in
//! `shared.rs`, on top of the glyphs and padded text of `text.rs`.

mod free;
mod hexagon;
mod palette;
mod rect;
mod shared;
mod text;

use crossat::puzzle::{Puzzle, Shape};
pub use palette::Palette;
use rect::RectLayout;
use text::{ASCII, Glyphs, UNICODE, show};
use unicode_width::UnicodeWidthChar;

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Unicode box drawing (else ASCII).
    pub unicode: bool,
    /// The clues beside the grid (else the bare grid).
    pub clues: bool,
    /// ANSI colour.
    pub color: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { unicode: true, clues: true, color: false }
    }
}

/// How a cell is marked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mark {
    /// Nothing special.
    #[default]
    Plain,
    /// Given (by the puzzle or the player).
    Given,
    /// The hint: a forced cell.
    Hint,
    /// Wrong, or where a clue fails.
    Bad,
}

/// What to draw: cell contents, cell marks and clue marks.
#[derive(Clone, Debug, Default)]
pub struct View {
    /// Per cell, its character (`None`: empty).
    pub cells: Vec<Option<char>>,
    /// Per cell, its mark.
    pub marks: Vec<Mark>,
    /// Clues (indices) that fail.
    pub bad_clues: Vec<usize>,
    /// Clues (indices) that force the hint.
    pub hint_clues: Vec<usize>,
    /// For a regex pool: the regex assigned to each entry.
    pub assignment: Vec<usize>,
}

impl View {
    /// A solved grid; the puzzle's givens are marked.
    pub fn solution(puzzle: &Puzzle, grid: &crossat::verify::Grid) -> View {
        let marks = puzzle.givens.iter().map(|g| if g.is_some() { Mark::Given } else { Mark::Plain }).collect();
        View { cells: grid.cells.iter().map(|&c| Some(c)).collect(), marks, assignment: grid.assignment.clone(), ..View::default() }
    }

    /// A partial grid; its filled cells are marked as given.
    pub fn partial(cells: &[Option<char>]) -> View {
        let marks = cells.iter().map(|g| if g.is_some() { Mark::Given } else { Mark::Plain }).collect();
        View { cells: cells.to_vec(), marks, ..View::default() }
    }
}

pub use crossat::style::{visible, visible_word};

/// Display width of plain text.
pub fn width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// One grid being drawn; each shape's file adds its methods, `shared.rs` the common ones.
struct Drawer<'a> {
    puzzle: &'a Puzzle,
    view: &'a View,
    opt: Options,
    g: &'static Glyphs,
    pal: Palette,
    /// Cell contents as shown, unpainted.
    shown: Vec<String>,
    /// Widest cell content.
    w: usize,
    legend: Vec<String>,
}

/// Draws the grid of `view` for `puzzle`, ending with a newline.
pub fn draw(puzzle: &Puzzle, view: &View, opt: Options) -> String {
    Sketch::new(opt).draw(puzzle, view)
}

/// Draws many grids of one puzzle (the solutions of `solve --all`): the parts of a
/// rectangle's drawing that depend only on the clues (their pieces, headers, listings
/// and borders) are laid out once and reused while the cell width and the marked clues
/// stay the same. The output is [`draw`]'s.
pub struct Sketch {
    opt: Options,
    /// The puzzle (by address), the cell width and the marked clues of `layout`.
    key: Option<(usize, usize, Vec<usize>, Vec<usize>)>,
    layout: Option<RectLayout>,
}

impl Sketch {
    /// A sketch that draws with `opt`; it must serve one puzzle only.
    pub fn new(opt: Options) -> Sketch {
        Sketch { opt, key: None, layout: None }
    }

    /// [`draw`], reusing the layout of the previous grid when it applies.
    pub fn draw(&mut self, puzzle: &Puzzle, view: &View) -> String {
        let opt = self.opt;
        let g = if opt.unicode { &UNICODE } else { &ASCII };
        let shown: Vec<String> = view.cells.iter().map(|&c| show(c, g, opt.unicode)).collect();
        let w = shown.iter().map(|s| width(s)).max().unwrap_or(1).max(1);
        let mut d = Drawer { puzzle, view, opt, g, pal: Palette { on: opt.color }, shown, w, legend: vec![] };
        d.collect_legend();
        let mut out = match &puzzle.shape {
            Shape::Rect { rows, cols } => {
                let key = (std::ptr::from_ref(puzzle) as usize, w, view.bad_clues.clone(), view.hint_clues.clone());
                if self.key.as_ref() != Some(&key) || self.layout.is_none() {
                    self.layout = Some(d.rect_layout(*rows, *cols));
                    self.key = Some(key);
                }
                d.rect(*rows, *cols, self.layout.as_ref().expect("laid out"))
            }
            Shape::Hex(h) => d.hex(*h),
            Shape::Free { coords, .. } => d.free(coords.as_deref()),
        };
        if !d.legend.is_empty() {
            out.push_str(&format!("legend: {}\n", d.legend.join("; ")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rectangle read from crossat's JSON format.
    fn rect(json: &str) -> Puzzle {
        crossat::Puzzle::read("t.json", json.as_bytes()).expect("puzzle").puzzle().clone()
    }

    #[test]
    fn wide_characters_keep_columns_aligned() {
        let p = rect(r#"{"left": ["漢字"], "top": ["漢", "字"]}"#);
        let grid = crossat::verify::Grid { cells: vec!['漢', '字'], assignment: vec![] };
        let s = draw(&p, &View::solution(&p, &grid), Options::default());
        let widths: Vec<usize> = s.lines().map(width).collect();
        assert!(widths[1..4].iter().all(|&w| w == widths[1]), "{s}");
    }

    #[test]
    fn a_sketch_draws_every_grid_as_draw_does() {
        // Two rows of two cells, clues on all four sides; one bottom clue too wide for
        // its column (so the bottom clues are listed).
        let p = rect(r#"{"left": ["[AB]+", ".*"], "right": ["A|B.", ".."], "top": [".*", "[^C]*"], "bottom": ["(A|B|C|D|E)*", ".+"]}"#);
        let grids = [['A', 'B', 'C', 'D'], ['A', '漢', ' ', 'D'], ['B', 'B', 'B', 'B'], ['A', '字', 'A', '\u{301}']];
        for opt in [Options::default(), Options { unicode: false, ..Options::default() }, Options { color: true, ..Options::default() }] {
            let mut sketch = Sketch::new(opt);
            for (k, cells) in grids.iter().enumerate() {
                let grid = crossat::verify::Grid { cells: cells.to_vec(), assignment: vec![] };
                let mut view = View::solution(&p, &grid);
                if k == 2 {
                    // Marked cells and clues change the layout; the next grid goes back.
                    view.bad_clues = vec![0, 5];
                    view.marks[1] = Mark::Bad;
                }
                assert_eq!(sketch.draw(&p, &view), draw(&p, &view, opt), "grid {k}");
            }
        }
    }
}
