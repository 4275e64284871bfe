//! Tests of the whole chain of stages, white-box: they build the stages' inputs and
//! compare what comes out with independent oracles (CPython's `re`, brute force).

mod charsets;
mod clue_gen;
mod ecmadiff;
mod encoding;
mod formats;
mod pydiff;

use crate::error::Result;
use crate::pipeline::Input;

/// A puzzle of one row of `n` cells whose clue is `regex` in `dialect`.
fn one_row(regex: &str, n: usize, dialect: crate::puzzle::Dialect) -> crate::puzzle::Puzzle {
    crate::puzzle::Puzzle {
        name: None,
        shape: crate::puzzle::Shape::Rect { rows: 1, cols: n },
        clues: vec![crate::puzzle::Clue { label: "row 1".into(), regex: regex.into(), cells: (0..n).collect() }],
        alphabet: None,
        givens: vec![None; n],
        pool: None,
        dialect,
    }
}

/// An `Input` from text.
fn input_text(text: &str) -> Input {
    Input { source: "<test>".into(), bytes: text.as_bytes().to_vec(), ..Input::default() }
}

/// Every solution (as display rows), through the facade, and whether the search was
/// exhausted.
fn solve_in_process(input: Input) -> Result<(Vec<Vec<String>>, bool)> {
    let found = crate::Puzzle::from_input(&input)?.solutions(usize::MAX)?;
    Ok((found.solutions.into_iter().map(|s| s.rows).collect(), found.complete))
}
