//! Reading inputs and writing outputs for the front end: files or `-` for the standard
//! streams, with the messages every command gives. [`crate::app`] and [`crate::bench`]
//! both stand on it.

use crate::print::{io_reason, output_error};
use crossat::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// An input error of kind `Invalid`: `source` cannot be used as it is, and why.
pub fn input_error(source: &str, message: impl Into<String>) -> Error {
    Error::Input(crossat::error::InputError {
        source: source.to_string(),
        kind: crossat::error::InputErrorKind::Invalid,
        message: message.into(),
    })
}

/// The limits of this run (`--max-input-bytes`), set once after parsing the arguments.
static LIMITS: std::sync::OnceLock<crossat::limits::Limits> = std::sync::OnceLock::new();

/// Sets the limits every read of this run obeys.
pub fn set_limits(limits: crossat::limits::Limits) {
    let _ = LIMITS.set(limits);
}

/// The limits of this run.
pub fn limits() -> crossat::limits::Limits {
    LIMITS.get().copied().unwrap_or_default()
}

/// Reads a file, or stdin for `-`, within the input limit (see [`crossat::limits`]).
/// Standard input, a named pipe or a device may keep us waiting: a signal must still
/// stop the command, so the signal thread starts first.
pub fn read_source(path: &Path) -> Result<(String, Vec<u8>)> {
    if path.as_os_str() == "-" || std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        crate::stop::watch();
    }
    crossat::limits::read_input(path, &limits())
}

/// The flag that sets a library parameter: `--max-input-bytes` for `max_input_bytes`.
pub fn flag(p: crossat::error::Param) -> String {
    format!("--{}", p.to_string().replace('_', "-"))
}

/// A library error in the command line's words: the parameters it names become the
/// flags that set them, a collection without `--id` points to `crossat list`, and a
/// hard puzzle asked with patterns to the manual.
pub fn cli_message(e: &Error) -> String {
    let message = e.message_with(&flag);
    match e {
        Error::Request(crossat::error::RequestError::IdNeeded { source, .. }) => format!("{message} (see `crossat list {source}`)"),
        Error::Request(crossat::error::RequestError::HardWithPatterns) => {
            message.replacen("alternations", "alternations (see `crossat man`)", 1)
        }
        _ => message,
    }
}

/// The puzzle files the paths name, in order: a folder gives its files (sorted) whose
/// names look like puzzles, passing over expected outputs, licences and notes; a file
/// (or `-`) named on the command line is always kept, whatever its name.
pub fn puzzle_files(paths: &[std::path::PathBuf]) -> Result<Vec<std::path::PathBuf>> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut entries: Vec<std::path::PathBuf> = std::fs::read_dir(p)
                .map_err(|e| input_error(&p.display().to_string(), format!("cannot read folder: {}", io_reason(&e))))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.is_file() && looks_like_puzzle(f))
                .collect();
            entries.sort();
            files.extend(entries);
        } else {
            files.push(p.clone());
        }
    }
    Ok(files)
}

/// Whether a file in a folder is named like a puzzle (not a solution or expected output).
fn looks_like_puzzle(f: &Path) -> bool {
    let name = f.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let puzzle_name = [".input.txt", ".dat", ".json", ".csv"].iter().any(|e| name.ends_with(e)) || name == "puzzle.txt";
    puzzle_name && !name.contains("solution") && !name.contains("expected")
}

/// The regex pool: the explicit file, else the `.txt` file beside a `.csv` puzzle.
pub fn pool_file(puzzle: &Path, explicit: Option<&Path>) -> Result<Option<(String, Vec<u8>)>> {
    match explicit {
        Some(p) => read_source(p).map(Some),
        None => crossat::puzzle::pool_beside(puzzle).map(|txt| read_source(&txt)).transpose(),
    }
}

/// Maps a failure to write standard output to an error naming the stream. A closed
/// pipe is one too, on its way up; the printer ([`crate::stop::Stdout`]) remembers it,
/// and `main` ends the process quietly instead of reporting it.
fn write_err(e: std::io::Error) -> Error {
    output_error("standard output", format!("cannot write: {}", io_reason(&e)))
}

/// Writes a whole output file through a buffer, then flushes it and checks every step,
/// so that a full disk or a closed file is an error naming the file, never a silent loss.
/// `-` is standard output.
pub fn write_file(
    path: &Path,
    out: &mut crate::print::Printer<'_>,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let name = path.display().to_string();
    if name == "-" {
        let mut w = std::io::BufWriter::new(out.raw());
        write(&mut w).and_then(|()| w.flush()).map_err(write_err)?;
        return Ok(());
    }
    let file = std::fs::File::create(path).map_err(|e| output_error(name.as_str(), format!("cannot create file: {}", io_reason(&e))))?;
    let mut w = std::io::BufWriter::new(file);
    let fail = |e: std::io::Error| output_error(name.as_str(), format!("cannot write: {}", io_reason(&e)));
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
