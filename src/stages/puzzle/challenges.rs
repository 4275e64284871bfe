//! regexcrossword.com's `challenges.json`: a list of sets, each with puzzles; read
//! (`read`, [`read_all`]) and written ([`sets`]).
//!
//! Rectangular puzzles: `patternsY[i] = [left, right?]` are the clues of row i,
//! `patternsX[j] = [top, bottom?]` those of column j; every clue reads left to right or
//! top to bottom; an empty string means "no clue". Hexagonal puzzles
//! (`"hexagonal": true`) list rows and the two diagonal families; the number of lines
//! on each axis gives the side lengths (`Sides::from_lines`).

use super::{CollectionEntry, Puzzle, RectClues, Shape};
use crate::error::{Error, Result};
use crate::records::{ChallengePuzzle, ChallengeSet, PuzzleFile};
use serde_json::Value;

fn puzzles(source: &str, text: &str) -> Result<Vec<(String, Value)>> {
    let value: Value = super::json::parse(text).map_err(|e| Error::input(source, format!("invalid JSON: {e}")))?;
    let Value::Array(sets) = value else {
        return Err(Error::input(source, "expected a JSON array of challenge sets"));
    };
    let mut out = Vec::new();
    let mut ids = std::collections::HashMap::new();
    let mut set_ids = std::collections::HashSet::new();
    for (si, set) in sets.into_iter().enumerate() {
        let set_id = set.get("id").and_then(Value::as_str).map_or_else(|| format!("set{}", si + 1), str::to_string);
        let Some(Value::Array(ps)) = set.get("puzzles").cloned() else {
            return Err(Error::input(source, format!("challenge set {set_id} has no \"puzzles\" array")));
        };
        for (pi, p) in ps.into_iter().enumerate() {
            let key = format!("{set_id}/{}", pi + 1);
            if let Some(id) = p.get("id").and_then(Value::as_str).filter(|id| !id.is_empty())
                && let Some(first) = ids.insert(id.to_string(), key.clone())
            {
                return Err(Error::input(source, format!("puzzles {first} and {key} have the same id '{id}'")));
            }
            if pi == 0 && !set_ids.insert(set_id.clone()) {
                return Err(Error::input(source, format!("two challenge sets have the same id '{set_id}'")));
            }
            out.push((key, p));
        }
    }
    Ok(out)
}

/// Reads the puzzle picked by `id`: its UUID, `set/number` (1-based) or its exact name;
/// without one, the collection's only puzzle (as `generate --output-format challenges`
/// writes).
pub(crate) fn read(source: &str, text: &str, id: Option<&str>) -> Result<Puzzle> {
    let all = puzzles(source, text)?;
    let Some(id) = id else {
        return match all.as_slice() {
            [(key, p)] => build(source, key, p),
            [] => Err(Error::input(source, "the collection holds no puzzle")),
            _ => Err(Error::Request(crate::error::RequestError::IdNeeded { source: source.to_string(), puzzles: all.len() })),
        };
    };
    let matches = |(key, p): &&(String, Value)| {
        key == id || p.get("id").and_then(Value::as_str) == Some(id) || p.get("name").and_then(Value::as_str) == Some(id)
    };
    let mut found = all.iter().filter(matches);
    let Some((key, p)) = found.next() else {
        return Err(Error::input(source, format!("no puzzle with id, set/number or name '{id}'")));
    };
    if let Some((other, _)) = found.next() {
        return Err(Error::input(source, format!("'{id}' names both {key} and {other}: pick one by its set/number")));
    }
    build(source, key, p)
}

/// Every puzzle of the collection ([`super::read_collection`]), each read on its own.
pub(crate) fn read_all(source: &str, text: &str) -> Result<Vec<CollectionEntry>> {
    Ok(puzzles(source, text)?
        .into_iter()
        .map(|(key, p)| {
            let n = |k: &str| p.get(k).and_then(Value::as_array).map_or(0, Vec::len);
            let size = if p.get("hexagonal").and_then(Value::as_bool).unwrap_or(false) {
                super::hex::Sides::from_lines(source, n("patternsY"), n("patternsZ"), n("patternsX"))
                    .map_or_else(|_| "hexagonal, line counts fit no hexagon".to_string(), |h| h.to_string())
            } else {
                format!("{}x{}", n("patternsY"), n("patternsX"))
            };
            let s = |k: &str| p.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let puzzle = build(source, &key, &p).and_then(|q| super::check_limits(source, &q).map(|()| q));
            CollectionEntry { id: s("id"), name: s("name"), size, puzzle, key }
        })
        .collect())
}

/// Builds the puzzle `key` of a collection from its JSON object.
fn build(source: &str, key: &str, p: &Value) -> Result<Puzzle> {
    // The site checks answers with the browser's `RegExp`.
    let mut puzzle = build_shape(source, key, p)?;
    puzzle.dialect = super::Dialect::Ecmascript;
    Ok(puzzle)
}

fn build_shape(source: &str, key: &str, p: &Value) -> Result<Puzzle> {
    let name = p.get("name").and_then(Value::as_str).map(|n| format!("{key} {n}"));
    let lines = |k: &str| -> Result<Vec<Vec<String>>> {
        let Some(Value::Array(v)) = p.get(k) else {
            return Err(Error::input(source, format!("puzzle {key} has no \"{k}\" array")));
        };
        v.iter()
            .map(|pair| match pair {
                Value::Array(cl) => cl
                    .iter()
                    .map(|c| {
                        c.as_str()
                            .map(str::to_string)
                            .ok_or_else(|| Error::input(source, format!("puzzle {key}: \"{k}\" clues must be strings")))
                    })
                    .collect(),
                _ => Err(Error::input(source, format!("puzzle {key}: \"{k}\" entries must be arrays of clues"))),
            })
            .collect()
    };
    let (ys, xs) = (lines("patternsY")?, lines("patternsX")?);
    if p.get("hexagonal").and_then(Value::as_bool).unwrap_or(false) {
        // patternsY: rows left to right; patternsZ[k]: NW–SE diagonal k read upward;
        // patternsX[k]: NE–SW diagonal k read downward. Empty strings mean no clue.
        use super::hex::{Axis, Read};
        let drop_empty = |v: Vec<Vec<String>>| -> Vec<Vec<String>> {
            v.into_iter().map(|l| l.into_iter().filter(|c| !c.is_empty()).collect()).collect()
        };
        let zs = drop_empty(lines("patternsZ")?);
        let in_puzzle = |e: Error| match e {
            Error::Input(e) => Error::Input(crate::error::InputError { message: format!("puzzle {key}: {}", e.message), ..e }),
            other => other,
        };
        let puzzle = super::hex::puzzle(
            source,
            name,
            drop_empty(ys),
            Axis { lines: zs, read: Read::Up },
            Axis { lines: drop_empty(xs), read: Read::Down },
        )
        .map_err(in_puzzle)?;
        // The site's `solutionMap` permutes the cells to store answers; it does not
        // change the layout, but its length must be the hexagon's number of cells.
        if let Some(map) = p.get("solutionMap").and_then(Value::as_array)
            && map.len() != puzzle.shape.cells()
        {
            return Err(Error::input(
                source,
                format!(
                    "puzzle {key}: \"solutionMap\" has {} entries but the {} has {} cells",
                    map.len(),
                    puzzle.shape,
                    puzzle.shape.cells()
                ),
            ));
        }
        return Ok(puzzle);
    }
    // Split [first, second] into the two sides; "" means no clue there.
    let side = |v: &[Vec<String>], k: usize| -> Option<Vec<Vec<String>>> {
        let s: Vec<Vec<String>> = v.iter().map(|cl| cl.get(k).filter(|c| !c.is_empty()).cloned().into_iter().collect()).collect();
        s.iter().any(|c| !c.is_empty()).then_some(s)
    };
    if let Some((i, _)) = ys.iter().chain(&xs).enumerate().find(|(_, cl)| cl.len() > 2) {
        return Err(Error::input(source, format!("puzzle {key}: line {} has more than two clues", i + 1)));
    }
    let sides = RectClues { left: side(&ys, 0), right: side(&ys, 1), top: side(&xs, 0), bottom: side(&xs, 1) };
    Puzzle::rect(source, name, Some(ys.len()), Some(xs.len()), sides)
}

/// The puzzle in the shape of regexcrossword.com's `challenges.json`: one set holding
/// one puzzle. A rectangle has `patternsY` per row `[left, right]` and `patternsX` per
/// column `[top, bottom]`; a hexagon (`"hexagonal": true`) has `patternsY` per row (read
/// left to right), `patternsZ` per NW–SE diagonal (read upward) and `patternsX` per
/// NE–SW diagonal (read downward), each diagonal family from left to right along the
/// top — as `read` takes them. `None` for a free shape, which the format cannot hold.
/// The clues must carry the labels `trux::lines` gives their lines, a second
/// clue on a line the label plus ` #2` (as `crossat generate` labels them).
pub(crate) fn sets(p: &Puzzle, id: &str) -> Option<Vec<ChallengeSet>> {
    let (id, name) = (id.to_string(), id.to_string());
    let puzzle = match (&p.shape, super::native::file(p)?) {
        (Shape::Rect { .. }, PuzzleFile::Rect(f)) => {
            let pairs = |first: &[Option<String>], second: &Option<Vec<Option<String>>>| -> Vec<Vec<Option<String>>> {
                first
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let mut pair = vec![c.clone()];
                        if let Some(b) = second {
                            pair.push(b[i].clone());
                        }
                        pair
                    })
                    .collect()
            };
            ChallengePuzzle::Rect { id, name, patterns_x: pairs(&f.top, &f.bottom), patterns_y: pairs(&f.left, &f.right) }
        }
        (Shape::Hex(h), _) => {
            // The generator's lines carry the labels of `hex::lines` (rows, NW–SE read
            // up, NE–SW read down): each field lists its family by index.
            let family = |count: usize, label: &dyn Fn(usize) -> String| -> Vec<Vec<String>> {
                (0..count)
                    .map(|k| {
                        let l = label(k);
                        let two = format!("{l} #2");
                        p.clues.iter().filter(|c| c.label == l || c.label == two).map(|c| c.regex.clone()).collect()
                    })
                    .collect()
            };
            ChallengePuzzle::Hex {
                id,
                name,
                hexagonal: true,
                patterns_y: family(h.rows(), &|k| format!("row {}", k + 1)),
                patterns_z: family(h.nw_se_lines(), &|k| format!("NW-SE diagonal {} (read up)", k + 1)),
                patterns_x: family(h.ne_sw_lines(), &|k| format!("NE-SW diagonal {} (read down)", k + 1)),
            }
        }
        _ => return None,
    };
    Some(vec![ChallengeSet { id: "generated".into(), name: "Generated by crossat".into(), puzzles: vec![puzzle] }])
}

/// [`sets`] as a JSON value, for the tests that read it back.
#[cfg(test)]
pub(crate) fn write(p: &Puzzle, id: &str) -> Option<Value> {
    sets(p, id).map(|s| serde_json::to_value(&s).expect("a record serializes"))
}

#[cfg(test)]
mod tests {
    use super::write;
    use crate::puzzle::{Puzzle, Shape};

    /// A shape with no format of its own has no challenges shape.
    #[test]
    fn a_free_shape_has_no_challenges_shape() {
        let p = Puzzle {
            name: None,
            shape: Shape::Free { cells: 2, coords: None },
            clues: vec![],
            alphabet: None,
            givens: vec![None; 2],
            pool: None,
            dialect: Default::default(),
        };
        assert_eq!(write(&p, "id"), None);
    }
}
