//! `crossat bench`: solve and prove uniqueness for every puzzle of folders or files,
//! several times each, and report median times per stage. A measurement, not a test.

use crate::cli::BenchArgs;
use crate::exit::ExitCode;
use crate::io::read_source;
use crate::print::Printer;
use crossat::error::{Error, Result};
use crossat::puzzle::Input;
use crossat::puzzle::{self, Format, Puzzle};
use crossat::records::{self, StageTimes};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Runs the benchmark; [`ExitCode::Internal`] when some puzzle hit an internal error.
pub fn run(args: &BenchArgs, out: &mut Printer<'_>) -> Result<ExitCode> {
    let repeat = usize::try_from(args.repeat).unwrap_or(usize::MAX);
    let mut totals = Times::default();
    let (mut solved, mut skipped) = (0, 0);
    // Internal if any puzzle hit an internal error (a bug), else Solved.
    let mut worst = ExitCode::Solved;
    let (inputs, unreadable) = inputs(&args.paths)?;
    for (file, e) in &unreadable {
        // The file is in the first column: the reason without it.
        let reason = match e {
            Error::Input(i) => i.message.clone(),
            other => other.to_string(),
        };
        if args.json {
            writeln!(out, "{}", crate::print::line(&records::Unreadable { file: file.clone(), reason }))?;
        } else {
            writeln!(out, "{file:<44} not read: {reason}")?;
        }
    }
    if inputs.is_empty() {
        let what = if unreadable.is_empty() { "no puzzle file found under" } else { "no puzzle could be read from" };
        let paths: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        return Err(Error::Usage(format!("{what} {}", paths.join(" "))));
    }
    if !args.json {
        writeln!(
            out,
            "{:<44} {:>4} {:>6} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
            "puzzle (times in ms)", "sols", "unique", "parse", "compile", "encode", "solve", "verify", "sum", "wall"
        )?;
    }
    let timeout = args.limit;
    let done = Arc::new(AtomicUsize::new(0));
    let count = done.clone();
    let json = args.json;
    crate::stop::arm(Box::new(move |reason| {
        let n = count.load(Ordering::SeqCst);
        let noun = if n == 1 { "puzzle" } else { "puzzles" };
        crate::stop::summary(json, reason, records::Printed { key: "puzzles", n }, &format!("{n} {noun} measured before that"))
    }));
    let bar = crate::progress::Progress::bar(!args.quiet, "bench", inputs.len() as u64);
    // Each puzzle's runs, on the `--jobs` threads; the lines in the puzzles' order.
    let measure = |i: usize| {
        let input = &inputs[i].1;
        let mut runs = Vec::with_capacity(repeat);
        for _ in 0..repeat {
            match input.as_ref().map_err(clone_err).and_then(|item| run_one(item, timeout)) {
                Ok(run) => runs.push(run),
                Err(e) => return Err(e),
            }
        }
        Ok(runs)
    };
    crate::jobs::in_order(args.jobs.get(), inputs.len(), measure, |i, measured| {
        let label = &inputs[i].0;
        bar.message(label);
        bar.inc(1);
        let runs = match measured {
            Ok(runs) => runs,
            Err(e) => {
                skipped += 1;
                if matches!(e, Error::Internal(_)) {
                    worst = ExitCode::Internal;
                }
                if args.json {
                    let record = records::Skipped { puzzle: label.clone(), reason: e.to_string() };
                    writeln!(out, "{}", crate::print::line(&record))?;
                } else {
                    writeln!(out, "{label:<44} skipped: {e}")?;
                }
                return Ok(());
            }
        };
        let Some(&(found, complete, _)) = runs.last() else { return Ok(()) };
        let runs: Vec<Times> = runs.into_iter().map(|(_, _, t)| t).collect();
        solved += 1;
        let _ = done.fetch_add(1, Ordering::SeqCst);
        let med = median(&runs);
        totals.add(&med);
        let unique = complete && found == 1;
        if args.json {
            let record = records::BenchPuzzle {
                puzzle: label.clone(),
                solutions: found,
                complete,
                unique,
                median: med.record(),
                total_ms: med.total(),
                wall_ms: med.wall,
            };
            writeln!(out, "{}", crate::print::line(&record))?;
        } else {
            let mut line = format!("{label:<44} {:>4} {:>6}", found, if unique { "yes" } else { "no" });
            for ms in med.stages {
                line.push_str(&format!(" {ms:>8.3}"));
            }
            line.push_str(&format!(" {:>8.3} {:>8.3}", med.total(), med.wall));
            writeln!(out, "{line}")?;
        }
        Ok(())
    })?;
    crate::stop::finish();
    if args.json {
        let record = records::BenchSummary {
            puzzles: solved,
            skipped,
            unreadable: unreadable.len(),
            repeat,
            sum_of_medians: totals.record(),
            total_ms: totals.total(),
            wall_ms: totals.wall,
        };
        writeln!(out, "{}", crate::print::line(&record))?;
    } else {
        let plural = |n: usize, noun: &str| format!("{n} {noun}{}", if n == 1 { "" } else { "s" });
        let mut total = format!("TOTAL ({}, {skipped} skipped", plural(solved, "puzzle"));
        if !unreadable.is_empty() {
            total.push_str(&format!(", {} not read", plural(unreadable.len(), "file")));
        }
        let mut line = format!("{:<44} {:>11}", format!("{total}; median of {repeat})"), "");
        for ms in totals.stages {
            line.push_str(&format!(" {ms:>8.3}"));
        }
        line.push_str(&format!(" {:>8.3} {:>8.3}", totals.total(), totals.wall));
        writeln!(out, "{line}")?;
    }
    Ok(worst)
}

/// A puzzle to measure: a file, or a puzzle of a collection already read.
#[derive(Clone)]
enum Item {
    Input(Box<Input>),
    Parsed { source: String, puzzle: Box<Puzzle> },
}

/// Bench worker threads still running (see [`run_one`]).
static WORKERS: AtomicUsize = AtomicUsize::new(0);

/// Prepares and solves one puzzle (up to two solutions). With a timeout, the run
/// happens on a worker thread; when the time is up its cancel token is cancelled, so
/// that it stops at its next poll (before each clue it compiles or encodes, before each
/// SAT call: [`crossat::stop::Cancel`]), and its result is dropped. varisat cannot be
/// interrupted inside one SAT call, which the worker finishes first.
fn run_one(input: &Item, timeout: Option<Duration>) -> Result<(usize, bool, Times)> {
    let once = |item: &Item, cancel: &crossat::stop::Cancel| {
        let prepared = match item {
            Item::Input(input) => crossat::Puzzle::from_input(&Input { cancel: cancel.clone(), ..(**input).clone() }),
            Item::Parsed { source, puzzle } => crossat::Puzzle::from_parsed(source, (**puzzle).clone(), None, cancel),
        };
        prepared.and_then(|mut p| {
            let found = p.solutions(2)?;
            Ok((found.solutions.len(), found.complete, Times::of(&p)))
        })
    };
    let Some(limit) = timeout else { return once(input, &crossat::stop::Cancel::never()) };
    let (tx, rx) = std::sync::mpsc::channel();
    let input = input.clone();
    let cancel = crossat::stop::Cancel::new();
    let token = cancel.clone();
    let _ = WORKERS.fetch_add(1, Ordering::SeqCst);
    let started = std::thread::Builder::new().name("crossat-bench".into()).spawn(move || {
        struct Done;
        impl Drop for Done {
            fn drop(&mut self) {
                let _ = WORKERS.fetch_sub(1, Ordering::SeqCst);
            }
        }
        let _done = Done;
        let _ = tx.send(once(&input, &token));
    });
    if let Err(e) = started {
        let _ = WORKERS.fetch_sub(1, Ordering::SeqCst);
        return Err(Error::Internal(format!("cannot start a thread: {e}")));
    }
    rx.recv_timeout(limit).unwrap_or_else(|_| {
        cancel.cancel();
        Err(Error::Usage(format!("timeout: not solved within {} s", limit.as_secs_f64())))
    })
}

fn clone_err(e: &Error) -> Error {
    match e {
        Error::Internal(m) => Error::Internal(m.clone()),
        other => Error::Usage(other.to_string()),
    }
}

/// A run's milliseconds per stage (parse, compile, encode, solve, verify) and wall-clock.
#[derive(Clone, Copy, Debug, Default)]
struct Times {
    stages: [f64; 5],
    wall: f64,
}

impl Times {
    /// The times `puzzle` took so far.
    fn of(puzzle: &crossat::Puzzle) -> Times {
        let t = puzzle.times();
        Times { stages: [t.parse_ms, t.compile_ms, t.encode_ms, t.solve_ms, t.verify_ms], wall: puzzle.wall_ms() }
    }

    /// Adds `other`'s times to these.
    fn add(&mut self, other: &Times) {
        for (a, b) in self.stages.iter_mut().zip(other.stages) {
            *a += b;
        }
        self.wall += other.wall;
    }

    /// The sum of the stages.
    fn total(&self) -> f64 {
        self.stages.iter().sum()
    }

    /// The stages as a record.
    fn record(&self) -> StageTimes {
        let [parse_ms, compile_ms, encode_ms, solve_ms, verify_ms] = self.stages;
        StageTimes { parse_ms, compile_ms, encode_ms, solve_ms, verify_ms }
    }
}

/// Per-stage medians over runs.
fn median(runs: &[Times]) -> Times {
    let mid = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mut m = Times::default();
    for (k, stage) in m.stages.iter_mut().enumerate() {
        *stage = mid(runs.iter().map(|t| t.stages[k]).collect());
    }
    m.wall = mid(runs.iter().map(|t| t.wall).collect());
    m
}

/// The puzzles to measure, each with its label, and the files that could not be read.
type Inputs = (Vec<(String, Result<Item>)>, Vec<(String, Error)>);

/// Every puzzle under the paths: folders are listed (sorted), collections expanded;
/// files in folders not named like puzzles (expected outputs, licences, notes) are
/// passed over. The files that cannot be read as puzzles come second, with the reason.
fn inputs(paths: &[PathBuf]) -> Result<Inputs> {
    if let Some(p) = paths.iter().find(|p| p.as_os_str() != "-" && !p.exists()) {
        return Err(crate::io::input_error(&p.display().to_string(), "no such file or folder"));
    }
    let (mut out, mut unreadable) = (Vec::new(), Vec::new());
    for f in crate::io::puzzle_files(&with_subfolders(paths))? {
        let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| f.display().to_string());
        let read = read_source(&f).and_then(|(source, bytes)| puzzle::detect(&source, &bytes).map(|format| (source, bytes, format)));
        let (source, bytes, format) = match read {
            Ok(r) => r,
            Err(e) => {
                unreadable.push((f.display().to_string(), e));
                continue;
            }
        };
        let pool = crate::io::pool_file(&f, None)?;
        if format == Format::Challenges {
            // Read the collection once, not once per puzzle (which was quadratic).
            for e in puzzle::read_collection(&source, &bytes)? {
                let item = e.puzzle.map(|puzzle| Item::Parsed { source: source.clone(), puzzle: Box::new(puzzle) });
                out.push((format!("{name}:{}", e.key), item));
            }
        } else {
            out.push((name, Ok(Item::Input(Box::new(Input { source, bytes, format: Some(format), pool, ..Input::default() })))));
        }
    }
    Ok((out, unreadable))
}

/// The paths with every folder's subfolders after it, depth first and sorted: a bench
/// of `puzzles/` measures every collection under it.
fn with_subfolders(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for p in paths {
        all.push(p.clone());
        if p.is_dir() {
            let mut subs: Vec<PathBuf> =
                std::fs::read_dir(p).into_iter().flatten().filter_map(|e| e.ok().map(|e| e.path())).filter(|s| s.is_dir()).collect();
            subs.sort();
            all.extend(with_subfolders(&subs));
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// A puzzle whose search is the counterexample loop: its clue (a back-reference
    /// that a negative lookahead contradicts) has no match, but its CNF admits every
    /// line, so the loop rejects grid after grid, one SAT call each, up to its limit.
    fn hostile() -> Item {
        let json = serde_json::json!({"left": [r"(.)(?!\1)\1.*"], "top": vec!["."; 6], "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"});
        Item::Input(Box::new(Input { source: "hostile.json".into(), bytes: json.to_string().into_bytes(), ..Input::default() }))
    }

    fn workers_gone_within(d: Duration) -> bool {
        let start = Instant::now();
        while WORKERS.load(Ordering::SeqCst) > 0 {
            if start.elapsed() > d {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        true
    }

    #[test]
    fn a_timed_out_puzzle_stops_working() {
        // Uncancelled, the loop runs to its limit and fails naming the clue.
        let whole = run_one(&hostile(), Some(Duration::from_secs(600)));
        assert!(matches!(&whole, Err(Error::Clue(e)) if e.to_string().contains("counterexample loop")), "{:?}", whole.err());
        assert!(workers_gone_within(Duration::from_secs(60)));
        // With a timeout, the run reports the timeout and its worker is told to stop
        // (how much sooner than the whole run it stops is a measurement:
        // `timeout_stops_the_worker_early`, a benchmark).
        let cut = run_one(&hostile(), Some(Duration::from_millis(10)));
        assert!(matches!(&cut, Err(Error::Usage(m)) if m.contains("timeout")), "{:?}", cut.err());
        assert!(workers_gone_within(Duration::from_secs(60)), "the abandoned worker kept running");
    }

    /// A benchmark, not a test of `cargo test`: paired runs (whole, then with a timeout
    /// of a twentieth of it), repeated; the medians of both and of the time the
    /// abandoned worker took to stop. Run with
    /// `cargo test --bin crossat timeout_stops_the_worker_early -- --ignored --nocapture`.
    #[test]
    #[ignore = "a benchmark: timings of paired runs"]
    fn timeout_stops_the_worker_early() {
        let median = |mut v: Vec<Duration>| {
            v.sort();
            v[v.len() / 2]
        };
        let (mut wholes, mut cuts) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            let start = Instant::now();
            let _ = run_one(&hostile(), Some(Duration::from_secs(600)));
            let full = start.elapsed();
            assert!(workers_gone_within(Duration::from_secs(60)));
            let start = Instant::now();
            let _ = run_one(&hostile(), Some(full / 20));
            assert!(workers_gone_within(full));
            wholes.push(full);
            cuts.push(start.elapsed());
        }
        let (whole, cut) = (median(wholes), median(cuts));
        eprintln!("timeout benchmark: whole run {whole:?}, with a timeout of a twentieth until its worker stopped {cut:?} (medians of 5)");
    }
}
