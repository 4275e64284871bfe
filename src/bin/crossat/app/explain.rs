//! `explain`: the steps of [`crossat::explain`] as numbered text (the clue as `solve`
//! labels it, cells as `hint` names them, the grid drawn after each step or at the
//! end) or as JSON Lines.

use super::input;
use crate::cli::{DrawWhen, ExplainArgs};
use crate::draw::Palette;
use crate::draw::{Mark, View};
use crate::exit::ExitCode;
use crate::io::read_source;
use crate::print::Printer;
use crossat::deduce::constraints::Constraint;
use crossat::deduce::{self, End, Kind, Step, Why, reason};
use crossat::error::Result;
use crossat::explain::{Answer, Explanation};
use crossat::pipeline::{self, Prepared};
use crossat::propagate::SymSet;
use crossat::puzzle;
use crossat::records;
use crossat::records::Difficulty;

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
    let mut prep = pipeline::prepare(&inp)?;
    let opts = deduce::Options { max_steps: args.max_steps, ..deduce::Options::default() };
    let ex = crossat::explain::explain(&mut prep, opts)?;
    crate::stop::finish();
    let mut text = String::new();
    if args.json {
        for step in crossat::explain::step_records(&prep, &ex) {
            text.push_str(&format!("{}\n", records::line(&step)));
        }
        text.push_str(&format!("{}\n", records::line(&crossat::explain::summary_record(&prep, &ex))));
    } else {
        let look = args.draw.options();
        let pal = Palette { on: look.color };
        let mut doms = ex.deduction.start.clone();
        for (n, step) in ex.deduction.steps.iter().enumerate() {
            step_text(&prep, &pal, step, &(n + 1).to_string(), "", &mut text);
            for (&c, r) in step.cells.iter().zip(&step.remaining) {
                doms[c] = *r;
            }
            if args.show == DrawWhen::Steps {
                text.push_str(&crate::draw::draw(&prep.puzzle, &view(&prep, &doms, Some(step)), look));
            }
        }
        if args.show == DrawWhen::End {
            text.push_str(&crate::draw::draw(&prep.puzzle, &view(&prep, &doms, None), look));
        }
        text.push_str(&ending(&prep, &ex));
    }
    write!(out, "{text}")?;
    Ok(if ex.answer == Answer::None { ExitCode::NoSolution } else { ExitCode::Solved })
}

/// The grid with the fixed cells filled; those `step` fixes marked, its clue too.
fn view(prep: &Prepared, doms: &[SymSet], step: Option<&Step>) -> View {
    let chars = prep.alphabet().chars();
    let grid = prep.puzzle.givens.len();
    let cells: Vec<Option<char>> = doms[..grid].iter().map(|d| (d.len() == 1).then(|| chars[d.iter().next().unwrap_or(0)])).collect();
    let mut v = View::partial(&cells);
    for (c, g) in prep.puzzle.givens.iter().enumerate() {
        if g.is_none() {
            v.marks[c] = Mark::Plain;
        }
    }
    if let Some(step) = step {
        for (&c, r) in step.cells.iter().zip(&step.remaining) {
            if r.len() == 1 && c < grid {
                v.marks[c] = Mark::Hint;
            }
        }
        v.hint_clues.extend(step.clue.filter(|&i| step.kind == Kind::Line && i < prep.puzzle.clues.len()));
    }
    v
}

/// A step as numbered text, indented by `indent`; a split's sub-steps below it.
fn step_text(prep: &Prepared, pal: &Palette, step: &Step, number: &str, indent: &str, text: &mut String) {
    let a = prep.alphabet();
    let name = |c: usize| deduce::constraints::cell_name(&prep.puzzle, c);
    let head = match (step.kind, step.clue.map(|i| deduce::constraints::constraint(&prep.puzzle, i))) {
        (Kind::Line, Some(Constraint::Clue(i))) => format!("{} '{}'", prep.puzzle.clues[i].label, prep.puzzle.clues[i].regex),
        (Kind::Line | Kind::Assign, Some(_)) => step.clue.map_or(String::new(), |i| deduce::constraints::label(&prep.puzzle, i)),
        (Kind::Split, _) => format!("case split on {}", step.cells.first().map_or(String::new(), |&c| name(c))),
        _ => "search".to_string(),
    };
    let uses = if step.uses.is_empty() {
        String::new()
    } else {
        format!(" (uses {})", step.uses.iter().map(|u| u.to_string()).collect::<Vec<_>>().join(", "))
    };
    text.push_str(&format!("{indent}{number}. {head}{uses}\n"));
    text.push_str(&format!("{indent}   {}\n", reason::describe(&prep.puzzle, a, step)));
    if let Why::Split { steps, .. } = &step.why {
        for (k, s) in steps.iter().enumerate() {
            step_text(prep, pal, s, &format!("{number}.{}", k + 1), &format!("{indent}   "), text);
        }
    }
    let grid = prep.puzzle.givens.len();
    // Pool entries that lose the same regexes and keep several are listed together.
    let mut shown = vec![false; step.cells.len()];
    for (k, ((&c, r), left)) in step.cells.iter().zip(&step.removed).zip(&step.remaining).enumerate() {
        if shown[k] {
            continue;
        }
        let set = |s: &SymSet| reason::contents(&prep.puzzle, a, c, s);
        let now = match left.len() {
            0 if c < grid => "no letter left".to_string(),
            0 => "no regex left".to_string(),
            1 if c < grid => format!("it is {}", pal.paint(Palette::HINT, &reason::letters(a, left))),
            1 => format!("it holds {}", pal.paint(Palette::HINT, &set(left))),
            _ => format!("{} left", set(left)),
        };
        let mut names = vec![name(c)];
        if c >= grid && left.len() > 1 {
            for (j, seen) in shown.iter_mut().enumerate().skip(k + 1) {
                if step.cells[j] >= grid && step.removed[j] == *r && step.remaining[j].len() > 1 {
                    *seen = true;
                    names.push(name(step.cells[j]));
                }
            }
        }
        let now = if names.len() > 1 { "each keeps the rest".to_string() } else { now };
        text.push_str(&format!("{indent}   {}: not {}; {now}\n", names.join(", "), set(r)));
    }
    if step.extra {
        text.push_str(&format!("{indent}   (some letters left may fit no word of the clue: too many words to try each)\n"));
    }
}

/// Why the answer is the only one, or what deduction could not show.
fn ending(prep: &Prepared, ex: &Explanation) -> String {
    let counts: Vec<String> = ex
        .counts()
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(k, n)| format!("{n} {} step{}", k.name(), if *n == 1 { "" } else { "s" }))
        .collect();
    let counts = if counts.is_empty() { "no step".to_string() } else { counts.join(", ") };
    let grid = prep.puzzle.givens.len();
    let name = |c: usize| deduce::constraints::cell_name(&prep.puzzle, c);
    let forced = match crossat::explain::assignment(prep, ex) {
        Some(a) if a.iter().all(Option::is_some) => "every cell and every entry's regex is forced",
        Some(_) => "every cell is forced, but not the assignment: some entries can hold more than one of their regexes",
        None => "every cell is forced",
    };
    match (&ex.answer, ex.deduction.end) {
        (Answer::Unique(_), End::Solved) => format!("unique by deduction: {forced} ({counts}){}\n", rated(ex)),
        (Answer::Unique(_), _) => {
            let open = ex.deduction.steps.last().map_or(0, |s| s.cells.len());
            format!("unique, by search for {open} of {grid} cells: deduction alone stalls ({counts}){}\n", rated(ex))
        }
        (Answer::None, End::Contradiction { cell }) => {
            format!("no solution: {} has no {} left ({counts})\n", name(cell), if cell < grid { "letter" } else { "regex" })
        }
        (Answer::None, _) => format!("no solution: the search finds none ({counts})\n"),
        (Answer::Several, _) => format!("not unique: the search finds more than one solution ({counts})\n"),
        (Answer::Unknown, End::StepLimit) => format!("stopped at the step limit ({counts})\n"),
        (Answer::Unknown, _) => format!("unknown: the search did not finish ({counts})\n"),
    }
}

/// The difficulty the steps show, as the end of the last line.
fn rated(ex: &Explanation) -> String {
    match ex.difficulty() {
        Some(Difficulty::Easy) => "; easy: lines alone".into(),
        Some(Difficulty::Medium) => "; medium: lines and case splits of depth 1".into(),
        Some(Difficulty::Hard) => "; hard: a deeper case split or the search".into(),
        None => String::new(),
    }
}
