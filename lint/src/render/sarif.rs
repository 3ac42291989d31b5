//! SARIF 2.1.0 for GitHub code scanning: `rules[]` with help, character columns, and a
//! namespaced content fingerprint (GitHub computes its own `primaryLocationLineHash`).

use crate::engine::Report;
use crate::model::{Fix, Severity};
use crate::rules::{self, RULES};
use serde_json::{Value, json};

/// The key under `partialFingerprints` holding our fingerprint.
pub const FINGERPRINT_KEY: &str = "mirrorless/v1";

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// A relative path is relative to the source root (`%SRCROOT%`, what GitHub expects); an
/// absolute one becomes a `file://` URI.
fn artifact(path: &str) -> Value {
    let encoded = path.replace('%', "%25").replace(' ', "%20");
    if path.starts_with('/') {
        json!({ "uri": format!("file://{encoded}") })
    } else {
        json!({ "uri": encoded, "uriBaseId": "%SRCROOT%" })
    }
}

/// A SARIF `fix`: one `artifactChange` with a `replacement` per edit (regions in the run's
/// `unicodeCodePoints` columns), the applicability as a property.
fn sarif_fix(path: &str, fix: &Fix) -> Value {
    let replacements: Vec<Value> = fix
        .edits
        .iter()
        .map(|e| {
            json!({
                "deletedRegion": {
                    "startLine": e.range.line,
                    "startColumn": e.range.column,
                    "endLine": e.range.end_line,
                    "endColumn": e.range.end_column,
                },
                "insertedContent": { "text": e.replacement },
            })
        })
        .collect();
    json!({
        "description": { "text": fix.message },
        "artifactChanges": [{
            "artifactLocation": artifact(path),
            "replacements": replacements,
        }],
        "properties": { "applicability": fix.applicability },
    })
}

/// Renders the report as a SARIF log with one run.
pub fn render(report: &Report) -> String {
    let rule_objs: Vec<Value> = RULES
        .iter()
        .map(|r| {
            let url = rules::doc_url(r);
            json!({
                "id": r.id,
                "name": r.name,
                "shortDescription": { "text": r.summary },
                "fullDescription": { "text": r.explanation.trim().replace('\n', " ") },
                "help": {
                    "text": format!("{} See {url}", r.explanation.trim().replace('\n', " ")),
                    "markdown": format!("{}\n\n[Rule documentation]({url})", r.page()),
                },
                "helpUri": url,
                "defaultConfiguration": { "level": level(r.default_severity) },
                "properties": { "tags": ["migration", "removed-event"], "precision": "high" },
            })
        })
        .collect();
    let results: Vec<Value> = report
        .findings
        .iter()
        .map(|f| {
            let index = RULES.iter().position(|r| r.id == f.rule).unwrap_or(0);
            let mut text = format!("{}. {}", f.message, f.help);
            if let Some(n) = &f.note {
                text.push_str(&format!(" ({n})"));
            }
            let mut props = json!({ "rule_name": f.rule_name });
            if let Some(ev) = &f.event {
                props["event"] = json!(ev);
            }
            let mut result = json!({
                "ruleId": f.rule,
                "ruleIndex": index,
                "level": level(f.severity),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": artifact(&f.path),
                        "region": {
                            "startLine": f.line,
                            "startColumn": f.column,
                            "endLine": f.end_line,
                            "endColumn": f.end_column,
                        }
                    }
                }],
                "partialFingerprints": { FINGERPRINT_KEY: f.fingerprint },
                "properties": props,
            });
            if let Some(fix) = &f.fix {
                result["fixes"] = json!([sarif_fix(&f.path, fix)]);
            }
            result
        })
        .collect();
    let notifications: Vec<Value> = report
        .errors
        .iter()
        .map(|e| {
            json!({
                "level": "error",
                "message": { "text": e.to_string() },
                "locations": [{ "physicalLocation": { "artifactLocation": artifact(&e.path) } }],
            })
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "mirrorless",
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "informationUri": env!("CARGO_PKG_REPOSITORY"),
                    "rules": rule_objs,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
            "invocations": [{
                "executionSuccessful": report.errors.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
        }]
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}
