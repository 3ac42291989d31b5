//! Writing fixed files back, carefully: only inside the paths the user named (a symlink that
//! leaves them is refused), never over a file that changed on disk since it was read, and
//! keeping what the file is — its inode (hard links stay linked), owner, group and mode.
//!
//! A file is replaced atomically where that keeps all of it (a temporary file in the same
//! directory, given the original's mode and owner, renamed over the original); where it cannot
//! (the file has other hard links, or its owner cannot be given to a new file), it is rewritten
//! in place. A read-only file is refused, as ESLint, Prettier and ruff refuse it, even when the
//! process could write it anyway (root). The same file reached twice (a symlink followed with
//! `-L`) is written once.

use super::FixedFile;
use crate::hash::HashMap;
use crate::model::FileError;
use std::fs::{File, Metadata};
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

/// What became of one fixed file that was not refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Written {
    /// Its new text is on disk.
    Written,
    /// It is the same file as one written before in this run (reached through a symlink), so
    /// that write already holds its fixes.
    SameFileAs(String),
}

/// Writes the fixed files of one run, each at most once.
#[derive(Debug)]
pub struct Writer {
    roots: Vec<PathBuf>,
    /// Each file written so far, by its resolved path, with the name it was written as and
    /// the text written.
    written: HashMap<PathBuf, (String, String)>,
}

impl Writer {
    /// A writer for a run over `paths` (the paths the user named; see [`allowed_roots`]).
    pub fn new(paths: &[PathBuf]) -> Self {
        Writer {
            roots: allowed_roots(paths),
            written: HashMap::default(),
        }
    }

    /// Writes one fixed file, or says why it was not written.
    pub fn write(&mut self, file: &FixedFile) -> Result<Written, FileError> {
        let target = resolve(file, &self.roots)?;
        if let Some((display, text)) = self.written.get(&target) {
            // The same original text gets the same fixes whatever the name it was read by.
            if *text == file.fixed {
                return Ok(Written::SameFileAs(display.clone()));
            }
            return Err(error(
                &file.display,
                format!("not fixed: it is the same file as {display}, already fixed differently"),
            ));
        }
        write_resolved(file, &target)?;
        self.written
            .insert(target, (file.display.clone(), file.fixed.clone()));
        Ok(Written::Written)
    }
}

/// Writes one fixed file, or says why it was not written (one file alone: see [`Writer`] for
/// a run's files).
pub fn write(file: &FixedFile, roots: &[PathBuf]) -> Result<(), FileError> {
    let target = resolve(file, roots)?;
    write_resolved(file, &target)
}

/// The file's real path, when it lies inside the paths given.
fn resolve(file: &FixedFile, roots: &[PathBuf]) -> Result<PathBuf, FileError> {
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
    Ok(target)
}

fn write_resolved(file: &FixedFile, target: &Path) -> Result<(), FileError> {
    let d = file.display.as_str();
    let meta = std::fs::metadata(target)
        .map_err(|e| error(d, format!("not fixed: cannot read its metadata: {e}")))?;
    if meta.permissions().readonly() {
        return Err(error(
            d,
            format!(
                "not fixed: the file is read-only{}; make it writable to fix it",
                mode_note(&meta)
            ),
        ));
    }
    let current = std::fs::read(target)
        .map_err(|e| error(d, format!("not fixed: cannot read it again: {e}")))?;
    if current != file.original.as_bytes() {
        return Err(error(
            d,
            "not fixed: the file changed on disk during the run, so it was not overwritten; run again"
                .to_owned(),
        ));
    }
    if has_other_links(&meta) {
        return write_in_place(file, target);
    }
    match replace(file, target, &meta)? {
        Replaced::Yes => Ok(()),
        Replaced::OwnerWouldChange => write_in_place(file, target),
    }
}

enum Replaced {
    Yes,
    /// A new file could not be given the original's owner, so replacing it would change who
    /// owns it; nothing was changed.
    OwnerWouldChange,
}

/// Replaces the file by a renamed temporary file with the original's mode and owner.
fn replace(file: &FixedFile, target: &Path, meta: &Metadata) -> Result<Replaced, FileError> {
    let d = file.display.as_str();
    let dir = target.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".mirrorless-fix-")
        .tempfile_in(dir)
        .map_err(|e| error(d, format!("not fixed: cannot create a temporary file: {e}")))?;
    if !give_owner(tmp.as_file(), meta) {
        return Ok(Replaced::OwnerWouldChange);
    }
    // No fsync: the rename makes the replacement atomic for other readers; durability across
    // a power cut is left to the file system (an fsync per file made --fix 1.4x slower).
    tmp.write_all(file.fixed.as_bytes())
        .map_err(|e| error(d, format!("not fixed: cannot write: {e}")))?;
    // Best effort: a file system without permissions keeps the default. After the owner, as a
    // change of owner may clear the set-id bits.
    let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    tmp.persist(target).map_err(|e| {
        error(
            d,
            format!("not fixed: cannot replace the file: {}", e.error),
        )
    })?;
    Ok(Replaced::Yes)
}

/// Rewrites the file's own bytes: the inode, its links, owner and mode stay as they are. Not
/// atomic for readers, so used only where a replacement would change what the file is.
fn write_in_place(file: &FixedFile, target: &Path) -> Result<(), FileError> {
    let d = file.display.as_str();
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(|e| error(d, format!("not fixed: cannot open it for writing: {e}")))?;
    out.write_all(file.fixed.as_bytes())
        .and_then(|()| out.set_len(file.fixed.len() as u64))
        .map_err(|e| error(d, format!("not fixed: cannot write: {e}")))?;
    Ok(())
}

#[cfg(unix)]
fn has_other_links(meta: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.nlink() > 1
}

#[cfg(not(unix))]
fn has_other_links(_meta: &Metadata) -> bool {
    false
}

/// Gives `file` the owner and group of `meta`'s file; false when that is not possible (only
/// the superuser may give a file away).
#[cfg(unix)]
fn give_owner(file: &File, meta: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(now) = file.metadata() else {
        return false;
    };
    if now.uid() == meta.uid() && now.gid() == meta.gid() {
        return true;
    }
    std::os::unix::fs::fchown(file, Some(meta.uid()), Some(meta.gid())).is_ok()
}

#[cfg(not(unix))]
fn give_owner(_file: &File, _meta: &Metadata) -> bool {
    true
}

#[cfg(unix)]
fn mode_note(meta: &Metadata) -> String {
    use std::os::unix::fs::PermissionsExt;
    format!(" (mode {:04o})", meta.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn mode_note(_meta: &Metadata) -> String {
    String::new()
}
