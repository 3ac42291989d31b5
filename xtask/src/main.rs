//! `cargo xtask`: the repository's build tasks, in Rust so they run the same on every platform
//! (the rust-analyzer xtask pattern): `dist`, which packages the one `mirrorless` binary for the
//! host (or a given) target, and `site`, which builds and checks the documentation site.
//!
//! The packaging holds no logic of its own: every package wraps the same binary.

mod archive;
mod dist;
mod installer;
mod npm;
mod platform;
#[cfg(test)]
mod release_metadata;
mod site;
mod tools;
mod wheel;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The repository's build tasks.
#[derive(Parser)]
#[command(name = "cargo xtask", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Build the release binary and package it into target/dist/
    ///
    /// Writes, for one target (the host unless --target is given):
    ///   mirrorless-VERSION-TARGET.tar.gz (.zip on Windows) and its .sha256
    ///   install.sh (the installer, pinned to VERSION)
    ///   npm/mirrorless-cli-PLATFORM-VERSION.tgz and npm/mirrorless-VERSION.tgz (npm pack)
    ///   mirrorless-VERSION-py3-none-PLATFORM.whl (maturin, bindings = "bin")
    ///
    /// The binary is built once (cargo build --release --locked); maturin reuses it.
    #[command(after_help = "Examples:
  cargo xtask dist                                   host target, everything
  cargo xtask dist --no-wheel --no-npm               archive and installer only
  cargo xtask dist --target aarch64-apple-darwin     cross-build (the toolchain must have it)
  cargo xtask dist --release-url https://github.com/OWNER/mirrorless/releases/download

Needs: npm (for the npm packages) and maturin (for the wheel; packaging/ci-tools/setup.sh
installs the pinned version into target/packaging-tools/venv). Exit status: 0 built, 2 error.")]
    Dist(dist::Options),
    /// Build the documentation site into target/site/book/ and check its links
    ///
    /// Stages docs/ into target/site/src/ (each link to a file outside docs/ pointed at a copy
    /// inside the site), builds it with mdBook (book.toml) and checks that every internal link
    /// and anchor of the built HTML resolves.
    #[command(after_help = "Examples:
  cargo xtask site                 build and check (needs mdBook)
  cargo xtask site --check-only    stage and check the Markdown links only

Needs: mdBook 0.5.4 (`tests/site/setup.sh` installs it into target/site-tools/; MDBOOK names
another). Exit status: 0 built and every link resolves, 2 error.")]
    Site(site::Options),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.task {
        Task::Dist(options) => dist::run(&options),
        Task::Site(options) => site::run(&options),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
