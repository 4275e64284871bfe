//! Tests of the whole chain of stages, white-box: they build the stages' inputs and
//! compare what comes out with independent oracles (CPython's `re`, brute force).

mod charsets;
mod encoding;
mod formats;

use crate::error::Result;
use crate::pipeline::{self, Input};

/// An `Input` from text.
fn input_text(text: &str) -> Input {
    Input { source: "<test>".into(), bytes: text.as_bytes().to_vec(), ..Input::default() }
}

/// Every solution (as display rows) found, up to `limit`, and whether the search was
/// exhausted.
fn solve_in_process(input: Input, limit: Option<usize>) -> Result<(Vec<Vec<String>>, bool)> {
    let mut prep = pipeline::prepare(&input)?;
    let mut grids = Vec::new();
    let outcome = pipeline::solve(&mut prep, limit, |puzzle, grid| {
        grids.push(grid.rows(&puzzle.shape));
        Ok(())
    })?;
    Ok((grids, outcome.complete))
}
