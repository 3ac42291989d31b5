//! Walks `fixtures/check/`: every valid log passes, every invalid log fails exactly the
//! requirement its file name starts with, every bad-input file gives a located error; each
//! report is pinned with an insta file snapshot.

use mirrorless_conformance::Profile;
use mirrorless_conformance::check::{CheckOutcome, Finding, LogChecker, Severity};
use mirrorless_conformance::registry::REQUIREMENTS;
use std::collections::BTreeSet;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/check")
}

fn check_file(profile: Profile, path: &Path) -> CheckOutcome {
    let file = File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    LogChecker::check_reader(profile, BufReader::new(file))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn jsonl_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    files
}

/// A stable text rendering of a report for snapshots.
fn render(outcome: &CheckOutcome) -> String {
    let mut out = format!(
        "profile: {}\nevents: {}\nerrors: {}\nwarnings: {}\n",
        outcome.profile,
        outcome.events,
        outcome.error_count(),
        outcome.warning_count()
    );
    for f in &outcome.findings {
        out.push_str(&render_finding(f));
    }
    out
}

fn render_finding(f: &Finding) -> String {
    let sev = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut s = format!(
        "\n{sev}[{}] line {} seq {}: {}\n",
        f.requirement,
        f.line.map_or("-".into(), |l| l.to_string()),
        f.seq.map_or("-".into(), |l| l.to_string()),
        f.message
    );
    if let (Some(e), Some(o)) = (&f.expected, &f.observed) {
        s.push_str(&format!("  expected: {e}\n  observed: {o}\n"));
    }
    s
}

fn snapshot_name(profile: &str, kind: &str, path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
    format!("{profile}__{kind}__{stem}")
}

#[test]
fn valid_logs_conform_with_no_finding() {
    let mut seen = 0;
    for profile in Profile::ALL {
        let dir = fixtures().join(profile.name()).join("valid");
        for path in jsonl_files(&dir) {
            let outcome = check_file(profile, &path);
            assert!(
                outcome.findings.is_empty(),
                "{} should conform under {profile}:\n{}",
                path.display(),
                render(&outcome)
            );
            seen += 1;
        }
    }
    assert!(seen >= 10, "expected the valid fixtures, found {seen}");
}

#[test]
fn each_invalid_log_fails_exactly_its_rule() {
    let mut covered: BTreeSet<(Profile, String)> = BTreeSet::new();
    for profile in Profile::ALL {
        let dir = fixtures().join(profile.name()).join("invalid");
        for path in jsonl_files(&dir) {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            let id = REQUIREMENTS
                .iter()
                .map(|r| r.id)
                .filter(|id| stem.starts_with(&format!("{id}-")))
                .max_by_key(|id| id.len())
                .unwrap_or_else(|| panic!("{stem}: file name must start with a requirement ID"));
            let outcome = check_file(profile, &path);
            let got: BTreeSet<&str> = outcome.findings.iter().map(|f| f.requirement).collect();
            assert_eq!(
                got,
                BTreeSet::from([id]),
                "{} must fail exactly {id}:\n{}",
                path.display(),
                render(&outcome)
            );
            insta::assert_snapshot!(
                snapshot_name(profile.name(), "invalid", &path),
                render(&outcome)
            );
            covered.insert((profile, id.to_owned()));
        }
    }
    // Every requirement the checker enforces on a log alone has a violating fixture.
    use mirrorless_conformance::registry::Enforcement;
    for req in REQUIREMENTS {
        for profile in req.profiles() {
            if req.enforced_by(Enforcement::Log) && !["CHUNK-4", "CHUNK-5"].contains(&req.id) {
                assert!(
                    covered.contains(&(profile, req.id.to_owned())),
                    "no invalid fixture for {} under {profile}",
                    req.id
                );
            }
        }
    }
}

#[test]
fn bad_input_gives_located_errors() {
    let dir = fixtures().join("bad-input");
    for path in jsonl_files(&dir) {
        let outcome = check_file(Profile::V2026_08, &path);
        let name = path
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        if name == "header-only.jsonl" {
            assert!(outcome.conforms(), "a header-only log is an empty session");
        } else {
            assert!(!outcome.conforms(), "{name} must be rejected");
            assert!(
                outcome.findings.iter().all(|f| f.line.is_some()),
                "{name}: every finding names its line"
            );
        }
        insta::assert_snapshot!(
            snapshot_name("2026-08", "bad-input", &path),
            render(&outcome)
        );
    }
}

#[test]
fn invalid_utf8_is_reported_and_the_rest_is_checked() {
    let valid =
        std::fs::read(fixtures().join("2026-08/valid/text-turn-no-seq.jsonl")).expect("fixture");
    let mut lines: Vec<&[u8]> = valid.split(|b| *b == b'\n').collect();
    let bad: &[u8] = b"{\"type\":\"session/title\",\"data\":{\"title\":\"caf\xe9\"}}";
    lines.insert(3, bad);
    let log = lines.join(&b'\n');
    let outcome = LogChecker::check_reader(Profile::V2026_08, &log[..]).expect("in memory");
    let ids: Vec<&str> = outcome.findings.iter().map(|f| f.requirement).collect();
    assert_eq!(ids, ["LOG-2"], "{}", render(&outcome));
    assert_eq!(outcome.findings[0].line, Some(4));
    assert!(outcome.findings[0].message.contains("UTF-8"));
}

#[test]
fn very_long_lines_are_skipped_without_buffering() {
    let mut log = br#"{"type":"session","version":0,"id":"s"}
{"type":"turn/start","seq":0,"data":{"turn":1}}
{"type":"session/title","seq":1,"data":{"title":""#
        .to_vec();
    log.extend(std::iter::repeat_n(b'x', 5000));
    log.extend_from_slice(
        br#""}}
{"type":"turn/end","seq":2,"data":{"turn":1,"reason":{"kind":"completed"}}}
"#,
    );
    // Under the limit the line is fine.
    let ok = LogChecker::check_reader(Profile::V2026_08, &log[..]).expect("in memory");
    assert!(ok.findings.is_empty(), "{}", render(&ok));
    // Over a 1 KiB limit it is reported at its line and skipped; the rest is still checked.
    let capped =
        LogChecker::check_reader_with_limit(Profile::V2026_08, &log[..], 1024).expect("in memory");
    let got: Vec<(&str, Option<u64>)> = capped
        .findings
        .iter()
        .map(|f| (f.requirement, f.line))
        .collect();
    assert_eq!(got, [("LOG-2", Some(3))], "{}", render(&capped));
    assert!(capped.findings[0].message.contains("limit"));
}
