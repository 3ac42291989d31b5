//! Helpers shared by the CLI's integration tests (each test file that needs them says
//! `mod common;`).

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs mirrorless in the repository root, with colour left to its own choice (`NO_COLOR`
/// unset), and returns what it printed.
#[allow(dead_code)] // not every test file that includes this module uses every helper
pub fn mirrorless(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mirrorless"))
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_mirrorless"))
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
