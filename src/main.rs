//! The `realmgm` binary: parse the command line, run it, report errors on
//! stderr with a non-zero exit.

fn main() -> std::process::ExitCode {
    match realmgm::cli::run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("realmgm: error: {err:#}");
            if err.is::<realmgm::cli::day::BadFile>() {
                std::process::ExitCode::from(2)
            } else {
                std::process::ExitCode::FAILURE
            }
        }
    }
}
