//! Narrowing a line that only the matcher decides (`solve::odometer::exact_support`, the
//! propagation before the SAT search): on lines of clues with back-references over more
//! words than it asks one by one, the letters it keeps are exactly those of the words
//! CPython 3.11's `re.fullmatch` accepts (`scripts/line_oracle.py`).

use crate::common::{input_text, python_oracle};
use crossat::pipeline;
use crossat::propagate::SymSet;
use crossat::rng::Rng;
use crossat::solve::odometer::{EXACT_WORDS, exact_support};
use serde_json::json;

#[test]
fn lines_past_the_word_limit_keep_exactly_the_letters_of_pythons_matches() {
    // Groups of more than one cell, or several references: these stay on the tagged
    // route (one-cell groups over five letters are expanded into regular automata).
    let rows = [
        "(.)(.)\\2\\1(.)\\3",
        "(..)\\1.*",
        ".*(..).*\\1",
        "(.+)\\1.*",
        "(?=(.)..\\1).*(..)\\2",
        "(.)(.)(.)\\3\\2\\1",
        ".(..).?\\1",
        "((.)\\2|(.)(.)\\4\\3)+",
        ".*(...).*\\1",
    ];
    let text = json!({"cols": 6, "left": rows, "top": [".*", ".*", ".*", ".*", ".*", ".*"], "alphabet": "ABCDE"}).to_string();
    let prep = pipeline::prepare(&input_text(&text)).expect("prepare");
    let compiled = prep.compiled().expect("compile").clone();
    let chars = compiled.alphabet.chars().to_vec();
    let tagged: Vec<usize> = (0..rows.len()).filter(|&i| compiled.clues[i].tagged.is_some()).collect();
    assert!(tagged.len() >= 7, "only {} clues on the tagged route", tagged.len());
    let mut rng = Rng::new(17);
    let (mut cases, mut requests, mut asked) = (Vec::new(), Vec::new(), 0);
    for _ in 0..4_000 {
        let line: Vec<SymSet> = (0..6)
            .map(|_| {
                let mut d = SymSet::default();
                while d.is_empty() {
                    (0..chars.len()).filter(|_| rng.below(3) > 0).for_each(|x| d.insert(x));
                }
                d
            })
            .collect();
        if line.iter().map(SymSet::len).product::<usize>() <= EXACT_WORDS {
            continue;
        }
        let i = tagged[rng.below(tagged.len())];
        asked += 1;
        let Some(got) = exact_support(&compiled, &prep.verifier, i, &line, EXACT_WORDS) else { continue };
        let text = |d: &SymSet| d.iter().map(|x| chars[x]).collect::<String>();
        requests.push(json!({"p": rows[i], "cands": line.iter().map(text).collect::<Vec<_>>()}));
        cases.push((i, line.iter().map(text).collect::<Vec<_>>(), got.iter().map(text).collect::<Vec<_>>()));
    }
    // A line with too many candidate words, or whose walk runs out of steps, is left
    // alone (`None`): on these clues, most lines of over 256 words.
    assert!(cases.len() >= 400, "only {} of {asked} lines narrowed exactly", cases.len());
    let mut narrowed = 0;
    for ((i, line, got), answer) in cases.iter().zip(python_oracle("scripts/line_oracle.py", requests)) {
        assert_eq!(answer["ok"], true, "{}: {answer}", rows[*i]);
        let used: Vec<&str> = answer["used"].as_array().expect("used").iter().map(|u| u.as_str().expect("str")).collect();
        assert_eq!(got, &used, "{} over {line:?}", rows[*i]);
        narrowed += usize::from(got != line);
    }
    eprintln!("refine: {} exact lines, {narrowed} narrowed, {asked} asked", cases.len());
    assert!(narrowed >= 200, "only {narrowed} of the lines lose a letter");
}
