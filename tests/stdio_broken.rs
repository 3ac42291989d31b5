//! The deliberately broken implementations in `fixtures/impls/broken-stdio/`: each is the
//! Python reference adapter with one realistic fault, and the suite must catch each one over
//! the stdio protocol with exactly the requirement its file name starts with — no other
//! requirement may fail. The minimal counterexample reports are pinned with insta.

use mirrorless_conformance::registry::requirement;
use mirrorless_conformance::report::render_failure;
use mirrorless_conformance::stdio::{StdioConfig, StdioDriver};
use mirrorless_conformance::suite::{self, CI_SEED, Config, Status};
use mirrorless_conformance::vocab::Profile;
use std::collections::BTreeSet;
use std::time::Duration;

const DIR: &str = "fixtures/impls/broken-stdio";

/// The requirement a fixture targets: the longest `-`-separated prefix of its name that is a
/// requirement ID (`CHUNK-1-coalescer` → `CHUNK-1`).
fn target(name: &str) -> &'static str {
    let parts: Vec<&str> = name.split('-').collect();
    (1..=parts.len())
        .rev()
        .find_map(|n| requirement(&parts[..n].join("-")))
        .map(|r| r.id)
        .unwrap_or_else(|| panic!("{name} does not start with a requirement ID"))
}

fn check(name: &str) {
    let want = target(name);
    let mut config = StdioConfig::new(vec!["python3".into(), format!("{DIR}/{name}.py")]);
    config.message_timeout = Duration::from_secs(20);
    let mut driver = StdioDriver::start(config).expect("the fixture starts");
    let run_config = Config {
        profiles: Profile::ALL.to_vec(),
        cases: 256,
        seed: CI_SEED,
        // Bounded by steps only, so the minimal case does not depend on the machine's speed.
        shrink_time: Duration::from_secs(600),
        shrink_steps: 256,
        corpus: None,
        save: false,
        ci: true,
        jobs: 1,
        ..Config::default()
    };
    let report = suite::run(&mut driver, &run_config, &mut |_| {}).expect("no harness fault");
    let failed: BTreeSet<&str> = report
        .profiles
        .iter()
        .flat_map(|p| p.requirements.iter())
        .filter(|r| r.status == Status::Fail)
        .map(|r| r.id)
        .collect();
    assert_eq!(
        failed,
        BTreeSet::from([want]),
        "{name}: the suite must fail exactly {want}"
    );
    let mut pinned = String::new();
    for p in &report.profiles {
        for f in &p.failures {
            pinned.push_str(&render_failure(p.profile, f, true));
            pinned.push('\n');
        }
    }
    insta::assert_snapshot!(format!("broken_{name}"), pinned);
}

macro_rules! broken {
    ($test:ident, $name:literal) => {
        #[test]
        fn $test() {
            check($name);
        }
    };
}

broken!(chunk_1_coalescer, "CHUNK-1-coalescer");
broken!(chunk_1_duplicates_on_retry, "CHUNK-1-duplicates-on-retry");
broken!(chunk_1_splitter, "CHUNK-1-splitter");
broken!(tool_4_eager_tool_dispatch, "TOOL-4-eager-tool-dispatch");
broken!(chunk_3_throw_not_recorded, "CHUNK-3-throw-not-recorded");
broken!(chunk_4_drops_failed_stream, "CHUNK-4-drops-failed-stream");
broken!(chunk_5_records_after_cancel, "CHUNK-5-records-after-cancel");
broken!(live_1_repeated_status, "LIVE-1-repeated-status");
broken!(live_3_error_message_flat, "LIVE-3-error-message-flat");
broken!(live_4_never_announced, "LIVE-4-never-announced");
broken!(live_5_no_session_start, "LIVE-5-no-session-start");
broken!(live_6_never_running, "LIVE-6-never-running");
broken!(live_7_never_disposed, "LIVE-7-never-disposed");
broken!(live_8_error_only_in_log, "LIVE-8-error-only-in-log");
broken!(
    mirror_1_stream_chunk_emitter,
    "MIRROR-1-stream-chunk-emitter"
);
broken!(mirror_2_steering_emitter, "MIRROR-2-steering-emitter");
broken!(mirror_3_turn_start_emitter, "MIRROR-3-turn-start-emitter");
broken!(mirror_4_turn_end_emitter, "MIRROR-4-turn-end-emitter");
broken!(mirror_5_step_start_emitter, "MIRROR-5-step-start-emitter");
broken!(mirror_6_step_end_emitter, "MIRROR-6-step-end-emitter");
broken!(msg_1_first_chunk_uncited, "MSG-1-first-chunk-uncited");
broken!(
    msg_3_content_drops_reasoning,
    "MSG-3-content-drops-reasoning"
);
broken!(msg_4_first_usage_kept, "MSG-4-first-usage-kept");
broken!(msg_4_usage_dropped, "MSG-4-usage-dropped");
broken!(
    msg_5_python_strip_whitespace,
    "MSG-5-python-strip-whitespace"
);
broken!(
    msg_5_interrupted_message_missing,
    "MSG-5-interrupted-message-missing"
);
broken!(
    msg_6_message_committed_twice,
    "MSG-6-message-committed-twice"
);
broken!(seq_1_seq_gap, "SEQ-1-seq-gap");
broken!(
    steer_2_cancelled_steering_kept,
    "STEER-2-cancelled-steering-kept"
);
broken!(
    steer_2_leftover_after_prompt,
    "STEER-2-leftover-after-prompt"
);
broken!(
    steer_2_leftover_waits_for_next_prompt,
    "STEER-2-leftover-waits-for-next-prompt"
);
broken!(
    steer_1_steering_before_tool_calls,
    "STEER-1-steering-before-tool-calls"
);
broken!(
    steer_1_steering_drained_late,
    "STEER-1-steering-drained-late"
);
broken!(
    steer_2_leftover_in_failed_step,
    "STEER-2-leftover-in-failed-step"
);
broken!(
    steer_2_leftover_steering_dropped,
    "STEER-2-leftover-steering-dropped"
);
broken!(
    steer_2_steering_never_cleared,
    "STEER-2-steering-never-cleared"
);
broken!(step_1_odd_step_numbers, "STEP-1-odd-step-numbers");
broken!(
    step_2_step_end_names_next_step,
    "STEP-2-step-end-names-next-step"
);
broken!(step_3_stale_step_on_chunks, "STEP-3-stale-step-on-chunks");
broken!(
    surf_1_user_message_without_surface_op,
    "SURF-1-user-message-without-surface-op"
);
broken!(surf_2_duplicate_source_seq, "SURF-2-duplicate-source-seq");
broken!(surf_3_constant_message_id, "SURF-3-constant-message-id");
broken!(
    tool_1_result_answers_wrong_call,
    "TOOL-1-result-answers-wrong-call"
);
broken!(
    tool_2_result_cites_wrong_event,
    "TOOL-2-result-cites-wrong-event"
);
broken!(
    tool_3_results_after_all_calls,
    "TOOL-3-results-after-all-calls"
);
broken!(
    tool_4_calls_after_max_tokens,
    "TOOL-4-calls-after-max-tokens"
);
broken!(turn_1_turns_from_two, "TURN-1-turns-from-two");
broken!(
    turn_2_turn_end_names_next_turn,
    "TURN-2-turn-end-names-next-turn"
);
broken!(
    turn_3_prompt_before_turn_start,
    "TURN-3-prompt-before-turn-start"
);
broken!(
    turn_4_disposed_turn_left_open,
    "TURN-4-disposed-turn-left-open"
);
broken!(turn_7_max_tokens_not_sticky, "TURN-7-max-tokens-not-sticky");
broken!(
    turn_8_stops_after_tool_results,
    "TURN-8-stops-after-tool-results"
);
broken!(
    turn_9_failure_in_2026_07_shape,
    "TURN-9-failure-in-2026-07-shape"
);
// Durable records (branch `durable`): what the user, the model and the tools said.
broken!(msg_7_prompt_not_recorded, "MSG-7-prompt-not-recorded");
broken!(
    msg_8_model_source_as_provenance,
    "MSG-8-model-source-as-provenance"
);
broken!(
    msg_9_message_shape_under_2026_07,
    "MSG-9-message-shape-under-2026-07"
);
broken!(tool_5_error_flag_dropped, "TOOL-5-error-flag-dropped");
broken!(
    turn_10_dispose_recorded_as_user_cancel,
    "TURN-10-dispose-recorded-as-user-cancel"
);
broken!(turn_11_generic_failure, "TURN-11-generic-failure");

// ---- protocol faults: `FAULT-*.py` breaks the protocol, not a requirement ----------------

/// What `mirrorless run` made of a `FAULT-*` fixture: its exit status, the problems of its
/// JSON report, and the requirements that failed.
struct Faulted {
    code: Option<i32>,
    problems: Vec<String>,
    failed: BTreeSet<String>,
    stderr: String,
}

/// Runs the real binary on a `FAULT-*` fixture, 64 generated cases per profile, seed 7.
fn run_fault(name: &str, args: &[&str]) -> Faulted {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args([
            "run",
            "--seed",
            "7",
            "--cases",
            "64",
            "--no-corpus",
            "--no-shrink",
        ])
        .args([
            "--format",
            "json",
            "--run-timeout",
            "300",
            "--message-timeout",
            "20",
        ])
        .args(args)
        .args(["--", "python3", &format!("{DIR}/{name}.py")])
        .env_remove("CI")
        .output()
        .expect("mirrorless runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{name}: the JSON report does not parse ({e}); stderr:\n{stderr}")
    });
    let report = &json["report"];
    let problems = report["problems"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .filter_map(|p| p.as_str())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let failed = report["profiles"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|p| p["requirements"].as_array().into_iter().flatten())
        .filter(|r| r["status"] == "fail")
        .filter_map(|r| r["id"].as_str().map(str::to_owned))
        .collect();
    Faulted {
        code: out.status.code(),
        problems,
        failed,
        stderr,
    }
}

/// The line of a problem that says what happened (its first).
fn headline(problem: &str) -> &str {
    problem.lines().next().unwrap_or_default()
}

/// Asserts a run that ended in protocol faults only: exit 2, no requirement failing, and
/// every problem is a fault saying `what`. Returns the headlines.
fn assert_faulted_with(ran: &Faulted, name: &str, what: &str) -> Vec<String> {
    assert_eq!(
        ran.code,
        Some(2),
        "{name}: a protocol fault exits 2\n{}",
        ran.stderr
    );
    assert!(
        ran.failed.is_empty(),
        "{name}: no requirement may fail: {:?}",
        ran.failed
    );
    assert!(
        !ran.problems.is_empty(),
        "{name}: the fault must be reported\n{}",
        ran.stderr
    );
    for p in &ran.problems {
        assert!(
            p.contains(what),
            "{name}: every problem must be the fault `{what}`:\n{p}"
        );
    }
    ran.problems
        .iter()
        .map(|p| headline(p).to_owned())
        .collect()
}

macro_rules! fault {
    ($test:ident, $name:literal, $body:expr) => {
        #[test]
        fn $test() {
            ($body)($name);
        }
    };
}

// A dispose, idle or while the model streams, ends the case: a request after it is a fault.
fault!(
    fault_next_input_after_dispose,
    "FAULT-next-input-after-dispose",
    |name: &str| {
        let ran = run_fault(name, &["-j", "1", "--max-restarts", "1000"]);
        let lines = assert_faulted_with(
            &ran,
            name,
            "it sent `next-input` after the agent was disposed",
        );
        for how in [
            "(the answer to its `next-input` was `input {kind: dispose}`)",
            "(a `dispose` stream item was delivered and its turn ended with `turn/end`)",
        ] {
            assert!(
                lines.iter().any(|l| l.contains(how)),
                "{name}: both ways a dispose takes effect must show: {how}"
            );
        }
        assert!(ran.problems[0].contains("stdio.md §2, rule 5"));
        // The restart accounting: every fault restarts the process, and says so.
        assert!(ran.problems.iter().all(|p| p.contains("(restart ")));
        insta::assert_snapshot!(format!("fault_{name}"), lines[..2].join("\n"));
    }
);

// Every process is shut down and must exit 0: one fault per process, `-j` ones included,
// and it takes no restart (nothing is restarted for it).
fault!(
    fault_exit_status_after_shutdown,
    "FAULT-exit-status-after-shutdown",
    |name: &str| {
        let one = run_fault(name, &["-j", "1", "--max-restarts", "0"]);
        let lines = assert_faulted_with(&one, name, "exited with status 1 after `shutdown`");
        assert_eq!(lines.len(), 1, "{name}: one process, one fault: {lines:?}");
        assert!(one.problems[0].contains("stderr (tail):\n    | shutdown received"));
        assert!(!one.problems[0].contains("restart"), "{}", one.problems[0]);
        insta::assert_snapshot!(format!("fault_{name}"), lines.join("\n"));
        // -j 2: the main process plus two per profile.
        let parallel = run_fault(name, &["-j", "2", "--max-restarts", "0"]);
        let lines = assert_faulted_with(&parallel, name, "exited with status 1 after `shutdown`");
        assert_eq!(lines.len(), 5, "{name}: 1 + 2 × 2 processes: {lines:?}");
    }
);

// Death by a signal after `shutdown` is no exit status 0 either.
fault!(
    fault_killed_after_shutdown,
    "FAULT-killed-after-shutdown",
    |name: &str| {
        let ran = run_fault(name, &["-j", "1", "--max-restarts", "0"]);
        let lines = assert_faulted_with(&ran, name, "was killed by signal 6 after `shutdown`");
        assert_eq!(lines.len(), 1, "{name}: one process, one fault: {lines:?}");
        insta::assert_snapshot!(format!("fault_{name}"), lines.join("\n"));
    }
);

// Like a missing `seq`, a missing `time` breaks the schema: a fault under
// `--validate-protocol` (without it, the driver reads events as `mirrorless check` does).
fault!(
    fault_event_without_time,
    "FAULT-event-without-time",
    |name: &str| {
        let ran = run_fault(name, &["--validate-protocol", "--max-restarts", "0"]);
        let lines = assert_faulted_with(
            &ran,
            name,
            "a message breaks the protocol schema: `event` lacks the required field `time`",
        );
        insta::assert_snapshot!(format!("fault_{name}"), lines.join("\n"));
    }
);

/// A run stopped by SIGINT closes stdin unchecked: an implementation that exits 1 then is no
/// second fault.
#[test]
fn sigint_is_no_shutdown_fault() {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_mirrorless"))
        .args([
            "run",
            "--seed",
            "7",
            "--cases",
            "100000",
            "--no-corpus",
            "--no-shrink",
        ])
        .args(["-j", "2", "--format", "json", "--run-timeout", "120", "--"])
        .args([
            "python3",
            &format!("{DIR}/FAULT-exit-status-after-shutdown.py"),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("mirrorless runs");
    std::thread::sleep(Duration::from_secs(3));
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let out = child.wait_with_output().expect("mirrorless ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted by SIGINT"), "{stderr}");
    assert!(!stderr.contains("after `shutdown`"), "{stderr}");
}

/// Every fixture in the directory has its test above, and every test its fixture.
#[test]
fn every_fixture_is_tested() {
    let listed: BTreeSet<String> = include_str!("stdio_broken.rs")
        .split(concat!("broken", "!("))
        .chain(include_str!("stdio_broken.rs").split(concat!("fault", "!(")))
        .filter(|invocation| !invocation.starts_with("//!"))
        .filter_map(|invocation| invocation.split('"').nth(1))
        .map(str::to_owned)
        .collect();
    let on_disk: BTreeSet<String> = std::fs::read_dir(DIR)
        .expect("fixture directory")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".py")
                .map(str::to_owned)
        })
        .collect();
    assert_eq!(listed, on_disk);
}
