//! Turns parsed arguments into pipeline calls and output. No solving logic lives here:
//! each submodule handles a group of commands.

mod assist;
mod explain;
mod lint;
mod puzzles;
mod solve;
mod table;

use crate::cli::{Cli, Command, PuzzleArgs};
use crate::exit::ExitCode;
use crate::io::{pool_file, read_source};
use crate::print::Printer;
use crossat::error::{Error, Result};
use crossat::puzzle;
use crossat::puzzle::Input;
use std::path::Path;

/// Runs one command; returns its exit status (errors map to theirs in `main`).
pub fn run(mut cli: Cli, out: &mut Printer<'_>, err: &mut Printer<'_>) -> Result<ExitCode> {
    crate::args::check(&mut cli)?;
    crate::io::set_limits(crossat::limits::Limits::default().with_max_input_bytes(cli.max_input_bytes));
    match cli.command {
        Command::Solve(args) => solve::solve(&args, out, err),
        Command::Dimacs(args) => puzzles::dimacs_cmd(&args, out),
        Command::List(args) => puzzles::list(&args, out, err),
        Command::Check(args) => assist::check(&args, out),
        Command::Hint(args) => assist::hint(&args, out),
        Command::Explain(args) => explain::explain(&args, out),
        Command::Lint(args) => lint::lint(&args, out),
        Command::Generate(args) => puzzles::generate(&args, out, err),
        Command::Blocks(args) => puzzles::blocks(&args, out, err),
        Command::Squares(args) => puzzles::squares(&args, out, err),
        Command::Bench(args) => crate::bench::run(&args, out),
        Command::Completions(args) => {
            crate::manual::completions(args.shell, out.raw());
            Ok(ExitCode::Solved)
        }
        Command::Man => {
            crate::manual::man(out)?;
            Ok(ExitCode::Solved)
        }
    }
}

/// Arms the orderly stop with `epilogue` (see [`crate::stop`]), then starts the
/// `--timeout` clock.
pub(crate) fn start(args: &crate::cli::StopArgs, epilogue: crate::stop::Epilogue) -> Result<()> {
    crate::stop::arm(epilogue);
    crate::stop::set_timeout(args.limit);
    Ok(())
}

/// [`start`] for a command that prints results as it goes: the returned counter is
/// bumped per result printed, and a stop reports it as `"{key}": n` in the summary and
/// as "n {noun}s {tail}" in text.
pub(crate) fn start_counted(
    args: &crate::cli::StopArgs,
    json: bool,
    key: &'static str,
    noun: &'static str,
    tail: &'static str,
) -> Result<std::sync::Arc<std::sync::atomic::AtomicUsize>> {
    let counter = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = counter.clone();
    start(
        args,
        Box::new(move |reason| {
            let n = count.load(std::sync::atomic::Ordering::SeqCst);
            let text = format!("{n} {noun}{} {tail}", if n == 1 { "" } else { "s" });
            crate::stop::summary(json, reason, crossat::records::Printed { key, n }, &text)
        }),
    )?;
    Ok(counter)
}

/// The epilogue of a command that prints nothing partial: the summary only.
pub(crate) fn plain_epilogue<T: serde::Serialize + Send + 'static>(json: bool, base: T, text: &'static str) -> crate::stop::Epilogue {
    Box::new(move |reason| crate::stop::summary(json, reason, &base, text))
}

/// Refuses to read standard input twice (`check - -`): the second read would be empty.
pub(crate) fn one_stdin(paths: &[Option<&Path>]) -> Result<()> {
    if paths.iter().flatten().filter(|p| p.as_os_str() == "-").count() > 1 {
        return Err(Error::Usage("standard input (`-`) can be read only once: give the other inputs as files".into()));
    }
    Ok(())
}

/// Reads the puzzle the arguments name, ready to solve ([`crossat::Puzzle::from_input`]);
/// a file that is another command's input says which command reads it.
pub(crate) fn open(args: &PuzzleArgs) -> Result<crossat::Puzzle> {
    let input = input(args)?;
    crossat::Puzzle::from_input(&input).map_err(|e| other_command(e, &args.file, &input.bytes))
}

/// The cell a record names by `[row, column]`; one the puzzle lacks is a bug.
pub(crate) fn cell_of(puzzle: &puzzle::Puzzle, [r, c]: crossat::records::Cell) -> Result<usize> {
    puzzle.shape.cell_at((r, c)).ok_or_else(|| Error::Internal(format!("a record names cell [{r}, {c}], which the puzzle has not")))
}

/// `e`, a failure to read `file` as a puzzle, with a pointer to the command that reads
/// it when its content is recognisably another command's input.
pub(crate) fn other_command(e: Error, file: &Path, bytes: &[u8]) -> Error {
    let Error::Input(input) = &e else { return e };
    let text = String::from_utf8_lossy(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes));
    let json: Option<serde_json::Value> = text.trim_start().starts_with('{').then(|| serde_json::from_str(&text).ok()).flatten();
    let has = |key: &str| match &json {
        Some(v) => v.get(key).is_some(),
        None => text.lines().any(|l| l.trim_start().strip_prefix(key).is_some_and(|r| r.trim_start().starts_with(':'))),
    };
    let file = file.display();
    let hint = if has("patterns") && has("blocks") {
        format!("this is a building-blocks puzzle (patterns and blocks): `crossat blocks {file}` solves it")
    } else if text.lines().any(|l| matches!(l.trim_end(), "s SATISFIABLE" | "s UNSATISFIABLE")) {
        format!("this is a SAT solver's answer: `crossat solve --model {file} PUZZLE` reads it for the puzzle it was solved from")
    } else {
        return e;
    };
    crate::io::input_error(&input.source, format!("{}; {hint}", input.message))
}

pub(crate) fn input(args: &PuzzleArgs) -> Result<Input> {
    one_stdin(&input_paths(args))?;
    let (source, bytes) = read_source(&args.file)?;
    let (given, given_source) = match &args.given {
        None => (None, None),
        Some(p) => {
            let (gname, gbytes) = read_source(p)?;
            let text = puzzle::utf8(&gname, &gbytes)?;
            (Some(puzzle::parse_grid_rows(text)), Some(gname))
        }
    };
    let pool = pool_file(&args.file, args.pool.as_deref())?;
    let alphabet = args.chars.clone();
    Ok(Input {
        source,
        bytes,
        format: args.format,
        id: args.id.clone(),
        alphabet,
        given,
        given_source,
        pool,
        dialect: args.dialect,
        cancel: crate::stop::token(),
    })
}

/// The input files named by puzzle arguments (for [`crate::io::refuse_overwrite`]).
pub(crate) fn input_paths(args: &PuzzleArgs) -> Vec<Option<&Path>> {
    vec![Some(args.file.as_path()), args.given.as_deref(), args.pool.as_deref()]
}
