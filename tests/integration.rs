//! The one integration-test binary (ripgrep style): each module is a topic.

mod common;

mod assist;
mod bad_input;
mod cli;
mod corpus;
mod dimacs;
mod docs;
mod draw;
mod encoding;
mod generate;
mod layouts;
mod play;
mod squares;
mod words;
