//! The propagation engine: [`Propagator`] narrows the cells' domains to a fixpoint over
//! every constraint of a puzzle (its clues, then the entries of its regex pool), queuing
//! again the constraints through each cell that loses a letter; [`Scratch`] keeps its
//! buffers, the per-clue transition lists and tables, and a trail of changes that a
//! search undoes.

use super::SymSet;
use super::layers::{Edges, Layers};
use super::skeleton_support::tagged_support;
use super::support::line_support;
use super::table::Table;
use crate::compile::{Compiled, CompiledClue};
use crate::puzzle::Puzzle;

/// A constraint whose narrowing left a cell with no letter: the puzzle (or the branch
/// being searched) has no solution, and `line` is the constraint to blame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Wipeout {
    /// The constraint (a line, or a pool's constraint) that emptied a cell.
    pub(crate) line: usize,
}

/// Line propagation over a puzzle's constraints: every clue, then every entry of the
/// pool (supported by the union of the regexes that could be assigned to it). Built
/// once per puzzle, run from any domains (the rating in `generate` runs it per probe).
#[derive(Clone, Debug)]
pub struct Propagator {
    /// Cells of each constraint.
    pub lines: Vec<Vec<usize>>,
    /// Constraints through each cell (each once).
    pub of_cell: Vec<Vec<usize>>,
}

impl Propagator {
    /// The constraints of `puzzle`.
    pub(crate) fn new(puzzle: &Puzzle) -> Propagator {
        let pool_entries: &[Vec<usize>] = puzzle.pool.as_ref().map_or(&[], |p| &p.entries);
        let lines: Vec<Vec<usize>> = puzzle.clues.iter().map(|c| c.cells.clone()).chain(pool_entries.iter().cloned()).collect();
        let mut of_cell: Vec<Vec<usize>> = vec![vec![]; puzzle.givens.len()];
        for (i, cells) in lines.iter().enumerate() {
            for &cell in cells {
                if !of_cell[cell].contains(&i) {
                    of_cell[cell].push(i);
                }
            }
        }
        Propagator { lines, of_cell }
    }

    /// Narrows `doms` to a fixpoint, starting from the constraints `start` (see
    /// [`domains_with`](super::domains_with) for `refine`); [`Wipeout`] names the constraint that left a cell
    /// empty, so that a search can weigh the constraints that fail most.
    pub(crate) fn narrow(
        &self,
        compiled: &Compiled,
        doms: &mut [SymSet],
        start: &[usize],
        refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    ) -> std::result::Result<(), Wipeout> {
        self.narrow_with(&mut Scratch::default(), compiled, doms, start, refine)
    }

    /// [`Propagator::narrow`] with buffers kept between calls (a search propagates at
    /// every node).
    pub(crate) fn narrow_with(
        &self,
        scratch: &mut Scratch,
        compiled: &Compiled,
        doms: &mut [SymSet],
        start: &[usize],
        mut refine: impl FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    ) -> std::result::Result<(), Wipeout> {
        let Scratch { queue, queued, line, support, layers, sparse, trail, tables } = scratch;
        if sparse.len() < compiled.clues.len() {
            sparse.resize_with(compiled.clues.len(), || None);
        }
        queued.clear();
        queued.resize(self.lines.len(), false);
        queue.clear();
        for &i in start {
            if !queued[i] {
                queued[i] = true;
                queue.push_back(i);
            }
        }
        let sigma = compiled.alphabet.len();
        while let Some(i) = queue.pop_front() {
            queued[i] = false;
            let cells = &self.lines[i];
            line.clear();
            line.extend(cells.iter().map(|&c| doms[c]));
            let refined;
            let support: &[SymSet] = match compiled.clues.get(i) {
                Some(_) if tables.get(i).is_some_and(Option::is_some) => {
                    if let Some(Some(t)) = tables.get(i) {
                        t.support(line, support);
                    }
                    &support[..]
                }
                Some(CompiledClue { automaton, tagged: Some(t), .. }) => {
                    // A tagged clue: the skeleton over the line's cells and marker
                    // slots, supported like a regular line, then its cells' letters.
                    let edges = edges_of(sparse, compiled, i);
                    let s = tagged_support(automaton, t, edges, layers, sigma, line, support);
                    refined = refine(i, line, &s).unwrap_or(s);
                    &refined
                }
                Some(cc) => {
                    let edges = edges_of(sparse, compiled, i);
                    layers.support(&cc.automaton, edges, line, support);
                    match refine(i, line, support) {
                        Some(r) => {
                            refined = r;
                            &refined
                        }
                        None => support,
                    }
                }
                None => {
                    refined = compiled
                        .pool
                        .iter()
                        .filter_map(|by_len| by_len.get(&cells.len()))
                        .fold(vec![SymSet::default(); cells.len()], |acc, cc| {
                            acc.iter().zip(line_support(cc, sigma, line)).map(|(a, b)| a.or(&b)).collect()
                        });
                    &refined
                }
            };
            self.narrow_line(i, doms, support, queue, queued, |cell, before| trail.push((cell, before)))?;
        }
        Ok(())
    }

    /// Narrows the cells of constraint `i` to `support` (letters per cell, in line
    /// order): `changed(cell, before)` hears of each cell that loses letters, and the
    /// constraints through it are queued again. [`Wipeout`] when a cell is left empty.
    pub(super) fn narrow_line(
        &self,
        i: usize,
        doms: &mut [SymSet],
        support: &[SymSet],
        queue: &mut std::collections::VecDeque<usize>,
        queued: &mut [bool],
        mut changed: impl FnMut(usize, SymSet),
    ) -> std::result::Result<(), Wipeout> {
        for (&cell, s) in self.lines[i].iter().zip(support) {
            let new = doms[cell].and(s);
            if new != doms[cell] {
                changed(cell, doms[cell]);
                doms[cell] = new;
                if new.is_empty() {
                    return Err(Wipeout { line: i });
                }
                for &j in &self.of_cell[cell] {
                    if !queued[j] {
                        queued[j] = true;
                        queue.push_back(j);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Buffers of `Propagator::narrow_with`, reused from one call to the next.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    queue: std::collections::VecDeque<usize>,
    queued: Vec<bool>,
    line: Vec<SymSet>,
    support: Vec<SymSet>,
    layers: Layers,
    /// Per clue, its automaton's transitions as lists (built on first use).
    sparse: Vec<Option<Edges>>,
    /// Every change to a domain, as (cell, the domain before), oldest first, so that
    /// a search can undo a propagation ([`Scratch::undo`]).
    trail: Vec<(usize, SymSet)>,
    /// Per clue, its line's words as a table, when [`Scratch::tabulate`] made one.
    tables: Vec<Option<Table>>,
}

impl Scratch {
    /// Lists the words of each regular clue's line over `doms` as a table, when there
    /// are at most `max_words` of them: a revision of that line then costs a few
    /// bit operations per letter instead of a walk over the automaton. Valid for
    /// every later `doms` that lies within these (as in a search from them): the
    /// table only ever loses words to the domains.
    pub(crate) fn tabulate(&mut self, lines: &Propagator, compiled: &Compiled, doms: &[SymSet], max_words: usize) {
        let sigma = compiled.alphabet.len();
        self.tables = compiled
            .clues
            .iter()
            .zip(&lines.lines)
            .map(|(cc, cells)| {
                if cc.approximate() {
                    return None;
                }
                let line: Vec<SymSet> = cells.iter().map(|&c| doms[c]).collect();
                Table::new(&cc.automaton, sigma, &line, max_words)
            })
            .collect();
    }

    /// Length of the trail of changes: a mark to [`Scratch::undo`] to.
    pub(crate) fn mark(&self) -> usize {
        self.trail.len()
    }

    /// Sets `doms[cell]` to `value`, on the trail.
    pub(crate) fn set(&mut self, doms: &mut [SymSet], cell: usize, value: SymSet) {
        self.trail.push((cell, doms[cell]));
        doms[cell] = value;
    }

    /// Undoes the changes to `doms` made since `mark`.
    pub(crate) fn undo(&mut self, doms: &mut [SymSet], mark: usize) {
        while self.trail.len() > mark {
            let Some((cell, old)) = self.trail.pop() else { break };
            doms[cell] = old;
        }
    }
}

/// Clue `i`'s edges, made on first use, or copied from an earlier clue with the same
/// automaton (equal clues over lines of one length, as the repeated rows and columns of
/// many puzzles have: a copy costs a fraction of building them).
fn edges_of<'s>(sparse: &'s mut [Option<Edges>], compiled: &Compiled, i: usize) -> &'s Edges {
    if sparse[i].is_none() {
        let a = &compiled.clues[i].automaton;
        let same = (0..i).find(|&j| sparse[j].is_some() && compiled.clues[j].automaton == *a);
        sparse[i] = Some(same.and_then(|j| sparse[j].clone()).unwrap_or_else(|| Edges::new(a)));
    }
    sparse[i].get_or_insert_with(Edges::default)
}
