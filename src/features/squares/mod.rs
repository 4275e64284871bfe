//! Word squares: W×H grids whose cells hold two letters or are blank, every row and
//! column (read with its blanks skipped) a dictionary word, at least half of every line
//! filled, at least one blank per line, no word twice.
//!
//! The stages mirror the puzzle pipeline:
//!
//! | stage | here | in → out |
//! |---|---|---|
//! | parse | [`crate::puzzle::Dictionary`], [`Given::parse`] | word file → words; partial grid → fixed cells |
//! | compile | `Lexicon::new` (`dawg`) | words → one layered DAWG per line length |
//! | search | `search::search` (default) | DAWGs → squares, tightest cell first, lines pruned by their words, restarts |
//! | or SAT | `encode`, `generate` (`sat`) | DAWGs → CNF → squares, or a proof that none exists |
//! | verify | `verify` | square → checked against the word *set*, not the automata |
//! | emit | `Square::record` | square → [`records::Square`](crate::records::Square): rows and words |
//!
//! Both routes read the same automata, and every square either prints has passed
//! `verify` first.

pub(crate) mod dawg;
pub(crate) mod sat;
pub(crate) mod search;
#[cfg(test)]
mod tests;

pub(crate) use dawg::Lexicon;
pub(crate) use sat::Model;
pub use search::Tuning;

use crate::error::{Error, Result};
use crate::error::{Param, RequestError};
use crate::puzzle::Dictionary;
use crate::records;
use std::collections::{BTreeSet, HashMap};

/// Largest width or height accepted.
pub(crate) const MAX_SIDE: usize = 10;
/// Most clauses the formula may have.
pub(crate) const MAX_CLAUSES: usize = 30_000_000;
const LETTERS: usize = 26;
/// The cell value of a blank, after the pairs `0..PAIRS`.
pub(crate) const BLANK: u16 = PAIRS as u16;
/// A cell's content: a pair `26·a + b`, or [`BLANK`].
pub(crate) type Cell = u16;

/// A grid size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Cells per row.
    pub width: usize,
    /// Cells per column.
    pub height: usize,
}

impl Size {
    /// Checks the limits: each side from 2 to `MAX_SIDE`.
    pub fn new(width: usize, height: usize) -> Result<Size> {
        for (side, value) in [(Param::Width, width), (Param::Height, height)] {
            if !(2..=MAX_SIDE).contains(&value) {
                return Err(Error::Request(RequestError::SquareSide { side, value, max: MAX_SIDE }));
            }
        }
        Ok(Size { width, height })
    }

    /// The lines: rows top to bottom, then columns left to right, each as cell indices.
    pub(crate) fn lines(&self) -> Vec<Vec<usize>> {
        let (w, h) = (self.width, self.height);
        (0..h).map(|r| (0..w).map(|c| r * w + c).collect()).chain((0..w).map(|c| (0..h).map(|r| r * w + c).collect())).collect()
    }

    /// Line `l`'s name, e.g. `row 1` or `column 3` (1-based).
    pub(crate) fn line_name(&self, l: usize) -> String {
        if l < self.height { format!("row {}", l + 1) } else { format!("column {}", l - self.height + 1) }
    }
}

/// The fill rules for a line of `n` cells: the allowed numbers of filled cells.
pub(crate) fn filled_range(n: usize) -> std::ops::RangeInclusive<usize> {
    n.div_ceil(2)..=n - 1
}

/// Whether `word` can fill a line of `n` cells (an even length of allowed pairs).
pub(crate) fn fits(word: &str, n: usize) -> bool {
    word.len().is_multiple_of(2) && filled_range(n).contains(&(word.len() / 2))
}

/// Two-letter cell contents: `26·a + b` for letters `a`, `b`.
pub(crate) const PAIRS: usize = LETTERS * LETTERS;

/// A square: per cell, its two letters or `None` for a blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Square {
    /// The size.
    pub(crate) size: Size,
    /// Row-major cells.
    pub(crate) cells: Vec<Option<[u8; 2]>>,
}

impl Square {
    /// The word of each line (rows, then columns), blanks skipped.
    pub(crate) fn words(&self) -> Vec<String> {
        self.size.lines().iter().map(|l| l.iter().filter_map(|&c| self.cells[c]).flat_map(|p| p.map(char::from)).collect()).collect()
    }

    /// Rows of `2·W` characters, a blank as two spaces (the JSON form).
    pub(crate) fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(self.size.width)
            .map(|r| r.iter().map(|c| c.map_or_else(|| "  ".to_string(), |p| p.iter().map(|&b| char::from(b)).collect())).collect())
            .collect()
    }

    /// The record `squares --json` prints: the rows and the words.
    pub(crate) fn record(&self) -> records::Square {
        records::Square { grid: self.rows(), words: self.words() }
    }

    /// The grid with its cell boundaries drawn in ASCII (`+--+`), for messages.
    pub(crate) fn draw(&self) -> String {
        let w = self.size.width;
        let rule = format!("+{}+\n", vec!["--"; w].join("+"));
        let mut s = rule.clone();
        for row in self.cells.chunks(w) {
            s.push('|');
            for c in row {
                match c {
                    Some(p) => s.extend(p.iter().map(|&b| char::from(b))),
                    None => s.push_str("  "),
                }
                s.push('|');
            }
            s.push('\n');
            s.push_str(&rule);
        }
        s
    }
}

/// Checks a square against the rules and the dictionary's word set — not against the
/// automata or the formula it came from.
pub(crate) fn verify(sq: &Square, dict: &Dictionary) -> std::result::Result<(), String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (l, (line, word)) in sq.size.lines().iter().zip(sq.words()).enumerate() {
        let name = sq.size.line_name(l);
        let filled = line.iter().filter(|&&c| sq.cells[c].is_some()).count();
        if filled == line.len() {
            return Err(format!("{name} has no blank"));
        }
        if 2 * filled < line.len() {
            return Err(format!("{name} is less than half filled"));
        }
        if !dict.words.contains(&word) {
            return Err(format!("{name} spells `{word}`, which is not in the dictionary"));
        }
        if let Some(other) = seen.insert(word.clone(), l) {
            return Err(format!("`{word}` is both {} and {name}", sq.size.line_name(other)));
        }
    }
    Ok(())
}

/// How a generation run went.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Outcome {
    /// Squares found.
    pub(crate) found: usize,
    /// Whether the search was exhausted (no further square exists).
    pub(crate) complete: bool,
    /// Candidates rejected for repeating a word (SAT: each blocked by one clause;
    /// search: each a completed line whose word was already used).
    pub(crate) repeats_blocked: usize,
    /// Search nodes (cells assigned); 0 for SAT.
    pub(crate) nodes: u64,
    /// Restarts of the search; 0 for SAT.
    pub(crate) restarts: u64,
}

/// Live counters a progress reporter can read while the solver runs.
#[derive(Debug, Default)]
pub struct Progress {
    /// Squares found so far.
    pub found: std::sync::atomic::AtomicUsize,
    /// Repeats blocked so far.
    pub repeats: std::sync::atomic::AtomicUsize,
    /// Clauses of the formula, once it is built (0 before, and for the search).
    pub clauses: std::sync::atomic::AtomicUsize,
    /// Search nodes so far.
    pub nodes: std::sync::atomic::AtomicU64,
    /// Search restarts so far.
    pub restarts: std::sync::atomic::AtomicU64,
    /// Set once the automata are built and the search or solver runs.
    pub started: std::sync::atomic::AtomicBool,
}

/// How [`make`] finds squares.
#[derive(Clone, Copy, Debug)]
pub enum Method {
    /// The dedicated search: a portfolio of restarting searches on `jobs` threads
    /// (the same squares for any `jobs`).
    Search {
        /// Its parameters.
        tuning: Tuning,
        /// Threads.
        jobs: usize,
    },
    /// The SAT solver over the squares' formula, which also proves that no (further)
    /// square exists.
    Sat,
}

/// What [`make`] makes.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The words.
    pub dict: &'a Dictionary,
    /// The size.
    pub size: Size,
    /// Cells fixed in advance (`None`: no cell).
    pub given: Option<&'a Given>,
    /// Fixes the run: the same seed gives the same squares.
    pub seed: u64,
    /// Most squares to make.
    pub count: usize,
    /// Search or SAT.
    pub method: Method,
}

/// Makes up to `request.count` distinct squares, each verified against the dictionary
/// and handed to `found` as `squares --json` prints it, updating `progress` as it runs
/// (`clauses` once the SAT formula is built, `started` once the search or the solver
/// runs); then the summary record (its `time_ms` the time spent here).
pub fn make(
    request: &Request<'_>,
    progress: &Progress,
    mut found: impl FnMut(&records::Square) -> Result<()>,
) -> Result<records::SquaresSummary> {
    use std::sync::atomic::Ordering::Relaxed;
    let started = crate::clock::Instant::now();
    let Request { dict, size, given, seed, count, method } = *request;
    let lex = Lexicon::new(dict, size);
    let on = |sq: &Square| found(&sq.record());
    let (outcome, clauses) = match method {
        Method::Search { tuning, jobs } => {
            let none = Given::none(size);
            progress.started.store(true, Relaxed);
            (search::search(&lex, size, dict, given.unwrap_or(&none), seed, count, tuning, jobs, progress, on)?, None)
        }
        Method::Sat => {
            let model = formula(&lex, size, given)?;
            let clauses = crate::encode::ClauseSink::num_clauses(&model.cnf);
            progress.clauses.store(clauses, Relaxed);
            progress.started.store(true, Relaxed);
            (sat::generate(&model, dict, seed, count, progress, on)?, Some(clauses))
        }
    };
    Ok(records::SquaresSummary {
        solutions: outcome.found,
        complete: outcome.complete,
        width: size.width,
        height: size.height,
        seed,
        dictionary: dict.source.clone(),
        dictionary_words: dict.words.len(),
        usable_words: usable_words(dict, size).len(),
        repeats_blocked: outcome.repeats_blocked,
        clauses,
        method: if clauses.is_some() { "sat" } else { "search" }.to_string(),
        nodes: outcome.nodes,
        restarts: outcome.restarts,
        given_cells: given.map_or(0, |g| g.cells.iter().filter(|c| c.is_some()).count()),
        time_ms: started.elapsed().as_secs_f64() * 1e3,
    })
}

/// The squares' formula with the given cells pinned.
fn formula(lex: &Lexicon, size: Size, given: Option<&Given>) -> Result<Model> {
    let mut model = sat::encode(lex, size)?;
    if let Some(given) = given {
        sat::pin(&mut model, given);
    }
    Ok(model)
}

/// The squares' formula in DIMACS CNF, as an external solver reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dimacs {
    /// The DIMACS text, with comments that map variables to cells and pairs.
    pub text: String,
    /// Its variables.
    pub variables: usize,
    /// Its clauses.
    pub clauses: usize,
}

/// The formula [`Method::Sat`] solves for the request (its method, seed and count
/// aside).
pub fn dimacs(request: &Request<'_>) -> Result<Dimacs> {
    use crate::encode::ClauseSink;
    let Request { dict, size, given, .. } = *request;
    let model = formula(&Lexicon::new(dict, size), size, given)?;
    let mut out = Vec::new();
    sat::write_dimacs(&mut out, &model).map_err(|e| Error::Internal(format!("cannot write a formula to memory: {e}")))?;
    let text = String::from_utf8(out).map_err(|e| Error::Internal(format!("DIMACS output is not UTF-8: {e}")))?;
    Ok(Dimacs { text, variables: model.cnf.num_vars(), clauses: model.cnf.num_clauses() })
}

/// Words of the dictionary that fit some line of `size`.
pub(crate) fn usable_words(dict: &Dictionary, size: Size) -> BTreeSet<&str> {
    dict.words.iter().map(String::as_str).filter(|w| fits(w, size.width) || fits(w, size.height)).collect()
}

/// Cells a setter fixed in advance, read from a partial grid by [`Given::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    /// Row-major cells: `None` when free, else a pair or `BLANK`.
    pub(crate) cells: Vec<Option<Cell>>,
}

impl Given {
    /// No cell fixed.
    pub(crate) fn none(size: Size) -> Given {
        Given { cells: vec![None; size.width * size.height] }
    }

    /// Reads a partial grid: one line per row, its `W` cells separated by spaces; a cell
    /// is two lowercase letters, `-` for a blank, or `?` for a free cell. Empty lines and
    /// lines starting with `#` are skipped.
    pub fn parse(source: &str, text: &str, size: Size) -> Result<Given> {
        let bad = |msg: String| Error::input(source, msg);
        let mut cells = Vec::new();
        let mut rows = 0;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            rows += 1;
            if rows > size.height {
                return Err(bad(format!("line {}: more than {} rows (the --height)", n + 1, size.height)));
            }
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.len() != size.width {
                return Err(bad(format!(
                    "line {}: {} cells, but a row has {} (the --width); write a cell as two letters, `-` for a blank or `?` for a free cell",
                    n + 1,
                    tokens.len(),
                    size.width
                )));
            }
            for t in tokens {
                cells.push(match t.as_bytes() {
                    b"?" => None,
                    b"-" => Some(BLANK),
                    &[a, b] if a.is_ascii_lowercase() && b.is_ascii_lowercase() => {
                        Some(u16::from(a - b'a') * LETTERS as u16 + u16::from(b - b'a'))
                    }
                    _ => {
                        return Err(bad(format!(
                            "line {}: `{t}` is not a cell: write two lowercase letters, `-` for a blank or `?` for a free cell",
                            n + 1
                        )));
                    }
                });
            }
        }
        if rows != size.height {
            return Err(bad(format!("{rows} rows, but the square has {} (the --height)", size.height)));
        }
        Ok(Given { cells })
    }

    /// Whether `sq` agrees with every fixed cell.
    pub(crate) fn admits(&self, sq: &Square) -> bool {
        self.cells.iter().zip(&sq.cells).all(|(g, c)| g.is_none_or(|g| g == cell_of(*c)))
    }
}

/// The cell value of a square's cell.
pub(crate) fn cell_of(c: Option<[u8; 2]>) -> Cell {
    c.map_or(BLANK, |[a, b]| u16::from(a - b'a') * LETTERS as u16 + u16::from(b - b'a'))
}

/// The square's cell of a cell value.
pub(crate) fn letters_of(v: Cell) -> Option<[u8; 2]> {
    (v != BLANK).then(|| [b'a' + (v / LETTERS as u16) as u8, b'a' + (v % LETTERS as u16) as u8])
}
