//! `bench`: median stage times.

use super::*;
use serde::{Deserialize, Serialize};

/// A file `bench` could not read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "unreadable")]
pub struct Unreadable {
    /// The file.
    pub file: String,
    /// Why.
    pub reason: String,
}

/// A puzzle `bench` skipped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "skipped")]
pub struct Skipped {
    /// The puzzle.
    pub puzzle: String,
    /// Why.
    pub reason: String,
}

/// A puzzle's median times (`bench --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "puzzle")]
pub struct BenchPuzzle {
    /// The puzzle.
    pub puzzle: String,
    /// Solutions found.
    pub solutions: usize,
    /// Whether the search was exhausted.
    pub complete: bool,
    /// Whether it is unique.
    pub unique: bool,
    /// Median per stage.
    pub median: StageTimes,
    /// Their sum.
    pub total_ms: f64,
    /// Median wall-clock time.
    pub wall_ms: f64,
}

/// The summary of `bench --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct BenchSummary {
    /// Puzzles measured.
    pub puzzles: usize,
    /// Puzzles skipped.
    pub skipped: usize,
    /// Files not read.
    pub unreadable: usize,
    /// Runs per puzzle.
    pub repeat: usize,
    /// Per stage, the sum of the medians.
    pub sum_of_medians: StageTimes,
    /// Their sum.
    pub total_ms: f64,
    /// The sum of the median wall-clock times.
    pub wall_ms: f64,
}
