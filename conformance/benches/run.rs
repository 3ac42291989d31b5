//! `cargo bench -p mirrorless-conformance --bench run`: in-process throughput of the driver
//! with the reference implementation, stage by stage. Results are recorded in
//! `docs/benchmarks/run.md`.

use mirrorless_conformance::driver::{Driver, in_process};
use mirrorless_conformance::oracle::{evaluate, oracle_findings};
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::scenario::generate::cases;
use mirrorless_conformance::suite::{self, Config};
use mirrorless_conformance::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::time::Instant;

const CASES: u64 = 20_000;

/// CPU seconds used by the whole process (all threads), from `/proc/self/stat` (Linux; clock
/// ticks of 1/100 s). On a shared machine the wall-clock rate depends on the other load; the
/// rate per CPU second does not.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn line(profile: Profile, name: &str, cases: u64, wall: f64, cpu: Option<f64>) {
    let per_cpu = cpu
        .filter(|c| *c > 0.0)
        .map_or("n/a".to_owned(), |c| format!("{:.0}", cases as f64 / c));
    println!(
        "{profile}  {name:<40} {:>8.0} cases/s wall   {per_cpu:>8} cases per CPU-second",
        cases as f64 / wall
    );
}

fn stage(name: &str, profile: Profile, mut f: impl FnMut(&mirrorless_conformance::scenario::Case)) {
    let mut runner = TestRunner::deterministic();
    let strategy = cases(profile);
    let cpu0 = cpu_seconds();
    let start = Instant::now();
    for _ in 0..CASES {
        let case = strategy.new_tree(&mut runner).expect("generates").current();
        f(&case);
    }
    let wall = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu0).map(|(a, b)| a - b);
    line(profile, name, CASES, wall, cpu);
}

fn main() {
    for profile in Profile::ALL {
        let mut driver = in_process::<ReferenceLoop>("reference");
        stage("generate", profile, |_| {});
        // What the runner adds per case for the case-id list and --partition.
        stage("generate + case id", profile, |c| {
            std::hint::black_box(c.id());
        });
        stage("generate + run", profile, |c| {
            let _ = driver.run_case(c);
        });
        stage("generate + run + oracle", profile, |c| {
            if let Ok(obs) = driver.run_case(c) {
                let _ = oracle_findings(c, &obs);
            }
        });
        stage("generate + run + oracle + checker", profile, |c| {
            if let Ok(obs) = driver.run_case(c) {
                let _ = evaluate(c, &obs);
            }
        });
        for jobs in [1, 2] {
            let config = Config {
                profiles: vec![profile],
                cases: CASES,
                jobs,
                ..Config::default()
            };
            let cpu0 = cpu_seconds();
            let start = Instant::now();
            let report = suite::run(&mut driver, &config, &mut |_| {}).expect("runs");
            let wall = start.elapsed().as_secs_f64();
            let cpu = cpu_seconds().zip(cpu0).map(|(a, b)| a - b);
            assert!(report.conformant(), "the reference must conform");
            line(
                profile,
                &format!("suite::run, --jobs {jobs} (mirrorless run)"),
                CASES,
                wall,
                cpu,
            );
        }
    }
    println!(
        "machine: {} core(s) available; load average {}",
        std::thread::available_parallelism().map_or(1, usize::from),
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
}
