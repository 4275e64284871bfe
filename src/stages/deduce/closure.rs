//! The fixpoints the steps reach, without the steps: the closure of the line steps and
//! the closure of the depth-1 case splits (probing). Both are unique (the line steps
//! only ever remove letters, and each clue's removal grows as the candidates shrink),
//! so the order the explanation picks for its steps cannot change them: a puzzle is
//! solved by line steps alone exactly when [`Engine::settle`] fixes every cell, and by
//! line steps and depth-1 splits exactly when [`Engine::probe`] does. The rater
//! ([`super::rate`]) classifies a puzzle with these, in a fraction of the time
//! the explanation takes to choose and word its steps.
//!
//! A regex pool's entries and its assignment are constraints here as in the steps
//! ([`super::constraints`]).

use super::Engine;
use crate::propagate::SymSet;
use std::collections::VecDeque;

/// What the engine knows of the assumptions (a letter in a cell) over some candidates
/// `base`, and still knows over any candidates within them: the line steps are
/// monotone, so an assumption that fails keeps failing as the candidates shrink, and
/// one that holds, closing at `fixpoint`, closes from `fixpoint` narrowed to the new
/// candidates at the same place as from the new candidates themselves (the greatest
/// fixpoint below them lies below `fixpoint`). A probe then costs the lines through
/// the cells where the candidates changed, not a closure from scratch.
#[derive(Debug, Default)]
pub(super) struct Assumptions {
    /// The candidates these are known over.
    base: Vec<SymSet>,
    /// Per (cell, letter): `None` when it fails, else the fixpoint it closes at.
    known: crate::compile::FastMap<(usize, usize), Option<Box<[SymSet]>>>,
}

/// The state of a probing closure: probes made, and the most it may make.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Probes {
    /// Probes made (a letter assumed in a cell, then the lines closed).
    pub made: usize,
    /// Most probes allowed (`None`: no limit).
    pub limit: Option<usize>,
}

impl Engine<'_> {
    /// Closes `doms` under every line step, starting from the constraints through the
    /// cells `from` (every constraint when `None`); `false` when a cell is left without
    /// a letter.
    pub(crate) fn settle(&self, doms: &mut [SymSet], from: Option<&[usize]>) -> bool {
        let of_cell = &self.layout.of_cell;
        let n = self.constraints();
        let mut queued = vec![false; n];
        let mut queue = VecDeque::new();
        let push = |i: usize, queued: &mut Vec<bool>, queue: &mut VecDeque<usize>| {
            if !queued[i] {
                queued[i] = true;
                queue.push_back(i);
            }
        };
        match from {
            None => (0..n).for_each(|i| push(i, &mut queued, &mut queue)),
            Some(cells) => cells.iter().flat_map(|&c| &of_cell[c]).for_each(|&i| push(i, &mut queued, &mut queue)),
        }
        let mut line = Vec::new();
        while let Some(i) = queue.pop_front() {
            queued[i] = false;
            let cells = self.cells_of(i);
            line.clear();
            line.extend(cells.iter().map(|&c| doms[c]));
            let (support, _) = self.constraint_support(i, &line);
            for (&c, s) in cells.iter().zip(&support) {
                let new = doms[c].and(s);
                if new != doms[c] {
                    doms[c] = new;
                    if new.is_empty() {
                        return false;
                    }
                    of_cell[c].iter().for_each(|&j| push(j, &mut queued, &mut queue));
                }
            }
        }
        true
    }

    /// Whether assuming letter `x` in cell `c` of `doms` (closed under the line steps)
    /// leaves, after the line steps, some cell without a letter: what
    /// [`Engine::settle`] says, remembered over shrinking candidates ([`Assumptions`]).
    pub(super) fn fails(&self, doms: &[SymSet], c: usize, x: usize) -> bool {
        let entry = {
            let mut memo = self.memo.borrow_mut();
            let a = &mut memo.assumptions;
            if a.base.len() != doms.len() || a.base.iter().zip(doms).any(|(b, d)| d.and(b) != *d) {
                a.known.clear();
            }
            a.base.clear();
            a.base.extend_from_slice(doms);
            match a.known.get(&(c, x)) {
                Some(None) => return true,
                Some(Some(fixpoint)) => Some(fixpoint.to_vec()),
                None => None,
            }
        };
        let (mut trial, changed) = match entry {
            Some(mut trial) => {
                // Narrowed to `doms`; the lines through the cells that changed close it.
                let mut changed = Vec::new();
                for (k, (t, d)) in trial.iter_mut().zip(doms).enumerate() {
                    let new = t.and(d);
                    if new != *t {
                        *t = new;
                        changed.push(k);
                    }
                }
                if changed.is_empty() {
                    return false;
                }
                (trial, changed)
            }
            None => {
                let mut trial = doms.to_vec();
                trial[c] = one(x);
                (trial, vec![c])
            }
        };
        let holds = !changed.iter().any(|&k| trial[k].is_empty()) && self.settle(&mut trial, Some(&changed));
        let _ = self.memo.borrow_mut().assumptions.known.insert((c, x), holds.then(|| trial.into_boxed_slice()));
        !holds
    }

    /// Closes `doms` (already closed under the line steps) under the depth-1 case
    /// splits: every letter of every open cell is assumed in turn, and goes when the
    /// line steps then leave some cell without a letter; repeated until nothing goes.
    /// `Some(false)` when a cell is left without a letter, `None` when the probes ran
    /// out first.
    pub(crate) fn probe(&self, doms: &mut [SymSet], probes: &mut Probes) -> Option<bool> {
        loop {
            let mut changed = false;
            for c in 0..doms.len() {
                if doms[c].len() <= 1 {
                    continue;
                }
                let mut left = SymSet::default();
                for a in doms[c].iter() {
                    if probes.limit.is_some_and(|l| probes.made >= l) {
                        return None;
                    }
                    probes.made += 1;
                    let mut trial = doms.to_vec();
                    trial[c] = one(a);
                    if self.settle(&mut trial, Some(&[c])) {
                        left.insert(a);
                    }
                }
                if left != doms[c] {
                    doms[c] = left;
                    if left.is_empty() || !self.settle(doms, Some(&[c])) {
                        return Some(false);
                    }
                    changed = true;
                }
            }
            if !changed {
                return Some(true);
            }
        }
    }
}

/// The set of the one symbol `a`.
pub(crate) fn one(a: usize) -> SymSet {
    let mut s = SymSet::default();
    s.insert(a);
    s
}
