//! See/Change Weather (the Eye of the Moon's spell; `spells.toml`;
//! `tables/weather.rs` step 5): with the Seasons and Weather rule the caster
//! looks at the secret weather chit, or replaces it with a new random one.
//!
//! Rulings: the `Combat:` line chooses — `cast See/Change Weather` or
//! `... on see` looks, `... on change` replaces (a player cannot decide
//! by mail after looking). Like every combat line, the result is seen by
//! those in the clearing: a look names the chit, a change does not (the
//! GM's history shows the new chit).

use crate::tables::weather::draw_chit;

use super::Ctx;
use crate::magic::MagicError;
use crate::magic::effect::SpellEffect;
use crate::state::magic::Aim;

/// The aim a `Combat:` line names for the weather spell (`see`, `change`
/// or nothing, which looks).
///
/// # Errors
/// Any other word, with the two that work.
pub fn aim_of(named: Option<&str>) -> Result<Aim, MagicError> {
    match named.map(|n| n.trim().to_ascii_lowercase()).as_deref() {
        None | Some("see" | "weather" | "see weather" | "the weather") => Ok(Aim::Weather),
        Some("change" | "change weather" | "new" | "new chit") => Ok(Aim::NewWeather),
        Some(other) => Err(format!(
            "'{other}' is not a choice of See/Change Weather: write `on see` to look at the \
             weather chit or `on change` to replace it"
        )
        .into()),
    }
}

/// Look at the weather chit, or replace it.
///
/// # Errors
/// The game plays without the weather, or the aim is not the weather.
pub fn see_or_change(ctx: &mut Ctx<'_>) -> Result<Vec<SpellEffect>, MagicError> {
    let caster = ctx.caster_name();
    let change = match ctx.targets.first() {
        Some(Aim::Weather) => false,
        Some(Aim::NewWeather) => true,
        _ => return Err(ctx.bad_target(0, "it must be the weather chit")),
    };
    let Some(mut weather) = ctx.state.weather else {
        return Err(ctx.bad_target(
            0,
            "this game plays without the Seasons and Weather rule, so there is no weather chit",
        ));
    };
    if !change {
        return Ok(vec![SpellEffect::ForGm {
            text: format!(
                "the {caster} looks at the secret weather chit: {}",
                weather.chit
            ),
        }]);
    }
    let purpose = format!("magic/{}/{caster}", ctx.spell.name);
    weather.chit = draw_chit(ctx.dice, &purpose);
    ctx.state.weather = Some(weather);
    Ok(vec![SpellEffect::ForGm {
        text: format!("the {caster} replaces the secret weather chit with a new random one"),
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::seasons::WeatherKind;
    use crate::rules::TOGGLES;
    use crate::state::WeatherState;
    use crate::test_support::{data, game_played_by};
    use realmgm_core::dice::{Dice, DiceScript};
    use realmgm_core::game::Rules;

    fn cast(
        state: &mut crate::state::MrState,
        aim: Aim,
        dice: &mut Dice,
    ) -> Result<Vec<SpellEffect>, MagicError> {
        let rules = Rules::new(["seasons_and_weather"], TOGGLES).unwrap();
        let spell = data()
            .spells
            .iter()
            .find(|s| s.name == "See/Change Weather")
            .unwrap();
        let targets = [aim];
        let mut ctx = Ctx {
            state,
            data: data(),
            rules: &rules,
            dice,
            caster: 0,
            spell,
            targets: &targets,
            speed: 0,
            day: 3,
            detail: None,
            spent: false,
        };
        see_or_change(&mut ctx)
    }

    fn text(effects: &[SpellEffect]) -> String {
        match effects {
            [SpellEffect::ForGm { text }] => text.clone(),
            other => panic!("one line expected, got {other:?}"),
        }
    }

    #[test]
    fn the_caster_sees_the_chit_or_replaces_it() {
        let mut state = game_played_by(&["Wizard"], |_| "P1".into());
        state.weather = Some(WeatherState {
            weather: WeatherKind::Clear,
            chit: 4,
        });
        let mut dice = Dice::new(1, 3);
        let seen = text(&cast(&mut state, Aim::Weather, &mut dice).unwrap());
        assert!(seen.ends_with("weather chit: 4"), "{seen}");
        assert_eq!(state.weather.unwrap().chit, 4, "looking changes nothing");

        let mut script = DiceScript::default();
        script
            .force("magic/See/Change Weather/Wizard", &[2])
            .unwrap();
        let mut dice = Dice::with_script(1, 3, script);
        let changed = text(&cast(&mut state, Aim::NewWeather, &mut dice).unwrap());
        assert!(
            !changed.contains('2'),
            "the new chit stays secret: {changed}"
        );
        assert_eq!(state.weather.unwrap().chit, 2);
    }

    #[test]
    fn without_the_weather_or_with_a_wrong_aim_it_is_refused() {
        let mut state = game_played_by(&["Wizard"], |_| "P1".into());
        let err = cast(&mut state, Aim::Weather, &mut Dice::new(1, 3)).unwrap_err();
        assert!(
            err.to_string()
                .contains("without the Seasons and Weather rule"),
            "{err}"
        );
        let err = cast(
            &mut state,
            Aim::Character {
                name: "Wizard".into(),
            },
            &mut Dice::new(1, 3),
        )
        .unwrap_err();
        assert!(err.to_string().contains("weather chit"), "{err}");
    }

    #[test]
    fn the_combat_line_chooses_see_or_change() {
        assert_eq!(aim_of(None), Ok(Aim::Weather));
        assert_eq!(aim_of(Some("See")), Ok(Aim::Weather));
        assert_eq!(aim_of(Some("change")), Ok(Aim::NewWeather));
        let err = aim_of(Some("Ogre")).unwrap_err();
        assert!(err.to_string().contains("`on change`"), "{err}");
    }

    #[test]
    fn only_the_eye_of_the_moon_casts_it_once_per_evening() {
        use crate::magic::cast::{CastRequest, cast};
        use crate::state::magic::CastWith;
        use crate::state::{Belonging, Item, ItemKind};
        let rules = Rules::new(["seasons_and_weather"], TOGGLES).unwrap();
        let mut state = game_played_by(&["Wizard"], |_| "P1".into());
        state.weather = Some(WeatherState {
            weather: WeatherKind::Clear,
            chit: 4,
        });
        state.characters[0].belongings.push(Belonging {
            item: Item {
                kind: ItemKind::Treasure,
                name: "Eye of the Moon".into(),
            },
            active: true,
        });
        // The 14th supplies grey everywhere.
        let request = |with: CastWith| CastRequest {
            caster: 0,
            spell: "See/Change Weather".into(),
            with,
            targets: vec![Aim::Weather],
            colour_chit: None,
            day: 14,
        };
        let by_chit = cast(
            &mut state,
            data(),
            &rules,
            &request(CastWith::Chit { index: 0 }),
            &mut Dice::new(1, 14),
        )
        .unwrap_err();
        assert!(
            by_chit
                .to_string()
                .contains("only the Eye of the Moon casts it"),
            "{by_chit}"
        );
        let eye = || CastWith::Treasure {
            name: "Eye of the Moon".into(),
        };
        let seen = cast(
            &mut state,
            data(),
            &rules,
            &request(eye()),
            &mut Dice::new(1, 14),
        )
        .unwrap();
        assert!(text(&seen).ends_with("weather chit: 4"), "{seen:?}");
        let again = cast(
            &mut state,
            data(),
            &rules,
            &request(eye()),
            &mut Dice::new(1, 14),
        )
        .unwrap_err();
        assert!(again.to_string().contains("once per Evening"), "{again}");
    }
}
