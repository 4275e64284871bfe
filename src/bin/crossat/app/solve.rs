//! `solve`: solutions, the uniqueness verdict, the ambiguity report, proofs, models, stats.

use super::input_paths;
use crate::cli::SolveArgs;
use crate::exit::ExitCode;
use crate::io::{read_source, refuse_overwrite, write_file};
use crate::print::Printer;
use crate::print::io_reason;
use crossat::dimacs::{self, External};
use crossat::emit;
use crossat::encode::ClauseSink;
use crossat::error::{Error, Result};
use crossat::pipeline::{self, Prepared};
use crossat::records::{self, Uniqueness};
use crossat::solve::{self, Outcome};
use crossat::stats::{Stage, ms};
use crossat::verify;
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
    let mut prep = super::prepare(&args.puzzle)?;
    if let Some(nodes) = args.line_search_nodes {
        prep.set_line_budget(nodes);
    }
    if let Some(model) = &args.model {
        crate::stop::finish();
        return solve_model(&prep, model, args, out, err);
    }
    if args.count {
        return count(&mut prep, args, out);
    }
    crate::stop::arm(solve_epilogue(args.json, found.clone(), prep.puzzle.name.clone(), Some(emit::alphabet_text(&prep))));
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
    // For the ambiguity report: the values each cell takes across the solutions, and
    // the first solution (for --proof).
    let mut values: Vec<std::collections::BTreeSet<char>> = vec![Default::default(); prep.puzzle.givens.len()];
    let mut first: Option<verify::Grid> = None;
    // Threads for a listing (a uniqueness check is a search for two: one thread).
    let jobs = if args.all || args.limit.is_some() { args.jobs.get() } else { 1 };
    let listing = pipeline::Listing { limit: search_limit, jobs, sorted: args.sorted };
    let outcome = pipeline::solve_listing(&mut prep, listing, |puzzle, grid| {
        for (set, &ch) in values.iter_mut().zip(&grid.cells) {
            let _ = set.insert(ch);
        }
        first.get_or_insert_with(|| grid.clone());
        // One record: a stop prints the whole solution and counts it, or neither.
        crate::stop::record(|| {
            if json {
                writeln!(out, "{}", records::line(&emit::solution(puzzle, grid)))?;
            } else if shown < show {
                if shown > 0 {
                    writeln!(out)?;
                }
                write!(out, "{}", sketch.draw(puzzle, &crate::draw::View::solution(puzzle, grid)))?;
            }
            shown += 1;
            bar.inc(1);
            out.flush()?;
            let _ = found.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
    })?;
    bar.finish();
    // Not unique: how many solutions, when counting them is cheap (text only; the
    // stop armed for the search still holds).
    let listing = args.all || args.limit.is_some();
    let cheap_count =
        if !json && !listing && !outcome.complete && outcome.found >= 2 { pipeline::count_within(&mut prep, CHEAP_COUNT)? } else { None };
    // The stats give the formula's size, also when propagation decided the puzzle
    // without it: then it is built now, and its time counted as encoding.
    let searched = prep.encoded();
    if args.stats {
        let _ = prep.encode()?;
    }
    let unique = emit::unique(outcome);
    let ambiguous: Vec<usize> = (0..values.len()).filter(|&c| values[c].len() > 1).collect();
    let proof = match (&args.proof, &first) {
        (Some(path), Some(grid)) if unique.is_unique() => Some(write_proof(&prep, grid, path, args, out)?),
        _ => None,
    };
    // The stats rate the puzzle's difficulty (line propagation and probing), which can
    // take long on a large grid: done while a stop can still end the command.
    let (stats_value, stats_lines) = (args.stats && json, args.stats && !json);
    // What the search showed of the solutions, for the rating's one rule (`knowing`).
    let known = (outcome.complete || outcome.found >= 2).then_some(outcome.found);
    let (stats_value, stats_lines) =
        (stats_value.then(|| stats_json(&prep, searched, known)), stats_lines.then(|| stats_text(&prep, searched, known)));
    crate::stop::finish();
    if json {
        let mut summary = emit::solve_summary(&prep, outcome, &values);
        // Asked for but with no uniqueness to prove: `"proof": null`.
        summary.proof = args.proof.as_ref().map(|_| proof.clone());
        summary.stats = stats_value;
        writeln!(out, "{}", records::line(&summary))?;
    } else {
        let status = match &cheap_count {
            Some(n) => format!("not unique: {n} solutions (crossat solve --all lists them)"),
            None => status_line(outcome, args.all || args.limit.is_some(), "solve"),
        };
        writeln!(out, "{status}")?;
        if !ambiguous.is_empty() {
            let n = if outcome.complete { format!("all {}", outcome.found) } else { format!("the {} found", outcome.found) };
            writeln!(out, "cells that differ between {n} solutions:")?;
            for &c in &ambiguous {
                let vals: Vec<String> = values[c].iter().map(|ch| format!("'{ch}'")).collect();
                writeln!(out, "  {} {}", prep.puzzle.shape.cell_name(c), vals.join(" "))?;
            }
            writeln!(out, "clues through them: {}", emit::ambiguous_clues(&prep, &values).join(", "))?;
        }
        if let Some(p) = &proof {
            writeln!(out, "proof of uniqueness written to {p}")?;
        }
        if let Some(stats) = &stats_lines {
            write!(err, "{stats}")?;
        }
    }
    if args.unique && !unique.is_unique() {
        if !json {
            writeln!(
                err,
                "crossat: --unique: the puzzle {}{}",
                if outcome.found == 0 { "has no solution" } else { "has more than one solution" },
                if args.proof.is_some() { "; no proof written" } else { "" }
            )?;
        }
        return Ok(ExitCode::NoSolution);
    }
    // The process ends next and its memory goes back whole: freeing the automata and
    // the formula piece by piece would cost more than a small puzzle's propagation.
    std::mem::forget(prep);
    Ok(ExitCode::from_found(outcome.found))
}

/// Writes a proof that the CNF with `grid` blocked is unsatisfiable (and, if asked,
/// that formula in DIMACS); returns the proof's path.
fn write_proof(prep: &Prepared, grid: &verify::Grid, path: &Path, args: &SolveArgs, out: &mut Printer<'_>) -> Result<String> {
    let name = path.display().to_string();
    pipeline::require_exact(prep, "a proof of uniqueness")?;
    let symbols: Vec<usize> = grid.cells.iter().map(|&ch| prep.alphabet().index(ch).unwrap_or(0)).collect();
    let f = prep.formula()?;
    let block = solve::blocking_clause(&f.vars, &symbols);
    let file = std::fs::File::create(path).map_err(|e| Error::output(name.as_str(), format!("cannot create file: {}", io_reason(&e))))?;
    let proved = solve::prove_unsat(&f.cnf, std::slice::from_ref(&block), std::io::BufWriter::new(file), args.proof_format).map_err(
        |e| match e {
            Error::Output(e) => Error::output(name.as_str(), e.message),
            other => other,
        },
    )?;
    if !proved {
        return Err(Error::Internal("the proof run found a second solution that the search did not".into()));
    }
    if let Some(cnf_path) = &args.proof_cnf {
        let mut with_block = f.cnf.clone();
        with_block.add_clause(&block);
        write_file(cnf_path, out, |mut w| dimacs::write(&mut w, &prep.puzzle, prep.alphabet(), &with_block, &f.vars))?;
    }
    Ok(name)
}

/// `solve --count`: the exact number of solutions, without listing them. JSON gives
/// the count as a number up to 2^53 (exact in every JSON reader) and as a string of
/// digits beyond.
fn count(prep: &mut Prepared, args: &SolveArgs, out: &mut Printer<'_>) -> Result<ExitCode> {
    let (puzzle, alphabet) = (prep.puzzle.name.clone(), Some(emit::alphabet_text(prep)));
    let json = args.json;
    crate::stop::arm(Box::new(move |reason| {
        let base = emit::stopped_count_summary(puzzle.clone(), alphabet.clone());
        crate::stop::summary(json, reason, base, "the count did not finish; no number is given")
    }));
    // On a terminal, the counting search's parts done of those found so far.
    let bar = crate::progress::Progress::status(!args.quiet && !json, "counting");
    bar.message("starting");
    let counted = pipeline::count_reporting(prep, args.jobs.get(), &mut |done, total| bar.message(&format!("{done}/{total} parts")))?;
    bar.finish();
    crate::stop::finish();
    let n = &counted.count;
    if json {
        let mut summary = emit::count_summary(prep, &counted);
        if args.stats {
            summary.stats = Some(stats_json(prep, prep.encoded(), Some(n.to_u64().map_or(2, |n| n.min(2) as usize))));
        }
        writeln!(out, "{}", records::line(&summary))?;
    } else {
        let how = if counted.listed { "counted by listing them" } else { "exact count" };
        let line = match n.to_u64() {
            Some(0) => format!("no solution ({how})"),
            Some(1) => format!("1 solution: unique ({how})"),
            _ => format!("{n} solutions ({how})"),
        };
        writeln!(out, "{line}")?;
    }
    Ok(if n.is_zero() { ExitCode::NoSolution } else { ExitCode::Solved })
}

/// Most decisions of the counting search behind "not unique: N solutions" (a few
/// milliseconds); past it the status line says only that another solution exists.
const CHEAP_COUNT: usize = 2_000;

/// What a stopped `solve` prints: how many solutions it found, never a verdict.
fn solve_epilogue(json: bool, found: Arc<AtomicUsize>, puzzle: Option<String>, alphabet: Option<String>) -> crate::stop::Epilogue {
    Box::new(move |reason| {
        let n = found.load(Ordering::SeqCst);
        let base = emit::stopped_solve_summary(puzzle.clone(), alphabet.clone(), n);
        let text = match n {
            0 => "no solution found before that; the search did not finish".to_string(),
            1 => "1 solution found before that; the search did not finish (uniqueness not decided)".to_string(),
            n => format!("{n} solutions found before that; the search did not finish"),
        };
        crate::stop::summary(json, reason, base, &text)
    })
}

pub(super) fn status_line(o: Outcome, listing: bool, cmd: &str) -> String {
    let plural = |n: usize| if n == 1 { "solution" } else { "solutions" };
    match (o.found, o.complete, listing) {
        (0, _, _) => "no solution (search exhausted)".into(),
        (1, true, _) => "unique: no other solution exists (search exhausted)".into(),
        (_, false, false) => format!("not unique: another solution exists (crossat {cmd} --all lists them)"),
        (n, true, _) => format!("{n} {}; search exhausted", plural(n)),
        (n, false, true) => format!("{n} {} shown; limit reached, there may be more", plural(n)),
    }
}

fn solve_model(prep: &Prepared, path: &Path, args: &SolveArgs, out: &mut Printer<'_>, err: &mut Printer<'_>) -> Result<ExitCode> {
    let json = args.json;
    let (name, bytes) = read_source(path)?;
    let text = crossat::puzzle::utf8(&name, &bytes)?;
    let External::Grid { grid, highest, variables } = dimacs::read_external(prep, &name, text)? else {
        if json {
            writeln!(out, "{}", records::line(&model_summary(prep, 0, true)))?;
        } else {
            writeln!(out, "no solution (the external solver reports UNSATISFIABLE)")?;
        }
        return Ok(ExitCode::NoSolution);
    };
    // A model of another formula may still satisfy this one; its size says so.
    if highest > variables && !args.quiet {
        writeln!(
            err,
            "note: {name} sets variables up to {highest}, but this puzzle's CNF has {variables}; the others are ignored (was it solved from `crossat dimacs` of the same puzzle and options?)"
        )?;
    }
    if json {
        writeln!(out, "{}", records::line(&emit::solution(&prep.puzzle, &grid)))?;
        writeln!(out, "{}", records::line(&model_summary(prep, 1, false)))?;
    } else {
        let view = crate::draw::View::solution(&prep.puzzle, &grid);
        write!(out, "{}", crate::draw::draw(&prep.puzzle, &view, args.draw.options()))?;
        writeln!(out, "verified: the model's grid matches every clue")?;
    }
    Ok(ExitCode::Solved)
}

/// The summary of `solve --model`: a model's grid is no verdict on uniqueness.
fn model_summary(prep: &Prepared, solutions: usize, complete: bool) -> records::SolveSummary {
    records::SolveSummary {
        solutions,
        complete,
        unique: Uniqueness::Undecided,
        source: Some("model".into()),
        puzzle: prep.puzzle.name.clone(),
        alphabet: emit::alphabet_text(prep),
        dialect: None,
        ambiguous_cells: None,
        ambiguous_clues: None,
        proof: None,
        stats: None,
    }
}

fn stats_json(prep: &Prepared, searched: bool, known: Option<usize>) -> records::Stats {
    let f = prep.formula().expect("the formula is built before the stats");
    let compiled = prep.compiled().expect("the automata are compiled before the formula");
    let clues = prep
        .puzzle
        .clues
        .iter()
        .zip(&f.vars.clue_sizes)
        .zip(&compiled.clues)
        .map(|((c, s), cc)| records::ClueStats {
            clue: c.label.clone(),
            route: cc.route.name().to_string(),
            dfa_states: cc.raw_states,
            states: s.states,
            layered_states: s.layered_states,
            vars: s.vars,
            clauses: s.clauses,
        })
        .collect();
    use crossat::encode::ClauseSink;
    records::Stats {
        times: records::StageTimes::from_fn(|s| ms(prep.times.get(s))),
        total_ms: ms(prep.times.total()),
        wall_ms: ms(prep.times.wall()),
        variables: f.cnf.num_vars(),
        clauses: f.cnf.num_clauses(),
        searched,
        decided_before_compiling: prep.decided_before_compiling(),
        line_search_nodes: prep.line_nodes(),
        difficulty: crossat::pipeline::rate(&prep.puzzle, compiled).knowing(known),
        clues,
    }
}

fn stats_text(prep: &Prepared, searched: bool, known: Option<usize>) -> String {
    let f = prep.formula().expect("the formula is built before the stats");
    let compiled = prep.compiled().expect("the automata are compiled before the formula");
    use crossat::encode::ClauseSink;
    let mut s = String::from("stats:");
    for stage in Stage::ALL {
        s.push_str(&format!(" {} {:.3} ms,", stage.name(), ms(prep.times.get(stage))));
    }
    s.push_str(&format!(" sum {:.3} ms, wall {:.3} ms\n", ms(prep.times.total()), ms(prep.times.wall())));
    s.push_str(&format!(
        "stats: {} cells, alphabet of {} symbols, {} variables, {} clauses\n",
        prep.puzzle.givens.len(),
        prep.alphabet().len(),
        f.cnf.num_vars(),
        f.cnf.num_clauses()
    ));
    match prep.line_nodes() {
        Some(nodes) => s.push_str(&format!(
            "stats: the line search decided the puzzle in {nodes} nodes: no SAT search (the formula above was built for these stats only)\n"
        )),
        None if !searched && prep.decided_before_compiling() => s.push_str(
            "stats: line propagation over the clues' position automata decided the puzzle: nothing compiled, no SAT search (the automata and the formula above were built for these stats only)\n",
        ),
        None if !searched => {
            s.push_str("stats: line propagation decided the puzzle: no SAT search (the formula above was built for these stats only)\n")
        }
        None => {}
    }
    s.push_str(&format!("stats: difficulty {}\n", crossat::pipeline::rate(&prep.puzzle, compiled).knowing(known).describe()));
    // The clue table, its columns as wide as their widest cell.
    use super::table::{left, lines, right};
    let mut rows = vec![["clue", "route", "dfa-states", "states", "layered", "vars", "clauses"].map(String::from).to_vec()];
    for ((c, z), cc) in prep.puzzle.clues.iter().zip(&f.vars.clue_sizes).zip(&compiled.clues) {
        let numbers = [cc.raw_states, z.states, z.layered_states, z.vars, z.clauses].map(|n| n.to_string());
        rows.push([c.label.clone(), cc.route.name().to_string()].into_iter().chain(numbers).collect());
    }
    let columns = [left(22, 0), left(8, 1), right(10, 1), right(8, 1), right(8, 1), right(7, 1), right(8, 1)];
    for line in lines(&rows, &columns) {
        s.push_str(&format!("stats: {line}\n"));
    }
    s
}
