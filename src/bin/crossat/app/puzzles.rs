//! Commands about puzzles themselves: `dimacs`, `list`, `generate`, `blocks`, `squares`.

use super::input_paths;
use super::solve::status_line;
use crate::cli::{BlocksArgs, DictArgs, DimacsArgs, GenerateArgs, ListArgs, PuzzleFormat, SquaresArgs};
use crate::exit::ExitCode;
use crate::io::{pool_file, read_source, refuse_overwrite, write_file};
use crate::print::Printer;
use crossat::error::{Error, Result};
use crossat::puzzle::{self, Format};
use crossat::records;
use std::sync::atomic::Ordering;

pub(super) fn dimacs_cmd(args: &DimacsArgs, out: &mut Printer<'_>) -> Result<ExitCode> {
    refuse_overwrite(&args.output, &input_paths(&args.puzzle))?;
    // A stopped export prints no partial CNF: the reason goes to standard error.
    super::start(&args.stop, quiet_epilogue("no CNF was written"))?;
    let puzzle = super::open(&args.puzzle)?;
    let cnf = puzzle.to_dimacs()?;
    crate::stop::finish();
    write_file(&args.output, out, |w| w.write_all(cnf.as_bytes()))?;
    Ok(ExitCode::Solved)
}

/// The epilogue of a command whose output is one whole thing (a puzzle, a CNF): a stop
/// prints nothing on standard output, and says why on standard error.
fn quiet_epilogue(text: &'static str) -> crate::stop::Epilogue {
    Box::new(move |reason| {
        eprint!("crossat: {}", crate::stop::summary(false, reason, (), text));
        String::new()
    })
}

pub(super) fn list(args: &ListArgs, out: &mut Printer<'_>, err: &mut Printer<'_>) -> Result<ExitCode> {
    let files = crate::io::puzzle_files(&args.paths)?;
    super::one_stdin(&files.iter().map(|f| Some(f.as_path())).collect::<Vec<_>>())?;
    // A file that cannot be listed is reported and the others are still listed.
    let mut failed = 0;
    for file in &files {
        match list_one(file, args.json, args.dialect, out) {
            Ok(()) => {}
            Err(e @ Error::Output(_)) => return Err(e),
            Err(e) => {
                failed += 1;
                out.flush()?;
                writeln!(err, "error: {}", crate::io::cli_message(&e))?;
            }
        }
    }
    match failed {
        0 => Ok(ExitCode::Solved),
        1 if files.len() == 1 => Ok(ExitCode::BadInput),
        n => Err(Error::Usage(format!("{n} of {} files could not be listed", files.len()))),
    }
}

/// `list` of one file: a line per puzzle of a collection, else a line for the puzzle.
fn list_one(file: &std::path::Path, json: bool, dialect: Option<puzzle::Dialect>, out: &mut Printer<'_>) -> Result<()> {
    let (source, bytes) = read_source(file)?;
    describe(file, &source, &bytes, json, dialect, out).map_err(|e| super::other_command(e, file, &bytes))
}

fn describe(
    file: &std::path::Path,
    source: &str,
    bytes: &[u8],
    json: bool,
    dialect: Option<puzzle::Dialect>,
    out: &mut Printer<'_>,
) -> Result<()> {
    let (source, bytes) = (source.to_string(), bytes);
    let format = puzzle::detect(&source, bytes)?;
    if format == Format::Challenges {
        let entries = puzzle::read_collection(&source, bytes)?;
        if json {
            for e in entries {
                let dialect = dialect.unwrap_or(puzzle::Dialect::Ecmascript).to_string();
                let record = records::CollectionPuzzle { key: e.key, id: e.id, name: e.name, size: e.size, dialect };
                writeln!(out, "{}", crate::print::line(&record))?;
            }
        } else {
            use super::table::{left, lines};
            let rows: Vec<Vec<String>> = entries.into_iter().map(|e| vec![e.key, e.size, e.id, e.name]).collect();
            for line in lines(&rows, &[left(18, 0), left(10, 1), left(0, 1), left(0, 2)]) {
                writeln!(out, "{line}")?;
            }
        }
    } else {
        let pool = pool_file(file, None)?;
        let p = puzzle::read(&source, bytes, Some(format), None, pool.as_ref().map(|(n, b)| (n.as_str(), b.as_slice())))?;
        let size = p.shape.to_string();
        let name = p.name.clone().unwrap_or_default();
        if json {
            // A regex-pool puzzle has entries to fill from a pool, not clues.
            let record = records::PuzzleListing {
                key: source,
                name: p.name,
                size,
                clues: p.pool.is_none().then_some(p.clues.len()),
                dialect: dialect.unwrap_or(p.dialect).to_string(),
                entries: p.pool.as_ref().map(|pool| pool.entries.len()),
                pool: p.pool.as_ref().map(|pool| pool.regexes.len()),
            };
            writeln!(out, "{}", crate::print::line(&record))?;
        } else {
            let clues = match &p.pool {
                Some(pool) => format!("{} entries, pool of {} regexes", pool.entries.len(), pool.regexes.len()),
                None => format!("{} clues", p.clues.len()),
            };
            writeln!(out, "{}", format!("{source}: {size}, {clues}  {name}").trim_end())?;
        }
    }
    Ok(())
}

pub(super) fn generate(args: &GenerateArgs, out: &mut Printer<'_>, err: &mut Printer<'_>) -> Result<ExitCode> {
    use crossat::generate::{self as g, Spec};
    let shape = args.shape.clone().ok_or_else(|| Error::Internal("generate's shape was not checked".into()))?;
    // The seed is chosen here, not inside the generator, so that it can be printed.
    let seed = args.seed.unwrap_or_else(crossat::rng::fresh_seed);
    let spec = Spec {
        shape,
        sides: usize::from(args.sides),
        text: args.text.clone(),
        backrefs: args.backrefs,
        lookarounds: args.lookarounds,
        difficulty: args.difficulty,
        seed,
    };
    let json = args.json;
    // A stopped generate prints no puzzle (on stdout it would be taken for one): the
    // JSON summary with --json, else a line on stderr; a batch keeps the puzzles it
    // printed and says how many.
    let printed = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = printed.clone();
    let text = if args.batch.is_some() { "the batch did not finish" } else { "no unique puzzle was found before that" };
    super::start(
        &crate::cli::StopArgs { timeout: args.timeout, limit: args.limit },
        Box::new(move |reason| {
            let puzzles = count.load(Ordering::SeqCst);
            if json {
                crate::stop::summary(true, reason, records::GenerateStopped { puzzles, seed }, text)
            } else {
                eprint!("crossat: {}", crate::stop::summary(false, reason, (), text));
                String::new()
            }
        }),
    )?;
    let Some(batch) = args.batch else {
        let bar = crate::progress::Progress::counter(!args.quiet, "generating", "uniqueness checks");
        let made = g::generate(&spec, &mut |n| bar.set(n as u64), &crate::stop::token());
        bar.finish();
        let made = made?;
        crate::stop::finish();
        print_generated(args, &spec, &made, out, err)?;
        return Ok(ExitCode::Solved);
    };
    let n = usize::try_from(batch).unwrap_or(usize::MAX);
    let bar = crate::progress::Progress::counter(!args.quiet, "generating", "puzzles");
    let token = crate::stop::token();
    let make = |i: usize| {
        let spec = Spec { seed: seed.wrapping_add(i as u64), ..spec.clone() };
        let made = g::generate(&spec, &mut |_| {}, &token);
        (spec, made)
    };
    crate::jobs::in_order(args.jobs.get(), n, make, |i, (spec, made)| {
        let made = made?;
        crate::stop::record(|| {
            if i + 1 == n {
                crate::stop::finish();
            }
            print_generated(args, &spec, &made, out, err)?;
            out.flush()?;
            let _ = printed.fetch_add(1, Ordering::SeqCst);
            bar.set(i as u64 + 1);
            Ok(())
        })
    })?;
    bar.finish();
    Ok(ExitCode::Solved)
}

/// Prints a generated puzzle as `generate` does (with its seed and the time it took).
fn print_generated(
    args: &GenerateArgs,
    spec: &crossat::generate::Spec,
    made: &crossat::generate::Generated,
    out: &mut Printer<'_>,
    err: &mut Printer<'_>,
) -> Result<()> {
    let seed = spec.seed;
    let record = made.record();
    if args.json {
        writeln!(out, "{}", crate::print::line(&record))?;
    } else {
        match args.output_format {
            PuzzleFormat::Crossat => writeln!(out, "{}", pretty(&record.crossat)),
            // The trux format holds regular hexagons only (`args` refuses the others).
            PuzzleFormat::Trux => write!(out, "{}", record.trux.unwrap_or_default()),
            PuzzleFormat::Challenges => writeln!(out, "{}", pretty(&record.challenges)),
        }?;
        writeln!(
            err,
            "crossat: unique puzzle after {} uniqueness check{}; {}; solution: {}{}",
            made.checks,
            if made.checks == 1 { "" } else { "s" },
            made.rating,
            record.solution.join(" / "),
            // A seed drawn for this run is shown, so that the puzzle can be made again.
            if args.seed.is_none() || args.batch.is_some() {
                format!("; seed {seed} (--seed {seed} makes it again)")
            } else {
                String::new()
            }
        )?;
    }
    Ok(())
}

/// A written puzzle as pretty-printed JSON.
fn pretty(v: &impl serde::Serialize) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn dictionary(args: &DictArgs, err: &mut Printer<'_>, json: bool) -> Result<crossat::puzzle::Dictionary> {
    let dict = match &args.dict {
        Some(p) => crossat::puzzle::Dictionary::from_file(p, args.fold_case, &crate::io::limits())?,
        None => crossat::puzzle::Dictionary::default(),
    };
    if !json {
        writeln!(err, "crossat: dictionary: {} ({} words)", dict.source, dict.words.len())?;
    }
    Ok(dict)
}

pub(super) fn blocks(args: &BlocksArgs, out: &mut Printer<'_>, err: &mut Printer<'_>) -> Result<ExitCode> {
    let (source, bytes) = read_source(&args.file)?;
    let text = puzzle::utf8(&source, &bytes)?;
    let puzzle = crossat::words::Blocks::read(&source, text).map_err(|e| match e {
        // A regex puzzle given to `blocks`: say which command reads it.
        Error::Input(i) if !text.contains("patterns") && puzzle::detect(&source, &bytes).is_ok() => crate::io::input_error(
            &i.source,
            format!("{}; this is a regex puzzle: `crossat solve {}` solves it", i.message, args.file.display()),
        ),
        other => other,
    })?;
    let dict = dictionary(&args.dict, err, args.json)?;
    let limit = if args.all { None } else { Some(2) };
    // Every word is a whole number of blocks, all of one length.
    let block_len = puzzle.blocks[0].chars().count();
    let mut shown = 0;
    let found = super::start_counted(&args.stop, args.json, "solutions", "solution", "found before that; the search did not finish")?;
    let summary = puzzle.solve(&dict, limit, |sol| {
        crate::stop::record(|| {
            if args.json {
                writeln!(out, "{}", crate::print::line(sol))?;
            } else if args.all || shown == 0 {
                if shown > 0 {
                    writeln!(out)?;
                }
                for w in &sol.words {
                    let chars: Vec<char> = w.chars().collect();
                    let parts: Vec<String> = chars.chunks(block_len).map(|c| c.iter().collect()).collect();
                    writeln!(out, "{w:<12} {}", parts.join(" + "))?;
                }
                writeln!(out, "unused: {}", sol.unused.join(" "))?;
            }
            shown += 1;
            out.flush()?;
            let _ = found.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
    })?;
    crate::stop::finish();
    if args.json {
        writeln!(out, "{}", crate::print::line(&summary))?;
    } else {
        writeln!(out, "{}", status_line(summary.solutions, summary.complete, args.all, "blocks"))?;
    }
    Ok(ExitCode::from_found(summary.solutions))
}

pub(super) fn squares(args: &SquaresArgs, out: &mut Printer<'_>, err: &mut Printer<'_>) -> Result<ExitCode> {
    use crate::cli::SquaresMethod;
    use crossat::squares::{self, Given, Progress, Size};
    let started = std::time::Instant::now();
    let size = Size::new(args.width, args.height)?;
    let given = match &args.given {
        None => None,
        Some(p) => {
            let (name, bytes) = read_source(p)?;
            let text = String::from_utf8(bytes).map_err(|_| crate::io::input_error(&name, "invalid UTF-8"))?;
            Some(Given::parse(&name, &text, size)?)
        }
    };
    let dict = dictionary(&args.dict, err, args.json || args.quiet)?;
    let sat = args.prove_none || args.method == SquaresMethod::Sat || args.dimacs.is_some();
    let count = if args.prove_none { 1 } else { args.count as usize };
    let seed = args.seed.unwrap_or_else(crossat::rng::fresh_seed);
    if args.seed.is_none() && !args.json && !args.quiet && args.dimacs.is_none() {
        writeln!(err, "crossat: seed {seed} (--seed {seed} makes the same squares)")?;
    }
    let progress = Progress::default();
    let mut shown = 0;
    let found = super::start_counted(&args.stop, args.json, "solutions", "square", "printed before that")?;
    let method = if sat { squares::Method::Sat } else { squares::Method::Search { tuning: tuning_from_env(), jobs: args.jobs.get() } };
    let request = squares::Request { dict: &dict, size, given: given.as_ref(), seed, count, method };
    if let Some(path) = &args.dimacs {
        let name = path.display().to_string();
        refuse_overwrite(path, &[args.dict.dict.as_deref()])?;
        let formula = with_progress(args.quiet, &progress, size, || squares::dimacs(&request))?;
        write_file(path, out, |w| w.write_all(formula.text.as_bytes()))?;
        writeln!(err, "crossat: wrote {name}: {} variables, {} clauses", formula.variables, formula.clauses)?;
        return Ok(ExitCode::Solved);
    }
    let unicode = !args.ascii && crate::terminal::unicode_locale();
    let mut summary = with_progress(args.quiet, &progress, size, || {
        squares::make(&request, &progress, |sq| -> Result<()> {
            // One record: a stop prints the whole square and counts it, or neither.
            crate::stop::record(|| {
                if args.json {
                    writeln!(out, "{}", crate::print::line(sq))?;
                } else {
                    if shown > 0 {
                        writeln!(out)?;
                    }
                    write!(out, "{}", draw_square(&sq.grid, unicode))?;
                    writeln!(out, "rows:    {}", sq.words[..size.height].join(" "))?;
                    writeln!(out, "columns: {}", sq.words[size.height..].join(" "))?;
                }
                shown += 1;
                out.flush()?;
                let _ = found.fetch_add(1, Ordering::SeqCst);
                Ok(())
            })
        })
    })?;
    crate::stop::finish();
    // The time of the whole command, the dictionary's reading included.
    summary.time_ms = started.elapsed().as_secs_f64() * 1e3;
    if args.json {
        writeln!(out, "{}", crate::print::line(&summary))?;
    } else if summary.solutions == 0 {
        let what = if summary.given_cells == 0 { "no" } else { "no completion of the given cells to a" };
        let how = if sat { "proven by the SAT solver" } else { "the search was exhausted" };
        let usable = summary.usable_words;
        writeln!(out, "{what} {}x{} square exists with this dictionary ({usable} usable words); {how}", size.width, size.height)?;
    } else if summary.complete {
        let n = summary.solutions;
        writeln!(out, "only {n} square{} exist{}; the search was exhausted", if n == 1 { "" } else { "s" }, if n == 1 { "s" } else { "" })?;
    }
    Ok(ExitCode::from_found(summary.solutions))
}

/// A square's rows (two characters a cell, a blank as two spaces) with the cell
/// boundaries drawn in Unicode box drawing, as every other grid crossat draws, or
/// (`unicode` false) in ASCII.
fn draw_square(rows: &[String], unicode: bool) -> String {
    // Corners and joints of the top, middle and bottom rules, the horizontal and the
    // vertical line.
    let (top, mid, bottom, h, v) = if unicode {
        (['┌', '┬', '┐'], ['├', '┼', '┤'], ['└', '┴', '┘'], '─', '│')
    } else {
        (['+'; 3], ['+'; 3], ['+'; 3], '-', '|')
    };
    let w = rows.first().map_or(0, |r| r.chars().count() / 2);
    let rule = |[l, j, r]: [char; 3]| {
        let cell: String = [h, h].iter().collect();
        format!("{l}{}{r}\n", vec![cell; w].join(&j.to_string()))
    };
    let mut s = rule(top);
    for (k, row) in rows.iter().enumerate() {
        if k > 0 {
            s.push_str(&rule(mid));
        }
        s.push(v);
        let chars: Vec<char> = row.chars().collect();
        for cell in chars.chunks(2) {
            s.extend(cell);
            s.push(v);
        }
        s.push('\n');
    }
    s.push_str(&rule(bottom));
    s
}

/// Runs `work` with the shared progress display (see [`crate::progress`]) showing the
/// counters of `progress`: on standard error when it is a terminal, never with `-q`.
fn with_progress<T>(quiet: bool, progress: &crossat::squares::Progress, size: crossat::squares::Size, work: impl FnOnce() -> T) -> T {
    use std::sync::atomic::Ordering::Relaxed;
    use std::sync::mpsc::RecvTimeoutError;
    use std::time::Duration;
    let bar = crate::progress::Progress::status(!quiet, &format!("{}x{} squares", size.width, size.height));
    if !crate::progress::wanted(!quiet) {
        return work();
    }
    let status = || {
        let clauses = progress.clauses.load(Relaxed);
        let stage = if !progress.started.load(Relaxed) {
            "compiling the dictionary".to_string()
        } else if clauses > 0 {
            format!("SAT solver ({clauses} clauses), {} repeated words blocked", progress.repeats.load(Relaxed))
        } else {
            format!("searching, {} nodes, {} restarts", progress.nodes.load(Relaxed), progress.restarts.load(Relaxed))
        };
        format!("{stage}, {} found", progress.found.load(Relaxed))
    };
    let (done, wait) = std::sync::mpsc::channel::<()>();
    let r = std::thread::scope(|s| {
        let bar = &bar;
        let _ = s.spawn(move || {
            bar.message(&status());
            while matches!(wait.recv_timeout(Duration::from_millis(100)), Err(RecvTimeoutError::Timeout)) {
                bar.message(&status());
            }
        });
        let r = work();
        drop(done);
        r
    });
    bar.finish();
    r
}

/// The search's default tuning, with fields overridden by `CROSSAT_SQUARES_TUNING`
/// (`restart_base,greed,fewest_first,wake,wdeg,subset_share`, empty fields kept; for
/// measurements).
fn tuning_from_env() -> crossat::squares::Tuning {
    let mut t = crossat::squares::Tuning::default();
    if let Ok(v) = std::env::var("CROSSAT_SQUARES_TUNING") {
        let f: Vec<&str> = v.split(',').collect();
        if let Some(x) = f.first().and_then(|x| x.parse().ok()) {
            t.restart_base = x;
        }
        if let Some(x) = f.get(1).and_then(|x| x.parse().ok()) {
            t.greed = x;
        }
        if let Some(x) = f.get(2).and_then(|x| x.parse().ok()) {
            t.fewest_first = x;
        }
        if let Some(x) = f.get(3).and_then(|x| x.parse().ok()) {
            t.wake = x;
        }
        if let Some(x) = f.get(4).and_then(|x| x.parse().ok()) {
            t.wdeg = x;
        }
        if let Some(x) = f.get(5).and_then(|x| x.parse().ok()) {
            t.subset_share = x;
        }
    }
    t
}
