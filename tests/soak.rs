//! Soak run (ignored by default): thousands of generated puzzles, each with a planted
//! answer, solved in one process; every answer must be the planted one and unique, and
//! the process's memory must stay flat.
//!
//! ```sh
//! CROSSAT_SOAK_PUZZLES=5000 cargo test --release --test integration soak -- --ignored --nocapture
//! ```

use crossat::Puzzle;
use crossat::generate::{self, Spec};
use crossat::puzzle::Shape;
use crossat::stop::Cancel;

/// Resident memory of this process, in kB (Linux).
fn rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()?.parse().ok()).unwrap_or(0)
}

#[test]
#[ignore = "a long run: CROSSAT_SOAK_PUZZLES=N cargo test --release --test integration soak -- --ignored"]
fn soak_planted_puzzles_keep_memory_flat() {
    let count: u64 = std::env::var("CROSSAT_SOAK_PUZZLES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let start = std::time::Instant::now();
    let mut samples = Vec::new();
    for seed in 0..count {
        let (rows, cols) = (2 + (seed % 6) as usize, 2 + (seed / 6 % 6) as usize);
        let spec = Spec {
            shape: Shape::Rect { rows, cols },
            sides: 1 + (seed % 2) as usize,
            text: None,
            backrefs: seed % 3 == 0,
            lookarounds: seed % 5 == 0,
            difficulty: None,
            seed,
        };
        let made = generate::generate(&spec, &mut |_| {}, &Cancel::never()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut prep =
            Puzzle::from_parsed("<soak>", made.puzzle.clone(), None, &Cancel::never()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let listed = prep.solutions(2).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let found: Vec<&Vec<char>> = listed.solutions.iter().map(|s| &s.grid.cells).collect();
        assert!(listed.complete && found.len() == 1, "seed {seed}: {} solutions, complete {}", found.len(), listed.complete);
        assert_eq!(found[0], &made.solution, "seed {seed}: not the planted answer");
        if seed % (count / 20).max(1) == 0 {
            samples.push((seed, rss_kb()));
        }
    }
    samples.push((count, rss_kb()));
    eprintln!("soak: {count} puzzles in {:.1} s; resident memory (puzzle, kB): {samples:?}", start.elapsed().as_secs_f64());
    // Flat: after the first tenth (allocator and caches warm), memory grows by less than
    // 10 MB however many puzzles follow.
    let warm = samples[samples.len() / 10].1;
    let last = samples.last().map_or(0, |s| s.1);
    assert!(last < warm + 10_000, "memory grew from {warm} kB to {last} kB");
}
