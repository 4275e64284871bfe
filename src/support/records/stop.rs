//! The summaries of commands stopped before they finished (a time limit, a signal).

use serde::{Deserialize, Serialize, Serializer};

/// Why a command stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StopReason {
    /// Its time limit passed.
    Timeout,
    /// A signal (SIGINT, SIGTERM).
    Interrupted,
}

/// The summary of a command stopped before it finished: `record` (the command's
/// partial summary) then `"complete": false` and `"reason"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stopped<T> {
    /// What was found before the stop.
    #[serde(flatten)]
    pub record: T,
    /// Always `false`.
    pub complete: bool,
    /// Why it stopped.
    pub reason: StopReason,
}

impl<T> Stopped<T> {
    /// `record`, stopped for `reason`.
    pub fn new(record: T, reason: StopReason) -> Stopped<T> {
        Stopped { record, complete: false, reason }
    }
}

/// `{"type":"summary"}`: the start of the summary of a command stopped before it
/// printed anything (`check`, `explain`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "summary")]
pub struct Unfinished {}

/// `{"type":"summary", KEY: n}`: the start of the summary of a command stopped after
/// printing `n` results (`"hints"`, `"solutions"`, `"puzzles"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Printed {
    /// The field's name.
    pub key: &'static str,
    /// Results printed.
    pub n: usize,
}

impl Serialize for Printed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("type", "summary")?;
        m.serialize_entry(self.key, &self.n)?;
        m.end()
    }
}
