//! crossat solves word-grid puzzles — regex crosswords first — by compiling them to SAT.
//!
//! ```text
//! bytes ──parse──▶ Puzzle ──compile──▶ Compiled ──encode──▶ Cnf ──solve──▶ models
//!                  (cells,    (one minimal DFA   (one-hot cells,    (varisat; block
//!                   clues)     per clue)          unrolled DFAs)     on cells only)
//!       ──decode/verify──▶ Grid (re-checked by the sre port) ──emit──▶ text, JSON Lines
//! ```
//!
//! | stage | module | in → out | fails with |
//! |---|---|---|---|
//! | parse | [`puzzle`] | bytes → [`puzzle::Puzzle`] | bad format, wrong sizes, bad encoding |
//! | compile | [`compile`] (with [`regex`]) | clues → [`compile::Automaton`]s | bad regex, unsupported construct, automaton too large |
//! | encode | [`encode`] | automata → [`encode::Cnf`] | formula too large |
//! | solve | [`solve`] | CNF → grids, blocked one by one | — |
//! | decode/verify | [`verify`] | model → [`verify::Grid`], independently re-checked | a bug (internal error) |
//! | emit | [`emit`], [`dimacs`] | grid → text / JSON; CNF → DIMACS | I/O |
//!
//! [`pipeline`] chains them; `crossat` (the binary, `src/bin/crossat/`) is a thin layer over them.
//!
//! # Module map
//!
//! The source tree is this architecture (docs/architecture.md has the table, and
//! `tests/architecture.rs` enforces who may use whom):
//!
//! | group | modules | may use |
//! |---|---|---|
//! | spine, `src/pipeline.rs` | [`pipeline`] | stages, support |
//! | [`stages`], in pipeline order | [`puzzle`] → [`regex`] → [`sre`] → [`compile`] → [`encode`] → [`solve`] → [`verify`] → [`draw`] → [`emit`] → [`dimacs`] | earlier stages, support |
//! | [`features`] | [`assist`], [`generate`], [`words`], [`squares`] | stages, pipeline, support; never another feature |
//! | [`support`] | [`error`], [`limits`], [`progress`], [`rng`], [`stats`], [`stop`], [`style`] | support |
//! | front end, `src/bin/crossat/` (binary only) | `main`, `cli`, `io`, `app`, `bench` | the library |
//!
//! Every module is re-exported here under its short name: `crossat::compile` is
//! `crossat::stages::compile`.

pub mod features;
pub mod pipeline;
pub mod stages;
pub mod support;

// The modules under their short names, so that `crate::compile` (and `crossat::compile`)
// name a module wherever it sits in the tree.
pub use features::{assist, generate, squares, words};
pub use stages::{compile, dimacs, draw, emit, encode, puzzle, regex, solve, sre, verify};
pub use support::{error, limits, progress, rng, stats, stop, style};
