//! Propagation: narrowing a cell queues the lines through it, and the queued lines are
//! passed until nothing changes or a line has no word left; a narrowed cell wakes the
//! line across it only when few values are left ([`super::Tuning::wake`]). Also the
//! check that no two complete lines spell the same word.

use super::Search;
use super::domain::Values;
use crate::squares::dawg::Flat;
use crate::squares::{BLANK, Cell};

impl Search<'_> {
    fn fa<'f>(&self, line: usize) -> &'f Flat
    where
        Self: 'f,
    {
        if line < self.size.height { self.row_fa } else { self.col_fa }
    }

    /// The row and the column through `cell`.
    pub(super) fn lines_of(&self, cell: usize) -> [usize; 2] {
        let w = self.size.width;
        [cell / w, self.size.height + cell % w]
    }

    /// Sets a cell's domain and queues its lines.
    pub(super) fn narrow(&mut self, cell: usize, to: Values) {
        self.dom[cell] = to;
        for l in self.lines_of(cell) {
            if !self.queued[l] {
                self.queued[l] = true;
                self.queue.push(l);
            }
        }
    }

    /// Runs the queued lines to a fixpoint; false at a dead end (a line with no word
    /// left). The queue is empty afterwards either way.
    pub(super) fn propagate(&mut self) -> bool {
        while let Some(l) = self.queue.pop() {
            self.queued[l] = false;
            let fa = self.fa(l);
            self.doms.clear();
            self.doms.extend(self.lines[l].iter().map(|&c| self.dom[c]));
            if !self.pass.run(fa, &self.doms, None, &mut self.live[l], self.tuning.subset_share) {
                self.fails[l] += 1;
                for &q in &self.queue {
                    self.queued[q] = false;
                }
                self.queue.clear();
                return false;
            }
            for k in 0..self.doms.len() {
                let sup = self.pass.support[k];
                if sup != self.doms[k] {
                    let cell = self.lines[l][k];
                    self.dom[cell] = sup;
                    if sup.len() > self.tuning.wake {
                        continue;
                    }
                    let [row, col] = self.lines_of(cell);
                    let other = if row == l { col } else { row };
                    if !self.queued[other] {
                        self.queued[other] = true;
                        self.queue.push(other);
                    }
                }
            }
        }
        true
    }

    /// Whether no two lines whose cells are all decided spell the same word.
    pub(super) fn no_repeats(&mut self) -> bool {
        let mut words: Vec<Vec<Cell>> = Vec::new();
        for line in &self.lines {
            if line.iter().all(|&c| self.dom[c].len() == 1) {
                let word: Vec<Cell> = line.iter().filter_map(|&c| self.dom[c].first()).filter(|&v| v != BLANK).collect();
                if words.contains(&word) {
                    self.repeats += 1;
                    return false;
                }
                words.push(word);
            }
        }
        true
    }
}
