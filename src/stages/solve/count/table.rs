//! The frontier sweep's table ([`super::frontier`]): frontier keys, a fixed number of
//! `u64` words each, to counts, a fixed number of `u64` limbs each (least significant
//! first), held back to back in two vectors and found by open addressing. The limbs
//! are enough for the largest count the sweep can meet (the product of the domain
//! sizes), so the sums never overflow.

use super::Big;

/// A map from keys of `w` words to counts of `l` limbs.
pub(super) struct Table {
    w: usize,
    l: usize,
    keys: Vec<u64>,
    counts: Vec<u64>,
    /// Entry index plus one per slot; 0 for an empty slot.
    slots: Vec<u32>,
}

impl Table {
    /// An empty table for keys of `w` words and counts of `l` limbs.
    pub(super) fn new(w: usize, l: usize) -> Table {
        Table { w, l, keys: Vec::new(), counts: Vec::new(), slots: vec![0; 16] }
    }

    /// Number of entries.
    pub(super) fn len(&self) -> usize {
        self.keys.len() / self.w.max(1)
    }

    /// Empties the table, keeping its memory.
    pub(super) fn clear(&mut self) {
        self.keys.clear();
        self.counts.clear();
        self.slots.iter_mut().for_each(|s| *s = 0);
    }

    /// The key of entry `i`.
    pub(super) fn key(&self, i: usize) -> &[u64] {
        &self.keys[i * self.w..(i + 1) * self.w]
    }

    /// The count of entry `i`.
    pub(super) fn count(&self, i: usize) -> &[u64] {
        &self.counts[i * self.l..(i + 1) * self.l]
    }

    /// Adds `count × weight` to the count under `key` (zero when absent).
    pub(super) fn add(&mut self, key: &[u64], count: &[u64], weight: u64) {
        if (self.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let i = self.find_or_insert(key);
        add_mul(&mut self.counts[i * self.l..(i + 1) * self.l], count, weight);
    }

    /// The entry of `key`, inserted with count zero when absent.
    fn find_or_insert(&mut self, key: &[u64]) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = hash(key) as usize & mask;
        loop {
            match self.slots[at] {
                0 => {
                    let i = self.len();
                    self.keys.extend_from_slice(key);
                    self.counts.resize(self.counts.len() + self.l, 0);
                    self.slots[at] = i as u32 + 1;
                    return i;
                }
                s if self.key(s as usize - 1) == key => return s as usize - 1,
                _ => at = (at + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let size = self.slots.len() * 2;
        self.slots = vec![0; size];
        let mask = size - 1;
        for i in 0..self.len() {
            let mut at = hash(self.key(i)) as usize & mask;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = i as u32 + 1;
        }
    }

    /// The sum of every entry's count.
    pub(super) fn total(&self) -> Big {
        let mut sum = vec![0u64; self.l];
        for i in 0..self.len() {
            add_mul(&mut sum, self.count(i), 1);
        }
        to_big(&sum)
    }
}

fn hash(key: &[u64]) -> u64 {
    let h = key.iter().fold(0u64, |h, &w| (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95));
    h ^ h >> 29
}

/// `dst += src × weight`, limb by limb; the carry out of the top limb is zero by the
/// caller's choice of limbs.
pub(super) fn add_mul(dst: &mut [u64], src: &[u64], weight: u64) {
    let mut carry = 0u128;
    for (d, &s) in dst.iter_mut().zip(src) {
        let v = u128::from(*d) + u128::from(s) * u128::from(weight) + carry;
        *d = v as u64;
        carry = v >> 64;
    }
    debug_assert_eq!(carry, 0, "a count outgrew its limbs");
}

/// The number of limbs (`u64`, least significant first).
pub(super) fn to_big(limbs: &[u64]) -> Big {
    let mut n = Big::zero();
    for &limb in limbs.iter().rev() {
        n.mul_small(1 << 16);
        n.mul_small(1 << 16);
        n.mul_small(1 << 16);
        n.mul_small(1 << 16);
        n.add_assign(&Big::from(limb));
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_of_products_carry_across_limbs() {
        let mut t = Table::new(2, 3);
        let one = [1u64, 0, 0];
        let big = [u64::MAX, u64::MAX, 0];
        for k in 0..1000u64 {
            t.add(&[k % 7, k % 3], &one, k);
        }
        t.add(&[0, 0], &big, 3);
        assert_eq!(t.len(), 21);
        // 0 + 1 + … + 999, and 3 × (2^128 − 1).
        let expected = Big::parse("1020847100762815390390123822295304634365").expect("number");
        let mut sum = Big::from(499_500u64);
        sum.add_assign(&expected);
        assert_eq!(t.total(), sum);
        t.clear();
        assert_eq!((t.len(), t.total()), (0, Big::zero()));
    }
}
