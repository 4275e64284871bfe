//! `blocks` and `squares`: the dictionary puzzles.

use super::*;
use serde::{Deserialize, Serialize};

/// A building-blocks solution (`blocks --json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "solution")]
pub struct BlocksSolution {
    /// The words.
    pub words: Vec<String>,
    /// The blocks left over.
    pub unused: Vec<String>,
}

/// The summary of `blocks --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct BlocksSummary {
    /// Solutions found.
    pub solutions: usize,
    /// Whether the search was exhausted.
    pub complete: bool,
    /// The uniqueness verdict.
    pub unique: Uniqueness,
    /// The dictionary.
    pub dictionary: String,
    /// Its words.
    pub dictionary_words: usize,
}

/// A word square (`squares --json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "solution")]
pub struct Square {
    /// The rows.
    pub grid: Vec<String>,
    /// The words: rows, then columns.
    pub words: Vec<String>,
}

/// The summary of `squares --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct SquaresSummary {
    /// Squares printed.
    pub solutions: usize,
    /// Whether the search was exhausted.
    pub complete: bool,
    /// Cells per row.
    pub width: usize,
    /// Cells per column.
    pub height: usize,
    /// The seed.
    pub seed: u64,
    /// The dictionary.
    pub dictionary: String,
    /// Its words.
    pub dictionary_words: usize,
    /// Words that fit the square.
    pub usable_words: usize,
    /// Repeated words blocked.
    pub repeats_blocked: usize,
    /// The SAT route's clauses (`null` for the search).
    pub clauses: Option<usize>,
    /// `search` or `sat`.
    pub method: String,
    /// Search nodes.
    pub nodes: u64,
    /// Search restarts.
    pub restarts: u64,
    /// Cells given.
    pub given_cells: usize,
    /// Milliseconds spent.
    pub time_ms: f64,
}
