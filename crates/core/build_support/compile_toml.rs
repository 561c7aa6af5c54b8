//! Compiles embedded TOML data files into JSON for the crates' build scripts.
//!
//! The program reads its game data through `realmgm_core::embedded::Source`:
//! people write TOML, the binary embeds the JSON made here, which parses in a
//! tenth of the instructions, so no command pays for the TOML parser at
//! start. A file that is not TOML stops the build with its name, line and
//! column; the typed checks of the data run on the TOML in the tests.

use std::path::{Path, PathBuf};

/// Write `OUT_DIR/STEM.json` for every `.toml` file directly in `dir`.
///
/// Cargo is told to watch each data file, not `dir`: a folder is watched
/// with everything in it, and these folders hold the crates' code too, so
/// every code edit would rerun the build script. A new data file is
/// therefore not seen until the build script reruns: touch the crate's
/// `build.rs` after adding one (its `compiled!` then finds the JSON).
///
/// # Panics
/// A file that cannot be read or is not TOML: the build stops and says which.
pub fn compile_dir(dir: &str) {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|err| panic!("cannot list {dir}: {err}"))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    for path in files {
        compile(&path, &out);
    }
}

fn compile(path: &Path, out: &Path) {
    println!("cargo::rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    let table: toml::Table =
        toml::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let json = serde_json::to_string(&table)
        .unwrap_or_else(|err| panic!("{}: cannot be written as JSON: {err}", path.display()));
    let stem = path.file_stem().expect("a .toml file has a stem");
    let target = out.join(stem).with_extension("json");
    std::fs::write(&target, json)
        .unwrap_or_else(|err| panic!("cannot write {}: {err}", target.display()));
}
