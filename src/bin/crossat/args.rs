//! The arguments checked in one step after parsing, as ripgrep turns its low-level
//! arguments into high-level ones: clap parses [`Cli`]; [`check`] then checks what clap
//! cannot (a positive `--timeout`, a non-empty `--alphabet`, `generate`'s shape) and
//! fills each command's `#[arg(skip)]` fields with the checked values (a `Duration`, the
//! characters, a `Shape`, the threads), which are what the commands use. A bad value is
//! a usage error (exit 2) before any work starts.

use crate::cli::{CheckArgs, Cli, Command, DimacsArgs, ExplainArgs, HintArgs, JobsArgs, PuzzleArgs, PuzzleFormat, StopArgs};
use crossat::error::{Error, Result};
use crossat::puzzle::{Shape, Sides};
use std::time::Duration;

/// Checks the parsed arguments and fills in their checked values.
pub fn check(cli: &mut Cli) -> Result<()> {
    match &mut cli.command {
        Command::Solve(a) => {
            if a.limit == Some(0) {
                return Err(Error::Usage("--limit must be at least 1".into()));
            }
            if a.sorted && !a.all && a.limit.is_none() {
                return Err(Error::Usage("--sorted sorts a listing: give --all or --limit N".into()));
            }
            stop(&mut a.stop)?;
            puzzle(&mut a.puzzle)?;
            jobs(&mut a.jobs);
        }
        Command::Dimacs(DimacsArgs { stop: s, puzzle: p, .. })
        | Command::Check(CheckArgs { stop: s, puzzle: p, .. })
        | Command::Hint(HintArgs { stop: s, puzzle: p, .. })
        | Command::Explain(ExplainArgs { stop: s, puzzle: p, .. }) => {
            stop(s)?;
            puzzle(p)?;
        }
        Command::Lint(a) => a.chars = alphabet(a.alphabet.as_deref())?,
        Command::Generate(a) => {
            a.shape = Some(shape(a.size.as_deref(), a.hex.as_deref(), a.output_format)?);
            a.limit = seconds(a.timeout)?;
            jobs(&mut a.jobs);
        }
        Command::Blocks(a) => stop(&mut a.stop)?,
        Command::Squares(a) => {
            stop(&mut a.stop)?;
            jobs(&mut a.jobs);
        }
        Command::Bench(a) => {
            a.limit = seconds(a.timeout)?;
            jobs(&mut a.jobs);
        }
        Command::List(_) | Command::Completions(_) | Command::Man => {}
    }
    Ok(())
}

/// `--timeout`: a positive number of seconds, at most 10^9.
fn seconds(secs: Option<f64>) -> Result<Option<Duration>> {
    match secs {
        None => Ok(None),
        Some(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Ok(Some(Duration::from_secs_f64(s))),
        Some(s) => Err(Error::Usage(format!("--timeout must be a positive number of seconds, got {s}"))),
    }
}

fn stop(args: &mut StopArgs) -> Result<()> {
    args.limit = seconds(args.timeout)?;
    Ok(())
}

/// `--alphabet`: its characters, at least one.
fn alphabet(chars: Option<&str>) -> Result<Option<Vec<char>>> {
    match chars {
        Some("") => Err(Error::Usage("--alphabet must not be empty".into())),
        other => Ok(other.map(|a| a.chars().collect())),
    }
}

fn puzzle(args: &mut PuzzleArgs) -> Result<()> {
    args.chars = alphabet(args.alphabet.as_deref())?;
    Ok(())
}

/// `--jobs`, else the machine's cores.
fn jobs(args: &mut JobsArgs) {
    args.threads = match args.jobs {
        Some(n) => usize::try_from(n).unwrap_or(1),
        None => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
    };
}

/// `generate`'s `--size RxC` or `--hex SIDE` (or `TOPxNWxNE`), which the output format
/// must be able to hold.
fn shape(size: Option<&str>, hex: Option<&str>, format: PuzzleFormat) -> Result<Shape> {
    use crossat::generate::MAX_SIDE;
    match (size, hex) {
        (Some(size), _) => {
            let dims: Vec<usize> = size.split(['x', 'X']).filter_map(|n| n.trim().parse().ok()).collect();
            match dims[..] {
                [r, c] if (1..=MAX_SIDE).contains(&r) && (1..=MAX_SIDE).contains(&c) => Ok(Shape::Rect { rows: r, cols: c }),
                _ => Err(Error::Usage(format!("--size must be ROWSxCOLS with each from 1 to {MAX_SIDE}, got '{size}'"))),
            }
        }
        (None, Some(hex)) => {
            let n: Vec<usize> = hex.split(['x', 'X']).map(|n| n.trim().parse().unwrap_or(0)).collect();
            let sides = match n[..] {
                [s] if (2..=8).contains(&s) => Sides::regular(s),
                [top, nw, ne] if [top, nw, ne].iter().all(|s| (1..=8).contains(s)) && nw + ne > 2 => Sides { top, nw, ne },
                _ => {
                    return Err(Error::Usage(format!(
                        "--hex must be a side from 2 to 8, or TOPxNWxNE with each from 1 to 8 (and more than one row), got '{hex}'"
                    )));
                }
            };
            if sides.regular_side().is_none() && format == PuzzleFormat::Trux {
                return Err(Error::Usage("the trux format holds regular hexagons only: pick another --output-format".into()));
            }
            Ok(Shape::Hex(sides))
        }
        (None, None) => Err(Error::Usage("give --size RxC or --hex SIDE".into())),
    }
}
