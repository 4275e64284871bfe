//! Turns parsed arguments into pipeline calls and output. No solving logic lives here.

use crate::cli::{Cli, Command, DimacsArgs, ListArgs, PuzzleArgs, SolveArgs};
use crate::dimacs::{self, Model};
use crate::emit;
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
    let given = match &args.given {
        None => None,
        Some(p) => {
            let (gname, gbytes) = read_source(p)?;
            let text = String::from_utf8(gbytes).map_err(|_| Error::input(&gname, "invalid UTF-8"))?;
            Some(puzzle::parse_grid_rows(&text))
        }
    };
    let pool = pool_file(&args.file, args.pool.as_deref())?;
    let alphabet = args.alphabet.as_ref().map(|a| a.chars().collect::<Vec<_>>());
    if alphabet.as_ref().is_some_and(Vec::is_empty) {
        return Err(Error::Usage("--alphabet must not be empty".into()));
    }
    Ok(Input { source, bytes, format: args.format, id: args.id.clone(), alphabet, given, pool })
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
    let outcome = pipeline::solve(&mut prep, search_limit, |puzzle, grid| {
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
    if json {
        let mut summary = json!({
            "type": "summary",
            "solutions": outcome.found,
            "complete": outcome.complete,
            "unique": unique,
            "puzzle": prep.puzzle.name,
            "alphabet": prep.compiled.alphabet.chars().iter().collect::<String>(),
        });
        if args.stats {
            summary["stats"] = stats_json(&prep);
        }
        writeln!(out, "{}", emit::line(&summary)).map_err(write_err)?;
    } else {
        writeln!(out, "{}", status_line(outcome, args.all || args.limit.is_some())).map_err(write_err)?;
        if args.stats {
            write!(err, "{}", stats_text(&prep)).map_err(write_err)?;
        }
    }
    Ok(if outcome.found > 0 { 0 } else { 1 })
}

fn unique(o: Outcome) -> Value {
    match (o.found, o.complete) {
        (1, true) => Value::Bool(true),
        (n, _) if n >= 2 => Value::Bool(false),
        _ => Value::Null,
    }
}

fn status_line(o: Outcome, listing: bool) -> String {
    let plural = |n: usize| if n == 1 { "solution" } else { "solutions" };
    match (o.found, o.complete, listing) {
        (0, _, _) => "no solution (search exhausted)".into(),
        (1, true, _) => "unique: no other solution exists (search exhausted)".into(),
        (_, false, false) => "not unique: another solution exists (crossat solve --all lists them)".into(),
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
            writeln!(out, "{}", json!({"type": "summary", "solutions": 0, "complete": true, "unique": Value::Null, "source": "model"}))
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
        writeln!(out, "{}", json!({"type": "summary", "solutions": 1, "complete": false, "unique": Value::Null, "source": "model"}))
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
            writeln!(out, "{source}: {size}, {} clues  {name}", p.clues.len()).map_err(write_err)?;
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
