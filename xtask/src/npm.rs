//! The npm packages: `@mirrorless/cli-<os>-<cpu>` (the binary, one per platform) and
//! `mirrorless` (the `bin` that finds and runs it), both packed with `npm pack`.
//!
//! The `mirrorless` package's source is `packaging/npm/mirrorless/`; its version and the
//! versions of its `optionalDependencies` must equal the crate's (checked here, not rewritten,
//! so the committed file is what gets published).

use crate::platform::Platform;
use crate::tools;
use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Where the `mirrorless` npm package's source lives, relative to the workspace root.
pub const MAIN_PACKAGE_DIR: &str = "packaging/npm/mirrorless";

/// The files of the `mirrorless` package that are copied into it.
const MAIN_PACKAGE_FILES: &[&str] = &[
    "package.json",
    "README.md",
    "bin/mirrorless.js",
    "lib/platform.js",
];

/// The `mirrorless` package's `package.json`, parsed.
pub fn main_manifest(root: &Path) -> Result<Value> {
    let path = root.join(MAIN_PACKAGE_DIR).join("package.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("{}: not valid JSON", path.display()))
}

/// Checks that the main package's version and every platform package it depends on are
/// `version`, and that `platform` is one of them.
pub fn check_main_manifest(manifest: &Value, version: &str, platform: &Platform) -> Result<()> {
    let file = format!("{MAIN_PACKAGE_DIR}/package.json");
    if manifest["version"] != version {
        bail!(
            "{file}: version is {} but the crate is {version}; make them equal",
            manifest["version"]
        );
    }
    let deps = manifest["optionalDependencies"]
        .as_object()
        .with_context(|| format!("{file}: no `optionalDependencies` object"))?;
    for (name, wanted) in deps {
        if wanted != version {
            bail!("{file}: optionalDependencies.{name} is {wanted} but the crate is {version}");
        }
    }
    if !deps.contains_key(&platform.npm_package()) {
        bail!(
            "{file}: {} ({}) is not in optionalDependencies: add it to the supported platforms first",
            platform.npm_package(),
            platform.triple
        );
    }
    Ok(())
}

/// The `package.json` of a platform package.
pub fn platform_manifest(platform: &Platform, version: &str, repository: &str) -> Value {
    json!({
        "name": platform.npm_package(),
        "version": version,
        "description": format!(
            "The mirrorless binary for {} {} ({}); installed by the `mirrorless` package",
            platform.npm_os, platform.npm_cpu, platform.triple
        ),
        "license": "MIT OR Apache-2.0",
        "repository": repository,
        "os": [platform.npm_os],
        "cpu": [platform.npm_cpu],
        "files": [format!("bin/{}", platform.binary_name())],
        "preferUnplugged": true,
    })
}

/// Stages and packs both packages into `out` (`<dist>/npm`); returns the two tarballs
/// (platform package first).
pub fn build(
    root: &Path,
    out: &Path,
    binary: &Path,
    platform: &Platform,
    version: &str,
    repository: &str,
) -> Result<Vec<PathBuf>> {
    let manifest = main_manifest(root)?;
    check_main_manifest(&manifest, version, platform)?;
    let stage = out.join("stage");
    if stage.exists() {
        std::fs::remove_dir_all(&stage).with_context(|| format!("removing {}", stage.display()))?;
    }

    let platform_dir = stage.join(format!("cli-{}-{}", platform.npm_os, platform.npm_cpu));
    let bin = platform_dir.join("bin").join(platform.binary_name());
    copy(binary, &bin)?;
    let readme = format!(
        "# {}\n\nThe `mirrorless` binary for {} {}. Install the [`mirrorless`](https://www.npmjs.com/package/mirrorless) package instead: it depends on this one.\n",
        platform.npm_package(),
        platform.npm_os,
        platform.npm_cpu
    );
    write(&platform_dir.join("README.md"), &readme)?;
    let text = serde_json::to_string_pretty(&platform_manifest(platform, version, repository))?;
    write(&platform_dir.join("package.json"), &format!("{text}\n"))?;

    let main_dir = stage.join("mirrorless");
    for file in MAIN_PACKAGE_FILES {
        copy(
            &root.join(MAIN_PACKAGE_DIR).join(file),
            &main_dir.join(file),
        )?;
    }

    Ok(vec![pack(&platform_dir, out)?, pack(&main_dir, out)?])
}

/// `npm pack` of a staged package into `out`; returns the tarball.
fn pack(dir: &Path, out: &Path) -> Result<PathBuf> {
    let mut cmd = tools::npm();
    cmd.args(["pack", "--json", "--ignore-scripts", "--pack-destination"])
        .arg(out)
        .current_dir(dir);
    let json = tools::output(&mut cmd, "install Node.js and npm, or pass --no-npm")?;
    let packed: Value = serde_json::from_str(&json).context("`npm pack --json` printed no JSON")?;
    let name = packed[0]["filename"]
        .as_str()
        .context("`npm pack --json` named no file")?;
    // npm names a scoped tarball `scope-name-version.tgz`; older npm kept the `@`.
    let name = name.trim_start_matches('@').replace('/', "-");
    let tarball = out.join(name);
    if !tarball.is_file() {
        bail!(
            "npm pack reported {} but it does not exist",
            tarball.display()
        );
    }
    Ok(tarball)
}

fn copy(from: &Path, to: &Path) -> Result<()> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::copy(from, to)
        .with_context(|| format!("copying {} to {}", from.display(), to.display()))?;
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linux() -> Platform {
        Platform::from_triple("x86_64-unknown-linux-gnu").unwrap()
    }

    #[test]
    fn the_committed_main_package_matches_the_crate_version() {
        let manifest = main_manifest(&tools::workspace_root()).unwrap();
        check_main_manifest(&manifest, env!("CARGO_PKG_VERSION"), &linux()).unwrap();
    }

    #[test]
    fn a_version_drift_is_an_error_naming_the_file() {
        let mut manifest = main_manifest(&tools::workspace_root()).unwrap();
        manifest["optionalDependencies"]["@mirrorless/cli-linux-x64"] = json!("0.0.1");
        let err = check_main_manifest(&manifest, env!("CARGO_PKG_VERSION"), &linux()).unwrap_err();
        assert!(
            err.to_string()
                .contains("optionalDependencies.@mirrorless/cli-linux-x64 is \"0.0.1\""),
            "{err}"
        );
        let err = check_main_manifest(&manifest, "9.9.9", &linux()).unwrap_err();
        assert!(
            err.to_string()
                .contains("packaging/npm/mirrorless/package.json: version"),
            "{err}"
        );
    }

    #[test]
    fn platform_packages_are_restricted_to_their_os_and_cpu() {
        let p = Platform::from_triple("aarch64-apple-darwin").unwrap();
        let m = platform_manifest(&p, "1.0.0", "https://example.invalid/x");
        assert_eq!(m["name"], "@mirrorless/cli-darwin-arm64");
        assert_eq!(m["os"], json!(["darwin"]));
        assert_eq!(m["cpu"], json!(["arm64"]));
        assert_eq!(m["files"], json!(["bin/mirrorless"]));
    }
}
