//! A source file as the linter holds it: its path as given and as shown, its text, and the
//! [`LineIndex`] that turns byte offsets into lines and columns. Front ends, the engine and the
//! renderers all build on this module; it imports nothing else of the crate but the model.

use crate::model::FileError;
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

/// The path as the user sees it: forward slashes, no leading `./`.
pub fn display_path(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    let mut s = s.as_str();
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    s.to_owned()
}

/// Reads a walked file. Not valid UTF-8 is an error naming the line of the first bad byte.
pub fn read_source(path: PathBuf) -> Result<Source, FileError> {
    let display = display_path(&path);
    let bytes = std::fs::read(&path).map_err(|e| FileError {
        path: display.clone(),
        line: None,
        message: format!("cannot read: {e}"),
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source {
            path,
            display,
            text,
        }),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let line = bytes[..valid].iter().filter(|&&b| b == b'\n').count() + 1;
            Err(FileError {
                path: display,
                line: Some(line),
                message: format!(
                    "not valid UTF-8 (invalid byte at offset {valid}); the file was not linted"
                ),
            })
        }
    }
}

/// Line starts of a text, for byte offset → (line, column) conversion.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text`.
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex { text, starts }
    }

    /// 1-based line and 1-based character column of a byte offset.
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line, col + 1)
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

    /// Whether only whitespace precedes `offset` on its line.
    pub fn starts_line(&self, offset: usize) -> bool {
        let (line, _) = self.position(offset);
        let start = self.starts[line - 1];
        self.text
            .get(start..offset)
            .is_some_and(|s| s.trim().is_empty())
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
