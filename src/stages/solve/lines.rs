//! The line search: a depth-first search over the cells that keeps every line arc
//! consistent ([`Propagator`]), tried before the CNF is built.
//!
//! Most puzzles that line propagation leaves undecided need only a few decisions; a
//! search over the same line automata settles them without building a formula or
//! loading it into the SAT solver, which on a small puzzle costs more than the search.
//! The search is complete: a letter leaves a cell only when no run of some clue's
//! automaton can use it (every automaton accepts at least its clue's matches), and
//! every cell of the grid is tried with every letter left. So when it ends within its
//! budget, the grids it found are all the solutions (up to the number asked for). On a
//! puzzle it cannot finish within [`MAX_NODES`] nodes it gives up, and the caller
//! falls back to the SAT search, which is better at learning from conflicts.
//!
//! Cells are chosen by *dom/wdeg*: fewest letters left per weight of the lines through
//! them, a line's weight growing each time its propagation empties a cell.

use crate::compile::Compiled;
use crate::encode::{Propagator, Scratch, SymSet};
use crate::error::Result;

/// Most nodes (decisions) the line search takes before it gives up, when every
/// clue's automaton is exact (so propagation keeps each line arc consistent, as unit
/// propagation does on the CNF): about a minute of search.
pub const MAX_NODES: usize = 1_000_000;

/// Most nodes when some clue's automaton over-approximates it (back-references,
/// lookarounds): none. Propagation is then weaker than on the CNF, whose tagged
/// encoding is exact, and each step costs matcher calls (the exact narrowing of a
/// line of at most 256 words): the SAT search is the quicker on every such puzzle
/// measured (MIT, `player_puzzle_references`, `good_ol_days`, `brain_fucking`).
pub const MAX_NODES_INEXACT: usize = 0;

/// What a finished line search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The grids found (a symbol per cell), each accepted by the caller's check.
    pub grids: Vec<Vec<usize>>,
    /// Whether the search was exhausted, so that `grids` are all the solutions.
    pub complete: bool,
    /// Nodes visited.
    pub nodes: usize,
}

/// Searches from `doms` (already propagated) for up to `want` grids that `accept`
/// takes; `None` when the search needs more than `max_nodes` nodes. `refine` narrows a
/// line's support as in [`Propagator::propagate`]; `accept` sees each grid where every
/// cell has one letter left and says whether it is a solution (the automata of
/// back-reference and lookaround clues over-approximate them).
pub fn search(
    lines: &Propagator,
    compiled: &Compiled,
    doms: &[SymSet],
    want: usize,
    max_nodes: usize,
    refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    accept: impl FnMut(&[usize]) -> Result<bool>,
) -> Result<Option<Searched>> {
    let mut s = State {
        lines,
        compiled,
        refine,
        accept,
        scratch: Scratch::default(),
        weight: vec![1; lines.lines.len()],
        nodes: 0,
        max_nodes,
        want,
        grids: Vec::new(),
    };
    match s.node(doms.to_vec())? {
        Flow::GaveUp => Ok(None),
        flow => Ok(Some(Searched { grids: s.grids, complete: flow == Flow::Go, nodes: s.nodes })),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    /// Keep searching.
    Go,
    /// Enough grids found.
    Enough,
    /// Out of nodes.
    GaveUp,
}

struct State<'a, R, A> {
    lines: &'a Propagator,
    compiled: &'a Compiled,
    refine: R,
    accept: A,
    scratch: Scratch,
    weight: Vec<u32>,
    nodes: usize,
    max_nodes: usize,
    want: usize,
    grids: Vec<Vec<usize>>,
}

impl<R, A> State<'_, R, A>
where
    R: FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    A: FnMut(&[usize]) -> Result<bool>,
{
    /// Explores the grids below `doms` (propagated, no cell empty).
    fn node(&mut self, doms: Vec<SymSet>) -> Result<Flow> {
        let Some(cell) = self.pick(&doms) else {
            let grid: Vec<usize> = doms.iter().map(|d| d.iter().next().unwrap_or(0)).collect();
            if (self.accept)(&grid)? {
                self.grids.push(grid);
                if self.grids.len() >= self.want {
                    return Ok(Flow::Enough);
                }
            }
            return Ok(Flow::Go);
        };
        for x in doms[cell].iter() {
            self.nodes += 1;
            if self.nodes > self.max_nodes {
                return Ok(Flow::GaveUp);
            }
            if self.nodes.is_multiple_of(64) {
                crate::stop::check()?;
            }
            let mut next = doms.clone();
            let mut one = SymSet::default();
            one.insert(x);
            next[cell] = one;
            match self.lines.narrow_with(&mut self.scratch, self.compiled, &mut next, &self.lines.of_cell[cell], &mut self.refine) {
                Err(line) => self.weight[line] += 1,
                Ok(()) => match self.node(next)? {
                    Flow::Go => {}
                    flow => return Ok(flow),
                },
            }
        }
        Ok(Flow::Go)
    }

    /// The undecided cell with the fewest letters per weight of its lines (`None`
    /// when every cell has one letter).
    fn pick(&self, doms: &[SymSet]) -> Option<usize> {
        let mut best: Option<(usize, u64, u64)> = None;
        for (c, d) in doms.iter().enumerate() {
            let n = d.len() as u64;
            if n < 2 {
                continue;
            }
            let w: u64 = self.lines.of_cell[c].iter().map(|&i| u64::from(self.weight[i])).sum::<u64>().max(1);
            // n / w < bn / bw, compared without division.
            if best.is_none_or(|(_, bn, bw)| n * bw < bn * w) {
                best = Some((c, n, w));
            }
        }
        best.map(|(c, _, _)| c)
    }
}
