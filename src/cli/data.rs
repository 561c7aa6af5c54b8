//! `realmgm data show KIND [NAME] [--json]`: look up any component of the
//! original game, as a GM does when making a ruling.

use anyhow::{Context, bail};
use serde::Serialize;

use crate::magic_realm::data::tiles::{PathEnd, Tile, TileSide};
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
    let data = data::get()?;
    let text = render(data, args)?;
    super::emit(text)
}

fn render(data: &GameData, args: &ShowArgs) -> anyhow::Result<String> {
    let name = args.name.as_deref();
    match args.kind {
        Kind::Tiles => {
            // Tiles are also known by code and alias (`LD`, `bl`).
            let name = name.map(|n| data.tiles.resolve(n).map_or(n, |t| t.name.as_str()));
            render_entries("tiles", data.tiles.all(), name, args.json)
        }
        Kind::Characters => render_entries("characters", &data.characters, name, args.json),
        Kind::Monsters => render_entries("monsters", &data.monsters, name, args.json),
        Kind::Natives => render_natives(data, name, args.json),
        Kind::Horses => render_entries("horses", &data.horses, name, args.json),
        Kind::Weapons => render_entries("weapons", &data.weapons, name, args.json),
        Kind::Armor => render_entries("armor", &data.armor, name, args.json),
        Kind::Treasures => render_entries("treasures", &data.treasures, name, args.json),
        Kind::Spells => render_entries("spells", &data.spells, name, args.json),
        Kind::Chits => render_entries("chits", &data.chits.all(), name, args.json),
    }
}

/// Natives are looked up by group (`Bashkars`) or by member (`Bashkar 3`,
/// which shows that member's group).
fn render_natives(data: &GameData, name: Option<&str>, json: bool) -> anyhow::Result<String> {
    if let Some(wanted) = name {
        let folded = crate::suggest::fold(wanted);
        let group = data.natives.iter().find(|g| {
            g.members
                .iter()
                .any(|m| crate::suggest::fold(&m.name) == folded)
        });
        if let Some(group) = group {
            return render_entries("natives", std::slice::from_ref(group), None, json);
        }
    }
    render_entries("natives", &data.natives, name, json)
}

/// Print one entry (by name) or all of `entries`, as text or JSON; `kind` is
/// the command-line name of the kind (`tiles`).
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
                    "there is no entry named '{wanted}' among the {kind}{hint}; `realmgm data show {kind}` lists them all"
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

impl Shown for Tile {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe(&self) -> String {
        let mut also = vec![self.code.clone()];
        also.extend(self.aliases.iter().cloned());
        let mut text = format!(
            "{} ({}): {} group, starts {} side up",
            self.name,
            also.join(", "),
            self.group,
            self.starts
        );
        for (label, side) in [("normal", &self.normal), ("enchanted", &self.enchanted)] {
            text.push_str(&format!("\n  {label} side:{}", describe_side(side)));
        }
        text
    }
}

/// Clearings with their type and magic, then paths, one per line.
fn describe_side(side: &TileSide) -> String {
    let mut text = String::new();
    for clearing in &side.clearings {
        let magic = if clearing.magic.is_empty() {
            "no colour magic".to_string()
        } else {
            let colours: Vec<String> = clearing.magic.iter().map(ToString::to_string).collect();
            format!("{} magic", colours.join(" and "))
        };
        text.push_str(&format!(
            "\n    clearing {}: {} clearing, {magic}",
            clearing.number, clearing.kind
        ));
    }
    let paths: Vec<String> = side
        .paths
        .iter()
        .map(|path| match path.to {
            PathEnd::Clearing(to) => format!("{}-{to} {}", path.from, path.kind),
            PathEnd::Edge(edge) => format!("{} to edge {edge} ({})", path.from, path.kind),
        })
        .collect();
    text.push_str(&format!("\n    paths: {}", paths.join("; ")));
    text
}
