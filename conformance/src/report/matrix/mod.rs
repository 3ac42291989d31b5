//! `mirrorless report A.json B.json …`: a matrix of implementations × requirements from
//! several `mirrorless run --format json` reports (format_version 2, or 1; `docs/run/report.schema.json`),
//! in Markdown or as one self-contained HTML file. Each column is one report, named as the
//! implementation's `hello` names itself; each failing or warning cell links to that
//! implementation's counterexample (headline, minimal script, replay command) in the same page.
//! A file that is not such a report is an error naming the file; the others still render.
//!
//! `mod.rs` reads the reports and decides each cell; `markdown.rs` and `html.rs` render them.

mod html;
mod markdown;

pub use html::render_html;
pub use markdown::render_markdown;

use super::md_text::html_escape;
use crate::check::{clip_name, shown};
use crate::registry::REQUIREMENTS;
use crate::suite::UNSAVED_CASE_FILE;
use serde::Deserialize;
use serde_json::Value;
use std::fmt::Write as _;

/// The `format_version` of the JSON report this reader understands (and writes).
pub const FORMAT_VERSION: u64 = super::FORMAT_VERSION;

/// The older `format_version`s it reads too: version 1 is version 2 without `not-judged`
/// rows and `not_judged` counts.
const OLDER_VERSIONS: &[u64] = &[1];

/// One run report, as the matrix reads it.
#[derive(Debug, Clone)]
pub struct Column {
    /// The file it was read from, as given.
    pub file: String,
    /// The mirrorless release that wrote it.
    pub tool_version: String,
    /// The overall verdict of the run.
    pub conformant: bool,
    /// The run itself.
    pub run: RunView,
}

/// The part of a report's `report` object the matrix uses.
#[derive(Debug, Clone, Deserialize)]
pub struct RunView {
    /// The implementation as the human report names it.
    pub implementation: String,
    /// Who it is, from its `hello`.
    #[serde(default)]
    pub hello: Option<HelloView>,
    /// The seed of the run.
    pub seed: u64,
    /// Per profile.
    pub profiles: Vec<ProfileView>,
    /// Problems of the run (harness faults, a run cut short).
    #[serde(default)]
    pub problems: Vec<String>,
}

/// The identity an implementation gave in its `hello`.
#[derive(Debug, Clone, Deserialize)]
pub struct HelloView {
    /// Its name.
    pub name: String,
    /// Its version.
    #[serde(default)]
    pub version: Option<String>,
    /// Its language.
    #[serde(default)]
    pub language: Option<String>,
}

/// One profile of a report.
#[derive(Debug, Clone, Deserialize)]
pub struct ProfileView {
    /// The profile name.
    pub profile: String,
    /// Per requirement.
    pub requirements: Vec<RequirementView>,
    /// Counterexamples of failing requirements.
    pub failures: Vec<FailureView>,
    /// Counterexamples of SHOULD requirements with warnings.
    pub warnings: Vec<FailureView>,
    /// Cases that ended in a harness fault.
    #[serde(default)]
    pub faulted_cases: u64,
}

/// One requirement's result.
#[derive(Debug, Clone, Deserialize)]
pub struct RequirementView {
    /// The ID.
    pub id: String,
    /// `pass`, `fail`, `warn`, `not-exercised`, `not-judged`, `untested` or `not-applicable`.
    pub status: String,
    /// Its tier under the profile (`MUST`, `SHOULD`), when it applies.
    #[serde(default)]
    pub tier: Option<String>,
    /// Cases counted against it.
    pub failures: u64,
    /// Cases warned.
    pub warnings: u64,
    /// Cases that could not judge it (a consequence of another finding masked it).
    #[serde(default)]
    pub not_judged: u64,
}

impl RequirementView {
    /// Whether the row fails its profile (as `RequirementResult::counts_as_failure`).
    fn fails(&self) -> bool {
        match self.status.as_str() {
            "fail" | "not-exercised" => true,
            "not-judged" => self.tier.as_deref() == Some("MUST"),
            _ => false,
        }
    }
}

/// One counterexample.
#[derive(Debug, Clone, Deserialize)]
pub struct FailureView {
    /// The requirement (or `CRASH`).
    pub requirement: String,
    /// The minimal case.
    pub case: Value,
    /// Its id.
    pub case_id: String,
    /// The finding on it.
    pub finding: FindingView,
    /// The replay command.
    pub replay: String,
    /// The saved case file, if any.
    #[serde(default)]
    pub case_file: Option<String>,
}

/// The finding of a counterexample.
#[derive(Debug, Clone, Deserialize)]
pub struct FindingView {
    /// What is wrong.
    pub message: String,
    /// Where in the durable log.
    #[serde(default)]
    pub position: Option<u64>,
}

/// Reads one report; `file` names it in the error.
pub fn read_column(file: &str, text: &str) -> Result<Column, String> {
    let mut value: Value = serde_json::from_str(text).map_err(|e| {
        format!("{file}: not a `mirrorless run --format json` report: not JSON ({e})")
    })?;
    let not_report =
        |why: &str| format!("{file}: not a `mirrorless run --format json` report: {why}");
    let Some(object) = value.as_object_mut() else {
        return Err(not_report("not a JSON object"));
    };
    if object.get("tool").and_then(Value::as_str) != Some("mirrorless") {
        return Err(not_report("no `\"tool\": \"mirrorless\"`"));
    }
    match object.get("format_version") {
        Some(v)
            if v.as_u64() == Some(FORMAT_VERSION)
                || v.as_u64().is_some_and(|v| OLDER_VERSIONS.contains(&v)) => {}
        Some(v) => {
            return Err(format!(
                "{file}: format_version {v}, but this mirrorless ({}) reads format_version {FORMAT_VERSION}; render it with the mirrorless release that wrote it (tool_version {})",
                env!("CARGO_PKG_VERSION"),
                object.get("tool_version").unwrap_or(&Value::Null)
            ));
        }
        None => return Err(not_report("no `format_version`")),
    }
    let mut run: RunView =
        // Moved out, not cloned: a report's size is paid once.
        serde_json::from_value(object.remove("report").unwrap_or_default())
            .map_err(|e| not_report(&format!("its `report` does not have the format: {e}")))?;
    run.clip_names();
    Ok(Column {
        file: file.to_owned(),
        tool_version: object
            .get("tool_version")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned(),
        conformant: object
            .get("conformant")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        run,
    })
}

impl RunView {
    /// Clips the strings the implementation supplied to what a report shows of them
    /// ([`shown`]'s bound, before escaping), so a column holds no more than it renders.
    fn clip_names(&mut self) {
        clip_name(&mut self.implementation);
        if let Some(h) = &mut self.hello {
            clip_name(&mut h.name);
            h.version
                .iter_mut()
                .chain(h.language.iter_mut())
                .for_each(clip_name);
        }
    }
}

impl Column {
    /// The name of the implementation as its `hello` gives it: name and version (the
    /// human report's name when the report has no `hello`).
    pub fn label(&self) -> String {
        match &self.run.hello {
            Some(h) if !h.name.is_empty() => match &h.version {
                Some(v) => shown(&format!("{} {v}", h.name)),
                None => shown(&h.name),
            },
            _ => shown(&self.run.implementation),
        }
    }

    /// The first line of each of the run's problems (a fault's repeats folded), so that an
    /// incomplete column says why: a harness fault, or an implementation that never started.
    fn problem_headlines(&self) -> Vec<String> {
        super::problems::grouped(&self.run.problems)
            .iter()
            .map(|p| shown(p.lines().next().unwrap_or_default()))
            .collect()
    }

    fn subtitle(&self) -> String {
        let lang = self
            .run
            .hello
            .as_ref()
            .and_then(|h| h.language.as_deref())
            .map(|l| format!("{}, ", shown(l)))
            .unwrap_or_default();
        format!(
            "{lang}seed {}, mirrorless {}",
            self.run.seed, self.tool_version
        )
    }
}

/// A cell: its text (never only a colour), a class for the HTML, and the counterexample it
/// links to (`None` for a pass, a skip, or a profile the report did not run).
pub(super) struct Cell {
    text: String,
    class: &'static str,
    link: Option<String>,
}

/// The id of a counterexample in the page. Profile and requirement come from the file, so
/// anything but ASCII letters, digits and `-` is written as `_XX` (its bytes in hex): the id
/// can close no attribute and break no link, and two different names never share an id.
fn anchor(column: usize, profile: &str, id: &str) -> String {
    let safe = |s: &str| {
        let mut out = String::with_capacity(s.len());
        for b in s.bytes() {
            if b.is_ascii_alphanumeric() || b == b'-' {
                out.push(char::from(b.to_ascii_lowercase()));
            } else {
                let _ = write!(out, "_{b:02x}");
            }
        }
        out
    };
    format!("cx-{}-{}-{}", column + 1, safe(profile), safe(id))
}

fn cell(column: usize, c: &Column, profile: &str, id: &str) -> Cell {
    let Some(p) = c.run.profiles.iter().find(|p| p.profile == profile) else {
        return Cell {
            text: "not run".to_owned(),
            class: "none",
            link: None,
        };
    };
    let has_cx = |list: &[FailureView]| list.iter().any(|f| f.requirement == id);
    let link = (has_cx(&p.failures) || has_cx(&p.warnings)).then(|| anchor(column, profile, id));
    let Some(r) = p.requirements.iter().find(|r| r.id == id) else {
        // A crash has no requirement row.
        return Cell {
            text: if link.is_some() { "FAIL" } else { "—" }.to_owned(),
            class: if link.is_some() { "fail" } else { "none" },
            link,
        };
    };
    let (text, class) = match r.status.as_str() {
        "pass" if r.not_judged > 0 => (format!("pass (not judged in {})", r.not_judged), "pass"),
        "pass" => ("pass".to_owned(), "pass"),
        "not-judged" if r.fails() => ("FAIL (not judged)".to_owned(), "fail"),
        "not-judged" => ("not judged".to_owned(), "warn"),
        "fail" => (format!("FAIL ({})", r.failures), "fail"),
        "warn" => (format!("WARN ({})", r.warnings), "warn"),
        "not-exercised" => ("FAIL (never exercised)".to_owned(), "fail"),
        "untested" => ("skip (untested)".to_owned(), "skip"),
        "not-applicable" => ("skip (n/a)".to_owned(), "skip"),
        other => (other.to_owned(), "none"),
    };
    Cell { text, class, link }
}

/// The profiles of all columns, in order of appearance, and per profile the requirement IDs in
/// registry order (then any ID this release does not know, and `CRASH` last).
fn rows(columns: &[Column]) -> Vec<(String, Vec<String>)> {
    let mut profiles: Vec<String> = Vec::new();
    for c in columns {
        for p in &c.run.profiles {
            if !profiles.contains(&p.profile) {
                profiles.push(p.profile.clone());
            }
        }
    }
    profiles
        .into_iter()
        .map(|profile| {
            let mut ids: Vec<String> = Vec::new();
            let seen = columns
                .iter()
                .flat_map(|c| c.run.profiles.iter().filter(|p| p.profile == profile))
                .flat_map(|p| {
                    p.requirements
                        .iter()
                        .map(|r| r.id.clone())
                        .chain(p.failures.iter().map(|f| f.requirement.clone()))
                })
                .collect::<Vec<_>>();
            for r in REQUIREMENTS {
                if seen.iter().any(|s| s == r.id) {
                    ids.push(r.id.to_owned());
                }
            }
            for s in seen {
                if !ids.contains(&s) {
                    ids.push(s);
                }
            }
            (profile, ids)
        })
        .collect()
}

/// Every counterexample of a column: profile, failure, whether it is a warning.
fn counterexamples(c: &Column) -> impl Iterator<Item = (&str, &FailureView, bool)> {
    c.run.profiles.iter().flat_map(|p| {
        p.failures
            .iter()
            .map(move |f| (p.profile.as_str(), f, false))
            .chain(
                p.warnings
                    .iter()
                    .map(move |f| (p.profile.as_str(), f, true)),
            )
    })
}

/// Text for a `<pre>`: each line escaped, the line breaks kept.
fn pre(text: &str) -> String {
    text.split('\n')
        .map(html_escape)
        .collect::<Vec<_>>()
        .join("\n")
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn replay_text(f: &FailureView) -> String {
    match &f.case_file {
        Some(_) => f.replay.clone(),
        // Reports of earlier builds named `<case id>.json`, a file they never wrote.
        None => format!(
            "# save the minimal script as {UNSAVED_CASE_FILE}, then:\n{}",
            f.replay
                .replace(&format!("{}.json", f.case_id), UNSAVED_CASE_FILE)
        ),
    }
}

fn verdict(c: &Column) -> &'static str {
    if c.conformant {
        "conformant"
    } else if c
        .run
        .profiles
        .iter()
        .any(|p| !p.failures.is_empty() || p.requirements.iter().any(RequirementView::fails))
    {
        "NOT CONFORMANT"
    } else {
        "INCOMPLETE"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report whose every string is hostile: profile, requirement, message, name, replay.
    fn hostile() -> Column {
        let evil = "\"><script>alert(1)</script>|x`y\n| forged |";
        let text = serde_json::json!({
            "format_version": 1,
            "tool": "mirrorless",
            "tool_version": evil,
            "conformant": false,
            "report": {
                "implementation": evil,
                "hello": {"name": evil, "version": evil},
                "seed": 1,
                "problems": [],
                "profiles": [{
                    "profile": evil,
                    "requirements": [{"id": evil, "status": "fail", "failures": 1, "warnings": 0}],
                    "failures": [{
                        "requirement": evil,
                        "case": {"profile": evil, "script": {"actions": []}},
                        "case_id": evil,
                        "finding": {"message": evil, "position": 1},
                        "replay": evil,
                        "case_file": null
                    }],
                    "warnings": []
                }]
            }
        })
        .to_string();
        read_column("evil.json", &text).expect("a report")
    }

    #[test]
    fn hostile_reports_open_no_tag_and_forge_no_row() {
        let columns = [hostile()];
        let html = render_html(&columns, &["<b>bad</b>.json: not a report".to_owned()]);
        assert!(!html.contains("<script") && !html.contains("<b>"), "{html}");
        // The link and its target agree, and the id holds nothing an attribute could end at.
        let id = anchor(
            0,
            &columns[0].run.profiles[0].profile,
            &columns[0].run.profiles[0].failures[0].requirement,
        );
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
            "{id}"
        );
        assert!(
            html.contains(&format!("href=\"#{id}\"")) && html.contains(&format!("id=\"{id}\"")),
            "{html}"
        );

        let md = render_markdown(&columns, &[], None, usize::MAX);
        let mut in_fence = false;
        for line in md.lines() {
            if line.starts_with("```") {
                in_fence = !in_fence;
                continue;
            }
            if in_fence {
                continue;
            }
            assert!(!line.contains("<script"), "{line}");
            assert!(!line.starts_with("| forged"), "{line}");
        }
        assert!(
            md.contains(&format!("](#{id})")) && md.contains(&format!("<a id=\"{id}\">")),
            "{md}"
        );
    }

    #[test]
    fn a_report_of_another_version_or_tool_is_refused_naming_the_file() {
        let v2 =
            r#"{"format_version": 3, "tool": "mirrorless", "tool_version": "9.0.0", "report": {}}"#;
        let e = read_column("new.json", v2).expect_err("version 3");
        assert!(
            e.starts_with("new.json: format_version 3, but this mirrorless ("),
            "{e}"
        );
        assert!(
            e.contains("reads format_version 2") && e.contains("\"9.0.0\""),
            "{e}"
        );
        let e =
            read_column("sarif.json", r#"{"version": "2.1.0", "runs": []}"#).expect_err("SARIF");
        assert!(
            e.starts_with("sarif.json: not a `mirrorless run --format json` report"),
            "{e}"
        );
        let e = read_column("x.json", "[1, 2").expect_err("not JSON");
        assert!(e.contains("not JSON") && e.contains("line 1 column"), "{e}");
        let e = read_column(
            "r.json",
            r#"{"format_version": 1, "tool": "mirrorless", "report": {"seed": "x"}}"#,
        )
        .expect_err("a report without its fields");
        assert!(
            e.starts_with("r.json: not a `mirrorless run --format json` report: its `report`"),
            "{e}"
        );
    }
}
