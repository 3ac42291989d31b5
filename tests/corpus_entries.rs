//! Issue #31, item 2: "The corpus directory is data, not a trap." Whatever sits under a case
//! id or among the corpus entries (a FIFO, a dangling symbolic link, a link to a file outside,
//! a truncated file), `run` never blocks on it, never writes outside the corpus, says 'saved
//! to' only when the file holds the case, and SIGTERM/SIGINT stop it with 143/130.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// An implementation that fails MIRROR-3 on every case: each run saves a shrunk case.
fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/impls/broken-stdio/MIRROR-3-turn-start-emitter.py")
}

fn spawn_run(cwd: &Path, cases: &str, embedded: bool) -> Child {
    let fixture = fixture();
    let mut args = vec![
        "run",
        "--ci",
        "--profile",
        "2026-08",
        "--seed",
        "1",
        "-j",
        "1",
        "--cases",
        cases,
        "--corpus",
        "corpus",
    ];
    if !embedded {
        args.extend(["--", "python3", fixture.to_str().expect("utf-8 path")]);
    }
    crate::common::mirrorless_command()
        .args(&args)
        .current_dir(cwd)
        .env_remove("CI")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mirrorless")
}

/// Waits for `child`, failing the test (instead of hanging) after `limit`.
fn finish(mut child: Child, limit: Duration, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().expect("poll").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: mirrorless run did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("collect")
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// The id the failing implementation's minimal case is saved under (ids are deterministic).
fn saved_id(dir: &Path) -> String {
    let o = finish(
        spawn_run(dir, "8", false),
        Duration::from_secs(300),
        "first run",
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    let entries: Vec<_> = std::fs::read_dir(dir.join("corpus"))
        .expect("corpus")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    entries[0].trim_end_matches(".json").to_owned()
}

#[derive(Debug, Clone, Copy)]
enum Planted {
    /// A symbolic link to a file that does not exist, outside the corpus.
    DanglingLink,
    /// A symbolic link to an existing file outside the corpus.
    LinkToFile,
    /// The first half of the real case file.
    Truncated,
    /// A FIFO without a writer.
    Fifo,
}

#[test]
fn whatever_sits_under_a_case_id_the_run_saves_into_the_corpus_only() {
    let first = tempfile::tempdir().expect("tempdir");
    let id = saved_id(first.path());
    let good = std::fs::read(first.path().join(format!("corpus/{id}.json"))).expect("saved");
    for planted in [
        Planted::DanglingLink,
        Planted::LinkToFile,
        Planted::Truncated,
        Planted::Fifo,
    ] {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path();
        let corpus = dir.join("corpus");
        std::fs::create_dir_all(&corpus).expect("mkdir");
        let entry = corpus.join(format!("{id}.json"));
        let outside = dir.join("outside.json");
        match planted {
            Planted::DanglingLink => {
                std::os::unix::fs::symlink(&outside, &entry).expect("symlink");
            }
            Planted::LinkToFile => {
                std::fs::write(&outside, "precious\n").expect("write");
                std::os::unix::fs::symlink(&outside, &entry).expect("symlink");
            }
            Planted::Truncated => std::fs::write(&entry, &good[..good.len() / 2]).expect("write"),
            Planted::Fifo => mkfifo(&entry),
        }
        let o = finish(
            spawn_run(dir, "8", false),
            Duration::from_secs(300),
            &format!("{planted:?}"),
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        let what = format!("{planted:?}:\n{stderr}");
        // The planted entry was skipped with a problem naming it: exit 2, not a verdict alone.
        assert_eq!(o.status.code(), Some(2), "{what}");
        assert!(stderr.contains(&format!("{id}.json")), "{what}");
        assert!(stderr.contains("corpus entry skipped"), "{what}");
        // Saved: the entry is now a regular file holding the case, and said so.
        let meta = std::fs::symlink_metadata(&entry).expect("entry");
        assert!(meta.file_type().is_file(), "{what}: {meta:?}");
        assert_eq!(std::fs::read(&entry).expect("entry"), good, "{what}");
        assert!(
            stderr.contains(&format!("saved to corpus/{id}.json")),
            "{what}"
        );
        // Nothing written outside the corpus, and no temporary file left in it.
        match planted {
            Planted::LinkToFile => assert_eq!(
                std::fs::read_to_string(&outside).expect("outside"),
                "precious\n",
                "{what}"
            ),
            _ => assert!(!outside.exists(), "{what}"),
        }
        let names: Vec<_> = std::fs::read_dir(&corpus)
            .expect("corpus")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "{what}: {names:?}");
    }
}

/// A FIFO named `*.json` among the entries: the embedded reference and an external
/// implementation both run to the end, the FIFO skipped with a warning naming it.
#[test]
fn a_fifo_in_the_corpus_is_skipped_not_waited_on() {
    for embedded in [true, false] {
        let tmp = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(tmp.path().join("corpus")).expect("mkdir");
        mkfifo(&tmp.path().join("corpus/trap.json"));
        let o = finish(
            spawn_run(tmp.path(), "4", embedded),
            Duration::from_secs(300),
            "FIFO",
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains("trap.json: not a regular file") && stderr.contains("skipped"),
            "{stderr}"
        );
    }
}

/// SIGTERM and SIGINT stop a run that has a FIFO in its corpus with 143 and 130 (the docs'
/// promise), within a bound.
#[test]
fn signals_stop_a_run_whose_corpus_holds_a_fifo() {
    for (signal, code) in [("-TERM", 143), ("-INT", 130)] {
        let tmp = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(tmp.path().join("corpus")).expect("mkdir");
        mkfifo(&tmp.path().join("corpus/trap.json"));
        let child = spawn_run(tmp.path(), "100000000", true);
        std::thread::sleep(Duration::from_millis(1500));
        let sent = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(sent.success());
        let o = finish(child, Duration::from_secs(60), signal);
        assert_eq!(
            o.status.code(),
            Some(code),
            "{signal}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
