//! The default route: a dedicated search that fills the square cell by cell over the
//! pair-token automata, with lookahead, weighted randomised value order and restarts.
//!
//! * **State.** Every row and column keeps its automaton state and the number of
//!   pairs read so far; a blank leaves both unchanged. Cells are filled row by row,
//!   so at cell (r, c) the row has read `c` cells and the column `r`.
//! * **Column options.** For each column, the values its next cell may take: the pairs
//!   on its state's edges whose target can still end a word within the column's
//!   remaining cells (word-final information per state), and the blank if the column
//!   can still end with one more blank. Given cells narrow this to one value.
//! * **Row lookahead.** Before a cell is chosen, the rest of its row is unrolled over
//!   the row's automaton, each later cell restricted to its column's options (a
//!   forward pass over (cell, state) nodes, then a backward pass that counts
//!   completions, as in Pesant's `regular` constraint). A value survives only if the
//!   row can still be completed through it with every column still completable; when
//!   none survives, the search backs up at once.
//! * **Value order.** Each surviving value is weighed by the completions it leaves:
//!   the row's count through it times the column's word count from its new state.
//!   Values are tried in the order of `α·ln(weight)` plus Gumbel noise drawn from the
//!   seeded generator, which samples values in proportion to `weight^α`; so a seed
//!   fixes the run, and other seeds explore elsewhere.
//! * **Repeats** are checked as soon as a line is complete.
//! * **Restarts** follow the Luby sequence (1, 1, 2, 1, 1, 2, 4, …) times a base number
//!   of dead ends, which cuts the heavy tail of single runs. Cutoffs grow without
//!   bound, and a run that finishes its whole tree below its cutoff has exhausted the
//!   search: then no (further) square exists.

use super::dawg::{Flat, Lexicon, StateId};
use super::{BLANK, Cell, Given, Outcome, PAIRS, Progress, Size, Square, letters_of, verify};
use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::words::Dictionary;
use std::collections::HashSet;
use std::sync::atomic::Ordering::Relaxed;

/// Tuning of the search.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Dead ends per Luby unit before a restart.
    pub restart_base: u64,
    /// Exponent of the weights in the sampled value order (0: uniform, large: greedy).
    pub greed: f64,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning { restart_base: 100, greed: 1.0 }
    }
}

/// The values a cell may take, as a bitset over the pairs and the blank.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Values([u64; WORDS]);

const WORDS: usize = (PAIRS + 1).div_ceil(64);

impl Values {
    const EMPTY: Values = Values([0; WORDS]);
    fn has(&self, v: Cell) -> bool {
        self.0[usize::from(v) / 64] >> (v % 64) & 1 == 1
    }
    fn add(&mut self, v: Cell) {
        self.0[usize::from(v) / 64] |= 1 << (v % 64);
    }
}

/// A line's progress: its automaton state and how many pairs it has read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line {
    q: StateId,
    j: usize,
}

/// One decision: the cell, its candidate values in order, the next to try, and the
/// row and column states before it (restored on every try and when backing up).
struct Frame {
    cell: usize,
    cands: Vec<Cell>,
    next: usize,
    row: Line,
    col: Line,
}

/// Scratch space of the row lookahead, kept between calls.
#[derive(Default)]
struct Unroll {
    /// Per layer (cells read), its nodes' states.
    nodes: Vec<Vec<StateId>>,
    /// Per layer, transitions into the next layer: (from, to, value).
    trans: Vec<Vec<(u32, u32, Cell)>>,
    /// Per layer, completions from each node.
    count: Vec<Vec<f64>>,
    /// Per state, the layer stamp and index where it was last put.
    stamp: Vec<(u32, u32)>,
    epoch: u32,
}

struct Search<'a> {
    size: Size,
    row_fa: &'a Flat,
    col_fa: &'a Flat,
    given: &'a Given,
    grid: Vec<Cell>,
    rows: Vec<Line>,
    cols: Vec<Line>,
    /// `options[r][c]`: the values column `c` allows at row `r`, given its state then.
    options: Vec<Vec<Values>>,
    unroll: Unroll,
    rng: Rng,
    tuning: Tuning,
    /// Candidates of the first cell, which depend only on the given cells.
    first: Option<Vec<(Cell, f64)>>,
    repeats: usize,
}

/// Finds up to `count` distinct squares with the dedicated search, each verified before
/// it is passed on. The seed fixes the whole run: the same seed gives the same squares.
#[allow(clippy::too_many_arguments, reason = "the command's parameters, passed through")]
pub fn search(
    lex: &Lexicon,
    size: Size,
    dict: &Dictionary,
    given: &Given,
    seed: u64,
    count: usize,
    tuning: Tuning,
    progress: &Progress,
    mut on_square: impl FnMut(&Square) -> Result<()>,
) -> Result<Outcome> {
    let (row_fa, col_fa) = (&lex.get(size.width).flat, &lex.get(size.height).flat);
    let mut outcome = Outcome::default();
    let (Some(row_root), Some(col_root)) = (row_fa.root(), col_fa.root()) else {
        outcome.complete = true;
        return Ok(outcome);
    };
    let (w, h) = (size.width, size.height);
    let mut s = Search {
        size,
        row_fa,
        col_fa,
        given,
        grid: vec![BLANK; w * h],
        rows: vec![Line { q: row_root, j: 0 }; h],
        cols: vec![Line { q: col_root, j: 0 }; w],
        options: vec![vec![Values::EMPTY; w]; h],
        unroll: Unroll { stamp: vec![(0, 0); row_fa.states()], ..Unroll::default() },
        rng: Rng::new(seed),
        tuning,
        first: None,
        repeats: 0,
    };
    for c in 0..w {
        s.options[0][c] = s.column_options(0, c);
    }
    let mut found: HashSet<Vec<Cell>> = HashSet::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut nodes = 0u64;
    for run in 0u64.. {
        let cutoff = tuning.restart_base.saturating_mul(luby(run + 1));
        let mut dead_ends = 0u64;
        outcome.restarts = run;
        progress.restarts.store(run, Relaxed);
        for r in 0..h {
            s.rows[r] = Line { q: row_root, j: 0 };
        }
        for c in 0..w {
            s.cols[c] = Line { q: col_root, j: 0 };
        }
        frames.clear();
        match s.frame(0) {
            Some(f) => frames.push(f),
            None => {
                outcome.complete = true;
                break;
            }
        }
        while let Some(top) = frames.last_mut() {
            let (cell, row, col) = (top.cell, top.row, top.col);
            let (r, c) = (cell / w, cell % w);
            s.rows[r] = row;
            s.cols[c] = col;
            let Some(&v) = top.cands.get(top.next) else {
                frames.pop();
                continue;
            };
            top.next += 1;
            nodes += 1;
            if nodes.is_multiple_of(1024) {
                progress.nodes.store(nodes, Relaxed);
            }
            if !s.place(r, c, v) {
                dead_ends += 1;
            } else if cell + 1 == w * h {
                if found.insert(s.grid.clone()) {
                    let sq = s.square();
                    verify(&sq, dict)
                        .map_err(|e| Error::Internal(format!("a generated square failed verification: {e}\n{}", sq.draw())))?;
                    if !given.admits(&sq) {
                        return Err(Error::Internal(format!("a generated square ignores a given cell\n{}", sq.draw())));
                    }
                    on_square(&sq)?;
                    outcome.found += 1;
                    progress.found.store(outcome.found, Relaxed);
                    if outcome.found >= count {
                        break;
                    }
                }
            } else {
                match s.frame(cell + 1) {
                    Some(f) => frames.push(f),
                    None => dead_ends += 1,
                }
            }
            if dead_ends >= cutoff {
                break;
            }
        }
        if outcome.found >= count {
            break;
        }
        if frames.is_empty() {
            outcome.complete = true;
            break;
        }
    }
    outcome.nodes = nodes;
    outcome.repeats_blocked = s.repeats;
    progress.nodes.store(nodes, Relaxed);
    Ok(outcome)
}

/// The Luby sequence, from `i = 1`: 1, 1, 2, 1, 1, 2, 4, 1, …
fn luby(i: u64) -> u64 {
    let mut k = 1u32;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if (1u64 << k) - 1 == i { 1 << (k - 1) } else { luby(i - (1u64 << (k - 1)) + 1) }
}

impl Search<'_> {
    /// The values column `c` allows at row `r`, from its current state.
    fn column_options(&self, r: usize, c: usize) -> Values {
        let Line { q, j } = self.cols[c];
        let left = self.size.height - r - 1;
        let mut v = Values::EMPTY;
        if self.col_fa.can_end(q, j, left) {
            v.add(BLANK);
        }
        let (pairs, to) = self.col_fa.edges(q);
        for (&p, &t) in pairs.iter().zip(to) {
            if self.col_fa.can_end(t, j + 1, left) {
                v.add(p);
            }
        }
        match self.given.cells[r * self.size.width + c] {
            Some(g) if v.has(g) => {
                let mut one = Values::EMPTY;
                one.add(g);
                one
            }
            Some(_) => Values::EMPTY,
            None => v,
        }
    }

    /// Puts `v` in cell (r, c) and advances its row and column; false when that
    /// completes a line with a word already used.
    fn place(&mut self, r: usize, c: usize, v: Cell) -> bool {
        let (w, h) = (self.size.width, self.size.height);
        self.grid[r * w + c] = v;
        if v != BLANK {
            let (row, col) = (&mut self.rows[r], &mut self.cols[c]);
            row.q = self.row_fa.step(row.q, v).expect("a candidate is on the row's edges");
            row.j += 1;
            col.q = self.col_fa.step(col.q, v).expect("a candidate is on the column's edges");
            col.j += 1;
        }
        if r + 1 < h {
            self.options[r + 1][c] = self.column_options(r + 1, c);
        }
        let row_done = c + 1 == w;
        let col_done = r + 1 == h;
        if row_done && (0..r).any(|o| self.line_word(o, true) == self.line_word(r, true)) {
            self.repeats += 1;
            return false;
        }
        if col_done {
            let word = self.line_word(c, false);
            if (0..h).any(|o| self.line_word(o, true) == word) || (0..c).any(|o| self.line_word(o, false) == word) {
                self.repeats += 1;
                return false;
            }
        }
        true
    }

    /// The pairs of row (or column) `i`, blanks skipped.
    fn line_word(&self, i: usize, row: bool) -> Vec<Cell> {
        let w = self.size.width;
        let cells: Vec<usize> = if row { (i * w..(i + 1) * w).collect() } else { (0..self.size.height).map(|r| r * w + i).collect() };
        cells.into_iter().map(|k| self.grid[k]).filter(|&v| v != BLANK).collect()
    }

    fn square(&self) -> Square {
        Square { size: self.size, cells: self.grid.iter().map(|&v| letters_of(v)).collect() }
    }

    /// The decision for `cell`, with its candidates in the order to try; `None` when no
    /// value leaves the row and every column completable (a dead end).
    fn frame(&mut self, cell: usize) -> Option<Frame> {
        let w = self.size.width;
        let (r, c) = (cell / w, cell % w);
        let weighed = if cell == 0 {
            if self.first.is_none() {
                self.first = Some(self.weigh(r, c));
            }
            self.first.clone().unwrap_or_default()
        } else {
            self.weigh(r, c)
        };
        if weighed.is_empty() {
            return None;
        }
        let greed = self.tuning.greed;
        let mut scored: Vec<(f64, Cell)> = weighed
            .into_iter()
            .map(|(v, wt)| {
                let u = (self.rng.next() >> 11) as f64 / (1u64 << 53) as f64;
                let gumbel = -(-(u.max(1e-300)).ln()).ln();
                (greed * wt.ln() + gumbel, v)
            })
            .collect();
        scored.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        Some(Frame { cell, cands: scored.into_iter().map(|(_, v)| v).collect(), next: 0, row: self.rows[r], col: self.cols[c] })
    }

    /// The values of cell (r, c) through which its row can still be completed (every
    /// later cell within its column's options), each with its weight: the row's
    /// completions through it times the column's word count after it.
    fn weigh(&mut self, r: usize, c: usize) -> Vec<(Cell, f64)> {
        let (w, h) = (self.size.width, self.size.height);
        let fa = self.row_fa;
        let u = &mut self.unroll;
        let layers = w - c;
        u.nodes.resize_with(layers + 1, Vec::new);
        u.trans.resize_with(layers, Vec::new);
        u.count.resize_with(layers + 1, Vec::new);
        u.nodes[0].clear();
        u.nodes[0].push(self.rows[r].q);
        // Forward: the nodes reachable cell by cell; j follows from the layer of q, so
        // a node is its state alone.
        let mut j_of = vec![self.rows[r].j];
        for k in 0..layers {
            let col = c + k;
            let opts = self.options[r][col];
            let left = w - col - 1;
            u.epoch += 1;
            let epoch = u.epoch;
            let (cur, rest) = u.nodes.split_at_mut(k + 1);
            let (cur, next) = (&cur[k], &mut rest[0]);
            next.clear();
            let trans = &mut u.trans[k];
            trans.clear();
            let mut next_j = Vec::new();
            for (a, &q) in cur.iter().enumerate() {
                let j = j_of[a];
                let mut add = |t: StateId, jt: usize, v: Cell, next: &mut Vec<StateId>| {
                    let slot = &mut u.stamp[t as usize];
                    if slot.0 != epoch {
                        *slot = (epoch, next.len() as u32);
                        next.push(t);
                        next_j.push(jt);
                    }
                    trans.push((a as u32, slot.1, v));
                };
                if opts.has(BLANK) && fa.can_end(q, j, left) {
                    add(q, j, BLANK, next);
                }
                let (pairs, to) = fa.edges(q);
                for (&p, &t) in pairs.iter().zip(to) {
                    if opts.has(p) && fa.can_end(t, j + 1, left) {
                        add(t, j + 1, p, next);
                    }
                }
            }
            if next.is_empty() {
                return Vec::new();
            }
            j_of = next_j;
        }
        // Backward: completions from every node (the last layer's nodes all accept).
        u.count[layers].clear();
        u.count[layers].resize(u.nodes[layers].len(), 1.0);
        for k in (0..layers).rev() {
            let (head, tail) = u.count.split_at_mut(k + 1);
            let (cnt, after) = (&mut head[k], &tail[0]);
            cnt.clear();
            cnt.resize(u.nodes[k].len(), 0.0);
            for &(a, b, _) in &u.trans[k] {
                cnt[a as usize] += after[b as usize];
            }
        }
        let col = self.cols[c];
        let left = h - r - 1;
        u.trans[0]
            .iter()
            .filter(|&&(_, b, _)| u.count[1][b as usize] > 0.0)
            .map(|&(_, b, v)| {
                let after = if v == BLANK { col } else { Line { q: self.col_fa.step(col.q, v).unwrap_or(col.q), j: col.j + 1 } };
                (v, u.count[1][b as usize] * self.col_fa.completions(after.q, after.j, left).max(1.0))
            })
            .collect()
    }
}
