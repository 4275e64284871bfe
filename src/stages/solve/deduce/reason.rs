//! Why a step removes what it removes, in words: the short reasons where one exists
//! (the clue excludes those letters whatever the rest holds; only these words fit),
//! else the exact generic one.

use super::{Engine, Kind, Step, Why};
use crate::compile::Alphabet;
use crate::propagate::SymSet;
use crate::puzzle::Puzzle;

/// Most words of a line listed as the reason of a step.
pub const MAX_WORDS_SHOWN: usize = 4;

impl Engine<'_> {
    /// The reason of a line step of clue `i` from the candidates `before` (in line order).
    pub(super) fn why(&mut self, i: usize, before: &[SymSet], step: &Step) -> Why {
        let cells = &self.puzzle.clues[i].cells;
        if self.alone[i].is_none() {
            let full = vec![SymSet::full(self.compiled.alphabet.len()); cells.len()];
            self.alone[i] = Some(self.support(i, &full).0);
        }
        let alone = self.alone[i].as_deref().unwrap_or_default();
        let outside = step.cells.iter().zip(&step.removed).all(|(&c, r)| {
            cells.iter().enumerate().filter(|&(_, &x)| x == c).all(|(p, _)| alone.get(p).is_some_and(|a| a.and(r).is_empty()))
        });
        if outside {
            return Why::Excludes;
        }
        match self.words(i, before, MAX_WORDS_SHOWN) {
            Some(words) if !words.is_empty() => Why::Words(words),
            _ => Why::NoWord,
        }
    }
}

/// Letters of a set, separated by spaces.
pub fn letters(alphabet: &Alphabet, set: &SymSet) -> String {
    set.iter().map(|x| alphabet.chars()[x].to_string()).collect::<Vec<_>>().join(" ")
}

/// The reason of `step` in words (one line; a split's sub-steps are not included).
pub fn describe(puzzle: &Puzzle, alphabet: &Alphabet, step: &Step) -> String {
    let regex = |i: Option<usize>| i.map_or(String::new(), |i| format!("`{}`", puzzle.clues[i].regex));
    let name = |c: usize| puzzle.shape.cell_name(c);
    match &step.why {
        _ if step.kind == Kind::Line && step.empties() => format!("no word of {} fits the candidates", regex(step.clue)),
        Why::Excludes => {
            let first = step.removed.first().copied().unwrap_or_default();
            if step.removed.iter().all(|r| *r == first) {
                format!("{} excludes {}", regex(step.clue), letters(alphabet, &first))
            } else {
                format!("{} alone allows none of the removed letters there", regex(step.clue))
            }
        }
        Why::Words(words) if words.len() == 1 => format!("only {} of {} fits the candidates", words[0], regex(step.clue)),
        Why::Words(words) => format!("only {} words of {} fit the candidates: {}", words.len(), regex(step.clue), words.join(", ")),
        Why::NoWord => match (step.cells.as_slice(), step.removed.as_slice()) {
            ([c], [r]) if r.len() == 1 => {
                format!("no word of {} over the current candidates has {} at {}", regex(step.clue), letters(alphabet, r), name(*c))
            }
            _ => format!("no word of {} over the current candidates has a removed letter at its cell", regex(step.clue)),
        },
        Why::Split { cell, letter, empty, steps } => format!(
            "if {} were '{}', then after {} step{} {} would have no letter left",
            name(*cell),
            alphabet.chars()[*letter],
            steps.len(),
            if steps.len() == 1 { "" } else { "s" },
            name(*empty)
        ),
        Why::Search { solutions: 1, complete: true } => format!(
            "lines and case splits stall with {} cell{} open; the SAT search finds the solution and proves it is the only one (`crossat solve --proof FILE` writes the proof)",
            step.cells.len(),
            if step.cells.len() == 1 { "" } else { "s" }
        ),
        Why::Search { solutions, complete } => {
            format!(
                "lines and case splits stall; the SAT search finds {solutions} solution(s){}",
                if *complete { "" } else { " (search not exhausted)" }
            )
        }
    }
}
