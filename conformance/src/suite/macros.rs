//! `suite!`: one `#[test]` per requirement for an in-process implementation.
//!
//! ```ignore
//! use mirrorless_conformance::driver::{AgentLoop, Host};
//! struct MyLoop { /* … */ }
//! impl AgentLoop for MyLoop { /* … */ }
//! mirrorless_conformance::suite!(MyLoop);
//! ```
//!
//! expands to a module `mirrorless_conformance_suite` with one test per requirement the driver
//! enforces (`chunk_1`, `mirror_3`, …), plus `coverage` (anti-vacuity), `no_crash`, and one
//! test per profile (`profile_2026_07`, `profile_2026_08`: the profile ran and conforms). The
//! suite runs once per test binary (the first test to need it runs it; the others read the
//! shared result), under every selected profile, honouring `PROPTEST_CASES`, `PROPTEST_RNG_SEED`,
//! `PROPTEST_MAX_SHRINK_TIME` and `PROPTEST_MAX_SHRINK_ITERS`. A failing test names its
//! requirement and prints the minimal counterexample as JSON. `MIRRORLESS_CORPUS=DIR` replays
//! the case files in `DIR` first and saves new counterexamples there.
//!
//! A loop that implements only some profiles names them (the [`Profile`] variants):
//!
//! ```ignore
//! mirrorless_conformance::suite!(MyLoop, profiles = [V2026_08]);
//! ```
//!
//! Only those run. Each unselected profile's test (`profile_2026_07` here) is ignored with the
//! reason, so `cargo test` lists it as `ignored`, never as passing; run with `--ignored`, it fails
//! and says why. The requirement tests judge the selected profiles only; a requirement of an
//! unselected profile alone (`steer_1` without 2026-07) is ignored the same way.

use super::{Config, RunReport, Status, run};
use crate::driver::{AgentLoop, InProcess};
use crate::vocab::Profile;

/// The requirement IDs the macro makes a test for, in registry order. A unit test checks the
/// list against the registry, so it cannot drift.
pub const SUITE_REQUIREMENTS: &[&str] = &[
    "SEQ-1", "SURF-1", "SURF-2", "SURF-3", "TURN-1", "TURN-2", "TURN-3", "TURN-4", "TURN-6",
    "TURN-7", "TURN-8", "TURN-9", "STEP-1", "STEP-2", "STEP-3", "CHUNK-1", "CHUNK-2", "CHUNK-3",
    "CHUNK-4", "CHUNK-5", "CHUNK-6", "MSG-1", "MSG-3", "MSG-4", "MSG-5", "MSG-6", "TOOL-1",
    "TOOL-2", "TOOL-3", "TOOL-4", "STEER-1", "STEER-2", "MIRROR-1", "MIRROR-2", "MIRROR-3",
    "MIRROR-4", "MIRROR-5", "MIRROR-6", "LIVE-1", "LIVE-2", "LIVE-3", "LIVE-4", "LIVE-5", "LIVE-6",
    "LIVE-7", "LIVE-8", "LIVE-9",
    // The durable records of user, model and tools (branch `durable`).
    "MSG-7", "MSG-8", "MSG-9", "TOOL-5", "TURN-10", "TURN-11",
];

/// Runs the suite for `L` under `profiles` with [`Config::from_env`]; the `suite!` tests share
/// the result.
pub fn run_for_tests<L: AgentLoop + 'static>(
    name: &str,
    profiles: &[Profile],
) -> Result<RunReport, String> {
    let mut driver = InProcess::new(name, |p: Profile| Box::new(L::new(p)) as Box<dyn AgentLoop>)
        .with_replay_command(
            "put {case} in a directory DIR and run `MIRRORLESS_CORPUS=DIR cargo test` (it is replayed first)",
        );
    let mut config = Config::from_env();
    config.profiles = profiles.to_vec();
    run(&mut driver, &config, &mut |_| {}).map_err(|e| e.to_string())
}

/// Fails (panics) unless `profile` ran at least one case and conforms, naming what failed.
pub fn check_profile(report: &Result<RunReport, String>, profile: Profile) {
    let report = report_of(report);
    let Some(p) = report.profiles.iter().find(|p| p.profile == profile) else {
        panic!("{profile} did not run, so nothing under it passed");
    };
    if p.conformant() {
        return;
    }
    let failed: Vec<&str> = p
        .requirements
        .iter()
        .filter(|r| r.counts_as_failure())
        .map(|r| r.id)
        .collect();
    let low = p.coverage.iter().filter(|l| l.count < l.minimum).count();
    panic!(
        "{profile} does not conform: {} case(s) failed; failing or never exercised: {}; \
         coverage labels under their minimum: {low}; each requirement's test shows its \
         counterexample\nseed {} (reproduce with PROPTEST_RNG_SEED={})",
        p.failed_cases,
        if failed.is_empty() {
            "none".to_owned()
        } else {
            failed.join(", ")
        },
        report.seed,
        report.seed
    );
}

/// The body of an unselected profile's (ignored) test: run with `--ignored`, it fails, so a
/// profile the loop does not implement can never pass.
pub fn unselected_profile(profile: Profile) -> ! {
    panic!(
        "{profile} is not selected in `suite!(…, profiles = […])`: skipped, nothing was checked \
         under it"
    );
}

fn report_of(report: &Result<RunReport, String>) -> &RunReport {
    match report {
        Ok(r) => r,
        Err(e) => panic!("the conformance suite could not run: {e}"),
    }
}

/// Fails (panics) if `requirement` failed or was not exercised under some profile.
pub fn check_requirement(report: &Result<RunReport, String>, requirement: &str) {
    let report = report_of(report);
    let mut problems = Vec::new();
    for p in &report.profiles {
        if let Some(f) = p.failures.iter().find(|f| f.requirement == requirement) {
            problems.push(crate::report::render_failure(p.profile, f, false));
        }
        if let Some(r) = p.requirements.iter().find(|r| r.id == requirement)
            && r.status == Status::NotExercised
        {
            problems.push(format!(
                "{requirement} was never exercised under {} in {} cases: raise PROPTEST_CASES",
                p.profile, p.generated
            ));
        }
        if let Some(r) = p.requirements.iter().find(|r| r.id == requirement)
            && r.status == Status::NotJudged
            && r.counts_as_failure()
        {
            problems.push(format!(
                "{requirement} was never judged under {}: {}",
                p.profile,
                r.masked_note().unwrap_or_default()
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\nseed {} (reproduce with PROPTEST_RNG_SEED={})",
        problems.join("\n"),
        report.seed,
        report.seed
    );
}

/// Fails if a coverage label stayed under its minimum.
pub fn check_coverage(report: &Result<RunReport, String>) {
    let report = report_of(report);
    let low: Vec<String> = report
        .profiles
        .iter()
        .flat_map(|p| {
            p.coverage
                .iter()
                .filter(|l| l.count < l.minimum)
                .map(move |l| {
                    format!(
                        "{}: `{}` in {} cases, minimum {}",
                        p.profile, l.name, l.count, l.minimum
                    )
                })
        })
        .collect();
    assert!(low.is_empty(), "coverage too low:\n{}", low.join("\n"));
}

/// Fails if the implementation crashed on some case.
pub fn check_no_crash(report: &Result<RunReport, String>) {
    check_requirement(report, crate::oracle::CRASH);
}

/// Expands to one `#[test]` per requirement for an in-process [`AgentLoop`] type; see the
/// [module docs](crate::suite::macros).
#[macro_export]
macro_rules! suite {
    () => {
        ::core::compile_error!(
            "`suite!` needs the agent loop type to test: `mirrorless_conformance::suite!(MyLoop);`"
        );
    };
    ($impl:ty) => {
        // Checked in every build, so that misuse is reported where the macro is written.
        const _: fn() = || {
            fn is_an_agent_loop<L: $crate::driver::AgentLoop + 'static>() {}
            is_an_agent_loop::<$impl>();
        };
        $crate::suite!(@suite $impl, [V2026_07, V2026_08]);
    };
    ($impl:ty, profiles = [$($profile:ident),+ $(,)?]) => {
        const _: fn() = || {
            fn is_an_agent_loop<L: $crate::driver::AgentLoop + 'static>() {}
            is_an_agent_loop::<$impl>();
        };
        // Each name must be a profile.
        const _: &[$crate::Profile] = &[$($crate::Profile::$profile),+];
        $crate::suite!(@suite $impl, [$($profile),+]);
    };
    (@suite $impl:ty, [$($profile:ident),+]) => {

        #[cfg(test)]
        mod mirrorless_conformance_suite {
            #[allow(unused_imports)]
            use super::*;
            use $crate::suite::macros as m;

            fn report() -> &'static ::std::result::Result<$crate::suite::RunReport, ::std::string::String> {
                static REPORT: ::std::sync::OnceLock<
                    ::std::result::Result<$crate::suite::RunReport, ::std::string::String>,
                > = ::std::sync::OnceLock::new();
                REPORT.get_or_init(|| {
                    m::run_for_tests::<$impl>(
                        stringify!($impl),
                        &[$($crate::Profile::$profile),+],
                    )
                })
            }

            // One test per profile: ignored, with the reason, when not selected.
            $crate::suite!(@v2026_07 [$($profile)+]);
            $crate::suite!(@v2026_08 [$($profile)+]);

            // A requirement of one profile only: ignored, with the reason, when that profile is
            // not selected (a test that checked nothing must not pass).
            $crate::suite!(@only_2026_07 [$($profile)+] msg_9 "MSG-9", steer_1 "STEER-1");
            $crate::suite!(@only_2026_08 [$($profile)+] surf_3 "SURF-3");

            $crate::suite!(@tests
                seq_1 "SEQ-1", surf_1 "SURF-1", surf_2 "SURF-2", turn_1 "TURN-1", turn_2 "TURN-2",
                turn_3 "TURN-3", turn_4 "TURN-4", turn_6 "TURN-6", turn_7 "TURN-7",
                turn_8 "TURN-8", turn_9 "TURN-9", step_1 "STEP-1", step_2 "STEP-2", step_3 "STEP-3", chunk_1 "CHUNK-1",
                chunk_2 "CHUNK-2", chunk_3 "CHUNK-3", chunk_4 "CHUNK-4", chunk_5 "CHUNK-5",
                chunk_6 "CHUNK-6", msg_1 "MSG-1", msg_3 "MSG-3", msg_4 "MSG-4",
                msg_5 "MSG-5", msg_6 "MSG-6", tool_1 "TOOL-1", tool_2 "TOOL-2", tool_3 "TOOL-3",
                tool_4 "TOOL-4", steer_2 "STEER-2", mirror_1 "MIRROR-1",
                mirror_2 "MIRROR-2", mirror_3 "MIRROR-3", mirror_4 "MIRROR-4", mirror_5 "MIRROR-5",
                mirror_6 "MIRROR-6", live_1 "LIVE-1", live_2 "LIVE-2", live_3 "LIVE-3",
                live_4 "LIVE-4", live_5 "LIVE-5", live_6 "LIVE-6", live_7 "LIVE-7", live_8 "LIVE-8", live_9 "LIVE-9",
                msg_7 "MSG-7", msg_8 "MSG-8", tool_5 "TOOL-5", turn_10 "TURN-10", turn_11 "TURN-11"
            );

            #[test]
            fn coverage() {
                m::check_coverage(report());
            }

            #[test]
            fn no_crash() {
                m::check_no_crash(report());
            }
        }
    };
    (@v2026_07 [V2026_07 $($rest:ident)*]) => {
        #[test]
        fn profile_2026_07() {
            m::check_profile(report(), $crate::Profile::V2026_07);
        }
    };
    (@v2026_07 [$other:ident $($rest:ident)*]) => {
        $crate::suite!(@v2026_07 [$($rest)*]);
    };
    (@v2026_07 []) => {
        #[test]
        #[ignore = "2026-07 is not selected in `suite!(…, profiles = […])`: skipped, not checked"]
        fn profile_2026_07() {
            m::unselected_profile($crate::Profile::V2026_07);
        }
    };
    (@v2026_08 [V2026_08 $($rest:ident)*]) => {
        #[test]
        fn profile_2026_08() {
            m::check_profile(report(), $crate::Profile::V2026_08);
        }
    };
    (@v2026_08 [$other:ident $($rest:ident)*]) => {
        $crate::suite!(@v2026_08 [$($rest)*]);
    };
    (@v2026_08 []) => {
        #[test]
        #[ignore = "2026-08 is not selected in `suite!(…, profiles = […])`: skipped, not checked"]
        fn profile_2026_08() {
            m::unselected_profile($crate::Profile::V2026_08);
        }
    };
    (@only_2026_07 [V2026_07 $($rest:ident)*] $($name:ident $id:literal),*) => {
        $crate::suite!(@tests $($name $id),*);
    };
    (@only_2026_07 [$other:ident $($rest:ident)*] $($tests:tt)*) => {
        $crate::suite!(@only_2026_07 [$($rest)*] $($tests)*);
    };
    (@only_2026_07 [] $($name:ident $id:literal),*) => {
        $(
            #[test]
            #[ignore = "a 2026-07 requirement, and 2026-07 is not selected in `suite!(…, profiles = […])`: skipped, not checked"]
            fn $name() {
                m::unselected_profile($crate::Profile::V2026_07);
            }
        )*
    };
    (@only_2026_08 [V2026_08 $($rest:ident)*] $($name:ident $id:literal),*) => {
        $crate::suite!(@tests $($name $id),*);
    };
    (@only_2026_08 [$other:ident $($rest:ident)*] $($tests:tt)*) => {
        $crate::suite!(@only_2026_08 [$($rest)*] $($tests)*);
    };
    (@only_2026_08 [] $($name:ident $id:literal),*) => {
        $(
            #[test]
            #[ignore = "a 2026-08 requirement, and 2026-08 is not selected in `suite!(…, profiles = […])`: skipped, not checked"]
            fn $name() {
                m::unselected_profile($crate::Profile::V2026_08);
            }
        )*
    };
    (@tests $($name:ident $id:literal),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                m::check_requirement(report(), $id);
            }
        )*
    };
}

#[cfg(test)]
mod tests {
    use super::SUITE_REQUIREMENTS;
    use crate::registry::{Enforcement, REQUIREMENTS};

    #[test]
    fn the_macro_covers_exactly_the_driver_enforced_requirements() {
        let expected: Vec<&str> = REQUIREMENTS
            .iter()
            .filter(|r| r.enforced_by(Enforcement::Driver))
            .map(|r| r.id)
            .collect();
        let mut listed = SUITE_REQUIREMENTS.to_vec();
        let mut want = expected.clone();
        listed.sort_unstable();
        want.sort_unstable();
        assert_eq!(
            listed, want,
            "update SUITE_REQUIREMENTS and the test list in `suite!`"
        );
        let source = include_str!("macros.rs");
        for p in crate::Profile::ALL {
            let test = format!("profile_{}", p.name().replace('-', "_"));
            assert!(
                source.contains(&format!("fn {test}()")),
                "`suite!` has no test `{test}` for the profile {p}"
            );
        }
        for id in &expected {
            let test = id.to_ascii_lowercase().replace('-', "_");
            assert!(
                source.contains(&format!("{test} \"{id}\"")),
                "`suite!` has no test `{test}` for {id}"
            );
        }
        // A requirement of one profile only is in that profile's group, so that its test is
        // ignored when the profile is not selected; every other one is in the common list.
        for r in REQUIREMENTS
            .iter()
            .filter(|r| r.enforced_by(Enforcement::Driver))
        {
            let test = format!(
                "{} \"{}\"",
                r.id.to_ascii_lowercase().replace('-', "_"),
                r.id
            );
            let group = match (
                r.applies_to(crate::Profile::V2026_07),
                r.applies_to(crate::Profile::V2026_08),
            ) {
                (true, false) => Some("@only_2026_07 [$($profile)+]"),
                (false, true) => Some("@only_2026_08 [$($profile)+]"),
                _ => None,
            };
            let line = source
                .lines()
                .find(|l| l.contains(&test) && !l.contains("format!"))
                .unwrap_or_default();
            match group {
                Some(group) => assert!(
                    line.contains(group),
                    "{} applies to one profile only: list it in `{group}`",
                    r.id
                ),
                None => assert!(
                    !line.contains("@only_"),
                    "{} applies to both profiles: list it with the others",
                    r.id
                ),
            }
        }
    }
}
