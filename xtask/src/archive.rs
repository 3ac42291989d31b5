//! The release archive (`.tar.gz`, or `.zip` for Windows) and its SHA-256 file.
//!
//! Entries have fixed timestamps and modes, so an archive depends only on its files.

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// One file of the archive: where it is now, and its path inside the top directory.
pub struct Entry {
    /// The file on disk.
    pub source: PathBuf,
    /// Its name inside the archive's top directory.
    pub name: String,
    /// Whether it is the executable (mode 755).
    pub executable: bool,
}

/// Writes `out` (`.zip` when its name ends so, a gzipped tar otherwise) with `entries` below
/// the directory `top/`.
pub fn write(out: &Path, top: &str, entries: &[Entry]) -> Result<()> {
    let file = File::create(out).with_context(|| format!("creating {}", out.display()))?;
    let writer = BufWriter::new(file);
    let result = if out.extension().is_some_and(|e| e == "zip") {
        write_zip(writer, top, entries)
    } else {
        write_tar_gz(writer, top, entries)
    };
    result.with_context(|| format!("writing {}", out.display()))
}

fn read(source: &Path) -> Result<Vec<u8>> {
    let mut data = Vec::new();
    File::open(source)
        .and_then(|mut f| f.read_to_end(&mut data))
        .with_context(|| format!("reading {}", source.display()))?;
    Ok(data)
}

fn write_tar_gz(writer: impl Write, top: &str, entries: &[Entry]) -> Result<()> {
    let gz = flate2::write::GzEncoder::new(writer, flate2::Compression::best());
    let mut tar = tar::Builder::new(gz);
    let mut dir = tar::Header::new_gnu();
    dir.set_entry_type(tar::EntryType::Directory);
    dir.set_mode(0o755);
    dir.set_size(0);
    dir.set_mtime(0);
    tar.append_data(&mut dir, format!("{top}/"), std::io::empty())?;
    for entry in entries {
        let data = read(&entry.source)?;
        let mut header = tar::Header::new_gnu();
        header.set_size(data.len() as u64);
        header.set_mode(if entry.executable { 0o755 } else { 0o644 });
        header.set_mtime(0);
        tar.append_data(
            &mut header,
            format!("{top}/{}", entry.name),
            data.as_slice(),
        )?;
    }
    tar.into_inner()?.finish()?.flush()?;
    Ok(())
}

fn write_zip(writer: impl Write + std::io::Seek, top: &str, entries: &[Entry]) -> Result<()> {
    use zip::write::SimpleFileOptions;
    let mut zip = zip::ZipWriter::new(writer);
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    zip.add_directory(format!("{top}/"), options)?;
    for entry in entries {
        let mode = if entry.executable { 0o755 } else { 0o644 };
        zip.start_file(
            format!("{top}/{}", entry.name),
            options.unix_permissions(mode),
        )?;
        zip.write_all(&read(&entry.source)?)?;
    }
    zip.finish()?.flush()?;
    Ok(())
}

/// The SHA-256 of a file, as lower-case hex.
pub fn sha256_hex(path: &Path) -> Result<String> {
    let data = read(path)?;
    Ok(Sha256::digest(&data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Writes `<archive>.sha256` in the format of `sha256sum` (`HEX  NAME`), so
/// `sha256sum -c` and `shasum -a 256 -c` verify it; returns its path.
pub fn write_checksum(archive: &Path) -> Result<PathBuf> {
    let name = archive
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{}: no UTF-8 file name", archive.display()))?;
    let out = archive.with_file_name(format!("{name}.sha256"));
    let line = format!("{}  {name}\n", sha256_hex(archive)?);
    std::fs::write(&out, line).with_context(|| format!("writing {}", out.display()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tar_gz_holds_the_files_below_the_top_directory_with_their_modes() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::write(&bin, b"#!/bin/sh\n").unwrap();
        let out = dir.path().join("a.tar.gz");
        let entries = [Entry {
            source: bin,
            name: "mirrorless".into(),
            executable: true,
        }];
        write(&out, "top", &entries).unwrap();
        let gz = flate2::read::GzDecoder::new(File::open(&out).unwrap());
        let mut archive = tar::Archive::new(gz);
        let seen: Vec<(String, u32)> = archive
            .entries()
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.path().unwrap().display().to_string(),
                    e.header().mode().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            seen,
            vec![("top/".into(), 0o755), ("top/mirrorless".into(), 0o755)]
        );
        // Same input, same bytes: nothing depends on the time of the build.
        let first = std::fs::read(&out).unwrap();
        write(&out, "top", &entries).unwrap();
        assert_eq!(first, std::fs::read(&out).unwrap());
    }

    #[test]
    fn zip_holds_the_files_below_the_top_directory() {
        let dir = tempfile::tempdir().unwrap();
        let readme = dir.path().join("README.md");
        std::fs::write(&readme, b"hello").unwrap();
        let out = dir.path().join("a.zip");
        let entries = [Entry {
            source: readme,
            name: "README.md".into(),
            executable: false,
        }];
        write(&out, "top", &entries).unwrap();
        let mut zip = zip::ZipArchive::new(File::open(&out).unwrap()).unwrap();
        let mut text = String::new();
        zip.by_name("top/README.md")
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "hello");
    }

    #[test]
    fn checksum_file_is_in_sha256sum_format() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("x.tar.gz");
        std::fs::write(&file, b"abc").unwrap();
        let sum = write_checksum(&file).unwrap();
        assert_eq!(
            std::fs::read_to_string(sum).unwrap(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  x.tar.gz\n"
        );
    }
}
