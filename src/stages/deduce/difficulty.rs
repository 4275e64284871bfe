//! How hard a puzzle is to solve by hand: the classes that [`super::Deduction::difficulty`]
//! reads off the steps and [`crate::deduce::rate`] computes without wording them.

/// How hard a puzzle is to solve by hand (see [`crate::deduce::rate::rate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Difficulty {
    /// Line by line: propagating each line's possibilities solves it.
    Easy,
    /// Line by line, plus trying a letter in a cell and seeing a line fail.
    Medium,
    /// Needs search beyond that.
    Hard,
}

impl Difficulty {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}
