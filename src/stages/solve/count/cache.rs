//! The counting search's cache of component counts: one per search, or one shared by
//! the threads of a count on several ([`super::parallel`]), split into shards each
//! behind its own lock so that the threads seldom wait for each other. A count found in
//! the cache is the count of the same component found before, by whichever thread: the
//! cache saves work, never changes a count.

use super::Big;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// Most `u64` words of keys the cache holds (about 64 MB with its counts); past it the
/// cache is emptied and refilled, which costs time, never exactness.
pub(crate) const CACHE_WORDS: usize = 1 << 23;

/// Component counts by key ([`super::Counter`]'s `key`), with the `u64` words they hold.
#[derive(Default)]
pub(super) struct Map {
    counts: HashMap<Vec<u64>, Big>,
    words: usize,
}

impl Map {
    /// Stores a count, emptying the map first when it would hold more than `max_words`.
    fn store(&mut self, key: Vec<u64>, count: Big, max_words: usize) {
        if self.words + key.len() > max_words {
            self.counts.clear();
            self.words = 0;
        }
        self.words += key.len() + count.bits() / 64 + 4;
        let _ = self.counts.insert(key, count);
    }
}

/// The cache a [`super::Counter`] consults.
pub(super) enum Cache<'a> {
    /// Its own.
    Own(Map),
    /// One shared with the other threads of a count.
    Shared(&'a Shared),
}

impl Cache<'_> {
    /// A cache of one's own, empty.
    pub(super) fn own() -> Cache<'static> {
        Cache::Own(Map::default())
    }

    /// The count stored under `key`.
    pub(super) fn get(&self, key: &[u64]) -> Option<Big> {
        match self {
            Cache::Own(map) => map.counts.get(key).cloned(),
            Cache::Shared(shared) => shared.shard(key).counts.get(key).cloned(),
        }
    }

    /// Stores `count` under `key` (the cache emptied first when full).
    pub(super) fn store(&mut self, key: Vec<u64>, count: Big) {
        match self {
            Cache::Own(map) => map.store(key, count, CACHE_WORDS),
            Cache::Shared(shared) => shared.shard(&key).store(key, count, CACHE_WORDS / SHARDS),
        }
    }
}

/// Shards of a shared cache.
const SHARDS: usize = 64;

/// A cache shared by threads, as [`SHARDS`] maps each behind a lock.
pub(super) struct Shared {
    shards: Vec<Mutex<Map>>,
}

impl Shared {
    pub(super) fn new() -> Shared {
        Shared { shards: (0..SHARDS).map(|_| Mutex::default()).collect() }
    }

    fn shard(&self, key: &[u64]) -> std::sync::MutexGuard<'_, Map> {
        let h = key.iter().fold(0u64, |h, &w| (h.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95));
        self.shards[(h >> 58) as usize % SHARDS].lock().unwrap_or_else(PoisonError::into_inner)
    }
}
