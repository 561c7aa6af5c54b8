//! Text forms of characters, monsters, native groups and horses for
//! `realmgm data show` (the JSON form is their `Serialize`).

use super::data::Shown;
use crate::magic_realm::data::characters::Character;
use crate::magic_realm::data::horses::{Horse, HorseStart};
use crate::magic_realm::data::monsters::{CounterStart, Monster};
use crate::magic_realm::data::natives::{Hire, NativeGroup};
use crate::magic_realm::data::terms::{MagicType, stars};

impl Shown for Character {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe(&self) -> String {
        let starts: Vec<&str> = self.start.iter().map(|s| s.label()).collect();
        let mut text = format!(
            "{}: vulnerability {}; starts at {}; {} gold",
            self.name,
            self.vulnerability,
            starts.join(", "),
            self.gold
        );
        let mut kit: Vec<&str> = vec![self.weapon.as_deref().unwrap_or("dagger (no weapon)")];
        kit.extend(self.armor.iter().map(String::as_str));
        text.push_str(&format!("\n  equipment: {}", kit.join(", ")));
        if self.spells > 0 {
            let types: Vec<&str> = self
                .spell_types()
                .into_iter()
                .map(MagicType::numeral)
                .collect();
            text.push_str(&format!(
                "\n  spells: {} of {} {}",
                self.spells,
                if types.len() == 1 { "type" } else { "types" },
                types.join(", ")
            ));
        }
        text.push_str("\n  chits by level:");
        for (level, chits) in self.chits.chunks(3).enumerate() {
            let title = self
                .development
                .get(level)
                .map_or(self.name.as_str(), |d| d.title.as_str());
            let shown: Vec<String> = chits.iter().map(ToString::to_string).collect();
            text.push_str(&format!(
                "\n    {} ({title}): {}",
                level + 1,
                shown.join(", ")
            ));
        }
        for ability in &self.abilities {
            let when = match (ability.optional, ability.level) {
                (true, _) => "optional".to_string(),
                (false, Some(level)) => format!("level {level}"),
                (false, None) => String::new(),
            };
            text.push_str(&format!("\n  {} ({when}): {}", ability.name, ability.text));
        }
        let listed: Vec<String> = self
            .relationships
            .iter()
            .map(|(group, r)| format!("{group} {}", r.label()))
            .collect();
        text.push_str(&format!(
            "\n  relationships (others neutral): {}",
            listed.join(", ")
        ));
        text
    }
}

impl Shown for Horse {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe(&self) -> String {
        let mut text = format!(
            "{} ({}), vulnerability {}{}\n  trot {}{}, gallop {}{}",
            self.name,
            self.kind.label(),
            self.vulnerability,
            if self.armored { ", armored" } else { "" },
            self.trot.strength,
            self.trot.move_speed,
            self.gallop.strength,
            self.gallop.move_speed,
        );
        if let Some(price) = self.price {
            text.push_str(&format!("\n  price {price} gold"));
        }
        text.push_str(&match &self.start {
            HorseStart::Rider { native } => format!("\n  ridden by {native}"),
            HorseStart::Stock { group } => format!("\n  for sale by the {group}"),
            HorseStart::Site { site } => format!("\n  found at the {site}"),
        });
        text
    }
}

impl Shown for Monster {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe(&self) -> String {
        let mut flags = Vec::new();
        if self.armored {
            flags.push("armored".to_string());
        }
        if self.flying {
            flags.push("flying".to_string());
        }
        for t in &self.traits {
            flags.push(t.to_string());
        }
        let row = match self.row {
            Some(row) => format!("prowls on row {row}"),
            None => "prowls every day".to_string(),
        };
        let mut text = format!(
            "{} ×{}: vulnerability {}{}{}\n  light {}\n  dark  {}{}\n  fame {}, notoriety {}, price {}; {row}",
            self.name,
            self.counters.len(),
            self.vulnerability,
            if flags.is_empty() {
                String::new()
            } else {
                format!(", {}", flags.join(", "))
            },
            if self.length > 0 {
                format!(", length {}", self.length)
            } else {
                String::new()
            },
            self.light.summary(),
            self.dark.summary(),
            if self.has_red_side() {
                " (red side: pins its target)"
            } else {
                ""
            },
            self.fame,
            self.notoriety,
            self.price,
        );
        let starts: Vec<String> = self.counters.iter().map(CounterStart::describe).collect();
        text.push_str(&format!("\n  starts: {}", starts.join("; ")));
        for part in &self.parts {
            text.push_str(&format!(
                "\n  part {}: length {}, light {}{}{}, dark {}{}{}",
                part.name,
                part.length,
                part.light.harm,
                part.light.speed,
                stars(part.light.stars),
                part.dark.harm,
                part.dark.speed,
                stars(part.dark.stars),
            ));
        }
        text
    }
}

impl Shown for NativeGroup {
    fn name(&self) -> &str {
        &self.name
    }

    fn describe(&self) -> String {
        let home = match self.garrison {
            Some(dwelling) => format!("lives at the {}", dwelling.label()),
            None => format!(
                "appears at the {}",
                self.appears_at
                    .iter()
                    .map(|d| d.label())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let hire = match self.hire {
            Hire::Single => "hired one at a time",
            Hire::Group => "hired as a group",
        };
        let mut text = format!(
            "{}: {} members, leader {}; {home}; prowls on row {}; {hire}",
            self.name,
            self.members.len(),
            self.leader().name,
            self.row
        );
        for m in &self.members {
            text.push_str(&format!(
                "\n  {:<13} {}{}  length {:>2}  light {}  dark {}  wage {}  fame {} notoriety {}",
                m.name,
                m.vulnerability,
                if m.armored { " armored" } else { "" },
                m.length,
                m.light.summary(),
                m.dark.summary(),
                m.wage,
                m.fame,
                m.notoriety,
            ));
            if let Some(horse) = &m.horse {
                text.push_str(&format!("  rides {horse}"));
            }
        }
        text
    }
}
