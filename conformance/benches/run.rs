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

fn stage(name: &str, profile: Profile, mut f: impl FnMut(&mirrorless_conformance::scenario::Case)) {
    let mut runner = TestRunner::deterministic();
    let strategy = cases(profile);
    let start = Instant::now();
    for _ in 0..CASES {
        let case = strategy.new_tree(&mut runner).expect("generates").current();
        f(&case);
    }
    let s = start.elapsed().as_secs_f64();
    println!("{profile}  {name:<38} {:>8.0} cases/s", CASES as f64 / s);
}

fn main() {
    for profile in Profile::ALL {
        let mut driver = in_process::<ReferenceLoop>("reference");
        stage("generate", profile, |_| {});
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
        let config = Config {
            profiles: vec![profile],
            cases: CASES,
            ..Config::default()
        };
        let report = suite::run(&mut driver, &config, &mut |_| {}).expect("runs");
        println!(
            "{profile}  {:<38} {:>8.0} cases/s",
            "suite::run (what `mirrorless run` does)", report.profiles[0].cases_per_second
        );
    }
}
