//! The readers under fuzzing, by target name. Shared with the stable replay test
//! (`tests/fuzz_corpus.rs` includes this file), so that every committed corpus file
//! and crash reproducer is read again by `cargo test`.
//!
//! The targets call the readers themselves (`puzzle::read` with a forced format, the
//! collection, model and word-list readers, the ECMAScript parser and matcher under a
//! step budget through `Dialect::fullmatch`),
//! not the facade `crossat::Puzzle`: fuzzing one reader at a time is the point, and the
//! facade would also compile and propagate every input, which makes each run slower and
//! a failure harder to place. The `clue` targets do run the whole pipeline, on a puzzle
//! built here, so that the clue's bytes reach the parser unescaped.

use crossat::puzzle::{self, Format};

/// A fuzz target: its name (a folder of `fuzz/corpus/`) and its reader.
pub type Target = (&'static str, fn(&[u8]));

/// Every fuzz target.
pub const TARGETS: [Target; 13] = [
    ("crossat_json", |d| read(d, Format::Crossat)),
    ("challenges", challenges),
    ("trux", |d| read(d, Format::Trux)),
    ("dat", |d| read(d, Format::Dat)),
    ("board", |d| read(d, Format::Board)),
    ("hesselink", |d| read(d, Format::Hesselink)),
    ("louridas", louridas),
    ("model", model),
    ("dictionary", dictionary),
    ("detect", detect),
    ("clue", clue),
    ("ecma_parse", ecma_parse),
    ("ecma_match", ecma_match),
];

/// Runs the target called `name` on `data`: it must return (an error is fine), never panic.
/// An unknown name panics: a target that reads nothing would find nothing.
pub fn run(name: &str, data: &[u8]) {
    let Some((_, f)) = TARGETS.iter().find(|(n, _)| *n == name) else { panic!("no fuzz target called {name:?}") };
    f(data);
}

fn read(data: &[u8], format: Format) {
    let _ = puzzle::read("fuzz", data, Some(format), None, None);
}

/// Every puzzle of the collection is read, then its first one by its key.
fn challenges(data: &[u8]) {
    let _ = puzzle::read_collection("fuzz", data);
    let _ = puzzle::read("fuzz", data, Some(Format::Challenges), Some("1/1"), None);
}

/// The CSV, a NUL byte, then the pool.
fn louridas(data: &[u8]) {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (csv, pool) = (&data[..cut], data.get(cut + 1..).unwrap_or(&[]));
    let _ = puzzle::read("fuzz", csv, Some(Format::Louridas), None, Some(("pool", pool)));
}

thread_local! {
    /// The puzzle a fuzzed model is read against: a 2×2 grid over `AB`, prepared once
    /// per thread (every exact CNF reads a model through the same reader).
    static MODEL_PUZZLE: crossat::Puzzle =
        crossat::Puzzle::read("fuzz.json", br#"{"left": ["[AB]+", "A|BB"], "top": ["..", "[AB]B"]}"#).expect("the model puzzle reads");
}

/// An external solver's answer (`s` and `v` lines), read as `crossat solve --model`
/// reads it: the model reader, then (for a model it accepts) the decoding and the
/// re-check against a small puzzle's formula.
fn model(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        MODEL_PUZZLE.with(|p| {
            let _ = p.read_model("fuzz", text);
        });
    }
}

/// The word list, read from a file as `--dict` reads it (one file per process and
/// thread), with and without case folding; then the building blocks reader.
fn dictionary(data: &[u8]) {
    let path = std::env::temp_dir().join(format!("crossat-fuzz-dict-{}-{:?}", std::process::id(), std::thread::current().id()));
    if std::fs::write(&path, data).is_ok() {
        let limits = crossat::limits::Limits::default();
        let _ = crossat::puzzle::Dictionary::from_file(&path, false, &limits);
        let _ = crossat::puzzle::Dictionary::from_file(&path, true, &limits);
        let _ = std::fs::remove_file(&path);
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = crossat::words::Blocks::read("fuzz", text);
    }
}

/// Format detection, then whatever reader it picks.
fn detect(data: &[u8]) {
    let _ = puzzle::read("fuzz", data, None, None, None);
}

/// Characters a fuzzed clue's alphabet is drawn from.
const POOL: [char; 12] = ['a', 'b', 'A', 'B', '1', '_', ' ', '\n', 'σ', 'ς', 'Σ', '\u{301}'];

/// The clue pipeline: byte 0 picks the line length (1–6), byte 1 the alphabet (a subset
/// of [`POOL`]), the rest is the clue. Parsing, compiling, encoding and solving must
/// return (refusals are fine) and never panic, and every solution must pass the
/// reference matcher: a failed verification is an internal error, which panics here.
fn clue(data: &[u8]) {
    clue_in(data, puzzle::Dialect::default());
}

fn clue_in(data: &[u8], dialect: puzzle::Dialect) {
    let (Some(&n), Some(&mask)) = (data.first(), data.get(1)) else { return };
    let n = 1 + usize::from(n % 6);
    let alphabet: Vec<char> =
        POOL.iter().enumerate().filter(|(i, _)| mask & (1 << (i % 8)) != 0 || *i >= 8 && mask & 1 != 0).map(|(_, &c)| c).collect();
    if alphabet.is_empty() {
        return;
    }
    let text = String::from_utf8_lossy(&data[2..]).into_owned();
    let puzzle = puzzle::Puzzle {
        name: None,
        shape: puzzle::Shape::Rect { rows: 1, cols: n },
        clues: vec![puzzle::Clue { label: "row 1".into(), regex: text, cells: (0..n).collect() }],
        alphabet: None,
        givens: vec![None; n],
        pool: None,
        dialect,
    };
    let run = crossat::Puzzle::from_parsed("fuzz", puzzle, Some(&alphabet), &crossat::stop::Cancel::never())
        .and_then(|mut prep| prep.solutions(50));
    if let Err(crossat::error::Error::Internal(m)) = run {
        panic!("internal error: {m}");
    }
}

/// The ECMAScript parser on a clue, then its matcher on `ab`: a verdict, a stop at the
/// step budget or the dialect's refusal, never a panic.
fn ecma_parse(data: &[u8]) {
    let _ = puzzle::Dialect::Ecmascript.fullmatch(&String::from_utf8_lossy(data), "ab", 20_000);
}

/// The ECMAScript matcher: the bytes before the first NUL are the line; after it, a
/// length byte, an alphabet byte and the clue, as [`clue`] reads them. The matcher
/// must answer or stop at its budget, then the whole clue pipeline must run in the
/// ECMAScript dialect as [`clue`] runs it in Python's.
fn ecma_match(data: &[u8]) {
    let cut = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let line = String::from_utf8_lossy(&data[..cut]);
    let rest = data.get(cut + 1..).unwrap_or(&[]);
    let _ = puzzle::Dialect::Ecmascript.fullmatch(&String::from_utf8_lossy(rest.get(2..).unwrap_or(&[])), &line, 100_000);
    clue_in(rest, puzzle::Dialect::Ecmascript);
}
