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

use super::tally::Target;
use super::{Config, Failure, rng_for};
use crate::driver::Driver;
use crate::oracle::evaluate;
use crate::scenario::Case;
use crate::stop::Stop;
use crate::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, TestRunner};
use serde::Serialize;

/// A failure that needs the cases run before it in the same process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateLeak {
    /// The command that runs the profile's case sequence through the failing case in one
    /// process (`mirrorless run --profile P --seed S --cases N -j 1 …`).
    pub sequence: String,
    /// How many cases that sequence runs.
    pub cases: u64,
    /// Whether running that sequence in a fresh process failed the requirement again (when
    /// false, the leak needs more than this profile's cases: the whole run with `-j 1`).
    pub reproduced: bool,
}

/// Whether `failure`'s minimal case passes alone in a fresh process; if so, the leak, with
/// the sequence of the profile's first `index + 1` generated cases checked for reproducing
/// it. `None` when the case fails alone too, or when the driver cannot start a fresh process
/// or the run is stopping (nothing can be said then).
#[allow(clippy::too_many_arguments)]
pub(super) fn check<S: Strategy<Value = Case>>(
    driver: &dyn Driver,
    config: &Config,
    stop: &Stop,
    profile: Profile,
    strategy: &S,
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
    // The profile's sequence through the failing case, in one fresh process.
    let cases = index.saturating_add(1);
    let mut runner = TestRunner::new_with_rng(PtConfig::default(), rng_for(config.seed, profile));
    let mut sequence = driver.fork()?;
    let mut reproduced = false;
    for _ in 0..cases {
        if stop.reason().is_some() {
            break;
        }
        let Ok(tree) = strategy.new_tree(&mut runner) else {
            break;
        };
        let case = tree.current();
        match sequence.run_case(&case) {
            Ok(obs) if fails(&obs, &case) => {
                reproduced = true;
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    let _ = sequence.shutdown();
    let command = driver.replay_command(PLACEHOLDER).replacen(
        &format!("replay {PLACEHOLDER}"),
        &format!(
            "run --profile {profile} --seed {} --cases {cases} -j 1 --no-corpus --no-shrink",
            config.seed
        ),
        1,
    );
    Some(StateLeak {
        sequence: command,
        cases,
        reproduced,
    })
}

/// Stands for the case file in the driver's replay command, replaced by `run`'s arguments.
const PLACEHOLDER: &str = "CASE.json";
