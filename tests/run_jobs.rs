//! `mirrorless run -j N` gives the report of `-j 1`. Issue #32 item 2: "`run` uses every
//! core: a worker pool … Target: `-j 2` ≤ 0.6× the wall time of `-j 1` on two cores,
//! embedded and over stdio, with results identical to `-j 1` for the same seed"; `--jobs`
//! help: "The results do not depend on it." Each test runs one seed with `-j 1`, `-j 2` and
//! `-j 3` through the CLI and compares the JSON reports (all but the clock: `seconds` and
//! `cases_per_second`), the exit status and the corpus each run saved its counterexamples to.
//! The timing is measured by `benches/run_jobs.sh`, never here.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

const BROKEN: &str = "fixtures/impls/broken-stdio";

/// The JSON report without what the clock decides.
fn normalized(stdout: &[u8]) -> serde_json::Value {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("seconds");
                m.remove("cases_per_second");
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: serde_json::Value = serde_json::from_slice(stdout).unwrap_or_else(|e| {
        panic!(
            "the report is JSON ({e}): {}",
            String::from_utf8_lossy(stdout)
        )
    });
    strip(&mut v);
    v
}

/// The files of a corpus directory and their contents.
fn corpus(dir: &Path) -> BTreeMap<String, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| {
            let e = e.expect("a corpus entry");
            let text = std::fs::read_to_string(e.path()).expect("a case file");
            (e.file_name().to_string_lossy().into_owned(), text)
        })
        .collect()
}

/// What one run came to: its exit status, its report, its corpus.
type Outcome = (Option<i32>, serde_json::Value, BTreeMap<String, String>);

/// Runs `mirrorless run` with `args` (and a fresh corpus) under `-j 1`, `-j 2` and `-j 3`,
/// asserts the three outcomes are the same, and returns it.
fn same_for_every_jobs(args: &[&str], command: &[&str]) -> Outcome {
    let mut first: Option<Outcome> = None;
    // One corpus path (the report names it), emptied before each run.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus_dir = dir.path().join("corpus");
    let corpus_arg = corpus_dir.to_string_lossy().into_owned();
    for jobs in ["1", "2", "3"] {
        if corpus_dir.exists() {
            std::fs::remove_dir_all(&corpus_dir).expect("the corpus of the last run removed");
        }
        let mut all = vec![
            "run",
            "--format",
            "json",
            "--shrink-time",
            "600",
            "--corpus",
            &corpus_arg,
            "-j",
            jobs,
        ];
        all.extend_from_slice(args);
        if !command.is_empty() {
            all.push("--");
            all.extend_from_slice(command);
        }
        let out = common::mirrorless(&all);
        let outcome = (
            out.status.code(),
            normalized(&out.stdout),
            corpus(&corpus_dir),
        );
        match &first {
            None => first = Some(outcome),
            Some(expected) => {
                assert_eq!(outcome.0, expected.0, "-j {jobs}: exit status, {args:?}");
                assert!(
                    outcome.1 == expected.1,
                    "-j {jobs} reports otherwise than -j 1 ({args:?} {command:?}):\n{}\n--- against ---\n{}",
                    serde_json::to_string_pretty(&outcome.1).unwrap_or_default(),
                    serde_json::to_string_pretty(&expected.1).unwrap_or_default()
                );
                assert_eq!(outcome.2, expected.2, "-j {jobs}: the corpus, {args:?}");
            }
        }
    }
    first.expect("ran")
}

#[test]
fn the_embedded_reference_reports_the_same_with_one_two_and_three_jobs() {
    for seed in ["1", "2", "3"] {
        let (status, report, _) = same_for_every_jobs(&["--seed", seed, "--cases", "200"], &[]);
        assert_eq!(status, Some(0), "seed {seed}: the reference conforms");
        assert_eq!(report["conformant"], true);
    }
}

#[test]
fn the_reference_over_stdio_reports_the_same_with_one_two_and_three_jobs() {
    let me = env!("CARGO_BIN_EXE_mirrorless");
    for seed in ["4", "5"] {
        let (status, _, _) = same_for_every_jobs(
            &["--seed", seed, "--cases", "100"],
            &[me, "reference-impl", "--stdio"],
        );
        assert_eq!(status, Some(0), "seed {seed}: the reference conforms");
    }
}

#[test]
fn a_broken_stdio_implementation_fails_shrinks_and_saves_the_same_whatever_the_jobs() {
    for fixture in ["CHUNK-1-coalescer", "MIRROR-1-stream-chunk-emitter"] {
        let path = format!("{BROKEN}/{fixture}.py");
        for seed in ["6", "7"] {
            let (status, report, corpus) =
                same_for_every_jobs(&["--seed", seed, "--cases", "80"], &["python3", &path]);
            assert_eq!(status, Some(1), "{fixture}, seed {seed}: it fails");
            let failures = report["report"]["profiles"]
                .as_array()
                .expect("profiles")
                .iter()
                .flat_map(|p| p["failures"].as_array().cloned().unwrap_or_default())
                .collect::<Vec<_>>();
            assert!(!failures.is_empty(), "{fixture}, seed {seed}: failures");
            // The comparison covers shrunk counterexamples and the case files saved for them.
            assert!(
                failures
                    .iter()
                    .any(|f| f["shrink_steps"].as_u64() > Some(0)),
                "{fixture}, seed {seed}: a counterexample was shrunk"
            );
            assert!(
                !corpus.is_empty(),
                "{fixture}, seed {seed}: case files saved"
            );
        }
    }
}
