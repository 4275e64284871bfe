//! The fuzzing corpora and crash reproducers (`fuzz/corpus/TARGET/*`), replayed on the
//! stable toolchain: each file goes through its target's reader, which must return (an
//! error is fine) and never panic. The readers are those of the fuzz targets
//! (`fuzz/src/lib.rs`, included here).

#[path = "../fuzz/src/lib.rs"]
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

/// `run` finds each target by its name and refuses a name it does not know.
#[test]
fn run_knows_every_target_and_refuses_others() {
    for (target, _) in readers::TARGETS {
        readers::run(target, b"");
    }
    assert!(std::panic::catch_unwind(|| readers::run("no_such_target", b"")).is_err(), "an unknown target must panic");
}

/// Every fuzz target binary of fuzz/Cargo.toml runs a target `run` knows.
#[test]
fn every_fuzz_binary_names_a_known_target() {
    let root = crate::common::root().join("fuzz/fuzz_targets");
    for entry in std::fs::read_dir(&root).expect("fuzz_targets") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("target source");
        if let Some(at) = text.find("run(\"") {
            let name = &text[at + 5..];
            let name = &name[..name.find('"').expect("closing quote")];
            assert!(readers::TARGETS.iter().any(|(n, _)| *n == name), "{}: unknown target {name:?}", path.display());
        }
    }
}
