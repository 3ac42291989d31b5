//! The npm launcher (`packaging/npm/mirrorless/bin/mirrorless.js`) with a stand-in binary in
//! the platform package's place: arguments reach the binary untouched (a `--` and the option-
//! like file names after it included), a binary killed by a signal kills the launcher with the
//! same signal, and signals sent to the launcher go to the binary (SIGUSR1 never opens Node's
//! inspector). Needs `node`; skipped, loudly, without it. (The real packages are installed in
//! `xtask/tests/packages.rs`.)
#![cfg(target_os = "linux")]

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt as _;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const STAND_IN: &str = r#"#!/bin/sh
case "$1" in
  args) for a; do printf '<%s>' "$a"; done; echo ;;
  die) kill -"$2" $$; sleep 5 ;;
  trap) trap 'echo "got $2"; exit 7' "$2"; echo ready; while :; do sleep 0.05; done ;;
esac
"#;

/// A node_modules holding the launcher package and the platform package with the stand-in;
/// `None` (and a SKIPPED line) when there is no node.
fn setup() -> Option<(tempfile::TempDir, PathBuf)> {
    if Command::new("node").arg("--version").output().is_err() {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: npm launcher tests: node is not installed"
        );
        return None;
    }
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let modules = dir.path().join("node_modules");
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/npm/mirrorless");
    for sub in ["bin", "lib"] {
        std::fs::create_dir_all(modules.join("mirrorless").join(sub)).expect("mkdir");
        for entry in std::fs::read_dir(package.join(sub)).expect("ls") {
            let entry = entry.expect("entry");
            std::fs::copy(
                entry.path(),
                modules.join("mirrorless").join(sub).join(entry.file_name()),
            )
            .expect("copy");
        }
    }
    std::fs::copy(
        package.join("package.json"),
        modules.join("mirrorless/package.json"),
    )
    .expect("copy");
    let bin = modules.join(format!("@mirrorless/cli-linux-{arch}/bin"));
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::fs::write(bin.join("mirrorless"), STAND_IN).expect("write");
    std::fs::set_permissions(
        bin.join("mirrorless"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");
    let launcher = modules.join("mirrorless/bin/mirrorless.js");
    Some((dir, launcher))
}

fn launch(launcher: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new("node");
    cmd.arg(launcher).args(args);
    cmd
}

fn text(o: &Output) -> String {
    format!(
        "{:?}\n{}{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn arguments_reach_the_binary_untouched() {
    let Some((_dir, launcher)) = setup() else {
        return;
    };
    let o = launch(
        &launcher,
        &["args", "lint", "--", "--write-baseline", "a b", "-h"],
    )
    .output()
    .expect("node");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "<args><lint><--><--write-baseline><a b><-h>\n"
    );
}

#[test]
fn a_binary_killed_by_a_signal_kills_the_launcher_with_it() {
    let Some((_dir, launcher)) = setup() else {
        return;
    };
    // SIGPIPE: Node ignores it by default; SIGUSR1: Node would start its inspector.
    for (name, number) in [
        ("TERM", 15),
        ("INT", 2),
        ("HUP", 1),
        ("PIPE", 13),
        ("USR1", 10),
    ] {
        let o = launch(&launcher, &["die", name]).output().expect("node");
        assert_eq!(o.status.signal(), Some(number), "SIG{name}: {}", text(&o));
        assert!(!text(&o).contains("Debugger"), "SIG{name}: {}", text(&o));
    }
}

#[test]
fn signals_sent_to_the_launcher_go_to_the_binary() {
    let Some((_dir, launcher)) = setup() else {
        return;
    };
    for name in ["USR1", "TERM", "INT"] {
        let mut child = launch(&launcher, &["trap", name])
            .process_group(0)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("node");
        // Wait for the stand-in to say it is ready (its trap is set).
        let mut stdout = child.stdout.take().expect("stdout");
        let mut seen = Vec::new();
        let start = Instant::now();
        while !String::from_utf8_lossy(&seen).contains("ready") {
            let mut buf = [0u8; 64];
            let n = std::io::Read::read(&mut stdout, &mut buf).expect("read");
            assert!(
                n > 0 && start.elapsed() < Duration::from_secs(20),
                "no ready line"
            );
            seen.extend_from_slice(&buf[..n]);
        }
        let kill = Command::new("kill")
            .args([format!("-{name}"), child.id().to_string()])
            .status()
            .expect("kill");
        assert!(kill.success());
        // A launcher that does not forward the signal leaves the stand-in running: fail, and
        // end both, instead of hanging.
        let start = Instant::now();
        while child.try_wait().expect("poll").is_none() {
            if start.elapsed() > Duration::from_secs(20) {
                let _ = Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .status();
                let _ = child.wait();
                panic!("SIG{name}: the launcher did not end within 20 s (not forwarded)");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let mut rest = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut rest).expect("read");
        let o = child.wait_with_output().expect("wait");
        let all = format!("{}{}", String::from_utf8_lossy(&rest), text(&o));
        assert_eq!(o.status.code(), Some(7), "SIG{name}: {all}");
        assert!(all.contains(&format!("got {name}")), "SIG{name}: {all}");
        assert!(!all.contains("Debugger listening"), "SIG{name}: {all}");
    }
}

/// Only the main package installed (`--omit=optional`, or a lockfile from another platform):
/// the launcher names the platform package it needs and the command that installs it.
#[test]
fn a_missing_platform_package_is_named_with_the_command_that_installs_it() {
    let Some((dir, launcher)) = setup() else {
        return;
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    let platform = dir.path().join("node_modules/@mirrorless");
    std::fs::remove_dir_all(&platform).expect("remove the platform package");
    let o = launch(&launcher, &["--version"]).output().expect("node");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    let version = env!("CARGO_PKG_VERSION");
    for needle in [
        format!("the platform package @mirrorless/cli-linux-{arch}, which holds"),
        format!("npm install --save-dev @mirrorless/cli-linux-{arch}@{version}"),
        format!(
            "npm install ./mirrorless-cli-linux-{arch}-{version}.tgz ./mirrorless-{version}.tgz"
        ),
    ] {
        assert!(stderr.contains(&needle), "lacks {needle:?}:\n{}", text(&o));
    }
}
