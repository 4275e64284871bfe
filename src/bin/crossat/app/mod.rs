//! Turns parsed arguments into pipeline calls and output. No solving logic lives here:
//! each submodule handles a group of commands.

mod assist;
mod puzzles;
mod solve;

use crate::cli::{Cli, Command, PuzzleArgs};
use crate::error::{Error, Result};
use crate::pipeline::Input;
use crate::puzzle;
use std::io::Write;
use std::path::Path;

/// Runs one command; returns the exit code (0 solved, 1 no solution).
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    crate::limits::set_max_input_bytes(cli.max_input_bytes);
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

/// Arms the orderly stop with `epilogue` (see [`crate::stop`]), then starts the
/// `--timeout` clock.
pub(crate) fn start(args: &crate::cli::StopArgs, epilogue: crate::stop::Epilogue) -> Result<()> {
    crate::stop::arm(epilogue);
    crate::stop::set_timeout(args.timeout)
}

/// The epilogue of a command that prints nothing partial: the summary only.
pub(crate) fn plain_epilogue(json: bool, base: serde_json::Value, text: &'static str) -> crate::stop::Epilogue {
    Box::new(move |reason| crate::stop::summary(json, reason, base.clone(), text))
}

/// Reads a file, or stdin for `-`, within the input limit (see [`crate::limits`]).
pub fn read_source(path: &Path) -> Result<(String, Vec<u8>)> {
    crate::limits::read_input(path)
}

pub(crate) fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Refuses to read standard input twice (`check - -`): the second read would be empty.
pub(crate) fn one_stdin(paths: &[Option<&Path>]) -> Result<()> {
    if paths.iter().flatten().filter(|p| p.as_os_str() == "-").count() > 1 {
        return Err(Error::Usage("standard input (`-`) can be read only once: give the other inputs as files".into()));
    }
    Ok(())
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

/// Maps a failure to write standard output to an error: a closed pipe is
/// [`Error::PipeClosed`] (the process then ends quietly), anything else names the stream.
pub fn write_err(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Error::PipeClosed
    } else {
        Error::Output(format!("standard output: cannot write: {}", io_reason(&e)))
    }
}

/// Writes a whole output file through a buffer, then flushes it and checks every step,
/// so that a full disk or a closed file is an error naming the file, never a silent loss.
/// `-` is standard output.
pub fn write_file(path: &Path, out: &mut dyn Write, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<()> {
    let name = path.display().to_string();
    if name == "-" {
        let mut w = std::io::BufWriter::new(out);
        write(&mut w).and_then(|()| w.flush()).map_err(write_err)?;
        return Ok(());
    }
    let file = std::fs::File::create(path).map_err(|e| Error::Output(format!("{name}: cannot create file: {}", io_reason(&e))))?;
    let mut w = std::io::BufWriter::new(file);
    let fail = |e: std::io::Error| Error::Output(format!("{name}: cannot write: {}", io_reason(&e)));
    write(&mut w).and_then(|()| w.flush()).map_err(fail)
}

/// Refuses an output path that names one of the input files (the same file, however
/// it is spelt: compared by device and inode).
pub fn refuse_overwrite(output: &Path, inputs: &[Option<&Path>]) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    if output.as_os_str() == "-" {
        return Ok(());
    }
    let Ok(out) = std::fs::metadata(output) else { return Ok(()) };
    for input in inputs.iter().flatten() {
        if input.as_os_str() == "-" {
            continue;
        }
        if let Ok(m) = std::fs::metadata(input)
            && m.dev() == out.dev()
            && m.ino() == out.ino()
            && out.is_file()
        {
            return Err(Error::Usage(format!(
                "{}: refusing to overwrite the input file {}; choose another output file",
                output.display(),
                input.display()
            )));
        }
    }
    Ok(())
}

/// The input files named by puzzle arguments (for [`refuse_overwrite`]).
pub(crate) fn input_paths(args: &PuzzleArgs) -> Vec<Option<&Path>> {
    vec![Some(args.file.as_path()), args.given.as_deref(), args.pool.as_deref()]
}
