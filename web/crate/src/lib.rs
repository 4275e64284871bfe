//! crossat in the browser: the library's answers through a small wasm-bindgen API.
//!
//! Every call takes and returns JSON strings; a failure is thrown as a JavaScript
//! `Error` whose message is the text the command line prints after `error: `. The
//! records are the ones `crossat … --json` prints for the same input (web/API.md lists
//! them). [`Session`] is the API in plain Rust (it builds and is tested natively too);
//! [`Puzzle`] wraps it for JavaScript.

mod limit;
mod make;
mod records;
mod session;
mod view;

pub use session::Session;
use wasm_bindgen::prelude::*;

fn thrown(e: String) -> JsError {
    JsError::new(&e)
}

/// A puzzle read in any format crossat reads, ready to view, check, hint, explain and solve.
#[wasm_bindgen]
pub struct Puzzle {
    session: Session,
}

#[wasm_bindgen]
impl Puzzle {
    /// Reads `text` as a puzzle named `name` (the name errors give). `options` is a
    /// JSON object or empty: `{"id": "…", "format": "…", "alphabet": "…", "pool": "…"}`.
    pub fn open(name: &str, text: &str, options: Option<String>) -> Result<Puzzle, JsError> {
        Puzzle::open_bytes(name, text.as_bytes(), options)
    }

    /// [`Puzzle::open`] from the file's bytes (a `Uint8Array`), for files that may not
    /// be UTF-8 (antoine-trux text in Latin-1 or Windows-1252, which crossat decodes).
    #[wasm_bindgen(js_name = openBytes)]
    pub fn open_bytes(name: &str, bytes: &[u8], options: Option<String>) -> Result<Puzzle, JsError> {
        Session::open(name, bytes, options.as_deref().unwrap_or("")).map(|session| Puzzle { session }).map_err(thrown)
    }

    /// Everything needed to draw the puzzle (web/API.md).
    pub fn view(&self) -> String {
        self.session.view()
    }

    /// Per clue, `"satisfied"`, `"possible"` or `"broken"` for a partial grid given as
    /// a JSON array of one string per cell (`""` for an empty cell).
    pub fn status(&mut self, cells: &str) -> Result<String, JsError> {
        self.session.status(cells).map_err(thrown)
    }

    /// `crossat solve --json`: the solutions (two at most) and the summary.
    pub fn solve(&mut self, timeout_ms: Option<f64>) -> Result<String, JsError> {
        self.session.solutions(None, timeout_ms).map_err(thrown)
    }

    /// `crossat solve --json --limit N`.
    pub fn solutions(&mut self, limit: u32, timeout_ms: Option<f64>) -> Result<String, JsError> {
        self.session.solutions(Some(limit as usize), timeout_ms).map_err(thrown)
    }

    /// `crossat solve --count --json`: the summary record.
    pub fn count(&mut self, timeout_ms: Option<f64>) -> Result<String, JsError> {
        self.session.count(timeout_ms).map_err(thrown)
    }

    /// `crossat check --json` on a grid (JSON array of one string per cell).
    pub fn check(&mut self, cells: &str, timeout_ms: Option<f64>) -> Result<String, JsError> {
        self.session.check(cells, timeout_ms).map_err(thrown)
    }

    /// `crossat hint --json --grid` on a partial grid.
    pub fn hint(&mut self, cells: &str, timeout_ms: Option<f64>) -> Result<String, JsError> {
        self.session.hint(cells, timeout_ms).map_err(thrown)
    }

    /// `crossat explain --json --grid [--max-steps N]` on a partial grid.
    pub fn explain(&mut self, cells: &str, max_steps: Option<u32>, timeout_ms: Option<f64>) -> Result<String, JsError> {
        self.session.explain(cells, max_steps.map(|n| n as usize), timeout_ms).map_err(thrown)
    }

    /// For setters: the solutions up to `bound`, the cells whose letter differs between
    /// them, and the exact count when it is found within the time limit.
    pub fn analyse(&mut self, bound: u32, timeout_ms: Option<f64>) -> Result<String, JsError> {
        self.session.analyse(bound as usize, timeout_ms).map_err(thrown)
    }

    /// The puzzle written as `crossat`, `challenges` or `trux` text.
    pub fn export(&self, format: &str) -> Result<String, JsError> {
        self.session.export(format).map_err(thrown)
    }
}

/// `crossat generate --json`: a new puzzle from JSON options (web/API.md).
#[wasm_bindgen]
pub fn generate(options: &str) -> Result<String, JsError> {
    make::generate(options).map_err(thrown)
}

/// The crate's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
