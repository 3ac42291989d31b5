//! A source file as the linter holds it: its path as given and as shown, its text, and the
//! [`LineIndex`] that turns byte offsets into lines and columns. Front ends, the engine and the
//! renderers all build on this module; it imports nothing else of the crate but the model.

use crate::model::{FileError, TextRange};
use std::path::{Path, PathBuf};

/// One file read for linting.
#[derive(Debug, Clone)]
pub struct Source {
    /// The path as walked or named.
    pub path: PathBuf,
    /// The path as reported ([`display_path`]).
    pub display: String,
    /// The file's text.
    pub text: String,
}

/// The path as the user sees it: forward slashes, no leading `./`. A name that is not UTF-8
/// is kept losslessly: each byte outside UTF-8 is written `\xHH` and a backslash `\\` (the
/// renderers recover the exact bytes with [`crate::render::path_bytes`]).
pub fn display_path(p: &Path) -> String {
    let s = match p.to_str() {
        Some(text) => text.replace('\\', "/"),
        None => escape_non_utf8(p.as_os_str().as_encoded_bytes()),
    };
    let mut s = s.as_str();
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    s.to_owned()
}

/// `bytes` (not UTF-8) as text: `\xHH` for each byte outside UTF-8, `\\` for a backslash. The
/// one lossless spelling of a file name every report (lint and check) uses.
pub fn escape_non_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' {
                out.push_str("\\\\");
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// Reads a walked file. Not valid UTF-8 is an error naming the line of the first bad byte.
pub fn read_source(path: PathBuf) -> Result<Source, FileError> {
    let display = display_path(&path);
    let bytes = std::fs::read(&path).map_err(|e| cannot_read(&display, &e))?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source {
            path,
            display,
            text,
        }),
        Err(e) => Err(not_utf8(display, e.as_bytes(), e.utf8_error())),
    }
}

/// `bytes` as text, validated with SIMD (`simdutf8`): every walked file is checked, and
/// most are not parsed, so the check is a good part of reading them. A file that is not
/// UTF-8 is checked again by `std`, for the error's position.
fn utf8(bytes: &[u8]) -> Result<&str, std::str::Utf8Error> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(_) => std::str::from_utf8(bytes),
    }
}

thread_local! {
    /// Each reader thread's buffer ([`read_into`]): a file that `keep` rejects costs no
    /// allocation.
    static READ_BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Reads a walked file as [`read_source`] does (the same errors), but keeps its text only when
/// `keep` accepts it: otherwise the source comes back with an empty text and `false`, and the
/// bytes are never copied out of the thread's read buffer. What `mirrorless lint` holds in
/// memory is then the files that can have findings, not the tree.
pub fn read_source_if(
    path: PathBuf,
    keep: impl FnOnce(&str) -> bool,
) -> Result<(Source, bool), FileError> {
    let display = display_path(&path);
    READ_BUFFER.with(|buffer| {
        let mut buffer = buffer.borrow_mut();
        let read = std::fs::File::open(&path)
            .and_then(|mut f| read_into(&mut f, &mut buffer))
            .map_err(|e| cannot_read(&display, &e))?;
        let bytes = &buffer[..read];
        let text = match utf8(bytes) {
            Ok(text) => text,
            Err(e) => return Err(not_utf8(display, bytes, e)),
        };
        let held = keep(text);
        let text = if held { text.to_owned() } else { String::new() };
        // A rare huge file must not pin its buffer for the rest of the run.
        if buffer.len() > BUFFER_KEPT {
            *buffer = Vec::new();
        }
        Ok((
            Source {
                path,
                display,
                text,
            },
            held,
        ))
    })
}

/// The largest read buffer a thread keeps between files.
const BUFFER_KEPT: usize = 4 << 20;

/// A reader thread's first buffer: most source files fit it, and are read in one call.
const FIRST_BUFFER: usize = 64 << 10;

/// Reads `file` to its end into the start of `buffer` and returns how many bytes it read.
/// `buffer` stays initialized to its whole length between files, so a file that fits is read
/// by one `read` and the one that finds its end: `Read::read_to_end` on a `File` first asks
/// for its size and position (a `statx` and an `lseek` for every file of the walk).
fn read_into(file: &mut std::fs::File, buffer: &mut Vec<u8>) -> std::io::Result<usize> {
    use std::io::Read;
    let mut read = 0;
    loop {
        if read == buffer.len() {
            let grown = (buffer.len() * 2).max(FIRST_BUFFER);
            buffer.resize(grown, 0);
        }
        match file.read(&mut buffer[read..]) {
            Ok(0) => return Ok(read),
            Ok(n) => read += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn cannot_read(display: &str, e: &std::io::Error) -> FileError {
    FileError {
        path: display.to_owned(),
        line: None,
        message: format!("cannot read: {e}"),
    }
}

fn not_utf8(display: String, bytes: &[u8], e: std::str::Utf8Error) -> FileError {
    let valid = e.valid_up_to();
    let line = bytes[..valid].iter().filter(|&&b| b == b'\n').count() + 1;
    FileError {
        path: display,
        line: Some(line),
        message: format!(
            "not valid UTF-8 (invalid byte at offset {valid}); the file was not linted"
        ),
    }
}

/// Line starts of a text, for byte offset → (line, column) conversion. A column costs
/// O(log lines) plus at most [`CHECKPOINT`] bytes of counting, however long the line: a
/// 50 MB one-line file with thousands of findings stays linear.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// `None` for ASCII text (a column is a byte difference); otherwise `(byte offset, chars
    /// before it)` every [`CHECKPOINT`] bytes.
    checkpoints: Option<Vec<(usize, usize)>>,
}

/// Bytes between two character-count checkpoints of a [`LineIndex`].
pub const CHECKPOINT: usize = 4096;

/// The largest char boundary of `text` at or below `at`.
pub fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The smallest char boundary of `text` at or above `at`.
pub fn ceil_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

impl<'a> LineIndex<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        let checkpoints = (!text.is_ascii()).then(|| {
            let mut list = Vec::with_capacity(text.len() / CHECKPOINT);
            let (mut prev, mut chars) = (0, 0);
            let mut at = CHECKPOINT;
            while at < text.len() {
                let b = floor_boundary(text, at);
                chars += text[prev..b].chars().count();
                list.push((b, chars));
                prev = b;
                at += CHECKPOINT;
            }
            list
        });
        LineIndex {
            text,
            starts,
            checkpoints,
        }
    }

    /// Characters before byte `offset` (an offset inside a character counts its start).
    fn chars_before(&self, offset: usize) -> usize {
        let Some(list) = &self.checkpoints else {
            return offset;
        };
        let i = list.partition_point(|&(b, _)| b <= offset);
        let (b, chars) = if i == 0 { (0, 0) } else { list[i - 1] };
        chars
            + self.text[b..floor_boundary(self.text, offset)]
                .chars()
                .count()
    }

    /// 1-based line and 1-based character column of a byte offset.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let col = match self.checkpoints {
            None => offset - start,
            // Within a checkpoint's span of its line start, counting the line is cheaper
            // than counting from two checkpoints (a line start is a char boundary).
            Some(_) if offset - start <= CHECKPOINT => self.text
                [start..floor_boundary(self.text, offset)]
                .chars()
                .count(),
            Some(_) => self.chars_before(offset) - self.chars_before(start),
        };
        (line, col + 1)
    }

    /// The indexed text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// 1-based column of a byte offset, counted in bytes (rdjson's unit).
    pub fn byte_column(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        offset - self.starts[line - 1] + 1
    }

    /// The byte range of a 1-based line without its terminator.
    pub fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let len = self.text.len();
        let start = self.starts.get(line - 1).copied().unwrap_or(len);
        let mut end = self.starts.get(line).map_or(len, |&e| e - 1);
        if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        start..end
    }

    /// The text of a 1-based line without its terminator.
    pub fn line_text(&self, line: usize) -> &'a str {
        let start = self
            .starts
            .get(line - 1)
            .copied()
            .unwrap_or(self.text.len());
        let end = self.starts.get(line).map_or(self.text.len(), |&e| e - 1);
        self.text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches('\r')
    }

    /// Whether only whitespace precedes `offset` on its line (read backwards, so it costs
    /// the distance to the first other character, not the length of the line).
    pub fn starts_line(&self, offset: usize) -> bool {
        let offset = floor_boundary(self.text, offset);
        self.text[..offset]
            .chars()
            .rev()
            .take_while(|&c| c != '\n')
            .all(char::is_whitespace)
    }

    /// The first line after `line` that is not blank.
    pub fn next_nonblank(&self, line: usize) -> usize {
        let mut l = line + 1;
        while l <= self.starts.len() && self.line_text(l).trim().is_empty() {
            l += 1;
        }
        l
    }
}

/// Line and column (characters and bytes) of a byte range.
pub fn text_range(index: &LineIndex<'_>, start: usize, end: usize) -> TextRange {
    let (line, column) = index.position(start);
    let (end_line, end_column) = index.position(end);
    TextRange {
        line,
        column,
        end_line,
        end_column,
        byte_column: index.byte_column(start),
        end_byte_column: index.byte_column(end),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SIMD check accepts exactly what `std` accepts and reports the same error (the
    /// error names the line of the first bad byte: "not valid UTF-8" must not move). Generated
    /// texts of 0 to 300 bytes, so sequences straddle the SIMD blocks' edges: ASCII, two- to
    /// four-byte characters, and every kind of bad sequence (a stray continuation byte, a
    /// truncated character, an overlong encoding, a surrogate, a code point above U+10FFFF,
    /// bytes that never occur).
    #[test]
    fn the_simd_check_agrees_with_std() {
        const PIECES: &[&[u8]] = &[
            b"a",
            b"agent/turn-start",
            b"\n",
            b" ",
            "\u{e9}".as_bytes(),
            "\u{20ac}".as_bytes(),
            "\u{1f600}".as_bytes(),
            b"\x80",
            b"\xC3",
            b"\xE2\x82",
            b"\xF0\x9F\x98",
            b"\xC0\x80",
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80",
            b"\xFF",
            b"\xFE",
        ];
        let mut rng = crate::test_rng::Rng(0x5eed_0f00_71f8);
        let mut invalid = 0;
        for _ in 0..30_000 {
            let mut bytes = Vec::new();
            while bytes.len() < rng.below(300) {
                // Mostly valid text, so a bad byte lands anywhere in a long valid run.
                let piece = match rng.below(20) {
                    0 => rng.pick(&PIECES[7..]),
                    _ => rng.pick(&PIECES[..7]),
                };
                bytes.extend_from_slice(piece);
            }
            let expected = std::str::from_utf8(&bytes);
            invalid += usize::from(expected.is_err());
            assert_eq!(utf8(&bytes), expected, "{bytes:?}");
        }
        assert!(
            invalid > 1_000,
            "too few invalid texts generated: {invalid}"
        );
    }

    #[test]
    fn columns_count_characters_across_checkpoints() {
        let line = "é".repeat(3 * CHECKPOINT) + "x" + &"a".repeat(CHECKPOINT);
        let text = format!("ab\n{line}\n\u{1F600}z\r\n");
        let index = LineIndex::new(&text);
        for (offset, _) in text.char_indices() {
            let start = text[..offset].rfind('\n').map_or(0, |p| p + 1);
            let line = text[..offset].matches('\n').count() + 1;
            let col = text[start..offset].chars().count() + 1;
            assert_eq!(index.position(offset), (line, col), "offset {offset}");
        }
        assert_eq!(&text[index.line_range(3)], "\u{1F600}z");
        assert!(index.starts_line(text.find('\u{1F600}').unwrap()));
        assert!(!index.starts_line(text.find('z').unwrap()));
    }
}
