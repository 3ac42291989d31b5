//! In-process, every live event is seen: a loop that reports its live events by name
//! (`Host::emit_named`) and still fires two removed mirrors fails `suite!`'s MIRROR-1 and
//! MIRROR-3 tests, and only those, as it would over stdio.

#[path = "../../fixtures/impls/broken-rs/string-bus-mirrors.rs"]
mod string_bus_mirrors;

use mirrorless_conformance::driver::in_process;
use mirrorless_conformance::suite::macros::{SUITE_REQUIREMENTS, check_requirement};
use mirrorless_conformance::suite::{self, Config};
use mirrorless_conformance::vocab::Profile;
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;
use string_bus_mirrors::StringBusLoop;

#[test]
fn mirrors_emitted_by_string_fail_exactly_their_suite_tests() {
    let config = Config {
        profiles: Profile::ALL.to_vec(),
        seed: 7,
        shrink_time: Duration::from_secs(20),
        shrink_steps: 300,
        ci: true,
        jobs: 1,
        ..Config::default()
    };
    let mut driver = in_process::<StringBusLoop>("StringBusLoop");
    let report = suite::run(&mut driver, &config, &mut |_| {}).map_err(|e| e.to_string());
    // What each `suite!` test does: `check_requirement` panics when its requirement fails.
    let mut failed = BTreeSet::new();
    let mut messages = Vec::new();
    for id in SUITE_REQUIREMENTS {
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| check_requirement(&report, id))) {
            failed.insert(*id);
            messages.push(panic.downcast_ref::<String>().cloned().unwrap_or_default());
        }
    }
    assert_eq!(
        failed,
        BTreeSet::from(["MIRROR-1", "MIRROR-3"]),
        "{}",
        messages.join("\n")
    );
    let text = messages.join("\n");
    for name in ["agent/stream-chunk", "agent/turn-start"] {
        assert!(
            text.contains(&format!("removed live event `{name}`")),
            "{name}:\n{text}"
        );
    }
    // Both profiles fail both, in every case that has the twin: every generated case has a
    // turn, so MIRROR-3 counts every case.
    let Ok(report) = report else {
        panic!("the suite did not run")
    };
    for p in &report.profiles {
        let m3 = p
            .requirements
            .iter()
            .find(|r| r.id == "MIRROR-3")
            .map(|r| r.failures);
        assert_eq!(m3, Some(p.failed_cases), "{}", p.profile);
        assert!(p.failed_cases > 0, "{}", p.profile);
    }
}
