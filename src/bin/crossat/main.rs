//! The `crossat` command, the library's front end: [`cli`] declares the arguments and
//! [`args`] checks them,
//! [`app`] runs a command, [`bench`] measures the pipeline, [`io`] reads and writes
//! files for both, [`print`] is the printer commands write through, [`stop`] handles
//! signals, `--timeout` and standard output, [`jobs`] shares work out over threads, [`exit`]
//! names the exit statuses, [`progress`] draws progress bars and [`terminal`] decides
//! colour and box drawing. None of it is part of the library (docs/architecture.md).

mod app;
mod args;
mod bench;
mod cli;
mod draw;
mod exit;
mod io;
mod jobs;
mod manual;
mod print;
mod progress;
mod stop;
mod terminal;

use crossat::error::Error;
use std::io::Write;

fn main() -> std::process::ExitCode {
    let cli = cli::parse();
    stop::catch_signals();
    if !cli.command.checks_for_stops() {
        stop::watch();
    }
    let (mut out, mut err) = (stop::Stdout::new(), stop::Stderr::default());
    let result = app::run(cli, &mut print::Printer::new(&mut out, "standard output"), &mut print::Printer::new(&mut err, "standard error"))
        .and_then(|code| print::Printer::new(&mut out, "standard output").flush().map(|()| code));
    // The answer is complete (or the command failed): a late stop must not add to it.
    stop::finish();
    match result {
        Ok(code) => code.into(),
        // A closed pipe (`crossat solve --all … | head`) is not an error, whatever
        // error the failed write became on its way up.
        Err(_) if out.pipe_closed() || err.pipe_closed() => exit::ExitCode::Solved.into(),
        // A stop cancelled the work: it prints the summary and exits the process.
        Err(Error::Cancelled) => stop::await_stop().into(),
        Err(e) => {
            // Whatever was printed before the error stays printed.
            let _ = out.flush();
            eprintln!("error: {}", io::cli_message(&e));
            exit::ExitCode::of_error(&e).into()
        }
    }
}
