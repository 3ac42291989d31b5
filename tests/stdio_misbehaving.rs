//! Misbehaving implementations over the stdio protocol, one test per fault: each asserts the
//! exit status (a harness fault is 2, never reported as an implementation failure), the
//! report's content, a duration bound (a hang guard, not a performance test) and that no
//! process of the implementation — grandchildren included — outlives the run.
//!
//! Every fixture records its pid (and its grandchild's) in `$MIRRORLESS_TEST_PID_DIR`
//! (`fixtures/impls/misbehaving/_common.py`), which is how a test finds its processes.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The generous bound of every run here: each ends in seconds, and a hang must fail the test
/// instead of stalling the suite.
const HANG_GUARD: Duration = Duration::from_secs(30);

/// The short timeouts of these tests (startup is slower on a loaded machine), and one
/// process at a time unless a test says otherwise.
const DEFAULTS: [&str; 10] = [
    "--cases",
    "4",
    "--startup-timeout",
    "5",
    "--message-timeout",
    "1",
    "--case-timeout",
    "3",
    "--jobs",
    "1",
];

/// A startup timeout for fixtures that start two Python processes (on a loaded machine).
const SLOW_START: [&str; 2] = ["--startup-timeout", "20"];

/// One finished run of `mirrorless`.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
    pids: tempfile::TempDir,
}

fn mirrorless(pids: &Path) -> Command {
    let mut cmd = crate::common::mirrorless_command();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("MIRRORLESS_TEST_PID_DIR", pids)
        .env_remove("CI");
    cmd
}

/// Runs `mirrorless run --ci --no-corpus --cases 4 <short timeouts> ARGS -- python3 FIXTURE
/// FIXTURE_ARGS` to its end (bounded by [`HANG_GUARD`]).
fn run(fixture: &str, args: &[&str], fixture_args: &[&str]) -> Ran {
    let pids = tempfile::tempdir().expect("a pid directory");
    let mut cmd = mirrorless(pids.path());
    // The defaults of these tests, unless `args` sets them.
    let defaults: Vec<&str> = DEFAULTS
        .chunks(2)
        .filter(|pair| !args.contains(&pair[0]))
        .flatten()
        .copied()
        .collect();
    cmd.args(["run", "--ci", "--no-corpus"])
        .args(defaults)
        .args(args)
        .args(["--", "python3"])
        .arg(format!("fixtures/impls/misbehaving/{fixture}"))
        .args(fixture_args);
    let started = Instant::now();
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mirrorless starts");
    let out = wait_bounded(child);
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took: started.elapsed(),
        pids,
    }
}

/// Waits for `child` at most [`HANG_GUARD`]; kills it and fails the test after that.
fn wait_bounded(mut child: Child) -> Output {
    let until = Instant::now() + HANG_GUARD;
    // Drain the pipes on threads, so a chatty child cannot block on them meanwhile.
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut v);
        v
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break status;
        }
        if Instant::now() >= until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mirrorless did not end within {HANG_GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// The pids recorded in `dir` whose file name ends in `.{kind}.pid`.
fn recorded(dir: &Path, kind: &str) -> Vec<u32> {
    let suffix = format!(".{kind}.pid");
    let mut pids: Vec<u32> = std::fs::read_dir(dir)
        .expect("the pid directory")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(&suffix)?.parse().ok()
        })
        .collect();
    pids.sort_unstable();
    pids
}

/// Whether `pid` is a live process (a zombie is dead: it only waits to be reaped).
fn alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    if proc.is_dir() {
        return match std::fs::read_to_string(proc.join(pid.to_string()).join("stat")) {
            // The state follows the parenthesized command name.
            Ok(stat) => stat
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| !rest.starts_with('Z') && !rest.starts_with('X')),
            Err(_) => false,
        };
    }
    Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Asserts that every process the fixtures recorded is gone (after a moment for the kernel to
/// deliver a SIGKILL sent just before mirrorless exited).
fn assert_no_process_left(ran: &Ran) {
    let all: Vec<u32> = ["impl", "grandchild"]
        .iter()
        .flat_map(|k| recorded(ran.pids.path(), k))
        .collect();
    let until = Instant::now() + Duration::from_secs(2);
    let mut left: Vec<u32> = all.clone();
    while !left.is_empty() && Instant::now() < until {
        left.retain(|&p| alive(p));
        std::thread::sleep(Duration::from_millis(20));
    }
    for &pid in &left {
        // Do not leave them to the next test either.
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    assert!(
        left.is_empty(),
        "processes {left:?} (of {all:?}) outlived the run\n{}",
        ran.stderr
    );
}

/// Replaces every 16-hex-digit case id with `[case-id]` and every `pid N` with `pid [pid]`:
/// ids follow the generator, and pids the machine.
fn redact(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let run = chars[i..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        let bounded = (i == 0 || !chars[i - 1].is_ascii_alphanumeric())
            && chars
                .get(i + run)
                .is_none_or(|c| !c.is_ascii_alphanumeric());
        if run == 16 && bounded {
            out.push_str("[case-id]");
            i += run;
        } else if out.ends_with("pid ") && chars[i].is_ascii_digit() {
            out.push_str("[pid]");
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The fault report without the generated case (long, and pinned elsewhere).
fn report(stderr: &str) -> String {
    redact(stderr)
        .lines()
        .filter(|l| !l.starts_with("  the case: "))
        .collect::<Vec<_>>()
        .join("\n")
        .replace(
            &format!("\"suite\":\"{}\"", env!("CARGO_PKG_VERSION")),
            "\"suite\":\"[version]\"",
        )
}

/// Runs a fixture that faults in its first case with `--max-restarts 0`: exit 2, the report
/// contains `must_contain`, within the guard, no process left; the report is pinned.
fn check(fixture: &str, args: &[&str], fixture_args: &[&str], must_contain: &[&str]) -> Ran {
    let args: Vec<&str> = ["--max-restarts", "0"]
        .iter()
        .chain(args)
        .copied()
        .collect();
    let ran = run(fixture, &args, fixture_args);
    assert_eq!(ran.code, 2, "{fixture}: exit status\n{}", ran.stderr);
    for needle in must_contain {
        assert!(
            ran.stderr.contains(needle),
            "{fixture}: missing {needle:?} in\n{}",
            ran.stderr
        );
    }
    assert!(ran.took < HANG_GUARD, "{fixture} took {:?}", ran.took);
    assert_no_process_left(&ran);
    let name = std::iter::once(fixture.trim_end_matches(".py"))
        .chain(fixture_args.iter().copied())
        .collect::<Vec<_>>()
        .join("-");
    insta::assert_snapshot!(format!("misbehaving_{name}"), report(&ran.stderr));
    ran
}

#[test]
fn a_crash_mid_case_names_the_case_the_exit_status_and_stderr() {
    let ran = check(
        "crash-mid-case.py",
        &[],
        &[],
        &[
            "(profile 2026-07)",
            "it closed its stdout and exited with status 3",
            "fatal: the tokenizer ran out of memory",
            "the case: {",
            "no restart is left (--max-restarts 0): the run ends here",
        ],
    );
    // The run ended with the report of what ran.
    assert!(
        ran.stdout.contains("problem: the implementation"),
        "{}",
        ran.stdout
    );
}

#[test]
fn a_hang_is_cut_off_by_the_message_timeout() {
    check(
        "hang.py",
        &[],
        &[],
        &[
            "sent nothing for 1 s (--message-timeout)",
            "waiting for a model",
        ],
    );
}

#[test]
fn a_case_that_never_ends_is_cut_off_by_the_case_timeout() {
    check(
        "chatty.py",
        &[],
        &[],
        &["the case did not finish within 3 s (--case-timeout)"],
    );
}

#[test]
fn an_implementation_that_stops_reading_its_stdin_cannot_block_the_harness() {
    check(
        "stops-reading.py",
        &[],
        &[],
        &[
            "it stopped reading its stdin: ",
            "after 1 s (--message-timeout)",
        ],
    );
}

#[test]
fn closing_stdout_while_running_is_told_apart_from_exiting() {
    check(
        "closes-stdout.py",
        &[],
        &[],
        &["it closed its stdout but is still running (pid "],
    );
}

#[test]
fn garbage_on_stdout_is_shown_verbatim() {
    check(
        "garbage-stdout.py",
        &[],
        &[],
        &["not a protocol message", "< Loading model weights... 42%"],
    );
}

#[test]
fn half_a_line_then_exit_is_reported_as_an_unterminated_line() {
    check(
        "half-line.py",
        &[],
        &[],
        &["unterminated line `{\"type\":\"append\",\"event\":{\"type\":\"turn/st`"],
    );
}

#[test]
fn a_wrong_protocol_version_is_refused_at_the_handshake() {
    check(
        "wrong-version.py",
        &[],
        &[],
        &["speaks protocol `mirrorless-stdio/0`, the harness speaks `mirrorless-stdio/1`"],
    );
}

#[test]
fn a_hello_without_a_protocol_is_named_as_such() {
    check(
        "bad-hello.py",
        &[],
        &["missing"],
        &["its `hello` has no `protocol` field (it must be \"mirrorless-stdio/1\")"],
    );
}

#[test]
fn a_hello_whose_protocol_is_not_a_string_is_named_as_such() {
    check(
        "bad-hello.py",
        &[],
        &["number"],
        &["the `protocol` of its `hello` is not a string but `1`"],
    );
}

#[test]
fn a_slow_start_is_cut_off_by_the_startup_timeout() {
    check(
        "slow-start.py",
        &["--startup-timeout", "1"],
        &[],
        &[
            "no answer within 1 s (--startup-timeout)",
            "warming up caches",
        ],
    );
}

#[test]
fn max_restarts_is_honoured_and_then_the_run_ends_with_its_report() {
    let ran = run(
        "crash-mid-case.py",
        &["--max-restarts", "2", "--jobs", "1"],
        &[],
    );
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.took < HANG_GUARD, "took {:?}", ran.took);
    // The first start and two restarts: three processes, three faults, then the end.
    assert_eq!(recorded(ran.pids.path(), "impl").len(), 3, "{}", ran.stderr);
    let faults: Vec<&str> = ran
        .stderr
        .lines()
        .filter(|l| l.starts_with("problem: the implementation"))
        .collect();
    assert_eq!(faults.len(), 3, "{}", ran.stderr);
    for needle in [
        "the next case starts it afresh (restart 1 of 2, --max-restarts)",
        "the next case starts it afresh (restart 2 of 2, --max-restarts)",
        "no restart is left (--max-restarts 2): the run ends here",
    ] {
        assert!(
            ran.stderr.contains(needle),
            "missing {needle:?}\n{}",
            ran.stderr
        );
    }
    assert!(ran.stdout.contains("\nINCOMPLETE — "), "{}", ran.stdout);
    assert_no_process_left(&ran);
}

#[test]
fn after_a_restart_the_run_goes_on_through_every_case() {
    let marker = tempfile::tempdir().expect("tempdir");
    let marker = marker.path().join("started");
    // Six cases per profile: enough that every requirement is exercised in both.
    let ran = run(
        "crash-first-case.py",
        &["--jobs", "1", "--cases", "6"],
        &[&marker.to_string_lossy()],
    );
    // One fault is a problem of the run (exit 2), but every case was run.
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.stderr.contains("restart 1 of 10"), "{}", ran.stderr);
    // The faulted case has no verdict and is not counted; its profile and the run are
    // incomplete, not failed, and never called conformant; the other profile is.
    assert!(
        ran.stdout.contains(
            "2026-07: INCOMPLETE — 5 cases (5 generated, 0 from the corpus), 0 failed, 1 without a verdict"
        ),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("\nINCOMPLETE — "), "{}", ran.stdout);
    assert!(
        ran.stdout.contains("2026-08: conformant — "),
        "{}",
        ran.stdout
    );
    assert_eq!(recorded(ran.pids.path(), "impl").len(), 2, "{}", ran.stderr);
    assert_no_process_left(&ran);
}

#[test]
fn jobs_run_that_many_implementation_processes_and_grandchildren_are_stopped() {
    let ran = run(
        "spawns-grandchild.py",
        &["--profile", "2026-08", "--cases", "6", "--jobs", "3"]
            .into_iter()
            .chain(SLOW_START)
            .collect::<Vec<_>>(),
        &[],
    );
    assert!(ran.code == 0 || ran.code == 1, "{}", ran.stderr);
    assert!(ran.took < HANG_GUARD, "took {:?}", ran.took);
    // One process replays the corpus and shrinks; three run the generated cases.
    assert_eq!(recorded(ran.pids.path(), "impl").len(), 4, "{}", ran.stderr);
    assert_eq!(recorded(ran.pids.path(), "grandchild").len(), 4);
    assert_no_process_left(&ran);
}

/// Starts a long run of `spawns-grandchild.py`, waits until cases are running, sends
/// `signal` to mirrorless (not to the implementation: it has its own process group).
fn signalled(signal: &str, jobs: &str) -> Ran {
    let pids = tempfile::tempdir().expect("a pid directory");
    let mut cmd = mirrorless(pids.path());
    cmd.args([
        "run",
        "--ci",
        "--no-corpus",
        "--cases",
        "1000000",
        "-j",
        jobs,
    ])
    .args(SLOW_START)
    .args(["--profile", "2026-08", "--", "python3"])
    .arg("fixtures/impls/misbehaving/spawns-grandchild.py");
    let started = Instant::now();
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mirrorless starts");
    // Every process is up (the first, then one per job), and cases are running.
    let processes: usize = jobs.parse::<usize>().expect("a number") + usize::from(jobs != "1");
    let until = Instant::now() + Duration::from_secs(20);
    while recorded(pids.path(), "grandchild").len() < processes && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let out = wait_bounded(child);
    Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took: started.elapsed(),
        pids,
    }
}

fn assert_stopped_with_report(ran: &Ran, code: i32, reason: &str) {
    assert_eq!(ran.code, code, "{}", ran.stderr);
    assert!(ran.took < HANG_GUARD, "took {:?}", ran.took);
    let problem = format!("problem: the run stopped early ({reason}): the report covers the ");
    assert!(ran.stderr.contains(&problem), "{}", ran.stderr);
    assert!(ran.stdout.contains(&problem), "{}", ran.stdout);
    assert!(
        ran.stdout.contains("2026-08: conformant — "),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("\nINCOMPLETE — "), "{}", ran.stdout);
    assert!(!recorded(ran.pids.path(), "grandchild").is_empty());
    assert_no_process_left(ran);
}

#[cfg(unix)]
#[test]
fn sigint_stops_the_processes_prints_the_report_and_exits_130() {
    let ran = signalled("INT", "1");
    assert_stopped_with_report(&ran, 130, "interrupted by SIGINT");
}

#[cfg(unix)]
#[test]
fn sigterm_stops_every_parallel_process_prints_the_report_and_exits_143() {
    let ran = signalled("TERM", "2");
    assert_stopped_with_report(&ran, 143, "terminated by SIGTERM");
}

#[test]
fn the_run_timeout_ends_a_run_with_the_report_of_what_ran() {
    let pids = tempfile::tempdir().expect("a pid directory");
    let started = Instant::now();
    let child = mirrorless(pids.path())
        .args(["run", "--ci", "--no-corpus", "--cases", "1000000"])
        .args(SLOW_START)
        .args([
            "--profile",
            "2026-08",
            "--run-timeout",
            "4",
            "--",
            "python3",
        ])
        .arg("fixtures/impls/misbehaving/spawns-grandchild.py")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mirrorless starts");
    let out = wait_bounded(child);
    let ran = Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took: started.elapsed(),
        pids,
    };
    assert_stopped_with_report(&ran, 2, "the run did not finish within 4 s (--run-timeout)");
}

#[test]
fn the_run_timeout_cuts_a_hang_shorter_than_its_message_timeout() {
    let ran = run(
        "hang.py",
        &["--message-timeout", "100", "--run-timeout", "3"],
        &[],
    );
    assert_eq!(ran.code, 2, "{}", ran.stderr);
    assert!(ran.took < Duration::from_secs(20), "took {:?}", ran.took);
    // Usually the hang is cut short; on a loaded machine the handshake may be.
    assert!(
        ran.stderr
            .contains("the run did not finish within 3 s (--run-timeout)"),
        "{}",
        ran.stderr
    );
    assert_no_process_left(&ran);
}

#[test]
fn values_near_the_limits_are_usage_errors() {
    for (flag, value) in [
        ("--message-timeout", "1e19"),
        ("--shrink-time", "1e300"),
        ("--case-timeout", "18446744073709551616"),
        ("--startup-timeout", "-1"),
        ("--run-timeout", "inf"),
        ("--jobs", "18446744073709551615"),
        ("--max-restarts", "4294967296"),
    ] {
        let out = crate::common::mirrorless_command()
            .args(["run", "--cases", "1", &format!("{flag}={value}")])
            .output()
            .expect("mirrorless runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {stderr}");
        assert!(
            stderr.contains(&format!("invalid value '{value}' for '{flag}")),
            "{flag} {value}: {stderr}"
        );
    }
}

#[test]
fn a_command_that_does_not_exist_is_a_usage_error() {
    let out = crate::common::mirrorless_command()
        .args(["run", "--", "/nonexistent/mirrorless-impl"])
        .output()
        .expect("mirrorless runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot start `/nonexistent/mirrorless-impl`"),
        "{stderr}"
    );
}

#[test]
fn a_crash_reported_over_the_protocol_is_an_implementation_failure() {
    let ran = run("declared-crash.py", &["--no-shrink"], &[]);
    assert_eq!(ran.code, 1, "{}", ran.stderr);
    assert!(
        ran.stdout.contains(
            "the implementation reported a crash: TypeError: cannot read properties of undefined"
        ),
        "{}",
        ran.stdout
    );
    assert_no_process_left(&ran);
}

#[test]
fn validate_protocol_turns_a_schema_violation_into_a_protocol_fault() {
    let ran = run("schema-violation.py", &["--max-restarts", "0"], &[]);
    assert_ne!(
        ran.code, 2,
        "without validation the run goes on: {}",
        ran.stderr
    );
    let ran = run(
        "schema-violation.py",
        &["--max-restarts", "0", "--validate-protocol"],
        &[],
    );
    assert_eq!(ran.code, 2);
    assert!(
        ran.stderr.contains(
            "a message breaks the protocol schema: `event` lacks the required field `seq`"
        ),
        "{}",
        ran.stderr
    );
    assert_no_process_left(&ran);
}

#[test]
fn the_run_timeout_bounds_the_embedded_implementation_too() {
    let pids = tempfile::tempdir().expect("a pid directory");
    let started = Instant::now();
    let child = mirrorless(pids.path())
        .args(["run", "--ci", "--no-corpus", "--cases", "100000000"])
        .args(["--profile", "2026-07", "--run-timeout", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mirrorless starts");
    let out = wait_bounded(child);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(started.elapsed() < HANG_GUARD);
    assert!(
        stdout.contains(
            "problem: the run stopped early (the run did not finish within 1 s (--run-timeout))"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("\nINCOMPLETE — implementation reference (embedded)"),
        "{stdout}"
    );
}

#[cfg(unix)]
#[test]
fn sigint_during_replay_stops_the_implementation_and_exits_130() {
    let pids = tempfile::tempdir().expect("a pid directory");
    let case = pids.path().join("case.json");
    std::fs::write(
        &case,
        r#"{"profile":"2026-08","script":{"actions":[{"action":"prompt","text":"prompt 1","calls":[{"chunks":[{"type":"finish","reason":{"kind":"stop"}}]}]}]}}"#,
    )
    .expect("the case file");
    let started = Instant::now();
    let child = mirrorless(pids.path())
        .arg("replay")
        .arg(&case)
        .args(["--message-timeout", "100", "--", "python3"])
        .arg("fixtures/impls/misbehaving/hang.py")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mirrorless starts");
    // The hang begins once the fixture is up and has asked for input.
    let until = Instant::now() + Duration::from_secs(20);
    while recorded(pids.path(), "impl").is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1000));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = wait_bounded(child);
    let ran = Ran {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took: started.elapsed(),
        pids,
    };
    assert_eq!(ran.code, 130, "{}", ran.stderr);
    assert!(ran.took < HANG_GUARD);
    assert!(
        ran.stderr.contains("interrupted by SIGINT"),
        "{}",
        ran.stderr
    );
    assert_no_process_left(&ran);
}
