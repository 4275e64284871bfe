//! The default route: a dedicated search over the pair-token automata that keeps every
//! row and column arc consistent, picks the most constrained cell next, and restarts.
//!
//! * **Domains.** Every cell has a domain: the pairs and the blank it may still take
//!   (a given cell's value only, at the start).
//! * **Lines.** A row or column is a `regular` constraint (Pesant): its automaton is
//!   unrolled over its cells, each cell within its domain — a forward pass over
//!   (cell, state) nodes that can still end a word in the cells left (word-final
//!   information per state), then a backward pass that keeps the nodes from which a
//!   word ends at the last cell. A value stays in a cell's domain only if some
//!   surviving transition there carries it: some word through it completes the line.
//!   A line with no word left is a dead end.
//! * **Live transitions.** Each pass keeps its line's live transitions; the domains
//!   only shrink until a backtrack restores them (and these) from a snapshot, so only
//!   a line's opening walk reads the automaton, and later passes filter what is left.
//!   A pass that keeps most of what it filtered marks it in a bitset over the table it
//!   read instead of copying it ([`Tuning::subset_share`]), so the snapshots and the
//!   lanes of the portfolio share the root's tables.
//! * **Propagation.** When a cell's domain shrinks to at most [`Tuning::wake`] values,
//!   the line across it is queued, and the queue runs to a fixpoint (with no limit,
//!   every line is arc consistent after every step; a pass over a line of large
//!   domains costs the most and prunes the least, so by default they wait). The
//!   decided cell's row and column are always passed, so every line of a complete
//!   square has been checked.
//! * **Cell order.** The next cell is the undecided one with the fewest values left
//!   per dead end of its row and column so far (dom/wdeg, counted over all runs; ties
//!   broken by the seeded generator): the search goes where the square is tightest and
//!   where it failed before, wherever that is, instead of row by row.
//! * **Value order.** The cell's values are weighed by the words left through them: the
//!   row's count times the column's (the backward pass with forward counts too).
//!   The value taken is the one with the largest `α·ln(weight)` plus Gumbel noise from
//!   the seeded generator — a sample in proportion to `weight^α`, α = 3 by default —
//!   so a seed fixes the run, and other seeds explore elsewhere.
//! * **Branching** is binary: the cell takes the value, or, when that fails, loses it
//!   (and the loss propagates like any other narrowing).
//! * **Repeats** are checked after each fixpoint among the lines whose every cell is
//!   decided.
//! * **Restarts** follow the Luby sequence (1, 1, 2, 1, 1, 2, 4, …) times a base number
//!   of dead ends, which cuts the heavy tail of single runs. Cutoffs grow without
//!   bound, and a run that finishes its whole tree below its cutoff has exhausted the
//!   search: then no (further) square exists.
//!
//! Each part has its file: the domains in `domain.rs`, the pass over one line and its
//! live transitions in `regular.rs`, propagation and the repeats check in `propagate.rs`,
//! the cell and value order in `order.rs`; this file holds the tuning, the runs with
//! their restarts, and the branching and backtracking within a run.

mod domain;
mod order;
mod portfolio;
mod propagate;
mod regular;

use super::dawg::{Flat, Lexicon};
use super::{BLANK, Cell, Given, Outcome, Progress, Size, Square, letters_of, verify};
use crate::error::{Error, Result};
use crate::puzzle::Dictionary;
use crate::rng::Rng;
use domain::Values;
use regular::{Live, Pass};
use std::collections::HashSet;
use std::sync::atomic::Ordering::Relaxed;

/// Tuning of the search.
#[derive(Clone, Copy, Debug)]
pub struct Tuning {
    /// Dead ends per Luby unit before a restart.
    pub restart_base: u64,
    /// Exponent of the weights in the sampled value order (0: uniform, large: greedy).
    pub greed: f64,
    /// Pick the cell with the fewest values left (else the first undecided cell,
    /// row by row).
    pub fewest_first: bool,
    /// A narrowed cell wakes the line across it only when it has at most this many
    /// values left (a large domain rarely prunes the other line, and a pass over a
    /// line with large domains is the costliest step).
    pub wake: u32,
    /// Weigh a cell's domain size by its lines' dead ends (dom/wdeg): the cell taken is
    /// the one with the fewest values per dead end of its row and column so far,
    /// counted over all runs.
    pub wdeg: bool,
    /// A line's pass keeps its live transitions as a subset of the table it filtered
    /// while it keeps at least one in this many, else copies them (1: always a subset,
    /// 0: always a copy). The squares found do not depend on it; time and memory do: a
    /// subset costs a bit per transition of its table against six bytes per transition
    /// copied, but its passes step over the transitions it lost. On 7×7 squares (seed 3,
    /// `--jobs 2`) 2 costs no time over copying and peaks at 0.23 GB, 4 costs 4 % more
    /// time and peaks at 0.15 GB; a copy at every pass peaked at 0.9 GB.
    pub subset_share: usize,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning { restart_base: 100, greed: 3.0, fewest_first: true, wake: 32, wdeg: true, subset_share: 2 }
    }
}

/// One decision: the domains before it, the cell and the value it took.
struct Decision {
    saved: Vec<Values>,
    /// The lines' live nodes before it.
    live: Vec<Live>,
    cell: usize,
    value: Cell,
}

/// The state of one search: the domains, the lines' live transitions and the queue of
/// lines to pass, with what the cell and value order keep across runs.
struct Search<'a> {
    size: Size,
    row_fa: &'a Flat,
    col_fa: &'a Flat,
    /// Lines: rows, then columns, as cell indices.
    lines: Vec<Vec<usize>>,
    dom: Vec<Values>,
    /// Per line, its live nodes after its last pass.
    live: Vec<Live>,
    queue: Vec<usize>,
    queued: Vec<bool>,
    pass: Pass,
    doms: Vec<Values>,
    rng: Rng,
    tuning: Tuning,
    repeats: usize,
    /// Per line, 1 + the dead ends its passes found (for [`Tuning::wdeg`]).
    fails: Vec<u64>,
}

/// Finds up to `count` distinct squares with the dedicated search, each verified before
/// it is passed on: a portfolio of `portfolio::LANES` searches from seeds drawn from
/// `seed`, run in rounds on `jobs` threads (`portfolio.rs`). The seed fixes the whole
/// run, whatever `jobs` is: the same seed gives the same squares in the same order.
#[allow(clippy::too_many_arguments, reason = "the command's parameters, passed through")]
pub(crate) fn search(
    lex: &Lexicon,
    size: Size,
    dict: &Dictionary,
    given: &Given,
    seed: u64,
    count: usize,
    tuning: Tuning,
    jobs: usize,
    progress: &Progress,
    on_square: impl FnMut(&Square) -> Result<()>,
) -> Result<Outcome> {
    portfolio::run(&portfolio::Task { lex, size, dict, given, seed, count, tuning, progress }, jobs, on_square)
}

/// One search of the portfolio: its state between rounds.
struct Lane<'a> {
    s: Search<'a>,
    /// Where every run starts (the root at a fixpoint, shared by the lanes).
    root: &'a Root,
    found: HashSet<Vec<Values>>,
    stack: Vec<Decision>,
    nodes: u64,
    /// The current run, its cutoff and its dead ends so far.
    run: u64,
    cutoff: u64,
    dead_ends: u64,
    /// Dead ends over all runs.
    total_dead_ends: u64,
    /// Whether the next step starts a run.
    fresh: bool,
}

/// Where a lane paused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Paused {
    /// It used its budget of dead ends, or found the squares asked for.
    Budget,
    /// It exhausted the search: it has found every square there is.
    Complete,
}

/// Where every lane starts: the given cells' domains with every line made arc
/// consistent once, and the lines' live transitions there. Computed once and shared
/// (read only) by the lanes: on a 7×7 square these transitions (5.3 million, 32 MB)
/// are most of the memory, and a lane's passes mark what they keep of them in bitsets,
/// copying only lines narrowed to less than [`Tuning::subset_share`] of them.
pub(super) struct Root {
    dom: Vec<Values>,
    live: Vec<Live>,
}

impl Root {
    /// The propagated root; `None` when it has no square (no lane has one).
    pub(super) fn new(lex: &Lexicon, size: Size, given: &Given, tuning: Tuning) -> Option<Root> {
        let mut s = Search::at(lex, size, given.cells.iter().map(|g| g.map_or_else(Values::full, Values::one)).collect(), None, 0, tuning)?;
        s.propagate().then_some(Root { dom: s.dom, live: s.live })
    }
}

impl<'a> Search<'a> {
    /// A search over `dom`, with the lines' live transitions `live` (`None`: none yet,
    /// every line queued) and its random choices drawn from `seed`.
    fn at(lex: &'a Lexicon, size: Size, dom: Vec<Values>, live: Option<Vec<Live>>, seed: u64, tuning: Tuning) -> Option<Search<'a>> {
        let (row_fa, col_fa) = (&lex.get(size.width).flat, &lex.get(size.height).flat);
        if row_fa.root().is_none() || col_fa.root().is_none() {
            return None;
        }
        let lines = size.lines();
        let nlines = lines.len();
        let fresh = live.is_none();
        Some(Search {
            size,
            row_fa,
            col_fa,
            lines,
            dom,
            live: live.unwrap_or_else(|| vec![Live::default(); nlines]),
            queue: if fresh { (0..nlines).collect() } else { Vec::new() },
            queued: vec![fresh; nlines],
            pass: Pass::default(),
            doms: Vec::new(),
            rng: Rng::new(seed),
            tuning,
            repeats: 0,
            fails: vec![1; nlines],
        })
    }
}

impl<'a> Lane<'a> {
    /// A lane searching with `seed` from the shared `root`.
    fn new(lex: &'a Lexicon, size: Size, root: &'a Root, seed: u64, tuning: Tuning) -> Option<Lane<'a>> {
        let s = Search::at(lex, size, root.dom.clone(), Some(root.live.clone()), seed, tuning)?;
        Some(Lane {
            s,
            root,
            found: HashSet::new(),
            stack: Vec::new(),
            nodes: 0,
            run: 0,
            cutoff: 0,
            dead_ends: 0,
            total_dead_ends: 0,
            fresh: true,
        })
    }

    /// Searches on until `until` dead ends in all, `count` squares found in all, or the
    /// search is exhausted; passes each new square (verified) to `on_square`. `pass` is
    /// the thread's scratch space for line passes, lent to the lane meanwhile (the lanes
    /// of a thread take turns, and a pass's result does not depend on its scratch).
    #[allow(clippy::too_many_arguments, reason = "a round's parameters, passed through")]
    fn advance(
        &mut self,
        pass: &mut Pass,
        until: u64,
        count: usize,
        dict: &Dictionary,
        given: &Given,
        progress: &Progress,
        on_square: impl FnMut(Square),
    ) -> Result<Paused> {
        std::mem::swap(&mut self.s.pass, pass);
        let paused = self.run_until(until, count, dict, given, progress, on_square);
        std::mem::swap(&mut self.s.pass, pass);
        paused
    }

    fn run_until(
        &mut self,
        until: u64,
        count: usize,
        dict: &Dictionary,
        given: &Given,
        progress: &Progress,
        mut on_square: impl FnMut(Square),
    ) -> Result<Paused> {
        let tuning = self.s.tuning;
        loop {
            if self.fresh {
                self.fresh = false;
                self.cutoff = tuning.restart_base.saturating_mul(luby(self.run + 1));
                self.dead_ends = 0;
                self.s.dom.clone_from(&self.root.dom);
                self.s.live.clone_from(&self.root.live);
                self.stack.clear();
            }
            // Invariant here: the domains are at a fixpoint with no dead end.
            let failed = match self.s.pick_cell() {
                Some(cell) => {
                    let value = self.s.pick_value(cell);
                    self.nodes += 1;
                    if self.nodes.is_multiple_of(256) {
                        let _ = progress.nodes.fetch_add(256, Relaxed);
                    }
                    self.stack.push(Decision { saved: self.s.dom.clone(), live: self.s.live.clone(), cell, value });
                    self.s.narrow(cell, Values::one(value));
                    !self.s.propagate() || !self.s.no_repeats()
                }
                None => {
                    // Every cell decided: a square (each line spells a word, no repeats).
                    if self.found.insert(self.s.dom.clone()) {
                        let sq = self.s.square();
                        verify(&sq, dict)
                            .map_err(|e| Error::Internal(format!("a generated square failed verification: {e}\n{}", sq.draw())))?;
                        if !given.admits(&sq) {
                            return Err(Error::Internal(format!("a generated square ignores a given cell\n{}", sq.draw())));
                        }
                        on_square(sq);
                        if self.found.len() >= count {
                            return Ok(Paused::Budget);
                        }
                    }
                    true
                }
            };
            if !failed {
                continue;
            }
            // Back up: undo the latest decision and take its value away instead, until
            // that leaves a consistent square.
            self.dead_ends += 1;
            self.total_dead_ends += 1;
            loop {
                let Some(d) = self.stack.pop() else { return Ok(Paused::Complete) };
                self.s.dom = d.saved;
                self.s.live = d.live;
                let mut rest = self.s.dom[d.cell];
                rest.remove(d.value);
                self.s.narrow(d.cell, rest);
                if self.s.propagate() && self.s.no_repeats() {
                    break;
                }
                self.dead_ends += 1;
                self.total_dead_ends += 1;
            }
            if self.dead_ends >= self.cutoff {
                self.run += 1;
                self.fresh = true;
                let _ = progress.restarts.fetch_add(1, Relaxed);
            }
            if self.total_dead_ends >= until {
                return Ok(Paused::Budget);
            }
        }
    }
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
    /// The square the decided cells spell.
    fn square(&self) -> Square {
        Square { size: self.size, cells: self.dom.iter().map(|d| letters_of(d.first().unwrap_or(BLANK))).collect() }
    }
}
