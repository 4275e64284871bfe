//! Commands about puzzles themselves: `dimacs`, `list`, `generate`, `blocks`, `squares`.

use super::solve::{status_line, unique};
use super::{input, io_reason, pool_file, read_source, write_err};
use crate::cli::{BlocksArgs, DictArgs, DimacsArgs, GenerateArgs, ListArgs, PuzzleFormat, SquaresArgs};
use crate::dimacs;
use crate::encode::ClauseSink;
use crate::error::{Error, Result};
use crate::pipeline;
use crate::puzzle::{self, Format};
use serde_json::json;
use std::io::Write;

pub(super) fn dimacs_cmd(args: &DimacsArgs, out: &mut dyn Write) -> Result<u8> {
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

pub(super) fn list(args: &ListArgs, out: &mut dyn Write) -> Result<u8> {
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
            let clues = match &p.pool {
                Some(pool) => format!("{} entries, pool of {} regexes", pool.entries.len(), pool.regexes.len()),
                None => format!("{} clues", p.clues.len()),
            };
            writeln!(out, "{}", format!("{source}: {size}, {clues}  {name}").trim_end()).map_err(write_err)?;
        }
    }
    Ok(0)
}

pub(super) fn generate(args: &GenerateArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    use crate::generate::{self as g, Spec};
    let shape = match (&args.size, args.hex) {
        (Some(size), _) => {
            let dims: Vec<usize> = size.split(['x', 'X']).filter_map(|n| n.trim().parse().ok()).collect();
            match dims[..] {
                [r, c] if (1..=20).contains(&r) && (1..=20).contains(&c) => puzzle::Shape::Rect { rows: r, cols: c },
                _ => return Err(Error::Usage(format!("--size must be ROWSxCOLS with each from 1 to 20, got '{size}'"))),
            }
        }
        (None, Some(s)) if (2..=8).contains(&s) => puzzle::Shape::Hex { side: s },
        (None, Some(s)) => return Err(Error::Usage(format!("--hex must be a side from 2 to 8, got {s}"))),
        (None, None) => return Err(Error::Usage("give --size RxC or --hex SIDE".into())),
    };
    let spec = Spec {
        shape,
        sides: usize::from(args.sides),
        text: args.text.clone(),
        backrefs: args.backrefs,
        lookarounds: args.lookarounds,
        difficulty: args.difficulty,
        seed: args.seed,
    };
    if args.output_format == PuzzleFormat::Challenges && !matches!(spec.shape, puzzle::Shape::Rect { .. }) {
        return Err(Error::Usage("--output-format challenges is for rectangles (give --size)".into()));
    }
    let started = std::time::Instant::now();
    let bar = crate::progress::Progress::counter(!args.quiet, "generating", "uniqueness checks");
    let made = g::generate_with(&spec, &mut |n| bar.set(n as u64));
    bar.finish();
    let made = made?;
    let rows: Vec<String> = made.puzzle.shape.display_rows().iter().map(|r| r.iter().map(|&c| made.solution[c]).collect()).collect();
    let crossat_json = g::to_crossat_json(&made.puzzle);
    let trux = g::to_trux(&made.puzzle, spec.sides);
    let challenges = g::to_challenges(&made.puzzle, &format!("crossat-{}", args.seed));
    if args.json {
        let r = made.rating;
        let rating = json!({"cells": r.cells, "by_lines": r.by_lines, "by_probing": r.by_probing, "probes": r.probes});
        let mut v = json!({"type": "puzzle", "crossat": crossat_json, "trux": trux, "solution": rows, "unique": true, "difficulty": r.difficulty.name(), "rating": rating, "checks": made.checks, "seed": args.seed, "time_ms": started.elapsed().as_secs_f64() * 1e3});
        if let Some(c) = &challenges {
            v["challenges"] = c.clone();
        }
        writeln!(out, "{v}").map_err(write_err)?;
    } else {
        match args.output_format {
            PuzzleFormat::Crossat => writeln!(out, "{}", serde_json::to_string_pretty(&crossat_json).unwrap_or_default()),
            PuzzleFormat::Trux => write!(out, "{trux}"),
            PuzzleFormat::Challenges => {
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(challenges.as_ref().unwrap_or(&serde_json::Value::Null)).unwrap_or_default()
                )
            }
        }
        .map_err(write_err)?;
        writeln!(
            err,
            "crossat: unique puzzle after {} uniqueness checks; {}; solution: {}",
            made.checks,
            made.rating.describe(),
            rows.join(" / ")
        )
        .map_err(write_err)?;
    }
    Ok(0)
}

fn dictionary(args: &DictArgs, err: &mut dyn Write, json: bool) -> Result<crate::words::Dictionary> {
    let dict = match &args.dict {
        Some(p) => crate::words::Dictionary::from_file(p, args.fold_case)?,
        None => crate::words::Dictionary::builtin(),
    };
    if !json {
        writeln!(err, "crossat: dictionary: {} ({} words)", dict.source, dict.words.len()).map_err(write_err)?;
    }
    Ok(dict)
}

pub(super) fn blocks(args: &BlocksArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    let (source, bytes) = read_source(&args.file)?;
    let text = String::from_utf8(bytes).map_err(|_| Error::input(&source, "invalid UTF-8"))?;
    let puzzle = crate::words::read_blocks(&source, &text)?;
    let dict = dictionary(&args.dict, err, args.json)?;
    let model = crate::words::encode_blocks(&puzzle, &dict)?;
    let limit = if args.all { None } else { Some(2) };
    let mut shown = 0;
    let outcome = crate::words::solve_blocks(&model, &puzzle, &dict, limit, |sol| {
        let words: Vec<String> = sol.words.iter().map(|w| w.concat()).collect();
        if args.json {
            writeln!(out, "{}", json!({"type": "solution", "words": words, "unused": sol.unused})).map_err(write_err)?;
        } else if args.all || shown == 0 {
            if shown > 0 {
                writeln!(out).map_err(write_err)?;
            }
            for (w, parts) in words.iter().zip(&sol.words) {
                writeln!(out, "{w:<12} {}", parts.join(" + ")).map_err(write_err)?;
            }
            writeln!(out, "unused: {}", sol.unused.join(" ")).map_err(write_err)?;
        }
        shown += 1;
        Ok(())
    })?;
    if args.json {
        writeln!(out, "{}", json!({"type": "summary", "solutions": outcome.found, "complete": outcome.complete, "unique": unique(outcome), "dictionary": dict.source, "dictionary_words": dict.words.len()})).map_err(write_err)?;
    } else {
        writeln!(out, "{}", status_line(outcome, args.all, "blocks")).map_err(write_err)?;
    }
    Ok(u8::from(outcome.found == 0))
}

pub(super) fn squares(args: &SquaresArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<u8> {
    use crate::squares::{self, Lexicon, Progress, Size};
    use std::sync::atomic::Ordering::Relaxed;
    let started = std::time::Instant::now();
    let size = Size::new(args.width, args.height)?;
    let dict = dictionary(&args.dict, err, args.json || args.quiet)?;
    let usable = squares::usable_words(&dict, size).len();
    let progress = Progress::default();
    let mut shown = 0;
    let ran = with_progress(!args.quiet, &progress, size, || {
        let model = squares::encode(&Lexicon::new(&dict, size), size)?;
        progress.clauses.store(model.cnf.num_clauses(), Relaxed);
        if let Some(path) = &args.dimacs {
            let name = path.display().to_string();
            let file = std::fs::File::create(path).map_err(|e| Error::Output(format!("{name}: cannot write: {}", io_reason(&e))))?;
            squares::write_dimacs(&mut std::io::BufWriter::new(file), &model).map_err(write_err)?;
            writeln!(err, "crossat: wrote {name}: {} variables, {} clauses", model.cnf.num_vars(), model.cnf.num_clauses())
                .map_err(write_err)?;
            return Ok(None);
        }
        let outcome = squares::generate(&model, &dict, args.seed, args.count as usize, &progress, |sq| {
            if args.json {
                writeln!(out, "{}", json!({"type": "solution", "grid": sq.rows(), "words": sq.words()})).map_err(write_err)?;
            } else {
                if shown > 0 {
                    writeln!(out).map_err(write_err)?;
                }
                let words = sq.words();
                write!(out, "{}", sq.draw()).map_err(write_err)?;
                writeln!(out, "rows:    {}", words[..size.height].join(" ")).map_err(write_err)?;
                writeln!(out, "columns: {}", words[size.height..].join(" ")).map_err(write_err)?;
            }
            shown += 1;
            Ok(())
        })?;
        Ok(Some(outcome))
    })?;
    let Some(outcome) = ran else { return Ok(0) };
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        let v = json!({"type": "summary", "solutions": outcome.found, "complete": outcome.complete, "width": size.width, "height": size.height,
            "seed": args.seed, "dictionary": dict.source, "dictionary_words": dict.words.len(), "usable_words": usable,
            "repeats_blocked": outcome.repeats_blocked, "clauses": progress.clauses.load(Relaxed), "time_ms": secs * 1e3});
        writeln!(out, "{v}").map_err(write_err)?;
    } else if outcome.found == 0 {
        writeln!(
            out,
            "no {}x{} square exists with this dictionary ({usable} usable words); the search was exhausted",
            size.width, size.height
        )
        .map_err(write_err)?;
    } else if outcome.complete {
        let n = outcome.found;
        writeln!(out, "only {n} square{} exist{}; the search was exhausted", if n == 1 { "" } else { "s" }, if n == 1 { "s" } else { "" })
            .map_err(write_err)?;
    }
    Ok(u8::from(outcome.found == 0))
}

/// Runs `work`, printing a progress line on stderr once it has run for a second
/// (`CROSSAT_PROGRESS_MS` milliseconds, for tests), then every second up to ten, then
/// every ten.
fn with_progress<T>(show: bool, progress: &crate::squares::Progress, size: crate::squares::Size, work: impl FnOnce() -> T) -> T {
    use std::sync::atomic::Ordering::Relaxed;
    use std::sync::mpsc::RecvTimeoutError;
    use std::time::Duration;
    if !show {
        return work();
    }
    let first = std::env::var("CROSSAT_PROGRESS_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let (done, wait) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        let _ = s.spawn(move || {
            let started = std::time::Instant::now();
            let mut delay = Duration::from_millis(first);
            let mut ticks = 0u64;
            while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(delay) {
                ticks += 1;
                delay = Duration::from_secs(if ticks < 10 { 1 } else { 10 });
                let clauses = progress.clauses.load(Relaxed);
                let stage = if clauses == 0 { "compiling the dictionary".to_string() } else { format!("searching ({clauses} clauses)") };
                eprintln!(
                    "crossat: {}x{} squares: {stage}, {:.0} s, {} found, {} repeated words blocked",
                    size.width,
                    size.height,
                    started.elapsed().as_secs_f64(),
                    progress.found.load(Relaxed),
                    progress.repeats.load(Relaxed)
                );
            }
        });
        let r = work();
        drop(done);
        r
    })
}
