//! Tests of the whole chain of stages, white-box: they build the stages' inputs and
//! compare what comes out with independent oracles (CPython's `re`, brute force).

mod charsets;
mod encoding;
mod formats;

use crate::error::Result;
use crate::pipeline::Input;

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
