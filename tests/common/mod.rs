//! Helpers shared by the CLI's integration tests (each test file that needs them says
//! `mod common;`).

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub mod python;

/// The mirrorless binary the tests run, as a command whose `python3` is the interpreter itself
/// rather than a version manager's shim (`common/python.rs`).
pub fn mirrorless_command() -> Command {
    python::command(env!("CARGO_BIN_EXE_mirrorless"))
}

/// Runs mirrorless in the repository root, with colour left to its own choice (`NO_COLOR`
/// unset), and returns what it printed.
#[allow(dead_code)] // not every test file that includes this module uses every helper
pub fn mirrorless(args: &[&str]) -> Output {
    mirrorless_command()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .output()
        .expect("run mirrorless")
}

/// Runs mirrorless in the repository root and fails the test (instead of hanging or exhausting
/// memory) if it has not finished within `deadline`.
#[allow(dead_code)] // not every test file that includes this module uses every helper
pub fn mirrorless_within(args: &[&str], deadline: Duration) -> Output {
    let mut child = mirrorless_command()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mirrorless");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("poll").is_some() {
            return child.wait_with_output().expect("collect");
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mirrorless {args:?} did not finish within {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The requirement a broken fixture targets: the longest `-`-separated prefix of its name that
/// is a requirement ID (`CHUNK-1-coalescer` → `CHUNK-1`).
#[allow(dead_code)]
pub fn fixture_requirement(name: &str) -> &'static str {
    let parts: Vec<&str> = name.split('-').collect();
    (1..=parts.len())
        .rev()
        .find_map(|n| mirrorless_conformance::registry::requirement(&parts[..n].join("-")))
        .map(|r| r.id)
        .unwrap_or_else(|| panic!("{name} does not start with a requirement ID"))
}

/// Runs an implementation over the stdio protocol the way the broken-fixture tests do:
/// `cases` generated cases per profile, the CI seed, shrinking bounded by `shrink_steps` only
/// (so the minimal case does not depend on the machine's speed). Returns the report and the
/// requirements whose row is `fail`. A `python3` command starts [`python::program`]: print the
/// report through [`python::as_printed`].
#[allow(dead_code)]
pub fn run_stdio(
    mut command: Vec<String>,
    cases: u64,
    shrink_steps: u32,
) -> (
    mirrorless_conformance::suite::RunReport,
    std::collections::BTreeSet<&'static str>,
) {
    use mirrorless_conformance::stdio::{StdioConfig, StdioDriver};
    use mirrorless_conformance::suite::{self, CI_SEED, Config, Status};
    if command[0] == "python3" {
        command[0] = python::program();
    }
    let mut config = StdioConfig::new(command);
    config.message_timeout = Duration::from_secs(20);
    let mut driver = StdioDriver::start(config).expect("the implementation starts");
    let run_config = Config {
        profiles: mirrorless_conformance::vocab::Profile::ALL.to_vec(),
        cases,
        seed: CI_SEED,
        shrink_time: Duration::from_secs(600),
        shrink_steps,
        corpus: None,
        save: false,
        ci: true,
        jobs: 1,
        ..Config::default()
    };
    let report = suite::run(&mut driver, &run_config, &mut |_| {}).expect("no harness fault");
    let failed = report
        .profiles
        .iter()
        .flat_map(|p| p.requirements.iter())
        .filter(|r| r.status == Status::Fail)
        .map(|r| r.id)
        .collect();
    (report, failed)
}
