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

mod corpus;
mod leak;
pub mod macros;
mod partition;
mod shrink;
mod tally;

pub use corpus::{CaseFile, load_corpus, read_case_file, save_case};
pub use leak::StateLeak;
pub use partition::{Partition, PartitionKind};

use shrink::{NoShrink, as_found, redraw, shrink};
use tally::Tally;

use crate::driver::{Driver, HarnessError};
use crate::oracle::{self, Finding, Verdict, evaluate};
use crate::registry::{Enforcement, REQUIREMENTS, Tier};
use crate::scenario::Case;
use crate::scenario::coverage::{LABELS, labels_of, minimum};
use crate::scenario::generate::cases;
use crate::stop::Stop;
use crate::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestRng, TestRunner};
use serde::Serialize;
use std::collections::BTreeSet;
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
    /// Whether a SHOULD finding (a warning) makes the run fail.
    pub deny_warnings: bool,
    /// Run only this shard of the cases (`--partition K/N`); coverage stays the whole run's.
    pub partition: Option<Partition>,
    /// Whether to list the ids of the executed cases ([`ProfileReport::case_ids`]); off by
    /// default, since hashing every case costs about 3 % of a run.
    pub case_ids: bool,
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
            deny_warnings: false,
            partition: None,
            case_ids: false,
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
    /// Exercised by no case, but not required to be (a SHOULD, or checked elsewhere); or the
    /// profile executed no case, so nothing passed.
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
    /// How many executed cases count against it (once a case): every case with a live-trace
    /// finding of it, every case whose first durable-log finding it is (see the module docs).
    pub failures: u64,
    /// How many executed cases violate it as a SHOULD (warnings).
    pub warnings: u64,
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
    /// The requirement this counterexample is for (or `CRASH`).
    pub requirement: &'static str,
    /// When the minimal case is attributed to another requirement (its primary finding, which
    /// leads `also`): that requirement. `None` when this requirement is the primary.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributed_to: Option<&'static str>,
    /// The minimal case (shrunk for this requirement).
    pub case: Case,
    /// Its content-hash id.
    pub case_id: String,
    /// This requirement's finding on the minimal case (a warning for a SHOULD).
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
    /// Set when the minimal case passes when run alone in a fresh process: the failure needs
    /// the cases that ran before it, so state leaks between cases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leak: Option<StateLeak>,
}

/// The results under one profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileReport {
    /// The profile.
    pub profile: Profile,
    /// Generated cases run (by this shard, when partitioned).
    pub generated: u64,
    /// Corpus cases replayed (by this shard, when partitioned).
    pub replayed: u64,
    /// Executed cases with at least one MUST finding.
    pub failed_cases: u64,
    /// Executed cases with SHOULD findings only.
    pub warned_cases: u64,
    /// Cases this shard ran that ended in a harness fault (no verdict): while any did, the
    /// profile is incomplete, never conformant.
    pub faulted_cases: u64,
    /// Wall time in seconds, shrinking included.
    pub seconds: f64,
    /// Cases per second, shrinking excluded.
    pub cases_per_second: f64,
    /// Per requirement, registry order. `exercised` counts the whole run (every shard's
    /// cases); `failures` and `warnings` count the executed cases.
    pub requirements: Vec<RequirementResult>,
    /// Coverage labels that apply to the profile, counted over the whole run (every shard's
    /// cases: coverage depends on the cases alone, so each shard knows the whole run's).
    pub coverage: Vec<LabelResult>,
    /// One counterexample per failing requirement, shrunk for it, in the order found (a
    /// case's primary requirement before its other ones).
    pub failures: Vec<Failure>,
    /// One counterexample per SHOULD requirement with a warning, shrunk for it.
    pub warnings: Vec<Failure>,
    /// Whether warnings fail the profile.
    pub deny_warnings: bool,
    /// The shard this report is of, when partitioned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<Partition>,
    /// Generated cases of the whole run (all shards).
    pub whole_run_generated: u64,
    /// Corpus cases of the whole run (all shards).
    pub whole_run_replayed: u64,
    /// The ids of the executed cases, corpus first, in order (when [`Config::case_ids`]).
    #[serde(skip_serializing_if = "CaseIds::is_empty")]
    pub case_ids: CaseIds,
}

/// Content-hash case ids ([`Case::id`]), kept as numbers (8 bytes a case, so that a long run
/// stays small) and written as the 16-hex-digit strings `Case::id` returns.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaseIds(pub Vec<u64>);

impl CaseIds {
    /// Whether no id is listed.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn push(&mut self, id: &str) {
        // `Case::id` is always 16 hex digits.
        self.0.push(u64::from_str_radix(id, 16).unwrap_or_default());
    }

    /// The ids as `Case::id` spells them.
    pub fn to_strings(&self) -> Vec<String> {
        self.0.iter().map(|n| format!("{n:016x}")).collect()
    }
}

impl Serialize for CaseIds {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|n| format!("{n:016x}")))
    }
}

impl ProfileReport {
    /// Whether the implementation conforms under this profile: it executed a case, no case
    /// ended in a harness fault, and nothing [failed](Self::failed).
    pub fn conformant(&self) -> bool {
        self.generated.saturating_add(self.replayed) > 0
            && self.faulted_cases == 0
            && !self.failed()
    }

    /// Whether the profile proves nothing either way: nothing failed, but a case ended in a
    /// harness fault or no case ran.
    pub fn incomplete(&self) -> bool {
        !self.failed() && !self.conformant()
    }

    /// Whether something failed under this profile: a requirement (a warning, too, under
    /// `deny_warnings`), a MUST never exercised, or a coverage label under its minimum. A
    /// profile that executed no case has failed nothing, but proves nothing either.
    pub fn failed(&self) -> bool {
        !self.failures.is_empty()
            || (self.deny_warnings && !self.warnings.is_empty())
            || self
                .requirements
                .iter()
                .any(|r| matches!(r.status, Status::Fail | Status::NotExercised))
            || self.coverage.iter().any(|l| l.count < l.minimum)
    }
}

/// The result of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunReport {
    /// The implementation's name.
    pub implementation: String,
    /// Who the implementation is, as its `hello` said (name, version, language, homepage).
    pub hello: crate::stdio::message::Implementation,
    /// The seed (reproduce with `--seed`).
    pub seed: u64,
    /// Whether CI mode was on.
    pub ci: bool,
    /// The shard this report is of, when partitioned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<Partition>,
    /// Whether warnings fail the run.
    pub deny_warnings: bool,
    /// Per profile.
    pub profiles: Vec<ProfileReport>,
    /// Problems with the inputs of the run (an unreadable corpus file, …); they make the run
    /// a usage error.
    pub problems: Vec<String>,
}

impl RunReport {
    /// Whether the implementation conforms under every profile run, at least one profile ran,
    /// and the run itself had no problem (a run cut short, or one with harness faults, proves
    /// nothing).
    pub fn conformant(&self) -> bool {
        !self.profiles.is_empty()
            && self.problems.is_empty()
            && self.profiles.iter().all(ProfileReport::conformant)
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
    /// A requirement failed (or warned) for the first time: the unshrunk case, printed before
    /// shrinking.
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
        implementation: driver.name(),
        hello: driver.hello(),
        seed: config.seed,
        ci: config.ci,
        partition: config.partition,
        deny_warnings: config.deny_warnings,
        profiles,
        problems,
    })
}

fn chunks_of(case: &Case) -> usize {
    case.script.chunk_count() + case.script.actions.len()
}

/// One generated case of a batch that this run executes: the tree it shrinks from, the RNG
/// state it was drawn from (to draw the same tree again when a second requirement needs its
/// own shrink) and its id.
struct Drawn<T> {
    tree: T,
    rng: TestRng,
    id: String,
    /// Its position among the profile's generated cases.
    index: u64,
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

/// A case's harness fault as the run reports it: in full the first time; when an earlier
/// problem was the same fault ([`fault_class`]: a deterministic one, such as a debug print on
/// stdout, hits every case again in each fresh process), by its first line and its last (what
/// became of the process), so that the run says it once. Decided in case order, so the report
/// does not depend on `-j`.
fn case_fault(e: HarnessError, problems: &[String]) -> HarnessError {
    let class = fault_class(&e.0);
    if !problems.iter().any(|p| fault_class(p) == class) {
        return e;
    }
    let mut lines = e.0.lines();
    let headline = lines.next().unwrap_or_default();
    let mut short = format!("{headline} (the same fault as reported above in full)");
    if let Some(last) = lines
        .last()
        .filter(|l| l.trim_start().starts_with("The process was"))
    {
        short.push('\n');
        short.push_str(last);
    }
    HarnessError(short)
}

/// What makes two faults the same: the first line of the report without what it quotes
/// (between backticks), numbers and case ids, so that a debug print of other arguments, in
/// another case, is the same fault.
fn fault_class(problem: &str) -> String {
    let headline = problem.lines().next().unwrap_or_default();
    let mut unquoted = String::with_capacity(headline.len());
    for (i, part) in headline.split('`').enumerate() {
        if i % 2 == 0 {
            unquoted.push_str(part);
        }
    }
    unquoted
        .split(' ')
        .filter(|w| !(w.len() == 16 && w.chars().all(|c| c.is_ascii_hexdigit())))
        .flat_map(|w| w.chars().filter(|c| !c.is_ascii_digit()).chain([' ']))
        .collect()
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

/// Runs one profile; the flag says whether the run must end here (see [`run_until`]).
///
/// Coverage (`exercised`, the labels) is counted over every case *drawn* — those of other
/// shards, and executed ones whose run faulted, included: it is a property of the case. The
/// executed counts (`generated`, `replayed`, failures, warnings) are of the cases that ran to
/// a verdict. A run that halts stops drawing too, and the coverage minimums scale with the
/// cases drawn, so cases never drawn cannot fail it.
fn run_profile(
    driver: &mut dyn Driver,
    config: &Config,
    stop: &Stop,
    profile: Profile,
    corpus: &[(String, CaseFile)],
    problems: &mut Vec<String>,
    on: &mut dyn FnMut(Progress<'_>),
) -> Result<(ProfileReport, bool), HarnessError> {
    // The case id is only computed where it is needed: to list it, or to shard by it.
    let need_id = config.case_ids
        || config
            .partition
            .is_some_and(|p| p.kind == PartitionKind::Hash);
    let in_shard =
        |position: u64, id: &str| config.partition.is_none_or(|p| p.includes(position, id));
    let replay: Vec<(&(String, CaseFile), bool)> = corpus
        .iter()
        .filter(|(_, f)| f.case.profile == profile)
        .enumerate()
        .map(|(i, entry)| {
            let id = if need_id {
                entry.1.case.id()
            } else {
                String::new()
            };
            (entry, in_shard(i as u64, &id))
        })
        .collect();
    let replay_mine = replay.iter().filter(|(_, mine)| *mine).count() as u64;
    let strategy = cases(profile);
    let generated_mine = match config.partition {
        None => config.cases,
        // Positions i < cases with i % total == shard - 1 (no overflow near u64::MAX).
        Some(p) if p.kind == PartitionKind::Count => {
            config.cases / p.total + u64::from(config.cases % p.total >= p.shard)
        }
        Some(_) => {
            // Hash shards: draw the cases once more to know how many are this shard's.
            let mut runner =
                TestRunner::new_with_rng(PtConfig::default(), rng_for(config.seed, profile));
            let mut n = 0;
            for i in 0..config.cases {
                if stop.reason().is_some() {
                    break;
                }
                let tree = strategy
                    .new_tree(&mut runner)
                    .map_err(|e| HarnessError(format!("the case generator failed: {e}")))?;
                n += u64::from(in_shard(i, &tree.current().id()));
            }
            n
        }
    };
    on(Progress::Started {
        profile,
        replay: replay_mine,
        cases: generated_mine,
    });
    let start = Instant::now();
    let mut shrinking = Duration::ZERO;
    let total = replay_mine.saturating_add(generated_mine);
    let mut tally = Tally::default();
    let mut failures: Vec<Failure> = Vec::new();
    let mut warnings: Vec<Failure> = Vec::new();
    let mut case_ids = CaseIds::default();
    let mut done = 0;
    let mut halted = false;
    // Corpus cases drawn (coverage) and replayed to a verdict by this shard.
    let mut replay_drawn: u64 = 0;
    let mut replayed: u64 = 0;
    // Cases run to a harness fault instead of a verdict.
    let mut faulted: u64 = 0;

    for ((path, file), mine) in &replay {
        let case = &file.case;
        if stop.reason().is_some() {
            halted = true;
            break;
        }
        replay_drawn += 1;
        // Coverage is of the whole run, whichever shard executes the case.
        for r in oracle::exercised(case) {
            *tally.exercised.entry(r).or_default() += 1;
        }
        if !mine {
            continue;
        }
        let (verdict, stderr) = match run_one(driver, case, stop) {
            Ran::Verdict(v, stderr) => (v, stderr),
            Ran::Fault(e) => {
                // No verdict: the case is not counted, the fault is a problem of the run.
                faulted += 1;
                record_fault(case_fault(e, problems), stop, problems, on);
                continue;
            }
            Ran::Halt(e) => {
                faulted += u64::from(stop.reason().is_none());
                record_fault(case_fault(e, problems), stop, problems, on);
                halted = true;
                break;
            }
        };
        replayed += 1;
        if config.case_ids {
            case_ids.push(&case.id());
        }
        done += 1;
        for target in tally.record(&verdict, &failures, &warnings) {
            let Some(finding) = target.find(&verdict) else {
                continue;
            };
            let replay = driver.replay_command(path);
            let failure = as_found(
                case,
                finding,
                &verdict,
                Some(path.clone()),
                replay,
                stderr.clone(),
            );
            on(Progress::Shrunk(&failure));
            if target.error() {
                failures.push(failure);
            } else {
                warnings.push(failure);
            }
        }
        on(Progress::Case {
            profile,
            done,
            total,
            failures: tally.failed_cases,
            elapsed: start.elapsed(),
        });
    }

    let mut runner = TestRunner::new_with_rng(PtConfig::default(), rng_for(config.seed, profile));
    let mut forks: Vec<Box<dyn Driver + Send>> = if config.jobs > 1 {
        (0..config.jobs).map_while(|_| driver.fork()).collect()
    } else {
        Vec::new()
    };
    if forks.len() < 2 {
        forks.clear();
    }
    // Cases are generated in order from one RNG, run in batches (in parallel when the driver
    // forks), and their results processed in order: a run does not depend on `jobs`. A shard
    // draws every case (so the RNG stays in step with the unsharded run) and runs its own.
    let batch = if forks.is_empty() {
        1
    } else {
        64 * forks.len() as u64
    };
    // Generated cases drawn (coverage) and run to a verdict by this shard.
    let mut generated: u64 = 0;
    let mut generated_run: u64 = 0;
    while generated < config.cases && !halted {
        if stop.reason().is_some() {
            halted = true;
            break;
        }
        let n = batch.min(config.cases - generated);
        let mut drawn = Vec::with_capacity(n as usize);
        let mut batch_cases: Vec<Case> = Vec::with_capacity(n as usize);
        for i in generated..generated + n {
            let rng = runner.rng().clone();
            let tree = strategy
                .new_tree(&mut runner)
                .map_err(|e| HarnessError(format!("the case generator failed: {e}")))?;
            let case = tree.current();
            let id = if need_id { case.id() } else { String::new() };
            for l in labels_of(&case) {
                *tally.labels.entry(l).or_default() += 1;
            }
            for r in oracle::exercised(&case) {
                *tally.exercised.entry(r).or_default() += 1;
            }
            if in_shard(i, &id) {
                drawn.push(Drawn {
                    tree,
                    rng,
                    id,
                    index: i,
                });
                batch_cases.push(case);
            }
        }
        generated += n;
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
        for ((d, case), ran) in drawn.into_iter().zip(batch_cases).zip(results) {
            let Drawn {
                mut tree,
                rng,
                id,
                index,
            } = d;
            let (verdict, stderr) = match ran {
                Ran::Verdict(v, stderr) => (v, stderr),
                Ran::Fault(e) => {
                    // No verdict: not executed, though drawn (its coverage is counted above).
                    faulted += 1;
                    record_fault(case_fault(e, problems), stop, problems, on);
                    continue;
                }
                Ran::Halt(e) => {
                    // A fault it does not recover from (not the run being stopped): this
                    // case, too, has no verdict.
                    faulted += u64::from(stop.reason().is_none());
                    record_fault(case_fault(e, problems), stop, problems, on);
                    halted = true;
                    break;
                }
            };
            generated_run += 1;
            if config.case_ids {
                case_ids.push(&id);
            }
            done += 1;
            let targets = tally.record(&verdict, &failures, &warnings);
            for (k, target) in targets.into_iter().enumerate() {
                let Some(finding) = target.find(&verdict) else {
                    continue;
                };
                on(Progress::Found {
                    profile,
                    case: &case,
                    finding,
                });
                // Reported as found, unshrunk: when the run is ending (no more driver calls)
                // or when shrinking could not finish.
                let unshrunk = |driver: &dyn Driver| {
                    let replay = driver.replay_command(&format!("{}.json", case.id()));
                    as_found(&case, finding, &verdict, None, replay, stderr.clone())
                };
                let failure = if halted {
                    unshrunk(driver)
                } else {
                    let t = Instant::now();
                    // The first target shrinks the drawn tree; each further one shrinks its
                    // own copy, drawn again from the same RNG state.
                    let mut fresh = (k > 0).then(|| redraw(&strategy, &rng, &case)).flatten();
                    let shrink_tree: &mut dyn ValueTree<Value = Case> = match fresh.as_mut() {
                        Some(t) => t,
                        None if k == 0 => &mut tree,
                        None => &mut NoShrink(case.clone()),
                    };
                    let shrunk = shrink(
                        driver,
                        config,
                        stop,
                        shrink_tree,
                        case.clone(),
                        target,
                        problems,
                    );
                    shrinking += t.elapsed();
                    match shrunk {
                        Ok(mut failure) => {
                            // A case that fails only after others leaks state: say so, with
                            // a sequence that reproduces it.
                            failure.leak =
                                leak::check(driver, config, stop, profile, &failure, target, index);
                            failure
                        }
                        Err(e) => {
                            // The failure stands as found; the fault is a problem of its own.
                            if stop.reason().is_some() || !driver.recovers() {
                                halted = true;
                            }
                            record_fault(e, stop, problems, on);
                            unshrunk(driver)
                        }
                    }
                };
                on(Progress::Shrunk(&failure));
                if target.error() {
                    failures.push(failure);
                } else {
                    warnings.push(failure);
                }
            }
            on(Progress::Case {
                profile,
                done,
                total,
                failures: tally.failed_cases,
                elapsed: start.elapsed(),
            });
        }
    }

    // Each parallel process ends with the profile (the next one forks anew) and must exit 0.
    for fork in &mut forks {
        if let Err(e) = fork.shutdown() {
            record_fault(e, stop, problems, on);
        }
    }

    if total == 0 {
        let whole_run = config.cases.saturating_add(replay.len() as u64);
        let why = match config.partition {
            Some(p) if whole_run > 0 => format!(
                "shard {p} holds none of the {whole_run} case(s); use fewer shards or more --cases"
            ),
            _ => "--cases 0 and no corpus case for this profile".to_owned(),
        };
        let p = format!(
            "{profile}: no case was executed ({why}): a run that executes no case proves nothing"
        );
        on(Progress::Problem(&p));
        problems.push(p);
    }
    let seconds = start.elapsed().as_secs_f64();
    let running = (seconds - shrinking.as_secs_f64()).max(1e-9);
    let required: BTreeSet<&str> = oracle::required(profile).collect();
    // Cases drawn: the whole run's, unless the run halted early.
    let drawn = replay_drawn + generated;
    // A requirement passes (or goes unexercised) only in a profile that executed a case.
    let executed = replayed + generated_run > 0;
    // Every requirement the driver enforces has a row, and so does every other one a case
    // was counted against (a log rule such as LOG-2 the checker reports on a case's log):
    // a requirement that fails is never missing from the table.
    let requirements = REQUIREMENTS
        .iter()
        .filter(|r| {
            r.enforced_by(Enforcement::Driver)
                || tally.failures.contains_key(r.id)
                || tally.warnings.contains_key(r.id)
        })
        .map(|r| {
            let tier = r.tier(profile);
            let exercised = tally.exercised.get(r.id).copied().unwrap_or(0);
            let failed = tally.failures.get(r.id).copied().unwrap_or(0);
            let warned = tally.warnings.get(r.id).copied().unwrap_or(0);
            let status = match tier {
                None => Status::NotApplicable,
                Some(_) if failed > 0 => Status::Fail,
                Some(_) if warned > 0 => Status::Warn,
                Some(_) if exercised > 0 && executed => Status::Pass,
                Some(_) if required.contains(r.id) && drawn > 0 && executed => Status::NotExercised,
                Some(_) => Status::Untested,
            };
            RequirementResult {
                id: r.id,
                tier,
                status,
                exercised,
                failures: failed,
                warnings: warned,
            }
        })
        .collect();
    let coverage = LABELS
        .iter()
        .filter(|l| l.profiles.contains(profile))
        .map(|l| LabelResult {
            name: l.name,
            count: tally.labels.get(l.name).copied().unwrap_or(0),
            // Minimums scale with the generated cases drawn (fewer when the run halted).
            minimum: minimum(l, profile, generated),
        })
        .collect();
    let report = ProfileReport {
        profile,
        generated: generated_run,
        replayed,
        failed_cases: tally.failed_cases,
        warned_cases: tally.warned_cases,
        faulted_cases: faulted,
        seconds,
        cases_per_second: done as f64 / running,
        requirements,
        coverage,
        failures,
        warnings,
        deny_warnings: config.deny_warnings,
        partition: config.partition,
        whole_run_generated: config.cases,
        whole_run_replayed: replay.len() as u64,
        case_ids,
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

/// Runs one case and returns its verdict (`mirrorless replay`).
pub fn replay_case(
    driver: &mut dyn Driver,
    case: &Case,
) -> Result<(Verdict, crate::driver::Observation), HarnessError> {
    let obs = driver.run_case(case)?;
    Ok((evaluate(case, &obs), obs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Script;

    #[test]
    fn case_ids_are_written_as_case_id_spells_them() {
        let cases: Vec<Case> = Profile::ALL
            .into_iter()
            .map(|profile| Case {
                profile,
                script: Script::default(),
            })
            .collect();
        let mut ids = CaseIds::default();
        for c in &cases {
            ids.push(&c.id());
        }
        let want: Vec<String> = cases.iter().map(Case::id).collect();
        assert_eq!(ids.to_strings(), want);
        assert_eq!(
            serde_json::to_value(&ids).expect("json"),
            serde_json::json!(want)
        );
    }
}
