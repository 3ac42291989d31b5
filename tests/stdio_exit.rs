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
        let until = Instant::now() + Duration::from_secs(5);
        while proc.exists() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        let state = std::fs::read_to_string(proc.join("stat")).unwrap_or_default();
        assert!(
            !proc.exists() || state.contains(") Z"),
            "{when}: the grandchild {pid} is still running"
        );
    }
}
