//! How a run is configured: the defaults, CI mode, the seed, and the environment a
//! `suite!` test run honours.

use super::Partition;
use crate::vocab::Profile;
use proptest::test_runner::{RngAlgorithm, TestRng};
use std::path::PathBuf;
use std::time::Duration;

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
    /// Whether to list the ids of the executed cases ([`ProfileReport::case_ids`](super::ProfileReport::case_ids)); off by
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

/// The RNG a profile's cases are drawn from: one stream per seed and profile, whatever
/// the profiles run before it.
pub(super) fn rng_for(seed: u64, profile: Profile) -> TestRng {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&(profile as u64 + 1).to_le_bytes());
    bytes[16..24].copy_from_slice(b"mirrorls");
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}
