//! Reading a spell's named target that is not a fighter (magic summary
//! "Specifying a Target"), from `cast SPELL on TARGET`: an item the caster
//! carries (`on Lucky Charm`), with the spell Enchant Artifact puts in it
//! (`on Lucky Charm with Fiery Blast`); a spell in effect by its number
//! (`on spell 3`, `on #3`); the caster himself (`on me`, `on himself`);
//! his clearing or tile (`on clearing`, `on tile`). Characters and
//! denizens are found by whoever runs the cast (combat finds fighters).

use crate::state::MrState;

use crate::state::magic::Aim;

/// The aims `text` names for character `caster`, or `None` when it names
/// none of the things above.
pub fn named(state: &MrState, caster: usize, text: &str) -> Option<Vec<Aim>> {
    let c = state.characters.get(caster)?;
    let text = text.trim();
    let lower = text.to_ascii_lowercase();
    let (first, with) = match lower.find(" with ") {
        Some(at) => (text[..at].trim(), Some(text[at + 6..].trim())),
        None => (text, None),
    };
    let first_lower = first.to_ascii_lowercase();
    let number = first_lower
        .strip_prefix("spell")
        .or_else(|| first_lower.strip_prefix('#'))
        .and_then(|n| n.trim().trim_start_matches('#').parse::<u32>().ok());
    let aim = if let Some(id) = number {
        Aim::Spell { id }
    } else if matches!(first_lower.as_str(), "me" | "myself" | "himself" | "self") {
        Aim::Character {
            name: c.name.clone(),
        }
    } else if first_lower == "clearing" {
        Aim::Clearing {
            clearing: c.position.clone(),
        }
    } else if first_lower == "tile" {
        Aim::Tile {
            code: c.position.tile.clone(),
        }
    } else {
        let item = c
            .belongings
            .iter()
            .find(|b| b.item.name.eq_ignore_ascii_case(first))?;
        Aim::Item {
            holder: c.name.clone(),
            item: item.item.name.clone(),
        }
    };
    let mut aims = vec![aim];
    if let Some(spell) = with {
        aims.push(Aim::KnownSpell {
            name: spell.to_string(),
        });
    }
    Some(aims)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Belonging, Item, ItemKind};
    use crate::test_support::game_played_by;

    #[test]
    fn items_spells_and_the_caster_are_read_and_fighters_are_left() {
        let mut state = game_played_by(&["Wizard"], |i| format!("p{i}"));
        state.characters[0].belongings.push(Belonging {
            item: Item {
                name: "Lucky Charm".into(),
                kind: ItemKind::Treasure,
            },
            active: true,
        });
        assert_eq!(
            named(&state, 0, "lucky charm with Fiery Blast"),
            Some(vec![
                Aim::Item {
                    holder: "Wizard".into(),
                    item: "Lucky Charm".into()
                },
                Aim::KnownSpell {
                    name: "Fiery Blast".into()
                }
            ])
        );
        assert_eq!(
            named(&state, 0, "spell 4"),
            Some(vec![Aim::Spell { id: 4 }])
        );
        assert_eq!(named(&state, 0, "#2"), Some(vec![Aim::Spell { id: 2 }]));
        assert_eq!(
            named(&state, 0, "himself"),
            Some(vec![Aim::Character {
                name: "Wizard".into()
            }])
        );
        assert_eq!(named(&state, 0, "Giant 1"), None);
        assert_eq!(named(&state, 5, "me"), None);
    }
}
