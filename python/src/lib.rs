//! `crossat._crossat`: the extension module under the `crossat` Python package.
//!
//! A thin layer over the library: `Core` is one puzzle read and prepared, each method
//! one library call run off the GIL (`run`) that returns the records the command line
//! prints with `--json`, as Python dicts. The package's Python half (`crossat/`) turns
//! them into typed records and defines the exceptions raised here.

mod calls;
mod convert;
mod run;

use convert::to_py;
use crossat::puzzle::Dialect;
use crossat::puzzle::Input;
use crossat::stop::Cancel;
use crossat::{Error, Result};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use run::{raise, receive, run, token};
use serde_json::Value;
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, MutexGuard};

/// One puzzle, read and prepared; the input it came from (for pickling).
#[pyclass(frozen, module = "crossat._crossat")]
struct Core {
    input: Input,
    /// What [`calls::info`] says, taken at once so that it never waits for a search.
    info: Value,
    prep: Arc<Mutex<crossat::Puzzle>>,
}

/// The prepared puzzle, even if a call that held it panicked (the library keeps no
/// state a panic could leave half-changed that a later call relies on).
fn locked(prep: &Mutex<crossat::Puzzle>) -> MutexGuard<'_, crossat::Puzzle> {
    prep.lock().unwrap_or_else(|e| e.into_inner())
}

/// A regex-pool CSV's pool: its name and bytes.
pub(crate) type Pool = Option<(String, Vec<u8>)>;
/// A file read from Python: its name, bytes and pool.
type Read = (String, Py<PyBytes>, Option<(String, Py<PyBytes>)>);

#[pymethods]
impl Core {
    /// Reads and prepares a puzzle from its bytes, with the command line's options.
    #[staticmethod]
    #[pyo3(signature = (name, data, format=None, id=None, alphabet=None, dialect=None, pool=None))]
    #[allow(clippy::too_many_arguments)]
    fn open(
        py: Python<'_>,
        name: String,
        data: Vec<u8>,
        format: Option<String>,
        id: Option<String>,
        alphabet: Option<String>,
        dialect: Option<String>,
        pool: Pool,
    ) -> PyResult<Core> {
        let cancel = Cancel::new();
        run(py, &cancel, move |cancel| {
            let alphabet = alphabet.map(|a| a.chars().collect::<Vec<_>>());
            if alphabet.as_ref().is_some_and(Vec::is_empty) {
                return Err(Error::Usage("alphabet must not be empty".into()));
            }
            let input = Input {
                source: name,
                bytes: data,
                format: format.as_deref().map(calls::format_named).transpose()?,
                id,
                alphabet,
                pool,
                dialect: dialect.map(|d| d.parse::<Dialect>()).transpose()?,
                ..Input::default()
            };
            let prep = crossat::Puzzle::from_input(&Input { cancel: cancel.clone(), ..input.clone() })?;
            Ok(Core { input, info: calls::info(&prep), prep: Arc::new(Mutex::new(prep)) })
        })
    }

    /// A file's name and bytes, and the regex pool beside a regex-pool CSV.
    #[staticmethod]
    fn read_file(py: Python<'_>, path: String) -> PyResult<Read> {
        let (name, bytes, pool) = calls::read_file(&path).map_err(|e| raise(py, &e))?;
        let pool = pool.map(|(n, b)| (n, PyBytes::new(py, &b).unbind()));
        Ok((name, PyBytes::new(py, &bytes).unbind(), pool))
    }

    /// What `open` was given: name, bytes, format, id, alphabet, dialect, pool.
    #[allow(clippy::type_complexity)]
    fn state<'py>(
        &self,
        py: Python<'py>,
    ) -> (
        String,
        Bound<'py, PyBytes>,
        Option<&'static str>,
        Option<String>,
        Option<String>,
        Option<String>,
        Option<(String, Bound<'py, PyBytes>)>,
    ) {
        let i = &self.input;
        (
            i.source.clone(),
            PyBytes::new(py, &i.bytes),
            i.format.map(calls::format_name),
            i.id.clone(),
            i.alphabet.as_ref().map(|a| a.iter().collect()),
            i.dialect.map(|d| d.to_string()),
            i.pool.as_ref().map(|(n, b)| (n.clone(), PyBytes::new(py, b))),
        )
    }

    /// Shape, clues, dialect, alphabet, display rows and givens.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, &self.info)
    }

    /// Streams the records of `solve --json --limit N`.
    #[pyo3(signature = (limit=None, timeout=None))]
    fn solutions(&self, limit: Option<usize>, timeout: Option<f64>) -> PyResult<Stream> {
        if limit == Some(0) {
            return Err(pyo3::exceptions::PyValueError::new_err("limit must be at least 1"));
        }
        let cancel = token(timeout)?;
        // The reader may call other methods of the puzzle between solutions, which wait
        // for the puzzle while a search holds it. A short stream searches the puzzle
        // itself, with room for every record it can send, so it never waits for the
        // reader; a longer one searches its own copy and waits when it is AHEAD records
        // ahead, so that a slow reader of a huge listing holds little memory.
        let short = limit.filter(|&l| l <= SHORT);
        let (tx, rx) = mpsc::sync_channel::<Item>(short.map_or(AHEAD, |l| l + 1));
        let prep = Arc::clone(&self.prep);
        let worker = cancel.clone();
        std::thread::Builder::new()
            .name("crossat-solutions".into())
            .spawn(move || {
                let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let send = &mut |v| tx.send(Item::Solution(v)).map_err(|_| Error::Cancelled);
                    match short {
                        Some(_) => calls::solutions(&mut locked(&prep), limit, &worker, send),
                        None => {
                            let mut own = locked(&prep).clone();
                            calls::solutions(&mut own, limit, &worker, send)
                        }
                    }
                }));
                let _ = tx.send(Item::Done(done.map_err(run::panic_text)));
            })
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        Ok(Stream { rx: Mutex::new(Some(rx)), cancel })
    }

    /// The summary of `solve --count --json`.
    #[pyo3(signature = (timeout=None))]
    fn count<'py>(&self, py: Python<'py>, timeout: Option<f64>) -> PyResult<Bound<'py, PyAny>> {
        let prep = Arc::clone(&self.prep);
        let v = run(py, &token(timeout)?, move |c| calls::count(&mut locked(&prep), c))?;
        to_py(py, &v)
    }

    /// The records of `explain --json`.
    #[pyo3(signature = (timeout=None))]
    fn explain<'py>(&self, py: Python<'py>, timeout: Option<f64>) -> PyResult<Bound<'py, PyAny>> {
        let prep = Arc::clone(&self.prep);
        let v = run(py, &token(timeout)?, move |c| calls::explain(&mut locked(&prep), c))?;
        to_py(py, &v)
    }

    /// The labels of the clues a filled grid fails.
    fn check(&self, py: Python<'_>, rows: Vec<String>) -> PyResult<Vec<String>> {
        let prep = Arc::clone(&self.prep);
        run(py, &Cancel::new(), move |_| calls::check(&locked(&prep), &rows))
    }

    /// The hint record for a partial grid (`.` for an empty cell), or `None`.
    #[pyo3(signature = (rows, timeout=None))]
    fn hint<'py>(&self, py: Python<'py>, rows: Vec<String>, timeout: Option<f64>) -> PyResult<Bound<'py, PyAny>> {
        let prep = Arc::clone(&self.prep);
        let v = run(py, &token(timeout)?, move |c| calls::hint(&mut locked(&prep), &rows, c))?;
        to_py(py, &v.unwrap_or(Value::Null))
    }

    /// The formula as DIMACS CNF text.
    fn to_dimacs(&self, py: Python<'_>) -> PyResult<String> {
        let prep = Arc::clone(&self.prep);
        run(py, &Cancel::new(), move |_| locked(&prep).to_dimacs())
    }

    /// The clue records of `lint --json`.
    #[pyo3(signature = (timeout=None))]
    fn lint<'py>(&self, py: Python<'py>, timeout: Option<f64>) -> PyResult<Bound<'py, PyAny>> {
        let prep = Arc::clone(&self.prep);
        let input = self.input.clone();
        let v = run(py, &token(timeout)?, move |c| calls::lint(&input, &locked(&prep), c))?;
        to_py(py, &v)
    }
}

/// The longest stream (its limit) that searches the puzzle itself rather than a copy.
const SHORT: usize = 1024;

/// Records a stream on its own copy may be ahead of its reader.
const AHEAD: usize = 256;

/// What the solving thread sends: a solution record, then the summary (or the error).
enum Item {
    Solution(Value),
    Done(std::result::Result<Result<Value>, String>),
}

/// The records of a search as the solver finds them: solutions, then the summary.
/// Dropping it (or Ctrl-C while waiting) cancels the search.
#[pyclass(module = "crossat._crossat")]
struct Stream {
    rx: Mutex<Option<Receiver<Item>>>,
    cancel: Cancel,
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

#[pymethods]
impl Stream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let mut guard = self.rx.lock().unwrap_or_else(|e| e.into_inner());
        let Some(rx) = guard.take() else { return Ok(None) };
        match receive(py, rx, &self.cancel) {
            (rx, Ok(Some(Item::Solution(v)))) => {
                *guard = Some(rx);
                to_py(py, &v).map(Some)
            }
            (_, Ok(Some(Item::Done(Ok(Ok(summary)))))) => to_py(py, &summary).map(Some),
            (_, Ok(Some(Item::Done(Ok(Err(e)))))) => Err(raise(py, &e)),
            (_, Ok(Some(Item::Done(Err(panic))))) => Err(raise(py, &Error::Internal(panic))),
            (_, Ok(None)) => Err(raise(py, &Error::Internal("the solving thread vanished".into()))),
            (_, Err(e)) => Err(e),
        }
    }

    /// Stops the search.
    fn close(&self) {
        self.cancel.cancel();
        *self.rx.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// `generate --json`: a new puzzle's record.
#[pyfunction]
#[pyo3(signature = (rows=0, cols=0, hex=None, sides=1, text=None, backrefs=false, lookarounds=false, difficulty=None, seed=None, timeout=None))]
#[allow(clippy::too_many_arguments)]
fn generate<'py>(
    py: Python<'py>,
    rows: usize,
    cols: usize,
    hex: Option<(usize, usize, usize)>,
    sides: usize,
    text: Option<String>,
    backrefs: bool,
    lookarounds: bool,
    difficulty: Option<String>,
    seed: Option<u64>,
    timeout: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let make = calls::Make { rows, cols, hex, sides, text, backrefs, lookarounds, difficulty, seed };
    let v = run(py, &token(timeout)?, move |c| calls::generate(&make, c))?;
    to_py(py, &v)
}

/// `squares --json`'s square records.
#[pyfunction]
#[pyo3(signature = (width, height, dictionary=None, seed=None, count=1, timeout=None))]
fn squares<'py>(
    py: Python<'py>,
    width: usize,
    height: usize,
    dictionary: Option<String>,
    seed: Option<u64>,
    count: usize,
    timeout: Option<f64>,
) -> PyResult<(u64, Bound<'py, PyAny>)> {
    let seed = seed.unwrap_or_else(crossat::rng::fresh_seed);
    let v = run(py, &token(timeout)?, move |c| calls::squares(width, height, dictionary.as_deref(), seed, count.max(1), c))?;
    Ok((seed, to_py(py, &v)?))
}

#[pymodule]
fn _crossat(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Core>()?;
    m.add_class::<Stream>()?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(squares, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
