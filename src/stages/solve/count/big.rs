//! An unsigned integer of any size, for solution counts: a puzzle's count is a product
//! over its independent parts and easily passes 10^60.
//!
//! Only what counting needs: sums, products, comparison and decimal output. Limbs are
//! 32-bit, least significant first, without trailing zeros (zero has none), so that
//! equal numbers have equal limbs.

use std::cmp::Ordering;
use std::fmt;

/// An unsigned integer of any size.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Big {
    limbs: Vec<u32>,
}

impl Big {
    /// Zero.
    pub(crate) fn zero() -> Big {
        Big { limbs: Vec::new() }
    }

    /// One.
    pub(crate) fn one() -> Big {
        Big::from(1u64)
    }

    /// Whether this is zero.
    pub(crate) fn is_zero(&self) -> bool {
        self.limbs.is_empty()
    }

    /// The value, when it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        match self.limbs.as_slice() {
            [] => Some(0),
            [a] => Some(u64::from(*a)),
            [a, b] => Some(u64::from(*a) | u64::from(*b) << 32),
            _ => None,
        }
    }

    /// Number of bits (0 for zero).
    pub(crate) fn bits(&self) -> usize {
        self.limbs.last().map_or(0, |&top| 32 * self.limbs.len() - top.leading_zeros() as usize)
    }

    fn trim(mut self) -> Big {
        while self.limbs.last() == Some(&0) {
            let _ = self.limbs.pop();
        }
        self
    }

    /// Adds `other` in place.
    pub(crate) fn add_assign(&mut self, other: &Big) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = 0u64;
        for (i, l) in self.limbs.iter_mut().enumerate() {
            let sum = u64::from(*l) + u64::from(other.limbs.get(i).copied().unwrap_or(0)) + carry;
            *l = sum as u32;
            carry = sum >> 32;
            if carry == 0 && i >= other.limbs.len() {
                break;
            }
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
    }

    /// The product.
    pub(crate) fn mul(&self, other: &Big) -> Big {
        if self.is_zero() || other.is_zero() {
            return Big::zero();
        }
        let mut out = vec![0u32; self.limbs.len() + other.limbs.len()];
        for (i, &a) in self.limbs.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.limbs.iter().enumerate() {
                let t = u64::from(a) * u64::from(b) + u64::from(out[i + j]) + carry;
                out[i + j] = t as u32;
                carry = t >> 32;
            }
            out[i + other.limbs.len()] = carry as u32;
        }
        Big { limbs: out }.trim()
    }

    /// Multiplies in place by a small factor.
    pub(crate) fn mul_small(&mut self, k: u32) {
        if k == 0 {
            self.limbs.clear();
            return;
        }
        let mut carry = 0u64;
        for l in &mut self.limbs {
            let t = u64::from(*l) * u64::from(k) + carry;
            *l = t as u32;
            carry = t >> 32;
        }
        if carry != 0 {
            self.limbs.push(carry as u32);
        }
    }

    /// Divides in place by a small non-zero divisor; returns the remainder.
    fn div_small(&mut self, d: u32) -> u32 {
        let mut rem = 0u64;
        for l in self.limbs.iter_mut().rev() {
            let cur = rem << 32 | u64::from(*l);
            *l = (cur / u64::from(d)) as u32;
            rem = cur % u64::from(d);
        }
        *self = std::mem::take(self).trim();
        rem as u32
    }

    /// Parses a decimal number (digits only).
    #[cfg(test)]
    pub(crate) fn parse(text: &str) -> Option<Big> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut out = Big::zero();
        for b in text.bytes() {
            out.mul_small(10);
            out.add_assign(&Big::from(u64::from(b - b'0')));
        }
        Some(out)
    }
}

impl From<u64> for Big {
    fn from(v: u64) -> Big {
        Big { limbs: vec![v as u32, (v >> 32) as u32] }.trim()
    }
}

impl From<usize> for Big {
    fn from(v: usize) -> Big {
        Big::from(v as u64)
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Big) -> Ordering {
        self.limbs.len().cmp(&other.limbs.len()).then_with(|| self.limbs.iter().rev().cmp(other.limbs.iter().rev()))
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Big) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Big {
    /// The number in full, in decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_zero() {
            return f.pad("0");
        }
        // Nine decimal digits at a time, least significant first.
        const CHUNK: u32 = 1_000_000_000;
        let mut rest = self.clone();
        let mut chunks = Vec::new();
        while !rest.is_zero() {
            chunks.push(rest.div_small(CHUNK));
        }
        let mut text = String::with_capacity(chunks.len() * 9);
        let mut it = chunks.iter().rev();
        if let Some(top) = it.next() {
            text.push_str(&top.to_string());
        }
        for c in it {
            text.push_str(&format!("{c:09}"));
        }
        f.pad(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::Big;

    #[test]
    fn arithmetic_agrees_with_u128() {
        let samples: [u64; 7] = [0, 1, 9, 4_294_967_295, 4_294_967_296, 1_000_000_007, u64::MAX];
        for &a in &samples {
            for &b in &samples {
                let (x, y) = (Big::from(a), Big::from(b));
                assert_eq!(x.mul(&y).to_string(), (u128::from(a) * u128::from(b)).to_string());
                let mut s = x.clone();
                s.add_assign(&y);
                assert_eq!(s.to_string(), (u128::from(a) + u128::from(b)).to_string());
                assert_eq!(x.cmp(&y), a.cmp(&b));
            }
        }
    }

    #[test]
    fn powers_print_in_full_and_parse_back() {
        let mut p = Big::one();
        for _ in 0..60 {
            p.mul_small(10);
        }
        let text = p.to_string();
        assert_eq!(text, format!("1{}", "0".repeat(60)));
        assert_eq!(Big::parse(&text), Some(p.clone()));
        assert_eq!(p.mul(&p).to_string(), format!("1{}", "0".repeat(120)));
        assert_eq!(Big::parse("007").and_then(|b| b.to_u64()), Some(7));
        assert_eq!(Big::parse("12a"), None);
        assert_eq!(Big::from(u64::MAX).bits(), 64);
    }
}
