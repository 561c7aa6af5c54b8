//! The magic rows of the treasure-site tables (`tables/twt.rs`, §5.1, §5.3):
//! the Enchanted Meadow's Wish, the Toadstool Circle's Power of the Pit
//! against the searcher, and its gift of enchanting any clearing's tile as
//! if he stood there. Each row is worked by the spell that does the same
//! thing (`magic::spells::build_of`: Small Blessing rolls on the Wish table
//! for its target, Power of the Pit on its own table), with the searcher as
//! caster and target, so the tables and their effects live in one place.
//!
//! Rulings (the tables say what, not how, outside combat):
//! * The roll is made in the site's name: purpose `magic/<site>/<character>`.
//! * A Wish that sends him elsewhere takes him to the clearing his
//!   `Teleport:` line names (any clearing on the map), without followers;
//!   with no line he stays and the GM is told. A Wish for Peace made in
//!   Daylight holds the clearing he made it in for the rest of the day:
//!   no combat there that Evening (3.1 Wishes table, 4.6.8b).
//! * Power of the Pit killing him (Carried Away, or the Fiery Chasm while
//!   unhidden) kills him at once: he does nothing more today and starts
//!   again at the Inn at Birdsong, as one killed in combat.
//! * Enchanting anywhere: for the rest of the day an SP phase whose note is
//!   `tile <clearing>` (3.1's `RE (CV5)`, or `E (tile CV5)`) turns that clearing's tile over,
//!   with the colour present in that clearing (`magic::enchant`).

use crate::board::ClearingId;
use crate::day::refusal::PhaseError;
use crate::magic::effect::SpellEffect;
use crate::magic::enchant;
use crate::magic::events::MagicEvent;
use crate::magic::spellbook::find_spell;
use crate::magic::spells::{Build, Ctx, build_of};
use crate::state::magic::Aim;

use super::Day;
use super::treasure_sites::SiteEvent;

/// The spell that rolls on the Wish table for its target.
const WISH_SPELL: &str = "Small Blessing";
/// The spell that rolls on the Power of the Pit table against its target.
const PIT_SPELL: &str = "Power of the Pit";

/// The Enchanted Meadow's Wish for the searcher `who`; `teleport` is his
/// `Teleport:` clearing (tile name, number) for a Wish to be elsewhere.
pub fn wish(
    day: &mut Day<'_>,
    who: usize,
    site: &str,
    teleport: Option<&(String, u8)>,
) -> SiteEvent {
    let mut targets = vec![Aim::Character {
        name: day.state.characters[who].name.clone(),
    }];
    if let Some(clearing) = teleport.and_then(|t| clearing_named(day, t)) {
        targets.push(Aim::Clearing { clearing });
    }
    let before = day.state.characters[who].position.clone();
    let event = run_as_spell(day, who, site, WISH_SPELL, &targets);
    let c = &mut day.state.characters[who];
    if c.position != before {
        c.discoveries.tiles_visited.insert(c.position.tile.clone());
        day.today.shed_followers.insert(who);
    }
    event
}

/// The Toadstool Circle's Power of the Pit against the searcher.
pub fn power_of_the_pit(day: &mut Day<'_>, who: usize, site: &str) -> SiteEvent {
    let targets = [Aim::Character {
        name: day.state.characters[who].name.clone(),
    }];
    run_as_spell(day, who, site, PIT_SPELL, &targets)
}

/// The Toadstool Circle's row 4: he may peer into, and enchant the tile
/// of, any clearing for the rest of the day.
pub fn grant_peer_and_enchant(day: &mut Day<'_>, who: usize, site: &str) -> SiteEvent {
    day.today.peer_anywhere.insert(who);
    SiteEvent::Granted {
        character: day.state.characters[who].name.clone(),
        site: site.to_string(),
        what: "any clearing may be peered into ('Search: peer <clearing>') and any \
               clearing's tile enchanted ('RE (<clearing>)') for the rest of the day"
            .into(),
    }
}

/// The clearing an SP phase's note names after `tile` (`tile CV5`,
/// `tile Curst Valley 5`), when it names one; `Ok(None)` for a bare `tile`.
///
/// # Errors
/// A clearing that is not on the map, or named without the gift.
pub fn enchant_target(
    day: &Day<'_>,
    who: usize,
    note: &str,
) -> Result<Option<ClearingId>, PhaseError> {
    let Some(at) = note.to_ascii_lowercase().find("tile") else {
        return Ok(None);
    };
    let rest = note[at + 4..].trim();
    if rest.is_empty() {
        return Ok(None);
    }
    let digits = rest.chars().rev().take_while(char::is_ascii_digit).count();
    let (tile, number) = rest.split_at(rest.len() - digits);
    let clearing = number
        .parse::<u8>()
        .ok()
        .and_then(|n| clearing_named(day, &(tile.trim().trim_end_matches('-').to_string(), n)))
        .ok_or_else(|| format!("'{rest}' is not a clearing on the map; write it as 'tile CV5'"))?;
    let here = &day.state.characters[who].position;
    if clearing.tile != here.tile && !day.today.peer_anywhere.contains(&who) {
        return Err(format!(
            "only the tile where the character stands ({}) can be enchanted; another clearing's tile needs the \
             Toadstool Circle's gift of the day",
            here.tile
        )
        .into());
    }
    Ok(Some(clearing))
}

/// Enchant the tile of `at` as if `who` stood there.
///
/// # Errors
/// Why the phase is lost (see `magic::enchant::enchant_tile_at`).
pub fn enchant_remote(
    day: &mut Day<'_>,
    who: usize,
    chit: Option<&str>,
    at: &ClearingId,
) -> Result<MagicEvent, PhaseError> {
    let today = day.state.day + 1;
    Ok(enchant::enchant_tile_at(
        &mut day.state,
        day.data,
        day.rules,
        today,
        who,
        chit,
        at,
    )?)
}

/// A clearing on the map from a tile name or code and a number.
fn clearing_named(day: &Day<'_>, (tile, number): &(String, u8)) -> Option<ClearingId> {
    let code = day.data.tiles.resolve(tile)?.code.clone();
    let clearing = ClearingId::new(&code, *number);
    day.state.board.clearing(&clearing).map(|_| clearing)
}

/// Work the spell `spell` as the site's, `who` casting, and carry out what
/// it did outside combat.
fn run_as_spell(
    day: &mut Day<'_>,
    who: usize,
    site: &str,
    spell: &str,
    targets: &[Aim],
) -> SiteEvent {
    let character = day.state.characters[who].name.clone();
    let not_applied = |reason: String| SiteEvent::NotApplied {
        character: character.clone(),
        site: site.to_string(),
        what: spell.to_string(),
        reason,
    };
    let (Ok(found), Some(Build::Effect(work))) = (find_spell(day.data, spell), build_of(spell))
    else {
        return not_applied(format!(
            "the spell {spell} is not built in the spell engine"
        ));
    };
    // The site works the spell: its rolls are recorded in the site's name.
    let mut as_site = found.clone();
    as_site.name = site.to_string();
    let today = day.state.day + 1;
    let mut ctx = Ctx {
        state: &mut day.state,
        data: day.data,
        rules: day.rules,
        dice: &mut *day.dice,
        caster: who,
        spell: &as_site,
        targets,
        speed: 0,
        day: today,
        detail: None,
        spent: false,
    };
    let effects = match work(&mut ctx) {
        Ok(effects) => effects,
        Err(e) => return not_applied(e.to_string()),
    };
    let effects = effects
        .into_iter()
        .map(|effect| out_of_combat(day, effect))
        .collect();
    SiteEvent::MagicWorked {
        character,
        site: site.to_string(),
        effects,
    }
}

/// Carry one effect out in Daylight: a character killed dies now; a Wish
/// for Peace holds his clearing through the Evening (`evening`).
fn out_of_combat(day: &mut Day<'_>, effect: SpellEffect) -> SpellEffect {
    match effect {
        SpellEffect::Killed {
            target: Aim::Character { ref name },
        } => {
            if let Some(i) = day.state.characters.iter().position(|c| &c.name == name) {
                day.state.characters[i].dead = true;
                day.today.blocked.insert(i);
            }
            effect
        }
        SpellEffect::CombatEnds { ref clearing } => {
            day.today.peace_in.insert(clearing.clone());
            effect
        }
        other => other,
    }
}
