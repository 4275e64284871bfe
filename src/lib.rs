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

pub mod features;
pub mod pipeline;
pub mod stages;
pub mod support;

// The modules under their short names, so that `crate::compile` (and `crossat::compile`)
// name a module wherever it sits in the tree.
pub use features::{assist, generate, squares, words};
pub use stages::{compile, dimacs, draw, emit, encode, puzzle, regex, solve, sre, verify};
pub use support::{error, limits, progress, rng, stats, stop, style};
