//! Generated puzzles as inputs to white-box checks of the stages: their clues, many of
//! one shape, compile through the renaming; those with back-references that line
//! propagation decides are decided before compiling, as the compiled route decides them.

use super::{Difficulty, Generated, Spec};
use crate::compile::{self, Options, minimize, trim};
use crate::pipeline::{self, Input};
use crate::puzzle::{self, Puzzle, Shape, trux};

/// [`super::generate`] without progress or a cancel token.
fn generate(spec: &Spec) -> crate::error::Result<Generated> {
    super::generate(spec, &mut |_| {}, &crate::stop::Cancel::never())
}

/// `Spec` as `crossat generate --size ROWSxCOLS --sides SIDES [--backrefs] --seed SEED` makes it.
fn spec(rows: usize, cols: usize, sides: usize, backrefs: bool, seed: u64) -> Spec {
    Spec { shape: Shape::Rect { rows, cols }, sides, text: None, backrefs, lookarounds: false, difficulty: None, seed }
}

/// An `Input` from text.
fn input_text(text: &str) -> Input {
    Input { source: "<test>".into(), bytes: text.as_bytes().to_vec(), ..Input::default() }
}

/// Clues equal up to a renaming of the symbols compile once (`compile::rename`): on
/// every antoine-trux puzzle and on generated hard puzzles (many clues of one shape),
/// each clue's automaton in the puzzle accepts exactly the words of the clue compiled
/// alone, and the renaming happens (good_ol_days' four run-of-five lookaheads).
#[test]
fn renamed_clues_accept_what_the_clue_compiled_alone_accepts() {
    let mut texts: Vec<(String, String)> = Vec::new();
    for entry in std::fs::read_dir(crate::test_support::root().join("puzzles/antoine-trux")).expect("puzzles") {
        let path = entry.expect("entry").path();
        if path.to_string_lossy().ends_with(".input.txt") {
            texts.push((
                path.display().to_string(),
                trux::decode(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))),
            ));
        }
    }
    for seed in [1, 2] {
        // As `crossat generate --size 6x6 --difficulty hard --seed SEED --output-format trux`.
        let spec = Spec { difficulty: Some(Difficulty::Hard), ..spec(6, 6, 1, false, seed) };
        let made = generate(&spec).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        texts.push((format!("generated hard 6x6 seed {seed}"), trux::write(&made.puzzle, spec.sides)));
    }
    let mut renamed = 0;
    for (name, text) in &texts {
        let prep = pipeline::prepare(&input_text(text)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let parsed = compile::parse_clues("<test>", &prep.puzzle).expect("parses");
        for (i, clue) in prep.puzzle.clues.iter().enumerate() {
            let alone = compile::classify::compile_clue(&parsed[i], prep.alphabet(), clue.cells.len(), Options::default())
                .unwrap_or_else(|e| panic!("{name} {}: {e:?}", clue.label));
            let got = &prep.compiled().expect("compiles").clues[i];
            assert_eq!(got.route, alone.route, "{name} {}", clue.label);
            if got.tagged.is_none() {
                let (a, b) = (minimize(&trim(&got.automaton)), minimize(&trim(&alone.automaton)));
                assert_eq!(a, b, "{name} {}: another language than the clue alone", clue.label);
                renamed += usize::from(got.automaton != alone.automaton);
            }
        }
    }
    assert!(renamed >= 3, "only {renamed} clues came out of a renaming");
}

/// Generated puzzles with back-references that line propagation decides: the answer
/// before compiling is the compiled route's, and nothing is compiled for it.
#[test]
fn puzzles_decided_before_compiling_agree_with_the_compiled_route() {
    let mut decided = 0;
    for seed in 1..=6u64 {
        // As `crossat generate --size 6x6 --backrefs --sides 2 --seed SEED --output-format trux`.
        let made = generate(&spec(6, 6, 2, true, seed)).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let input = Input { source: format!("seed {seed}"), bytes: trux::write(&made.puzzle, 2).into_bytes(), ..Input::default() };
        let mut prep = pipeline::prepare(&input).expect("prepares");
        let early = prep.decided();
        let mut grids = Vec::new();
        let outcome = pipeline::solve(&mut prep, Some(2), |_, g| {
            grids.push(g.cells.iter().collect::<String>());
            Ok(())
        })
        .expect("solves");
        assert_eq!(prep.is_compiled(), early.is_none(), "seed {seed}: compiled only when propagation did not decide");
        // Now compiled, on demand: every clue gets its automaton.
        let compiled = prep.compiled().expect("compiles");
        assert_eq!(compiled.clues.len(), prep.puzzle.clues.len());
        let want = crate::propagate::domains(&prep.puzzle, compiled);
        if let Some(crate::solve::prepared::Settled::Only(cells)) = &early {
            decided += 1;
            let doms = want.expect("the compiled route finds a solution too");
            assert!(doms.iter().zip(cells).all(|(d, &x)| d.contains(x)), "seed {seed}: the compiled route keeps the grid");
            assert_eq!((outcome.found, outcome.complete), (1, true), "seed {seed}");
            assert_eq!(grids.len(), 1);
        }
    }
    assert!(decided >= 3, "only {decided} of 6 puzzles decided before compiling");
}

/// What a puzzle asks, whatever its format calls its clues: its shape, and for every
/// clue the cells it reads and its regex, in a fixed order.
fn constraints(p: &Puzzle) -> (Shape, Vec<(Vec<usize>, String)>) {
    let mut clues: Vec<(Vec<usize>, String)> = p.clues.iter().map(|c| (c.cells.clone(), c.regex.clone())).collect();
    clues.sort();
    (p.shape.clone(), clues)
}

/// Every writer, then the reader the format is detected as, gives back the puzzle's
/// shape and clues: rectangles and hexagons, one and two clues per line, and clues
/// whose characters need escaping in a regex, in JSON and between quotes.
#[test]
fn every_writer_reads_back_as_the_same_puzzle() {
    let rect = |rows, cols| Shape::Rect { rows, cols };
    let cases = [
        (rect(3, 4), 1, None),
        (rect(2, 5), 2, None),
        (rect(3, 4), 1, Some("IT'S [A] \\/")),
        (rect(1, 5), 2, None),
        (Shape::Hex(crate::puzzle::hex::Sides::regular(2)), 1, None),
        (Shape::Hex(crate::puzzle::hex::Sides::regular(3)), 2, Some("HEXAGONAL \"QUOTE\"")),
    ];
    for (shape, sides, text) in cases {
        for seed in [1, 2] {
            let spec = Spec {
                shape: shape.clone(),
                sides,
                text: text.map(str::to_string),
                backrefs: false,
                lookarounds: seed == 2,
                difficulty: None,
                seed,
            };
            let made = generate(&spec).unwrap_or_else(|e| panic!("{spec:?}: {e}"));
            let want = constraints(&made.puzzle);
            let challenges = puzzle::challenges::write(&made.puzzle, "id").expect("rectangles and hexagons have a challenges shape");
            let written = [
                ("crossat JSON", puzzle::native::write(&made.puzzle).to_string(), None),
                ("antoine-trux text", puzzle::trux::write(&made.puzzle, sides), None),
                ("challenges.json", challenges.to_string(), Some("generated/1")),
            ];
            for (format, text, id) in written {
                let read =
                    puzzle::read("written", text.as_bytes(), None, id, None).unwrap_or_else(|e| panic!("{spec:?} {format}: {e}\n{text}"));
                assert_eq!(constraints(&read), want, "{spec:?} {format}:\n{text}");
            }
        }
    }
}
