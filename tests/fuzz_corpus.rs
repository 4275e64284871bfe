//! The fuzzing corpora and crash reproducers (`fuzz/corpus/TARGET/*`), replayed on the
//! stable toolchain: each file goes through its target's reader, which must return (an
//! error is fine) and never panic. The readers are those of the fuzz targets
//! (`fuzz/src/lib.rs`, included here).

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code, reason = "run() is for the fuzz targets")]
mod readers;

#[test]
fn every_corpus_file_is_read_without_a_panic() {
    let root = crate::common::root().join("fuzz/corpus");
    let mut seen = 0;
    for (target, reader) in readers::TARGETS {
        let dir = root.join(target);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let mut files: Vec<_> = entries.map(|e| e.expect("entry").path()).collect();
        files.sort();
        assert!(!files.is_empty(), "{target}: empty corpus");
        for f in files {
            let data = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let run = std::panic::catch_unwind(|| reader(&data));
            assert!(run.is_ok(), "{target}: {} panicked", f.display());
            seen += 1;
        }
    }
    assert!(seen >= readers::TARGETS.len());
}
