//! crossat's own JSON format, plus two JSON shapes seen in the wild that map onto it:
//! the seed notebook's `{left_lines, right_lines, top_columns, bottom_columns}` and
//! `{width, height, top_hints, left_hints, bottom_hints, right_hints}`.
//!
//! ```json
//! {"name": "Beatles", "left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}
//! ```
//! Each side lists one entry per row (`left`, `right`) or column (`top`, `bottom`):
//! a regex string, `null` for no clue, or an array of regexes.

use super::{Puzzle, RectClues};
use crate::error::{Error, Result};
use serde_json::{Map, Value};

const KEYS: &[&str] = &["name", "rows", "cols", "alphabet", "left", "right", "top", "bottom", "given", "comment"];
const SIDE_ALIASES: [[&str; 3]; 4] = [
    ["left", "left_lines", "left_hints"],
    ["right", "right_lines", "right_hints"],
    ["top", "top_columns", "top_hints"],
    ["bottom", "bottom_columns", "bottom_hints"],
];

/// Reads a crossat JSON puzzle (or one of the aliased shapes).
pub fn read(source: &str, text: &str) -> Result<Puzzle> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::input(source, format!("invalid JSON: {e}")))?;
    let Value::Object(obj) = value else {
        return Err(Error::input(source, "expected a JSON object describing one puzzle"));
    };
    let aliased = obj.keys().any(|k| k.ends_with("_lines") || k.ends_with("_columns") || k.ends_with("_hints"));
    if !aliased {
        if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(Error::input(source, format!("unknown key \"{k}\" (known keys: {})", KEYS.join(", "))));
        }
    }
    let side = |names: &[&str; 3]| -> Result<Option<Vec<Vec<String>>>> {
        let key = names.iter().find(|k| obj.contains_key(**k));
        match key.map(|k| (k, &obj[*k])) {
            None | Some((_, Value::Null)) => Ok(None),
            Some((k, v)) => side_clues(source, k, v).map(Some),
        }
    };
    let sides = RectClues {
        left: side(&SIDE_ALIASES[0])?,
        right: side(&SIDE_ALIASES[1])?,
        top: side(&SIDE_ALIASES[2])?,
        bottom: side(&SIDE_ALIASES[3])?,
    };
    let rows = dim(source, &obj, &["rows", "height"])?;
    let cols = dim(source, &obj, &["cols", "width"])?;
    let name = obj.get("name").and_then(Value::as_str).map(str::to_string);
    let mut puzzle = Puzzle::rect(source, name, rows, cols, sides)?;
    if let Some(a) = obj.get("alphabet") {
        let Some(a) = a.as_str() else {
            return Err(Error::input(source, "\"alphabet\" must be a string of characters"));
        };
        puzzle.alphabet = Some(a.chars().collect());
    }
    if let Some(g) = obj.get("given") {
        let rows = given_rows(source, g)?;
        puzzle.set_given_rows(source, &rows)?;
    }
    Ok(puzzle)
}

fn dim(source: &str, obj: &Map<String, Value>, keys: &[&str]) -> Result<Option<usize>> {
    let Some((k, v)) = keys.iter().find_map(|k| obj.get(*k).map(|v| (k, v))) else {
        return Ok(None);
    };
    v.as_u64().map(|n| Some(n as usize)).ok_or_else(|| Error::input(source, format!("\"{k}\" must be a non-negative integer")))
}

fn side_clues(source: &str, key: &str, v: &Value) -> Result<Vec<Vec<String>>> {
    let Value::Array(items) = v else {
        return Err(Error::input(source, format!("\"{key}\" must be an array (one entry per line) or null")));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            Value::Null => Ok(vec![]),
            Value::String(s) => Ok(vec![s.clone()]),
            Value::Array(list) => list
                .iter()
                .map(|x| {
                    x.as_str().map(str::to_string).ok_or_else(|| Error::input(source, format!("\"{key}\"[{i}]: clues must be strings")))
                })
                .collect(),
            _ => Err(Error::input(source, format!("\"{key}\"[{i}] must be a regex string, an array of them, or null"))),
        })
        .collect()
}

fn given_rows(source: &str, v: &Value) -> Result<Vec<Vec<Option<char>>>> {
    let Value::Array(rows) = v else {
        return Err(Error::input(source, "\"given\" must be an array of rows"));
    };
    rows.iter()
        .enumerate()
        .map(|(r, row)| match row {
            Value::String(s) => Ok(s.chars().map(|c| if c == '.' { None } else { Some(c) }).collect()),
            Value::Array(cells) => cells
                .iter()
                .map(|c| match c {
                    Value::Null => Ok(None),
                    Value::String(s) if s.chars().count() == 1 => Ok(s.chars().next()),
                    _ => Err(Error::input(source, format!("\"given\" row {}: each cell must be a one-character string or null", r + 1))),
                })
                .collect(),
            _ => Err(Error::input(source, format!("\"given\" row {} must be a string ('.' = empty) or an array", r + 1))),
        })
        .collect()
}
