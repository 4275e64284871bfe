//! `solve`: solutions, the uniqueness verdict, the ambiguity report, proofs, models, stats.

use super::input_paths;
use crate::cli::SolveArgs;
use crate::exit::ExitCode;
use crate::io::{read_source, refuse_overwrite, write_file};
use crate::print::Printer;
use crate::print::io_reason;
use crossat::error::{Error, Result};
use crossat::records::{self, Uniqueness};
use crossat::{Puzzle, Solution};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub(super) fn solve(args: &SolveArgs, out: &mut Printer<'_>, err: &mut Printer<'_>) -> Result<ExitCode> {
    let mut inputs = input_paths(&args.puzzle);
    inputs.push(args.model.as_deref());
    super::one_stdin(&inputs)?;
    // Solutions printed so far (and the puzzle, once read), for the summary of a stop.
    let found = Arc::new(AtomicUsize::new(0));
    super::start(&args.stop, solve_epilogue(args.json, found.clone(), None, None))?;
    for output in [&args.proof, &args.proof_cnf].into_iter().flatten() {
        refuse_overwrite(output, &inputs)?;
    }
    let mut puzzle = super::open(&args.puzzle)?;
    if let Some(nodes) = args.line_search_nodes {
        puzzle.set_line_budget(nodes);
    }
    if let Some(model) = &args.model {
        crate::stop::finish();
        return solve_model(&puzzle, model, args, out, err);
    }
    if args.count {
        return count(&mut puzzle, args, out);
    }
    crate::stop::arm(solve_epilogue(args.json, found.clone(), puzzle.puzzle().name.clone(), Some(puzzle.alphabet())));
    // Default: look for two solutions to decide uniqueness, show the first.
    let (search_limit, show) = match (args.all, args.limit) {
        (true, _) => (None, usize::MAX),
        (false, Some(n)) => (Some(n), n),
        (false, None) => (Some(2), 1),
    };
    let mut shown = 0;
    let json = args.json;
    let look = args.draw.options();
    // The clues of every solution are laid out once.
    let mut sketch = crate::draw::Sketch::new(look);
    // Progress while enumerating (--all, --limit): solutions found so far.
    let bar = crate::progress::Progress::counter(!args.quiet && (args.all || args.limit.is_some()), "enumerating", "solutions");
    // The first solution (for --proof).
    let mut first: Option<Solution> = None;
    // Threads for a listing (a uniqueness check is a search for two: one thread).
    let jobs = if args.all || args.limit.is_some() { args.jobs.get() } else { 1 };
    let listing = crossat::Listing { limit: search_limit, jobs, sorted: args.sorted };
    let mut summary = puzzle.search(listing, |p, solution| {
        first.get_or_insert_with(|| solution.clone());
        // One record: a stop prints the whole solution and counts it, or neither.
        crate::stop::record(|| {
            if json {
                writeln!(out, "{}", crate::print::line(&solution.record(p)))?;
            } else if shown < show {
                if shown > 0 {
                    writeln!(out)?;
                }
                write!(out, "{}", sketch.draw(p, &crate::draw::View::solution(p, &solution.grid)))?;
            }
            shown += 1;
            bar.inc(1);
            out.flush()?;
            let _ = found.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
    })?;
    bar.finish();
    let (found_n, complete) = (summary.solutions, summary.complete);
    // Not unique: how many solutions, when counting them is cheap (text only; the
    // stop armed for the search still holds).
    let listing = args.all || args.limit.is_some();
    let cheap_count = if !json && !listing && !complete && found_n >= 2 { puzzle.count_within(CHEAP_COUNT)? } else { None };
    // The stats rate the puzzle's difficulty (line propagation and probing), which can
    // take long on a large grid: done while a stop can still end the command. They give
    // the formula's size, also when propagation decided the puzzle without it: then it
    // is built now, and its time counted as encoding.
    // What the search showed of the solutions, for the rating's one rule (`knowing`).
    let known = (complete || found_n >= 2).then_some(found_n);
    let stats = if args.stats { Some(puzzle.stats(known)?) } else { None };
    let unique = summary.unique;
    let proof = match (&args.proof, &first) {
        (Some(path), Some(solution)) if unique == Uniqueness::Unique => Some(write_proof(&puzzle, solution, path, args, out)?),
        _ => None,
    };
    crate::stop::finish();
    if json {
        // Asked for but with no uniqueness to prove: `"proof": null`.
        summary.proof = args.proof.as_ref().map(|_| proof.clone());
        summary.stats = stats;
        writeln!(out, "{}", crate::print::line(&summary))?;
    } else {
        let status = match &cheap_count {
            Some(n) => format!("not unique: {n} solutions (crossat solve --all lists them)"),
            None => status_line(found_n, complete, args.all || args.limit.is_some(), "solve"),
        };
        writeln!(out, "{status}")?;
        // The cells that differ between the solutions, as the summary lists them.
        if let Some(cells) = &summary.ambiguous_cells {
            let n = if complete { format!("all {found_n}") } else { format!("the {found_n} found") };
            writeln!(out, "cells that differ between {n} solutions:")?;
            for cell in cells {
                let vals: Vec<String> = cell.values.iter().map(|ch| format!("'{ch}'")).collect();
                let name = puzzle.puzzle().shape.cell_name(super::cell_of(puzzle.puzzle(), cell.cell)?);
                writeln!(out, "  {name} {}", vals.join(" "))?;
            }
            writeln!(out, "clues through them: {}", summary.ambiguous_clues.as_deref().unwrap_or_default().join(", "))?;
        }
        if let Some(p) = &proof {
            writeln!(out, "proof of uniqueness written to {p}")?;
        }
        if let Some(stats) = &stats {
            write!(err, "{}", stats_text(&puzzle, stats))?;
        }
    }
    if args.unique && unique != Uniqueness::Unique {
        if !json {
            writeln!(
                err,
                "crossat: --unique: the puzzle {}{}",
                if found_n == 0 { "has no solution" } else { "has more than one solution" },
                if args.proof.is_some() { "; no proof written" } else { "" }
            )?;
        }
        return Ok(ExitCode::NoSolution);
    }
    // The process ends next and its memory goes back whole: freeing the automata and
    // the formula piece by piece would cost more than a small puzzle's propagation.
    std::mem::forget(puzzle);
    Ok(ExitCode::from_found(found_n))
}

/// Writes a proof that the CNF with `solution` blocked is unsatisfiable (and, if asked,
/// that formula in DIMACS); returns the proof's path.
fn write_proof(puzzle: &Puzzle, solution: &Solution, path: &Path, args: &SolveArgs, out: &mut Printer<'_>) -> Result<String> {
    let name = path.display().to_string();
    // Refused before the file is created: a proof needs every clue's formula exact.
    puzzle.require_exact("a proof of uniqueness")?;
    let file = std::fs::File::create(path)
        .map_err(|e| crate::print::output_error(name.as_str(), format!("cannot create file: {}", io_reason(&e))))?;
    let proved = puzzle.prove_unique(solution, args.proof_format, std::io::BufWriter::new(file)).map_err(|e| match e {
        Error::Output(e) => crate::print::output_error(name.as_str(), e.message),
        other => other,
    })?;
    if !proved {
        return Err(Error::Internal("the proof run found a second solution that the search did not".into()));
    }
    if let Some(cnf_path) = &args.proof_cnf {
        let text = puzzle.to_dimacs_excluding(solution)?;
        write_file(cnf_path, out, |w| w.write_all(text.as_bytes()))?;
    }
    Ok(name)
}

/// `solve --count`: the exact number of solutions, without listing them. JSON gives
/// the count as a number up to 2^53 (exact in every JSON reader) and as a string of
/// digits beyond.
fn count(puzzle: &mut Puzzle, args: &SolveArgs, out: &mut Printer<'_>) -> Result<ExitCode> {
    let (name, alphabet) = (puzzle.puzzle().name.clone(), Some(puzzle.alphabet()));
    let json = args.json;
    crate::stop::arm(Box::new(move |reason| {
        let base = records::StoppedCount::new(name.clone(), alphabet.clone());
        crate::stop::summary(json, reason, base, "the count did not finish; no number is given")
    }));
    // On a terminal, the counting search's parts done of those found so far.
    let bar = crate::progress::Progress::status(!args.quiet && !json, "counting");
    bar.message("starting");
    let mut summary = puzzle.count_reporting(args.jobs.get(), &mut |done, total| bar.message(&format!("{done}/{total} parts")))?;
    bar.finish();
    crate::stop::finish();
    let n = match &summary.count {
        records::Count::Number(k) => Some(*k),
        records::Count::Digits(_) => None,
    };
    if json {
        if args.stats {
            summary.stats = Some(puzzle.stats(Some(n.map_or(2, |n| n.min(2) as usize)))?);
        }
        writeln!(out, "{}", crate::print::line(&summary))?;
    } else {
        let how = if summary.counted_by.is_some() { "counted by listing them" } else { "exact count" };
        let line = match &summary.count {
            records::Count::Number(0) => format!("no solution ({how})"),
            records::Count::Number(1) => format!("1 solution: unique ({how})"),
            records::Count::Number(k) => format!("{k} solutions ({how})"),
            records::Count::Digits(d) => format!("{d} solutions ({how})"),
        };
        writeln!(out, "{line}")?;
    }
    Ok(if n == Some(0) { ExitCode::NoSolution } else { ExitCode::Solved })
}

/// Most decisions of the counting search behind "not unique: N solutions" (a few
/// milliseconds); past it the status line says only that another solution exists.
const CHEAP_COUNT: usize = 2_000;

/// What a stopped `solve` prints: how many solutions it found, never a verdict.
fn solve_epilogue(json: bool, found: Arc<AtomicUsize>, puzzle: Option<String>, alphabet: Option<String>) -> crate::stop::Epilogue {
    Box::new(move |reason| {
        let n = found.load(Ordering::SeqCst);
        let base = records::StoppedSolve::new(puzzle.clone(), alphabet.clone(), n);
        let text = match n {
            0 => "no solution found before that; the search did not finish".to_string(),
            1 => "1 solution found before that; the search did not finish (uniqueness not decided)".to_string(),
            n => format!("{n} solutions found before that; the search did not finish"),
        };
        crate::stop::summary(json, reason, base, &text)
    })
}

/// The verdict line of `solve` and `blocks`: `found` solutions, `complete` when the
/// search was exhausted, `listing` when it listed up to a limit.
pub(super) fn status_line(found: usize, complete: bool, listing: bool, cmd: &str) -> String {
    let plural = |n: usize| if n == 1 { "solution" } else { "solutions" };
    match (found, complete, listing) {
        (0, _, _) => "no solution (search exhausted)".into(),
        (1, true, _) => "unique: no other solution exists (search exhausted)".into(),
        (_, false, false) => format!("not unique: another solution exists (crossat {cmd} --all lists them)"),
        (n, true, _) => format!("{n} {}; search exhausted", plural(n)),
        (n, false, true) => format!("{n} {} shown; limit reached, there may be more", plural(n)),
    }
}

fn solve_model(puzzle: &Puzzle, path: &Path, args: &SolveArgs, out: &mut Printer<'_>, err: &mut Printer<'_>) -> Result<ExitCode> {
    let json = args.json;
    let (name, bytes) = read_source(path)?;
    let text = crossat::puzzle::utf8(&name, &bytes)?;
    let Some(model) = puzzle.read_model(&name, text)? else {
        if json {
            writeln!(out, "{}", crate::print::line(&model_summary(puzzle, 0, true)))?;
        } else {
            writeln!(out, "no solution (the external solver reports UNSATISFIABLE)")?;
        }
        return Ok(ExitCode::NoSolution);
    };
    // A model of another formula may still satisfy this one; its size says so.
    if model.highest > model.variables && !args.quiet {
        writeln!(
            err,
            "note: {name} sets variables up to {}, but this puzzle's CNF has {}; the others are ignored (was it solved from `crossat dimacs` of the same puzzle and options?)",
            model.highest, model.variables
        )?;
    }
    if json {
        writeln!(out, "{}", crate::print::line(&model.solution.record(puzzle.puzzle())))?;
        writeln!(out, "{}", crate::print::line(&model_summary(puzzle, 1, false)))?;
    } else {
        let view = crate::draw::View::solution(puzzle.puzzle(), &model.solution.grid);
        write!(out, "{}", crate::draw::draw(puzzle.puzzle(), &view, args.draw.options()))?;
        writeln!(out, "verified: the model's grid matches every clue")?;
    }
    Ok(ExitCode::Solved)
}

/// The summary of `solve --model`: a model's grid is no verdict on uniqueness.
fn model_summary(puzzle: &Puzzle, solutions: usize, complete: bool) -> records::SolveSummary {
    records::SolveSummary {
        solutions,
        complete,
        unique: Uniqueness::Undecided,
        source: Some("model".into()),
        puzzle: puzzle.puzzle().name.clone(),
        alphabet: puzzle.alphabet(),
        dialect: None,
        ambiguous_cells: None,
        ambiguous_clues: None,
        proof: None,
        stats: None,
    }
}

/// `--stats` as text on standard error: the stage times, the formula's size, how the
/// puzzle was decided, the difficulty and a table of the clues.
fn stats_text(puzzle: &Puzzle, stats: &records::Stats) -> String {
    let t = &stats.times;
    let mut s = String::from("stats:");
    for (stage, ms) in
        [("parse", t.parse_ms), ("compile", t.compile_ms), ("encode", t.encode_ms), ("solve", t.solve_ms), ("verify", t.verify_ms)]
    {
        s.push_str(&format!(" {stage} {ms:.3} ms,"));
    }
    s.push_str(&format!(" sum {:.3} ms, wall {:.3} ms\n", stats.total_ms, stats.wall_ms));
    s.push_str(&format!(
        "stats: {} cells, alphabet of {} symbols, {} variables, {} clauses\n",
        puzzle.puzzle().givens.len(),
        puzzle.alphabet().chars().count(),
        stats.variables,
        stats.clauses
    ));
    match stats.line_search_nodes {
        Some(nodes) => s.push_str(&format!(
            "stats: the line search decided the puzzle in {nodes} nodes: no SAT search (the formula above was built for these stats only)\n"
        )),
        None if !stats.searched && stats.decided_before_compiling => s.push_str(
            "stats: line propagation over the clues' position automata decided the puzzle: nothing compiled, no SAT search (the automata and the formula above were built for these stats only)\n",
        ),
        None if !stats.searched => {
            s.push_str("stats: line propagation decided the puzzle: no SAT search (the formula above was built for these stats only)\n")
        }
        None => {}
    }
    s.push_str(&format!("stats: difficulty {}\n", stats.difficulty));
    // The clue table, its columns as wide as their widest cell.
    use super::table::{left, lines, right};
    let mut rows = vec![["clue", "route", "dfa-states", "states", "layered", "vars", "clauses"].map(String::from).to_vec()];
    for c in &stats.clues {
        let numbers = [c.dfa_states, c.states, c.layered_states, c.vars, c.clauses].map(|n| n.to_string());
        rows.push([c.clue.clone(), c.route.clone()].into_iter().chain(numbers).collect());
    }
    let columns = [left(22, 0), left(8, 1), right(10, 1), right(8, 1), right(8, 1), right(7, 1), right(8, 1)];
    for line in lines(&rows, &columns) {
        s.push_str(&format!("stats: {line}\n"));
    }
    s
}
