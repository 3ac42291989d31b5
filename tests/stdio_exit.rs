//! Issue #31, item 9: an implementation that exits while a process it started still holds its
//! stdout is reported by its exit, promptly (not after `--message-timeout` as "sent nothing"),
//! at the handshake and in a case, and the process it left behind is stopped.
#![cfg(unix)]

use std::path::Path;
use std::time::{Duration, Instant};

/// A Python implementation that starts a grandchild sharing its stdout (it records its pid in
/// `pidfile`), then exits with status 3 at `when` ("hello" or "case").
fn implementation(dir: &Path, when: &str) -> String {
    let script = dir.join("impl.py");
    let pidfile = dir.join("grandchild.pid");
    std::fs::write(
        &script,
        format!(
            r#"import json, subprocess, sys
g = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
open({pidfile:?}, "w").write(str(g.pid))
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == {when:?}:
        sys.exit(3)
    if msg["type"] == "hello":
        print(json.dumps({{"type": "hello", "protocol": msg["protocol"], "implementation": {{"name": "exits"}}}}), flush=True)
"#,
            pidfile = pidfile.to_str().expect("utf-8"),
        ),
    )
    .expect("write");
    script.to_str().expect("utf-8").to_owned()
}

#[test]
fn an_exit_behind_a_held_stdout_is_named_at_once() {
    for when in ["hello", "case"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let script = implementation(dir.path(), when);
        let start = Instant::now();
        let o = crate::common::mirrorless_command()
            .args([
                "run",
                "--cases",
                "1",
                "--no-corpus",
                "--max-restarts",
                "0",
                "--message-timeout",
                "20",
                "--startup-timeout",
                "20",
                "--",
                "python3",
                &script,
            ])
            .output()
            .expect("run mirrorless");
        let elapsed = start.elapsed();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{when}: {stderr}");
        assert!(stderr.contains("exited with status 3"), "{when}: {stderr}");
        assert!(stderr.contains("still open"), "{when}: {stderr}");
        assert!(!stderr.contains("sent nothing"), "{when}: {stderr}");
        assert!(!stderr.contains("no answer within"), "{when}: {stderr}");
        assert!(
            elapsed < Duration::from_secs(15),
            "{when}: took {elapsed:?}"
        );
        // The grandchild was stopped with the process group.
        let pid = std::fs::read_to_string(dir.path().join("grandchild.pid")).expect("pid");
        let proc = Path::new("/proc").join(pid.trim());
        // Dead is gone or a zombie (init reaps the reparented grandchild when it gets to it).
        let dead =
            || std::fs::read_to_string(proc.join("stat")).map_or(true, |s| s.contains(") Z"));
        let until = Instant::now() + Duration::from_secs(5);
        while !dead() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(dead(), "{when}: the grandchild {pid} is still running");
    }
}

/// A Python implementation that records its process group in `dir/<pgid>.pid`, waits for
/// `dir/<pgid>.ok` (the test has put a process of its own into the group by then), and exits
/// with status 3 when a case starts.
fn waits_for_a_member(dir: &Path) -> String {
    let script = dir.join("impl.py");
    std::fs::write(
        &script,
        r#"import json, os, sys, time
d = sys.argv[1]
g = os.getpgid(0)
open(os.path.join(d, f"{g}.pid"), "w").close()
until = time.time() + 60
while not os.path.exists(os.path.join(d, f"{g}.ok")) and time.time() < until:
    time.sleep(0.005)
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "case":
        sys.exit(3)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": msg["protocol"], "implementation": {"name": "member"}}), flush=True)
"#,
    )
    .expect("write");
    script.to_str().expect("utf-8").to_owned()
}

/// A process of the group that dies at the harness's SIGTERM and is then a zombie nobody reaps
/// (its parent is this test, which reaps it only at the end, as an init that reaps late or
/// never would) is dead: the stop goes on at once instead of waiting out the SIGTERM grace.
/// Five cases, each ending its process (four restarts): five stops, each ≥ the 1 s grace when
/// the zombie was counted as a member; under 4 s in all only if no stop waited for it.
#[test]
fn a_zombie_left_in_the_group_does_not_hold_up_the_stop() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let script = waits_for_a_member(dir.path());
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let joiner = {
        let (dir, done) = (dir.path().to_owned(), done.clone());
        std::thread::spawn(move || {
            let mut members = Vec::new();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                for entry in std::fs::read_dir(&dir).expect("read dir").flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let Some(pgid) = name.strip_suffix(".pid") else {
                        continue;
                    };
                    let ok = dir.join(format!("{pgid}.ok"));
                    if ok.exists() {
                        continue;
                    }
                    let member = std::process::Command::new("sleep")
                        .arg("60")
                        .process_group(pgid.parse().expect("a pgid"))
                        .spawn()
                        .expect("sleep joins the group");
                    members.push(member);
                    std::fs::write(ok, "").expect("write ok");
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            members
        })
    };
    let start = Instant::now();
    let o = crate::common::mirrorless_command()
        .args([
            "run",
            "--profile",
            "2026-08",
            "--cases",
            "5",
            "--jobs",
            "1",
            "--no-corpus",
            "--max-restarts",
            "5",
            "--",
            "python3",
            &script,
            &dir.path().to_string_lossy(),
        ])
        .output()
        .expect("run mirrorless");
    let elapsed = start.elapsed();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut members = joiner.join().expect("the joining thread");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("restart 4 of 5"), "{stderr}");
    assert_eq!(members.len(), 5, "one member per implementation process");
    for member in &mut members {
        use std::os::unix::process::ExitStatusExt;
        let _ = member.kill(); // in case the harness left it: the assertion below says so
        let status = member.wait().expect("reaped");
        assert_eq!(
            status.signal(),
            Some(15), // SIGTERM
            "the harness stopped the group's member with SIGTERM: {status:?}"
        );
    }
    assert!(
        elapsed < Duration::from_secs(4),
        "five stops took {elapsed:?}: a stop waited for a zombie"
    );
}
