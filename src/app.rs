//! Turns parsed arguments into pipeline calls and output. No solving logic lives here.

use crate::assist::{Assistant, Conflict, Hint, Reason};
use crate::cli::{
    BlocksArgs, CheckArgs, Cli, Command, DictArgs, DimacsArgs, GenerateArgs, HintArgs, ListArgs, PuzzleArgs, PuzzleFormat, SolveArgs,
};
use crate::dimacs::{self, Model};
use crate::emit;
use crate::encode::ClauseSink;
use crate::error::{Error, Result};
use crate::pipeline::{self, Input, Prepared};
use crate::puzzle::{self, Format};
use crate::solve::{self, Outcome};
use crate::stats::{Stage, ms};
use crate::verify;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::path::Path;

/// Runs one command; returns the exit code (0 solved, 1 no solution).
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    match cli.command {
        Command::Solve(args) => solve(&args, out, err),
        Command::Dimacs(args) => dimacs_cmd(&args, out),
        Command::List(args) => list(&args, out),
        Command::Check(args) => check(&args, out),
        Command::Hint(args) => hint(&args, out),
        Command::Generate(args) => generate(&args, out, err),
        Command::Blocks(args) => blocks(&args, out, err),
        Command::Bench(args) => crate::bench::run(&args, out),
    }
}

/// Reads a file, or stdin for `-`.
pub fn read_source(path: &Path) -> Result<(String, Vec<u8>)> {
    let name = path.display().to_string();
    let mut bytes = Vec::new();
    if name == "-" {
        let _ = std::io::stdin().read_to_end(&mut bytes).map_err(|e| Error::input("-", format!("cannot read standard input: {e}")))?;
    } else {
        bytes = std::fs::read(path).map_err(|e| Error::input(&name, format!("cannot read file: {}", io_reason(&e))))?;
    }
    Ok((name, bytes))
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn input(args: &PuzzleArgs) -> Result<Input> {
    let (source, bytes) = read_source(&args.file)?;
    let (given, given_source) = match &args.given {
        None => (None, None),
        Some(p) => {
            let (gname, gbytes) = read_source(p)?;
            let text = String::from_utf8(gbytes).map_err(|_| Error::input(&gname, "invalid UTF-8"))?;
            (Some(puzzle::parse_grid_rows(&text)), Some(gname))
        }
    };
    let pool = pool_file(&args.file, args.pool.as_deref())?;
    let alphabet = args.alphabet.as_ref().map(|a| a.chars().collect::<Vec<_>>());
    if alphabet.as_ref().is_some_and(Vec::is_empty) {
        return Err(Error::Usage("--alphabet must not be empty".into()));
    }
    Ok(Input { source, bytes, format: args.format, id: args.id.clone(), alphabet, given, given_source, pool })
}

/// The regex pool: the explicit file, else the `.txt` file beside a `.csv` puzzle.
pub fn pool_file(puzzle: &Path, explicit: Option<&Path>) -> Result<Option<(String, Vec<u8>)>> {
    match explicit {
        Some(p) => read_source(p).map(Some),
        None if puzzle.extension().is_some_and(|e| e == "csv") && puzzle.with_extension("txt").is_file() => {
            read_source(&puzzle.with_extension("txt")).map(Some)
        }
        None => Ok(None),
    }
}

fn solve(args: &SolveArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    if args.limit == Some(0) {
        return Err(Error::Usage("--limit must be at least 1".into()));
    }
    let mut prep = pipeline::prepare(&input(&args.puzzle)?)?;
    if let Some(model) = &args.model {
        return solve_model(&prep, model, args.json, out);
    }
    // Default: look for two solutions to decide uniqueness, show the first.
    let (search_limit, show) = match (args.all, args.limit) {
        (true, _) => (None, usize::MAX),
        (false, Some(n)) => (Some(n), n),
        (false, None) => (Some(2), 1),
    };
    let mut shown = 0;
    let json = args.json;
    // For the ambiguity report: the values each cell takes across the solutions, and
    // the first solution (for --proof).
    let mut values: Vec<std::collections::BTreeSet<char>> = vec![Default::default(); prep.puzzle.givens.len()];
    let mut first: Option<verify::Grid> = None;
    let outcome = pipeline::solve(&mut prep, search_limit, |puzzle, grid| {
        for (set, &ch) in values.iter_mut().zip(&grid.cells) {
            let _ = set.insert(ch);
        }
        first.get_or_insert_with(|| grid.clone());
        if json {
            writeln!(out, "{}", emit::line(&emit::json_solution(puzzle, grid))).map_err(write_err)?;
        } else if shown < show {
            if shown > 0 {
                writeln!(out).map_err(write_err)?;
            }
            write!(out, "{}", emit::text(puzzle, grid)).map_err(write_err)?;
        }
        shown += 1;
        out.flush().map_err(write_err)
    })?;
    let unique = unique(outcome);
    let ambiguous: Vec<usize> = (0..values.len()).filter(|&c| values[c].len() > 1).collect();
    let ambiguous_clues: Vec<&str> =
        prep.puzzle.clues.iter().filter(|c| c.cells.iter().any(|x| ambiguous.contains(x))).map(|c| c.label.as_str()).collect();
    let proof = match (&args.proof, &first) {
        (Some(path), Some(grid)) if unique == Value::Bool(true) => Some(write_proof(&prep, grid, path, args)?),
        _ => None,
    };
    if json {
        let mut summary = json!({
            "type": "summary",
            "solutions": outcome.found,
            "complete": outcome.complete,
            "unique": unique,
            "puzzle": prep.puzzle.name,
            "alphabet": prep.compiled.alphabet.chars().iter().collect::<String>(),
        });
        if !ambiguous.is_empty() {
            summary["ambiguous_cells"] = ambiguous
                .iter()
                .map(|&c| {
                    let (r, col) = prep.puzzle.shape.coords(c);
                    json!({"cell": [r, col], "values": values[c].iter().map(char::to_string).collect::<Vec<_>>()})
                })
                .collect();
            summary["ambiguous_clues"] = json!(ambiguous_clues);
        }
        if let Some(p) = &proof {
            summary["proof"] = json!(p);
        }
        if args.stats {
            summary["stats"] = stats_json(&prep);
        }
        writeln!(out, "{}", emit::line(&summary)).map_err(write_err)?;
    } else {
        writeln!(out, "{}", status_line(outcome, args.all || args.limit.is_some(), "solve")).map_err(write_err)?;
        if !ambiguous.is_empty() {
            let n = if outcome.complete { format!("all {}", outcome.found) } else { format!("the {} found", outcome.found) };
            writeln!(out, "cells that differ between {n} solutions:").map_err(write_err)?;
            for &c in &ambiguous {
                let vals: Vec<String> = values[c].iter().map(|ch| format!("'{ch}'")).collect();
                writeln!(out, "  {} {}", prep.puzzle.shape.cell_name(c), vals.join(" ")).map_err(write_err)?;
            }
            writeln!(out, "clues through them: {}", ambiguous_clues.join(", ")).map_err(write_err)?;
        }
        if let Some(p) = &proof {
            writeln!(out, "proof of uniqueness written to {p}").map_err(write_err)?;
        }
        if args.stats {
            write!(err, "{}", stats_text(&prep)).map_err(write_err)?;
        }
    }
    if args.unique && unique != Value::Bool(true) {
        if !json {
            writeln!(
                err,
                "crossat: --unique: the puzzle {}",
                if outcome.found == 0 { "has no solution" } else { "has more than one solution" }
            )
            .map_err(write_err)?;
        }
        return Ok(1);
    }
    Ok(if outcome.found > 0 { 0 } else { 1 })
}

/// Writes a proof that the CNF with `grid` blocked is unsatisfiable (and, if asked,
/// that formula in DIMACS); returns the proof's path.
fn write_proof(prep: &Prepared, grid: &verify::Grid, path: &Path, args: &SolveArgs) -> Result<String> {
    let name = path.display().to_string();
    let symbols: Vec<usize> = grid.cells.iter().map(|&ch| prep.compiled.alphabet.index(ch).unwrap_or(0)).collect();
    let block = solve::blocking_clause(&prep.vars, &symbols);
    let file = std::fs::File::create(path).map_err(|e| Error::Output(format!("{name}: cannot create file: {}", io_reason(&e))))?;
    if !solve::prove_unsat(&prep.cnf, std::slice::from_ref(&block), std::io::BufWriter::new(file), args.proof_format)? {
        return Err(Error::Internal("the proof run found a second solution that the search did not".into()));
    }
    if let Some(cnf_path) = &args.proof_cnf {
        let cnf_name = cnf_path.display().to_string();
        let mut with_block = prep.cnf.clone();
        with_block.add_clause(&block);
        let f = std::fs::File::create(cnf_path).map_err(|e| Error::Output(format!("{cnf_name}: cannot create file: {}", io_reason(&e))))?;
        dimacs::write(&mut std::io::BufWriter::new(f), &prep.puzzle, &prep.compiled.alphabet, &with_block, &prep.vars)
            .map_err(|e| Error::Output(format!("{cnf_name}: {e}")))?;
    }
    Ok(name)
}

fn unique(o: Outcome) -> Value {
    match (o.found, o.complete) {
        (1, true) => Value::Bool(true),
        (n, _) if n >= 2 => Value::Bool(false),
        _ => Value::Null,
    }
}

fn status_line(o: Outcome, listing: bool, cmd: &str) -> String {
    let plural = |n: usize| if n == 1 { "solution" } else { "solutions" };
    match (o.found, o.complete, listing) {
        (0, _, _) => "no solution (search exhausted)".into(),
        (1, true, _) => "unique: no other solution exists (search exhausted)".into(),
        (_, false, false) => format!("not unique: another solution exists (crossat {cmd} --all lists them)"),
        (n, true, _) => format!("{n} {}; search exhausted", plural(n)),
        (n, false, true) => format!("{n} {} shown; limit reached, there may be more", plural(n)),
    }
}

fn solve_model(prep: &Prepared, path: &Path, json: bool, out: &mut dyn Write) -> Result<u8> {
    let (name, bytes) = read_source(path)?;
    let text = String::from_utf8_lossy(&bytes);
    let model = dimacs::read_model(&text).map_err(|m| Error::input(&name, m))?;
    let Model::Sat(values) = model else {
        if json {
            writeln!(out, "{}", json!({"type": "summary", "solutions": 0, "complete": true, "unique": Value::Null, "source": "model", "puzzle": prep.puzzle.name, "alphabet": prep.compiled.alphabet.chars().iter().collect::<String>()}))
                .map_err(write_err)?;
        } else {
            writeln!(out, "no solution (the external solver reports UNSATISFIABLE)").map_err(write_err)?;
        }
        return Ok(1);
    };
    let value = |v: i32| values.get(v as usize).copied().unwrap_or(false);
    if let Some(k) = prep.cnf_unsatisfied(&value) {
        return Err(Error::input(
            &name,
            format!(
                "the model violates clause {k} of this puzzle's CNF (was it solved from `crossat dimacs` of the same puzzle and options?)"
            ),
        ));
    }
    let symbols =
        solve::decode_cells(&prep.vars, value).map_err(|_| Error::input(&name, "the model does not give every cell exactly one letter"))?;
    let assignment = solve::decode_assignment(&prep.vars, value)
        .map_err(|_| Error::input(&name, "the model does not assign exactly one regex to every entry"))?;
    let grid = verify::decode(&prep.compiled.alphabet, &solve::Found { cells: symbols, assignment });
    prep.verifier.check(&prep.puzzle, &grid)?;
    if json {
        writeln!(out, "{}", emit::line(&emit::json_solution(&prep.puzzle, &grid))).map_err(write_err)?;
        writeln!(out, "{}", json!({"type": "summary", "solutions": 1, "complete": false, "unique": Value::Null, "source": "model", "puzzle": prep.puzzle.name, "alphabet": prep.compiled.alphabet.chars().iter().collect::<String>()}))
            .map_err(write_err)?;
    } else {
        write!(out, "{}", emit::text(&prep.puzzle, &grid)).map_err(write_err)?;
        writeln!(out, "verified: the model's grid matches every clue").map_err(write_err)?;
    }
    Ok(0)
}

impl Prepared {
    /// Index (1-based) of the first clause the assignment falsifies.
    pub fn cnf_unsatisfied(&self, value: &dyn Fn(i32) -> bool) -> Option<usize> {
        self.cnf.clauses().position(|c| !c.iter().any(|&l| value(l.abs()) == (l > 0))).map(|k| k + 1)
    }
}

fn dimacs_cmd(args: &DimacsArgs, out: &mut dyn Write) -> Result<u8> {
    let prep = pipeline::prepare(&input(&args.puzzle)?)?;
    let name = args.output.display().to_string();
    let write =
        |w: &mut dyn Write| dimacs::write(&mut std::io::BufWriter::new(w), &prep.puzzle, &prep.compiled.alphabet, &prep.cnf, &prep.vars);
    if name == "-" {
        write(out).map_err(write_err)?;
    } else {
        let mut f =
            std::fs::File::create(&args.output).map_err(|e| Error::Output(format!("{name}: cannot create file: {}", io_reason(&e))))?;
        write(&mut f).map_err(|e| Error::Output(format!("{name}: {e}")))?;
    }
    Ok(0)
}

fn list(args: &ListArgs, out: &mut dyn Write) -> Result<u8> {
    let (source, bytes) = read_source(&args.file)?;
    let format = puzzle::detect(&source, &bytes)?;
    if format == Format::Challenges {
        let text = std::str::from_utf8(&bytes).map_err(|_| Error::input(&source, "invalid UTF-8"))?;
        for e in puzzle::challenges::list(&source, text)? {
            if args.json {
                writeln!(out, "{}", json!({"type": "puzzle", "key": e.key, "id": e.id, "name": e.name, "size": e.size}))
                    .map_err(write_err)?;
            } else {
                writeln!(out, "{:<18} {:<10} {}  {}", e.key, e.size, e.id, e.name).map_err(write_err)?;
            }
        }
    } else {
        let pool = pool_file(&args.file, None)?;
        let p = puzzle::read(&source, &bytes, Some(format), None, pool.as_ref().map(|(n, b)| (n.as_str(), b.as_slice())))?;
        let size = p.shape.describe();
        let name = p.name.clone().unwrap_or_default();
        if args.json {
            writeln!(out, "{}", json!({"type": "puzzle", "key": source, "name": name, "size": size, "clues": p.clues.len()}))
                .map_err(write_err)?;
        } else {
            let clues = match &p.pool {
                Some(pool) => format!("{} entries, pool of {} regexes", pool.entries.len(), pool.regexes.len()),
                None => format!("{} clues", p.clues.len()),
            };
            writeln!(out, "{}", format!("{source}: {size}, {clues}  {name}").trim_end()).map_err(write_err)?;
        }
    }
    Ok(0)
}

fn stats_json(prep: &Prepared) -> Value {
    let times: serde_json::Map<String, Value> =
        Stage::ALL.iter().map(|&s| (format!("{}_ms", s.name()), json!(ms(prep.times.get(s))))).collect();
    let clues: Vec<Value> = prep
        .puzzle
        .clues
        .iter()
        .zip(&prep.vars.clue_sizes)
        .zip(&prep.compiled.clues)
        .map(|((c, s), cc)| json!({"clue": c.label, "dfa_states": cc.raw_states, "states": s.states, "layered_states": s.layered_states, "vars": s.vars, "clauses": s.clauses}))
        .collect();
    use crate::encode::ClauseSink;
    json!({"times": times, "total_ms": ms(prep.times.total()), "wall_ms": ms(prep.times.wall()), "variables": prep.cnf.num_vars(), "clauses": prep.cnf.num_clauses(), "clues": clues})
}

fn stats_text(prep: &Prepared) -> String {
    use crate::encode::ClauseSink;
    let mut s = String::from("stats:");
    for stage in Stage::ALL {
        s.push_str(&format!(" {} {:.3} ms,", stage.name(), ms(prep.times.get(stage))));
    }
    s.push_str(&format!(" sum {:.3} ms, wall {:.3} ms\n", ms(prep.times.total()), ms(prep.times.wall())));
    s.push_str(&format!(
        "stats: {} cells, alphabet of {} symbols, {} variables, {} clauses\n",
        prep.puzzle.givens.len(),
        prep.compiled.alphabet.len(),
        prep.cnf.num_vars(),
        prep.cnf.num_clauses()
    ));
    s.push_str(&format!("stats: {:<22} {:>10} {:>8} {:>8} {:>7} {:>8}\n", "clue", "dfa-states", "minimal", "layered", "vars", "clauses"));
    for ((c, z), cc) in prep.puzzle.clues.iter().zip(&prep.vars.clue_sizes).zip(&prep.compiled.clues) {
        s.push_str(&format!(
            "stats: {:<22} {:>10} {:>8} {:>8} {:>7} {:>8}\n",
            c.label, cc.raw_states, z.states, z.layered_states, z.vars, z.clauses
        ));
    }
    s
}

/// Maps a write failure to an error.
pub fn write_err(e: std::io::Error) -> Error {
    Error::Output(format!("cannot write output: {e}"))
}

/// Reads a grid file (rows, `.` for empty) into per-cell values for this puzzle.
fn read_grid(prep: &Prepared, path: &Path) -> Result<Vec<Option<char>>> {
    let (name, bytes) = read_source(path)?;
    let text = String::from_utf8(bytes).map_err(|_| Error::input(&name, "invalid UTF-8"))?;
    let mut p = prep.puzzle.clone();
    p.set_given_rows(&name, &puzzle::parse_grid_rows(&text))?;
    Ok(p.givens)
}

fn cell_json(prep: &Prepared, c: usize) -> Value {
    let (r, col) = prep.puzzle.shape.coords(c);
    json!([r, col])
}

fn conflict_text(prep: &Prepared, givens: &[Option<char>], k: &Conflict) -> String {
    let mut s = String::new();
    for &i in &k.clues {
        let c = &prep.puzzle.clues[i];
        s.push_str(&format!("  clue {} '{}'\n", c.label, c.regex));
    }
    for &c in &k.givens {
        s.push_str(&format!("  filled cell {} '{}'\n", prep.puzzle.shape.cell_name(c), givens[c].unwrap_or('?')));
    }
    s
}

fn conflict_json(prep: &Prepared, k: &Conflict) -> Value {
    json!({"clues": k.clues.iter().map(|&i| prep.puzzle.clues[i].label.clone()).collect::<Vec<_>>(), "cells": k.givens.iter().map(|&c| cell_json(prep, c)).collect::<Vec<_>>()})
}

fn check(args: &CheckArgs, out: &mut dyn Write) -> Result<u8> {
    let prep = pipeline::prepare(&input(&args.puzzle)?)?;
    let grid = read_grid(&prep, &args.grid)?;
    let mut assistant = Assistant::new(&prep)?;
    let unknown: Vec<usize> = (0..grid.len()).filter(|&c| grid[c].is_some_and(|ch| prep.compiled.alphabet.index(ch).is_none())).collect();
    let emit = |out: &mut dyn Write, v: Value, text: String| -> Result<()> {
        if args.json { writeln!(out, "{v}") } else { write!(out, "{text}") }.map_err(write_err)
    };
    if grid.iter().all(Option::is_some) {
        let full: Vec<char> = grid.iter().map(|c| c.unwrap_or(' ')).collect();
        let mut failures = 0;
        for (i, clue) in prep.puzzle.clues.iter().enumerate() {
            let word: String = clue.cells.iter().map(|&c| full[c]).collect();
            if prep.verifier.clue_matches(i, &word) {
                continue;
            }
            failures += 1;
            let at = assistant.first_bad_cell(i, &full)?;
            let cell = at.map(|p| clue.cells[p]);
            let place = cell
                .map_or_else(|| "at the end of the line".to_string(), |c| format!("at {} '{}'", prep.puzzle.shape.cell_name(c), full[c]));
            emit(
                out,
                json!({"type": "failure", "clue": clue.label, "regex": clue.regex, "word": word, "cell": cell.map(|c| cell_json(&prep, c))}),
                format!("{} '{}' does not match \"{word}\": it can no longer match {place}\n", clue.label, clue.regex),
            )?;
        }
        let n = prep.puzzle.clues.len();
        let summary =
            if failures == 0 { format!("valid: all {n} clues match\n") } else { format!("invalid: {failures} of {n} clues fail\n") };
        emit(out, json!({"type": "summary", "complete": true, "valid": failures == 0, "failures": failures}), summary)?;
        return Ok(u8::from(failures > 0));
    }
    if !unknown.is_empty() {
        for &c in &unknown {
            let ch = grid[c].unwrap_or(' ');
            emit(
                out,
                json!({"type": "unknown_char", "cell": cell_json(&prep, c), "char": ch.to_string()}),
                format!("{} holds '{ch}', which no clue allows (not in the alphabet)\n", prep.puzzle.shape.cell_name(c)),
            )?;
        }
        emit(out, json!({"type": "summary", "complete": false, "completable": false}), "cannot be completed\n".to_string())?;
        return Ok(1);
    }
    match assistant.complete(&grid)? {
        Some(one) => {
            let several = assistant.several(&grid, &one)?;
            let text = format!("can be completed{}\n", if several { " (in more than one way)" } else { " (in exactly one way)" });
            emit(out, json!({"type": "summary", "complete": false, "completable": true, "unique_completion": !several}), text)?;
            Ok(0)
        }
        None => {
            let k = assistant.conflict(&grid)?;
            let text = format!("cannot be completed: these clues and filled cells conflict:\n{}", conflict_text(&prep, &grid, &k));
            emit(out, json!({"type": "summary", "complete": false, "completable": false, "conflict": conflict_json(&prep, &k)}), text)?;
            Ok(1)
        }
    }
}

fn hint(args: &HintArgs, out: &mut dyn Write) -> Result<u8> {
    let prep = pipeline::prepare(&input(&args.puzzle)?)?;
    let givens = prep.puzzle.givens.clone();
    let mut assistant = Assistant::new(&prep)?;
    let write = |out: &mut dyn Write, s: String| out.write_all(s.as_bytes()).map_err(write_err);
    if assistant.complete(&givens)?.is_none() {
        let k = assistant.conflict(&givens)?;
        if args.json {
            write(out, format!("{}\n", json!({"type": "summary", "completable": false, "conflict": conflict_json(&prep, &k)})))?;
        } else {
            write(
                out,
                format!(
                    "no hint: the filled cells cannot be completed; these clues and filled cells conflict:\n{}",
                    conflict_text(&prep, &givens, &k)
                ),
            )?;
        }
        return Ok(1);
    }
    let hints: Vec<Hint> = if args.all { assistant.backbone(&givens)? } else { assistant.hint(&givens)?.into_iter().collect() };
    for h in &hints {
        let why = match h.reason {
            Reason::SingleLine(i) => format!("{} alone", prep.puzzle.clues[i].label),
            Reason::Lines => "combining the lines".to_string(),
            Reason::Search => "only by search over the whole grid".to_string(),
        };
        let because = if args.explain { Some(assistant.explain(&givens, h.cell, h.ch)?) } else { None };
        if args.json {
            let reason = match h.reason {
                Reason::SingleLine(_) => "single-line",
                Reason::Lines => "lines",
                Reason::Search => "search",
            };
            let mut v = json!({"type": "hint", "cell": cell_json(&prep, h.cell), "char": h.ch.to_string(), "reason": reason});
            if let Reason::SingleLine(i) = h.reason {
                v["clue"] = json!(prep.puzzle.clues[i].label);
            }
            if let Some(k) = &because {
                v["because"] = conflict_json(&prep, k);
            }
            write(out, format!("{v}\n"))?;
        } else {
            write(out, format!("{} is '{}' ({why})\n", prep.puzzle.shape.cell_name(h.cell), h.ch))?;
            if let Some(k) = &because {
                write(
                    out,
                    format!("  because of:\n{}", conflict_text(&prep, &givens, k).replace("\n  ", "\n    ").replacen("  ", "    ", 1)),
                )?;
            }
        }
    }
    let empty = givens.iter().filter(|g| g.is_none()).count();
    if args.json {
        write(out, format!("{}\n", json!({"type": "summary", "completable": true, "hints": hints.len(), "empty_cells": empty})))?;
    } else if hints.is_empty() {
        write(
            out,
            if empty == 0 {
                "the grid is already complete\n".to_string()
            } else {
                "no cell is forced: the empty cells can be completed in more than one way\n".to_string()
            },
        )?;
    }
    Ok(0)
}

fn generate(args: &GenerateArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    use crate::generate::{self as g, Spec};
    let shape = match (&args.size, args.hex) {
        (Some(size), _) => {
            let dims: Vec<usize> = size.split(['x', 'X']).filter_map(|n| n.trim().parse().ok()).collect();
            match dims[..] {
                [r, c] if (1..=20).contains(&r) && (1..=20).contains(&c) => puzzle::Shape::Rect { rows: r, cols: c },
                _ => return Err(Error::Usage(format!("--size must be ROWSxCOLS with each from 1 to 20, got '{size}'"))),
            }
        }
        (None, Some(s)) if (2..=8).contains(&s) => puzzle::Shape::Hex { side: s },
        (None, Some(s)) => return Err(Error::Usage(format!("--hex must be a side from 2 to 8, got {s}"))),
        (None, None) => return Err(Error::Usage("give --size RxC or --hex SIDE".into())),
    };
    let spec = Spec { shape, sides: usize::from(args.sides), text: args.text.clone(), backrefs: args.backrefs, seed: args.seed };
    let started = std::time::Instant::now();
    let made = g::generate(&spec)?;
    let rows: Vec<String> = made.puzzle.shape.display_rows().iter().map(|r| r.iter().map(|&c| made.solution[c]).collect()).collect();
    let crossat_json = g::to_crossat_json(&made.puzzle);
    let trux = g::to_trux(&made.puzzle, spec.sides);
    if args.json {
        let v = json!({"type": "puzzle", "crossat": crossat_json, "trux": trux, "solution": rows, "unique": true, "checks": made.checks, "seed": args.seed, "time_ms": started.elapsed().as_secs_f64() * 1e3});
        writeln!(out, "{v}").map_err(write_err)?;
    } else {
        match args.output_format {
            PuzzleFormat::Crossat => writeln!(out, "{}", serde_json::to_string_pretty(&crossat_json).unwrap_or_default()),
            PuzzleFormat::Trux => write!(out, "{trux}"),
        }
        .map_err(write_err)?;
        writeln!(err, "crossat: unique puzzle after {} uniqueness checks; solution: {}", made.checks, rows.join(" / "))
            .map_err(write_err)?;
    }
    Ok(0)
}

fn dictionary(args: &DictArgs, err: &mut dyn Write, json: bool) -> Result<crate::words::Dictionary> {
    let dict = match &args.dict {
        Some(p) => crate::words::Dictionary::from_file(p, args.fold_case)?,
        None => crate::words::Dictionary::builtin(),
    };
    if !json {
        writeln!(err, "crossat: dictionary: {} ({} words)", dict.source, dict.words.len()).map_err(write_err)?;
    }
    Ok(dict)
}

fn blocks(args: &BlocksArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    let (source, bytes) = read_source(&args.file)?;
    let text = String::from_utf8(bytes).map_err(|_| Error::input(&source, "invalid UTF-8"))?;
    let puzzle = crate::words::read_blocks(&source, &text)?;
    let dict = dictionary(&args.dict, err, args.json)?;
    let model = crate::words::encode_blocks(&puzzle, &dict)?;
    let limit = if args.all { None } else { Some(2) };
    let mut shown = 0;
    let outcome = crate::words::solve_blocks(&model, &puzzle, &dict, limit, |sol| {
        let words: Vec<String> = sol.words.iter().map(|w| w.concat()).collect();
        if args.json {
            writeln!(out, "{}", json!({"type": "solution", "words": words, "unused": sol.unused})).map_err(write_err)?;
        } else if args.all || shown == 0 {
            if shown > 0 {
                writeln!(out).map_err(write_err)?;
            }
            for (w, parts) in words.iter().zip(&sol.words) {
                writeln!(out, "{w:<12} {}", parts.join(" + ")).map_err(write_err)?;
            }
            writeln!(out, "unused: {}", sol.unused.join(" ")).map_err(write_err)?;
        }
        shown += 1;
        Ok(())
    })?;
    if args.json {
        writeln!(out, "{}", json!({"type": "summary", "solutions": outcome.found, "complete": outcome.complete, "unique": unique(outcome), "dictionary": dict.source, "dictionary_words": dict.words.len()})).map_err(write_err)?;
    } else {
        writeln!(out, "{}", status_line(outcome, args.all, "blocks")).map_err(write_err)?;
    }
    Ok(u8::from(outcome.found == 0))
}
