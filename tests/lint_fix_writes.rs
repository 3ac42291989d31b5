//! `mirrorless lint --fix` keeps what a file is: a read-only file is refused, hard links stay
//! linked, owner and mode are kept, a file reached twice through `-L` is written once, and a
//! signal during the writes leaves no temporary file and no half-written file behind.
#![cfg(unix)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const BEFORE: &str = "ctx.on('agent/turn-end', (agent, turn) => {\n  log(turn);\n});\n";

/// What `--fix` makes of [`BEFORE`] in a plain file, the text every other test expects.
fn after() -> &'static str {
    static AFTER: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    AFTER.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.js"), BEFORE).unwrap();
        let o = fix(dir.path(), &[]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        read(&dir.path().join("a.js"))
    })
}

fn fix(dir: &Path, extra: &[&str]) -> Output {
    crate::common::mirrorless_command()
        .env("NO_COLOR", "1")
        .args(["lint", "--no-config", "--fix"])
        .args(extra)
        .arg(".")
        .current_dir(dir)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn the_file_has_a_machine_applicable_fix() {
    // The other tests would prove nothing if --fix left the file as it was.
    assert_ne!(after(), BEFORE);
    assert!(after().contains("'session/event'"), "{}", after());
}

#[test]
fn a_read_only_file_is_refused_with_its_mode_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.js");
    std::fs::write(&file, BEFORE).unwrap();
    std::fs::write(dir.path().join("b.js"), BEFORE).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    let o = fix(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let printed = format!("{}{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(
        printed.contains("a.js: not fixed: the file is read-only (mode 0444)"),
        "{printed}"
    );
    assert!(
        stderr(&o).contains("fixed 1 finding in 1 file; 1 finding remains"),
        "{printed}"
    );
    assert_eq!(read(&file), BEFORE);
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o7777,
        0o444
    );
    // The rest of the work goes on.
    assert_eq!(read(&dir.path().join("b.js")), after());
}

#[test]
fn hard_links_stay_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.js");
    std::fs::write(&file, BEFORE).unwrap();
    let other = tempfile::tempdir().unwrap();
    let link = other.path().join("linked.js");
    std::fs::hard_link(&file, &link).unwrap();
    let inode = std::fs::metadata(&file).unwrap().ino();
    let o = fix(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::metadata(&file).unwrap().ino(), inode);
    assert_eq!(read(&file), after());
    assert_eq!(
        read(&link),
        after(),
        "the other name of the file sees the fix"
    );
}

#[test]
fn mode_and_owner_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.js");
    std::fs::write(&file, BEFORE).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    // Only the superuser can give a file away: as root, the file belongs to another user.
    let root = std::fs::metadata(dir.path()).unwrap().uid() == 0
        && Command::new("id").arg("-u").output().unwrap().stdout == b"0\n";
    if root {
        std::os::unix::fs::chown(&file, Some(65534), Some(65534)).unwrap();
    }
    let before = std::fs::metadata(&file).unwrap();
    let o = fix(dir.path(), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let now = std::fs::metadata(&file).unwrap();
    assert_eq!(read(&file), after());
    assert_eq!(now.permissions().mode() & 0o7777, 0o640);
    assert_eq!((now.uid(), now.gid()), (before.uid(), before.gid()));
    if !root {
        eprintln!("not root: the change of owner was not tried");
    }
}

#[test]
fn a_file_reached_twice_through_a_followed_symlink_is_written_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.js"), BEFORE).unwrap();
    std::os::unix::fs::symlink("b.js", dir.path().join("a.js")).unwrap();
    let o = fix(dir.path(), &["-L"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("changed on disk"), "{}", stderr(&o));
    assert_eq!(read(&dir.path().join("b.js")), after());
    assert!(
        std::fs::symlink_metadata(dir.path().join("a.js"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn a_signal_during_the_writes_leaves_no_temporary_and_no_half_written_file() {
    const FILES: usize = 4000;
    let dir = tempfile::tempdir().unwrap();
    for i in 0..FILES {
        std::fs::write(dir.path().join(format!("f{i:04}.js")), BEFORE).unwrap();
    }
    let mut child = crate::common::mirrorless_command()
        .env("NO_COLOR", "1")
        .args(["lint", "--no-config", "--fix", "."])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The files are written in order of their names: the first one changing means the writes
    // have begun, and the signal is sent while they go on.
    let first = dir.path().join("f0000.js");
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while read(&first) == BEFORE && std::time::Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().unwrap();
    let mut fixed = 0;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        assert!(
            !name.starts_with(".mirrorless-fix-"),
            "left behind after the signal: {name}"
        );
        let text = read(&entry.path());
        assert!(
            text == BEFORE || text == after(),
            "{name} half written after the signal: {text:?}"
        );
        fixed += usize::from(text == after());
    }
    // Stopped between two files with its own status (not killed by the signal mid-write), or
    // done before the signal came.
    match out.status.code() {
        Some(130) => assert!(stderr(&out).contains("interrupted: "), "{}", stderr(&out)),
        Some(0) => assert_eq!(fixed, FILES),
        other => panic!("exit {other:?} after the signal: {}", stderr(&out)),
    }
}
