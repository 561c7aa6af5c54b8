//! The `realmgm` binary: parse the command line, run it, report errors on
//! stderr with a non-zero exit.

fn main() -> std::process::ExitCode {
    match realmgm::cli::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("realmgm: error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
