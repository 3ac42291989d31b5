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

#[test]
fn extreme_numbers_do_not_panic() {
    let max = u64::MAX;
    let log = format!(
        r#"{{"type":"session","version":0,"id":"s"}}
{{"type":"turn/start","seq":{max},"data":{{"turn":{max}}}}}
{{"type":"step/start","seq":{max},"data":{{"turn":{max},"step":{max}}}}}
{{"type":"text-chunks","seq0":{max},"time0":1,"data":{{"turn":{max},"step":{max},"index":4294967295,"dt":[1,1],"texts":["a","b","c"]}}}}
{{"type":"assistant/message","seq":{max},"data":{{"turn":{max},"step":{max},"content":[]}},"surfaceOp":"append","sourceEventSeqs":[[0,{max}]]}}
{{"type":"turn/end","seq":1e400,"data":{{"turn":-1,"reason":{{"kind":"completed"}}}}}}
"#
    );
    let outcome = LogChecker::check_reader(Profile::V2026_08, log.as_bytes()).expect("in memory");
    assert!(!outcome.conforms());
    assert!(outcome.findings.iter().all(|f| f.line.is_some()));
}

/// A small deterministic generator (no test dependency on randomness).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

fn valid_fixture_logs() -> Vec<(Profile, PathBuf, Vec<Vec<u8>>)> {
    let mut out = Vec::new();
    let upstream = fixtures().join("2026-08/upstream");
    let mut recorded: Vec<(Profile, PathBuf)> = std::fs::read_dir(&upstream)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path().join("session.jsonl")))
                .filter(|p| p.exists())
                .map(|p| (Profile::V2026_08, p))
                .collect()
        })
        .unwrap_or_default();
    recorded.sort();
    for profile in Profile::ALL {
        let mut paths: Vec<PathBuf> = jsonl_files(&fixtures().join(profile.name()).join("valid"));
        paths.extend(
            recorded
                .iter()
                .filter(|(p, _)| *p == profile)
                .map(|(_, path)| path.clone()),
        );
        for path in paths {
            let bytes = std::fs::read(&path).expect("fixture");
            let lines: Vec<Vec<u8>> = bytes
                .split(|b| *b == b'\n')
                .filter(|l| !l.is_empty())
                .map(<[u8]>::to_vec)
                .collect();
            out.push((profile, path, lines));
        }
    }
    out
}

#[test]
fn random_damage_never_panics_and_findings_are_located() {
    let mut rng = Lcg(0x5eed);
    for (profile, _path, lines) in valid_fixture_logs() {
        for _ in 0..150 {
            let mut damaged = lines.clone();
            for _ in 0..=rng.next(3) {
                let i = rng.next(damaged.len());
                match rng.next(6) {
                    0 => {
                        damaged.remove(i);
                    }
                    1 => damaged.insert(i, damaged[i].clone()),
                    2 => {
                        let j = rng.next(damaged.len());
                        damaged.swap(i, j);
                    }
                    3 => {
                        let line = &mut damaged[i];
                        let k = rng.next(line.len());
                        line[k] = line[k].wrapping_add(1 + rng.next(200) as u8);
                    }
                    4 => {
                        let line = &mut damaged[i];
                        let k = rng.next(line.len());
                        line.truncate(k);
                    }
                    _ => damaged.insert(i, b"\xff\xfe{not json".to_vec()),
                }
                if damaged.is_empty() {
                    break;
                }
            }
            let log = damaged.join(&b'\n');
            let outcome = LogChecker::check_reader(profile, &log[..]).expect("in memory");
            assert!(outcome.findings.iter().all(|f| f.line.is_some()));
        }
    }
}

/// The damage the acceptance corpus applies to real logs, on every valid fixture: each
/// damaged copy must be rejected.
#[test]
fn structural_damage_is_always_rejected() {
    let kind_of = |line: &[u8]| -> String {
        serde_json::from_slice::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_owned))
            .unwrap_or_default()
    };
    let mut checked = 0;
    for (profile, path, lines) in valid_fixture_logs() {
        let mut copies: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
        for (i, line) in lines.iter().enumerate().skip(1) {
            let kind = kind_of(line);
            if kind == "step/end" || kind == "turn/end" {
                let mut d = lines.clone();
                d.remove(i);
                copies.push((format!("drop {kind} at line {}", i + 1), d));
            }
            if kind == "assistant/chunk" {
                for field in ["turn", "step"] {
                    let mut v: serde_json::Value = serde_json::from_slice(line).expect("json");
                    let n = v["data"][field].as_u64().expect("number");
                    v["data"][field] = (n + 1).into();
                    let mut d = lines.clone();
                    d[i] = serde_json::to_vec(&v).expect("json");
                    copies.push((format!("wrong {field} at line {}", i + 1), d));
                }
            }
            if kind == "step/start" {
                // nest: repeat the step/start just before the step's last event
                if let Some(end) = (i + 1..lines.len()).find(|&j| kind_of(&lines[j]) == "step/end")
                    && end > i + 1
                {
                    let mut d = lines.clone();
                    d.insert(end - 1, line.clone());
                    copies.push((format!("nested step/start from line {}", i + 1), d));
                }
            }
        }
        for (what, damaged) in copies {
            let log = damaged.join(&b'\n');
            let outcome = LogChecker::check_reader(profile, &log[..]).expect("in memory");
            assert!(
                !outcome.conforms(),
                "{} under {profile}: {what} was not rejected",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} damaged copies");
}

/// The logs the real upstream loop recorded (`fixtures/check/2026-08/upstream/`) are
/// must-accept: the checker may not contradict the implementation the protocol comes from.
/// Also checked with `seq`/`time` stripped, as committed upstream fixtures store them.
#[test]
fn upstream_recordings_conform() {
    use mirrorless_conformance::check::check_live_reader;
    let root = fixtures().join("2026-08/upstream");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 20, "{} recordings", dirs.len());
    for dir in dirs {
        for name in ["session.jsonl", "session.packed.jsonl"] {
            let path = dir.join(name);
            if !path.exists() {
                continue;
            }
            let outcome = check_file(Profile::V2026_08, &path);
            assert!(
                outcome.findings.is_empty(),
                "{}:\n{}",
                path.display(),
                render(&outcome)
            );
            // The same log without seq/time (re-synthesized).
            let text = std::fs::read_to_string(&path).expect("log");
            let stripped: Vec<String> = text
                .lines()
                .enumerate()
                .map(|(i, line)| {
                    let mut v: serde_json::Value = serde_json::from_str(line).expect("json");
                    if i > 0
                        && let Some(obj) = v.as_object_mut()
                    {
                        for key in ["seq", "time", "seq0", "time0"] {
                            obj.remove(key);
                        }
                    }
                    v.to_string()
                })
                .collect();
            let outcome =
                LogChecker::check_reader(Profile::V2026_08, stripped.join("\n").as_bytes())
                    .expect("in memory");
            assert!(
                outcome.findings.is_empty(),
                "{} without seq/time:\n{}",
                path.display(),
                render(&outcome)
            );
        }
        let live = dir.join("live.jsonl");
        if live.exists() {
            let file = File::open(&live).expect("trace");
            let findings = check_live_reader(Profile::V2026_08, BufReader::new(file))
                .expect("readable")
                .findings;
            assert!(findings.is_empty(), "{}: {findings:?}", live.display());
        }
    }
}
