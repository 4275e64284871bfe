//! The case generator of the sre differential test: random parse trees over the whole
//! syntax printed as pattern text, and the hand-written patterns.

use crate::regex::syntax::{At, Category, Item, MAXREPEAT, RepeatKind, SetItem, flag};

pub(super) use crate::rng::Cases as Rng;

/// Characters the strings and literals are drawn from.
pub(super) const POOL: &[char] = &[
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
pub(super) struct Gen<'r> {
    pub(super) rng: &'r mut Rng,
    pub(super) groups: u32,
    pub(super) closed: Vec<u32>,
    /// Group numbers opened inside the lookbehind being generated (references to
    /// them are refused by Python anyway; avoiding them keeps more patterns).
    pub(super) budget: usize,
}

pub(super) fn esc(c: char, out: &mut String) {
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

pub(super) fn flag_letters(f: u32) -> String {
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
    pub(super) fn lit_char(&mut self) -> char {
        if self.rng.chance(60) { self.rng.pick(&['a', 'b', 'x', 'k', 's', 'σ', 'A']) } else { self.rng.pick(POOL) }
    }

    /// A set, reduced as `re._parser` reduces `[x]` and `[^x]`.
    pub(super) fn set(&mut self, text: &mut String) -> Item {
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
    pub(super) fn seq(&mut self, depth: usize, fixed: bool, text: &mut String) -> Vec<Item> {
        let n = if depth == 0 { 1 + self.rng.below(4) } else { self.rng.below(3) + usize::from(self.rng.chance(50)) };
        (0..n).map(|_| self.item(depth, fixed, text)).collect()
    }

    pub(super) fn item(&mut self, depth: usize, fixed: bool, text: &mut String) -> Item {
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
                if let Some(&g) = self.closed.last() {
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
pub(super) fn branch(mut alts: Vec<Vec<Item>>) -> Vec<Item> {
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
pub(super) fn soup(rng: &mut Rng) -> String {
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
pub(super) const HAND_WRITTEN: &[&str] = &[
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
