//! Reading a GM's ruling, one line as the GM writes it on the
//! command line or in a mail, checked against the state the ruling will
//! change, so a misspelt name is refused with the nearest ones before
//! anything is stored:
//!
//! ```text
//! give Gold Helmet to Amazon        take Gold Helmet from Amazon
//! gold Amazon +10                   fame Amazon -2        notoriety Elf +5
//! move Amazon to CV4                move Giant 1 to CV4
//! chit Amazon MOVE M4* wounded      heal Amazon        kill Amazon
//! discover Hoard for Amazon         discover CV2-CV5 for Amazon
//! replace Amazon with Wizard
//! ```
//!
//! Items are named as the state names them (`Spear 2` when there are
//! several); chits as in `Combat:` lines (`M4*`, `Fight L3*`).

use crate::board::ClearingId;
use crate::data::GameData;
use crate::data::realms::{Realm, printed};
use crate::orders::parse::parse_chit;
use crate::state::ruling::{Discovery, Record, Ruling};
use crate::state::{ChitCondition, Item, MrState};
use realmgm_core::suggest;

/// Why a ruling cannot be read or carried out on this state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulingError {
    /// The line is none of the rulings; `expected` shows the forms.
    #[error("cannot read the ruling '{text}': expected {expected}")]
    Unreadable { text: String, expected: String },
    /// A name the state does not hold; `hint` is the nearest names, worded.
    #[error("no {kind} '{name}' in the game{hint}")]
    Unknown {
        kind: &'static str,
        name: String,
        hint: String,
    },
    /// The names are right but the ruling makes no sense on this state.
    #[error("{0}")]
    Impossible(String),
}

/// The forms of every ruling, for the GM's help and error messages.
pub const RULING_FORMS: &str = "give ITEM to CHARACTER; take ITEM from CHARACTER; \
gold|fame|notoriety CHARACTER +N|-N; move CHARACTER|DENIZEN to CLEARING; \
chit CHARACTER CHIT active|fatigued|wounded; heal CHARACTER; kill CHARACTER; \
discover SITE|CLEARING-CLEARING for CHARACTER; replace CHARACTER with CHARACTER; \
starting CHARACTER victory GT 1, SP 0, F 2, N 1, G 1 [spells SPELL; SPELL]";

/// Read one ruling against `state`.
///
/// # Errors
/// The line is no ruling, or names what the state does not hold.
pub fn parse_ruling(text: &str, data: &GameData, state: &MrState) -> Result<Ruling, RulingError> {
    let text = text.trim();
    let unreadable = |expected: &str| RulingError::Unreadable {
        text: text.to_string(),
        expected: expected.to_string(),
    };
    let (verb, rest) = text
        .split_once(char::is_whitespace)
        .map_or((text, ""), |(v, r)| (v, r.trim()));
    let names = Names { data, state };
    match verb.to_lowercase().as_str() {
        "give" => {
            let (item, who) =
                split_keyword(rest, "to").ok_or_else(|| unreadable("give ITEM to CHARACTER"))?;
            let to = names.character(who)?;
            let item = names.item_anywhere(item)?;
            Ok(Ruling::Give { item, to })
        }
        "take" => {
            let (item, who) = split_keyword(rest, "from")
                .ok_or_else(|| unreadable("take ITEM from CHARACTER"))?;
            let from = names.character(who)?;
            let item = names.item_of(item, &from)?;
            Ok(Ruling::Take { item, from })
        }
        "gold" | "fame" | "notoriety" => {
            let record = match verb.to_lowercase().as_str() {
                "gold" => Record::Gold,
                "fame" => Record::Fame,
                _ => Record::Notoriety,
            };
            let form = format!("{} CHARACTER +N or -N", record.name());
            let (who, number) = rest
                .rsplit_once(char::is_whitespace)
                .ok_or_else(|| unreadable(&form))?;
            let change = signed(number).ok_or_else(|| unreadable(&form))?;
            Ok(Ruling::Change {
                character: names.character(who)?,
                record,
                change,
            })
        }
        "move" => {
            let (who, place) = split_keyword(rest, "to")
                .ok_or_else(|| unreadable("move CHARACTER|DENIZEN to CLEARING"))?;
            let to = names.clearing(place)?;
            if let Ok(character) = names.character(who) {
                return Ok(Ruling::MoveCharacter { character, to });
            }
            Ok(Ruling::MoveDenizen {
                denizen: names.denizen(who)?,
                to,
            })
        }
        "chit" => {
            let form = "chit CHARACTER CHIT active|fatigued|wounded";
            let (front, state_word) = rest
                .rsplit_once(char::is_whitespace)
                .ok_or_else(|| unreadable(form))?;
            let condition = match state_word.to_lowercase().as_str() {
                "active" | "fresh" => ChitCondition::Active,
                "fatigued" => ChitCondition::Fatigued,
                "wounded" => ChitCondition::Wounded,
                _ => return Err(unreadable(form)),
            };
            let (character, chit_text) = names
                .leading_character(front)
                .ok_or_else(|| unreadable(form))?;
            let chit = names.chit_of(&character, chit_text)?;
            Ok(Ruling::Chit {
                character,
                chit,
                condition,
            })
        }
        "heal" => Ok(Ruling::Heal {
            character: names.character(rest)?,
        }),
        "kill" => Ok(Ruling::Kill {
            character: names.character(rest)?,
        }),
        "discover" => {
            let (what, who) = split_keyword(rest, "for")
                .ok_or_else(|| unreadable("discover SITE|CLEARING-CLEARING for CHARACTER"))?;
            let character = names.character(who)?;
            let discovery = match what.split_once('-') {
                Some((a, b)) => {
                    let (a, b) = (names.clearing(a)?, names.clearing(b)?);
                    names.hidden_route(&a, &b)?;
                    Discovery::Route(a.clone().min(b.clone()), a.max(b))
                }
                None => Discovery::Site(names.site(what)?),
            };
            Ok(Ruling::Discover {
                character,
                discovery,
            })
        }
        "replace" => {
            let (old, new) = split_keyword(rest, "with")
                .ok_or_else(|| unreadable("replace CHARACTER with CHARACTER"))?;
            let character = names.character(old)?;
            let with = names.unplayed_character(new)?;
            Ok(Ruling::Replace { character, with })
        }
        "starting" => {
            let form = "starting CHARACTER victory GT 1, SP 0, F 2, N 1, G 1 [spells SPELL; SPELL]";
            let (front, spells) = match split_keyword(rest, "spells") {
                Some((front, spells)) => (front, Some(spells.to_string())),
                None => (rest, None),
            };
            let (who, victory) = split_keyword(front, "victory").ok_or_else(|| unreadable(form))?;
            let character = names.arriving_character(who)?;
            let victory =
                crate::setup::by_mail::read_victory(victory, state.joiner_victory_points())
                    .map_err(|e| RulingError::Impossible(e.to_string()))?;
            let spells = names.starting_spells(&character, spells.as_ref())?;
            Ok(Ruling::StartingInfo {
                character,
                victory,
                spells,
            })
        }
        _ => Err(unreadable(RULING_FORMS)),
    }
}

/// `left KEYWORD right` → (left, right), at the last `KEYWORD` standing as
/// a word, both sides non-empty.
fn split_keyword<'a>(text: &'a str, keyword: &str) -> Option<(&'a str, &'a str)> {
    let lower = text.to_lowercase();
    let needle = format!(" {keyword} ");
    // Lower-casing keeps byte offsets for the ASCII keyword's matches only
    // when the text is ASCII; names of the game are.
    if lower.len() != text.len() {
        return None;
    }
    let at = lower.rfind(&needle)?;
    let (left, right) = (text[..at].trim(), text[at + needle.len()..].trim());
    (!left.is_empty() && !right.is_empty()).then_some((left, right))
}

/// `+3`, `-2` or `3`.
fn signed(text: &str) -> Option<i32> {
    text.strip_prefix('+').unwrap_or(text).parse().ok()
}

/// The names a ruling may use, looked up in the data and the state.
struct Names<'a> {
    data: &'a GameData,
    state: &'a MrState,
}

impl Names<'_> {
    fn character(&self, text: &str) -> Result<String, RulingError> {
        let names = self.state.characters.iter().map(|c| c.name.as_str());
        suggest::find(text, names.clone())
            .map(str::to_string)
            .ok_or_else(|| RulingError::Unknown {
                kind: "character",
                name: text.to_string(),
                hint: suggest::did_you_mean(text, names),
            })
    }

    /// A character of the game data that nobody plays; with two Realms
    /// combined, the second game's is named with its mark (`Dwarf II`),
    /// one of each character either way (3.1 10.E.7.4.2).
    fn unplayed_character(&self, text: &str) -> Result<String, RulingError> {
        let realm = Realm::of_name(text);
        let names = self.data.characters.iter().map(|c| c.name.as_str());
        let name =
            suggest::find(&printed(text), names.clone()).ok_or_else(|| RulingError::Unknown {
                kind: "character",
                name: text.to_string(),
                hint: suggest::did_you_mean(text, names),
            })?;
        if !realm.is_first() && !self.state.combines_realms() {
            return Err(RulingError::Impossible(format!(
                "'{text}' names the second game's {name}, and this game plays one Realm; name \
                 the {name}"
            )));
        }
        if self.state.characters_in_play().any(|c| c == name) {
            return Err(RulingError::Impossible(format!(
                "the {name} is already in play"
            )));
        }
        Ok(realm.mark(name))
    }

    /// A character about to enter the Realm (a late joiner's); one in it
    /// already recorded his starting info as he entered.
    fn arriving_character(&self, text: &str) -> Result<String, RulingError> {
        if let Ok(in_play) = self.character(text) {
            return Err(RulingError::Impossible(format!(
                "the {in_play} is in the Realm already; starting info is recorded before a \
                 character enters"
            )));
        }
        let names = self.state.arrivals.iter().map(|a| a.character.as_str());
        suggest::find(text, names.clone())
            .map(str::to_string)
            .ok_or_else(|| RulingError::Unknown {
                kind: "character about to enter",
                name: text.to_string(),
                hint: suggest::did_you_mean(text, names),
            })
    }

    /// The spells `character` records as he enters, checked as at setup:
    /// learnable, of his types, as many as his card records.
    fn starting_spells(
        &self,
        character: &str,
        text: Option<&String>,
    ) -> Result<Vec<String>, RulingError> {
        let Some(card) = self.data.characters.iter().find(|c| c.name == character) else {
            return Err(RulingError::Impossible(format!(
                "the {character} is not in the game data"
            )));
        };
        crate::setup::by_mail::read_spells(card, text, self.data)
            .map_err(|refused| RulingError::Impossible(refused.to_string()))
    }

    /// The character whose name begins `text`, and the rest of the text.
    fn leading_character<'t>(&self, text: &'t str) -> Option<(String, &'t str)> {
        let mut names: Vec<&str> = self
            .state
            .characters
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        names.into_iter().find_map(|name| {
            let head = text.get(..name.len())?;
            let rest = text.get(name.len()..)?;
            (head.eq_ignore_ascii_case(name) && rest.starts_with(' '))
                .then(|| (name.to_string(), rest.trim()))
        })
    }

    fn denizen(&self, text: &str) -> Result<String, RulingError> {
        let names = self.state.denizens.keys().map(String::as_str);
        suggest::find(text, names.clone())
            .map(str::to_string)
            .ok_or_else(|| RulingError::Unknown {
                kind: "character, monster or native",
                name: text.to_string(),
                hint: suggest::did_you_mean(text, names),
            })
    }

    /// A hidden path or secret passage joins `a` and `b`: only those are
    /// discovered.
    fn hidden_route(&self, a: &ClearingId, b: &ClearingId) -> Result<(), RulingError> {
        let hidden = self.state.board.neighbours(a).into_iter().any(|l| {
            &l.to == b
                && matches!(
                    l.kind,
                    crate::data::tiles::PathKind::Hidden | crate::data::tiles::PathKind::Secret
                )
        });
        if hidden {
            Ok(())
        } else {
            Err(RulingError::Impossible(format!(
                "no hidden path or secret passage joins {a} and {b}; only those are discovered"
            )))
        }
    }

    fn clearing(&self, text: &str) -> Result<ClearingId, RulingError> {
        let text = text.trim();
        let digits = text.chars().rev().take_while(char::is_ascii_digit).count();
        let (tile_text, number) = text.split_at(text.len() - digits);
        let tile =
            self.data
                .tiles
                .resolve(tile_text.trim())
                .ok_or_else(|| RulingError::Unknown {
                    kind: "tile",
                    name: tile_text.trim().to_string(),
                    hint: suggest::did_you_mean(
                        tile_text.trim(),
                        self.data.tiles.all().iter().flat_map(|t| t.names()),
                    ),
                })?;
        let id = ClearingId::new(&tile.code, number.parse().unwrap_or(0));
        if self.state.board.clearing(&id).is_none() {
            return Err(RulingError::Impossible(format!(
                "there is no clearing {id} on the map (a clearing is a tile and its number, \
                 for example CV4)"
            )));
        }
        Ok(id)
    }

    fn site(&self, text: &str) -> Result<String, RulingError> {
        let sites: Vec<&str> = self
            .data
            .chits
            .site
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        suggest::find(text, sites.iter().copied())
            .map(str::to_string)
            .ok_or_else(|| RulingError::Unknown {
                kind: "site",
                name: text.to_string(),
                hint: suggest::did_you_mean(text, sites.iter().copied()),
            })
    }

    /// An item wherever it is: carried, in a pile or a holder, or in the
    /// GM's box.
    fn item_anywhere(&self, text: &str) -> Result<Item, RulingError> {
        let items: Vec<&Item> = self
            .state
            .characters
            .iter()
            .flat_map(|c| c.belongings.iter().map(|b| &b.item))
            .chain(self.state.holdings.values().flatten())
            .collect();
        find_item(text, &items, "item")
    }

    fn item_of(&self, text: &str, character: &str) -> Result<Item, RulingError> {
        let items: Vec<&Item> = self
            .state
            .characters
            .iter()
            .filter(|c| c.name == character)
            .flat_map(|c| c.belongings.iter().map(|b| &b.item))
            .collect();
        find_item(text, &items, "item carried by that character")
    }

    fn chit_of(&self, character: &str, text: &str) -> Result<String, RulingError> {
        let wanted = parse_chit(text).map_err(|e| RulingError::Impossible(e.to_string()))?;
        let chits: Vec<&str> = self
            .state
            .characters
            .iter()
            .filter(|c| c.name == character)
            .flat_map(|c| c.chits.iter().map(|k| k.chit.as_str()))
            .collect();
        chits
            .iter()
            .find(|c| **c == wanted || c.ends_with(&format!(" {wanted}")))
            .map(|c| (*c).to_string())
            .ok_or_else(|| {
                RulingError::Impossible(format!(
                    "the {character} has no chit {wanted}; the chits are {}",
                    chits.join(", ")
                ))
            })
    }
}

fn find_item(text: &str, items: &[&Item], kind: &'static str) -> Result<Item, RulingError> {
    let names = items.iter().map(|i| i.name.as_str());
    let name = suggest::find(text, names.clone()).ok_or_else(|| RulingError::Unknown {
        kind,
        name: text.to_string(),
        hint: suggest::did_you_mean(text, names),
    })?;
    Ok(items
        .iter()
        .find(|i| i.name == name)
        .map(|i| (*i).clone())
        .unwrap_or_else(|| unreachable!("{name} was found among these items")))
}
