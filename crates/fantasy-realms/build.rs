//! Compiles the embedded deck (`src/cards.toml`) into the JSON the program
//! reads when it first needs the cards.

#[path = "../core/build_support/compile_toml.rs"]
mod compile_toml;

fn main() {
    compile_toml::compile_dir("src");
}
