//! The random clues of the differential tests against each dialect's own engine
//! (`pydiff`: CPython's `re`; `ecmadiff`: node): one grammar, drawn by [`Gen`], and a
//! [`Syntax`] table per dialect saying what its clues may hold and how often.
//!
//! A table's weights, lists and chances are part of the tests: a change to them
//! changes every case a seed draws. A chance of zero is never drawn, so a construct
//! one dialect lacks costs the other's cases nothing.

use crossat::generate::Rng;

/// A kind of subtree, drawn with the weights of [`Syntax::trees`].
#[derive(Clone, Copy)]
pub enum Tree {
    /// Subtrees one after another, as many as [`Syntax::concat`] says.
    Concat,
    /// Subtrees separated by `|`, as many as [`Syntax::alternatives`] says.
    Alt,
    /// A subtree under a quantifier.
    Repeat,
    /// A capturing group, named with the chance [`Syntax::named_groups`].
    Group,
    /// `(?:…)`.
    NonCapturing,
    /// A back-reference to a closed group, bare or under `*` or `|` (an atom when no
    /// group has closed yet).
    Backref,
    /// `(?(k)yes|no)` or `(?(k)yes)` (an atom when no group has opened yet).
    Conditional,
    /// `(?>…)`.
    Atomic,
    /// `(?F:…)`, the flags `F` from [`Syntax::scoped_flags`].
    Flags,
    /// A lookahead or a lookbehind.
    Look,
    /// An atom.
    Atom,
}

/// A kind of atom, drawn with the weights of [`Syntax::atoms`].
#[derive(Clone, Copy)]
pub enum Atom {
    /// A character of the alphabet (or of the pool), written as [`Gen::lit`] writes it.
    Char,
    /// `.`.
    Dot,
    /// A bracketed class.
    Class,
    /// One of these, verbatim.
    OneOf(&'static [&'static str]),
    /// A numbered back-reference to a group that may be open, closed, not yet opened
    /// or missing (`\1` to `\(groups + 2)`).
    Backref,
    /// A back-reference to a group that opens later.
    ForwardRef,
    /// A back-reference to a group whose body is being drawn, sometimes quantified
    /// (nothing when no group is open).
    SelfRef,
    /// `\k<name>` to a named group drawn already, or to one that may come later or
    /// never (else a lone `]`).
    NamedRef,
    /// Nothing.
    Empty,
}

/// A kind of item inside a bracketed class, drawn with the weights of
/// [`Syntax::class_items`].
#[derive(Clone, Copy)]
pub enum Item {
    /// A character.
    Char,
    /// A range between two characters (reversed with the chance
    /// [`Syntax::reversed_ranges`]).
    Range,
    /// One of [`Syntax::class_escapes`].
    Escape,
    /// One of [`Syntax::odd_items`] three times in ten, else a character.
    Odd,
}

/// What follows a quantifier.
pub enum Suffix {
    /// One of these, each equally likely.
    OneOf(&'static [&'static str]),
    /// `?` with this chance.
    Lazy(f64),
}

/// What a dialect's clues may hold, and how often.
pub struct Syntax {
    /// Characters a line may hold beyond the alphabet's (an alphabet is drawn from
    /// them too).
    pub pool: &'static [char],
    /// The chance that a literal is a letter of the alphabet rather than of the pool.
    pub from_alphabet: f64,
    /// The chance that a letter outside the BMP joins an alphabet.
    pub astral_letters: f64,
    /// Whether a literal space, U+0085 and U+2028 are always escaped (so that they
    /// survive `(?x)`).
    pub escape_spaces: bool,
    /// Whether a literal may be written in octal (`\141`).
    pub octal: bool,
    /// Whether a literal in a class is written as outside one (escapes `\x`, `\u`…),
    /// rather than as itself.
    pub escapes_in_class: bool,
    /// Whether `[]` and `[^]` are drawn (one class in twenty each).
    pub empty_classes: bool,
    /// The chance that a range is written high to low.
    pub reversed_ranges: f64,
    /// The kinds of class item, with weights.
    pub class_items: &'static [(Item, usize)],
    /// The escapes a class may hold.
    pub class_escapes: &'static [&'static str],
    /// Items of [`Item::Odd`].
    pub odd_items: &'static [&'static str],
    /// The kinds of atom, with weights.
    pub atoms: &'static [(Atom, usize)],
    /// The kinds of subtree, with weights.
    pub trees: &'static [(Tree, usize)],
    /// How many subtrees a [`Tree::Concat`] joins, at least and at most.
    pub concat: (usize, usize),
    /// How many subtrees a [`Tree::Alt`] separates, at least and at most.
    pub alternatives: (usize, usize),
    /// The quantifiers, each equally likely.
    pub quantifiers: &'static [&'static str],
    /// What follows a quantifier.
    pub suffix: Suffix,
    /// Whether a quantified subtree stays bare (else it is wrapped in `(?:…)`).
    pub bare_repeat: fn(&str) -> bool,
    /// The chance that a repeated subtree is a named group.
    pub repeated_named_groups: f64,
    /// The chance that a group is named.
    pub named_groups: f64,
    /// How a group is named: `(?P<gK>…)` after its body is drawn (Python, whose names
    /// must differ), or `(?<name>…)` before, with a name from [`Syntax::group_names`]
    /// that other groups may use too.
    pub python_names: bool,
    /// The names of [`Syntax::python_names`]`= false`.
    pub group_names: &'static [&'static str],
    /// The chance that a named group's body ends with `\k<name>?` (a self-reference).
    pub named_self_refs: f64,
    /// Whether a lookbehind's body has a fixed width (Python requires it).
    pub fixed_lookbehind: bool,
    /// The chance that a lookahead is quantified (Annex B).
    pub quantified_lookaheads: f64,
    /// The flags of [`Tree::Flags`].
    pub scoped_flags: &'static [&'static str],
    /// The flags one of which may lead a whole clue as `(?F)`, out of
    /// [`Syntax::leading_flags_of`] draws (`x` writes the clue verbose, with a comment).
    pub leading_flags: &'static [&'static str],
    /// See [`Syntax::leading_flags`].
    pub leading_flags_of: usize,
}

const PERL: &[&str] = &["\\d", "\\D", "\\w", "\\W", "\\s", "\\S"];

/// Python's `re`: characters cells may hold are ASCII, case pairs sre folds specially
/// (σ ς Σ, k K and the Kelvin sign, s ſ), digits of other scripts, marks and symbols
/// that are not `\w`, and Python's less common whitespace. Nearly every clue is one
/// Python accepts.
pub const PYTHON: Syntax = Syntax {
    pool: &[
        'a', 'b', 'A', 'B', 'x', 'σ', 'ς', 'Σ', 'k', 'K', '\u{212A}', 's', 'ſ', 'S', '1', '١', '²', '_', '-', ' ', '\n', '\u{1c}',
        '\u{1f}', '\u{85}', '\u{a0}', '\u{2028}', '\u{3000}', '\u{301}', '\u{345}', 'Ⓐ', 'é', 'É', 'ß', 'İ', 'ı', 'i',
    ],
    from_alphabet: 0.9,
    astral_letters: 0.0,
    escape_spaces: true,
    octal: false,
    escapes_in_class: false,
    empty_classes: false,
    reversed_ranges: 0.0,
    class_items: &[(Item::Escape, 1), (Item::Range, 1), (Item::Char, 4)],
    class_escapes: PERL,
    odd_items: &[],
    atoms: &[
        (Atom::Char, 10),
        (Atom::Dot, 3),
        (Atom::Class, 3),
        (Atom::OneOf(PERL), 2),
        (
            Atom::OneOf(&["\\N{LATIN SMALL LETTER A}", "\\N{latin capital letter b}", "\\N{GREEK SMALL LETTER SIGMA}", "\\N{KELVIN SIGN}"]),
            1,
        ),
        (Atom::OneOf(&["^", "$", "\\A", "\\Z", "\\b", "\\B"]), 1),
    ],
    trees: &[
        (Tree::Concat, 3),
        (Tree::Alt, 1),
        (Tree::Repeat, 2),
        (Tree::Group, 2),
        (Tree::Backref, 1),
        (Tree::Conditional, 1),
        (Tree::Atomic, 1),
        (Tree::Flags, 1),
        (Tree::Look, 2),
        (Tree::Atom, 3),
    ],
    concat: (2, 3),
    alternatives: (2, 2),
    quantifiers: &["*", "*", "+", "+", "?", "{2}", "{1,2}", "{,2}", "{2,}", "{0}", "{1,3}"],
    suffix: Suffix::OneOf(&["", "", "", "?", "+"]),
    bare_repeat: |body| body.chars().count() == 1 || body.starts_with('\\') && body.chars().count() == 2,
    repeated_named_groups: 0.0,
    named_groups: 0.2,
    python_names: true,
    group_names: &[],
    named_self_refs: 0.0,
    fixed_lookbehind: true,
    quantified_lookaheads: 0.0,
    scoped_flags: &["i", "s", "m", "a", "-i", "i-s", "u", "x"],
    leading_flags: &["i", "a", "s", "m", "x"],
    leading_flags_of: 12,
};

/// ECMAScript with Annex B, and some of Python's syntax, which node mostly refuses or
/// reads otherwise. Characters cells may hold are ASCII, the line terminators and
/// spaces where the dialects differ (`\r`, U+2028, U+2029, U+FEFF, U+001C, U+0085,
/// U+00A0), case pairs, letters and digits outside ASCII (not `\w` or `\d` in
/// ECMAScript), and a character outside the BMP (two code units in ECMAScript).
pub const ECMASCRIPT: Syntax = Syntax {
    pool: &[
        'a', 'b', 'A', 'B', 'x', 'Z', 'k', '8', '1', '_', '-', ' ', '\n', '\r', '\u{2028}', '\u{2029}', '\u{feff}', '\u{1c}', '\u{85}',
        '\u{a0}', 'σ', 'Σ', 'é', 'É', '١', '²', 'ß', '\u{212A}', '{', '}', '\\', '😀',
    ],
    from_alphabet: 0.85,
    // A letter outside the BMP is rare: it sends every clue to the slow routes.
    astral_letters: 0.02,
    escape_spaces: false,
    octal: true,
    escapes_in_class: true,
    empty_classes: true,
    reversed_ranges: 0.05,
    class_items: &[(Item::Escape, 1), (Item::Range, 2), (Item::Odd, 1), (Item::Char, 4)],
    class_escapes: &["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\b", "\\cA", "\\c1", "\\0"],
    odd_items: &["\\d-z", "a-\\w", "-a", "a-", "[:alpha:]"],
    atoms: &[
        (Atom::Char, 12),
        (Atom::Class, 5),
        (Atom::Dot, 2),
        (Atom::OneOf(PERL), 1),
        (Atom::OneOf(&["^", "$", "\\b", "\\B"]), 1),
        (Atom::Backref, 2),
        (Atom::OneOf(&["\\8", "\\9", "\\0", "\\Z", "\\A", "\\z", "\\k", "\\c", "\\cj", "\\x4", "\\u12", "\\-", "\\!"]), 1),
        (Atom::NamedRef, 1),
        (Atom::OneOf(&["{", "}", "a{,2}", "x{1", "{2}"]), 1),
        // Python's syntax.
        (Atom::OneOf(&["(?i)a", "(?P<n>a)", "(?#c)", "a*+", "(?>a)", "\\N{LATIN SMALL LETTER A}", "(?s:.)", "(?i:a)"]), 1),
        (Atom::SelfRef, 1),
        (Atom::ForwardRef, 1),
        (Atom::Empty, 3),
    ],
    trees: &[
        (Tree::Concat, 4),
        (Tree::Alt, 2),
        (Tree::Group, 3),
        (Tree::NonCapturing, 1),
        (Tree::Repeat, 2),
        (Tree::Look, 1),
        (Tree::Atom, 1),
    ],
    concat: (1, 3),
    alternatives: (2, 3),
    quantifiers: &["*", "+", "?", "{2}", "{0,2}", "{1,}", "{,2}", "{3,1}", "{0}", "{99999999999}"],
    suffix: Suffix::Lazy(0.2),
    // A group at both ends (`(a)(b)` too, whose last group alone is quantified).
    bare_repeat: |body| body.len() == 1 || body.starts_with('(') && body.ends_with(')'),
    repeated_named_groups: 0.25,
    named_groups: 0.25,
    python_names: false,
    group_names: &["n", "m", "x1"],
    named_self_refs: 0.2,
    fixed_lookbehind: false,
    quantified_lookaheads: 0.2,
    scoped_flags: &[],
    leading_flags: &[],
    leading_flags_of: 0,
};

/// A random clue over a small alphabet, and the line lengths to compare it on.
pub struct Case {
    /// The clue.
    pub p: String,
    /// The letters lines are made of.
    pub alphabet: Vec<char>,
    /// Lines of every length up to this one are compared.
    pub max_n: usize,
}

/// The case `seed` draws in `syntax`: an alphabet of 2 to 4 letters of the pool, the
/// longest lines that keep the strings to compare few, and a clue 2 to 4 levels deep.
pub fn case(syntax: &'static Syntax, seed: u64) -> Case {
    let mut rng = Rng::new(seed);
    let size = 2 + rng.below(3);
    let mut alphabet: Vec<char> = Vec::new();
    while alphabet.len() < size {
        let c = *rng.pick(syntax.pool);
        let fresh = !alphabet.contains(&c);
        // A letter drawn already, like one outside the BMP, spends a draw of the chance
        // (as the cases have always been drawn), though only a new one joins.
        let joins = if fresh && (c as u32) < 0x10000 { true } else { maybe(&mut rng, syntax.astral_letters) && fresh };
        if joins {
            alphabet.push(c);
        }
    }
    let max_n = match size {
        2 => 6,
        3 => 5,
        _ => 4,
    };
    let depth = 2 + rng.below(3);
    let mut g = Gen { syntax, rng, alphabet: &alphabet, groups: 0, closed: Vec::new(), open: Vec::new(), names: Vec::new() };
    let p = g.clue(depth);
    Case { p, alphabet, max_n }
}

/// True with the chance `p`, drawing nothing when `p` is zero.
fn maybe(rng: &mut Rng, p: f64) -> bool {
    p > 0.0 && rng.chance(p)
}

/// One of `table`'s kinds, as likely as its weight.
fn weighted<T: Copy>(rng: &mut Rng, table: &[(T, usize)]) -> T {
    let mut k = rng.below(table.iter().map(|(_, w)| w).sum());
    for &(kind, w) in table {
        if k < w {
            return kind;
        }
        k -= w;
    }
    unreachable!("a draw below the total weight")
}

/// Draws one clue.
pub struct Gen<'a> {
    syntax: &'static Syntax,
    rng: Rng,
    alphabet: &'a [char],
    /// Capturing groups opened so far, the number of the last.
    groups: u32,
    /// The groups closed so far.
    closed: Vec<u32>,
    /// The groups whose body is being drawn (a reference to one is a self-reference).
    open: Vec<u32>,
    /// The names of the named groups closed so far.
    names: Vec<String>,
}

impl Gen<'_> {
    fn maybe(&mut self, p: f64) -> bool {
        maybe(&mut self.rng, p)
    }

    /// A number in `lo..=hi`.
    fn count(&mut self, (lo, hi): (usize, usize)) -> usize {
        if hi > lo { lo + self.rng.below(hi - lo + 1) } else { lo }
    }

    fn pick(&mut self, list: &[&'static str]) -> &'static str {
        list[self.rng.below(list.len())]
    }

    fn ch(&mut self) -> char {
        if self.rng.chance(self.syntax.from_alphabet) { *self.rng.pick(self.alphabet) } else { *self.rng.pick(self.syntax.pool) }
    }

    /// A character as a clue may write it: itself, escaped, or as `\x`, `\u` or octal.
    fn lit(&mut self, c: char) -> String {
        let s = self.syntax;
        match c {
            '\n' => "\\n".into(),
            '\r' => "\\r".into(),
            c if "\\.^$*+?{}[]()|#/".contains(c) => format!("\\{c}"),
            ' ' if s.escape_spaces => "\\ ".into(),
            '\u{2028}' if s.escape_spaces => "\\u2028".into(),
            c if (c as u32) < 0x20 || c == '\u{85}' && s.escape_spaces => format!("\\x{:02x}", c as u32),
            c => match self.rng.below(12) {
                0 if (c as u32) < 0x100 => format!("\\x{:02x}", c as u32),
                1 if (c as u32) < 0x10000 => format!("\\u{:04x}", c as u32),
                2 if s.octal && (c as u32) < 0x100 => format!("\\{:o}", c as u32),
                _ => c.to_string(),
            },
        }
    }

    fn lit_in_class(&mut self, c: char) -> String {
        match c {
            '\\' | ']' | '[' | '^' | '-' => format!("\\{c}"),
            c if self.syntax.escapes_in_class => self.lit(c).replace("\\{", "{").replace("\\}", "}"),
            '\n' => "\\n".into(),
            c if (c as u32) < 0x20 => format!("\\x{:02x}", c as u32),
            c => c.to_string(),
        }
    }

    fn class(&mut self) -> String {
        let s = self.syntax;
        if s.empty_classes {
            match self.rng.below(20) {
                0 => return "[^]".into(),
                1 => return "[]".into(),
                _ => {}
            }
        }
        let mut out = String::from("[");
        if self.rng.chance(0.3) {
            out.push('^');
        }
        for _ in 0..1 + self.rng.below(3) {
            match weighted(&mut self.rng, s.class_items) {
                Item::Escape => out.push_str(self.pick(s.class_escapes)),
                Item::Range => {
                    let (a, b) = (self.ch(), self.ch());
                    let (a, b) = if a <= b || self.maybe(s.reversed_ranges) { (a, b) } else { (b, a) };
                    let (a, b) = (self.lit_in_class(a), self.lit_in_class(b));
                    out.push_str(&format!("{a}-{b}"));
                }
                Item::Odd if self.rng.chance(0.3) => out.push_str(self.pick(s.odd_items)),
                Item::Odd | Item::Char => {
                    let c = self.ch();
                    out.push_str(&self.lit_in_class(c));
                }
            }
        }
        out.push(']');
        out
    }

    fn atom(&mut self) -> String {
        match weighted(&mut self.rng, self.syntax.atoms) {
            Atom::Char => {
                let c = self.ch();
                self.lit(c)
            }
            Atom::Dot => ".".into(),
            Atom::Class => self.class(),
            Atom::OneOf(list) => self.pick(list).into(),
            Atom::Backref => format!("\\{}", 1 + self.rng.below(self.groups as usize + 2)),
            Atom::ForwardRef => format!("\\{}", self.groups + 1 + self.rng.below(2) as u32),
            Atom::SelfRef if !self.open.is_empty() => {
                let k = *self.rng.pick(&self.open);
                let q = if self.rng.chance(0.4) { self.quant() } else { String::new() };
                format!("\\{k}{q}")
            }
            Atom::NamedRef if !self.names.is_empty() => format!("\\k<{}>", self.rng.pick(&self.names)),
            // A name that may only be defined later (a forward reference), or never.
            Atom::NamedRef if self.rng.chance(0.5) => format!("\\k<{}>", self.pick(self.syntax.group_names)),
            Atom::NamedRef => "]".into(),
            Atom::SelfRef | Atom::Empty => String::new(),
        }
    }

    fn quant(&mut self) -> String {
        let q = self.pick(self.syntax.quantifiers);
        let m = match self.syntax.suffix {
            Suffix::OneOf(list) => self.pick(list),
            Suffix::Lazy(p) => {
                if self.rng.chance(p) {
                    "?"
                } else {
                    ""
                }
            }
        };
        format!("{q}{m}")
    }

    /// Opens a capturing group, numbered by its opening parenthesis.
    fn open_group(&mut self) -> u32 {
        self.groups += 1;
        self.open.push(self.groups);
        self.groups
    }

    fn close_group(&mut self, k: u32) {
        let _ = self.open.pop();
        self.closed.push(k);
    }

    fn group(&mut self, depth: usize) -> String {
        let s = self.syntax;
        if !s.python_names && self.maybe(s.named_groups) {
            return self.named_group(depth);
        }
        let k = self.open_group();
        let body = self.tree(depth - 1);
        self.close_group(k);
        if s.python_names && self.maybe(s.named_groups) { format!("(?P<g{k}>{body})") } else { format!("({body})") }
    }

    /// `(?<name>…)`, its name drawn before its body.
    fn named_group(&mut self, depth: usize) -> String {
        let name = self.pick(self.syntax.group_names).to_string();
        let k = self.open_group();
        let body = self.tree(depth - 1);
        self.close_group(k);
        // Within the body, `\k<name>` is a self-reference.
        self.names.push(name.clone());
        let body = if self.maybe(self.syntax.named_self_refs) { format!("{body}\\k<{name}>?") } else { body };
        format!("(?<{name}>{body})")
    }

    fn look(&mut self, depth: usize) -> String {
        if self.syntax.fixed_lookbehind {
            let body = self.tree(depth - 1);
            return match self.rng.below(4) {
                0 => format!("(?={body})"),
                1 => format!("(?!{body})"),
                2 => format!("(?<={})", self.fixed(depth - 1)),
                _ => format!("(?<!{})", self.fixed(depth - 1)),
            };
        }
        let kind = self.pick(&["?=", "?!", "?<=", "?<!"]);
        let body = self.tree(depth - 1);
        let q = if kind.len() == 2 && self.maybe(self.syntax.quantified_lookaheads) { self.quant() } else { String::new() };
        format!("({kind}{body}){q}")
    }

    /// A fixed-width body for a lookbehind (it may still refer to groups).
    fn fixed(&mut self, depth: usize) -> String {
        match self.rng.below(5) {
            0 if !self.closed.is_empty() && depth > 0 => format!("\\{}", self.rng.pick(&self.closed)),
            1 => format!("{}|{}", self.char_class(), self.char_class()),
            _ => (0..1 + self.rng.below(2)).map(|_| self.char_class()).collect(),
        }
    }

    /// `.` or a class.
    fn char_class(&mut self) -> String {
        if self.rng.chance(0.3) { self.class() } else { ".".into() }
    }

    fn tree(&mut self, depth: usize) -> String {
        if depth == 0 {
            return self.atom();
        }
        match weighted(&mut self.rng, self.syntax.trees) {
            Tree::Concat => (0..self.count(self.syntax.concat)).map(|_| self.tree(depth - 1)).collect(),
            Tree::Alt => (0..self.count(self.syntax.alternatives)).map(|_| self.tree(depth - 1)).collect::<Vec<_>>().join("|"),
            Tree::Repeat => {
                // A named group inside a repeat: its capture is reset at each iteration.
                let body = if self.maybe(self.syntax.repeated_named_groups) { self.named_group(depth) } else { self.tree(depth - 1) };
                let q = self.quant();
                if (self.syntax.bare_repeat)(&body) { format!("{body}{q}") } else { format!("(?:{body}){q}") }
            }
            Tree::Group => self.group(depth),
            Tree::NonCapturing => format!("(?:{})", self.tree(depth - 1)),
            Tree::Backref if !self.closed.is_empty() => {
                let k = *self.rng.pick(&self.closed);
                match self.rng.below(4) {
                    0 => format!("(?:\\{k})*"),
                    1 => format!("(?:\\{k}|{})", self.atom()),
                    _ => format!("\\{k}"),
                }
            }
            Tree::Conditional if self.groups > 0 => {
                let k = 1 + self.rng.below(self.groups as usize);
                let yes = self.tree(depth - 1);
                if self.rng.chance(0.7) { format!("(?({k}){yes}|{})", self.tree(depth - 1)) } else { format!("(?({k}){yes})") }
            }
            Tree::Atomic => format!("(?>{})", self.tree(depth - 1)),
            Tree::Flags => {
                let f = self.pick(self.syntax.scoped_flags);
                format!("(?{f}:{})", self.tree(depth - 1))
            }
            Tree::Look => self.look(depth),
            Tree::Backref | Tree::Conditional | Tree::Atom => self.atom(),
        }
    }

    /// A whole clue `depth` levels deep, sometimes led by flags.
    fn clue(&mut self, depth: usize) -> String {
        let body = self.tree(depth);
        if self.syntax.leading_flags.is_empty() {
            return body;
        }
        match self.rng.below(self.syntax.leading_flags_of) {
            k if k < self.syntax.leading_flags.len() => match self.syntax.leading_flags[k] {
                "x" => format!("(?x) {} # comment\n", body.replace(' ', "\\ ")),
                f => format!("(?{f}){body}"),
            },
            _ => body,
        }
    }
}
