//! Every call into the library, in one place: the [`crossat::Puzzle`] facade's
//! methods where it has them, the library's modules beyond it where it does not yet. Each returns the records
//! the command line prints with `--json` for the same request, as JSON values.

use crossat::Listing;
use crossat::error::{Error, Result};
use crossat::generate::{self as g, Spec};
use crossat::lint;
use crossat::puzzle::Input;
use crossat::puzzle::{Format, Shape, Sides};
use crossat::records::{self, Difficulty};
use crossat::stop::Cancel;
use serde_json::{Value, json};

/// A record as a JSON value.
fn value(record: &impl serde::Serialize) -> Value {
    serde_json::to_value(record).expect("a record serializes")
}

/// The formats by the names the command line's `--format` takes.
const FORMATS: [(&str, Format); 7] = [
    ("crossat", Format::Crossat),
    ("challenges", Format::Challenges),
    ("trux", Format::Trux),
    ("dat", Format::Dat),
    ("board", Format::Board),
    ("hesselink", Format::Hesselink),
    ("louridas", Format::Louridas),
];

/// A format by its `--format` name.
pub(crate) fn format_named(name: &str) -> Result<Format> {
    FORMATS.iter().find(|(n, _)| *n == name).map(|&(_, f)| f).ok_or_else(|| {
        let names: Vec<&str> = FORMATS.iter().map(|(n, _)| *n).collect();
        Error::Usage(format!("unknown format '{name}': one of {}", names.join(", ")))
    })
}

/// A format's `--format` name.
pub(crate) fn format_name(f: Format) -> &'static str {
    FORMATS.iter().find(|(_, g)| *g == f).map_or("crossat", |(n, _)| n)
}

/// Reads a file as `crossat solve FILE` does: a regex-pool CSV takes the pool beside it.
pub(crate) fn read_file(path: &str) -> Result<(String, Vec<u8>, crate::Pool)> {
    let limits = crossat::limits::Limits::default();
    let (source, bytes) = crossat::limits::read_input(std::path::Path::new(path), &limits)?;
    let pool =
        crossat::puzzle::pool_beside(std::path::Path::new(path)).map(|txt| crossat::limits::read_input(&txt, &limits)).transpose()?;
    Ok((source, bytes, pool))
}

/// What a notebook shows of a puzzle: its shape, clues, dialect and alphabet.
pub(crate) fn info(puzzle: &crossat::Puzzle) -> Value {
    let p = puzzle.puzzle();
    let shape = match &p.shape {
        Shape::Rect { rows, cols } => json!({"kind": "rect", "rows": rows, "cols": cols}),
        Shape::Hex(s) => json!({"kind": "hex", "top": s.top, "nw": s.nw, "ne": s.ne}),
        Shape::Free { cells, .. } => json!({"kind": "free", "cells": cells}),
    };
    let clues: Vec<Value> = p.clues.iter().map(|c| json!({"label": c.label, "regex": c.regex, "cells": c.cells})).collect();
    let rows: Vec<Vec<usize>> = p.shape.display_rows();
    json!({
        "name": p.name,
        "shape": shape,
        "clues": clues,
        "dialect": p.dialect.to_string(),
        "alphabet": puzzle.alphabet(),
        "display_rows": rows,
        "givens": p.givens.iter().map(|g| g.map(String::from)).collect::<Vec<_>>(),
        "pool": p.pool.is_some(),
    })
}

/// Runs `call` on `puzzle` polling `cancel`, and the puzzle polls nothing afterwards.
fn polling<T>(puzzle: &mut crossat::Puzzle, cancel: &Cancel, call: impl FnOnce(&mut crossat::Puzzle) -> Result<T>) -> Result<T> {
    puzzle.set_cancel(cancel.clone());
    let done = call(puzzle);
    puzzle.set_cancel(Cancel::never());
    done
}

/// `solve --json --limit N`: each solution to `found` as the solver finds it, then
/// the summary.
pub(crate) fn solutions(
    puzzle: &mut crossat::Puzzle,
    limit: Option<usize>,
    cancel: &Cancel,
    found: &mut dyn FnMut(Value) -> Result<()>,
) -> Result<Value> {
    let summary =
        polling(puzzle, cancel, |p| p.search(Listing { limit, ..Listing::default() }, |puzzle, s| found(value(&s.record(puzzle)))))?;
    Ok(value(&summary))
}

/// `solve --count --json`: the summary.
pub(crate) fn count(puzzle: &mut crossat::Puzzle, cancel: &Cancel) -> Result<Value> {
    Ok(value(&polling(puzzle, cancel, crossat::Puzzle::count_record)?))
}

/// `explain --json`: the steps, then the summary.
pub(crate) fn explain(puzzle: &mut crossat::Puzzle, cancel: &Cancel) -> Result<Value> {
    let ex = polling(puzzle, cancel, |p| p.explain(None))?;
    let mut out: Vec<Value> = ex.steps.iter().map(value).collect();
    out.push(value(&ex.summary));
    Ok(Value::Array(out))
}

/// The labels of the clues a full grid fails (`check`).
pub(crate) fn check(puzzle: &crossat::Puzzle, rows: &[String]) -> Result<Vec<String>> {
    puzzle.check(&rows.iter().map(String::as_str).collect::<Vec<_>>())
}

/// A player's next forced cell with the clues behind it (`hint --json --grid`'s hint
/// record); `None` when the grid is full, an entry is wrong or it cannot be completed.
pub(crate) fn hint(puzzle: &mut crossat::Puzzle, rows: &[String], cancel: &Cancel) -> Result<Option<Value>> {
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let hint = polling(puzzle, cancel, |p| p.hint(&rows))?;
    Ok(hint.map(|h| value(&h)))
}

/// `lint --json`'s clue records: every clue whose meaning differs between the dialects.
pub(crate) fn lint(input: &Input, puzzle: &crossat::Puzzle, cancel: &Cancel) -> Result<Value> {
    let p = puzzle.puzzle();
    let verdicts = lint::lint(&input.source, p, input.alphabet.as_deref(), cancel)?;
    let name = p.name.clone().unwrap_or_else(|| input.source.clone());
    let mut out = Vec::new();
    for v in verdicts {
        let Some(verdict) = v.verdict else { continue };
        let record = records::LintClue { puzzle: name.clone(), clue: v.label, regex: v.regex, length: v.length, verdict };
        out.push(value(&record));
    }
    Ok(Value::Array(out))
}

/// What `generate` is asked for.
pub(crate) struct Make {
    pub rows: usize,
    pub cols: usize,
    pub hex: Option<(usize, usize, usize)>,
    pub sides: usize,
    pub text: Option<String>,
    pub backrefs: bool,
    pub lookarounds: bool,
    pub difficulty: Option<String>,
    pub seed: Option<u64>,
}

/// `generate --json`: the puzzle record.
pub(crate) fn generate(m: &Make, cancel: &Cancel) -> Result<Value> {
    let bad = |m: String| Error::Usage(m);
    let shape = match m.hex {
        Some((top, nw, ne)) if [top, nw, ne].iter().all(|s| (1..=8).contains(s)) && nw + ne > 2 => Shape::Hex(Sides { top, nw, ne }),
        Some(_) => return Err(bad("hex must be a side from 2 to 8, or (top, nw, ne) with each from 1 to 8".into())),
        None if (1..=g::MAX_SIDE).contains(&m.rows) && (1..=g::MAX_SIDE).contains(&m.cols) => Shape::Rect { rows: m.rows, cols: m.cols },
        None => return Err(bad(format!("size must be rows × cols with each from 1 to {}", g::MAX_SIDE))),
    };
    let difficulty = match m.difficulty.as_deref() {
        None => None,
        Some("easy") => Some(Difficulty::Easy),
        Some("medium") => Some(Difficulty::Medium),
        Some("hard") => Some(Difficulty::Hard),
        Some(d) => return Err(bad(format!("unknown difficulty '{d}': easy, medium or hard"))),
    };
    if !(1..=2).contains(&m.sides) {
        return Err(bad(format!("sides must be 1 or 2, got {}", m.sides)));
    }
    let seed = m.seed.unwrap_or_else(crossat::rng::fresh_seed);
    let spec = Spec { shape, sides: m.sides, text: m.text.clone(), backrefs: m.backrefs, lookarounds: m.lookarounds, difficulty, seed };
    let made = g::generate(&spec, &mut |_| {}, cancel)?;
    Ok(value(&made.record()))
}

/// `squares --json`'s square records: up to `count` word squares of `width` × `height`
/// two-letter cells from `dictionary` (a word list file) or the built-in list, by the
/// dedicated search with `seed`. The search polls no token: a cancelled call stops at
/// the next square found.
pub(crate) fn squares(width: usize, height: usize, dictionary: Option<&str>, seed: u64, count: usize, cancel: &Cancel) -> Result<Value> {
    use crossat::squares::{self, Method, Progress, Request, Size, Tuning};
    let size = Size::new(width, height)?;
    let dict = match dictionary {
        Some(path) => crossat::puzzle::Dictionary::from_file(std::path::Path::new(path), false, &crossat::limits::Limits::default())?,
        None => crossat::puzzle::Dictionary::default(),
    };
    let mut out = Vec::new();
    let found = |sq: &records::Square| {
        out.push(value(sq));
        cancel.check()
    };
    let method = Method::Search { tuning: Tuning::default(), jobs: 1 };
    squares::make(&Request { dict: &dict, size, given: None, seed, count, method }, &Progress::default(), found)?;
    Ok(Value::Array(out))
}
