//! The JSON format (documented in `docs/lint/json.md`).

use crate::engine::Report;
use serde_json::json;

/// Version of the JSON document; bumped only on incompatible changes.
pub const JSON_VERSION: u32 = 1;

/// Renders the report as one pretty-printed JSON document.
pub fn render(report: &Report) -> String {
    let (errors, warnings, notes) = super::counts(report);
    let mut doc = json!({
        "version": JSON_VERSION,
        "tool": { "name": "mirrorless", "version": env!("CARGO_PKG_VERSION"), "spec_version": mirrorless_conformance::SPEC_VERSION },
        "findings": report.findings,
        "errors": report.errors,
        "stale_baseline": report.stale,
        "summary": {
            "errors": errors,
            "warnings": warnings,
            "notes": notes,
            "files": report.stats.files,
            "candidates": report.stats.candidates,
            "declarations": report.stats.declarations,
            "suppressed": report.stats.suppressed,
            "baselined": report.stats.baselined,
            "preexisting": report.stats.preexisting,
            "file_errors": report.errors.len(),
        }
    });
    // A file name that is not UTF-8 also carries its exact bytes.
    for list in ["findings", "errors"] {
        if let Some(items) = doc[list].as_array_mut() {
            for item in items {
                if let Some(bytes) = item["path"].as_str().and_then(super::path_bytes) {
                    item["path_bytes"] = json!(bytes);
                }
            }
        }
    }
    serde_json::to_string_pretty(&doc).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}")) + "\n"
}
