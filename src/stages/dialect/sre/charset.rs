//! The character tests of a compiled clue, the way CPython 3.11's `re._compiler`
//! builds them: how a character is case-folded before a test ([`Fold`]), the categories
//! (`\\d`, `\\w`, `\\s` in their ASCII and Unicode forms), a set as
//! `_optimize_charset` leaves it ([`Charset`]) and the one test a literal, category or
//! set becomes ([`CharTest`], [`char_test`]). [`super::program`] lays them out in the
//! code; [`super::vm`] runs them.

use crate::regex::syntax::SetItem as S;
use crate::regex::syntax::{Category, Item, SetItem, flag};
use crate::regex::unicode as uni;

/// How a character is case-folded before a test: not at all, with
/// `sre_lower_ascii`, or with `sre_lower_unicode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fold {
    /// Compare the character itself.
    None,
    /// `sre_lower_ascii` (ASCII-only lowering: `IN_IGNORE`, `GROUPREF_IGNORE`).
    Ascii,
    /// `sre_lower_unicode` (`_PyUnicode_ToLowercase`: `*_UNI_IGNORE`).
    Unicode,
}

impl Fold {
    /// The folded code point.
    pub(crate) fn apply(self, c: char) -> char {
        match self {
            Fold::None => c,
            Fold::Ascii => c.to_ascii_lowercase(),
            Fold::Unicode => uni::lower(c),
        }
    }
}

/// sre's `CATEGORY_*` codes as compiled: ASCII ones (`SRE_CATEGORY_DIGIT`, …) when
/// `UNICODE` is off, the `UNI_` ones otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cat {
    /// The category (digit, space, word, negated or not).
    Plain(Category),
    /// The `CATEGORY_UNI_*` counterpart.
    Unicode(Category),
}

impl Cat {
    /// `sre_category`.
    pub(crate) fn test(self, c: char) -> bool {
        let (unicode, cat) = match self {
            Cat::Plain(cat) => (false, cat),
            Cat::Unicode(cat) => (true, cat),
        };
        let digit = |c| if unicode { uni::is_decimal(c) } else { uni::is_ascii_digit(c) };
        let space = |c| if unicode { uni::is_space(c) } else { uni::is_ascii_space(c) };
        let word = |c| if unicode { uni::is_word(c) } else { uni::is_ascii_word(c) };
        match cat {
            Category::Digit => digit(c),
            Category::NotDigit => !digit(c),
            Category::Space => space(c),
            Category::NotSpace => !space(c),
            Category::Word => word(c),
            Category::NotWord => !word(c),
        }
    }
}

/// One member test of a compiled set that `_optimize_charset` keeps outside its
/// character map (the "tail").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SetOp {
    /// `LITERAL c`.
    Literal(u32),
    /// `RANGE_UNI_IGNORE lo hi`: the (already lowered) character or its upper case
    /// lies in the range.
    RangeUniIgnore(u32, u32),
    /// `CATEGORY code`.
    Category(Cat),
}

/// A set as sre tests it (`SRE(charset)`): `NEGATE` first, then the character map
/// (kept here as sorted disjoint ranges: under IGNORECASE the lowered members, all
/// below U+10000; without it the members as written), then the tail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Charset {
    negate: bool,
    map: Vec<(u32, u32)>,
    tail: Vec<SetOp>,
}

impl Charset {
    /// Whether the (already folded) character `c` is accepted.
    pub(crate) fn contains(&self, c: char) -> bool {
        let u = c as u32;
        let hit = in_ranges(&self.map, u)
            || self.tail.iter().any(|op| match *op {
                SetOp::Literal(x) => u == x,
                SetOp::RangeUniIgnore(a, b) => {
                    let up = uni::upper(c) as u32;
                    (a <= u && u <= b) || (a <= up && up <= b)
                }
                SetOp::Category(cat) => cat.test(c),
            });
        hit != self.negate
    }
}

fn in_ranges(ranges: &[(u32, u32)], c: u32) -> bool {
    let i = ranges.partition_point(|&(_, hi)| hi < c);
    i < ranges.len() && ranges[i].0 <= c
}

/// A single-character test: sre's `LITERAL`, `NOT_LITERAL` and their `_IGNORE` /
/// `_UNI_IGNORE` forms, `ANY`, `ANY_ALL`, and `IN` / `IN_IGNORE` / `IN_UNI_IGNORE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CharTest {
    /// `LITERAL c`, or `LITERAL_IGNORE` / `LITERAL_UNI_IGNORE` when the fold is not
    /// `None` (then `c` is already lower-case).
    Literal(Fold, char),
    /// `NOT_LITERAL c` and its `_IGNORE` forms.
    NotLiteral(Fold, char),
    /// `ANY`: anything but `\n`.
    Any,
    /// `ANY_ALL` (`DOTALL`).
    AnyAll,
    /// `IN` (fold `None`), `IN_IGNORE` (`Ascii`), `IN_UNI_IGNORE` (`Unicode`).
    In(Fold, Box<Charset>),
}

impl CharTest {
    /// Whether `c` passes.
    #[inline]
    pub(crate) fn matches(&self, c: char) -> bool {
        match self {
            CharTest::Literal(f, x) => f.apply(c) == *x,
            CharTest::NotLiteral(f, x) => f.apply(c) != *x,
            CharTest::Any => c != '\n',
            CharTest::AnyAll => true,
            CharTest::In(f, set) => set.contains(f.apply(c)),
        }
    }
}

/// The case functions `_compile` picks under `IGNORECASE`: Unicode ones with the
/// `_casefix` fixes, or ASCII ones without.
#[derive(Clone, Copy)]
struct CaseFns {
    unicode: bool,
}

impl CaseFns {
    fn iscased(self, c: char) -> bool {
        if self.unicode { uni::is_cased(c) } else { uni::ascii_is_cased(c) }
    }
    fn lower(self, c: char) -> char {
        if self.unicode { uni::lower(c) } else { uni::ascii_lower(c) }
    }
    /// [`CaseFns::lower`] of each character of `a..=b`, in order.
    fn lowers(self, a: char, b: char) -> Box<dyn Iterator<Item = char>> {
        if self.unicode { Box::new(uni::lowers(a, b)) } else { Box::new((a..=b).map(uni::ascii_lower)) }
    }
    fn fixes(self, c: char) -> &'static [u32] {
        if self.unicode { uni::extra_cases(c) } else { &[] }
    }
}

/// The test `_compile` emits for a single-character item under `flags`.
pub(crate) fn char_test(it: &Item, flags: u32) -> Option<CharTest> {
    let ignore = flags & flag::IGNORECASE != 0;
    let case = CaseFns { unicode: flags & flag::UNICODE != 0 };
    Some(match it {
        Item::Literal(c) | Item::NotLiteral(c) => {
            let not = matches!(it, Item::NotLiteral(_));
            let plain = |f: Fold, x: char| if not { CharTest::NotLiteral(f, x) } else { CharTest::Literal(f, x) };
            if !ignore || !case.iscased(*c) {
                plain(Fold::None, *c)
            } else {
                let lo = case.lower(*c);
                if !case.unicode {
                    plain(Fold::Ascii, lo)
                } else {
                    let fixes = case.fixes(lo);
                    if fixes.is_empty() {
                        plain(Fold::Unicode, lo)
                    } else {
                        let tail = std::iter::once(lo as u32).chain(fixes.iter().copied()).map(SetOp::Literal).collect();
                        CharTest::In(Fold::Unicode, Box::new(Charset { negate: not, map: Vec::new(), tail }))
                    }
                }
            }
        }
        Item::Any => {
            if flags & flag::DOTALL != 0 {
                CharTest::AnyAll
            } else {
                CharTest::Any
            }
        }
        Item::In(set) => {
            let (charset, hascased) = optimize_charset(set, if ignore { Some(case) } else { None }, flags);
            let fold = if !hascased {
                Fold::None
            } else if !case.unicode {
                Fold::Ascii
            } else {
                Fold::Unicode
            };
            CharTest::In(fold, Box::new(charset))
        }
        _ => return None,
    })
}

const BMP_END: u32 = 0x10000;

/// `_optimize_charset`'s `charmap` at its largest: one bit per BMP code point.
struct Charmap(Vec<u64>);

impl Charmap {
    fn new() -> Charmap {
        Charmap(vec![0; BMP_END as usize / 64])
    }

    /// `charmap[i] = 1`, or `false` where Python raises `IndexError` (past the BMP).
    fn set(&mut self, i: u32) -> bool {
        let Some(word) = self.0.get_mut(i as usize / 64) else { return false };
        *word |= 1 << (i % 64);
        true
    }

    /// The runs of members, as inclusive ranges in ascending order.
    fn runs(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        let mut open: Option<u32> = None;
        for (w, &bits) in self.0.iter().enumerate() {
            let base = w as u32 * 64;
            match (open, bits) {
                (None, 0) | (Some(_), u64::MAX) => continue,
                _ => {}
            }
            for b in 0..64 {
                let i = base + b;
                match (open, bits >> b & 1 == 1) {
                    (None, true) => open = Some(i),
                    (Some(lo), false) => {
                        out.push((lo, i - 1));
                        open = None;
                    }
                    _ => {}
                }
            }
        }
        if let Some(lo) = open {
            out.push((lo, BMP_END - 1));
        }
        out
    }
}

/// `charmap[lo] = 1` for a lowered member `lo`, then for its fixes; `false` at the
/// first index past the BMP (the rest is not mapped, as in Python).
fn map_lowered(charmap: &mut Charmap, case: CaseFns, lo: char) -> bool {
    charmap.set(lo as u32) && case.fixes(lo).iter().all(|&k| charmap.set(k))
}

/// `_optimize_charset` followed by `_compile_charset`, as membership semantics.
///
/// Without IGNORECASE every member is tested as written. Under it, as in Python, each
/// literal and each character of a range is lowered (`tolower`) into a map of the
/// BMP together with its `_casefix` fixes (Unicode only). A member whose lowered form
/// or fix falls past the BMP (Python's `IndexError`) keeps what was mapped before it
/// and goes to the tail as written, a literal as `LITERAL`, a range as
/// `RANGE_UNI_IGNORE` over its whole span, which also accepts a character whose upper
/// case lies in it; the set is then "cased" (`IN_IGNORE` / `IN_UNI_IGNORE`) whatever
/// the characters, otherwise it is when some member is cased (`iscased`). Which of
/// Python's encodings of the map is chosen (ranges, `CHARSET`, `BIGCHARSET`, the
/// members as written when no case changed) does not change what it accepts.
fn optimize_charset(set: &[SetItem], case: Option<CaseFns>, flags: u32) -> (Charset, bool) {
    let unicode = flags & flag::UNICODE != 0;
    let mut negate = false;
    let mut charmap = case.map(|_| Charmap::new());
    let mut direct: Vec<(u32, u32)> = Vec::new();
    let mut tail = Vec::new();
    let mut hascased = false;
    for s in set {
        match (*s, case, charmap.as_mut()) {
            (S::Negate, ..) => negate = true,
            (S::Category(cat), ..) => tail.push(SetOp::Category(if unicode { Cat::Unicode(cat) } else { Cat::Plain(cat) })),
            (S::Literal(c), Some(case), Some(charmap)) => {
                if !map_lowered(charmap, case, case.lower(c)) {
                    hascased = true;
                    tail.push(SetOp::Literal(c as u32));
                } else if !hascased && case.iscased(c) {
                    hascased = true;
                }
            }
            (S::Range(a, b), Some(case), Some(charmap)) => {
                if !case.lowers(a, b).all(|lo| map_lowered(charmap, case, lo)) {
                    hascased = true;
                    tail.push(SetOp::RangeUniIgnore(a as u32, b as u32));
                } else if !hascased {
                    hascased = (a..=b).any(|c| case.iscased(c));
                }
            }
            (S::Literal(c), ..) => direct.push((c as u32, c as u32)),
            (S::Range(a, b), ..) => direct.push((a as u32, b as u32)),
        }
    }
    let mut map = charmap.map(|m| m.runs()).unwrap_or_default();
    map.extend(direct);
    map.sort_unstable();
    // Merge overlapping ranges so the binary search stays valid.
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(map.len());
    for (a, b) in map {
        match merged.last_mut() {
            Some((_, hi)) if a <= hi.saturating_add(1) => *hi = (*hi).max(b),
            _ => merged.push((a, b)),
        }
    }
    (Charset { negate, map: merged, tail }, hascased)
}
