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

use crate::puzzle::{Clue, Puzzle, Shape, hex};
use crate::style::Palette;
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
    pub fn solution(puzzle: &Puzzle, grid: &crate::verify::Grid) -> View {
        let marks = puzzle.givens.iter().map(|g| if g.is_some() { Mark::Given } else { Mark::Plain }).collect();
        View { cells: grid.cells.iter().map(|&c| Some(c)).collect(), marks, assignment: grid.assignment.clone(), ..View::default() }
    }

    /// A partial grid; its filled cells are marked as given.
    pub fn partial(cells: &[Option<char>]) -> View {
        let marks = cells.iter().map(|g| if g.is_some() { Mark::Given } else { Mark::Plain }).collect();
        View { cells: cells.to_vec(), marks, ..View::default() }
    }
}

struct Glyphs {
    h: char,
    v: char,
    /// Corners: top, middle, bottom × left, middle, right.
    corner: [[char; 3]; 3],
    hole: char,
    empty: char,
    up: (char, char),
}

const UNICODE: Glyphs =
    Glyphs {
        h: '─', v: '│', corner: [['┌', '┬', '┐'], ['├', '┼', '┤'], ['└', '┴', '┘']], hole: '░', empty: ' ', up: ('╱', '╲')
    };
const ASCII: Glyphs = Glyphs { h: '-', v: '|', corner: [['+'; 3]; 3], hole: '#', empty: '.', up: ('/', '\\') };

/// Display width of plain text.
pub fn width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// A piece of text with its display width (the text may hold colour codes).
#[derive(Clone, Default)]
struct Piece {
    text: String,
    width: usize,
}

impl Piece {
    fn plain(s: &str) -> Piece {
        Piece { text: s.to_string(), width: width(s) }
    }
    fn join(parts: &[Piece], sep: &str) -> Piece {
        let mut out = Piece::default();
        for (k, p) in parts.iter().enumerate() {
            if k > 0 {
                out.text.push_str(sep);
                out.width += width(sep);
            }
            out.text.push_str(&p.text);
            out.width += p.width;
        }
        out
    }
    fn centred(&self, w: usize) -> String {
        let mut out = String::with_capacity(self.text.len() + w);
        push_centred(&mut out, &self.text, self.width, w);
        out
    }
    fn right(&self, w: usize) -> String {
        format!("{}{}", " ".repeat(w.saturating_sub(self.width)), self.text)
    }
    fn left(&self, w: usize) -> String {
        format!("{}{}", self.text, " ".repeat(w.saturating_sub(self.width)))
    }
}

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
            Shape::Hex { side } => d.hex(*side),
            Shape::Free { coords, .. } => d.free(coords.as_deref()),
        };
        if !d.legend.is_empty() {
            out.push_str(&format!("legend: {}\n", d.legend.join("; ")));
        }
        out
    }
}

/// What a rectangle's drawing takes from its clues alone (see [`Sketch`]).
struct RectLayout {
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

/// How a cell's character is shown (before padding and marking).
fn show(c: Option<char>, g: &Glyphs, unicode: bool) -> String {
    match c {
        None => g.empty.to_string(),
        Some(' ') if unicode => "␣".into(),
        Some(c) if c.is_control() => {
            if unicode {
                let pic =
                    if c == '\u{7f}' { '␡' } else { char::from_u32(0x2400 + c as u32).filter(|_| (c as u32) < 0x20).unwrap_or('�') };
                pic.to_string()
            } else {
                "?".into()
            }
        }
        Some(c) if c.width().unwrap_or(0) == 0 => {
            if unicode {
                format!("◌{c}")
            } else {
                "?".into()
            }
        }
        Some(c) => c.to_string(),
    }
}

impl Drawer<'_> {
    fn collect_legend(&mut self) {
        let unicode = self.opt.unicode;
        let mut specials: Vec<char> =
            self.view.cells.iter().flatten().copied().filter(|&c| c == ' ' || c.is_control() || c.width() == Some(0)).collect();
        specials.sort_unstable();
        specials.dedup();
        for c in specials {
            let shown = show(Some(c), self.g, unicode);
            self.legend.push(match c {
                ' ' if unicode => "␣ is a space".to_string(),
                ' ' => "a blank cell holds a space".to_string(),
                c if c.is_control() => format!("{shown} is the control character U+{:04X}", c as u32),
                c => format!("{shown} is U+{:04X}, a combining character", c as u32),
            });
        }
        if !unicode {
            let drawing: Vec<String> = "|+-#".chars().filter(|c| self.view.cells.contains(&Some(*c))).map(|c| format!("'{c}'")).collect();
            if !drawing.is_empty() {
                self.legend.push(format!(
                    "{} inside a cell {} the cell's letter",
                    drawing.join(" "),
                    if drawing.len() == 1 { "is" } else { "are" }
                ));
            }
        }
        if self.view.cells.iter().any(Option::is_none) {
            self.legend.push(if unicode { "a blank cell is empty".into() } else { "'.' is an empty cell".into() });
        }
        let used = |m: Mark| self.view.marks.contains(&m);
        if used(Mark::Hint) {
            let sample = if self.pal.on { self.pal.paint(Palette::HINT, " X ") } else { "[X]".into() };
            self.legend.push(format!("{sample} the hint"));
        }
        if used(Mark::Bad) {
            let sample = if self.pal.on { self.pal.paint(Palette::BAD, " X ") } else { "!X!".into() };
            self.legend.push(format!("{sample} a wrong cell"));
        }
        if !self.view.hint_clues.is_empty() && self.opt.clues {
            let sample = if self.pal.on { self.pal.paint(Palette::HINT_CLUE, "clue") } else { format!("{}clue", self.hint_marker()) };
            self.legend.push(format!("{sample} forces the hint"));
        }
        if !self.view.bad_clues.is_empty() && self.opt.clues {
            let sample = if self.pal.on { self.pal.paint(Palette::BAD_CLUE, "clue") } else { format!("{}clue", self.bad_marker()) };
            self.legend.push(format!("{sample} fails"));
        }
    }

    fn hint_marker(&self) -> &'static str {
        if self.opt.unicode { "▸ " } else { "> " }
    }

    fn bad_marker(&self) -> &'static str {
        if self.opt.unicode { "✗ " } else { "! " }
    }

    /// The content of cell `c`, `inner` columns wide, marked, added to `out`.
    fn push_cell(&self, out: &mut String, c: usize, inner: usize) {
        let mark = self.view.marks.get(c).copied().unwrap_or_default();
        if mark == Mark::Plain && !self.pal.on {
            // The common case (every cell of a solution), without allocating.
            let shown = &self.shown[c];
            push_centred(out, shown, width(shown), inner);
        } else {
            out.push_str(&self.cell(c, inner));
        }
    }

    /// The content of cell `c`, `inner` columns wide, marked.
    fn cell(&self, c: usize, inner: usize) -> String {
        let p = Piece::plain(&self.shown[c]);
        let mark = self.view.marks.get(c).copied().unwrap_or_default();
        if self.pal.on {
            let style = match mark {
                Mark::Plain => return p.centred(inner),
                Mark::Given => Palette::GIVEN,
                Mark::Hint => Palette::HINT,
                Mark::Bad => Palette::BAD,
            };
            return self.pal.paint(style, &p.centred(inner));
        }
        let (l, r) = match mark {
            Mark::Hint => ('[', ']'),
            Mark::Bad => ('!', '!'),
            _ => return p.centred(inner),
        };
        let body = p.centred(inner - 2);
        format!("{l}{body}{r}")
    }

    /// A clue's regex, marked.
    fn clue(&self, i: usize) -> Piece {
        let re = &self.puzzle.clues[i].regex;
        let (style, marker) = if self.view.bad_clues.contains(&i) {
            (Some(Palette::BAD_CLUE), self.bad_marker())
        } else if self.view.hint_clues.contains(&i) {
            (Some(Palette::HINT_CLUE), self.hint_marker())
        } else {
            (None, "")
        };
        match style {
            Some(s) if self.pal.on => Piece { text: self.pal.paint(s, re), width: width(re) },
            Some(_) => Piece { text: format!("{marker}{re}"), width: width(marker) + width(re) },
            None => Piece::plain(re),
        }
    }

    fn clues(&self, list: &[usize]) -> Piece {
        Piece::join(&list.iter().map(|&i| self.clue(i)).collect::<Vec<_>>(), "  ")
    }

    fn border(&self, which: usize, cols: usize, inner: usize) -> String {
        let [l, m, r] = self.g.corner[which];
        let mut s = String::with_capacity((cols * (inner + 1) + 1) * self.g.h.len_utf8());
        s.push(l);
        for j in 0..cols {
            s.extend(std::iter::repeat_n(self.g.h, inner));
            s.push(if j + 1 == cols { r } else { m });
        }
        s
    }

    /// The parts of a rectangle's drawing that come from its clues.
    fn rect_layout(&self, rows: usize, cols: usize) -> RectLayout {
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
    fn rect(&self, rows: usize, cols: usize, layout: &RectLayout) -> String {
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

    /// `label  regex` lines for clues drawn nowhere else.
    fn other_clues(&self, list: &[usize]) -> Vec<String> {
        let lw = list.iter().map(|&i| width(&self.puzzle.clues[i].label)).max().unwrap_or(0);
        list.iter().map(|&i| format!("{}  {}", Piece::plain(&self.puzzle.clues[i].label).left(lw), self.clue(i).text)).collect()
    }

    fn hex(&self, s: usize) -> String {
        // Odd inner width, so that rows shift by a whole half cell.
        let inner = if self.w % 2 == 1 { self.w + 2 } else { self.w + 3 };
        let period = inner + 1;
        let half = period / 2;
        let rows = hex::rows(s);
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
        let indent = |r: usize| half * (2 * s - 1 - hex::row_len(s, r));
        // Room for each row's clue (and a space) before its first bar.
        let shift = (0..rows.len())
            .map(|r| if pieces[r].width > 0 { (pieces[r].width + 1).saturating_sub(indent(r)) } else { 0 })
            .max()
            .unwrap_or(0);
        let (up, down) = self.g.up;
        let border = |r: usize, rising: bool| {
            let mut line = " ".repeat(shift + indent(r));
            for _ in 0..hex::row_len(s, r) {
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
            if r < s {
                lines.push(border(r, true));
            }
            let lead = shift + indent(r);
            let mut line = if pieces[r].width > 0 { format!("{} ", pieces[r].right(lead - 1)) } else { " ".repeat(lead) };
            for &c in row {
                line.push(self.g.v);
                line.push_str(&self.cell(c, inner));
            }
            line.push(self.g.v);
            lines.push(line);
            if r + 1 >= s {
                lines.push(border(r, false));
            }
        }
        lines.extend(self.other_clues(&other));
        finish(lines)
    }

    fn free(&self, coords: Option<&[(usize, usize)]>) -> String {
        /// Largest drawing of a free layout, in cells (holes included).
        const MAX_CANVAS: usize = 40_000;
        let mut lines = Vec::new();
        if let Some(xy) = coords {
            let (rows, cols) = xy.iter().fold((0usize, 0usize), |(r, c), &(y, x)| (r.max(y.saturating_add(1)), c.max(x.saturating_add(1))));
            // Cells far apart: the drawing's size is not bounded by the puzzle's, and it
            // would be mostly holes; the entries below say it all.
            if rows.saturating_mul(cols) > MAX_CANVAS.max(4 * xy.len()) {
                lines.push(format!("(the cells span {rows} rows and {cols} columns: too far apart to draw)"));
                lines.extend(self.entries(true));
                return finish(lines);
            }
            let mut at = vec![vec![None; cols]; rows];
            for (c, &(y, x)) in xy.iter().enumerate() {
                at[y][x] = Some(c);
            }
            let inner = self.w + 2;
            let numbers = self.opt.clues;
            let rw = if numbers { rows.to_string().len() + 1 } else { 0 };
            let indent = " ".repeat(rw);
            if numbers {
                let mut head = format!("{indent} ");
                for j in 1..=cols {
                    head.push_str(&Piece::plain(&j.to_string()).centred(inner));
                    head.push(' ');
                }
                lines.push(head);
            }
            lines.push(format!("{indent}{}", self.border(0, cols, inner)));
            for (r, row) in at.iter().enumerate() {
                let mut line = if numbers { format!("{:>w$} ", r + 1, w = rw - 1) } else { String::new() };
                line.push(self.g.v);
                for cell in row {
                    match cell {
                        Some(c) => line.push_str(&self.cell(*c, inner)),
                        None => line.extend(std::iter::repeat_n(self.g.hole, inner)),
                    }
                    line.push(self.g.v);
                }
                lines.push(line);
                lines.push(format!("{indent}{}", self.border(if r + 1 == rows { 2 } else { 1 }, cols, inner)));
            }
        }
        if self.opt.clues || coords.is_none() {
            lines.extend(self.entries(coords.is_some()));
        }
        finish(lines)
    }

    /// One line per entry (clue, or pool entry): label, first cell, regex, word.
    fn entries(&self, coords: bool) -> Vec<String> {
        let word = |cells: &[usize]| -> String { cells.iter().map(|&c| self.shown[c].clone()).collect() };
        let start = |cells: &[usize]| -> String {
            match (coords, cells.first()) {
                (true, Some(&c)) => {
                    let (r, col) = self.puzzle.shape.coords(c);
                    format!("r{}c{}", r + 1, col + 1)
                }
                _ => String::new(),
            }
        };
        let rows: Vec<[Piece; 4]> = match &self.puzzle.pool {
            Some(pool) => pool
                .entries
                .iter()
                .enumerate()
                .map(|(e, cells)| {
                    let regex =
                        self.view.assignment.get(e).and_then(|&k| pool.regexes.get(k)).map_or_else(Piece::default, |r| Piece::plain(r));
                    [Piece::plain(&pool.labels[e]), Piece::plain(&start(cells)), regex, Piece::plain(&word(cells))]
                })
                .collect(),
            None => self
                .puzzle
                .clues
                .iter()
                .enumerate()
                .map(|(i, c)| [Piece::plain(&c.label), Piece::plain(&start(&c.cells)), self.clue(i), Piece::plain(&word(&c.cells))])
                .collect(),
        };
        let widths: Vec<usize> = (0..4).map(|k| rows.iter().map(|r| r[k].width).max().unwrap_or(0)).collect();
        rows.iter()
            .map(|r| {
                let mut parts = vec![];
                for (k, p) in r.iter().enumerate() {
                    if widths[k] > 0 {
                        parts.push(if k == 3 { p.text.clone() } else { p.left(widths[k]) });
                    }
                }
                parts.join("  ")
            })
            .collect()
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

/// Adds `text` (`tw` columns wide) to `out`, centred in `w` columns.
fn push_centred(out: &mut String, text: &str, tw: usize, w: usize) {
    let pad = w.saturating_sub(tw);
    out.extend(std::iter::repeat_n(' ', pad / 2));
    out.push_str(text);
    out.extend(std::iter::repeat_n(' ', pad - pad / 2));
}

/// Adds `p` to `out`, right-aligned in `w` columns.
fn push_right(out: &mut String, p: &Piece, w: usize) {
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(p.width)));
    out.push_str(&p.text);
}

fn finish(lines: Vec<String>) -> String {
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for l in lines {
        out.push_str(l.trim_end_matches(' '));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rectangle of these clues, without name, alphabet or givens.
    fn rect(clues: crate::puzzle::RectClues) -> Puzzle {
        Puzzle::rect("t", None, None, None, clues).expect("puzzle")
    }

    #[test]
    fn wide_characters_keep_columns_aligned() {
        let p = rect(crate::puzzle::RectClues {
            left: Some(vec![vec!["漢字".into()]]),
            top: Some(vec![vec!["漢".into()], vec!["字".into()]]),
            ..Default::default()
        });
        let grid = crate::verify::Grid { cells: vec!['漢', '字'], assignment: vec![] };
        let s = draw(&p, &View::solution(&p, &grid), Options::default());
        let widths: Vec<usize> = s.lines().map(width).collect();
        assert!(widths[1..4].iter().all(|&w| w == widths[1]), "{s}");
    }

    #[test]
    fn a_sketch_draws_every_grid_as_draw_does() {
        // Two rows of two cells, clues on all four sides; one bottom clue too wide for
        // its column (so the bottom clues are listed).
        let p = rect(crate::puzzle::RectClues {
            left: Some(vec![vec!["[AB]+".into()], vec![".*".into()]]),
            right: Some(vec![vec!["A|B.".into()], vec!["..".into()]]),
            top: Some(vec![vec![".*".into()], vec!["[^C]*".into()]]),
            bottom: Some(vec![vec!["(A|B|C|D|E)*".into()], vec![".+".into()]]),
        });
        let grids = [['A', 'B', 'C', 'D'], ['A', '漢', ' ', 'D'], ['B', 'B', 'B', 'B'], ['A', '字', 'A', '\u{301}']];
        for opt in [Options::default(), Options { unicode: false, ..Options::default() }, Options { color: true, ..Options::default() }] {
            let mut sketch = Sketch::new(opt);
            for (k, cells) in grids.iter().enumerate() {
                let grid = crate::verify::Grid { cells: cells.to_vec(), assignment: vec![] };
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
