//! Every optional and house rule a Magic Realm campaign can switch on by
//! name, and the seasons a campaign can start in.
//!
//! The names are what campaign files write in `rules = [...]`. Each entry
//! says in one line what it changes and where it is written down: the
//! section of the third edition, release 3.1, that states it (section 10's
//! advanced and optional rules, "3.1 10.B.4"), then the published campaign
//! whose GM used it (BIMR3, BIMR5); a house rule 3.1 does not have says so.
//! A rule the engine or the daemon applies is `Built` and has an on/off test
//! (`day::toggle_tests` checks that); every other is `NotYetImplemented`, and
//! a campaign file that names it is refused with the reason
//! (`game::Rules::new`). A rule 3.1 made basic is `Basic`: always played,
//! its old name still accepted.

use realmgm_core::game::{
    RuleProfile, RuleToggle, RulesVersion, RulesVersions,
    ToggleStatus::{Basic, Built, NotYetImplemented},
};

/// Whether the Optional Missile Table (3.1 10.D.3.4) is on: a campaign may
/// still name it by its older name, `revised_missile_table`.
pub fn optional_missile_table(rules: &realmgm_core::game::Rules) -> bool {
    rules.is_on("optional_missile_table") || rules.is_on("revised_missile_table")
}

/// Whether Grudges and Gratitude (3.1 10.B.6) is in force: by its name, its
/// former spelling `grudges_and_gratitudes`, or brought in by Extended
/// Grudges (10.B.7), which extends it.
pub fn grudges_and_gratitude(rules: &realmgm_core::game::Rules) -> bool {
    [
        "grudges_and_gratitude",
        "grudges_and_gratitudes",
        "extended_grudges",
    ]
    .iter()
    .any(|name| rules.is_on(name))
}

/// Whether Ambushes (3.1 10.A.2) are in force: by name, or brought in by
/// the Magenta campaign's Semi-Restricted Ambush, which only adds to the
/// Ambush roll and means nothing without it.
pub fn ambush(rules: &realmgm_core::game::Rules) -> bool {
    rules.is_on("ambush") || rules.is_on("semi_restricted_ambush")
}

/// The versions of Magic Realm's rules realmgm has played. The engine plays
/// only the current one; a campaign begun under an earlier one keeps its
/// days and moves on when its GM edits `rules_version` (README "Rules
/// versions").
pub const RULES_VERSIONS: RulesVersions = RulesVersions {
    earlier: &[
        RulesVersion {
            number: 1,
            name: "the seed summaries (2nd-edition play summary, magic primer, optional combat)",
            changes: &[],
        },
        RulesVersion {
            number: 2,
            name: "the third edition, release 3.1: combat and magic",
            changes: THIRD_EDITION_COMBAT_AND_MAGIC,
        },
        RulesVersion {
            number: 3,
            name: "the third edition, release 3.1: combat and magic in full",
            changes: THIRD_EDITION_COMBAT_AND_MAGIC_IN_FULL,
        },
    ],
    current: RulesVersion {
        number: 4,
        name: "the third edition, release 3.1: the day, trade, Midnight and scoring",
        changes: THIRD_EDITION_DAY_TRADE_AND_SCORING,
    },
};

/// What version 4 changed, as a GM weighing the move reads it.
const THIRD_EDITION_DAY_TRADE_AND_SCORING: &[&str] = &[
    "a treasure or horse an extra phase recorded today relies on is not given or sold before \
     that phase is done (6.2.4d)",
    "under Dropping and Losing Belongings a character drops a belonging in plain sight or loses it \
     to the pile, and picks dropped ones up at a phase's start or end or after combat (10.A.5)",
    "Development is built: a starting level by mail (`Level: 2`), the level's kit, chits, \
     advantages, relationships and victory points, and chits and levels earned at Midnight as \
     victory points are gained, chosen by a `Develop:` line (10.E.5)",
    "Extended Development is built: `[carry_over.development]` in the campaign file, stages 1 \
     to 10 with their rewards, the next stage's victory points, and the next campaign's lines \
     printed at the game's end (10.E.6)",
    "every daylight, trade, Midnight and scoring line of the GM's history names the 3.1 section it \
     applied",
    "a Move carries what the strongest active MOVE chit, Boots card or horse can; pack horses are \
     basic (7.3.1e, 7.3.1i)",
    "a pony's Move follows an earlier Move of the rider's own and alternates with them (6.2.4c, \
     7.3.2b.3); no Sunlight phases on a day whose orders record a Move into a cave (6.2.2b)",
    "extra phases only from treasures and horses active at Birdsong, kept until that phase \
     (6.2.2c.1, 6.2.4d)",
    "landing re-rolls until the die names a clearing; taking off unhides and leaves the horses; a \
     cave landing after Sunlight ends the turn (7.3.3)",
    "Peer from a mountain into his own tile; Reading Runes without a chit, on the top card; Magic \
     Sight forced by one or three causes (7.5.4b, 7.5.6, 7.5.7)",
    "the end of a turn in 3.1 order: prowlers, chits up, Warnings, Sounds, sites; a chit already \
     face up that day summons nothing more; campfires by road to the Borderland (7.13.2-7.13.5)",
    "7th-day regeneration brings every ghost home and native horses back, breaks spells on the \
     regenerated, leaves controlled monsters (6.3.4)",
    "hired leaders' Alert, Rest and Enchant phases are struck (6.2.5); no deals while aloft or \
     blocked (7.2.1d); discoveries told only where they lie; spies learn hidden roads walked \
     (4.5.5, 4.5.6)",
    "a transmorphized character's belongings are frozen (4.6.9b.2); a Wish for Peace in Daylight \
     keeps combat out of its clearing (4.6.8b); sheltered phases only for a whole turn in caves \
     and the four buildings (10.D.1.2.3b)",
    "drinks cost a gold for every member present, hired or not; a Challenge cannot be paid under \
     Disgust; a Boon is taken free with `Boon: free` and bought back with `Buy: boon`; the \
     employer rehires his own natives (7.6.5, 7.7.1d)",
    "a sold item goes into the buyer's box by counter size; visitors buy no spells; Fame rewards \
     are earned and paid (7.6.4, 7.6.6); relationships moved for good are kept past Ally and \
     Enemy; a hired leader deals with his employer's relationships (7.6.5a)",
    "missions and campaigns are taken at the start of a phase and cost Notoriety and Fame, \
     refunded when done; a mission is delivered on entering; campaign partners are two levels \
     warmer (7.2.4)",
    "Midnight turns every face-up map chit down; activated potions return to their boxes; \
     `Suicide: yes` (8.9.5, 8.9.2a, 9.2.2a)",
    "a restart is optional, a new individual with a new `Victory:` line and the spells of a \
     `Spells:` line (else by the dice), his gear from the natives, a pile or its price (9.1.2)",
    "scoring counts what he can carry, a pack horse's load with it, Fame values but not rewards, \
     spells learned in play, gold less 10 and his starting equipment (9.3, 7.3.1i); without \
     victory_points a campaign asks 1 + a point a week, a player joining part way the basic point \
     and the weeks left (10.E.2.5); day 7 alternates White and Black without Seasons (10.E.2)",
    "under Ambushes a hidden caster naming one individual rolls to stay hidden, with his Hide \
     modifiers (10.A.2); watchful natives join light side up, galloping (10.B.4.2); rebels keep \
     battling the characters they fought (10.B.5.2)",
    "the Belt of Strength, Draught and Garb of Speed alter action chits in combat; Elven Grace sets \
     MOVE times only and yields to them; Make Whole and Power of the Pit at one instant settle chit \
     by chit (List of Treasures, 4.6.10f.2)",
    "the Dwarf's optional Short Legs come only with their own toggle (10.A.6)",
    "`semi_restricted_ambush` (the Magenta campaign's Ambushes): the Ambush roll adds 1 for each \
     hireling, horse, suit of armor and shield the ambusher has with him (10.A.2 as modified)",
    "hirelings with a character or hired leader hide when he hides and are unhidden when he is; \
     hidden, they stay out of the Evening's combat until they enter it and end it still hidden \
     (4.2, 7.4.5, 8.1.4b)",
    "a transmorphized character's Rest, Alert, Trade, Hire and Enchant phases are cancelled, and \
     his Search too while he is mist; he casts no spell, and what he loots he keeps inactive \
     (4.6.9b.4, 4.6.9c, 4.6.9e)",
    "`enhanced_magic`: a cast fatigues its MAGIC chit at once and ties up neither chit, spell nor \
     artifact, so the spell may be cast again while it lasts (10.C.1)",
    "`enhanced_artifacts`: artifacts and books cast recorded spells of their red numeral, record \
     spells, turn to colour magic and enchant tiles; their awakened cards are cast by MAGIC chits \
     (10.C.3); without it an E phase naming an artifact or book is lost instead of enchanting \
     another chit (7.10.6)",
    "Multiple Characters can be switched on: a player plays several characters, each further one \
     recording one victory point more, his orders in one mail under 'Orders for:' lines, scored \
     by his characters' average (10.E.4)",
    "a monster under Control Bats, Guide Spider or Octopus or the Dragonfang Necklace takes the \
     next day's turn its controller records (`Giant Bat 1: M CV1, H`), never Trade or Hire, and \
     blocks nobody by standing there; Control Bats holds every Bat it took (6.2.5, 7.13.3e)",
    "a character with a Fly chit flies away (`Combat: fly away`): aloft over his tile and one \
     next to it, in no clearing, until his next turn's first phase, a Fly phase, lands him in \
     either (8.3.8e)",
    "`solitaire` plays: one player, the map built from a pile, Valley chits face down until they \
     turn up, entry by a road from the map's edge, two Monster Rolls each Sunrise (10.E.1)",
    "hired leaders spy and are spied on outside their own turns: one standing where a discovery \
     is used or told learns it for his employer, and what one tells at Midnight is learnt by \
     those spying on him where he stands (4.5.6)",
    "hirelings' counters end combat dark side up when still hidden and light side up when not \
     (8.1.4b)",
    "Magic Sight's Counters, Treasure Cards and Spells results let the searcher see, for the rest \
     of the day, the hidden enemies who own such things, to spy on and block them (7.5.7c)",
    "a Peer is read as 3.1 writes it: `P`, or `P (CV5)` for an enhanced Peer into that clearing, \
     taking no table from the `Search:` line (7.5.4i)",
    "`enhanced_artifacts`: the Spell cards awakened in a character's artifacts and books count \
     toward his spells at the end when a MAGIC chit of his has their type (10.C.3.2); an \
     energized Enchant Artifact adds its spell's numeral, whose colour the item can take \
     (`E (enchant Good Book into purple)`) until Midnight (10.C.3.4.1-2)",
    "`Buy: boon` makes no roll when its cap or the gold carried is below the boon's price, \
     keeping the one try to buy the level back; a rolled price above the cap spends it, and the \
     report says so (7.6.5e.1)",
    "a starred phase recorded for a hired leader or a controlled monster is refused in mail and \
     struck in the day: 3.1 gives a leader extra phases only from his native horse, a monster \
     none (6.2.5)",
    "one aloft after flying away draws colour magic from both tiles below him (every colour an \
     enchanted one shows, the second named by his first Fly) and from his own Enchanted cards, \
     which supply nobody in the clearing he left; a runaway's cards leave that clearing too \
     (8.3.8e.2, 4.6.2b.2)",
    "a transmorphized character's frozen belongings and gold are what he had as the spell took \
     hold; what he takes on since as a creature is carried by its move strength and traded, \
     kept inactive, and mist takes on nothing (4.6.9b.4)",
    "in combat a hidden fighter is charged, picked as a melee target or named by a spell only by \
     one who found Hidden Enemies today or whom Magic Sight shows that one by what he owns then; \
     before, no hidden fighter could be a melee target and a spell named any (7.5.7c, 8.4.2b.5, \
     8.4.2d.6)",
    "Extended Development: a 10th-stage character's `extra_spell` in `[carry_over.development]` \
     records a spell of any type instead of a counter; a character killed and started over as a \
     new individual keeps his next-campaign line, a stage down (10.E.6.7.6, 10.E.6.3.5)",
    "an artifact or spell book casts only Spell cards of its red numeral's type (or of a type an \
     Enchant Artifact added to it); the Good Book no longer casts its type VII cards (4.6.6b, \
     8.3.9c.1)",
    "a runaway on a roadway draws colour magic from the enchanted tiles of the clearings at both \
     its ends and from the Enchanted cards carried on that roadway, no longer from the Chapel, a \
     Toadstool Circle or cards in the clearing he ran out of (4.6.2e.2, 4.6.2b.2)",
    "a hired leader or controlled monster held by Transform or Melt Into Mist has his recorded \
     Trade and Hire phases struck, and Search too as mist (4.6.9c)",
    "a hired leader's native horse gives him its extra Moves as a character's horse of its kind \
     does, none in a cave or while he is transmorphized (6.2.5, 7.3.2e.1-2)",
    "a hired leader or controlled monster Transform or Melt Into Mist takes keeps frozen what he \
     carried as it took hold, kept from his employer and from deals until Midnight; as a creature \
     he carries what he takes on since by its move strength, and as mist takes on nothing, not \
     even what his employer's deals or his own hired leader would hand him (4.6.9b.1-4)",
    "an individual in mist cannot be followed (his hirelings stay where they stand), cannot \
     block and cannot be blocked, by characters, hired leaders or arriving monsters (4.6.9c.2)",
];

/// What version 3 changed, as a GM weighing the move reads it.
const THIRD_EDITION_COMBAT_AND_MAGIC_IN_FULL: &[&str] = &[
    "characters striking a denizen in the same instant share its kill, parts of points kept; a \
     spell's several kills count from the most valuable; a controlled monster's kills bring its \
     employer gold and belongings (8.7)",
    "a hired native or controlled monster that is attacked defends on its own sheet, placed and \
     turned by its hirer (8.4.5n)",
    "three effort stars with an active Girtle of Energy, no limit with a Potion of Energy; fatigue \
     one star less than played (8.4.5f.2, 8.5.1c)",
    "a character alone at Evening plays his Combat: line's abandon and activate clauses, then his \
     cast (8.1.3a)",
    "colour chits fatigued or energizing a spell in the Encounter step; conflicting spells \
     nullified; Protection from Magic a Phase chit; a Broomstick's Fly chit to maneuver or charge \
     (8.3.9a, 4.6.10f, 4.6.7e-f)",
    "an item's spell outlives the one who played it (8.3.9c.5-6); a character or denizen killed \
     loses the spells on him at the end of that round (4.6.10h)",
    "a denizen's sheet rolls separately to reposition its target and the other attackers (8.4.6d.1)",
    "a runaway ends the day on the roadway and must Move off it first; a roadway can vanish under \
     him (8.3.8b, d)",
];

/// What version 2 changed, as a GM weighing the move reads it.
const THIRD_EDITION_COMBAT_AND_MAGIC: &[&str] = &[
    "every combat and magic line of the GM's history names the 3.1 section it applied",
    "clearings fight in the order their Attention chits are drawn; every such clearing fights two \
     rounds at least, and a combat ends after two rounds in which nothing happened (8.1, 8.8)",
    "battling is rolled once a day per group and never carries to another clearing (8.2)",
    "random assignment: every eligible character rolls two dice with his modifiers (8.3.5a)",
    "attack spells: the caster picks the direction, one Missile roll per target, the chit fatigues \
     with the attack, and no weapon blow beside a spell that came to life (8.4.5l, 4.6.7b)",
    "a spell at the wrong kind of target is cast and broken, and costs its chit (8.4.2d)",
    "harm comes from the printed harm letter; a side without one is Negligible (8.4.9e)",
    "native horses turn over each Melee step; a character's horse walks or gallops (8.4.1, 8.4.5k)",
    "red boxes are filled as far as the counters go (8.4.5m)",
    "destroyed armour goes back to its natives' box; treasure armour leaves for its gold (8.4.9k)",
    "wounds fall on free, then colour, then fatigued chits; death when every chit is wounded or \
     committed (4.2.5, 9.1.1b)",
    "kill bounties: a killed character's Notoriety unmultiplied, gold only to killers and hired \
     leaders (8.7)",
    "treachery rebels the whole hired group anywhere and costs Fame (8.4.2g)",
    "Combat spells last to Midnight; alerted MAGIC chits fatigue at Midnight (4.6.7g, 8.9.2)",
    "the Optional Missile Table is the corrected one of 10.D.3; Penetrating Armor costs one star",
];

/// Every rule toggle of Magic Realm.
/// The toggle that asks for combat plays by mail, round by round.
pub const ROUND_BY_ROUND_COMBAT: &str = "round_by_round_combat";

pub const TOGGLES: &[RuleToggle] = &[
    RuleToggle {
        name: "seasons_and_weather",
        summary: "A calendar of 13 seasons: each month's season sets the victory points and \
                  the 7th-day colour magic, each week's weather the days and phases",
        source: "3.1 10.D.1 (Seasons and Weather); the BIMR3 rules",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "watchful_natives",
        summary: "Unassigned unhired natives cannot be attacked by surprise: targeting one \
                  puts its whole watchful group on the attacker's sheet at once",
        source: "3.1 10.B.4 (Watchful Natives); the BIMR3 rules",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "extended_treachery",
        summary: "Sending a hired native against a member of his own group makes every \
                  hired native of that group rebel",
        source: "3.1 10.B.5 (Extended Treachery); the BIMR3 rules",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "knights_adjustment",
        summary: "The Black Knight starts only Friendly with the Company and the White \
                  Knight only Friendly with the Order, instead of Allied",
        source: "3.1 10.A.6.8 (Optional Abilities: the Knights); the BIMR3 rules (Knight's Adjustment)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "expanded_meeting_table_opportunities",
        summary: "On an Opportunity result of the Meeting table a player may take the \
                  result for a roll of 2 in the same column instead",
        source: "the BIMR3 rules (Expanded Meeting Table Opportunities; a house rule, not in 3.1)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "player_built_board",
        summary: "Players are dealt the map tiles and place them in turn, pick characters \
                  (and the native group that equips them) when out of tiles, then place \
                  the Visitor/Mission chits",
        source: "the BIMR3 rules (Board Building; Selecting Characters; a house rule, not in 3.1)",
        status: Built,
        excludes: &["solitaire"],
    },
    RuleToggle {
        name: "unlimited_communication",
        summary: "Characters may send each other private messages wherever they are on the map",
        source: "the BIMR3 rules (Unlimited Communication; a house rule, not in 3.1)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "round_by_round_combat",
        summary: "A character without a Combat: line is asked for his plays by mail \
                  round by round; the day waits for the answers or the round deadline",
        source: "realmgm play-by-mail procedure (not a printed rule; no seed)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "stumble",
        summary: "Running away or picking up a dropped belonging in combat needs a roll \
                  on the Stumble table",
        source: "3.1 10.D.3.1 (Optional Combat Rules: Move actions and the Stumble Table)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "riding_horses",
        summary: "A character with an active horse maneuvers with it and may add a \
                  maneuver of his own; attackers choose the rider or the horse",
        source: "3.1 10.D.3.2-10.D.3.3 (Optional Combat Rules: Riding Horses)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "fumble",
        summary: "A striking hit rolls on the Fumble table, which can raise or lower the harm",
        source: "3.1 10.D.3.4 (Optional Combat Rules: Attacks and the Fumble Table)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "optional_missile_table",
        summary: "A missile hit rolls on the corrected Optional Missile Table (rows -2 or \
                  less to 8 or more, with the attack-time modifiers) instead of the \
                  standard one",
        source: "3.1 10.D.3.4 and its Optional Missile Table (Hamblen's correction)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "revised_missile_table",
        summary: "The former name of optional_missile_table (the same corrected table), \
                  kept so campaigns that name it still load",
        source: "3.1 10.D.3.4 (the 2nd edition's revised missile table is the table 3.1 prints)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "penetrating_armor",
        summary: "A missile hit on a character passes through armor, losing one harm level \
                  per piece, and never damages it",
        source: "3.1 10.D.3.5 (Optional Combat Rules: Penetrating Armor)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "ambush",
        summary: "A hidden character who makes a missile attack rolls on the Hide table to \
                  stay hidden instead of being revealed",
        source: "3.1 10.A.2 (Ambushes)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "semi_restricted_ambush",
        summary: "Ambushes, and the Ambush roll adds 1 for each hired native or controlled \
                  monster with him and each horse, suit of armor or shield he has, active or \
                  not; naming it brings in ambush, which it modifies",
        source: "3.1 10.A.2 (Ambushes) as the Magenta campaign modified it (Book of Quests Q5 \
                 option Semi-Restricted Ambush, on that campaign's rules page)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "serious_wounds",
        summary: "Harm equal to an unarmored character's vulnerability gives him a die roll \
                  of wounds instead of killing him",
        source: "3.1 10.A.1 (Serious Wounds)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "caching",
        summary: "Characters may leave belongings and gold in a cache in a clearing that only \
                  they know, and take them back (activity C, the Cache: line)",
        source: "3.1 10.A.4 (Caching); the BIMR5 rules",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "pack_horses",
        summary: "A horse a character leads inactive carries belongings loaded on it, up to its \
                  trot strength (load X on HORSE, unload X); a basic rule in 3.1, always \
                  played, the name kept so older campaign files load",
        source: "3.1 7.3.1i (Pack Horses, a basic rule); formerly the BIMR5 rules and the \
                 2nd-edition advanced rules",
        status: Basic,
        excludes: &[],
    },
    RuleToggle {
        name: "flying_activities",
        summary: "A flying character may Alert, and Peer into any clearing but a cave of the \
                  tile he flies over or a tile next to it (a Search with `Search: peer \
                  <clearing>`), without landing",
        source: "3.1 10.A.3 (Flying Activities)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "enhanced_visitors",
        summary: "The BIMR5 campaign's house rule for the visitors; its text is not in the \
                  project's references",
        source: "the BIMR5 rules (Enhanced Visitors; a house rule, not in 3.1)",
        status: NotYetImplemented,
        excludes: &[],
    },
    RuleToggle {
        name: "quiet_monsters",
        summary: "Map chits in a hidden character's tile stay face down at the end of his turn",
        source: "3.1 10.B.1 (Quiet Monsters)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "grudges_and_gratitude",
        summary: "A native group's relationship to a character changes for good when he harms \
                  or helps it: killing an unhired Friendly native costs 2 levels, an Ally 4, \
                  treachery 5; selling a group the card naming it for a Fame reward wins a \
                  level, buying it loses one; levels past Ally and Enemy are kept",
        source: "3.1 10.B.6 (Grudges and Gratitude)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "grudges_and_gratitudes",
        summary: "The former name of grudges_and_gratitude (the same rule), kept so campaigns \
                  that name it still load",
        source: "3.1 10.B.6 (Grudges and Gratitude)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "extended_grudges",
        summary: "Grudges and Gratitude, and killing an unhired Neutral, Unfriendly or Enemy \
                  native costs a level with its group too; naming it brings in \
                  grudges_and_gratitude, which it extends",
        source: "3.1 10.B.7 (Extended Grudges and Gratitude)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "automatic_enchanting",
        summary: "At the start of each 7th day the day's colour magic turns over every tile whose \
                  enchanted side shows it and every tile holding a Dwelling or Enchanted card \
                  that supplies it",
        source: "3.1 10.C.5 (Automatic Enchanting)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "commerce",
        summary: "Selling to natives and visitors rolls on the Commerce table instead of \
                  fetching the basic price",
        source: "3.1 10.D.2 (Commerce)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "optional_abilities",
        summary: "Characters also get the abilities marked optional on their cards (the \
                  Captain's Leadership, the Wizard's Long Practice and others)",
        source: "3.1 10.A.6 (Optional Abilities)",
        status: Built,
        excludes: &["chosen_optional_abilities"],
    },
    RuleToggle {
        name: "chosen_optional_abilities",
        summary: "Each player chooses at setup which of his character's optional abilities \
                  he takes; the Elf always chooses his form (Light or Great)",
        source: "3.1 10.A.6.1 (players choose which characters are modified); the BIMR5 rules (optional abilities truly optional)",
        status: Built,
        excludes: &["optional_abilities"],
    },
    RuleToggle {
        name: "sudden_death",
        summary: "A character who scores zero or more in every category of his victory \
                  requirements may end the game at any Midnight (orders line `End game: yes`); \
                  the calendar's last day still ends it, so give a long game several months",
        source: "3.1 10.E.3 (Sudden Death Game)",
        status: Built,
        excludes: &["extended_development_without_requirements"],
    },
    RuleToggle {
        name: "sudden_death_at_start",
        summary: "Sudden Death with its recommended limit (naming it brings sudden_death in): a \
                  character ends the game only in the clearing of the dwelling where he started \
                  (the Inn after a restart or a late entry); one who started elsewhere than a \
                  dwelling may end it anywhere",
        source: "3.1 10.E.3.3 (Sudden Death Game, Recommended)",
        status: Built,
        excludes: &["extended_development_without_requirements"],
    },
    RuleToggle {
        name: "development",
        summary: "Each player names his character's starting level, 1 to 4, with his start \
                  (setup line `Level: 2`): that level's weapon, armour and spells and the chits \
                  of that level and the ones before it; Special Advantage no. 1 from 2nd level, \
                  both at 4th; his card's relationships only if he starts at 3rd or 4th; a \
                  victory point fewer per level below 4th (never under 2) and his gold counted \
                  from that level's starting worth. Each victory point he gains toward his \
                  requirements (as many as his level's number) brings a chit of his next level \
                  at Midnight, the one his `Develop:` line names first; the third makes him \
                  that level",
        source: "3.1 10.E.5 (Development)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "solitaire",
        summary: "One player alone (a campaign with a second player is refused): the map built \
                  from the Borderland out of a shuffled pile, top tile first, Woods and Valley \
                  tiles kept apart while they can be, a tile that cannot go to the bottom, a \
                  map begun again when the last cannot; Valley chits left face down, their \
                  dwellings, natives and ghosts coming when the chit turns up; the character \
                  entering by a road from the map's edge with his first Move, and again by it \
                  after a restart; two Monster Rolls each Sunrise, both rows prowling, or one \
                  on doubles",
        source: "3.1 10.E.1 (Solitaire Play)",
        status: Built,
        excludes: &["player_built_board"],
    },
    RuleToggle {
        name: "multiple_characters",
        summary: "A player plays several characters, named in the campaign file (a player's \
                  character, then more_characters) or chosen one a turn by setup by mail \
                  (more_characters = N): each has his own seat, turn, belongings and view, and \
                  records one victory point more than the player's character before him; the \
                  player's mail gives each one's starting info and orders under an 'Orders for: \
                  NAME' line and his report joins each one's report; in combat his characters \
                  in a clearing lure and act together in the turn of his who went first that \
                  day, and round by round one prompt asks him for each, answered under the same \
                  lines; a killed one is replaced in his seat; the player's score is his \
                  characters' total over the number he started with",
        source: "3.1 10.E.4 (Multiple Characters)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "extended_development",
        summary: "A character kept from campaign to campaign, developing stage by stage (naming \
                  it brings development in): the campaign file's `[carry_over.development]` \
                  gives each character's stage and extra chits (none: 1st stage), he records \
                  the next stage's victory points, and at the game's end the GM's history \
                  prints the lines for the next campaign file (a chit more for surviving, a \
                  stage more for the victor, a stage less for the dead). Stages run 1 to 10 with \
                  their rewards (15 gold, a Treasure card, 10 notoriety and 5 fame, a horse, a \
                  bonus phase a day, a weapon or armour counter; the natives' by the dice, or \
                  at 10th the spell of any type a character's `extra_spell` names instead of \
                  the counter); an 11th-stage immortal is refused. Its options are toggles of \
                  their own, each refused without it",
        source: "3.1 10.E.6 (Extended Development)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "extended_development_ends_at_victory",
        summary: "Under Extended Development the game ends at the Midnight a living character \
                  has met every category of his victory requirements, and he wins (several \
                  the same night all win); without it the game runs the calendar's length and \
                  the best score of 0 or more is the victor, 10.E.6.3's option (9.3)",
        source: "3.1 10.E.6.3",
        status: Built,
        excludes: &["extended_development_without_requirements"],
    },
    RuleToggle {
        name: "extended_development_double_points",
        summary: "A longer Extended Development game: each character records and must gain \
                  twice his next stage's victory points (a 1st-stage character 4); the GM's \
                  carry-over lines are unchanged",
        source: "3.1 10.E.6.2 (Extended Development, longer games)",
        status: Built,
        excludes: &["extended_development_triple_points"],
    },
    RuleToggle {
        name: "extended_development_triple_points",
        summary: "A longer Extended Development game: each character records and must gain \
                  three times his next stage's victory points (a 1st-stage character 6)",
        source: "3.1 10.E.6.2 (Extended Development, longer games)",
        status: Built,
        excludes: &["extended_development_double_points"],
    },
    RuleToggle {
        name: "extended_development_winner_one_chit",
        summary: "Under Extended Development the victor carries one extra chit into the next \
                  campaign beside his survivor's chit, instead of a whole stage",
        source: "3.1 10.E.6.3.4 (option)",
        status: Built,
        excludes: &["extended_development_winner_no_jump"],
    },
    RuleToggle {
        name: "extended_development_winner_no_jump",
        summary: "Under Extended Development the victor carries nothing extra for winning, \
                  only his survivor's chit",
        source: "3.1 10.E.6.3.4 (option)",
        status: Built,
        excludes: &["extended_development_winner_one_chit"],
    },
    RuleToggle {
        name: "extended_development_revival",
        summary: "Under Extended Development a killed character who starts over as himself is \
                  revived: the same individual three chits down (each death another stage, \
                  never below 1st), at the Inn with his stage's kit, chits and spells, \
                  recording his new next stage's victory points; he carries no survivor's \
                  chit. A start as another character is a new individual, as without it",
        source: "3.1 10.E.6.4",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "extended_development_without_requirements",
        summary: "Extended Development played without victory requirements: none is asked \
                  or taken at setup; victory points of any kind earn chits at Midnight, \
                  negative Fame and Notoriety (rounded down, not tripled) to be made up first; \
                  at the end the character alive who earned the most chits this game is the \
                  victor (none when nobody earned one), and the scores name none",
        source: "3.1 10.E.6.10 (option)",
        status: Built,
        excludes: &[
            "sudden_death",
            "sudden_death_at_start",
            "extended_development_ends_at_victory",
        ],
    },
    RuleToggle {
        name: "combined_realms",
        summary: "Two games of Magic Realm on one double board: the second game's pieces and \
                  places carry II after the name, before any copy number (`Giant Bat II 1`, \
                  `Inn II`, clearing AVII5), and orders name them so (`M AVII5`, \
                  `Buy: Amulet II`, `Hire: Rogues II`). Treasures, map chits and weapons are \
                  mixed across the two setup cards; monsters, natives and visitors keep to \
                  their own game, each game's natives a group of their own. One Monster Roll \
                  serves both cards",
        source: "3.1 10.E.7 (Combining Realms)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "alerted_monsters",
        summary: "When a combat starts with a character or his hired or controlled denizens \
                  in sight, the unhired denizens there (and their heads and clubs) start dark \
                  side up; Tremendous monsters stay red side down",
        source: "3.1 10.B.2 (Alerted Monsters)",
        status: Built,
        excludes: &["alerted_monsters_variant"],
    },
    RuleToggle {
        name: "benevolent_spells",
        summary: "Day spells, Combat spells and Peace with Nature cast on one's own hired \
                  natives are no treachery, and cast on unhired natives do not make them \
                  battle the caster",
        source: "3.1 10.C.2 (Benevolent Spells)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "dragon_heads",
        summary: "The heads of Tremendous Dragons breathe fire: a missile attack (length 15, \
                  13 for the Flying Dragon's) whose hit rolls on the Missile table",
        source: "3.1 10.B.3 (Dragon Heads)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "advanced_power_of_the_pit",
        summary: "Power of the Pit hits like an attack spell: a character's is resolved in the \
                  Melee step and works only if it hits; a Demon's comes to life at its attack \
                  time, cancelling its target's slower spell, and a faster spell at the Demon \
                  cancels it",
        source: "3.1 10.C.4 (Power of the Pit)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "dwarf_short_legs_optional",
        summary: "The Dwarf's Short Legs give him Sunlight phases but at most two moves a day \
                  (each rest still counts twice); Optional Abilities alone does not bring it",
        source: "a house rule, not in 3.1 (10.A.6 lists no optional ability for the Dwarf); \
                 the project's data carried it as the Dwarf's optional ability",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "enhanced_magic",
        summary: "Casting ties up neither the spell nor the MAGIC chit: the chit fatigues in \
                  the round it is played and the spell may be cast again while the earlier \
                  casting lasts; an artifact or book is not tied up either but still casts \
                  once an Evening",
        source: "3.1 10.C.1 (Enhanced Magic)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "enhanced_artifacts",
        summary: "Artifacts and Spell Books act as MAGIC chits of their red numeral's type with \
                  time 0, once an Evening: they cast recorded spells, let their owner record \
                  spells of that type (counted for victory only if he has the item at the end), \
                  are enchanted into colour (`E (enchant Good Book)`) and enchant the tile \
                  (`E (enchant tile with Sacred Statue)`); the Spell cards awakened in them are \
                  cast by MAGIC chits and count for victory at the end when a MAGIC chit of the \
                  owner has their type; one enchanted into colour casts, reads, sells and is \
                  given nothing until its colour is spent or expended (`Phase 1: fatigue Good \
                  Book`); an energized Enchant Artifact adds a numeral of its spell's type, \
                  whose colour the item may take instead (`E (enchant Good Book into purple)`), \
                  expended at Midnight if unused",
        source: "3.1 10.C.3 (Enhanced Artifacts and Spell Books)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "dropping_belongings",
        summary: "A belonging given up of one's own will is dropped in plain sight ('drop') or \
                  lost to the clearing's pile ('abandon', 'lose'), found only by looting; \
                  dropped belongings lie in front of the one who dropped them until he leaves \
                  the clearing, and are picked up at the start of a phase (those in front of \
                  him), at its end ('After phase N: pick up ...', unhiding him and open to \
                  blocking) or at Midnight after a combat in the clearing; in combat 'drop \
                  ITEM' drops it too, and 'pick up ITEM [with CHIT]' takes one up as a \
                  character's Encounter action: one in front of him with no chit, staying \
                  hidden, any other with a MOVE chit that undercuts his attackers and lifts \
                  it, unhiding him (10.A.5.5)",
        source: "3.1 10.A.5 (Dropping and Losing Belongings)",
        status: Built,
        excludes: &[],
    },
    RuleToggle {
        name: "alerted_monsters_variant",
        summary: "As a combat starts, two dice for each unhired Medium or Heavy monster, head \
                  and club, whoever is hidden: a 6 on either die starts it dark side up",
        source: "3.1 10.B.2 (Alerted Monsters: the Variant)",
        status: Built,
        excludes: &["alerted_monsters"],
    },
];

/// The toggle under which casting ties up neither spell nor MAGIC chit.
pub const ENHANCED_MAGIC: &str = "enhanced_magic";

/// The toggle under which artifacts and spell books act as MAGIC chits.
pub const ENHANCED_ARTIFACTS: &str = "enhanced_artifacts";

/// The toggle that switches the season calendar on.
pub const SEASONS_TOGGLE: &str = "seasons_and_weather";

/// The toggle under which a player may play several characters (3.1 10.E.4).
pub const MULTIPLE_CHARACTERS: &str = "multiple_characters";

/// The toggle that combines two Realms on one double board (3.1 10.E.7).
pub const COMBINED_REALMS: &str = "combined_realms";

/// The seasons of the year in calendar order (`data/seasons.toml`); a campaign
/// with `seasons_and_weather` names the one it starts in.
pub const SEASONS: &[&str] = &[
    "Christmas",
    "Ice",
    "Snow",
    "Easter",
    "Freshet",
    "Spring",
    "Midsummer",
    "High Summer",
    "Swelter",
    "Harvest",
    "Autumn",
    "Halloween",
    "Desolate",
];

/// The published rule sets a campaign file can name by one word
/// (`rules_profile = "bimr3"`). Each is the list its source gives; a file
/// adds to it with `rules` and takes from it with `rules_off`.
pub const PROFILES: &[RuleProfile] = &[
    RuleProfile {
        name: "bimr3",
        summary: "the BIMR3 campaign: Seasons and Weather, Watchful Natives, Extended Treachery, \
                  Knight's Adjustment, a board built by the players, unlimited communication and \
                  the expanded Meeting table opportunities",
        source: "the BIMR3 rules page (seed 003)",
        on: BIMR3,
    },
    RuleProfile {
        name: "bimr4",
        summary: "BIMR3's rules with the optional combat rules: Stumble, Riding Horses, Fumble, \
                  the Optional Missile Table and Penetrating Armor",
        source: "the BIMR4 rules page (thewinternet.com/BIMR4/rules.html), which adds the \
                 optional combat section it reproduces in full (3.1 10.D.3)",
        on: BIMR4,
    },
    RuleProfile {
        name: "bimr5",
        summary: "Seasons and Weather, Caching, Pack Horses, Ambushes, Serious Wounds, optional \
                  abilities chosen by each player (the Elf's and Knight's Adjustment always), a \
                  board built by the players, unlimited communication, the expanded Meeting \
                  table opportunities",
        source: "the BIMR5 rules page (thewinternet.com/BIMR5/rules.html); its Enhanced Visitors \
                 is not in the set because no source gives its text",
        on: BIMR5,
    },
    RuleProfile {
        name: "3.1-basic",
        summary: "the third edition's basic rules and nothing else",
        source: "3.1 sections 1 to 9",
        on: &[],
    },
    RuleProfile {
        name: "3.1-all-optional",
        summary: "every advanced and optional rule of 3.1 sections 10.A to 10.D; the rules that \
                  change the game's shape (10.E) are named one by one",
        source: "3.1 section 10",
        on: ALL_OPTIONAL,
    },
];

const BIMR3: &[&str] = &[
    "seasons_and_weather",
    "watchful_natives",
    "extended_treachery",
    "knights_adjustment",
    "expanded_meeting_table_opportunities",
    "player_built_board",
    "unlimited_communication",
];

const BIMR4: &[&str] = &[
    "seasons_and_weather",
    "watchful_natives",
    "extended_treachery",
    "knights_adjustment",
    "expanded_meeting_table_opportunities",
    "player_built_board",
    "unlimited_communication",
    "stumble",
    "riding_horses",
    "fumble",
    "optional_missile_table",
    "penetrating_armor",
];

const BIMR5: &[&str] = &[
    "seasons_and_weather",
    "knights_adjustment",
    "chosen_optional_abilities",
    "expanded_meeting_table_opportunities",
    "player_built_board",
    "unlimited_communication",
    "caching",
    "pack_horses",
    "ambush",
    "serious_wounds",
];

const ALL_OPTIONAL: &[&str] = &[
    "serious_wounds",
    "ambush",
    "flying_activities",
    "caching",
    "dropping_belongings",
    "optional_abilities",
    "knights_adjustment",
    "quiet_monsters",
    "alerted_monsters",
    "dragon_heads",
    "watchful_natives",
    "extended_treachery",
    "grudges_and_gratitude",
    "extended_grudges",
    "benevolent_spells",
    "enhanced_magic",
    "enhanced_artifacts",
    "advanced_power_of_the_pit",
    "automatic_enchanting",
    "seasons_and_weather",
    "commerce",
    "stumble",
    "riding_horses",
    "fumble",
    "optional_missile_table",
    "penetrating_armor",
];

#[cfg(test)]
mod tests {
    use super::*;
    use realmgm_core::game::Rules;

    #[test]
    fn toggle_names_are_unique_snake_case_and_exclusions_are_mutual() {
        let mut names: Vec<&str> = TOGGLES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TOGGLES.len(), "duplicate toggle name");
        for toggle in TOGGLES {
            assert!(
                toggle
                    .name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_'),
                "{} is not snake case",
                toggle.name
            );
            assert!(
                !toggle.summary.is_empty() && !toggle.source.is_empty(),
                "{}",
                toggle.name
            );
            for other in toggle.excludes {
                let other = TOGGLES
                    .iter()
                    .find(|t| t.name == *other)
                    .unwrap_or_else(|| panic!("{} excludes unknown toggle {other}", toggle.name));
                assert!(
                    other.excludes.contains(&toggle.name),
                    "{} vs {}",
                    toggle.name,
                    other.name
                );
            }
        }
    }

    /// An optional ability outside 3.1 10.A.6 names a toggle that exists.
    #[test]
    fn every_ability_toggle_is_a_rule_toggle() {
        let data = crate::test_support::data();
        for card in &data.characters {
            for ability in &card.abilities {
                if let Some(toggle) = &ability.toggle {
                    assert!(
                        TOGGLES.iter().any(|t| t.name == toggle),
                        "{}: {toggle}",
                        ability.name
                    );
                }
            }
        }
    }

    /// 3.1 10.D.3 prints one Optional Missile Table: the old toggle name
    /// still loads, alone or beside the new one.
    #[test]
    fn revised_missile_table_still_loads_as_the_optional_missile_table() {
        assert!(Rules::new(["revised_missile_table", "fumble", "stumble"], TOGGLES).is_ok());
        assert!(Rules::new(["optional_missile_table", "revised_missile_table"], TOGGLES).is_ok());
    }

    /// A profile is only worth naming if a campaign can start with it: every
    /// toggle it lists is known, built and compatible with the rest.
    #[test]
    fn every_profile_is_a_rule_set_a_campaign_can_start_with() {
        for profile in PROFILES {
            let mut names = profile.on.to_vec();
            names.sort_unstable();
            names.dedup();
            assert_eq!(
                names.len(),
                profile.on.len(),
                "{} lists a toggle twice",
                profile.name
            );
            if let Err(refused) = Rules::new(profile.on.iter().copied(), TOGGLES) {
                panic!("profile {}: {refused}", profile.name);
            }
        }
    }
}
