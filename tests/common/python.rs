//! The `PATH` the tests give every process that starts `python3`: the one on `PATH` is often a
//! version manager's shim (pyenv's is a bash script that runs `pyenv exec`, ≈ 18 ms of CPU per
//! interpreter, and the tests start hundreds of interpreters; issue #32 item 5). Resolved once
//! per test binary, the interpreter is reached through a directory holding only a `python3`
//! script that runs it (without `site`: see [`python_first_dir`]), first on the child's `PATH`:
//! commands still read `python3 …` in every report and snapshot, and every other program
//! resolves as before.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `PATH` with the resolved interpreter's directory in front; `PATH` unchanged where there is
/// nothing to gain or it cannot be done (no `python3`, a virtual environment — whose
/// interpreter finds its `pyvenv.cfg` beside the name it was started by — or not on Unix).
#[allow(dead_code)] // not every test binary that includes this module uses every helper
pub fn path() -> &'static OsStr {
    static PATH: OnceLock<OsString> = OnceLock::new();
    PATH.get_or_init(|| {
        let inherited = std::env::var_os("PATH").unwrap_or_default();
        match first_dir() {
            Some(dir) => {
                let mut dirs = vec![dir];
                dirs.extend(std::env::split_paths(&inherited));
                std::env::join_paths(dirs).unwrap_or(inherited)
            }
            None => inherited,
        }
    })
}

/// `program` as a command whose `python3` is the resolved interpreter (see [`path`]).
#[allow(dead_code)]
pub fn command(program: impl AsRef<OsStr>) -> Command {
    let mut command = Command::new(program);
    command.env("PATH", path());
    command
}

/// `python3` itself, started without the shim.
#[allow(dead_code)]
pub fn python3() -> Command {
    command(interpreter().map_or_else(|| PathBuf::from("python3"), Path::to_path_buf))
}

/// What an in-process driver starts for `python3`: the script of [`path`]'s directory, or
/// `python3` itself where there is none. A report of its run names this program: read it
/// through [`as_printed`].
#[allow(dead_code)]
pub fn program() -> String {
    python_first_link().unwrap_or_else(|| "python3".to_owned())
}

/// `text` with [`program`] printed as `python3`, as a report of `mirrorless run -- python3 …`
/// prints it.
#[allow(dead_code)]
pub fn as_printed(text: &str) -> String {
    match python_first_link() {
        Some(link) => text.replace(&link, "python3"),
        None => text.to_owned(),
    }
}

/// The `python3` of [`path`]'s directory, as text.
fn python_first_link() -> Option<String> {
    first_dir()?
        .join("python3")
        .into_os_string()
        .into_string()
        .ok()
}

/// The interpreter `python3` on the inherited `PATH` runs, outside a virtual environment.
fn interpreter() -> Option<&'static Path> {
    static INTERPRETER: OnceLock<Option<PathBuf>> = OnceLock::new();
    INTERPRETER
        .get_or_init(|| {
            let out = Command::new("python3")
                .args([
                    "-c",
                    "import sys; print(sys.executable if sys.prefix == sys.base_prefix else '')",
                ])
                .output()
                .ok()?;
            let executable = String::from_utf8(out.stdout).ok()?;
            let executable = PathBuf::from(executable.trim_end());
            (out.status.success() && executable.is_absolute()).then_some(executable)
        })
        .as_deref()
}

/// [`python_first_dir`], made once per test binary.
fn first_dir() -> Option<PathBuf> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(python_first_dir).clone()
}

/// A directory under the test target's temporary directory holding only `python3`, a script
/// that runs [`interpreter`] with `-S`: without `site`, whose import of every `.pth` file of
/// the installation cost 19 ms of CPU per start on the VMs the tests run on (a sandbox's
/// `certifi`, against 6 ms for the interpreter itself; the Python the tests start uses the
/// standard library alone). `exec`, so the process the harness started is the interpreter
/// (its signals, its process group). Test binaries run side by side share it: each writes its
/// own script and renames it into place, so a reader always finds a whole one.
#[cfg(unix)]
fn python_first_dir() -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let interpreter = interpreter()?.to_str()?;
    if interpreter.contains('\'') {
        return None; // Not quotable in the script: the inherited `PATH` does.
    }
    let script = format!("#!/bin/sh\nexec '{interpreter}' -S \"$@\"\n");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python3-first");
    std::fs::create_dir_all(&dir).ok()?;
    let first = dir.join("python3");
    if std::fs::read_to_string(&first).is_ok_and(|text| text == script) {
        return Some(dir);
    }
    let staged = dir.join(format!("python3.{}", std::process::id()));
    let _ = std::fs::remove_file(&staged);
    std::fs::write(&staged, &script).ok()?;
    std::fs::set_permissions(&staged, std::fs::Permissions::from_mode(0o755)).ok()?;
    std::fs::rename(&staged, &first).ok()?;
    Some(dir)
}

#[cfg(not(unix))]
fn python_first_dir() -> Option<PathBuf> {
    None
}
