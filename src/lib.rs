//! crossat solves word-grid puzzles — regex crosswords first — by compiling them to SAT.
//!
//! # Using crossat as a library
//!
//! [`Puzzle`] is the entry point: read a puzzle in any supported format
//! ([`Puzzle::read`], [`Puzzle::read_file`]), then solve it ([`Puzzle::solve`]),
//! enumerate its solutions up to a limit ([`Puzzle::solutions`]), prove it has exactly
//! one ([`Puzzle::is_unique`]), check a filled grid ([`Puzzle::check`]) or export its
//! formula ([`Puzzle::to_dimacs`]). Every failure is an [`Error`] that says which
//! stage refused what, with typed kinds to match on (see [`error`]).
//!
//! ```
//! use crossat::{Error, Puzzle};
//! use crossat::error::ClueErrorKind;
//!
//! // The regexcrossword.com tutorial puzzle, in crossat's JSON format.
//! let text = r#"{"left": ["HE|LL|O+", "[PLEASE]+"], "top": ["[^SPEAK]+", "EP|IP|EF"]}"#;
//! let mut puzzle = Puzzle::read("beatles.json", text.as_bytes())?;
//! let solution = puzzle.solve()?.expect("the puzzle has a solution");
//! assert_eq!(solution.rows, ["HE", "LP"]);
//! assert!(puzzle.is_unique()?);
//! assert!(puzzle.check(&["HE", "LP"])?.is_empty());
//! assert_eq!(puzzle.check(&["HE", "LL"])?, ["column 2 (top)"]);
//! assert!(puzzle.to_dimacs()?.starts_with("c crossat"));
//!
//! // A clue Python's `re` refuses: the error names the file, the clue and the problem.
//! let bad = r#"{"left": ["A(B"], "top": ["A", "B", "C"]}"#;
//! match Puzzle::read("bad.json", bad.as_bytes()) {
//!     Err(Error::Clue(e)) => {
//!         assert_eq!((e.clue.as_str(), e.regex.as_str()), ("row 1 (left)", "A(B"));
//!         assert!(matches!(e.kind, ClueErrorKind::Syntax { position: Some(1), .. }));
//!         assert_eq!(e.to_string(), "bad.json: row 1 (left) clue 'A(B': missing ), unterminated subpattern at position 1");
//!     }
//!     other => panic!("expected a clue error, got {other:?}", other = other.err()),
//! }
//! # Ok::<(), crossat::Error>(())
//! ```
//!
//! The stages behind the facade are the library's own: `pipeline` chains them, and the
//! command line, the page and the Python package are thin layers over [`Puzzle`] and
//! the [`records`].
//!
//! # Architecture
//!
//! ```text
//! bytes ──parse──▶ Puzzle ──compile──▶ Compiled ──propagate──▶ domains ──encode──▶ Cnf ──solve──▶ models
//!                  (cells,    (one minimal DFA    (letters left    (one-hot cells,  (varisat; block
//!                   clues)     per clue)           per cell)        unrolled DFAs)   on cells only)
//!       ──decode/verify──▶ Grid (re-checked by the sre port) ──emit──▶ text, JSON Lines
//! ```
//!
//! | stage | module | in → out | fails with |
//! |---|---|---|---|
//! | parse | `puzzle` | bytes → `puzzle::Puzzle` | `error::InputError`: bad format, wrong sizes, bad encoding |
//! | compile | `compile` (with `dialect`) | clues → `compile::Automaton`s | `error::ClueError`: bad regex, unsupported construct, automaton too large |
//! | propagate | `propagate` | automata → cell domains (`propagate::SymSet`s) | — (an empty domain means no solution) |
//! | encode | `encode` | automata + domains → `encode::Cnf` | `error::EncodeError`: formula too large |
//! | solve | `solve` | domains or CNF → grids, by one of four strategies | `error::ClueError`: the counterexample loop's limit |
//! | deduce | `deduce` (behind [`Puzzle::explain`]) | domains → the steps a person takes; a difficulty | — |
//! | verify | `verify` | `verify::Grid` → independently re-checked, for every strategy | [`Error::Internal`]: a bug |
//! | emit | `emit`, `dimacs` | grid → text / JSON; CNF → DIMACS | `error::OutputError`: I/O |
//!
//! `pipeline` chains them; `crossat` (the binary, `src/bin/crossat/`) is a thin layer over them.
//!
//! # Module map
//!
//! The source tree is this architecture. docs/architecture.md holds the module map, one
//! row per module (`tests/architecture.rs` checks that it, this summary and `src/` agree, and
//! enforces who may use whom):
//!
//! | group | modules | may use |
//! |---|---|---|
//! | spine, `src/pipeline.rs` | `pipeline` | stages, support |
//! | stages (`src/stages/`), in pipeline order | `puzzle` → `dialect` (Python's `regex` and `sre`, ECMAScript's `ecma`) → `compile` → `propagate` → `encode` → `verify` → `solve` → `deduce` → `emit` → `dimacs` | earlier stages, support |
//! | features (`src/features/`) | `assist`, `explain`, `generate`, `words`, `squares`, `lint` | stages, pipeline, support; never another feature |
//! | support (`src/support/`) | `clock`, `error`, `limits`, `records`, `rng`, `stats`, `stop`, `style` | support |
//! | front end, `src/bin/crossat/` (binary only) | `main`, `cli`, `args`, `manual`, `io`, `print`, `app`, `jobs`, `bench`, `exit`, `stop`, `progress`, `terminal`, `draw` | the library |
//!
//! The group modules (`stages`, `features`, `support`) are private: each module is named
//! by its short name only, `crate::compile` for `src/stages/compile/`, `crate::sre` for
//! `src/stages/dialect/sre/`. A module other crates need is public under that name;
//! every item no other crate uses is `pub(crate)`.
//!
//!

#![deny(missing_docs)]
// An item `pub` inside a module other crates cannot reach is `pub(crate)`: the public
// surface is what the root exports, nothing hidden behind private modules.
#![warn(unreachable_pub)]

mod facade;
mod features;

mod pipeline;
mod stages;
mod support;
#[cfg(test)]
mod test_support;

// The modules under their short names, so that `crate::compile` (and, for a public
// module, `crossat::puzzle`) name a module wherever it sits in the tree.
pub(crate) use features::explain;
pub use features::{assist, generate, lint, squares, words};
pub(crate) use stages::deduce;
pub(crate) use stages::dialect::ecma;
pub(crate) use stages::dialect::{regex, sre};
pub use stages::puzzle;
pub(crate) use stages::{compile, dialect, dimacs, emit, encode, propagate, solve, verify};
pub(crate) use support::clock;
pub(crate) use support::stats;
pub use support::{error, limits, records, rng, stop, style};

pub use error::{Error, Result};
pub use solve::ProofFormat;
pub use solve::count::Big;
pub use solve::strategy::Listing;
pub use verify::Grid;

pub use facade::{Ending, Explanation, Model, Puzzle, Solution, Solutions};

/// docs/api.md's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/api.md")]
mod api_md {}
