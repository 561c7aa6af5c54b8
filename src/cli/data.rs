//! `realmgm data show KIND [NAME] [--json]`: look up any component of the
//! original game, as a GM does when making a ruling.

use anyhow::{Context, bail};
use serde::Serialize;

use crate::magic_realm::data::{self, GameData};

/// The kinds of component a GM can look up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    Tiles,
    Characters,
    Monsters,
    Natives,
    Horses,
    Weapons,
    Armor,
    Treasures,
    Spells,
    Chits,
}

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// Which kind of component.
    kind: Kind,
    /// One entry by name (case and accents do not matter); all entries when left out.
    name: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// Something `data show` can print: a name to look it up by and a short
/// text form; the JSON form comes from `Serialize`.
pub trait Shown: Serialize {
    fn name(&self) -> &str;
    fn describe(&self) -> String;
}

pub fn show(args: &ShowArgs) -> anyhow::Result<()> {
    let data = data::get().map_err(|e| anyhow::anyhow!("{e}"))?;
    let text = render(data, args)?;
    println!("{text}");
    Ok(())
}

fn render(data: &GameData, args: &ShowArgs) -> anyhow::Result<String> {
    let name = args.name.as_deref();
    let _ = (data, name);
    // Each arm becomes `render_entries("tile", &data.tiles, name, args.json)`
    // as the data module for that kind lands.
    bail!("the {:?} data is not loaded yet", args.kind)
}

/// Print one entry (by name) or all of `entries`, as text or JSON.
pub fn render_entries<T: Shown>(
    kind: &str,
    entries: &[T],
    wanted: Option<&str>,
    json: bool,
) -> anyhow::Result<String> {
    let chosen: Vec<&T> = match wanted {
        None => entries.iter().collect(),
        Some(wanted) => {
            let folded = crate::suggest::fold(wanted);
            let found: Vec<&T> = entries
                .iter()
                .filter(|e| crate::suggest::fold(e.name()) == folded)
                .collect();
            if found.is_empty() {
                let hint = crate::suggest::did_you_mean(wanted, entries.iter().map(Shown::name));
                bail!(
                    "there is no {kind} named '{wanted}'{hint}; `realmgm data show {kind}` lists them all"
                );
            }
            found
        }
    };
    if json {
        return serde_json::to_string_pretty(&chosen).context("cannot write the entries as JSON");
    }
    Ok(chosen
        .iter()
        .map(|e| e.describe())
        .collect::<Vec<_>>()
        .join("\n\n"))
}
