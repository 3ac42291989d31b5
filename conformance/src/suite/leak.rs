//! State leaking between cases: a counterexample that passes when run alone.
//!
//! One process serves every case of a run, and shrinking replays candidates in that same
//! process. An implementation that keeps state from case to case (a `seq` counter in a class
//! attribute, a module-level cache) then fails cases that pass on their own, and the replay
//! command of its report, which starts a fresh process, passes. After shrinking, the minimal
//! case is run once more alone, in a fresh process ([`Driver::fork`]); when it no longer fails,
//! the failure is marked as a leak, and the run's case sequence up to the failing case is run
//! in one fresh process to check that it reproduces the failure, so that the report can offer
//! that command instead.

use super::config::rng_for;
use super::tally::Target;
use super::{Config, Failure, StateLeak};
use crate::driver::Driver;
use crate::oracle::evaluate;
use crate::scenario::Case;
use crate::stop::Stop;
use crate::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, TestRunner};

/// Whether `failure`'s minimal case passes alone in a fresh process; if so, the leak, with
/// a sequence through the profile's first `index + 1` generated cases checked for reproducing
/// it. `None` when the case fails alone too, or when the driver cannot start a fresh process
/// or the run is stopping (nothing can be said then).
#[allow(clippy::too_many_arguments)]
pub(super) fn check(
    driver: &dyn Driver,
    config: &Config,
    stop: &Stop,
    profile: Profile,
    failure: &Failure,
    target: Target,
    index: u64,
) -> Option<StateLeak> {
    if stop.reason().is_some() {
        return None;
    }
    let requirement = target.requirement();
    let fails = |obs: &crate::driver::Observation, case: &Case| {
        evaluate(case, obs)
            .findings
            .iter()
            .any(|f| f.requirement == requirement)
    };
    let mut alone = driver.fork()?;
    let ran = alone.run_case(&failure.case);
    let _ = alone.shutdown();
    match ran {
        Ok(obs) if !fails(&obs, &failure.case) => {}
        _ => return None,
    }
    // The profile's sequence through the failing case, in one fresh process; if that is not
    // enough, the same number of cases of each profile the run checked before it first (the
    // state may have been left by them).
    let cases = index.saturating_add(1);
    let before: Vec<Profile> = config
        .profiles
        .iter()
        .copied()
        .take_while(|p| *p != profile)
        .collect();
    let mut tries = vec![vec![profile]];
    if !before.is_empty() {
        tries.push(before.into_iter().chain([profile]).collect());
    }
    let mut last = Vec::new();
    for profiles in tries {
        let reproduced = reproduces(driver, config, stop, &profiles, cases, requirement)?;
        last = profiles;
        if reproduced {
            return Some(leak(driver, config, &last, cases, true));
        }
    }
    Some(leak(driver, config, &last, cases, false))
}

/// Whether the first `cases` generated cases of each of `profiles`, in order in one fresh
/// process, fail `requirement` (the last profile's being the one that failed). `None` when no
/// fresh process can be had.
fn reproduces(
    driver: &dyn Driver,
    config: &Config,
    stop: &Stop,
    profiles: &[Profile],
    cases: u64,
    requirement: &str,
) -> Option<bool> {
    let mut sequence = driver.fork()?;
    let mut reproduced = false;
    'profiles: for &p in profiles {
        let strategy = crate::scenario::generate::cases(p);
        let mut runner = TestRunner::new_with_rng(PtConfig::default(), rng_for(config.seed, p));
        for _ in 0..cases {
            if stop.reason().is_some() {
                break 'profiles;
            }
            let Ok(tree) = strategy.new_tree(&mut runner) else {
                break 'profiles;
            };
            let case = tree.current();
            match sequence.run_case(&case) {
                Ok(obs) => {
                    let failed = evaluate(&case, &obs)
                        .findings
                        .iter()
                        .any(|f| f.requirement == requirement);
                    if failed && p == profiles[profiles.len() - 1] {
                        reproduced = true;
                        break 'profiles;
                    }
                }
                Err(_) => break 'profiles,
            }
        }
    }
    let _ = sequence.shutdown();
    Some(reproduced)
}

/// The leak, with the `mirrorless run` command of the sequence.
fn leak(
    driver: &dyn Driver,
    config: &Config,
    profiles: &[Profile],
    cases: u64,
    reproduced: bool,
) -> StateLeak {
    let profiles: String = profiles.iter().map(|p| format!("--profile {p} ")).collect();
    let command = driver.replay_command(PLACEHOLDER).replacen(
        &format!("replay {PLACEHOLDER}"),
        &format!(
            "run {profiles}--seed {} --cases {cases} -j 1 --no-corpus --no-shrink",
            config.seed
        ),
        1,
    );
    StateLeak {
        sequence: command,
        cases,
        reproduced,
    }
}

/// Stands for the case file in the driver's replay command, replaced by `run`'s arguments.
const PLACEHOLDER: &str = "CASE.json";
