//! The constraints the steps narrow, and the cells they narrow.
//!
//! A puzzle with fixed clues has one constraint per clue over its line's cells. A
//! regex pool adds, past the grid's cells, one **entry cell** per entry, whose
//! candidates are the pool's regexes (symbol `r` is regex `r`) it may still take, and
//! two kinds of constraint:
//!
//! - an **entry** over its entry cell and its line's cells: the entry takes one of its
//!   regexes and its word matches it. Its support keeps the regexes with a word over
//!   the line, and the letters some word of one of those regexes uses;
//! - the **pool** over every entry cell: each regex goes to exactly one entry. Its
//!   support keeps, per entry, the regexes some one-to-one assignment of the
//!   candidates gives it ([`super::pool`]).
//!
//! Both supports are exact, like a clue's, so the line steps, the case splits (which
//! may assume an entry's regex too) and the closures treat all constraints alike.

use super::Engine;
use crate::compile::{Compiled, CompiledClue};
use crate::propagate::SymSet;
use crate::puzzle::Puzzle;

/// Most regexes in a pool whose assignment the steps show (an entry cell's candidates
/// are a [`SymSet`]).
pub(crate) const MAX_POOL: usize = 192;

/// What a constraint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Constraint {
    /// Clue `i`.
    Clue(usize),
    /// Pool entry `e`: its entry cell, then its line's cells.
    Entry(usize),
    /// The pool's one-to-one assignment, over every entry cell.
    Pool,
}

/// The constraints of a puzzle: their cells, and the constraints through each cell.
#[derive(Clone, Debug, Default)]
pub(super) struct Layout {
    /// Cells of the grid (entry cells follow them).
    pub grid: usize,
    /// Clues.
    pub clues: usize,
    /// Cells of each constraint, in line order.
    pub lines: Vec<Vec<usize>>,
    /// Constraints through each cell (grid and entry cells).
    pub of_cell: Vec<Vec<usize>>,
}

impl Layout {
    pub(crate) fn new(puzzle: &Puzzle) -> Layout {
        let grid = puzzle.givens.len();
        let clues = puzzle.clues.len();
        let mut lines: Vec<Vec<usize>> = puzzle.clues.iter().map(|c| c.cells.clone()).collect();
        let entries = puzzle.pool.as_ref().map_or(0, |p| p.entries.len());
        if let Some(pool) = &puzzle.pool {
            for (e, cells) in pool.entries.iter().enumerate() {
                lines.push(std::iter::once(grid + e).chain(cells.iter().copied()).collect());
            }
            lines.push((grid..grid + entries).collect());
        }
        let mut of_cell = vec![Vec::new(); grid + entries];
        for (i, line) in lines.iter().enumerate() {
            for &c in line {
                if !of_cell[c].contains(&i) {
                    of_cell[c].push(i);
                }
            }
        }
        Layout { grid, clues, lines, of_cell }
    }
}

impl Engine<'_> {
    /// Constraints: the clues, then each pool entry, then the pool.
    pub(crate) fn constraints(&self) -> usize {
        self.layout.lines.len()
    }

    /// What constraint `i` is.
    pub(crate) fn constraint(&self, i: usize) -> Constraint {
        constraint(self.puzzle, i)
    }

    /// The cells of constraint `i`, in line order.
    pub(crate) fn cells_of(&self, i: usize) -> &[usize] {
        &self.layout.lines[i]
    }

    /// Cells of the grid; entry cells are numbered from here.
    pub(crate) fn grid_cells(&self) -> usize {
        self.layout.grid
    }

    /// The candidates of the grid's cells `grid`, followed by each pool entry's: every
    /// regex of the pool (the entries' steps rule out those that fit no word).
    pub(crate) fn with_entries(&self, mut grid: Vec<SymSet>) -> Vec<SymSet> {
        if let Some(pool) = &self.puzzle.pool {
            let all = SymSet::full(pool.regexes.len().min(MAX_POOL));
            grid.extend(pool.entries.iter().map(|_| all));
        }
        grid
    }

    /// The letters constraint `i` leaves its `line` (its cells' candidates), and
    /// whether it may keep extra ones ([`super::candidates::EXACT_WORDS`]).
    pub(super) fn constraint_support(&self, i: usize, line: &[SymSet]) -> (Vec<SymSet>, bool) {
        match self.constraint(i) {
            Constraint::Clue(i) => self.support(i, line),
            Constraint::Entry(_) => self.entry_support(line),
            Constraint::Pool => (super::pool::assignable(line), false),
        }
    }

    /// An entry's support: `line[0]` is its regexes, the rest its cells.
    fn entry_support(&self, line: &[SymSet]) -> (Vec<SymSet>, bool) {
        let mut out = vec![SymSet::default(); line.len()];
        let mut extra = false;
        for r in line[0].iter() {
            // A regex without an automaton of this length has an empty support.
            let (s, x) = self.support(self.layout.clues + r, &line[1..]);
            if s.iter().any(SymSet::is_empty) {
                continue;
            }
            out[0].insert(r);
            for (o, s) in out[1..].iter_mut().zip(&s) {
                *o = o.or(s);
            }
            extra |= x;
        }
        (out, extra)
    }

    /// The automaton of regex `key` on a line of `len` cells: clue `key`, or pool
    /// regex `key` − clues (`None` when the pool regex has none of that length).
    pub(super) fn automaton(&self, key: usize, len: usize) -> Option<&CompiledClue> {
        automaton(self.compiled, self.layout.clues, key, len)
    }

    /// The text of regex `key` (a clue's, or a pool regex's).
    pub(crate) fn regex_text(&self, key: usize) -> &str {
        regex_text(self.puzzle, key)
    }
}

/// The automaton of regex `key` (see [`Engine::automaton`]).
fn automaton(compiled: &Compiled, clues: usize, key: usize, len: usize) -> Option<&CompiledClue> {
    match key.checked_sub(clues) {
        None => compiled.clues.get(key),
        Some(r) => compiled.pool.get(r)?.get(&len),
    }
}

/// The text of regex `key` of `puzzle`: clue `key`, or pool regex `key` − clues.
pub(crate) fn regex_text(puzzle: &Puzzle, key: usize) -> &str {
    match key.checked_sub(puzzle.clues.len()) {
        None => &puzzle.clues[key].regex,
        Some(r) => puzzle.pool.as_ref().map_or("", |p| &p.regexes[r]),
    }
}

/// What constraint `i` of `puzzle` is: a clue, then each pool entry, then the pool.
pub(crate) fn constraint(puzzle: &Puzzle, i: usize) -> Constraint {
    let entries = puzzle.pool.as_ref().map_or(0, |p| p.entries.len());
    match i.checked_sub(puzzle.clues.len()) {
        None => Constraint::Clue(i),
        Some(e) if e < entries => Constraint::Entry(e),
        Some(_) => Constraint::Pool,
    }
}

/// The name of constraint `i` of `puzzle`, as `solve` labels its line.
pub(crate) fn label(puzzle: &Puzzle, i: usize) -> String {
    match constraint(puzzle, i) {
        Constraint::Clue(i) => puzzle.clues[i].label.clone(),
        Constraint::Entry(e) => format!("entry {}", puzzle.pool.as_ref().map_or("", |p| p.labels[e].as_str())),
        Constraint::Pool => "the pool".to_string(),
    }
}

/// The name of cell `c` of `puzzle`: a grid cell as `hint` names it, or a pool entry
/// (whose candidates are regexes).
pub(crate) fn cell_name(puzzle: &Puzzle, c: usize) -> String {
    match c.checked_sub(puzzle.givens.len()) {
        None => puzzle.shape.cell_name(c),
        Some(e) => format!("entry {}", puzzle.pool.as_ref().map_or("", |p| p.labels[e].as_str())),
    }
}
