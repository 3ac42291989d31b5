//! Writing fixed files back, carefully: only inside the paths the user named (a symlink that
//! leaves them is refused), never over a file that changed on disk since it was read, and
//! atomically (a temporary file in the same directory, renamed over the original, with the
//! original's permissions).

use super::FixedFile;
use crate::model::FileError;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The directories a fixed file must resolve into: each named directory, and the directory
/// of each named file (the current directory when nothing is named).
pub fn allowed_roots(paths: &[PathBuf]) -> Vec<PathBuf> {
    let named: Vec<PathBuf> = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    named
        .iter()
        .filter_map(|p| {
            let meta = std::fs::symlink_metadata(p).ok()?;
            let dir = if meta.is_dir() {
                p.clone()
            } else if std::fs::metadata(p).is_ok_and(|m| m.is_dir()) {
                // A named symlink to a directory: its own location counts, not the target.
                p.parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
                    .join(p.file_name()?)
            } else {
                p.parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
            };
            dir.canonicalize().ok()
        })
        .collect()
}

fn error(display: &str, message: String) -> FileError {
    FileError {
        path: display.to_owned(),
        line: None,
        message,
    }
}

/// Writes one fixed file, or says why it was not written.
pub fn write(file: &FixedFile, roots: &[PathBuf]) -> Result<(), FileError> {
    let d = file.display.as_str();
    let target = file
        .path
        .canonicalize()
        .map_err(|e| error(d, format!("not fixed: cannot resolve the file: {e}")))?;
    if !roots.iter().any(|r| target.starts_with(r)) {
        return Err(error(
            d,
            format!(
                "not fixed: it resolves to {}, outside the paths given (a symbolic link?)",
                target.display()
            ),
        ));
    }
    let current = std::fs::read(&target)
        .map_err(|e| error(d, format!("not fixed: cannot read it again: {e}")))?;
    if current != file.original.as_bytes() {
        return Err(error(
            d,
            "not fixed: the file changed on disk during the run, so it was not overwritten; run again"
                .to_owned(),
        ));
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(&target).map(|m| m.permissions()).ok();
    let mut tmp = tempfile::Builder::new()
        .prefix(".mirrorless-fix-")
        .tempfile_in(dir)
        .map_err(|e| error(d, format!("not fixed: cannot create a temporary file: {e}")))?;
    // No fsync: the rename makes the replacement atomic for other readers; durability across
    // a power cut is left to the file system (an fsync per file made --fix 1.4x slower).
    tmp.write_all(file.fixed.as_bytes())
        .map_err(|e| error(d, format!("not fixed: cannot write: {e}")))?;
    if let Some(p) = permissions {
        // Best effort: a file system without permissions keeps the default.
        let _ = std::fs::set_permissions(tmp.path(), p);
    }
    tmp.persist(&target).map_err(|e| {
        error(
            d,
            format!("not fixed: cannot replace the file: {}", e.error),
        )
    })?;
    Ok(())
}
