//! The search's choices: the next cell (fewest values left per dead end of its lines,
//! ties broken by the seeded generator) and the value it takes (sampled in proportion to
//! the words through it, raised to [`super::Tuning::greed`]).

use super::Search;
use crate::squares::{BLANK, Cell};

impl Search<'_> {
    /// The undecided cell to branch on, `None` when every cell is decided.
    pub(super) fn pick_cell(&mut self) -> Option<usize> {
        if !self.tuning.fewest_first {
            return (0..self.dom.len()).find(|&c| self.dom[c].len() > 1);
        }
        let mut best: Option<(u64, usize)> = None;
        let mut ties = 0;
        for c in 0..self.dom.len() {
            let n = self.dom[c].len();
            if n <= 1 {
                continue;
            }
            // Fewest values, or fewest values per dead end of the cell's lines (scaled
            // so that the comparison stays in integers).
            let n = if self.tuning.wdeg {
                let [row, col] = self.lines_of(c);
                (u64::from(n) << 32) / (self.fails[row] + self.fails[col])
            } else {
                u64::from(n)
            };
            match best {
                Some((b, _)) if n > b => {}
                Some((b, _)) if n == b => {
                    ties += 1;
                    if self.rng.below(ties + 1) == 0 {
                        best = Some((n, c));
                    }
                }
                _ => {
                    best = Some((n, c));
                    ties = 0;
                }
            }
        }
        best.map(|b| b.1)
    }

    /// The value to try at `cell`: sampled in proportion to (row words through it ×
    /// column words through it) to the power `greed`.
    pub(super) fn pick_value(&mut self, cell: usize) -> Cell {
        let mut weight = vec![1.0f64; usize::from(BLANK) + 1];
        for l in self.lines_of(cell) {
            let k = self.lines[l].iter().position(|&c| c == cell).expect("the cell is on its line");
            self.doms.clear();
            self.doms.extend(self.lines[l].iter().map(|&c| self.dom[c]));
            let fa = if l < self.size.height { self.row_fa } else { self.col_fa };
            let _ = self.pass.run(fa, &self.doms, Some(k), &mut self.live[l], self.tuning.subset_share);
            for (w, x) in weight.iter_mut().zip(&self.pass.weight) {
                *w *= x;
            }
        }
        let greed = self.tuning.greed;
        let mut best = (f64::NEG_INFINITY, BLANK);
        for v in self.dom[cell].iter() {
            let x = (self.rng.next() >> 11) as f64 / (1u64 << 53) as f64;
            let gumbel = -(-(x.max(1e-300)).ln()).ln();
            let score = greed * weight[usize::from(v)].max(1e-300).ln() + gumbel;
            if score > best.0 {
                best = (score, v);
            }
        }
        best.1
    }
}
