//! Reading input one line at a time with a bound on the bytes a line may occupy in memory.

use std::io::{self, BufRead};

/// The longest line the readers buffer (64 MiB). A longer line is reported (`LOG-2`) and
/// skipped; only its first [`KEPT_PREFIX_BYTES`] are kept, for the report's excerpt.
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 << 20;

/// How much of an over-long line stays in the buffer (enough for an excerpt).
pub(super) const KEPT_PREFIX_BYTES: usize = 1024;

/// One line read by [`read_line_limited`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct LineRead {
    /// Bytes in the line, without its newline (counted in full even when over the limit).
    pub len: usize,
    /// Whether a newline ended it (false for a last line without one, and at end of input).
    pub terminated: bool,
    /// Whether it was longer than the limit; the buffer then holds only its first bytes.
    pub overlong: bool,
}

impl LineRead {
    /// Whether the input was at its end (no line at all).
    pub fn at_end(&self) -> bool {
        self.len == 0 && !self.terminated
    }
}

/// Reads one line into `buf` (cleared first, newline excluded). A line over `max` bytes is
/// consumed to its end without being buffered: `buf` keeps its first [`KEPT_PREFIX_BYTES`].
pub(super) fn read_line_limited<R: BufRead>(
    reader: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    buf.clear();
    let mut len = 0usize;
    let mut overlong = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(LineRead {
                len,
                terminated: false,
                overlong,
            });
        }
        let (chunk, found) = match memchr::memchr(b'\n', available) {
            Some(i) => (&available[..i], true),
            None => (available, false),
        };
        let used = chunk.len() + usize::from(found);
        len = len.saturating_add(chunk.len());
        if !overlong && len > max {
            overlong = true;
            buf.truncate(KEPT_PREFIX_BYTES);
            buf.shrink_to(max.min(64 * 1024));
        }
        if overlong {
            // The prefix is the line's first bytes however the reads split it: a line that
            // went over the limit in its first read kept more than one split across many.
            let room = KEPT_PREFIX_BYTES.saturating_sub(buf.len());
            buf.extend_from_slice(&chunk[..room.min(chunk.len())]);
        } else {
            buf.extend_from_slice(chunk);
        }
        reader.consume(used);
        if found {
            return Ok(LineRead {
                len,
                terminated: true,
                overlong,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #32 item 4 (`-j 1` and `-j 2` report alike): an over-long line keeps its first
    /// `KEPT_PREFIX_BYTES` bytes (the report's excerpt of it) however the reads split it —
    /// one byte at a time, or the whole line in one buffer — for limits below, at and above
    /// the kept prefix.
    #[test]
    fn an_overlong_line_keeps_the_same_prefix_however_it_is_read() {
        let line: Vec<u8> = (0..3000u32).map(|i| b'a' + (i % 26) as u8).collect();
        for max in [1, 99, 100, 1023, 1024, 1025, 2999] {
            for len in [max + 1, max + 7, 1024, 1500, 3000] {
                if len <= max || len > line.len() {
                    continue;
                }
                let mut input = line[..len].to_vec();
                input.push(b'\n');
                let kept = |capacity: usize| {
                    let mut reader = io::BufReader::with_capacity(capacity, &input[..]);
                    let mut buf = Vec::new();
                    let read = read_line_limited(&mut reader, &mut buf, max).expect("in memory");
                    assert!(read.overlong && read.len == len, "{max} {len} {capacity}");
                    buf
                };
                let whole = kept(1 << 16);
                assert_eq!(whole, &line[..len.min(KEPT_PREFIX_BYTES)]);
                for capacity in [1, 2, 3, 7, 64, 1000] {
                    assert_eq!(
                        kept(capacity),
                        whole,
                        "max {max}, len {len}, reads of {capacity}"
                    );
                }
            }
        }
    }

    #[test]
    fn an_overlong_line_keeps_only_a_prefix_and_the_next_line_is_intact() {
        let mut input = vec![b'x'; 10_000];
        input.extend_from_slice(b"\nnext\n");
        let mut reader = &input[..];
        let mut buf = Vec::new();
        let first = read_line_limited(&mut reader, &mut buf, 100).expect("in memory");
        assert_eq!(
            first,
            LineRead {
                len: 10_000,
                terminated: true,
                overlong: true
            }
        );
        assert_eq!(buf.len(), KEPT_PREFIX_BYTES);
        let second = read_line_limited(&mut reader, &mut buf, 100).expect("in memory");
        assert!(!second.overlong && second.terminated);
        assert_eq!(buf, b"next");
        assert!(
            read_line_limited(&mut reader, &mut buf, 100)
                .expect("in memory")
                .at_end()
        );
    }
}
