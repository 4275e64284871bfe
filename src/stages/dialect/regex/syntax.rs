//! The parse tree of a clue exactly as CPython 3.11's `re._parser` builds it.
//!
//! Every node mirrors one `(op, av)` pair of `re._parser.SubPattern`; the names are
//! sre's opcode names. Flags stay symbolic where sre keeps them (global flags in
//! [`Parsed::flags`], scoped ones on [`Item::Subpattern`]); the matcher
//! ([`crate::sre`]) and the compile stage apply them, as `re._compiler` does.
//! [`dump`] writes the canonical text form that `scripts/sre_tree.py` writes for
//! Python's own tree, so the two parsers can be compared line by line.

/// `re` flag bits, with CPython's values.
pub(crate) mod flag {
    /// `re.TEMPLATE`, `(?t)`: 3.11 accepts it at the start of a clue, and `re._compiler`
    /// then refuses any repeat ("internal: unsupported template operator …"); otherwise
    /// it changes nothing.
    pub(crate) const TEMPLATE: u32 = 1;
    /// `re.IGNORECASE`, `(?i)`.
    pub(crate) const IGNORECASE: u32 = 2;
    /// `re.LOCALE`, `(?L)`: refused for str patterns.
    pub(crate) const LOCALE: u32 = 4;
    /// `re.MULTILINE`, `(?m)`.
    pub(crate) const MULTILINE: u32 = 8;
    /// `re.DOTALL`, `(?s)`.
    pub(crate) const DOTALL: u32 = 16;
    /// `re.UNICODE`, `(?u)` (the default for str patterns).
    pub(crate) const UNICODE: u32 = 32;
    /// `re.VERBOSE`, `(?x)`.
    pub(crate) const VERBOSE: u32 = 64;
    /// `re.ASCII`, `(?a)`.
    pub(crate) const ASCII: u32 = 256;
}

/// sre's `MAXREPEAT`: an unbounded repeat's upper bound.
pub(crate) const MAXREPEAT: u32 = u32::MAX;

/// A parsed clue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Parsed {
    /// The top-level sequence.
    pub items: Vec<Item>,
    /// Global flags after parsing (`state.flags`), with `UNICODE` added as `re`
    /// does for str patterns unless `ASCII` is set.
    pub flags: u32,
    /// Number of capturing groups (`state.groups - 1`).
    pub groups: u32,
    /// Named groups and their numbers, in order of definition.
    pub names: Vec<(String, u32)>,
}

/// One `(op, av)` of a `SubPattern`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// `LITERAL c`.
    Literal(char),
    /// `NOT_LITERAL c` (from `[^c]`).
    NotLiteral(char),
    /// `ANY` (`.`).
    Any,
    /// `IN [...]`: a character set. Besides Python's own sets, the parser writes
    /// `IN []` (matches nothing) for a surrogate escape such as `\ud800`, and
    /// `IN [NEGATE]` (any character) for `[^\ud800]`: see [`crate::regex::parser`].
    In(Vec<SetItem>),
    /// `AT code`.
    At(At),
    /// `BRANCH (None, [alternatives])`.
    Branch(Vec<Vec<Item>>),
    /// `SUBPATTERN (group, add_flags, del_flags, p)`.
    Subpattern {
        /// Capturing group number, `None` for `(?:…)` and `(?flags:…)`.
        group: Option<u32>,
        /// Flags turned on inside.
        add: u32,
        /// Flags turned off inside.
        del: u32,
        /// The body.
        items: Vec<Item>,
    },
    /// `MAX_REPEAT` / `MIN_REPEAT` / `POSSESSIVE_REPEAT (min, max, item)`.
    Repeat {
        /// Greedy, lazy or possessive.
        kind: RepeatKind,
        /// Lower bound.
        min: u32,
        /// Upper bound; [`MAXREPEAT`] for unbounded.
        max: u32,
        /// The repeated item (a subpattern).
        items: Vec<Item>,
    },
    /// `ATOMIC_GROUP p` (`(?>…)`).
    Atomic(Vec<Item>),
    /// `GROUPREF gid` (`\1`, `(?P=name)`).
    GroupRef(u32),
    /// `GROUPREF_EXISTS (gid, yes, no)` (`(?(1)yes|no)`).
    GroupRefExists {
        /// The group tested.
        group: u32,
        /// Taken when the group has matched.
        yes: Vec<Item>,
        /// Taken otherwise (`None` when absent).
        no: Option<Vec<Item>>,
    },
    /// `ASSERT` / `ASSERT_NOT (dir, p)`: lookahead (`dir` 1) or lookbehind (`dir` -1).
    Assert {
        /// Lookbehind.
        behind: bool,
        /// `ASSERT_NOT`.
        negate: bool,
        /// The body.
        items: Vec<Item>,
    },
}

/// Greedy (`MAX_REPEAT`), lazy (`MIN_REPEAT`) or possessive (`POSSESSIVE_REPEAT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RepeatKind {
    /// `*`, `+`, `?`, `{m,n}`.
    Greedy,
    /// `*?`, `+?`, `??`, `{m,n}?`.
    Lazy,
    /// `*+`, `++`, `?+`, `{m,n}+`.
    Possessive,
}

/// One member of an `IN` set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum SetItem {
    /// `NEGATE` (always first).
    Negate,
    /// `LITERAL c`.
    Literal(char),
    /// `RANGE (lo, hi)`.
    Range(char, char),
    /// `CATEGORY code`.
    Category(Category),
}

/// sre's `CATEGORY_*` codes that the parser emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Category {
    /// `\d`.
    Digit,
    /// `\D`.
    NotDigit,
    /// `\s`.
    Space,
    /// `\S`.
    NotSpace,
    /// `\w`.
    Word,
    /// `\W`.
    NotWord,
}

/// sre's `AT_*` codes that the parser emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum At {
    /// `^` (`AT_BEGINNING`; the compiler makes it `AT_BEGINNING_LINE` under `(?m)`).
    Beginning,
    /// `\A`.
    BeginningString,
    /// `$` (`AT_END`; `AT_END_LINE` under `(?m)`).
    End,
    /// `\Z`.
    EndString,
    /// `\b`.
    Boundary,
    /// `\B`.
    NonBoundary,
}

#[cfg(test)]
/// The canonical text of a tree, one node per line, indented by depth: the format
/// `scripts/sre_tree.py` prints for `re._parser.parse(p)`. It walks the tree with an
/// explicit stack, so any depth is safe.
pub(crate) fn dump(p: &Parsed) -> String {
    let mut out = format!("FLAGS {}\nGROUPS {}\n", p.flags, p.groups);
    // Work still to do, last first: a sequence of items or a label line.
    enum Task<'a> {
        Seq(&'a [Item], usize),
        Label(&'static str, usize),
    }
    let mut stack = vec![Task::Seq(&p.items, 0)];
    while let Some(task) = stack.pop() {
        let (items, d) = match task {
            Task::Label(text, d) => {
                line(&mut out, d, text);
                continue;
            }
            Task::Seq(items, d) => (items, d),
        };
        let Some((it, rest)) = items.split_first() else { continue };
        stack.push(Task::Seq(rest, d));
        let out = &mut out;
        match it {
            Item::Literal(c) => line(out, d, &format!("LITERAL {}", *c as u32)),
            Item::NotLiteral(c) => line(out, d, &format!("NOT_LITERAL {}", *c as u32)),
            Item::Any => line(out, d, "ANY"),
            Item::In(set) => {
                line(out, d, "IN");
                for s in set {
                    let text = match s {
                        SetItem::Negate => "NEGATE".to_string(),
                        SetItem::Literal(c) => format!("LITERAL {}", *c as u32),
                        SetItem::Range(a, b) => format!("RANGE {} {}", *a as u32, *b as u32),
                        SetItem::Category(c) => format!("CATEGORY {}", category_name(*c)),
                    };
                    line(out, d + 1, &text);
                }
            }
            Item::At(a) => line(out, d, &format!("AT {}", at_name(*a))),
            Item::Branch(alts) => {
                line(out, d, "BRANCH");
                for a in alts.iter().rev() {
                    stack.push(Task::Seq(a, d + 2));
                    stack.push(Task::Label("OR", d + 1));
                }
            }
            Item::Subpattern { group, add, del, items } => {
                let g = group.map_or("None".to_string(), |g| g.to_string());
                line(out, d, &format!("SUBPATTERN {g} {add} {del}"));
                stack.push(Task::Seq(items, d + 1));
            }
            Item::Repeat { kind, min, max, items } => {
                let op = match kind {
                    RepeatKind::Greedy => "MAX_REPEAT",
                    RepeatKind::Lazy => "MIN_REPEAT",
                    RepeatKind::Possessive => "POSSESSIVE_REPEAT",
                };
                line(out, d, &format!("{op} {min} {max}"));
                stack.push(Task::Seq(items, d + 1));
            }
            Item::Atomic(items) => {
                line(out, d, "ATOMIC_GROUP");
                stack.push(Task::Seq(items, d + 1));
            }
            Item::GroupRef(g) => line(out, d, &format!("GROUPREF {g}")),
            Item::GroupRefExists { group, yes, no } => {
                line(out, d, &format!("GROUPREF_EXISTS {group}"));
                if let Some(no) = no {
                    stack.push(Task::Seq(no, d + 2));
                    stack.push(Task::Label("NO", d + 1));
                }
                stack.push(Task::Seq(yes, d + 2));
                stack.push(Task::Label("YES", d + 1));
            }
            Item::Assert { behind, negate, items } => {
                let op = if *negate { "ASSERT_NOT" } else { "ASSERT" };
                line(out, d, &format!("{op} {}", if *behind { -1 } else { 1 }));
                stack.push(Task::Seq(items, d + 1));
            }
        }
    }
    out
}

#[cfg(test)]
fn line(out: &mut String, depth: usize, text: &str) {
    for _ in 0..depth {
        out.push_str("  ");
    }
    out.push_str(text);
    out.push('\n');
}

#[cfg(test)]
fn category_name(c: Category) -> &'static str {
    match c {
        Category::Digit => "CATEGORY_DIGIT",
        Category::NotDigit => "CATEGORY_NOT_DIGIT",
        Category::Space => "CATEGORY_SPACE",
        Category::NotSpace => "CATEGORY_NOT_SPACE",
        Category::Word => "CATEGORY_WORD",
        Category::NotWord => "CATEGORY_NOT_WORD",
    }
}

#[cfg(test)]
fn at_name(a: At) -> &'static str {
    match a {
        At::Beginning => "AT_BEGINNING",
        At::BeginningString => "AT_BEGINNING_STRING",
        At::End => "AT_END",
        At::EndString => "AT_END_STRING",
        At::Boundary => "AT_BOUNDARY",
        At::NonBoundary => "AT_NON_BOUNDARY",
    }
}
