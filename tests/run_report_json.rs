//! `mirrorless run --format json` is a stable, versioned format: real reports (the reference
//! implementation, conformant; a broken stdio fixture, failing) validate against
//! `docs/run/report.schema.json`, and the schema refuses what is not such a report.

use crate::common;

use mirrorless_conformance::stdio::schema::Validator;
use serde_json::Value;
use std::path::Path;

const SCHEMA: &str = "report.schema.json";

fn validator() -> Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/run")
        .join(SCHEMA);
    let text = std::fs::read_to_string(&path).expect("the schema exists");
    Validator::from_files([(SCHEMA.to_owned(), text)]).expect("the schema uses supported keywords")
}

/// The JSON report of `mirrorless run` with `args` (a small CI run, no corpus).
fn report(args: &[&str]) -> Value {
    let mut all = vec![
        "run",
        "--ci",
        "--no-corpus",
        "--cases",
        "24",
        "--format",
        "json",
    ];
    all.extend_from_slice(args);
    let out = common::mirrorless(&all);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the report is JSON")
}

#[test]
fn real_reports_validate_against_the_schema() {
    let v = validator();
    let reference = report(&[]);
    v.validate(SCHEMA, "#", &reference)
        .expect("the reference report validates");
    assert_eq!(reference["format_version"], 2);
    assert_eq!(reference["conformant"], true);
    assert_eq!(reference["report"]["hello"]["name"], "reference (embedded)");
    assert_eq!(
        reference["report"]["hello"]["version"],
        env!("CARGO_PKG_VERSION")
    );

    let broken = report(&[
        "--",
        "python3",
        "fixtures/impls/broken-stdio/CHUNK-1-coalescer.py",
    ]);
    v.validate(SCHEMA, "#", &broken)
        .expect("the broken fixture's report validates");
    assert_eq!(broken["conformant"], false);
    // The identity of its `hello`, as the fixture says it.
    assert_eq!(broken["report"]["hello"]["name"], "broken-coalescer");
    assert_eq!(broken["report"]["hello"]["version"], "1.0.0");
    let failures = broken["report"]["profiles"][0]["failures"]
        .as_array()
        .expect("failures");
    assert!(!failures.is_empty(), "the fixture fails CHUNK-1");

    // The schema is not vacuous: what is not such a report is refused.
    let mut wrong_version = broken.clone();
    wrong_version["format_version"] = 3.into();
    assert!(v.validate(SCHEMA, "#", &wrong_version).is_err());
    let mut bad_status = broken.clone();
    bad_status["report"]["profiles"][0]["requirements"][0]["status"] = "flaky".into();
    assert!(v.validate(SCHEMA, "#", &bad_status).is_err());
    let mut undocumented = broken;
    undocumented["report"]["profiles"][0]["failures"][0]["new_field"] = 1.into();
    let err = v
        .validate(SCHEMA, "#", &undocumented)
        .expect_err("a field the schema does not list");
    assert!(err.contains("new_field"), "{err}");
}

/// An implementation that never answers its `hello` still gets a report that validates: no
/// profile, not conformant, its one problem the startup error with the implementation's own
/// stderr, so that `mirrorless report` can say why its column has no verdict.
#[test]
fn an_implementation_that_never_starts_gets_a_valid_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let dead = dir.path().join("dead.py");
    std::fs::write(
        &dead,
        "import sys\nsys.stderr.write('ImportError: cannot import name X\\n')\nsys.exit(3)\n",
    )
    .expect("write");
    let out = common::mirrorless(&[
        "run",
        "--ci",
        "--no-corpus",
        "--format",
        "json",
        "--",
        "python3",
        dead.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(2), "a harness error, as before");
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    validator()
        .validate(SCHEMA, "#", &report)
        .expect("the report of a run that never started validates");
    assert_eq!(report["conformant"], false);
    assert_eq!(report["report"]["profiles"], serde_json::json!([]));
    let problems = report["report"]["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), 1, "{problems:?}");
    let problem = problems[0].as_str().expect("a string");
    assert!(problem.contains("hello"), "{problem}");
    assert!(
        problem.contains("ImportError: cannot import name X"),
        "{problem}"
    );
}
