//! Python 3.11's character predicates and case mappings, as sre uses them for str
//! patterns. The data is generated from CPython itself by `scripts/gen_unicode.py`
//! (`unicode_tables.rs`, `unicode_names.rs`); a test regenerates and compares it.
//!
//! These tables are the one definition of `\w \d \s \b` and of case-insensitive
//! matching in crossat: the compile stage, the encoder, the matcher, `check` and `hint`
//! all go through this module.

// Generated files: `scripts/gen_unicode.py --check` compares them byte for byte.
#[rustfmt::skip]
#[path = "unicode_names.rs"]
mod names;
#[rustfmt::skip]
#[path = "unicode_tables.rs"]
mod tables;

fn in_ranges(table: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(a, b)| {
            if b < c {
                std::cmp::Ordering::Less
            } else if a > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

fn mapped(table: &[(u32, u32)], c: char) -> char {
    match table.binary_search_by_key(&(c as u32), |&(a, _)| a) {
        Ok(i) => char::from_u32(table[i].1).unwrap_or(c),
        Err(_) => c,
    }
}

/// `str.isalnum()`.
pub(crate) fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    in_ranges(tables::ALNUM, c)
}

/// sre's Unicode `\w`: `str.isalnum()` or `_`.
pub(crate) fn is_word(c: char) -> bool {
    c == '_' || is_alnum(c)
}

/// sre's Unicode `\d`: `str.isdecimal()`.
pub(crate) fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    in_ranges(tables::DECIMAL, c)
}

/// sre's Unicode `\s`: `str.isspace()`.
pub(crate) fn is_space(c: char) -> bool {
    in_ranges(tables::SPACE, c)
}

/// sre's ASCII `\w` (under `(?a)`).
pub(crate) fn is_ascii_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// sre's ASCII `\d`.
pub(crate) fn is_ascii_digit(c: char) -> bool {
    c.is_ascii_digit()
}

/// sre's ASCII `\s`: space, `\t \n \v \f \r`.
pub(crate) fn is_ascii_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `str.isalpha()`.
pub(crate) fn is_alpha(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    in_ranges(tables::ALPHA, c)
}

/// `str.isprintable()` for one character (what `repr()` leaves unescaped).
pub(crate) fn is_printable(c: char) -> bool {
    in_ranges(tables::PRINTABLE, c)
}

/// The value of a Unicode decimal digit (`unicodedata.decimal`), as `int()` reads it.
/// Decimal digits come in runs of ten from 0 to 9, so a run's start gives the value.
pub(crate) fn decimal_value(c: char) -> Option<u32> {
    let v = c as u32;
    let i = tables::DECIMAL.binary_search_by(|&(a, b)| {
        if b < v {
            std::cmp::Ordering::Less
        } else if a > v {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    i.ok().map(|i| (v - tables::DECIMAL[i].0) % 10)
}

/// `_sre.unicode_iscased`: the character has a different lower or upper case.
pub(crate) fn is_cased(c: char) -> bool {
    in_ranges(tables::CASED, c)
}

/// `_sre.unicode_tolower` (CPython's `_PyUnicode_ToLowercase`).
pub(crate) fn lower(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    mapped(tables::LOWER, c)
}

/// [`lower`] of every character of `a..=b`, in order: the table is walked once
/// instead of searched for each character (sets under IGNORECASE lower whole ranges).
pub(crate) fn lowers(a: char, b: char) -> impl Iterator<Item = char> {
    let table = tables::LOWER;
    let mut j = table.partition_point(|&(k, _)| k < a as u32);
    (a..=b).map(move |c| {
        while table.get(j).is_some_and(|&(k, _)| k < c as u32) {
            j += 1;
        }
        match table.get(j) {
            Some(&(k, l)) if k == c as u32 => char::from_u32(l).unwrap_or(c),
            _ => c,
        }
    })
}

/// sre's `sre_upper_unicode` (CPython's `_PyUnicode_ToUppercase`: for a character whose
/// upper case is several characters, the first of them).
pub(crate) fn upper(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_uppercase();
    }
    mapped(tables::UPPER, c)
}

/// `re._casefix._EXTRA_CASES[c]`: for a lower-case character, the other lower-case
/// characters equal to it under IGNORECASE (e.g. `s` ↔ `ſ`, `σ` ↔ `ς`).
pub(crate) fn extra_cases(c: char) -> &'static [u32] {
    // Sets under IGNORECASE ask this of every character of their ranges, and almost
    // none has extra cases: a bitmap of the BMP's keys answers those first. KEYS is a
    // pure cache: built once from the constant table `EXTRA_CASES`, never written after,
    // the same for every caller and thread, so it cannot change an answer (the one
    // process-wide value the library keeps; issue 37 allows documented pure caches).
    static KEYS: std::sync::LazyLock<Vec<u64>> = std::sync::LazyLock::new(|| {
        let mut bits = vec![0u64; 0x10000 / 64];
        for &(k, _) in tables::EXTRA_CASES.iter().filter(|&&(k, _)| k < 0x10000) {
            bits[k as usize / 64] |= 1 << (k % 64);
        }
        bits
    });
    let u = c as usize;
    if KEYS.get(u / 64).is_some_and(|w| w >> (u % 64) & 1 == 0) {
        return &[];
    }
    match tables::EXTRA_CASES.binary_search_by_key(&(c as u32), |&(a, _)| a) {
        Ok(i) => tables::EXTRA_CASES[i].1,
        Err(_) => &[],
    }
}

/// `_sre.ascii_iscased`.
pub(crate) fn ascii_is_cased(c: char) -> bool {
    c.is_ascii_alphabetic()
}

/// `_sre.ascii_tolower`.
pub(crate) fn ascii_lower(c: char) -> char {
    c.to_ascii_lowercase()
}

/// Whether `name` is a valid group name (`str.isidentifier()`).
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut it = name.chars();
    match it.next() {
        Some(c) if c == '_' || in_ranges(tables::XID_START, c) => it.all(|c| in_ranges(tables::XID_CONTINUE, c)),
        _ => false,
    }
}

/// `unicodedata.lookup(name)` when it gives exactly one character (as `\N{name}`
/// requires): names and aliases, case-insensitively, plus the algorithmic
/// `CJK UNIFIED IDEOGRAPH-XXXX` and `HANGUL SYLLABLE …` names (case-sensitive, as in
/// CPython).
pub(crate) fn lookup_name(name: &str) -> Option<char> {
    if let Some(hex) = name.strip_prefix("CJK UNIFIED IDEOGRAPH-") {
        let ok = (hex.len() == 4 || hex.len() == 5) && hex.chars().all(|d| d.is_ascii_digit() || ('A'..='F').contains(&d));
        let c = u32::from_str_radix(hex, 16).ok().filter(|_| ok).and_then(char::from_u32)?;
        return in_ranges(names::CJK_UNIFIED, c).then_some(c);
    }
    if let Some(rest) = name.strip_prefix("HANGUL SYLLABLE ") {
        return hangul(rest);
    }
    let key = name.to_ascii_uppercase();
    if key.len() != name.len() || name.is_empty() {
        return None;
    }
    // The names are front-coded (see `names::NAMES`): decoded in order, up to the first
    // name past the key. A pattern names few characters, so a scan is enough.
    let mut name = String::new();
    for line in names::NAMES.split('\n') {
        let mut chars = line.chars();
        let shared = chars.next().map_or(0, |c| c as usize - '0' as usize);
        let (suffix, hex) = chars.as_str().split_once('\t')?;
        // Names are ASCII: the shared prefix is as many bytes.
        name.truncate(shared);
        name.push_str(suffix);
        match name.as_str().cmp(key.as_str()) {
            std::cmp::Ordering::Equal => return u32::from_str_radix(hex, 16).ok().and_then(char::from_u32),
            std::cmp::Ordering::Less => {}
            std::cmp::Ordering::Greater => return None,
        }
    }
    None
}

const JAMO_L: [&str; 19] = ["G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S", "SS", "", "J", "JJ", "C", "K", "T", "P", "H"];
const JAMO_V: [&str; 21] =
    ["A", "AE", "YA", "YAE", "EO", "E", "YEO", "YE", "O", "WA", "WAE", "OE", "YO", "U", "WEO", "WE", "WI", "YU", "EU", "YI", "I"];
const JAMO_T: [&str; 28] = [
    "", "G", "GG", "GS", "N", "NJ", "NH", "D", "L", "LG", "LM", "LB", "LS", "LT", "LP", "LH", "M", "B", "BS", "S", "SS", "NG", "J", "C",
    "K", "T", "P", "H",
];

/// A Hangul syllable from its short name (CPython's `find_syllable`: longest match of
/// each jamo in turn).
fn hangul(rest: &str) -> Option<char> {
    let longest = |s: &str, table: &[&str]| -> Option<(usize, usize)> {
        table.iter().enumerate().filter(|(_, j)| s.starts_with(**j)).max_by_key(|(_, j)| j.len()).map(|(i, j)| (i, j.len()))
    };
    let (l, n1) = longest(rest, &JAMO_L)?;
    let (v, n2) = longest(&rest[n1..], &JAMO_V)?;
    let (t, n3) = longest(&rest[n1 + n2..], &JAMO_T)?;
    if n1 + n2 + n3 != rest.len() {
        return None;
    }
    char::from_u32(0xAC00 + ((l * 21 + v) * 28 + t) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowers_is_lower_over_a_range() {
        let all = ('\0'..=char::MAX).map(lower);
        assert!(lowers('\0', char::MAX).eq(all));
        assert!(lowers('\u{d7ff}', '\u{e000}').eq(['\u{d7ff}', '\u{e000}']));
        assert!(lowers('Ω', 'Ω').eq(['ω']));
    }

    #[test]
    fn extra_cases_of_every_key_and_no_other() {
        for &(k, fixes) in tables::EXTRA_CASES {
            assert_eq!(extra_cases(char::from_u32(k).expect("a character")), fixes);
        }
        let keys = ('\0'..=char::MAX).filter(|&c| !extra_cases(c).is_empty()).count();
        assert_eq!(keys, tables::EXTRA_CASES.len());
    }

    #[test]
    fn spot_checks() {
        assert!(is_word('²') && !is_word('Ⓐ') && !is_word('\u{345}') && !is_word('\u{301}'));
        assert!(is_decimal('١') && !is_decimal('²'));
        assert!(['\u{1c}', '\u{85}', '\u{a0}', '\u{2028}', '\u{3000}'].iter().all(|&c| is_space(c)));
        assert_eq!(lower('Σ'), 'σ');
        assert_eq!(upper('ß'), 'S');
        assert_eq!(extra_cases('s'), &[0x17F]);
        assert!(lowers('@', 'C').eq(['@', 'a', 'b', 'c']));
        assert_eq!(lookup_name("latin capital letter a"), Some('A'));
        assert_eq!(lookup_name("LATIN CAPITAL LETTER GHA"), Some('\u{1A2}'));
        assert_eq!(lookup_name("CJK UNIFIED IDEOGRAPH-4E00"), Some('\u{4E00}'));
        assert_eq!(lookup_name("HANGUL SYLLABLE GAG"), Some('각'));
        assert_eq!(lookup_name("hangul syllable gag"), None);
        assert_eq!(lookup_name("LATIN CAPITAL LETTER A WITH MACRON AND GRAVE"), None);
        // The first and last names, and names on either side of a long shared prefix.
        assert_eq!(lookup_name("ABACUS"), Some('\u{1F9EE}'));
        assert_eq!(lookup_name("ZWSP"), Some('\u{200B}'));
        assert_eq!(lookup_name("ZZZ"), None);
        assert_eq!(lookup_name("A"), None);
        assert_eq!(lookup_name("ALCHEMICAL SYMBOL FOR AQUA REGIA-2"), Some('\u{1F707}'));
        assert_eq!(lookup_name("ALCHEMICAL SYMBOL FOR AQUA REGIA"), Some('\u{1F706}'));
        assert!(is_identifier("_x1") && is_identifier("é") && !is_identifier("1x") && !is_identifier(""));
    }
}
