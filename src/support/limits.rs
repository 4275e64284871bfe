//! Limits on what crossat reads, so that every input ends in bounded time and memory
//! (the list is in docs/format.md, "Limits"). The others live where they are checked:
//! `puzzle::MAX_CELLS`, `puzzle::MAX_CLUES`, `encode::MAX_CLAUSES`,
//! `encode::MAX_VARS`, `solve::counterexample::MAX_COUNTEREXAMPLES`, `words::MAX_DICT_WORDS`, the compile stage's.

use crate::error::{Error, InputError, InputErrorKind, Result};
use std::io::Read;
use std::path::Path;

/// The default cap on one input file (or standard input): 64 MiB.
const DEFAULT_MAX_INPUT_BYTES: u64 = 64 << 20;

/// The limits a caller sets on what the library reads: a value passed to each call
/// that reads (no process-wide setting), so that two callers may use two limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The cap on one input file (or standard input), in bytes
    /// (64 MiB by default). A larger input is an
    /// [`InputErrorKind::Limit`] error naming the file and the limit.
    pub max_input_bytes: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_input_bytes: DEFAULT_MAX_INPUT_BYTES }
    }
}

impl Limits {
    /// The default limits with another cap on input size.
    pub fn with_max_input_bytes(mut self, n: u64) -> Limits {
        self.max_input_bytes = n;
        self
    }
}

/// Reads a file, or standard input for `-`, up to `limits.max_input_bytes`: a larger
/// input (or an endless one such as `/dev/zero`) is an error naming the file and the
/// limit. A UTF-8 byte-order mark is dropped. Returns the name for messages and the
/// bytes.
pub fn read_input(path: &Path, limits: &Limits) -> Result<(String, Vec<u8>)> {
    let (name, mut bytes) = read_input_whole(path, limits)?;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        let _ = bytes.drain(..3);
    }
    Ok((name, bytes))
}

/// [`read_input`] keeping a leading U+FEFF: in a grid over an alphabet that holds
/// U+FEFF it is a cell, not a byte-order mark.
pub fn read_input_whole(path: &Path, limits: &Limits) -> Result<(String, Vec<u8>)> {
    let name = path.display().to_string();
    let cap = limits.max_input_bytes;
    let mut bytes = Vec::new();
    let reason = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    let read = if name == "-" {
        std::io::stdin().lock().take(cap.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))
    } else {
        std::fs::File::open(path)
            .and_then(|f| f.take(cap.saturating_add(1)).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read file: {}", reason(e)))
    };
    read.map_err(|message| Error::Input(InputError { source: name.clone(), kind: InputErrorKind::Io, message }))?;
    if bytes.len() as u64 > cap {
        return Err(Error::Input(InputError {
            source: name,
            kind: InputErrorKind::Limit,
            message: format!("larger than the input limit of {cap} bytes (raise it with `max_input_bytes`)"),
        }));
    }
    Ok((name, bytes))
}
