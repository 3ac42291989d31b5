//! The JSON document checked against `serde_json`'s serialization of the report's values (the
//! way it was written before issue 32 item 1, kept here as the reference).

use super::{CHUNK, PIECE, render};
use crate::baseline::Entry;
use crate::engine::Report;
use crate::model::{Applicability, Edit, FileError, Finding, Fix, LineReplacement, Severity};
use serde::Serialize;
use serde::ser::{Error as _, SerializeMap, SerializeSeq, Serializer};
use serde_json::{Value, json};

/// `serde_json`'s serialization of the document: what [`render`] must write, byte for byte.
fn reference(report: &Report) -> String {
    serde_json::to_string_pretty(&Document(report))
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
        + "\n"
}

/// The document as it was built before issue 32 item 1: every item turned into a
/// `serde_json::Value` by the model's own `Serialize` (a map, which sorts the keys), the
/// `summary` and `tool` objects as `json!` values.
struct Document<'a>(&'a Report);

impl Serialize for Document<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let report = self.0;
        let (errors, warnings, notes) = crate::render::counts(report);
        let summary = json!({
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
        });
        let tool = json!({ "name": "mirrorless", "version": env!("CARGO_PKG_VERSION"), "spec_version": mirrorless_conformance::SPEC_VERSION });
        let mut map = s.serialize_map(Some(6))?;
        map.serialize_entry("errors", &Items(&report.errors, true))?;
        map.serialize_entry("findings", &Items(&report.findings, true))?;
        map.serialize_entry("stale_baseline", &Items(&report.stale, false))?;
        map.serialize_entry("summary", &summary)?;
        map.serialize_entry("tool", &tool)?;
        map.serialize_entry("version", &super::JSON_VERSION)?;
        map.end()
    }
}

/// A list whose items are turned into `Value`s one at a time; with `paths`, an item whose file
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

/// Every object's keys in `document` are in strictly increasing byte order (the order of a
/// `serde_json` map): each line `"key": …` is compared with the key before it in its object.
fn assert_keys_sorted(document: &str) {
    let mut last: Vec<Option<String>> = Vec::new();
    for line in document.lines() {
        let text = line.trim_start();
        let depth = line.len() - text.len();
        if last.len() <= depth + 2 {
            last.resize(depth + 3, None);
        }
        if text.starts_with('"')
            && let Some(Ok(key)) = serde_json::Deserializer::from_str(text)
                .into_iter::<String>()
                .next()
            && text[serde_json::to_string(&key).map_or(0, |k| k.len())..].starts_with(": ")
        {
            if let Some(before) = &last[depth] {
                assert!(before < &key, "{before:?} before {key:?} in {document}");
            }
            last[depth] = Some(key);
        }
        if text.ends_with('{') {
            last[depth + 2] = None;
        }
    }
}

/// Issue 32 item 1: the document written item by item is the one `serde_json` writes, for
/// the reports of the lint fixtures (findings with fixes and notes, human parts, errors),
/// with a file name that is not UTF-8, and for lists longer than a piece and a chunk.
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
            .take(CHUNK + PIECE + 3)
            .cloned()
            .collect();
        report.findings = many;
        assert_eq!(render(&report), reference(&report), "{dir}, many");
        report.findings.clear();
        assert_eq!(render(&report), reference(&report), "{dir}, none");
    }
    assert!(findings > 100, "{findings}");
}

/// A small deterministic generator (xorshift).
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn coin(&mut self) -> bool {
        self.below(2) == 0
    }

    /// A text of pieces: empty, ASCII, unicode, C0 and C1 controls, DEL, a line separator,
    /// quotes, backslashes, escapes of non-UTF-8 bytes (valid and not), an emoji.
    fn text(&mut self) -> String {
        const PIECES: [&str; 16] = [
            "a",
            "src/x.ts",
            "é",
            "\u{9b}",
            "\u{1b}[31m",
            "\n\t\r",
            "\"",
            "\\",
            "\\xff",
            "\\x",
            "\\\\",
            "😀",
            "\u{2028}",
            "\u{7f}",
            "\0",
            "agent/turn-start",
        ];
        (0..self.below(5))
            .map(|_| PIECES[self.below(PIECES.len())])
            .collect()
    }

    fn option<T>(&mut self, f: impl FnOnce(&mut Gen) -> T) -> Option<T> {
        if self.coin() { Some(f(self)) } else { None }
    }

    fn finding(&mut self) -> Finding {
        let fix = self.option(|g| {
            let edits = (0..g.below(4))
                .map(|_| {
                    let mut e = Edit::new(g.below(1000), g.below(1000), g.text());
                    e.range.line = g.below(100);
                    e.range.column = g.below(100);
                    e.range.end_line = g.below(100);
                    e.range.end_column = g.below(100);
                    e.range.byte_column = g.below(100);
                    e.range.end_byte_column = usize::MAX - g.below(3);
                    e
                })
                .collect();
            let applicability = if g.coin() {
                Applicability::MachineApplicable
            } else {
                Applicability::Suggestion
            };
            let mut fix = Fix::new(applicability, g.text(), edits);
            fix.lines = g.option(|g| LineReplacement {
                line: g.below(50),
                end_line: g.below(50),
                text: g.text(),
            });
            fix.deletes = vec![g.text()];
            fix
        });
        let severity = [Severity::Error, Severity::Warning, Severity::Note][self.below(3)];
        Finding {
            rule: ["ML001", "ML009", ""][self.below(3)],
            rule_name: ["subscribe", "unparsed", "é\u{9b}"][self.below(3)],
            severity,
            event: self.option(Gen::text),
            path: self.text(),
            line: self.below(10_000),
            column: self.below(200),
            end_line: self.below(10_000),
            end_column: self.below(200),
            message: self.text(),
            help: self.text(),
            note: self.option(Gen::text),
            fingerprint: self.text(),
            line_text: self.text(),
            line_text_column: self.below(5),
            line_text_byte_column: self.below(5),
            fix,
            human: self.coin(),
        }
    }

    fn report(&mut self) -> Report {
        let len = |g: &mut Gen| if g.below(6) == 0 { 0 } else { g.below(6) };
        let mut report = Report::default();
        let findings = match self.below(60) {
            0 => PIECE + self.below(2 * PIECE),
            1 => CHUNK + self.below(PIECE),
            _ => len(self),
        };
        report.findings = (0..findings).map(|_| self.finding()).collect();
        report.errors = (0..len(self))
            .map(|_| FileError {
                path: self.text(),
                line: self.option(|g| g.below(1000)),
                message: self.text(),
            })
            .collect();
        report.stale = (0..len(self))
            .map(|_| Entry {
                rule: self.text(),
                event: self.option(Gen::text),
                path: self.text(),
                fingerprint: self.text(),
                line: self.below(1000),
                message: self.text(),
            })
            .collect();
        let stats = &mut report.stats;
        stats.files = self.below(100_000);
        stats.candidates = self.below(100);
        stats.declarations = self.below(100);
        stats.suppressed = self.below(100);
        stats.baselined = self.below(100);
        stats.preexisting = self.below(100);
        report
    }
}

/// Issue 32 item 1 (the JSON document without `Value`s, byte for byte the document before):
/// on generated reports — findings with every optional field (event, note, fix, a fix's
/// lines, the human flag) set and unset, fixes of no edit and several, file names that are
/// not UTF-8 (`path_bytes`) or hold controls, quotes, backslashes and other characters, empty
/// lists, file errors with and without a line, stale baseline entries with and without an
/// event, lists longer than a piece and than a chunk — the document is the one built from the
/// model's `Value`s, every object's keys are sorted, and the escaping of controls
/// (`json_controls_escaped`) leaves the same text.
#[test]
fn generated_reports_render_as_their_values_do() {
    let mut g = Gen(0x9E37_79B9_7F4A_7C15);
    let (mut optional, mut bytes, mut empty, mut long) = (0, 0, 0, 0);
    for _ in 0..300 {
        let report = g.report();
        let text = render(&report);
        let expected = reference(&report);
        assert_eq!(text, expected);
        assert_keys_sorted(&text);
        assert_eq!(
            crate::render::render(&report, crate::render::Format::Json, false),
            crate::render::json_controls_escaped(expected)
        );
        optional += report
            .findings
            .iter()
            .filter(|f| {
                f.note.is_some() && f.human && f.fix.as_ref().is_some_and(|x| x.lines.is_some())
            })
            .count();
        bytes += usize::from(text.contains("\"path_bytes\""));
        empty += usize::from(text.contains("\"findings\": []"));
        long += usize::from(report.findings.len() > PIECE);
    }
    assert!(
        optional > 20 && bytes > 50 && empty > 10 && long > 3,
        "{optional} {bytes} {empty} {long}"
    );
}

/// The key-order check can fail: an object whose keys are out of order is refused, at any
/// depth.
#[test]
#[should_panic(expected = "before")]
fn the_key_check_refuses_unsorted_keys() {
    assert_keys_sorted(
        "{\n  \"a\": {\n    \"b\": 1,\n    \"c\": [\n      {\n        \"e\": 1,\n        \"d\": 2\n      }\n    ]\n  }\n}",
    );
}

/// Issue 32 item 1 (the findings written without `serde`): each generated finding — every
/// optional field set and unset, texts with controls, quotes, backslashes and characters
/// beyond ASCII, file names that are not UTF-8 — is written by `direct::finding` as its
/// `serde` view writes it, at any depth of a document.
#[test]
fn a_finding_is_written_as_its_serde_view_writes_it() {
    let mut g = Gen(0x0dd_ba11_5eed);
    for n in 0..2000 {
        let f = g.finding();
        let depth = n % 4;
        let mut direct = Vec::new();
        super::direct::finding(&mut direct, &f, depth);
        let mut view = Vec::new();
        super::value(&mut view, &super::sorted::FindingJson(&f), depth).expect("serializes");
        assert_eq!(
            String::from_utf8_lossy(&direct),
            String::from_utf8_lossy(&view),
            "{f:?}"
        );
    }
}
