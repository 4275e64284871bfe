//! The puzzle alphabet: the literal set of characters a cell may hold.
//!
//! Default: every character the clues mention — literals, class members (negated
//! classes too), every member of a range — plus a space for each `\s`. `.`, negated
//! classes, `\d`, `\w` and their negations range over this set; they add nothing to it.
//! This is the rule of the reference solver of the public corpus, and it keeps
//! puzzles unique that would not be over a larger alphabet.

use crate::regex::syntax::{Category, Item, SetItem};
use crate::regex::unicode::is_word;
use std::collections::BTreeSet;

/// Largest alphabet, in symbols.
pub(crate) const MAX_SYMBOLS: usize = 160;
/// Largest range a clue may name when the alphabet is inferred from the clues.
pub(crate) const MAX_INFERRED_RANGE: u32 = 256;

/// The sorted set of cell characters, with the byte each one is given in the DFA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Alphabet {
    chars: Vec<char>,
    bytes: Vec<u8>,
    /// The index of each ASCII character ([`NOT_IN`] if absent), so that
    /// [`Alphabet::index`] needs no search for the usual cell characters (boxed:
    /// alphabets travel inside other values).
    ascii: Box<[u8; 128]>,
}

/// Marks an ASCII character outside the alphabet in [`Alphabet`]'s table.
const NOT_IN: u8 = u8::MAX;

impl Alphabet {
    /// Builds an alphabet from any characters (deduplicated, sorted).
    ///
    /// Each symbol gets a DFA byte: word characters (Python `\w`) get ASCII word bytes,
    /// the others non-word bytes, so regex-automata's ASCII `\b` decides word
    /// boundaries exactly as Python does on the real characters.
    pub(crate) fn new(chars: impl IntoIterator<Item = char>) -> Result<Alphabet, String> {
        let chars: Vec<char> = chars.into_iter().collect::<BTreeSet<_>>().into_iter().collect();
        if chars.is_empty() {
            return Err("the alphabet is empty".into());
        }
        if chars.len() > MAX_SYMBOLS {
            return Err(format!("the alphabet has {} characters, more than the limit of {MAX_SYMBOLS}", chars.len()));
        }
        let ascii_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let word_pool: Vec<u8> = (0u8..128).filter(|&b| ascii_word(b)).collect();
        let words = chars.iter().filter(|&&c| is_word(c)).count();
        if words > word_pool.len() {
            return Err(format!(
                "the alphabet has {words} word characters (letters, digits, `_`), more than the limit of {}",
                word_pool.len()
            ));
        }
        let other_pool: Vec<u8> = (0x20u8..0x7F).filter(|&b| !ascii_word(b)).chain(0x80..=0xFF).collect();
        let mut used = [false; 256];
        let mut bytes = vec![0u8; chars.len()];
        // Identity for ASCII characters whose class agrees, then the rest from the pools.
        for (i, &c) in chars.iter().enumerate() {
            if c.is_ascii() && (0x20..0x7F).contains(&(c as u32)) {
                bytes[i] = c as u8;
                used[c as usize] = true;
            }
        }
        for (i, &c) in chars.iter().enumerate() {
            if c.is_ascii() && (0x20..0x7F).contains(&(c as u32)) {
                continue;
            }
            let pool = if is_word(c) { &word_pool } else { &other_pool };
            let Some(&b) = pool.iter().find(|&&b| !used[usize::from(b)]) else {
                return Err(format!("too many {} characters in the alphabet", if is_word(c) { "word" } else { "non-word" }));
            };
            used[usize::from(b)] = true;
            bytes[i] = b;
        }
        let mut ascii = Box::new([NOT_IN; 128]);
        for (i, &c) in chars.iter().enumerate() {
            if c.is_ascii() {
                // At most MAX_SYMBOLS (< 255) symbols.
                ascii[c as usize] = i as u8;
            }
        }
        Ok(Alphabet { chars, bytes, ascii })
    }

    /// The characters, sorted.
    pub(crate) fn chars(&self) -> &[char] {
        &self.chars
    }

    /// Number of symbols.
    pub(crate) fn len(&self) -> usize {
        self.chars.len()
    }

    /// Index of `c`, if it belongs to the alphabet.
    pub(crate) fn index(&self, c: char) -> Option<usize> {
        if c.is_ascii() {
            let i = self.ascii[c as usize];
            return (i != NOT_IN).then_some(usize::from(i));
        }
        self.chars.binary_search(&c).ok()
    }

    /// The DFA byte of symbol `i`.
    pub(crate) fn byte(&self, i: usize) -> u8 {
        self.bytes[i]
    }
}

/// Adds to `out` the characters a clue mentions; fails on a range too large to list.
pub(crate) fn mentioned(items: &[Item], out: &mut BTreeSet<char>) -> Result<(), String> {
    for it in items {
        match it {
            Item::Literal(c) | Item::NotLiteral(c) => add(*c, out),
            Item::In(set) => {
                for s in set {
                    match *s {
                        SetItem::Literal(c) => add(c, out),
                        SetItem::Range(a, b) => {
                            // A range across the surrogate block does not hold its 2048 code points.
                            let gap = if (a as u32) < 0xD800 && (b as u32) > 0xDFFF { 0x800 } else { 0 };
                            let size = b as u32 - a as u32 + 1 - gap;
                            if size > MAX_INFERRED_RANGE {
                                return Err(format!(
                                    "range {}-{} spans {size} characters, too many to infer the alphabet from (limit {MAX_INFERRED_RANGE}); give the alphabet explicitly",
                                    a.escape_debug(),
                                    b.escape_debug(),
                                ));
                            }
                            (a..=b).for_each(|c| add(c, out));
                        }
                        SetItem::Category(Category::Space) => add(' ', out),
                        _ => {}
                    }
                }
            }
            Item::Any | Item::At(_) | Item::GroupRef(_) => {}
            Item::Branch(alts) => alts.iter().try_for_each(|a| mentioned(a, out))?,
            Item::Subpattern { items, .. } | Item::Repeat { items, .. } | Item::Atomic(items) | Item::Assert { items, .. } => {
                mentioned(items, out)?
            }
            Item::GroupRefExists { yes, no, .. } => {
                mentioned(yes, out)?;
                if let Some(no) = no {
                    mentioned(no, out)?;
                }
            }
        }
    }
    Ok(())
}

fn add(c: char, out: &mut BTreeSet<char>) {
    if !c.is_control() {
        let _ = out.insert(c);
    }
}
