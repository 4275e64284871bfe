//! `lint`: clues whose meaning differs between the dialects.

use serde::{Deserialize, Serialize};

/// A clue whose meaning differs between the dialects (`lint --json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "clue")]
pub struct LintClue {
    /// The puzzle's name or key.
    pub puzzle: String,
    /// The clue's label.
    pub clue: String,
    /// Its regex.
    pub regex: String,
    /// Its line's length.
    pub length: usize,
    /// How it differs.
    #[serde(flatten)]
    pub verdict: LintVerdict,
}

/// How a clue's meaning differs between Python and ECMAScript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "lowercase")]
pub enum LintVerdict {
    /// A word of the line's length that one dialect matches and the other does not.
    Differs {
        /// The word.
        witness: String,
        /// Whether Python matches it.
        python: bool,
        /// Whether ECMAScript matches it.
        ecmascript: bool,
    },
    /// One dialect or both refuse the clue.
    Refused {
        /// Python's error.
        python_error: Option<String>,
        /// ECMAScript's error.
        ecmascript_error: Option<String>,
    },
    /// Not decided.
    Undecided {
        /// Why.
        reason: String,
    },
}

/// The summary of `lint --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct LintSummary {
    /// Puzzles linted.
    pub puzzles: usize,
    /// Clues linted.
    pub clues: usize,
    /// Clues that differ.
    pub differ: usize,
    /// Clues one dialect refuses.
    pub refused_by_one: usize,
    /// Clues both refuse.
    pub refused_by_both: usize,
    /// Clues not decided.
    pub undecided: usize,
}
