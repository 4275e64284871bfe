//! Differential test of `crossat::sre` against CPython 3.11 itself.
//!
//! A seeded generator builds random parse trees over the whole syntax (global and
//! scoped flags, classes and Unicode shorthands, groups, back-references,
//! lookarounds in any nesting, atomic groups, possessive and lazy repeats,
//! conditionals, counted repeats, anchors) and prints each as pattern text. Every
//! pattern Python compiles is tried on strings of length 0–8 over small alphabets of
//! awkward characters (case pairs such as σ/ς/Σ, k/K/U+212A, s/ſ, combining marks,
//! other-script digits, U+001C–U+001F, U+0085, U+00A0, U+2028, U+3000, `\n`):
//! random strings, strings sampled from the tree, and mutations of those. One
//! `python3 scripts/sre_oracle.py` process answers all of them; the verdict
//! (`re.fullmatch(p, s) is not None`) must agree, and so must the groups
//! (`m.span(g)`, `m.lastindex`), which is how sre's mark handling is checked.
//!
//! Each pattern is matched twice: with the generated tree (the matcher alone) and
//! with the tree `crossat::regex::parser` builds from the text (parser and matcher
//! together, which must also refuse exactly what Python refuses).
//!
//! `CROSSAT_SRE_CASES=N` sets the number of (pattern, string) pairs (default
//! 200,000) and `CROSSAT_SRE_SEED` the seed. The test fails — it never skips — when
//! `python3` is missing or is not 3.11.

use crate::common;
use crossat::regex::parser;
use crossat::regex::syntax::{At, Category, Item, MAXREPEAT, Parsed, RepeatKind, SetItem, dump, flag};
use crossat::sre::Matcher;
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

/// The crate's seeded generator, with the shorthands the case generator uses.
struct Rng(crossat::rng::Rng);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(crossat::rng::Rng::new(seed))
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.0.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        *self.0.pick(xs)
    }
}

/// Characters the strings and literals are drawn from.
const POOL: &[char] = &[
    'a',
    'b',
    'x',
    'A',
    'B',
    '_',
    '1',
    '-',
    '.',
    'é',
    'É',
    'σ',
    'ς',
    'Σ',
    'k',
    'K',
    '\u{212A}',
    's',
    'S',
    'ſ',
    'i',
    'I',
    'İ',
    'ı',
    'ß',
    'ẞ',
    '\u{0661}',
    '²',
    '\u{0301}',
    '\u{0345}',
    'Ⓐ',
    'ⓐ',
    '\n',
    ' ',
    '\u{1C}',
    '\u{1D}',
    '\u{1E}',
    '\u{1F}',
    '\u{85}',
    '\u{A0}',
    '\u{2028}',
    '\u{3000}',
    '\t',
    '\u{10400}',
    '\u{10428}',
    'µ',
    'Μ',
    'μ',
    'ǅ',
    'ǆ',
];

/// Pattern generator: a tree and its text, built together.
struct Gen<'r> {
    rng: &'r mut Rng,
    groups: u32,
    closed: Vec<u32>,
    /// Group numbers opened inside the lookbehind being generated (references to
    /// them are refused by Python anyway; avoiding them keeps more patterns).
    budget: usize,
}

fn esc(c: char, out: &mut String) {
    if c.is_ascii_alphabetic() || (!c.is_ascii() && c.is_alphabetic() && (c as u32) < 0x10000 && c != 'İ') {
        out.push(c);
    } else if (c as u32) < 0x100 {
        out.push_str(&format!("\\x{:02x}", c as u32));
    } else if (c as u32) < 0x10000 {
        out.push_str(&format!("\\u{:04x}", c as u32));
    } else {
        out.push_str(&format!("\\U{:08x}", c as u32));
    }
}

fn flag_letters(f: u32) -> String {
    let mut s = String::new();
    for (bit, c) in [
        (flag::ASCII, 'a'),
        (flag::IGNORECASE, 'i'),
        (flag::MULTILINE, 'm'),
        (flag::DOTALL, 's'),
        (flag::UNICODE, 'u'),
        (flag::VERBOSE, 'x'),
    ] {
        if f & bit != 0 {
            s.push(c);
        }
    }
    s
}

impl Gen<'_> {
    fn lit_char(&mut self) -> char {
        if self.rng.chance(60) { self.rng.pick(&['a', 'b', 'x', 'k', 's', 'σ', 'A']) } else { self.rng.pick(POOL) }
    }

    /// A set, reduced as `re._parser` reduces `[x]` and `[^x]`.
    fn set(&mut self, text: &mut String) -> Item {
        let mut items = Vec::new();
        text.push('[');
        if self.rng.chance(30) {
            items.push(SetItem::Negate);
            text.push('^');
        }
        let n = 1 + self.rng.below(3);
        for _ in 0..n {
            match self.rng.below(10) {
                0..=3 => {
                    let c = self.lit_char();
                    esc(c, text);
                    items.push(SetItem::Literal(c));
                }
                4..=6 => {
                    let (a, b) = self.rng.pick(&[
                        ('a', 'c'),
                        ('A', 'Z'),
                        ('0', '9'),
                        ('a', 'z'),
                        ('\u{0}', '\u{7f}'),
                        ('\u{80}', '\u{ffff}'),
                        ('ı', 'ſ'),
                        ('ς', 'σ'),
                        ('J', 'L'),
                        ('\u{2000}', '\u{3000}'),
                        ('\u{10000}', '\u{10FFFF}'),
                        ('\u{FFFF}', '\u{10428}'),
                        ('R', 't'),
                    ]);
                    esc(a, text);
                    text.push('-');
                    esc(b, text);
                    items.push(SetItem::Range(a, b));
                }
                _ => {
                    let (cat, s) = self.rng.pick(&[
                        (Category::Digit, "\\d"),
                        (Category::NotDigit, "\\D"),
                        (Category::Space, "\\s"),
                        (Category::NotSpace, "\\S"),
                        (Category::Word, "\\w"),
                        (Category::NotWord, "\\W"),
                    ]);
                    text.push_str(s);
                    items.push(SetItem::Category(cat));
                }
            }
        }
        text.push(']');
        match items[..] {
            [SetItem::Literal(c)] => Item::Literal(c),
            [SetItem::Negate, SetItem::Literal(c)] => Item::NotLiteral(c),
            _ => Item::In(items),
        }
    }

    /// A sequence of items; `fixed` asks for constructs of fixed width (for
    /// lookbehinds).
    fn seq(&mut self, depth: usize, fixed: bool, text: &mut String) -> Vec<Item> {
        let n = if depth == 0 { 1 + self.rng.below(4) } else { self.rng.below(3) + usize::from(self.rng.chance(50)) };
        (0..n).map(|_| self.item(depth, fixed, text)).collect()
    }

    fn item(&mut self, depth: usize, fixed: bool, text: &mut String) -> Item {
        let leaf = depth >= 4 || self.budget == 0 || self.rng.chance(35);
        if !leaf {
            self.budget -= 1;
        }
        let choice = if leaf { self.rng.below(10) } else { 10 + self.rng.below(if fixed { 8 } else { 12 }) };
        match choice {
            0..=3 => {
                let c = self.lit_char();
                esc(c, text);
                Item::Literal(c)
            }
            4 => {
                let c = self.lit_char();
                text.push_str("[^");
                esc(c, text);
                text.push(']');
                Item::NotLiteral(c)
            }
            5 => {
                text.push('.');
                Item::Any
            }
            6 | 7 => self.set(text),
            8 => {
                let (a, s) = self.rng.pick(&[
                    (At::Beginning, "^"),
                    (At::BeginningString, "\\A"),
                    (At::End, "$"),
                    (At::EndString, "\\Z"),
                    (At::Boundary, "\\b"),
                    (At::NonBoundary, "\\B"),
                ]);
                text.push_str(s);
                Item::At(a)
            }
            9 => {
                if let Some(&g) = self.closed.last().filter(|_| !self.closed.is_empty()) {
                    let g = if self.rng.chance(50) { g } else { self.rng.pick(&self.closed) };
                    text.push_str(&format!("\\{g}"));
                    Item::GroupRef(g)
                } else {
                    text.push('.');
                    Item::Any
                }
            }
            10 | 11 => {
                self.groups += 1;
                let g = self.groups;
                text.push('(');
                let items = self.seq(depth + 1, fixed, text);
                text.push(')');
                self.closed.push(g);
                Item::Subpattern { group: Some(g), add: 0, del: 0, items }
            }
            12 => {
                let (add, del) = self.rng.pick(&[
                    (0, 0),
                    (flag::IGNORECASE, 0),
                    (0, flag::IGNORECASE),
                    (flag::ASCII, 0),
                    (flag::UNICODE, 0),
                    (flag::ASCII | flag::IGNORECASE, 0),
                    (flag::DOTALL, 0),
                    (flag::MULTILINE, flag::DOTALL),
                    (0, flag::MULTILINE),
                    (flag::IGNORECASE, flag::MULTILINE),
                ]);
                text.push_str("(?");
                text.push_str(&flag_letters(add));
                if del != 0 {
                    text.push('-');
                    text.push_str(&flag_letters(del));
                }
                text.push(':');
                let items = self.seq(depth + 1, fixed, text);
                text.push(')');
                Item::Subpattern { group: None, add, del, items }
            }
            13 => {
                text.push_str("(?:");
                let n = 2 + self.rng.below(2);
                let width = self.rng.below(2);
                let mut alts = Vec::new();
                for i in 0..n {
                    if i > 0 {
                        text.push('|');
                    }
                    alts.push(if fixed {
                        (0..width).map(|_| self.item(4, true, text)).collect()
                    } else {
                        self.seq(depth + 1, false, text)
                    });
                }
                text.push(')');
                Item::Subpattern { group: None, add: 0, del: 0, items: branch(alts) }
            }
            14 => {
                text.push_str("(?>");
                let items = self.seq(depth + 1, fixed, text);
                text.push(')');
                Item::Atomic(items)
            }
            15 | 16 => {
                let negate = self.rng.chance(50);
                let behind = self.rng.chance(50);
                text.push_str(match (behind, negate) {
                    (false, false) => "(?=",
                    (false, true) => "(?!",
                    (true, false) => "(?<=",
                    (true, true) => "(?<!",
                });
                let items = self.seq(depth + 1, fixed || behind, text);
                text.push(')');
                Item::Assert { behind, negate, items }
            }
            17 => {
                // Mostly a closed group; sometimes an open or a later one, which
                // Python may refuse or accept.
                let g = if !self.closed.is_empty() && self.rng.chance(80) {
                    self.rng.pick(&self.closed)
                } else {
                    1 + self.rng.below(self.groups as usize + 1) as u32
                };
                text.push_str(&format!("(?({g})"));
                let yes = self.seq(depth + 1, fixed, text);
                let no = if self.rng.chance(60) {
                    text.push('|');
                    Some(self.seq(depth + 1, fixed, text))
                } else {
                    None
                };
                text.push(')');
                Item::GroupRefExists { group: g, yes, no }
            }
            _ => {
                let (min, max, q) = if fixed {
                    let n = self.rng.below(3) as u32;
                    (n, n, format!("{{{n}}}"))
                } else {
                    match self.rng.below(8) {
                        0 => (0, MAXREPEAT, "*".to_string()),
                        1 => (1, MAXREPEAT, "+".to_string()),
                        2 => (0, 1, "?".to_string()),
                        3 => {
                            let n = self.rng.below(3) as u32;
                            (n, n, format!("{{{n}}}"))
                        }
                        4 => {
                            let m = self.rng.below(3) as u32;
                            let n = m + self.rng.below(3) as u32;
                            (m, n, format!("{{{m},{n}}}"))
                        }
                        5 => {
                            let m = self.rng.below(3) as u32;
                            (m, MAXREPEAT, format!("{{{m},}}"))
                        }
                        6 => {
                            let n = self.rng.below(3) as u32;
                            (0, n, format!("{{,{n}}}"))
                        }
                        _ => (0, MAXREPEAT, "*".to_string()),
                    }
                };
                let kind =
                    if fixed { RepeatKind::Greedy } else { self.rng.pick(&[RepeatKind::Greedy, RepeatKind::Lazy, RepeatKind::Possessive]) };
                text.push_str("(?:");
                let items = if self.rng.chance(50) { vec![self.item(depth + 1, fixed, text)] } else { self.seq(depth + 1, fixed, text) };
                text.push(')');
                text.push_str(&q);
                match kind {
                    RepeatKind::Lazy => text.push('?'),
                    RepeatKind::Possessive => text.push('+'),
                    RepeatKind::Greedy => {}
                }
                Item::Repeat { kind, min, max, items }
            }
        }
    }
}

/// `re._parser._parse_sub` on alternatives: a common first item moves out of the
/// branch, and alternatives of single literals and sets become one set.
fn branch(mut alts: Vec<Vec<Item>>) -> Vec<Item> {
    let mut out = Vec::new();
    while let Some(first) = alts[0].first().cloned() {
        if alts.iter().all(|a| a.first() == Some(&first)) {
            for a in &mut alts {
                a.remove(0);
            }
            out.push(first);
        } else {
            break;
        }
    }
    let mut set: Vec<SetItem> = Vec::new();
    let all_chars = alts.iter().all(|a| match &a[..] {
        [Item::Literal(c)] => {
            set.push(SetItem::Literal(*c));
            true
        }
        [Item::In(s)] if s[0] != SetItem::Negate => {
            set.extend(s.iter().copied());
            true
        }
        _ => false,
    });
    if all_chars {
        let mut uniq: Vec<SetItem> = Vec::new();
        for s in set {
            if !uniq.contains(&s) {
                uniq.push(s);
            }
        }
        out.push(Item::In(uniq));
    } else {
        out.push(Item::Branch(alts));
    }
    out
}

/// A pattern made of random tokens of the whole syntax (most of which Python refuses).
fn soup(rng: &mut Rng) -> String {
    const TOKENS: &[&str] = &[
        "a",
        "b",
        "k",
        "σ",
        "ſ",
        "K",
        "A",
        "(",
        ")",
        "(?:",
        "(?i:",
        "(?-i:",
        "(?a:",
        "(?s:",
        "(?m:",
        "(?=",
        "(?!",
        "(?<=",
        "(?<!",
        "(?>",
        "(?P<n>",
        "(?P=n)",
        "(?(1)",
        "(?(n)",
        "|",
        "|",
        "*",
        "+",
        "?",
        "*?",
        "+?",
        "??",
        "*+",
        "++",
        "?+",
        "{2}",
        "{1,2}",
        "{,2}",
        "{1,}",
        "{",
        "}",
        ".",
        "^",
        "$",
        "\\A",
        "\\Z",
        "\\b",
        "\\B",
        "\\d",
        "\\D",
        "\\s",
        "\\S",
        "\\w",
        "\\W",
        "[",
        "]",
        "[^",
        "-",
        "\\1",
        "\\2",
        "\\t",
        "\\n",
        "\\x41",
        "\\101",
        "\\0",
        "\\N{GREEK SMALL LETTER SIGMA}",
        "#",
        " ",
        "\\u212a",
        "[a-c]",
        "[^\\s]",
        "[\\w-]",
        "\n",
        "\u{3000}",
        "\u{2028}",
        "\u{1c}",
    ];
    let mut text = String::new();
    if rng.chance(40) {
        text.push_str(rng.pick(&["(?i)", "(?x)", "(?a)", "(?s)", "(?m)", "(?ix)", "(?ai)", "(?u)"]));
    }
    for _ in 0..1 + rng.below(10) {
        text.push_str(rng.pick(TOKENS));
    }
    text
}

/// Clues of the regex-dialect traps and of the reference notes.
const HAND_WRITTEN: &[&str] = &[
    r"(A)(?=\1)A",
    r"(a){4}|\1*",
    r"(A){2}|\1*",
    r"(?=A)*A",
    r"(a*)+\1",
    r"(?:(a)|b)*\1",
    r"(a*)*\1",
    r"(a|)*b",
    r"(a)?\1",
    r"(a)?(?(1)\1|x)",
    r"x*+x",
    r"(?>x*)x",
    r"(.)(?<=\1)",
    "A$\n",
    r"A\Z\n",
    r"(?m)^A$\n^$",
    r"(?i)σ+",
    r"(?i)[k-kſ]+",
    r"(?i)[^σ]",
    r"(?i)(.)\1",
    r"(?a)\w+",
    r"\w\b\W*",
    r"\B",
    r"\d+|\D+",
    r"\s*",
    r"\N{LATIN CAPITAL LETTER A}+",
    "(?x) a b # a comment\n c?",
    r"(?i:A)a(?-i:a)?",
    r"(?P<x>a|b)(?P=x)",
    r"(?:(?=(a))a)*\1",
    r"(?:a(?!(b))|c)+(?(1)x|y)",
    r"(?<=(a))a",
    r"(?:(a)|(?(1)b|c))+",
    r"(?:a{2,3}?){2}+a?",
    r"((?>a|ab)c|a)b?",
];

/// A random pattern: its text and the tree Python's parser builds for it (up to
/// rewrites that keep the meaning, such as `a|b` becoming `[ab]`).
fn pattern(rng: &mut Rng) -> (String, Parsed) {
    let mut text = String::new();
    let mut global = 0;
    if rng.chance(40) {
        global = rng.pick(&[
            flag::IGNORECASE,
            flag::ASCII,
            flag::MULTILINE,
            flag::DOTALL,
            flag::VERBOSE,
            flag::IGNORECASE | flag::ASCII,
            flag::IGNORECASE | flag::DOTALL,
            flag::UNICODE | flag::IGNORECASE,
            flag::MULTILINE | flag::VERBOSE,
        ]);
        text.push_str(&format!("(?{})", flag_letters(global)));
    }
    let mut g = Gen { rng, groups: 0, closed: Vec::new(), budget: 6 };
    let items = g.seq(0, false, &mut text);
    let flags = if global & flag::ASCII != 0 { global } else { global | flag::UNICODE };
    let groups = g.groups;
    (text, Parsed { items, flags, groups, names: Vec::new() })
}

/// A string the tree is likely to match (lookarounds and anchors ignored).
fn sample(rng: &mut Rng, items: &[Item], caps: &mut Vec<Option<String>>, out: &mut String, alphabet: &[char]) {
    for it in items {
        if out.chars().count() > 10 {
            return;
        }
        match it {
            Item::Literal(c) => out.push(*c),
            Item::NotLiteral(_) | Item::Any => out.push(rng.pick(alphabet)),
            Item::In(set) => {
                let members: Vec<&SetItem> = set.iter().filter(|s| **s != SetItem::Negate).collect();
                match members.get(rng.below(members.len().max(1))) {
                    Some(SetItem::Literal(c)) if set[0] != SetItem::Negate => out.push(*c),
                    Some(SetItem::Range(a, b)) if set[0] != SetItem::Negate => {
                        out.push(if rng.chance(50) { *a } else { *b });
                    }
                    _ => out.push(rng.pick(alphabet)),
                }
            }
            Item::At(_) | Item::Assert { .. } => {}
            Item::Branch(alts) => {
                let a = &alts[rng.below(alts.len())];
                sample(rng, a, caps, out, alphabet);
            }
            Item::Subpattern { group, items, .. } => {
                let start = out.len();
                sample(rng, items, caps, out, alphabet);
                if let Some(g) = group {
                    caps[*g as usize] = Some(out[start..].to_string());
                }
            }
            Item::Repeat { min, max, items, .. } => {
                let hi = (*max).min(min + 3);
                let n = *min + rng.below((hi - min + 1) as usize) as u32;
                for _ in 0..n {
                    sample(rng, items, caps, out, alphabet);
                }
            }
            Item::Atomic(items) => sample(rng, items, caps, out, alphabet),
            Item::GroupRef(g) => {
                if let Some(Some(s)) = caps.get(*g as usize) {
                    let s = s.clone();
                    out.push_str(&s);
                }
            }
            Item::GroupRefExists { group, yes, no } => {
                if caps.get(*group as usize).is_some_and(Option::is_some) {
                    sample(rng, yes, caps, out, alphabet);
                } else if let Some(no) = no {
                    sample(rng, no, caps, out, alphabet);
                }
            }
        }
    }
}

fn strings(rng: &mut Rng, p: &Parsed, per_pattern: usize) -> Vec<String> {
    // A small alphabet: some of the pattern's literals and a few pool characters.
    let mut alphabet: Vec<char> = Vec::new();
    let d = dump(p);
    for line in d.lines() {
        let line = line.trim();
        if let Some(code) = line.strip_prefix("LITERAL ").or_else(|| line.strip_prefix("NOT_LITERAL "))
            && let Some(c) = code.parse().ok().and_then(char::from_u32)
            && rng.chance(70)
        {
            alphabet.push(c);
        }
    }
    for _ in 0..2 + rng.below(4) {
        alphabet.push(rng.pick(POOL));
    }
    alphabet.sort_unstable();
    alphabet.dedup();
    let mut set = BTreeSet::new();
    set.insert(String::new());
    let mut samples = Vec::new();
    for _ in 0..per_pattern / 4 {
        let mut caps = vec![None; p.groups as usize + 1];
        let mut s = String::new();
        sample(rng, &p.items, &mut caps, &mut s, &alphabet);
        if s.chars().count() <= 8 {
            samples.push(s.clone());
            set.insert(s);
        }
    }
    let mut tries = 0;
    while set.len() < per_pattern && tries < per_pattern * 4 {
        tries += 1;
        if !samples.is_empty() && rng.chance(50) {
            let mut cs: Vec<char> = samples[rng.below(samples.len())].chars().collect();
            match rng.below(5) {
                0 if !cs.is_empty() => {
                    let i = rng.below(cs.len());
                    cs.remove(i);
                }
                1 => {
                    let i = rng.below(cs.len() + 1);
                    cs.insert(i, rng.pick(&alphabet));
                }
                2 if !cs.is_empty() => {
                    let i = rng.below(cs.len());
                    cs[i] = rng.pick(&alphabet);
                }
                3 if !cs.is_empty() => {
                    let i = rng.below(cs.len());
                    let c = cs[i];
                    let swapped: Vec<char> = if c.is_lowercase() { c.to_uppercase().collect() } else { c.to_lowercase().collect() };
                    if swapped.len() == 1 {
                        cs[i] = swapped[0];
                    } else {
                        cs[i] = rng.pick(POOL);
                    }
                }
                _ => {
                    let i = rng.below(cs.len() + 1);
                    cs.insert(i, '\n');
                }
            }
            if cs.len() <= 8 {
                set.insert(cs.into_iter().collect());
            }
        } else {
            let n = rng.below(9);
            set.insert((0..n).map(|_| rng.pick(&alphabet)).collect());
        }
    }
    set.into_iter().collect()
}

/// What a fullmatch gave: `None` (no match), or lastindex and spans.
type Outcome = Option<(Option<usize>, Vec<Option<(usize, usize)>>)>;

fn python_outcome(v: &Value) -> Result<Outcome, String> {
    match v {
        Value::Null => Ok(None),
        Value::String(e) => Err(e.clone()),
        Value::Array(a) => {
            let lastindex = a[0].as_u64().map(|x| x as usize);
            let spans = a[1]
                .as_array()
                .expect("spans")
                .iter()
                .map(|s| {
                    let a = s[0].as_i64().expect("start");
                    let b = s[1].as_i64().expect("end");
                    (a >= 0).then_some((a as usize, b as usize))
                })
                .collect();
            Ok(Some((lastindex, spans)))
        }
        _ => panic!("unexpected oracle answer {v}"),
    }
}

fn check_python() {
    let out = Command::new("python3")
        .args(["-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
        .output()
        .expect("python3 must be installed: the sre differential test needs CPython 3.11");
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    assert_eq!(v, "3.11", "python3 must be CPython 3.11 for the sre differential test");
}

#[test]
fn sre_agrees_with_cpython() {
    check_python();
    let cases = crate::common::sample_size("CROSSAT_SRE_CASES", 200_000, 200_000);
    let seed: u64 = std::env::var("CROSSAT_SRE_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_0001);
    let per_pattern = 40;
    let mut rng = Rng::new(seed);
    let mut work: Vec<(String, Parsed, Vec<String>)> = Vec::new();
    let mut total = 0;
    // The regex-dialect traps and the examples of the Python reference notes, each with strings
    // drawn the usual way; only the parser's tree is meaningful for these.
    for text in HAND_WRITTEN {
        let tree = parser::parse(text).unwrap_or_else(|_| Parsed { items: Vec::new(), flags: flag::UNICODE, groups: 0, names: Vec::new() });
        let mut ss = strings(&mut rng, &tree, per_pattern);
        ss.extend(["a", "aa", "aaa", "A", "AA", "A\n", "x", "xx", "ab", "ς", "Σσ", "K", "ſ"].map(String::from));
        ss.sort();
        ss.dedup();
        total += ss.len();
        work.push((text.to_string(), tree, ss));
    }
    while total < cases + cases / 4 {
        let (text, tree) = pattern(&mut rng);
        let ss = strings(&mut rng, &tree, per_pattern);
        total += ss.len();
        work.push((text, tree, ss));
        if rng.chance(25) {
            // Token soup, on top: for the parser and matcher together.
            let text = soup(&mut rng);
            let tree =
                parser::parse(&text).unwrap_or_else(|_| Parsed { items: Vec::new(), flags: flag::UNICODE, groups: 0, names: Vec::new() });
            let ss = strings(&mut rng, &tree, per_pattern / 2);
            work.push((text, tree, ss));
        }
    }

    let answers =
        common::python_oracle("scripts/sre_oracle.py", work.iter().map(|(p, _, ss)| serde_json::json!({"p": p, "s": ss})).collect());

    let (mut compiled, mut refused, mut pairs, mut positives, mut budget_hits) = (0, 0, 0, 0, 0);
    let mut python_timeouts = 0;
    let mut mismatches: Vec<String> = Vec::new();
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    let mut over_budget: Vec<String> = Vec::new();
    for ((text, tree, ss), answer) in work.iter().zip(&answers) {
        // The tree the project's parser builds from the text, next to the generated one.
        let front =
            parser::parse(text).map_err(|e| e.to_string()).and_then(|t| Matcher::new(&t).map(|m| (t, m)).map_err(|e| e.to_string()));
        if let Some(e) = answer.get("e") {
            refused += 1;
            let reason: String = e.as_str().unwrap_or("").split(" at position").next().unwrap_or("").to_string();
            *reasons.entry(reason).or_insert(0) += 1;
            if let Ok((tree, _)) = front {
                mismatches.push(format!("pattern {text:?}: Python refuses it ({e}), we accept it\n{}", dump(&tree)));
            }
            continue;
        }
        compiled += 1;
        let results = answer["r"].as_array().expect("results");
        let generated = match Matcher::new(tree) {
            Ok(m) => m,
            Err(e) => {
                mismatches.push(format!("pattern {text:?}: Python compiles it, we refuse the generated tree: {e}\n{}", dump(tree)));
                continue;
            }
        };
        let (parsed_tree, parsed) = match front {
            Ok(x) => x,
            Err(e) => {
                mismatches.push(format!("pattern {text:?}: Python compiles it, the parser or compiler refuses it: {e}"));
                continue;
            }
        };
        for (s, r) in ss.iter().zip(results) {
            pairs += 1;
            if r.as_str() == Some("timeout") {
                python_timeouts += 1;
                continue;
            }
            let chars: Vec<char> = s.chars().collect();
            let theirs = python_outcome(r);
            if matches!(theirs, Ok(Some(_))) {
                positives += 1;
            }
            for (which, matcher, t) in [("generated", &generated, tree), ("parsed", &parsed, &parsed_tree)] {
                let ours: Result<Outcome, String> = match matcher.fullmatch_groups(&chars) {
                    Ok(None) => Ok(None),
                    Ok(Some(c)) if c.spans.iter().flatten().any(|(a, b)| a > b) => Err("wrong span".into()),
                    Ok(Some(c)) => Ok(Some((c.lastindex, c.spans))),
                    Err(_) => {
                        // Out of budget is an honest "don't know", never a verdict; it
                        // counts against the test only where Python answered quickly.
                        budget_hits += 1;
                        over_budget.push(format!("{text:?} on {s:?}"));
                        continue;
                    }
                };
                let agree = match (&ours, &theirs) {
                    (Ok(a), Ok(b)) => a == b,
                    (Err(a), Err(b)) => a == "wrong span" && b.contains("span of capturing group"),
                    _ => false,
                };
                let verdict_ours = matcher.fullmatch(&chars).map_err(|e| e.to_string());
                let verdict_agrees = matches!((&verdict_ours, &theirs), (Ok(v), Ok(t)) if *v == t.is_some())
                    || matches!((&verdict_ours, &theirs), (Ok(true), Err(_)));
                if !agree || !verdict_agrees {
                    mismatches.push(format!("pattern {text:?} string {s:?} ({which} tree): python {theirs:?}, ours {ours:?}\n{}", dump(t)));
                }
            }
        }
    }
    eprintln!(
        "sre differential: seed {seed:#x}, {} patterns ({compiled} compiled by Python, {refused} refused), {pairs} pairs, {positives} matches, {budget_hits} over budget, {python_timeouts} Python timeouts, {} mismatches",
        work.len(),
        mismatches.len()
    );
    let mut reasons: Vec<(usize, String)> = reasons.into_iter().map(|(r, n)| (n, r)).collect();
    reasons.sort_unstable_by(|a, b| b.cmp(a));
    eprintln!("refused by Python: {reasons:?}");
    eprintln!("over budget: {:?}", &over_budget[..over_budget.len().min(5)]);
    crate::common::bound_skips("sre: pairs where Python timed out", python_timeouts, pairs, pairs - python_timeouts, cases * 99 / 100);
    assert!(budget_hits * 10_000 <= pairs, "the budget was hit where Python answered: {budget_hits}");
    if !mismatches.is_empty() {
        for m in mismatches.iter().take(15) {
            eprintln!("{m}");
        }
        panic!("{} mismatches with CPython", mismatches.len());
    }
}
