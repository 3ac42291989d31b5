//! `-j` does not change a run. Issue #32 item 2: "`run` uses every core: a worker pool that
//! lives for the whole run, … with results identical to `-j 1` for the same seed"; and the
//! runner's contract (`suite` module docs): "Everything is deterministic for a given seed".
//! Each test runs the same seed with 1, 2 and 3 jobs and compares the whole JSON report (the
//! counts, the coverage, every counterexample as found and as shrunk, the problems), leaving
//! out only the clock (`seconds`, `cases_per_second`).

#[path = "../../fixtures/impls/broken-rs/mutant.rs"]
mod mutant;

#[path = "../../fixtures/impls/broken-rs/all-mirrors-emitter.rs"]
mod all_mirrors_emitter;
#[path = "../../fixtures/impls/broken-rs/CHUNK-1-coalescer.rs"]
mod chunk_1_coalescer;
#[path = "../../fixtures/impls/broken-rs/TURN-8-stops-after-tool-results.rs"]
mod turn_8_stops_after_tool_results;

use mirrorless_conformance::driver::{Driver, HarnessError, InProcess, Observation, in_process};
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::report::render_json;
use mirrorless_conformance::scenario::Case;
use mirrorless_conformance::suite::{self, Config, PartitionKind, RunReport};
use mirrorless_conformance::vocab::Profile;
use mutant::{MutantDriver, Mutation};
use std::sync::Arc;
use std::time::Duration;

fn config(seed: u64, cases: u64, jobs: usize) -> Config {
    Config {
        profiles: Profile::ALL.to_vec(),
        cases,
        seed,
        // Shrinking is bounded by its steps only, so that it does not depend on the clock.
        shrink_time: Duration::from_secs(600),
        shrink_steps: 200,
        corpus: None,
        save: false,
        ci: true,
        jobs,
        case_ids: true,
        ..Config::default()
    }
}

/// The JSON report without what the clock decides.
fn normalized(report: &RunReport) -> serde_json::Value {
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
    let mut v: serde_json::Value =
        serde_json::from_str(&render_json(report)).expect("the report is JSON");
    strip(&mut v);
    v
}

/// Runs `config` with 1, 2 and 3 jobs on drivers from `driver`, asserts the three reports
/// are the same, and returns it.
fn same_for_every_jobs(
    config: &Config,
    driver: impl Fn() -> Box<dyn Driver>,
) -> (RunReport, serde_json::Value) {
    let mut first: Option<(RunReport, serde_json::Value)> = None;
    for jobs in [1, 2, 3] {
        let config = Config {
            jobs,
            ..config.clone()
        };
        let mut d = driver();
        let report = suite::run(d.as_mut(), &config, &mut |_| {}).expect("the suite runs");
        let json = normalized(&report);
        match &first {
            None => first = Some((report, json)),
            Some((_, expected)) => assert!(
                json == *expected,
                "seed {}, --jobs {jobs} differs from --jobs 1:\n{}\n--- against ---\n{}",
                config.seed,
                serde_json::to_string_pretty(&json).unwrap_or_default(),
                serde_json::to_string_pretty(expected).unwrap_or_default()
            ),
        }
    }
    first.expect("ran")
}

fn mutant(mutation: Arc<dyn Mutation>) -> Box<dyn Driver> {
    Box::new(MutantDriver::new(mutation.describe(), mutation))
}

#[test]
fn the_reference_gives_the_same_report_with_one_two_and_three_jobs() {
    for seed in [1, 2, 3] {
        let (report, _) = same_for_every_jobs(&config(seed, 150, 1), || {
            Box::new(in_process::<ReferenceLoop>("reference"))
        });
        assert!(report.conformant(), "seed {seed}: the reference conforms");
        // More cases than one chunk of a lane, so that the pool's workers share the run.
        assert!(report.profiles.iter().all(|p| p.generated == 150));
    }
}

#[test]
fn failures_counterexamples_and_shrinking_are_the_same_whatever_the_jobs() {
    let mutations: [Arc<dyn Mutation>; 3] = [
        Arc::new(all_mirrors_emitter::Fault),
        Arc::new(chunk_1_coalescer::Fault),
        Arc::new(turn_8_stops_after_tool_results::Fault),
    ];
    for mutation in mutations {
        for seed in [4, 5] {
            let m = Arc::clone(&mutation);
            let (report, _) = same_for_every_jobs(&config(seed, 100, 1), || mutant(Arc::clone(&m)));
            let failures: usize = report.profiles.iter().map(|p| p.failures.len()).sum();
            // The comparison covers counterexamples, shrunk ones among them.
            assert!(failures > 0, "{}: seed {seed} fails", mutation.describe());
            assert!(
                report
                    .profiles
                    .iter()
                    .flat_map(|p| &p.failures)
                    .any(|f| f.shrink_steps > 0),
                "{}: seed {seed} shrinks",
                mutation.describe()
            );
        }
    }
}

#[test]
fn a_shard_of_the_run_is_the_same_whatever_the_jobs() {
    for kind in [PartitionKind::Count, PartitionKind::Hash] {
        let spec = match kind {
            PartitionKind::Count => "2/3",
            PartitionKind::Hash => "hash:1/2",
        };
        let config = Config {
            partition: Some(spec.parse().expect("a partition")),
            ..config(9, 120, 1)
        };
        let (report, _) =
            same_for_every_jobs(&config, || mutant(Arc::new(chunk_1_coalescer::Fault)));
        assert!(report.profiles.iter().all(|p| p.generated < 120), "{spec}");
    }
}

/// The reference loop, except that every case whose id ends in one of `suffixes` is a harness
/// fault: the same cases whichever thread runs them.
#[derive(Clone)]
struct FaultsOn {
    inner: InProcess,
    suffixes: &'static [&'static str],
    recovers: bool,
}

impl Driver for FaultsOn {
    fn name(&self) -> String {
        "faults on some cases".into()
    }

    fn replay_command(&self, case_file: &str) -> String {
        self.inner.replay_command(case_file)
    }

    fn run_case(&mut self, case: &Case) -> Result<Observation, HarnessError> {
        let id = case.id();
        if self.suffixes.iter().any(|s| id.ends_with(s)) {
            return Err(HarnessError(format!("a fault on case {id}")));
        }
        self.inner.run_case(case)
    }

    fn fork(&self) -> Option<Box<dyn Driver + Send>> {
        Some(Box::new(self.clone()))
    }

    fn recovers(&self) -> bool {
        self.recovers
    }
}

#[test]
fn faults_the_driver_recovers_from_are_reported_the_same_whatever_the_jobs() {
    let (report, _) = same_for_every_jobs(&config(11, 200, 1), || {
        Box::new(FaultsOn {
            inner: in_process::<ReferenceLoop>("reference"),
            suffixes: &["0"],
            recovers: true,
        })
    });
    let faulted: u64 = report.profiles.iter().map(|p| p.faulted_cases).sum();
    assert!(faulted > 0, "some cases fault");
    assert!(
        report
            .profiles
            .iter()
            .all(|p| p.generated + p.faulted_cases == 200)
    );
}

#[test]
fn a_fault_that_ends_the_run_ends_it_at_the_same_case_whatever_the_jobs() {
    // "a stop ... or a fault it does not recover from ends the run with the report of what
    // ran" (`suite` module docs): what ran must not depend on the cases other threads had
    // started. A case id ends in one of these four in 1 of 64 cases: the first usually comes
    // after a chunk or two of a lane (32 cases each), while the other threads run ahead.
    let (report, json) = same_for_every_jobs(&config(12, 400, 1), || {
        Box::new(FaultsOn {
            inner: in_process::<ReferenceLoop>("reference"),
            suffixes: &["7b", "a0", "3c", "e5"],
            recovers: false,
        })
    });
    let first = &report.profiles[0];
    assert_eq!(
        report.profiles.len(),
        1,
        "the run ends in its first profile"
    );
    assert!(first.generated > 0 && first.generated < 400, "{json}");
    assert_eq!(first.faulted_cases, 1);
}
