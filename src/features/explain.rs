//! `explain`: the whole path from the givens to the answer, one deduction at a time,
//! ending in why the answer is the only one.
//!
//! The deductions come from the solve stage's engine ([`crate::solve::deduce`]): line
//! steps, then case splits of depth 1 and 2 where lines stall. Where those do not
//! finish, the SAT search settles the open cells in one `search` step, which says what
//! the search found (one solution and its proof of uniqueness, several, or none):
//! the path never claims a deduction it did not make.

use crate::compile::Alphabet;
use crate::error::{Error, Result};
use crate::pipeline::{self, Prepared};
use crate::propagate::{self, SymSet};
use crate::solve::deduce::{self, Deduction, End, Engine, Kind, Step, Why, reason};
use serde_json::{Value, json};

/// What an explanation shows in the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The only solution (a character per cell).
    Unique(Vec<char>),
    /// No solution: the givens cannot be completed.
    None,
    /// More than one solution (the search found at least two).
    Several,
    /// Not known: the step limit was reached, or the search did not finish.
    Unknown,
}

/// A puzzle explained.
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The deduction, with the search step appended where deduction stalled.
    pub deduction: Deduction,
    /// Whether every cell was forced by line steps and case splits alone.
    pub unique_by_deduction: bool,
    /// The answer.
    pub answer: Answer,
}

impl Explanation {
    /// The difficulty the steps show ([`Deduction::difficulty`]); hard when the search
    /// settled the answer, `None` when there is no single answer to rate.
    pub fn difficulty(&self) -> Option<crate::solve::rate::Difficulty> {
        match self.answer {
            Answer::Unique(_) => self.deduction.difficulty(),
            _ => None,
        }
    }

    /// Top-level steps of each kind: line, split, search.
    pub fn counts(&self) -> [(Kind, usize); 3] {
        [Kind::Line, Kind::Split, Kind::Search].map(|k| (k, self.deduction.count(k)))
    }
}

/// Explains `prep` from its givens (a player's partial grid is read as givens).
/// A regex pool is refused: its entries' assignment is not deduced yet.
pub fn explain(prep: &mut Prepared, opts: deduce::Options) -> Result<Explanation> {
    if prep.puzzle.pool.is_some() {
        return Err(Error::Usage("explain needs a puzzle with fixed clues, not a regex pool".into()));
    }
    let mut deduction = {
        let compiled = prep.compiled()?;
        let verifier = &prep.verifier;
        let matcher = |i: usize, word: &str| verifier.clue_matches(i, word).ok();
        let start = propagate::initial_domains(&prep.puzzle, compiled);
        Engine::new(&prep.puzzle, compiled, &matcher).deduce(start, opts)?
    };
    let chars = prep.alphabet().chars().to_vec();
    let (answer, by_deduction) = match deduction.end {
        End::Solved => (Answer::Unique(deduction.doms.iter().map(|d| chars[d.iter().next().unwrap_or(0)]).collect()), true),
        End::Contradiction { .. } => (Answer::None, true),
        End::StepLimit => (Answer::Unknown, false),
        End::Stalled => (search(prep, &mut deduction, &chars)?, false),
    };
    Ok(Explanation { deduction, unique_by_deduction: by_deduction && matches!(answer, Answer::Unique(_)), answer })
}

/// The search step where deduction stalls: the SAT search for up to two solutions.
fn search(prep: &mut Prepared, deduction: &mut Deduction, chars: &[char]) -> Result<Answer> {
    let mut grids: Vec<Vec<char>> = Vec::new();
    let outcome = pipeline::solve(prep, Some(2), |_, grid| {
        grids.push(grid.cells.clone());
        Ok(())
    })?;
    let open: Vec<usize> = (0..deduction.doms.len()).filter(|&c| deduction.doms[c].len() > 1).collect();
    let answer = match (grids.len(), outcome.complete) {
        (0, true) => Answer::None,
        (1, true) => Answer::Unique(grids[0].clone()),
        (n, _) if n >= 2 => Answer::Several,
        _ => Answer::Unknown,
    };
    let mut step = Step {
        kind: Kind::Search,
        clue: None,
        cells: Vec::new(),
        removed: Vec::new(),
        remaining: Vec::new(),
        uses: Vec::new(),
        why: Why::Search { solutions: grids.len(), complete: outcome.complete },
        extra: false,
    };
    if let Answer::Unique(solution) = &answer {
        for &c in &open {
            let Some(x) = chars.iter().position(|&ch| ch == solution[c]).filter(|&x| deduction.doms[c].contains(x)) else {
                return Err(Error::Internal(format!("the search's solution uses a letter deduction removed from cell {c}")));
            };
            let mut only = SymSet::default();
            only.insert(x);
            step.cells.push(c);
            step.removed.push(deduce::minus(&deduction.doms[c], &only));
            step.remaining.push(only);
            deduction.doms[c] = only;
        }
        deduction.steps.push(step);
    }
    Ok(answer)
}

/// The letters of a set of symbols, in alphabet order.
pub fn letters(a: &Alphabet, s: &SymSet) -> String {
    s.iter().map(|x| a.chars()[x]).collect()
}

fn cell_json(prep: &Prepared, c: usize) -> Value {
    let (r, col) = prep.puzzle.shape.coords(c);
    json!([r, col])
}

/// One step as `crossat explain --json` prints it (`"type": "step"` at the top level); a split carries its sub-steps,
/// numbered from 1 within it.
pub fn step_json(prep: &Prepared, step: &Step, number: usize, top: bool) -> Value {
    let a = prep.alphabet();
    let mut v = if top { json!({"type": "step"}) } else { json!({}) };
    let fields = json!({
        "number": number,
        "kind": step.kind.name(),
        "line": step.clue.map(|i| prep.puzzle.clues[i].label.clone()),
        "cells": step.cells.iter().map(|&c| cell_json(prep, c)).collect::<Vec<_>>(),
        "removed": step.removed.iter().map(|r| letters(a, r)).collect::<Vec<_>>(),
        "remaining": step.remaining.iter().map(|r| letters(a, r)).collect::<Vec<_>>(),
        "uses": step.uses,
        "reason": reason::describe(&prep.puzzle, a, step),
    });
    if let (Some(v), Value::Object(f)) = (v.as_object_mut(), fields) {
        v.extend(f);
    }
    if step.extra {
        v["extra"] = json!(true);
    }
    if let Why::Split { cell, letter, steps, .. } = &step.why {
        v["assume"] = json!({"cell": cell_json(prep, *cell), "letter": a.chars()[*letter].to_string()});
        v["steps"] = steps.iter().enumerate().map(|(k, s)| step_json(prep, s, k + 1, false)).collect();
    }
    v
}
