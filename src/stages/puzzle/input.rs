//! What a caller hands the parse stage: a puzzle's bytes with the options that
//! override its contents ([`Input`]), read into a [`Puzzle`] by [`read_input`].

use super::{Format, Puzzle};
use crate::error::{Error, Result};

/// Where a puzzle comes from and how to read it.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// File name for messages (`-` for stdin).
    pub source: String,
    /// The raw bytes.
    pub bytes: Vec<u8>,
    /// Force a format instead of detecting it.
    pub format: Option<Format>,
    /// Which puzzle of a collection.
    pub id: Option<String>,
    /// The literal set of cell characters, overriding the puzzle's.
    pub alphabet: Option<Vec<char>>,
    /// Givens as display rows, overriding the puzzle's.
    pub given: Option<Vec<Vec<Option<char>>>>,
    /// Where the givens came from, for messages (default `--given`).
    pub given_source: Option<String>,
    /// The regex pool of a regex-pool CSV: its source name and bytes.
    pub pool: Option<(String, Vec<u8>)>,
    /// The clues' dialect, overriding the puzzle's (and its format's default).
    pub dialect: Option<super::Dialect>,
    /// The cancel token that preparing and solving the puzzle poll
    /// ([`Cancel::never`](crate::stop::Cancel::never) by default).
    pub cancel: crate::stop::Cancel,
}

/// Reads the puzzle, then applies the givens that override its own, checked against
/// an alphabet given with them.
pub(crate) fn read_input(input: &Input) -> Result<Puzzle> {
    let mut puzzle = super::read(
        &input.source,
        &input.bytes,
        input.format,
        input.id.as_deref(),
        input.pool.as_ref().map(|(n, b)| (n.as_str(), b.as_slice())),
    )?;
    if let Some(d) = input.dialect {
        puzzle.dialect = d;
    }
    if let Some(rows) = &input.given {
        let source = input.given_source.as_deref().unwrap_or("--given");
        puzzle.set_given_rows(source, rows)?;
        if let Some(alphabet) = &input.alphabet
            && let Some((c, g)) = puzzle.givens.iter().enumerate().find_map(|(c, g)| g.filter(|g| !alphabet.contains(g)).map(|g| (c, g)))
        {
            return Err(Error::input(
                source,
                format!("given '{g}' in cell {} is not in the alphabet given by --alphabet", puzzle.shape.cell_name(c)),
            ));
        }
    }
    Ok(puzzle)
}
