//! `suite!` selects profiles: a loop that implements only 2026-08 goes green under
//! `cargo test`, and the unselected 2026-07 is listed as ignored, with its reason, never as
//! passing (run with `--ignored`, its test fails and says why).

use mirrorless_conformance::Profile;
use mirrorless_conformance::driver::{AgentLoop, Host};
use mirrorless_conformance::reference::ReferenceLoop;
use std::process::Command;

/// A loop that implements 2026-08 only: under 2026-07 it refuses to start, so a run of that
/// profile would fail `no_crash` and every requirement.
pub struct Only2026_08 {
    inner: Option<ReferenceLoop>,
}

impl AgentLoop for Only2026_08 {
    fn new(profile: Profile) -> Self {
        Only2026_08 {
            inner: (profile == Profile::V2026_08).then(|| ReferenceLoop::new(profile)),
        }
    }

    fn run(&mut self, host: &mut dyn Host) -> Result<(), String> {
        match &mut self.inner {
            Some(inner) => inner.run(host),
            None => Err(format!("{} is not implemented", host.profile())),
        }
    }
}

mirrorless_conformance::suite!(Only2026_08, profiles = [V2026_08]);

/// The name libtest gives `local`, a test of this file: its module path without the test
/// binary's name (this file is a module of `tests/it.rs`, issue #32 item 5).
fn test_name(local: &str) -> String {
    match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{local}"),
        None => local.to_owned(),
    }
}

fn this_binary(args: &[&str]) -> std::process::Output {
    let exe = std::env::current_exe().expect("the test binary's path");
    Command::new(&exe)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", exe.display()))
}

#[test]
fn the_unselected_profile_is_ignored_with_its_reason_and_never_passes() {
    // Only this file's tests: the binary holds the other files' `suite!` tests too.
    let listed = this_binary(&["--list", "--ignored", &test_name("")]);
    let ignored = String::from_utf8_lossy(&listed.stdout);
    assert!(
        ignored.contains("mirrorless_conformance_suite::profile_2026_07: test"),
        "{ignored}"
    );
    assert!(
        !ignored.contains("profile_2026_08"),
        "the selected profile runs: {ignored}"
    );
    // The requirements of 2026-07 alone check nothing here: ignored too, never passing.
    for test in ["steer_1", "msg_9"] {
        assert!(
            ignored.contains(&format!("mirrorless_conformance_suite::{test}: test")),
            "{test}: {ignored}"
        );
    }
    assert!(
        !ignored.contains("surf_3") && !ignored.contains("steer_2"),
        "the requirements of the selected profile run: {ignored}"
    );
    let run = this_binary(&[
        "--ignored",
        "--exact",
        &test_name("mirrorless_conformance_suite::profile_2026_07"),
    ]);
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(!run.status.success(), "{out}");
    assert!(
        out.contains("2026-07 is not selected in `suite!(…, profiles = […])`: skipped"),
        "{out}"
    );
}
