//! Compiles the embedded game data (`src/data/*.toml`) into the JSON the
//! program reads at start.

#[path = "../core/build_support/compile_toml.rs"]
mod compile_toml;

fn main() {
    compile_toml::compile_dir("src/data");
}
