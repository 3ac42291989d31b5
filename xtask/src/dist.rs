//! `cargo xtask dist`: build the binary once, then package it (archive + checksum, installer,
//! npm packages, wheel) into `target/dist/`.

use crate::platform::{self, Platform};
use crate::{archive, installer, npm, tools, wheel};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// Options of `cargo xtask dist`.
#[derive(clap::Args)]
pub struct Options {
    /// Rust target triple to build for [default: the host]
    #[arg(long, value_name = "TRIPLE")]
    target: Option<String>,
    /// Skip the npm packages
    #[arg(long)]
    no_npm: bool,
    /// Skip the Python wheel
    #[arg(long)]
    no_wheel: bool,
    /// The releases' download root (…/releases/download); install.sh downloads from
    /// URL/vVERSION by default
    #[arg(long, value_name = "URL")]
    release_url: Option<String>,
    /// Fail unless the crate version is this (a release tag such as `v0.1.0` is accepted)
    #[arg(long, value_name = "VERSION")]
    expect_version: Option<String>,
}

/// The crate version every package carries.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The repository URL published in the npm manifests.
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");

/// Runs `dist`.
pub fn run(options: &Options) -> Result<()> {
    if let Some(expected) = &options.expect_version {
        let expected = expected.strip_prefix('v').unwrap_or(expected);
        if expected != VERSION {
            bail!(
                "the crate version is {VERSION}, not {expected}: bump [workspace.package] version (and packaging/npm/mirrorless/package.json) before tagging"
            );
        }
    }
    let root = tools::workspace_root();
    let triple = match &options.target {
        Some(t) => t.clone(),
        None => platform::host_triple()?,
    };
    let platform = Platform::from_triple(&triple)?;
    // Checked before the long build, so a version drift fails at once.
    if !options.no_npm {
        npm::check_main_manifest(&npm::main_manifest(&root)?, VERSION, &platform)?;
    }
    let target_dir = tools::target_dir(&root);
    let out = target_dir.join("dist");
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;

    let binary = build_binary(&root, &target_dir, options.target.as_deref(), &platform)?;
    let mut written = Vec::new();

    let archive = out.join(platform.archive_name(VERSION));
    archive::write(
        &archive,
        &platform.archive_stem(VERSION),
        &archive_entries(&root, &binary, &platform),
    )?;
    written.push(archive::write_checksum(&archive)?);
    written.insert(0, archive);
    written.push(installer::write(
        &root,
        &out,
        VERSION,
        options.release_url.as_deref(),
    )?);

    if !options.no_npm {
        written.extend(npm::build(
            &root,
            &out.join("npm"),
            &binary,
            &platform,
            VERSION,
            REPOSITORY,
        )?);
    }
    if !options.no_wheel {
        written.push(wheel::build(
            &root,
            &out,
            options.target.as_deref(),
            VERSION,
        )?);
    }

    println!("mirrorless {VERSION} for {triple}:");
    for path in written {
        println!("  {}", path.strip_prefix(&root).unwrap_or(&path).display());
    }
    Ok(())
}

/// `cargo build --release --locked -p mirrorless`; returns the binary.
fn build_binary(
    root: &Path,
    target_dir: &Path,
    target: Option<&str>,
    platform: &Platform,
) -> Result<PathBuf> {
    let mut cmd = tools::cargo();
    cmd.args(["build", "--release", "--locked", "--package", "mirrorless"])
        .current_dir(root);
    if let Some(target) = target {
        cmd.args(["--target", target]);
    }
    tools::run(&mut cmd, "cargo must be on PATH")?;
    let mut binary = target_dir.to_path_buf();
    if let Some(target) = target {
        binary.push(target);
    }
    binary.push("release");
    binary.push(platform.binary_name());
    if !binary.is_file() {
        bail!(
            "cargo build succeeded but {} does not exist",
            binary.display()
        );
    }
    Ok(binary)
}

/// The archive's files: the binary, the README and the changelog.
fn archive_entries(root: &Path, binary: &Path, platform: &Platform) -> Vec<archive::Entry> {
    let mut entries = vec![archive::Entry {
        source: binary.to_path_buf(),
        name: platform.binary_name().to_owned(),
        executable: true,
    }];
    for doc in ["README.md", "CHANGELOG.md"] {
        entries.push(archive::Entry {
            source: root.join(doc),
            name: doc.to_owned(),
            executable: false,
        });
    }
    entries
}
