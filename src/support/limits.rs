//! Limits on what crossat reads, so that every input ends in bounded time and memory
//! (the list is in docs/format.md, "Limits"). The others live where they are checked:
//! `puzzle::MAX_CELLS`, `puzzle::MAX_CLUES`, `encode::MAX_CLAUSES`,
//! `encode::MAX_VARS`, `pipeline::MAX_COUNTEREXAMPLES`, `words::MAX_DICT_WORDS`, the compile stage's.

use crate::error::{Error, InputError, InputErrorKind, Result};
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The default cap on one input file (or standard input): 64 MiB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 64 << 20;

static MAX_INPUT_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_INPUT_BYTES);

/// Sets the cap on input size (`--max-input-bytes`).
pub fn set_max_input_bytes(n: u64) {
    MAX_INPUT_BYTES.store(n, Ordering::Relaxed);
}

/// The cap on input size.
pub fn max_input_bytes() -> u64 {
    MAX_INPUT_BYTES.load(Ordering::Relaxed)
}

/// Reads a file, or standard input for `-`, up to the input cap: a larger input (or an
/// endless one such as `/dev/zero`) is an error naming the file and the limit. A
/// UTF-8 byte-order mark is dropped. Returns the name for messages and the bytes.
pub fn read_input(path: &Path) -> Result<(String, Vec<u8>)> {
    let (name, mut bytes) = read_input_whole(path)?;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        let _ = bytes.drain(..3);
    }
    Ok((name, bytes))
}

/// [`read_input`] keeping a leading U+FEFF: in a grid over an alphabet that holds
/// U+FEFF it is a cell, not a byte-order mark.
pub fn read_input_whole(path: &Path) -> Result<(String, Vec<u8>)> {
    let name = path.display().to_string();
    let cap = max_input_bytes();
    let mut bytes = Vec::new();
    let reason = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    let read = if name == "-" {
        // Standard input may keep us waiting: a signal must still stop the command.
        crate::stop::watch();
        std::io::stdin().lock().take(cap.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| format!("cannot read standard input: {e}"))
    } else {
        // So may a named pipe or a device (already in `open`).
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            crate::stop::watch();
        }
        std::fs::File::open(path)
            .and_then(|f| f.take(cap.saturating_add(1)).read_to_end(&mut bytes))
            .map_err(|e| format!("cannot read file: {}", reason(e)))
    };
    read.map_err(|message| Error::Input(InputError { source: name.clone(), kind: InputErrorKind::Io, message }))?;
    if bytes.len() as u64 > cap {
        return Err(Error::input_limit(&name, format!("larger than the input limit of {cap} bytes (raise it with --max-input-bytes)")));
    }
    Ok((name, bytes))
}
