//! The ECMAScript dialect (`crate::ecma`) against node itself.
//!
//! The meaning of a clue C on a line s is `new RegExp('^(?:' + C + ')$').test(s)` in
//! node (no flags: Annex B syntax, UTF-16 code units); a clue must also compile on its
//! own (`new RegExp(C)`). One `node scripts/ecma_oracle.js` process answers every
//! case. The differential test draws random clues mixing JavaScript and Python
//! constructs, Annex B oddities and plain mistakes, and lines of length 0–6 over small
//! awkward alphabets; crossat's parser must accept exactly what node accepts and the
//! matcher must give node's verdict on every line. The named tests check each
//! difference between the dialects docs/format.md lists: the ECMAScript verdict is
//! node's, and crossat's Python dialect (`crate::sre`, itself checked against
//! CPython in src/stages/dialect/sre/tests.rs) answers otherwise.
//!
//! `CROSSAT_ECMA_CASES=N` sets the number of (clue, line) pairs of the differential
//! test (default 200,000) and `CROSSAT_ECMA_SEED` its seed. node must be installed:
//! the tests fail, never skip, without it.

use crate::ecma::{self, Matcher};
use crate::rng::Rng;
use crate::test_support::root;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// What node answers about a clue: `Err(message)` when `new RegExp(clue)` throws, else
/// the verdict on each line, or `Ok(None)` when node's own backtracking ran past the
/// script's timeout.
type Answer = Result<Option<Vec<bool>>, String>;

/// Asks node about each `(clue, lines)`.
fn node_answers(cases: &[(String, Vec<String>)]) -> Vec<Answer> {
    let mut child = Command::new("node")
        .arg(root().join("scripts/ecma_oracle.js"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("node is required for the ECMAScript tests: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let requests: Vec<Value> = cases.iter().map(|(p, s)| json!({"p": p, "s": s})).collect();
    let writer = std::thread::spawn(move || {
        let mut w = std::io::BufWriter::new(&mut stdin);
        for r in requests {
            writeln!(w, "{r}").expect("write to node");
        }
    });
    let out: Vec<Value> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| serde_json::from_str(&l.expect("node output")).expect("node JSON"))
        .collect();
    writer.join().expect("writer");
    assert!(child.wait().expect("node").success(), "scripts/ecma_oracle.js failed");
    assert_eq!(out.len(), cases.len(), "node answered {} of {} cases", out.len(), cases.len());
    out.into_iter()
        .zip(cases)
        .map(|(v, (p, _))| {
            if let Some(e) = v.get("e") {
                return Err(e.as_str().expect("message").to_string());
            }
            assert!(v.get("w").is_none(), "node accepts {p:?} alone but not wrapped: {v}");
            if v.get("t").is_some() {
                return Ok(None);
            }
            Ok(Some(v["r"].as_array().expect("verdicts").iter().map(|b| b.as_bool().expect("bool")).collect()))
        })
        .collect()
}

/// [`node_answers`] for hand-picked cases, which node answers in time.
fn node(cases: &[(String, Vec<String>)]) -> Vec<Result<Vec<bool>, String>> {
    node_answers(cases).into_iter().map(|a| a.map(|r| r.expect("node answers in time"))).collect()
}

/// crossat's ECMAScript verdicts, or the parse error.
fn crossat_ecma(clue: &str, lines: &[String]) -> Result<Vec<bool>, String> {
    let p = ecma::parse(clue).map_err(|e| e.to_string())?;
    let m = Matcher::new(&p);
    Ok(lines.iter().map(|s| m.fullmatch_str(s).unwrap_or_else(|e| panic!("{clue:?} on {s:?}: {e}"))).collect())
}

/// [`crossat_ecma`], with `Ok(None)` when the matcher runs out of its budget.
fn crossat_ecma_bounded(clue: &str, lines: &[String]) -> Result<Option<Vec<bool>>, String> {
    let p = ecma::parse(clue).map_err(|e| e.to_string())?;
    let m = Matcher::new(&p);
    Ok(lines.iter().map(|s| m.fullmatch_str(s).ok()).collect())
}

/// crossat's Python verdicts (CPython's `re.fullmatch`), or the error.
fn crossat_python(clue: &str, lines: &[String]) -> Result<Vec<bool>, String> {
    let p = crate::regex::parser::parse(clue).map_err(|e| e.to_string())?;
    let m = crate::sre::Matcher::new(&p).map_err(|e| e.to_string())?;
    Ok(lines.iter().map(|s| m.fullmatch_str(s).expect("within budget")).collect())
}

// ---------------------------------------------------------------------------------
// Each difference between the dialects, with node's answer.

/// Checks that crossat's ECMAScript reading of each clue is node's on each line, and
/// that the Python reading differs from it (another verdict, or a refusal).
fn differs(cases: &[(&str, &[&str])]) {
    let cases: Vec<(String, Vec<String>)> =
        cases.iter().map(|(p, ss)| (p.to_string(), ss.iter().map(|s| s.to_string()).collect())).collect();
    // Python's reading is CPython's own; crossat's Python reading must be it too.
    let python = crate::test_support::python_verdicts(&cases);
    for (((clue, lines), js), py) in cases.iter().zip(node(&cases)).zip(python) {
        let ours = crossat_ecma(clue, lines);
        assert_eq!(ours.is_ok(), js.is_ok(), "{clue:?}: crossat {ours:?}, node {js:?}");
        assert_eq!(ours.as_ref().ok(), js.as_ref().ok(), "{clue:?} on {lines:?}");
        assert_eq!(
            crossat_python(clue, lines).ok(),
            py.as_ref().ok().cloned(),
            "{clue:?} on {lines:?}: crossat's Python reading is not CPython's"
        );
        assert_ne!(py.ok(), js.ok(), "{clue:?} on {lines:?}: Python and JavaScript should differ");
    }
}

#[test]
fn a_reference_to_a_group_that_did_not_take_part_matches_empty() {
    differs(&[(r"(a)?\1b", &["b", "ab"]), (r"(?:(a)|b)\1b", &["bb", "aab"])]);
}

#[test]
fn captures_are_reset_at_each_iteration() {
    differs(&[(r"(?:(a)|b)+\1", &["aba", "ab", "abaa"]), (r"(?:(a)|(b))+\1\2", &["abab", "ab", "abb"])]);
}

#[test]
fn forward_references_and_octal_escapes() {
    // `\1(a)`: a forward reference (empty); `\2(a)`: the octal escape U+0002.
    differs(&[(r"\1(a)", &["a", "aa"]), (r"\2(a)", &["\u{2}a", "a"]), (r"(a)\12", &["a\n", "aa2"])]);
}

#[test]
fn eight_and_nine_escapes_are_digits() {
    differs(&[(r"\8", &["8"]), (r"[\9]", &["9"]), (r"\400", &[" 0", "\u{100}"])]);
}

#[test]
fn python_only_escapes_are_letters() {
    differs(&[(r"a\Z", &["aZ", "a"]), (r"\Ab", &["Ab", "b"]), (r"\q", &["q"])]);
}

#[test]
fn empty_and_full_classes() {
    differs(&[("[^]", &["a", "\n", "\u{2028}"]), ("[]a", &["a", "]a"]), ("[]a]", &["a]", "a", "]"])]);
}

#[test]
fn digit_word_and_boundary_are_ascii() {
    differs(&[(r"\d", &["٣", "3"]), (r"\w", &["é", "a"]), (r"é\b", &["é"]), (r".\B", &["é"])]);
}

#[test]
fn space_sets() {
    differs(&[(r"\s", &["\u{1c}", "\u{85}", "\u{feff}", " "]), (r"\S", &["\u{1f}", "\u{feff}"])]);
}

#[test]
fn dot_excludes_line_terminators() {
    differs(&[(".", &["\r", "\u{2028}", "\u{2029}", "\n", "a"])]);
}

#[test]
fn dollar_is_only_the_end() {
    differs(&[("a$\n", &["a\n"]), ("(?:a$)\n?", &["a\n", "a"])]);
}

#[test]
fn lookbehind_of_variable_width() {
    differs(&[(".(?<=a+)b", &["ab", "bb"]), ("(?<=(a|bc))", &[""]), ("..(?<=(.)\\1)", &["aa", "ab"])]);
}

#[test]
fn braces_that_are_not_quantifiers_are_text() {
    differs(&[("a{,3}", &["a{,3}", "aaa", ""]), ("a{,}", &["a{,}"])]);
}

#[test]
fn python_group_syntax_is_refused() {
    // Inline flags, `(?P<…>)`, atomic groups, conditionals, comments: JavaScript errors.
    differs(&[("(?i)a", &["a"]), ("(?i:a)", &["a"]), ("(?P<n>a)", &["a"]), ("(?>a)", &["a"]), ("(a)(?(1)b)", &["ab"]), ("a++", &["a"])]);
}

#[test]
fn javascript_group_syntax() {
    // Named groups `(?<n>…)` and `\k<n>`: Python errors; `\k` without named groups is `k`.
    differs(&[(r"(?<n>a)\k<n>", &["aa", "a"]), (r"\k", &["k"]), (r"\k<n>", &["k<n>"])]);
}

#[test]
fn incomplete_escapes_are_letters() {
    differs(&[(r"\x4", &["x4"]), (r"\u{3}", &["uuu", "\u{3}"]), (r"[\d-z]", &["-", "5", "z", "y"])]);
}

#[test]
fn a_character_outside_the_bmp_is_two_units() {
    differs(&[(".", &["😀"]), ("..", &["😀", "ab"]), ("[😀]", &["😀"])]);
}

#[test]
fn control_escapes() {
    differs(&[(r"\cJ", &["\n"]), (r"\c1", &["\\c1"]), (r"[\c1]", &["\u{11}"]), (r"\c", &["\\c"])]);
}

#[test]
fn a_clue_must_be_a_pattern_on_its_own() {
    // node accepts the wrapped `^(?:a)|(b)$`; the clue alone is refused, in both dialects.
    let lines = vec!["a".to_string()];
    let js = node(&[("a)|(b".to_string(), lines.clone())]);
    assert!(js[0].is_err(), "node refuses `a)|(b` alone");
    assert!(ecma::parse("a)|(b").is_err());
}

// ---------------------------------------------------------------------------------
// Random clues.

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

#[test]
fn long_lines_recurse_on_the_matchers_own_stack() {
    // Thousands of iterations nest thousands of continuations: past the shallow
    // limit, the match runs again on a thread with a large stack.
    let long = "ab".repeat(3000);
    let cases = vec![
        ("(?:a|b)*".to_string(), vec![long.clone(), format!("{long}c")]),
        ("(a|b)*\\1".to_string(), vec![format!("{long}b"), long.clone()]),
        ("(?:a(?<=(a))b)+\\1".to_string(), vec![format!("{long}a"), format!("{long}b")]),
    ];
    for ((clue, lines), js) in cases.iter().zip(node(&cases)) {
        assert_eq!(crossat_ecma(clue, lines), js, "{clue:?}");
    }
}

#[test]
fn running_out_of_budget_is_an_error_not_a_verdict() {
    let p = ecma::parse("(?:a*)*(?:a*)*(?:a*)*b").expect("parses");
    let line: Vec<char> = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaac".chars().collect();
    let e = Matcher::new(&p).with_budget(10_000).fullmatch(&line).expect_err("over budget");
    assert!(!e.stack && e.steps == 10_000, "{e:?}");
    assert!(e.to_string().contains("budget"), "{e}");
}

#[test]
fn syntax_errors_name_the_problem_and_the_position() {
    for (clue, message, position) in [
        ("a)", "Unmatched ')'", 1),
        ("(?:a", "Unterminated group", 0),
        ("ab**", "Nothing to repeat", 3),
        ("é[z-a]", "Range out of order", 3),
    ] {
        let cases = vec![(clue.to_string(), Vec::new())];
        let js = node(&cases).remove(0).expect_err("node refuses it");
        let e = ecma::parse(clue).expect_err("crossat refuses it");
        assert!(e.message.contains(message) && js.contains(message), "{clue:?}: crossat {e}, node {js}");
        assert_eq!(e.position, position, "{clue:?}: {e}");
    }
}

#[test]
fn a_line_shorter_than_any_match_is_refused_at_once() {
    // node's own analysis refuses these without iterating; so does crossat, by the
    // fewest units a match consumes, before its matcher would run out of depth.
    let cases = vec![("(?:(?:b){0,2}){99999999999}(?<!a)a".to_string(), vec![String::new()])];
    assert_eq!(crossat_ecma(&cases[0].0, &cases[0].1), node(&cases).remove(0));
}

#[test]
fn forced_iterations_past_the_line_are_cut_without_changing_an_answer() {
    // The matcher runs at most one forced iteration per position left (see
    // `cap_forced`); node runs every one. Bodies that may match the empty string in
    // one or more ways, with captures the next iteration resets, references, and
    // assertions, repeated 5 or 8 times on lines of at most 3 units (so the cut always
    // applies), in plain sequence, before a reference, inside a lookahead (whose
    // first result alone counts) and a lookbehind.
    const ATOMS: &[&str] = &["a", "", "(a)", "(a|)", "b?", "(?:a|b)??", "\\1", "(?=a)", "(?!a)", "^", "$", "\\b", "(?<=a)"];
    let mut bodies: Vec<String> = ATOMS.iter().map(|a| a.to_string()).collect();
    for x in ATOMS {
        for y in ATOMS {
            bodies.push(format!("{x}{y}"));
            bodies.push(format!("{x}|{y}"));
        }
    }
    let mut lines = vec![String::new()];
    let mut frontier = vec![String::new()];
    for _ in 0..3 {
        frontier = frontier.iter().flat_map(|s| ['a', 'b'].map(|c| format!("{s}{c}"))).collect();
        lines.extend(frontier.iter().cloned());
    }
    let mut cases: Vec<(String, Vec<String>)> = Vec::new();
    for body in &bodies {
        for q in ["{5}", "{8}?", "{5,}", "{8,}?", "{5,6}"] {
            let r = format!("(?:{body}){q}");
            for clue in [r.clone(), format!("{r}\\1"), format!("(?={r})\\1[ab]*"), format!("[ab]*(?<={r})")] {
                cases.push((clue, lines.clone()));
            }
        }
    }
    let (mut compared, mut matched) = (0, 0);
    for ((clue, lines), js) in cases.iter().zip(node(&cases)) {
        let js = js.unwrap_or_else(|e| panic!("node refuses {clue:?}: {e}"));
        let ours = crossat_ecma(clue, lines).unwrap_or_else(|e| panic!("crossat refuses {clue:?}: {e}"));
        for ((s, x), y) in lines.iter().zip(&ours).zip(&js) {
            assert_eq!(x, y, "{clue:?} on {s:?}: crossat {x}, node {y}");
            compared += 1;
            matched += usize::from(*y);
        }
    }
    // Both verdicts are common, so the comparison means something.
    assert!(matched * 10 > compared && matched * 10 < compared * 9, "{matched} of {compared} lines match");
}

#[test]
fn huge_minimum_repeats_are_solved_as_the_matcher_reads_them() {
    // Past the empty line node runs out of stack on these (no verdict to compare), so
    // the matcher, checked against node with small minimums just above, is the
    // reference: the whole search (whichever route compiles the clue, as `solve --all`
    // runs it) lists exactly the lines it accepts, and answers at once.
    const CLUES: &[&str] = &[
        "(?<n>(?:\\})?){99999999999}",
        "(?: |){99999999999}",
        "(?:a{0,2}){99999999999}",
        "((?:\\2|b|a){99999999999}(?<x1>(.)))",
        "(?:(?:.{0}){99999999999}?|a){99999999999}",
        "(?:|^|a|b{99999999999}){99999999999}",
        "(?<m>\\1|b+?|(\\2)){99999999999}?",
        "(?:(?<n>[a}]){0,2}?){99999999999}?",
        "(?:a|(?=b)){99999999999}b*",
        "(?=(a|){4294967294})\\1.*",
        ".*(?<=(a|}){99999999999})\\1?",
        "(?:(a)|b\\1){3000000000,4000000000}",
    ];
    let alphabet = ['a', 'b', '}', ' '];
    for clue in CLUES {
        let m = Matcher::new(&ecma::parse(clue).unwrap_or_else(|e| panic!("{clue:?}: {e}")));
        let mut lines = vec![String::new()];
        for n in 1..=4 {
            lines = lines.iter().flat_map(|s| alphabet.map(|c| format!("{s}{c}"))).collect();
            let want: Vec<&String> =
                lines.iter().filter(|s| m.fullmatch_str(s).unwrap_or_else(|e| panic!("{clue:?} on {s:?}: {e}"))).collect();
            let puzzle = json!({"rows": 1, "cols": n, "left": [clue], "alphabet": "ab} ", "dialect": "ecmascript"}).to_string();
            let found = crate::Puzzle::read("<huge>", puzzle.as_bytes())
                .and_then(|mut p| p.solutions(usize::MAX))
                .unwrap_or_else(|e| panic!("{clue:?}, length {n}: {e}"));
            assert!(found.complete, "{clue:?}, length {n}");
            let mut got: Vec<String> = found.solutions.into_iter().map(|s| s.rows[0].clone()).collect();
            got.sort();
            let mut want: Vec<String> = want.into_iter().cloned().collect();
            want.sort();
            assert_eq!(got, want, "{clue:?}, length {n}");
        }
    }
}
