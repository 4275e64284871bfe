//! `explain`: the steps and the summary.

use super::*;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A step's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepKind {
    /// One clue's line.
    Line,
    /// A regex pool's assignment.
    Assign,
    /// A case split.
    Split,
    /// The SAT search.
    Search,
}

/// A top-level step of `explain --json`: `{"type":"step", …}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "step")]
pub struct StepRecord {
    /// The step.
    #[serde(flatten)]
    pub step: Step,
}

/// A step of an explanation (inside a split, without `"type"`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// Its number (from 1, within its split).
    pub number: usize,
    /// Its kind.
    pub kind: StepKind,
    /// The line's label, for a line step.
    pub line: Option<String>,
    /// The cells it changes.
    pub cells: Vec<Cell>,
    /// Per cell, the letters removed.
    pub removed: Vec<String>,
    /// Per cell, the letters left.
    pub remaining: Vec<String>,
    /// The numbers of the earlier steps it uses.
    pub uses: Vec<usize>,
    /// Why, in words.
    pub reason: String,
    /// Whether the step is beyond what the answer needs.
    #[serde(skip_serializing_if = "is_false", default)]
    pub extra: bool,
    /// A regex pool's entries whose candidate regexes change.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub entries: Option<Vec<EntryChange>>,
    /// A split's assumption.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub assume: Option<Assumption>,
    /// A split's sub-steps.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub steps: Option<Vec<Step>>,
    /// For a line step of a clue, the clue's index among the puzzle's clues (not in the
    /// JSON, which names the line by `line`: clues on one line share its label).
    #[serde(skip)]
    pub clue: Option<usize>,
}

/// A regex pool entry's candidates changed by a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryChange {
    /// The entry.
    pub entry: String,
    /// The regexes removed.
    pub removed: Vec<String>,
    /// The regexes left.
    pub remaining: Vec<String>,
}

/// What a case split assumes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Assumption {
    /// A letter in a cell.
    Cell {
        /// The cell.
        cell: Cell,
        /// The letter.
        letter: String,
    },
    /// A regex for a pool entry.
    Entry {
        /// The entry.
        entry: String,
        /// The regex.
        regex: String,
    },
}

/// The answer an explanation shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    /// One solution.
    Unique,
    /// No solution.
    None,
    /// More than one.
    Several,
    /// Not known (a limit).
    Unknown,
}

/// Labels with a value each, in order: a JSON object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairs<V>(pub Vec<(String, V)>);

impl<V: Serialize> Serialize for Pairs<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Pairs<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> serde::de::Visitor<'de> for Visit<V> {
            type Value = Pairs<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Pairs<V>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = m.next_entry()? {
                    out.push(entry);
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(Visit(std::marker::PhantomData))
    }
}

/// The summary of `explain --json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct ExplainSummary {
    /// The answer.
    pub answer: Answer,
    /// Whether line steps and case splits alone fixed every cell.
    pub unique_by_deduction: bool,
    /// Top-level steps.
    pub steps: usize,
    /// Top-level line steps.
    pub line: usize,
    /// Top-level assign steps (a regex pool's).
    pub assign: usize,
    /// Top-level case splits.
    pub split: usize,
    /// Top-level search steps.
    pub search: usize,
    /// The difficulty the steps show (`null` without a single answer).
    pub difficulty: Option<Difficulty>,
    /// The solution's rows, when unique.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub grid: Option<Vec<String>>,
    /// A regex pool's entries and the regex the steps fixed for each (`null` where none).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub assignment: Option<Pairs<Option<String>>>,
}
