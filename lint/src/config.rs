//! Configuration: the `[lint]` table of `mirrorless.toml`, or
//! `[workspace.metadata.mirrorless.lint]` / `[package.metadata.mirrorless.lint]` in
//! `Cargo.toml`. Found by walking up from the current directory, or given with `--config`.

use crate::catalog::{Argument, Event, Migration};
use crate::model::Severity;
use crate::rules;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `[lint]` table.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LintConfig {
    /// Globs (relative to the configuration's directory) a walked file must match.
    #[serde(default)]
    pub include: Vec<String>,
    /// Globs of walked files to skip.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Globs of frozen historical records (decision notes, RFCs) that may keep naming removed
    /// events: never linted, not even when named on the command line. Empty by default.
    #[serde(default)]
    pub allow_paths: Vec<String>,
    /// Extra subscription call names (added to the defaults).
    #[serde(default)]
    pub subscribe_methods: Vec<String>,
    /// Extra emit call names (added to the defaults).
    #[serde(default)]
    pub emit_methods: Vec<String>,
    /// Receivers of a foreign bus: calls on them are never flagged (`app_handle`, `window`).
    #[serde(default)]
    pub ignore_receivers: Vec<String>,
    /// Severity per rule ID or name: `error`, `warning`, `note` or `off`.
    #[serde(default)]
    pub severity: BTreeMap<String, String>,
    /// Extra removed events.
    #[serde(default)]
    pub events: Vec<ExtraEvent>,
}

/// An extra removed event from `[[lint.events]]`.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ExtraEvent {
    /// The exact event name.
    pub name: String,
    /// What to use instead.
    pub replacement: String,
    /// The durable twin consumers filter on `session/event` instead; with it, the event gets
    /// the same fixes as the shared catalogue's.
    #[serde(default)]
    pub twin: Option<String>,
    /// The durable twin under 2026-08, when it differs from `twin`.
    #[serde(default)]
    pub twin_2026_08: Option<String>,
    /// The arguments the event passed after the agent, in order (the payload keys under
    /// 2026-08). Each is the same-named field of the twin's `data` unless `fields` renames it.
    #[serde(default)]
    pub arguments: Vec<String>,
    /// Argument → field of the twin's `data`, when the names differ.
    #[serde(default)]
    pub fields: BTreeMap<String, String>,
}

/// `mirrorless.toml` (or `[….metadata.mirrorless]`): a misspelt table (`[lnt]`) is an error,
/// not a configuration silently ignored.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct MirrorlessToml {
    #[serde(default)]
    lint: Option<LintConfig>,
}

#[derive(Debug, Default, Deserialize)]
struct Metadata {
    #[serde(default)]
    mirrorless: Option<MirrorlessToml>,
}

#[derive(Debug, Default, Deserialize)]
struct MetaHolder {
    #[serde(default)]
    metadata: Option<Metadata>,
}

#[derive(Debug, Default, Deserialize)]
struct CargoToml {
    #[serde(default)]
    workspace: Option<MetaHolder>,
    #[serde(default)]
    package: Option<MetaHolder>,
}

/// The effective configuration and where it came from.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The `[lint]` settings.
    pub lint: LintConfig,
    /// The file it was read from, if any.
    pub source: Option<PathBuf>,
    /// The directory globs are relative to (the configuration's directory, or the current
    /// directory).
    pub root: PathBuf,
}

/// The largest configuration file read (a `mirrorless.toml` or `Cargo.toml` is a few KiB).
const MAX_CONFIG_BYTES: u64 = 4 << 20;

/// Reads a UTF-8 text file of at most `max` bytes: a larger one (or an endless one, such as
/// `/dev/zero`) is an error naming the file, after reading no more than `max + 1` bytes.
pub(crate) fn read_capped(path: &Path, max: u64, what: &str) -> Result<String, String> {
    use std::io::Read as _;
    let file = std::fs::File::open(path)
        .map_err(|e| format!("cannot read {what} {}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {what} {}: {e}", path.display()))?;
    if bytes.len() as u64 > max {
        return Err(format!(
            "cannot read {what} {}: larger than the {max}-byte limit",
            path.display()
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read {what} {}: not valid UTF-8 (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

impl Config {
    /// Reads an explicit configuration file (`mirrorless.toml` style, or a `Cargo.toml`).
    pub fn load(path: &Path) -> Result<Config, String> {
        let text = read_capped(path, MAX_CONFIG_BYTES, "configuration")?;
        let lint = if path.file_name().is_some_and(|n| n == "Cargo.toml") {
            cargo_lint(&text, path)?.unwrap_or_default()
        } else {
            let parsed: MirrorlessToml = toml::from_str(&text)
                .map_err(|e| format!("invalid configuration {}: {e}", path.display()))?;
            parsed.lint.unwrap_or_default()
        };
        let root = path
            .parent()
            .map(Path::to_path_buf)
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or_else(|| PathBuf::from("."));
        let config = Config {
            lint,
            source: Some(path.to_path_buf()),
            root: std::path::absolute(&root).unwrap_or(root),
        };
        config.validate()?;
        Ok(config)
    }

    /// Looks for `mirrorless.toml`, or a `Cargo.toml` with mirrorless metadata, in `start`
    /// and its ancestors. No file found is not an error: the defaults apply.
    pub fn discover(start: &Path) -> Result<Config, String> {
        let start = std::path::absolute(start).unwrap_or_else(|_| start.to_path_buf());
        for dir in start.ancestors() {
            let own = dir.join("mirrorless.toml");
            if own.is_file() {
                return Config::load(&own);
            }
            let cargo = dir.join("Cargo.toml");
            if cargo.is_file()
                && let Ok(text) = read_capped(&cargo, MAX_CONFIG_BYTES, "configuration")
                && cargo_lint(&text, &cargo)?.is_some()
            {
                return Config::load(&cargo);
            }
        }
        Ok(Config {
            root: start,
            ..Config::default()
        })
    }

    fn validate(&self) -> Result<(), String> {
        let origin = self
            .source
            .as_ref()
            .map_or_else(|| "configuration".to_owned(), |p| p.display().to_string());
        for (key, value) in &self.lint.severity {
            if rules::rule(key).is_none() {
                return Err(format!(
                    "{origin}: [lint.severity] names unknown rule `{key}` (rules: ML001..ML009 or their names; see `mirrorless explain ML001`)"
                ));
            }
            if parse_severity(value).is_none() {
                return Err(format!(
                    "{origin}: [lint.severity] {key} = \"{value}\": expected \"error\", \"warning\", \"note\" or \"off\""
                ));
            }
        }
        for e in &self.lint.events {
            if e.name.trim().is_empty() {
                return Err(format!("{origin}: [[lint.events]] has an empty name"));
            }
            if e.twin.is_none()
                && (e.twin_2026_08.is_some() || !e.arguments.is_empty() || !e.fields.is_empty())
            {
                return Err(format!(
                    "{origin}: [[lint.events]] `{}` maps arguments but names no `twin` (the durable event to filter)",
                    e.name
                ));
            }
            if let Some(k) = e.fields.keys().find(|k| !e.arguments.contains(k)) {
                return Err(format!(
                    "{origin}: [[lint.events]] `{}`: `fields` renames `{k}`, which is not in `arguments`",
                    e.name
                ));
            }
        }
        for g in self
            .lint
            .include
            .iter()
            .chain(&self.lint.exclude)
            .chain(&self.lint.allow_paths)
        {
            globset::Glob::new(g).map_err(|e| format!("{origin}: invalid glob `{g}`: {e}"))?;
        }
        Ok(())
    }

    /// The effective severity of a rule (`None` when turned off).
    pub fn severity(&self, rule: &rules::Rule) -> Option<Severity> {
        self.lint
            .severity
            .iter()
            .find(|(k, _)| rules::rule(k).is_some_and(|r| r.id == rule.id))
            .map_or(Some(rule.default_severity), |(_, v)| {
                parse_severity(v).unwrap_or(Some(rule.default_severity))
            })
    }

    /// The extra removed events.
    pub fn extra_events(&self) -> Vec<Event> {
        self.lint
            .events
            .iter()
            .map(|e| Event {
                name: e.name.clone(),
                replacement: e.replacement.clone(),
                requirement: None,
                migration: e.twin.as_ref().map(|twin| {
                    let arguments = e
                        .arguments
                        .iter()
                        .map(|a| {
                            let field = e.fields.get(a).unwrap_or(a).clone();
                            Argument {
                                name: a.clone(),
                                field: Some(field.clone()),
                                field_2026_08: Some(field),
                            }
                        })
                        .collect();
                    Migration {
                        twin: twin.clone(),
                        twin_2026_08: e.twin_2026_08.clone().unwrap_or_else(|| twin.clone()),
                        arguments,
                        one_to_one_2026_08: true,
                        // A configured twin's other fields are unknown.
                        stand_in_data: None,
                    }
                }),
            })
            .collect()
    }
}

fn parse_severity(s: &str) -> Option<Option<Severity>> {
    match s {
        "error" => Some(Some(Severity::Error)),
        "warning" | "warn" => Some(Some(Severity::Warning)),
        "note" => Some(Some(Severity::Note)),
        "off" | "allow" => Some(None),
        _ => None,
    }
}

fn cargo_lint(text: &str, path: &Path) -> Result<Option<LintConfig>, String> {
    let parsed: CargoToml =
        toml::from_str(text).map_err(|e| format!("invalid {}: {e}", path.display()))?;
    let pick = |h: Option<MetaHolder>| h.and_then(|h| h.metadata).and_then(|m| m.mirrorless);
    Ok(pick(parsed.workspace)
        .or_else(|| pick(parsed.package))
        .map(|m| m.lint.unwrap_or_default()))
}
