//! crossat's own JSON format, read (`read`) and written ([`file()`]), plus two JSON
//! shapes seen in the wild that map onto it (read only):
//! the seed notebook's `{left_lines, right_lines, top_columns, bottom_columns}` and
//! `{width, height, top_hints, left_hints, bottom_hints, right_hints}`.
//!
//! ```json
//! {"name": "Beatles", "left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}
//! ```
//! Each side lists one entry per row (`left`, `right`) or column (`top`, `bottom`):
//! a regex string, `null` for no clue, or an array of regexes.

use super::{Clue, Dialect, Pool, Puzzle, RectClues, Shape};
use crate::error::{Error, Result};
use crate::records::{HexEntry, HexFile, PuzzleFile, RectFile};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

const KEYS: &[&str] = &["name", "rows", "cols", "alphabet", "dialect", "left", "right", "top", "bottom", "given", "comment"];
const ENTRY_KEYS: &[&str] = &["name", "layout", "side", "sides", "entries", "pool", "alphabet", "dialect", "given", "comment"];
const SIDE_ALIASES: [[&str; 3]; 4] = [
    ["left", "left_lines", "left_hints"],
    ["right", "right_lines", "right_hints"],
    ["top", "top_columns", "top_hints"],
    ["bottom", "bottom_columns", "bottom_hints"],
];

/// Reads a crossat JSON puzzle (or one of the aliased shapes); its `"dialect"` field
/// (`"python"`, the default, or `"ecmascript"`) says how its clues are read.
pub(crate) fn read(source: &str, text: &str) -> Result<Puzzle> {
    let value: Value = super::json::parse(text).map_err(|e| Error::input(source, format!("invalid JSON: {e}")))?;
    let Value::Object(obj) = value else {
        return Err(Error::input(source, "expected a JSON object describing one puzzle"));
    };
    let dialect = match obj.get("dialect") {
        None if super::hex::is_regexle(&obj) => Dialect::Ecmascript,
        None => Dialect::Python,
        Some(v) => v
            .as_str()
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| Error::input(source, format!("\"dialect\" must be \"python\" or \"ecmascript\", not {v}")))?,
    };
    let mut puzzle = read_object(source, &obj)?;
    puzzle.dialect = dialect;
    Ok(puzzle)
}

fn read_object(source: &str, obj: &Map<String, Value>) -> Result<Puzzle> {
    let has = |k: &str| obj.contains_key(k);
    if (has("x") && has("y")) || has("kind") {
        return super::hex::read_board(source, obj);
    }
    if has("entries") || has("layout") {
        return read_entries(source, obj);
    }
    let aliased = obj.keys().any(|k| k.ends_with("_lines") || k.ends_with("_columns") || k.ends_with("_hints"));
    if !aliased && let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(Error::input(source, format!("unknown key \"{k}\" (known keys: {})", KEYS.join(", "))));
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
    let rows = dim(source, obj, &["rows", "height"])?;
    let cols = dim(source, obj, &["cols", "width"])?;
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

/// A hexagon's side lengths: `"side": s` (regular) or `"sides": [top, nw, ne]`, each
/// positive, within the cell limit.
fn hex_sides(source: &str, obj: &Map<String, Value>) -> Result<super::hex::Sides> {
    use super::hex::{Sides, cells};
    let positive = |v: &Value| v.as_u64().filter(|&s| s >= 1).map(|s| s as usize);
    let sides = match (obj.get("side"), obj.get("sides")) {
        (Some(s), None) => positive(s).map(Sides::regular),
        (None, Some(Value::Array(v))) if v.len() == 3 => match v.iter().map(positive).collect::<Option<Vec<_>>>().as_deref() {
            Some(&[top, nw, ne]) => Some(Sides { top, nw, ne }),
            _ => None,
        },
        _ => None,
    };
    sides.filter(|&h| h.top.max(h.nw).max(h.ne) <= super::MAX_CELLS && cells(h) <= super::MAX_CELLS).ok_or_else(|| {
        Error::input(
            source,
            "a hexagon needs \"side\": a positive number, or \"sides\": [top, nw, ne], three positive numbers (within the cell limit)",
        )
    })
}

/// The general layout: `{"layout": "hexagon", "side": s, "entries": […]}` (or, for
/// a hexagon whose sides differ, `"sides": [top, nw, ne]`, see [`super::hex::Sides`]) or
/// `{"layout": "free", "entries": […], "pool": […]}`. Each entry is
/// `{"label": "…", "cells": [[row, col], …], "clues": ["regex", …]}`, its cells in
/// reading order. Hexagon cells are (row, index in row); free cells are any (row,
/// column) pairs, used to draw the grid. With `pool`, entries have no clues: each regex
/// of the pool is assigned to exactly one entry.
fn read_entries(source: &str, obj: &Map<String, Value>) -> Result<Puzzle> {
    if let Some(k) = obj.keys().find(|k| !ENTRY_KEYS.contains(&k.as_str())) {
        return Err(Error::input(source, format!("unknown key \"{k}\" (known keys: {})", ENTRY_KEYS.join(", "))));
    }
    let layout = obj.get("layout").and_then(Value::as_str).unwrap_or("free");
    let Some(Value::Array(entries)) = obj.get("entries") else { return Err(Error::input(source, "\"entries\" must be an array")) };
    let side = match layout {
        "hexagon" => Some(hex_sides(source, obj)?),
        "free" => None,
        other => {
            return Err(Error::input(source, format!("unknown layout '{other}' (hexagon or free; rectangles use left/right/top/bottom)")));
        }
    };
    // Cells by coordinate: for a hexagon the hexagon's own numbering, else first appearance.
    let mut ids: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    let mut parsed: Vec<(String, Vec<usize>, Vec<String>)> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let at = |m: &str| Error::input(source, format!("entry {}: {m}", i + 1));
        let label = e.get("label").and_then(Value::as_str).map_or_else(|| format!("entry {}", i + 1), str::to_string);
        let Some(Value::Array(cells)) = e.get("cells") else { return Err(at("\"cells\" must be an array of [row, column] pairs")) };
        let mut line = Vec::with_capacity(cells.len());
        for c in cells {
            let rc = c.as_array().filter(|v| v.len() == 2).and_then(|v| Some((v[0].as_u64()? as usize, v[1].as_u64()? as usize)));
            let Some((r, col)) = rc else { return Err(at("each cell must be a [row, column] pair of numbers")) };
            let id = match side {
                Some(h) => super::hex::id(h, r, col).ok_or_else(|| at(&format!("cell [{r}, {col}] is outside the {h}")))?,
                None => {
                    let next = ids.len();
                    *ids.entry((r, col)).or_insert(next)
                }
            };
            if line.contains(&id) {
                return Err(at(&format!("cell [{r}, {col}] is listed twice")));
            }
            line.push(id);
        }
        if line.is_empty() {
            return Err(at("an entry needs at least one cell"));
        }
        let clues = match e.get("clues") {
            None | Some(Value::Null) => vec![],
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(v)) => {
                v.iter().map(|x| x.as_str().map(str::to_string).ok_or_else(|| at("clues must be strings"))).collect::<Result<_>>()?
            }
            Some(_) => return Err(at("\"clues\" must be a regex or an array of regexes")),
        };
        parsed.push((label, line, clues));
    }
    let shape = match side {
        Some(h) => Shape::Hex(h),
        None => {
            if ids.len() > super::MAX_CELLS {
                return Err(Error::input_limit(source, format!("{} cells exceed the limit of {}", ids.len(), super::MAX_CELLS)));
            }
            let mut coords = vec![(0, 0); ids.len()];
            for (&rc, &id) in &ids {
                coords[id] = rc;
            }
            Shape::Free { cells: ids.len(), coords: Some(coords) }
        }
    };
    let pool = match obj.get("pool") {
        None | Some(Value::Null) => None,
        Some(Value::Array(v)) => {
            let regexes: Vec<String> = v
                .iter()
                .map(|x| x.as_str().map(str::to_string).ok_or_else(|| Error::input(source, "\"pool\" must hold regex strings")))
                .collect::<Result<_>>()?;
            if regexes.len() != parsed.len() {
                return Err(Error::input(
                    source,
                    format!(
                        "the pool has {} regexes for {} entries; each regex must be used by exactly one entry",
                        regexes.len(),
                        parsed.len()
                    ),
                ));
            }
            if let Some((l, _, _)) = parsed.iter().find(|p| !p.2.is_empty()) {
                return Err(Error::input(
                    source,
                    format!("{l}: entries of a pool puzzle take their regex from the pool and have no clues"),
                ));
            }
            Some(Pool {
                labels: parsed.iter().map(|p| p.0.clone()).collect(),
                entries: parsed.iter().map(|p| p.1.clone()).collect(),
                regexes,
            })
        }
        Some(_) => return Err(Error::input(source, "\"pool\" must be an array of regexes")),
    };
    let clues = parsed
        .iter()
        .flat_map(|(label, cells, clues)| clues.iter().map(|r| Clue { label: label.clone(), regex: r.clone(), cells: cells.clone() }))
        .collect();
    let n = shape.cells();
    let mut puzzle = Puzzle {
        name: obj.get("name").and_then(Value::as_str).map(str::to_string),
        shape,
        clues,
        alphabet: None,
        givens: vec![None; n],
        pool,
        dialect: Dialect::Python,
    };
    if let Some(a) = obj.get("alphabet") {
        let Some(a) = a.as_str() else { return Err(Error::input(source, "\"alphabet\" must be a string of characters")) };
        puzzle.alphabet = Some(a.chars().collect());
    }
    if let Some(g) = obj.get("given") {
        let rows = given_rows(source, g)?;
        puzzle.set_given_rows(source, &rows)?;
    }
    Ok(puzzle)
}

/// The puzzle in crossat's JSON format: a rectangle's `left`/`top` sides (and
/// `right`/`bottom` when some line has a second clue), a hexagon's `entries`; `None`
/// for a free layout. The clues must carry the labels `trux::lines` gives
/// their lines, a second clue on a line the label plus ` #2` (as `crossat generate`
/// labels them). The `"dialect"` field is written when it is not the default, Python.
pub(crate) fn file(p: &Puzzle) -> Option<PuzzleFile> {
    let dialect = (p.dialect != Dialect::Python).then(|| p.dialect.to_string());
    match &p.shape {
        Shape::Rect { rows, cols } => {
            let side = |prefix: &str, second: bool| -> Vec<Option<String>> {
                let count = if prefix == "row" { *rows } else { *cols };
                (0..count)
                    .map(|i| {
                        let label = format!("{prefix} {}{}", i + 1, if second { " #2" } else { "" });
                        p.clues.iter().find(|c| c.label == label).map(|c| c.regex.clone())
                    })
                    .collect()
            };
            let two = p.clues.iter().any(|c| c.label.ends_with("#2"));
            Some(PuzzleFile::Rect(RectFile {
                rows: *rows,
                cols: *cols,
                left: side("row", false),
                top: side("column", false),
                right: two.then(|| side("row", true)),
                bottom: two.then(|| side("column", true)),
                dialect,
            }))
        }
        Shape::Hex(h) => {
            let entries = p
                .clues
                .iter()
                .map(|c| {
                    let cells = c.cells.iter().map(|&x| <[usize; 2]>::from(super::hex::coords(*h, x))).collect();
                    HexEntry { label: c.label.clone(), cells, clues: vec![c.regex.clone()] }
                })
                .collect();
            let (side, sides) = match h.regular_side() {
                Some(side) => (Some(side), None),
                None => (None, Some([h.top, h.nw, h.ne])),
            };
            Some(PuzzleFile::Hex(HexFile { layout: "hexagon".into(), side, sides, entries, dialect }))
        }
        Shape::Free { .. } => None,
    }
}

/// [`file()`] as a JSON value (`null` for a free layout), for the tests that read it back.
#[cfg(test)]
pub(crate) fn write(p: &Puzzle) -> Value {
    serde_json::to_value(file(p)).expect("a record serializes")
}

#[cfg(test)]
mod tests {
    use super::{read, write};
    use crate::puzzle::Dialect;

    /// The crossat JSON writer keeps the dialect (written when it is not Python).
    #[test]
    fn crossat_json_round_trips_the_dialect() {
        let text = r#"{"left": ["a|\\8"], "top": ["[^]"], "dialect": "ecmascript"}"#;
        let p = read("t.json", text).expect("read");
        assert_eq!(p.dialect, Dialect::Ecmascript);
        let written = write(&p);
        assert_eq!(written["dialect"], "ecmascript");
        let reread = read("t.json", &written.to_string()).expect("reread");
        assert_eq!(reread.dialect, Dialect::Ecmascript);
        let python = read("t.json", r#"{"left": ["a"], "top": ["a"]}"#).expect("read");
        assert_eq!(python.dialect, Dialect::Python);
        assert!(write(&python).get("dialect").is_none());
    }
}
