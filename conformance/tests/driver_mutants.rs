//! The deliberately broken implementations in `fixtures/impls/broken-rs/`: the suite catches
//! each one with exactly its intended requirement, and its minimal counterexample report is
//! pinned with insta.

#[path = "../../fixtures/impls/broken-rs/mutant.rs"]
mod mutant;

#[path = "../../fixtures/impls/broken-rs/CHUNK-1-coalescer.rs"]
mod chunk_1_coalescer;
#[path = "../../fixtures/impls/broken-rs/CHUNK-1-retry-duplicator.rs"]
mod chunk_1_retry_duplicator;
#[path = "../../fixtures/impls/broken-rs/CHUNK-1-splitter.rs"]
mod chunk_1_splitter;
#[path = "../../fixtures/impls/broken-rs/CHUNK-3-throw-not-recorded.rs"]
mod chunk_3_throw_not_recorded;
#[path = "../../fixtures/impls/broken-rs/CHUNK-4-failed-stream-dropper.rs"]
mod chunk_4_failed_stream_dropper;
#[path = "../../fixtures/impls/broken-rs/CHUNK-5-after-cancel-appender.rs"]
mod chunk_5_after_cancel_appender;
#[path = "../../fixtures/impls/broken-rs/LIVE-1-repeated-status.rs"]
mod live_1_repeated_status;
#[path = "../../fixtures/impls/broken-rs/MIRROR-1-stream-chunk-emitter.rs"]
mod mirror_1_stream_chunk_emitter;
#[path = "../../fixtures/impls/broken-rs/MIRROR-2-steering-emitter.rs"]
mod mirror_2_steering_emitter;
#[path = "../../fixtures/impls/broken-rs/MIRROR-3-turn-start-emitter.rs"]
mod mirror_3_turn_start_emitter;
#[path = "../../fixtures/impls/broken-rs/MIRROR-4-turn-end-emitter.rs"]
mod mirror_4_turn_end_emitter;
#[path = "../../fixtures/impls/broken-rs/MIRROR-5-step-start-emitter.rs"]
mod mirror_5_step_start_emitter;
#[path = "../../fixtures/impls/broken-rs/MIRROR-6-step-end-emitter.rs"]
mod mirror_6_step_end_emitter;
#[path = "../../fixtures/impls/broken-rs/MSG-1-first-chunk-uncited.rs"]
mod msg_1_first_chunk_uncited;
#[path = "../../fixtures/impls/broken-rs/MSG-4-usage-dropped.rs"]
mod msg_4_usage_dropped;
#[path = "../../fixtures/impls/broken-rs/MSG-5-interrupted-message-missing.rs"]
mod msg_5_interrupted_message_missing;
#[path = "../../fixtures/impls/broken-rs/SEQ-1-seq-gap.rs"]
mod seq_1_seq_gap;
#[path = "../../fixtures/impls/broken-rs/STEER-1-steering-wrong-turn.rs"]
mod steer_1_steering_wrong_turn;
#[path = "../../fixtures/impls/broken-rs/STEER-2-steering-dropper.rs"]
mod steer_2_steering_dropper;
#[path = "../../fixtures/impls/broken-rs/STEP-1-odd-step-numbers.rs"]
mod step_1_odd_step_numbers;
#[path = "../../fixtures/impls/broken-rs/SURF-1-user-message-without-surface-op.rs"]
mod surf_1_user_message_without_surface_op;
#[path = "../../fixtures/impls/broken-rs/TOOL-2-result-cites-wrong-event.rs"]
mod tool_2_result_cites_wrong_event;
#[path = "../../fixtures/impls/broken-rs/TURN-1-turns-from-two.rs"]
mod turn_1_turns_from_two;
#[path = "../../fixtures/impls/broken-rs/TURN-4-last-turn-open.rs"]
mod turn_4_last_turn_open;
#[path = "../../fixtures/impls/broken-rs/TURN-7-continues-after-stop.rs"]
mod turn_7_continues_after_stop;
#[path = "../../fixtures/impls/broken-rs/TURN-7-max-tokens-not-sticky.rs"]
mod turn_7_max_tokens_not_sticky;
#[path = "../../fixtures/impls/broken-rs/TURN-8-stops-after-tool-results.rs"]
mod turn_8_stops_after_tool_results;

use mirrorless_conformance::report::render_failure;
use mirrorless_conformance::suite::{self, Config};
use mutant::{MutantDriver, Mutation};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

fn catches(name: &str, mutation: Arc<dyn Mutation>) {
    let intended = mutation.requirement();
    let config = Config {
        profiles: mutation.profiles(),
        cases: 256,
        seed: 7,
        shrink_time: Duration::from_secs(120),
        shrink_steps: 2000,
        corpus: None,
        save: false,
        ci: true,
        jobs: 1,
        ..Config::default()
    };
    let mut driver = MutantDriver::new(name, mutation.clone());
    let report = suite::run(&mut driver, &config, &mut |_| {}).expect("the suite runs");
    let failed: BTreeSet<&str> = report
        .profiles
        .iter()
        .flat_map(|p| p.failures.iter().map(|f| f.requirement))
        .collect();
    let want: BTreeSet<&str> = [intended].into_iter().collect();
    let rendered: Vec<String> = report
        .profiles
        .iter()
        .flat_map(|p| {
            p.failures
                .iter()
                .map(|f| render_failure(p.profile, f, true))
        })
        .collect();
    assert_eq!(
        failed,
        want,
        "{name} ({}) must fail exactly {intended}:\n{}",
        mutation.describe(),
        rendered.join("\n")
    );
    for p in &report.profiles {
        assert!(!p.conformant(), "{name} passes under {}", p.profile);
    }
    // Issue #28 item 6: the report agrees with itself.
    let contradictions = report.contradictions();
    assert!(
        contradictions.is_empty(),
        "{name}: the report contradicts itself:\n{}",
        contradictions.join("\n")
    );
    insta::assert_snapshot!(name, rendered.join("\n"));
}

#[test]
fn chunk_1_coalescer() {
    catches_named("CHUNK-1-coalescer");
}

#[test]
fn chunk_1_retry_duplicator() {
    catches_named("CHUNK-1-retry-duplicator");
}

#[test]
fn chunk_1_splitter() {
    catches_named("CHUNK-1-splitter");
}

#[test]
fn chunk_3_throw_not_recorded() {
    catches_named("CHUNK-3-throw-not-recorded");
}

#[test]
fn chunk_4_failed_stream_dropper() {
    catches_named("CHUNK-4-failed-stream-dropper");
}

#[test]
fn chunk_5_after_cancel_appender() {
    catches_named("CHUNK-5-after-cancel-appender");
}

#[test]
fn live_1_repeated_status() {
    catches_named("LIVE-1-repeated-status");
}

#[test]
fn mirror_1_stream_chunk_emitter() {
    catches_named("MIRROR-1-stream-chunk-emitter");
}

#[test]
fn mirror_2_steering_emitter() {
    catches_named("MIRROR-2-steering-emitter");
}

#[test]
fn mirror_3_turn_start_emitter() {
    catches_named("MIRROR-3-turn-start-emitter");
}

#[test]
fn mirror_4_turn_end_emitter() {
    catches_named("MIRROR-4-turn-end-emitter");
}

#[test]
fn mirror_5_step_start_emitter() {
    catches_named("MIRROR-5-step-start-emitter");
}

#[test]
fn mirror_6_step_end_emitter() {
    catches_named("MIRROR-6-step-end-emitter");
}

#[test]
fn msg_1_first_chunk_uncited() {
    catches_named("MSG-1-first-chunk-uncited");
}

#[test]
fn msg_4_usage_dropped() {
    catches_named("MSG-4-usage-dropped");
}

#[test]
fn msg_5_interrupted_message_missing() {
    catches_named("MSG-5-interrupted-message-missing");
}

#[test]
fn seq_1_seq_gap() {
    catches_named("SEQ-1-seq-gap");
}

#[test]
fn steer_1_steering_wrong_turn() {
    catches_named("STEER-1-steering-wrong-turn");
}

#[test]
fn steer_2_steering_dropper() {
    catches_named("STEER-2-steering-dropper");
}

#[test]
fn step_1_odd_step_numbers() {
    catches_named("STEP-1-odd-step-numbers");
}

#[test]
fn surf_1_user_message_without_surface_op() {
    catches_named("SURF-1-user-message-without-surface-op");
}

#[test]
fn tool_2_result_cites_wrong_event() {
    catches_named("TOOL-2-result-cites-wrong-event");
}

#[test]
fn turn_1_turns_from_two() {
    catches_named("TURN-1-turns-from-two");
}

#[test]
fn turn_4_last_turn_open() {
    catches_named("TURN-4-last-turn-open");
}

#[test]
fn turn_7_continues_after_stop() {
    catches_named("TURN-7-continues-after-stop");
}

#[test]
fn turn_7_max_tokens_not_sticky() {
    catches_named("TURN-7-max-tokens-not-sticky");
}

#[test]
fn turn_8_stops_after_tool_results() {
    catches_named("TURN-8-stops-after-tool-results");
}

#[test]
fn suite_tests_fail_with_the_requirement_and_the_minimal_script() {
    let config = Config {
        profiles: vec![mirrorless_conformance::vocab::Profile::V2026_08],
        cases: 64,
        seed: 7,
        shrink_time: Duration::from_secs(60),
        shrink_steps: 500,
        corpus: None,
        save: false,
        ci: true,
        jobs: 1,
        ..Config::default()
    };
    let mut driver = MutantDriver::new("coalescer", Arc::new(chunk_1_coalescer::Fault));
    let report = Ok(suite::run(&mut driver, &config, &mut |_| {}).expect("the suite runs"));
    let failed = std::panic::catch_unwind(|| {
        mirrorless_conformance::suite::macros::check_requirement(&report, "CHUNK-1")
    });
    let message = failed
        .err()
        .and_then(|p| p.downcast_ref::<String>().cloned())
        .expect("the CHUNK-1 test fails");
    assert!(message.contains("FAIL CHUNK-1"), "{message}");
    assert!(
        message.contains("script: {\"profile\":\"2026-08\""),
        "{message}"
    );
    assert!(message.contains("PROPTEST_RNG_SEED=7"), "{message}");
    // The other requirements' tests pass.
    mirrorless_conformance::suite::macros::check_requirement(&report, "CHUNK-2");
}

/// [`catches`] for the mutant of [`every_mutant`] named `name`.
fn catches_named(name: &str) {
    let (name, mutation) = every_mutant()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no mutant named {name}"));
    catches(name, mutation);
}

/// Every single-fault mutant, by its fixture name.
fn every_mutant() -> Vec<(&'static str, Arc<dyn Mutation>)> {
    vec![
        ("CHUNK-1-coalescer", Arc::new(chunk_1_coalescer::Fault)),
        (
            "CHUNK-1-retry-duplicator",
            Arc::new(chunk_1_retry_duplicator::Fault),
        ),
        ("CHUNK-1-splitter", Arc::new(chunk_1_splitter::Fault)),
        (
            "CHUNK-3-throw-not-recorded",
            Arc::new(chunk_3_throw_not_recorded::Fault),
        ),
        (
            "CHUNK-4-failed-stream-dropper",
            Arc::new(chunk_4_failed_stream_dropper::Fault),
        ),
        (
            "CHUNK-5-after-cancel-appender",
            Arc::new(chunk_5_after_cancel_appender::Fault),
        ),
        (
            "LIVE-1-repeated-status",
            Arc::new(live_1_repeated_status::Fault),
        ),
        (
            "MIRROR-1-stream-chunk-emitter",
            Arc::new(mirror_1_stream_chunk_emitter::Fault),
        ),
        (
            "MIRROR-2-steering-emitter",
            Arc::new(mirror_2_steering_emitter::Fault),
        ),
        (
            "MIRROR-3-turn-start-emitter",
            Arc::new(mirror_3_turn_start_emitter::Fault),
        ),
        (
            "MIRROR-4-turn-end-emitter",
            Arc::new(mirror_4_turn_end_emitter::Fault),
        ),
        (
            "MIRROR-5-step-start-emitter",
            Arc::new(mirror_5_step_start_emitter::Fault),
        ),
        (
            "MIRROR-6-step-end-emitter",
            Arc::new(mirror_6_step_end_emitter::Fault),
        ),
        (
            "MSG-1-first-chunk-uncited",
            Arc::new(msg_1_first_chunk_uncited::Fault),
        ),
        ("MSG-4-usage-dropped", Arc::new(msg_4_usage_dropped::Fault)),
        (
            "MSG-5-interrupted-message-missing",
            Arc::new(msg_5_interrupted_message_missing::Fault),
        ),
        ("SEQ-1-seq-gap", Arc::new(seq_1_seq_gap::Fault)),
        (
            "STEER-1-steering-wrong-turn",
            Arc::new(steer_1_steering_wrong_turn::Fault),
        ),
        (
            "STEER-2-steering-dropper",
            Arc::new(steer_2_steering_dropper::Fault),
        ),
        (
            "STEP-1-odd-step-numbers",
            Arc::new(step_1_odd_step_numbers::Fault),
        ),
        (
            "SURF-1-user-message-without-surface-op",
            Arc::new(surf_1_user_message_without_surface_op::Fault),
        ),
        (
            "TOOL-2-result-cites-wrong-event",
            Arc::new(tool_2_result_cites_wrong_event::Fault),
        ),
        (
            "TURN-1-turns-from-two",
            Arc::new(turn_1_turns_from_two::Fault),
        ),
        (
            "TURN-4-last-turn-open",
            Arc::new(turn_4_last_turn_open::Fault),
        ),
        (
            "TURN-7-continues-after-stop",
            Arc::new(turn_7_continues_after_stop::Fault),
        ),
        (
            "TURN-7-max-tokens-not-sticky",
            Arc::new(turn_7_max_tokens_not_sticky::Fault),
        ),
        (
            "TURN-8-stops-after-tool-results",
            Arc::new(turn_8_stops_after_tool_results::Fault),
        ),
    ]
}

/// Stacked faults that legitimately interact, the first nearer the loop than the second: with
/// both, the requirement listed (`-ID`) is not violated at all, or another (`+ID`) is, for the
/// reason given. The stack must then fail exactly the union so changed.
const INTERACTIONS: &[(&str, &str, &str, &str)] = &[(
    "TURN-4-last-turn-open",
    "TURN-8-stops-after-tool-results",
    "+LIVE-7",
    "the TURN-8 fault hides what the loop says until the turn's `turn/end`; the TURN-4 fault \
     withholds the last `turn/end`, so the hiding never stops and the loop's `agent/disposed` \
     is hidden too",
)];

/// Whether `a` is nearer the loop than `b` in the stack `names`.
fn nearer(names: &[&str], a: &str, b: &str) -> bool {
    let at = |n| names.iter().position(|x| *x == n);
    matches!((at(a), at(b)), (Some(i), Some(j)) if i < j)
}

/// A small deterministic generator (the sample must not change from run to run).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Issue #28 item 2, in process: the reference loop behind several faults at once (each
/// mutation stacked on the next, in a drawn order) fails, in each profile, exactly the union
/// of the requirements of the faults observable there — "each requirement judged on every case
/// on its own" — and its report agrees with itself. A seeded sample of pairs and triples and
/// one stack of five; `MIRRORLESS_COMBINATIONS=N` draws N of each size instead, and
/// `MIRRORLESS_STACK=A,B` runs one named stack.
#[test]
fn stacked_faults_fail_exactly_the_union_of_their_requirements() {
    let all = every_mutant();
    let per_size: usize = std::env::var("MIRRORLESS_COMBINATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6);
    let mut rng = Lcg(28);
    let mut stacks: Vec<Vec<usize>> = Vec::new();
    for size in [2, 2, 3, 5] {
        let draws = if size == 5 { 1 } else { per_size / 2 };
        for _ in 0..draws {
            let mut stack: Vec<usize> = Vec::new();
            while stack.len() < size {
                let i = rng.below(all.len());
                // One fault per requirement: two faults of one requirement are one row.
                if !stack
                    .iter()
                    .any(|&j| all[j].1.requirement() == all[i].1.requirement())
                {
                    stack.push(i);
                }
            }
            // A fault that calls the host when it sees an event goes nearest the loop when
            // the stack holds events back (`Mutation::reacts_through_the_host`).
            stack.sort_by_key(|&i| !all[i].1.reacts_through_the_host());
            stacks.push(stack);
        }
    }
    // `MIRRORLESS_STACK=A,B,…` runs that one stack of fixture names instead (to study a failure).
    if let Ok(named) = std::env::var("MIRRORLESS_STACK") {
        stacks = vec![
            named
                .split(',')
                .map(|n| {
                    all.iter()
                        .position(|(name, _)| *name == n.trim())
                        .unwrap_or_else(|| panic!("MIRRORLESS_STACK: no fixture named {n}"))
                })
                .collect(),
        ];
    }
    let mut problems = Vec::new();
    for stack in &stacks {
        let holds = stack.iter().position(|&i| all[i].1.holds_events_back());
        let reacts = stack
            .iter()
            .rposition(|&i| all[i].1.reacts_through_the_host());
        if let (Some(h), Some(r)) = (holds, reacts) {
            assert!(
                r < h,
                "{} holds events back nearer the loop than {} reacts to them: not two faults but another",
                all[stack[h]].0,
                all[stack[r]].0
            );
        }
        let names: Vec<&str> = stack.iter().map(|&i| all[i].0).collect();
        let mutations: Vec<Arc<dyn Mutation>> = stack.iter().map(|&i| all[i].1.clone()).collect();
        let mut profiles: Vec<_> = mutations.iter().flat_map(|m| m.profiles()).collect();
        profiles.sort();
        profiles.dedup();
        let config = Config {
            profiles: profiles.clone(),
            cases: 128,
            seed: 7,
            shrink_time: Duration::from_secs(20),
            shrink_steps: 200,
            corpus: None,
            save: false,
            ci: true,
            jobs: 1,
            ..Config::default()
        };
        let name = names.join("+");
        let mut driver = MutantDriver::stacked(&name, mutations.clone());
        let report = suite::run(&mut driver, &config, &mut |_| {}).expect("the suite runs");
        for p in &report.profiles {
            let failed: BTreeSet<&str> = p.failures.iter().map(|f| f.requirement).collect();
            let mut want: BTreeSet<&str> = mutations
                .iter()
                .filter(|m| m.profiles().contains(&p.profile))
                .map(|m| m.requirement())
                .collect();
            for (a, b, change, _) in INTERACTIONS {
                if nearer(&names, a, b) {
                    match change.split_at(1) {
                        ("+", id) => want.insert(id),
                        (_, id) => want.remove(id),
                    };
                }
            }
            if failed != want {
                let rendered: Vec<String> = p
                    .failures
                    .iter()
                    .map(|f| render_failure(p.profile, f, true))
                    .collect();
                problems.push(format!(
                    "{name} under {}: failed {failed:?}, want {want:?}\n{}",
                    p.profile,
                    rendered.join("\n")
                ));
            }
        }
        let contradictions = report.contradictions();
        if !contradictions.is_empty() {
            problems.push(format!(
                "{name}: the report contradicts itself:\n{}",
                contradictions.join("\n")
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}
