//! Report templates and what a game needs to fill them, shared by every
//! game.
//!
//! The wording and layout of reports live in `templates/` as minijinja
//! files, embedded in the binary; a campaign's `template_folder` may hold
//! its own copies of any of them, which win. Templates only format: every
//! fact they show, and who may see it, comes from the game's report code,
//! which builds its context from the events its reader observed
//! ([`crate::game::observed_by`]). A template error names the file and the
//! line.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use minijinja::syntax::SyntaxConfig;
use minijinja::value::Serde;
use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

/// The built-in templates, by file name.
const BUILT_IN: &[(&str, &str)] = &[
    (
        "player_report.txt",
        include_str!("../../../templates/player_report.txt"),
    ),
    (
        "player_report.html",
        include_str!("../../../templates/player_report.html"),
    ),
    (
        "gm_history.txt",
        include_str!("../../../templates/gm_history.txt"),
    ),
    (
        "gm_history.html",
        include_str!("../../../templates/gm_history.html"),
    ),
    (
        "orders_form.txt",
        include_str!("../../../templates/orders_form.txt"),
    ),
    (
        "confirmation.txt",
        include_str!("../../../templates/confirmation.txt"),
    ),
    // The public pages (the plumbing's site/).
    (
        "site_layout.html",
        include_str!("../../../templates/site_layout.html"),
    ),
    (
        "site_index.html",
        include_str!("../../../templates/site_index.html"),
    ),
    (
        "site_day.html",
        include_str!("../../../templates/site_day.html"),
    ),
    (
        "site_character.html",
        include_str!("../../../templates/site_character.html"),
    ),
    (
        "site_standings.html",
        include_str!("../../../templates/site_standings.html"),
    ),
    (
        "site_final.html",
        include_str!("../../../templates/site_final.html"),
    ),
    (
        "site_feed.xml",
        include_str!("../../../templates/site_feed.xml"),
    ),
    ("site.css", include_str!("../../../templates/site.css")),
];

/// A template that could not be read or filled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("template {file}{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
pub struct TemplateError {
    /// The file: a built-in name, or the override's path.
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

/// The set of report templates: the built-in ones, with a campaign's
/// overrides in their place.
#[derive(Clone)]
pub struct Templates {
    env: Environment<'static>,
    /// Template name → where it came from, for error messages.
    origins: BTreeMap<String, String>,
}

impl fmt::Debug for Templates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Templates")
            .field("origins", &self.origins)
            .finish_non_exhaustive()
    }
}

impl Default for Templates {
    fn default() -> Self {
        Templates::built_in()
    }
}

impl Templates {
    /// The templates embedded in the binary, compiled once per process
    /// (every confirmation and report uses them).
    pub fn built_in() -> Templates {
        static COMPILED: OnceLock<Templates> = OnceLock::new();
        COMPILED
            .get_or_init(|| {
                Templates::with_overrides(BTreeMap::new())
                    .expect("the built-in templates compile (checked by the tests)")
            })
            .clone()
    }

    /// The built-in templates with `overrides` (name → (origin, source)) in
    /// their place.
    ///
    /// # Errors
    /// An override with an unknown name or a syntax error, named with its
    /// file and line.
    pub fn with_overrides(
        overrides: BTreeMap<String, (String, String)>,
    ) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_syntax(
            SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .keep_trailing_newline(true)
                .build()
                .expect("the default delimiters with whitespace options always build"),
        );
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        let mut origins = BTreeMap::new();
        for (name, origin) in overrides.keys().map(|n| (n, &overrides[n].0)) {
            if !BUILT_IN.iter().any(|(known, _)| known == name) {
                return Err(TemplateError {
                    file: origin.clone(),
                    line: None,
                    message: format!(
                        "there is no report template called '{name}'{}; the templates are {}",
                        crate::suggest::did_you_mean(name, BUILT_IN.iter().map(|(n, _)| *n)),
                        names().join(", ")
                    ),
                });
            }
        }
        for (name, source) in BUILT_IN {
            let (origin, source) = match overrides.get(*name) {
                Some((origin, source)) => (origin.clone(), source.clone()),
                None => (format!("{name} (built in)"), (*source).to_string()),
            };
            env.add_template_owned(name.to_string(), source)
                .map_err(|e| error(&origin, &e))?;
            origins.insert(name.to_string(), origin);
        }
        Ok(Templates { env, origins })
    }

    /// The built-in templates, overridden by the files of `folder` that
    /// carry a template's name (other files are an error, to catch typos).
    ///
    /// # Errors
    /// The folder cannot be read, or a template in it is broken.
    pub fn from_folder(folder: &Path) -> Result<Templates, TemplateError> {
        let unreadable = |message: String| TemplateError {
            file: folder.display().to_string(),
            line: None,
            message,
        };
        let entries = std::fs::read_dir(folder).map_err(|e| {
            unreadable(format!(
                "cannot read the campaign's template folder ({e}); fix template_folder in the campaign file"
            ))
        })?;
        let mut overrides = BTreeMap::new();
        for entry in entries {
            let path = entry.map_err(|e| unreadable(e.to_string()))?.path();
            if !path.is_file() {
                continue;
            }
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let source = std::fs::read_to_string(&path).map_err(|e| TemplateError {
                file: path.display().to_string(),
                line: None,
                message: format!("cannot read it ({e})"),
            })?;
            overrides.insert(name, (path.display().to_string(), source));
        }
        Templates::with_overrides(overrides)
    }

    /// Fill the template `name` with `context`.
    ///
    /// # Errors
    /// The template fails (an unknown variable, a bad filter), named with
    /// its file and line.
    pub fn render(&self, name: &str, context: impl Serialize) -> Result<String, TemplateError> {
        let origin = self
            .origins
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string());
        let template = self
            .env
            .get_template(name)
            .map_err(|e| error(&origin, &e))?;
        template
            .render(Serde(context))
            .map_err(|e| error(&origin, &e))
    }
}

/// The names of the report templates.
pub fn names() -> Vec<&'static str> {
    BUILT_IN.iter().map(|(name, _)| *name).collect()
}

fn error(origin: &str, e: &minijinja::Error) -> TemplateError {
    TemplateError {
        file: origin.to_string(),
        line: e.line(),
        message: e
            .detail()
            .map_or_else(|| e.kind().to_string(), |d| format!("{}: {d}", e.kind())),
    }
}

/// A private message a player received during the day, passed on by the
/// daemon's relay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PrivateMessage {
    pub from: String,
    pub text: String,
}

/// What a report needs besides the game state and events: facts only the
/// plumbing knows (campaign, deadline, messages, standing orders) and the
/// templates.
#[derive(Clone, Debug, Default)]
pub struct ReportContext {
    /// The campaign's tag, for the header.
    pub campaign: String,
    /// When the next orders are due, already formatted, if known.
    pub deadline: Option<String>,
    /// The season of the day, when the campaign plays with seasons.
    pub season: Option<String>,
    /// Player → private messages he received today.
    pub messages: BTreeMap<String, Vec<PrivateMessage>>,
    /// Player → his last accepted orders (canonical text), whose standing
    /// instructions pre-fill his orders form.
    pub standing_orders: BTreeMap<String, String>,
    /// The campaign's rules (how many phases tomorrow has, for the form).
    pub rules: crate::game::Rules,
    /// The GM's announcements made while the day was pending: the reports
    /// open with them.
    pub announcements: Vec<String>,
    /// The GM's narrative of the day: his history shows it, players'
    /// reports do not.
    pub narrative: Option<String>,
    /// Whether players' reports name, after each combat and magic line, the
    /// section of the rules it applied (the GM's history always does).
    pub cite_rules: bool,
    pub templates: Templates,
}

/// What the GM wrote for a day: the announcements made while it was
/// pending and his narrative of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GmWords {
    pub announcements: Vec<String>,
    pub narrative: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_template_compiles() {
        let templates = Templates::built_in();
        assert_eq!(templates.origins.len(), BUILT_IN.len());
    }

    #[test]
    fn an_override_with_a_syntax_error_names_its_file_and_line() {
        let overrides = BTreeMap::from([(
            "orders_form.txt".to_string(),
            (
                "camp/orders_form.txt".to_string(),
                "line one\n{% if %}\n".to_string(),
            ),
        )]);
        let err = Templates::with_overrides(overrides).unwrap_err();
        assert_eq!(err.file, "camp/orders_form.txt");
        assert_eq!(err.line, Some(2));
        assert!(
            err.to_string()
                .starts_with("template camp/orders_form.txt, line 2: "),
            "{err}"
        );
    }

    #[test]
    fn an_unknown_override_name_is_refused_with_a_suggestion() {
        let overrides = BTreeMap::from([(
            "player_report.tx".to_string(),
            ("x/player_report.tx".to_string(), String::new()),
        )]);
        let err = Templates::with_overrides(overrides).unwrap_err();
        assert!(err.message.contains("player_report.txt"), "{err}");
    }

    #[test]
    fn a_render_error_names_the_file_and_line_and_overrides_win() {
        let overrides = BTreeMap::from([(
            "orders_form.txt".to_string(),
            (
                "mine.txt".to_string(),
                "Hello {{ name }}\n{{ missing.field }}\n".to_string(),
            ),
        )]);
        let templates = Templates::with_overrides(overrides).unwrap();
        let err = templates
            .render("orders_form.txt", serde_json::json!({"name": "Ann"}))
            .unwrap_err();
        assert_eq!((err.file.as_str(), err.line), ("mine.txt", Some(2)));
        let text = templates
            .render(
                "orders_form.txt",
                serde_json::json!({"name": "Ann", "missing": {"field": 1}}),
            )
            .unwrap();
        assert_eq!(text, "Hello Ann\n1\n");
    }

    #[test]
    fn a_folder_overrides_the_built_in_template_of_that_name() {
        let dir = std::env::temp_dir().join(format!("realmgm-templates-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("orders_form.txt"), "custom {{ 1 + 1 }}\n").unwrap();
        let templates = Templates::from_folder(&dir).unwrap();
        assert_eq!(
            templates
                .render("orders_form.txt", serde_json::json!({}))
                .unwrap(),
            "custom 2\n"
        );
        let missing = Templates::from_folder(&dir.join("nope")).unwrap_err();
        assert!(missing.message.contains("template_folder"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
