//! `install.sh`, pinned to one release: `packaging/install.sh` with its version and download
//! location filled in.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The installer's source, relative to the workspace root.
pub const SOURCE: &str = "packaging/install.sh";
/// Replaced by the release version.
const VERSION_MARK: &str = "@MIRRORLESS_VERSION@";
/// Replaced by the releases' download root; the installer appends `/vVERSION`.
const URL_MARK: &str = "@MIRRORLESS_RELEASE_URL@";

/// The installer text for `version`, downloading from `<release_url>/vVERSION` by default
/// (without one, the installer needs `--base-url`).
pub fn render(source: &str, version: &str, release_url: Option<&str>) -> String {
    let text = source.replace(VERSION_MARK, version);
    match release_url {
        Some(url) => text.replace(URL_MARK, url.trim_end_matches('/')),
        None => text,
    }
}

/// Writes `<out>/install.sh` (executable); returns its path.
pub fn write(root: &Path, out: &Path, version: &str, release_url: Option<&str>) -> Result<PathBuf> {
    let source_path = root.join(SOURCE);
    let source = std::fs::read_to_string(&source_path)
        .with_context(|| format!("reading {}", source_path.display()))?;
    let path = out.join("install.sh");
    std::fs::write(&path, render(&source, version, release_url))
        .with_context(|| format!("writing {}", path.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .with_context(|| format!("making {} executable", path.display()))?;
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_installer_source_has_both_marks_and_rendering_fills_them() {
        let source = std::fs::read_to_string(crate::tools::workspace_root().join(SOURCE)).unwrap();
        assert!(source.contains(VERSION_MARK) && source.contains(URL_MARK));
        let text = render(&source, "1.2.3", Some("https://example.invalid/dl/"));
        assert!(!text.contains(VERSION_MARK) && !text.contains(URL_MARK));
        assert!(text.contains("1.2.3") && text.contains("https://example.invalid/dl\""));
    }
}
