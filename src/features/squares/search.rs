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
//! * **Rows below.** After each choice, every row below must still be some word whose
//!   cells lie within what each column, unrolled from its state, allows at that row
//!   (a depth-first check with failed (cell, state) pairs remembered). Optionally
//!   ([`Tuning::rounds`]), each time a row is complete, rounds of propagation follow:
//!   the rows below keep only the values some word puts in each cell, then the columns
//!   keep only the values some completion of theirs puts there; a line left without
//!   completion is a dead end. It prunes far more but costs more than it saves on
//!   web2 (docs/performance.md), so it is off by default.
//! * **Repeats** are checked as soon as a line is complete.
//! * **Restarts** follow the Luby sequence (1, 1, 2, 1, 1, 2, 4, …) times a base number
//!   of dead ends, which cuts the heavy tail of single runs. Cutoffs grow without
//!   bound, and a run that finishes its whole tree below its cutoff has exhausted the
//!   search: then no (further) square exists.

use super::dawg::{Flat, Lexicon, StateId};
use super::{BLANK, Cell, Given, Outcome, PAIRS, Progress, Size, Square, letters_of, verify};
use crate::error::{Error, Result};
use crate::puzzle::Dictionary;
use crate::rng::Rng;
use std::collections::HashSet;
use std::sync::atomic::Ordering::Relaxed;

/// Tuning of the search.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Dead ends per Luby unit before a restart.
    pub restart_base: u64,
    /// After each choice, check that every row below can still be some word within
    /// what its columns allow there.
    pub lookahead_below: bool,
    /// Exponent of the weights in the sampled value order (0: uniform, large: greedy).
    pub greed: f64,
    /// Rounds of propagation between the rows below and the columns each time a row
    /// is complete (0: each row below is only checked against its columns' reach).
    pub rounds: usize,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning { restart_base: 100, greed: 1.0, lookahead_below: true, rounds: 0 }
    }
}

impl Tuning {
    /// The default, with fields overridden by `CROSSAT_SQUARES_TUNING`
    /// (`restart_base,greed,lookahead_below`, empty fields kept; for measurements).
    pub fn from_env() -> Tuning {
        let mut t = Tuning::default();
        if let Ok(v) = std::env::var("CROSSAT_SQUARES_TUNING") {
            let f: Vec<&str> = v.split(',').collect();
            if let Some(x) = f.first().and_then(|x| x.parse().ok()) {
                t.restart_base = x;
            }
            if let Some(x) = f.get(1).and_then(|x| x.parse().ok()) {
                t.greed = x;
            }
            if let Some(x) = f.get(2).and_then(|x| x.parse().ok()) {
                t.lookahead_below = x;
            }
            if let Some(x) = f.get(3).and_then(|x| x.parse().ok()) {
                t.rounds = x;
            }
        }
        t
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

/// A line's progress: its automaton state and how many pairs it has read; for a row,
/// also its node in the row's unrolling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line {
    q: StateId,
    j: usize,
    node: u32,
}

/// One decision: the cell, its candidate values in order, the next to try, and the
/// row and column states before it (restored on every try and when backing up).
struct Frame {
    cell: usize,
    /// (value, the row's node after it).
    cands: Vec<(Cell, u32)>,
    next: usize,
    row: Line,
    col: Line,
}

/// A row unrolled over its cells from its first cell: nodes are (cell, automaton
/// state) pairs that can still end a word in time, each cell within its column's
/// options; with, per node, how many completions reach the row's end.
#[derive(Default)]
struct Unroll {
    /// Per layer k (cells read), its nodes' states and pair counts.
    nodes: Vec<Vec<(StateId, usize)>>,
    /// Per layer k, the transitions out of its nodes, grouped by node: (to, value).
    trans: Vec<Vec<(u32, Cell)>>,
    /// Per layer k, where each node's transitions start (one more entry closes).
    start: Vec<Vec<u32>>,
    /// Per layer k, completions from each node.
    count: Vec<Vec<f64>>,
}

struct Search<'a> {
    size: Size,
    row_fa: &'a Flat,
    col_fa: &'a Flat,
    given: &'a Given,
    grid: Vec<Cell>,
    rows: Vec<Line>,
    cols: Vec<Line>,
    /// `reach[(d·W + c)·H + r]`: with column `c` at depth `d` (its state then), the
    /// values it allows at row `r ≥ d`; row `d` is its next cell, its *options*.
    reach: Vec<Values>,
    /// Scratch of the column unrolling: per column-automaton state, a stamp.
    col_stamp: Vec<u32>,
    col_epoch: u32,
    /// Scratch of the row check: per (cell, row-automaton state), the stamp of the
    /// check that found it a dead end.
    dead: Vec<u32>,
    dead_epoch: u32,
    /// Whether to check the rows below after each choice.
    below: bool,
    /// Scratch of [`support`]: per state of either automaton, (stamp, node index).
    sup_stamp: Vec<(u32, u32)>,
    sup_epoch: u32,
    /// Per row, its unrolling, built when the search enters the row.
    unrolls: Vec<Unroll>,
    /// Scratch of the unrolling: per row-automaton state, (stamp, node index).
    stamp: Vec<(u32, u32)>,
    epoch: u32,
    rng: Rng,
    tuning: Tuning,
    /// Whether the first row's unrolling is built (it depends only on the given
    /// cells, so it serves every restart).
    first_built: bool,
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
        rows: vec![Line { q: row_root, j: 0, node: 0 }; h],
        cols: vec![Line { q: col_root, j: 0, node: 0 }; w],
        reach: vec![Values::EMPTY; h * w * h],
        col_stamp: vec![0; col_fa.states()],
        col_epoch: 0,
        dead: vec![0; row_fa.states() * w],
        dead_epoch: 0,
        below: tuning.lookahead_below,
        sup_stamp: vec![(0, 0); row_fa.states().max(col_fa.states())],
        sup_epoch: 0,
        unrolls: (0..h).map(|_| Unroll::default()).collect(),
        stamp: vec![(0, 0); row_fa.states()],
        epoch: 0,
        rng: Rng::new(seed),
        tuning,
        first_built: false,
        repeats: 0,
    };
    for c in 0..w {
        s.column_reach(0, c);
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
            s.rows[r] = Line { q: row_root, j: 0, node: 0 };
        }
        for c in 0..w {
            s.cols[c] = Line { q: col_root, j: 0, node: 0 };
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
            let Some(&(v, node)) = top.cands.get(top.next) else {
                frames.pop();
                continue;
            };
            top.next += 1;
            nodes += 1;
            if nodes.is_multiple_of(1024) {
                progress.nodes.store(nodes, Relaxed);
            }
            if !s.place(r, c, v, node) || (cell + 1 < w * h && !s.rows_below_possible(r, c)) {
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
    /// Unrolls column `c` from its current state (depth `d`) over its remaining cells:
    /// the values it allows at each row below, word endings and given cells respected.
    fn column_reach(&mut self, d: usize, c: usize) {
        let (w, h) = (self.size.width, self.size.height);
        let fa = self.col_fa;
        let Line { q, j, .. } = self.cols[c];
        let mut frontier = vec![(q, j)];
        let mut next = Vec::new();
        for r in d..h {
            let left = h - r - 1;
            let given = self.given.cells[r * w + c];
            let ok = |v: Cell| given.is_none_or(|g| g == v);
            let mut vals = Values::EMPTY;
            self.col_epoch += 1;
            let epoch = self.col_epoch;
            next.clear();
            for &(q, j) in &frontier {
                let mut push = |t: StateId, jt: usize, v: Cell, next: &mut Vec<(StateId, usize)>| {
                    vals.add(v);
                    let slot = &mut self.col_stamp[t as usize];
                    if *slot != epoch {
                        *slot = epoch;
                        next.push((t, jt));
                    }
                };
                if ok(BLANK) && fa.can_end(q, j, left) {
                    push(q, j, BLANK, &mut next);
                }
                let (pairs, to) = fa.edges(q);
                for (&p, &t) in pairs.iter().zip(to) {
                    if ok(p) && fa.can_end(t, j + 1, left) {
                        push(t, j + 1, p, &mut next);
                    }
                }
            }
            self.reach[(d * w + c) * h + r] = vals;
            std::mem::swap(&mut frontier, &mut next);
        }
    }

    /// After cell (r, c) is set: whether every row below can still be some word whose
    /// cells are within what their columns allow.
    fn rows_below_possible(&mut self, r: usize, c: usize) -> bool {
        if !self.below {
            return true;
        }
        let (w, h) = (self.size.width, self.size.height);
        let Some(root) = self.row_fa.root() else { return false };
        let mut opts = vec![Values::EMPTY; w];
        for rr in r + 1..h {
            for (k, o) in opts.iter_mut().enumerate() {
                let d = if k <= c { r + 1 } else { r };
                *o = self.reach[(d * w + k) * h + rr];
            }
            self.dead_epoch += 1;
            if !self.row_exists(&opts, 0, root, 0) {
                return false;
            }
        }
        // The propagation costs a forward-backward pass per row below, so it runs only
        // once a row is complete.
        self.tuning.rounds == 0 || r + 2 >= h || c + 1 < w || self.propagate_below(r, c)
    }

    /// Arc consistency between the rows below row `r` and the columns, for a few
    /// rounds: each row below keeps the values some word puts there within its cells'
    /// domains, then each column keeps the values some completion of it puts there.
    /// False when a line has no completion left.
    fn propagate_below(&mut self, r: usize, c: usize) -> bool {
        let (w, h) = (self.size.width, self.size.height);
        let Some(root) = self.row_fa.root() else { return false };
        let below = h - r - 1;
        // dom[(rr - r - 1) * w + k]: the domain of cell (rr, k), rr > r.
        let mut dom = vec![Values::EMPTY; below * w];
        for k in 0..w {
            let d = if k <= c { r + 1 } else { r };
            for rr in r + 1..h {
                dom[(rr - r - 1) * w + k] = self.reach[(d * w + k) * h + rr];
            }
        }
        let mut col_dom = Vec::with_capacity(h);
        for _ in 0..self.tuning.rounds {
            let mut changed = false;
            for i in 0..below {
                let row = &mut dom[i * w..(i + 1) * w];
                match support(self.row_fa, root, 0, row, &mut self.sup_stamp, &mut self.sup_epoch) {
                    None => return false,
                    Some(sup) => {
                        if sup != row {
                            row.copy_from_slice(&sup);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
            changed = false;
            for k in 0..w {
                let d = if k <= c { r + 1 } else { r };
                let Line { q, j, .. } = self.cols[k];
                col_dom.clear();
                if d == r {
                    col_dom.push(self.reach[(d * w + k) * h + r]);
                }
                col_dom.extend((0..below).map(|i| dom[i * w + k]));
                match support(self.col_fa, q, j, &col_dom, &mut self.sup_stamp, &mut self.sup_epoch) {
                    None => return false,
                    Some(sup) => {
                        for (i, v) in sup[sup.len() - below..].iter().enumerate() {
                            if dom[i * w + k] != *v {
                                dom[i * w + k] = *v;
                                changed = true;
                            }
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        true
    }

    /// Whether the row automaton has a path from `q` (after `j` pairs, at cell `k`) to
    /// a word end at the last cell, through values in `opts`.
    fn row_exists(&mut self, opts: &[Values], k: usize, q: StateId, j: usize) -> bool {
        let w = opts.len();
        if k == w {
            return true;
        }
        let slot = q as usize * w + k;
        if self.dead[slot] == self.dead_epoch {
            return false;
        }
        let fa = self.row_fa;
        let left = w - k - 1;
        if opts[k].has(BLANK) && fa.can_end(q, j, left) && self.row_exists(opts, k + 1, q, j) {
            return true;
        }
        let (pairs, to) = fa.edges(q);
        for (&p, &t) in pairs.iter().zip(to) {
            if opts[k].has(p) && fa.can_end(t, j + 1, left) && self.row_exists(opts, k + 1, t, j + 1) {
                return true;
            }
        }
        self.dead[slot] = self.dead_epoch;
        false
    }

    /// Puts `v` in cell (r, c) and advances its row and column; false when that
    /// completes a line with a word already used.
    fn place(&mut self, r: usize, c: usize, v: Cell, node: u32) -> bool {
        let (w, h) = (self.size.width, self.size.height);
        self.grid[r * w + c] = v;
        self.rows[r].node = node;
        if v != BLANK {
            let (row, col) = (&mut self.rows[r], &mut self.cols[c]);
            row.q = self.row_fa.step(row.q, v).expect("a candidate is on the row's edges");
            row.j += 1;
            col.q = self.col_fa.step(col.q, v).expect("a candidate is on the column's edges");
            col.j += 1;
        }
        if r + 1 < h {
            self.column_reach(r + 1, c);
        }
        let row_done = c + 1 == w;
        let col_done = r + 1 == h;
        // Compare a completed line with the lines completed before it: rows above; in the
        // last row, also the columns (all complete once the row is).
        if row_done {
            let word = self.line_word(r, true);
            if (0..r).any(|o| self.line_word(o, true) == word) || (col_done && (0..c).any(|o| self.line_word(o, false) == word)) {
                self.repeats += 1;
                return false;
            }
        }
        if col_done {
            let word = self.line_word(c, false);
            if (0..r).any(|o| self.line_word(o, true) == word)
                || (0..c).any(|o| self.line_word(o, false) == word)
                || (row_done && self.line_word(r, true) == word)
            {
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
        let (w, h) = (self.size.width, self.size.height);
        let (r, c) = (cell / w, cell % w);
        if c == 0 && !(r == 0 && self.first_built) {
            self.unroll(r);
            self.first_built |= r == 0;
        }
        let u = &self.unrolls[r];
        let a = self.rows[r].node as usize;
        let (col, left) = (self.cols[c], h - r - 1);
        let greed = self.tuning.greed;
        let mut scored: Vec<(f64, Cell, u32)> = Vec::new();
        for &(b, v) in &u.trans[c][u.start[c][a] as usize..u.start[c][a + 1] as usize] {
            let row_count = u.count[c + 1][b as usize];
            if row_count == 0.0 {
                continue;
            }
            let after = if v == BLANK { col } else { Line { q: self.col_fa.step(col.q, v).unwrap_or(col.q), j: col.j + 1, node: 0 } };
            let weight = row_count * self.col_fa.completions(after.q, after.j, left).max(1.0);
            let x = (self.rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let gumbel = -(-(x.max(1e-300)).ln()).ln();
            scored.push((greed * weight.ln() + gumbel, v, b));
        }
        if scored.is_empty() {
            return None;
        }
        scored.sort_unstable_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
        Some(Frame { cell, cands: scored.into_iter().map(|(_, v, b)| (v, b)).collect(), next: 0, row: self.rows[r], col: self.cols[c] })
    }

    /// Unrolls row `r` from its first cell, each cell within its column's options (the
    /// columns at depth `r`): a forward pass over (cell, state) nodes that can still
    /// end a word in time, then a backward pass counting completions.
    fn unroll(&mut self, r: usize) {
        let (w, h) = (self.size.width, self.size.height);
        let fa = self.row_fa;
        let u = &mut self.unrolls[r];
        u.nodes.resize_with(w + 1, Vec::new);
        u.trans.resize_with(w, Vec::new);
        u.start.resize_with(w, Vec::new);
        u.count.resize_with(w + 1, Vec::new);
        u.nodes[0].clear();
        u.nodes[0].push((self.rows[r].q, self.rows[r].j));
        for k in 0..w {
            let opts = self.reach[(r * w + k) * h + r];
            let left = w - k - 1;
            self.epoch += 1;
            let epoch = self.epoch;
            let (cur, rest) = u.nodes.split_at_mut(k + 1);
            let (cur, next) = (&cur[k], &mut rest[0]);
            next.clear();
            let (trans, start) = (&mut u.trans[k], &mut u.start[k]);
            trans.clear();
            start.clear();
            for &(q, j) in cur {
                start.push(trans.len() as u32);
                let mut add = |t: StateId, jt: usize, v: Cell| {
                    let slot = &mut self.stamp[t as usize];
                    if slot.0 != epoch {
                        *slot = (epoch, next.len() as u32);
                        next.push((t, jt));
                    }
                    trans.push((slot.1, v));
                };
                if opts.has(BLANK) && fa.can_end(q, j, left) {
                    add(q, j, BLANK);
                }
                let (pairs, to) = fa.edges(q);
                for (&p, &t) in pairs.iter().zip(to) {
                    if opts.has(p) && fa.can_end(t, j + 1, left) {
                        add(t, j + 1, p);
                    }
                }
            }
            start.push(trans.len() as u32);
        }
        // Backward: the last layer's nodes all end a word.
        u.count[w].clear();
        u.count[w].resize(u.nodes[w].len(), 1.0);
        for k in (0..w).rev() {
            let (head, tail) = u.count.split_at_mut(k + 1);
            let (cnt, after) = (&mut head[k], &tail[0]);
            cnt.clear();
            cnt.resize(u.nodes[k].len(), 0.0);
            for (a, c) in cnt.iter_mut().enumerate() {
                *c = u.trans[k][u.start[k][a] as usize..u.start[k][a + 1] as usize].iter().map(|&(b, _)| after[b as usize]).sum();
            }
        }
    }
}

/// The values of each remaining cell of a line through which it can still be completed:
/// from state `q` (after `j` pairs), over `doms.len()` more cells, each within its
/// domain, ending a word at the last. `None` when it cannot be completed.
fn support(fa: &Flat, q: StateId, j: usize, doms: &[Values], stamp: &mut [(u32, u32)], epoch: &mut u32) -> Option<Vec<Values>> {
    let n = doms.len();
    let mut layers: Vec<Vec<(StateId, usize)>> = vec![vec![(q, j)]];
    let mut trans: Vec<Vec<(u32, u32, Cell)>> = Vec::with_capacity(n);
    for (k, dom) in doms.iter().enumerate() {
        let left = n - k - 1;
        *epoch += 1;
        let e = *epoch;
        let mut next = Vec::new();
        let mut tr = Vec::new();
        for (a, &(q, j)) in layers[k].iter().enumerate() {
            let mut add = |t: StateId, jt: usize, v: Cell| {
                let slot = &mut stamp[t as usize];
                if slot.0 != e {
                    *slot = (e, next.len() as u32);
                    next.push((t, jt));
                }
                tr.push((a as u32, slot.1, v));
            };
            if dom.has(BLANK) && fa.can_end(q, j, left) {
                add(q, j, BLANK);
            }
            let (pairs, to) = fa.edges(q);
            for (&p, &t) in pairs.iter().zip(to) {
                if dom.has(p) && fa.can_end(t, j + 1, left) {
                    add(t, j + 1, p);
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        layers.push(next);
        trans.push(tr);
    }
    // Backward: which nodes reach the end (all of the last layer do).
    let mut alive = vec![true; layers[n].len()];
    let mut sup = vec![Values::EMPTY; n];
    for k in (0..n).rev() {
        let mut prev = vec![false; layers[k].len()];
        for &(a, b, v) in &trans[k] {
            if alive[b as usize] {
                prev[a as usize] = true;
                sup[k].add(v);
            }
        }
        alive = prev;
    }
    alive[0].then_some(sup)
}
