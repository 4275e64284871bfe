//! Line propagation over position automata, before compiling: each clue's supported
//! letters against CPython 3.11's own matches (whole puzzles decided that way are
//! checked against the compiled route in `generate`'s tests, which make them).

use super::{Nfa, Walk};
use crate::compile::{Alphabet, glushkov, normalise};
use crate::propagate::SymSet;
use crate::regex::parser::parse;
use crate::rng::Rng;
use crate::test_support::python_fullmatch;
use std::collections::BTreeSet;

/// The clue's position automaton over `alphabet` on lines of `n` cells, if it has one.
fn nfa(re: &str, alphabet: &Alphabet, n: usize) -> Option<Nfa> {
    let node = normalise::normalise(&parse(re).expect("parses"), alphabet, normalise::Mode::Exact).ok()?;
    glushkov::positions(&node, alphabet, n).map(|p| Nfa::new(&p))
}

/// Clues with registers (back-references to one-character groups) in every place they
/// can sit, and plain ones for the walk without registers.
const CLUES: &[&str] = &[
    r"(.)\1",
    r"(.)(.)\2\1",
    r"(.).*\1",
    r".*(.).*\1.*",
    r"(.)+\1",
    r"(?:(a)|b)*\1",
    r"(?:(.)b)*\1",
    r"(a)?\1",
    r"(a)?b*\1?",
    r"(?:(.)\1)+",
    r"((.)|c)+\2",
    r"([ab])c*\1|(c)\2",
    r"(.)(.)(.)\3\2\1",
    r"(.)[^a]\1*",
    r"(?:x|(.))\1{2}",
    r"(.)(?:\1|b)+",
    r"a*b|c+",
    r"(?:ab|c)*a?",
    r"[^b]{2,3}c?",
    r".{0,2}(?:a|bc)",
    r"",
    r"(?:)|a",
];

/// For every clue, line length 0..=5 and a set of random domains: the letters the
/// walk keeps are exactly those some string Python full-matches, within the domains,
/// uses at that cell.
#[test]
fn supported_letters_are_those_of_pythons_matches() {
    let chars = ['a', 'b', 'c'];
    let alphabet = Alphabet::new(chars).expect("alphabet");
    // Automata of more than 256 positions are walked by lists, not bit sets: the
    // words of five letters without `cb`, as one alternation (no common prefix for the
    // parser to factor out), and those of four letters between a register's group and
    // its reference.
    let words = |len: u32| -> Vec<String> {
        (0..3usize.pow(len))
            .map(|i| (0..len).map(|k| chars[i / 3usize.pow(k) % 3]).collect::<String>())
            .filter(|w| !w.contains("cb"))
            .collect()
    };
    let large = format!("(?:{})", words(5).join("|"));
    let large_register = format!("(.)(?:{})\\1", words(4).join("|"));
    let mut clues: Vec<&str> = CLUES.to_vec();
    clues.extend([large.as_str(), large_register.as_str()]);
    let node = normalise::normalise(&parse(&large).expect("parses"), &alphabet, normalise::Mode::Exact).expect("normalises");
    assert!(glushkov::positions(&node, &alphabet, 5).expect("positions").labels.len() > 256);
    let mut queries = Vec::new();
    for re in &clues {
        for n in 0..=5 {
            queries.push((*re, &chars[..], n));
        }
    }
    let answers = python_fullmatch(&queries);
    let mut rng = Rng::new(15);
    let mut walk = Walk::default();
    let mut out = Vec::new();
    let mut checked = 0;
    for (&(re, _, n), want) in queries.iter().zip(answers) {
        let matches: BTreeSet<String> = want.unwrap_or_else(|| panic!("Python refuses {re}"));
        let nfa = nfa(re, &alphabet, n).unwrap_or_else(|| panic!("{re}: no position automaton"));
        for round in 0..40 {
            let line: Vec<SymSet> = (0..n)
                .map(|_| {
                    let mut d = SymSet::default();
                    for x in 0..chars.len() {
                        if round == 0 || rng.below(3) != 0 {
                            d.insert(x);
                        }
                    }
                    d
                })
                .collect();
            let mut expect = vec![SymSet::default(); n];
            for m in &matches {
                let syms: Vec<usize> = m.chars().map(|c| chars.iter().position(|&x| x == c).expect("in the alphabet")).collect();
                if syms.iter().zip(&line).all(|(&x, d)| d.contains(x)) {
                    for (e, &x) in expect.iter_mut().zip(&syms) {
                        e.insert(x);
                    }
                }
            }
            nfa.support(&line, &mut walk, &mut out);
            assert_eq!(out, expect, "{re:?} on {n} cells with domains {line:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, clues.len() * 6 * 40);
}

/// What the walk does not take: lookarounds, anchors, case-insensitive references and
/// references to groups of more than one character go to the compiled route.
#[test]
fn clues_without_a_position_automaton_are_left_to_the_compiled_route() {
    let alphabet = Alphabet::new(['a', 'b', 'c']).expect("alphabet");
    for re in [r"(?=a).*", r"^a.", r"a\b.", r"(ab)\1", r"(a*)\1", r"(a|bc)\1"] {
        assert!(nfa(re, &alphabet, 3).is_none(), "{re}");
    }
    // A case-insensitive reference, where case matters: `a` then `A` matches.
    let cased = Alphabet::new(['a', 'A']).expect("alphabet");
    assert!(nfa(r"(?i)(a)\1", &cased, 2).is_none());
    assert!(nfa(r"(?i)(a)\1", &alphabet, 2).is_some(), "no upper case in the alphabet: plain equality");
    assert!(nfa(r"([ab])c\1", &alphabet, 3).is_some());
    assert!(nfa(r"(a|b)c\1", &alphabet, 3).is_some(), "an alternation of characters is one set");
}
