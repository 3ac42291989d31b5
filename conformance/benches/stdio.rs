//! `cargo bench -p mirrorless-conformance --bench stdio`: throughput of `mirrorless run` over
//! the stdio protocol, with the Rust reference implementation as a subprocess (this benchmark
//! binary re-executed with `--serve-stdio`), and with the Python and JavaScript reference
//! adapters when `python3`/`node` are installed. Results are recorded in
//! `docs/benchmarks/run.md`.

use mirrorless_conformance::driver::{AgentLoop, Driver, in_process};
use mirrorless_conformance::reference::ReferenceLoop;
use mirrorless_conformance::scenario::generate::cases;
use mirrorless_conformance::stdio::message::Implementation;
use mirrorless_conformance::stdio::{StdioConfig, StdioDriver, serve};
use mirrorless_conformance::suite::{self, Config};
use mirrorless_conformance::vocab::Profile;
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use std::time::Instant;

fn cases_count() -> u64 {
    std::env::var("STDIO_BENCH_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5_000)
}

/// Plays generated cases through `driver` without evaluating them: the transport alone.
fn transport(name: &str, driver: &mut dyn Driver, profile: Profile, n: u64) {
    let mut runner = TestRunner::deterministic();
    let strategy = cases(profile);
    let all: Vec<_> = (0..n)
        .map(|_| strategy.new_tree(&mut runner).expect("generates").current())
        .collect();
    let start = Instant::now();
    for c in &all {
        driver.run_case(c).expect("runs");
    }
    let s = start.elapsed().as_secs_f64();
    println!("{profile}  {name:<44} {:>8.0} cases/s", n as f64 / s);
}

fn suite_run(name: &str, driver: &mut dyn Driver, profile: Profile, n: u64, jobs: usize) {
    let config = Config {
        profiles: vec![profile],
        cases: n,
        jobs,
        ..Config::default()
    };
    let report = suite::run(driver, &config, &mut |_| {}).expect("runs");
    assert!(report.conformant(), "{name} must pass");
    println!(
        "{profile}  {:<44} {:>8.0} cases/s",
        format!("{name}, suite::run -j{jobs}"),
        report.profiles[0].cases_per_second
    );
}

fn main() {
    if std::env::args().any(|a| a == "--serve-stdio") {
        let stdin = std::io::stdin().lock();
        let stdout = std::io::BufWriter::with_capacity(64 << 10, std::io::stdout().lock());
        let mut factory =
            |p: Profile| Box::new(<ReferenceLoop as AgentLoop>::new(p)) as Box<dyn AgentLoop>;
        let implementation = Implementation {
            name: "reference-rs".into(),
            ..Implementation::default()
        };
        if let Err(e) = serve(stdin, stdout, implementation, &mut factory) {
            eprintln!("{e}");
            std::process::exit(2);
        }
        return;
    }
    let n = cases_count();
    let me = std::env::current_exe().expect("own path");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let rust = vec![me.to_string_lossy().into_owned(), "--serve-stdio".into()];
    for profile in Profile::ALL {
        let mut inproc = in_process::<ReferenceLoop>("reference");
        transport("in-process reference, run only", &mut inproc, profile, n);
        let mut stdio = StdioDriver::start(StdioConfig::new(rust.clone())).expect("starts");
        transport("stdio Rust reference, run only", &mut stdio, profile, n);
        suite_run("in-process reference", &mut inproc, profile, n, 1);
        suite_run("stdio Rust reference", &mut stdio, profile, n, 1);
        suite_run("stdio Rust reference", &mut stdio, profile, n, 2);
        for (program, script, name) in [
            (
                "python3",
                "fixtures/adapters/reference-py/adapter.py",
                "stdio Python reference",
            ),
            (
                "node",
                "fixtures/adapters/reference-js/adapter.mjs",
                "stdio JavaScript reference",
            ),
        ] {
            let command = vec![
                program.into(),
                root.join(script).to_string_lossy().into_owned(),
            ];
            match StdioDriver::start(StdioConfig::new(command)) {
                Ok(mut d) => suite_run(name, &mut d, profile, n / 5, 1),
                Err(e) => println!("{profile}  {name}: skipped ({e})"),
            }
        }
    }
}
