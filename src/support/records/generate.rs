//! `generate`, and the puzzle formats it writes (crossat JSON, `challenges.json`).

use super::*;
use serde::{Deserialize, Serialize};

/// A new puzzle (`generate --json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "puzzle")]
pub struct Generated {
    /// The puzzle in crossat's JSON format.
    pub crossat: Option<PuzzleFile>,
    /// The puzzle as antoine-trux text (`null` for a hexagon that is not regular).
    pub trux: Option<String>,
    /// The solution's rows.
    pub solution: Vec<String>,
    /// Always `true`.
    pub unique: bool,
    /// Its difficulty class (the rater's, even where `rating`'s class is `null`).
    pub difficulty: Difficulty,
    /// The numbers behind it.
    pub rating: Rating,
    /// Uniqueness checks the generator made.
    pub checks: usize,
    /// The seed.
    pub seed: u64,
    /// Milliseconds spent.
    pub time_ms: f64,
    /// The puzzle as a regexcrossword.com `challenges.json`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub challenges: Option<Vec<ChallengeSet>>,
}

/// The start of the summary of a `generate` stopped before it found a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct GenerateStopped {
    /// Puzzles printed before the stop: 0, or those of a `--batch` so far.
    pub puzzles: usize,
    /// The seed.
    pub seed: u64,
}

/// A puzzle in crossat's JSON format, as crossat writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PuzzleFile {
    /// A rectangle.
    Rect(RectFile),
    /// A hexagon.
    Hex(HexFile),
}

/// A rectangle: clues per side (`null` for a line without one).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RectFile {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Row clues, read left to right.
    pub left: Vec<Option<String>>,
    /// Column clues, read top to bottom.
    pub top: Vec<Option<String>>,
    /// Second row clues.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub right: Option<Vec<Option<String>>>,
    /// Second column clues.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub bottom: Option<Vec<Option<String>>>,
    /// The dialect, when not Python.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub dialect: Option<String>,
}

/// A hexagon: its side (or sides) and its lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexFile {
    /// Always `"hexagon"`.
    pub layout: String,
    /// The side of a regular hexagon.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub side: Option<usize>,
    /// The top, NW and NE sides of another.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub sides: Option<[usize; 3]>,
    /// The lines.
    pub entries: Vec<HexEntry>,
    /// The dialect, when not Python.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub dialect: Option<String>,
}

/// A hexagon's line: its label, cells and clue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexEntry {
    /// The label.
    pub label: String,
    /// The cells, in reading order.
    pub cells: Vec<Cell>,
    /// The clue (one).
    pub clues: Vec<String>,
}

/// A set of regexcrossword.com's `challenges.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeSet {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its puzzles.
    pub puzzles: Vec<ChallengePuzzle>,
}

/// A puzzle of `challenges.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ChallengePuzzle {
    /// A hexagon (`"hexagonal": true`): clues per row (`patternsY`), NW–SE diagonal
    /// (`patternsZ`) and NE–SW diagonal (`patternsX`).
    Hex {
        /// Its id.
        id: String,
        /// Its name.
        name: String,
        /// Always `true`.
        hexagonal: bool,
        /// Per row.
        #[serde(rename = "patternsY")]
        patterns_y: Vec<Vec<String>>,
        /// Per NW–SE diagonal.
        #[serde(rename = "patternsZ")]
        patterns_z: Vec<Vec<String>>,
        /// Per NE–SW diagonal.
        #[serde(rename = "patternsX")]
        patterns_x: Vec<Vec<String>>,
    },
    /// A rectangle: `[top, bottom]` per column, `[left, right]` per row.
    Rect {
        /// Its id.
        id: String,
        /// Its name.
        name: String,
        /// Per column.
        #[serde(rename = "patternsX")]
        patterns_x: Vec<Vec<Option<String>>>,
        /// Per row.
        #[serde(rename = "patternsY")]
        patterns_y: Vec<Vec<Option<String>>>,
    },
}
