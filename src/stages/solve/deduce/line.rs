//! One clue over the candidates of its cells: the letters its words use (exactly,
//! asking the matcher where the automaton only approximates the clue), and the words
//! themselves when there are few.

use super::Engine;
use crate::compile::DEAD;
use crate::propagate::{self, SymSet};
use crate::solve::words::Words;

/// Most words of a line asked of the matcher one by one, for a clue whose automaton
/// only approximates it; beyond, the automaton's support stands (its removals are
/// still exact: a letter no accepted word uses is in no matching word).
pub const EXACT_WORDS: usize = 4096;

impl Engine<'_> {
    /// The letters of each cell of clue `i`'s `line` that some word of the clue over
    /// the line uses, and whether more may be kept (see [`EXACT_WORDS`]).
    pub(super) fn support(&self, i: usize, line: &[SymSet]) -> (Vec<SymSet>, bool) {
        self.spent.set(self.spent.get() + 1);
        let cc = &self.compiled.clues[i];
        let sigma = self.compiled.alphabet.len();
        let support: Vec<SymSet> = propagate::line_support(cc, sigma, line).iter().zip(line).map(|(s, d)| s.and(d)).collect();
        if !cc.approximate() || support.iter().any(SymSet::is_empty) {
            return (support, false);
        }
        match self.matching_words(i, &support, EXACT_WORDS) {
            Some(words) => {
                let mut exact = vec![SymSet::default(); line.len()];
                for w in &words {
                    for (p, &x) in w.iter().enumerate() {
                        exact[p].insert(x);
                    }
                }
                (exact, false)
            }
            None => (support, true),
        }
    }

    /// The words (symbols) of `line`'s product that clue `i`'s matcher accepts, when the
    /// product has at most `max` words and the matcher decides each; `None` otherwise.
    fn matching_words(&self, i: usize, line: &[SymSet], max: usize) -> Option<Vec<Vec<usize>>> {
        let mut count: usize = 1;
        for d in line {
            count = count.checked_mul(d.len()).filter(|&n| n <= max)?;
        }
        self.spent.set(self.spent.get() + count / super::WORDS_PER_UNIT);
        let mut words = Words::new(self.compiled.alphabet.chars(), line);
        let mut found = Vec::new();
        while let Some(text) = words.next_word() {
            if (self.matcher)(i, text)? {
                found.push(words.symbols().collect());
            }
        }
        Some(found)
    }

    /// The words of clue `i` over `line`, as text, when there are at most `max` (and,
    /// for an approximated clue, the matcher can be asked each candidate).
    pub(super) fn words(&self, i: usize, line: &[SymSet], max: usize) -> Option<Vec<String>> {
        let cc = &self.compiled.clues[i];
        let chars = self.compiled.alphabet.chars();
        let text = |w: &[usize]| w.iter().map(|&x| chars[x]).collect::<String>();
        if cc.approximate() {
            let (support, extra) = self.support(i, line);
            if extra {
                return None;
            }
            let words = self.matching_words(i, &support, EXACT_WORDS)?;
            return (words.len() <= max).then(|| words.iter().map(|w| text(w)).collect());
        }
        let a = &cc.automaton;
        if propagate::line_count(a, line).is_none_or(|n| n > max as u128) {
            return None;
        }
        let live = propagate::live_layers(a, line);
        let mut out = Vec::new();
        let mut word = Vec::with_capacity(line.len());
        walk(a, line, &live, a.start, &mut word, &mut out);
        Some(out.iter().map(|w| text(w)).collect())
    }
}

/// Every accepted word through live states from state `s` at position `word.len()`.
fn walk(a: &crate::compile::Automaton, line: &[SymSet], live: &[Vec<u32>], s: u32, word: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    let p = word.len();
    if p == line.len() {
        if s != DEAD && a.accept[s as usize] {
            out.push(word.clone());
        }
        return;
    }
    for x in line[p].iter() {
        let t = a.step(s, x);
        if t != DEAD && live[p + 1].binary_search(&t).is_ok() {
            word.push(x);
            walk(a, line, live, t, word, out);
            let _ = word.pop();
        }
    }
}
