//! Battle files: one clearing's combat set up in TOML for a GM's ruling or
//! a test. The participants (characters with each chit's
//! condition, weapon, armour, horse, hidden or not; monsters and natives
//! with their side, employer and whom they battle), standing orders per
//! character (the `Combat:` line's syntax) with per-round overrides, the
//! campaign toggles, forced dice, and the expected outcome checked by
//! [`check`]. Example:
//!
//! ```toml
//! clearing = "CV4"
//! rules = ["fumble"]
//! [[character]]
//! name = "Amazon"
//! weapon = "Short Sword"
//! tactics = "attack with FIGHT M4, attack smash"
//! rounds = [{ round = 2, tactics = "maneuver duck" }]
//! [[denizen]]
//! id = "Giant 1"
//! [dice]
//! "combat/CV4/round1/reposition/Amazon" = [[4]]
//! [expect]
//! killed = ["Giant 1"]
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::characters::{ActionChit, ChitAction};
use crate::magic::colour::chit_colour;
use crate::setup::{SetupInputs, new_game};
use crate::state::magic::{Aim, CastWith, SpellInEffect};
use crate::state::{
    Belonging, CharacterState, ChitCondition, CounterSide, Item, ItemKind, MrState, Whereabouts,
};
use realmgm_core::dice::{Dice, DiceScript};
use realmgm_core::embedded::{DataError, parse_toml};
use realmgm_core::game::{Rules, Seat};

use super::battle::{Battle, CombatRules, Step};
use super::casting::CombatMagic;
use super::error::CombatError;
use super::model::{Fighter, FighterKind, Out};
use super::orders::parse_tactics;
use super::tactics::{Tactics, same_chit};
use super::{build, log::CombatLine};

/// A battle file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleFile {
    pub clearing: String,
    #[serde(default)]
    pub rules: Vec<String>,
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub character: Vec<CharacterEntry>,
    #[serde(default)]
    pub denizen: Vec<DenizenEntry>,
    #[serde(default)]
    pub dice: BTreeMap<String, Vec<Vec<u8>>>,
    #[serde(default)]
    pub expect: Option<Expect>,
    /// The game day: set it (or give a character `spells`) to let the
    /// characters cast; its colour day supplies colour magic.
    #[serde(default)]
    pub day: Option<u32>,
    /// Spells awakened in artifacts and books: holder → spells.
    #[serde(default)]
    pub awakened: BTreeMap<String, Vec<String>>,
    /// The clearing is a cave (no horses are played).
    #[serde(default)]
    pub cave: bool,
    /// Spells already in effect when the battle starts: a Combat spell
    /// cast in an earlier clearing this Evening lasts to Midnight (3.1 rule
    /// 4.6.7g.1), a Day or Permanent spell from an earlier day.
    #[serde(default)]
    pub in_effect: Vec<InEffectEntry>,
    /// Belongings lying dropped in plain sight in the clearing when the
    /// battle starts (3.1 10.A.5.2): `{ item = "Helmet", before = "Amazon" }`,
    /// `before` naming whom it lies in front of (none: in the open).
    #[serde(default)]
    pub lying: Vec<LyingEntry>,
}

/// A belonging lying dropped in the clearing, in front of a character of
/// the battle or in the open.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LyingEntry {
    pub item: String,
    #[serde(default)]
    pub before: Option<String>,
}

/// A spell in effect from before the battle: `{ spell = "Elven Grace",
/// caster = "Elf", on = ["Elf"] }`; `with` names the caster's MAGIC chit
/// tied to it (default: his first active chit of the spell's type);
/// `inert = true` for a Permanent spell fallen inert at Midnight; `form =
/// "Squirrel"` the creature a Transform made (the monster for Absorb
/// Essence). A transmorphizing spell takes hold as it is put in effect:
/// what its target has then freezes with him (3.1 4.6.9b.1).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InEffectEntry {
    pub spell: String,
    /// A character of this battle.
    pub caster: String,
    /// Its targets, named as `cast SPELL on TARGET` names them.
    pub on: Vec<String>,
    #[serde(default)]
    pub with: Option<String>,
    #[serde(default)]
    pub inert: bool,
    #[serde(default)]
    pub form: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterEntry {
    pub name: String,
    #[serde(default)]
    pub player: Option<String>,
    #[serde(default)]
    pub hidden: bool,
    /// Default: the character's own starting weapon; `"none"` for none.
    #[serde(default)]
    pub weapon: Option<String>,
    #[serde(default)]
    pub alerted: bool,
    /// Default: the character's own starting armour.
    #[serde(default)]
    pub armor: Option<Vec<String>>,
    #[serde(default)]
    pub damaged_armor: Vec<String>,
    #[serde(default)]
    pub horse: Option<String>,
    #[serde(default)]
    pub wounded: Vec<String>,
    #[serde(default)]
    pub fatigued: Vec<String>,
    #[serde(default)]
    pub gold: i32,
    #[serde(default)]
    pub fame: i32,
    #[serde(default)]
    pub notoriety: i32,
    /// Standing orders in the `Combat:` line's syntax.
    #[serde(default)]
    pub tactics: String,
    /// Orders that replace the standing ones for one round.
    #[serde(default)]
    pub rounds: Vec<RoundOrders>,
    /// He found Hidden Enemies today (he may charge, attack and cast at
    /// hidden fighters).
    #[serde(default)]
    pub found_hidden_enemies: bool,
    /// What Magic Sight showed him today (3.1 7.5.7c): the hidden enemies
    /// owning `spells`, `counters` or `treasure_cards`.
    #[serde(default)]
    pub magic_sight: Vec<crate::state::SightOf>,
    /// The spells he knows (default: those setup records for him).
    #[serde(default)]
    pub spells: Option<Vec<String>>,
    /// Treasures he carries active: artifacts and books that cast, and any
    /// other card (the Garb of Speed, the Belt of Strength).
    #[serde(default)]
    pub artifacts: Vec<String>,
    /// Of his artifacts and books, those already used this Evening (3.1
    /// 8.3.9c.4: once per Evening).
    #[serde(default)]
    pub artifacts_used: Vec<String>,
    /// Weapons, armour, horses and treasures he carries inactive (he may
    /// activate them in the Encounter step, `activation.rs`).
    #[serde(default)]
    pub inactive: Vec<String>,
    /// MAGIC chits he alerted in an Alert phase today: they cast at time 0
    /// (3.1 rule 7.9.3), `prepared = ["MAGIC IV3*"]`.
    #[serde(default)]
    pub prepared: Vec<String>,
    /// MAGIC chits enchanted into colour chits (3.1 rule 4.6.4, which also
    /// lets a character start the game with them), `enchanted = ["MAGIC III2*"]`.
    #[serde(default)]
    pub enchanted: Vec<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundOrders {
    pub round: u32,
    pub tactics: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DenizenEntry {
    pub id: String,
    #[serde(default)]
    pub side: Option<CounterSide>,
    /// The character who hired him.
    #[serde(default)]
    pub employer: Option<String>,
    /// Characters an unhired native battles from the start.
    #[serde(default)]
    pub battling: Vec<String>,
    /// A hired leader who found Hidden Enemies today.
    #[serde(default)]
    pub sees_hidden: bool,
}

/// The expected outcome; every field left out is not checked.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub killed: Option<Vec<String>>,
    pub dead: Option<Vec<String>>,
    pub fled: Option<Vec<String>>,
    pub rounds: Option<u32>,
    pub wounded: Option<BTreeMap<String, usize>>,
    pub fatigued: Option<BTreeMap<String, usize>>,
    pub fame: Option<BTreeMap<String, i32>>,
    pub notoriety: Option<BTreeMap<String, i32>>,
    pub gold: Option<BTreeMap<String, i32>>,
    pub armor_damaged: Option<Vec<String>>,
    pub armor_destroyed: Option<Vec<String>>,
    pub red_side_up: Option<Vec<String>>,
    pub horses_killed: Option<Vec<String>>,
    pub hidden: Option<Vec<String>>,
    /// Belongings left in the clearing.
    pub dropped: Option<Vec<String>>,
    /// Belongings lying dropped in plain sight when it is over (3.1
    /// 10.A.5.2).
    pub in_sight: Option<Vec<String>>,
    /// Dropped belongings each character picked up (3.1 10.A.5.5).
    pub picked_up: Option<BTreeMap<String, Vec<String>>>,
    /// Lines the log must contain (as printed).
    pub log_contains: Option<Vec<String>>,
    /// Text no line of the log may contain.
    pub log_lacks: Option<Vec<String>>,
    /// Fighters a spell moved out of the clearing.
    pub moved: Option<Vec<String>>,
}

/// What a finished battle came to.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Outcome {
    pub rounds: u32,
    pub killed: Vec<String>,
    pub dead: Vec<String>,
    pub fled: Vec<String>,
    pub wounded: BTreeMap<String, usize>,
    pub fatigued: BTreeMap<String, usize>,
    pub fame: BTreeMap<String, i32>,
    pub notoriety: BTreeMap<String, i32>,
    pub gold: BTreeMap<String, i32>,
    pub armor_damaged: Vec<String>,
    pub armor_destroyed: Vec<String>,
    pub red_side_up: Vec<String>,
    pub horses_killed: Vec<String>,
    pub dropped: Vec<String>,
    pub in_sight: Vec<String>,
    pub picked_up: BTreeMap<String, Vec<String>>,
    /// Characters still hidden at the end.
    pub hidden: Vec<String>,
    /// Fighters a spell moved out of the clearing.
    pub moved: Vec<String>,
}

/// A battle ready to run, with its orders and dice.
pub struct Scripted<'d> {
    pub battle: Battle<'d>,
    pub dice: Dice,
    /// Per character: standing orders, and overrides by round.
    pub orders: BTreeMap<usize, (Tactics, BTreeMap<u32, Tactics>)>,
    pub expect: Option<Expect>,
}

/// Read a battle file and set the battle up.
///
/// # Errors
/// A broken file, an unknown component or toggle, or orders that do not
/// read, naming the file and the entry.
pub fn load<'d>(data: &'d GameData, file: &str, text: &str) -> Result<Scripted<'d>, DataError> {
    let parsed: BattleFile = parse_toml(file, text)?;
    let rules = Rules::new(
        parsed.rules.iter().map(String::as_str),
        crate::rules::TOGGLES,
    )
    .map_err(|e| DataError::entry(file, "rules", "rules", e.to_string()))?;
    let mut fighters = Vec::new();
    let mut orders = BTreeMap::new();
    for (i, entry) in parsed.character.iter().enumerate() {
        let what = format!("character \"{}\"", entry.name);
        let hero = character(data, entry, i)
            .map_err(|m| DataError::entry(file, &what, "", m.to_string()))?;
        let read = |t: &str, field: &str| {
            parse_tactics(t, data).map_err(|(col, m)| {
                DataError::entry(file, &what, field, format!("column {}: {m}", col + 1))
            })
        };
        let standing = read(&entry.tactics, "tactics")?;
        let mut by_round = BTreeMap::new();
        for r in &entry.rounds {
            by_round.insert(r.round, read(&r.tactics, "rounds")?);
        }
        orders.insert(fighters.len(), (standing, by_round));
        fighters.push(Fighter {
            name: entry.name.clone(),
            kind: FighterKind::Character(hero),
            hidden: entry.hidden,
            out: None,
        });
    }
    let find = |name: &str| {
        parsed
            .character
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    };
    for entry in &parsed.denizen {
        let what = format!("denizen \"{}\"", entry.id);
        let employer = match &entry.employer {
            Some(e) => Some(find(e).ok_or_else(|| {
                DataError::entry(
                    file,
                    &what,
                    "employer",
                    format!("no character {e} in this battle"),
                )
            })?),
            None => None,
        };
        let side = entry.side.unwrap_or(CounterSide::Light);
        let mut denizen = build::denizen(data, &entry.id, side, employer)
            .map_err(|m| DataError::entry(file, &what, "id", m.to_string()))?;
        for b in &entry.battling {
            let who = find(b).ok_or_else(|| {
                DataError::entry(
                    file,
                    &what,
                    "battling",
                    format!("no character {b} in this battle"),
                )
            })?;
            denizen.battling.insert(who);
        }
        denizen.sees_hidden = entry.sees_hidden;
        fighters.push(Fighter {
            name: entry.id.clone(),
            kind: FighterKind::Denizen(denizen),
            hidden: false,
            out: None,
        });
    }
    let mut script = DiceScript::default();
    for (purpose, rolls) in &parsed.dice {
        for faces in rolls {
            script
                .force(purpose, faces)
                .map_err(|e| DataError::entry(file, "dice", purpose.as_str(), e.to_string()))?;
        }
    }
    let mut battle = Battle::new(
        data,
        &parsed.clearing,
        fighters,
        CombatRules::from_rules(&rules),
    );
    battle.in_cave = parsed.cave;
    for entry in &parsed.lying {
        let what = format!("lying \"{}\"", entry.item);
        let item = item_named(data, &entry.item).ok_or_else(|| {
            DataError::entry(
                file,
                &what,
                "item",
                "no weapon, armour, horse or treasure is called so",
            )
        })?;
        let before = match entry.before.as_deref() {
            Some(b) => {
                let at = find(b).ok_or_else(|| {
                    let missing = format!("no character {b} in this battle");
                    DataError::entry(file, &what, "before", missing)
                })?;
                Some(parsed.character[at].name.clone())
            }
            None => None,
        };
        battle.dropped_in_sight.push((before, item));
    }
    // A battle file stands nowhere: only the Hide modifiers a character
    // has anywhere apply to his Ambush rolls.
    for (i, entry) in parsed.character.iter().enumerate() {
        if let Some(card) = data
            .characters
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(&entry.name))
        {
            let hide = build::ability_modifiers(card, crate::data::terms::Roll::Hide);
            battle.hide_mods.insert(i, hide);
        }
    }
    battle.magic = magic_for(data, &parsed, &battle, &rules)
        .map_err(|m| DataError::entry(file, "magic", "day", m.to_string()))?;
    if !parsed.in_effect.is_empty() {
        // As the Evening does: the spells in effect shape the fight.
        super::spell_effects::after_casts(&mut battle, None);
    }
    Ok(Scripted {
        battle,
        dice: Dice::with_script(parsed.seed, 1, script),
        orders,
        expect: parsed.expect,
    })
}

fn character(
    data: &GameData,
    entry: &CharacterEntry,
    seat: usize,
) -> Result<super::model::Hero, CombatError> {
    let card = data
        .characters
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(&entry.name))
        .ok_or_else(|| CombatError::unknown("character", &entry.name))?;
    let mut labels: Vec<(String, ChitCondition)> = card
        .chits
        .iter()
        .map(|c| (c.to_string(), ChitCondition::Active))
        .collect();
    for (list, condition) in [
        (&entry.wounded, ChitCondition::Wounded),
        (&entry.fatigued, ChitCondition::Fatigued),
    ] {
        for want in list {
            let slot = labels
                .iter_mut()
                .find(|(l, c)| *c == ChitCondition::Active && same_chit(l, want))
                .ok_or_else(|| format!("the {} has no active chit {want} to mark", card.name))?;
            slot.1 = condition;
        }
    }
    let weapon_name = match entry.weapon.as_deref() {
        Some("none") => None,
        Some(w) => Some(w.to_string()),
        None => card.weapon.clone(),
    };
    let weapon = weapon_name
        .as_deref()
        .map(|w| build::weapon(data, w, entry.alerted))
        .transpose()?;
    let armor_names = entry.armor.clone().unwrap_or_else(|| card.armor.clone());
    let armor = armor_names
        .iter()
        .map(|a| build::armor(data, a, entry.damaged_armor.contains(a)))
        .collect::<Result<Vec<_>, _>>()?;
    let horse = entry
        .horse
        .as_deref()
        .map(|h| build::horse(data, h))
        .transpose()?;
    let mut heaviest = weapon.as_ref().map_or(Default::default(), |w| w.weight);
    for a in &armor_names {
        if let Some(piece) = data
            .armor
            .iter()
            .find(|x| x.name == crate::data::base_name(a))
        {
            heaviest = heaviest.max(piece.weight);
        }
    }
    let mut belongings: Vec<Item> = weapon_name
        .iter()
        .map(|w| Item {
            kind: ItemKind::Weapon,
            name: w.clone(),
        })
        .collect();
    belongings.extend(armor_names.iter().map(|a| Item {
        kind: ItemKind::Armor,
        name: a.clone(),
    }));
    belongings.extend(entry.horse.iter().map(|h| Item {
        kind: ItemKind::Horse,
        name: h.clone(),
    }));
    let inactive = entry
        .inactive
        .iter()
        .map(|name| inactive_item(data, name))
        .collect::<Result<Vec<Item>, CombatError>>()?;
    let artifacts: Vec<Item> = entry
        .artifacts
        .iter()
        .map(|a| Item {
            kind: ItemKind::Treasure,
            name: a.clone(),
        })
        .collect();
    let kit = super::activation::kit(
        data,
        inactive
            .iter()
            .map(|i| (i, false))
            .chain(artifacts.iter().map(|i| (i, true))),
    )?;
    belongings.extend(inactive);
    Ok(super::model::Hero {
        player: entry
            .player
            .clone()
            .unwrap_or_else(|| format!("P{}", seat + 1)),
        vulnerability: card.vulnerability,
        chits: build::chits(&labels)?,
        weapon,
        armor,
        horse,
        heaviest,
        gold: entry.gold,
        fame: entry.fame,
        notoriety: entry.notoriety,
        belongings,
        kills: 0,
        kept: Default::default(),
        taken: Vec::new(),
        dead: false,
        missile: build::ability_modifiers(card, crate::data::terms::Roll::Missile),
        found_hidden_enemies: entry.found_hidden_enemies,
        magic_sight: entry.magic_sight.clone(),
        records_spells: entry
            .spells
            .as_ref()
            .map_or(card.spells > 0, |spells| !spells.is_empty()),
        abandoned: Vec::new(),
        kit: Box::new(kit),
        immune_to: super::protection::immune_to(card),
        wish_strength: false,
        fly: None,
        flew_away: false,
    })
}

/// A belonging a battle file names as carried inactive, by its kind.
fn inactive_item(data: &GameData, name: &str) -> Result<Item, CombatError> {
    item_named(data, name).ok_or_else(|| {
        format!("inactive: no weapon, armour, horse or treasure is called {name}").into()
    })
}

/// The weapon, armour, horse or treasure a file names (`Spear 2`, `Pony`,
/// `Deft Gloves`), with its kind; `None` when nothing is called so.
pub fn item_named(data: &GameData, name: &str) -> Option<Item> {
    let base = crate::data::base_name(name);
    let is = |n: &str| n == name || n == base;
    let kind = if data.weapons.iter().any(|w| is(&w.name)) {
        ItemKind::Weapon
    } else if data.armor.iter().any(|a| is(&a.name)) {
        ItemKind::Armor
    } else if data.horses.iter().any(|h| is(&h.name)) {
        ItemKind::Horse
    } else if data.treasure(name).is_some() {
        ItemKind::Treasure
    } else {
        return None;
    };
    Some(Item {
        kind,
        name: name.to_string(),
    })
}

impl Scripted<'_> {
    /// Run the battle through its decision points, answering each with the
    /// character's orders for that round.
    ///
    /// # Errors
    /// Orders that give an illegal play.
    pub fn run(&mut self) -> Result<Outcome, CombatError> {
        while let Step::Needs(decision) = self.battle.step(&mut self.dice) {
            let (standing, by_round) = self
                .orders
                .get(&decision.fighter)
                .cloned()
                .unwrap_or_default();
            let tactics = by_round.get(&decision.round).cloned().unwrap_or(standing);
            let answer = self.battle.round_answer(decision.fighter, tactics);
            self.battle.answer(decision.fighter, answer).map_err(|m| {
                format!(
                    "round {} {} of the {}: {m}",
                    decision.round,
                    decision.stage.word(),
                    decision.character
                )
            })?;
        }
        Ok(outcome(&self.battle))
    }
}

/// Sum up a finished battle.
pub fn outcome(battle: &Battle) -> Outcome {
    let mut out = Outcome {
        rounds: battle.round,
        ..Outcome::default()
    };
    for f in &battle.fighters {
        match (&f.out, &f.kind) {
            (Some(Out::Ran), _) => out.fled.push(f.name.clone()),
            (Some(Out::Moved { .. }), _) => out.moved.push(f.name.clone()),
            (Some(Out::Killed { .. }), FighterKind::Denizen(_)) => out.killed.push(f.name.clone()),
            _ => {}
        }
        if let FighterKind::Denizen(d) = &f.kind
            && d.red_side_up()
            && f.out.is_none()
        {
            out.red_side_up.push(f.name.clone());
        }
        let FighterKind::Character(h) = &f.kind else {
            continue;
        };
        if f.hidden {
            out.hidden.push(f.name.clone());
        }
        if h.dead {
            out.dead.push(f.name.clone());
        }
        let count = |c: ChitCondition| h.chits.iter().filter(|x| x.condition == c).count();
        out.wounded
            .insert(f.name.clone(), count(ChitCondition::Wounded));
        out.fatigued
            .insert(f.name.clone(), count(ChitCondition::Fatigued));
        out.fame.insert(f.name.clone(), h.fame);
        out.notoriety.insert(f.name.clone(), h.notoriety);
        out.gold.insert(f.name.clone(), h.gold);
        if !h.kit.picked_up.is_empty() {
            let names = h.kit.picked_up.iter().map(|i| i.name.clone()).collect();
            out.picked_up.insert(f.name.clone(), names);
        }
    }
    for line in &battle.log {
        match &line.line {
            CombatLine::ArmorDamaged {
                armor, destroyed, ..
            } => {
                if *destroyed {
                    out.armor_destroyed.push(armor.clone());
                } else {
                    out.armor_damaged.push(armor.clone());
                }
            }
            CombatLine::HorseKilled { horse, .. } => out.horses_killed.push(horse.clone()),
            _ => {}
        }
    }
    out.dropped = battle.dropped.iter().map(|i| i.name.clone()).collect();
    out.in_sight = battle
        .dropped_in_sight
        .iter()
        .map(|(_, i)| i.name.clone())
        .collect();
    out
}

/// The battle's log as text, one line each.
pub fn log_text(battle: &Battle) -> Vec<String> {
    battle
        .log
        .iter()
        .map(|l| format!("round {}: {}", l.round, l.line))
        .collect()
}

/// Note a mismatch in `wrong` when `want` and `have` differ, as a fixture's
/// check reports it (battle files and day files alike).
pub fn note_mismatch(wrong: &mut Vec<String>, what: &str, want: String, have: String) {
    if want != have {
        wrong.push(format!("{what}: expected {want}, got {have}"));
    }
}

/// A list of names as a fixture's check compares it: sorted, `none` when
/// empty.
pub fn sorted_names(v: &[String]) -> String {
    let mut v = v.to_vec();
    v.sort();
    if v.is_empty() {
        "none".to_string()
    } else {
        v.join(", ")
    }
}

/// Compare an outcome with what the file expects; empty when it matches.
pub fn check(expect: &Expect, got: &Outcome, log: &[String]) -> Vec<String> {
    let mut wrong = Vec::new();
    let mut same =
        |what: &str, want: String, have: String| note_mismatch(&mut wrong, what, want, have);
    let sorted = sorted_names;
    if let Some(v) = &expect.killed {
        same("killed", sorted(v), sorted(&got.killed));
    }
    if let Some(v) = &expect.dead {
        same("dead", sorted(v), sorted(&got.dead));
    }
    if let Some(v) = &expect.fled {
        same("fled", sorted(v), sorted(&got.fled));
    }
    if let Some(v) = &expect.armor_damaged {
        same("armor damaged", sorted(v), sorted(&got.armor_damaged));
    }
    if let Some(v) = &expect.armor_destroyed {
        same("armor destroyed", sorted(v), sorted(&got.armor_destroyed));
    }
    if let Some(v) = &expect.red_side_up {
        same("red side up", sorted(v), sorted(&got.red_side_up));
    }
    if let Some(v) = &expect.horses_killed {
        same("horses killed", sorted(v), sorted(&got.horses_killed));
    }
    if let Some(v) = &expect.dropped {
        same("dropped", sorted(v), sorted(&got.dropped));
    }
    if let Some(v) = &expect.in_sight {
        same("in sight", sorted(v), sorted(&got.in_sight));
    }
    for (name, want) in expect.picked_up.iter().flatten() {
        let have = got.picked_up.get(name).cloned().unwrap_or_default();
        same(&format!("picked up by {name}"), sorted(want), sorted(&have));
    }
    if let Some(v) = &expect.hidden {
        same("hidden", sorted(v), sorted(&got.hidden));
    }
    if let Some(v) = &expect.moved {
        same("moved", sorted(v), sorted(&got.moved));
    }
    if let Some(v) = expect.rounds {
        same("rounds", v.to_string(), got.rounds.to_string());
    }
    for (what, want, have) in [
        ("wounded", &expect.wounded, &got.wounded),
        ("fatigued", &expect.fatigued, &got.fatigued),
    ] {
        for (name, n) in want.iter().flatten() {
            same(
                &format!("{what} {name}"),
                n.to_string(),
                have.get(name).copied().unwrap_or(0).to_string(),
            );
        }
    }
    for (what, want, have) in [
        ("fame", &expect.fame, &got.fame),
        ("notoriety", &expect.notoriety, &got.notoriety),
        ("gold", &expect.gold, &got.gold),
    ] {
        for (name, n) in want.iter().flatten() {
            same(
                &format!("{what} {name}"),
                n.to_string(),
                have.get(name).copied().unwrap_or(0).to_string(),
            );
        }
    }
    for line in expect.log_contains.iter().flatten() {
        if !log.iter().any(|l| l.contains(line.as_str())) {
            wrong.push(format!("the log has no line containing \"{line}\""));
        }
    }
    for text in expect.log_lacks.iter().flatten() {
        if let Some(line) = log.iter().find(|l| l.contains(text.as_str())) {
            wrong.push(format!("the log has a line containing \"{text}\": {line}"));
        }
    }
    wrong
}

// The game state behind a battle file's spells: a
// game set up with the file's characters, all standing in the file's
// clearing when the board has it (`LD2`), else in the first character's
// starting clearing, with the file's denizens, knowing the spells the file
// names and carrying its artifacts active, on the file's game day (which
// decides the colour day).

/// The magic of a battle file; `None` when it sets no `day` and names no
/// spells or artifacts (its characters then cannot cast).
///
/// # Errors
/// A setup that fails, a denizen the game does not have.
pub fn magic_for(
    data: &GameData,
    file: &BattleFile,
    battle: &Battle,
    rules: &Rules,
) -> Result<Option<CombatMagic>, CombatError> {
    let wants = file.day.is_some()
        || !file.in_effect.is_empty()
        || file.character.iter().any(|c| {
            c.spells.is_some()
                || !c.artifacts.is_empty()
                || !c.prepared.is_empty()
                || !c.enchanted.is_empty()
        });
    if !wants {
        return Ok(None);
    }
    let seats: Vec<Seat> = file
        .character
        .iter()
        .enumerate()
        .map(|(i, c)| Seat {
            player: format!("P{}", i + 1),
            role: Some(c.name.clone()),
        })
        .collect();
    let mut state = new_game(
        data,
        &seats,
        rules,
        &SetupInputs::default(),
        &mut Dice::new(file.seed, 0),
    )
    .map_err(|e| format!("the game behind the spells cannot be set up: {e}"))?;
    let day = file.day.unwrap_or(1);
    state.day = day;
    let Some(start) = state.characters.first().map(|c| c.position.clone()) else {
        return Ok(None);
    };
    let here = board_clearing(&state, &file.clearing).unwrap_or(start);
    let mut fighter_seats = BTreeMap::new();
    for (seat, entry) in file.character.iter().enumerate() {
        let c = &mut state.characters[seat];
        c.position = here.clone();
        if let Some(spells) = &entry.spells {
            c.magic.spells.clone_from(spells);
        }
        c.belongings
            .extend(entry.artifacts.iter().map(|a| Belonging {
                item: Item {
                    kind: ItemKind::Treasure,
                    name: a.clone(),
                },
                active: true,
            }));
        c.magic
            .artifacts_used_today
            .extend(entry.artifacts_used.iter().cloned());
        if let Some(f) = battle.find(&entry.name) {
            fighter_seats.insert(f, seat);
            mark_magic_chits(c, battle.hero(f), entry)?;
        }
    }
    for entry in &file.denizen {
        let d = state.denizens.get_mut(&entry.id).ok_or_else(|| {
            format!(
                "the game has no counter {} for the spells to reach",
                entry.id
            )
        })?;
        d.at = Whereabouts::Clearing {
            clearing: here.clone(),
        };
    }
    for (holder, spells) in &file.awakened {
        state
            .magic
            .awakened
            .entry(holder.clone())
            .or_default()
            .extend(spells.iter().cloned());
    }
    for entry in &file.in_effect {
        put_in_effect(data, &mut state, day, entry)?;
    }
    Ok(Some(CombatMagic::new(
        state,
        rules.clone(),
        day,
        fighter_seats,
    )))
}

/// Mark the chits a battle file names as alerted or enchanted: each an
/// active MAGIC chit of his, not already marked; an enchanted one of type
/// I to V (3.1 rule 4.6.4f).
fn mark_magic_chits(
    c: &mut CharacterState,
    hero: Option<&super::model::Hero>,
    entry: &CharacterEntry,
) -> Result<(), CombatError> {
    for (list, enchanting) in [(&entry.prepared, false), (&entry.enchanted, true)] {
        for want in list {
            let index = (0..c.chits.len())
                .find(|&i| {
                    let chit = &c.chits[i];
                    let active = hero
                        .and_then(|h| h.chits.get(i))
                        .is_none_or(|h| h.condition == ChitCondition::Active);
                    let colour = ActionChit::parse(&chit.chit)
                        .ok()
                        .filter(|a| a.action == ChitAction::Magic)
                        .map(|a| a.magic.and_then(chit_colour).is_some());
                    active
                        && !chit.prepared
                        && !chit.enchanted
                        && same_chit(&chit.chit, want)
                        && colour.is_some_and(|has| has || !enchanting)
                })
                .ok_or_else(|| {
                    let what = if enchanting {
                        "to enchant (only MAGIC chits of type I to V become colour chits)"
                    } else {
                        "to alert"
                    };
                    format!("the {} has no active MAGIC chit {want} {what}", c.name)
                })?;
            if enchanting {
                c.chits[index].enchanted = true;
            } else {
                c.chits[index].prepared = true;
            }
        }
    }
    Ok(())
}

/// Put a spell of a battle or day file's `in_effect` list on the game
/// state, cast on `day` and tied to its caster's chit; its targets are the
/// characters and denizens named, or what `cast SPELL on TARGET` names.
///
/// # Errors
/// The spell, caster, a target or a free MAGIC chit for it is not there.
pub fn put_in_effect(
    data: &GameData,
    state: &mut MrState,
    day: u32,
    entry: &InEffectEntry,
) -> Result<(), CombatError> {
    let spell = data
        .spells
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(&entry.spell))
        .ok_or_else(|| CombatError::unknown("spell", &entry.spell))?;
    let seat = state
        .characters
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(&entry.caster))
        .ok_or_else(|| format!("in_effect: no character {} here", entry.caster))?;
    let mut targets = Vec::new();
    for name in &entry.on {
        if let Some(c) = state
            .characters
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
        {
            targets.push(Aim::Character {
                name: c.name.clone(),
            });
        } else if let Some(id) = state.denizens.keys().find(|d| d.eq_ignore_ascii_case(name)) {
            targets.push(Aim::Denizen { id: id.clone() });
        } else {
            targets.extend(
                crate::magic::aims::named(state, seat, name)
                    .ok_or_else(|| format!("in_effect: {} has no target {name}", spell.name))?,
            );
        }
    }
    let detail = match &entry.form {
        Some(form) => Some(transmorphized_form(data, &spell.name, form)?),
        None => enchanted_spell(state, seat, &spell.name, &targets)?,
    };
    let tied = |state: &MrState, i: usize| {
        state.magic.in_effect.iter().any(|s| {
            !s.untied
                && s.caster == state.characters[seat].name
                && s.with == CastWith::Chit { index: i }
        })
    };
    let c = &state.characters[seat];
    let index = (0..c.chits.len())
        .find(|&i| {
            let chit = &c.chits[i];
            let fits = match &entry.with {
                Some(want) => same_chit(&chit.chit, want),
                None => ActionChit::parse(&chit.chit)
                    .is_ok_and(|a| a.action == ChitAction::Magic && a.magic == spell.spell_type),
            };
            fits && chit.condition == ChitCondition::Active && !chit.enchanted && !tied(state, i)
        })
        .ok_or_else(|| {
            format!(
                "in_effect: the {} has no free MAGIC chit {} for {}",
                c.name,
                entry.with.as_deref().unwrap_or("of the spell's type"),
                spell.name
            )
        })?;
    let id = state.magic.next_id;
    state.magic.next_id += 1;
    state.magic.in_effect.push(SpellInEffect {
        id,
        spell: spell.name.clone(),
        caster: c.name.clone(),
        with: CastWith::Chit { index },
        targets,
        duration: spell.duration,
        cast_on: day,
        inert: entry.inert && spell.duration == crate::data::spells::Duration::Permanent,
        held: spell.duration == crate::data::spells::Duration::Phase,
        detail,
        untied: false,
    });
    if let Some(spell) = state.magic.in_effect.last().cloned() {
        crate::magic::transmorph::take_hold(state, &spell);
    }
    Ok(())
}

/// The form `form` an in-effect Transform (one of its forms) or Absorb
/// Essence (a monster) made, by the name the rules give it.
fn transmorphized_form(data: &GameData, spell: &str, form: &str) -> Result<String, CombatError> {
    let found = match spell {
        "Transform" => crate::tables::magic::transform_forms()
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(form))
            .map(|f| f.name.to_string()),
        "Absorb Essence" => data
            .monsters
            .iter()
            .find(|m| m.name.eq_ignore_ascii_case(crate::data::base_name(form)))
            .map(|_| form.to_string()),
        _ => {
            return Err(format!(
                "in_effect: {spell} takes no form; only Transform and Absorb Essence do"
            )
            .into());
        }
    };
    found.ok_or_else(|| format!("in_effect: {spell} makes no {form}").into())
}

/// The spell an Enchant Artifact set up in effect put in its item (`on =
/// ["Good Book with Premonition"]`): one its caster knows, other than
/// Enchant Artifact, as casting it asks (List of Spells, Enchant Artifact).
/// `None` for any other spell.
fn enchanted_spell(
    state: &MrState,
    seat: usize,
    spell: &str,
    targets: &[Aim],
) -> Result<Option<String>, CombatError> {
    if spell != crate::magic::spells::enchant_artifact::NAME {
        return Ok(None);
    }
    let known = &state.characters[seat].magic.spells;
    match targets {
        [Aim::Item { .. }, Aim::KnownSpell { name }] => known
            .iter()
            .find(|k| k.eq_ignore_ascii_case(name) && k.as_str() != spell)
            .map(|k| Some(k.clone()))
            .ok_or_else(|| {
                format!(
                    "in_effect: {spell} puts in its item a spell the {} knows, other than \
                     {spell}; {name} is not one",
                    state.characters[seat].name
                )
                .into()
            }),
        _ => Err(format!(
            "in_effect: write {spell}'s target as `on = [\"ITEM with SPELL\"]`: an item its \
             caster carries and a spell he knows"
        )
        .into()),
    }
}

/// The clearing a battle file names (`LD2`), when the board has it.
fn board_clearing(state: &MrState, label: &str) -> Option<ClearingId> {
    let digits = label.trim_start_matches(|c: char| !c.is_ascii_digit());
    let tile = &label[..label.len() - digits.len()];
    let id = ClearingId::new(tile, digits.parse().ok()?);
    state.board.clearing(&id).map(|_| id)
}

#[cfg(test)]
mod check_tests {
    use super::*;

    #[test]
    fn a_mismatch_lists_names_in_words() {
        let expect = Expect {
            killed: Some(vec!["Rogue 2".into(), "Rogue 1".into()]),
            fled: Some(Vec::new()),
            ..Expect::default()
        };
        let got = Outcome {
            fled: vec!["Amazon".into()],
            ..Outcome::default()
        };
        assert_eq!(
            check(&expect, &got, &[]),
            [
                "killed: expected Rogue 1, Rogue 2, got none",
                "fled: expected none, got Amazon"
            ]
        );
    }
}

#[cfg(test)]
mod in_effect_tests {
    use crate::test_support::data;

    /// An Enchant Artifact set up in effect must name the spell it put in
    /// its item, one its caster knows; else the file is refused, never
    /// loaded with an enchantment holding nothing.
    #[test]
    fn an_enchant_artifact_names_a_spell_its_caster_knows() {
        let file = |on: &str| {
            format!(
                "clearing = \"CV4\"\nday = 28\n[[character]]\nname = \"Magician\"\nspells = \
                 [\"Enchant Artifact\", \"Premonition\"]\nartifacts = [\"Good Book\"]\n\
                 [[in_effect]]\nspell = \"Enchant Artifact\"\ncaster = \"Magician\"\non = \
                 [\"{on}\"]\n[expect]\n"
            )
        };
        let refused = |on: &str| match super::load(data(), "enchanted", &file(on)) {
            Ok(_) => panic!("{on}: loaded"),
            Err(e) => e.to_string(),
        };
        assert!(refused("Good Book").contains("ITEM with SPELL"));
        assert!(refused("Good Book with Fiery Blast").contains("Fiery Blast is not one"));
        let loaded = super::load(data(), "enchanted", &file("Good Book with premonition"))
            .unwrap_or_else(|e| panic!("{e}"));
        let magic = loaded.battle.magic.as_ref().expect("the battle's magic");
        assert!(crate::magic::spells::enchant_artifact::holds(
            &magic.state,
            "Good Book",
            "Premonition"
        ));
    }
}
