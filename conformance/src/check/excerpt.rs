//! Excerpts of input for human reports: control characters escaped, lines clipped, and the
//! bounded ring that keeps the lines around findings during the single pass over an input.
//!
//! The report never re-opens its input (which may be a FIFO or standard input), so the lines
//! it shows around a finding are kept while the input is read, clipped to a fixed width:
//! memory stays bounded whatever the length of a line or of the input.

use super::Finding;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;

/// Width, in characters, to which excerpt lines are clipped.
pub const EXCERPT_WIDTH: usize = 110;

/// How many recent lines the ring keeps, so that a finding reported a few lines after the line
/// it cites still gets its context.
const RING_LINES: usize = 16;

/// Width, in characters, to which every renderer clips a string an implementation supplies
/// (its name and version, the name of the report's implementation): enough for a name and the
/// command line that started it, bounded whatever the implementation sends.
pub const NAME_WIDTH: usize = 300;

/// Whether `c` must not reach a reader raw: C0 and C1 controls, DEL, the line and paragraph
/// separators, the bidirectional-text controls (which can make a line read differently), and
/// the invisible characters (zero-width spaces and joiners, word joiner, invisible operators,
/// soft hyphen, byte-order mark), which make two different names look the same.
pub(crate) fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{ad}' | '\u{61c}' | '\u{180e}'
        )
        || ('\u{200b}'..='\u{200f}').contains(&c)
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2060}'..='\u{206f}').contains(&c)
}

/// Cuts `s`, a string an implementation supplied, to the `4 × NAME_WIDTH` bytes [`shown`]
/// reads of it (at a character boundary, an ellipsis marking the cut): what a report keeps of
/// it, so memory and every format (JSON included) stay bounded.
pub fn clip_name(s: &mut String) {
    let max = 4 * NAME_WIDTH;
    if s.len() > max {
        let mut end = max;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
}

/// A string an implementation supplies, as every report shows it: [`excerpt`] at
/// [`NAME_WIDTH`] (controls, bidirectional and invisible characters escaped, clipped with an
/// ellipsis, at most `4 × NAME_WIDTH` bytes of it read). Renderers then apply their format's
/// own escaping (Markdown, HTML) on top.
pub fn shown(s: &str) -> String {
    excerpt(s.as_bytes(), NAME_WIDTH)
}

/// `s` with every character that could move the cursor, recolor the terminal or forge a line
/// of the report written as an escape: `\n`, `\r`, `\t`, or `\u{…}`.
pub fn escape_control(s: &str) -> Cow<'_, str> {
    if printable_ascii(s.as_bytes()) || !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether every byte is printable ASCII (U+0020–U+007E), none of which [`needs_escape`]: most
/// of every report, checked 32 bytes at a time rather than decoded character by character (a
/// lint report escapes each finding's message, note, help and source line).
fn printable_ascii(bytes: &[u8]) -> bool {
    bytes.chunks(32).all(|chunk| {
        chunk
            .iter()
            .fold(true, |all, &b| all & (0x20..0x7f).contains(&b))
    })
}

/// One input line as a report shows it: invalid UTF-8 replaced, control characters escaped,
/// at most `width` characters (an ellipsis marks a cut). Reads at most `4 × width` bytes of
/// the line, so the cost does not depend on the line's length.
pub fn excerpt(line: &[u8], width: usize) -> String {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let head = &line[..line.len().min(width.saturating_mul(4))];
    let text = String::from_utf8_lossy(head);
    let escaped = escape_control(&text);
    let mut chars = escaped.chars();
    let mut out: String = chars.by_ref().take(width).collect();
    if chars.next().is_some() || head.len() < line.len() {
        out.pop();
        out.push('…');
    }
    out
}

/// How many bytes of a line [`excerpt`] needs to give the same excerpt as for the whole line:
/// the `4 × width` it reads, one more to know that it was cut, and one for a `\r` it strips.
fn raw_bound(width: usize) -> usize {
    width.saturating_mul(4).saturating_add(2)
}

/// Keeps the excerpts of the lines around the first findings of an input (the line before,
/// the line itself and the line after), collected during the single pass.
#[derive(Debug)]
pub struct ContextCollector {
    /// How many findings (the first ones) get context.
    max_findings: usize,
    width: usize,
    /// The recent lines as raw bytes, at most [`raw_bound`] of each: escaping and clipping are
    /// done only for a line that is kept, as most lines of a log never get into a report.
    ring: VecDeque<(u64, Vec<u8>)>,
    /// The recent lines still in the reader's buffer, newer than those of the ring: (line,
    /// start, end), copied into the ring only when the buffer ends.
    buffered: VecDeque<(u64, usize, usize)>,
    kept: BTreeMap<u64, String>,
    /// Lines after a finding's line, not read yet.
    pending: BTreeSet<u64>,
    /// Findings already looked at.
    seen: usize,
}

impl ContextCollector {
    /// A collector giving context to the first `max_findings` findings, lines clipped to
    /// `width` characters.
    pub fn new(max_findings: usize, width: usize) -> ContextCollector {
        ContextCollector {
            max_findings,
            width,
            ring: VecDeque::with_capacity(RING_LINES),
            buffered: VecDeque::with_capacity(RING_LINES),
            kept: BTreeMap::new(),
            pending: BTreeSet::new(),
            seen: 0,
        }
    }

    /// Records line `n` (read just now).
    pub fn line(&mut self, n: u64, bytes: &[u8]) {
        if self.seen >= self.max_findings && self.pending.is_empty() {
            return;
        }
        let head = &bytes[..bytes.len().min(raw_bound(self.width))];
        if !self.pending.is_empty() && self.pending.remove(&n) {
            self.kept.insert(n, excerpt(head, self.width));
        }
        // The oldest line's buffer is reused: no allocation per line once the ring is full.
        let mut raw = match self.ring.len() {
            RING_LINES => self
                .ring
                .pop_front()
                .map(|(_, raw)| raw)
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        raw.clear();
        raw.extend_from_slice(head);
        self.ring.push_back((n, raw));
    }

    /// Records line `n` (read just now), which starts at byte `start` of the reader's buffer
    /// and stays there until [`end_buffer`](Self::end_buffer): nothing is copied unless a
    /// finding needs the line ([`findings_in_buffer`](Self::findings_in_buffer) with the same
    /// buffer) or it is among the last lines when the buffer ends.
    pub fn buffered_line(&mut self, n: u64, start: usize, bytes: &[u8]) {
        if self.seen >= self.max_findings && self.pending.is_empty() {
            return;
        }
        if !self.pending.is_empty() && self.pending.remove(&n) {
            let head = &bytes[..bytes.len().min(raw_bound(self.width))];
            self.kept.insert(n, excerpt(head, self.width));
        }
        if self.buffered.len() == RING_LINES {
            self.buffered.pop_front();
        }
        self.buffered.push_back((n, start, start + bytes.len()));
    }

    /// The reader's buffer is about to be refilled: the last lines recorded by
    /// [`buffered_line`](Self::buffered_line) are copied into the ring.
    pub fn end_buffer(&mut self, buffer: &[u8]) {
        while let Some((n, start, end)) = self.buffered.pop_front() {
            self.line(n, &buffer[start..end]);
        }
    }

    /// Looks at the findings not seen yet (`findings` is every finding so far, in order) after
    /// line `current` was read.
    pub fn findings(&mut self, findings: &[Finding], current: u64) {
        self.findings_in_buffer(findings, current, &[]);
    }

    /// [`findings`](Self::findings), where the lines recorded by
    /// [`buffered_line`](Self::buffered_line) are in `buffer`.
    pub fn findings_in_buffer(&mut self, findings: &[Finding], current: u64, buffer: &[u8]) {
        let upto = findings.len().min(self.max_findings);
        for f in findings.iter().take(upto).skip(self.seen) {
            let Some(l) = f.line else { continue };
            for n in l.saturating_sub(1).max(1)..=l.saturating_add(1) {
                if self.kept.contains_key(&n) {
                    continue;
                }
                if n > current {
                    self.pending.insert(n);
                } else if let Some(raw) = self.recent(n, current, buffer) {
                    let raw = &raw[..raw.len().min(raw_bound(self.width))];
                    self.kept.insert(n, excerpt(raw, self.width));
                }
            }
        }
        self.seen = self.seen.max(upto);
    }

    /// Line `n`, if it is among the last [`RING_LINES`] lines up to `current`: in the buffer
    /// when it was recorded there, else in the ring.
    fn recent<'a>(&'a self, n: u64, current: u64, buffer: &'a [u8]) -> Option<&'a [u8]> {
        if n.saturating_add(RING_LINES as u64) <= current {
            return None;
        }
        if let Some(&(_, start, end)) = self.buffered.iter().find(|(m, ..)| *m == n) {
            return buffer.get(start..end);
        }
        self.ring
            .iter()
            .find(|(m, _)| *m == n)
            .map(|(_, raw)| raw.as_slice())
    }

    /// The kept excerpts by line number.
    pub fn into_lines(self) -> BTreeMap<u64, String> {
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Profile;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_control("plain"), "plain");
        assert_eq!(
            escape_control("a\x1b[31mb\nc\u{202e}d\u{7f}"),
            "a\\u{1b}[31mb\\nc\\u{202e}d\\u{7f}"
        );
    }

    #[test]
    fn excerpts_are_clipped_and_cost_is_bounded() {
        assert_eq!(excerpt(b"short\r", 10), "short");
        assert_eq!(excerpt(b"0123456789abc", 10), "012345678…");
        let long = vec![b'z'; 1 << 20];
        assert_eq!(excerpt(&long, 5).chars().count(), 5);
        assert_eq!(excerpt(b"\xff\x00", 10), "\u{fffd}\\u{0}");
    }

    #[test]
    fn the_bounded_head_of_a_line_gives_the_excerpt_of_the_whole_line() {
        let width = 10;
        let bound = raw_bound(width);
        for len in 0..bound + 6 {
            for tail in [&b""[..], b"\r", b"\r\r", b"\xe2\x80"] {
                let mut line = vec![b'x'; len];
                line.extend_from_slice(tail);
                let head = &line[..line.len().min(bound)];
                assert_eq!(
                    excerpt(head, width),
                    excerpt(&line, width),
                    "length {len} + {tail:?}"
                );
            }
        }
    }

    #[test]
    fn context_comes_from_the_ring_and_from_lines_read_later() {
        let mut c = ContextCollector::new(1, 80);
        let f = |line| Finding::new(Profile::V2026_08, "LOG-2", Some(line), None, "x");
        for n in 1..=5u64 {
            c.line(n, format!("line {n}").as_bytes());
        }
        c.findings(&[f(4)], 5);
        c.line(6, b"line 6");
        // A second finding is past the limit: no context for it.
        c.findings(&[f(4), f(6)], 6);
        c.line(7, b"line 7");
        let kept = c.into_lines();
        assert_eq!(kept.keys().copied().collect::<Vec<_>>(), vec![3, 4, 5]);
        assert_eq!(kept[&5], "line 5");
    }
}
