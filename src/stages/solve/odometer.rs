//! Walking every combination of per-position options: the `Odometer`, the `Words`
//! of a line (one letter per cell from its domain) that the matcher is asked about, and
//! [`exact_support`], the exact narrowing of a line that only the matcher can decide.

use crate::compile::Compiled;
use crate::propagate::SymSet;
use crate::verify::Verifier;

/// Most words of one line that solving (propagation, the line search, the split into
/// parts) tests one by one with the matcher.
pub(crate) const EXACT_WORDS: usize = 256;

/// Every combination of one choice per position, in order, the last position varying
/// fastest (an odometer whose digits have their own bases).
#[derive(Clone, Debug)]
pub(crate) struct Odometer {
    sizes: Vec<usize>,
    pick: Vec<usize>,
}

impl Odometer {
    /// Starts at the first combination (every choice 0). With some size 0 there is no
    /// combination at all: the caller checks [`Odometer::is_empty`].
    pub(crate) fn new(sizes: Vec<usize>) -> Odometer {
        let pick = vec![0; sizes.len()];
        Odometer { sizes, pick }
    }

    /// Whether some position has no choice, so that there is no combination.
    pub(crate) fn is_empty(&self) -> bool {
        self.sizes.contains(&0)
    }

    /// The current choice of each position.
    pub(crate) fn pick(&self) -> &[usize] {
        &self.pick
    }

    /// Moves to the next combination and returns the first position that changed (every
    /// later one changed too); `None`, back at the first combination, after the last.
    pub(crate) fn advance(&mut self) -> Option<usize> {
        for p in (0..self.pick.len()).rev() {
            self.pick[p] += 1;
            if self.pick[p] < self.sizes[p] {
                return Some(p);
            }
            self.pick[p] = 0;
        }
        None
    }
}

/// The words of a line, one letter per cell from its domain, in order, each built in
/// one reused buffer (so not an [`Iterator`]: a word lives until the next one).
pub(crate) struct Words<'a> {
    chars: &'a [char],
    options: Vec<Vec<usize>>,
    odometer: Odometer,
    word: String,
    /// Whether the odometer's current combination is yet to be handed out.
    pending: bool,
}

impl<'a> Words<'a> {
    /// The words over `line` (a domain per cell) in the alphabet `chars`.
    pub(crate) fn new(chars: &'a [char], line: &[SymSet]) -> Words<'a> {
        let options: Vec<Vec<usize>> = line.iter().map(|d| d.iter().collect()).collect();
        let odometer = Odometer::new(options.iter().map(Vec::len).collect());
        let pending = !odometer.is_empty();
        Words { chars, options, odometer, word: String::with_capacity(line.len() * 4), pending }
    }

    /// The next word, or `None` after the last.
    pub(crate) fn next_word(&mut self) -> Option<&str> {
        if !std::mem::replace(&mut self.pending, false) {
            self.odometer.advance()?;
        }
        let Words { chars, options, odometer, word, .. } = self;
        word.clear();
        word.extend(odometer.pick().iter().zip(options.iter()).map(|(&k, o)| chars[o[k]]));
        Some(word)
    }

    /// The symbols of the current word, one per cell.
    pub(crate) fn symbols(&self) -> impl Iterator<Item = usize> + '_ {
        self.odometer.pick().iter().zip(&self.options).map(|(&k, o)| o[k])
    }
}

/// Most steps of the walk that lists a back-reference clue's candidate words
/// ([`crate::propagate::skeleton_support::candidates`]) in propagation, where a line has more
/// words than [`exact_support`] asks one by one. A walk that runs out of steps is work
/// lost, and propagation asks many lines: 1,024 steps keep the gain on the 84
/// antoine-trux puzzles (docs/performance.md) while no puzzle loses more than 10 %.
pub(crate) const WALK_STEPS: usize = 1 << 10;

/// Asks `matches` about each of `words` (symbols, as a candidate walk lists them)
/// written over `chars`, and hands each word it accepts to `found`; `None` as soon as
/// it gives no verdict.
pub(crate) fn ask_each(
    chars: &[char],
    words: &[Vec<u8>],
    mut matches: impl FnMut(&str) -> Option<bool>,
    mut found: impl FnMut(&[u8]),
) -> Option<()> {
    let mut text = String::new();
    for w in words {
        text.clear();
        text.extend(w.iter().map(|&x| chars[x as usize]));
        if matches(&text)? {
            found(w);
        }
    }
    Some(())
}

/// For a clue whose automaton only approximates it for propagation (back-references,
/// lookarounds, the counterexample route): the letters of each cell that some word
/// the automaton's `support` allows *and the matcher accepts* uses, when there are at
/// most `max_words` such words ([`EXACT_WORDS`] when solving) — or, past that many, at
/// most `max_words` whose back-references copy their groups (found within
/// `WALK_STEPS`); `None` otherwise (or when the matcher gives up, or for a regular
/// clue, whose support is already exact). Exact, so sound: a letter goes only when no
/// matching word of the line uses it.
pub(crate) fn exact_support(
    compiled: &Compiled,
    verifier: &Verifier,
    i: usize,
    support: &[SymSet],
    max_words: usize,
) -> Option<Vec<SymSet>> {
    exact_support_noting(compiled, verifier, i, support, max_words, &mut false)
}

/// [`exact_support`], setting `all` when the matcher accepted every word of `support`
/// (listed one by one): the line's domains, once narrowed to the support, then imply
/// the clue, and keep implying it as they narrow further ([`entailed`]).
pub(crate) fn exact_support_noting(
    compiled: &Compiled,
    verifier: &Verifier,
    i: usize,
    support: &[SymSet],
    max_words: usize,
    all: &mut bool,
) -> Option<Vec<SymSet>> {
    let cc = &compiled.clues[i];
    if !cc.approximate() {
        return None;
    }
    let mut exact = vec![SymSet::default(); support.len()];
    let count = support.iter().try_fold(1usize, |n, d| n.checked_mul(d.len())).unwrap_or(usize::MAX);
    if count > max_words {
        let words = crate::propagate::skeleton_support::candidates(
            &cc.automaton,
            cc.tagged.as_ref()?,
            compiled.alphabet.len(),
            support,
            WALK_STEPS,
            max_words,
        )?;
        ask_each(
            compiled.alphabet.chars(),
            &words,
            |text| verifier.clue_matches(i, text).ok(),
            |w| {
                w.iter().enumerate().for_each(|(p, &x)| exact[p].insert(x as usize));
            },
        )?;
        return Some(exact);
    }
    let mut words = Words::new(compiled.alphabet.chars(), support);
    let mut every = true;
    while let Some(word) = words.next_word() {
        if verifier.clue_matches(i, word).ok()? {
            for (p, a) in words.symbols().enumerate() {
                exact[p].insert(a);
            }
        } else {
            every = false;
        }
    }
    *all |= every && count > 0;
    Some(exact)
}

/// Whether every word of a line (one letter per cell from `line`, its cells' domains)
/// matches clue `i`, asked of the matcher one by one when there are at most
/// `max_words` of them; false otherwise (more words, or the matcher gives up). The
/// domains then imply the clue: every grid within them satisfies it, so a search over
/// such grids needs none of its clauses. Asked only of a clue whose automaton
/// approximates it: a regular clue's clauses left after unit propagation are few.
pub(crate) fn entailed(compiled: &Compiled, verifier: &Verifier, i: usize, line: &[SymSet], max_words: usize) -> bool {
    let count = line.iter().try_fold(1usize, |n, d| n.checked_mul(d.len())).unwrap_or(usize::MAX);
    if !compiled.clues[i].approximate() || count == 0 || count > max_words {
        return false;
    }
    let mut words = Words::new(compiled.alphabet.chars(), line);
    while let Some(word) = words.next_word() {
        if !verifier.clue_matches(i, word).unwrap_or(false) {
            return false;
        }
    }
    true
}

/// Narrowing a line that only the matcher decides ([`exact_support`], the propagation
/// before the SAT search): on lines of clues with back-references over more words than
/// it asks one by one, the letters it keeps are exactly those of the words CPython
/// 3.11's `re.fullmatch` accepts (`scripts/line_oracle.py`).
#[cfg(test)]
mod tests {
    use super::{EXACT_WORDS, exact_support};
    use crate::pipeline::{self, Input};
    use crate::propagate::SymSet;
    use crate::rng::Rng;
    use crate::test_support::python_oracle;
    use serde_json::json;

    #[test]
    fn lines_past_the_word_limit_keep_exactly_the_letters_of_pythons_matches() {
        // Groups of more than one cell, or several references: these stay on the tagged
        // route (one-cell groups over five letters are expanded into regular automata).
        let rows = [
            "(.)(.)\\2\\1(.)\\3",
            "(..)\\1.*",
            ".*(..).*\\1",
            "(.+)\\1.*",
            "(?=(.)..\\1).*(..)\\2",
            "(.)(.)(.)\\3\\2\\1",
            ".(..).?\\1",
            "((.)\\2|(.)(.)\\4\\3)+",
            ".*(...).*\\1",
        ];
        let text = json!({"cols": 6, "left": rows, "top": [".*", ".*", ".*", ".*", ".*", ".*"], "alphabet": "ABCDE"}).to_string();
        let prep = pipeline::prepare(&Input { source: "<test>".into(), bytes: text.into_bytes(), ..Input::default() }).expect("prepare");
        let compiled = prep.compiled().expect("compile").clone();
        let chars = compiled.alphabet.chars().to_vec();
        let tagged: Vec<usize> = (0..rows.len()).filter(|&i| compiled.clues[i].tagged.is_some()).collect();
        assert!(tagged.len() >= 7, "only {} clues on the tagged route", tagged.len());
        let mut rng = Rng::new(17);
        let (mut cases, mut requests, mut asked) = (Vec::new(), Vec::new(), 0);
        for _ in 0..4_000 {
            let line: Vec<SymSet> = (0..6)
                .map(|_| {
                    let mut d = SymSet::default();
                    while d.is_empty() {
                        (0..chars.len()).filter(|_| rng.below(3) > 0).for_each(|x| d.insert(x));
                    }
                    d
                })
                .collect();
            if line.iter().map(SymSet::len).product::<usize>() <= EXACT_WORDS {
                continue;
            }
            let i = tagged[rng.below(tagged.len())];
            asked += 1;
            let Some(got) = exact_support(&compiled, &prep.verifier, i, &line, EXACT_WORDS) else { continue };
            let text = |d: &SymSet| d.iter().map(|x| chars[x]).collect::<String>();
            requests.push(json!({"p": rows[i], "cands": line.iter().map(text).collect::<Vec<_>>()}));
            cases.push((i, line.iter().map(text).collect::<Vec<_>>(), got.iter().map(text).collect::<Vec<_>>()));
        }
        // A line with too many candidate words, or whose walk runs out of steps, is left
        // alone (`None`): on these clues, most lines of over 256 words.
        assert!(cases.len() >= 400, "only {} of {asked} lines narrowed exactly", cases.len());
        let mut narrowed = 0;
        for ((i, line, got), answer) in cases.iter().zip(python_oracle("scripts/line_oracle.py", requests)) {
            assert_eq!(answer["ok"], true, "{}: {answer}", rows[*i]);
            let used: Vec<&str> = answer["used"].as_array().expect("used").iter().map(|u| u.as_str().expect("str")).collect();
            assert_eq!(got, &used, "{} over {line:?}", rows[*i]);
            narrowed += usize::from(got != line);
        }
        eprintln!("refine: {} exact lines, {narrowed} narrowed, {asked} asked", cases.len());
        assert!(narrowed >= 200, "only {narrowed} of the lines lose a letter");
    }
}
