//! The one integration-test binary (ripgrep style): each module is a topic.

mod common;

mod api;
mod architecture;
mod assist;
mod bad_input;
mod bounded;
mod charsets;
mod cli;
mod clues;
mod corpus;
mod count;
mod dialect;
mod dimacs;
mod docs;
mod draw;
mod early;
mod ecmadiff;
mod encoding;
mod explain;
mod formats;
mod frontend;
mod fuzz_corpus;
mod generate;
mod hexagons;
mod layouts;
mod lines;
mod parser;
mod parts;
mod play;
mod pydiff;
mod soak;
mod squares;
mod sre;
mod words;
