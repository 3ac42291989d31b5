//! The reference implementation passes the oracle on generated cases of both profiles.

use mirrorless_conformance::driver::{Driver, in_process};
use mirrorless_conformance::oracle::evaluate;
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::scenario::generate::cases;
use mirrorless_conformance::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;

#[test]
fn reference_passes_generated_cases() {
    let mut driver = in_process::<ReferenceLoop>("reference");
    for profile in Profile::ALL {
        let mut runner = TestRunner::deterministic();
        let strategy = cases(profile);
        for _ in 0..400 {
            let case = strategy.new_tree(&mut runner).expect("tree").current();
            let obs = driver.run_case(&case).expect("runs");
            let verdict = evaluate(&case, &obs);
            assert!(
                verdict.passed(),
                "{profile}: {:#?}\ncase: {case}\nlog: {}",
                verdict.findings,
                obs.log
                    .iter()
                    .map(|e| serde_json::to_string(e).unwrap())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }
}
