//! Issue #32 item 4: "validate [chunk deltas] without building a parse tree … with
//! byte-identical reports". The fast paths for chunk lines (`fastline.rs`, the monitor's quiet
//! delta, the reader's in-buffer lines and context ring) must give exactly the outcome of the
//! general path, which reads every line's envelope with serde_json, or decline the line. These
//! tests check whole outcomes (findings, counts, context excerpts) of generated logs both ways:
//! chunk lines in the writer's shape, in odd but valid JSON (escapes, unicode, whitespace, key
//! order, numbers as `1.0`, `1e0` or too large) and invalid (duplicate keys, bad escapes, lone
//! surrogates, control characters, invalid UTF-8, wrong seqs, turns, steps and indexes).

use super::pipeline::ScanShare;
use super::{CheckOutcome, LogChecker, ReadOptions};
use crate::vocab::Profile;
use proptest::prelude::*;
use std::fmt::Write as _;
use std::io::BufReader;

/// How a number is written: `Right(d)` is the expected value plus `d`; the others are the
/// expected value written otherwise, or something that is no such number.
#[derive(Debug, Clone, Copy)]
enum Num {
    Right(i8),
    Float,
    Exp,
    Huge,
    LeadingZero,
    Negative,
    Str,
    Null,
    Missing,
}

fn num() -> impl Strategy<Value = Num> {
    prop_oneof![
        12 => Just(Num::Right(0)),
        1 => (-2i8..=2).prop_map(Num::Right),
        1 => Just(Num::Float),
        1 => Just(Num::Exp),
        1 => Just(Num::Huge),
        1 => Just(Num::LeadingZero),
        1 => Just(Num::Negative),
        1 => Just(Num::Str),
        1 => Just(Num::Null),
        1 => Just(Num::Missing),
    ]
}

/// `"key":value` for `expected` written as `how` (nothing for [`Num::Missing`]).
fn member(key: &str, expected: u64, how: Num) -> Option<String> {
    let value = match how {
        Num::Right(d) => (i128::from(expected) + i128::from(d)).to_string(),
        Num::Float => format!("{expected}.0"),
        Num::Exp => format!("{expected}e0"),
        Num::Huge => "184467440737095516160".to_owned(),
        Num::LeadingZero => format!("0{expected}"),
        Num::Negative => format!("-{expected}"),
        Num::Str => format!("\"{expected}\""),
        Num::Null => "null".to_owned(),
        Num::Missing => return None,
    };
    Some(format!("\"{key}\":{value}"))
}

/// How a delta's text is written.
#[derive(Debug, Clone)]
enum Text {
    /// As serde_json writes it (quotes, backslashes and controls escaped, the rest raw).
    Written(String),
    /// Every character outside printable ASCII as `\uXXXX` (surrogate pairs beyond the BMP),
    /// and `/` as `\/`.
    AllEscaped(String),
    /// Raw bytes between the quotes, often not a valid JSON string.
    Raw(Vec<u8>),
}

fn text() -> impl Strategy<Value = Text> {
    let piece = prop_oneof![
        4 => "[ a-z]{0,8}",
        2 => any::<String>(),
        1 => Just("\u{e9}\u{4e2d}\u{1f600}\n\t\"\\/".to_owned()),
    ];
    prop_oneof![
        8 => piece.clone().prop_map(Text::Written),
        2 => piece.prop_map(Text::AllEscaped),
        2 => prop::collection::vec(
            prop_oneof![
                6 => Just(b"a".to_vec()),
                1 => Just(b"\\ud800".to_vec()),
                1 => Just(b"\\udc00\\ud800".to_vec()),
                1 => Just(b"\\ud83d\\ude00".to_vec()),
                1 => Just(b"\\q".to_vec()),
                1 => Just(b"\\u12".to_vec()),
                1 => Just(b"\\".to_vec()),
                1 => Just(b"\"".to_vec()),
                1 => Just(vec![1u8]),
                1 => Just(vec![0x7f]),
                1 => Just(vec![0xff]),
                1 => Just(vec![0xe2, 0x82]),
                1 => Just("\u{2028}".as_bytes().to_vec()),
            ],
            0..6,
        )
        .prop_map(|v| Text::Raw(v.concat())),
    ]
}

fn write_text(t: &Text) -> Vec<u8> {
    match t {
        Text::Written(s) => serde_json::to_string(s).expect("a string").into_bytes(),
        Text::AllEscaped(s) => {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '/' => out.push_str("\\/"),
                    ' '..='~' if c != '"' && c != '\\' => out.push(c),
                    _ => {
                        let mut units = [0u16; 2];
                        for u in c.encode_utf16(&mut units) {
                            let _ = write!(out, "\\u{u:04X}");
                        }
                    }
                }
            }
            out.push('"');
            out.into_bytes()
        }
        Text::Raw(bytes) => [&b"\""[..], bytes, b"\""].concat(),
    }
}

/// The shape of one chunk line around its values.
#[derive(Debug, Clone, Copy)]
enum Layout {
    Exact,
    /// A space after every colon.
    Spaced,
    /// `text` before `index` in the chunk.
    Reordered,
    /// The chunk names `index` twice.
    DuplicateIndex,
    /// The envelope names `seq` twice.
    DuplicateSeq,
    /// A space after the line.
    Trailing,
    /// A carriage return before the newline.
    Crlf,
    /// An unknown envelope key.
    ExtraKey,
    /// `sourceEventSeqs` on a chunk.
    Cited,
    /// Cut short.
    Truncated,
}

fn layout() -> impl Strategy<Value = Layout> {
    prop_oneof![
        20 => Just(Layout::Exact),
        1 => Just(Layout::Spaced),
        1 => Just(Layout::Reordered),
        1 => Just(Layout::DuplicateIndex),
        1 => Just(Layout::DuplicateSeq),
        1 => Just(Layout::Trailing),
        1 => Just(Layout::Crlf),
        1 => Just(Layout::ExtraKey),
        1 => Just(Layout::Cited),
        1 => Just(Layout::Truncated),
    ]
}

/// One generated chunk line.
#[derive(Debug, Clone)]
struct ChunkLine {
    seq: Num,
    time: Num,
    turn: Num,
    step: Num,
    /// 0 text-delta, 1 reasoning-delta, 2 block-start, 3 tool-call-delta, 4 finish, 5 an
    /// unknown type, 6 block-end.
    kind: u8,
    index: Num,
    /// Block 0 (text), 1 (reasoning) or 2 (never started).
    block: u8,
    text: Text,
    layout: Layout,
}

fn chunk_line() -> impl Strategy<Value = ChunkLine> {
    (
        (num(), num(), num(), num()),
        prop_oneof![12 => 0u8..2, 1 => 2u8..9],
        num(),
        prop_oneof![8 => 0u8..2, 1 => Just(2u8)],
        text(),
        layout(),
    )
        .prop_map(
            |((seq, time, turn, step), kind, index, block, text, layout)| ChunkLine {
                seq,
                time,
                turn,
                step,
                kind,
                index,
                block,
                text,
                layout,
            },
        )
}

/// Writes a generated chunk line as event `seq` of turn 1, step 1.
fn write_chunk(c: &ChunkLine, seq: u64, out: &mut Vec<u8>) {
    let colon = if matches!(c.layout, Layout::Spaced) {
        ": "
    } else {
        ":"
    };
    let join = |members: Vec<Option<String>>| {
        members
            .into_iter()
            .flatten()
            .map(|m| m.replacen(':', colon, 1))
            .collect::<Vec<_>>()
            .join(",")
    };
    let text = write_text(&c.text);
    let text = String::from_utf8_lossy(&text).into_owned();
    let kind = [
        "text-delta",
        "reasoning-delta",
        "block-start",
        "tool-call-delta",
        "finish",
        "thought-delta",
        "block-end",
        "usage",
        "block-end",
    ][usize::from(c.kind)];
    let index = member("index", u64::from(c.block), c.index);
    let mut chunk = vec![Some(format!("\"type\":\"{kind}\""))];
    let body = match c.kind {
        0 | 1 | 5 => format!("\"text\":{text}"),
        2 => "\"blockType\":\"text\"".to_owned(),
        3 => format!("\"id\":\"call_a\",\"argumentsDelta\":{text}"),
        4 => "\"reason\":{\"kind\":\"stop\"}".to_owned(),
        // `block` and `usage` are built as `Value`s on the reading thread when they read
        // as such (`pipeline.rs`, `Prepared`), and on the checker's otherwise (`1e400`).
        7 => format!("\"usage\":{{\"inputTokens\":1,\"note\":{text}}}"),
        8 => format!("\"block\":{{\"type\":\"text\",\"text\":{text},\"n\":1e400}}"),
        _ => format!("\"block\":{{\"type\":\"text\",\"text\":{text}}}"),
    };
    if matches!(c.layout, Layout::Reordered) {
        chunk.push(Some(body));
        chunk.push(index);
    } else {
        chunk.push(index);
        if matches!(c.layout, Layout::DuplicateIndex) {
            chunk.push(member("index", 1, Num::Right(0)));
        }
        chunk.push(Some(body));
    }
    let data = join(vec![
        member("turn", 1, c.turn),
        member("step", 1, c.step),
        Some(format!("\"chunk\":{{{}}}", join(chunk))),
    ]);
    let mut envelope = vec![
        Some("\"type\":\"assistant/chunk\"".to_owned()),
        member("seq", seq, c.seq),
    ];
    if matches!(c.layout, Layout::DuplicateSeq) {
        envelope.push(member("seq", seq, Num::Right(0)));
    }
    envelope.push(member("time", 1_783_000_000_000 + seq, c.time));
    envelope.push(Some(format!("\"data\":{{{data}}}")));
    match c.layout {
        Layout::ExtraKey => envelope.push(Some("\"x\":1".to_owned())),
        Layout::Cited => envelope.push(Some(format!("\"sourceEventSeqs\":[{seq}]"))),
        _ => {}
    }
    // The text may hold raw bytes that are no UTF-8: write the line around them as bytes.
    let line = format!("{{{}}}", join(envelope));
    let raw_text = write_text(&c.text);
    let lossy = String::from_utf8_lossy(&raw_text).into_owned();
    let mut bytes = match line.find(&lossy) {
        Some(at) => [
            &line.as_bytes()[..at],
            &raw_text,
            &line.as_bytes()[at + lossy.len()..],
        ]
        .concat(),
        None => line.into_bytes(),
    };
    match c.layout {
        Layout::Trailing => bytes.push(b' '),
        Layout::Crlf => bytes.push(b'\r'),
        Layout::Truncated => bytes.truncate(bytes.len() / 2),
        _ => {}
    }
    out.extend_from_slice(&bytes);
    out.push(b'\n');
}

/// A log: a header, a turn and step with a text block 0 and a reasoning block 1, the
/// generated chunks, then the call's end, its message and the ends of step and turn.
fn log(profile: Profile, chunks: &[ChunkLine]) -> Vec<u8> {
    log_with_message(profile, chunks, None)
}

/// [`log`], with the message's `data` given (`CONTENT` stands for the content blocks that
/// match the chunks, as a JSON array).
fn log_with_message(profile: Profile, chunks: &[ChunkLine], data: Option<&str>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut seq = 0u64;
    out.extend_from_slice(br#"{"type":"session","version":0,"id":"s","createdAt":0}"#);
    out.push(b'\n');
    ev(&mut out, &mut seq, "turn/start", r#"{"turn":1}"#, "");
    ev(
        &mut out,
        &mut seq,
        "step/start",
        r#"{"turn":1,"step":1}"#,
        "",
    );
    let mut cited = Vec::new();
    for (index, kind) in [(0, "text"), (1, "reasoning")] {
        cited.push(ev(
            &mut out,
            &mut seq,
            "assistant/chunk",
            &format!(
                r#"{{"turn":1,"step":1,"chunk":{{"type":"block-start","index":{index},"blockType":"{kind}"}}}}"#
            ),
            "",
        ));
    }
    let mut texts = [String::new(), String::new()];
    for c in chunks {
        if let (Text::Written(t), 0 | 1, Num::Right(0)) = (&c.text, c.kind, c.index)
            && c.block < 2
        {
            texts[usize::from(c.block)].push_str(t);
        }
        write_chunk(c, seq, &mut out);
        cited.push(seq);
        seq += 1;
    }
    let mut content = Vec::new();
    for (index, kind) in [(0, "text"), (1, "reasoning")] {
        let block = format!(
            r#"{{"type":"{kind}","text":{}}}"#,
            serde_json::to_string(&texts[index]).expect("a string")
        );
        cited.push(ev(
            &mut out,
            &mut seq,
            "assistant/chunk",
            &format!(
                r#"{{"turn":1,"step":1,"chunk":{{"type":"block-end","index":{index},"block":{block}}}}}"#
            ),
            "",
        ));
        content.push(block);
    }
    cited.push(ev(
        &mut out,
        &mut seq,
        "assistant/chunk",
        r#"{"turn":1,"step":1,"chunk":{"type":"finish","reason":{"kind":"stop"}}}"#,
        "",
    ));
    let seqs: Vec<String> = cited.iter().map(u64::to_string).collect();
    let content = content.join(",");
    let message = if let Some(data) = data {
        data.replace("CONTENT", &format!("[{content}]"))
    } else if profile == Profile::V2026_07 {
        format!(r#"{{"turn":1,"step":1,"content":[{content}]}}"#)
    } else {
        format!(
            r#"{{"turn":1,"step":1,"message":{{"id":"m","role":"assistant","content":[{content}],"source":{{"kind":"model","provider":"p","model":"m"}}}}}}"#
        )
    };
    ev(
        &mut out,
        &mut seq,
        "assistant/message",
        &message,
        &format!(
            r#","sourceEventSeqs":[{}],"surfaceOp":"append""#,
            seqs.join(",")
        ),
    );
    ev(&mut out, &mut seq, "step/end", r#"{"turn":1,"step":1}"#, "");
    ev(
        &mut out,
        &mut seq,
        "turn/end",
        r#"{"turn":1,"reason":{"kind":"completed"}}"#,
        "",
    );
    out
}

/// Writes event `seq` (then the next seq) and returns its seq.
pub(super) fn ev(out: &mut Vec<u8>, seq: &mut u64, kind: &str, data: &str, extra: &str) -> u64 {
    let _ = writeln!(
        Sink(out),
        r#"{{"type":"{kind}","seq":{seq},"time":{},"data":{data}{extra}}}"#,
        1_783_000_000_000 + *seq
    );
    *seq += 1;
    *seq - 1
}

/// `write!` into a byte vector.
struct Sink<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Sink<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// The outcome of checking `log` through a reader with `capacity` bytes of buffer, with or
/// without the fast paths; the first 50 findings get their context lines.
fn check(profile: Profile, log: &[u8], capacity: usize, fast: bool) -> CheckOutcome {
    let checker = LogChecker::new(profile);
    let checker = if fast {
        checker
    } else {
        checker.without_fast_paths()
    };
    let options = ReadOptions {
        context_findings: 50,
        ..ReadOptions::default()
    };
    checker
        .read_all(BufReader::with_capacity(capacity, log), &options)
        .expect("a log in memory")
}

pub(super) fn profile() -> impl Strategy<Value = Profile> {
    prop_oneof![Just(Profile::V2026_07), Just(Profile::V2026_08)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Issue #32 item 4: the same outcome with and without the fast paths, whatever the
    /// chunk lines and however the reader's buffer cuts them.
    #[test]
    fn the_fast_paths_report_what_the_general_path_reports(
        profile in profile(),
        chunks in prop::collection::vec(chunk_line(), 0..40),
        capacity in prop_oneof![Just(256 * 1024), 64usize..600],
    ) {
        let log = log(profile, &chunks);
        let fast = check(profile, &log, capacity, true);
        let general = check(profile, &log, 256 * 1024, false);
        prop_assert_eq!(fast, general, "{}", String::from_utf8_lossy(&log));
    }
}

/// One member of an `assistant/message`'s `data.message` object, right or wrong.
fn message_member() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        4 => Just(r#""id":"m""#),
        1 => Just(r#""id":null"#),
        1 => Just(r#""id":"""#),
        1 => Just(r#""id":5"#),
        4 => Just(r#""role":"assistant""#),
        1 => Just(r#""role":"user""#),
        1 => Just(r#""role":null"#),
        4 => Just(r#""source":{"kind":"model","provider":"p","model":"m"}"#),
        1 => Just(r#""source":null"#),
        1 => Just(r#""source":{"kind":"user"}"#),
        1 => Just(r#""source":{"kind":1e400}"#),
        4 => Just(r#""content":CONTENT"#),
        1 => Just(r#""content":null"#),
        1 => Just(r#""content":[1e400]"#),
        1 => Just(r#""content":{}"#),
        1 => Just(r#""message":null"#),
        1 => Just(r#""other":1"#),
    ]
}

/// One member of an `assistant/message`'s `data`, right or wrong; `MESSAGE` stands for a
/// generated `data.message` object.
fn data_member() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        4 => Just(r#""turn":1"#),
        1 => Just(r#""turn":2"#),
        1 => Just(r#""turn":null"#),
        4 => Just(r#""step":1"#),
        1 => Just(r#""step":"1""#),
        1 => Just(r#""content":CONTENT"#),
        1 => Just(r#""content":null"#),
        1 => Just(r#""usage":null"#),
        1 => Just(r#""usage":{"input":1}"#),
        1 => Just(r#""interrupted":true"#),
        1 => Just(r#""callId":"c""#),
        1 => Just(r#""callId":3"#),
        1 => Just(r#""name":4"#),
        1 => Just(r#""id":"x""#),
        1 => Just(r#""id":null"#),
        1 => Just(r#""role":"assistant""#),
        1 => Just(r#""source":{"kind":"model","provider":"p","model":"m"}"#),
        6 => Just(r#""message":MESSAGE"#),
        1 => Just(r#""message":null"#),
        1 => Just(r#""message":5"#),
        1 => Just(r#""message":[]"#),
        1 => Just(r#""message":"m""#),
    ]
}

/// An `assistant/message` `data` made of generated members (some given twice, some wrong).
fn message_data() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(data_member(), 0..8),
        prop::collection::vec(message_member(), 0..7),
    )
        .prop_map(|(data, message)| {
            let message = format!("{{{}}}", message.join(","));
            format!("{{{}}}", data.join(",")).replace("MESSAGE", &message)
        })
}

proptest! {
    // 4096 cases: 512 let a mutant that reads `"id":null` as present pass now and then.
    #![proptest_config(ProptestConfig { cases: 4096, failure_persistence: None, ..ProptestConfig::default() })]

    /// Issue #32 item 4: an `assistant/message` read once for all its rules
    /// (`monitor/onepass.rs`) gets the findings each rule's own reading gets, whatever its
    /// members, their order, their values and their repetitions.
    #[test]
    fn a_message_read_once_reports_what_each_rule_reports(
        profile in profile(),
        data in message_data(),
    ) {
        let chunks = [one_text_delta()];
        let log = log_with_message(profile, &chunks, Some(&data));
        let fast = check(profile, &log, 256 * 1024, true);
        let general = check(profile, &log, 256 * 1024, false);
        prop_assert_eq!(fast, general, "{}", String::from_utf8_lossy(&log));
    }
}

/// The one chunk of the message logs below: a text delta `hi` in the writer's exact shape.
fn one_text_delta() -> ChunkLine {
    ChunkLine {
        seq: Num::Right(0),
        time: Num::Right(0),
        turn: Num::Right(0),
        step: Num::Right(0),
        kind: 0,
        index: Num::Right(0),
        block: 0,
        text: Text::Written("hi".to_owned()),
        layout: Layout::Exact,
    }
}

/// One member of an `assistant/message` line's envelope after its `type`, right or wrong:
/// `SEQ`, `CITED` and `DATA` stand for the message's seq, its citation and a generated `data`.
fn envelope_member() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        8 => Just(r#""seq":SEQ"#),
        1 => Just(r#""seq":null"#),
        1 => Just(r#""seq":"7""#),
        1 => Just(r#""seq":-1"#),
        1 => Just(r#""seq":1.5"#),
        4 => Just(r#""time":1783000000000"#),
        1 => Just(r#""time":"x""#),
        1 => Just(r#""time":null"#),
        8 => Just(r#""data":DATA"#),
        1 => Just(r#""data":null"#),
        1 => Just(r#""data":[]"#),
        1 => Just(r#""data":"d""#),
        6 => Just(r#""sourceEventSeqs":CITED"#),
        1 => Just(r#""sourceEventSeqs":[]"#),
        1 => Just(r#""sourceEventSeqs":"x""#),
        1 => Just(r#""sourceEventSeqs":[1,1]"#),
        1 => Just(r#""sourceEventSeqs":[[2,4],5]"#),
        1 => Just(r#""sourceEventSeqs":[[4,2]]"#),
        1 => Just(r#""sourceEventSeqs":[ 2 , 3 ]"#),
        1 => Just(r#""sourceEventSeqs":[2.0]"#),
        1 => Just(r#""sourceEventSeqs":[-0]"#),
        1 => Just(r#""sourceEventSeqs":[18446744073709551616]"#),
        1 => Just(r#""sourceEventSeqs":null"#),
        6 => Just(r#""surfaceOp":"append""#),
        1 => Just(r#""surfaceOp":{"replace":"m"}"#),
        1 => Just(r#""surfaceOp":null"#),
        1 => Just(r#""surfaceOp":"insert""#),
        1 => Just(r#""ignorable":true"#),
        1 => Just(r#""seq0":1"#),
        1 => Just(r#""other":[1,{"a":"b"}]"#),
        1 => Just(r#""type":"assistant/message""#),
        1 => Just(r#""type":null"#),
    ]
}

/// The log of [`log_with_message`] with its message line written as `{"type":
/// "assistant/message",` and `members` (see [`envelope_member`]), `data` standing for `DATA`.
fn log_with_message_line(profile: Profile, members: &[&str], data: &str) -> Vec<u8> {
    #[derive(serde::Deserialize)]
    struct Written<'a> {
        seq: u64,
        #[serde(borrow)]
        data: &'a serde_json::value::RawValue,
        #[serde(rename = "sourceEventSeqs", borrow)]
        cited: &'a serde_json::value::RawValue,
    }
    let chunks = [one_text_delta()];
    // `data` is then the content the chunks assemble to.
    let log = log_with_message(profile, &chunks, Some("CONTENT"));
    let text = String::from_utf8(log).expect("the generated log is UTF-8");
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with(r#"{"type":"assistant/message""#) {
            let written: Written<'_> = serde_json::from_str(line).expect("the written message");
            let data = data.replace("CONTENT", written.data.get());
            let members = members
                .join(",")
                .replace("SEQ", &written.seq.to_string())
                .replace("CITED", written.cited.get())
                .replace("DATA", &data);
            let sep = if members.is_empty() { "" } else { "," };
            out.push_str(&format!(r#"{{"type":"assistant/message"{sep}{members}}}"#));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out.into_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, failure_persistence: None, ..ProptestConfig::default() })]

    /// Issue #32 item 4 ("validate them without building a parse tree … byte-identical
    /// reports"): an `assistant/message` line read in one pass from its envelope down through
    /// its content (`reader.rs`'s `MessageLine`, `monitor/onepass.rs`'s `MessageDown`) gets the
    /// findings the envelope's reading and each rule's own reading get, whatever the
    /// envelope's members, their order, values and repetitions, and whatever its `data`.
    #[test]
    fn a_message_line_read_in_one_pass_reports_what_the_envelope_reading_reports(
        profile in profile(),
        members in prop::collection::vec(envelope_member(), 0..8),
        data in message_data(),
    ) {
        let log = log_with_message_line(profile, &members, &data);
        let fast = check(profile, &log, 256 * 1024, true);
        let general = check(profile, &log, 256 * 1024, false);
        prop_assert_eq!(fast, general, "{}", String::from_utf8_lossy(&log));
    }
}

/// The message lines of the writer's shape, in both profiles, take the one-pass reading (else
/// the property above would compare the general path with itself).
#[test]
fn the_writers_message_line_takes_the_one_pass_reading() {
    for profile in [Profile::V2026_07, Profile::V2026_08] {
        let log = log_with_message(profile, &[], None);
        let text = String::from_utf8(log.clone()).expect("the generated log is UTF-8");
        let mut checker = LogChecker::new(profile);
        let mut taken = 0;
        for (i, line) in text.lines().enumerate() {
            let no = i as u64 + 1;
            if line.starts_with(r#"{"type":"assistant/message""#) {
                assert!(
                    checker.message_line(Some(no), line.as_bytes()),
                    "{profile}: {line}"
                );
                taken += 1;
            } else {
                checker.feed_line(no, line.as_bytes(), true);
            }
        }
        assert_eq!(taken, 1);
        let outcome = checker.finish();
        assert!(outcome.conforms(), "{profile}: {:?}", outcome.findings);
        let general = check(profile, &log, 256 * 1024, false);
        assert_eq!(outcome.events, general.events);
    }
}

/// The generator's writer's-shape lines are the ones the scanner takes (else the property
/// above would compare the general path with itself), and a clean log is clean both ways.
#[test]
fn the_writers_shape_takes_the_fast_path_and_conforms() {
    let delta = |text: &str, block: u8| ChunkLine {
        seq: Num::Right(0),
        time: Num::Right(0),
        turn: Num::Right(0),
        step: Num::Right(0),
        kind: block,
        index: Num::Right(0),
        block,
        text: Text::Written(text.to_owned()),
        layout: Layout::Exact,
    };
    let chunks = [delta(" a", 0), delta(" \"b\"\n", 0), delta("think", 1)];
    let mut line = Vec::new();
    for (i, c) in chunks.iter().enumerate() {
        line.clear();
        write_chunk(c, 9, &mut line);
        assert!(
            super::fastline::scan_chunk_line(&line[..line.len() - 1]).is_some(),
            "chunk {i}: {}",
            String::from_utf8_lossy(&line)
        );
    }
    for profile in [Profile::V2026_07, Profile::V2026_08] {
        let log = log(profile, &chunks);
        let fast = check(profile, &log, 256 * 1024, true);
        assert!(fast.conforms(), "{profile}: {:?}", fast.findings);
        assert_eq!(fast, check(profile, &log, 256 * 1024, false));
    }
}

/// A reader that hands out its bytes in reads of the given sizes, in turn (a pipe, a slow
/// disk): the reading thread's batches then end anywhere.
struct Trickle {
    bytes: Vec<u8>,
    at: usize,
    sizes: Vec<usize>,
    read: usize,
}

impl std::io::Read for Trickle {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let size = self.sizes[self.read % self.sizes.len()].max(1);
        self.read += 1;
        let n = size.min(out.len()).min(self.bytes.len() - self.at);
        out[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// How one line of a generated log is changed before it is checked on two threads.
#[derive(Debug, Clone, Copy)]
enum LineDamage {
    Kept,
    /// Ends in `\r\n`.
    CarriageReturn,
    /// Starts with a UTF-8 byte order mark.
    Bom,
    /// Followed by a blank line.
    Blank,
    /// Cut in the middle (and so not a JSON object).
    Cut,
}

fn line_damage() -> impl Strategy<Value = LineDamage> {
    prop_oneof![
        16 => Just(LineDamage::Kept),
        1 => Just(LineDamage::CarriageReturn),
        1 => Just(LineDamage::Bom),
        1 => Just(LineDamage::Blank),
        1 => Just(LineDamage::Cut),
    ]
}

/// `log` with its lines damaged in turn by `damage`, and without its last newline when
/// `unterminated`.
fn damaged(log: &[u8], damage: &[LineDamage], unterminated: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(log.len() + 64);
    for (i, line) in log.split_inclusive(|&b| b == b'\n').enumerate() {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        match damage
            .get(i % damage.len().max(1))
            .copied()
            .unwrap_or(LineDamage::Kept)
        {
            LineDamage::Kept => out.extend_from_slice(line),
            LineDamage::CarriageReturn => {
                out.extend_from_slice(body);
                out.extend_from_slice(b"\r\n");
            }
            LineDamage::Bom => {
                out.extend_from_slice(b"\xEF\xBB\xBF");
                out.extend_from_slice(line);
            }
            LineDamage::Blank => {
                out.extend_from_slice(line);
                out.extend_from_slice(b"  \n");
            }
            LineDamage::Cut => {
                out.extend_from_slice(&body[..body.len() / 2]);
                out.push(b'\n');
            }
        }
    }
    if unterminated && out.last() == Some(&b'\n') {
        out.pop();
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    /// Issue #32 items 2 and 4 ("run uses every core"; "byte-identical reports"): a log read
    /// and scanned on a second thread (`check/pipeline.rs`) has the outcome of the same log
    /// read on one, whatever its chunk lines and message, damaged lines (`\r`, byte order
    /// marks, blank, cut, over-long lines, no last newline), wherever the reads and the
    /// batches cut it, and however much of each batch the reading thread scans.
    #[test]
    fn a_second_thread_reports_what_one_thread_reports(
        profile in profile(),
        chunks in prop::collection::vec(chunk_line(), 0..40),
        data in prop::option::of(message_data()),
        damage in prop::collection::vec(line_damage(), 1..12),
        unterminated in any::<bool>(),
        sizes in prop::collection::vec(prop_oneof![1usize..200, Just(64 * 1024)], 1..6),
        batch in prop_oneof![Just(256 * 1024), 16usize..700],
        max_line in prop_oneof![3 => Just(super::DEFAULT_MAX_LINE_BYTES), 1 => 100usize..400],
        share in prop_oneof![
            Just(ScanShare::Adaptive),
            Just(ScanShare::Fixed(0)),
            Just(ScanShare::Fixed(16)),
            (1usize..16).prop_map(ScanShare::Fixed),
        ],
    ) {
        let log = damaged(&log_with_message(profile, &chunks, data.as_deref()), &damage, unterminated);
        let options = ReadOptions {
            context_findings: 50,
            max_line_bytes: max_line,
            ..ReadOptions::default()
        };
        let input = Trickle { bytes: log.clone(), at: 0, sizes, read: 0 };
        let two = LogChecker::new(profile)
            .read_pipelined(input, &options, batch, share)
            .expect("a log in memory");
        let one = LogChecker::new(profile)
            .read_all(BufReader::with_capacity(256 * 1024, &log[..]), &options)
            .expect("a log in memory");
        prop_assert_eq!(two, one, "{}", String::from_utf8_lossy(&log));
    }
}

/// Issue #32 item 4: a read error on the reading thread is the caller's error, as it is
/// on one thread, after the lines before it were checked.
#[test]
fn a_read_error_on_the_second_thread_is_returned() {
    struct Failing(usize);
    impl std::io::Read for Failing {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk on fire"));
            }
            self.0 -= 1;
            let line = b"{\"type\":\"session\",\"version\":0,\"id\":\"s\"}\n";
            let n = line.len().min(out.len());
            out[..n].copy_from_slice(&line[..n]);
            Ok(n)
        }
    }
    let e = LogChecker::new(Profile::V2026_08)
        .read_pipelined(Failing(3), &ReadOptions::default(), 64, ScanShare::Adaptive)
        .expect_err("the read error");
    assert_eq!(e.to_string(), "disk on fire");
}

/// One block of a message's content, right or wrong, in the writer's shape or not: the
/// assembly of the logs above is a text block `hi` and an empty reasoning block.
fn content_block() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        6 => Just(r#"{"type":"text","text":"hi"}"#),
        6 => Just(r#"{"type":"reasoning","text":""}"#),
        1 => Just(r#"{"type":"text","text":"ih"}"#),
        1 => Just(r#"{"type":"text","text":"h\u0069"}"#),
        1 => Just(r#"{"type":"te\u0078t","text":"hi"}"#),
        1 => Just(r#"{"text":"hi","type":"text"}"#),
        1 => Just(r#"{ "type" : "text" , "text" : "hi" }"#),
        1 => Just(r#"{"type":"text","text":"hi","text":"x"}"#),
        1 => Just(r#"{"type":"text","text":"x","text":"hi"}"#),
        1 => Just(r#"{"type":"reasoning","type":"text","text":"hi"}"#),
        1 => Just(r#"{"type":"text","text":"hi","extra":[1,{"a":null}]}"#),
        1 => Just(r#"{"type":"text"}"#),
        1 => Just(r#"{"type":"text","text":5}"#),
        1 => Just(r#"{"type":"text","text":{"a":["b",1.5]}}"#),
        1 => Just(r#"{"type":"reasoning","text":"é 😀 \ud83d\ude00\n\t\"q\" \\ \/"}"#),
        1 => Just(r#"{"type":"text","text":"a long text that the report clips at eighty bytes, so that a divergence prints it clipped…"}"#),
        1 => Just(r#"{"type":"tool-call","id":"c","name":"n","arguments":"{\"a\":1}"}"#),
        1 => Just(r#"{"type":"image","data":"x"}"#),
        1 => Just(r#"{"type":"text","text":"\ud800"}"#),
        1 => Just(r#"{"type":"text","text":"hi","n":1e400}"#),
        1 => Just(r#"{"$serde_json::private::RawValue":"1"}"#),
        1 => Just(r#"{}"#),
        1 => Just(r#""text""#),
        1 => Just("null"),
        1 => Just("[]"),
        1 => Just("-0"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, failure_persistence: None, ..ProptestConfig::default() })]

    /// Issue #32 item 4 ("without building a parse tree … byte-identical reports"): a message
    /// whose content is compared with its assembly where it lies (`check/content.rs`) gets the
    /// findings the general path's `Value` reading gets (MSG-3's divergence and its printed
    /// blocks, CHUNK-1's reordering, the tool-call blocks kept for the step), whatever its
    /// blocks: in the writer's shape or not, escaped, reordered, repeated, wrong or not
    /// `Value`s at all.
    #[test]
    fn a_message_content_compared_in_place_reports_what_its_values_report(
        profile in profile(),
        blocks in prop::collection::vec(content_block(), 0..5),
        nested in any::<bool>(),
    ) {
        let content = format!("[{}]", blocks.join(","));
        let data = if nested {
            format!(
                r#"{{"turn":1,"step":1,"message":{{"id":"m","role":"assistant","content":{content},"source":{{"kind":"model","provider":"p","model":"m"}}}}}}"#
            )
        } else {
            format!(r#"{{"turn":1,"step":1,"content":{content}}}"#)
        };
        let chunks = [one_text_delta()];
        let log = log_with_message(profile, &chunks, Some(&data));
        let fast = check(profile, &log, 256 * 1024, true);
        let general = check(profile, &log, 256 * 1024, false);
        prop_assert_eq!(fast, general, "{}", String::from_utf8_lossy(&log));
    }
}
