//! One clearing's combat as a resumable machine (3.1 section 8): rounds of
//! Encounter (luring, random assignment, actions), Melee and Fatigue,
//! until two quiet rounds pass (8.8.2). At each decision point the engine takes
//! an explicit answer ([`Battle::answer`]) or the character's standing
//! orders; with neither it stops and says what it needs
//! ([`Step::Needs`]), so a round can wait for a player's mail and resume.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Display;

use serde::{Deserialize, Serialize};

use crate::data::GameData;
use crate::state::Item;
use crate::tables::{DieTable, Modifiers, TableRoll, push_number, roll_on};
use realmgm_core::dice::{Dice, DiceCount, RollRecord};
use realmgm_core::game::Rules;

use super::decisions::{Answer, Decision, Stage};
use super::error::CombatError;
use super::log::{CombatLine, LogLine, Seen};
use super::model::{Denizen, Fighter, FighterId, FighterKind, Hero, RoundPlays};
use super::tactics::Tactics;
use super::{encounter, fatigue, melee, tactics};

/// A combat that has gone on this many rounds is broken off (the rules set
/// no limit; a red-side-up monster that keeps missing could go on for
/// ever).
pub const MAX_ROUNDS: u32 = 60;

/// The optional and advanced combat rules a campaign switched on (3.1
/// section 10; `rules.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatRules {
    pub stumble: bool,
    pub fumble: bool,
    /// The corrected Optional Missile Table of 3.1 10.D.3; a campaign that
    /// still names it `revised_missile_table` gets the same table.
    pub optional_missile_table: bool,
    pub penetrating_armor: bool,
    pub ambush: bool,
    /// 3.1 10.D.3.2–10.D.3.3 (`riding.rs`).
    #[serde(default)]
    pub riding_horses: bool,
    /// 3.1 10.A.1 (`harm.rs`).
    #[serde(default)]
    pub serious_wounds: bool,
    /// 3.1 10.B.4 (`watchful.rs`).
    #[serde(default)]
    pub watchful_natives: bool,
    /// 3.1 10.B.5 (`treachery.rs`).
    #[serde(default)]
    pub extended_treachery: bool,
    /// 3.1 10.B.2 (`alerted.rs`).
    #[serde(default)]
    pub alerted_monsters: bool,
    /// 3.1 10.C.2 (`casting.rs`).
    #[serde(default)]
    pub benevolent_spells: bool,
    /// 3.1 10.B.3 (`melee.rs`, a head's attack).
    #[serde(default)]
    pub dragon_heads: bool,
    /// 3.1 10.C.4 (`pit_attack.rs`).
    #[serde(default)]
    pub advanced_power_of_the_pit: bool,
    /// 3.1 10.B.2's Variant (`alerted.rs`).
    #[serde(default)]
    pub alerted_monsters_variant: bool,
    /// The Magenta campaign's Semi-Restricted Ambush (`ambush.rs`).
    #[serde(default)]
    pub semi_restricted_ambush: bool,
    /// 3.1 10.A.5 (`abandon.rs`).
    #[serde(default)]
    pub dropping_belongings: bool,
}

impl CombatRules {
    pub fn from_rules(rules: &Rules) -> CombatRules {
        CombatRules {
            stumble: rules.is_on("stumble"),
            fumble: rules.is_on("fumble"),
            optional_missile_table: crate::rules::optional_missile_table(rules),
            penetrating_armor: rules.is_on("penetrating_armor"),
            ambush: crate::rules::ambush(rules),
            riding_horses: rules.is_on("riding_horses"),
            serious_wounds: rules.is_on("serious_wounds"),
            watchful_natives: rules.is_on("watchful_natives"),
            extended_treachery: rules.is_on("extended_treachery"),
            alerted_monsters: rules.is_on("alerted_monsters"),
            benevolent_spells: rules.is_on("benevolent_spells"),
            dragon_heads: rules.is_on("dragon_heads"),
            advanced_power_of_the_pit: rules.is_on("advanced_power_of_the_pit"),
            alerted_monsters_variant: rules.is_on("alerted_monsters_variant"),
            semi_restricted_ambush: rules.is_on("semi_restricted_ambush"),
            dropping_belongings: rules.is_on(crate::state::dropped::TOGGLE),
        }
    }
}

/// What the engine says after a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// It waits for this decision: answer it with [`Battle::answer`].
    Needs(Decision),
    Finished,
}

/// One clearing's combat, with the game data its rules read.
#[derive(Clone, Debug, Serialize)]
pub struct Battle<'d> {
    /// The components the fighters are built from; transformations and
    /// spells read them mid-combat.
    #[serde(skip)]
    pub data: &'d GameData,
    /// The clearing, as named in purposes and logs (`CV4`).
    pub clearing: String,
    pub round: u32,
    pub fighters: Vec<Fighter>,
    /// An attacking denizen → the fighter whose sheet it is on.
    pub sheet: BTreeMap<FighterId, FighterId>,
    /// Characters in the day's turn order.
    pub order: Vec<FighterId>,
    /// Standing orders; a character without them is asked.
    pub tactics: BTreeMap<FighterId, Tactics>,
    pub rules: CombatRules,
    pub stage: Stage,
    /// Answers given for the current stage.
    pub answers: BTreeMap<FighterId, Answer>,
    pub plays: RoundPlays,
    pub quiet_rounds: u8,
    pub log: Vec<LogLine>,
    pub finished: bool,
    /// Belongings of the dead left in the clearing.
    pub dropped: Vec<Item>,
    /// Belongings dropped in plain sight in the clearing, each with whom it
    /// lies in front of (none: in the open; 3.1 10.A.5.2): what lay there
    /// when the combat began and what was dropped during it, less what was
    /// picked up (`pick_up.rs`). The day lays them back when it is over.
    pub dropped_in_sight: Vec<(Option<String>, Item)>,
    /// Belongings taken by an unhired native group: (group, item).
    pub to_groups: Vec<(String, Item)>,
    /// The belongings of characters killed by a hired leader, by leader:
    /// he takes them (play summary III.B.9.d.i).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to_leaders: Vec<(String, Item)>,
    /// The game state spells are cast on; `None` when the battle was set
    /// up without one (casting is then refused with the reason).
    #[serde(default)]
    pub magic: Option<super::casting::CombatMagic>,
    /// The clearing is a cave: no horse is played there (play summary III.B.5;
    /// `native_horses.rs`, `activation.rs`).
    #[serde(default)]
    pub in_cave: bool,
    /// Treachery committed, (traitor, native group): his hired members of
    /// the group elsewhere on the map rebel too, which the day carries out
    /// (3.1 8.4.2g).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub treacheries: Vec<(FighterId, String)>,
    /// Each character's die-roll modifiers for the rolls of random
    /// assignment (3.1 8.3.5a.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub roll_mods: BTreeMap<FighterId, Modifiers>,
    /// Each character's modifiers to a Hide roll where he stands: an
    /// Ambush roll is modified normally (3.1 10.A.2).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hide_mods: BTreeMap<FighterId, Modifiers>,
    /// Why each character's `run when wounded` did not run, as last said:
    /// the log says it again only when the reason changes.
    #[serde(skip)]
    pub stays_because: BTreeMap<FighterId, String>,
    /// Kills (killer, victim) of the Melee step's current instant, whose
    /// spoils wait until it ends (`spoils.rs`); `None` outside it.
    #[serde(skip)]
    pub held_kills: Option<Vec<(FighterId, FighterId)>>,
}

impl<'d> Battle<'d> {
    /// A combat about to begin in `clearing`.
    pub fn new(
        data: &'d GameData,
        clearing: &str,
        fighters: Vec<Fighter>,
        rules: CombatRules,
    ) -> Battle<'d> {
        let order = fighters
            .iter()
            .enumerate()
            .filter(|(_, f)| matches!(f.kind, FighterKind::Character(_)))
            .map(|(i, _)| i)
            .collect();
        let mut battle = Battle {
            data,
            clearing: clearing.to_string(),
            round: 0,
            fighters,
            sheet: BTreeMap::new(),
            order,
            tactics: BTreeMap::new(),
            rules,
            stage: Stage::Lure,
            answers: BTreeMap::new(),
            plays: RoundPlays::default(),
            quiet_rounds: 0,
            // Room for a few rounds of lines: growing a log of this size
            // line by line costs more than the combat's arithmetic.
            log: Vec::with_capacity(256),
            finished: false,
            dropped: Vec::new(),
            dropped_in_sight: Vec::new(),
            to_groups: Vec::new(),
            to_leaders: Vec::new(),
            magic: None,
            in_cave: false,
            treacheries: Vec::new(),
            roll_mods: BTreeMap::new(),
            hide_mods: BTreeMap::new(),
            stays_because: BTreeMap::new(),
            held_kills: None,
        };
        // Active altering treasure cards set the chits' values from the start
        // (3.1 List of Treasures, group 6).
        for f in 0..battle.fighters.len() {
            super::spell_effects::revalue(&mut battle, f);
        }
        battle
    }

    /// The fighter named `name` (character name or counter id, any case).
    pub fn find(&self, name: &str) -> Option<FighterId> {
        let name = name.trim();
        self.fighters
            .iter()
            .position(|f| f.name.eq_ignore_ascii_case(name))
    }

    pub fn name(&self, id: FighterId) -> &str {
        &self.fighters[id].name
    }

    pub fn in_play(&self, id: FighterId) -> bool {
        self.fighters[id].out.is_none()
    }

    pub fn hero(&self, id: FighterId) -> Option<&Hero> {
        match &self.fighters.get(id)?.kind {
            FighterKind::Character(h) => Some(h),
            FighterKind::Denizen(_) => None,
        }
    }

    pub fn hero_mut(&mut self, id: FighterId) -> Option<&mut Hero> {
        match &mut self.fighters.get_mut(id)?.kind {
            FighterKind::Character(h) => Some(h),
            FighterKind::Denizen(_) => None,
        }
    }

    pub fn denizen(&self, id: FighterId) -> Option<&Denizen> {
        match &self.fighters.get(id)?.kind {
            FighterKind::Denizen(d) => Some(d),
            FighterKind::Character(_) => None,
        }
    }

    pub fn denizen_mut(&mut self, id: FighterId) -> Option<&mut Denizen> {
        match &mut self.fighters.get_mut(id)?.kind {
            FighterKind::Denizen(d) => Some(d),
            FighterKind::Character(_) => None,
        }
    }

    /// Characters still fighting, in turn order.
    pub fn characters_in_play(&self) -> Vec<FighterId> {
        self.order
            .iter()
            .copied()
            .filter(|&c| self.in_play(c))
            .collect()
    }

    /// The denizens on the sheet of `owner`, in counter order.
    pub fn attackers_of(&self, owner: FighterId) -> Vec<FighterId> {
        self.sheet
            .iter()
            .filter(|&(&d, &o)| o == owner && self.in_play(d))
            .map(|(&d, _)| d)
            .collect()
    }

    /// The target of a denizen defending on its own sheet: the first
    /// attacker there, whom it strikes back at.
    pub fn defenders_target(&self, owner: FighterId) -> Option<FighterId> {
        self.denizen(owner)?;
        self.attackers_of(owner).first().copied()
    }

    /// Who sees what `who` plays: everyone, unless he is hidden.
    pub fn seen_by(&self, who: FighterId) -> Seen {
        if self.fighters[who].hidden {
            Seen::Only { fighter: who }
        } else {
            Seen::Clearing
        }
    }

    /// Add a line to the log.
    pub fn say(&mut self, seen: Seen, line: CombatLine) {
        self.log.push(LogLine {
            round: self.round,
            seen,
            line,
        });
    }

    /// The purpose of a roll: `combat/<clearing>/round<n>/<what>`.
    pub fn purpose(&self, what: &str) -> String {
        // Built in one buffer of the right size: every roll names one.
        let mut purpose = String::with_capacity(20 + self.clearing.len() + what.len());
        purpose.push_str("combat/");
        purpose.push_str(&self.clearing);
        purpose.push_str("/round");
        push_number(&mut purpose, i16::try_from(self.round).unwrap_or(i16::MAX));
        purpose.push('/');
        purpose.push_str(what);
        purpose
    }

    /// Roll plain dice and log the roll with its meaning and the section of
    /// the rules (`rule`, e.g. "8.3.5") that calls for it.
    pub fn roll(
        &mut self,
        dice: &mut Dice,
        what: &str,
        rule: &'static str,
        count: DiceCount,
        meaning: impl Display,
    ) -> RollRecord {
        let record = dice.roll(&self.purpose(what), count);
        self.say(
            Seen::Clearing,
            CombatLine::Roll {
                record: record.clone(),
                meaning: meaning.to_string(),
                rule: Cow::Borrowed(rule),
            },
        );
        record
    }

    /// Roll on a table and log the roll as the table reads it.
    pub fn roll_table<T: DieTable>(
        &mut self,
        dice: &mut Dice,
        table: &T,
        what: &str,
        modifiers: &Modifiers,
    ) -> TableRoll<T::Outcome>
    where
        T::Outcome: Display,
    {
        let roll = roll_on(table, dice, &self.purpose(what), modifiers);
        self.say(
            Seen::Clearing,
            CombatLine::Roll {
                record: roll.record.clone(),
                meaning: roll.describe(),
                rule: Cow::Borrowed(table.rule()),
            },
        );
        roll
    }

    /// Give the answer to the decision the engine waits for (or to any
    /// character's decision of the current stage).
    ///
    /// # Errors
    /// The answer is for another stage, names nobody in this combat, or is
    /// not a legal play; the message says what would be.
    pub fn answer(&mut self, fighter: FighterId, answer: Answer) -> Result<(), CombatError> {
        if self.finished {
            return Err("the combat is over; no more plays are taken".into());
        }
        if answer.stage() != self.stage {
            return Err(format!(
                "the combat waits for {}, not {}",
                self.stage.word(),
                answer.stage().word()
            )
            .into());
        }
        let Some(hero) = self.hero(fighter) else {
            return Err("only characters answer combat decisions".into());
        };
        if hero.dead || !self.in_play(fighter) {
            return Err(format!("the {} is out of the combat", self.name(fighter)).into());
        }
        tactics::check_answer(self, fighter, &answer)?;
        self.answers.insert(fighter, answer);
        Ok(())
    }

    /// Run until a decision is needed or the combat is over.
    pub fn step(&mut self, dice: &mut Dice) -> Step {
        loop {
            if self.finished {
                return Step::Finished;
            }
            if self.round == 0 {
                // Hidden characters are not named to the others.
                let fighters = self
                    .fighters
                    .iter()
                    .filter(|f| !f.hidden)
                    .map(|f| f.name.clone())
                    .collect();
                self.round = 1;
                super::fly_chit::grant(self);
                self.say(Seen::Clearing, CombatLine::Begins { fighters });
                super::alerted::at_start(self, dice);
                self.say(Seen::Clearing, CombatLine::RoundBegins);
            }
            let deciders = self.deciders();
            for who in deciders {
                if self.answers.contains_key(&who) {
                    continue;
                }
                if self.tactics.contains_key(&who) {
                    let answer = tactics::standing_answer(self, who);
                    self.answers.insert(who, answer);
                } else {
                    return Step::Needs(self.decision(who));
                }
            }
            let answers = std::mem::take(&mut self.answers);
            match self.stage {
                Stage::Lure => {
                    encounter::lure_and_assign(self, dice, &answers);
                    self.stage = Stage::Deploy;
                }
                Stage::Deploy => {
                    encounter::deploy(self, dice, &answers);
                    self.stage = Stage::Action;
                }
                Stage::Action => {
                    encounter::actions(self, dice, &answers);
                    super::fly_chit::use_up(self);
                    self.stage = Stage::Melee;
                }
                Stage::Melee => {
                    melee::melee(self, dice, &answers);
                    super::fly_chit::use_up(self);
                    self.stage = Stage::Fatigue;
                }
                Stage::Fatigue => {
                    fatigue::fatigue(self, &answers);
                    self.end_round();
                }
            }
        }
    }

    /// His answer to the current decision as `tactics` give it for this
    /// round alone; their `run when wounded` is kept for the round.
    pub fn round_answer(&mut self, who: FighterId, tactics: Tactics) -> Answer {
        if let Some(n) = tactics.run_when_wounded {
            self.plays.run_when_wounded.insert(who, n);
        }
        if !tactics.fatigue.is_empty() {
            self.plays
                .colour_fatigue
                .insert(who, tactics.fatigue.clone());
        }
        if !tactics.energize.is_empty() {
            self.plays
                .colour_energize
                .insert(who, tactics.energize.clone());
        }
        self.tactics.insert(who, tactics);
        let answer = tactics::standing_answer(self, who);
        self.tactics.remove(&who);
        answer
    }

    /// Run to the end with standing orders for everyone who has none.
    pub fn run_with_defaults(&mut self, dice: &mut Dice) {
        while let Step::Needs(decision) = self.step(dice) {
            self.tactics.entry(decision.fighter).or_default();
        }
    }

    /// The decisions of the current stage that neither an answer nor
    /// standing orders cover yet: what a round prompt asks.
    pub fn unanswered(&self) -> Vec<Decision> {
        self.deciders()
            .into_iter()
            .filter(|w| !self.answers.contains_key(w) && !self.tactics.contains_key(w))
            .map(|w| self.decision(w))
            .collect()
    }

    /// Characters who decide in the current stage.
    fn deciders(&self) -> Vec<FighterId> {
        self.characters_in_play()
            .into_iter()
            .filter(|&c| match self.stage {
                Stage::Fatigue => fatigue::owes(self, c),
                Stage::Deploy => !tactics::free_hirelings(self, c).is_empty(),
                _ => true,
            })
            .collect()
    }

    fn decision(&self, who: FighterId) -> Decision {
        let player = self.hero(who).map(|h| h.player.clone()).unwrap_or_default();
        Decision {
            fighter: who,
            character: self.name(who).to_string(),
            player,
            round: self.round,
            stage: self.stage,
            clearing: self.clearing.clone(),
            options: Vec::new(),
            sheet: Vec::new(),
            controller: None,
        }
    }

    /// What `who` may choose from in the current decision, in words for
    /// the prompt.
    pub fn options(&self, who: FighterId) -> Vec<String> {
        tactics::options(self, who)
    }

    /// The end of a round (3.1 8.8.1-8.8.4): the combat ends at once when
    /// no character, hired native or controlled monster is left in it, and
    /// otherwise after two rounds in a row in which nothing happened, even
    /// with monsters and unhidden characters still there, or with nobody
    /// to fight at all (a lone character's clearing does its two rounds,
    /// 8.1.3a).
    fn end_round(&mut self) {
        super::phase_chit::end_of_round(self);
        super::spell_deaths::end_of_round(self);
        // A Broomstick cast this round gives its Fly chit from the next.
        super::fly_chit::grant(self);
        let red_up = self.fighters.iter().any(|f| {
            f.out.is_none() && matches!(&f.kind, FighterKind::Denizen(d) if d.red_side_up())
        });
        if self.plays.eventful || red_up {
            self.quiet_rounds = 0;
        } else {
            self.quiet_rounds += 1;
        }
        // Unassigned natives and monsters on hired natives' sheets step
        // off; those on characters' sheets stay (III.B.11).
        let keep: Vec<(FighterId, FighterId)> = self
            .sheet
            .iter()
            .filter(|&(&d, &o)| self.in_play(d) && self.in_play(o) && self.hero(o).is_some())
            .map(|(&d, &o)| (d, o))
            .collect();
        self.sheet = keep.into_iter().collect();
        self.plays = RoundPlays::default();
        self.stage = Stage::Lure;
        let hired_here = (0..self.fighters.len())
            .any(|i| self.in_play(i) && self.denizen(i).is_some_and(|d| d.employer.is_some()));
        let end = if self.characters_in_play().is_empty() && !hired_here {
            Some(CombatLine::NobodyLeft)
        } else if self.quiet_rounds >= 2 {
            Some(CombatLine::Ends {
                reason: "two rounds in a row in which nothing happened".to_string(),
            })
        } else if self.round >= MAX_ROUNDS {
            let reason = format!(
                "broken off after {MAX_ROUNDS} rounds (realmgm's limit; the rules set none)"
            );
            Some(CombatLine::Ends { reason })
        } else {
            None
        };
        if let Some(end) = end {
            self.finished = true;
            self.say(Seen::Clearing, end);
        } else {
            self.round += 1;
            self.say(Seen::Clearing, CombatLine::RoundBegins);
        }
    }
}
