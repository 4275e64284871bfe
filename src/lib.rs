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
//! [`pipeline`] chains them; `crossat` (the binary) is a thin layer over [`app`].

pub mod app;
pub mod assist;
pub mod bench;
pub mod cli;
pub mod compile;
pub mod dimacs;
pub mod draw;
pub mod emit;
pub mod encode;
pub mod error;
pub mod generate;
pub mod limits;
pub mod pipeline;
pub mod progress;
pub mod puzzle;
pub mod regex;
pub mod rng;
pub mod solve;
pub mod squares;
pub mod sre;
pub mod stats;
pub mod stop;
pub mod style;
pub mod verify;
pub mod words;
