//! One regex over the candidates of a line: the letters its words use (exactly,
//! asking the matcher where the automaton only approximates the regex), and the words
//! themselves when there are few. A regex is named by its key: clue `key`, or pool
//! regex `key` − clues (whose automaton depends on the line's length).

use super::Engine;
use crate::compile::DEAD;
use crate::compile::FastMap;
use crate::propagate::{self, SymSet};
use crate::solve::odometer::{Words, ask_each};

/// Most words of a line asked of the matcher one by one, for a clue whose automaton
/// only approximates it; beyond, the automaton's support stands (its removals are
/// still exact: a letter no accepted word uses is in no matching word).
pub(crate) const EXACT_WORDS: usize = 512;

/// Most steps of the walk that lists a tagged clue's candidate words
/// ([`propagate::skeleton_support::candidates`]) before every word of the line is asked instead.
const CANDIDATE_STEPS: usize = 1 << 14;

/// Fewest words of a line for which that walk is made: fewer are asked one by one
/// (the matcher's verdicts are remembered, and a short line's walk costs more).
const WALK_WORDS: usize = 64;

/// Memos of one engine: line supports and the matcher's verdicts, which the case
/// splits ask again and again (each probe narrows the same lines from nearly the same
/// candidates).
#[derive(Debug, Default)]
pub(super) struct Memo {
    /// Per (regex, candidates of its line): the support and whether it may keep extras.
    /// (Per regex, so that a line is looked up without copying it.)
    lines: Vec<FastMap<Box<[SymSet]>, Support>>,
    /// Lines kept in `lines`, all regexes together.
    kept: usize,
    /// Per regex: the matcher's verdict on each word asked.
    words: Vec<FastMap<Box<str>, Option<bool>>>,
    /// Per regex whose automaton only approximates it: lines whose matching words were
    /// all listed, most recent last. A line within one of them has as matching words
    /// those of its words that fit it, without asking the matcher again.
    bases: Vec<Vec<Base>>,
    /// What the assumptions of the top level's case splits lead to.
    pub(super) assumptions: super::closure::Assumptions,
}

/// A line's support, and whether it may keep extra letters.
type Support = (Vec<SymSet>, bool);

/// A line of candidates and every word over it that the matcher accepts.
#[derive(Debug)]
struct Base {
    line: Vec<SymSet>,
    words: Vec<Vec<u8>>,
}

/// Most bases kept per clue.
const BASES: usize = 8;

/// Most lines a memo keeps before it starts afresh (a bound on memory).
const MEMO_LINES: usize = 1 << 15;

impl Engine<'_> {
    /// The letters of each cell of `line` that some word of regex `i` over the line
    /// uses, and whether more may be kept (see [`EXACT_WORDS`]).
    pub(super) fn support(&self, i: usize, line: &[SymSet]) -> (Vec<SymSet>, bool) {
        self.spent.set(self.spent.get() + 1);
        if let Some(hit) = self.memo.borrow().lines.get(i).and_then(|m| m.get(line)) {
            return hit.clone();
        }
        let out = self.compute_support(i, line);
        let mut memo = self.memo.borrow_mut();
        if memo.kept >= MEMO_LINES {
            memo.lines.iter_mut().for_each(FastMap::clear);
            memo.kept = 0;
        }
        if memo.lines.len() <= i {
            memo.lines.resize_with(i + 1, FastMap::default);
        }
        memo.kept += 1;
        let _ = memo.lines[i].insert(line.into(), out.clone());
        out
    }

    fn compute_support(&self, i: usize, line: &[SymSet]) -> (Vec<SymSet>, bool) {
        let Some(cc) = self.automaton(i, line.len()) else { return (vec![SymSet::default(); line.len()], false) };
        let sigma = self.compiled.alphabet.len();
        let raw = self.fast.borrow_mut().entry((i, line.len())).or_default().support(cc, sigma, line);
        let support: Vec<SymSet> = raw.iter().zip(line).map(|(s, d)| s.and(d)).collect();
        if !cc.approximate() || support.iter().any(SymSet::is_empty) {
            return (support, false);
        }
        let mut exact = vec![SymSet::default(); line.len()];
        {
            let memo = self.memo.borrow();
            let within = |b: &&Base| b.line.len() == line.len() && b.line.iter().zip(line).all(|(b, d)| d.and(b) == *d);
            if let Some(base) = memo.bases.get(i).and_then(|bs| bs.iter().rev().find(within)) {
                for w in &base.words {
                    if w.iter().zip(line).all(|(&x, d)| d.contains(x as usize)) {
                        for (p, &x) in w.iter().enumerate() {
                            exact[p].insert(x as usize);
                        }
                    }
                }
                return (exact, false);
            }
        }
        let mut words = Vec::new();
        let all = self.each_match(i, &support, EXACT_WORDS, |symbols| {
            let w: Vec<u8> = symbols.map(|x| x as u8).collect();
            for (p, &x) in w.iter().enumerate() {
                exact[p].insert(x as usize);
            }
            words.push(w);
        });
        if !all {
            return (support, true);
        }
        // Symbols fit a byte: a SymSet holds at most 192. Every matching word over
        // `line` lies within `support`, so `line` is the base.
        let mut memo = self.memo.borrow_mut();
        if memo.bases.len() <= i {
            memo.bases.resize_with(i + 1, Vec::new);
        }
        let bases = &mut memo.bases[i];
        if bases.len() >= BASES {
            let _ = bases.remove(0);
        }
        bases.push(Base { line: line.to_vec(), words });
        (exact, false)
    }

    /// The matcher's verdict on `word` for clue `i`, remembered.
    fn matches(&self, i: usize, word: &str) -> Option<bool> {
        if let Some(&hit) = self.memo.borrow().words.get(i).and_then(|m| m.get(word)) {
            return hit;
        }
        let verdict = (self.matcher)(i, word);
        let mut memo = self.memo.borrow_mut();
        if memo.words.len() <= i {
            memo.words.resize_with(i + 1, FastMap::default);
        }
        let _ = memo.words[i].insert(word.into(), verdict);
        verdict
    }

    /// Calls `found` with the symbols of each word of `line`'s product that clue `i`'s
    /// matcher accepts; `false` (having called it for some) when more than `max` words
    /// would be asked (for a clue with back-references, those whose references copy
    /// their groups; else every word of the product) or the matcher decides not every
    /// one.
    fn each_match(&self, i: usize, line: &[SymSet], max: usize, mut found: impl FnMut(&mut dyn Iterator<Item = usize>)) -> bool {
        let count = line.iter().try_fold(1usize, |n, d| n.checked_mul(d.len())).unwrap_or(usize::MAX);
        if let Some((cc, t)) = self.automaton(i, line.len()).and_then(|cc| Some((cc, cc.tagged.as_ref()?))).filter(|_| count >= WALK_WORDS)
        {
            // Only the words the skeleton accepts with its back-references' texts
            // equal to their groups' can match: those are asked, not every word
            // (however many the line has).
            let sigma = self.compiled.alphabet.len();
            let words = propagate::skeleton_support::candidates(&cc.automaton, t, sigma, line, CANDIDATE_STEPS, max);
            if let Some(words) = words {
                self.spent.set(self.spent.get() + words.len() / super::WORDS_PER_UNIT);
                let asked = ask_each(
                    self.compiled.alphabet.chars(),
                    &words,
                    |text| self.matches(i, text),
                    |w| {
                        found(&mut w.iter().map(|&x| x as usize));
                    },
                );
                return asked.is_some();
            }
        }
        if count > max {
            return false;
        }
        self.spent.set(self.spent.get() + count / super::WORDS_PER_UNIT);
        let mut words = Words::new(self.compiled.alphabet.chars(), line);
        while let Some(text) = words.next_word() {
            match self.matches(i, text) {
                Some(true) => found(&mut words.symbols()),
                Some(false) => {}
                None => return false,
            }
        }
        true
    }

    /// The words (symbols) of `line`'s product that clue `i`'s matcher accepts, when at
    /// most `max` are asked ([`Engine::each_match`]) and the matcher decides each;
    /// `None` otherwise.
    fn matching_words(&self, i: usize, line: &[SymSet], max: usize) -> Option<Vec<Vec<usize>>> {
        let mut out = Vec::new();
        self.each_match(i, line, max, |symbols| out.push(symbols.collect())).then_some(out)
    }

    /// The words of regex `i` over `line`, as text, when there are at most `max` (and,
    /// for an approximated regex, the matcher can be asked each candidate).
    pub(super) fn words(&self, i: usize, line: &[SymSet], max: usize) -> Option<Vec<String>> {
        let cc = self.automaton(i, line.len())?;
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
