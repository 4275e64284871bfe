//! Clue drawing: a random clue that a line's word matches ([`clue_for`]), kept as the
//! atoms that cover the word ([`Gen`], [`Atom`]) so that it can be tightened at one
//! cell ([`Gen::pin`]), loosened one step ([`Gen::loosenings`]) or have a span of cells
//! replaced ([`Gen::with_span`]). Styles: literals, classes, runs, counted repeats,
//! alternations, back-references and lookaheads when asked.

use crate::rng::Rng;

/// Escapes a character for use in a clue (outside or inside a class).
pub(super) fn esc(c: char) -> String {
    if c == ' ' {
        "\\s".into()
    } else if "\\^$.|?*+()[]{}-/".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

/// Which constructs clues may use.
#[derive(Clone, Copy, Debug)]
pub(super) struct Styles {
    pub(super) backrefs: bool,
    pub(super) lookarounds: bool,
}

/// One piece of a generated clue: the text matching `word[start..start + len]`.
#[derive(Clone, Debug)]
pub(super) struct Atom {
    pub(super) start: usize,
    pub(super) len: usize,
    pub(super) text: String,
    /// The letters it may match, when it is a class or a run of one (`None`: any
    /// letter, `.`/`.*`); `Some(vec![])` for what cannot be split (groups,
    /// back-references, alternations, which are replaced by literals).
    pub(super) letters: Option<Vec<char>>,
    /// Part of a back-reference: never replaced.
    pub(super) fixed: bool,
}

/// A generated clue: an optional lookahead, then atoms covering the word.
#[derive(Clone, Debug)]
pub(super) struct Gen {
    pub(super) prefix: String,
    pub(super) atoms: Vec<Atom>,
}

impl Gen {
    /// The clue as written.
    pub(super) fn text(&self) -> String {
        let mut body: String = self.atoms.iter().map(|a| a.text.as_str()).collect();
        while body.contains(".*.*") {
            body = body.replace(".*.*", ".*");
        }
        format!("{}{body}", self.prefix)
    }

    /// The same clue with cell `p` of the line no longer allowing `other` (and the
    /// atom around it split into single cells drawn from the letters it allowed): a
    /// tighter clue, so progress is monotone. `None` when `p` lies in a back-reference.
    pub(super) fn pin(&self, rng: &mut Rng, word: &[char], alphabet: &[char], p: usize, other: char) -> Option<Gen> {
        let k = self.atoms.iter().position(|a| a.start <= p && p < a.start + a.len)?;
        let atom = &self.atoms[k];
        if atom.fixed {
            return None;
        }
        let mut split = Vec::new();
        for (q, &c) in word.iter().enumerate().skip(atom.start).take(atom.len) {
            let pool: Vec<char> = match &atom.letters {
                None => alphabet.to_vec(),
                Some(l) => l.clone(),
            };
            let mut set = vec![c];
            if !pool.is_empty() && rng.chance(if q == p { 0.5 } else { 0.7 }) {
                let o = *rng.pick(&pool);
                if o != c && !(q == p && o == other) {
                    set.push(o);
                }
            }
            if q != p && atom.letters.is_none() && rng.chance(0.3) {
                split.push(Atom { start: q, len: 1, text: ".".into(), letters: None, fixed: false });
                continue;
            }
            set.sort_unstable();
            let text = if set.len() == 1 { esc(c) } else { format!("[{}]", set.iter().map(|&o| esc(o)).collect::<String>()) };
            split.push(Atom { start: q, len: 1, text, letters: Some(set), fixed: false });
        }
        let mut g = self.clone();
        let _ = g.atoms.splice(k..=k, split);
        Some(g)
    }

    /// Every one-step loosening of the clue (its language grows, so the puzzle can only
    /// get harder): a one-cell atom grows by a random letter or becomes `.`, a longer
    /// atom becomes `.*`, the lookahead goes. Back-reference parts stay.
    pub(super) fn loosenings(&self, rng: &mut Rng, alphabet: &[char]) -> Vec<Gen> {
        let mut out = Vec::new();
        for (k, a) in self.atoms.iter().enumerate() {
            if a.fixed {
                continue;
            }
            let mut with = |text: String, letters: Option<Vec<char>>| {
                let mut g = self.clone();
                g.atoms[k].text = text;
                g.atoms[k].letters = letters;
                out.push(g);
            };
            if a.len == 1 {
                if let Some(set) = a.letters.as_ref().filter(|l| !l.is_empty() && l.len() + 1 < alphabet.len()) {
                    let extra: Vec<char> = alphabet.iter().copied().filter(|c| !set.contains(c)).collect();
                    let mut set = set.clone();
                    set.push(*rng.pick(&extra));
                    set.sort_unstable();
                    with(format!("[{}]", set.iter().map(|&o| esc(o)).collect::<String>()), Some(set));
                }
                if a.text != "." {
                    with(".".into(), None);
                }
            } else if a.text != ".*" {
                with(".*".into(), None);
            }
        }
        if !self.prefix.is_empty() {
            let mut g = self.clone();
            g.prefix.clear();
            out.push(g);
        }
        out
    }

    /// The clue with the cells `start..start + len` covered by `atom` alone; the cells of
    /// atoms it cuts through are covered one by one by what those atoms allowed there.
    /// `None` when it would cut a back-reference.
    pub(super) fn with_span(&self, word: &[char], start: usize, len: usize, atom: Atom) -> Option<Gen> {
        let end = start + len;
        let mut atoms = Vec::new();
        let mut placed = false;
        for a in &self.atoms {
            let (s, e) = (a.start, a.start + a.len);
            if e <= start || s >= end {
                atoms.push(a.clone());
                continue;
            }
            if a.fixed {
                return None;
            }
            for q in (s..e).filter(|&q| q < start || q >= end) {
                if q >= end && !placed {
                    atoms.push(atom.clone());
                    placed = true;
                }
                let (text, letters) = match &a.letters {
                    Some(l) if !l.is_empty() && l.contains(&word[q]) => {
                        let t = if l.len() == 1 { esc(l[0]) } else { format!("[{}]", l.iter().map(|&o| esc(o)).collect::<String>()) };
                        (t, Some(l.clone()))
                    }
                    _ => (".".to_string(), None),
                };
                atoms.push(Atom { start: q, len: 1, text, letters, fixed: false });
            }
            if !placed && e >= end {
                // The atom's cells before the span are in; the span comes next.
                atoms.push(atom.clone());
                placed = true;
            }
        }
        if !placed {
            return None;
        }
        atoms.sort_by_key(|a| a.start);
        Some(Gen { prefix: String::new(), atoms })
    }
}

/// A random clue that `word` fully matches. `tight` in 0..=1: the higher, the more of
/// the word the clue pins down.
pub(super) fn clue_for(rng: &mut Rng, word: &[char], alphabet: &[char], tight: f64, styles: Styles) -> Gen {
    let atoms = clue_atoms(rng, word, alphabet, tight, styles.backrefs);
    let mut prefix = String::new();
    if styles.lookarounds && rng.chance(0.35) {
        // A lookahead: a letter the word has, or one it lacks.
        let absent: Vec<char> = alphabet.iter().copied().filter(|c| !word.contains(c)).collect();
        prefix = if !absent.is_empty() && rng.chance(0.5) {
            format!("(?!.*{})", esc(*rng.pick(&absent)))
        } else {
            format!("(?=.*{})", esc(*rng.pick(word)))
        };
    }
    Gen { prefix, atoms }
}

/// The atoms of a clue for `word` (see [`clue_for`]); `backrefs` allows capturing
/// groups and back-references to them.
fn clue_atoms(rng: &mut Rng, word: &[char], alphabet: &[char], tight: f64, backrefs: bool) -> Vec<Atom> {
    let mut out: Vec<Atom> = Vec::new();
    let push = |out: &mut Vec<Atom>, start: usize, len: usize, text: String, letters: Option<Vec<char>>, fixed: bool| {
        out.push(Atom { start, len, text, letters, fixed });
    };
    let mut i = 0;
    let mut group_of: Vec<(char, usize)> = Vec::new(); // captured single characters
    while i < word.len() {
        let c = word[i];
        // Back-reference to an earlier captured character (at most three groups, far
        // within the compiler's marker limit).
        if backrefs {
            if let Some(&(_, k)) = group_of.iter().find(|&&(g, _)| g == c)
                && rng.chance(0.6)
            {
                push(&mut out, i, 1, format!("\\{k}"), Some(vec![]), true);
                i += 1;
                continue;
            }
            if group_of.len() < 3 && word[i + 1..].contains(&c) && rng.chance(0.5) {
                let k = group_of.len() + 1;
                group_of.push((c, k));
                let text = if rng.chance(tight * 0.5) { format!("({})", esc(c)) } else { "(.)".to_string() };
                push(&mut out, i, 1, text, Some(vec![]), true);
                i += 1;
                continue;
            }
        }
        // A counted repeat of a run of one letter.
        let same = word[i..].iter().take_while(|&&o| o == c).count();
        if same >= 2 && rng.chance(0.5) {
            let text = if rng.chance(0.5) { format!("{}{{{same}}}", esc(c)) } else { format!("{}+", esc(c)) };
            push(&mut out, i, same, text, Some(vec![c]), false);
            i += same;
            continue;
        }
        // Literal, class, run or alternation; the tighter, the more literals.
        let roll = (rng.next() % 1000) as f64 / 1000.0;
        let (literal, class) = (tight * 0.45, tight * 0.45 + 0.3);
        let run_end = class + (1.0 - class) * 0.6;
        if roll < literal {
            push(&mut out, i, 1, esc(c), Some(vec![c]), false);
            i += 1;
        } else if roll < class {
            // A class with the letter and one to three others (or a negated one without it).
            let k = 1 + rng.below(3);
            let mut set = vec![c];
            for _ in 0..k {
                let o = alphabet[rng.below(alphabet.len())];
                if !set.contains(&o) {
                    set.push(o);
                }
            }
            if set.len() == 1 {
                set.extend(alphabet.iter().copied().find(|&o| o != c));
            }
            let others: Vec<char> = alphabet.iter().copied().filter(|o| !set.contains(o)).collect();
            if others.len() >= 2 && rng.chance(0.35) {
                let ex: Vec<char> = others.iter().take(1 + rng.below(3)).copied().collect();
                let allowed: Vec<char> = alphabet.iter().copied().filter(|o| !ex.contains(o)).collect();
                push(&mut out, i, 1, format!("[^{}]", ex.iter().map(|&o| esc(o)).collect::<String>()), Some(allowed), false);
            } else {
                set.sort_unstable();
                let text = format!("[{}]", set.iter().map(|&o| esc(o)).collect::<String>());
                push(&mut out, i, 1, text, Some(set), false);
            }
            i += 1;
        } else if roll < run_end || i + 1 >= word.len() {
            // A run of letters from a class: [ABC]+ / .* style.
            let run = 1 + rng.below((word.len() - i).min(4));
            let mut set: Vec<char> = word[i..i + run].to_vec();
            set.sort_unstable();
            set.dedup();
            if rng.chance(0.5 * (1.0 - tight)) {
                push(&mut out, i, run, if run > 1 { ".*".into() } else { ".".into() }, None, false);
            } else if set.len() == 1 {
                push(&mut out, i, run, format!("{}+", esc(set[0])), Some(set), false);
            } else {
                // Sometimes a decoy letter widens the class.
                if rng.chance(0.5) {
                    let o = alphabet[rng.below(alphabet.len())];
                    if !set.contains(&o) {
                        set.push(o);
                        set.sort_unstable();
                    }
                }
                let s: String = set.iter().map(|&o| esc(o)).collect();
                let text = format!("[{s}]{}", if rng.chance(0.5) { "+" } else { "*" });
                push(&mut out, i, run, text, Some(set), false);
            }
            i += run;
        } else {
            // An alternation between the chunk and one or two decoys.
            let run = (1 + rng.below(2)).min(word.len() - i);
            let chunk: String = word[i..i + run].iter().map(|&o| esc(o)).collect();
            let mut options = vec![chunk.clone()];
            for _ in 0..1 + rng.below(2) {
                let decoy: String = (0..1 + rng.below(run + 1)).map(|_| esc(alphabet[rng.below(alphabet.len())])).collect();
                if !options.contains(&decoy) {
                    options.push(decoy);
                }
            }
            for k in (1..options.len()).rev() {
                options.swap(k, rng.below(k + 1));
            }
            let text = if options.len() == 1 {
                chunk
            } else {
                if backrefs { format!("(?:{})", options.join("|")) } else { format!("({})", options.join("|")) }
            };
            push(&mut out, i, run, text, Some(vec![]), false);
            i += run;
        }
    }
    out
}
