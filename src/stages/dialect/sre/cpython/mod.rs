//! Differential test of `crate::sre` against CPython 3.11 itself.
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
//! with the tree `crate::regex::parser` builds from the text (parser and matcher
//! together, which must also refuse exactly what Python refuses).
//!
//! `CROSSAT_SRE_CASES=N` sets the number of (pattern, string) pairs (default
//! 200,000) and `CROSSAT_SRE_SEED` the seed. The test fails — it never skips — when
//! `python3` is missing or is not 3.11.

mod cases;

use crate::regex::parser;
use crate::regex::syntax::{Item, Parsed, SetItem, dump, flag};
use crate::sre::Matcher;
use cases::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

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
    let cases = crate::test_support::sample_size("CROSSAT_SRE_CASES", 200_000, 200_000);
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

    let answers = crate::test_support::python_oracle(
        "scripts/sre_oracle.py",
        work.iter().map(|(p, _, ss)| serde_json::json!({"p": p, "s": ss})).collect(),
    );

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
    crate::test_support::bound_skips(
        "sre: pairs where Python timed out",
        python_timeouts,
        pairs,
        pairs - python_timeouts,
        cases * 99 / 100,
    );
    assert!(budget_hits * 10_000 <= pairs, "the budget was hit where Python answered: {budget_hits}");
    if !mismatches.is_empty() {
        for m in mismatches.iter().take(15) {
            eprintln!("{m}");
        }
        panic!("{} mismatches with CPython", mismatches.len());
    }
}
