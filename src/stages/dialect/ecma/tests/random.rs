//! Random clues mixing JavaScript and Python constructs, Annex B oddities and plain
//! mistakes, and hand-written corners, each read by crossat and by node.

use super::{crossat_ecma, crossat_ecma_bounded, node, node_answers};
use crate::ecma;
use crate::rng::Rng;

/// Characters lines and literals are drawn from: line terminators and spaces where the
/// dialects differ, case pairs, non-ASCII letters and digits, the units Annex B escapes
/// produce (U+0001, U+0002, U+0008, U+0011), syntax characters, and a character outside
/// the BMP (two code units in JavaScript).
const POOL: &[char] = &[
    'a', 'b', 'A', 'B', 'k', 'K', '\u{212A}', 'x', 'u', 'c', 'Z', '1', '2', '8', '0', '_', '-', ' ', '{', '}', ',', ']', '\\', '<', '>',
    '\n', '\r', '\t', '\u{b}', '\u{1c}', '\u{1f}', '\u{85}', '\u{a0}', '\u{2028}', '\u{2029}', '\u{feff}', '\u{3000}', '\u{1}', '\u{2}',
    '\u{8}', '\u{11}', '\0', 'é', 'É', 'σ', 'ς', 'Σ', '٣', '²', 'ſ', 'ß', '😀',
];

struct Gen {
    rng: Rng,
    alphabet: Vec<char>,
    groups: usize,
    /// The group names used so far in the clue.
    names: Vec<&'static str>,
}

const NAMES: &[&str] = &["a", "n1", "$x", "_", "é", "b"];

impl Gen {
    fn ch(&mut self) -> char {
        if self.rng.chance(0.93) { *self.rng.pick(&self.alphabet) } else { *self.rng.pick(POOL) }
    }

    /// A literal for `c`, escaped when needed, sometimes as `\x`, `\u`, octal or `\c`.
    fn lit(&mut self, c: char) -> String {
        let u = c as u32;
        match self.rng.below(10) {
            0 if u < 0x100 => format!("\\x{u:02x}"),
            1 if u < 0x10000 => format!("\\u{u:04X}"),
            2 if u < 0o400 => format!("\\{u:o}"),
            3 if (1..27).contains(&u) => format!("\\c{}", char::from(b'@' + u as u8)),
            _ if "\\^$.*+?()[]{}|/".contains(c) => format!("\\{c}"),
            _ => c.to_string(),
        }
    }

    fn class(&mut self) -> String {
        let mut s = String::from("[");
        if self.rng.chance(0.3) {
            s.push('^');
        }
        for _ in 0..self.rng.below(4) {
            match self.rng.below(9) {
                0 => s.push_str(self.rng.pick::<&str>(&[r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", r"\b", r"\B", r"\-"])),
                1 => s.push_str(self.rng.pick::<&str>(&[r"\c1", r"\c_", r"\c*", r"\cj", r"\8", r"\0", r"\12", r"\k", r"\Z", "-", "\\cé"])),
                2 | 3 => {
                    let (a, b) = (self.ch(), self.ch());
                    let (a, b) = if a <= b || self.rng.chance(0.05) { (a, b) } else { (b, a) };
                    let (a, b) = (self.lit_in_class(a), self.lit_in_class(b));
                    s.push_str(&format!("{a}-{b}"));
                }
                4 => s.push_str(self.rng.pick::<&str>(&[r"\d-z", r"a-\w", r"\s-\d", "--a", "a-", "-"])),
                _ => {
                    let c = self.ch();
                    s.push_str(&self.lit_in_class(c));
                }
            }
        }
        s.push(']');
        s
    }

    fn lit_in_class(&mut self, c: char) -> String {
        if "\\]-^".contains(c) { format!("\\{c}") } else { self.lit(c) }
    }

    fn atom(&mut self, depth: usize) -> String {
        let deep = depth < 3;
        match self.rng.below(if deep { 30 } else { 20 }) {
            0..=5 => {
                let c = self.ch();
                self.lit(c)
            }
            6 => ".".into(),
            7 => self.class(),
            8 => self.rng.pick(&[r"\d", r"\D", r"\w", r"\W", r"\s", r"\S", "[^]", "[]"]).to_string(),
            9 => self.rng.pick(&["^", "$", r"\b", r"\B"]).to_string(),
            10 | 11 => {
                // Back-references and what Annex B reads instead.
                let n = 1 + self.rng.below(self.groups.max(1) + 1);
                match self.rng.below(4) {
                    0 => {
                        let name =
                            if self.names.is_empty() || self.rng.chance(0.1) { *self.rng.pick(NAMES) } else { *self.rng.pick(&self.names) };
                        format!(r"\k<{name}>")
                    }
                    1 => self.rng.pick(&[r"\8", r"\9", r"\0", r"\00", r"\08", r"\012", r"\377", r"\400", r"\18", r"\k"]).to_string(),
                    _ => format!("\\{n}"),
                }
            }
            12 => self
                .rng
                .pick(&[
                    r"\c",
                    r"\cA",
                    r"\cj",
                    r"\c1",
                    r"\x4",
                    r"\xg1",
                    r"\u{41}",
                    r"\u00e9",
                    r"\u12",
                    r"\Z",
                    r"\A",
                    r"\z",
                    r"\p{L}",
                    r"\-",
                    r"\ ",
                    r"\é",
                    "{",
                    "}",
                    "]",
                    "a{,3}",
                    "{,}",
                    "x{1,",
                    "{1}",
                    r"\uD83D\uDE00",
                    r"\uD83D",
                    r"[\uD83D-\uDFFF]",
                    "😀",
                    "[😀]",
                ])
                .to_string(),
            13 if self.rng.chance(0.3) => self
                .rng
                .pick(&[
                    "(?i)",
                    "(?i:a)",
                    "(?P<a>a)",
                    "(?#c)",
                    "(?>a)",
                    "(?(1)a|b)",
                    "(?P=a)",
                    "[[:alpha:]]",
                    "(?=",
                    ")",
                    "(",
                    "|",
                    "(?<>a)",
                    "(?<1>a)",
                ])
                .to_string(),
            13..=19 => {
                let c = self.ch();
                self.lit(c)
            }
            _ => {
                let body = self.disj(depth + 1);
                match self.rng.below(8) {
                    0 | 1 => {
                        self.groups += 1;
                        format!("({body})")
                    }
                    2 => {
                        self.groups += 1;
                        let name = *self.rng.pick(NAMES);
                        if !self.names.contains(&name) || self.rng.chance(0.1) {
                            self.names.push(name);
                        }
                        format!("(?<{name}>{body})")
                    }
                    3 => format!("(?:{body})"),
                    4 => format!("(?={body})"),
                    5 => format!("(?!{body})"),
                    6 => format!("(?<={body})"),
                    _ => format!("(?<!{body})"),
                }
            }
        }
    }

    fn quant(&mut self) -> String {
        let q = match self.rng.below(16) {
            0 => "*".to_string(),
            1 => "+".into(),
            2 => "?".into(),
            3 => format!("{{{}}}", self.rng.below(3)),
            4 => format!("{{{},}}", self.rng.below(3)),
            5 => {
                let a = self.rng.below(3);
                format!("{{{},{}}}", a, a + self.rng.below(3))
            }
            6 => format!("{{,{}}}", self.rng.below(3)),
            7 if self.rng.chance(0.2) => "{2,1}".into(),
            _ => return String::new(),
        };
        match self.rng.below(6) {
            0 => q + "?",
            1 if self.rng.chance(0.1) => q + "+",
            _ => q,
        }
    }

    fn term(&mut self, depth: usize) -> String {
        let a = self.atom(depth);
        // Assertions and lookbehinds take no quantifier: rarely try one.
        let fixed = ["^", "$", r"\b", r"\B"].contains(&a.as_str()) || a.starts_with("(?<=") || a.starts_with("(?<!");
        if fixed && self.rng.chance(0.9) { a } else { a + &self.quant() }
    }

    fn disj(&mut self, depth: usize) -> String {
        let mut alts = Vec::new();
        for _ in 0..1 + self.rng.below(if depth == 0 { 3 } else { 2 }) {
            let n = self.rng.below(if depth == 0 { 5 } else { 3 });
            alts.push((0..n).map(|_| self.term(depth)).collect::<String>());
        }
        alts.join("|")
    }

    /// A clue: mostly well formed, sometimes with one unit deleted or inserted.
    fn clue(&mut self) -> String {
        self.groups = 0;
        self.names.clear();
        let mut s: Vec<char> = self.disj(0).chars().collect();
        if !s.is_empty() && self.rng.chance(0.04) {
            let at = self.rng.below(s.len());
            let _ = s.remove(at);
        }
        if self.rng.chance(0.04) {
            let at = self.rng.below(s.len() + 1);
            s.insert(at, *self.rng.pick(&['(', ')', '[', ']', '{', '}', '|', '\\', '?', '*', '<', '>', 'k', '-', '^']));
        }
        s.into_iter().collect()
    }

    /// A line the clue's tree suggests (a random walk through it: lookarounds skipped,
    /// back-references copy their group's last text), so that many lines match.
    fn walk(&mut self, n: &ecma::Node, out: &mut Vec<char>, caps: &mut Vec<Option<Vec<char>>>) {
        use ecma::Node;
        if out.len() > 6 {
            return;
        }
        match n {
            Node::Empty | Node::Assert(_) | Node::Look { .. } => {}
            Node::Set(set) => {
                let fits: Vec<char> = self.alphabet.iter().copied().filter(|&c| set.contains_char(c)).collect();
                out.push(if fits.is_empty() { *self.rng.pick(&self.alphabet) } else { *self.rng.pick(&fits) });
            }
            Node::Concat(v) => v.iter().for_each(|x| self.walk(x, out, caps)),
            Node::Alt(v) => {
                let x = self.rng.pick(v);
                self.walk(x, out, caps);
            }
            Node::Group { index, body } => {
                let from = out.len();
                self.walk(body, out, caps);
                caps[index - 1] = Some(out[from.min(out.len())..].to_vec());
            }
            Node::Repeat { body, min, max, .. } => {
                let lo = (*min).min(4) as usize;
                let hi = max.map_or(lo + 2, |m| (m as usize).min(lo + 2));
                for _ in 0..lo + self.rng.below(hi - lo + 1) {
                    self.walk(body, out, caps);
                }
            }
            Node::BackRef(k) => out.extend(caps[k - 1].clone().unwrap_or_default()),
        }
    }

    /// Lines of length 0–6 over the alphabet: all of them up to a length, random
    /// ones, and walks through the clue's tree when crossat parses it.
    fn lines(&mut self, clue: &str) -> Vec<String> {
        let mut out = self.all_lines();
        if let Ok(p) = ecma::parse(clue) {
            for _ in 0..8 {
                let mut line = Vec::new();
                self.walk(&p.root, &mut line, &mut vec![None; p.groups]);
                if line.len() <= 6 {
                    out.push(line.into_iter().collect());
                }
            }
        }
        out
    }

    fn all_lines(&mut self) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut frontier = vec![String::new()];
        for _ in 0..3 {
            frontier = frontier.iter().flat_map(|s| self.alphabet.iter().map(move |c| format!("{s}{c}"))).collect();
            out.extend(frontier.iter().cloned());
        }
        for _ in 0..12 {
            let n = 4 + self.rng.below(3);
            out.push((0..n).map(|_| self.ch()).collect());
        }
        out
    }
}

/// Corners of the spec's semantics where an engine could cut a corner: empty
/// iterations, capture resets, quantified lookaheads, captures and back-references
/// inside lookbehinds, Annex B escapes; each is tried on every line of length 0–4 over
/// its alphabet.
const HAND: &[(&str, &str)] = &[
    ("(a*)*b", "ab"),
    ("(a*)+\\1", "ab"),
    ("(?:a|()){2}\\1", "ab"),
    ("(?:()|a){2,3}\\1b", "ab"),
    ("(a|)*\\1", "ab"),
    ("(?:(a)|b|())*\\1\\2", "ab"),
    ("(?:(a)|(b))*?\\1\\2", "ab"),
    ("(?=(a))*\\1a", "ab"),
    ("(?=(a))+\\1", "ab"),
    ("(?=(a)){2}a\\1", "ab"),
    ("(?!(a))*b\\1", "ab"),
    ("(?=a){0}a", "ab"),
    ("(?=a)?b", "ab"),
    ("ab(?<=(a)(b))\\2\\1", "ab"),
    ("(a)b(?<=\\1b)", "ab"),
    ("..(?<=(?:\\1|b)(a)b)", "ab"),
    ("a(?<=(a)\\1)", "ab"),
    ("(?<=(a+))b\\1", "ab"),
    ("a*(?<=^(a*?)(a*))\\2", "ab"),
    ("(?<!a)b", "ab"),
    ("(?<=a|ba)b", "ab"),
    ("a(?<=\\b.)b", "a b"),
    ("(a)|\\1b", "ab"),
    ("(?:a\\1)+", "ab"),
    ("(a\\1)+", "ab"),
    ("(a)(?:\\1)*", "ab"),
    ("(a){0}\\1b", "ab"),
    ("(a?)??\\1b", "ab"),
    ("(a??)?\\1b", "ab"),
    ("(?:a{2}){0,1}", "ab"),
    ("a{1,1}?b{0}", "ab"),
    ("(^a|b$)+", "ab"),
    ("\\b\\B|^$", "a "),
    ("[\\b]\\0[\\0-\\cA]", "\u{8}\0\u{1}"),
    ("\\cZ\\ca[\\c_]", "\u{1a}\u{1}\u{1f}"),
    ("[+-\\c]", "+,\\c"),
    ("(?<a>x)(?<b>y)\\k<b>\\k<a>", "xy"),
    ("\\k<a>(?<a>x)", "x<>ka"),
    ("(?<$>a)\\k<$>", "a"),
    ("(?:)|()|(|)", "a"),
    ("((((((((((a))))))))))\\10", "a"),
    ("((((((((((a))))))))))\\11", "a\t1"),
    ("(a)\\10", "a\u{8}0"),
    ("\\18(a)", "\u{1}8a"),
    ("\\0041*\\1234", "\u{4}1!S4"),
    ("[\\0041]+\\0120?", "\u{4}1!\nP0"),
    ("[\\18]+", "\u{1}8"),
    ("\\u004\\x1", "u004x1"),
    ("[\\u004]", "u004"),
    ("\\k<a", "k<a"),
    ("a{1,2", "a{1,2"),
    ("(?:a|b)*?b(?=a*)", "ab"),
    ("(?:(?=(a))a)*\\1", "ab"),
    ("(?:(?!(a))b)*\\1", "ab"),
    ("(?:\\1(a)|b)+", "ab"),
    ("(?:){99999999999}a", "a"),
    ("(?:^|(?=(a))){99999999999}\\1a?", "ab"),
    ("(?:(?=(a))|b){3,}\\1", "ab"),
    ("(?:(?=(a))|(?=(b))){2}?\\2.", "ab"),
    ("(?:(?=(a)))*\\1", "ab"),
    ("((?:$){0,2}){9}b", "ab"),
    ("((?:(?:\\1){99999999999}){99999999999})a", "a"),
    ("(a\\1b|\\1)+(?<=(b\\2|a))", "ab"),
    ("(?:(a)|b(?:\\1){3})+", "ab"),
    ("(?:.{0}){99999999999}a(?:(b){0}){7}\\1", "ab"),
];

#[test]
fn hand_written_corners_agree_with_node() {
    let cases: Vec<(String, Vec<String>)> = HAND
        .iter()
        .map(|(clue, alphabet)| {
            let alphabet: Vec<char> = alphabet.chars().collect();
            let mut lines = vec![String::new()];
            let mut frontier = vec![String::new()];
            for _ in 0..4 {
                frontier = frontier.iter().flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}"))).collect();
                lines.extend(frontier.iter().cloned());
            }
            (clue.to_string(), lines)
        })
        .collect();
    for ((clue, lines), js) in cases.iter().zip(node(&cases)) {
        let js = js.unwrap_or_else(|e| panic!("node refuses {clue:?}: {e}"));
        let ours = crossat_ecma(clue, lines).unwrap_or_else(|e| panic!("crossat refuses {clue:?}: {e}"));
        for ((s, x), y) in lines.iter().zip(&ours).zip(&js) {
            assert_eq!(x, y, "{clue:?} on {s:?}: crossat {x}, node {y}");
        }
    }
}

#[test]
fn ecma_agrees_with_node() {
    let cases = crate::test_support::sample_size("CROSSAT_ECMA_CASES", 200_000, 200_000);
    let seed: u64 = std::env::var("CROSSAT_ECMA_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0xec4a_0001);
    let mut g = Gen { rng: Rng::new(seed), alphabet: Vec::new(), groups: 0, names: Vec::new() };
    let (mut pairs, mut clues, mut refused, mut accepted_lines_true) = (0usize, 0usize, 0usize, 0usize);
    let mut mismatches: Vec<String> = Vec::new();
    // Clues where node's backtracking outran the oracle's timeout (crossat answered),
    // and where both gave up.
    let (mut node_slow, mut gave_up): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    // Clues where crossat's matcher ran out of its budget (exponential backtracking
    // that V8's optimisations avoid) while node answered.
    let mut crossat_slow: Vec<String> = Vec::new();
    while pairs < cases {
        // Batches keep memory flat on long runs.
        let mut batch: Vec<(String, Vec<String>)> = Vec::new();
        let mut in_batch = 0;
        while in_batch < 20_000 && pairs + in_batch < cases {
            let k = 2 + g.rng.below(2);
            g.alphabet = (0..k).map(|_| *g.rng.pick(POOL)).collect();
            g.alphabet.sort_unstable();
            g.alphabet.dedup();
            let clue = g.clue();
            let lines = g.lines(&clue);
            in_batch += lines.len();
            batch.push((clue, lines));
        }
        for ((clue, lines), js) in batch.iter().zip(node_answers(&batch)) {
            clues += 1;
            pairs += lines.len();
            let ours = crossat_ecma_bounded(clue, lines);
            match (&ours, &js) {
                (Err(_), Err(_)) => refused += 1,
                (Ok(None), Ok(None)) => gave_up.push(clue.clone()),
                // An error, never a verdict: counted, and allowed only rarely.
                (Ok(None), Ok(Some(_))) => crossat_slow.push(clue.clone()),
                (Ok(None), Err(_)) => mismatches.push(format!("{clue:?}: crossat accepts it, node refuses it: {js:?}")),
                (Ok(_), Ok(None)) => node_slow.push(clue.clone()),
                (Ok(Some(a)), Ok(Some(b))) => {
                    accepted_lines_true += b.iter().filter(|&&x| x).count();
                    for ((s, x), y) in lines.iter().zip(a).zip(b) {
                        if x != y {
                            mismatches.push(format!("{clue:?} on {s:?}: crossat {x}, node {y}"));
                        }
                    }
                }
                _ => mismatches.push(format!("{clue:?}: crossat {:?}, node {:?}", ours.as_ref().err(), js.as_ref().err())),
            }
        }
    }
    eprintln!(
        "ecma differential: {pairs} (clue, line) pairs, {clues} clues ({refused} refused by both), {accepted_lines_true} matching lines, \
         {} mismatches; node out of time on {} clues {node_slow:?}, both on {} {gave_up:?}, crossat on {} {crossat_slow:?}",
        mismatches.len(),
        node_slow.len(),
        gave_up.len(),
        crossat_slow.len()
    );
    assert!(node_slow.len() + gave_up.len() <= clues / 1000, "too many clues without node's verdict");
    assert!(crossat_slow.len() <= clues / 10_000, "too many clues where crossat's matcher ran out of budget: {crossat_slow:?}");
    assert!(mismatches.is_empty(), "{} mismatches, first ones:\n{}", mismatches.len(), mismatches[..mismatches.len().min(30)].join("\n"));
    // Both sides of the parser are exercised: most clues compile, many do not.
    assert!(
        refused * 10 > clues && refused * 10 < clues * 4,
        "the generator's mix of valid and invalid clues is off: {refused} of {clues} refused"
    );
    assert!(accepted_lines_true * 50 > pairs, "too few matching lines: {accepted_lines_true} of {pairs}");
}
