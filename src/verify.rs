//! Stage 5, **decode/verify**: a model's cells → a [`Grid`], re-checked against every
//! clue by an independent matcher before anything is printed.
//!
//! The matcher is fancy-regex (a backtracking engine with its own parser), run on the
//! clue text anchored as `\A(?:…)\z`. It shares no code with the parse → compile →
//! encode path, so a bug there shows up as a failed verification (reported as an
//! internal error, exit 3) rather than as a wrong answer. Before it sees a clue,
//! [`to_fancy`] rewrites the few spellings the two dialects read differently.

use crate::error::{Error, Result};
use crate::puzzle::{Puzzle, Shape};

/// A filled grid: one character per cell, in cell order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// The characters.
    pub cells: Vec<char>,
    /// For a regex pool, the regex (index into the pool) of each entry.
    pub assignment: Vec<usize>,
}

impl Grid {
    /// The display rows as strings, top to bottom.
    pub fn rows(&self, shape: &Shape) -> Vec<String> {
        shape.display_rows().iter().map(|r| r.iter().map(|&c| self.cells[c]).collect()).collect()
    }

    /// The characters of a list of cells.
    pub fn word(&self, cells: &[usize]) -> String {
        cells.iter().map(|&c| self.cells[c]).collect()
    }
}

/// Backtracking budget of the independent matcher, per clue and line.
const BACKTRACK_LIMIT: usize = 10_000_000;

/// The independent matcher for every clue of a puzzle (and every pool regex).
pub struct Verifier {
    regexes: Vec<fancy_regex::Regex>,
    pool: Vec<fancy_regex::Regex>,
}

impl Verifier {
    /// Compiles every clue with fancy-regex; fails if it cannot read one.
    pub fn new(source: &str, puzzle: &Puzzle) -> Result<Verifier> {
        let build = |label: &str, regex: &str| {
            fancy_regex::RegexBuilder::new(&format!("\\A(?:{})\\z", to_fancy(regex))).backtrack_limit(BACKTRACK_LIMIT).build().map_err(
                |e| Error::Clue {
                    source: source.to_string(),
                    clue: label.to_string(),
                    regex: regex.to_string(),
                    msg: format!("the independent checker (fancy-regex) cannot read this clue, so no solution could be verified: {e}"),
                },
            )
        };
        let regexes = puzzle.clues.iter().map(|c| build(&c.label, &c.regex)).collect::<Result<_>>()?;
        let pool = puzzle
            .pool
            .iter()
            .flat_map(|p| p.regexes.iter().enumerate())
            .map(|(r, x)| build(&format!("pool regex {}", r + 1), x))
            .collect::<Result<_>>()?;
        Ok(Verifier { regexes, pool })
    }

    /// Whether clue `i` fully matches `word`.
    pub fn clue_matches(&self, i: usize, word: &str) -> bool {
        self.regexes[i].is_match(word).unwrap_or(false)
    }

    /// The first clue the grid violates, with the line's text, if any.
    pub fn first_failure(&self, puzzle: &Puzzle, grid: &Grid) -> Option<(usize, String)> {
        puzzle.clues.iter().enumerate().find_map(|(i, c)| {
            let word = grid.word(&c.cells);
            (!self.regexes[i].is_match(&word).unwrap_or(false)).then_some((i, word))
        })
    }

    /// Checks a grid the solver produced; a failure is a bug in crossat.
    pub fn check(&self, puzzle: &Puzzle, grid: &Grid) -> Result<()> {
        if let Some((i, word)) = self.first_failure(puzzle, grid) {
            return Err(Error::Internal(format!(
                "solution failed verification: {} clue '{}' does not match \"{word}\"",
                puzzle.clues[i].label, puzzle.clues[i].regex
            )));
        }
        if let Some(pool) = &puzzle.pool {
            let mut used = vec![false; pool.regexes.len()];
            if grid.assignment.len() != pool.entries.len() {
                return Err(Error::Internal("solution does not assign a regex to every entry".into()));
            }
            for (e, &r) in grid.assignment.iter().enumerate() {
                let word = grid.word(&pool.entries[e]);
                if std::mem::replace(&mut used[r], true) {
                    return Err(Error::Internal(format!("solution uses pool regex '{}' twice", pool.regexes[r])));
                }
                if !self.pool[r].is_match(&word).unwrap_or(false) {
                    return Err(Error::Internal(format!(
                        "solution failed verification: entry {} regex '{}' does not match \"{word}\"",
                        pool.labels[e], pool.regexes[r]
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Turns symbol indices into a grid.
pub fn decode(alphabet: &crate::compile::Alphabet, found: &crate::solve::Found) -> Grid {
    Grid { cells: found.cells.iter().map(|&a| alphabet.chars()[a]).collect(), assignment: found.assignment.clone() }
}

/// Rewrites Python spellings that fancy-regex reads differently, character for
/// character, without parsing the regex: an escaped punctuation character (`\>`, `\<`
/// are word boundaries in fancy-regex, literals in Python) and an octal escape become
/// `\x{…}`; inside a class, a bare `[` (nested class in fancy-regex) and the set
/// operators `&&` and `~~` are escaped.
pub fn to_fancy(py: &str) -> String {
    let chars: Vec<char> = py.chars().collect();
    let mut out = String::with_capacity(py.len() + 8);
    let mut in_class = false;
    let mut class_start = 0;
    let mut i = 0;
    let hex = |c: char| format!("\\x{{{:X}}}", c as u32);
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && i + 1 < chars.len() {
            let d = chars[i + 1];
            let octal_len = chars[i + 1..].iter().take(3).take_while(|c| ('0'..='7').contains(c)).count();
            let is_octal = d == '0' || (octal_len == 3) || (in_class && ('1'..='7').contains(&d));
            if is_octal {
                let digits: String = chars[i + 1..i + 1 + octal_len.max(1)].iter().collect();
                match u32::from_str_radix(&digits, 8).ok().and_then(char::from_u32) {
                    Some(ch) => out.push_str(&hex(ch)),
                    None => out.push_str(&format!("\\{digits}")),
                }
                i += 1 + octal_len.max(1);
                continue;
            }
            if !d.is_ascii_alphanumeric() && d != '\\' {
                out.push_str(&hex(d));
            } else if in_class && d == 'b' {
                out.push_str(&hex('\u{8}'));
            } else {
                out.push(c);
                out.push(d);
            }
            i += 2;
            continue;
        }
        if in_class {
            let first = i == class_start || (i == class_start + 1 && chars[class_start] == '^');
            let range_op = c == '-' && !first && chars.get(i + 1).is_some_and(|&n| n != ']');
            if c == ']' && !first {
                in_class = false;
                out.push(c);
            } else if (c == '^' && i == class_start) || range_op || c.is_alphanumeric() {
                out.push(c);
            } else {
                // Any other literal, including a `-` that Python reads as a member.
                out.push_str(&hex(c));
            }
        } else {
            if c == '[' {
                in_class = true;
                class_start = i + 1;
            }
            out.push(c);
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::to_fancy;

    fn fm(py: &str, s: &str) -> bool {
        fancy_regex::Regex::new(&format!("\\A(?:{})\\z", to_fancy(py)))
            .map(|r| r.is_match(s).unwrap_or(false))
            .unwrap_or_else(|e| panic!("{py}: {e}"))
    }

    #[test]
    fn python_spellings_mean_the_same_to_fancy_regex() {
        assert!(fm(r"\>", ">"));
        assert!(fm(r"(\)|\>)*", ")>"));
        assert!(fm(r"[[]]?", "[]"));
        assert!(fm(r"[^[\]]", "a"));
        assert!(!fm(r"[^[\]]", "["));
        assert!(fm(r"\101", "A"));
        assert!(fm(r"[\101-\103]", "B"));
        assert!(fm(r"[A&&B]", "&"));
        assert!(fm(r"[]a]", "]"));
        assert!(fm(r"[^]a]", "b"));
        assert!(fm(r"\$\.\-", "$.-"));
        assert!(fm(r"(a)\1", "aa"));
        assert!(fm(r"[\b]", "\u{8}"));
        assert!(fm(r"\\", "\\"));
        assert!(fm(r"[--/]", "."));
        assert!(fm(r"[-a]", "-"));
        assert!(fm(r"[a-]", "-"));
        assert!(!fm(r"[--/]", "a"));
        assert!(fm(r"[ -$- ]+", "#- "));
    }
}
