//! The `Combat:` line of the orders mail: a character's standing combat
//! orders ([`Tactics`]) as clauses split by commas, for example
//! `Combat: attack with FIGHT M5, maneuver with MOVE M4, target weakest,
//! run when wounded 2, lure nobody`. Clauses: `attack with CHIT`,
//! `maneuver with CHIT` (a CHIT may be an active Boots or Gloves card), `attack thrust|swing|smash`,
//! `maneuver charge|dodge|duck`, `target own|weakest|strongest|NAME`,
//! `run when wounded N`, `fly away` (with a Fly chit, 3.1 8.3.8e),
//! `lure nobody|everyone|weakest|NAME and NAME`,
//! `HIRELING lure NAME` (a hired native lures one denizen onto his own sheet),
//! `deploy` (hired natives against the attackers on his sheet), `deploy HIRELING
//! against NAME` (a denizen or a character), `alert`,
//! `cast SPELL [with CHIT] [on TARGET [and TARGET...] [to PLACE]] [thrust|swing|smash]` (the
//! MAGIC chit or artifact that casts it, several targets for a spell such as Fiery Blast, an attack
//! spell's direction; 3.1 8.3.9, 8.4.2d, 8.4.5l), `charge NAME [with CHIT]` (play summary III.A.3; `with fly` charges with
//! a Fly chit, 3.1 8.3.6b.4), `abandon ITEM`, `drop ITEM` and `pick up ITEM [with CHIT]`
//! (Dropping and Losing Belongings, 3.1 10.A.5.1.2, 10.A.5.5),
//! `attack horses` (Riding Horses, 2nd-edition optional combat rule 5.3), `berserk` (alert the
//! BERSERK chit), `fatigue CHIT` (a colour chit fatigued without casting, beside his action;
//! 3.1 8.3.9a.3), `energize SPELL with CHIT` (a colour chit energizing an inert Permanent
//! spell here; 8.3.9a.1), `activate ITEM` and `inactivate ITEM` (one of each in
//! the Encounter step when he takes no other action, `activation.rs`).

use std::fmt;

use crate::data::GameData;
use crate::state::CounterSide;

use super::error::CombatError;
use super::model::{Direction, Gait};
use super::tactics::{Lure, Tactics, Target};

const CLAUSES: &str = "attack with CHIT, maneuver with CHIT/horse, attack thrust/swing/smash, \
                       maneuver charge/dodge/duck, target own/weakest/strongest/nobody/NAME, \
                       maneuver with fly, run when wounded N, fly away, lure nobody/everyone/weakest/NAME, HIRELING lure NAME, deploy, deploy HIRELING against NAME, alert, \
                       cast SPELL [with CHIT] [on TARGET [and TARGET]] [thrust/swing/smash], \
                       charge NAME [with CHIT/fly], abandon ITEM, drop ITEM, pick up ITEM [with CHIT], activate ITEM, inactivate ITEM, attack horses, berserk, \
                       fatigue COLOUR-CHIT, energize SPELL with COLOUR-CHIT, \
                       gallop, walk, place COUNTER in box N";

/// Read the value of a `Combat:` line.
///
/// # Errors
/// The column (0-based, in `value`) of the clause that could not be read
/// and what was expected.
pub fn parse_tactics(value: &str, cards: &dyn ChitCards) -> Result<Tactics, (usize, CombatError)> {
    let mut tactics = Tactics::default();
    let mut column = 0;
    for raw in value.split(',') {
        let start = column + raw.len() - raw.trim_start().len();
        column += raw.chars().count() + 1;
        let clause = raw.trim();
        if clause.is_empty() {
            continue;
        }
        read_clause(clause, cards, &mut tactics).map_err(|e| (start, e))?;
    }
    Ok(tactics)
}

fn rest<'a>(clause: &'a str, prefix: &str) -> Option<&'a str> {
    let lower = clause.to_ascii_lowercase();
    lower
        .starts_with(prefix)
        .then(|| clause[prefix.len()..].trim())
}

/// A chit to play: a printed chit (`FIGHT M3**`), `horse`, or a Boots or
/// Gloves card, which is played as a chit (`activation.rs`).
fn chit(text: &str, cards: &dyn ChitCards) -> Result<String, CombatError> {
    if text.eq_ignore_ascii_case("horse") {
        return Ok("horse".into());
    }
    if text.eq_ignore_ascii_case("fly") || text.eq_ignore_ascii_case(super::fly_chit::LABEL) {
        return Ok(super::fly_chit::LABEL.into());
    }
    if let Some(card) = cards.chit_card(text) {
        return Ok(card.to_string());
    }
    Ok(
        crate::data::characters::ActionChit::parse(&text.to_ascii_uppercase())
            .map(|_| text.to_ascii_uppercase())
            .map_err(|e| format!("{e}; or name a Boots or Gloves card (\"Elven Slippers\")"))?,
    )
}

/// What the `Combat:` grammar needs to know of the game's components: the
/// Boots and Gloves cards, which are played as chits.
pub trait ChitCards {
    /// The printed name of the Boots or Gloves card called `text`, any case.
    fn chit_card(&self, text: &str) -> Option<&str>;
}

impl ChitCards for GameData {
    fn chit_card(&self, text: &str) -> Option<&str> {
        self.treasures
            .iter()
            .find(|t| {
                t.name.eq_ignore_ascii_case(text)
                    && t.effects
                        .iter()
                        .any(|e| super::activation::card_chit(e).is_some())
            })
            .map(|t| t.name.as_str())
    }
}

/// A MAGIC chit as a colour chit is named (`MAGIC III2*`, or `III2*`).
fn colour_chit(text: &str) -> Result<String, CombatError> {
    let upper = text.trim().to_ascii_uppercase();
    let label = if upper.starts_with("MAGIC ") {
        upper
    } else {
        format!("MAGIC {upper}")
    };
    match crate::data::characters::ActionChit::parse(&label) {
        Ok(chit) if chit.action == crate::data::characters::ChitAction::Magic => Ok(label),
        _ => Err(format!(
            "'{text}' is not a MAGIC chit; name the colour chit as it is printed, e.g. \
             'MAGIC III2*'"
        )
        .into()),
    }
}

/// `Soldier HQ against Amazon` (after `deploy `): a hired native and his
/// target.
fn deployment(text: &str) -> Option<(String, String)> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find(" against ")?;
    let native = text[..at].trim();
    let target = text[at + " against ".len()..].trim();
    (!native.is_empty() && !target.is_empty()).then(|| (native.to_string(), target.to_string()))
}

/// `Wolf 1 in box 2` (after `place `): a counter on his sheet and its red
/// box, 1 to 3.
/// `Wolf 1 in box 2` (after `place `), or for a hireling defending on his
/// own sheet `Soldier 1 in box 2 dark side up` (3.1 8.4.5n.1).
fn placement(text: &str) -> Result<(String, Direction, Option<CounterSide>), CombatError> {
    let lower = text.to_ascii_lowercase();
    let at = lower
        .rfind(" in box ")
        .ok_or("write 'place COUNTER in box N', N from 1 to 3")?;
    let name = text[..at].trim();
    let after = lower[at + " in box ".len()..].trim();
    let (number, side) = match after.split_once(' ') {
        Some((n, "light side up")) => (n, Some(CounterSide::Light)),
        Some((n, "dark side up")) => (n, Some(CounterSide::Dark)),
        Some((_, other)) => {
            return Err(format!(
                "'{other}' after the box: write 'light side up' or 'dark side up', or nothing"
            )
            .into());
        }
        None => (after, None),
    };
    let direction = number
        .parse::<u8>()
        .ok()
        .and_then(Direction::from_number)
        .ok_or_else(|| format!("'{number}' is not a red box: 1, 2 or 3"))?;
    if name.is_empty() {
        return Err("name the counter to place: 'place Wolf 1 in box 2'".into());
    }
    Ok((name.to_string(), direction, side))
}

/// `Helmet` or `Spear with MOVE M4` (after `pick up `): a dropped belonging
/// and the MOVE chit he picks it up with, if named (3.1 10.A.5.5.2).
fn pick_up(text: &str, cards: &dyn ChitCards) -> Result<(String, Option<String>), CombatError> {
    // Padded, so that a line naming no belonging (`with MOVE M4`) is seen.
    let padded = format!(" {}", text.to_ascii_lowercase());
    let (item, with) = match padded.rfind(" with ") {
        Some(at) => (
            &text[..at.saturating_sub(1)],
            Some(chit(&text[at + "with ".len()..], cards)?),
        ),
        None => (text, None),
    };
    let item = item.trim();
    if item.is_empty() {
        return Err(
            "name the belonging to pick up: 'pick up Helmet' or 'pick up Spear with \
                    MOVE M4'"
                .into(),
        );
    }
    if with
        .as_deref()
        .is_some_and(|c| c == "horse" || c == super::fly_chit::LABEL)
    {
        return Err(
            "a dropped belonging is picked up with a MOVE chit (3.1 10.A.5.5.2), not a \
                    horse or a Fly chit: 'pick up Spear with MOVE M4'"
                .into(),
        );
    }
    Ok((item.to_string(), with))
}

/// `Woodfolk 2 lure Troll`: a hired native and the denizen he lures.
fn hireling_lure(clause: &str) -> Option<(String, String)> {
    let lower = clause.to_ascii_lowercase();
    let at = lower.find(" lure ")?;
    let native = clause[..at].trim();
    let target = clause[at + " lure ".len()..].trim();
    (!native.is_empty() && !target.is_empty()).then(|| (native.to_string(), target.to_string()))
}

/// " (did you mean 'target weakest'?)" for `taget weakest`: the clause
/// with its first word replaced by the nearest word a clause opens with.
fn misspelt_opener(clause: &str) -> String {
    const OPENERS: &[&str] = &[
        "attack",
        "maneuver",
        "target",
        "run",
        "fly",
        "lure",
        "deploy",
        "alert",
        "cast",
        "charge",
        "abandon",
        "drop",
        "pick",
        "activate",
        "inactivate",
        "berserk",
        "place",
        "gallop",
        "walk",
        "fatigue",
        "energize",
    ];
    let (first, rest) = clause.split_once(' ').unwrap_or((clause, ""));
    match realmgm_core::suggest::nearest(first, OPENERS.iter().copied()).first() {
        Some(word) if rest.is_empty() => format!(" (did you mean '{word}'?)"),
        Some(word) => format!(" (did you mean '{word} {rest}'?)"),
        None => String::new(),
    }
}

fn read_clause(
    clause: &str,
    cards: &dyn ChitCards,
    tactics: &mut Tactics,
) -> Result<(), CombatError> {
    if clause.eq_ignore_ascii_case("attack horses") {
        tactics.attack_horses = true;
    } else if clause.eq_ignore_ascii_case("fly away") {
        tactics.fly_away = true;
    } else if let Some(c) = rest(clause, "attack with ") {
        tactics.attack_with = Some(chit(c, cards)?);
    } else if let Some(c) = rest(clause, "maneuver with ") {
        tactics.maneuver_with = Some(chit(c, cards)?);
    } else if let Some(d) = rest(clause, "attack ") {
        tactics.attack_direction =
            Some(Direction::parse(d).ok_or("attack thrust, swing or smash")?);
    } else if let Some(d) = rest(clause, "maneuver ") {
        tactics.maneuver_direction =
            Some(Direction::parse(d).ok_or("maneuver charge, dodge or duck")?);
    } else if let Some(t) = rest(clause, "target ") {
        tactics.target = match t.to_ascii_lowercase().as_str() {
            "own" | "own sheet" => Target::OwnSheet,
            "weakest" => Target::Weakest,
            "strongest" => Target::Strongest,
            "nobody" => Target::Nobody,
            "" => return Err("say whom to target".into()),
            _ => Target::Named(t.to_string()),
        };
    } else if let Some(n) = rest(clause, "run when wounded ") {
        let n: u8 = n
            .parse()
            .map_err(|_| format!("'{n}' is not a number of wounds; write 'run when wounded 2'"))?;
        tactics.run_when_wounded = Some(n);
    } else if let Some((native, target)) = rest(clause, "deploy ").and_then(deployment) {
        tactics.hireling_deploys.push((native, target));
    } else if let Some((native, target)) = hireling_lure(clause) {
        tactics.hireling_lures.push((native, target));
    } else if let Some(l) = rest(clause, "lure ") {
        tactics.lure = match l.to_ascii_lowercase().as_str() {
            "nobody" => Lure::Nobody,
            "everyone" | "all" => Lure::Everyone,
            "weakest" => Lure::Weakest,
            _ => Lure::Named(l.split(" and ").map(|n| n.trim().to_string()).collect()),
        };
    } else if clause.eq_ignore_ascii_case("deploy") {
        tactics.deploy = true;
    } else if clause.eq_ignore_ascii_case("berserk") {
        tactics.berserk = true;
    } else if clause.eq_ignore_ascii_case("alert") {
        tactics.alert = true;
    } else if let Some(p) = rest(clause, "place ") {
        let (name, direction, side) = placement(p)?;
        if let Some(side) = side {
            tactics.sides.push((name.clone(), side));
        }
        tactics.placements.push((name, direction));
    } else if clause.eq_ignore_ascii_case("gallop") {
        tactics.horse_gait = Some(Gait::Gallop);
    } else if clause.eq_ignore_ascii_case("walk") {
        tactics.horse_gait = Some(Gait::Walk);
    } else if let Some(s) = rest(clause, "cast ") {
        tactics.cast = Some(s.to_string());
    } else if let Some(c) = rest(clause, "fatigue ") {
        tactics.fatigue.push(colour_chit(c)?);
    } else if let Some(e) = rest(clause, "energize ") {
        let lower = e.to_ascii_lowercase();
        let at = lower.rfind(" with ").ok_or(
            "write 'energize SPELL with COLOUR-CHIT', e.g. 'energize Transform with MAGIC IV3*'",
        )?;
        let spell = e[..at].trim();
        if spell.is_empty() {
            return Err("name the spell to energize: 'energize Transform with MAGIC IV3*'".into());
        }
        let chit = colour_chit(&e[at + " with ".len()..])?;
        tactics.energize.push((spell.to_string(), chit));
    } else if let Some(c) = rest(clause, "charge ") {
        let lower = c.to_ascii_lowercase();
        match lower.rfind(" with ") {
            Some(at) => {
                tactics.charge = Some(c[..at].trim().to_string());
                tactics.charge_with = Some(chit(c[at + " with ".len()..].trim(), cards)?);
            }
            None => tactics.charge = Some(c.to_string()),
        }
    } else if let Some(i) = rest(clause, "abandon ").or_else(|| rest(clause, "lose ")) {
        tactics.abandon = Some(i.to_string());
        tactics.drops = false;
    } else if let Some(i) = rest(clause, "drop ") {
        tactics.abandon = Some(i.to_string());
        tactics.drops = true;
    } else if let Some(p) = rest(clause, "pick up ") {
        tactics.pick_up.push(pick_up(p, cards)?);
    } else if let Some(i) = rest(clause, "activate ") {
        tactics.activate = Some(i.to_string());
    } else if let Some(i) = rest(clause, "inactivate ").or_else(|| rest(clause, "deactivate ")) {
        tactics.inactivate = Some(i.to_string());
    } else if let Some(verb) = ["activate", "inactivate", "deactivate", "pick up"]
        .into_iter()
        .find(|v| clause.eq_ignore_ascii_case(v))
    {
        return Err(format!("say which belonging to {verb}, e.g. '{verb} Shield'").into());
    } else {
        return Err(format!(
            "'{clause}' is not a combat order{}; write one of: {CLAUSES}",
            misspelt_opener(clause)
        )
        .into());
    }
    Ok(())
}

/// The canonical `Combat:` value, read back by [`parse_tactics`].
impl fmt::Display for Tactics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(c) = &self.attack_with {
            parts.push(format!("attack with {c}"));
        }
        if let Some(d) = self.attack_direction {
            parts.push(format!("attack {}", d.attack_word()));
        }
        if let Some(c) = &self.maneuver_with {
            parts.push(format!("maneuver with {c}"));
        }
        if let Some(d) = self.maneuver_direction {
            parts.push(format!("maneuver {}", d.maneuver_word()));
        }
        parts.push(match &self.target {
            Target::OwnSheet => "target own".to_string(),
            Target::Weakest => "target weakest".to_string(),
            Target::Strongest => "target strongest".to_string(),
            Target::Nobody => "target nobody".to_string(),
            Target::Named(n) => format!("target {n}"),
        });
        if let Some(n) = self.run_when_wounded {
            parts.push(format!("run when wounded {n}"));
        }
        if self.fly_away {
            parts.push("fly away".to_string());
        }
        parts.push(match &self.lure {
            Lure::Nobody => "lure nobody".to_string(),
            Lure::Everyone => "lure everyone".to_string(),
            Lure::Weakest => "lure weakest".to_string(),
            Lure::Named(names) => format!("lure {}", names.join(" and ")),
        });
        for (native, target) in &self.hireling_lures {
            parts.push(format!("{native} lure {target}"));
        }
        for (native, target) in &self.hireling_deploys {
            parts.push(format!("deploy {native} against {target}"));
        }
        if self.alert {
            parts.push("alert".into());
        }
        if self.deploy {
            parts.push("deploy".into());
        }
        if let Some(s) = &self.cast {
            parts.push(format!("cast {s}"));
        }
        if self.berserk {
            parts.push("berserk".into());
        }
        if self.attack_horses {
            parts.push("attack horses".into());
        }
        if let Some(c) = &self.charge {
            match &self.charge_with {
                Some(w) => parts.push(format!("charge {c} with {w}")),
                None => parts.push(format!("charge {c}")),
            }
        }
        if let Some(i) = &self.abandon {
            let verb = if self.drops { "drop" } else { "abandon" };
            parts.push(format!("{verb} {i}"));
        }
        for (item, with) in &self.pick_up {
            match with {
                Some(chit) => parts.push(format!("pick up {item} with {chit}")),
                None => parts.push(format!("pick up {item}")),
            }
        }
        if let Some(i) = &self.activate {
            parts.push(format!("activate {i}"));
        }
        if let Some(i) = &self.inactivate {
            parts.push(format!("inactivate {i}"));
        }
        for c in &self.fatigue {
            parts.push(format!("fatigue {c}"));
        }
        for (spell, chit) in &self.energize {
            parts.push(format!("energize {spell} with {chit}"));
        }
        for (counter, direction) in &self.placements {
            let side = match self.sides.iter().find(|(c, _)| c == counter) {
                Some((_, CounterSide::Light)) => " light side up",
                Some((_, CounterSide::Dark)) => " dark side up",
                None => "",
            };
            parts.push(format!(
                "place {counter} in box {}{side}",
                direction.number()
            ));
        }
        match self.horse_gait {
            Some(Gait::Gallop) => parts.push("gallop".into()),
            Some(Gait::Walk) => parts.push("walk".into()),
            None => {}
        }
        f.write_str(&parts.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `Combat:` grammar with the embedded cards.
    fn read(value: &str) -> Result<Tactics, (usize, CombatError)> {
        parse_tactics(value, crate::data::get().unwrap())
    }

    #[test]
    fn a_full_combat_line_reads() {
        let t = read(
            "attack with FIGHT H5, maneuver with move m4, target weakest, run when wounded 2, lure nobody, attack smash, maneuver dodge",
        )
        .unwrap();
        assert_eq!(t.attack_with.as_deref(), Some("FIGHT H5"));
        assert_eq!(t.maneuver_with.as_deref(), Some("MOVE M4"));
        assert_eq!(t.target, Target::Weakest);
        assert_eq!(t.run_when_wounded, Some(2));
        assert_eq!(t.attack_direction, Some(Direction::Smash));
        assert_eq!(t.maneuver_direction, Some(Direction::Swing));
    }

    /// 3.1 10.A.5.1.2, 10.A.5.5: `drop` is abandoning in plain sight;
    /// `pick up` names a dropped belonging and, for one not lying in front
    /// of him, the MOVE chit he may name, never a horse or a Fly chit.
    #[test]
    fn drop_and_pick_up_read_and_echo() {
        let t = read("drop Helmet").unwrap();
        assert_eq!((t.abandon.as_deref(), t.drops), (Some("Helmet"), true));
        assert!(t.to_string().ends_with(", drop Helmet"), "{t}");
        let t = read("lose Helmet").unwrap();
        assert_eq!((t.abandon.as_deref(), t.drops), (Some("Helmet"), false));
        let t = read("pick up Helmet, pick up Spear with move m4").unwrap();
        assert_eq!(
            t.pick_up,
            [
                ("Helmet".to_string(), None),
                ("Spear".to_string(), Some("MOVE M4".to_string()))
            ]
        );
        assert!(
            t.to_string()
                .ends_with(", pick up Helmet, pick up Spear with MOVE M4"),
            "{t}"
        );
        assert_eq!(read(&t.to_string()).unwrap(), t);
        for wrong in [
            "pick up Spear with horse",
            "pick up",
            "pick up with MOVE M4",
        ] {
            let (_, refused) = read(wrong).unwrap_err();
            assert!(
                refused.to_string().contains("pick up"),
                "{wrong}: {refused}"
            );
        }
    }

    #[test]
    fn the_canonical_line_reads_back_the_same() {
        let t = read(
            "cast Fiery Blast, alert, deploy, lure Giant 1 and Wolf A 2, Woodfolk 2 lure Troll, Bashkar 1 lure Wolf A 1, deploy Soldier HQ against Amazon, target Amazon, maneuver with horse, attack swing, charge Amazon, abandon Suit of Armor, attack horses, berserk, activate Shield, inactivate Tremendous Horse, place Wolf A 1 in box 3, place Soldier 1 in box 2 dark side up, walk",
        )
        .unwrap();
        assert_eq!(
            t.hireling_lures,
            [("Woodfolk 2", "Troll"), ("Bashkar 1", "Wolf A 1")]
                .map(|(n, d)| (n.to_string(), d.to_string()))
        );
        assert_eq!(
            t.placements,
            [
                ("Wolf A 1".to_string(), Direction::Smash),
                ("Soldier 1".to_string(), Direction::Swing)
            ]
        );
        assert_eq!(t.sides, [("Soldier 1".to_string(), CounterSide::Dark)]);
        assert_eq!(t.horse_gait, Some(Gait::Walk));
        assert_eq!(read(&t.to_string()).unwrap(), t);
        assert_eq!(
            read(&Tactics::default().to_string()).unwrap(),
            Tactics::default()
        );
        // 3.1 8.3.6b.4: a Fly chit charges when named.
        let fly = read("charge White Knight with fly").unwrap();
        assert_eq!(
            (fly.charge.as_deref(), fly.charge_with.as_deref()),
            (Some("White Knight"), Some("Fly chit"))
        );
        assert_eq!(read(&fly.to_string()).unwrap(), fly);
    }

    #[test]
    fn a_placement_names_a_red_box_from_one_to_three() {
        let (_, message) = read("place Wolf A 1 in box 4").unwrap_err();
        assert!(message.to_string().contains("not a red box"), "{message}");
        let (_, message) = read("place Wolf A 1").unwrap_err();
        assert!(message.to_string().contains("in box N"), "{message}");
        assert_eq!(read("gallop").unwrap().horse_gait, Some(Gait::Gallop));
    }

    #[test]
    fn a_bad_clause_names_its_column() {
        let (col, message) = read("target weakest, dance wildly").unwrap_err();
        assert_eq!(col, 16);
        assert!(
            message.to_string().contains("not a combat order"),
            "{message}"
        );
        let (_, message) = read("taget weakest").unwrap_err();
        assert!(
            message.to_string().starts_with(
                "'taget weakest' is not a combat order (did you mean 'target weakest'?)"
            ),
            "{message}"
        );
        let (_, message) = read("run when wounded many").unwrap_err();
        assert!(
            message.to_string().contains("number of wounds"),
            "{message}"
        );
        let (col, message) = read("alert, activate ").unwrap_err();
        assert_eq!(col, 7);
        assert!(
            message.to_string().contains("which belonging to activate"),
            "{message}"
        );
    }

    #[test]
    fn a_boots_or_gloves_card_is_named_as_a_chit() {
        let t = read("maneuver with quick boots, attack with DEFT GLOVES").unwrap();
        assert_eq!(t.maneuver_with.as_deref(), Some("Quick Boots"));
        assert_eq!(t.attack_with.as_deref(), Some("Deft Gloves"));
        assert_eq!(read(&t.to_string()).unwrap(), t);
        let (col, message) = read("attack with Lucky Charm").unwrap_err();
        assert_eq!(col, 0);
        assert!(
            message
                .to_string()
                .contains("or name a Boots or Gloves card"),
            "{message}"
        );
    }

    #[test]
    fn activate_and_inactivate_clauses_read() {
        let t = read("activate Shield, deactivate Spear 2").unwrap();
        assert_eq!(t.activate.as_deref(), Some("Shield"));
        assert_eq!(t.inactivate.as_deref(), Some("Spear 2"));
        assert_eq!(t.to_string().matches("inactivate Spear 2").count(), 1);
    }
}
