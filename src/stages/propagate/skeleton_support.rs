//! Support of a tagged clue (back-references, lookarounds, assertions): the line is
//! unrolled as the layers of its skeleton automaton, each cell preceded by marker
//! slots ([`layers`]), and a letter of a cell is supported when some run of the
//! skeleton uses it ([`cell_support`], and `tagged_support` with the engine's
//! buffers). The registers and lookaround runs are left to the encoder's clauses, so
//! this is a sound relaxation.

use super::SymSet;
use super::layers::{Edges, Layers, live_layers, supported};
use crate::compile::skeleton::{Marker, Tagged};
use crate::compile::{Automaton, DEAD};

/// One layer of a tagged line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layer {
    /// Cell `p` of the line.
    Cell(usize),
    /// A marker slot at position (boundary) `p`.
    Slot(usize),
}

/// The layers of the line from position `from` to its end `n` (positions are those of
/// the whole line), and their domains before propagation; `cells` are the domains of
/// cells `from..n`.
pub(crate) fn layers(t: &Tagged, alphabet_len: usize, cells: &[SymSet], from: usize) -> (Vec<Layer>, Vec<SymSet>) {
    let n = from + cells.len();
    let (mut kinds, mut doms) = (Vec::new(), Vec::new());
    for p in from..=n {
        let mut slot = SymSet::default();
        slot.insert(t.idle_symbol(alphabet_len));
        for (i, m) in t.markers.iter().enumerate() {
            let allowed = match m {
                Marker::Start => p == 0,
                Marker::End => p == n,
                Marker::Look(j) => {
                    let l = &t.looks[*j];
                    l.ahead || l.negate || l.width <= p
                }
                _ => true,
            };
            if allowed {
                slot.insert(t.marker_symbol(alphabet_len, i));
            }
        }
        for _ in 0..t.slots {
            kinds.push(Layer::Slot(p));
            doms.push(slot);
        }
        if p < n {
            kinds.push(Layer::Cell(p));
            doms.push(cells[p - from]);
        }
    }
    (kinds, doms)
}

/// Letters of each cell that some run of the skeleton can use (ignoring the
/// registers and lookarounds: a sound relaxation for domain propagation).
pub(crate) fn cell_support(a: &Automaton, t: &Tagged, alphabet_len: usize, cells: &[SymSet]) -> Vec<SymSet> {
    let (kinds, doms) = layers(t, alphabet_len, cells, 0);
    let live = live_layers(a, &doms);
    let sup = supported(a, &doms, &live);
    kinds.iter().zip(sup).filter(|(k, _)| matches!(k, Layer::Cell(_))).map(|(_, s)| s).collect()
}

/// [`cell_support`] by the one-pass [`Layers::support`] over the skeleton's
/// layers (the line's cells and marker slots), with buffers kept between calls.
pub(super) fn tagged_support(
    a: &Automaton,
    t: &Tagged,
    edges: &Edges,
    layers: &mut Layers,
    sigma: usize,
    line: &[SymSet],
    buf: &mut Vec<SymSet>,
) -> Vec<SymSet> {
    let (kinds, doms) = self::layers(t, sigma, line, 0);
    layers.support(a, edges, &doms, buf);
    kinds.iter().zip(buf.iter()).filter(|(k, _)| matches!(k, Layer::Cell(_))).map(|(_, s)| *s).collect()
}

/// The words of `line` (a domain per cell) that a run of the skeleton accepts with
/// the text of each back-reference equal to the last capture of its group before it,
/// in ascending order of their symbols; `None` when the walk takes more than
/// `max_steps` steps or finds more than `max_words` words. Lookarounds and
/// assertions are not checked, nor a reference whose group has no capture before it:
/// a relaxation, so every word the clue matches is among them, and the words a
/// clue's matcher must be asked about are these rather than every word of the line.
///
/// The walk goes depth first over the cells' letters, carrying the set of the
/// skeleton's runs that read the word so far (state and captures), closed over the
/// marker slots between cells: each prefix is visited once, however many ways the
/// markers can be placed in it. At a cell, a run inside a reference reads only the
/// letter it copies, and another run only the letters its state has a transition
/// on; a step is one run reading one such letter, or one symbol of a marker slot.
pub(crate) fn candidates(
    a: &Automaton,
    t: &Tagged,
    sigma: usize,
    line: &[SymSet],
    max_steps: usize,
    max_words: usize,
) -> Option<Vec<Vec<u8>>> {
    if line.len() >= usize::from(u8::MAX) {
        return None;
    }
    let (kinds, doms) = layers(t, sigma, line, 0);
    let live = live_layers(a, &doms);
    let mut out = Vec::new();
    if live[0].is_empty() {
        return Some(out);
    }
    let groups = t.markers.iter().map(|m| match m {
        Marker::Open(k) | Marker::Close(k) | Marker::RefOpen(k) | Marker::RefClose(k) => *k as usize + 1,
        _ => 0,
    });
    if groups.max().unwrap_or(0) > GROUPS {
        return None;
    }
    // The layer of each cell, and the end.
    let mut cells: Vec<usize> = kinds.iter().enumerate().filter(|(_, k)| matches!(k, Layer::Cell(_))).map(|(j, _)| j).collect();
    cells.push(kinds.len());
    let mut walk = Walk {
        a,
        t,
        sigma,
        doms: &doms,
        live: &live,
        cells: &cells,
        readable: Default::default(),
        steps: max_steps,
        words: max_words,
        word: Vec::with_capacity(line.len()),
        spare: Vec::new(),
        spare_sets: Vec::new(),
    };
    let start = Run { state: a.start, open: [None; GROUPS], last: [Capture::None; GROUPS], reference: None };
    walk.from(0, 0, vec![start], &mut out).then_some(out)
}

/// The last capture of a group: none yet, the cells `start..end`, or one the walk
/// cannot follow (a close without an open), which no reference is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Capture {
    None,
    Cells(u8, u8),
    Unknown,
}

/// Most groups a clue may have for [`candidates`] to walk it.
const GROUPS: usize = 8;

/// One run of the skeleton over a word's prefix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Run {
    state: u32,
    /// Per group, the cell its open capture started at.
    open: [Option<u8>; GROUPS],
    last: [Capture; GROUPS],
    /// The reference being read: the cells it must copy and how many it has read
    /// (`None` inside one that is not checked).
    reference: Option<Option<(u8, u8, u8)>>,
}

/// The walk of [`candidates`].
struct Walk<'a> {
    a: &'a Automaton,
    t: &'a Tagged,
    sigma: usize,
    doms: &'a [SymSet],
    live: &'a [Vec<u32>],
    /// The layer of each cell, then the number of layers.
    cells: &'a [usize],
    /// Per state, once asked: the symbols it has a transition on.
    readable: crate::compile::FastMap<u32, SymSet>,
    /// Steps left.
    steps: usize,
    /// Words that may still be found.
    words: usize,
    word: Vec<u8>,
    /// Buffers of runs and of letters, kept for reuse.
    spare: Vec<Vec<Run>>,
    spare_sets: Vec<Vec<SymSet>>,
}

impl Walk<'_> {
    /// An empty buffer of runs.
    fn buffer(&mut self) -> Vec<Run> {
        let mut v = self.spare.pop().unwrap_or_default();
        v.clear();
        v
    }

    /// Walks on from cell `p`, whose marker slots start at layer `j`, with `runs`
    /// (given back to the spare buffers); `false` when out of steps or words.
    fn from(&mut self, p: usize, j: usize, runs: Vec<Run>, out: &mut Vec<Vec<u8>>) -> bool {
        let Some(runs) = self.slots(j, self.cells[p], runs) else { return false };
        let ok = self.cell(p, &runs, out);
        self.spare.push(runs);
        ok
    }

    /// The letters of cell `p` (at layer `cells[p]`) read by `runs`, each followed on.
    fn cell(&mut self, p: usize, runs: &[Run], out: &mut Vec<Vec<u8>>) -> bool {
        if runs.is_empty() {
            return true;
        }
        let jc = self.cells[p];
        if jc == self.doms.len() {
            if self.words == 0 {
                return false;
            }
            self.words -= 1;
            out.push(self.word.clone());
            return true;
        }
        // The letters each run can read here: the one it copies inside a reference
        // (none once the copy is over), else those its state has a transition on
        // (markers are not in a cell's domain).
        let dom = self.doms[jc];
        let mut allowed = self.spare_sets.pop().unwrap_or_default();
        allowed.clear();
        for r in runs {
            let can = match r.reference {
                Some(Some((start, end, read))) => {
                    let mut one = SymSet::default();
                    if start + read < end {
                        one.insert(self.word[usize::from(start + read)] as usize);
                    }
                    one
                }
                _ => self.readable(r.state),
            };
            allowed.push(can.and(&dom));
        }
        let letters = allowed.iter().fold(SymSet::default(), |u, l| u.or(l));
        let mut ok = true;
        'letters: for y in letters.iter() {
            let mut next = self.buffer();
            for (r, can) in runs.iter().zip(&allowed) {
                if !can.contains(y) {
                    continue;
                }
                if self.steps == 0 {
                    self.spare.push(next);
                    ok = false;
                    break 'letters;
                }
                self.steps -= 1;
                let t = self.a.step(r.state, y);
                if t == DEAD || self.live[jc + 1].binary_search(&t).is_err() {
                    continue;
                }
                let mut r = *r;
                if let Some(Some((start, end, read))) = r.reference {
                    r.reference = Some(Some((start, end, read + 1)));
                }
                r.state = t;
                next.push(r);
            }
            if next.is_empty() {
                self.spare.push(next);
                continue;
            }
            next.sort_unstable();
            next.dedup();
            self.word.push(y as u8);
            ok = self.from(p + 1, jc + 1, next, out);
            let _ = self.word.pop();
            if !ok {
                break;
            }
        }
        self.spare_sets.push(allowed);
        ok
    }

    /// The symbols (letters, markers, idle) on which state `s` has a transition,
    /// remembered.
    fn readable(&mut self, s: u32) -> SymSet {
        if let Some(&letters) = self.readable.get(&s) {
            return letters;
        }
        let mut letters = SymSet::default();
        (0..self.a.symbols).filter(|&x| self.a.step(s, x) != DEAD).for_each(|x| letters.insert(x));
        let _ = self.readable.insert(s, letters);
        letters
    }

    /// The runs after the marker slots of layers `j..end`, each slot read as idle or as
    /// a marker the skeleton takes there; `None` when out of steps.
    fn slots(&mut self, j: usize, end: usize, mut runs: Vec<Run>) -> Option<Vec<Run>> {
        let here = self.word.len() as u8;
        for j in j..end {
            let mut next = self.buffer();
            for r in &runs {
                for y in self.doms[j].iter() {
                    let Some(left) = self.steps.checked_sub(1) else {
                        self.spare.push(next);
                        self.spare.push(runs);
                        return None;
                    };
                    self.steps = left;
                    let t = self.a.step(r.state, y);
                    if t == DEAD || self.live[j + 1].binary_search(&t).is_err() {
                        continue;
                    }
                    let mut r = *r;
                    r.state = t;
                    if y != self.t.idle_symbol(self.sigma) && !mark(&mut r, self.t.markers[y - self.sigma], here) {
                        continue;
                    }
                    next.push(r);
                }
            }
            next.sort_unstable();
            next.dedup();
            self.spare.push(std::mem::replace(&mut runs, next));
        }
        Some(runs)
    }
}

/// Run `r` reads marker `m` before cell `here`; `false` when a reference ends having
/// copied fewer cells than its group's capture.
fn mark(r: &mut Run, m: Marker, here: u8) -> bool {
    match m {
        Marker::Open(k) => r.open[k as usize] = Some(here),
        Marker::Close(k) => {
            let k = k as usize;
            r.last[k] = match r.open[k].take() {
                Some(start) => Capture::Cells(start, here),
                None => Capture::Unknown,
            };
        }
        Marker::RefOpen(k) => {
            r.reference = match (r.reference, r.last[k as usize]) {
                (None, Capture::Cells(start, end)) => Some(Some((start, end, 0))),
                _ => Some(None),
            };
        }
        Marker::RefClose(_) => {
            if let Some(Some((start, end, read))) = r.reference
                && start + read != end
            {
                return false;
            }
            r.reference = None;
        }
        Marker::Look(_) | Marker::Start | Marker::End | Marker::WordBoundary | Marker::NotWordBoundary => {}
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::propagate::layers::{Edges, Layers};

    /// Propagation supports a tagged line through the skeleton's layers (cells and
    /// marker slots) with [`Layers::support`]; that must be [`cell_support`]'s
    /// answer (the two-pass definition) on every line: back-references, lookarounds and
    /// anchors, random domains over the clue's alphabet.
    /// A line of `cells` random domains, each letter of the first `letters` in it with
    /// probability 2/3 (a domain may be empty).
    fn random_line(rng: &mut crate::rng::Rng, cells: usize, letters: usize) -> Vec<SymSet> {
        (0..cells)
            .map(|_| {
                let mut d = SymSet::default();
                (0..letters).filter(|_| rng.below(3) > 0).for_each(|x| d.insert(x));
                d
            })
            .collect()
    }

    #[test]
    fn tagged_lines_propagate_as_their_skeleton_supports_them() {
        let json = r#"{"left": ["(.)(.)\\2\\1(.)\\3", "(?=.*B)(.)[^A]*\\1", "(A|BC)+\\1?$"], "top": ["(.)\\1|CA[AB]", "(..)\\1", ".*(?!A).", "A|.*(.)\\1", ".(?<=B).*", "[ABC]*"], "alphabet": "ABC"}"#;
        let puzzle = crate::puzzle::read("p.json", json.as_bytes(), None, None, None).expect("a puzzle");
        let parsed = crate::compile::parse_clues("p.json", &puzzle).expect("clues");
        let alphabet = crate::compile::choose_alphabet("p.json", &puzzle, &parsed, None).expect("an alphabet");
        // No bounded route, so that short lines are tagged too.
        let opts = crate::compile::Options { prefer_bounded: 0, ..Default::default() };
        let compiled = crate::compile::compile_with("p.json", &puzzle, &parsed, alphabet, opts).expect("automata");
        let sigma = compiled.alphabet.len();
        let tagged = compiled.clues.iter().filter(|c| c.tagged.is_some()).count();
        assert!(tagged >= 4, "only {tagged} tagged clues");
        let mut rng = crate::rng::Rng::new(7);
        let (mut layers, mut out) = (Layers::default(), Vec::new());
        let mut checked = 0;
        for (i, cc) in compiled.clues.iter().enumerate() {
            let Some(t) = &cc.tagged else { continue };
            let edges = Edges::new(&cc.automaton);
            for _ in 0..300 {
                let line = random_line(&mut rng, puzzle.clues[i].cells.len(), sigma);
                let got = tagged_support(&cc.automaton, t, &edges, &mut layers, sigma, &line, &mut out);
                assert_eq!(got, cell_support(&cc.automaton, t, sigma, &line), "clue {i} on {line:?}");
                checked += 1;
            }
        }
        assert!(checked >= 1200, "only {checked} tagged lines checked");
    }

    /// The words the walk lists for a tagged clue include every word of the line that
    /// the clue matches (asked of the reference matcher, word by word), are words of
    /// the line, and come in ascending order: back-references (repeated groups,
    /// several groups, a group longer than one letter), lookarounds and anchors, random
    /// lines over the clue's alphabet.
    #[test]
    fn candidate_words_include_every_match() {
        let json = r#"{"left": ["(.)\\1*(.)\\2*\\1+", "((.)B\\2+){2}", "(?=.*A)(..)\\1.", "(A|BC)+\\1?$"], "top": ["(.)(.)\\2\\1(.)", "(?=.*B)(.)[^A]*\\1", ".*(.)(.)\\2\\1.*", "(?!A)(.)\\1{2,}.", "((.)(.|\\2)\\2{2})+"], "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#%&*+,-/:;<=>@_~"}"#;
        // An alphabet too large for the groups to be expanded over: every clue is tagged.
        let puzzle = crate::puzzle::read("p.json", json.as_bytes(), None, None, None).expect("a puzzle");
        let parsed = crate::compile::parse_clues("p.json", &puzzle).expect("clues");
        let verifier = crate::verify::Verifier::from_parsed("p.json", &puzzle, &parsed).expect("matchers");
        let alphabet = crate::compile::choose_alphabet("p.json", &puzzle, &parsed, None).expect("an alphabet");
        let opts = crate::compile::Options { prefer_bounded: 0, ..Default::default() };
        let compiled = crate::compile::compile_with("p.json", &puzzle, &parsed, alphabet, opts).expect("automata");
        let sigma = compiled.alphabet.len();
        let chars = compiled.alphabet.chars();
        let mut rng = crate::rng::Rng::new(11);
        let (mut lines, mut matched) = (0, 0);
        for (i, cc) in compiled.clues.iter().enumerate() {
            let Some(t) = &cc.tagged else { continue };
            for _ in 0..150 {
                let line = random_line(&mut rng, puzzle.clues[i].cells.len(), 4);
                let Some(got) = candidates(&cc.automaton, t, sigma, &line, 1 << 16, usize::MAX) else {
                    panic!("clue {i}: the walk ran out on {line:?}")
                };
                assert!(got.windows(2).all(|w| w[0] < w[1]), "clue {i}: not in ascending order");
                assert!(got.iter().all(|w| w.len() == line.len() && w.iter().zip(&line).all(|(&x, d)| d.contains(x as usize))));
                // The cap on words: the same list at its size, nothing below it.
                let capped = |max| candidates(&cc.automaton, t, sigma, &line, 1 << 16, max);
                assert_eq!(capped(got.len()).as_ref(), Some(&got), "clue {i}: capped at its size on {line:?}");
                if !got.is_empty() {
                    assert_eq!(capped(got.len() - 1), None, "clue {i}: one word too many on {line:?}");
                }
                // Every word of the line, by counting in mixed radix.
                let options: Vec<Vec<usize>> = line.iter().map(|d| d.iter().collect()).collect();
                let total: usize = options.iter().map(Vec::len).product();
                for mut k in 0..total {
                    let mut w = vec![0u8; line.len()];
                    for p in (0..line.len()).rev() {
                        w[p] = options[p][k % options[p].len()] as u8;
                        k /= options[p].len();
                    }
                    let text: String = w.iter().map(|&x| chars[x as usize]).collect();
                    if verifier.clue_matches(i, &text).expect("a verdict") {
                        assert!(got.binary_search(&w).is_ok(), "clue {i}: {text} matches but is not listed on {line:?}");
                        matched += 1;
                    }
                }
                lines += 1;
            }
        }
        assert!(lines >= 1300 && matched >= 500, "{lines} lines, {matched} matching words");
    }
}
