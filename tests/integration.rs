//! The one integration-test binary (ripgrep style): each module is a topic.

mod common;

mod assist;
mod bad_input;
mod bounded;
mod cli;
mod corpus;
mod dimacs;
mod docs;
mod encoding;
mod fuzz_corpus;
mod generate;
mod layouts;
mod squares;
mod words;
