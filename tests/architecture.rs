//! The layering of `src/` (docs/architecture.md): which group of modules may use which.
//!
//! | a module in … | may use (`crate::…`) |
//! |---|---|
//! | support (`src/support/`) | support only |
//! | a stage (`src/stages/`) | support, and the stages before it in [`STAGES`] |
//! | the pipeline (`src/pipeline.rs`) | support, the stages |
//! | a feature (`src/features/`) | support, the stages, the pipeline; never another feature |
//! | the front end (`src/bin/crossat/`) | everything in the library (and the library never names it) |
//!
//! The checker reads every library source file, drops comments, literals and `#[cfg(test)]`
//! items (a test beside the code may use what the code's users use), and follows
//! each `crate::…` path (braces included) and each `super::…` path that leaves its module.

use crate::common::root;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The stages, in pipeline order (as `src/stages/mod.rs` declares them).
const STAGES: &[&str] = &["puzzle", "dialect", "compile", "propagate", "encode", "verify", "solve", "deduce", "emit", "dimacs"];
/// Modules inside a stage that the crate root re-exports under their short names
/// (`crate::regex` is `crate::stages::dialect::regex`): a use of one is a use of its stage.
const INNER: &[(&str, &str)] = &[("regex", "dialect"), ("sre", "dialect"), ("ecma", "dialect")];
/// The features: each stands alone.
const FEATURES: &[&str] = &["assist", "explain", "generate", "words", "squares", "lint"];
/// Support code.
const SUPPORT: &[&str] = &["clock", "error", "limits", "records", "rng", "stats", "stop", "style"];
/// The front end's modules (the binary crate, `src/bin/crossat/`).
const FRONT_END: &[&str] =
    &["main", "cli", "args", "manual", "io", "print", "app", "jobs", "bench", "exit", "stop", "progress", "terminal", "draw"];
/// The most lines a source file under `src/` may have: past this, a file holds more
/// than one responsibility and should be split.
const MAX_LINES: usize = 600;
/// Files under `src/` allowed past [`MAX_LINES`]: a generated table and line-by-line
/// ports of CPython's `re` modules, kept in the shape of their originals so that they
/// can be compared with them.
const LONG_FILES: &[&str] = &["stages/dialect/regex/unicode_tables.rs", "stages/dialect/regex/parser.rs", "stages/dialect/sre/vm.rs"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layer {
    Support,
    Stage(usize),
    Pipeline,
    Feature,
}

fn layer(module: &str) -> Option<Layer> {
    if let Some(i) = STAGES.iter().position(|&s| s == module) {
        Some(Layer::Stage(i))
    } else if FEATURES.contains(&module) {
        Some(Layer::Feature)
    } else if SUPPORT.contains(&module) {
        Some(Layer::Support)
    } else if module == "pipeline" {
        Some(Layer::Pipeline)
    } else {
        None
    }
}

/// Why `from` may not use `to`, or `None` when it may.
fn forbidden(from: &str, to: &str) -> Option<String> {
    let (Some(f), Some(t)) = (layer(from), layer(to)) else {
        return Some(format!("`{to}` is not a module of the table"));
    };
    let why = match (f, t) {
        (_, Layer::Support) | (Layer::Pipeline, Layer::Stage(_)) | (Layer::Feature, Layer::Stage(_) | Layer::Pipeline) => return None,
        (Layer::Stage(i), Layer::Stage(j)) if j < i => return None,
        (Layer::Support, _) => "support code may use only support code",
        (Layer::Stage(_), Layer::Stage(_)) => {
            return Some(format!("a stage uses only earlier stages, and `{to}` comes after `{from}` in {}", STAGES.join(" → ")));
        }
        (Layer::Stage(_), _) => "a stage may use only earlier stages and support code",
        (Layer::Pipeline, _) => "the pipeline may use only the stages and support code",
        (Layer::Feature, Layer::Feature) => "a feature may not use another feature: move what they share into a stage or support",
    };
    Some(why.into())
}

/// Where a library module's code lives, and which module a file belongs to.
fn module_of(rel: &Path) -> Option<String> {
    let parts: Vec<&str> = rel.iter().map(|p| p.to_str().expect("UTF-8 path")).collect();
    match parts.as_slice() {
        ["pipeline.rs"] => Some("pipeline".into()),
        ["stages" | "features" | "support", name, ..] if *name != "mod.rs" => Some(name.trim_end_matches(".rs").into()),
        _ => None,
    }
}

/// The module path of a file (`stages/compile/normalise.rs` → stages, compile, normalise).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_str().expect("UTF-8 path").trim_end_matches(".rs").to_string()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        let _ = parts.pop();
    }
    parts
}

/// Rust source without comments, string and character literals (replaced by spaces).
fn code_only(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let at = |j: usize| c.get(j).copied();
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && at(i + 1) == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && at(i + 1) == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == Some('*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == Some('/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (at(i + 1) == Some('"') || at(i + 1) == Some('#'))
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
        {
            // A raw string r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() && !(c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#'))) {
                j += 1;
            }
            i = j + 1 + hashes;
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && (at(i + 1) == Some('\\') || at(i + 2) == Some('\'')) {
            // A character literal ('x', '\n', '\u{…}'); a lifetime has no closing quote.
            i += 1;
            while i < c.len() && c[i] != '\'' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Identifiers and the punctuation that matters for paths.
fn tokens(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i].is_alphanumeric() || c[i] == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(c[start..i].iter().collect());
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
        } else if c[i].is_whitespace() {
            i += 1;
        } else {
            out.push(c[i].to_string());
            i += 1;
        }
    }
    out
}

/// The modules named by the path that starts at `t[i]` (after `crate::` or at a group
/// level): an identifier, or a brace group of paths; a group name (`stages::…`) is
/// looked through.
fn named(t: &[String], mut i: usize, out: &mut Vec<String>) {
    let Some(tok) = t.get(i) else { return };
    if tok == "{" {
        // Each top-level item of the group.
        let mut depth = 0;
        let mut item_start = true;
        i += 1;
        while let Some(tok) = t.get(i) {
            match tok.as_str() {
                "{" => depth += 1,
                "}" if depth == 0 => return,
                "}" => depth -= 1,
                "," if depth == 0 => {
                    item_start = true;
                    i += 1;
                    continue;
                }
                _ if item_start && depth == 0 => named(t, i, out),
                _ => {}
            }
            item_start = false;
            i += 1;
        }
    } else if ["stages", "features", "support"].contains(&tok.as_str()) {
        if t.get(i + 1).is_some_and(|s| s == "::") {
            named(t, i + 2, out);
        }
    } else if tok.chars().all(|ch| ch.is_alphanumeric() || ch == '_') {
        out.push(tok.clone());
    }
}

/// The library modules a file uses, given the file's path relative to `src/`.
/// A `#[cfg(test)]` module beside the code may use what the code's users use (the
/// spine, to build its inputs), so test items are left out.
fn uses(rel: &Path, src: &str) -> BTreeSet<String> {
    let t = tokens(&without_tests(&code_only(src)));
    let depth = module_path(rel).len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i] == "crate" && t.get(i + 1).is_some_and(|s| s == "::") {
            named(&t, i + 2, &mut out);
            i += 2;
        } else if t[i] == "super" && (i == 0 || t[i - 1] != "::") {
            // A chain super::super::…: does it climb out of this file's module?
            let mut j = i;
            let mut ups = 0;
            while t.get(j).is_some_and(|s| s == "super") && t.get(j + 1).is_some_and(|s| s == "::") {
                ups += 1;
                j += 2;
            }
            if depth.saturating_sub(ups) <= 1 {
                named(&t, j, &mut out);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out.into_iter()
        .map(|m| INNER.iter().find(|(inner, _)| *inner == m).map_or(m, |(_, stage)| stage.to_string()))
        .filter(|m| layer(m).is_some() || FRONT_END.contains(&m.as_str()))
        .collect()
}

/// Every violation of the table in one library file.
fn violations(rel: &Path, src: &str) -> Vec<String> {
    let Some(from) = module_of(rel) else { return vec![] };
    let mut v = Vec::new();
    for to in uses(rel, src) {
        if to == from {
            continue;
        }
        if let Some(why) = forbidden(&from, &to) {
            v.push(format!("src/{}: `{from}` uses `{to}`: {why}", rel.display()));
        }
    }
    v
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read src") {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// (file relative to src/, its text) for every library file.
fn library_sources() -> Vec<(PathBuf, String)> {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| (p.strip_prefix(&src).expect("under src").to_path_buf(), std::fs::read_to_string(&p).expect("read")))
        .filter(|(rel, _)| !rel.starts_with("bin"))
        .collect()
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let mut bad = Vec::new();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (rel, text) in library_sources() {
        bad.extend(violations(&rel, &text));
        if let Some(from) = module_of(&rel) {
            edges.entry(from.clone()).or_default().extend(uses(&rel, &text).into_iter().filter(|m| *m != from));
        }
    }
    assert!(bad.is_empty(), "the layering of docs/architecture.md is broken:\n{}", bad.join("\n"));
    // The table rules out cycles except among support modules: look for any.
    fn visit(m: &str, edges: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, done: &mut BTreeSet<String>) {
        if let Some(k) = path.iter().position(|p| p == m) {
            panic!("import cycle: {} -> {m}", path[k..].join(" -> "));
        }
        if !done.insert(m.to_string()) {
            return;
        }
        path.push(m.to_string());
        for n in edges.get(m).into_iter().flatten() {
            visit(n, edges, path, done);
        }
        let _ = path.pop();
    }
    let mut done = BTreeSet::new();
    for m in edges.keys() {
        // `done` marks modules fully explored; a fresh path per root finds back edges.
        visit(m, &edges, &mut Vec::new(), &mut done);
    }
    // The checker saw real dependencies (it is not blind): compile uses dialect, squares uses puzzle.
    assert!(edges["compile"].contains("dialect") && edges["squares"].contains("puzzle"), "{edges:?}");
}

#[test]
fn src_holds_exactly_the_modules_of_the_table() {
    let src = root().join("src");
    let names = |dir: &Path| -> BTreeSet<String> {
        std::fs::read_dir(dir)
            .expect("read dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().trim_end_matches(".rs").to_string())
            .filter(|n| n != "mod")
            .collect()
    };
    let set = |s: &[&str]| s.iter().map(|m| m.to_string()).collect::<BTreeSet<_>>();
    // `test_support` is the tests' (`#[cfg(test)]`, and included by tests/common.rs), not a module of the library.
    assert_eq!(
        names(&src),
        set(&["lib", "facade", "pipeline", "stages", "features", "support", "bin", "test_support"]),
        "src/: a new module belongs in a group"
    );
    assert_eq!(names(&src.join("stages")), set(STAGES), "src/stages/");
    assert_eq!(names(&src.join("features")), set(FEATURES), "src/features/");
    assert_eq!(names(&src.join("support")), set(SUPPORT), "src/support/");
    assert_eq!(names(&src.join("bin/crossat")), set(FRONT_END), "src/bin/crossat/");
    assert_eq!(names(&src.join("bin")), set(&["crossat"]), "src/bin/");
    // src/stages/mod.rs declares the stages in pipeline order.
    let decl = std::fs::read_to_string(src.join("stages/mod.rs")).expect("stages/mod.rs");
    let order: Vec<&str> = decl
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("pub(crate) mod ")))
        .map(|l| l.trim_end_matches(';'))
        .collect();
    assert_eq!(order, STAGES, "src/stages/mod.rs declares the stages in this order");
}

#[test]
fn the_module_map_in_the_docs_matches_src() {
    // docs/architecture.md: one table row per module, `| group | `name` | `src/…` | … |`.
    let doc = std::fs::read_to_string(root().join("docs/architecture.md")).expect("docs/architecture.md");
    let mut rows = Vec::new();
    for line in doc.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() > 4 && cells[3].starts_with("`src/") {
            rows.push((cells[1].to_string(), cells[2].trim_matches('`').to_string(), cells[3].trim_matches('`').to_string()));
        }
    }
    let mut expected = vec![
        ("facade".to_string(), "facade".to_string(), "src/facade/".to_string()),
        ("spine".to_string(), "pipeline".to_string(), "src/pipeline.rs".to_string()),
    ];
    let path = |dir: &str, m: &str| {
        let p = format!("src/{dir}/{m}");
        if root().join(&p).is_dir() { format!("{p}/") } else { format!("{p}.rs") }
    };
    for (group, dir, list) in [
        ("support", "support", SUPPORT),
        ("stage", "stages", STAGES),
        ("feature", "features", FEATURES),
        ("front end", "bin/crossat", FRONT_END),
    ] {
        expected.extend(list.iter().map(|m| (group.to_string(), m.to_string(), path(dir, m))));
    }
    let (got, want): (BTreeSet<_>, BTreeSet<_>) = (rows.iter().cloned().collect(), expected.into_iter().collect());
    let missing: Vec<_> = want.difference(&got).collect();
    let extra: Vec<_> = got.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty() && rows.len() == want.len(),
        "docs/architecture.md's module map (group, module, path) against src/:\nmissing rows: {missing:?}\nrows that match nothing: {extra:?}"
    );
    // The stages appear in pipeline order.
    let stages: Vec<&str> = rows.iter().filter(|r| r.0 == "stage").map(|r| r.1.as_str()).collect();
    assert_eq!(stages, STAGES, "docs/architecture.md lists the stages in pipeline order");
    // The map is written once: README points to it rather than keeping a copy.
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    assert!(readme.contains("](docs/architecture.md)"), "README.md links to docs/architecture.md's module map");
    let copied: Vec<&str> = readme.lines().filter(|l| l.starts_with("| `src/")).collect();
    assert!(copied.is_empty(), "README.md keeps a copy of the module map (docs/architecture.md holds it): {copied:?}");
    // The crate docs name every library module: a link where it is public, in plain code
    // where it is `pub(crate)` (rustdoc links only public items).
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).expect("lib.rs");
    for m in STAGES.iter().chain(FEATURES).chain(SUPPORT).chain(&["pipeline"]) {
        assert!(lib.contains(&format!("`{m}`")), "src/lib.rs's module map does not name `{m}`");
    }
}

/// The checker itself: each kind of violation is found, comments and strings are not code.
#[test]
fn the_checker_finds_what_breaks_the_table() {
    let v = |file: &str, src: &str| violations(Path::new(file), src);
    // A feature using another feature, directly, in braces, through a group, via super.
    assert_eq!(v("features/squares/dawg.rs", "use crate::words::Dictionary;").len(), 1);
    assert_eq!(v("features/squares/dawg.rs", "use crate::{error::Result, words::{Dictionary, dawg}};").len(), 1);
    assert_eq!(v("features/squares/dawg.rs", "use crate::features::{assist, generate};").len(), 2);
    assert_eq!(v("features/squares/dawg.rs", "use super::super::words::Dictionary;").len(), 1);
    assert_eq!(v("features/generate/mod.rs", "fn f() { let _ = crate::squares::Size::new(3); }").len(), 1);
    let msg = v("stages/verify.rs", "use crate::stages::solve::Prepared;");
    assert!(msg.len() == 1 && msg[0].contains("`verify` uses `solve`: a stage uses only earlier stages"), "{msg:?}");
    // A dialect's module, named by its short name, is its stage.
    let msg = v("stages/dialect/sre/vm.rs", "use crate::compile::Alphabet;");
    assert!(msg.len() == 1 && msg[0].contains("`dialect` uses `compile`"), "{msg:?}");
    assert!(v("stages/compile/mod.rs", "use crate::{regex::syntax::Parsed, sre, ecma};").is_empty());
    assert!(v("stages/dialect/mod.rs", "use crate::regex::parser;").is_empty());
    assert_eq!(v("stages/encode/mod.rs", "use crate::pipeline::Input;").len(), 1);
    assert_eq!(v("stages/solve.rs", "use crate::assist;").len(), 1);
    assert_eq!(v("support/stop.rs", "use crate::puzzle::Puzzle;").len(), 1);
    assert_eq!(v("pipeline.rs", "use crate::generate;").len(), 1);
    // Allowed: earlier stages, support, the module itself, paths inside a module.
    assert!(v("stages/solve/parts.rs", "use crate::{compile, puzzle::Puzzle, verify, error::Error};").is_empty());
    assert!(v("features/squares/sat.rs", "use super::dawg::Lexicon; use crate::squares::Size; use crate::pipeline;").is_empty());
    assert!(v("stages/compile/normalise.rs", "use super::Alphabet; fn f() { super::classify::x() }").is_empty());
    // Comments, strings and characters are not code.
    let quiet = "// crate::words\n/* crate::words /* nested */ crate::assist */\nconst S: &str = \"crate::words\";\nconst R: &str = r#\"crate::assist\"#;\nconst C: char = '\"'; fn f<'a>(x: &'a str) {}";
    assert!(v("features/squares/dawg.rs", quiet).is_empty(), "{:?}", v("features/squares/dawg.rs", quiet));
    // …but code after a character literal holding a quote still is.
    assert_eq!(v("features/squares/dawg.rs", "const C: char = '\"'; use crate::words;").len(), 1);
}

/// Every `.rs` file under `src/` (front end included), relative to `src/`, with its
/// number of lines.
fn line_counts() -> Vec<(String, usize)> {
    let src = root().join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).expect("under src").to_str().expect("UTF-8 path").replace('\\', "/");
            (rel, std::fs::read_to_string(&p).expect("read").lines().count())
        })
        .collect()
}

/// What breaks the size rule: files past [`MAX_LINES`] that are not in [`LONG_FILES`],
/// and entries of [`LONG_FILES`] that no longer need to be there.
fn size_violations(counts: &[(String, usize)]) -> Vec<String> {
    let mut bad: Vec<String> = counts
        .iter()
        .filter(|(rel, n)| *n > MAX_LINES && !LONG_FILES.contains(&rel.as_str()))
        .map(|(rel, n)| format!("src/{rel}: {n} lines (more than {MAX_LINES}): split it by responsibility"))
        .collect();
    for long in LONG_FILES {
        match counts.iter().find(|(rel, _)| rel == long) {
            None => bad.push(format!("src/{long} is allowed past {MAX_LINES} lines but does not exist: drop it from LONG_FILES")),
            Some((_, n)) if *n <= MAX_LINES => {
                bad.push(format!("src/{long} is allowed past {MAX_LINES} lines but has {n}: drop it from LONG_FILES"));
            }
            Some(_) => {}
        }
    }
    bad
}

#[test]
fn no_source_file_is_longer_than_the_limit() {
    let counts = line_counts();
    assert!(counts.iter().any(|(rel, _)| rel == "pipeline.rs") && counts.iter().any(|(rel, _)| rel == "bin/crossat/main.rs"), "{counts:?}");
    let bad = size_violations(&counts);
    assert!(bad.is_empty(), "files past the size limit (tests/architecture.rs, MAX_LINES):\n{}", bad.join("\n"));
}

/// The size rule itself: a long file is named with its length, the allowed ones pass.
#[test]
fn the_size_rule_names_each_long_file() {
    let allowed = |n: usize| LONG_FILES.iter().map(|f| (f.to_string(), n)).collect::<Vec<_>>();
    let mut counts = allowed(MAX_LINES + 1);
    counts.push(("stages/draw/mod.rs".into(), MAX_LINES));
    assert!(size_violations(&counts).is_empty(), "{:?}", size_violations(&counts));
    counts.push(("stages/draw/rect.rs".into(), MAX_LINES + 1));
    assert_eq!(
        size_violations(&counts),
        [format!("src/stages/draw/rect.rs: {} lines (more than {MAX_LINES}): split it by responsibility", MAX_LINES + 1)]
    );
    // An allowed file that has been split is dropped from the list.
    let shrunk = allowed(MAX_LINES);
    assert_eq!(size_violations(&shrunk).len(), LONG_FILES.len());
}

/// The test modules `tests/integration.rs` declares (`mod x;`).
fn declared_test_modules(integration: &str) -> BTreeSet<String> {
    integration.lines().filter_map(|l| l.trim().strip_prefix("mod ")?.strip_suffix(';').map(|m| m.trim().to_string())).collect()
}

#[test]
fn every_test_file_is_declared_in_the_test_binary() {
    // With `autotests = false`, a file under tests/ that integration.rs does not declare
    // is never built, and its tests never run.
    let dir = root().join("tests");
    let declared = declared_test_modules(&std::fs::read_to_string(dir.join("integration.rs")).expect("tests/integration.rs"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("read tests/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".rs").map(str::to_string))
        .filter(|n| n != "integration")
        .collect();
    files.sort();
    assert!(files.iter().any(|f| f == "architecture"), "{files:?}");
    let undeclared: Vec<String> = files.iter().filter(|f| !declared.contains(*f)).map(|f| format!("tests/{f}.rs")).collect();
    assert!(
        undeclared.is_empty(),
        "not declared in tests/integration.rs, so never built (autotests = false): {}; add `mod <name>;` there",
        undeclared.join(", ")
    );
}

/// The paths a use tree names, from `t[i]`: `a::b::C`, `a::{b, c::D}`, `a::*`; each as
/// its segments (a glob or `self` ends the path at its module).
fn use_paths(t: &[String], mut i: usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    while let Some(tok) = t.get(i) {
        if tok == "{" {
            let mut depth = 0;
            let mut start = true;
            i += 1;
            while let Some(tok) = t.get(i) {
                match tok.as_str() {
                    "{" => depth += 1,
                    "}" if depth == 0 => break,
                    "}" => depth -= 1,
                    "," if depth == 0 => {
                        start = true;
                        i += 1;
                        continue;
                    }
                    _ if start && depth == 0 => use_paths(t, i, &path, out),
                    _ => {}
                }
                start = false;
                i += 1;
            }
            return;
        }
        if tok == "self" || tok == "*" || !tok.chars().all(|c| c.is_alphanumeric() || c == '_') {
            break;
        }
        path.push(tok.clone());
        if t.get(i + 1).is_some_and(|s| s == "::") {
            i += 2;
        } else {
            break;
        }
    }
    out.push(path);
}

/// A crate's files by module path (`[]` the crate root), and the names its root
/// re-exports a module under (`compile` → `stages::compile`).
struct Crate {
    files: BTreeMap<Vec<String>, String>,
    aliases: BTreeMap<String, Vec<String>>,
}

impl Crate {
    /// The file a path from the crate root lands in: its longest prefix that is a module.
    fn file_of(&self, path: &[String]) -> &str {
        let mut path = path.to_vec();
        if let Some(full) = path.first().and_then(|p| self.aliases.get(p)) {
            path.splice(0..1, full.iter().cloned());
        }
        (0..=path.len()).rev().find_map(|k| self.files.get(&path[..k])).map(String::as_str).unwrap_or("")
    }

    /// The files each file uses (`crate::…`, `super::…`, `self::…` paths), leaving out a
    /// module's own descendants: a `mod.rs` using its children is Rust's idiom.
    fn edges(&self, sources: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
        let module: BTreeMap<&str, &Vec<String>> = self.files.iter().map(|(m, f)| (f.as_str(), m)).collect();
        let mut edges = BTreeMap::new();
        for (file, src) in sources {
            let here = module[file.as_str()];
            let t = tokens(&without_tests(&code_only(src)));
            let mut paths = Vec::new();
            let mut i = 0;
            while i < t.len() {
                let after_colons = i > 0 && t[i - 1] == "::";
                match t[i].as_str() {
                    "crate" if !after_colons && t.get(i + 1).is_some_and(|s| s == "::") => use_paths(&t, i + 2, &[], &mut paths),
                    "self" if !after_colons && t.get(i + 1).is_some_and(|s| s == "::") => use_paths(&t, i + 2, here, &mut paths),
                    "super" if !after_colons => {
                        let mut base = here.clone();
                        let mut j = i;
                        while t.get(j).is_some_and(|s| s == "super") && t.get(j + 1).is_some_and(|s| s == "::") {
                            let _ = base.pop();
                            j += 2;
                        }
                        use_paths(&t, j, &base, &mut paths);
                        i = j.max(i + 1);
                        continue;
                    }
                    _ => {}
                }
                i += 1;
            }
            let to: BTreeSet<String> = paths
                .iter()
                .map(|p| self.file_of(p).to_string())
                .filter(|f| !f.is_empty() && f != file && !module[f.as_str()].starts_with(here))
                .collect();
            let _ = edges.insert(file.clone(), to);
        }
        edges
    }
}

/// Code without its `#[cfg(test)]` items: a test module beside the code may use what
/// the code's users use.
pub(crate) fn without_tests(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let Some(open) = out[at..].find(['{', ';']).map(|k| at + k) else { break };
        let mut end = open + 1;
        if out.as_bytes()[open] == b'{' {
            let mut depth = 0;
            for (k, ch) in out[open..].char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    end = open + k + 1;
                    break;
                }
            }
        }
        out.replace_range(at..end, " ");
    }
    out
}

/// Every import cycle between files, each as its files in order.
fn file_cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    fn visit(
        f: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
        out: &mut Vec<Vec<String>>,
    ) {
        if let Some(k) = path.iter().position(|p| p == f) {
            out.push(path[k..].to_vec());
            return;
        }
        if done.contains(f) {
            return;
        }
        path.push(f.to_string());
        for n in edges.get(f).into_iter().flatten() {
            visit(n, edges, path, done, out);
        }
        let _ = path.pop();
        let _ = done.insert(f.to_string());
    }
    let (mut done, mut out) = (BTreeSet::new(), Vec::new());
    for f in edges.keys() {
        visit(f, edges, &mut Vec::new(), &mut done, &mut out);
    }
    out
}

/// A crate's files under `dir` (its root `root_file`), by module path.
fn crate_at(dir: &Path, root_file: &str, aliases: BTreeMap<String, Vec<String>>, skip: &str) -> (Crate, BTreeMap<String, String>) {
    let mut found = Vec::new();
    rust_files(dir, &mut found);
    let mut files = BTreeMap::new();
    let mut sources = BTreeMap::new();
    for p in found {
        let rel = p.strip_prefix(dir).expect("under dir").to_str().expect("UTF-8 path").replace('\\', "/");
        if !skip.is_empty() && rel.starts_with(skip) {
            continue;
        }
        let mut m: Vec<String> = rel.trim_end_matches(".rs").split('/').map(str::to_string).collect();
        if rel == root_file {
            m.clear();
        } else if m.last().is_some_and(|x| x == "mod") {
            let _ = m.pop();
        }
        let name = format!("{}/{rel}", dir.strip_prefix(root()).expect("in the repository").display());
        let _ = files.insert(m, name.clone());
        let _ = sources.insert(name, std::fs::read_to_string(&p).expect("read"));
    }
    (Crate { files, aliases }, sources)
}

#[test]
fn no_two_files_import_each_other() {
    let mut aliases = BTreeMap::new();
    for (group, list) in [("stages", STAGES), ("features", FEATURES), ("support", SUPPORT)] {
        for m in list {
            let _ = aliases.insert(m.to_string(), vec![group.to_string(), m.to_string()]);
        }
    }
    for (inner, stage) in INNER {
        let _ = aliases.insert(inner.to_string(), ["stages", stage, inner].map(str::to_string).to_vec());
    }
    let mut cycles = Vec::new();
    let mut edges_seen = 0;
    for (dir, root_file, aliases, skip) in [
        ("src", "lib.rs", aliases, "bin/"),
        ("src/bin/crossat", "main.rs", BTreeMap::new(), ""),
        ("web/crate/src", "lib.rs", BTreeMap::new(), ""),
    ] {
        let (krate, sources) = crate_at(&root().join(dir), root_file, aliases, skip);
        let edges = krate.edges(&sources);
        edges_seen += edges.values().map(BTreeSet::len).sum::<usize>();
        cycles.extend(file_cycles(&edges));
    }
    let shown: Vec<String> = cycles.iter().map(|c| format!("{} -> {}", c.join(" -> "), c[0])).collect();
    assert!(shown.is_empty(), "files that import each other (move what they share into a third file):\n{}", shown.join("\n"));
    assert!(edges_seen > 300, "the checker saw only {edges_seen} imports between files");
}

/// The file-level checker itself: a cycle through `crate::`, `super::` or braces is
/// found; a `mod.rs` using its children, and children using their `mod.rs`, are not one.
#[test]
fn the_file_checker_finds_a_cycle() {
    let krate = |files: &[(&str, &[&str])]| -> Crate {
        Crate {
            files: files.iter().map(|(f, m)| (m.iter().map(|s| s.to_string()).collect(), f.to_string())).collect(),
            aliases: [("compile".to_string(), vec!["stages".to_string(), "compile".to_string()])].into(),
        }
    };
    let c = krate(&[
        ("lib.rs", &[]),
        ("stages/compile/mod.rs", &["stages", "compile"]),
        ("stages/compile/a.rs", &["stages", "compile", "a"]),
        ("stages/compile/b.rs", &["stages", "compile", "b"]),
    ]);
    let src = |pairs: &[(&str, &str)]| pairs.iter().map(|(f, s)| (f.to_string(), s.to_string())).collect::<BTreeMap<_, _>>();
    let ok = src(&[
        ("lib.rs", "pub mod stages; pub use stages::compile;"),
        ("stages/compile/mod.rs", "mod a; mod b; pub use a::A; use self::b::B; fn f() { crate::compile::a::g() }"),
        (
            "stages/compile/a.rs",
            "use super::B; // crate::compile::b\nconst S: &str = \"super::b::x\";\n#[cfg(test)]\nmod tests { use super::super::b; }",
        ),
        ("stages/compile/b.rs", "use crate::compile::a::A; use super::*;"),
    ]);
    assert!(file_cycles(&c.edges(&ok)).is_empty(), "{:?}", c.edges(&ok));
    for a in [
        "use super::b::B;",
        "use crate::compile::{b::B, a};",
        "fn f() { crate::stages::compile::b::g() }",
        "pub(crate) use crate::compile::b::g as h;",
    ] {
        let bad = src(&[("stages/compile/a.rs", a), ("stages/compile/b.rs", "use crate::compile::a::A;")]);
        let cycles = file_cycles(&c.edges(&bad));
        assert_eq!(cycles.len(), 1, "{a}: {cycles:?}");
        assert_eq!(cycles[0], ["stages/compile/a.rs", "stages/compile/b.rs"], "{a}");
    }
}
