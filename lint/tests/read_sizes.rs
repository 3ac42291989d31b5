//! Issue #32 item 1 ("reports identical"): the walk's reader (`source::read_source_if`, one
//! reused buffer per thread, 64 KiB first and doubled when full, dropped past 4 MiB) reads what
//! `std::fs::read` reads, with the conversion `source::read_source` documents ("Not valid UTF-8
//! is an error naming the line of the first bad byte"), and keeps a text exactly when the
//! prefilter it is given holds for it. Generated files: sizes 0 to 3, every size within 3 bytes
//! of 64 KiB, 128 KiB ± 1, 256 KiB ± 1, 512 KiB ± 1, 4 MiB (the buffer is then dropped) and
//! random sizes up to 1 MiB, read one after another by one thread in a seeded order, so each
//! read finds the buffer a previous one left (longer, and holding older bytes); multi-byte
//! characters, invalid bytes and removed names straddling each buffer boundary; and pipes
//! written in chunks, whose reads come back short and whose size no metadata tells.

use mirrorless_lint::catalog::Catalog;
use mirrorless_lint::model::FileError;
use mirrorless_lint::source::{display_path, read_source, read_source_if};
use std::path::Path;

use crate::test_rng::Rng;

/// Where the reader's buffer ends as it doubles from 64 KiB.
const BOUNDARIES: &[usize] = &[64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20];

/// Byte sequences spliced across a boundary: characters of 2, 3 and 4 bytes, invalid bytes
/// (a lone continuation byte, a byte no UTF-8 has, a character cut short), removed names and
/// their namespace, and near misses.
const SPLICES: &[&[u8]] = &[
    "é".as_bytes(),
    "€".as_bytes(),
    "😀".as_bytes(),
    "\u{10FFFF}".as_bytes(),
    b"\x80",
    b"\xff",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
    b"'agent/turn-end'",
    b"agent/stream-chunk",
    b"agent/",
    b"agent/turn-en",
    b"\n",
];

/// `size` bytes of text with `SPLICES` straddling the boundaries below `size`.
fn content(r: &mut Rng, size: usize) -> Vec<u8> {
    let mut bytes: Vec<u8> = (0..size)
        .map(|i| match r.below(40) {
            0 => b'\n',
            1..=6 => b' ',
            _ => b'a' + (i % 26) as u8,
        })
        .collect();
    let splice = |r: &mut Rng, bytes: &mut Vec<u8>, at: usize| {
        let s = SPLICES[r.below(SPLICES.len())];
        // Starting up to its length before `at`, so every split of it is made.
        let start = at.saturating_sub(r.below(s.len() + 1));
        for (i, &b) in s.iter().enumerate() {
            if let Some(slot) = bytes.get_mut(start + i) {
                *slot = b;
            }
        }
    };
    for &b in BOUNDARIES.iter().filter(|&&b| b <= size + 4) {
        if r.below(4) != 0 {
            splice(r, &mut bytes, b);
        }
    }
    // Somewhere else, and at the very end (a character cut by the end of the file).
    for _ in 0..r.below(3) {
        let at = r.below(size + 1);
        splice(r, &mut bytes, at);
    }
    if r.below(4) == 0 {
        splice(r, &mut bytes, size);
    }
    bytes
}

/// The prefilters a reader may be given.
#[derive(Clone, Copy, Debug)]
enum Keep {
    All,
    None,
    /// `Catalog::may_contain`: a removed name or its namespace occurs.
    NameOrNamespace,
    /// `Catalog::may_contain_name`: a removed name occurs.
    Name,
}

/// Checks one read of `path` (whose bytes are `bytes`) against `std::fs::read` and the
/// documented conversion.
fn check(catalog: &Catalog, path: &Path, bytes: &[u8], keep: Keep, at: &str) -> bool {
    let names: Vec<&str> = catalog.events().iter().map(|e| e.name.as_str()).collect();
    let mut seen: Option<String> = None;
    let read = read_source_if(path.to_path_buf(), |text| {
        seen = Some(text.to_owned());
        match keep {
            Keep::All => true,
            Keep::None => false,
            Keep::NameOrNamespace => catalog.may_contain(text.as_bytes()),
            Keep::Name => catalog.may_contain_name(text.as_bytes()),
        }
    });
    assert_eq!(std::fs::read(path).ok().as_deref(), Some(bytes), "{at}");
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            let (source, held) = read.unwrap_or_else(|e| panic!("{at}: {e:?}"));
            assert_eq!(
                seen.as_deref(),
                Some(text),
                "{at}: the text the prefilter saw"
            );
            // The prefilters' own words, said plainly of the text.
            let name = names.iter().any(|n| text.contains(n));
            let namespace = names
                .iter()
                .filter_map(|n| n.find('/').map(|i| &n[..=i]))
                .any(|ns| text.contains(ns));
            let expected = match keep {
                Keep::All => true,
                Keep::None => false,
                Keep::NameOrNamespace => name || namespace,
                Keep::Name => name,
            };
            assert_eq!(held, expected, "{at}: held with {keep:?}");
            assert_eq!(source.text, if held { text } else { "" }, "{at}");
            assert_eq!(source.path, path, "{at}");
            assert_eq!(source.display, display_path(path), "{at}");
            true
        }
        Err(e) => {
            let error = read.err().unwrap_or_else(|| panic!("{at}: read as text"));
            assert_eq!(
                seen, None,
                "{at}: a file not in UTF-8 reached the prefilter"
            );
            // As the reader of every file before the reused buffer (`read_source`), and as
            // documented: the line of the first bad byte.
            assert_eq!(Some(&error), read_source(path.to_path_buf()).err().as_ref());
            let valid = e.valid_up_to();
            let line = bytes[..valid].iter().filter(|&&b| b == b'\n').count() + 1;
            assert_eq!(
                error,
                FileError {
                    path: display_path(path),
                    line: Some(line),
                    message: format!(
                        "not valid UTF-8 (invalid byte at offset {valid}); the file was not linted"
                    ),
                },
                "{at}"
            );
            false
        }
    }
}

#[test]
fn the_reused_buffer_reads_what_fs_read_reads_at_every_boundary() {
    let catalog = Catalog::new(&[]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut r = Rng(0x5EED_0FB0_FFE1_2500);
    let mut sizes: Vec<usize> = vec![0, 1, 2, 3, 4 << 20];
    for &b in &BOUNDARIES[..4] {
        sizes.extend([b - 1, b, b + 1]);
    }
    sizes.extend([
        (64 << 10) - 3,
        (64 << 10) - 2,
        (64 << 10) + 2,
        (64 << 10) + 3,
    ]);
    sizes.extend((0..24).map(|_| r.below(1 << 20)));
    // Each size twice, in a seeded order: a read after a longer one finds its older bytes.
    let mut order: Vec<usize> = sizes.iter().chain(&sizes).copied().collect();
    for i in (1..order.len()).rev() {
        order.swap(i, r.below(i + 1));
    }
    let (mut valid, mut invalid, mut held) = (0, 0, 0);
    for (n, size) in order.into_iter().enumerate() {
        let bytes = content(&mut r, size);
        let path = dir.path().join(format!("f{n}.ts"));
        std::fs::write(&path, &bytes).unwrap();
        let keep = [Keep::All, Keep::None, Keep::NameOrNamespace, Keep::Name][r.below(4)];
        let at = format!("file {n} of {size} bytes");
        if check(&catalog, &path, &bytes, keep, &at) {
            valid += 1;
            held += usize::from(
                read_source_if(path.clone(), |t| catalog.may_contain_name(t.as_bytes()))
                    .is_ok_and(|(_, h)| h),
            );
        } else {
            invalid += 1;
        }
        std::fs::remove_file(&path).unwrap();
    }
    // Both outcomes, and both prefilter answers, were exercised.
    assert!(
        valid >= 15 && invalid >= 15,
        "{valid} valid, {invalid} invalid"
    );
    assert!(held >= 5 && held + 5 <= valid, "{held} of {valid} held");
}

/// A pipe written in chunks: each `read` returns what one chunk left, short of the buffer,
/// and no metadata says how long the file is.
#[cfg(unix)]
#[test]
fn the_reused_buffer_reads_a_pipe_written_in_chunks() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut r = Rng(0xF1F0_5EED);
    for n in 0..6 {
        let size = [
            0,
            (64 << 10) - 1,
            64 << 10,
            (128 << 10) + 1,
            300_000,
            70_000,
        ][n];
        let bytes = content(&mut r, size);
        let path = dir.path().join(format!("p{n}.ts"));
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // No `mkfifo` here: nothing to check.
        }
        let chunk = [1, 4093, 65_535, 65_537][r.below(4)];
        let (p, b) = (path.clone(), bytes.clone());
        let writer = std::thread::spawn(move || {
            let mut f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
            for c in b.chunks(chunk) {
                f.write_all(c).unwrap();
                f.flush().unwrap();
            }
        });
        let mut seen: Option<String> = None;
        let read = read_source_if(path.clone(), |text| {
            seen = Some(text.to_owned());
            true
        });
        writer.join().unwrap();
        let at = format!("pipe {n} of {size} bytes in chunks of {chunk}");
        match std::str::from_utf8(&bytes) {
            Ok(text) => {
                let (source, held) = read.unwrap_or_else(|e| panic!("{at}: {e:?}"));
                assert!(held, "{at}");
                assert_eq!(source.text, text, "{at}");
                assert_eq!(seen.as_deref(), Some(text), "{at}");
            }
            Err(e) => {
                let error = read.err().unwrap_or_else(|| panic!("{at}: read as text"));
                let valid = e.valid_up_to();
                let line = bytes[..valid].iter().filter(|&&b| b == b'\n').count() + 1;
                assert_eq!(error.line, Some(line), "{at}");
                assert!(error.message.contains(&format!("offset {valid})")), "{at}");
            }
        }
    }
}
