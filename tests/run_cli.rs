//! `mirrorless run` and `mirrorless replay` from the command line: exit codes, formats, the
//! corpus, and clear errors for bad input.

use std::path::Path;
use std::process::Command;

fn mirrorless(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = crate::common::mirrorless_command()
        .args(args)
        .current_dir(cwd)
        .env_remove("CI")
        .output()
        .expect("the mirrorless binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Replaces the timing-dependent numbers of a human report.
fn redact(text: &str) -> String {
    text.lines()
        .map(|l| match l.find(" cases/s") {
            Some(end) => {
                let start = l[..end].rfind(' ').map_or(0, |s| s + 1);
                format!("{}[rate]{}", &l[..start], &l[end..])
            }
            None => l.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_reference_conforms_in_ci_mode() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, stderr) = mirrorless(&["run", "--ci", "--cases", "300"], dir.path());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stderr.contains("(CI mode)"), "{stderr}");
    insta::assert_snapshot!("run_ci_human", redact(&stdout));
}

#[test]
fn the_seed_reproduces_a_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = |seed: &str| {
        let (code, stdout, _) = mirrorless(
            &[
                "run",
                "--seed",
                seed,
                "--cases",
                "50",
                "--format",
                "json",
                "--no-corpus",
            ],
            dir.path(),
        );
        assert_eq!(code, 0);
        let v: serde_json::Value = serde_json::from_str(&stdout).expect("json report");
        assert_eq!(v["conformant"], true);
        assert_eq!(v["report"]["seed"], seed.parse::<u64>().expect("u64"));
        v["report"]["profiles"][0]["requirements"].clone()
    };
    assert_eq!(run("42"), run("42"));
}

#[test]
fn junit_has_one_test_case_per_requirement_and_profile() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, _) = mirrorless(
        &[
            "run",
            "--ci",
            "--cases",
            "300",
            "--format",
            "junit",
            "--no-corpus",
        ],
        dir.path(),
    );
    assert_eq!(code, 0);
    assert!(stdout.starts_with("<?xml"));
    assert_eq!(stdout.matches("<testsuite ").count(), 2);
    assert!(stdout.contains("name=\"CHUNK-1 One durable chunk per stream chunk\""));
    assert!(
        stdout
            .contains("name=\"STEER-1 Steering is recorded where the profile places it\"><skipped")
    );
    assert!(!stdout.contains("<failure"), "{stdout}");
}

#[test]
fn too_few_cases_fail_as_not_exercised() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, _) = mirrorless(
        &[
            "run",
            "--seed",
            "1",
            "--cases",
            "1",
            "--profile",
            "2026-08",
            "--no-corpus",
        ],
        dir.path(),
    );
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("never exercised"), "{stdout}");
}

#[test]
fn replay_runs_a_case_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let case = r#"{
  "profile": "2026-07",
  "script": { "actions": [
    { "action": "prompt", "text": "hi", "calls": [ { "chunks": [
      { "type": "block-start", "index": 0, "blockType": "text" },
      { "type": "text-delta", "index": 0, "text": "hello" },
      { "type": "finish", "reason": { "kind": "stop" } }
    ], "interrupt": { "after": 1, "kind": "cancel" } } ] }
  ] }
}"#;
    std::fs::write(dir.path().join("case.json"), case).expect("write");
    let (code, stdout, stderr) = mirrorless(&["replay", "case.json", "--log"], dir.path());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    insta::assert_snapshot!("replay_cancel_2026_07", stdout);
}

#[test]
fn a_bad_case_file_is_a_usage_error_naming_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("bad.json"),
        "{\n  \"profile\": \"2026-07\",\n  \"script\": [\n}",
    )
    .expect("write");
    let (code, _, stderr) = mirrorless(&["replay", "bad.json"], dir.path());
    assert_eq!(code, 2);
    assert!(stderr.contains("bad.json:4:"), "{stderr}");

    std::fs::write(
        dir.path().join("unplayable.json"),
        r#"{"profile":"2026-08","script":{"actions":[{"action":"inject","text":"x"}]}}"#,
    )
    .expect("write");
    let (code, _, stderr) = mirrorless(&["replay", "unplayable.json"], dir.path());
    assert_eq!(code, 2);
    assert!(stderr.contains("unplayable.json: the script cannot be played: action 0: `inject` exists only under 2026-07"), "{stderr}");
}

#[test]
fn a_broken_corpus_file_is_reported_and_the_run_goes_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    std::fs::write(corpus.join("broken.json"), "not json").expect("write");
    std::fs::write(
        corpus.join("ok.json"),
        r#"{"profile":"2026-08","script":{"actions":[{"action":"dispose"}]}}"#,
    )
    .expect("write");
    let (code, stdout, stderr) = mirrorless(
        &["run", "--ci", "--cases", "300", "--corpus", "corpus"],
        dir.path(),
    );
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("broken.json:1:2: not a case file"),
        "{stderr}"
    );
    assert!(
        stdout.contains("2026-08: conformant — 301 cases (300 generated, 1 from the corpus)"),
        "{stdout}"
    );
}

#[test]
fn an_external_command_that_does_not_start_is_a_harness_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, _, stderr) = mirrorless(&["run", "--", "python3", "impl.py"], dir.path());
    assert_eq!(code, 2);
    assert!(
        stderr.contains("`python3 impl.py` did not complete the `hello` handshake"),
        "{stderr}"
    );
    assert!(stderr.contains("impl.py"), "{stderr}");
}

#[test]
fn help_teaches() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, _) = mirrorless(&["run", "--help"], dir.path());
    assert_eq!(code, 0);
    insta::assert_snapshot!("run_help", stdout);
}

#[test]
fn the_case_file_schema_is_json() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/run/case.schema.json"),
    )
    .expect("the schema exists");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    assert_eq!(schema["required"], serde_json::json!(["profile", "script"]));
}

#[test]
fn an_impossible_case_file_is_refused_naming_file_and_problem() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        (
            "delta-first.json",
            r#"{"profile":"2026-08","script":{"actions":[{"action":"prompt","text":"p","calls":[{"chunks":[
              {"type":"text-delta","index":0,"text":"hi"},{"type":"finish","reason":{"kind":"stop"}}]}]}]}}"#,
            "delta-first.json: the script cannot be played: action 0, call 0, chunk 0: `text-delta` for block 0 before its `block-start`",
        ),
        (
            "wraps.json",
            r#"{"profile":"2026-07","script":{"actions":[{"action":"prompt","text":"p","calls":[{"chunks":[
              {"type":"block-start","index":0,"blockType":"text"},{"type":"finish","reason":{"kind":"stop"}}],
              "interrupt":{"after":18446744073709551615,"kind":"cancel"}}]}]}}"#,
            "wraps.json: the script cannot be played: action 0, call 0: an interrupt after chunk 18446744073709551615 needs a chunk after it",
        ),
        (
            "late-steer.json",
            r#"{"profile":"2026-08","script":{"actions":[{"action":"prompt","text":"p","calls":[{"chunks":[
              {"type":"block-start","index":0,"blockType":"text"},{"type":"text-delta","index":0,"text":"a"},
              {"type":"finish","reason":{"kind":"stop"}}],
              "interrupt":{"after":0,"kind":"cancel"},"steer":[{"after":2,"text":"s"}]}]}]}}"#,
            "could never be sent",
        ),
    ];
    for (name, text, want) in cases {
        std::fs::write(dir.path().join(name), text).expect("write");
        let (code, stdout, stderr) = mirrorless(&["replay", name], dir.path());
        assert_eq!(code, 2, "{name}: {stdout}{stderr}");
        assert!(stderr.contains(want), "{name}: {stderr}");
        assert!(
            !stdout.contains("FAIL"),
            "the implementation is not blamed: {stdout}"
        );
    }
    // The corpus loader refuses them too, and the run goes on as a usage error.
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    std::fs::write(corpus.join("wraps.json"), cases[1].1).expect("write");
    let (code, stdout, stderr) = mirrorless(
        &["run", "--ci", "--cases", "300", "--corpus", "corpus"],
        dir.path(),
    );
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("wraps.json: the script cannot be played"),
        "{stderr}"
    );
    assert!(
        stdout.contains("2026-07: conformant — 300 cases"),
        "{stdout}"
    );
}

#[test]
fn a_run_that_executes_no_case_exits_2_with_the_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, stderr) = mirrorless(&["run", "--cases", "0", "--no-corpus"], dir.path());
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(
        stderr.contains(
            "2026-07: no case was executed (--cases 0 and no corpus case for this profile)"
        ),
        "{stderr}"
    );
    // Nothing failed and nothing was proven: incomplete, never conformant.
    assert!(stdout.contains("2026-07: INCOMPLETE — 0 cases"), "{stdout}");
    assert!(stdout.contains("\nINCOMPLETE — "), "{stdout}");
    assert!(!stdout.contains("conformant"), "{stdout}");

    // An implementation whose `hello` lists only unknown profiles.
    std::fs::write(
        dir.path().join("unknown-profile.py"),
        r#"import json, sys
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": "mirrorless-stdio/1",
                  "implementation": {"name": "typo"}, "profiles": ["2026-7"]}), flush=True)
for line in sys.stdin:
    pass
"#,
    )
    .expect("write");
    let (code, _, stderr) = mirrorless(&["run", "--", "python3", "unknown-profile.py"], dir.path());
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("implements no profile this suite knows (2026-07, 2026-08)"),
        "{stderr}"
    );

    // Every requested profile filtered out.
    std::fs::write(
        dir.path().join("only-08.py"),
        r#"import json, sys
sys.stdin.readline()
print(json.dumps({"type": "hello", "protocol": "mirrorless-stdio/1",
                  "implementation": {"name": "only-08"}, "profiles": ["2026-08"]}), flush=True)
for line in sys.stdin:
    pass
"#,
    )
    .expect("write");
    let (code, _, stderr) = mirrorless(
        &["run", "--profile", "2026-07", "--", "python3", "only-08.py"],
        dir.path(),
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--profile 2026-07 filtered out every profile: only-08")
            && stderr.contains("implements only 2026-08")
            && !stderr.contains("skipping"),
        "{stderr}"
    );
}

#[test]
fn bad_partitions_are_usage_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (bad, want) in [
        ("0/3", "the shard must be between 1 and 3"),
        ("4/3", "the shard must be between 1 and 3"),
        ("1/0", "the shard count must be at least 1"),
        ("slice:1/2", "unknown partition kind `slice`"),
    ] {
        let (code, _, stderr) = mirrorless(&["run", "--partition", bad], dir.path());
        assert_eq!(code, 2, "{bad}: {stderr}");
        assert!(stderr.contains(want), "{bad}: {stderr}");
    }
}

#[test]
fn the_shards_of_a_seed_cover_exactly_the_unsharded_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ids = |extra: &[&str]| {
        let mut args = vec![
            "run",
            "--ci",
            "--cases",
            "40",
            "--no-corpus",
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = mirrorless(&args, dir.path());
        // 40 cases are under the coverage minimums' reach: the verdict is the same in
        // every shard and in the whole run.
        let v: serde_json::Value = serde_json::from_str(&stdout).expect("json report");
        let cases: Vec<Vec<String>> = v["report"]["profiles"]
            .as_array()
            .expect("profiles")
            .iter()
            .map(|p| {
                p["case_ids"]
                    .as_array()
                    .expect("case ids")
                    .iter()
                    .map(|c| c.as_str().expect("id").to_owned())
                    .collect()
            })
            .collect();
        (code, cases, v["conformant"].clone(), stderr)
    };
    let (whole_code, whole, whole_verdict, _) = ids(&[]);
    for kind in ["", "hash:"] {
        let mut union = vec![Vec::new(); whole.len()];
        for k in 1..=3 {
            let part = format!("{kind}{k}/3");
            let (code, shard, verdict, stderr) = ids(&["--partition", &part]);
            assert_eq!(code, whole_code, "{part}: {stderr}");
            assert_eq!(verdict, whole_verdict, "{part}");
            for (u, s) in union.iter_mut().zip(shard) {
                assert!(!s.is_empty() && s.len() < 40, "{part}");
                u.extend(s);
            }
        }
        for (u, w) in union.iter_mut().zip(&whole) {
            let mut w = w.clone();
            u.sort();
            w.sort();
            assert_eq!(
                *u, w,
                "{kind}: the union of the shards is the unsharded run"
            );
        }
    }
    // Each shard writes its own JUnit, named after the shard.
    let (_, junit, _) = mirrorless(
        &[
            "run",
            "--ci",
            "--cases",
            "300",
            "--no-corpus",
            "--format",
            "junit",
            "--partition",
            "2/3",
        ],
        dir.path(),
    );
    assert!(
        junit.contains("<testsuites name=\"mirrorless run (shard count:2/3)\""),
        "{junit}"
    );
    assert!(
        !junit.contains("<failure"),
        "a third of the cases does not fail coverage: {junit}"
    );
}

#[test]
fn a_port_firing_all_six_mirrors_fails_each_with_its_own_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/impls/multi-fault/all-mirrors-emitter.py");
    let fixture = fixture.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = mirrorless(
        &[
            "run",
            "--ci",
            "--profile",
            "2026-08",
            "--cases",
            "32",
            "--no-corpus",
            "-j",
            "1",
            "--format",
            "json",
            "--",
            "python3",
            fixture,
        ],
        dir.path(),
    );
    assert_eq!(code, 1, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("json report");
    let p = &v["report"]["profiles"][0];
    let failed: Vec<(String, u64)> = p["requirements"]
        .as_array()
        .expect("requirements")
        .iter()
        .filter(|r| r["status"] == "fail")
        .map(|r| {
            (
                r["id"].as_str().expect("id").to_owned(),
                r["failures"].as_u64().expect("count"),
            )
        })
        .collect();
    let ids: Vec<&str> = failed.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "MIRROR-1", "MIRROR-2", "MIRROR-3", "MIRROR-4", "MIRROR-5", "MIRROR-6"
        ]
    );
    assert!(failed.iter().all(|(_, n)| *n > 0), "{failed:?}");
    let counterexamples: Vec<&str> = p["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .map(|f| f["requirement"].as_str().expect("id"))
        .collect();
    assert_eq!(counterexamples.len(), 6, "{counterexamples:?}");
    assert_eq!(counterexamples[0], "MIRROR-3", "the primary leads");
}

#[test]
fn out_of_range_shrink_times_are_usage_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (value, want) in [
        ("1e300", "at most 31536000 seconds (a year)"),
        ("31536001", "at most 31536000 seconds (a year)"),
        ("-1", "must be a non-negative number of seconds"),
        ("NaN", "must be a non-negative number of seconds"),
    ] {
        let flag = format!("--shrink-time={value}");
        let (code, _, stderr) = mirrorless(&["run", &flag], dir.path());
        assert_eq!(code, 2, "{value}: {stderr}");
        assert!(
            stderr.contains(&format!("invalid value '{value}' for '--shrink-time")),
            "{value}: {stderr}"
        );
        assert!(stderr.contains(want), "{value}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    // The largest accepted bound (a year) is accepted.
    let (code, _, stderr) = mirrorless(
        &[
            "run",
            "--shrink-time",
            "31536000",
            "--cases",
            "300",
            "--no-corpus",
            "--ci",
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_should_finding_on_the_log_is_a_warning_and_fails_under_deny_warnings() {
    // MSG-3 is a SHOULD under 2026-07 (a MUST under 2026-08).
    let dir = tempfile::tempdir().expect("tempdir");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/impls/broken-stdio/MSG-3-content-drops-reasoning.py");
    let fixture = fixture.to_str().expect("utf-8 path");
    let args = [
        "run",
        "--ci",
        "--profile",
        "2026-07",
        "--cases",
        "300",
        "--no-corpus",
        "-j",
        "1",
        "--",
        "python3",
        fixture,
    ];
    let (code, stdout, stderr) = mirrorless(&args, dir.path());
    assert_eq!(code, 0, "warnings alone pass:\n{stdout}\n{stderr}");
    assert!(stdout.contains("WARN MSG-3 — "), "{stdout}");
    assert!(
        stdout.contains("warnings (SHOULD; --deny-warnings makes them fail): MSG-3 ("),
        "{stdout}"
    );
    let mut denied = vec!["run", "--deny-warnings"];
    denied.extend_from_slice(&args[1..]);
    let (code, stdout, _) = mirrorless(&denied, dir.path());
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("2026-07: NOT CONFORMANT"), "{stdout}");
    assert!(
        stdout.contains("warnings (fail the run: --deny-warnings): MSG-3 ("),
        "{stdout}"
    );
}

/// An absent `isError` on a successful tool result reads as `false` (TOOL-5): a port that
/// writes it only on errors conforms, with TOOL-5 exercised and passing in both profiles.
#[test]
fn a_tool_result_without_is_error_on_success_conforms() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/impls/conforming/is-error-omitted-on-success.py");
    let fixture = fixture.to_str().expect("utf-8 path");
    let (code, stdout, stderr) = mirrorless(
        &[
            "run",
            "--seed",
            "7",
            "--cases",
            "64",
            "--no-corpus",
            "-j",
            "1",
            "--format",
            "json",
            "--",
            "python3",
            fixture,
        ],
        dir.path(),
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("json report");
    let profiles = v["report"]["profiles"].as_array().expect("profiles");
    assert_eq!(profiles.len(), 2, "both profiles run");
    for p in profiles {
        let tool_5 = p["requirements"]
            .as_array()
            .expect("requirements")
            .iter()
            .find(|r| r["id"] == "TOOL-5")
            .expect("a TOOL-5 row");
        assert_eq!(tool_5["status"], "pass", "{}: {tool_5}", p["profile"]);
    }
}

/// Every port in `fixtures/impls/conforming/` differs from the reference only where the
/// protocol allows it (an absent `isError` on success, TOOL-5; arguments recorded parsed,
/// TOOL-4 by JSON meaning; the 2026-07 status `disposed` set before the disposed turn's end, as
/// upstream's era-M disposer does, LIVE-1/LIVE-7): `mirrorless run` passes each.
#[test]
fn every_conforming_port_passes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ports = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/impls/conforming");
    let mut names: Vec<_> = std::fs::read_dir(&ports)
        .expect("fixtures/impls/conforming")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    names.sort();
    assert!(names.len() >= 3, "{names:?}");
    for port in names {
        let port = port.to_str().expect("utf-8 path");
        let (code, stdout, stderr) = mirrorless(
            &[
                "run",
                "--ci",
                "--cases",
                "128",
                "--no-corpus",
                "-j",
                "1",
                "--",
                "python3",
                port,
            ],
            dir.path(),
        );
        assert_eq!(code, 0, "{port}\n{stdout}\n{stderr}");
    }
}

/// `--color` on `run` and `replay`, as on `check` and `lint`: `always` paints the verdict words
/// only, `never` and a pipe (auto) print the plain report, which is otherwise the same text.
#[test]
fn run_and_replay_take_color_like_check_and_lint() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = |color: Option<&str>| {
        let mut args = vec![
            "run",
            "--seed",
            "1",
            "--cases",
            "1",
            "--profile",
            "2026-08",
            "--no-corpus",
        ];
        if let Some(c) = color {
            args.extend(["--color", c]);
        }
        let (code, stdout, stderr) = mirrorless(&args, dir.path());
        assert_eq!(code, 1, "{stdout}\n{stderr}");
        redact(&stdout)
    };
    let always = run(Some("always"));
    let never = run(Some("never"));
    let auto = run(None);
    assert!(!never.contains('\x1b'), "{never}");
    assert!(!auto.contains('\x1b'), "auto on a pipe: {auto}");
    assert!(
        always.contains("2026-08: \x1b[1;31mNOT CONFORMANT\x1b[0m — "),
        "{always}"
    );
    assert_eq!(
        always.replace("\x1b[1;31m", "").replace("\x1b[0m", ""),
        never,
        "color must only add escapes"
    );

    let case = r#"{"profile":"2026-07","script":{"actions":[{"action":"prompt","text":"hi","calls":[{"chunks":[{"type":"finish","reason":{"kind":"stop"}}]}]}]}}"#;
    std::fs::write(dir.path().join("case.json"), case).expect("write");
    let (code, stdout, stderr) =
        mirrorless(&["replay", "case.json", "--color", "always"], dir.path());
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.starts_with("\x1b[32mPASS\x1b[0m case "), "{stdout}");
}

/// The one `--color WHEN` flag (`cmd::ColorArg`) on every subcommand that prints color.
#[test]
fn every_coloring_subcommand_documents_the_same_color_flag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut helps = Vec::new();
    for sub in ["check", "lint", "run", "replay"] {
        let (code, stdout, stderr) = mirrorless(&[sub, "--help"], dir.path());
        assert_eq!(code, 0, "{sub} --help\n{stderr}");
        let flag: Vec<&str> = stdout
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("--color <WHEN>"))
            .take_while(|l| !l.trim().is_empty())
            .collect();
        assert!(
            !flag.is_empty(),
            "{sub} --help has no --color <WHEN>:\n{stdout}"
        );
        helps.push((sub, flag.join("\n")));
    }
    for (sub, help) in &helps[1..] {
        assert_eq!(
            help, &helps[0].1,
            "{sub} --color differs from check --color"
        );
    }
}

/// A JSON report's `replay` runs its counterexample (`docs/run/report.schema.json`: "It names
/// `case_file`, or `CASE.json` when `case_file` is null: save `case` there first"), whether
/// the case was saved to the corpus, not saved (`--no-save`, `--no-corpus`), or reported
/// unshrunk (`--no-shrink`): it never names a file the run did not write.
#[test]
fn every_replay_command_of_a_json_report_replays_its_counterexample() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/impls/broken-stdio/TURN-8-stops-after-tool-results.py");
    let fixture = fixture.to_str().expect("utf-8 path");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_mirrorless"))
        .parent()
        .expect("the binary has a directory");
    let path = std::env::join_paths(
        std::iter::once(bin_dir.to_path_buf())
            .chain(std::env::split_paths(crate::common::python::path())),
    )
    .expect("PATH");
    for mode in [
        &[][..],
        &["--no-save"],
        &["--no-corpus"],
        &["--no-corpus", "--no-shrink"],
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut args = vec![
            "run",
            "--ci",
            "--profile",
            "2026-07",
            "--cases",
            "40",
            "-j",
            "1",
            "--format",
            "json",
        ];
        args.extend_from_slice(mode);
        args.extend_from_slice(&["--", "python3", fixture]);
        let (code, stdout, stderr) = mirrorless(&args, dir.path());
        assert_eq!(code, 1, "{mode:?}: the broken loop fails\n{stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
        let failures = report["report"]["profiles"][0]["failures"]
            .as_array()
            .expect("failures");
        assert!(!failures.is_empty(), "{mode:?}: {stdout}");
        for f in failures {
            let replay = f["replay"].as_str().expect("replay");
            let case_id = f["case_id"].as_str().expect("case_id");
            let named = match f["case_file"].as_str() {
                Some(file) => {
                    assert!(
                        dir.path().join(file).is_file(),
                        "{mode:?}: {file} was not written"
                    );
                    file.to_owned()
                }
                None => {
                    assert!(
                        !replay.contains(&format!("{case_id}.json")),
                        "{mode:?}: names a file never written: {replay}"
                    );
                    let case = serde_json::to_string(&f["case"]).expect("case");
                    std::fs::write(dir.path().join("CASE.json"), case).expect("write");
                    "CASE.json".to_owned()
                }
            };
            assert!(
                replay.contains(&named),
                "{mode:?}: {replay} does not name {named}"
            );
            let out = Command::new("sh")
                .args(["-c", replay])
                .current_dir(dir.path())
                .env("PATH", &path)
                .env_remove("CI")
                .output()
                .expect("sh runs");
            let text = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(1), "{mode:?}: `{replay}`\n{text}");
            let requirement = f["requirement"].as_str().expect("requirement");
            assert!(text.contains(requirement), "{mode:?}: `{replay}`\n{text}");
        }
    }
}

/// A run that ends before any verdict writes its report anyway, in every format that a CI job
/// collects (`--output`, `--summary`), so that a job never finds no file and reads it as no
/// news; the report says the run proves nothing and why, and the exit status stays 2.
#[test]
fn a_run_that_never_starts_still_writes_its_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("dead.py"),
        "import sys\nsys.stderr.write('ImportError: cannot import name X\\n')\nsys.exit(3)\n",
    )
    .expect("write");
    for (format, says) in [
        ("json", "\"problems\""),
        ("junit", "<error message="),
        ("markdown", "INCOMPLETE"),
        ("html", "INCOMPLETE"),
        ("human", "INCOMPLETE"),
    ] {
        let file = format!("report.{format}");
        let (code, stdout, stderr) = mirrorless(
            &[
                "run",
                "--ci",
                "--no-corpus",
                "--format",
                format,
                "--output",
                &file,
                "--summary",
                "summary.md",
                "--",
                "python3",
                "dead.py",
            ],
            dir.path(),
        );
        assert_eq!(code, 2, "{format}: {stderr}");
        assert!(
            stdout.is_empty(),
            "{format}: the report goes to --output: {stdout}"
        );
        assert!(
            stderr.contains("ImportError: cannot import name X"),
            "{format}: {stderr}"
        );
        let text = std::fs::read_to_string(dir.path().join(&file)).expect("the report was written");
        assert!(text.contains(says), "{format}: {text}");
        assert!(
            text.contains("ImportError: cannot import name X") || format != "json",
            "{format}: {text}"
        );
    }
    let summary =
        std::fs::read_to_string(dir.path().join("summary.md")).expect("the summary was written");
    assert!(summary.contains("INCOMPLETE"), "{summary}");
    // The matrix says why the column has no verdict.
    let (code, matrix, stderr) = mirrorless(&["report", "report.json"], dir.path());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        matrix.contains("INCOMPLETE")
            && matrix.contains("problem: the run ended before any verdict"),
        "{matrix}"
    );
    // To a terminal-less stdout, a human run prints the error only once, on stderr.
    let (code, stdout, _) = mirrorless(
        &["run", "--ci", "--no-corpus", "--", "python3", "dead.py"],
        dir.path(),
    );
    assert_eq!(code, 2);
    assert!(stdout.is_empty(), "{stdout}");
}
