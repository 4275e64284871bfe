//! [`Session`]: one puzzle read and prepared, and the calls on it, in plain Rust.

use crate::limit::message;
use crate::records::text;
use crate::{make, records, view};
use crossat::Puzzle;
use crossat::puzzle::Input;
use crossat::puzzle::{Dialect, Format};
use serde_json::Value;

/// A puzzle read and prepared, with the input it came from (re-read with givens for
/// `explain`).
pub struct Session {
    pub(crate) input: Input,
    pub(crate) puzzle: Puzzle,
}

/// A format by the name `--format` takes.
fn format_named(name: &str) -> Result<Format, String> {
    Ok(match name {
        "crossat" => Format::Crossat,
        "challenges" => Format::Challenges,
        "trux" => Format::Trux,
        "dat" => Format::Dat,
        "board" => Format::Board,
        "hesselink" => Format::Hesselink,
        "louridas" => Format::Louridas,
        _ => {
            return Err(format!("unknown format '{name}': one of crossat, challenges, trux, dat, board, hesselink, louridas"));
        }
    })
}

impl Session {
    /// Reads and prepares a puzzle; `options` is a JSON object (or empty) with `id`,
    /// `format`, `dialect`, `alphabet` and `pool` (the regex pool of a Louridas CSV, as
    /// text).
    pub fn open(name: &str, bytes: &[u8], options: &str) -> Result<Session, String> {
        let opts: Value = if options.trim().is_empty() {
            Value::Object(Default::default())
        } else {
            serde_json::from_str(options).map_err(|e| format!("options: not JSON: {e}"))?
        };
        let Some(opts) = opts.as_object() else { return Err("options: expected a JSON object".into()) };
        let string = |key: &str| -> Result<Option<String>, String> {
            match opts.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(Value::Number(n)) if key == "id" => Ok(Some(n.to_string())),
                Some(_) => Err(format!("options: \"{key}\" must be a string")),
            }
        };
        let alphabet = string("alphabet")?.map(|a| a.chars().collect::<Vec<_>>());
        if alphabet.as_ref().is_some_and(Vec::is_empty) {
            return Err("--alphabet must not be empty".into());
        }
        let input = Input {
            source: name.to_string(),
            bytes: bytes.to_vec(),
            format: string("format")?.as_deref().map(format_named).transpose()?,
            id: string("id")?,
            alphabet,
            pool: string("pool")?.map(|p| (format!("{name} pool"), p.into_bytes())),
            dialect: string("dialect")?.map(|d| d.parse::<Dialect>().map_err(|e| e.to_string())).transpose()?,
            ..Input::default()
        };
        let puzzle = Puzzle::from_input(&input).map_err(|e| message(&e))?;
        Ok(Session { input, puzzle })
    }

    /// The drawing data (web/API.md).
    pub fn view(&self) -> String {
        text(&view::view(&self.puzzle))
    }

    /// Per clue, whether the partial grid satisfies it, may still or cannot.
    pub fn status(&mut self, cells: &str) -> Result<String, String> {
        let grid = self.cells(cells)?;
        self.puzzle.status(&grid).map(|v| text(&v)).map_err(|e| message(&e))
    }

    /// The records of `solve --json` (`limit`: `--limit`).
    pub fn solutions(&mut self, limit: Option<usize>, timeout_ms: Option<f64>) -> Result<String, String> {
        if limit == Some(0) {
            return Err("--limit must be at least 1".into());
        }
        records::solve(&mut self.puzzle, limit, timeout_ms).map(|v| text(&v))
    }

    /// The summary of `solve --count --json`.
    pub fn count(&mut self, timeout_ms: Option<f64>) -> Result<String, String> {
        records::count(&mut self.puzzle, timeout_ms).map(|v| text(&v))
    }

    /// The records of `check --json`.
    pub fn check(&mut self, cells: &str, timeout_ms: Option<f64>) -> Result<String, String> {
        let grid = self.cells(cells)?;
        records::check(&mut self.puzzle, &grid, timeout_ms).map(|v| text(&v))
    }

    /// The records of `hint --json --grid`.
    pub fn hint(&mut self, cells: &str, timeout_ms: Option<f64>) -> Result<String, String> {
        let grid = self.cells(cells)?;
        records::hint(&mut self.puzzle, &grid, timeout_ms).map(|v| text(&v))
    }

    /// The records of `explain --json --grid [--max-steps N]`.
    pub fn explain(&mut self, cells: &str, max_steps: Option<usize>, timeout_ms: Option<f64>) -> Result<String, String> {
        let grid = self.cells(cells)?;
        let rows: Vec<Vec<Option<char>>> =
            self.puzzle.puzzle().shape.display_rows().iter().map(|r| r.iter().map(|&c| grid[c]).collect()).collect();
        let input = Input { given: Some(rows), given_source: Some("grid".into()), ..self.input.clone() };
        records::explain(&input, max_steps, timeout_ms).map(|v| text(&v))
    }

    /// Solutions up to `bound`, the ambiguous cells, the count when found in time.
    pub fn analyse(&mut self, bound: usize, timeout_ms: Option<f64>) -> Result<String, String> {
        records::analyse(&mut self.puzzle, bound.max(1), timeout_ms).map(|v| text(&v))
    }

    /// The puzzle as text of the chosen writer.
    pub fn export(&self, format: &str) -> Result<String, String> {
        make::export(self.puzzle.puzzle(), format)
    }

    /// A grid from a JSON array of one string per cell (`""` empty, else one character).
    pub(crate) fn cells(&self, cells: &str) -> Result<Vec<Option<char>>, String> {
        let v: Vec<String> = serde_json::from_str(cells).map_err(|e| format!("grid: expected a JSON array of strings: {e}"))?;
        let n = self.puzzle.puzzle().givens.len();
        if v.len() != n {
            return Err(format!("grid: {} cells given, the puzzle has {n}", v.len()));
        }
        v.iter()
            .enumerate()
            .map(|(c, s)| {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (None, _) => Ok(None),
                    (Some(ch), None) => Ok(Some(ch)),
                    _ => Err(format!("grid: {} holds \"{s}\": one character or \"\" per cell", self.puzzle.puzzle().shape.cell_name(c))),
                }
            })
            .collect()
    }
}
