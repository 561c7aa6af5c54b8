//! How `data show` prints weapons, armour, treasures, spells and map chits:
//! each kind's text form comes from its data module's `describe`.

use super::data::Shown;
use crate::magic_realm::data::armor::Armor;
use crate::magic_realm::data::chits::AnyChit;
use crate::magic_realm::data::spells::Spell;
use crate::magic_realm::data::treasures::Treasure;
use crate::magic_realm::data::weapons::Weapon;

impl Shown for Weapon {
    fn name(&self) -> &str {
        &self.name
    }
    fn describe(&self) -> String {
        Weapon::describe(self)
    }
}

impl Shown for Armor {
    fn name(&self) -> &str {
        &self.name
    }
    fn describe(&self) -> String {
        Armor::describe(self)
    }
}

impl Shown for Treasure {
    fn name(&self) -> &str {
        &self.name
    }
    fn describe(&self) -> String {
        Treasure::describe(self)
    }
}

impl Shown for Spell {
    fn name(&self) -> &str {
        &self.name
    }
    fn describe(&self) -> String {
        format!(
            "{}\n  {}",
            Spell::describe(self),
            crate::magic_realm::magic::spells::status(&self.name)
        )
    }
}

impl Shown for AnyChit<'_> {
    fn name(&self) -> &str {
        AnyChit::name(self)
    }
    fn describe(&self) -> String {
        AnyChit::describe(self)
    }
}
