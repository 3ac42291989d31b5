//! Line handling: the header, the event envelope, packed chunk rows, bad input.

use super::event::{Chunk, ChunkData, Envelope};
use super::excerpt::{ContextCollector, EXCERPT_WIDTH};
use super::fastline::{DeltaLine, FastLine, scan_chunk_line};
use super::finding::Finding;
use super::lines::{DEFAULT_MAX_LINE_BYTES, read_line_limited};
use super::monitor::{MessageDown, Monitor, SurfaceDown};
use super::pipeline::{self, Prescan, Prescans};
use super::values::{Str, clip, parse_u64};
use crate::vocab::Profile;
use crate::vocab::durable::{HEADER_TYPE, PACKED_CHUNK_ROW_TYPES};
use serde::Deserialize;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Read};
use std::marker::PhantomData;

/// The result of checking one log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOutcome {
    /// The profile the log was checked under.
    pub profile: Profile,
    /// The findings, in input order (at most 10 000; see `suppressed`).
    pub findings: Vec<Finding>,
    /// Findings beyond the kept ones, counted but not stored.
    pub suppressed: u64,
    /// Events checked (packed rows count as the chunks they expand to).
    pub events: u64,
    /// Lines read, including the header and blank lines.
    pub lines: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Excerpts of the lines around the first findings, by line number (only when
    /// [`ReadOptions::context_findings`] asked for them): clipped, control characters escaped.
    pub context: BTreeMap<u64, String>,
}

/// How [`LogChecker::check_reader_with`] reads its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// The longest line buffered; a longer one is reported (`LOG-2`) and skipped.
    pub max_line_bytes: usize,
    /// How many findings (the first ones) get the excerpts of their line and its neighbours
    /// in [`CheckOutcome::context`]; 0 keeps none.
    pub context_findings: usize,
    /// Width, in characters, of those excerpts.
    pub context_width: usize,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            context_findings: 0,
            context_width: EXCERPT_WIDTH,
        }
    }
}

impl CheckOutcome {
    /// Error-severity findings, including suppressed ones (which are counted as errors).
    pub fn error_count(&self) -> u64 {
        self.findings
            .iter()
            .filter(|f| f.severity == super::finding::Severity::Error)
            .count() as u64
            + self.suppressed
    }

    /// Warning-severity findings among the kept ones.
    pub fn warning_count(&self) -> u64 {
        self.findings
            .iter()
            .filter(|f| f.severity == super::finding::Severity::Warning)
            .count() as u64
    }

    /// Whether the log conforms: no error-severity finding.
    pub fn conforms(&self) -> bool {
        self.error_count() == 0
    }
}

/// A streaming checker for one session log: feed it lines in order, then [`finish`].
///
/// ```
/// use mirrorless_conformance::check::LogChecker;
/// use mirrorless_conformance::Profile;
///
/// let log = br#"{"type":"session","version":0,"id":"s"}
/// {"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}
/// {"type":"turn/end","seq":1,"time":1,"data":{"turn":1,"reason":{"kind":"completed"}}}
/// "#;
/// let outcome = LogChecker::check_reader(Profile::V2026_08, &log[..]).unwrap();
/// assert!(outcome.conforms(), "{:?}", outcome.findings);
/// ```
///
/// [`finish`]: LogChecker::finish
pub struct LogChecker {
    profile: Profile,
    monitor: Monitor,
    expect_header: bool,
    saw_first: bool,
    lines: u64,
    bytes: u64,
    suppressed: u64,
    /// Whether plain chunk lines take the fast paths (always, but in the tests that compare
    /// them with the general path).
    fast: bool,
}

/// The envelope of one line, borrowed from the line. Deserialized by hand (see
/// [`RawLineVisitor`]) so that a key given twice is caught whatever its name.
#[derive(Default)]
struct RawLine<'a> {
    kind: Option<Cow<'a, str>>,
    seq: Option<&'a RawValue>,
    time: Option<&'a RawValue>,
    data: Option<&'a RawValue>,
    surface_op: Option<&'a RawValue>,
    source_event_seqs: Option<&'a RawValue>,
    ignorable: Option<&'a RawValue>,
    seq0: Option<&'a RawValue>,
    /// The first key the envelope names twice (JavaScript and Python keep the last value,
    /// a reader that keeps the first sees another event).
    duplicate: Option<String>,
}

impl<'de> Deserialize<'de> for RawLine<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(RawLineVisitor)
    }
}

/// Reads an envelope's members in one pass, noting a repeated key.
struct RawLineVisitor;

impl<'de> Visitor<'de> for RawLineVisitor {
    type Value = RawLine<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawLine<'de>, A::Error> {
        let mut line = RawLine::default();
        // Keys other than the envelope's own, for the duplicate check (rarely more than a few).
        let mut others: Vec<Cow<'de, str>> = Vec::new();
        let mut saw_type = false;
        while let Some(key) = map.next_key::<Str<'de>>()?.map(|k| k.0) {
            let slot = match key.as_ref() {
                "type" => {
                    let kind = map.next_value::<Option<Str<'de>>>()?.map(|k| k.0);
                    if saw_type {
                        line.duplicate.get_or_insert_with(|| key.into_owned());
                    } else {
                        line.kind = kind;
                    }
                    saw_type = true;
                    continue;
                }
                "seq" => &mut line.seq,
                "time" => &mut line.time,
                "data" => &mut line.data,
                "surfaceOp" => &mut line.surface_op,
                "sourceEventSeqs" => &mut line.source_event_seqs,
                "ignorable" => &mut line.ignorable,
                "seq0" => &mut line.seq0,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    if others.contains(&key) {
                        line.duplicate.get_or_insert_with(|| key.into_owned());
                    } else {
                        others.push(key);
                    }
                    continue;
                }
            };
            let value = map.next_value::<&'de RawValue>()?;
            if slot.is_some() {
                line.duplicate.get_or_insert_with(|| key.into_owned());
            } else {
                *slot = Some(value);
            }
        }
        Ok(line)
    }
}

/// A line read in one pass, from its envelope down through `data` read as `D`: an
/// `assistant/message` down through `data.message` and its content ([`MessageDown`]), a
/// `tool/result` or `user/message` down through `data.message` ([`SurfaceDown`]), instead of
/// its envelope first and its `data` again for each rule. A key of the envelope named twice, a
/// `type` that is not a string or a `data` that `D` refuses fails the reading, and the line is
/// read as before (which reports what there is to report).
struct LineDown<'a, D> {
    kind: Cow<'a, str>,
    seq: Option<&'a RawValue>,
    time: Option<&'a RawValue>,
    data: Option<D>,
    surface_op: Option<&'a RawValue>,
    source_event_seqs: Option<&'a RawValue>,
    ignorable: Option<&'a RawValue>,
}

impl<'de, D: Deserialize<'de>> Deserialize<'de> for LineDown<'de, D> {
    fn deserialize<De: serde::Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        d.deserialize_map(LineDownVisitor(PhantomData))
    }
}

struct LineDownVisitor<D>(PhantomData<D>);

impl<'de, D: Deserialize<'de>> Visitor<'de> for LineDownVisitor<D> {
    type Value = LineDown<'de, D>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<LineDown<'de, D>, A::Error> {
        use serde::de::Error as _;
        let mut kind: Option<Cow<'de, str>> = None;
        let mut data: Option<D> = None;
        // seq, time, surfaceOp, sourceEventSeqs, ignorable, seq0.
        let mut raw: [Option<&'de RawValue>; 6] = [None; 6];
        let mut others: Vec<Cow<'de, str>> = Vec::new();
        while let Some(key) = map.next_key::<Str<'de>>()?.map(|k| k.0) {
            let at = match key.as_ref() {
                "type" if kind.is_none() => {
                    kind = Some(map.next_value::<Str<'de>>()?.0);
                    continue;
                }
                "data" if data.is_none() => {
                    data = Some(map.next_value()?);
                    continue;
                }
                "type" | "data" => return Err(A::Error::custom("a key named twice")),
                "seq" => 0,
                "time" => 1,
                "surfaceOp" => 2,
                "sourceEventSeqs" => 3,
                "ignorable" => 4,
                "seq0" => 5,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    if others.contains(&key) {
                        return Err(A::Error::custom("a key named twice"));
                    }
                    others.push(key);
                    continue;
                }
            };
            if raw[at].is_some() {
                return Err(A::Error::custom("a key named twice"));
            }
            raw[at] = Some(map.next_value()?);
        }
        let [seq, time, surface_op, source_event_seqs, ignorable, _seq0] = raw;
        Ok(LineDown {
            kind: kind.ok_or_else(|| A::Error::custom("no type"))?,
            seq,
            time,
            data,
            surface_op,
            source_event_seqs,
            ignorable,
        })
    }
}

/// A plain `assistant/chunk` line, parsed in one pass (the fast path). Any other key, or a key
/// given twice, fails it: such a line takes the slow path, which reports it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChunkLine<'a> {
    /// Checked by the line's prefix; named so that a second `type` is an error.
    #[serde(rename = "type")]
    _kind: IgnoredAny,
    // A member given as `null` is present, as the envelope reads it (`"seq":null` is a SEQ-1
    // finding, `"surfaceOp":null` a SURF-1 one), not absent as `Option` would read it.
    #[serde(borrow, default, deserialize_with = "present")]
    seq: Option<&'a RawValue>,
    #[serde(borrow, default, deserialize_with = "present")]
    time: Option<&'a RawValue>,
    #[serde(borrow)]
    data: ChunkData<'a>,
    #[serde(rename = "surfaceOp", borrow, default, deserialize_with = "present")]
    surface_op: Option<&'a RawValue>,
    #[serde(
        rename = "sourceEventSeqs",
        borrow,
        default,
        deserialize_with = "present"
    )]
    source_event_seqs: Option<&'a RawValue>,
}

/// A member that is there, whatever its value (`null` included).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&'de RawValue>::deserialize(d).map(Some)
}

/// The UTF-8 encoding of U+FEFF, the byte order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The prefix every assistant message line the upstream writer produces starts with.
const MESSAGE_PREFIX: &[u8] = br#"{"type":"assistant/message","#;

/// The prefixes of the `tool/result` and `user/message` lines the upstream writer produces.
const SURFACE_PREFIXES: [&[u8]; 2] = [br#"{"type":"tool/result","#, br#"{"type":"user/message","#];

/// The prefix every chunk line the upstream writer produces starts with.
const CHUNK_PREFIX: &[u8] = br#"{"type":"assistant/chunk","#;

/// `data` of a packed chunk row.
#[derive(Deserialize)]
struct PackedRow<'a> {
    turn: Option<u64>,
    step: Option<u64>,
    index: Option<u32>,
    #[serde(default)]
    dt: Vec<&'a RawValue>,
    #[serde(borrow)]
    texts: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow)]
    args: Option<Vec<Cow<'a, str>>>,
    #[serde(borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
}

/// Reads `bytes` as a [`LineDown`] of `D` and hands its envelope (`data` a placeholder: `D`
/// stands for it) and `data` to `check`: `false`, nothing done, when the line is not UTF-8,
/// the reading fails, `data` is absent or `seq` is not a count (the general path reports
/// these), else what `check` returns (`false`: it handed the line back, nothing done).
fn read_down<'a, D: Deserialize<'a>>(
    line: Option<u64>,
    bytes: &'a [u8],
    check: impl FnOnce(&Envelope<'_>, D) -> bool,
) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    let Ok(read) = serde_json::from_str::<LineDown<'a, D>>(text) else {
        return false;
    };
    let (Some(data), Ok(no_data)) = (read.data, serde_json::from_str::<&RawValue>("{}")) else {
        return false;
    };
    let seq = match read.seq.map(parse_u64) {
        None => None,
        Some(Some(s)) => Some(s),
        Some(None) => return false,
    };
    let env = Envelope {
        line,
        seq,
        kind: &read.kind,
        time: read.time,
        // Not read on this path: `data` is `D`.
        data: no_data,
        surface_op: read.surface_op,
        source_event_seqs: read.source_event_seqs,
        ignorable: read.ignorable.is_some_and(|v| v.get() == "true"),
    };
    check(&env, data)
}

impl LogChecker {
    /// A checker for a log file: the first line must be the session header.
    pub fn new(profile: Profile) -> LogChecker {
        LogChecker {
            profile,
            monitor: Monitor::new(profile),
            expect_header: true,
            saw_first: false,
            lines: 0,
            bytes: 0,
            suppressed: 0,
            fast: true,
        }
    }

    /// A checker for events without a header line (e.g. events streamed by an implementation).
    pub fn without_header(profile: Profile) -> LogChecker {
        LogChecker {
            expect_header: false,
            ..LogChecker::new(profile)
        }
    }

    /// Whether to infer `CHUNK-1` ("one durable chunk per stream chunk") from provenance and
    /// assembly: a message citing a different number of chunks than its call recorded, or a
    /// text rebuilt from the same characters in another order. On by default; a driver that
    /// checks chunk fidelity exactly against its model script turns it off, so that a
    /// provenance fault is attributed to `MSG-1` alone.
    pub fn infer_chunk_fidelity(mut self, on: bool) -> LogChecker {
        self.monitor.infer_chunk_fidelity = on;
        self
    }

    /// The profile this checker applies.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Reads a whole log from `reader` and checks it. Lines longer than
    /// [`DEFAULT_MAX_LINE_BYTES`] are reported and skipped without being buffered. Only an
    /// I/O error is an `Err`; malformed content becomes findings.
    pub fn check_reader<R: BufRead>(profile: Profile, reader: R) -> io::Result<CheckOutcome> {
        Self::check_reader_with(profile, reader, &ReadOptions::default())
    }

    /// [`check_reader`](Self::check_reader) with an explicit line-length limit in bytes.
    pub fn check_reader_with_limit<R: BufRead>(
        profile: Profile,
        reader: R,
        max_line_bytes: usize,
    ) -> io::Result<CheckOutcome> {
        let options = ReadOptions {
            max_line_bytes,
            ..ReadOptions::default()
        };
        Self::check_reader_with(profile, reader, &options)
    }

    /// [`check_reader`](Self::check_reader) with explicit [`ReadOptions`]: the input is read
    /// once, whatever it is (a FIFO, standard input), and the context lines a report shows
    /// are kept during that pass ([`CheckOutcome::context`]).
    pub fn check_reader_with<R: BufRead>(
        profile: Profile,
        reader: R,
        options: &ReadOptions,
    ) -> io::Result<CheckOutcome> {
        LogChecker::new(profile).read_all(reader, options)
    }

    /// [`check_reader_with`](Self::check_reader_with) on two threads: a second thread reads
    /// `input` in batches and runs the chunk-line scanner over them while this one checks
    /// the lines in order. The outcome is the same as with one thread; memory is bounded by a
    /// few batches of 256 KiB. Only an I/O error is an `Err`.
    pub fn check_read_pipelined<R: Read + Send>(
        profile: Profile,
        input: R,
        options: &ReadOptions,
    ) -> io::Result<CheckOutcome> {
        LogChecker::new(profile).read_pipelined(
            input,
            options,
            pipeline::BATCH_BYTES,
            pipeline::ScanShare::Adaptive,
        )
    }

    /// Reads a whole log from `input` into this checker on two threads, in batches of at
    /// most `batch_bytes`, the reading thread scanning as much of each as `share` says (see
    /// [`check_read_pipelined`](Self::check_read_pipelined)).
    pub(super) fn read_pipelined<R: Read + Send>(
        self,
        input: R,
        options: &ReadOptions,
        batch_bytes: usize,
        share: pipeline::ScanShare,
    ) -> io::Result<CheckOutcome> {
        pipeline::with_pipe(input, batch_bytes, share, |reader| {
            let prescans = reader.prescans();
            self.read_lines(reader, options, Some(&prescans))
        })
    }

    /// Without the fast paths for chunk lines and messages: every line is read by its envelope
    /// with serde_json, and every rule reads what it needs itself (the reference the fast
    /// paths are compared with).
    #[cfg(test)]
    pub(super) fn without_fast_paths(mut self) -> LogChecker {
        self.fast = false;
        self.monitor.message_once = false;
        self
    }

    /// Reads a whole log from `reader` into this checker (see
    /// [`check_reader_with`](Self::check_reader_with)).
    pub(super) fn read_all<R: BufRead>(
        self,
        reader: R,
        options: &ReadOptions,
    ) -> io::Result<CheckOutcome> {
        self.read_lines(reader, options, None)
    }

    /// [`read_all`](Self::read_all), taking the chunk lines another thread has read from
    /// `prescans` (see `pipeline.rs`).
    fn read_lines<R: BufRead>(
        mut self,
        mut reader: R,
        options: &ReadOptions,
        prescans: Option<&RefCell<Prescans>>,
    ) -> io::Result<CheckOutcome> {
        let max_line_bytes = options.max_line_bytes;
        let profile = self.profile;
        let checker = &mut self;
        let mut context = (options.context_findings > 0)
            .then(|| ContextCollector::new(options.context_findings, options.context_width));
        let mut buf: Vec<u8> = Vec::with_capacity(64 * 1024);
        let mut line_no = 0u64;
        loop {
            // The common case: a whole line inside the reader's buffer is checked in place,
            // without copying it out.
            let available = match reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            // Every whole line in the buffer is checked where it is; the reader moves on once
            // per buffer, and the context ring copies only the last lines of each buffer.
            let mut used = 0;
            // The scans of the reader's batch; `fill_buf` swaps them, so not held across it.
            let table = prescans.map(RefCell::borrow);
            while let Some(len) =
                memchr::memchr(b'\n', &available[used..]).filter(|&e| e <= max_line_bytes)
            {
                line_no += 1;
                checker.bytes += len as u64;
                let line = &available[used..used + len];
                if let Some(c) = context.as_mut() {
                    c.buffered_line(line_no, used, line);
                }
                let scanned = table.as_ref().and_then(|t| t.get(used, len));
                if !(checker.saw_first && checker.fast && checker.scanned_line(line_no, scanned)) {
                    checker.feed_line(line_no, line, true);
                }
                if let Some(c) = context.as_mut() {
                    c.findings_in_buffer(checker.monitor.findings(), line_no, available);
                }
                used += len + 1;
            }
            drop(table);
            if used > 0 {
                if let Some(c) = context.as_mut() {
                    c.end_buffer(available);
                }
                reader.consume(used);
                continue;
            }
            let read = read_line_limited(&mut reader, &mut buf, max_line_bytes)?;
            if read.at_end() {
                break;
            }
            line_no += 1;
            checker.bytes += read.len as u64;
            if let Some(c) = context.as_mut() {
                c.line(line_no, &buf);
            }
            if read.overlong {
                checker.lines += 1;
                let f = Finding::new(
                    profile,
                    "LOG-2",
                    Some(line_no),
                    None,
                    format!(
                        "line is {} bytes long, over the {max_line_bytes}-byte limit; it was skipped",
                        read.len
                    ),
                );
                checker.push_external(f);
                checker.monitor.skip_event();
                checker.saw_first = true;
            } else {
                checker.feed_line(line_no, &buf, read.terminated);
            }
            if let Some(c) = context.as_mut() {
                c.findings(checker.monitor.findings(), line_no);
            }
        }
        if !checker.saw_first {
            let what = if line_no == 0 {
                "the file is empty"
            } else {
                "the file holds only blank lines"
            };
            checker.push_external(Finding::new(
                profile,
                "LOG-1",
                Some(1),
                None,
                format!("{what}: a session log starts with a header line"),
            ));
            checker.saw_first = true;
        }
        let mut outcome = self.finish();
        if let Some(mut c) = context {
            c.findings(&outcome.findings, line_no);
            outcome.context = c.into_lines();
        }
        Ok(outcome)
    }

    /// Checks a chunk line the reading thread has read (see `pipeline.rs`), as
    /// [`feed_line`](Self::feed_line) would: such a line starts with `{` and ends with `}`
    /// (no byte order mark, `\r` or blank to strip) and is not the first line, so it goes
    /// straight to the monitor. `false` (nothing done) without such a reading.
    fn scanned_line(&mut self, line_no: u64, scanned: Option<(&Prescan, &str)>) -> bool {
        let Some((scan, text)) = scanned else {
            return false;
        };
        self.lines += 1;
        match scan {
            Prescan::Delta {
                seq,
                turn,
                step,
                index,
                reasoning,
                ..
            } => {
                let delta = DeltaLine {
                    seq: *seq,
                    turn: *turn,
                    step: *step,
                    index: *index,
                    reasoning: *reasoning,
                    text: Cow::Borrowed(text),
                };
                self.monitor.delta_line(Some(line_no), delta);
            }
            Prescan::Chunk(chunk) => {
                self.monitor
                    .plain_chunk(Some(line_no), Some(chunk.seq), None, chunk.data());
            }
        }
        true
    }

    /// Feeds one line (without its newline). `terminated` is false for a last line with no
    /// newline, which is reported as truncated if it does not parse.
    pub fn feed_line(&mut self, line_no: u64, line: &[u8], terminated: bool) {
        self.lines += 1;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        self.feed(Some(line_no), line, terminated);
    }

    /// Feeds one event serialized as JSON, with no line number (used by
    /// [`check_events`](super::check_events)).
    pub fn feed_event_bytes(&mut self, bytes: &[u8]) {
        self.feed(None, bytes, true);
    }

    /// Feeds one event serialized as JSON as line `line_no` of a log without a header (used
    /// by [`check_events_numbered`](super::check_events_numbered)).
    pub fn feed_event_bytes_at(&mut self, line_no: u64, bytes: &[u8]) {
        self.feed(Some(line_no), bytes, true);
    }

    /// Adds a finding found outside the line parser (e.g. an I/O-level problem).
    pub fn push_external(&mut self, finding: Finding) {
        self.monitor.push(finding);
    }

    fn error(&mut self, req: &'static str, line: Option<u64>, seq: Option<u64>, msg: String) {
        let f = Finding::new(self.profile, req, line, seq, msg);
        self.monitor.push(f);
    }

    /// Checks one line: a plain chunk line by the fast paths, anything else by its envelope,
    /// read in full.
    fn feed(&mut self, line: Option<u64>, bytes: &[u8], terminated: bool) {
        let first = !self.saw_first;
        self.saw_first = true;
        let bytes = self.strip_bom(first, line, bytes);
        if !first && self.fast && self.plain_chunk_fast(line, bytes) {
            return;
        }
        if !first && self.fast && (self.message_line(line, bytes) || self.surface_line(line, bytes))
        {
            return;
        }
        let Some(raw) = self.read_envelope(first, line, bytes, terminated) else {
            return;
        };
        let Some(kind) = raw.kind.as_deref() else {
            self.reject_line(first, line, "the line has no string `type`".to_owned());
            return;
        };
        if self.header_line(first, line, kind, bytes) {
            return;
        }
        if PACKED_CHUNK_ROW_TYPES.contains(&kind) {
            self.packed_row(line, kind, &raw);
            return;
        }
        self.envelope_event(line, kind, &raw);
    }

    /// The requirement a line that cannot be read breaks: `LOG-1` for the header line, else
    /// `LOG-2`.
    fn unreadable_req(&self, first: bool) -> &'static str {
        if first && self.expect_header {
            "LOG-1"
        } else {
            "LOG-2"
        }
    }

    /// Reports a line that cannot be read as an event; unless it stood for the header, it
    /// still takes its place in the event sequence.
    fn reject_line(&mut self, first: bool, line: Option<u64>, msg: String) {
        let req = self.unreadable_req(first);
        self.error(req, line, None, msg);
        if !(first && self.expect_header) {
            self.monitor.skip_event();
        }
    }

    /// The line without a leading byte order mark, which is reported.
    fn strip_bom<'a>(&mut self, first: bool, line: Option<u64>, bytes: &'a [u8]) -> &'a [u8] {
        let Some(rest) = bytes.strip_prefix(UTF8_BOM) else {
            return bytes;
        };
        let req = self.unreadable_req(first);
        self.error(
            req,
            line,
            None,
            "the line starts with a UTF-8 byte order mark (bytes EF BB BF): logs are UTF-8 \
             without a BOM, and JSON.parse refuses the line; it was read without the BOM"
                .to_owned(),
        );
        rest
    }

    /// Whether the line is a plain `assistant/chunk` line, checked here in full: a delta in
    /// the upstream writer's exact shape, or a chunk line with nothing to report in its
    /// envelope. Anything else takes the slow path, which reports it.
    fn plain_chunk_fast(&mut self, line: Option<u64>, bytes: &[u8]) -> bool {
        match scan_chunk_line(bytes) {
            Some(FastLine::Delta(delta)) => {
                self.monitor.delta_line(line, delta);
                return true;
            }
            Some(FastLine::Chunk { seq, data }) => {
                self.monitor.plain_chunk(line, Some(seq), None, data);
                return true;
            }
            None => {}
        }
        if bytes.starts_with(CHUNK_PREFIX)
            && let Ok(chunk) = serde_json::from_slice::<ChunkLine<'_>>(bytes)
            && chunk.surface_op.is_none()
            && chunk.source_event_seqs.is_none()
        {
            // A valid seq is a non-negative integer; anything else takes the slow path,
            // which reports it.
            if let Some(seq) = chunk.seq.map(parse_u64) {
                if seq.is_some() {
                    let time = chunk.time.map(RawValue::get);
                    self.monitor.plain_chunk(line, seq, time, chunk.data);
                    return true;
                }
            } else {
                let time = chunk.time.map(RawValue::get);
                self.monitor.plain_chunk(line, None, time, chunk.data);
                return true;
            }
        }
        false
    }

    /// Whether the line is an `assistant/message` in the writer's shape checked here in full,
    /// read in one pass ([`LineDown`] of [`MessageDown`]): a line that reading refuses, or
    /// that the monitor hands back (see `Monitor::message_line`), takes the general path,
    /// which reports it; nothing is reported before that.
    pub(super) fn message_line(&mut self, line: Option<u64>, bytes: &[u8]) -> bool {
        if !bytes.starts_with(MESSAGE_PREFIX) {
            return false;
        }
        let monitor = &mut self.monitor;
        read_down::<MessageDown<'_>>(line, bytes, |env, data| monitor.message_line(env, data))
    }

    /// Whether the line is a `tool/result` or `user/message` in the writer's shape checked
    /// here in full, read in one pass ([`LineDown`] of [`SurfaceDown`]): a line that reading
    /// refuses, or that the monitor hands back (see `Monitor::surface_line`), takes the
    /// general path, which reports it; nothing is reported before that.
    pub(super) fn surface_line(&mut self, line: Option<u64>, bytes: &[u8]) -> bool {
        if !SURFACE_PREFIXES.iter().any(|p| bytes.starts_with(p)) {
            return false;
        }
        let monitor = &mut self.monitor;
        read_down::<SurfaceDown<'_>>(line, bytes, |env, data| monitor.surface_line(env, data))
    }

    /// The line's envelope, or `None` when the line is not one JSON object with each key
    /// once (reported).
    fn read_envelope<'a>(
        &mut self,
        first: bool,
        line: Option<u64>,
        bytes: &'a [u8],
        terminated: bool,
    ) -> Option<RawLine<'a>> {
        let text = match std::str::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                self.error(
                    "LOG-2",
                    line,
                    None,
                    format!(
                        "invalid UTF-8 at byte {} of the line; the line was skipped",
                        e.valid_up_to()
                    ),
                );
                self.monitor.skip_event();
                return None;
            }
        };
        if !text.trim_start().starts_with('{') {
            let what = if !terminated {
                "truncated last line, not a JSON object"
            } else {
                "not a JSON object"
            };
            let msg = format!("{what}: `{}`; the line was skipped", clip(text.trim()));
            self.reject_line(first, line, msg);
            return None;
        }
        let raw: RawLine<'_> = match serde_json::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                let msg = if !terminated {
                    format!(
                        "truncated last line (no newline at end of file and not valid JSON: {e}); the line was skipped"
                    )
                } else {
                    format!("malformed JSON: {e}; the line was skipped")
                };
                self.reject_line(first, line, msg);
                return None;
            }
        };
        if let Some(key) = &raw.duplicate {
            let msg = format!(
                "the line names `{}` twice: JSON readers disagree on which value counts \
                 (JavaScript and Python keep the last, others the first); the line was skipped",
                clip(key)
            );
            self.reject_line(first, line, msg);
            return None;
        }
        Some(raw)
    }

    /// Whether the line is a `session` header, which ends its handling: the expected first
    /// line (a fork continues its parent's turn numbering) or a second one (reported). A
    /// first line that is not the header is reported and goes on as an event.
    fn header_line(&mut self, first: bool, line: Option<u64>, kind: &str, bytes: &[u8]) -> bool {
        if first && self.expect_header {
            if kind == HEADER_TYPE {
                // A forked or seeded session continues its parent's turn numbering.
                let forked = memchr::memmem::find(bytes, b"\"parentSession\"").is_some()
                    || memchr::memmem::find(bytes, b"\"seedLength\"").is_some();
                if forked {
                    self.monitor.continue_turn_numbering();
                }
                return true;
            }
            self.error(
                "LOG-1",
                line,
                None,
                format!("missing header: the first line is a `{kind}` event, not `{{\"type\":\"session\", …}}`"),
            );
        } else if kind == HEADER_TYPE {
            self.error(
                "LOG-2",
                line,
                None,
                "a second `session` header line inside the log; it was skipped".to_owned(),
            );
            return true;
        }
        false
    }

    /// Hands one event to the monitor once its `seq` and `data` are read: a `seq` that is no
    /// count is reported and left out, an event without object `data` is skipped.
    fn envelope_event(&mut self, line: Option<u64>, kind: &str, raw: &RawLine<'_>) {
        let seq = match raw.seq.map(parse_u64) {
            None => None,
            Some(Some(s)) => Some(s),
            Some(None) => {
                self.error(
                    "SEQ-1",
                    line,
                    None,
                    format!(
                        "`seq` is not a non-negative integer: {}",
                        clip(raw.seq.map(RawValue::get).unwrap_or(""))
                    ),
                );
                None
            }
        };
        let Some(data) = raw.data.filter(|d| d.get().starts_with('{')) else {
            self.error(
                "LOG-2",
                line,
                seq,
                format!("`{kind}` event has no object `data`; the event was skipped"),
            );
            self.monitor.skip_event_with_seq(seq);
            return;
        };
        let ignorable = raw.ignorable.is_some_and(|v| v.get() == "true");
        let env = Envelope {
            line,
            seq,
            kind,
            time: raw.time,
            data,
            surface_op: raw.surface_op,
            source_event_seqs: raw.source_event_seqs,
            ignorable,
        };
        self.monitor.event(&env);
    }

    fn packed_row(&mut self, line: Option<u64>, kind: &str, raw: &RawLine<'_>) {
        if self.profile == Profile::V2026_07 {
            self.error(
                "LOG-2",
                line,
                None,
                format!(
                    "`{kind}` is a 2026-08 packed chunk row; 2026-07 logs store one event per line"
                ),
            );
        }
        let row: PackedRow<'_> = match raw
            .data
            .map(|d| serde_json::from_str::<PackedRow<'_>>(d.get()))
        {
            Some(Ok(row)) => row,
            Some(Err(e)) => {
                self.error(
                    "LOG-4",
                    line,
                    None,
                    format!("malformed `{kind}` row data: {e}; the row was skipped"),
                );
                self.monitor.skip_event();
                return;
            }
            None => {
                self.error(
                    "LOG-4",
                    line,
                    None,
                    format!("`{kind}` row has no `data`; the row was skipped"),
                );
                self.monitor.skip_event();
                return;
            }
        };
        let items = if kind == "tool-call-chunks" {
            row.args.as_ref()
        } else {
            row.texts.as_ref()
        };
        let field = if kind == "tool-call-chunks" {
            "args"
        } else {
            "texts"
        };
        let Some(items) = items else {
            self.error(
                "LOG-4",
                line,
                None,
                format!("`{kind}` row has no `{field}` array; the row was skipped"),
            );
            self.monitor.skip_event();
            return;
        };
        let (Some(turn), Some(step), Some(index)) = (row.turn, row.step, row.index) else {
            self.error(
                "LOG-4",
                line,
                None,
                format!("`{kind}` row lacks `turn`, `step` or `index`; the row was skipped"),
            );
            self.monitor.skip_event();
            return;
        };
        let seq0 = match raw.seq0.map(parse_u64) {
            None => None,
            Some(Some(s)) => Some(s),
            Some(None) => {
                self.error(
                    "LOG-4",
                    line,
                    None,
                    "`seq0` is not a non-negative integer".to_owned(),
                );
                None
            }
        };
        if items.len() < 3 {
            self.error(
                "LOG-4",
                line,
                seq0,
                format!(
                    "a packed row must pack at least 3 chunks; this `{kind}` row packs {}",
                    items.len()
                ),
            );
        }
        // `dt` holds the gaps between consecutive members: one fewer than the members.
        if row.dt.len() + 1 != items.len() {
            self.error(
                "LOG-4",
                line,
                seq0,
                format!(
                    "`dt` has {} gaps but `{field}` has {} members (expected {} gaps)",
                    row.dt.len(),
                    items.len(),
                    items.len().saturating_sub(1)
                ),
            );
        }
        if kind == "tool-call-chunks" && row.id.is_none() {
            self.error(
                "LOG-4",
                line,
                seq0,
                "a `tool-call-chunks` row must name the call `id`".to_owned(),
            );
        }
        if let Some(s0) = seq0 {
            let next = self.monitor.next_seq();
            if s0 != next {
                self.error(
                    "LOG-4",
                    line,
                    Some(s0),
                    format!("packed row starts at seq0 {s0} but the next seq is {next}"),
                );
            }
        }
        let id = row.id.as_deref().unwrap_or("");
        for (k, item) in items.iter().enumerate() {
            let chunk = match kind {
                "text-chunks" => Chunk::TextDelta { index, text: item },
                "reasoning-chunks" => Chunk::ReasoningDelta { index, text: item },
                _ => Chunk::ToolCallDelta {
                    index,
                    id,
                    name: row.name.as_deref(),
                    args: item,
                },
            };
            let seq = seq0.map(|s| s.saturating_add(k as u64));
            self.monitor.packed_chunk(line, seq, turn, step, chunk);
        }
    }

    /// Ends the log and returns the outcome (an open tail is reported here).
    pub fn finish(mut self) -> CheckOutcome {
        let (findings, suppressed, events) = self.monitor.finish();
        self.suppressed += suppressed;
        CheckOutcome {
            profile: self.profile,
            findings,
            suppressed: self.suppressed,
            events,
            lines: self.lines,
            bytes: self.bytes,
            context: BTreeMap::new(),
        }
    }
}
