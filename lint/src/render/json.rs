//! The JSON format (documented in `docs/lint/json.md`).

use crate::engine::Report;
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};

/// Version of the JSON document; bumped only on incompatible changes.
pub const JSON_VERSION: u32 = 1;

/// Renders the report as one pretty-printed JSON document.
///
/// The document is written as `serde_json`'s pretty printer writes it (two spaces an indent,
/// keys sorted as a `serde_json` map sorts them), item by item: each item of a list is turned
/// into JSON on its own, on every core (issue 32 item 1: rendering 182 findings cost a run
/// more than reading its tree), and indented for its place. A JSON string holds no raw line
/// break, so indenting every line of an item's text indents exactly its structure.
/// `json::tests` checks the document against `serde_json`'s own serialization of it.
pub fn render(report: &Report) -> String {
    match document(report) {
        Ok(text) => text + "\n",
        Err(e) => format!("{{\"error\": \"{e}\"}}") + "\n",
    }
}

/// Items turned into JSON per task: enough to spread them over the cores, few enough that
/// the texts held at once stay a fraction of the document.
const CHUNK: usize = 1024;

/// The report's `summary` object: its counts, by severity and of the run.
fn summary(report: &Report) -> serde_json::Value {
    let (errors, warnings, notes) = super::counts(report);
    json!({
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
    })
}

fn document(report: &Report) -> Result<String, serde_json::Error> {
    let summary = summary(report);
    let tool = json!({ "name": "mirrorless", "version": env!("CARGO_PKG_VERSION"), "spec_version": mirrorless_conformance::SPEC_VERSION });
    let mut out = String::from("{\n  \"errors\": ");
    items(&mut out, &report.errors, true)?;
    out.push_str(",\n  \"findings\": ");
    items(&mut out, &report.findings, true)?;
    out.push_str(",\n  \"stale_baseline\": ");
    items(&mut out, &report.stale, false)?;
    out.push_str(",\n  \"summary\": ");
    indented(&mut out, &serde_json::to_string_pretty(&summary)?, "  ");
    out.push_str(",\n  \"tool\": ");
    indented(&mut out, &serde_json::to_string_pretty(&tool)?, "  ");
    out.push_str(",\n  \"version\": ");
    out.push_str(&JSON_VERSION.to_string());
    out.push_str("\n}");
    Ok(out)
}

/// `text` appended with `indent` after each of its line breaks.
fn indented(out: &mut String, text: &str, indent: &str) {
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(indent);
        }
        out.push_str(line);
    }
}

/// A list of the document (at the first level of its object), its items turned into JSON
/// one at a time; with `paths`, an item whose file name is not UTF-8 also carries its exact
/// bytes (`path_bytes`).
fn items<T: Serialize + Sync>(
    out: &mut String,
    list: &[T],
    paths: bool,
) -> Result<(), serde_json::Error> {
    if list.is_empty() {
        out.push_str("[]");
        return Ok(());
    }
    out.push('[');
    for (c, chunk) in list.chunks(CHUNK).enumerate() {
        let texts: Vec<Result<String, serde_json::Error>> = chunk
            .par_iter()
            .map(|item| {
                let mut v = serde_json::to_value(item)?;
                if paths
                    && let Some(bytes) = v["path"].as_str().and_then(super::path_bytes)
                    && let Value::Object(m) = &mut v
                {
                    m.insert("path_bytes".to_owned(), json!(bytes));
                }
                serde_json::to_string_pretty(&v)
            })
            .collect();
        for (i, text) in texts.into_iter().enumerate() {
            if c > 0 || i > 0 {
                out.push(',');
            }
            out.push_str("\n    ");
            indented(out, &text?, "    ");
        }
    }
    out.push_str("\n  ]");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::ser::{Error as _, SerializeMap, SerializeSeq, Serializer};

    /// `serde_json`'s serialization of the document: what [`render`] must write, byte for byte.
    fn reference(report: &Report) -> String {
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
            let mut map = s.serialize_map(Some(6))?;
            map.serialize_entry("errors", &Items(&report.errors, true))?;
            map.serialize_entry("findings", &Items(&report.findings, true))?;
            map.serialize_entry("stale_baseline", &Items(&report.stale, false))?;
            map.serialize_entry("summary", &summary(report))?;
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
                    && let Some(bytes) = v["path"].as_str().and_then(crate::render::path_bytes)
                    && let Value::Object(m) = &mut v
                {
                    m.insert("path_bytes".to_owned(), json!(bytes));
                }
                seq.serialize_element(&v)?;
            }
            seq.end()
        }
    }

    /// Issue 32 item 1: the document written item by item is the one `serde_json` writes, for
    /// the reports of the lint fixtures (findings with fixes and notes, human parts, errors),
    /// with a file name that is not UTF-8, and for lists longer than a chunk.
    #[test]
    fn the_document_is_the_one_serde_json_writes() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/lint");
        let mut findings = 0;
        for dir in ["ts", "rust", "md", "fix"] {
            let opts = crate::Options {
                paths: vec![root.join(dir)],
                ..crate::Options::default()
            };
            let mut report = crate::lint(&opts);
            findings += report.findings.len();
            assert_eq!(render(&report), reference(&report), "{dir}");
            if let Some(f) = report.findings.first_mut() {
                f.path = "bad\\xff\u{9b}name.ts".to_owned();
            }
            let many: Vec<_> = report
                .findings
                .iter()
                .cycle()
                .take(2 * CHUNK + 3)
                .cloned()
                .collect();
            report.findings = many;
            assert_eq!(render(&report), reference(&report), "{dir}, many");
            report.findings.clear();
            assert_eq!(render(&report), reference(&report), "{dir}, none");
        }
        assert!(findings > 100, "{findings}");
    }
}
