//! The wasm API's own records (web/API.md): `view()`, `status()`, `analyse()`.

use super::*;
use serde::{Deserialize, Serialize};

/// Everything needed to draw a puzzle (`view()`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The puzzle's name.
    pub name: Option<String>,
    /// Its shape.
    pub shape: ViewShape,
    /// The side of a regular hexagon.
    pub hexagon_side: Option<usize>,
    /// Per cell id.
    pub cells: Vec<ViewCell>,
    /// The cell ids of each display row.
    pub rows: Vec<Vec<usize>>,
    /// The clues, in puzzle order.
    pub clues: Vec<ViewClue>,
    /// Per cell, its given letter.
    pub givens: Vec<Option<String>>,
    /// The alphabet.
    pub alphabet: Vec<String>,
    /// A regex pool.
    pub pool: Option<ViewPool>,
    /// The clues' dialect.
    pub dialect: String,
}

/// A puzzle's shape in [`View`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ViewShape {
    /// A rectangle.
    Rect {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// A hexagon.
    Hex {
        /// Top, NW and NE sides.
        sides: [usize; 3],
    },
    /// A free layout.
    Free,
}

/// A cell in [`View`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewCell {
    /// Its row.
    pub row: usize,
    /// Its column (within its row for a hexagon).
    pub col: usize,
    /// Where to draw it, in cell units.
    pub x: f64,
    /// Where to draw it, in cell units.
    pub y: usize,
    /// How messages name it.
    pub name: String,
}

/// A clue in [`View`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewClue {
    /// Its label.
    pub label: String,
    /// Its regex.
    pub regex: String,
    /// Its cell ids, in reading order.
    pub cells: Vec<usize>,
    /// Where it stands: `left`, `right`, `top`, `bottom`, `nw-se`, `ne-sw` or `entry`.
    pub side: String,
}

/// A regex pool in [`View`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewPool {
    /// The entries' labels.
    pub labels: Vec<String>,
    /// The entries' cell ids.
    pub entries: Vec<Vec<usize>>,
    /// The regexes.
    pub regexes: Vec<String>,
}

/// A clue's status on a partial grid (`status()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClueStatus {
    /// The line is full and the clue matches it.
    Satisfied,
    /// Some completion of the line matches.
    Possible,
    /// None does.
    Broken,
    /// Not decided (treat as possible).
    Unknown,
}

/// For setters (`analyse()`): solutions up to a bound, the cells that differ, the count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "analysis")]
pub struct Analysis {
    /// Solutions listed.
    pub solutions: usize,
    /// Whether that is all of them.
    pub complete: bool,
    /// The uniqueness verdict.
    pub unique: Uniqueness,
    /// Their rows.
    pub grids: Vec<Vec<String>>,
    /// The cells that differ (with their ids).
    pub ambiguous_cells: Vec<AmbiguousCell>,
    /// The clues through them.
    pub ambiguous_clues: Vec<String>,
    /// The exact count, when known.
    pub count: Option<Count>,
    /// `timeout` when the listing ran out of time.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reason: Option<StopReason>,
}
