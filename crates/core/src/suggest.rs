//! "Did you mean …?" for every name a person types: rule toggles, data
//! entries, tiles, card names.
//!
//! Comparison ignores case, accents and punctuation, so `doppelganger` finds
//! `Doppelgänger` and `black-knight` finds `Black Knight`.

/// A name folded for comparison: lower case, Latin accents removed, only
/// letters and digits kept.
pub fn fold(name: &str) -> String {
    // Names and keys are nearly always ASCII, folded a byte at a time
    // without Unicode's case tables (every order line folds a few).
    if name.is_ascii() {
        let mut folded = name.to_ascii_lowercase();
        folded.retain(|c| c.is_ascii_alphanumeric());
        return folded;
    }
    folded(name).collect()
}

/// The characters of [`fold`], without building the string: lookups run
/// in every phase of every day, so comparing folds must not allocate.
fn folded(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .flat_map(char::to_lowercase)
        .map(strip_accent)
        .filter(char::is_ascii_alphanumeric)
}

/// Whether two names are the same once folded (`fold(a) == fold(b)`).
pub fn same(a: &str, b: &str) -> bool {
    a == b || folded(a).eq(folded(b))
}

fn strip_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        other => other,
    }
}

/// Find `wanted` among `names` when they fold to the same text.
pub fn find<'a, I>(wanted: &str, names: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let wanted = fold(wanted);
    names
        .into_iter()
        .find(|name| folded(name).eq(wanted.chars()))
}

/// Up to three names close to `wanted`, closest first.
pub fn nearest<'a, I>(wanted: &str, names: I) -> Vec<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let wanted = fold(wanted);
    let mut scored: Vec<(f64, &str)> = names
        .into_iter()
        .map(|name| {
            let folded = fold(name);
            let mut score = strsim::jaro_winkler(&wanted, &folded);
            // A typed prefix ("amaz" for Amazon) is as good as a near match.
            if !wanted.is_empty() && folded.starts_with(&wanted) {
                score = score.max(0.95);
            }
            (score, name)
        })
        .filter(|(score, _)| *score >= 0.7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, name)| name).collect()
}

/// Whether `wanted` is one of `names` or a slip of the keyboard from one
/// (`Serch` for `Search`): closer than [`nearest`] asks, since it decides
/// what a line is rather than what to suggest.
pub fn is_typo_of<'a, I>(wanted: &str, names: I) -> bool
where
    I: IntoIterator<Item = &'a str>,
{
    let wanted = fold(wanted);
    names
        .into_iter()
        .any(|name| strsim::jaro_winkler(&wanted, &fold(name)) >= 0.88)
}

/// " (did you mean X or Y?)", or nothing when no name is close.
pub fn did_you_mean<'a, I>(wanted: &str, names: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    let close = nearest(wanted, names);
    match close.as_slice() {
        [] => String::new(),
        [one] => format!(" (did you mean {one}?)"),
        [init @ .., last] => format!(" (did you mean {} or {last}?)", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_ignores_case_accents_and_punctuation() {
        assert_eq!(fold("Doppelgänger"), "doppelganger");
        assert_eq!(fold("Black-Knight"), fold("black knight"));
        assert_eq!(
            find("DOPPELGANGER", ["Mirage", "Doppelgänger"]),
            Some("Doppelgänger")
        );
    }

    #[test]
    fn ascii_folds_as_every_other_text() {
        let ascii: String = (0..=127u8).map(char::from).collect();
        assert_eq!(fold(&ascii), folded(&ascii).collect::<String>());
        assert_eq!(
            fold(&ascii),
            "0123456789abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"
        );
    }

    #[test]
    fn nearest_names_come_first() {
        let names = [
            "seasons_and_weather",
            "watchful_natives",
            "extended_treachery",
        ];
        assert_eq!(
            nearest("watchfull_natives", names),
            vec!["watchful_natives"]
        );
        assert_eq!(
            did_you_mean("sesons_weather", names),
            " (did you mean seasons_and_weather?)"
        );
        assert_eq!(did_you_mean("zzzz", names), "");
    }
}
