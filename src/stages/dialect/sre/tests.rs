//! Hand-built trees for the traps of `docs`' Python reference notes; every expected
//! value was checked with CPython 3.11.7.

use super::*;
use crate::regex::syntax::{At, Category, Item, MAXREPEAT, Parsed, RepeatKind, SetItem, flag};

const U: u32 = flag::UNICODE;

fn lit(s: &str) -> Vec<Item> {
    s.chars().map(Item::Literal).collect()
}

fn group(n: u32, items: Vec<Item>) -> Item {
    Item::Subpattern { group: Some(n), add: 0, del: 0, items }
}

fn scoped(add: u32, del: u32, items: Vec<Item>) -> Item {
    Item::Subpattern { group: None, add, del, items }
}

fn rep(kind: RepeatKind, min: u32, max: u32, items: Vec<Item>) -> Item {
    Item::Repeat { kind, min, max, items }
}

fn star(items: Vec<Item>) -> Item {
    rep(RepeatKind::Greedy, 0, MAXREPEAT, items)
}

fn alt(alts: Vec<Vec<Item>>) -> Item {
    Item::Branch(alts)
}

fn pat(items: Vec<Item>, groups: u32, flags: u32) -> Parsed {
    Parsed { items, flags, groups, names: Vec::new() }
}

fn m(p: &Parsed) -> Matcher {
    Matcher::new(p).expect("compiles")
}

fn chars(s: &str) -> Vec<char> {
    s.chars().collect()
}

fn full(p: &Parsed, s: &str) -> bool {
    m(p).fullmatch_str(s).expect("within budget")
}

type Groups = (Vec<Option<(usize, usize)>>, Option<usize>);

fn spans(p: &Parsed, s: &str) -> Option<Groups> {
    m(p).fullmatch_groups(&chars(s)).expect("within budget").map(|c| (c.spans, c.lastindex))
}

#[test]
fn sre_group_keeps_last_iteration_that_set_it() {
    // (?:(a)|b)* on "ab": group 1 is "a".
    let p = pat(vec![star(vec![alt(vec![vec![group(1, lit("a"))], lit("b")])])], 1, U);
    assert_eq!(spans(&p, "ab"), Some((vec![Some((0, 1))], Some(1))));
    // (?:(a)|(b))+ on "ab".
    let p = pat(vec![rep(RepeatKind::Greedy, 1, MAXREPEAT, vec![alt(vec![vec![group(1, lit("a"))], vec![group(2, lit("b"))]])])], 2, U);
    assert_eq!(spans(&p, "ab"), Some((vec![Some((0, 1)), Some((1, 2))], Some(2))));
    // (?:x(a)?)* on "xax": the last iteration does not unset group 1.
    let p = pat(vec![star(vec![Item::Literal('x'), rep(RepeatKind::Greedy, 0, 1, vec![group(1, lit("a"))])])], 1, U);
    assert_eq!(spans(&p, "xax"), Some((vec![Some((1, 2))], Some(1))));
}

#[test]
fn sre_empty_last_iteration_sets_the_group() {
    // (a*)* on "aa": group 1 is the empty string at 2.
    let p = pat(vec![star(vec![group(1, vec![star(lit("a"))])])], 1, U);
    assert_eq!(spans(&p, "aa"), Some((vec![Some((2, 2))], Some(1))));
    // (a|)*b on "aab".
    let p = pat(vec![star(vec![group(1, vec![alt(vec![lit("a"), vec![]])])]), Item::Literal('b')], 1, U);
    assert_eq!(spans(&p, "aab"), Some((vec![Some((2, 2))], Some(1))));
    // (a*)+\1 accepts a, aa and aaa.
    let p = pat(vec![rep(RepeatKind::Greedy, 1, MAXREPEAT, vec![group(1, vec![star(lit("a"))])]), Item::GroupRef(1)], 1, U);
    for s in ["", "a", "aa", "aaa"] {
        assert!(full(&p, s), "{s:?}");
    }
}

#[test]
fn sre_unset_groups_and_conditionals() {
    // (a)?\1 fails on "".
    let opt_a = rep(RepeatKind::Greedy, 0, 1, vec![group(1, lit("a"))]);
    let p = pat(vec![opt_a.clone(), Item::GroupRef(1)], 1, U);
    assert!(!full(&p, ""));
    assert!(full(&p, "aa"));
    // (a)?(?(1)\1|x)
    let p = pat(vec![opt_a, Item::GroupRefExists { group: 1, yes: vec![Item::GroupRef(1)], no: Some(lit("x")) }], 1, U);
    assert_eq!(spans(&p, "x"), Some((vec![None], None)));
    assert!(full(&p, "aa"));
    assert!(!full(&p, "a"));
    // (?:a(?=(b))|c)* on "abc" does not match (the lookahead does not consume).
    let p = pat(
        vec![star(vec![alt(vec![
            vec![Item::Literal('a'), Item::Assert { behind: false, negate: false, items: vec![group(1, lit("b"))] }],
            lit("c"),
        ])])],
        1,
        U,
    );
    assert!(!full(&p, "abc"));
    // (?:(a)|b)*?c on "abc": lazy repeat, group 1 from the first iteration.
    let p = pat(vec![rep(RepeatKind::Lazy, 0, MAXREPEAT, vec![alt(vec![vec![group(1, lit("a"))], lit("b")])]), Item::Literal('c')], 1, U);
    assert_eq!(spans(&p, "abc"), Some((vec![Some((0, 1))], Some(1))));
}

#[test]
fn sre_possessive_and_atomic_do_not_give_back() {
    let p = pat(vec![rep(RepeatKind::Possessive, 0, MAXREPEAT, lit("x")), Item::Literal('x')], 0, U);
    assert!(!full(&p, "xx"));
    let p = pat(vec![Item::Atomic(vec![star(lit("x"))]), Item::Literal('x')], 0, U);
    assert!(!full(&p, "xx"));
    // Inside an atomic group SUCCESS is not the top level: (?>a)b matches "ab".
    let p = pat(vec![Item::Atomic(lit("a")), Item::Literal('b')], 0, U);
    assert!(full(&p, "ab"));
    // (?:ab)++c
    let p = pat(vec![rep(RepeatKind::Possessive, 1, MAXREPEAT, lit("ab")), Item::Literal('c')], 0, U);
    assert!(full(&p, "ababc"));
}

#[test]
fn sre_lookbehind_with_backreference() {
    let p = pat(vec![group(1, vec![Item::Any]), Item::Assert { behind: true, negate: false, items: vec![Item::GroupRef(1)] }], 1, U);
    assert!(full(&p, "a"));
    // A lookbehind of variable width is refused, as by re.compile.
    let p = pat(vec![Item::Assert { behind: true, negate: false, items: vec![alt(vec![lit("a"), lit("bc")])] }], 0, U);
    assert!(Matcher::new(&p).is_err());
}

#[test]
fn sre_end_anchors() {
    let end = Item::At(At::End);
    let p = pat(vec![Item::Literal('A'), end.clone(), Item::Literal('\n')], 0, U);
    assert!(full(&p, "A\n"));
    let p = pat(vec![Item::Literal('A'), end.clone()], 0, U);
    assert!(!full(&p, "A\n"));
    let p = pat(vec![Item::Literal('A'), Item::At(At::EndString), Item::Literal('\n')], 0, U);
    assert!(!full(&p, "A\n"));
    let p = pat(vec![Item::Literal('A'), end, Item::Literal('\n')], 0, U | flag::MULTILINE);
    assert!(full(&p, "A\n"));
}

#[test]
fn sre_ignorecase_equivalences() {
    let i = U | flag::IGNORECASE;
    for (c, s) in [('σ', "ς"), ('σ', "Σ"), ('Σ', "ς"), ('k', "\u{212a}"), ('\u{212a}', "k"), ('s', "ſ"), ('ſ', "S")] {
        assert!(full(&pat(vec![Item::Literal(c)], 0, i), s), "{c} {s}");
        assert!(!full(&pat(vec![Item::NotLiteral(c)], 0, i), s), "[^{c}] {s}");
    }
    let range = Item::In(vec![SetItem::Range('a', 'c')]);
    assert!(full(&pat(vec![range.clone()], 0, i), "B"));
    assert!(!full(&pat(vec![range], 0, U), "B"));
    // Under (?a) only ASCII letters fold: K sign is not k.
    assert!(!full(&pat(vec![Item::Literal('k')], 0, flag::ASCII | flag::IGNORECASE), "\u{212a}"));
    // A scoped (?i:A) followed by a.
    let p = pat(vec![scoped(flag::IGNORECASE, 0, lit("A")), Item::Literal('a')], 0, U);
    assert!(full(&p, "aa"));
    assert!(!full(&pat(vec![Item::Literal('A'), scoped(0, 0, lit("a"))], 0, U), "aa"));
    // CPython's own quirk: (?i)[𐐀a] does not match 𐐀 (the non-BMP literal is
    // compared with the lowered character), while (?i)[𐐨a] does.
    let set = |c| pat(vec![Item::In(vec![SetItem::Literal(c), SetItem::Literal('a')])], 0, i);
    assert!(!full(&set('\u{10400}'), "\u{10400}"));
    assert!(full(&set('\u{10428}'), "\u{10400}"));
}

#[test]
fn sre_unicode_and_ascii_classes() {
    let cat = |c| Item::In(vec![SetItem::Category(c)]);
    let w = pat(vec![cat(Category::Word)], 0, U);
    assert!(full(&w, "é"));
    assert!(full(&w, "²"));
    assert!(!full(&w, "Ⓐ"));
    assert!(!full(&w, "\u{301}"));
    assert!(!full(&pat(vec![cat(Category::Word)], 0, flag::ASCII), "é"));
    assert!(full(&pat(vec![cat(Category::Space)], 0, U), "\u{1c}"));
    assert!(!full(&pat(vec![cat(Category::Space)], 0, flag::ASCII), "\u{1c}"));
    assert!(full(&pat(vec![cat(Category::Digit)], 0, U), "١"));
    assert!(!full(&pat(vec![cat(Category::Digit)], 0, U), "²"));
    assert!(char_class(&cat(Category::NotWord), U).expect("a class").contains('\u{301}'));
    assert!(is_word('é', U) && !is_word('é', flag::ASCII));
}

#[test]
fn sre_word_boundaries() {
    let b = pat(vec![Item::At(At::Boundary)], 0, U);
    let nb = pat(vec![Item::At(At::NonBoundary)], 0, U);
    assert!(!full(&b, ""));
    assert!(!full(&nb, ""));
    assert!(full(&pat(vec![Item::Literal('a'), Item::At(At::Boundary)], 0, U), "a"));
    assert!(!full(&pat(vec![Item::At(At::NonBoundary), Item::Literal('a')], 0, U), "a"));
    // é is a word character only in Unicode mode.
    assert!(full(&pat(vec![Item::Literal('é'), Item::At(At::Boundary)], 0, U), "é"));
    assert!(!full(&pat(vec![Item::Literal('é'), Item::At(At::Boundary)], 0, flag::ASCII), "é"));
}

#[test]
fn sre_budget_is_an_error_not_a_verdict() {
    // (?:a|a)*b on a^30 backtracks exponentially.
    let p = pat(vec![star(vec![alt(vec![vec![group(1, lit("a"))], lit("a")])]), Item::Literal('b')], 1, U);
    let text = chars(&"a".repeat(30));
    let r = m(&p).with_budget(100_000).fullmatch(&text);
    assert_eq!(r, Err(BudgetExceeded { steps: 100_000, stack: false }));
    // A million nested calls (REPEAT with a minimum, no progress needed) hit the
    // stack limit, not the memory of the machine.
    let p = pat(vec![rep(RepeatKind::Greedy, 4_000_000, 4_000_000, vec![rep(RepeatKind::Greedy, 0, 1, vec![group(1, lit("a"))])])], 1, U);
    let r = m(&p).fullmatch_str("");
    assert!(matches!(r, Err(BudgetExceeded { stack: true, .. })), "{r:?}");
}

#[test]
fn sre_deep_nesting_and_long_strings() {
    // 2000 nested groups around a*: no stack overflow in the matcher.
    let mut items = vec![star(lit("a"))];
    for g in (1..=2000).rev() {
        items = vec![group(g, items)];
    }
    let p = pat(items, 2000, U);
    let handle = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let m = Matcher::new(&p).expect("compiles");
            (m.fullmatch_str(&"a".repeat(100_000)), m.fullmatch_str("ab"))
        })
        .expect("thread");
    let (yes, no) = handle.join().expect("no panic");
    assert_eq!(yes, Ok(true));
    assert_eq!(no, Ok(false));
    // A long string through a REPEAT (not REPEAT_ONE): one frame per iteration.
    let p = pat(vec![star(lit("ab"))], 0, U);
    assert_eq!(m(&p).fullmatch_str(&"ab".repeat(50_000)), Ok(true));
}

#[test]
fn sre_compiles_200_levels_on_a_small_stack() {
    // The parser accepts 200 levels of nesting; compiling them recurses once per
    // level, the matcher not at all.
    let mut text = String::new();
    for _ in 0..100 {
        text.push_str("(?:(a)|(?<=a)");
    }
    text.push('b');
    for _ in 0..100 {
        text.push_str(")*");
    }
    let handle = std::thread::Builder::new()
        .stack_size(512 << 10)
        .spawn(move || {
            let p = crate::regex::parser::parse(&text).expect("Python accepts it");
            let m = Matcher::new(&p).expect("compiles");
            (m.fullmatch_str("ab"), m.fullmatch_str("aab"), m.fullmatch_str("ba"))
        })
        .expect("thread");
    assert_eq!(handle.join().expect("no overflow"), (Ok(true), Ok(true), Ok(false)));
}
