//! The JSON format (documented in `docs/lint/json.md`).

use crate::engine::Report;
use serde::ser::{Error as _, Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Value, json};

/// Version of the JSON document; bumped only on incompatible changes.
pub const JSON_VERSION: u32 = 1;

/// Renders the report as one pretty-printed JSON document.
pub fn render(report: &Report) -> String {
    serde_json::to_string_pretty(&Document(report))
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
        + "\n"
}

/// The document, serialized item by item: a list is never held as one JSON tree beside the
/// report (120 000 findings made that tree several times the size of the output). Keys are
/// in sorted order, as a `serde_json` map writes them.
struct Document<'a>(&'a Report);

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let report = self.0;
        let (errors, warnings, notes) = super::counts(report);
        let mut map = s.serialize_map(Some(6))?;
        map.serialize_entry("errors", &Items(&report.errors, true))?;
        map.serialize_entry("findings", &Items(&report.findings, true))?;
        map.serialize_entry("stale_baseline", &Items(&report.stale, false))?;
        map.serialize_entry(
            "summary",
            &json!({
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
            }),
        )?;
        map.serialize_entry(
            "tool",
            &json!({ "name": "mirrorless", "version": env!("CARGO_PKG_VERSION"), "spec_version": mirrorless_conformance::SPEC_VERSION }),
        )?;
        map.serialize_entry("version", &JSON_VERSION)?;
        map.end()
    }
}

/// A list whose items are turned into JSON one at a time; with `paths`, an item whose file
/// name is not UTF-8 also carries its exact bytes (`path_bytes`).
struct Items<'a, T>(&'a [T], bool);

impl<T: Serialize> Serialize for Items<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for item in self.0 {
            let mut v = serde_json::to_value(item).map_err(S::Error::custom)?;
            if self.1
                && let Some(bytes) = v["path"].as_str().and_then(super::path_bytes)
                && let Value::Object(m) = &mut v
            {
                m.insert("path_bytes".to_owned(), json!(bytes));
            }
            seq.serialize_element(&v)?;
        }
        seq.end()
    }
}
