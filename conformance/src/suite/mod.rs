//! The runner: replays the corpus, generates cases, shrinks failures, and decides whether an
//! implementation conforms.
//!
//! For each profile a run
//!
//! 1. replays every case file of the corpus directory for that profile (regressions first);
//! 2. generates [`Config::cases`] cases from the seed and runs each through the [`Driver`]
//!    (with [`Config::partition`], only the shard's cases: every case is still drawn, so the
//!    shards of one seed split the unsharded run exactly);
//! 3. evaluates each case with the oracle and the checker ([`crate::oracle::evaluate`]) and
//!    counts every requirement the case violates under its own ID: each live-trace finding
//!    (every removed mirror on its own) and the case's first durable-log finding, whose
//!    followers are its consequences; SHOULD findings count as warnings;
//! 4. reports the first case of each counted requirement at once, then shrinks it — bounded in
//!    time and steps — to a minimal case that still violates *that requirement* (the primary's
//!    stays the case's primary), and saves that as a language-neutral case file (content-hash
//!    name) in the corpus;
//! 5. fails the run if a MUST requirement was never exercised or a coverage label stayed under
//!    its minimum (both counted over the whole run, shards included, since they depend on the
//!    cases alone), if no case ran at all, or — with [`Config::deny_warnings`] — on a warning,
//!    so that nothing passes vacuously.
//!
//! A harness fault the driver recovers from ([`Driver::recovers`]) leaves its case without a
//! verdict (not executed, though drawn: its coverage counts) and the run goes on; a stop
//! ([`run_until`]: a signal, `--run-timeout`) or a fault it does not recover from ends the run
//! with the report of what ran, whose coverage minimums scale with the cases drawn. Either
//! way the run is not conformant ([`RunReport::problems`]).
//!
//! Everything is deterministic for a given seed; the seed is printed in every report.

mod config;
mod consistency;
mod corpus;
mod execute;
mod faults;
mod lane;
mod leak;
pub mod macros;
mod partition;
mod pool;
mod profile;
mod progress;
mod report;
mod shard;
mod shrink;
mod summary;
mod tally;

pub use config::{CI_SEED, Config, DEFAULT_CASES, default_jobs, in_ci, random_seed};
pub use corpus::{CaseFile, load_corpus, read_case_file, save_case};
pub use partition::{Partition, PartitionKind};
pub use progress::Progress;
pub use report::{
    CaseIds, Failure, LabelResult, ProfileReport, RequirementResult, RunReport, StateLeak, Status,
    UNSAVED_CASE_FILE,
};

use crate::driver::{Driver, HarnessError};
use crate::oracle::{Verdict, evaluate};
use crate::scenario::Case;
use crate::stop::Stop;
use faults::record_fault;
pub(crate) use faults::{REPEAT_MARK, fault_class};
use profile::run_profile;

/// Runs the suite against `driver`.
pub fn run(
    driver: &mut dyn Driver,
    config: &Config,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<RunReport, HarnessError> {
    run_until(driver, config, &Stop::never(), on)
}

/// Runs the suite against `driver` until it is done or `stop` fires. A harness fault the
/// driver recovers from ([`Driver::recovers`]) is recorded in [`RunReport::problems`] and the
/// run goes on; a stop, or a fault it does not recover from, ends the run early with the report
/// of what ran (and a problem saying so). `Err` is left for the case generator failing.
pub fn run_until(
    driver: &mut dyn Driver,
    config: &Config,
    stop: &Stop,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<RunReport, HarnessError> {
    let mut problems = Vec::new();
    let corpus = match &config.corpus {
        Some(dir) => load_corpus(dir, &mut problems),
        None => Vec::new(),
    };
    for p in &problems {
        on(Progress::Problem(p));
    }
    if config.profiles.is_empty() {
        let p = "no profile to run: a run that executes no case proves nothing".to_owned();
        on(Progress::Problem(&p));
        problems.push(p);
    }
    let mut profiles = Vec::new();
    for &profile in &config.profiles {
        let (report, halted) =
            run_profile(driver, config, stop, profile, &corpus, &mut problems, on)?;
        profiles.push(report);
        if halted {
            break;
        }
    }
    if let Err(e) = driver.shutdown() {
        record_fault(e, stop, &mut problems, on);
    }
    if let Some(reason) = stop.reason() {
        let ran: u64 = profiles.iter().map(|p| p.generated + p.replayed).sum();
        let problem =
            format!("the run stopped early ({reason}): the report covers the {ran} cases that ran");
        on(Progress::Problem(&problem));
        problems.push(problem);
    }
    Ok(RunReport {
        // What the implementation says of itself, cut to what a report shows (every format).
        implementation: {
            let mut name = driver.name();
            crate::check::clip_name(&mut name);
            name
        },
        hello: driver.hello().clipped(),
        seed: config.seed,
        ci: config.ci,
        partition: config.partition,
        deny_warnings: config.deny_warnings,
        profiles,
        problems,
    })
}

/// Runs one case and returns its verdict (`mirrorless replay`).
pub fn replay_case(
    driver: &mut dyn Driver,
    case: &Case,
) -> Result<(Verdict, crate::driver::Observation), HarnessError> {
    let obs = driver.run_case(case)?;
    Ok((evaluate(case, &obs), obs))
}
