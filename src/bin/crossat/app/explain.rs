//! `explain`: the steps of [`crossat::Puzzle::explain`] as numbered text (the clue as
//! `solve` labels it, cells as `hint` names them, the grid drawn after each step or at
//! the end) or as JSON Lines.

use super::input;
use crate::cli::{DrawWhen, ExplainArgs};
use crate::draw::Palette;
use crate::draw::{Mark, View};
use crate::exit::ExitCode;
use crate::io::read_source;
use crate::print::Printer;
use crossat::error::Result;
use crossat::records::{self, Answer, Difficulty, StepKind};
use crossat::{Ending, Explanation, puzzle};

/// Most regexes of a pool entry named one by one (past it, their number), as the
/// reasons name them.
const MAX_REGEXES_SHOWN: usize = 4;

pub(super) fn explain(args: &ExplainArgs, out: &mut Printer<'_>) -> Result<ExitCode> {
    let mut paths = super::input_paths(&args.puzzle);
    paths.push(args.grid.as_deref());
    super::one_stdin(&paths)?;
    super::start(&args.stop, super::plain_epilogue(args.json, records::Unfinished {}, "the explanation did not finish"))?;
    let mut inp = input(&args.puzzle)?;
    if let Some(path) = &args.grid {
        let (name, bytes) = read_source(path)?;
        inp.given = Some(puzzle::parse_grid_rows(puzzle::utf8(&name, &bytes)?));
        inp.given_source = Some(name);
    }
    let mut puzzle = crossat::Puzzle::from_input(&inp)?;
    let ex = puzzle.explain(args.max_steps)?;
    crate::stop::finish();
    let text = if args.json {
        let mut text = String::new();
        for step in &ex.steps {
            text.push_str(&format!("{}\n", crate::print::line(step)));
        }
        text.push_str(&format!("{}\n", crate::print::line(&ex.summary)));
        text
    } else {
        Text::new(puzzle.puzzle(), Palette { on: args.draw.options().color }).explanation(&ex, args)?
    };
    write!(out, "{text}")?;
    Ok(if ex.summary.answer == Answer::None { ExitCode::NoSolution } else { ExitCode::Solved })
}

/// The puzzle an explanation's text is written for.
struct Text<'a> {
    puzzle: &'a puzzle::Puzzle,
    pal: Palette,
}

impl<'a> Text<'a> {
    fn new(puzzle: &'a puzzle::Puzzle, pal: Palette) -> Text<'a> {
        Text { puzzle, pal }
    }

    /// The cell a record names by `[row, column]`.
    fn cell(&self, cell: &records::Cell) -> Result<usize> {
        super::cell_of(self.puzzle, *cell)
    }

    /// A cell's name, as `hint` names it.
    fn name(&self, cell: &records::Cell) -> Result<String> {
        Ok(self.puzzle.shape.cell_name(self.cell(cell)?))
    }

    /// The numbered steps, the grid drawn as `args` asks, then the ending.
    fn explanation(&self, ex: &Explanation, args: &ExplainArgs) -> Result<String> {
        let look = args.draw.options();
        let mut text = String::new();
        let mut cells = ex.start.clone();
        for rec in &ex.steps {
            let step = &rec.step;
            self.step(step, &step.number.to_string(), "", &mut text)?;
            for (cell, left) in step.cells.iter().zip(&step.remaining) {
                cells[self.cell(cell)?] = only(left);
            }
            if args.show == DrawWhen::Steps {
                text.push_str(&crate::draw::draw(self.puzzle, &self.view(&cells, Some(step))?, look));
            }
        }
        if args.show == DrawWhen::End {
            text.push_str(&crate::draw::draw(self.puzzle, &self.view(&cells, None)?, look));
        }
        text.push_str(&self.ending(ex)?);
        Ok(text)
    }

    /// The grid with the fixed cells filled; those `step` fixes marked, its clue too.
    fn view(&self, cells: &[Option<char>], step: Option<&records::Step>) -> Result<View> {
        let mut v = View::partial(cells);
        for (c, g) in self.puzzle.givens.iter().enumerate() {
            if g.is_none() {
                v.marks[c] = Mark::Plain;
            }
        }
        if let Some(step) = step {
            for (cell, left) in step.cells.iter().zip(&step.remaining) {
                if only(left).is_some() {
                    v.marks[self.cell(cell)?] = Mark::Hint;
                }
            }
            v.hint_clues.extend(step.clue.filter(|_| step.kind == StepKind::Line));
        }
        Ok(v)
    }

    /// A step as numbered text, indented by `indent`; a split's sub-steps below it.
    fn step(&self, step: &records::Step, number: &str, indent: &str, text: &mut String) -> Result<()> {
        let entries = step.entries.as_deref().unwrap_or_default();
        let head = match (step.kind, step.clue) {
            (StepKind::Line, Some(i)) => format!("{} '{}'", self.puzzle.clues[i].label, self.puzzle.clues[i].regex),
            (StepKind::Line | StepKind::Assign, _) => step.line.clone().unwrap_or_default(),
            // A pool entry's cell comes before its line's cells.
            (StepKind::Split, _) => format!(
                "case split on {}",
                match (entries.first(), step.cells.first()) {
                    (Some(e), _) => e.entry.clone(),
                    (None, Some(c)) => self.name(c)?,
                    (None, None) => String::new(),
                }
            ),
            _ => "search".to_string(),
        };
        let uses = if step.uses.is_empty() {
            String::new()
        } else {
            format!(" (uses {})", step.uses.iter().map(|u| u.to_string()).collect::<Vec<_>>().join(", "))
        };
        text.push_str(&format!("{indent}{number}. {head}{uses}\n"));
        text.push_str(&format!("{indent}   {}\n", step.reason));
        for (k, s) in step.steps.iter().flatten().enumerate() {
            self.step(s, &format!("{number}.{}", k + 1), &format!("{indent}   "), text)?;
        }
        // The pool entries a step changes (in the steps, before the grid's cells); those
        // that lose the same regexes and keep several are listed together.
        let mut shown = vec![false; entries.len()];
        for (k, e) in entries.iter().enumerate() {
            if shown[k] {
                continue;
            }
            let mut names = vec![e.entry.clone()];
            if e.remaining.len() > 1 {
                for (j, seen) in shown.iter_mut().enumerate().skip(k + 1) {
                    if entries[j].removed == e.removed && entries[j].remaining.len() > 1 {
                        *seen = true;
                        names.push(entries[j].entry.clone());
                    }
                }
            }
            let now = match e.remaining.len() {
                _ if names.len() > 1 => "each keeps the rest".to_string(),
                0 => "no regex left".to_string(),
                1 => format!("it holds {}", self.pal.paint(Palette::HINT, &regexes(&e.remaining))),
                _ => format!("{} left", regexes(&e.remaining)),
            };
            text.push_str(&format!("{indent}   {}: not {}; {now}\n", names.join(", "), regexes(&e.removed)));
        }
        for ((cell, removed), left) in step.cells.iter().zip(&step.removed).zip(&step.remaining) {
            let now = match left.chars().count() {
                0 => "no letter left".to_string(),
                1 => format!("it is {}", self.pal.paint(Palette::HINT, &letters(left))),
                _ => format!("{} left", letters(left)),
            };
            text.push_str(&format!("{indent}   {}: not {}; {now}\n", self.name(cell)?, letters(removed)));
        }
        if step.extra {
            text.push_str(&format!("{indent}   (some letters left may fit no word of the clue: too many words to try each)\n"));
        }
        Ok(())
    }

    /// Why the answer is the only one, or what deduction could not show.
    fn ending(&self, ex: &Explanation) -> Result<String> {
        let s = &ex.summary;
        let counts: Vec<String> = [("line", s.line), ("assign", s.assign), ("split", s.split), ("search", s.search)]
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| format!("{n} {k} step{}", if *n == 1 { "" } else { "s" }))
            .collect();
        let counts = if counts.is_empty() { "no step".to_string() } else { counts.join(", ") };
        let forced = match &s.assignment {
            Some(a) if a.0.iter().all(|(_, r)| r.is_some()) => "every cell and every entry's regex is forced",
            Some(_) => "every cell is forced, but not the assignment: some entries can hold more than one of their regexes",
            None => "every cell is forced",
        };
        let rated = match s.difficulty {
            Some(Difficulty::Easy) => "; easy: lines alone",
            Some(Difficulty::Medium) => "; medium: lines and case splits of depth 1",
            Some(Difficulty::Hard) => "; hard: a deeper case split or the search",
            None => "",
        };
        Ok(match (s.answer, &ex.ending) {
            (Answer::Unique, Ending::Solved) => format!("unique by deduction: {forced} ({counts}){rated}\n"),
            (Answer::Unique, _) => {
                let open = ex.steps.last().map_or(0, |r| r.step.cells.len() + r.step.entries.as_ref().map_or(0, Vec::len));
                let grid = self.puzzle.givens.len();
                format!("unique, by search for {open} of {grid} cells: deduction alone stalls ({counts}){rated}\n")
            }
            (Answer::None, Ending::EmptyCell(cell)) => format!("no solution: {} has no letter left ({counts})\n", self.name(cell)?),
            (Answer::None, Ending::EmptyEntry(entry)) => format!("no solution: {entry} has no regex left ({counts})\n"),
            (Answer::None, _) => format!("no solution: the search finds none ({counts})\n"),
            (Answer::Several, _) => format!("not unique: the search finds more than one solution ({counts})\n"),
            (Answer::Unknown, Ending::StepLimit) => format!("stopped at the step limit ({counts})\n"),
            (Answer::Unknown, _) => format!("unknown: the search did not finish ({counts})\n"),
        })
    }
}

/// The one letter of `left`, if it holds one.
fn only(left: &str) -> Option<char> {
    let mut chars = left.chars();
    chars.next().filter(|_| chars.next().is_none())
}

/// Letters, each shown visibly, separated by spaces.
fn letters(set: &str) -> String {
    set.chars().map(crossat::style::visible).collect::<Vec<_>>().join(" ")
}

/// A pool entry's regexes, quoted and joined with "or" (their number past
/// [`MAX_REGEXES_SHOWN`]).
fn regexes(set: &[String]) -> String {
    match set.len() {
        n if n > MAX_REGEXES_SHOWN => format!("{n} regexes"),
        _ => set.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(" or "),
    }
}
