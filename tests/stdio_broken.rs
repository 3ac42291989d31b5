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

/// Every fixture in the directory has its test above, and every test its fixture.
#[test]
fn every_fixture_is_tested() {
    let listed: BTreeSet<String> = include_str!("stdio_broken.rs")
        .split(concat!("broken", "!("))
        .skip(1)
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
