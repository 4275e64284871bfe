//! Character classes against CPython 3.11: which characters a one-character class
//! accepts under every combination of case and type flags.
//!
//! `re._compiler` compiles a class in ways that depend on its members: `_optimize_charset`
//! lowers the members into a character map (growing it past U+00FF, giving up at
//! U+FFFF), a member that does not fit goes to the tail unchanged (a `RANGE` becoming
//! `RANGE_UNI_IGNORE`, which also tests the upper case of the character), `hascased`
//! picks `IN`, `IN_IGNORE` or `IN_UNI_IGNORE`, and `_casefix` adds the extra case
//! equivalences (`s`/`ſ`, `µ`/`μ`, `в`/`ᲀ`). So the members below are literals, ranges
//! that cross U+00FF and U+FFFF, ranges inside and across case-sensitive blocks
//! (Latin-1, Greek, Cyrillic, Cherokee, Deseret) and the categories; the flags are
//! none, `(?i)`, `(?a)`, `(?ai)`, and scoped ones that switch the case or the type
//! flag inside the class's group.
//!
//! For each class and each candidate character (those whose case mappings matter),
//! the matcher ([`crate::sre::Matcher`]) and the solutions of a one-cell puzzle (the
//! automaton that encodes the clue, every grid re-checked by the matcher) must both
//! be exactly the characters `re.fullmatch` accepts. `CROSSAT_CHARSET_CASES=N` sets the
//! number of random classes of two or three members (default 600) tried besides every
//! class of one member.

use super::{input_text, solve_in_process};
use crate::rng::Rng;
use crate::sre::Matcher;
use crate::test_support as common;
use std::collections::BTreeSet;

/// Characters whose case mappings matter: ASCII letters and their neighbours, Latin-1
/// (`µ` upper-cases to Greek `Μ`, `ß` to `S`, `ÿ` to `Ÿ` outside Latin-1), dotted and
/// dotless i, long s, the Kelvin and Ångström signs, title-case digraphs, Greek with
/// its final sigma and symbol variants, Cyrillic and its historic variants, letters
/// whose other case is far away (`ȿ`/`Ɀ`, `ⱥ`/`Ⱥ`), Cherokee, fullwidth letters, the
/// edges of the surrogate block and of the BMP, Deseret, Osage, Adlam and emoji.
const CANDIDATES: &[char] = &[
    'A',
    'Z',
    'a',
    'z',
    'K',
    'k',
    'S',
    's',
    'I',
    'i',
    '@',
    '[',
    '`',
    '{',
    '_',
    '0',
    '9',
    ' ',
    '\n',
    '\u{1c}',
    '\u{7f}',
    '\u{85}',
    '\u{a0}',
    'ª',
    '²',
    'µ',
    'º',
    'À',
    'Ö',
    '×',
    'Þ',
    'ß',
    'à',
    '÷',
    'þ',
    'ÿ',
    'Ā',
    'ā',
    'İ',
    'ı',
    'ŉ',
    'Ÿ',
    'ſ',
    'ƀ',
    'Ǆ',
    'ǅ',
    'ǆ',
    'ǰ',
    'Ⱥ',
    'ȿ',
    'ɀ',
    'ʼ',
    '\u{345}',
    'ΐ',
    'Β',
    'Θ',
    'Ι',
    'Μ',
    'Σ',
    'Ω',
    'β',
    'θ',
    'ι',
    'μ',
    'ς',
    'σ',
    'ω',
    'ϐ',
    'ϑ',
    'ϴ',
    'А',
    'В',
    'а',
    'в',
    'Ѣ',
    'ѣ',
    'Ꭰ',
    'ᏸ',
    'Ᏸ',
    'ᲀ',
    'ᲇ',
    'ẛ',
    'ẝ',
    'ẞ',
    'ẟ',
    'ᾀ',
    'ᾈ',
    'ι',
    'Ω',
    'K',
    'Å',
    'Ⅰ',
    'ⅰ',
    'Ⓐ',
    'ⓐ',
    'ⱥ',
    'Ɀ',
    'Ɀ',
    'Ꙋ',
    'ꙋ',
    'ꭰ',
    '\u{d7ff}',
    '\u{e000}',
    'Ａ',
    'ａ',
    '\u{fffd}',
    '\u{ffff}',
    '\u{10000}',
    '𐐀',
    '𐐧',
    '𐐨',
    '𐑏',
    '𐒰',
    '𐓘',
    '𝟎',
    '\u{1e900}',
    '\u{1e922}',
    '😀',
    '😁',
    '\u{10ffff}',
    '١',
];

/// Class members, as pattern text.
const MEMBERS: &[&str] = &[
    // Literals: cased or not, with extra cases, outside the BMP, a lone surrogate.
    "a",
    "K",
    "k",
    "s",
    "S",
    "\\u017f",
    "\\u212a",
    "\\xb5",
    "\\u039c",
    "\\u03bc",
    "\\xdf",
    "\\u1e9e",
    "\\u0345",
    "\\u03c2",
    "\\u0131",
    "\\u0130",
    "\\u023f",
    "\\u2c7e",
    "\\u13f8",
    "\\U00010400",
    "\\U00010428",
    "\\U0001f600",
    "\\ud800",
    // Ranges: ASCII, across U+00FF, within and across case-sensitive blocks, across
    // U+FFFF (the ones `_optimize_charset` cannot map), outside the BMP, and across or
    // ending in the surrogates.
    "a-z",
    "A-Z",
    "Z-a",
    "\\x7f-\\u0100",
    "\\xb5-\\xdf",
    "\\xc0-\\xff",
    "\\u0100-\\u017f",
    "\\u0130-\\u0131",
    "\\u0131-\\U0001f600",
    "\\u1e9d-\\U0001044f",
    "\\u0100-\\uffff",
    "\\uff00-\\U00010000",
    "\\uffff-\\U00010400",
    "\\U00010400-\\U0001044f",
    "\\U00010400-\\U00010427",
    "\\U00010428-\\U0001044f",
    "\\U00010000-\\U0010ffff",
    "\\u0370-\\u03ff",
    "\\u0391-\\u03a9",
    "\\u03c2-\\u03c3",
    "\\u0400-\\u04ff",
    "\\u1c80-\\u1c88",
    "\\u023a-\\u0240",
    "\\u2c65-\\u2c7f",
    "\\u212a-\\u212b",
    "\\u1f80-\\u1fff",
    "\\u13a0-\\u13f5",
    "\\uab70-\\uabbf",
    "\\x80-\\U00010427",
    "\\u0391-\\U0001e900",
    "\\ud7ff-\\ue000",
    "\\ud800-\\U00010000",
    "\\udc00-\\U0001044f",
    "\\u0100-\\udbff",
    "\\x00-\\U0010ffff",
    // Categories.
    "\\w",
    "\\W",
    "\\d",
    "\\D",
    "\\s",
    "\\S",
];

/// Where a class stands: global flags, and scoped ones that change the case or type
/// flag inside the class's group.
const CONTEXTS: &[(&str, &str)] = &[
    ("", ""),
    ("(?i)", ""),
    ("(?a)", ""),
    ("(?ai)", ""),
    ("(?a)(?i:", ")"),
    ("(?i)(?a:", ")"),
    ("(?ai)(?u:", ")"),
    ("(?i)(?-i:", ")"),
    ("(?a)(?i:(?u:", "))"),
];

/// The four classes of the report that found CPython's `RANGE_UNI_IGNORE` missing:
/// a range past U+FFFF under ASCII IGNORECASE also tests the Unicode upper case.
const REPORTED: &[(&str, char)] =
    &[("(?ai)[ı-😀]", 'µ'), ("(?ai)[^ı-😀]", 'µ'), ("(?a)(?i:[ı-😀])", 'µ'), ("(?ai)[\\u1e9d-\\U0001044f]", 'ȿ')];

fn class(negate: bool, members: &[&str]) -> String {
    format!("[{}{}]", if negate { "^" } else { "" }, members.concat())
}

/// Every class of one member in every context, then `random` seeded classes of two or
/// three members in random contexts.
fn clues(random: usize) -> Vec<String> {
    let mut out: Vec<String> = REPORTED.iter().map(|(p, _)| p.to_string()).collect();
    for &(pre, post) in CONTEXTS {
        for m in MEMBERS {
            for negate in [false, true] {
                out.push(format!("{pre}{}{post}", class(negate, &[m])));
            }
        }
    }
    let mut rng = Rng::new(31_000);
    for _ in 0..random {
        let n = 2 + rng.below(2);
        let members: Vec<&str> = (0..n).map(|_| *rng.pick(MEMBERS)).collect();
        let (pre, post) = *rng.pick(CONTEXTS);
        out.push(format!("{pre}{}{post}", class(rng.chance(0.3), &members)));
    }
    out
}

/// The candidates split into alphabets crossat accepts (at most 63 word characters).
fn alphabets() -> Vec<Vec<char>> {
    let mut out: Vec<Vec<char>> = vec![Vec::new()];
    let mut words = 0;
    for &c in CANDIDATES {
        let word = crate::regex::unicode::is_word(c);
        if word && words == 60 {
            out.push(Vec::new());
            words = 0;
        }
        words += usize::from(word);
        out.last_mut().expect("a chunk").push(c);
    }
    out
}

/// The characters crossat's matcher accepts.
fn matcher_accepts(clue: &str, chars: &[char]) -> Result<BTreeSet<char>, String> {
    let parsed = crate::regex::parser::parse(clue).map_err(|e| e.to_string())?;
    let m = Matcher::new(&parsed).map_err(|e| e.to_string())?;
    let mut out = BTreeSet::new();
    for &c in chars {
        if m.fullmatch(&[c]).map_err(|e| e.to_string())? {
            out.insert(c);
        }
    }
    Ok(out)
}

/// The solutions of the one-cell puzzle whose row clue is `clue`, over `alphabet`.
fn solutions(clue: &str, alphabet: &[char]) -> Result<BTreeSet<char>, String> {
    let json = serde_json::json!({ "left": [clue], "top": ["(?s:.)"] }).to_string();
    let input = crate::pipeline::Input { alphabet: Some(alphabet.to_vec()), ..input_text(&json) };
    let (grids, complete) = solve_in_process(input).map_err(|e| e.to_string())?;
    assert!(complete, "{clue:?}: the search was not exhausted");
    Ok(grids.iter().map(|g| g.concat().chars().next().expect("one cell")).collect())
}

/// Python's answer for each clue over all the candidates.
fn python(clues: &[String]) -> Vec<BTreeSet<char>> {
    let queries: Vec<(&str, &[char], usize)> = clues.iter().map(|p| (p.as_str(), CANDIDATES, 1)).collect();
    common::python_fullmatch(&queries)
        .into_iter()
        .zip(clues)
        .map(|(a, p)| {
            let a = a.unwrap_or_else(|| panic!("Python refuses {p:?}"));
            assert!(!a.contains(common::CRASH), "Python's matcher raised on {p:?}");
            a.iter().map(|s| s.chars().next().expect("one character")).collect()
        })
        .collect()
}

fn describe(want: &BTreeSet<char>, got: &BTreeSet<char>) -> String {
    let only = |a: &BTreeSet<char>, b: &BTreeSet<char>| a.difference(b).map(|c| format!("{c:?}")).collect::<Vec<_>>().join(" ");
    format!("Python only: [{}], crossat only: [{}]", only(want, got), only(got, want))
}

/// Every disagreement of the matcher (over `chars`) and of the solver (over each of
/// `alphabets`) with Python's answer `want` on `clue`.
fn disagreements(clue: &str, want: &BTreeSet<char>, chars: &[char], alphabets: &[Vec<char>]) -> Vec<String> {
    let mut out = Vec::new();
    match matcher_accepts(clue, chars) {
        Ok(got) if &got == want => {}
        Ok(got) => out.push(format!("{clue:?}: matcher: {}", describe(want, &got))),
        Err(e) => out.push(format!("{clue:?}: matcher refuses: {e}")),
    }
    for alphabet in alphabets {
        let want: BTreeSet<char> = want.iter().copied().filter(|c| alphabet.contains(c)).collect();
        match solutions(clue, alphabet) {
            Ok(got) if got == want => {}
            Ok(got) => out.push(format!("{clue:?}: solutions: {}", describe(&want, &got))),
            Err(e) => out.push(format!("{clue:?}: solving fails: {e}")),
        }
    }
    out
}

#[test]
fn reported_ranges_under_ascii_ignorecase_agree_with_python() {
    let clues: Vec<String> = REPORTED.iter().map(|(p, _)| p.to_string()).collect();
    let queries: Vec<(&str, &[char], usize)> = REPORTED.iter().map(|(p, c)| (*p, std::slice::from_ref(c), 1)).collect();
    let answers = common::python_fullmatch(&queries);
    let mut failures = Vec::new();
    for ((clue, &(_, c)), answer) in clues.iter().zip(REPORTED).zip(answers) {
        let want: BTreeSet<char> = answer.expect("Python compiles it").iter().filter_map(|s| s.chars().next()).collect();
        failures.extend(disagreements(clue, &want, &[c], &[vec![c]]));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn classes_agree_with_python() {
    let random = common::sample_size("CROSSAT_CHARSET_CASES", 600, 600);
    let clues = clues(random);
    let answers = python(&clues);
    let alphabets = alphabets();
    // The matcher answers for every candidate; a puzzle is solved over one of the
    // alphabets, chosen at random (the sets are the matcher's own predicate: what the
    // puzzles check is that the automata use them under the right flags).
    let mut rng = Rng::new(32_000);
    let mut failures = Vec::new();
    let (mut mixed, mut accepted) = (0usize, 0usize);
    for (clue, want) in clues.iter().zip(&answers) {
        mixed += usize::from(!want.is_empty() && want.len() < CANDIDATES.len());
        accepted += want.len();
        let alphabet = rng.pick(&alphabets);
        failures.extend(disagreements(clue, want, CANDIDATES, std::slice::from_ref(alphabet)));
        if failures.len() >= 30 {
            break;
        }
    }
    eprintln!(
        "charsets: {} classes over {} candidate characters (puzzles over one of {} alphabets): {mixed} accept some and reject others, {accepted} (class, character) pairs accepted",
        clues.len(),
        CANDIDATES.len(),
        alphabets.len()
    );
    assert!(failures.is_empty(), "{} disagreements with Python:\n{}", failures.len(), failures.join("\n"));
    assert!(mixed * 2 > clues.len(), "only {mixed} of {} classes separate the candidates", clues.len());
}
