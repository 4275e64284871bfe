//! Tests of the whole chain of stages, white-box: they build the stages' inputs and
//! compare what comes out with independent oracles (CPython's `re`, brute force).

mod charsets;
mod clue_gen;
mod count;
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

/// The strings crossat lists for the clue `regex` in `dialect` on a line of `n` cells
/// over `alphabet`, with the routes restricted by `opts` and the formula built with or
/// without propagated domains (`propagate`): every grid once, the search exhausted.
fn one_row_strings(
    regex: &str,
    dialect: crate::puzzle::Dialect,
    alphabet: &[char],
    n: usize,
    opts: crate::compile::Options,
    propagate: bool,
) -> Result<std::collections::BTreeSet<String>> {
    use crate::compile;
    let src = "<differential>";
    let puzzle = one_row(regex, n, dialect);
    let parsed = compile::parse_clues(src, &puzzle)?;
    let verifier = crate::verify::Verifier::from_parsed(src, &puzzle, &parsed)?;
    if n == 0 {
        // No grid has zero cells: the matcher alone answers for the empty line.
        return Ok(if verifier.clue_matches(0, "")? { [String::new()].into() } else { Default::default() });
    }
    let alphabet = compile::choose_alphabet(src, &puzzle, &parsed, Some(alphabet))?;
    let compiled = compile::compile_with(src, &puzzle, &parsed, alphabet, opts)?;
    let (cnf, vars) = crate::pipeline::encode_puzzle(&puzzle, &compiled, propagate)?;
    let mut prep = crate::pipeline::Prepared::with_formula(src, puzzle, compiled, cnf, vars, verifier);
    let mut found = std::collections::BTreeSet::new();
    let outcome = crate::pipeline::solve(&mut prep, None, |_, g| {
        assert!(found.insert(g.cells.iter().collect::<String>()), "a grid was enumerated twice");
        Ok(())
    })?;
    assert!(outcome.complete);
    Ok(found)
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
