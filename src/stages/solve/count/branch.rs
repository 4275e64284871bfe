//! How the counting search splits a component into cases: on the states of a long
//! segment's run (a cut) or on the letters of one cell, letters that every clue
//! through the cell reads alike taken together.

use super::segment;
use super::{Component, Counter};
use crate::error::Result;
use crate::propagate::SymSet;

/// How a component is split into cases.
pub(super) enum Branch {
    /// On the letters of a cell.
    Cell(usize),
    /// On the states of a segment's run after its first `at` cells.
    Cut(usize, u32, Vec<u32>),
}

/// A segment with at least this many open cells is cut rather than a cell chosen.
const CUT_FROM: usize = 4;

impl<R, M> Counter<'_, R, M>
where
    R: FnMut(usize, &[SymSet], &[SymSet]) -> Option<Vec<SymSet>>,
    M: FnMut(usize, &[usize]) -> Result<bool>,
{
    /// What to branch on: a cut of the segment with the most open cells when it has
    /// at least [`CUT_FROM`], at the position of its middle half with the fewest live
    /// states; otherwise a cell.
    pub(super) fn choose(&mut self, comp: &Component) -> Branch {
        let longest = (0..comp.segs.len())
            .filter(|&k| !self.compiled.clues[comp.segs[k].clue as usize].approximate())
            .map(|k| (self.open(&comp.segs[k]), k))
            .max();
        if let Some((open, k)) = longest
            && open >= CUT_FROM
        {
            let s = comp.segs[k];
            let a = &self.compiled.clues[s.clue as usize].automaton;
            let cells = s.cells(&self.lines.lines[s.clue as usize]);
            self.line.clear();
            self.line.extend(cells.iter().map(|&c| self.doms[c]));
            let live = segment::live(a, &self.line, s.from, s.to);
            // Positions after each open cell: the middle half of them.
            let after: Vec<usize> = (0..cells.len()).filter(|&p| self.line[p].len() > 1).map(|p| p + 1).collect();
            let (from, to) = (after.len() / 4, (after.len() * 3).div_ceil(4).min(after.len() - 1));
            let mid = after.len() / 2;
            if let Some(&p) = (from..to.max(from + 1)).map(|j| &after[j]).min_by_key(|&&p| (live[p].len(), p.abs_diff(after[mid])))
                && live[p].len() > 1
                && p < cells.len()
            {
                return Branch::Cut(k, p as u32, live[p].clone());
            }
        }
        Branch::Cell(self.pick(comp))
    }

    /// The letters of `cell` to branch on, each with how many letters of its domain it
    /// stands for: letters that every clue of the component through the cell reads
    /// alike ([`letter_classes`]) lead to as many grids each, so one of them is tried
    /// and its count multiplied.
    pub(super) fn letter_groups(&self, cell: usize, comp: &Component) -> Vec<(usize, u32)> {
        let through: Vec<usize> =
            self.lines.of_cell[cell].iter().copied().filter(|&i| comp.segs.iter().any(|s| s.clue as usize == i)).collect();
        let mut groups: Vec<(usize, u32)> = Vec::new();
        let mut seen: Vec<Vec<u32>> = Vec::new();
        for x in self.doms[cell].iter() {
            let sig: Vec<u32> = through.iter().map(|&i| self.classes[i][x]).collect();
            match seen.iter().position(|s| *s == sig) {
                Some(k) => groups[k].1 += 1,
                None => {
                    seen.push(sig);
                    groups.push((x, 1));
                }
            }
        }
        groups
    }

    /// The cell to branch on: in most segments of the component, then fewest letters.
    fn pick(&self, comp: &Component) -> usize {
        let lines = &self.lines.lines;
        let through = |c: usize| comp.segs.iter().filter(|s| s.cells(&lines[s.clue as usize]).contains(&c)).count();
        comp.cells.iter().copied().min_by_key(|&c| (std::cmp::Reverse(through(c)), self.doms[c].len())).unwrap_or(comp.cells[0])
    }
}

/// Per letter, its class for clue `cc`: two letters are in one class when the clue's
/// automaton reads them alike from every state (equal columns of its transition
/// table), so that swapping one for the other in any cell changes no verdict of the
/// clue. Only for an exact automaton; with one that over-approximates its clue, each
/// letter is its own class (the matcher may tell them apart).
pub(super) fn letter_classes(cc: &crate::compile::CompiledClue, sigma: usize) -> Vec<u32> {
    if cc.approximate() {
        return (0..sigma as u32).collect();
    }
    let a = &cc.automaton;
    let mut reps: Vec<usize> = Vec::new();
    (0..sigma)
        .map(|x| {
            let same = |y: usize| (0..a.states() as u32).all(|s| a.step(s, x) == a.step(s, y));
            match reps.iter().position(|&y| same(y)) {
                Some(k) => k as u32,
                None => {
                    reps.push(x);
                    (reps.len() - 1) as u32
                }
            }
        })
        .collect()
}
