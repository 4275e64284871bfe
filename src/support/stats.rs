//! Per-stage timing and sizes, for `--stats` and `crossat bench`.

use crate::clock::Instant;
use std::time::Duration;

/// The pipeline stages, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Reading the puzzle.
    Parse,
    /// Clues to automata.
    Compile,
    /// Automata to CNF.
    Encode,
    /// SAT search, including the uniqueness proof.
    Solve,
    /// Independent re-check of every solution.
    Verify,
}

/// Time spent per stage, and the wall-clock time of the whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Times {
    stages: [Duration; 5],
    wall: Duration,
}

impl Times {
    /// Runs `f` and adds its time to `stage`.
    pub(crate) fn time<T>(&mut self, stage: Stage, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = f();
        self.add(stage, t.elapsed());
        r
    }

    /// Adds `d` to `stage`.
    pub(crate) fn add(&mut self, stage: Stage, d: Duration) {
        self.stages[stage as usize] += d;
    }

    /// Adds `d` to the wall-clock time.
    pub(crate) fn add_wall(&mut self, d: Duration) {
        self.wall += d;
    }

    /// Time of one stage.
    pub(crate) fn get(&self, stage: Stage) -> Duration {
        self.stages[stage as usize]
    }

    /// Sum over all stages.
    pub(crate) fn total(&self) -> Duration {
        self.stages.iter().sum()
    }

    /// Wall-clock time.
    pub(crate) fn wall(&self) -> Duration {
        self.wall
    }
}

/// Milliseconds as a float, for printing.
pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
