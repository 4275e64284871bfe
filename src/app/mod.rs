//! Turns parsed arguments into pipeline calls and output. No solving logic lives here:
//! each submodule handles a group of commands.

mod assist;
mod puzzles;
mod solve;

use crate::cli::{Cli, Command, PuzzleArgs};
use crate::error::{Error, Result};
use crate::pipeline::Input;
use crate::puzzle;
use std::io::{Read, Write};
use std::path::Path;

/// Runs one command; returns the exit code (0 solved, 1 no solution).
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    match cli.command {
        Command::Solve(args) => solve::solve(&args, out, err),
        Command::Dimacs(args) => puzzles::dimacs_cmd(&args, out),
        Command::List(args) => puzzles::list(&args, out),
        Command::Check(args) => assist::check(&args, out),
        Command::Hint(args) => assist::hint(&args, out),
        Command::Generate(args) => puzzles::generate(&args, out, err),
        Command::Blocks(args) => puzzles::blocks(&args, out, err),
        Command::Squares(args) => puzzles::squares(&args, out, err),
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

pub(crate) fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

pub(crate) fn input(args: &PuzzleArgs) -> Result<Input> {
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

/// Maps a write failure to an error.
pub fn write_err(e: std::io::Error) -> Error {
    Error::Output(format!("cannot write output: {e}"))
}
