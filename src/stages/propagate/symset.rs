//! [`SymSet`]: the letters a cell may still hold, as a bit set over the puzzle
//! alphabet's symbols. Propagation narrows these sets; the encoder gives each letter
//! left a variable.

/// A set of alphabet symbols (up to 192).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct SymSet([u64; 3]);

impl SymSet {
    /// The symbols `0..n`.
    pub(crate) fn full(n: usize) -> SymSet {
        let mut s = SymSet::default();
        for a in 0..n {
            s.insert(a);
        }
        s
    }
    /// Adds `a`.
    pub(crate) fn insert(&mut self, a: usize) {
        self.0[a / 64] |= 1 << (a % 64);
    }
    /// Removes `a`.
    pub(crate) fn remove(&mut self, a: usize) {
        self.0[a / 64] &= !(1 << (a % 64));
    }
    /// Whether `a` is in the set.
    pub(crate) fn contains(&self, a: usize) -> bool {
        self.0[a / 64] >> (a % 64) & 1 == 1
    }
    /// Number of symbols.
    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.0 == [0; 3]
    }
    /// The symbols, ascending.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        // Walk the set bits only: this runs for every state of every layer.
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * 64 + bit
                })
            })
        })
    }
    /// Union.
    pub(crate) fn or(&self, o: &SymSet) -> SymSet {
        SymSet([self.0[0] | o.0[0], self.0[1] | o.0[1], self.0[2] | o.0[2]])
    }
    /// The symbols of `self` not in `o`.
    pub(crate) fn without(&self, o: &SymSet) -> SymSet {
        SymSet([self.0[0] & !o.0[0], self.0[1] & !o.0[1], self.0[2] & !o.0[2]])
    }
    /// Intersection.
    pub(crate) fn and(&self, o: &SymSet) -> SymSet {
        SymSet([self.0[0] & o.0[0], self.0[1] & o.0[1], self.0[2] & o.0[2]])
    }
}
