//! `packaging/install.sh` against hostile surroundings, with a stand-in release (a tiny archive
//! and its checksum, no release build needed): a symbolic link planted in the install
//! directory, an `http://` URL, a wget that truncates every download, and the build-provenance
//! check with and without `gh`. (The real archive is installed in `xtask/tests/packages.rs`.)
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = "0.1.0";
const TARGET: &str = "x86_64-unknown-linux-musl";
const BINARY: &str = "#!/bin/sh\necho stand-in mirrorless\n";

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/install.sh")
}

fn text(o: &Output) -> String {
    format!(
        "status {}\n{}{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn executable(path: &Path, content: &str) {
    std::fs::write(path, content).expect("write");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// A release directory holding the archive and its `.sha256`, as `cargo xtask dist` lays
/// them out; returns the archive's name.
fn release(dir: &Path) -> String {
    let stem = format!("mirrorless-{VERSION}-{TARGET}");
    let work = dir.join("work");
    std::fs::create_dir_all(work.join(&stem)).expect("mkdir");
    executable(&work.join(&stem).join("mirrorless"), BINARY);
    let archive = format!("{stem}.tar.gz");
    let out = Command::new("tar")
        .arg("-czf")
        .arg(dir.join(&archive))
        .arg("-C")
        .arg(&work)
        .arg(&stem)
        .output()
        .expect("tar");
    assert!(out.status.success(), "{}", text(&out));
    let sum = Command::new("sha256sum")
        .arg(&archive)
        .current_dir(dir)
        .output()
        .expect("sha256sum");
    assert!(sum.status.success(), "{}", text(&sum));
    std::fs::write(dir.join(format!("{archive}.sha256")), &sum.stdout).expect("write");
    archive
}

/// A directory of tools for `PATH`: links to the real ones install.sh needs (never curl, wget
/// or gh), plus the stand-ins written into it.
fn tools(dir: &Path) -> PathBuf {
    let bin = dir.join("tools");
    std::fs::create_dir_all(&bin).expect("mkdir");
    for tool in [
        "sh",
        "uname",
        "mktemp",
        "rm",
        "cut",
        "tr",
        "sha256sum",
        "mkdir",
        "tar",
        "gzip",
        "cp",
        "chmod",
        "mv",
        "cat",
        "sed",
        "grep",
        "head",
    ] {
        let found = ["/usr/bin", "/bin"]
            .iter()
            .map(|d| Path::new(d).join(tool))
            .find(|p| p.exists());
        if let Some(real) = found {
            std::os::unix::fs::symlink(real, bin.join(tool)).expect("symlink");
        }
    }
    bin
}

fn install(args: &[&str], path: &Path) -> Output {
    Command::new(path.join("sh"))
        .arg(script())
        .args(["--version", VERSION, "--target", TARGET])
        .args(args)
        .env("PATH", path)
        .env_remove("GH_TOKEN")
        .output()
        .expect("run install.sh")
}

#[test]
fn installs_from_a_directory_and_says_the_provenance_was_not_verified() {
    let sb = tempfile::tempdir().expect("tempdir");
    let rel = sb.path().join("rel");
    std::fs::create_dir(&rel).expect("mkdir");
    release(&rel);
    let to = sb.path().join("bin");
    let path = tools(sb.path());
    let o = install(
        &[
            "--base-url",
            rel.to_str().unwrap(),
            "--to",
            to.to_str().unwrap(),
        ],
        &path,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(to.join("mirrorless")).unwrap(),
        BINARY
    );
    assert!(
        text(&o).contains("build provenance not verified (no --repo to verify against)"),
        "{}",
        text(&o)
    );
    // No temporary file is left in the install directory.
    let left: Vec<_> = std::fs::read_dir(&to)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn a_symlink_planted_in_the_install_directory_is_never_written_through() {
    let sb = tempfile::tempdir().expect("tempdir");
    let rel = sb.path().join("rel");
    std::fs::create_dir(&rel).expect("mkdir");
    release(&rel);
    let to = sb.path().join("bin");
    std::fs::create_dir(&to).expect("mkdir");
    let victim = sb.path().join("victim");
    std::fs::write(&victim, "precious\n").expect("write");
    // Every name an installer might use for its temporary copy.
    for name in [".mirrorless.new", ".mirrorless.tmp", "mirrorless.new"] {
        std::os::unix::fs::symlink(&victim, to.join(name)).expect("symlink");
    }
    let path = tools(sb.path());
    let o = install(
        &[
            "--base-url",
            rel.to_str().unwrap(),
            "--to",
            to.to_str().unwrap(),
        ],
        &path,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert_eq!(
        std::fs::read_to_string(to.join("mirrorless")).unwrap(),
        BINARY
    );
    assert!(!to.join("mirrorless").is_symlink());
}

#[test]
fn plain_http_and_odd_versions_are_refused_before_anything_is_fetched() {
    let sb = tempfile::tempdir().expect("tempdir");
    let to = sb.path().join("bin");
    let path = tools(sb.path());
    // A wget that would fetch anything: it must not be called.
    let log = sb.path().join("wget.log");
    executable(
        &path.join("wget"),
        &format!("#!/bin/sh\necho \"$@\" >> {}\nexit 1\n", log.display()),
    );
    for (args, needle) in [
        (
            vec!["--base-url", "http://example.invalid/rel"],
            "downloads must use https://",
        ),
        (
            vec!["--base-url", "ftp://example.invalid/rel"],
            "downloads must use https://",
        ),
        (
            vec![
                "--base-url",
                "https://example.invalid/rel",
                "--version",
                "../../x",
            ],
            "--version must be a release number",
        ),
        (
            vec![
                "--base-url",
                "https://example.invalid/rel",
                "--repo",
                "a/b/../c",
            ],
            "--repo must be OWNER/NAME",
        ),
    ] {
        let mut all = args.clone();
        all.extend(["--to", to.to_str().unwrap()]);
        let o = install(&all, &path);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(needle), "{args:?}: {}", text(&o));
    }
    assert!(!log.exists(), "wget was called");
    assert!(!to.exists(), "the install directory was created");
}

#[test]
fn without_curl_a_truncating_wget_is_bounded_and_nothing_is_installed() {
    let sb = tempfile::tempdir().expect("tempdir");
    let rel = sb.path().join("rel");
    std::fs::create_dir(&rel).expect("mkdir");
    let archive = release(&rel);
    let to = sb.path().join("bin");
    let path = tools(sb.path());
    let log = sb.path().join("wget.log");
    // GNU wget's shape: it serves the files from `rel`, the archive cut to 100 bytes (a
    // connection that closes early), and exits 0 as a wget that gave up resuming would not.
    executable(
        &path.join("wget"),
        &format!(
            "#!/bin/sh\n\
             if [ \"$1\" = --version ]; then echo 'GNU Wget 1.21.3'; exit 0; fi\n\
             echo \"$@\" >> {log}\n\
             for a; do case $a in https://*) url=$a ;; esac; [ \"$prev\" = -O ] && out=$a; prev=$a; done\n\
             name=${{url##*/}}\n\
             case $name in *.tar.gz) head -c 100 {rel}/$name > \"$out\" ;; *) cat {rel}/$name > \"$out\" ;; esac\n",
            log = log.display(),
            rel = rel.display()
        ),
    );
    let o = install(
        &[
            "--base-url",
            "https://example.invalid/rel",
            "--to",
            to.to_str().unwrap(),
        ],
        &path,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("checksum mismatch for {archive}"))
            && text(&o).contains("truncated"),
        "{}",
        text(&o)
    );
    assert!(!to.join("mirrorless").exists());
    let calls = std::fs::read_to_string(&log).expect("wget was called");
    for line in calls.lines() {
        assert!(
            line.contains("--tries=3") && line.contains("--timeout=30"),
            "an unbounded wget: {line}"
        );
    }
}

#[test]
fn provenance_is_verified_with_gh_when_it_can_be_and_a_failure_installs_nothing() {
    let sb = tempfile::tempdir().expect("tempdir");
    let rel = sb.path().join("rel");
    std::fs::create_dir(&rel).expect("mkdir");
    let archive = release(&rel);
    let to = sb.path().join("bin");
    let path = tools(sb.path());
    let log = sb.path().join("gh.log");
    let gh = |verify_status: i32| {
        executable(
            &path.join("gh"),
            &format!(
                "#!/bin/sh\necho \"$@\" >> {}\n[ \"$1\" = auth ] && exit 0\nexit {verify_status}\n",
                log.display()
            ),
        );
    };
    let args = [
        "--base-url",
        rel.to_str().unwrap(),
        "--to",
        to.to_str().unwrap(),
        "--repo",
        "owner/mirrorless",
    ];
    gh(1);
    let o = install(&args, &path);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("does not verify against owner/mirrorless"),
        "{}",
        text(&o)
    );
    assert!(!to.join("mirrorless").exists());
    let calls = std::fs::read_to_string(&log).expect("gh was called");
    assert!(
        calls.contains("attestation verify ")
            && calls.contains(&archive)
            && calls.contains("--repo owner/mirrorless"),
        "{calls}"
    );

    gh(0);
    let o = install(&args, &path);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("build provenance verified"),
        "{}",
        text(&o)
    );

    // Without gh: installed, and said; with --require-provenance: refused.
    std::fs::remove_file(path.join("gh")).expect("rm gh");
    std::fs::remove_file(to.join("mirrorless")).expect("rm");
    let o = install(&args, &path);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("build provenance not verified (gh is not installed)"),
        "{}",
        text(&o)
    );
    let mut strict = args.to_vec();
    strict.push("--require-provenance");
    std::fs::remove_file(to.join("mirrorless")).expect("rm");
    let o = install(&strict, &path);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!to.join("mirrorless").exists());
}

#[test]
fn help_prints_the_whole_header_and_nothing_else() {
    let sb = tempfile::tempdir().expect("tempdir");
    let path = tools(sb.path());
    let o = install(&["--help"], &path);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(
        help.starts_with("Installs a prebuilt mirrorless binary"),
        "{help}"
    );
    assert!(help.ends_with("and nothing is installed.\n"), "{help}");
    assert!(
        help.contains("--require-provenance") && !help.contains("set -eu"),
        "{help}"
    );
}
