//! The runner: replays the corpus, generates cases, shrinks failures, and decides whether an
//! implementation conforms.
//!
//! For each profile a run
//!
//! 1. replays every case file of the corpus directory for that profile (regressions first);
//! 2. generates [`Config::cases`] cases from the seed and runs each through the [`Driver`];
//! 3. evaluates each case with the oracle and the checker ([`crate::oracle::evaluate`]), which
//!    attributes a failing case to one requirement;
//! 4. reports the first failure of each requirement at once, then shrinks it — bounded in time
//!    and steps — to a minimal case that still fails *the same requirement*, and saves that as a
//!    language-neutral case file (content-hash name) in the corpus;
//! 5. fails the run if a MUST requirement was never exercised or a coverage label stayed under
//!    its minimum, so that nothing passes vacuously.
//!
//! Everything is deterministic for a given seed; the seed is printed in every report.

mod corpus;
pub mod macros;

pub use corpus::{CaseFile, load_corpus, read_case_file, save_case};

use crate::driver::{Driver, HarnessError};
use crate::oracle::{self, Finding, Verdict, evaluate};
use crate::registry::{Enforcement, REQUIREMENTS, Tier};
use crate::scenario::Case;
use crate::scenario::coverage::{LABELS, labels_of, minimum};
use crate::scenario::generate::cases;
use crate::stop::{Stop, deadline_after};
use crate::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestRng, TestRunner};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The seed of CI mode: fixed, so CI runs are reproducible.
pub const CI_SEED: u64 = 0x6d69_7272_6f72_6c73;
/// The number of generated cases per profile unless told otherwise.
pub const DEFAULT_CASES: u64 = 256;

/// How a run is configured.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The profiles to check, in order.
    pub profiles: Vec<Profile>,
    /// Generated cases per profile (the corpus is replayed on top).
    pub cases: u64,
    /// The seed; every generated case follows from it.
    pub seed: u64,
    /// How long shrinking one failure may take.
    pub shrink_time: Duration,
    /// How many shrink steps one failure may take.
    pub shrink_steps: u32,
    /// The corpus directory to replay first and save counterexamples to.
    pub corpus: Option<PathBuf>,
    /// Whether to save shrunk counterexamples into the corpus.
    pub save: bool,
    /// Whether the run is derandomized for CI.
    pub ci: bool,
    /// Threads running cases, when the driver can fork; results do not depend on it.
    pub jobs: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            profiles: Profile::ALL.to_vec(),
            cases: DEFAULT_CASES,
            seed: CI_SEED,
            shrink_time: Duration::from_secs(10),
            shrink_steps: 4096,
            corpus: None,
            save: false,
            ci: false,
            jobs: default_jobs(),
        }
    }
}

/// The default number of threads: the available cores.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// Whether the environment is CI (`CI` set to anything but empty, `0` or `false`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"))
}

/// A fresh random seed (time and process based; only used outside CI mode).
pub fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut x = nanos ^ (u64::from(std::process::id()) << 32) ^ 0x9e37_79b9_7f4a_7c15;
    // splitmix64 finalizer: spreads close timestamps apart.
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Config {
    /// The configuration of an in-process test run (`suite!`): proptest's environment is
    /// honoured — `PROPTEST_CASES`, `PROPTEST_RNG_SEED`, `PROPTEST_MAX_SHRINK_TIME` (ms),
    /// `PROPTEST_MAX_SHRINK_ITERS` — and the seed is fixed unless `PROPTEST_RNG_SEED` says
    /// otherwise, so `cargo test` is reproducible. `MIRRORLESS_CORPUS=DIR` replays the case
    /// files of `DIR` first and saves new counterexamples there.
    pub fn from_env() -> Config {
        let mut c = Config::default();
        if let Some(n) = env_u64("PROPTEST_CASES") {
            c.cases = n;
        }
        if let Some(s) = env_u64("PROPTEST_RNG_SEED") {
            c.seed = s;
        }
        if let Some(ms) = env_u64("PROPTEST_MAX_SHRINK_TIME").filter(|ms| *ms > 0) {
            c.shrink_time = Duration::from_millis(ms);
        }
        if let Some(n) = env_u64("PROPTEST_MAX_SHRINK_ITERS") {
            c.shrink_steps = u32::try_from(n).unwrap_or(u32::MAX);
        }
        // A corpus to replay first (and to save counterexamples to): `MIRRORLESS_CORPUS=DIR`.
        if let Some(dir) = std::env::var_os("MIRRORLESS_CORPUS").filter(|d| !d.is_empty()) {
            c.corpus = Some(PathBuf::from(dir));
            c.save = true;
        }
        c.ci = in_ci();
        c
    }
}

/// The status of one requirement after a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Exercised and never violated.
    Pass,
    /// Violated by at least one case.
    Fail,
    /// A SHOULD requirement was violated (a warning).
    Warn,
    /// A MUST requirement no case exercised: counts as a failure.
    NotExercised,
    /// Exercised by no case, but not required to be (a SHOULD, or checked elsewhere).
    Untested,
    /// Does not apply to the profile.
    NotApplicable,
}

/// The result of one requirement under one profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RequirementResult {
    /// The requirement ID.
    pub id: &'static str,
    /// The tier under the profile.
    pub tier: Option<Tier>,
    /// The outcome.
    pub status: Status,
    /// How many cases exercised it.
    pub exercised: u64,
    /// How many cases were attributed to it.
    pub failures: u64,
}

/// The count of one coverage label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LabelResult {
    /// The label.
    pub name: &'static str,
    /// Generated cases with the label.
    pub count: u64,
    /// The minimum for this run.
    pub minimum: u64,
}

/// One requirement's counterexample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    /// The requirement the case is attributed to (or `CRASH`).
    pub requirement: &'static str,
    /// The minimal case.
    pub case: Case,
    /// Its content-hash id.
    pub case_id: String,
    /// The finding on the minimal case.
    pub finding: Finding,
    /// Other findings on the minimal case (consequences, or independent problems).
    pub also: Vec<Finding>,
    /// The unshrunk case as first found.
    pub original: Case,
    /// How many chunks the original and the minimal case have.
    pub original_chunks: usize,
    /// How many chunks the minimal case has.
    pub shrunk_chunks: usize,
    /// Shrink steps taken.
    pub shrink_steps: u32,
    /// Whether shrinking stopped at its time or step bound.
    pub shrink_bounded: bool,
    /// Whether the case came from the corpus (replayed, not generated).
    pub from_corpus: bool,
    /// The saved case file, if saved or replayed from one.
    pub case_file: Option<String>,
    /// The one-line replay command.
    pub replay: String,
    /// Standard error of an out-of-process implementation during the case.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stderr: String,
}

/// The results under one profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileReport {
    /// The profile.
    pub profile: Profile,
    /// Generated cases run.
    pub generated: u64,
    /// Corpus cases replayed.
    pub replayed: u64,
    /// Cases attributed to a failure.
    pub failed_cases: u64,
    /// Wall time in seconds, shrinking included.
    pub seconds: f64,
    /// Cases per second, shrinking excluded.
    pub cases_per_second: f64,
    /// Per requirement, registry order.
    pub requirements: Vec<RequirementResult>,
    /// Coverage labels that apply to the profile.
    pub coverage: Vec<LabelResult>,
    /// The first counterexample of each failing requirement.
    pub failures: Vec<Failure>,
}

impl ProfileReport {
    /// Whether the implementation conforms under this profile.
    pub fn conformant(&self) -> bool {
        self.failures.is_empty()
            && !self
                .requirements
                .iter()
                .any(|r| matches!(r.status, Status::Fail | Status::NotExercised))
            && self.coverage.iter().all(|l| l.count >= l.minimum)
    }
}

/// The result of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// The implementation's name.
    pub implementation: String,
    /// The seed (reproduce with `--seed`).
    pub seed: u64,
    /// Whether CI mode was on.
    pub ci: bool,
    /// Per profile.
    pub profiles: Vec<ProfileReport>,
    /// Problems with the inputs of the run (an unreadable corpus file, …); they make the run
    /// a usage error.
    pub problems: Vec<String>,
}

impl RunReport {
    /// Whether the implementation conforms under every profile run, and the run itself had no
    /// problem (a run cut short, or one with harness faults, proves nothing).
    pub fn conformant(&self) -> bool {
        self.problems.is_empty() && self.profiles.iter().all(ProfileReport::conformant)
    }
}

/// What the runner reports while it runs.
#[derive(Debug)]
pub enum Progress<'a> {
    /// A profile starts.
    Started {
        /// The profile.
        profile: Profile,
        /// Corpus cases to replay.
        replay: u64,
        /// Cases to generate.
        cases: u64,
    },
    /// A case finished.
    Case {
        /// The profile.
        profile: Profile,
        /// Cases done (replayed and generated).
        done: u64,
        /// Cases in total.
        total: u64,
        /// Failed cases so far.
        failures: u64,
        /// Time since the profile started.
        elapsed: Duration,
    },
    /// A requirement failed for the first time: the unshrunk case, printed before shrinking.
    Found {
        /// The profile.
        profile: Profile,
        /// The case as found.
        case: &'a Case,
        /// The attributed finding.
        finding: &'a Finding,
    },
    /// A shrunk counterexample is ready.
    Shrunk(&'a Failure),
    /// A problem with the inputs (the run goes on).
    Problem(&'a str),
}

fn rng_for(seed: u64, profile: Profile) -> TestRng {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&(profile as u64 + 1).to_le_bytes());
    bytes[16..24].copy_from_slice(b"mirrorls");
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

struct Tally {
    exercised: BTreeMap<&'static str, u64>,
    failures: BTreeMap<&'static str, u64>,
    labels: BTreeMap<&'static str, u64>,
}

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
    let mut profiles = Vec::new();
    for &profile in &config.profiles {
        let (report, halted) =
            run_profile(driver, config, stop, profile, &corpus, &mut problems, on)?;
        profiles.push(report);
        if halted {
            break;
        }
    }
    if let Some(reason) = stop.reason() {
        let ran: u64 = profiles.iter().map(|p| p.generated + p.replayed).sum();
        let problem =
            format!("the run stopped early ({reason}): the report covers the {ran} cases that ran");
        on(Progress::Problem(&problem));
        problems.push(problem);
    }
    Ok(RunReport {
        implementation: driver.name(),
        seed: config.seed,
        ci: config.ci,
        profiles,
        problems,
    })
}

fn chunks_of(case: &Case) -> usize {
    case.script.chunk_count() + case.script.actions.len()
}

/// What running one case came to.
enum Ran {
    /// It ran: its verdict and the implementation's stderr during it.
    Verdict(Verdict, String),
    /// A harness fault the driver recovers from: recorded, and the run goes on.
    Fault(HarnessError),
    /// The run cannot go on: it was stopped, or the driver does not recover from the fault.
    Halt(HarnessError),
}

fn run_one(driver: &mut dyn Driver, case: &Case, stop: &Stop) -> Ran {
    if let Some(reason) = stop.reason() {
        return Ran::Halt(HarnessError(format!(
            "case {} was not run: {reason}",
            case.id()
        )));
    }
    match driver.run_case(case) {
        Ok(obs) => Ran::Verdict(evaluate(case, &obs), obs.stderr),
        Err(e) if stop.reason().is_none() && driver.recovers() => Ran::Fault(e),
        Err(e) => Ran::Halt(e),
    }
}

/// Records a harness fault as a problem of the run (a stop is reported once, by `run_until`).
fn record_fault(
    e: HarnessError,
    stop: &Stop,
    problems: &mut Vec<String>,
    on: &mut dyn FnMut(Progress<'_>),
) {
    if stop.reason().is_none() {
        on(Progress::Problem(&e.0));
        problems.push(e.0);
    }
}

/// A failure reported as found, unshrunk (a corpus case, or shrinking could not finish).
fn as_found(
    case: &Case,
    primary: &Finding,
    verdict: &Verdict,
    case_file: Option<String>,
    replay: String,
    stderr: String,
) -> Failure {
    Failure {
        requirement: primary.requirement,
        case: case.clone(),
        case_id: case.id(),
        finding: primary.clone(),
        also: others(verdict, primary),
        original: case.clone(),
        original_chunks: chunks_of(case),
        shrunk_chunks: chunks_of(case),
        shrink_steps: 0,
        shrink_bounded: case_file.is_none(),
        from_corpus: case_file.is_some(),
        case_file,
        replay,
        stderr,
    }
}

/// Runs one profile; the flag says whether the run must end here (see [`run_until`]).
fn run_profile(
    driver: &mut dyn Driver,
    config: &Config,
    stop: &Stop,
    profile: Profile,
    corpus: &[(String, CaseFile)],
    problems: &mut Vec<String>,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<(ProfileReport, bool), HarnessError> {
    let replay: Vec<&(String, CaseFile)> = corpus
        .iter()
        .filter(|(_, f)| f.case.profile == profile)
        .collect();
    on(Progress::Started {
        profile,
        replay: replay.len() as u64,
        cases: config.cases,
    });
    let start = Instant::now();
    let mut shrinking = Duration::ZERO;
    let total = (replay.len() as u64).saturating_add(config.cases);
    let mut tally = Tally {
        exercised: BTreeMap::new(),
        failures: BTreeMap::new(),
        labels: BTreeMap::new(),
    };
    let mut failures: Vec<Failure> = Vec::new();
    let mut failed_cases = 0;
    let mut done = 0;
    let mut halted = false;
    let mut replayed = 0;

    for (path, file) in &replay {
        let case = &file.case;
        if stop.reason().is_some() {
            halted = true;
            break;
        }
        let (verdict, stderr) = match run_one(driver, case, stop) {
            Ran::Verdict(v, stderr) => (v, stderr),
            Ran::Fault(e) => {
                // No verdict: the case is not counted, the fault is a problem of the run.
                record_fault(e, stop, problems, on);
                continue;
            }
            Ran::Halt(e) => {
                record_fault(e, stop, problems, on);
                halted = true;
                break;
            }
        };
        replayed += 1;
        for r in oracle::exercised(case) {
            *tally.exercised.entry(r).or_default() += 1;
        }
        done += 1;
        if let Some(primary) = verdict.primary() {
            failed_cases += 1;
            *tally.failures.entry(primary.requirement).or_default() += 1;
            if !failures
                .iter()
                .any(|f| f.requirement == primary.requirement)
            {
                let replay = driver.replay_command(path);
                let failure = as_found(case, primary, &verdict, Some(path.clone()), replay, stderr);
                on(Progress::Shrunk(&failure));
                failures.push(failure);
            }
        }
        on(Progress::Case {
            profile,
            done,
            total,
            failures: failed_cases,
            elapsed: start.elapsed(),
        });
    }

    let mut runner = TestRunner::new_with_rng(PtConfig::default(), rng_for(config.seed, profile));
    let strategy = cases(profile);
    let mut forks: Vec<Box<dyn Driver + Send>> = if config.jobs > 1 {
        (0..config.jobs).map_while(|_| driver.fork()).collect()
    } else {
        Vec::new()
    };
    if forks.len() < 2 {
        forks.clear();
    }
    // Cases are generated in order from one RNG, run in batches (in parallel when the driver
    // forks), and their results processed in order: a run does not depend on `jobs`.
    let batch = if forks.is_empty() {
        1
    } else {
        64 * forks.len() as u64
    };
    let mut generated = 0;
    let mut generated_run = 0;
    while generated < config.cases && !halted {
        if stop.reason().is_some() {
            halted = true;
            break;
        }
        let n = batch.min(config.cases - generated);
        generated += n;
        let mut trees = Vec::with_capacity(n as usize);
        for _ in 0..n {
            trees.push(
                strategy
                    .new_tree(&mut runner)
                    .map_err(|e| HarnessError(format!("the case generator failed: {e}")))?,
            );
        }
        let batch_cases: Vec<Case> = trees.iter().map(ValueTree::current).collect();
        let results = if forks.is_empty() {
            let mut results = Vec::with_capacity(batch_cases.len());
            for c in &batch_cases {
                let ran = run_one(driver, c, stop);
                let end = matches!(ran, Ran::Halt(_));
                results.push(ran);
                if end {
                    break;
                }
            }
            results
        } else {
            run_parallel(&mut forks, &batch_cases, stop)
        };
        for ((mut tree, case), ran) in trees.into_iter().zip(batch_cases).zip(results) {
            let verdict = match ran {
                Ran::Verdict(v, _) => v,
                Ran::Fault(e) => {
                    record_fault(e, stop, problems, on);
                    continue;
                }
                Ran::Halt(e) => {
                    record_fault(e, stop, problems, on);
                    halted = true;
                    break;
                }
            };
            generated_run += 1;
            for l in labels_of(&case) {
                *tally.labels.entry(l).or_default() += 1;
            }
            for r in oracle::exercised(&case) {
                *tally.exercised.entry(r).or_default() += 1;
            }
            done += 1;
            if let Some(primary) = verdict.primary() {
                failed_cases += 1;
                let requirement = primary.requirement;
                *tally.failures.entry(requirement).or_default() += 1;
                if !failures.iter().any(|f| f.requirement == requirement) {
                    on(Progress::Found {
                        profile,
                        case: &case,
                        finding: primary,
                    });
                    let t = Instant::now();
                    let shrunk = shrink(
                        driver,
                        config,
                        stop,
                        &mut tree,
                        case.clone(),
                        requirement,
                        problems,
                    );
                    shrinking += t.elapsed();
                    let failure = match shrunk {
                        Ok(failure) => failure,
                        Err(e) => {
                            // Report the failure as found; the fault is a problem of its own.
                            let replay = driver.replay_command(&format!("{}.json", case.id()));
                            let failure =
                                as_found(&case, primary, &verdict, None, replay, String::new());
                            if stop.reason().is_some() || !driver.recovers() {
                                halted = true;
                            }
                            record_fault(e, stop, problems, on);
                            failure
                        }
                    };
                    on(Progress::Shrunk(&failure));
                    failures.push(failure);
                }
            }
            on(Progress::Case {
                profile,
                done,
                total,
                failures: failed_cases,
                elapsed: start.elapsed(),
            });
        }
    }

    let seconds = start.elapsed().as_secs_f64();
    let running = (seconds - shrinking.as_secs_f64()).max(1e-9);
    let required: BTreeSet<&str> = oracle::required(profile).collect();
    let requirements = REQUIREMENTS
        .iter()
        .filter(|r| r.enforced_by(Enforcement::Driver))
        .map(|r| {
            let tier = r.tier(profile);
            let exercised = tally.exercised.get(r.id).copied().unwrap_or(0);
            let failed = tally.failures.get(r.id).copied().unwrap_or(0);
            let status = match tier {
                None => Status::NotApplicable,
                Some(_) if failed > 0 && tier == Some(Tier::Should) => Status::Warn,
                Some(_) if failed > 0 => Status::Fail,
                Some(_) if exercised > 0 => Status::Pass,
                Some(_) if required.contains(r.id) && generated_run + replayed > 0 => {
                    Status::NotExercised
                }
                Some(_) => Status::Untested,
            };
            RequirementResult {
                id: r.id,
                tier,
                status,
                exercised,
                failures: failed,
            }
        })
        .collect();
    let coverage = LABELS
        .iter()
        .filter(|l| l.profiles.contains(profile))
        .map(|l| LabelResult {
            name: l.name,
            count: tally.labels.get(l.name).copied().unwrap_or(0),
            // Minimums scale with the cases that ran (fewer when the run stopped early).
            minimum: minimum(l, profile, generated_run),
        })
        .collect();
    let report = ProfileReport {
        profile,
        generated: generated_run,
        replayed,
        failed_cases,
        seconds,
        cases_per_second: done as f64 / running,
        requirements,
        coverage,
        failures,
    };
    Ok((report, halted))
}

/// Runs `cases` on the forked drivers, one contiguous slice per thread, results in order. A
/// thread ends its slice at a [`Ran::Halt`]; the results then end with it, so what follows the
/// halt is not reported even if another thread ran it.
fn run_parallel(forks: &mut [Box<dyn Driver + Send>], cases: &[Case], stop: &Stop) -> Vec<Ran> {
    let per = cases.len().div_ceil(forks.len()).max(1);
    let parts: Vec<Vec<Ran>> = std::thread::scope(|scope| {
        let handles: Vec<_> = forks
            .iter_mut()
            .zip(cases.chunks(per))
            .map(|(d, slice)| {
                scope.spawn(move || {
                    let mut results = Vec::with_capacity(slice.len());
                    for c in slice {
                        let ran = run_one(d.as_mut(), c, stop);
                        let end = matches!(ran, Ran::Halt(_));
                        results.push(ran);
                        if end {
                            break;
                        }
                    }
                    results
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    vec![Ran::Halt(HarnessError("a driver thread panicked".into()))]
                })
            })
            .collect()
    });
    let mut out = Vec::with_capacity(cases.len());
    for part in parts {
        let halted = part.iter().any(|r| matches!(r, Ran::Halt(_)));
        out.extend(part);
        if halted {
            break;
        }
    }
    out
}

fn others(verdict: &Verdict, primary: &Finding) -> Vec<Finding> {
    verdict
        .findings
        .iter()
        .filter(|f| *f != primary)
        .cloned()
        .collect()
}

/// Shrinks a failing case to a minimal one that fails the same requirement, then saves it.
/// A stop ends shrinking like its time bound; a fault the driver recovers from counts the
/// candidate as not failing (and is recorded in `problems`).
#[allow(clippy::too_many_arguments)]
fn shrink(
    driver: &mut dyn Driver,
    config: &Config,
    stop: &Stop,
    tree: &mut dyn ValueTree<Value = Case>,
    original: Case,
    requirement: &'static str,
    problems: &mut Vec<String>,
) -> Result<Failure, HarnessError> {
    let deadline = deadline_after(Instant::now(), config.shrink_time);
    let mut best = original.clone();
    let mut steps = 0;
    let mut bounded = false;
    let mut fails = |case: &Case| -> Result<bool, HarnessError> {
        match driver.run_case(case) {
            Ok(obs) => {
                Ok(evaluate(case, &obs).primary().map(|f| f.requirement) == Some(requirement))
            }
            Err(e) if stop.reason().is_none() && driver.recovers() => {
                problems.push(e.0);
                Ok(false)
            }
            Err(e) => Err(e),
        }
    };
    if tree.simplify() {
        loop {
            if steps >= config.shrink_steps || Instant::now() >= deadline || stop.reason().is_some()
            {
                bounded = true;
                break;
            }
            steps += 1;
            let candidate = tree.current();
            let more = if fails(&candidate)? {
                // proptest's simplification can occasionally grow the built script; keep the
                // smallest failing case seen.
                if chunks_of(&candidate) <= chunks_of(&best) {
                    best = candidate;
                }
                tree.simplify()
            } else {
                tree.complicate()
            };
            if !more {
                break;
            }
        }
    }
    let obs = driver.run_case(&best)?;
    let verdict = evaluate(&best, &obs);
    let finding = verdict
        .findings
        .iter()
        .find(|f| f.error && f.requirement == requirement)
        .cloned()
        .ok_or_else(|| {
            HarnessError(format!(
                "the minimal case for {requirement} no longer fails it: the implementation is not deterministic"
            ))
        })?;
    let case_id = best.id();
    let mut case_file = None;
    if let (Some(dir), true) = (&config.corpus, config.save) {
        match save_case(dir, &best, requirement, &driver.name()) {
            Ok(path) => case_file = Some(path),
            Err(e) => problems.push(e),
        }
    }
    let replay = driver.replay_command(case_file.as_deref().unwrap_or(&format!("{case_id}.json")));
    Ok(Failure {
        requirement,
        also: others(&verdict, &finding),
        finding,
        case_id,
        original_chunks: chunks_of(&original),
        shrunk_chunks: chunks_of(&best),
        case: best,
        original,
        shrink_steps: steps,
        shrink_bounded: bounded,
        from_corpus: false,
        case_file,
        replay,
        stderr: obs.stderr,
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
