//! Word lists: a one-word-per-line file (or the built-in list) → a set of words, for the
//! puzzles whose lines are dictionary words (`blocks`, `squares`).

use crate::error::{Error, Result};
use std::collections::BTreeSet;

/// Largest dictionary accepted, in usable words.
pub(crate) const MAX_DICT_WORDS: usize = 1_000_000;

/// A word list, with where it came from.
pub struct Dictionary {
    /// Where the words came from, for messages.
    pub source: String,
    /// The words.
    pub words: BTreeSet<String>,
}

/// The built-in list, the one `crossat blocks` and `squares` use without `--dict`: the
/// Wordnik word list (MIT licence), 198,424 words of a–z.
impl Default for Dictionary {
    fn default() -> Dictionary {
        Dictionary { source: "built-in Wordnik word list".into(), words: wordnik_list::word_iterator().map(str::to_string).collect() }
    }
}

impl Dictionary {
    /// A one-word-per-line file. By default only lines of lowercase `a`–`z` are kept;
    /// with `fold_case`, every line is lowercased and kept if it is then all `a`–`z`.
    /// The file is read within `limits`.
    pub fn from_file(path: &std::path::Path, fold_case: bool, limits: &crate::limits::Limits) -> Result<Dictionary> {
        let name = path.display().to_string();
        let (_, bytes) = crate::limits::read_input(path, limits).map_err(|e| match e {
            Error::Input(e) => {
                Error::Input(crate::error::InputError { message: e.message.replace("cannot read file", "cannot read dictionary"), ..e })
            }
            other => other,
        })?;
        Dictionary::from_bytes(&name, &bytes, fold_case)
    }

    /// Reads a one-word-per-line list already in memory; `name` is for messages.
    pub(crate) fn from_bytes(name: &str, bytes: &[u8], fold_case: bool) -> Result<Dictionary> {
        let name = name.to_string();
        let mut words = BTreeSet::new();
        let bytes = super::strip_bom(bytes);
        let mut offset = 0;
        for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let start = offset;
            offset += line.len() + 1;
            let line = std::str::from_utf8(line).map_err(|e| {
                Error::input(
                    &name,
                    format!("line {}: not UTF-8 (invalid byte at byte offset {}); save the file as UTF-8", i + 1, start + e.valid_up_to()),
                )
            })?;
            let w = line.trim_end_matches('\r');
            let w = if fold_case { w.to_lowercase() } else { w.to_string() };
            if !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()) {
                let _ = words.insert(w);
                if words.len() > MAX_DICT_WORDS {
                    return Err(Error::input_limit(&name, format!("more than {MAX_DICT_WORDS} words, the limit of a dictionary")));
                }
            }
        }
        if words.is_empty() {
            return Err(Error::input(&name, "the dictionary has no usable words (lowercase a-z, one per line)"));
        }
        Ok(Dictionary { source: name, words })
    }
}
