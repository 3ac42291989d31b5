//! Reading a file the user named or a corpus holds, within bounds: the open never blocks (a
//! FIFO without a writer would hold `open` forever, out of reach of SIGINT and SIGTERM), a
//! device or a socket is refused before a byte is read, a corpus entry is never followed
//! through a symbolic link, and what is read is capped by the bytes actually read (a device
//! has no size to check beforehand: `/dev/zero` is endless).

use std::fs::File;
use std::io::Read;
use std::path::Path;

/// How a file is opened: as the user named it, or as an entry of a directory the tool reads
/// and writes on its own (the counterexample corpus).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Named on the command line: symbolic links are followed and a FIFO (a shell's `<(…)`)
    /// is read; devices and sockets are refused.
    Named,
    /// An entry of a directory the tool manages: only a regular file, never through a
    /// symbolic link.
    Entry,
}

/// Opens `path` for reading without blocking, and refuses what is not data (see [`Origin`]).
/// The error is a sentence without the path; callers prefix it.
pub fn open(path: &Path, origin: Origin) -> Result<File, String> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK;
        if origin == Origin::Entry {
            flags |= libc::O_NOFOLLOW;
        }
        options.custom_flags(flags);
    }
    let file = options.open(path).map_err(|e| {
        #[cfg(unix)]
        if origin == Origin::Entry && e.raw_os_error() == Some(libc::ELOOP) {
            return "a symbolic link: not followed in a corpus".to_owned();
        }
        format!("cannot read it: {e}")
    })?;
    let kind = file
        .metadata()
        .map_err(|e| format!("cannot read it: {e}"))?
        .file_type();
    if kind.is_file() {
        return Ok(file);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() && origin == Origin::Named {
            // Reads wait for the writer from here on, as a pipe's reader does.
            blocking(&file).map_err(|e| format!("cannot read it: {e}"))?;
            return Ok(file);
        }
    }
    Err(if kind.is_dir() {
        "a directory, not a file".to_owned()
    } else {
        "not a regular file (a FIFO, socket or device): not read".to_owned()
    })
}

#[cfg(unix)]
fn blocking(file: &File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is open for the lifetime of `file`; F_GETFL/F_SETFL only change its flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Reads at most `limit` bytes from `reader`; more is an error saying the limit. The bound is
/// on the bytes actually read, so it holds for an input whose size is unknown.
pub fn read_capped(reader: impl Read, limit: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!("more than {limit} bytes: not read"));
    }
    Ok(bytes)
}

/// [`open`] then [`read_capped`], as UTF-8 text; the error names `path`.
pub fn read_text(path: &Path, origin: Origin, limit: u64) -> Result<String, String> {
    let name = path.display();
    let bytes = open(path, origin)
        .and_then(|f| read_capped(f, limit))
        .map_err(|e| format!("{name}: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8 ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every input path: a device is refused or capped by bytes read, never read to the end.
    #[test]
    #[cfg(unix)]
    fn a_device_is_never_read_to_the_end() {
        for origin in [Origin::Named, Origin::Entry] {
            let e = read_text(Path::new("/dev/zero"), origin, 1 << 20).unwrap_err();
            assert!(
                e.contains("/dev/zero") && e.contains("not a regular file"),
                "{e}"
            );
        }
        let e = read_capped(std::fs::File::open("/dev/zero").unwrap(), 4096).unwrap_err();
        assert!(e.contains("more than 4096 bytes"), "{e}");
    }

    /// A FIFO without a writer: the open returns at once; a corpus entry is refused.
    #[test]
    #[cfg(unix)]
    fn a_fifo_never_blocks_the_open() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("c.json");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_text(&fifo, Origin::Entry, 100).unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        // Named: opened; with no writer the read sees the end at once.
        assert_eq!(read_text(&fifo, Origin::Named, 100).unwrap(), "");
    }

    /// A corpus entry is never read through a symbolic link; a named file is.
    #[test]
    #[cfg(unix)]
    fn an_entry_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t");
        std::fs::write(&target, "x").unwrap();
        let link = dir.path().join("l.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = read_text(&link, Origin::Entry, 100).unwrap_err();
        assert!(e.contains("symbolic link"), "{e}");
        assert_eq!(read_text(&link, Origin::Named, 100).unwrap(), "x");
        let e = read_text(&target, Origin::Named, 0).unwrap_err();
        assert!(e.contains("more than 0 bytes"), "{e}");
    }
}
