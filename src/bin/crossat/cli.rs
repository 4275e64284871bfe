//! Command-line arguments (clap derive): what clap parses. What clap cannot check is
//! checked once, right after parsing, by [`crate::args::check`], which fills the
//! `#[arg(skip)]` fields with the checked values the commands use.

use crate::exit::ExitCode;
use clap::{Args, Parser, Subcommand};
use crossat::puzzle::Format;
use std::path::PathBuf;

/// Solve word-grid puzzles (regex crosswords) by compiling them to SAT.
///
/// The help's footer, with the exit statuses, is added by [`command`].
#[derive(Debug, Parser)]
#[command(name = "crossat", version, about, long_about = None)]
pub struct Cli {
    /// Refuse input files (and standard input) larger than BYTES.
    #[arg(long, global = true, value_name = "BYTES", default_value_t = crossat::limits::Limits::default().max_input_bytes)]
    pub max_input_bytes: u64,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands. Each one's arguments are declared only when it runs (`defer`): building
/// every subcommand's arguments was 40 % of the instructions of a run on a small puzzle.
/// Inside a deferred subcommand a doc comment on an argument struct (or one flattened
/// into it) would replace the variant's in `help` and `man`, so those structs carry
/// plain comments.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Solve a puzzle: print the first solution and whether it is unique.
    Solve(SolveArgs),
    /// Write the puzzle's CNF in DIMACS format, with comments mapping variables to cells.
    Dimacs(DimacsArgs),
    /// List the puzzles of collections (challenges.json) and describe single puzzles, in
    /// files or folders.
    List(ListArgs),
    /// Check a filled or partial grid: which clues fail and where, or whether it can
    /// still be completed (and if not, which clues and givens conflict).
    Check(CheckArgs),
    /// Show a cell whose value is forced, preferring what one line shows by itself.
    Hint(HintArgs),
    /// Explain the solution step by step, as a person would solve it: each deduction
    /// from one clue, case splits where lines stall, and why the answer is the only one.
    Explain(ExplainArgs),
    /// For setters: the clues whose meaning differs between Python's re and ECMAScript's RegExp.
    Lint(LintArgs),
    /// Solve a building-blocks puzzle: fill word patterns with blocks from a pool so
    /// that every word is in the dictionary.
    Blocks(BlocksArgs),
    /// Generate a new puzzle with exactly one solution, hiding a text.
    Generate(GenerateArgs),
    /// Generate word squares: two-letter or blank cells, every row and column a word.
    Squares(SquaresArgs),
    /// Solve and prove uniqueness for every puzzle in folders or files; print stage times.
    Bench(BenchArgs),
    /// Print a completion script for a shell, e.g. `crossat completions bash >
    /// ~/.local/share/bash-completion/completions/crossat`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), e.g. `crossat man | man -l -`.
    Man,
}

impl Command {
    /// Whether the command's work goes through the pipeline, which checks for a stop
    /// often ([`crate::stop::check`]) and starts the signal thread before it may block
    /// (a SAT call, standard input): then the thread starts only if needed. Other
    /// commands (and `solve --stats`, whose rating probes for long) start it at once.
    pub fn checks_for_stops(&self) -> bool {
        match self {
            Command::Solve(args) => !args.stats,
            Command::Dimacs(_) | Command::List(_) => true,
            _ => false,
        }
    }
}

// `crossat completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

// Bounds on a search.
#[derive(Debug, Args)]
pub struct StopArgs {
    /// Stop after SECONDS: print what was found, a summary saying the search is not
    /// complete ("reason": "timeout"), and exit with status 4.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// `--timeout`, checked ([`crate::args::check`]).
    #[arg(skip)]
    pub limit: Option<std::time::Duration>,
}

// Threads for the commands that can share their work out.
#[derive(Debug, Args, Clone, Copy)]
pub struct JobsArgs {
    /// Threads to work on (default: the machine's cores; 1: this thread only). The
    /// results do not depend on it.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub jobs: Option<u64>,
    /// `--jobs`, or the machine's cores ([`crate::args::check`]).
    #[arg(skip)]
    pub threads: usize,
}

impl JobsArgs {
    /// The threads to use (at least 1).
    pub fn get(&self) -> usize {
        self.threads.max(1)
    }
}

/// Output formats of `crossat generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PuzzleFormat {
    /// crossat JSON.
    Crossat,
    /// regexcrossword.com's challenges.json shape (rectangles).
    Challenges,
    /// antoine-trux text.
    Trux,
}

// `crossat generate`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("shape").required(true).args(["size", "hex"])))]
pub struct GenerateArgs {
    /// A rectangle, e.g. `6x6` (each side 1 to 24).
    #[arg(long, value_name = "RxC")]
    pub size: Option<String>,
    /// A hexagon of this side (2 to 8), or of three side lengths TOPxNWxNE (each 1 to 8,
    /// e.g. `4x5x5`: top, upper-left and upper-right edges).
    #[arg(long, value_name = "HEX")]
    pub hex: Option<String>,
    /// The text to hide, row by row (padded with its own letters; default: random letters).
    #[arg(long)]
    pub text: Option<String>,
    /// Clues per line: 1 (left/top) or 2 (also right/bottom).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=2))]
    pub sides: u8,
    /// Allow back-references in clues.
    #[arg(long)]
    pub backrefs: bool,
    /// Allow lookaheads in clues.
    #[arg(long)]
    pub lookarounds: bool,
    /// How hard the puzzle should be (default: whatever comes; `crossat man` describes
    /// the classes under DIFFICULTY).
    #[arg(long, value_enum)]
    pub difficulty: Option<crossat::records::Difficulty>,
    /// No progress display on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// Random seed: the same seed gives the same puzzle (default: a fresh seed from the
    /// operating system, printed with the puzzle).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "crossat")]
    pub output_format: PuzzleFormat,
    /// One JSON line with the puzzle in every output format (crossat, trux, challenges),
    /// its solution, its seed and statistics.
    #[arg(long)]
    pub json: bool,
    /// Give up after SECONDS: no puzzle is printed (a summary with "complete": false
    /// with --json, else a line on standard error), and the exit status is 4.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// `--timeout`, checked.
    #[arg(skip)]
    pub limit: Option<std::time::Duration>,
    /// `--size` or `--hex`, checked.
    #[arg(skip)]
    pub shape: Option<crossat::puzzle::Shape>,
    /// Write N puzzles, from the seeds SEED, SEED+1, … (each the puzzle its seed gives
    /// alone), in that order.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub batch: Option<u64>,
    #[command(flatten)]
    pub jobs: JobsArgs,
}

// How grids are drawn (`solve`, `check`, `hint`).
#[derive(Debug, Args, Clone, Copy, Default)]
pub struct DrawArgs {
    /// Draw with ASCII characters (default: Unicode box drawing, unless the locale is not UTF-8).
    #[arg(long)]
    pub ascii: bool,
    /// The bare grid, without the clues beside it.
    #[arg(long)]
    pub no_clues: bool,
    /// Colour: auto (on a terminal, unless NO_COLOR; or with CLICOLOR_FORCE), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub color: crate::terminal::ColorWhen,
}

impl DrawArgs {
    /// The drawing options these flags ask for, in this environment (see [`crate::terminal`]).
    pub fn options(&self) -> crate::draw::Options {
        crate::draw::Options {
            unicode: !self.ascii && crate::terminal::unicode_locale(),
            clues: !self.no_clues,
            color: crate::terminal::color_enabled(self.color),
        }
    }
}

// `crossat check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub draw: DrawArgs,
    /// The grid to check: a file (or `-`) with one row per line, `.` for an empty cell.
    pub grid: PathBuf,
    /// JSON Lines output.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub stop: StopArgs,
}

// `crossat hint`.
#[derive(Debug, Args)]
pub struct HintArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub draw: DrawArgs,
    /// The player's partial grid (as `check` takes it; `-` for standard input): the hint
    /// is the next cell it forces, drawn on it.
    #[arg(long, value_name = "GRID", conflicts_with = "given")]
    pub grid: Option<PathBuf>,
    /// Every forced cell (the backbone), not just the next one.
    #[arg(long)]
    pub all: bool,
    /// Name the clues (and filled cells) that force the cell: a minimal set.
    #[arg(long)]
    pub explain: bool,
    /// JSON Lines output.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub stop: StopArgs,
}

// `crossat explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub draw: DrawArgs,
    /// The player's partial grid (as `check` takes it; `-` for standard input): explain
    /// from its filled cells.
    #[arg(long, value_name = "GRID", conflicts_with = "given")]
    pub grid: Option<PathBuf>,
    /// When to draw the grid: after every step, at the end, or never.
    #[arg(long = "draw", value_enum, value_name = "WHEN", default_value = "end")]
    pub show: DrawWhen,
    /// Stop after N steps (counting those inside case splits).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<usize>,
    /// JSON Lines: one `{"type":"step",…}` per step, then a `{"type":"summary",…}`.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub stop: StopArgs,
}

/// When `crossat explain` draws the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DrawWhen {
    /// After every step.
    Steps,
    /// Once, at the end.
    End,
    /// Never.
    None,
}

// How to read a puzzle.
#[derive(Debug, Args)]
pub struct PuzzleArgs {
    /// Puzzle file, or `-` for standard input.
    pub file: PathBuf,
    /// Input format (detected from the content when absent).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Which puzzle of a collection: its id, `set/number` (e.g. `beginner/1`) or name.
    #[arg(long)]
    pub id: Option<String>,
    /// The literal set of characters a cell may hold (default: those the clues mention).
    #[arg(long, value_name = "CHARS")]
    pub alphabet: Option<String>,
    /// `--alphabet`, checked: not empty.
    #[arg(skip)]
    pub chars: Option<Vec<char>>,
    /// A file with a partial grid: one row per line, `.` for an empty cell.
    #[arg(long, value_name = "FILE")]
    pub given: Option<PathBuf>,
    /// The regex pool of a regex-pool CSV (default: the `.txt` file beside it).
    #[arg(long, value_name = "FILE")]
    pub pool: Option<PathBuf>,
    /// The clues' regex dialect (default: the puzzle's "dialect", else its format's:
    /// ecmascript for challenges.json, python otherwise).
    #[arg(long, value_enum)]
    pub dialect: Option<crossat::puzzle::Dialect>,
}

// `crossat solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub draw: DrawArgs,
    /// No progress display on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print up to N solutions.
    #[arg(long, value_name = "N", conflicts_with = "all")]
    pub limit: Option<usize>,
    /// Print every solution, then the exact count.
    #[arg(long)]
    pub all: bool,
    /// With --all or --limit: print the solutions sorted (row by row), the same output
    /// for any --jobs. The whole search runs first; with --limit N, the N smallest.
    #[arg(long)]
    pub sorted: bool,
    /// Print the exact number of solutions, counted without listing them.
    #[arg(long, conflicts_with_all = ["all", "limit", "unique", "model"])]
    pub count: bool,
    /// JSON Lines: one `{"type":"solution",…}` per solution, then a `{"type":"summary",…}`.
    #[arg(long)]
    pub json: bool,
    /// Per-stage times and sizes (on stderr; inside the summary with --json).
    #[arg(long)]
    pub stats: bool,
    /// Most decisions of the line search tried before the SAT search (0: straight to
    /// SAT; default: 1000000 when every clue is regular, 0 otherwise)
    #[arg(long, value_name = "N")]
    pub line_search_nodes: Option<usize>,
    /// Require exactly one solution: exit 1 unless the puzzle is unique.
    #[arg(long, conflicts_with_all = ["all", "limit"])]
    pub unique: bool,
    /// With --unique: write a proof that no second solution exists (the CNF with the
    /// first solution blocked is unsatisfiable).
    #[arg(long, value_name = "PROOF", requires = "unique")]
    pub proof: Option<PathBuf>,
    /// Format of the proof.
    #[arg(long, value_enum, default_value = "drat", requires = "proof")]
    pub proof_format: crossat::ProofFormat,
    /// With --proof: also write the formula the proof refers to (the CNF plus the
    /// clause blocking the first solution), in DIMACS.
    #[arg(long, value_name = "CNF", requires = "proof")]
    pub proof_cnf: Option<PathBuf>,
    /// Decode and verify a model printed by an external SAT solver for `crossat dimacs`'s CNF.
    #[arg(long, value_name = "MODEL", conflicts_with_all = ["all", "limit"])]
    pub model: Option<PathBuf>,
    #[command(flatten)]
    pub stop: StopArgs,
    #[command(flatten)]
    pub jobs: JobsArgs,
}

// `crossat dimacs`.
#[derive(Debug, Args)]
pub struct DimacsArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// Output file, `-` for standard output.
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
    #[command(flatten)]
    pub stop: StopArgs,
}

// `crossat list`.
#[derive(Debug, Args)]
pub struct ListArgs {
    /// Collections, puzzle files or folders (every puzzle file inside), or `-` for
    /// standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// JSON Lines output.
    #[arg(long)]
    pub json: bool,
    /// The dialect to report (default: each puzzle's, as `solve` reads it).
    #[arg(long, value_enum)]
    pub dialect: Option<crossat::puzzle::Dialect>,
}

// `crossat lint`.
#[derive(Debug, Args)]
pub struct LintArgs {
    /// Puzzle file or collection (every puzzle of it unless --id), or `-` for standard input.
    pub file: PathBuf,
    /// Input format (detected from the content when absent).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Lint one puzzle of a collection: its id, `set/number` or name.
    #[arg(long)]
    pub id: Option<String>,
    /// The literal set of characters a cell may hold (default: the puzzle's, as `solve` infers it).
    #[arg(long, value_name = "CHARS")]
    pub alphabet: Option<String>,
    /// `--alphabet`, checked: not empty.
    #[arg(skip)]
    pub chars: Option<Vec<char>>,
    /// The regex pool of a regex-pool CSV (default: the `.txt` file beside it).
    #[arg(long, value_name = "FILE")]
    pub pool: Option<PathBuf>,
    /// JSON Lines: one `{"type":"clue",…}` per clue that differs, then a `{"type":"summary",…}`.
    #[arg(long)]
    pub json: bool,
}

// `crossat bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Folders (every file inside) or puzzle files; collections are expanded.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Runs per puzzle (at least 1); medians are reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub repeat: u64,
    /// No progress display on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// JSON Lines output.
    #[arg(long)]
    pub json: bool,
    /// Give up on a puzzle after SECONDS (reported as skipped: timeout) and go on.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// `--timeout`, checked.
    #[arg(skip)]
    pub limit: Option<std::time::Duration>,
    // Puzzles measured at a time; the lines come in the puzzles' order.
    #[command(flatten)]
    pub jobs: JobsArgs,
}

// The word list of dictionary puzzles.
#[derive(Debug, Args)]
pub struct DictArgs {
    /// A one-word-per-line file instead of the built-in Wordnik list.
    #[arg(long, value_name = "FILE")]
    pub dict: Option<PathBuf>,
    /// Lowercase every word of --dict instead of keeping only lowercase a-z lines.
    #[arg(long, requires = "dict")]
    pub fold_case: bool,
}

// `crossat blocks`.
#[derive(Debug, Args)]
pub struct BlocksArgs {
    /// The puzzle: JSON `{"patterns": [...], "blocks": [...]}` or `patterns:`/`blocks:` lines; `-` for stdin.
    pub file: PathBuf,
    #[command(flatten)]
    pub dict: DictArgs,
    /// Print every solution, then the exact count.
    #[arg(long)]
    pub all: bool,
    /// JSON Lines output.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub stop: StopArgs,
}

// `crossat squares`.
#[derive(Debug, Args)]
pub struct SquaresArgs {
    /// Cells per row.
    #[arg(long, short = 'W', default_value_t = 5)]
    pub width: usize,
    /// Cells per column.
    #[arg(long, short = 'H', default_value_t = 5)]
    pub height: usize,
    #[command(flatten)]
    pub dict: DictArgs,
    /// Random seed: the same seed gives the same squares, other seeds other squares
    /// (default: a fresh seed from the operating system, printed with the squares).
    #[arg(long)]
    pub seed: Option<u64>,
    /// How many different squares to print.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    /// JSON Lines output.
    #[arg(long)]
    pub json: bool,
    /// No progress, dictionary or seed messages on stderr.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write the formula (without the lazily added no-repeat clauses) in DIMACS to FILE instead of solving.
    #[arg(long, value_name = "FILE")]
    pub dimacs: Option<PathBuf>,
    #[command(flatten)]
    pub stop: StopArgs,
    /// How to look for squares: the dedicated search (fast) or the SAT solver.
    #[arg(long, value_enum, default_value_t = SquaresMethod::Search)]
    pub method: SquaresMethod,
    /// Decide with the SAT solver whether any square exists: print one if so, else prove that none does.
    #[arg(long, conflicts_with_all = ["method", "count"])]
    pub prove_none: bool,
    /// A partial grid fixing some cells: a line per row of W cells, each two letters, `-` (blank) or `?` (free).
    #[arg(long, value_name = "FILE")]
    pub given: Option<PathBuf>,
    /// Draw with ASCII characters (default: Unicode box drawing, unless the locale is not UTF-8).
    #[arg(long)]
    pub ascii: bool,
    // Threads for the search's portfolio (at most 8).
    #[command(flatten)]
    pub jobs: JobsArgs,
}

/// How `crossat squares` looks for squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SquaresMethod {
    /// Cell-by-cell search over the word automata, with lookahead and restarts.
    Search,
    /// The SAT encoding, solved by varisat (exhaustive: proves when none exists).
    Sat,
}

/// The command line: [`Cli`]'s arguments, with a footer listing the exit statuses
/// (from [`ExitCode`], where they are defined).
pub fn command() -> clap::Command {
    let statuses: Vec<String> = ExitCode::DOCUMENTED.iter().map(|c| format!("{} {}", c.code(), c.label())).collect();
    <Cli as clap::CommandFactory>::command()
        // clap's own `help` takes no options, so `crossat help --help` was a usage error;
        // this one has its own help, and prints a command's as `COMMAND --help` does.
        .disable_help_subcommand(true)
        .subcommand(
            clap::Command::new("help")
                .about("Print this help, or a command's help (as `crossat COMMAND --help` does)")
                .arg(clap::Arg::new("command").value_name("COMMAND").num_args(0..=1).help("The command whose help to print")),
        )
        .after_help(format!(
        "Exit status: {}; a stopped search prints what it found and a summary with \"complete\": false.\nEach command has its own help: crossat help COMMAND. The manual page, `crossat man`, describes every command, the puzzle formats and the exit statuses; `crossat completions SHELL` prints shell completions.",
        statuses.join(", ")
    ))
}

/// Parses the process's arguments (exiting with clap's message on bad usage).
pub fn parse() -> Cli {
    use clap::FromArgMatches;
    // `_mut` takes the matches apart instead of cloning them first, as `Parser::parse` does.
    let mut matches = command().get_matches();
    if let Some(("help", help)) = matches.subcommand() {
        let mut args = vec!["crossat"];
        args.extend(help.get_one::<String>("command").map(String::as_str));
        args.push("--help");
        // Exits: with the help, or with clap's message for an unknown command.
        let e = command().try_get_matches_from(args).err().unwrap_or_else(|| clap::Error::new(clap::error::ErrorKind::DisplayHelp));
        e.exit()
    }
    Cli::from_arg_matches_mut(&mut matches).unwrap_or_else(|e| e.format(&mut command()).exit())
}
