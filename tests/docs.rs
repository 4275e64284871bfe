//! The documentation's examples, run against the current code.
//!
//! **Console examples** (README.md, docs/*.md): a fenced block whose info string is
//! `console` is a terminal session. A line `$ crossat ARGS` is a command; the lines
//! after it, up to the next `$ ` line or the end of the block, are what the terminal
//! shows: standard output, then standard error. `ARGS` is split like a POSIX shell
//! does it (single quotes, double quotes, backslashes), and standard input can come
//! from `< FILE` or from a here-document (`<<'EOF'`, the lines up to `EOF`), which are
//! not part of the output. `$ echo $?` shows the exit status of the command before it;
//! a command not followed by `$ echo $?` must exit 0. Timings (`1.234 ms`,
//! `"parse_ms":0.01`) are masked, and trailing spaces and blank lines ignored, before
//! comparing. In a `console,ignore-output` block only the exit statuses are checked.
//!
//! After a deliberate change of output, `CROSSAT_BLESS_DOCS=1 cargo test docs` rewrites
//! the expected output of every `console` block with what the binary prints (review
//! the diff: timings get fresh values).
//!
//! **JSON puzzles** (docs/format.md): every ```json block must parse; a block that is
//! a puzzle (an object with clue or entry keys) or a challenge collection is solved in-process
//! and must have a solution, unless the line before the block is a marker comment
//! `<!-- expect: error -->`, `<!-- expect: no solution -->`, `<!-- expect: unique -->`
//! or `<!-- expect: not unique -->`.

use crate::common;
use crossat::puzzle::Input;
use serde_json::Value;
use std::fmt::Write as _;

/// The files whose examples are tested, and whether each must hold console examples.
const DOCS: [(&str, bool); 6] = [
    ("README.md", true),
    ("docs/cli.md", true),
    ("docs/examples.md", true),
    ("docs/format.md", true),
    ("docs/encoding.md", true),
    ("docs/performance.md", false),
];

/// A fenced code block.
struct Block {
    /// File it comes from.
    file: String,
    /// Line number (1-based) of its first content line.
    line: usize,
    /// The info string after the opening fence.
    info: String,
    /// The content lines.
    lines: Vec<String>,
    /// The last non-blank line before the opening fence.
    before: String,
}

fn blocks(file: &str) -> Vec<Block> {
    let path = common::root().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut before = String::new();
    let mut open: Option<(String, usize, Vec<String>, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match open.as_mut() {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    open = Some((info.trim().to_string(), i + 2, Vec::new(), before.clone()));
                } else if !line.trim().is_empty() {
                    before = line.trim().to_string();
                }
            }
            Some((info, start, lines, prev)) => {
                if line.starts_with("```") {
                    out.push(Block {
                        file: file.to_string(),
                        line: *start,
                        info: std::mem::take(info),
                        lines: std::mem::take(lines),
                        before: std::mem::take(prev),
                    });
                    open = None;
                    before.clear();
                } else {
                    lines.push(line.to_string());
                }
            }
        }
    }
    assert!(open.is_none(), "{file}: unterminated code block");
    out
}

/// One command of a console block.
#[derive(Debug)]
struct Step {
    /// Line of the `$` in its file.
    line: usize,
    /// The command line as written.
    text: String,
    /// `crossat` arguments, or `None` for `echo $?`.
    args: Option<Vec<String>>,
    /// Standard input.
    stdin: Option<Vec<u8>>,
    /// Expected terminal output.
    expected: Vec<String>,
    /// Line (1-based) in its file where the expected output starts.
    out_line: usize,
}

fn steps(b: &Block) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut i = 0;
    while i < b.lines.len() {
        let line = &b.lines[i];
        let at = b.line + i;
        i += 1;
        let Some(cmd) = line.strip_prefix("$ ") else {
            let last = out.last_mut().unwrap_or_else(|| panic!("{}:{at}: output before the first `$ ` command", b.file));
            last.expected.push(line.clone());
            continue;
        };
        if cmd.trim() == "echo $?" {
            out.push(Step { line: at, text: cmd.to_string(), args: None, stdin: None, expected: vec![], out_line: at + 1 });
            continue;
        }
        let words = split(cmd).unwrap_or_else(|e| panic!("{}:{at}: {e}: {cmd}", b.file));
        assert!(
            words.first().map(String::as_str) == Some("crossat"),
            "{}:{at}: console commands must start with `crossat` (or be `echo $?`): {cmd}",
            b.file
        );
        let mut args = Vec::new();
        let mut stdin = None;
        let mut it = words.into_iter().skip(1);
        while let Some(w) = it.next() {
            if let Some(tag) = w.strip_prefix("\u{0}<<") {
                let mut body = String::new();
                loop {
                    let l = b.lines.get(i).unwrap_or_else(|| panic!("{}:{at}: here-document without `{tag}`", b.file));
                    i += 1;
                    if l == tag {
                        break;
                    }
                    body.push_str(l);
                    body.push('\n');
                }
                stdin = Some(body.into_bytes());
            } else if w == "\u{0}<" {
                let f = it.next().unwrap_or_else(|| panic!("{}:{at}: `<` without a file", b.file));
                let path = common::root().join(&f);
                stdin = Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}:{at}: {}: {e}", b.file, path.display())));
            } else {
                args.push(w);
            }
        }
        out.push(Step { line: at, text: cmd.to_string(), args: Some(args), stdin, expected: vec![], out_line: b.line + i });
    }
    out
}

/// Splits a command line into words, shell style. Unquoted redirections come back
/// as `"\0<"` (then the file as the next word) and `"\0<<TAG"`.
fn split(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut chars = s.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            let _ = chars.next();
        }
        let Some(&c) = chars.peek() else { return Ok(words) };
        if c == '<' {
            let _ = chars.next();
            if chars.peek() == Some(&'<') {
                let _ = chars.next();
                let tag: String = split_word(&mut chars)?;
                words.push(format!("\u{0}<<{tag}"));
            } else {
                words.push("\u{0}<".to_string());
            }
            continue;
        }
        if matches!(c, '|' | '>' | ';' | '&' | '$' | '`' | '*' | '?') {
            return Err(format!("unsupported shell syntax `{c}`"));
        }
        words.push(split_word(&mut chars)?);
    }
}

fn split_word(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<String, String> {
    let mut w = String::new();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() || c == '<' {
            break;
        }
        let _ = chars.next();
        match c {
            '\'' => loop {
                match chars.next() {
                    Some('\'') => break,
                    Some(x) => w.push(x),
                    None => return Err("unterminated single quote".into()),
                }
            },
            '"' => loop {
                match chars.next() {
                    Some('"') => break,
                    Some('\\') if chars.peek().is_some_and(|x| matches!(x, '"' | '\\' | '$' | '`')) => {
                        w.extend(chars.next());
                    }
                    Some('$' | '`') => return Err("unsupported expansion inside double quotes".into()),
                    Some(x) => w.push(x),
                    None => return Err("unterminated double quote".into()),
                }
            },
            '\\' => w.extend(chars.next()),
            '|' | '>' | ';' | '&' | '$' | '`' | '*' | '?' => return Err(format!("unsupported shell syntax `{c}`")),
            _ => w.push(c),
        }
    }
    Ok(w)
}

/// Masks timings, trailing spaces and trailing blank lines.
fn normalize(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = mask_after(&mask_before(line.trim_end(), " ms"), "_ms\":");
        out.push_str(&line);
        out.push('\n');
    }
    let keep = out.trim_end_matches('\n').len();
    out.truncate(keep);
    if keep > 0 {
        out.push('\n');
    }
    out
}

fn is_num(c: char) -> bool {
    c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'
}

/// `1.234 ms` → `N ms`.
fn mask_before(line: &str, unit: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(k) = rest.find(unit) {
        let head = &rest[..k];
        let num = head.len() - head.chars().rev().take_while(|&c| is_num(c)).map(char::len_utf8).sum::<usize>();
        out.push_str(&head[..num]);
        out.push_str(if num < head.len() { "N" } else { "" });
        out.push_str(unit);
        rest = &rest[k + unit.len()..];
    }
    out.push_str(rest);
    out
}

/// `"parse_ms":0.0123` → `"parse_ms":N`.
fn mask_after(line: &str, key: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(k) = rest.find(key) {
        out.push_str(&rest[..k + key.len()]);
        rest = &rest[k + key.len()..];
        let len: usize = rest.chars().take_while(|&c| is_num(c)).map(char::len_utf8).sum();
        if len > 0 {
            out.push('N');
        }
        rest = &rest[len..];
    }
    out.push_str(rest);
    out
}

/// Replaces `count` lines from line `start` (1-based) of `file` with `lines`, for each
/// edit, and writes the file back.
fn bless(file: &str, mut edits: Vec<(usize, usize, Vec<String>)>) {
    if edits.is_empty() {
        return;
    }
    let path = common::root().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    for (start, count, new) in edits {
        let _ = lines.splice(start - 1..start - 1 + count, new);
    }
    std::fs::write(&path, lines.join("\n") + "\n").unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[test]
fn console_examples_match_the_binary() {
    let blessing = crate::common::blessing("CROSSAT_BLESS_DOCS");
    let mut failures = String::new();
    let mut total = 0;
    for (file, required) in DOCS {
        let mut count = 0;
        let mut edits = Vec::new();
        for b in blocks(file) {
            let ignore_output = match b.info.as_str() {
                "console" => false,
                "console,ignore-output" => true,
                _ => continue,
            };
            let steps = steps(&b);
            let mut last_code: Option<i32> = None;
            for (k, step) in steps.iter().enumerate() {
                let Some(args) = &step.args else {
                    let Some(code) = last_code.take() else {
                        let _ = writeln!(failures, "{file}:{}: `echo $?` does not follow a crossat command", step.line);
                        continue;
                    };
                    let got = format!("{code}\n");
                    if blessing {
                        edits.push((step.out_line, step.expected.len(), vec![code.to_string()]));
                    } else if normalize(&step.expected.join("\n")) != got {
                        let _ =
                            writeln!(failures, "{file}:{}: exit status {code}, the example says {:?}", step.line, step.expected.join("\n"));
                    }
                    continue;
                };
                count += 1;
                let argv: Vec<&str> = args.iter().map(String::as_str).collect();
                let run = common::crossat(&argv, step.stdin.as_deref());
                let shows_code = steps.get(k + 1).is_some_and(|s| s.args.is_none());
                if !shows_code && run.code != 0 {
                    let _ = writeln!(
                        failures,
                        "{file}:{}: `{}` exited with {} (add `$ echo $?` if that is intended)\n  stderr: {}",
                        step.line, step.text, run.code, run.stderr
                    );
                }
                last_code = Some(run.code);
                if ignore_output {
                    continue;
                }
                let printed = format!("{}{}", run.stdout, run.stderr);
                let got = normalize(&printed);
                let want = normalize(&step.expected.join("\n"));
                if blessing {
                    let new: Vec<String> = printed.trim_end_matches('\n').lines().map(str::to_string).collect();
                    edits.push((step.out_line, step.expected.len(), new));
                } else if got != want {
                    let _ = writeln!(
                        failures,
                        "{file}:{}: `{}`\n--- the example says:\n{want}--- the binary prints:\n{got}---",
                        step.line, step.text
                    );
                }
            }
        }
        if required {
            assert!(count > 0, "{file}: found no console examples; is the info string `console`?");
        }
        total += count;
        bless(file, edits);
    }
    assert!(total >= 20, "only {total} console examples in the docs: the extraction is probably broken");
    assert!(failures.is_empty(), "documentation examples disagree with the binary:\n{failures}");
}

/// What a marker comment before a JSON block expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Solves,
    Error,
    NoSolution,
    Unique,
    NotUnique,
}

fn expectation(before: &str) -> Expect {
    match before {
        "<!-- expect: error -->" => Expect::Error,
        "<!-- expect: no solution -->" => Expect::NoSolution,
        "<!-- expect: unique -->" => Expect::Unique,
        "<!-- expect: not unique -->" => Expect::NotUnique,
        _ => Expect::Solves,
    }
}

fn is_puzzle(v: &Value) -> bool {
    let keys = ["left", "right", "top", "bottom", "left_lines", "top_columns", "left_hints", "top_hints", "y", "entries"];
    v.as_object().is_some_and(|o| keys.iter().any(|k| o.contains_key(*k)))
}

fn check(input: Input, expect: Expect) -> Result<(), String> {
    let result = common::solve_in_process(input, Some(2));
    let outcome = match (&result, expect) {
        (Err(_), Expect::Error) => return Ok(()),
        (Err(e), _) => return Err(format!("fails: {e}")),
        (Ok(_), Expect::Error) => return Err("solves, but is marked `expect: error`".into()),
        (Ok((grids, complete)), _) => (grids.len(), *complete),
    };
    let ok = match expect {
        Expect::Solves => outcome.0 > 0,
        Expect::NoSolution => outcome == (0, true),
        Expect::Unique => outcome == (1, true),
        Expect::NotUnique => outcome.0 == 2,
        Expect::Error => unreachable!(),
    };
    if ok { Ok(()) } else { Err(format!("expected {expect:?}, found {} solution(s), search complete: {}", outcome.0, outcome.1)) }
}

#[test]
fn json_puzzles_in_format_md_solve() {
    let mut failures = String::new();
    let mut count = 0;
    for b in blocks("docs/format.md").into_iter().filter(|b| b.info == "json") {
        let text = b.lines.join("\n");
        let where_ = format!("docs/format.md:{}", b.line);
        let value: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                let _ = writeln!(failures, "{where_}: not valid JSON: {e}");
                continue;
            }
        };
        let expect = expectation(&b.before);
        if is_puzzle(&value) {
            count += 1;
            if let Err(e) = check(common::input_text(&text), expect) {
                let _ = writeln!(failures, "{where_}: {e}");
            }
        } else if value.as_array().is_some_and(|sets| sets.iter().any(|s| s.get("puzzles").is_some())) {
            let entries = crossat::puzzle::read_collection("<test>", text.as_bytes()).unwrap_or_else(|e| panic!("{where_}: {e}"));
            for e in entries {
                count += 1;
                let input = Input { id: Some(e.key.clone()), ..common::input_text(&text) };
                if let Err(msg) = check(input, expect) {
                    let _ = writeln!(failures, "{where_}: puzzle {}: {msg}", e.key);
                }
            }
        }
    }
    assert!(count > 0, "docs/format.md: found no ```json puzzle blocks");
    assert!(failures.is_empty(), "JSON examples in docs/format.md:\n{failures}");
}

#[test]
fn docs_harness_splits_like_a_shell() {
    assert_eq!(split("crossat solve 'a b' c\\ d \"e\\\"f\"").unwrap(), ["crossat", "solve", "a b", "c d", "e\"f"]);
    assert_eq!(split("crossat solve - < p.json").unwrap(), ["crossat", "solve", "-", "\u{0}<", "p.json"]);
    assert_eq!(split("crossat solve - <<'EOF'").unwrap(), ["crossat", "solve", "-", "\u{0}<<EOF"]);
    assert!(split("crossat solve x | head").is_err());
    assert_eq!(normalize("stats: parse 0.024 ms, total 1.5 ms  \n"), "stats: parse N ms, total N ms\n");
    assert_eq!(normalize("{\"parse_ms\":0.018,\"x\":1}"), "{\"parse_ms\":N,\"x\":1}\n");
    assert_eq!(normalize("a\n\n\n"), "a\n");
    assert_eq!(normalize(""), "");
}
