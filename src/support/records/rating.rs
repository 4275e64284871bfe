//! A puzzle's difficulty: the class ([`Difficulty`]) and the rating with the numbers
//! behind it ([`Rating`]), which `crossat::deduce::rate::rate` computes and which
//! `solve --stats` and `generate` print, in `--json` under `"rating"` / `"difficulty"`.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How hard a puzzle is to solve by hand (see `crossat::deduce::rate::rate`); in JSON
/// its lowercase name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Difficulty {
    /// Line by line: propagating each line's possibilities solves it.
    Easy,
    /// Line by line, plus trying a letter in a cell and seeing a line fail.
    Medium,
    /// Needs search beyond that.
    Hard,
}

impl std::fmt::Display for Difficulty {
    /// Its lowercase name, as in JSON: `easy`, `medium`, `hard`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Difficulty {
    /// Its name.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }
}

/// A puzzle's difficulty, with the numbers behind it.
///
/// In JSON the class comes first, as `"class"`: [`Rating::class`], the lowercase name,
/// or `null` when the puzzle is unrated; then the numbers, in the order of the fields.
/// Read back, a `null` class is [`Difficulty::Hard`] (what the rater reports for a
/// puzzle it cannot rate), which [`Rating::class`] hides again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub struct Rating {
    /// The class.
    #[serde(rename = "class", deserialize_with = "class_or_hard")]
    pub difficulty: Difficulty,
    /// Cells of the grid.
    pub cells: usize,
    /// Cells fixed by line propagation alone.
    pub by_lines: usize,
    /// Cells fixed by line propagation with probing.
    pub by_probing: usize,
    /// Probes made (a letter tried in a cell, then the lines propagated), in the
    /// whole proof.
    pub probes: usize,
    /// Search decisions the proof of uniqueness made: a cell split into its letters
    /// where propagation and probing left a choice (0 for easy and medium puzzles).
    pub decisions: usize,
    /// Solutions the proof found (at most 2).
    pub solutions: usize,
    /// Whether the proof finished within its limits on decisions and probes (if not,
    /// the class is `hard` and the counts are lower bounds).
    pub complete: bool,
}

impl std::fmt::Display for Rating {
    /// One line for people: the class and the numbers behind it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = format!("{} search decision{}", self.decisions, if self.decisions == 1 { "" } else { "s" });
        let proof = match (self.complete, self.solutions) {
            (false, _) => format!("the proof stopped at its limits after {d}"),
            (true, 0) => format!("no solution ({d})"),
            (true, 1) => format!("uniqueness proof: {d}"),
            (true, _) => format!("not unique ({d})"),
        };
        write!(
            f,
            "{}: line propagation fixes {} of {} cells, with probing {} ({} probes); {proof}",
            self.class().unwrap_or("unrated"),
            self.by_lines,
            self.cells,
            self.by_probing,
            self.probes
        )
    }
}

impl Rating {
    /// The rating, knowing how many solutions (0, 1, or 2 for several) another search
    /// that was exhausted or found two has shown: a puzzle with none or several is
    /// unrated (see [`Rating::class`]) even when the proof stopped at its limits before
    /// it could tell. `solve --stats` and `generate` rate with what their search found.
    pub(crate) fn knowing(mut self, solutions: Option<usize>) -> Rating {
        if let Some(n) = solutions.map(|n| n.min(2))
            && n != 1
        {
            self.solutions = n;
            self.complete = true;
        }
        self
    }

    /// The class's name, or `None` when the puzzle has no solution or several (shown by
    /// the proof, or by another search: `Rating::knowing`): difficulty measures a
    /// proof of uniqueness, which such a puzzle has none of.
    pub fn class(&self) -> Option<&'static str> {
        (!self.complete || self.solutions == 1).then(|| self.difficulty.name())
    }
}

impl Serialize for Rating {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut r = s.serialize_struct("Rating", 8)?;
        r.serialize_field("class", &self.class())?;
        r.serialize_field("cells", &self.cells)?;
        r.serialize_field("by_lines", &self.by_lines)?;
        r.serialize_field("by_probing", &self.by_probing)?;
        r.serialize_field("probes", &self.probes)?;
        r.serialize_field("decisions", &self.decisions)?;
        r.serialize_field("solutions", &self.solutions)?;
        r.serialize_field("complete", &self.complete)?;
        r.end()
    }
}

/// Reads `"class"`: a class's name, or `null` for an unrated puzzle (see [`Rating`]).
fn class_or_hard<'de, D: Deserializer<'de>>(d: D) -> Result<Difficulty, D::Error> {
    Ok(Option::<Difficulty>::deserialize(d)?.unwrap_or(Difficulty::Hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rating(difficulty: Difficulty, solutions: usize, complete: bool) -> Rating {
        Rating { difficulty, cells: 4, by_lines: 2, by_probing: 3, probes: 5, decisions: 1, solutions, complete }
    }

    #[test]
    fn the_class_is_a_lowercase_name_or_null_and_reads_back() {
        let unique = rating(Difficulty::Medium, 1, true);
        assert_eq!(
            crate::records::line(&unique),
            r#"{"class":"medium","cells":4,"by_lines":2,"by_probing":3,"probes":5,"decisions":1,"solutions":1,"complete":true}"#
        );
        // Unrated: several solutions, or none, shown by an exhausted proof.
        for (solutions, complete) in [(2, true), (0, true)] {
            let text = crate::records::line(&rating(Difficulty::Easy, solutions, complete));
            assert!(text.starts_with(r#"{"class":null,"#), "{text}");
            let back: Rating = serde_json::from_str(&text).expect("parses");
            assert_eq!((back.difficulty, back.class(), crate::records::line(&back)), (Difficulty::Hard, None, text));
        }
        // A proof stopped at its limits keeps its class.
        let stopped = rating(Difficulty::Hard, 0, false);
        assert!(crate::records::line(&stopped).starts_with(r#"{"class":"hard","#));
        for r in [unique, stopped] {
            assert_eq!(serde_json::from_str::<Rating>(&crate::records::line(&r)).ok(), Some(r));
        }
        for d in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
            assert_eq!(crate::records::line(&d), format!("\"{}\"", d.name()));
        }
    }

    #[test]
    fn a_class_that_is_no_difficulty_is_refused() {
        let text = r#"{"class":"expert","cells":4,"by_lines":2,"by_probing":3,"probes":5,"decisions":1,"solutions":1,"complete":true}"#;
        assert!(serde_json::from_str::<Rating>(text).is_err());
    }
}
