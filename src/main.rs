use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = crossat::cli::Cli::parse();
    let (mut out, mut err) = (std::io::stdout().lock(), std::io::stderr());
    match crossat::app::run(cli, &mut out, &mut err) {
        Ok(code) => ExitCode::from(code),
        // A closed pipe (`crossat solve --all … | head`) is not an error.
        Err(crossat::error::Error::Output(m)) if m.contains("Broken pipe") => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
