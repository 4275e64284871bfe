//! `crossat generate`: a new puzzle with exactly one solution, from a target text.
//!
//! 1. The text fills the grid (row by row; a short text is padded with its own letters).
//! 2. Every line gets a random clue that its word matches, of middling looseness.
//! 3. *Tighten*: while a second solution exists, a line through a cell where the two
//!    solutions differ gets a tighter clue.
//! 4. *Loosen*: each clue in turn is replaced by looser, shorter candidates (or, for a
//!    second clue on a line, dropped) wherever the puzzle stays unique.
//! 5. The result is solved once more and proven unique before it is printed.
//!
//! Every decision uses the same solver as `crossat solve`; `--seed` makes it repeatable.

use crate::error::{Error, Result};
use crate::pipeline;
use crate::puzzle::{Clue, Puzzle, Shape, hex};
use crate::stats::Times;

pub use crate::rng::Rng;

/// Uniqueness checks the tightening phase may make before giving up.
const MAX_CHECKS: usize = 1000;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Rectangle (rows, cols) or hexagon side.
    pub shape: Shape,
    /// Clues per line: 1 or 2.
    pub sides: usize,
    /// The text to hide (row by row); `None` for random letters.
    pub text: Option<String>,
    /// Allow back-references in clues.
    pub backrefs: bool,
    /// Seed.
    pub seed: u64,
}

/// A generated puzzle with its solution.
pub struct Generated {
    /// The puzzle (its alphabet: the characters its clues mention).
    pub puzzle: Puzzle,
    /// The unique solution, cell by cell.
    pub solution: Vec<char>,
    /// Uniqueness checks made.
    pub checks: usize,
}

/// Lines of the shape: (label, cells), one per line; each line carries `sides` clues.
fn lines(shape: &Shape) -> Vec<(String, Vec<usize>)> {
    match shape {
        Shape::Rect { rows, cols } => (0..*rows)
            .map(|r| (format!("row {}", r + 1), (0..*cols).map(|c| r * cols + c).collect()))
            .chain((0..*cols).map(|c| (format!("column {}", c + 1), (0..*rows).map(|r| r * cols + c).collect())))
            .collect(),
        // In the antoine-trux order, so that `to_trux` can list clues line by line.
        Shape::Hex { side } => crate::puzzle::trux::hex_lines(*side),
        Shape::Free { .. } => vec![],
    }
}

/// Escapes a character for use in a clue (outside or inside a class).
fn esc(c: char) -> String {
    if c == ' ' {
        "\\s".into()
    } else if "\\^$.|?*+()[]{}-/".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

/// A random clue that `word` fully matches. `tight` in 0..=1: 1 spells the word out,
/// 0 is as loose as the generator goes.
fn clue_for(rng: &mut Rng, word: &[char], alphabet: &[char], tight: f64, backrefs: bool) -> String {
    let mut out = String::new();
    let mut i = 0;
    let mut group_of: Vec<(char, usize)> = Vec::new(); // captured single characters
    while i < word.len() {
        let c = word[i];
        // Back-reference to an earlier captured character.
        if backrefs {
            if let Some(&(_, k)) = group_of.iter().find(|&&(g, _)| g == c)
                && rng.chance(0.6)
            {
                out.push_str(&format!("\\{k}"));
                i += 1;
                continue;
            }
            if group_of.len() < 9 && word[i + 1..].contains(&c) && rng.chance(0.5) {
                let k = group_of.len() + 1;
                group_of.push((c, k));
                out.push_str(&if rng.chance(tight) { format!("({})", esc(c)) } else { "(.)".to_string() });
                i += 1;
                continue;
            }
        }
        // Literal, class, run or alternation; the tighter, the more literals.
        let roll = (rng.next() % 1000) as f64 / 1000.0;
        let (literal, class) = (tight * 0.8, tight * 0.8 + 0.15);
        let run_end = class + (1.0 - class) * 0.7;
        if roll < literal {
            out.push_str(&esc(c));
            i += 1;
        } else if roll < class {
            // A class with the letter and a few others (or a negated one without it).
            let k = 1 + rng.below(3);
            let mut set = vec![c];
            for _ in 0..k {
                let o = alphabet[rng.below(alphabet.len())];
                if !set.contains(&o) {
                    set.push(o);
                }
            }
            let others: Vec<char> = alphabet.iter().copied().filter(|o| !set.contains(o)).collect();
            if !others.is_empty() && rng.chance(0.35) {
                let ex: String = others.iter().take(1 + rng.below(3)).map(|&o| esc(o)).collect();
                out.push_str(&format!("[^{ex}]"));
            } else {
                let mut s: Vec<String> = set.iter().map(|&o| esc(o)).collect();
                s.sort();
                out.push_str(&format!("[{}]", s.concat()));
            }
            i += 1;
        } else if roll < run_end || i + 1 >= word.len() {
            // A run of letters from a class: [ABC]+ / .* style.
            let run = 1 + rng.below((word.len() - i).min(4));
            let mut set: Vec<char> = word[i..i + run].to_vec();
            set.sort();
            set.dedup();
            if set.len() == 1 && rng.chance(0.5) {
                out.push_str(&format!("{}{}", esc(set[0]), if run == 1 { "+" } else { "*" }));
            } else if rng.chance(1.0 - tight) {
                out.push_str(if run > 1 { ".*" } else { "." });
            } else if set.len() == 1 {
                out.push_str(&format!("{}+", esc(set[0])));
            } else {
                let s: String = set.iter().map(|&o| esc(o)).collect();
                out.push_str(&format!("[{s}]+"));
            }
            i += run;
        } else {
            // An alternation between the chunk and a decoy.
            let run = (1 + rng.below(2)).min(word.len() - i);
            let chunk: String = word[i..i + run].iter().map(|&o| esc(o)).collect();
            let decoy: String = (0..run).map(|_| esc(alphabet[rng.below(alphabet.len())])).collect();
            out.push_str(&if decoy == chunk {
                chunk
            } else if rng.chance(0.5) {
                format!("({chunk}|{decoy})")
            } else {
                format!("({decoy}|{chunk})")
            });
            i += run;
        }
    }
    out
}

/// Builds the puzzle from per-line clue lists.
fn assemble(spec: &Spec, lines: &[(String, Vec<usize>)], clues: &[Vec<String>]) -> Puzzle {
    let mut all = Vec::new();
    for ((label, cells), list) in lines.iter().zip(clues) {
        for (k, re) in list.iter().enumerate() {
            let side = if k == 0 { "" } else { " #2" };
            all.push(Clue { label: format!("{label}{side}"), regex: re.clone(), cells: cells.clone() });
        }
    }
    let n = spec.shape.cells();
    // No explicit alphabet: the one inferred from the clues, as every format can carry.
    Puzzle { name: None, shape: spec.shape.clone(), clues: all, alphabet: None, givens: vec![None; n], pool: None }
}

/// Solutions of a candidate (up to two).
fn solve2(p: &Puzzle) -> Result<Vec<Vec<char>>> {
    let mut prep = pipeline::prepare_puzzle("<generated>", p.clone(), None, Times::default())?;
    let mut out = Vec::new();
    let _ = pipeline::solve(&mut prep, Some(2), |_, g| {
        out.push(g.cells.clone());
        Ok(())
    })?;
    Ok(out)
}

/// Generates a unique puzzle.
pub fn generate(spec: &Spec) -> Result<Generated> {
    let mut rng = Rng::new(spec.seed);
    let n = spec.shape.cells();
    let text: Vec<char> = match &spec.text {
        Some(t) => t.chars().filter(|c| *c != '\n' && *c != '\r').collect(),
        None => (0..n).map(|_| (b'A' + rng.below(12) as u8) as char).collect(),
    };
    if text.is_empty() {
        return Err(Error::Usage("the target text is empty".into()));
    }
    if text.len() > n {
        return Err(Error::Usage(format!(
            "the text has {} characters, more than the {n} cells of a {}",
            text.len(),
            spec.shape.describe()
        )));
    }
    let mut solution = text.clone();
    while solution.len() < n {
        solution.push(text[rng.below(text.len())]);
    }
    let mut alphabet: Vec<char> = solution.clone();
    alphabet.sort();
    alphabet.dedup();
    // Decoys make classes and alternations meaningful for tiny alphabets.
    for extra in ['E', 'T', 'A', 'O', 'N', 'R', 'S', 'I'] {
        if alphabet.len() >= 6 {
            break;
        }
        if !alphabet.contains(&extra) {
            alphabet.push(extra);
        }
    }
    alphabet.sort();
    let lines = lines(&spec.shape);
    let word = |cells: &[usize]| -> Vec<char> { cells.iter().map(|&c| solution[c]).collect() };
    let mut clues: Vec<Vec<String>> = lines
        .iter()
        .map(|(_, cells)| (0..spec.sides).map(|_| clue_for(&mut rng, &word(cells), &alphabet, 0.45, spec.backrefs)).collect())
        .collect();
    let mut checks = 0;
    // Tighten until the text is the only solution.
    let mut tight = 0.55;
    loop {
        checks += 1;
        let sols = solve2(&assemble(spec, &lines, &clues))?;
        if sols == [solution.clone()] {
            break;
        }
        if checks > MAX_CHECKS {
            return Err(Error::Usage(format!("no unique puzzle found within {MAX_CHECKS} uniqueness checks; try another --seed")));
        }
        // Cells to pin down: where another solution differs, or (if the text is no
        // solution at all) a letter no clue mentions.
        let differ: Vec<usize> = match sols.iter().find(|s| **s != solution) {
            Some(other) if sols.contains(&solution) => (0..n).filter(|&c| other[c] != solution[c]).collect(),
            _ => (0..n).collect(),
        };
        let mut through: Vec<usize> = (0..lines.len()).filter(|&l| lines[l].1.iter().any(|c| differ.contains(c))).collect();
        // Tighten up to three lines through those cells, a little more each round.
        for _ in 0..3.min(through.len()) {
            let l = through.swap_remove(rng.below(through.len()));
            let k = rng.below(clues[l].len());
            let t = if sols.contains(&solution) { tight } else { 1.0 };
            clues[l][k] = clue_for(&mut rng, &word(&lines[l].1), &alphabet, t, spec.backrefs);
        }
        tight = (tight + 0.02).min(1.0);
    }
    // Loosen: for each clue, try looser/shorter candidates (and dropping a second clue).
    let mut order: Vec<(usize, usize)> = (0..lines.len()).flat_map(|l| (0..spec.sides).map(move |k| (l, k))).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    for (l, k) in order {
        if k >= clues[l].len() {
            continue;
        }
        let mut candidates: Vec<Option<String>> =
            (0..3).map(|_| Some(clue_for(&mut rng, &word(&lines[l].1), &alphabet, 0.15, spec.backrefs))).collect();
        if k > 0 {
            candidates.insert(0, None);
        }
        candidates.sort_by_key(|c| c.as_ref().map_or(0, String::len));
        for cand in candidates {
            if cand.as_ref().is_some_and(|c| c.len() >= clues[l][k].len()) {
                continue;
            }
            let mut trial = clues.clone();
            match &cand {
                Some(c) => trial[l][k] = c.clone(),
                None => {
                    let _ = trial[l].remove(k);
                }
            }
            checks += 1;
            if solve2(&assemble(spec, &lines, &trial))? == [solution.clone()] {
                clues = trial;
                break;
            }
        }
    }
    let puzzle = assemble(spec, &lines, &clues);
    // Final proof: exhaust the search once more.
    let sols = solve2(&puzzle)?;
    if sols != vec![solution.clone()] {
        return Err(Error::Internal("the generated puzzle is not unique after all".into()));
    }
    Ok(Generated { puzzle, solution, checks })
}

/// The puzzle in crossat's JSON format.
pub fn to_crossat_json(p: &Puzzle) -> serde_json::Value {
    use serde_json::json;
    match &p.shape {
        Shape::Rect { rows, cols } => {
            let side = |prefix: &str, second: bool| -> Vec<serde_json::Value> {
                let count = if prefix == "row" { *rows } else { *cols };
                (0..count)
                    .map(|i| {
                        let label = format!("{prefix} {}{}", i + 1, if second { " #2" } else { "" });
                        p.clues.iter().find(|c| c.label == label).map_or(serde_json::Value::Null, |c| json!(c.regex))
                    })
                    .collect()
            };
            let mut v = json!({"rows": rows, "cols": cols, "left": side("row", false), "top": side("column", false)});
            if p.clues.iter().any(|c| c.label.ends_with("#2")) {
                v["right"] = json!(side("row", true));
                v["bottom"] = json!(side("column", true));
            }
            v
        }
        _ => {
            let Shape::Hex { side } = p.shape else { return json!(null) };
            let entries: Vec<serde_json::Value> = p
                .clues
                .iter()
                .map(|c| json!({"label": c.label, "cells": c.cells.iter().map(|&x| { let (r, col) = hex::coords(side, x); json!([r, col]) }).collect::<Vec<_>>(), "clues": [c.regex]}))
                .collect();
            json!({"layout": "hexagon", "side": side, "entries": entries})
        }
    }
}

/// The puzzle in the antoine-trux text format (one or two regexes per line).
pub fn to_trux(p: &Puzzle, sides: usize) -> String {
    let quote = |re: &str| format!("'{re}'");
    let lines = lines(&p.shape);
    let clues_of = |label: &str| -> Vec<String> {
        let mut v: Vec<String> =
            p.clues.iter().filter(|c| c.label == label || c.label == format!("{label} #2")).map(|c| quote(&c.regex)).collect();
        while v.len() < sides {
            v.push("'.*'".into());
        }
        v
    };
    let body: Vec<String> = lines.iter().flat_map(|(label, _)| clues_of(label)).collect();
    match &p.shape {
        Shape::Rect { rows, cols } => format!(
            "# generated by crossat\n\nshape = rectangular\n\nnum_rows = {rows}\nnum_cols = {cols}\n\nnum_regexes_per_row = {sides}\nnum_regexes_per_col = {sides}\n\n{}\n",
            body.join("\n")
        ),
        _ => format!(
            "# generated by crossat\n\nshape = hexagonal\n\nnum_regexes_per_line = {sides}\n\n# the regexes are listed counterclockwise\n\n{}\n",
            body.join("\n")
        ),
    }
}
