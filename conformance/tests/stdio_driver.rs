//! The stdio driver against real processes: the Rust reference served over the protocol
//! behaves exactly like the in-process one, and a crashed process is restarted.

use mirrorless_conformance::driver::{Driver, in_process};
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::scenario::generate::cases;
use mirrorless_conformance::stdio::{StdioConfig, StdioDriver};
use mirrorless_conformance::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::path::PathBuf;

/// `python3` without a version manager's shim (`tests/common/python.rs`).
#[path = "../../tests/common/python.rs"]
mod python;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn python(script: &str, args: &[&str]) -> StdioConfig {
    let program = python::program();
    let mut c = StdioConfig::new(
        [program.as_str(), &root().join(script).to_string_lossy()]
            .into_iter()
            .chain(args.iter().copied())
            .map(str::to_owned)
            .collect(),
    );
    c.message_timeout = std::time::Duration::from_secs(10);
    c.validate = true;
    c
}

/// The Python reference adapter, driven over the protocol with schema validation on, records
/// exactly what the in-process Rust reference records (up to `time`).
#[test]
fn the_python_reference_matches_the_rust_reference_event_for_event() {
    let mut stdio = StdioDriver::start(python("fixtures/adapters/reference-py/adapter.py", &[]))
        .expect("starts");
    let mut inproc = in_process::<ReferenceLoop>("reference");
    for profile in Profile::ALL {
        let mut runner = TestRunner::deterministic();
        for _ in 0..60 {
            let case = cases(profile)
                .new_tree(&mut runner)
                .expect("tree")
                .current();
            let a = stdio.run_case(&case).expect("stdio runs");
            let b = inproc.run_case(&case).expect("in-process runs");
            let strip = |obs: &mirrorless_conformance::driver::Observation| {
                obs.log
                    .iter()
                    .map(|e| {
                        let mut e = e.clone();
                        e.time = None;
                        serde_json::to_value(e).expect("serializes")
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(strip(&a), strip(&b), "{profile}: {case}");
            let live = |obs: &mirrorless_conformance::driver::Observation| {
                obs.live
                    .iter()
                    .map(|l| (l.event.clone(), l.data.clone(), l.at))
                    .collect::<Vec<_>>()
            };
            assert_eq!(live(&a), live(&b), "{profile}: {case}");
        }
    }
}

/// A process that dies in a case is a harness error for that case, and the next case runs in
/// a fresh process.
#[test]
fn a_crashed_process_is_restarted_for_the_next_case() {
    let dir = tempfile::tempdir().expect("tempdir");
    let marker = dir.path().join("started");
    let mut d = StdioDriver::start(python(
        "fixtures/impls/misbehaving/crash-first-case.py",
        &[&marker.to_string_lossy()],
    ))
    .expect("starts");
    let mut runner = TestRunner::deterministic();
    let case = cases(Profile::V2026_08)
        .new_tree(&mut runner)
        .expect("tree")
        .current();
    let first = d.run_case(&case).expect_err("the first case crashes");
    assert!(first.0.contains("exited with status 3"), "{first}");
    assert!(first.0.contains("fatal: first start"), "{first}");
    let second = d
        .run_case(&case)
        .expect("the restarted process runs the case");
    assert!(!second.log.is_empty());
    assert!(second.crash.is_none());
}

/// Both reference adapters pass generated cases of both profiles with every message, in both
/// directions, validated against the protocol's JSON Schemas — and the run covers every
/// message type, so the validation is not vacuous.
#[test]
fn the_reference_adapters_pass_and_speak_the_schemas() {
    use mirrorless_conformance::oracle::evaluate;
    use mirrorless_conformance::stdio::Direction;
    use std::collections::BTreeSet;
    use std::sync::{Arc, Mutex};

    for (program, script) in [
        (
            python::program(),
            "fixtures/adapters/reference-py/adapter.py",
        ),
        (
            "node".to_owned(),
            "fixtures/adapters/reference-js/adapter.mjs",
        ),
    ] {
        let mut config = StdioConfig::new(vec![
            program,
            root().join(script).to_string_lossy().into_owned(),
        ]);
        config.validate = true;
        config.message_timeout = std::time::Duration::from_secs(10);
        let seen: Arc<Mutex<BTreeSet<(bool, String)>>> = Arc::default();
        let sink = Arc::clone(&seen);
        let mut d = StdioDriver::start(config).expect("starts");
        d.set_tap(Box::new(move |dir, line| {
            let kind = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("type")?.as_str().map(str::to_owned))
                .unwrap_or_default();
            if let Ok(mut s) = sink.lock() {
                s.insert((dir == Direction::ToHarness, kind));
            }
        }));
        for profile in Profile::ALL {
            let mut runner = TestRunner::deterministic();
            for _ in 0..150 {
                let case = cases(profile)
                    .new_tree(&mut runner)
                    .expect("tree")
                    .current();
                let obs = d
                    .run_case(&case)
                    .unwrap_or_else(|e| panic!("{script}: {e}"));
                let verdict = evaluate(&case, &obs);
                assert!(
                    verdict.passed(),
                    "{script} {profile}: {:#?}\n{case}",
                    verdict.findings
                );
            }
        }
        let seen = seen.lock().expect("tap").clone();
        for kind in ["case", "input", "stream", "tool-result", "retry"] {
            assert!(
                seen.contains(&(false, kind.into())),
                "{script}: never sent `{kind}`"
            );
        }
        for kind in [
            "append",
            "emit",
            "next-input",
            "request-model",
            "run-tool",
            "request-error",
            "done",
        ] {
            assert!(
                seen.contains(&(true, kind.into())),
                "{script}: never received `{kind}`"
            );
        }
    }
}

fn first_case(profile: Profile) -> mirrorless_conformance::scenario::Case {
    cases(profile)
        .new_tree(&mut TestRunner::deterministic())
        .expect("tree")
        .current()
}

/// A stop (a signal, the run timeout) ends a wait at once, far before the message timeout, and
/// the driver then neither restarts nor recovers.
#[test]
fn a_stop_ends_a_wait_at_once_and_the_driver_does_not_recover() {
    use mirrorless_conformance::stop::{Stop, StopReason};
    use std::time::{Duration, Instant};
    let stop = Stop::new(None).expect("a stop pipe");
    let mut config = python("fixtures/impls/misbehaving/hang.py", &[]);
    config.message_timeout = Duration::from_secs(60);
    config.stop = stop.clone();
    let mut d = StdioDriver::start(config).expect("starts");
    let trigger = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        stop.trigger(StopReason::Interrupt);
    });
    let started = Instant::now();
    let e = d
        .run_case(&first_case(Profile::V2026_08))
        .expect_err("the case is cut short");
    trigger.join().expect("the trigger thread");
    assert!(e.0.contains("was cut short: interrupted by SIGINT"), "{e}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(!d.recovers());
    let again = d
        .run_case(&first_case(Profile::V2026_08))
        .expect_err("a stopped run starts nothing");
    assert!(
        again.0.contains("was not started: interrupted by SIGINT"),
        "{again}"
    );
}

/// Forks share the run's restart budget: with `max_restarts = 1`, the first fault (on either
/// process) takes the one restart and the next fault ends the run. Each process's report
/// counts its own restarts.
#[test]
fn forks_share_the_restart_budget() {
    let mut config = python("fixtures/impls/misbehaving/crash-mid-case.py", &[]);
    config.max_restarts = 1;
    let mut d = StdioDriver::start(config).expect("starts");
    let mut fork = d.fork().expect("a stdio driver forks");
    let case = first_case(Profile::V2026_07);
    let first = d.run_case(&case).expect_err("it crashes");
    // Each process counts its own restarts; the budget is the run's.
    assert!(
        first
            .0
            .contains("restart 1 of process 1; 1 of 1 in the run"),
        "{first}"
    );
    assert!(d.recovers());
    let second = fork.run_case(&case).expect_err("the fork crashes too");
    assert!(
        second.0.contains("no restart is left (--max-restarts 1)"),
        "{second}"
    );
    assert!(!fork.recovers());
}

/// Timeouts near the limits of `Duration` never overflow a deadline.
#[test]
fn huge_timeouts_do_not_overflow() {
    let mut config = python("fixtures/adapters/reference-py/adapter.py", &[]);
    config.startup_timeout = std::time::Duration::MAX;
    config.message_timeout = std::time::Duration::MAX;
    config.case_timeout = std::time::Duration::MAX;
    let mut d = StdioDriver::start(config).expect("starts");
    let obs = d
        .run_case(&first_case(Profile::V2026_08))
        .expect("the case runs");
    assert!(!obs.log.is_empty());
}
