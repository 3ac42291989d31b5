//! Per-requirement verdicts of a run: every requirement a case violates is counted and gets
//! its own minimal counterexample; SHOULD findings are warnings, counted and shrunk the same
//! way, and fail the run only with `deny_warnings`; shards of one seed split the run exactly.

#[path = "../../fixtures/impls/broken-rs/mutant.rs"]
mod mutant;

#[path = "../../fixtures/impls/broken-rs/all-mirrors-emitter.rs"]
mod all_mirrors_emitter;
#[path = "../../fixtures/impls/broken-rs/LIVE-2-renamed-mirror.rs"]
mod live_2_renamed_mirror;

use mirrorless_conformance::driver::in_process;
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::report::{render_human, render_json, render_junit};
use mirrorless_conformance::suite::{self, Config, Partition, RunReport, Status};
use mirrorless_conformance::vocab::Profile;
use mutant::{MutantDriver, Mutation};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

const MIRRORS: [&str; 6] = [
    "MIRROR-1", "MIRROR-2", "MIRROR-3", "MIRROR-4", "MIRROR-5", "MIRROR-6",
];

fn config(cases: u64) -> Config {
    Config {
        profiles: Profile::ALL.to_vec(),
        cases,
        seed: 7,
        shrink_time: Duration::from_secs(120),
        shrink_steps: 300,
        corpus: None,
        save: false,
        ci: true,
        jobs: 1,
        ..Config::default()
    }
}

fn run_mutant(mutation: Arc<dyn Mutation>, config: &Config) -> RunReport {
    let mut driver = MutantDriver::new(mutation.describe(), mutation);
    suite::run(&mut driver, config, &mut |_| {}).expect("the suite runs")
}

#[test]
fn a_loop_firing_all_six_mirrors_fails_each_under_its_own_id() {
    let report = run_mutant(Arc::new(all_mirrors_emitter::Fault), &config(128));
    for p in &report.profiles {
        let failed: BTreeMap<&str, u64> = p
            .requirements
            .iter()
            .filter(|r| r.status == Status::Fail)
            .map(|r| (r.id, r.failures))
            .collect();
        assert_eq!(
            failed.keys().copied().collect::<BTreeSet<_>>(),
            MIRRORS.into_iter().collect(),
            "{}: {failed:?}",
            p.profile
        );
        // Every failing case has a turn, so it fires MIRROR-3 and -4; the others only where
        // their twin occurs (a 2026-07 idle injection has no step, steering is rarer): each
        // is counted on its own.
        for id in ["MIRROR-3", "MIRROR-4"] {
            assert_eq!(failed[id], p.failed_cases, "{} {id}", p.profile);
        }
        for id in ["MIRROR-1", "MIRROR-5", "MIRROR-6"] {
            assert!(
                failed[id] > p.failed_cases / 2,
                "{} {id}: {failed:?}",
                p.profile
            );
        }
        assert!(failed["MIRROR-2"] > 0 && failed["MIRROR-2"] < p.failed_cases);
        // One counterexample per requirement, each with that requirement's finding.
        let shown: Vec<&str> = p.failures.iter().map(|f| f.requirement).collect();
        assert_eq!(shown.len(), 6, "{shown:?}");
        for f in &p.failures {
            assert_eq!(f.finding.requirement, f.requirement);
            assert!(f.finding.error);
            // The primary leads: a requirement that is not the case's primary names it, and
            // the primary finding comes first among the others.
            if let Some(primary) = f.attributed_to {
                assert_ne!(primary, f.requirement);
                assert_eq!(f.also.first().map(|a| a.requirement), Some(primary));
            }
        }
        // The first counterexample is for the primary requirement of its case.
        assert_eq!(p.failures[0].attributed_to, None);
        // MIRROR-2's minimal case was shrunk for MIRROR-2: it still steers, and is small.
        let steer = p
            .failures
            .iter()
            .find(|f| f.requirement == "MIRROR-2")
            .expect("MIRROR-2 has a counterexample");
        assert!(steer.case.script.calls().any(|(_, c)| !c.steer.is_empty()));
        assert!(
            steer.shrunk_chunks < steer.original_chunks,
            "{}",
            steer.case
        );
    }
    let human = render_human(&report);
    assert!(
        human.contains("failed: MIRROR-1 ("),
        "the summary counts each requirement:\n{human}"
    );
    for id in MIRRORS {
        assert!(human.contains(&format!("FAIL {id} — ")), "{id}:\n{human}");
    }
    let junit = render_junit(&report);
    assert_eq!(junit.matches("<failure ").count(), 12, "{junit}");
    let json: serde_json::Value = serde_json::from_str(&render_json(&report)).expect("json");
    let p0 = &json["report"]["profiles"][0];
    let m2 = p0["requirements"]
        .as_array()
        .expect("requirements")
        .iter()
        .find(|r| r["id"] == "MIRROR-2")
        .expect("MIRROR-2");
    assert_eq!(m2["status"], "fail");
    assert!(m2["failures"].as_u64().is_some_and(|n| n > 0));
}

#[test]
fn should_findings_are_warnings_counted_with_a_minimal_case() {
    let mut c = config(64);
    let report = run_mutant(Arc::new(live_2_renamed_mirror::Fault), &c);
    // The renamed mirror is in no vocabulary (LIVE-2) and repeats the chunk it follows
    // (LIVE-9): two SHOULDs, each with its own count and minimal case.
    let should = ["LIVE-2", "LIVE-9"];
    for p in &report.profiles {
        for id in should {
            let r = p
                .requirements
                .iter()
                .find(|r| r.id == id)
                .unwrap_or_else(|| panic!("{id} is driver-enforced"));
            assert_eq!(r.status, Status::Warn, "{id} {}", p.profile);
            assert_eq!(r.warnings, p.warned_cases, "{id}");
            assert!(r.warnings > 0);
        }
        assert!(p.failures.is_empty(), "{:?}", p.failures);
        let warned: BTreeSet<&str> = p.warnings.iter().map(|w| w.requirement).collect();
        assert_eq!(warned, BTreeSet::from(should));
        for w in &p.warnings {
            assert!(!w.finding.error);
            assert!(w.shrunk_chunks < w.original_chunks);
        }
        let live_9 = p
            .warnings
            .iter()
            .find(|w| w.requirement == "LIVE-9")
            .map(|w| &w.finding)
            .expect("a LIVE-9 warning");
        assert!(
            live_9
                .message
                .contains("`agent/stream-chunks` repeats the durable `assistant/chunk`"),
            "{}",
            live_9.message
        );
        assert!(p.conformant(), "warnings alone do not fail");
    }
    assert!(report.conformant());
    let human = render_human(&report);
    assert!(human.contains("WARN LIVE-2 — "), "{human}");
    assert!(human.contains("WARN LIVE-9 — "), "{human}");
    assert!(human.contains("warnings (SHOULD; --deny-warnings makes them fail): LIVE-2 ("));
    let junit = render_junit(&report);
    assert!(!junit.contains("<failure"), "{junit}");
    assert!(junit.contains("case(s) violate this SHOULD"), "{junit}");

    c.deny_warnings = true;
    let denied = run_mutant(Arc::new(live_2_renamed_mirror::Fault), &c);
    assert!(!denied.conformant());
    assert!(denied.profiles.iter().all(|p| !p.conformant()));
    let junit = render_junit(&denied);
    assert_eq!(junit.matches("type=\"warning\"").count(), 4, "{junit}");
}

#[test]
fn the_shards_of_a_seed_run_exactly_the_unsharded_cases() {
    let run = |partition: Option<Partition>| {
        let c = Config {
            partition,
            case_ids: true,
            cases: 60,
            ..config(0)
        };
        let mut driver = in_process::<ReferenceLoop>("reference");
        suite::run(&mut driver, &c, &mut |_| {}).expect("runs")
    };
    let whole = run(None);
    for kind in ["count", "hash"] {
        let mut union: Vec<Vec<String>> = vec![Vec::new(); whole.profiles.len()];
        for k in 1..=3 {
            let shard = run(Some(format!("{kind}:{k}/3").parse().expect("partition")));
            for (i, p) in shard.profiles.iter().enumerate() {
                assert!(p.generated < 60 && p.generated > 0, "{kind} {k}");
                // Coverage is the whole run's in every shard.
                assert_eq!(p.coverage, whole.profiles[i].coverage);
                assert_eq!(
                    p.requirements
                        .iter()
                        .map(|r| r.exercised)
                        .collect::<Vec<_>>(),
                    whole.profiles[i]
                        .requirements
                        .iter()
                        .map(|r| r.exercised)
                        .collect::<Vec<_>>()
                );
                assert!(
                    p.conformant(),
                    "a small shard does not fail for being small"
                );
                assert_eq!(p.whole_run_generated, 60);
                union[i].extend(p.case_ids.to_strings());
            }
            let human = render_human(&shard);
            assert!(
                human.contains(&format!("  shard {kind}:{k}/3: ")),
                "{human}"
            );
        }
        for (i, ids) in union.iter_mut().enumerate() {
            let mut all = whole.profiles[i].case_ids.to_strings();
            assert_eq!(ids.len(), all.len(), "{kind}: shards are disjoint");
            ids.sort();
            all.sort();
            assert_eq!(*ids, all, "{kind}: the union is the unsharded run");
        }
    }
}

#[test]
fn a_run_that_executes_no_case_is_never_conformant() {
    let mut driver = in_process::<ReferenceLoop>("reference");
    let none = suite::run(&mut driver, &config(0), &mut |_| {}).expect("runs");
    assert!(!none.conformant());
    assert_eq!(none.problems.len(), 2, "{:?}", none.problems);
    assert!(none.problems[0].contains("no case was executed (--cases 0"));
    let empty = Config {
        profiles: Vec::new(),
        ..config(10)
    };
    let none = suite::run(&mut driver, &empty, &mut |_| {}).expect("runs");
    assert!(!none.conformant());
    assert!(none.problems[0].contains("no profile to run"));
    let tiny = Config {
        partition: Some("3/3".parse().expect("partition")),
        ..config(2)
    };
    let none = suite::run(&mut driver, &tiny, &mut |_| {}).expect("runs");
    assert!(!none.conformant());
    assert!(none.problems[0].contains("shard count:3/3 holds none of the 2 case(s)"));
}
