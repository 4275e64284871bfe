//! Why a step removes what it removes, in words: the short reasons where one exists
//! (the clue excludes those letters whatever the rest holds; it needs a letter so
//! many times and only so many cells can hold it; its back-reference makes one cell
//! hold another's letter; only these words fit), else the exact generic one. Each
//! short reason is computed from the words of the line that match (so it is true of
//! the removal, which the matcher made exact) and given only when it explains every
//! cell the step changes.

use super::constraints::{self, Constraint};
use super::pool::Rule;
use super::{Engine, Kind, Step, Why};
use crate::compile::Alphabet;
use crate::propagate::SymSet;
use crate::puzzle::Puzzle;

/// Most words of a line listed as the reason of a step.
pub(crate) const MAX_WORDS_SHOWN: usize = 4;

impl Engine<'_> {
    /// The reason of a line step of constraint `i` (a clue or a pool entry) from the
    /// candidates `before` (in line order).
    pub(super) fn why(&mut self, i: usize, before: &[SymSet], step: &Step) -> Why {
        let cells = self.cells_of(i).to_vec();
        match self.constraint(i) {
            Constraint::Clue(k) => self.why_regex(k, &cells, before, step),
            Constraint::Entry(_) => {
                // An entry left with one regex before the step reads as that regex's clue.
                match (before[0].len(), before[0].iter().next()) {
                    (1, Some(r)) if !step.cells.contains(&cells[0]) => {
                        let key = self.layout.clues + r;
                        Why::Entry { regex: Some(r), inner: Box::new(self.why_regex(key, &cells[1..], &before[1..], step)) }
                    }
                    _ => Why::Entry { regex: None, inner: Box::new(Why::NoWord) },
                }
            }
            Constraint::Pool => Why::NoWord,
        }
    }

    /// The reason of a step of regex `key` over `cells` from the candidates `before`.
    fn why_regex(&mut self, key: usize, cells: &[usize], before: &[SymSet], step: &Step) -> Why {
        if !self.alone.contains_key(&(key, cells.len())) {
            let full = vec![SymSet::full(self.compiled.alphabet.len()); cells.len()];
            let support = self.support(key, &full).0;
            let _ = self.alone.insert((key, cells.len()), support);
        }
        let alone = self.alone.get(&(key, cells.len())).map_or(&[][..], Vec::as_slice);
        let outside = step.cells.iter().zip(&step.removed).all(|(&c, r)| {
            cells.iter().enumerate().filter(|&(_, &x)| x == c).all(|(p, _)| alone.get(p).is_some_and(|a| a.and(r).is_empty()))
        });
        if outside {
            return Why::Excludes;
        }
        let Some(words) = self.words(key, before, super::candidates::EXACT_WORDS) else { return Why::NoWord };
        if words.is_empty() {
            return Why::NoWord;
        }
        let words: Vec<Vec<usize>> = words.iter().map(|w| w.chars().filter_map(|ch| self.compiled.alphabet.index(ch)).collect()).collect();
        if words.iter().any(|w| w.len() != cells.len()) {
            return Why::NoWord;
        }
        if let Some(why) = counting(cells, before, &words, step).or_else(|| copying(self.regex_text(key), cells, before, &words, step)) {
            return why;
        }
        let chars = self.compiled.alphabet.chars();
        match words.len() {
            1..=MAX_WORDS_SHOWN => Why::Words(words.iter().map(|w| w.iter().map(|&x| chars[x]).collect()).collect()),
            _ => Why::NoWord,
        }
    }
}

/// A counting reason, when it explains the whole step: some letter occurs at least
/// `k` ≥ 2 times in every matching word, and exactly `k` cells of the line can hold it,
/// so those cells hold it (and the step fixes each cell it changes to that letter).
/// With `k` = 1 the words themselves say it more plainly.
fn counting(cells: &[usize], before: &[SymSet], words: &[Vec<usize>], step: &Step) -> Option<Why> {
    let letters = step.remaining.iter().filter(|r| r.len() == 1).filter_map(|r| r.iter().next()).collect::<std::collections::BTreeSet<_>>();
    for x in letters {
        let need = words.iter().map(|w| w.iter().filter(|&&y| y == x).count()).min()?;
        let can: Vec<usize> = (0..cells.len()).filter(|&p| before[p].contains(x)).collect();
        let fixed_all =
            step.cells.iter().zip(&step.remaining).all(|(c, r)| r.len() == 1 && r.contains(x) && can.iter().any(|&p| cells[p] == *c));
        if need >= 2 && can.len() == need && fixed_all && need < cells.len() {
            return Some(Why::Count { letter: x, count: need, cells: can.iter().map(|&p| cells[p]).collect() });
        }
    }
    None
}

/// A back-reference reason, when it explains the whole step: the clue has one
/// back-reference, and each changed cell holds in every matching word the letter of
/// another cell of the line, whose candidates are exactly the letters left.
fn copying(regex: &str, cells: &[usize], before: &[SymSet], words: &[Vec<usize>], step: &Step) -> Option<Why> {
    let refs: std::collections::BTreeSet<char> =
        regex.as_bytes().windows(2).filter(|w| w[0] == b'\\' && w[1].is_ascii_digit() && w[1] != b'0').map(|w| w[1] as char).collect();
    let group = match refs.iter().collect::<Vec<_>>().as_slice() {
        [g] => g.to_digit(10)? as usize,
        _ => return None,
    };
    let mut pairs = Vec::new();
    for (c, left) in step.cells.iter().zip(&step.remaining) {
        let q = cells.iter().position(|x| x == c)?;
        let p = (0..cells.len())
            .find(|&p| p != q && cells[p] != *c && words.iter().all(|w| w[p] == w[q]) && before[p].and(&before[q]) == *left)?;
        pairs.push((cells[p], *c));
    }
    Some(Why::Copy { group, pairs })
}

/// Letters of a set, separated by spaces.
pub(crate) fn letters(alphabet: &Alphabet, set: &SymSet) -> String {
    set.iter().map(|x| crate::style::visible(alphabet.chars()[x])).collect::<Vec<_>>().join(" ")
}

/// The reason of `step` in words (one line; a split's sub-steps are not included).
pub(crate) fn describe(puzzle: &Puzzle, alphabet: &Alphabet, step: &Step) -> String {
    let regex = |i: Option<usize>| match i.map(|i| constraints::constraint(puzzle, i)) {
        Some(Constraint::Clue(i)) => format!("`{}`", puzzle.clues[i].regex),
        _ => String::new(),
    };
    describe_with(puzzle, alphabet, step, &regex)
}

/// A pool regex, quoted.
fn pool_regex(puzzle: &Puzzle, r: usize) -> String {
    format!("`{}`", puzzle.pool.as_ref().map_or("", |p| p.regexes[r].as_str()))
}

/// Pool regexes, quoted and joined with "or".
fn pool_regexes(puzzle: &Puzzle, set: &SymSet) -> String {
    set.iter().map(|r| pool_regex(puzzle, r)).collect::<Vec<_>>().join(" or ")
}

/// [`describe`], the clue's regex given by `regex`.
fn describe_with(puzzle: &Puzzle, alphabet: &Alphabet, step: &Step, regex: &dyn Fn(Option<usize>) -> String) -> String {
    let name = |c: usize| constraints::cell_name(puzzle, c);
    let entry_name = |e: usize| constraints::cell_name(puzzle, puzzle.givens.len() + e);
    match &step.why {
        Why::Entry { regex: Some(r), inner } if step.kind == Kind::Line => {
            let r = *r;
            let inner = Step { why: (**inner).clone(), ..step.clone() };
            let text = describe_with(puzzle, alphabet, &inner, &|_| pool_regex(puzzle, r));
            format!("it holds {}: {text}", pool_regex(puzzle, r))
        }
        Why::Entry { .. } => {
            let grid = puzzle.givens.len();
            let entry = step.cells.iter().position(|&c| c >= grid);
            let mut parts = Vec::new();
            if let Some(p) = entry {
                let (gone, left) = (&step.removed[p], &step.remaining[p]);
                parts.push(match gone.len() {
                    n if n > MAX_WORDS_SHOWN => format!("no word of {n} of its regexes fits its candidates"),
                    _ => format!("no word of {} fits its candidates", pool_regexes(puzzle, gone)),
                });
                parts.push(match left.len() {
                    0 => "no regex is left".to_string(),
                    1 => format!("it holds {}", pool_regexes(puzzle, left)),
                    n if n > MAX_WORDS_SHOWN => format!("{n} regexes are left"),
                    _ => format!("{} is left", pool_regexes(puzzle, left)),
                });
            }
            if step.cells.iter().any(|&c| c < grid) {
                parts.push("no word of the regexes left for it has a removed letter at its cell".to_string());
            }
            parts.join("; ")
        }
        Why::Pool(Rule::Taken { entry, regex }) => {
            format!("{} is the only regex left for {}, so no other entry holds it", pool_regex(puzzle, *regex), entry_name(*entry))
        }
        Why::Pool(Rule::Only { entry, regex }) => {
            format!("only {} can hold {}, and each regex fills one entry", entry_name(*entry), pool_regex(puzzle, *regex))
        }
        Why::Pool(Rule::NoAssignment) => {
            "each regex fills exactly one entry: no way of giving every entry its own regex gives these the removed ones".to_string()
        }
        _ if step.kind == Kind::Line && step.empties() => format!("no word of {} fits the candidates", regex(step.clue)),
        Why::Excludes => {
            let first = step.removed.first().copied().unwrap_or_default();
            if step.removed.iter().all(|r| *r == first) {
                format!("{} excludes {}", regex(step.clue), letters(alphabet, &first))
            } else {
                format!("{} alone allows none of the removed letters there", regex(step.clue))
            }
        }
        Why::Count { letter, count, cells } => format!(
            "{} needs {count} {}'s and only {} can hold one",
            regex(step.clue),
            crate::style::visible(alphabet.chars()[*letter]),
            cells.iter().map(|&c| name(c)).collect::<Vec<_>>().join(" and ")
        ),
        Why::Copy { group, pairs } => format!(
            "the back-reference `\\{group}` of {} makes {}",
            regex(step.clue),
            pairs.iter().map(|&(a, b)| format!("{} hold the letter of {}", name(b), name(a))).collect::<Vec<_>>().join(", and ")
        ),
        Why::Words(words) if words.len() == 1 => {
            format!("only {} of {} fits the candidates", crate::style::visible_word(&words[0]), regex(step.clue))
        }
        Why::Words(words) => format!(
            "only {} words of {} fit the candidates: {}",
            words.len(),
            regex(step.clue),
            words.iter().map(|w| crate::style::visible_word(w)).collect::<Vec<_>>().join(", ")
        ),
        Why::NoWord => match (step.cells.as_slice(), step.removed.as_slice()) {
            ([c], [r]) if r.len() == 1 => {
                format!("no word of {} over the current candidates has {} at {}", regex(step.clue), letters(alphabet, r), name(*c))
            }
            _ => format!("no word of {} over the current candidates has a removed letter at its cell", regex(step.clue)),
        },
        Why::Split { cell, letter, empty, steps } if *cell >= puzzle.givens.len() => format!(
            "if {} held {}, then after {} step{} {} would have nothing left",
            name(*cell),
            pool_regex(puzzle, *letter),
            steps.len(),
            if steps.len() == 1 { "" } else { "s" },
            name(*empty)
        ),
        Why::Split { cell, letter, empty, steps } => format!(
            "if {} were '{}', then after {} step{} {} would have {} left",
            name(*cell),
            crate::style::visible(alphabet.chars()[*letter]),
            steps.len(),
            if steps.len() == 1 { "" } else { "s" },
            name(*empty),
            if *empty >= puzzle.givens.len() { "no regex" } else { "no letter" }
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
