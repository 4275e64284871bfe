//! The records crossat prints for programs: one type per JSON record of the command
//! line's `--json` output (JSON Lines, one record a line) and of the wasm API
//! (`web/crate`, which returns the same records as JSON arrays). Both front ends
//! serialize these types, so a record is defined once; the stages and features build
//! them (`crate::emit`, [`crate::assist`], [`crate::Puzzle::explain`], [`crate::lint`]).
//!
//! Field order is the order of the struct fields (serde_json keeps it), and it is part
//! of the output: `scripts/compare_outputs` diffs the bytes. A field that is absent in
//! some records is an `Option` skipped when `None`; a field that may be `null` is an
//! `Option` that is always written. docs/cli.md and web/API.md describe the records;
//! `tests/records.rs` checks that every line the command line prints parses as one of
//! these types and prints back the same bytes.
//!
//! A record with a `"type"` field has it first, from `#[serde(tag = "type")]`: `"solution"`,
//! `"summary"`, `"step"`, and so on.

use serde::{Deserialize, Deserializer};

mod assist;
mod bench;
mod explain;
mod generate;
mod lint;
mod list;
mod rating;
mod solve;
mod stop;
mod web;
mod words;

pub use assist::*;
pub use bench::*;
pub use explain::*;
pub use generate::*;
pub use lint::*;
pub use list::*;
pub use rating::*;
pub use solve::*;
pub use stop::*;
pub use web::*;
pub use words::*;

/// A cell in JSON: `[row, column]`, 0-based, as `crossat::puzzle::Shape::coords` gives it.
pub type Cell = [usize; 2];

/// One JSON Lines record: `value` as one line of JSON, without the newline.
#[cfg(test)]
pub(crate) fn line<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("a record serializes")
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Reads a field that may be absent (`None`), `null` (`Some(None)`) or a value.
fn double_option<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniqueness_is_true_false_or_null() {
        let s = |u: Uniqueness| line(&u);
        assert_eq!([s(Uniqueness::of(1, true)), s(Uniqueness::of(2, false)), s(Uniqueness::of(1, false))], ["true", "false", "null"]);
        assert_eq!(Uniqueness::of(0, true), Uniqueness::Undecided);
        for u in [Uniqueness::Unique, Uniqueness::Several, Uniqueness::Undecided] {
            assert_eq!(serde_json::from_str::<Uniqueness>(&s(u)).ok(), Some(u));
        }
    }

    #[test]
    fn a_stopped_record_ends_with_complete_and_reason() {
        let r = Stopped::new(Printed { key: "hints", n: 3 }, StopReason::Timeout);
        assert_eq!(line(&r), r#"{"type":"summary","hints":3,"complete":false,"reason":"timeout"}"#);
        let r = Stopped::new(Unfinished {}, StopReason::Interrupted);
        assert_eq!(line(&r), r#"{"type":"summary","complete":false,"reason":"interrupted"}"#);
    }

    #[test]
    fn absent_null_and_present_round_trip() {
        for text in [
            r#"{"type":"summary","complete":false,"completable":true,"unique_completion":false,"completions":null}"#,
            r#"{"type":"summary","complete":false,"completable":true,"unique_completion":true}"#,
            r#"{"type":"summary","complete":false,"completable":true,"unique_completion":false,"completions":"123456789012345678901"}"#,
        ] {
            let r: CheckSummary = serde_json::from_str(text).expect("parses");
            assert_eq!(line(&r), text);
        }
        assert_eq!(Count::new(Some(1 << 53), String::new), Count::Number(1 << 53));
        assert_eq!(Count::new(Some((1 << 53) + 1), || "x".into()), Count::Digits("x".into()));
    }
}
