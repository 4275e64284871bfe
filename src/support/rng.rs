//! The seeded random generator shared by the features that need repeatable randomness
//! (`generate`, `squares`) and by the tests' random inputs.
//!
//! It is [`rand`]'s ChaCha8 generator, seeded from a `u64`: portable (the same seed
//! gives the same stream on every platform and word size) and unbiased in its ranges
//! (rand's uniform sampling, built with rand's `unbiased` feature). The same seed gives
//! the same output within one version of crossat; a new version may change what a seed
//! gives (a new generator, or a feature drawing its numbers in another order).

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// A seeded generator.
#[derive(Debug)]
pub(crate) struct Rng(ChaCha8Rng);

/// A fresh seed for a run that was given none: 64 bits from the operating system's
/// random source (through the standard library's randomly keyed hasher, which draws its
/// keys from it), so that two runs make different puzzles unless given the same seed.
pub fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(crate::clock::SystemTime::now().duration_since(crate::clock::UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
    h.finish()
}

impl Rng {
    /// A generator from a seed.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait, reason = "a generator, not an iterator: it never ends")]
    pub(crate) fn next(&mut self) -> u64 {
        self.0.random()
    }
    /// A number in `0..n`, each equally likely (0 when `n` is 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { self.0.random_range(0..n) }
    }
    /// True with probability `p` (clamped to 0..=1; never for NaN).
    pub(crate) fn chance(&mut self, p: f64) -> bool {
        if p.is_nan() { false } else { self.0.random_bool(p.clamp(0.0, 1.0)) }
    }

    /// A random element of a non-empty slice.
    pub(crate) fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// [`Rng`] with the shorthands the differential tests' case generators use (chances in
/// percent, picks by value), so that a failure replays from its seed.
#[cfg(test)]
pub(crate) struct Cases(Rng);

#[cfg(test)]
impl Cases {
    pub(crate) fn new(seed: u64) -> Cases {
        Cases(Rng::new(seed))
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.0.below(100) < percent
    }
    pub(crate) fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        *self.0.pick(xs)
    }
}

#[cfg(test)]
mod tests {
    use super::{Rng, fresh_seed};

    #[test]
    fn fresh_seeds_differ() {
        let seeds: std::collections::BTreeSet<u64> = (0..16).map(|_| fresh_seed()).collect();
        assert_eq!(seeds.len(), 16);
    }

    #[test]
    fn same_seed_same_stream_and_seeds_differ() {
        let draw = |seed| {
            let mut r = Rng::new(seed);
            (0..64).map(|_| r.next()).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
    }

    #[test]
    fn below_covers_its_range_evenly() {
        let mut r = Rng::new(1);
        let mut counts = [0usize; 3];
        for _ in 0..30_000 {
            counts[r.below(3)] += 1;
        }
        // Each of the three values is drawn about 10,000 times (within 5 %).
        assert!(counts.iter().all(|&c| (9_500..10_500).contains(&c)), "{counts:?}");
        assert_eq!(r.below(0), 0);
        assert!((0..1000).all(|_| r.below(1) == 0));
    }

    #[test]
    fn chance_follows_its_probability() {
        let mut r = Rng::new(2);
        let hits = (0..20_000).filter(|_| r.chance(0.25)).count();
        assert!((4_600..5_400).contains(&hits), "{hits}");
        assert!((0..100).all(|_| !r.chance(0.0)) && (0..100).all(|_| r.chance(1.0)));
    }
}
