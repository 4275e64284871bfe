//! `list`: puzzles of collections and puzzle files.

use serde::{Deserialize, Serialize};

/// A puzzle of a collection (`list --json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "puzzle")]
pub struct CollectionPuzzle {
    /// `set/number`.
    pub key: String,
    /// Its id.
    pub id: String,
    /// Its title.
    pub name: String,
    /// `rows×cols` or `hexagonal`.
    pub size: String,
    /// Its dialect.
    pub dialect: String,
}

/// A puzzle file (`list --json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "puzzle")]
pub struct PuzzleListing {
    /// The file.
    pub key: String,
    /// The puzzle's name.
    pub name: Option<String>,
    /// Its shape and size.
    pub size: String,
    /// Its clues (`null` for a regex pool).
    pub clues: Option<usize>,
    /// Its dialect.
    pub dialect: String,
    /// A regex pool's entries.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub entries: Option<usize>,
    /// A regex pool's regexes.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pool: Option<usize>,
}
