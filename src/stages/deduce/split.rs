//! Case splits: where lines stall, assume one letter in one cell and follow the lines
//! (and, at depth 2, splits inside) until some cell has no letter left; the letter
//! then goes. Of all assumptions the one whose contradiction takes the fewest steps
//! is kept (ties: the first cell, then the first letter), depth 1 before depth 2.

use super::{Ctx, End, Engine, Kind, Pending, Step, Why};
use crate::error::Result;
use crate::propagate::SymSet;
use std::collections::BTreeSet;

/// The best contradiction found so far: its size, cell, letter, steps, empty cell and
/// the outer steps it reads.
type Found = (usize, usize, usize, Vec<Step>, usize, BTreeSet<(u8, u32)>);

impl Engine<'_> {
    /// The split step (numbered `done + 1`) that removes a letter from `ctx` by the
    /// shortest contradiction of depth at most `depth` (inside at most `room` steps),
    /// applied; `None` when no assumption leads to one (or the budget ran out first).
    pub(super) fn find_split(&mut self, ctx: &mut Ctx, done: usize, depth: usize, room: Option<usize>) -> Result<Option<Step>> {
        for d in 1..=depth {
            // Iterative deepening: the probes stop at `cap` steps, doubled until some
            // assumption fails within it or none was cut short.
            let mut cap = 2;
            let exhausted = loop {
                let bound = room.map_or(cap, |r| r.min(cap));
                let (found, cut) = self.split_at(ctx, d, Some(bound))?;
                if let Some(found) = found {
                    return Ok(Some(self.apply_split(ctx, done + 1, found)));
                }
                if !cut {
                    break !self.spent_all();
                }
                if self.spent_all() || room.is_some_and(|r| r <= cap) {
                    break false;
                }
                cap *= 2;
            };
            if d == 1 && !exhausted && ctx.level == 0 {
                // The shortest contradiction was not found within the budget: the
                // first one, however long, so that the depth-1 splits always reach
                // their fixpoint (the difficulty is defined by it).
                if let Some(found) = self.first_split(ctx, room)? {
                    return Ok(Some(self.apply_split(ctx, done + 1, found)));
                }
            }
            if self.spent_all() {
                break;
            }
        }
        Ok(None)
    }

    /// The first assumption whose line steps leave a cell empty (told by the closure,
    /// then its steps recorded), at most `room` steps: cells in order from the one the
    /// previous such split assumed (round the grid), letters in order.
    fn first_split(&mut self, ctx: &Ctx, room: Option<usize>) -> Result<Option<Found>> {
        let n = ctx.doms.len();
        let from = self.first_from.get();
        for c in (0..n).map(|k| (from + k) % n).filter(|&c| ctx.doms[c].len() > 1) {
            for x in ctx.doms[c].iter() {
                self.cancel.check()?;
                if !self.fails(&ctx.doms, c, x) {
                    continue;
                }
                let mut sub = self.assume(ctx, c, x);
                let mut steps = Vec::new();
                if let End::Contradiction { cell } = self.run(&mut sub, &mut steps, room, 0)? {
                    self.first_from.set(c);
                    let size = steps.iter().map(Step::size).sum();
                    return Ok(Some((size, c, x, steps, cell, sub.outer)));
                }
            }
        }
        Ok(None)
    }

    /// The context of the assumption `x` in cell `c` under `ctx`.
    fn assume(&self, ctx: &Ctx, c: usize, x: usize) -> Ctx {
        let mut sub = Ctx {
            doms: ctx.doms.clone(),
            origin: ctx.origin.clone(),
            level: ctx.level + 1,
            outer: BTreeSet::new(),
            pending: ctx.pending.clone(),
        };
        sub.doms[c] = super::closure::one(x);
        sub.origin[c] = (sub.level, 0);
        for &j in &self.layout.of_cell[c] {
            sub.pending[j] = Pending::Dirty;
        }
        sub
    }

    /// The shortest contradiction of depth at most `depth` within `room` steps, and
    /// whether some probe was cut short by `room`.
    fn split_at(&mut self, ctx: &Ctx, depth: usize, room: Option<usize>) -> Result<(Option<Found>, bool)> {
        let mut best: Option<Found> = None;
        let mut cut = false;
        // At the top level, a depth-1 probe runs only where the lines are known to
        // fail (`fails`, remembered from split to split): no other ends in a
        // contradiction, so the shortest one is the same.
        let screen = ctx.level == 0 && depth == 1;
        for c in (0..ctx.doms.len()).filter(|&c| ctx.doms[c].len() > 1) {
            for x in ctx.doms[c].iter() {
                if self.spent_all() || best.as_ref().is_some_and(|b| b.0 == 1) {
                    return Ok((best, cut));
                }
                if screen && !self.fails(&ctx.doms, c, x) {
                    continue;
                }
                // Inside: strictly fewer steps than the best so far.
                let limit = match (&best, room) {
                    (Some(b), Some(r)) => Some((b.0 - 1).min(r)),
                    (Some(b), None) => Some(b.0 - 1),
                    (None, r) => r,
                };
                let mut sub = self.assume(ctx, c, x);
                let mut steps = Vec::new();
                match self.run(&mut sub, &mut steps, limit, depth - 1)? {
                    End::Contradiction { cell } => {
                        let size = steps.iter().map(Step::size).sum();
                        if best.as_ref().is_none_or(|b| size < b.0) {
                            best = Some((size, c, x, steps, cell, sub.outer));
                        }
                    }
                    End::StepLimit => cut = true,
                    End::Solved | End::Stalled => {}
                }
            }
        }
        Ok((best, cut))
    }

    fn apply_split(&mut self, ctx: &mut Ctx, number: usize, found: Found) -> Step {
        let (_, cell, letter, mut steps, empty, outer) = found;
        if ctx.level == 0 {
            let mut doms = ctx.doms.clone();
            doms[cell] = super::closure::one(letter);
            self.fill_reasons(doms, &mut steps);
        }
        let mut uses = BTreeSet::new();
        for (level, step) in outer {
            if level == ctx.level {
                let _ = uses.insert(step as usize);
            } else {
                let _ = ctx.outer.insert((level, step));
            }
        }
        let mut removed = SymSet::default();
        removed.insert(letter);
        ctx.doms[cell].remove(letter);
        ctx.origin[cell] = (ctx.level, number as u32);
        for &j in &self.layout.of_cell[cell] {
            ctx.pending[j] = Pending::Dirty;
        }
        Step {
            kind: Kind::Split,
            clue: steps.last().and_then(|s| s.clue),
            cells: vec![cell],
            removed: vec![removed],
            remaining: vec![ctx.doms[cell]],
            uses: uses.into_iter().collect(),
            why: Why::Split { cell, letter, steps, empty },
            extra: false,
        }
    }
}
