//! Live-event traces: the fixtures under `fixtures/check/live/`, their conformance to the
//! documented JSON Schema, and the `check_live` API.

use mirrorless_conformance::Profile;
use mirrorless_conformance::check::{Severity, check_live, check_live_reader};
use mirrorless_conformance::registry::{Tier, requirement};
use mirrorless_conformance::vocab::live::LiveEmit;
use serde_json::Value;
use std::collections::BTreeSet;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn traces(profile: Profile, kind: &str) -> Vec<PathBuf> {
    let dir = root()
        .join("fixtures/check/live")
        .join(profile.name())
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    files
}

fn check(profile: Profile, path: &Path) -> Vec<mirrorless_conformance::check::Finding> {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    check_live_reader(profile, BufReader::new(file))
        .expect("readable")
        .findings
}

#[test]
fn valid_traces_pass_and_each_invalid_trace_fails_exactly_its_rule() {
    let mut count = 0;
    for profile in Profile::ALL {
        for path in traces(profile, "valid") {
            let findings = check(profile, &path);
            assert!(findings.is_empty(), "{}: {findings:?}", path.display());
        }
        for path in traces(profile, "invalid") {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            let id: String = stem.split('-').take(2).collect::<Vec<_>>().join("-");
            let findings = check(profile, &path);
            let got: BTreeSet<&str> = findings.iter().map(|f| f.requirement).collect();
            assert_eq!(got, BTreeSet::from([id.as_str()]), "{}", path.display());
            assert!(findings.iter().all(|f| f.line.is_some()));
            // A SHOULD (LIVE-2, LIVE-9) is a warning, a MUST an error.
            let tier = requirement(&id)
                .and_then(|r| r.tier(profile))
                .unwrap_or_else(|| panic!("{id} applies under {profile}"));
            let expected_severity = match tier {
                Tier::Should => Severity::Warning,
                Tier::Must => Severity::Error,
            };
            assert!(findings.iter().all(|f| f.severity == expected_severity));
            count += 1;
        }
    }
    assert_eq!(
        count, 31,
        "six mirrors and LIVE-1 … LIVE-9 per profile, and LIVE-6 against the turns a 2026-08 trace records"
    );
}

/// A minimal JSON Schema check: `type`, `required`, `additionalProperties: false`,
/// `minLength`, `minimum` — the keywords the live-trace schema uses.
fn conforms(schema: &Value, value: &Value) -> Result<(), String> {
    if let Some(t) = schema.get("type").and_then(Value::as_str) {
        let ok = match t {
            "object" => value.is_object(),
            "string" => value.is_string(),
            "integer" => value.is_u64() || value.is_i64(),
            other => return Err(format!("schema type {other} not handled by the test")),
        };
        if !ok {
            return Err(format!("{value} is not a {t}"));
        }
    }
    if let Some(min) = schema.get("minLength").and_then(Value::as_u64)
        && value
            .as_str()
            .is_some_and(|s| (s.chars().count() as u64) < min)
    {
        return Err(format!("{value} is shorter than {min}"));
    }
    if let Some(min) = schema.get("minimum").and_then(Value::as_i64)
        && value.as_i64().is_some_and(|n| n < min)
    {
        return Err(format!("{value} is below {min}"));
    }
    if let Some(obj) = value.as_object() {
        let props = schema.get("properties").and_then(Value::as_object);
        for req in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let key = req.as_str().unwrap_or_default();
            if !obj.contains_key(key) {
                return Err(format!("missing required `{key}`"));
            }
        }
        for (k, v) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(sub) => conforms(sub, v).map_err(|e| format!("{k}: {e}"))?,
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    return Err(format!("unexpected key `{k}`"));
                }
                None => {}
            }
        }
    }
    Ok(())
}

#[test]
fn every_fixture_trace_line_matches_the_documented_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("docs/schemas/live-trace.schema.json"))
            .expect("schema file"),
    )
    .expect("schema is JSON");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    // The schema rejects what it should (so the validator can fail).
    assert!(conforms(&schema, &serde_json::json!({"agent": "a"})).is_err());
    assert!(conforms(&schema, &serde_json::json!({"event": "x", "at": -1})).is_err());
    assert!(conforms(&schema, &serde_json::json!({"event": "x", "extra": 1})).is_err());
    let mut lines = 0;
    for profile in Profile::ALL {
        for kind in ["valid", "invalid"] {
            for path in traces(profile, kind) {
                let text = std::fs::read_to_string(&path).expect("trace");
                for (i, line) in text.lines().enumerate() {
                    let value: Value = serde_json::from_str(line).expect("JSON line");
                    conforms(&schema, &value)
                        .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1));
                    // and the record type reads it
                    serde_json::from_value::<LiveEmit>(value).expect("LiveEmit");
                    lines += 1;
                }
            }
        }
    }
    assert!(lines > 100, "{lines} lines checked");
}

#[test]
fn check_live_api_reports_mirrors_and_status_sequences() {
    let emit = |event: &str, data: Value| LiveEmit {
        event: event.to_owned(),
        agent: Some("a".to_owned()),
        data,
        at: None,
    };
    let trace = [
        emit("agent/created", Value::Null),
        emit(
            "agent/session-start",
            serde_json::json!({"source": "startup"}),
        ),
        emit("agent/status", serde_json::json!({"status": "running"})),
        emit("agent/turn-start", serde_json::json!({"turn": 1})),
        emit("agent/status", serde_json::json!({"status": "disposed"})),
    ];
    let ids: Vec<&str> = check_live(Profile::V2026_08, &trace)
        .iter()
        .map(|f| f.requirement)
        .collect();
    // turn-start is a removed mirror; `disposed` is not a 2026-08 status
    assert_eq!(ids, ["MIRROR-3", "LIVE-1"]);
    let trace_m = [
        emit("agent/created", Value::Null),
        emit("agent/status", serde_json::json!({"status": "disposed"})),
        emit("agent/status", serde_json::json!({"status": "idle"})),
    ];
    let ids: Vec<&str> = check_live(Profile::V2026_07, &trace_m)
        .iter()
        .map(|f| f.requirement)
        .collect();
    assert_eq!(ids, ["LIVE-1"], "nothing may follow `disposed`");
}

#[test]
fn malformed_trace_lines_are_located() {
    let trace = b"{\"event\":\"agent/status\",\"data\":{\"status\":\"idle\"}}\nnot json\n{\"agent\":\"a\"}\n";
    let outcome = check_live_reader(Profile::V2026_08, &trace[..]).expect("in memory");
    assert_eq!((outcome.lines, outcome.emits), (3, 1));
    let findings = outcome.findings;
    let got: Vec<(&str, Option<u64>)> = findings
        .iter()
        .filter(|f| f.requirement == "LOG-2")
        .map(|f| (f.requirement, f.line))
        .collect();
    assert_eq!(got, [("LOG-2", Some(2)), ("LOG-2", Some(3))]);
}
