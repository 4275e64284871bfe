//! The library as other programs see it (issue 37's acceptance): a small public surface
//! (at most 250 `pub` items by the grep), no process state, no stdout or exit,
//! and JSON built from the typed records rather than `json!` — each checked over the
//! library's sources (`src/` without `src/bin/`), and each checker seen failing on a
//! deliberate offence.

use crate::architecture::without_tests;
use crate::common::root;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The most public items the library may have.
const MAX_PUBLIC_ITEMS: usize = 250;

/// (path relative to the repository, text) for every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("read dir") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    let root = root();
    files
        .into_iter()
        .map(|p| (p.strip_prefix(&root).expect("in the repository").display().to_string(), std::fs::read_to_string(&p).expect("read")))
        .collect()
}

/// The library's files (everything under `src/` but the binary).
fn library() -> Vec<(String, String)> {
    sources(&root().join("src")).into_iter().filter(|(p, _)| !p.starts_with("src/bin/")).collect()
}

/// The lines `grep -E '^\s*pub (fn|struct|enum|trait|type|const|static|mod|use)'` prints.
fn public_items(files: &[(String, String)]) -> Vec<String> {
    const KINDS: [&str; 9] = ["fn", "struct", "enum", "trait", "type", "const", "static", "mod", "use"];
    files
        .iter()
        .flat_map(|(path, text)| text.lines().map(move |l| (path, l)))
        .filter(|(_, l)| l.trim_start().strip_prefix("pub ").is_some_and(|rest| KINDS.iter().any(|k| rest.starts_with(k))))
        .map(|(path, l)| format!("{path}: {}", l.trim()))
        .collect()
}

/// The files compiled only for tests: modules declared under `#[cfg(test)]` (a
/// `mod name;` whose file is `name.rs` or `name/mod.rs`) and every file below them.
fn test_only(files: &[(String, String)]) -> BTreeSet<String> {
    let mut dirs = Vec::new();
    for (path, text) in files {
        let dir = match path.rsplit_once('/') {
            Some((d, f)) if f == "mod.rs" || f == "lib.rs" => d.to_string(),
            _ => path.trim_end_matches(".rs").to_string(),
        };
        let mut rest = text.as_str();
        while let Some(at) = rest.find("#[cfg(test)]") {
            rest = &rest[at + "#[cfg(test)]".len()..];
            let decl = rest.trim_start();
            if let Some(name) = decl.strip_prefix("mod ").and_then(|d| d.split_once(';')).map(|(n, _)| n.trim())
                && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            {
                dirs.push(format!("{dir}/{name}"));
            }
        }
    }
    files
        .iter()
        .map(|(p, _)| p)
        .filter(|p| p.ends_with("test_support.rs") || dirs.iter().any(|d| **p == format!("{d}.rs") || p.starts_with(&format!("{d}/"))))
        .cloned()
        .collect()
}

/// Each non-test line of `files` holding `what`: the code of every file not compiled for
/// tests only, without its `#[cfg(test)]` items.
fn offences(files: &[(String, String)], what: &dyn Fn(&str) -> bool) -> Vec<String> {
    let tests = test_only(files);
    let mut out = Vec::new();
    for (path, text) in files.iter().filter(|(p, _)| !tests.contains(p)) {
        let code = without_tests(text);
        let lines: Vec<&str> = code.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if !l.trim_start().starts_with("//") && what(l) && !documented_cache(&lines, i) {
                out.push(format!("{path}: {}", l.trim()));
            }
        }
    }
    out
}

/// Whether the comment just above line `i` calls it a pure cache: a value built once
/// from constants that cannot change an answer, which the issue allows when documented.
fn documented_cache(lines: &[&str], i: usize) -> bool {
    lines[..i]
        .iter()
        .rev()
        .map(|l| l.trim_start())
        .take_while(|l| l.starts_with("//") || l.starts_with("#["))
        .any(|l| l.contains("pure cache"))
}

/// A process-wide value: `static NAME: Atomic…/Mutex/RwLock/OnceLock/LazyLock` (by any
/// path), or a `thread_local!` (the grep, which misses qualified paths).
fn holds_process_state(line: &str) -> bool {
    const KINDS: [&str; 5] = ["Atomic", "Mutex", "RwLock", "OnceLock", "LazyLock"];
    let statics = line.match_indices("static ").any(|(at, _)| {
        let rest = &line[at + "static ".len()..];
        let name_end = rest.find(|c: char| !(c.is_ascii_uppercase() || c == '_')).unwrap_or(rest.len());
        // The type up to its value, by any path (`AtomicU64`, `std::sync::Mutex<…>`).
        let ty = rest[name_end..].strip_prefix(':').map(|ty| ty.split('=').next().unwrap_or(ty));
        name_end > 0 && ty.is_some_and(|ty| ty.split("::").any(|seg| KINDS.iter().any(|k| seg.trim_start().starts_with(k))))
    });
    statics || line.contains("thread_local!")
}

/// The process's own streams and exit: what only the binary may do.
fn acts_on_the_process(line: &str) -> bool {
    ["println!", "print!(", "stdout()", "process::exit"].iter().any(|w| line.contains(w))
}

#[test]
fn the_public_surface_is_small() {
    let items = public_items(&library());
    assert!(items.len() <= MAX_PUBLIC_ITEMS, "{} public items, more than {MAX_PUBLIC_ITEMS}:\n{}", items.len(), items.join("\n"));
}

#[test]
fn the_library_keeps_no_process_state() {
    let lib = library();
    assert_eq!(offences(&lib, &holds_process_state), Vec::<String>::new(), "process-wide state in the library");
    assert_eq!(offences(&lib, &acts_on_the_process), Vec::<String>::new(), "stdout or exit in the library");
}

#[test]
fn json_is_built_from_the_records() {
    assert_eq!(offences(&library(), &|l| l.contains("json!")), Vec::<String>::new(), "json! in the library");
    let bin = sources(&root().join("src/bin"));
    let n = offences(&bin, &|l| l.contains("json!")).len();
    assert!(n <= 5, "{n} json! in the binary, more than 5");
}

#[test]
fn the_checkers_find_what_breaks_the_rules() {
    let file = |path: &str, text: &str| vec![(path.to_string(), text.to_string())];
    // The count reads the lines the grep reads, fields that start with a kind included.
    let items = public_items(&file("src/a.rs", "pub fn f() {}\n  pub use x::Y;\npub(crate) fn g() {}\npub constrained: bool,\nfn h() {}"));
    assert_eq!(items.len(), 3, "{items:?}");
    // Process state, stdout and json!, but not in test code.
    let lib = file(
        "src/a.rs",
        "static N: AtomicUsize = AtomicUsize::new(0);\nstatic P: std::sync::Mutex<u8> = std::sync::Mutex::new(0);\n// A pure cache, built once from a constant table.\nstatic K: LazyLock<u8> = LazyLock::new(|| 0);\nthread_local! { static C: u8 = 0; }\nconst OK: Mutex<u8> = 0;\nfn f() { println!(\"x\"); }\n#[cfg(test)]\nmod t { static M: Mutex<u8> = Mutex::new(0); fn g() { println!(\"y\"); } }",
    );
    assert_eq!(offences(&lib, &holds_process_state).len(), 3);
    assert_eq!(offences(&lib, &acts_on_the_process).len(), 1);
    // A module declared for tests only is left out, with everything below it.
    let tree = vec![
        ("src/a/mod.rs".to_string(), "#[cfg(test)]\nmod oracle;\nmod real;".to_string()),
        ("src/a/oracle.rs".to_string(), "fn f() { let _ = json!({}); }".to_string()),
        ("src/a/oracle/deep.rs".to_string(), "fn f() { let _ = json!({}); }".to_string()),
        ("src/a/real.rs".to_string(), "fn f() { let _ = json!({}); }".to_string()),
    ];
    assert_eq!(offences(&tree, &|l| l.contains("json!")), ["src/a/real.rs: fn f() { let _ = json!({}); }"]);
}
