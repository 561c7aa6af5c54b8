//! What spells in effect do to the fighters of a battle (magic summary "Spell
//! Effects"; `data/spells.toml`: Elven Grace, Unleash Power, Control Bats, Guide
//! Spider or Octopus, Transform, Absorb Essence; the moving spells).
//!
//! After the Melee step's spells take effect ([`after_casts`]), the battle
//! model is brought in line with the game state: a fighter the spells moved
//! out of the clearing leaves the combat; chit, horse and denizen values
//! are set from their printed ones and the spells on them. Control spells
//! act once, as they take effect ([`control`]).
//!
//! Rulings: Elven Grace sets the move time of its target's MOVE chits by
//! their printed strength, and both sides of a denizen by its
//! vulnerability: L 1, M 2, H 3, T 4 (3.1 List of Spells: not DUCK chits,
//! horses or Boots cards). Unleash Power lets its caster play each MAGIC
//! chit as a MOVE or FIGHT chit of its time and effort, with the strength
//! its printed time gives: 1 to 3 L, 4 M, 5 H, 6 or more T. How these meet
//! the Belt, Draught and Garb of Speed is in `altering.rs`. Control Bats
//! puts every Giant Bat in the clearing under its caster, Guide Spider or
//! Octopus its one target: each fights for him like a hired native for the
//! rest of the combat (it leaves the sheet it attacked from). A character
//! transformed (Transform's form, or the monster Absorb Essence made him)
//! plays his own chits, but their values are the form's: his MOVE chits
//! have the form's move strength and time, his attack the form's harm,
//! sharpness and time with no weapon (a form that cannot attack makes
//! none), he is hit as the form's vulnerability, and his armour does not
//! guard the beast (an armoured form is armoured like a monster). An
//! absorbed monster's form is its light side's body (no head or club). A form
//! whose own attack is a spell makes no attack (casting it is not
//! implemented yet). A fighter moved by a spell leaves the combat: the
//! Evening writes his new place into the game state.

use crate::board::ClearingId;
use crate::data::characters::{ActionChit, ChitAction};
use crate::data::terms::{DenizenSide, Harm, Strength};
use crate::magic::cast;
use crate::magic::item_caster::{controller, works};
use crate::state::magic::Aim;
use crate::state::{CounterSide, MrState, Whereabouts};
use crate::tables::magic::{TransformForm, transform_forms};

use super::Battle;
use super::altering;
use super::build;
use super::casting::aim_of;
use super::harm::{self, Blow};
use super::log::{CombatLine, Seen};
use super::model::{FighterId, FighterKind, Out};
use super::tactics::same_chit;

/// The beast a transformed character fights as.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub name: String,
    /// The form's attack and its speed and length; `None`: no attack.
    pub attack: Option<(Blow, u8, u8)>,
    pub move_strength: Strength,
    pub move_time: u8,
    pub vulnerability: Strength,
    pub armoured: bool,
}

/// The form character fighter `f` is transformed into, if he is.
pub fn form_of(battle: &Battle, f: FighterId) -> Option<Form> {
    battle.hero(f)?;
    let magic = battle.magic.as_ref()?;
    let name = battle.name(f);
    let aim = Aim::Character {
        name: name.to_string(),
    };
    let spell = magic.state.magic.in_effect.iter().find(|s| {
        works(&magic.state, s)
            && ((s.spell == "Transform" && s.targets.first() == Some(&aim))
                || (s.spell == "Absorb Essence" && controller(&magic.state, s) == Some(name)))
    })?;
    let detail = spell.detail.as_deref()?;
    if spell.spell == "Transform" {
        let form = transform_forms().iter().find(|x| x.name == detail)?;
        return Some(Form {
            name: form.name.to_string(),
            attack: form.attack.map(|a| {
                let blow = Blow {
                    level: harm::level(a.harm),
                    red: false,
                    stars: 0,
                    striking_bonus: false,
                    missile: false,
                };
                (blow, a.time, 0)
            }),
            move_strength: form.move_strength,
            move_time: form.move_time,
            vulnerability: form.vulnerability,
            armoured: form.armoured,
        });
    }
    // Absorb Essence only ever records a monster it absorbed: a name that
    // builds no denizen is a broken game state, not a fighter without form.
    let monster = build::denizen(battle.data, detail, CounterSide::Light, None)
        .unwrap_or_else(|e| panic!("Absorb Essence's form {detail} cannot be built: {e}"));
    let side = &monster.light;
    Some(Form {
        name: detail.to_string(),
        attack: side.harm.zip(side.speed).map(|(h, speed)| {
            (
                super::melee::denizen_blow(h, side.stars, side.missile),
                speed,
                monster.length,
            )
        }),
        move_strength: monster.vulnerability,
        move_time: side.move_speed,
        vulnerability: monster.vulnerability,
        armoured: monster.armored,
    })
}

/// A blow with the chit played for it: its label, effort, the attack's
/// speed and length.
pub type PlayedBlow = (Blow, (String, u8, u8, u8));

/// A transformed character's blow when he attacks with `chit`: the form's
/// attack at the chit's effort; `None` inside when the form cannot attack.
pub fn form_blow(battle: &Battle, who: FighterId, chit: &str) -> Option<Option<PlayedBlow>> {
    let form = form_of(battle, who)?;
    let Some((blow, speed, length)) = form.attack else {
        return Some(None);
    };
    let played = battle
        .hero(who)?
        .playable_chits()
        .find(|c| same_chit(&c.label, chit))?;
    Some(Some((
        blow,
        (played.label.clone(), played.chit.effort, speed, length),
    )))
}

/// The vulnerability a transformed character is hit as.
pub fn form_vulnerability(battle: &Battle, target: FighterId) -> Option<Strength> {
    form_of(battle, target).map(|f| f.vulnerability)
}

/// How a transformed target takes a hit: `Some(armoured)` when he is a
/// beast (his armour does not guard him), `None` otherwise.
pub fn beast_armoured(battle: &Battle, target: FighterId) -> Option<bool> {
    form_of(battle, target).map(|f| f.armoured)
}

/// Where the battle is, as the magic state has it (before spells move
/// anyone): where its first fighter in the clearing stands. An employer
/// absent from the clearing fights only through his hirelings, so his own
/// position says nothing of where the battle is.
pub fn clearing_of(battle: &Battle) -> Option<ClearingId> {
    let magic = battle.magic.as_ref()?;
    (0..battle.fighters.len())
        .filter(|&f| battle.fighters[f].out != Some(Out::Absent))
        .find_map(|f| match magic.seats.get(&f) {
            Some(&seat) => magic.state.characters.get(seat).map(|c| c.position.clone()),
            None => match &magic.state.denizens.get(battle.name(f))?.at {
                Whereabouts::Clearing { clearing } => Some(clearing.clone()),
                _ => None,
            },
        })
}

/// After the Melee step's spells took effect in clearing `here`.
pub fn after_casts(battle: &mut Battle, here: Option<&ClearingId>) {
    if let Some(here) = here {
        leave_moved(battle, here);
    }
    refresh(battle);
}

/// Where the magic state has fighter `f`, when that is not `here`.
fn moved_to(battle: &Battle, state: &MrState, f: FighterId, here: &ClearingId) -> Option<String> {
    let magic = battle.magic.as_ref()?;
    if battle.hero(f).is_some() {
        let seat = magic.seats.get(&f)?;
        let c = state.characters.get(*seat)?;
        return (&c.position != here).then(|| c.position.to_string());
    }
    match &state.denizens.get(battle.name(f))?.at {
        Whereabouts::Clearing { clearing } if clearing == here => None,
        Whereabouts::Clearing { clearing } => Some(clearing.to_string()),
        Whereabouts::Dead => None,
        _ => Some("its box on the setup card".to_string()),
    }
}

/// Fighters a spell moved out of the clearing leave the combat.
fn leave_moved(battle: &mut Battle, here: &ClearingId) {
    let Some(magic) = battle.magic.as_ref() else {
        return;
    };
    let moved: Vec<(FighterId, String)> = (0..battle.fighters.len())
        .filter(|&f| battle.in_play(f))
        .filter_map(|f| moved_to(battle, &magic.state, f, here).map(|to| (f, to)))
        .collect();
    for (f, to) in moved {
        battle.fighters[f].out = Some(Out::Moved { to: to.clone() });
        battle.sheet.retain(|d, o| *d != f && *o != f);
        battle.plays.eventful = true;
        let fighter = battle.name(f).to_string();
        battle.say(
            Seen::Clearing,
            CombatLine::SpellWorks {
                fighter,
                text: format!("leaves the combat, moved to {to} by a spell"),
            },
        );
    }
}

/// The spells on one fighter that change his values.
struct OnFighter {
    graced: bool,
    unleashed: bool,
    form: Option<Form>,
    /// The Transform form of a monster or native.
    beast: Option<&'static TransformForm>,
}

fn on_fighter(battle: &Battle, f: FighterId) -> OnFighter {
    let Some(magic) = battle.magic.as_ref() else {
        return OnFighter {
            graced: false,
            unleashed: false,
            form: None,
            beast: None,
        };
    };
    let own = Aim::OwnChits {
        character: battle.name(f).to_string(),
    };
    OnFighter {
        graced: cast::active_on(&magic.state, &aim_of(battle, f), "Elven Grace").is_some(),
        unleashed: battle.hero(f).is_some()
            && cast::active_on(&magic.state, &own, "Unleash Power").is_some(),
        form: form_of(battle, f),
        beast: denizen_form(battle, f),
    }
}

/// The form a Transform in effect gives denizen fighter `f`.
fn denizen_form(battle: &Battle, f: FighterId) -> Option<&'static TransformForm> {
    battle.denizen(f)?;
    let magic = battle.magic.as_ref()?;
    let aim = aim_of(battle, f);
    let spell = magic.state.magic.in_effect.iter().find(|s| {
        works(&magic.state, s) && s.spell == "Transform" && s.targets.first() == Some(&aim)
    })?;
    let detail = spell.detail.as_deref()?;
    transform_forms().iter().find(|x| x.name == detail)
}

/// A transformed monster or native fights as its form, on both sides: the
/// form's move time, attack (harm and time, no stars) and vulnerability,
/// armoured if the form is; no head, club or horse, and no red side.
fn take_form(den: &mut super::model::Denizen, form: &TransformForm) {
    let side = DenizenSide {
        move_speed: form.move_time,
        harm: form.attack.map(|a| harm_letter(a.harm)),
        stars: 0,
        speed: form.attack.map(|a| a.time),
        missile: false,
        spell: None,
        magic: None,
    };
    den.light = side.clone();
    den.dark = side;
    den.parts.clear();
    den.vulnerability = form.vulnerability;
    den.armored = form.armoured;
    den.tremendous = false;
    den.horse = None;
}

fn harm_letter(strength: Strength) -> Harm {
    match strength {
        Strength::Negligible | Strength::Light => Harm::Light,
        Strength::Medium => Harm::Medium,
        Strength::Heavy => Harm::Heavy,
        Strength::Tremendous => Harm::Tremendous,
    }
}

/// Set every fighter's values from the printed ones and the spells on him.
fn refresh(battle: &mut Battle) {
    if battle.magic.is_none() {
        return;
    }
    let data = battle.data;
    for f in 0..battle.fighters.len() {
        if battle.hero(f).is_some() {
            revalue(battle, f);
            continue;
        }
        let on = on_fighter(battle, f);
        let name = battle.name(f).to_string();
        if let FighterKind::Denizen(den) = &mut battle.fighters[f].kind {
            if let Some(form) = on.beast {
                take_form(den, form);
            } else if let Ok(printed) = build::denizen(data, &name, den.side, den.employer) {
                den.light.move_speed = printed.light.move_speed;
                den.dark.move_speed = printed.dark.move_speed;
            }
            if on.graced {
                den.light.move_speed = altering::graced(den.vulnerability);
                den.dark.move_speed = altering::graced(den.vulnerability);
            }
        }
    }
}

/// Set character fighter `f`'s chit values from the printed ones, his
/// active altering treasure cards and the spells on him (`altering.rs`).
/// His horse keeps its printed values: Elven Grace does not touch horses
/// (3.1 List of Spells, Elven Grace).
pub fn revalue(battle: &mut Battle, f: FighterId) {
    let on = on_fighter(battle, f);
    let data = battle.data;
    let Some(hero) = battle.hero_mut(f) else {
        return;
    };
    let cards = altering::cards(data, hero);
    for chit in &mut hero.chits {
        let Ok(printed) = ActionChit::parse(&chit.label) else {
            continue;
        };
        chit.unleashed = on.unleashed && printed.action == ChitAction::Magic;
        let spells = altering::Spells {
            graced: on.graced,
            unleashed: chit.unleashed,
            form: on.form.as_ref(),
        };
        chit.chit = altering::chit_now(&printed, cards, spells);
    }
}

pub(super) fn strength_of(level: i8) -> Strength {
    match level {
        ..=0 => Strength::Negligible,
        1 => Strength::Light,
        2 => Strength::Medium,
        3 => Strength::Heavy,
        _ => Strength::Tremendous,
    }
}

/// A control spell that just took effect: the monsters it names fight for
/// `caster` like hired natives. Returns the ids of the monsters it took:
/// all the Bats present for Control Bats, whichever one was named.
pub fn control(
    battle: &mut Battle,
    caster: FighterId,
    spell: &str,
    targets: &[Aim],
) -> Vec<String> {
    let taken: Vec<FighterId> = match spell {
        "Control Bats" => (0..battle.fighters.len())
            .filter(|&f| battle.in_play(f))
            .filter(|&f| crate::data::base_name(battle.name(f)) == "Giant Bat")
            .collect(),
        "Guide Spider or Octopus" | "Control Dragon" => targets
            .iter()
            .filter_map(|t| match t {
                Aim::Denizen { id } => battle.find(id),
                _ => None,
            })
            .collect(),
        _ => return Vec::new(),
    };
    let boss = battle.name(caster).to_string();
    let mut ids = Vec::new();
    for d in taken {
        let Some(den) = battle
            .denizen_mut(d)
            .filter(|den| den.employer != Some(caster))
        else {
            continue;
        };
        den.employer = Some(caster);
        den.battling.clear();
        battle.sheet.remove(&d);
        let monster = battle.name(d).to_string();
        ids.push(monster.clone());
        battle.say(
            Seen::Clearing,
            CombatLine::SpellWorks {
                fighter: boss.clone(),
                text: format!(
                    "controls {monster} ({spell}): it fights on the caster's side like a hired native"
                ),
            },
        );
    }
    ids
}

/// After an Evening's battle: a fighter a spell moved is where the magic
/// state put him (characters by seat, denizens by counter id).
pub fn moved_back(
    battle: &Battle,
    seats: &std::collections::BTreeMap<FighterId, usize>,
    state: &mut MrState,
) {
    let Some(magic) = battle.magic.as_ref() else {
        return;
    };
    for (f, fighter) in battle.fighters.iter().enumerate() {
        if !matches!(fighter.out, Some(Out::Moved { .. })) {
            continue;
        }
        if let Some(&seat) = seats.get(&f) {
            if let (Some(moved), Some(c)) = (
                magic.state.characters.get(seat),
                state.characters.get_mut(seat),
            ) {
                c.position = moved.position.clone();
                c.discoveries
                    .tiles_visited
                    .insert(moved.position.tile.clone());
            }
        } else if let (Some(moved), Some(d)) = (
            magic.state.denizens.get(&fighter.name),
            state.denizens.get_mut(&fighter.name),
        ) {
            d.at = moved.at.clone();
        }
    }
}
