//! `check` and `hint`.

use super::*;
use serde::{Deserialize, Serialize};

/// A clue a full grid fails (`check`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "failure")]
pub struct Failure {
    /// The clue's label.
    pub clue: String,
    /// Its regex.
    pub regex: String,
    /// Its line's word.
    pub word: String,
    /// The first cell at which the clue can no longer match (`null`: at the end).
    pub cell: Option<Cell>,
}

/// A cell holding a character outside the alphabet (`check`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "unknown_char")]
pub struct UnknownChar {
    /// The cell.
    pub cell: Cell,
    /// Its character.
    #[serde(rename = "char")]
    pub ch: String,
}

/// Clues and filled cells that cannot all hold.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflict {
    /// The clues' labels.
    pub clues: Vec<String>,
    /// The filled cells.
    pub cells: Vec<Cell>,
}

/// The summary of `check --json`: for a full grid `complete`, `valid` and `failures`;
/// for a partial one whether it can be completed, in one way or more, or which clues
/// and cells conflict. Its `Default` has every field unset and `complete` false.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct CheckSummary {
    /// Whether the grid is full.
    pub complete: bool,
    /// A full grid: whether every clue matches.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub valid: Option<bool>,
    /// A full grid: how many clues fail.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub failures: Option<usize>,
    /// A partial grid: whether it can be completed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub completable: Option<bool>,
    /// A completable grid: whether in exactly one way.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub unique_completion: Option<bool>,
    /// A completable grid (command line): in how many ways, `null` when counting them
    /// would take long.
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "double_option")]
    pub completions: Option<Option<Count>>,
    /// A grid that cannot be completed: a minimal conflict.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub conflict: Option<Conflict>,
    /// …and the clues the entries on their own line break.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub broken: Option<Vec<String>>,
    /// A full grid that fails only because of lower-case letters: `true` (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub upper_case_valid: Option<bool>,
}

/// A player's entry that cannot be right (`hint --grid`), with the clues it breaks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "wrong")]
pub struct Wrong {
    /// The cell.
    pub cell: Cell,
    /// Its character.
    #[serde(rename = "char")]
    pub ch: String,
    /// The clues it breaks.
    pub clues: Vec<String>,
}

/// What shows a hint's cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HintReason {
    /// One clue alone.
    SingleLine,
    /// Several lines together.
    Lines,
    /// Only the search over the whole grid.
    Search,
}

/// A forced cell (`hint`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "hint")]
pub struct Hint {
    /// The cell.
    pub cell: Cell,
    /// Its letter.
    #[serde(rename = "char")]
    pub ch: String,
    /// What shows it.
    pub reason: HintReason,
    /// The clue, for a single-line hint.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub clue: Option<String>,
    /// The clues and filled cells that force it (with `--explain`, and a player's hints).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub because: Option<Conflict>,
}

/// The summary of `hint --json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct HintSummary {
    /// Whether the filled cells can be completed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub completable: Option<bool>,
    /// How many entries are wrong.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub wrong: Option<usize>,
    /// The conflict, when the cells cannot be completed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub conflict: Option<Conflict>,
    /// Hints given.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub hints: Option<usize>,
    /// Empty cells of the grid.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub empty_cells: Option<usize>,
}

/// A record `check --json` prints before its summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CheckRecord {
    /// A clue a full grid fails.
    Failure(Failure),
    /// A cell holding a character outside the alphabet.
    UnknownChar(UnknownChar),
}

/// A record `hint --json` prints before its summary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum HintRecord {
    /// A player's entry that cannot be right.
    Wrong(Wrong),
    /// A forced cell.
    Hint(Hint),
}
