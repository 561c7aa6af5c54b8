//! The treasure-within-treasure site tables (`tables/twt.rs`): Toadstool
//! Circle, Crypt of the Knight and Enchanted Meadow are searched on their
//! own table instead of Loot (play summary II.C.5 "SEARCH" covers looting in
//! general). Taking an item that is already gone gives nothing; that check,
//! and Crypt's Lost Keys / T-strength requirement, are the engine's.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{DieTable, six_row_index};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ToadstoolResult {
    TakeDevilSword,
    TakeTreasureCard,
    /// Move to any cave clearing; stays hidden if hidden, the turn goes on,
    /// followers stay behind.
    TeleportToCave,
    /// For the rest of the day: Peer any clearing and enchant any clearing
    /// as if there.
    PeerAndEnchantAnywhere,
    /// Roll on Power of the Pit with himself as target.
    PowerOfThePit,
    Curse,
}

impl fmt::Display for ToadstoolResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ToadstoolResult::TakeDevilSword => "take the Devil Sword (nothing if gone)",
            ToadstoolResult::TakeTreasureCard => "take the treasure card (nothing if gone)",
            ToadstoolResult::TeleportToCave => {
                "move to any cave clearing, still hidden if hidden; followers stay"
            }
            ToadstoolResult::PeerAndEnchantAnywhere => {
                "rest of the day: may peer into and enchant any clearing as if there"
            }
            ToadstoolResult::PowerOfThePit => "roll on Power of the Pit against the searcher",
            ToadstoolResult::Curse => "roll on the Curse table",
        })
    }
}

const TOADSTOOL: [ToadstoolResult; 6] = [
    ToadstoolResult::TakeDevilSword,
    ToadstoolResult::TakeTreasureCard,
    ToadstoolResult::TeleportToCave,
    ToadstoolResult::PeerAndEnchantAnywhere,
    ToadstoolResult::PowerOfThePit,
    ToadstoolResult::Curse,
];

/// The Toadstool Circle table.
#[derive(Clone, Copy, Debug, Default)]
pub struct ToadstoolCircle;

impl DieTable for ToadstoolCircle {
    type Outcome = ToadstoolResult;

    fn rule(&self) -> &'static str {
        "7.5.5"
    }
    fn name(&self) -> Cow<'static, str> {
        "Toadstool Circle".into()
    }
    fn outcome(&self, row: i8) -> ToadstoolResult {
        TOADSTOOL[six_row_index(row)]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CryptResult {
    TakeWarhorse,
    TakeTremendousArmour,
    TakeBaneSword,
    TakeTreasureCard,
    /// One recorded gold, even after the items are gone.
    OneGold,
    Curse,
}

impl fmt::Display for CryptResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CryptResult::TakeWarhorse => "take the warhorse (nothing if gone)",
            CryptResult::TakeTremendousArmour => "take the T suit of armour (nothing if gone)",
            CryptResult::TakeBaneSword => "take the Bane Sword (nothing if gone)",
            CryptResult::TakeTreasureCard => "take the treasure card (nothing if gone)",
            CryptResult::OneGold => "gain 1 recorded gold",
            CryptResult::Curse => "roll on the Curse table",
        })
    }
}

const CRYPT: [CryptResult; 6] = [
    CryptResult::TakeWarhorse,
    CryptResult::TakeTremendousArmour,
    CryptResult::TakeBaneSword,
    CryptResult::TakeTreasureCard,
    CryptResult::OneGold,
    CryptResult::Curse,
];

/// The Crypt of the Knight table.
#[derive(Clone, Copy, Debug, Default)]
pub struct CryptOfTheKnight;

impl DieTable for CryptOfTheKnight {
    type Outcome = CryptResult;

    fn rule(&self) -> &'static str {
        "7.5.5"
    }
    fn name(&self) -> Cow<'static, str> {
        "Crypt of the Knight".into()
    }
    fn outcome(&self, row: i8) -> CryptResult {
        CRYPT[six_row_index(row)]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeadowResult {
    TakePony,
    TakeTruesteelSword,
    /// Roll on the Wish table as caster and target.
    Wish,
    /// Every fatigued and wounded chit becomes active (ends Wither).
    HealAll,
    Curse,
    Nothing,
}

impl fmt::Display for MeadowResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MeadowResult::TakePony => "take the pony (nothing if gone)",
            MeadowResult::TakeTruesteelSword => "take the Truesteel Sword (nothing if gone)",
            MeadowResult::Wish => "roll on the Wish table for the searcher",
            MeadowResult::HealAll => "every fatigued and wounded chit is rested (breaks Wither)",
            MeadowResult::Curse => "roll on the Curse table",
            MeadowResult::Nothing => "nothing",
        })
    }
}

const MEADOW: [MeadowResult; 6] = [
    MeadowResult::TakePony,
    MeadowResult::TakeTruesteelSword,
    MeadowResult::Wish,
    MeadowResult::HealAll,
    MeadowResult::Curse,
    MeadowResult::Nothing,
];

/// The Enchanted Meadow table.
#[derive(Clone, Copy, Debug, Default)]
pub struct EnchantedMeadow;

impl DieTable for EnchantedMeadow {
    type Outcome = MeadowResult;

    fn rule(&self) -> &'static str {
        "7.5.5"
    }
    fn name(&self) -> Cow<'static, str> {
        "Enchanted Meadow".into()
    }
    fn outcome(&self, row: i8) -> MeadowResult {
        MEADOW[six_row_index(row)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_dice::rows;
    use super::*;

    #[test]
    fn toadstool_circle_rows() {
        use ToadstoolResult::*;
        assert_eq!(
            rows(&ToadstoolCircle),
            vec![
                TakeDevilSword,
                TakeTreasureCard,
                TeleportToCave,
                PeerAndEnchantAnywhere,
                PowerOfThePit,
                Curse
            ]
        );
    }

    #[test]
    fn crypt_rows() {
        use CryptResult::*;
        assert_eq!(
            rows(&CryptOfTheKnight),
            vec![
                TakeWarhorse,
                TakeTremendousArmour,
                TakeBaneSword,
                TakeTreasureCard,
                OneGold,
                Curse
            ]
        );
    }

    #[test]
    fn meadow_rows() {
        use MeadowResult::*;
        assert_eq!(
            rows(&EnchantedMeadow),
            vec![TakePony, TakeTruesteelSword, Wish, HealAll, Curse, Nothing]
        );
    }
}
