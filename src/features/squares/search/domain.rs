//! A cell's domain: the values (pairs and the blank) it may still take, as a bitset.

use crate::squares::{BLANK, Cell, PAIRS};

/// The values a cell may take, as a bitset over the pairs and the blank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct Values(pub(super) [u64; WORDS]);

const WORDS: usize = (PAIRS + 1).div_ceil(64);

impl Values {
    pub(super) const EMPTY: Values = Values([0; WORDS]);
    pub(super) fn full() -> Values {
        let mut v = Values::EMPTY;
        for x in 0..=BLANK {
            v.add(x);
        }
        v
    }
    pub(super) fn one(v: Cell) -> Values {
        let mut s = Values::EMPTY;
        s.add(v);
        s
    }
    pub(super) fn has(&self, v: Cell) -> bool {
        self.0[usize::from(v) / 64] >> (v % 64) & 1 == 1
    }
    pub(super) fn add(&mut self, v: Cell) {
        self.0[usize::from(v) / 64] |= 1 << (v % 64);
    }
    pub(super) fn remove(&mut self, v: Cell) {
        self.0[usize::from(v) / 64] &= !(1 << (v % 64));
    }
    pub(super) fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// The value of a singleton.
    pub(super) fn first(&self) -> Option<Cell> {
        self.0.iter().enumerate().find(|(_, w)| **w != 0).map(|(i, w)| (i * 64 + w.trailing_zeros() as usize) as Cell)
    }
    pub(super) fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let b = w.trailing_zeros();
                    w &= w - 1;
                    (i * 64 + b as usize) as Cell
                })
            })
        })
    }
}
