//! Exact counting (`solve::count`): the count equals the length of the listing, a
//! brute force by Python's `re`, and the sum over one cell's letters.

use crate::common::{input_file, puzzle, root};
use crossat::encode::{self, SymSet};
use crossat::pipeline::{self, Prepared};
use crossat::solve::count::{self, Big};

/// The count of a prepared puzzle.
fn count_of(prep: &Prepared) -> Big {
    let compiled = prep.compiled().expect("compile");
    let verifier = &prep.verifier;
    let chars = compiled.alphabet.chars();
    let refine = |i, _: &[SymSet], s: &[SymSet]| pipeline::exact_support(compiled, verifier, i, s, pipeline::EXACT_WORDS);
    let Some(doms) = encode::domains_with(&prep.puzzle, compiled, refine) else { return Big::zero() };
    let lines = encode::Propagator::new(&prep.puzzle);
    let matches = |i: usize, w: &[usize]| verifier.clue_matches(i, &w.iter().map(|&a| chars[a]).collect::<String>());
    count::count(&lines, compiled, &doms, refine, matches).expect("count").count
}

/// The count, or `None` when it takes more than `secs` seconds.
fn count_within(prep: &Prepared, secs: f64) -> Option<(Big, usize)> {
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    crossat::stop::cancel_on(flag.clone());
    let f2 = flag.clone();
    let _timer = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs_f64(secs));
        f2.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let compiled = prep.compiled().expect("compile");
    let verifier = &prep.verifier;
    let chars = compiled.alphabet.chars();
    let refine = |i, _: &[SymSet], s: &[SymSet]| pipeline::exact_support(compiled, verifier, i, s, pipeline::EXACT_WORDS);
    let Some(doms) = encode::domains_with(&prep.puzzle, compiled, refine) else { return Some((Big::zero(), 0)) };
    let lines = encode::Propagator::new(&prep.puzzle);
    let matches = |i: usize, w: &[usize]| verifier.clue_matches(i, &w.iter().map(|&a| chars[a]).collect::<String>());
    let r = count::count(&lines, compiled, &doms, refine, matches).ok().map(|c| (c.count, c.nodes));
    crossat::stop::cancel_on(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)));
    r
}

#[test]
fn sheep_and_binoternary() {
    let sheep = pipeline::prepare(&input_file(&puzzle("antoine-trux/player_puzzle_sheep.input.txt"), None)).expect("prepare");
    let t = std::time::Instant::now();
    assert_eq!(count_of(&sheep).to_string(), "2304");
    eprintln!("sheep {:?}", t.elapsed());
    let mut files: Vec<_> = std::fs::read_dir(root().join("puzzles/binoternary")).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "json") && !f.to_string_lossy().contains("_solution")) {
        let prep = pipeline::prepare(&input_file(f, None)).expect("prepare");
        let t = std::time::Instant::now();
        let c = count_within(&prep, 20.0);
        eprintln!("{} {:?} {:?}", f.display(), c, t.elapsed());
    }
}
