//! `solve`: solutions, the summaries of a search and of a count, `--stats`.

use super::*;
use crate::stats::Stage;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Whether a puzzle has exactly one solution: `true`, `false` or `null` in JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// One solution, and the search was exhausted (`true`).
    Unique,
    /// At least two solutions (`false`).
    Several,
    /// Not decided: fewer than two solutions found and the search not exhausted (`null`).
    Undecided,
}

impl Uniqueness {
    /// The verdict of a search that found `found` solutions and was exhausted or not.
    pub fn of(found: usize, complete: bool) -> Uniqueness {
        match (found, complete) {
            (1, true) => Uniqueness::Unique,
            (n, _) if n >= 2 => Uniqueness::Several,
            _ => Uniqueness::Undecided,
        }
    }
}

impl Serialize for Uniqueness {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Uniqueness::Unique => s.serialize_bool(true),
            Uniqueness::Several => s.serialize_bool(false),
            Uniqueness::Undecided => s.serialize_none(),
        }
    }
}

impl<'de> Deserialize<'de> for Uniqueness {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Option::<bool>::deserialize(d)? {
            Some(true) => Uniqueness::Unique,
            Some(false) => Uniqueness::Several,
            None => Uniqueness::Undecided,
        })
    }
}

/// A solution: `{"type":"solution","grid":[rows…]}`, with `"entries"` for free layouts
/// and regex pools.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "solution")]
pub struct Solution {
    /// The display rows, top to bottom.
    pub grid: Vec<String>,
    /// Each entry's regex and word, in entry order (free layouts and regex pools only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub entries: Option<Vec<EntryWord>>,
}

/// An entry's label in JSON: a number when the label is one, else the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Label {
    /// A numbered entry.
    Number(u64),
    /// A named entry.
    Name(String),
}

impl From<String> for Label {
    fn from(s: String) -> Label {
        s.parse::<u64>().map_or(Label::Name(s), Label::Number)
    }
}

/// An entry of a solution: its label, the regex it matches and its word.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryWord {
    /// The entry's label.
    pub entry: Label,
    /// The regex (for a regex pool: the one assigned to the entry).
    pub regex: String,
    /// The entry's word in the solution.
    pub word: String,
}

/// A cell whose letter differs between the solutions found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmbiguousCell {
    /// The cell.
    pub cell: Cell,
    /// Its letters in the solutions, in order.
    pub values: Vec<String>,
    /// Its cell id (the wasm API's `analyse` only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub id: Option<usize>,
}

/// The summary of `solve --json` (also of `solve --model`: `"source": "model"`, no dialect).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct SolveSummary {
    /// Solutions found.
    pub solutions: usize,
    /// Whether the search was exhausted.
    pub complete: bool,
    /// The uniqueness verdict.
    pub unique: Uniqueness,
    /// `"model"` when the grid came from an external solver's model.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source: Option<String>,
    /// The puzzle's name, if it has one.
    pub puzzle: Option<String>,
    /// The cell alphabet, as one string.
    pub alphabet: String,
    /// The clues' dialect: `python` or `ecmascript`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub dialect: Option<String>,
    /// The cells whose letter differs between the solutions found (when some do).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ambiguous_cells: Option<Vec<AmbiguousCell>>,
    /// The labels of the clues through those cells.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ambiguous_clues: Option<Vec<String>>,
    /// With `--proof`: the proof's path, or `null` when there is no uniqueness to prove.
    #[serde(skip_serializing_if = "Option::is_none", default, deserialize_with = "double_option")]
    pub proof: Option<Option<String>>,
    /// With `--stats`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stats: Option<Stats>,
}

/// The start of the summary of a `solve` stopped before it finished (see [`Stopped`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct StoppedSolve {
    /// Solutions printed before the stop.
    pub solutions: usize,
    /// `false` with two solutions, else `null`.
    pub unique: Uniqueness,
    /// The puzzle's name (`null` when it was not read yet, or has none).
    pub puzzle: Option<String>,
    /// The alphabet (`null` when the puzzle was not read yet).
    pub alphabet: Option<String>,
}

impl StoppedSolve {
    /// The summary of a `solve` stopped after `found` solutions; `puzzle` and
    /// `alphabet` are those of the puzzle once it is read.
    pub fn new(puzzle: Option<String>, alphabet: Option<String>, found: usize) -> StoppedSolve {
        let unique = if found >= 2 { Uniqueness::Several } else { Uniqueness::Undecided };
        StoppedSolve { solutions: found, unique, puzzle, alphabet }
    }
}

/// A count of solutions in JSON: a number up to 2^53 (exact in every JSON reader), else
/// a string of digits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Count {
    /// Up to 2^53.
    Number(u64),
    /// Beyond 2^53: the decimal digits.
    Digits(String),
}

impl Count {
    /// The count `n` (`exact`: its value when it fits in a `u64`; `digits`: its decimal text).
    pub(crate) fn new(exact: Option<u64>, digits: impl FnOnce() -> String) -> Count {
        match exact.filter(|&k| k <= 1 << 53) {
            Some(k) => Count::Number(k),
            None => Count::Digits(digits()),
        }
    }
}

/// The summary of `solve --count --json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct CountSummary {
    /// Always 0: none are listed.
    pub solutions: usize,
    /// The exact number of solutions.
    pub count: Count,
    /// Always `true`: the count is exact.
    pub complete: bool,
    /// Whether the count is 1.
    pub unique: bool,
    /// The puzzle's name, if it has one.
    pub puzzle: Option<String>,
    /// The cell alphabet.
    pub alphabet: String,
    /// The clues' dialect.
    pub dialect: String,
    /// `"listing"` when the solutions were counted by listing them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub counted_by: Option<String>,
    /// With `--stats`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub stats: Option<Stats>,
}

/// The start of the summary of a count stopped before it finished (see [`Stopped`]):
/// no number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct StoppedCount {
    /// Always 0.
    pub solutions: usize,
    /// Always `null`.
    pub count: Option<Count>,
    /// Always `null`.
    pub unique: Option<bool>,
    /// The puzzle's name.
    pub puzzle: Option<String>,
    /// The alphabet.
    pub alphabet: Option<String>,
}

impl StoppedCount {
    /// The summary of a count that did not finish.
    pub fn new(puzzle: Option<String>, alphabet: Option<String>) -> StoppedCount {
        StoppedCount { solutions: 0, count: None, unique: None, puzzle, alphabet }
    }
}

/// Milliseconds per stage (`Stage::ALL`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageTimes {
    /// Parsing.
    pub parse_ms: f64,
    /// Compiling the clues.
    pub compile_ms: f64,
    /// Encoding the formula.
    pub encode_ms: f64,
    /// Solving.
    pub solve_ms: f64,
    /// Verifying the solutions.
    pub verify_ms: f64,
}

impl StageTimes {
    /// The times `ms` gives each stage.
    pub(crate) fn from_fn(ms: impl Fn(Stage) -> f64) -> StageTimes {
        StageTimes {
            parse_ms: ms(Stage::Parse),
            compile_ms: ms(Stage::Compile),
            encode_ms: ms(Stage::Encode),
            solve_ms: ms(Stage::Solve),
            verify_ms: ms(Stage::Verify),
        }
    }
}

/// `--stats` inside a summary: stage times, the formula's size, the difficulty, per clue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Per stage.
    pub times: StageTimes,
    /// Their sum.
    pub total_ms: f64,
    /// Wall-clock time.
    pub wall_ms: f64,
    /// Variables of the formula.
    pub variables: usize,
    /// Clauses of the formula.
    pub clauses: usize,
    /// Whether the SAT search ran (else propagation or the line search decided).
    pub searched: bool,
    /// Whether propagation over the position automata decided it before compiling.
    pub decided_before_compiling: bool,
    /// Nodes of the line search, when it decided the puzzle.
    pub line_search_nodes: Option<usize>,
    /// The difficulty rating.
    pub difficulty: Rating,
    /// Per clue.
    pub clues: Vec<ClueStats>,
}

/// One clue's compile route and encoding size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClueStats {
    /// Its label.
    pub clue: String,
    /// How it was compiled.
    pub route: String,
    /// States of its automaton before minimising.
    pub dfa_states: usize,
    /// States of its automaton.
    pub states: usize,
    /// States of its unrolled encoding.
    pub layered_states: usize,
    /// Variables of its encoding.
    pub vars: usize,
    /// Clauses of its encoding.
    pub clauses: usize,
}
