//! The clue parser against Python's own (`re._parser.parse` + `re.compile`, through
//! `scripts/sre_tree.py`): seeded random patterns over the whole syntax, valid and
//! invalid, plus a hand-written list. Both must accept the same patterns, build the same
//! tree (`syntax::dump`) and refuse with the same `re.error` message and position.
//! `CROSSAT_PARSER_CASES=N` sets the number of random patterns (default 10,000).
//!
//! `python3` must be CPython 3.11: the test fails, never skips, without it.

mod cases;

use crate::regex::parser::{self, ErrorKind, MAX_NESTING};
use crate::regex::syntax;
use crate::test_support::root;
use cases::*;
use serde_json::Value;
use std::process::Command;

/// Every regex-dialect trap and every example of `/work/shared/notes/python-re-reference.md`, and the
/// quirks of `_parser.py`.
fn hand_written() -> Vec<String> {
    let mut v: Vec<String> = [
        // the regex-dialect traps
        r"\w",
        r"\d+|\D+",
        r"\s",
        r"\W*",
        r"(A)(?=\1)A",
        r"(a){4}|\1*",
        r"(A){2}|\1*",
        r"(a*)+\1",
        "(?i)",
        "(?i:a)",
        "(?-i:a)",
        "(?a)",
        "(?s)",
        "(?m)",
        "(?x)",
        "(?x) a b # comment\n c",
        r"\N{LATIN CAPITAL LETTER A}",
        "(?>a*)a",
        "a*+",
        "a++",
        "a?+",
        "a{1,2}+",
        "(a)?(?(1)b|c)",
        "(?=(?=a)a)a",
        "(?=(?!b)a)a",
        "(a)(?!\\1)b",
        "(?=(a))\\1",
        "(?=A)*A",
        "(?<=(?<=a)b)c",
        // notes
        "²",
        "Ⓐ",
        "١",
        "(?i)\u{212A}",
        "(?i)ſ",
        "(?i)σ",
        "(?i)[a-c]",
        r"(?a)\w",
        r"(?u)\w",
        "(?:(a)|b)*",
        "(a*)*",
        "(a|)*b",
        r"(a)?\1",
        r"(a)?(?(1)\1|x)",
        "x*+x",
        "(?>x*)x",
        "(?<=a|bc)",
        r"(.)(?<=\1)",
        r"(?<=(a)\1)",
        "a(?i)b",
        "(?i:a)b",
        "A$\n",
        r"A\Z",
        "{,2}",
        "a{,2}",
        "{1}",
        "a{",
        "a{1",
        "a{1,",
        "a{,",
        "a{}",
        "a{,}",
        "x{2,1}",
        // _parser quirks
        "",
        "|",
        "a|",
        "|a",
        "a||b",
        "ab|ac",
        "ab|ab",
        "a|b|c",
        r"a|\d|[xy]",
        r"a|[^b]",
        "a|bc",
        "(a)|(a)",
        "(?:a)|(?:a)",
        ".|.",
        "^a|^b",
        r"\1",
        r"(a)\1",
        r"(a)\2",
        r"(a\1)",
        r"(?P<n>a)(?P=n)",
        "(?P<n>a(?P=n))",
        "(?P<n>a)(?P<n>b)",
        "(?P<1>a)",
        "(?P<>a)",
        "(?P<a",
        "(?P=",
        "(?P=)",
        "(?P=a",
        "(?Px)",
        "(?P",
        "(?",
        "(",
        ")",
        "a)",
        "(a",
        "((a)",
        "[",
        "[]",
        "[]]",
        "[^]]",
        "[]a]",
        "[a-]",
        "[-a]",
        "[a-",
        "[a-\\",
        "[\\",
        "\\",
        "a\\",
        "[a\\]",
        r"[\d-a]",
        r"[a-\d]",
        "[z-a]",
        "[[a]",
        "[a--b]",
        "[a&&b]",
        "[a~~b]",
        "[a||b]",
        r"[\b]",
        r"[\A]",
        r"[\Z]",
        r"[\B]",
        r"[\1]",
        r"[\8]",
        r"[\777]",
        r"\777",
        r"\400",
        r"\377",
        r"\0777",
        r"\08",
        r"\18",
        r"\81",
        r"\1234",
        r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)\11",
        r"(a)\10",
        r"\x",
        r"\x1",
        r"\x1g",
        r"\u",
        r"\u123",
        r"\U1234567",
        r"\U0010FFFF",
        r"\U00110000",
        r"\UFFFFFFFF",
        r"\U7FFFFFFF",
        r"\U80000000",
        r"[\U80000000]",
        r"\N",
        r"\N{",
        r"\N{}",
        r"\N{SPACE",
        r"\N{space}",
        r"\N{bogus name}",
        "[\\N{EM DASH}-\\N{SPACE}]",
        "*",
        "+",
        "?",
        "{",
        "}",
        "a**",
        "a*?",
        "a*??",
        "a+*",
        "(?:a*)*",
        "(?:)*",
        "()*",
        "^*",
        "$*",
        r"\b*",
        r"\A+",
        "(?=a)*",
        "(?<=a)+",
        "a{4294967294}",
        "a{4294967295}",
        "a{0,4294967295}",
        "a{1,99999999999999999999999}",
        "a{00001}",
        "a{2,1}",
        "a{1}{2}",
        "a{1}?{2}",
        "(?i)a",
        "a(?i)",
        "(?i)(?m)a",
        "((?i)a)",
        "(?#x)(?i)a",
        "a|(?i)b",
        "(?i)a|(?m)b",
        "(?x)(?i)a b",
        "(?L)a",
        "(?au)a",
        "(?a)(?u)a",
        "(?ua)",
        "(?a:\\w)",
        "(?-a:\\w)",
        "(?-u:a)",
        "(?-L:a)",
        "(?L:a)",
        "(?t)a",
        "(?t)a*",
        "(?t)(?<=a|bc)a*",
        "(?t)a*(?<=a|bc)",
        "(?t:a)",
        "(?-t:a)",
        "(?i-i:a)",
        "(?-:a)",
        "(?i",
        "(?i-",
        "(?i-s",
        "(?iQ)",
        "(?i=)",
        "(?-Q:a)",
        "(?-é:a)",
        "(?ié)",
        "(?-=:a)",
        "(?x: a )b c",
        "(?-x: a )",
        "(?x)[ a]",
        "(?x)a{1, 2}",
        "(?x)a {2}",
        "(?x)a #c\n*",
        "(?x)\\ a",
        "(?x)#(?i)\na",
        "(?x)a|(?i)b",
        " (?x)a",
        "(?#",
        "(?#abc",
        "(?#a)b",
        "(?<",
        "(?<x",
        "(?<=",
        "(?<!a",
        "(?=",
        "(?>",
        "(?>a",
        "(?(",
        "(?(1",
        "(?(1)",
        "(?(1)a",
        "(?(1)a|b|c)",
        "(a)(?(1)a|b|c)",
        "(?(0)a)",
        "(?(-1)a)",
        "(?(+1)a)",
        "(a)(?( 1 )b)",
        "(a)(?(١)b)",
        "(a)(?(1_0)b)",
        "(a)(?(1__0)b)",
        "(?(a)b)",
        "(?P<a>x)(?(a)b)",
        "(?(a b)c)",
        "(?(99999999999999999999)a)",
        "(?(5)a)",
        "(a)(?(5)a)",
        "(?(2)a)(b)(c)",
        "(?(1)a)(b)",
        "(?<=(a))(?(1)b)",
        "(?<=(a)(?(1)b))",
        "(?<=a(?(1)b))(a)",
        "(?<=a*)",
        "(?<=a{2})",
        "(?<=a{1,2})",
        "(?<=a|b)",
        "(?<=ab|cd)",
        "(?<=(?:ab|c))",
        "(?<!a+)",
        r"(a)(?<=\1)",
        r"(a*)(?<=\1)",
        r"(?<=(a)\1)",
        "(?<=(?P<n>a)(?P=n))",
        "(?<=(?:a{65535}){65537})",
        "(?<=a{4294967294})",
        "(?<=(?:a{4294967294}){2})",
        "(?<=(?=a*))b",
        "(?<=\\b)a",
        "(?<=(?<=a*))",
        "(?<=a(?=b*))",
        "(?<=(?>a))",
        "(?<=(?>a|bc))",
        "(?=a|bc)",
        "(?<=a)(?<=bc|d)",
        "(?<=\\d)",
        "(?<=.)",
        "(?<=[ab])",
        "(?<=a?)",
        "(?<=(a)|b)",
        "a\u{2028}b",
        "é",
        "😀",
        "[😀-😁]",
        "\u{ffff}",
        "\u{10ffff}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // nesting: well inside, at, and past the limit
    for n in [10, MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1, 1000] {
        v.push("(".repeat(n) + &")".repeat(n));
        v.push("(?:".repeat(n) + "a" + &")".repeat(n));
    }
    // the constructs that cost Python the most stack per level, at our limit
    let n = MAX_NESTING;
    v.push("(?=".repeat(n) + &")".repeat(n));
    v.push("(".repeat(n) + "a" + &")*".repeat(n));
    v.push("(?:(".repeat(n / 2) + "a" + &")*)+?".repeat(n / 2));
    v.push("(?<=".to_string() + &"(?:".repeat(n - 1) + "a" + &"){1}".repeat(n - 1) + ")");
    v.push("(a)".to_string() + &"(?(1)".repeat(n) + &"|b)".repeat(n));
    v.push("(?:a|".repeat(n) + &")".repeat(n));
    v.push("(?>".repeat(n) + "a" + &")++".repeat(n));
    v.push("(?i:(?-i:".repeat(n / 2) + "a" + &"))".repeat(n / 2));
    v.push("(?P<a>x)".to_string() + &"(?<!".repeat(n) + "(?P=a)" + &")".repeat(n));
    v
}

fn python_check() {
    let out = Command::new("python3").args(["-c", "import sys; print(sys.implementation.name, *sys.version_info[:2])"]).output();
    let out = out.unwrap_or_else(|e| panic!("python3 (CPython 3.11) is required for the parser cross-check: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.trim(), "cpython 3 11", "python3 must be CPython 3.11 for the parser cross-check");
}

/// Python's verdict on each pattern, from one `scripts/sre_tree.py` process.
fn python(patterns: &[String]) -> Vec<Value> {
    python_check();
    crate::test_support::python_oracle("scripts/sre_tree.py", patterns.iter().map(|p| serde_json::json!({ "p": p })).collect())
}

/// Whether a dump names a surrogate code point (which crossat's tree rewrites; a
/// range across the surrogate block whose ends are characters is kept as it is).
fn has_surrogate(dump: &str) -> bool {
    let surrogate = |c: &u32| (0xD800..=0xDFFF).contains(c);
    dump.lines().any(|l| {
        let n: Vec<u32> = l.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        match (l.trim_start().split(' ').next(), n.as_slice()) {
            (Some("RANGE"), [a, b]) => surrogate(a) || surrogate(b),
            (Some("LITERAL" | "NOT_LITERAL"), [c]) => (0xD800..=0xDFFF).contains(c),
            _ => false,
        }
    })
}

/// The mismatches between our parser and Python's verdicts.
fn compare(patterns: &[String], answers: &[Value]) -> (Vec<String>, [usize; 4]) {
    let mut bad = Vec::new();
    // accepted, refused with re.error, refused otherwise, dumps not compared (surrogates)
    let mut counts = [0usize; 4];
    for (p, a) in patterns.iter().zip(answers) {
        let ours = parser::parse(p);
        let ok = a["ok"].as_bool().unwrap_or(false);
        match (&ours, ok) {
            (Ok(tree), true) => {
                counts[0] += 1;
                let theirs = a["dump"].as_str().unwrap_or_default();
                if has_surrogate(theirs) {
                    counts[3] += 1;
                    continue;
                }
                let mine = syntax::dump(tree);
                if mine != theirs {
                    bad.push(format!("{p:?}: trees differ\n--- python\n{theirs}--- crossat\n{mine}"));
                }
            }
            (Ok(_), false) => bad.push(format!("{p:?}: Python refuses ({a}), crossat accepts")),
            (Err(e), true) if e.kind == ErrorKind::Nesting && p.matches('(').count() > MAX_NESTING => counts[2] += 1,
            (Err(e), true) => bad.push(format!("{p:?}: Python accepts, crossat refuses: {e}")),
            (Err(e), false) => {
                if let Some(other) = a["other"].as_str() {
                    counts[2] += 1;
                    let want = match e.kind {
                        ErrorKind::Overflow => "OverflowError: ",
                        ErrorKind::Value => "ValueError: ",
                        ErrorKind::Nesting => "RecursionError: ",
                        ErrorKind::Re | ErrorKind::Length => "re.error",
                    };
                    let same = other.starts_with(want) && (e.kind == ErrorKind::Nesting || other[want.len()..] == e.msg);
                    if !same {
                        bad.push(format!("{p:?}: Python raises {other}, crossat: {e} ({:?})", e.kind));
                    }
                } else {
                    counts[1] += 1;
                    let pos = a["pos"].as_u64().map(|n| n as usize);
                    if e.kind != ErrorKind::Re || a["msg"].as_str() != Some(e.msg.as_str()) || pos != e.pos {
                        bad.push(format!("{p:?}: Python: {} at {pos:?}; crossat: {} at {:?} ({:?})", a["msg"], e.msg, e.pos, e.kind));
                    }
                }
            }
        }
    }
    (bad, counts)
}

fn check(patterns: &[String]) -> [usize; 4] {
    let answers = python(patterns);
    let (bad, counts) = compare(patterns, &answers);
    if !bad.is_empty() {
        let shown: Vec<&String> = bad.iter().take(60).collect();
        panic!(
            "{} of {} patterns disagree with Python:\n{}",
            bad.len(),
            patterns.len(),
            shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
        );
    }
    counts
}

#[test]
fn parser_agrees_with_python_on_hand_written_patterns() {
    let patterns = hand_written();
    let counts = check(&patterns);
    eprintln!("{} hand-written patterns: {counts:?} (accepted, re.error, other, surrogate dumps)", patterns.len());
}

#[test]
fn parser_agrees_with_python_on_random_patterns() {
    let n = crate::test_support::sample_size("CROSSAT_PARSER_CASES", 10_000, 10_000);
    let seed: u64 = std::env::var("CROSSAT_PARSER_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(12);
    let mut rng = Rng::new(seed);
    let seeds: Vec<String> = hand_written().into_iter().filter(|p| p.len() < 100).collect();
    let patterns: Vec<String> = (0..n).map(|_| gen_pattern(&mut rng, &seeds)).collect();
    let counts = check(&patterns);
    if std::env::var_os("CROSSAT_PARSER_STATS").is_some() {
        // which of Python's refusals the generator reaches, and how often
        let mut msgs = std::collections::BTreeMap::new();
        for a in python(&patterns) {
            let m = a["msg"].as_str().or(a["other"].as_str()).unwrap_or("(accepted)").to_string();
            let key = m.split(' ').take(4).collect::<Vec<_>>().join(" ");
            *msgs.entry(key).or_insert(0usize) += 1;
        }
        eprintln!("{msgs:#?}");
    }
    eprintln!("{n} random patterns (seed {seed}): {counts:?} (accepted, re.error, other, surrogate dumps)");
    // the generator must exercise both sides
    assert!(counts[0] * 10 > n && counts[1] * 10 > n, "{counts:?}");
}

#[test]
fn parser_refuses_deep_nesting_without_overflow() {
    for open in ["(", "(?:", "(?=", "(?<=", "(?>", "(?i:", "(?(1)"] {
        let p = open.repeat(10_000) + &")".repeat(10_000);
        let e = parser::parse(&p).expect_err("10^4 levels");
        assert_eq!(e.kind, ErrorKind::Nesting, "{open}");
        assert_eq!(e.msg, "nesting too deep (more than 200 levels)");
    }
    // 200 levels, half of them repeated groups: accepted, and the tree dumps.
    let ok = "(?:x(".repeat(MAX_NESTING / 2) + &")*)".repeat(MAX_NESTING / 2);
    let tree = parser::parse(&ok).expect("200 levels");
    assert!(syntax::dump(&tree).lines().count() > MAX_NESTING);
    let too_deep = "(?:x(".repeat(MAX_NESTING / 2) + "()" + &")*)".repeat(MAX_NESTING / 2);
    assert_eq!(parser::parse(&too_deep).expect_err("201 levels").kind, ErrorKind::Nesting);
}

#[test]
fn unicode_tables_are_what_python_generates() {
    python_check();
    let out = Command::new("python3").arg(root().join("scripts/gen_unicode.py")).arg("--check").output().expect("python3");
    assert!(out.status.success(), "scripts/gen_unicode.py --check: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn parser_reads_character_names_as_python() {
    // A sample of Python's own character names (every 41st named code point), in upper
    // and lower case, and the spellings CPython refuses.
    python_check();
    let script = "import unicodedata as u\nfor c in range(0, 0x110000, 41):\n    n = u.name(chr(c), None)\n    if n: print(n)";
    let out = Command::new("python3").args(["-c", script]).output().expect("python3");
    let names = String::from_utf8(out.stdout).expect("utf-8");
    let mut patterns = Vec::new();
    for n in names.lines() {
        patterns.push(format!("\\N{{{n}}}"));
        patterns.push(format!("[\\N{{{}}}]", n.to_lowercase()));
    }
    for n in [
        "CJK UNIFIED IDEOGRAPH-04E00",
        "CJK UNIFIED IDEOGRAPH-4e00",
        "cjk unified ideograph-4E00",
        "HANGUL SYLLABLE A",
        "HANGUL SYLLABLE ",
        "Hangul Syllable GAG",
        "LATIN  SMALL LETTER A",
        " LATIN SMALL LETTER A",
        "LINE FEED",
        "BYTE ORDER MARK",
        "NULL",
    ] {
        patterns.push(format!("\\N{{{n}}}"));
    }
    assert!(patterns.len() > 1000);
    check(&patterns);
}
