//! What a Rust target triple means for each package format: the npm `os`/`cpu` pair, the
//! executable suffix, the archive format. The supported set is the `optionalDependencies` of
//! `packaging/npm/mirrorless/package.json`; the release workflow builds exactly those.

use anyhow::{Context, Result, bail};
use std::process::Command;

/// One target the packages are built for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Platform {
    /// The Rust target triple, e.g. `x86_64-unknown-linux-musl`.
    pub triple: String,
    /// Node's `process.platform` for it: `linux`, `darwin`, `win32`.
    pub npm_os: &'static str,
    /// Node's `process.arch` for it: `x64`, `arm64`.
    pub npm_cpu: &'static str,
}

impl Platform {
    /// The platform of a target triple; an error for a target no package supports.
    pub fn from_triple(triple: &str) -> Result<Self> {
        let arch = triple.split('-').next().unwrap_or_default();
        let npm_cpu = match arch {
            "x86_64" => "x64",
            "aarch64" => "arm64",
            _ => bail!(
                "target {triple}: unsupported architecture `{arch}` (supported: x86_64, aarch64)"
            ),
        };
        let npm_os = if triple.contains("-linux-") {
            "linux"
        } else if triple.ends_with("-apple-darwin") {
            "darwin"
        } else if triple.contains("-windows-") {
            "win32"
        } else {
            bail!(
                "target {triple}: unsupported operating system (supported: Linux, macOS, Windows)"
            )
        };
        Ok(Self {
            triple: triple.to_owned(),
            npm_os,
            npm_cpu,
        })
    }

    /// Whether the binary is a Windows executable.
    pub fn is_windows(&self) -> bool {
        self.npm_os == "win32"
    }

    /// The binary's file name: `mirrorless` or `mirrorless.exe`.
    pub fn binary_name(&self) -> &'static str {
        if self.is_windows() {
            "mirrorless.exe"
        } else {
            "mirrorless"
        }
    }

    /// The archive's extension: `zip` on Windows, `tar.gz` elsewhere.
    pub fn archive_extension(&self) -> &'static str {
        if self.is_windows() { "zip" } else { "tar.gz" }
    }

    /// The archive's top directory, also its name without the extension:
    /// `mirrorless-VERSION-TRIPLE`.
    pub fn archive_stem(&self, version: &str) -> String {
        format!("mirrorless-{version}-{}", self.triple)
    }

    /// The archive's file name.
    pub fn archive_name(&self, version: &str) -> String {
        format!(
            "{}.{}",
            self.archive_stem(version),
            self.archive_extension()
        )
    }

    /// The npm platform package: `@mirrorless/cli-linux-x64`.
    pub fn npm_package(&self) -> String {
        format!("@mirrorless/cli-{}-{}", self.npm_os, self.npm_cpu)
    }
}

/// The host's target triple, from `rustc -vV`.
pub fn host_triple() -> Result<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(&rustc)
        .arg("-vV")
        .output()
        .with_context(|| format!("running `{rustc} -vV` to find the host target"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_owned)
        .with_context(|| format!("`{rustc} -vV` printed no `host:` line"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triples_map_to_node_platforms() {
        let p = Platform::from_triple("x86_64-unknown-linux-musl").unwrap();
        assert_eq!((p.npm_os, p.npm_cpu), ("linux", "x64"));
        assert_eq!(p.npm_package(), "@mirrorless/cli-linux-x64");
        assert_eq!(
            p.archive_name("1.2.3"),
            "mirrorless-1.2.3-x86_64-unknown-linux-musl.tar.gz"
        );
        let p = Platform::from_triple("aarch64-apple-darwin").unwrap();
        assert_eq!((p.npm_os, p.npm_cpu), ("darwin", "arm64"));
        let p = Platform::from_triple("x86_64-pc-windows-msvc").unwrap();
        assert_eq!(p.binary_name(), "mirrorless.exe");
        assert_eq!(
            p.archive_name("1.2.3"),
            "mirrorless-1.2.3-x86_64-pc-windows-msvc.zip"
        );
    }

    #[test]
    fn unsupported_targets_are_errors() {
        for triple in [
            "riscv64gc-unknown-linux-gnu",
            "x86_64-unknown-freebsd",
            "wasm32-wasip1",
        ] {
            let err = Platform::from_triple(triple).unwrap_err().to_string();
            assert!(err.contains(triple) && err.contains("unsupported"), "{err}");
        }
    }
}
