//! The fastest path of the reader: an `assistant/chunk` line whose envelope is in the exact
//! shape the upstream writer produces, recognised by a byte scanner instead of a JSON parser.
//!
//! Such lines are most of every log (one per token), and they all look alike:
//!
//! ```text
//! {"type":"assistant/chunk","seq":7,"time":1783000000008,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":" can"}}}
//! ```
//!
//! [`scan_chunk_line`] accepts a line only if its envelope is exactly that shape (these keys in
//! this order, integers of at most 19 digits without sign, fraction, exponent or leading zero,
//! a `time` that fits an `i64`, nothing after the last brace). A text or reasoning delta in
//! the same exact shape is read to its end here: its text is checked for control characters
//! and UTF-8 and borrowed, or, when it holds escapes, decoded by serde_json alone (the same
//! decoder, on the same bytes). Any other chunk object is read by serde_json alone, and must
//! be followed by exactly `}}`. Such a line is valid JSON and means the same to every JSON
//! reader. Anything else returns `None` and takes the general path, which parses and reports
//! it; so the scanner can only be faster, never different (the property tests here compare
//! it with serde_json, and `check/fast_equiv.rs` compares whole reports with and without it).

use super::event::{ChunkData, RawChunk};
use super::values::leading_u64;
use std::borrow::Cow;

/// A chunk line whose envelope is in the writer's exact shape, read without a parse tree.
pub(super) enum FastLine<'a> {
    /// A text or reasoning delta, every byte of it checked here.
    Delta(DeltaLine<'a>),
    /// Any other chunk: the envelope checked here, the chunk object read by serde_json alone
    /// (what reading the whole line would have given it).
    Chunk {
        /// `seq`.
        seq: u64,
        /// `data`, with `turn` and `step` read here.
        data: ChunkData<'a>,
    },
}

/// The fields of a text or reasoning delta line the monitor needs.
pub(super) struct DeltaLine<'a> {
    pub seq: u64,
    pub turn: u64,
    pub step: u64,
    pub index: u32,
    /// `reasoning-delta` (else `text-delta`).
    pub reasoning: bool,
    /// The delta's text: borrowed from the line, or decoded by serde_json when it has escapes.
    pub text: Cow<'a, str>,
}

/// A cursor over one line.
struct Scan<'a> {
    rest: &'a [u8],
}

impl<'a> Scan<'a> {
    fn tag(&mut self, tag: &[u8]) -> Option<()> {
        self.rest = self.rest.strip_prefix(tag)?;
        Some(())
    }

    /// A JSON non-negative integer without leading zeros of at most 19 digits (a longer one
    /// takes the general path), that fits `T`.
    fn number<T: TryFrom<u64>>(&mut self) -> Option<T> {
        let (n, len) = leading_u64(self.rest)?;
        self.rest = &self.rest[len..];
        T::try_from(n).ok()
    }

    /// A JSON non-negative integer that fits an `i64`, passed over as [`number`](Self::number)
    /// reads it: digits without a leading zero; fewer than 19 of them always fit, so only a
    /// longer run is read for its value.
    fn time(&mut self) -> Option<()> {
        let len = self
            .rest
            .iter()
            .take(19)
            .take_while(|b| b.is_ascii_digit())
            .count();
        if len >= 19 {
            return self.number::<i64>().map(|_| ());
        }
        if len == 0 || (len > 1 && self.rest[0] == b'0') {
            return None;
        }
        self.rest = &self.rest[len..];
        Some(())
    }

    /// The text of a string starting at its opening quote, up to and past its closing quote.
    /// Without escapes it is borrowed (no control character, valid UTF-8); with escapes
    /// serde_json decodes the string alone, as it would have inside the whole line, and a
    /// string it refuses is `None`.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let quoted = self.rest.strip_prefix(b"\"")?;
        let mut i = 0;
        let mut escaped = false;
        loop {
            // The next quote or backslash (memchr: SIMD on long texts), then the bytes before
            // it checked for control characters in one pass.
            let at = i + memchr::memchr2(b'"', b'\\', &quoted[i..])?;
            if quoted[i..at].iter().any(|&b| b < 0x20) {
                return None;
            }
            if quoted[at] == b'"' {
                i = at;
                break;
            }
            // An escape: the byte after the backslash never ends the string (serde_json checks
            // the escape itself below).
            escaped = true;
            i = at + 2;
            if i > quoted.len() {
                return None;
            }
        }
        let (body, rest) = quoted.split_at(i);
        // With both quotes, for serde_json.
        let whole = &self.rest[..i + 2];
        self.rest = &rest[1..];
        if escaped {
            return serde_json::from_slice::<String>(whole).ok().map(Cow::Owned);
        }
        std::str::from_utf8(body).ok().map(Cow::Borrowed)
    }
}

/// The envelope every chunk line the writer produces starts with, up to `seq`'s digits.
const PREFIX: &[u8] = br#"{"type":"assistant/chunk","seq":"#;

/// Recognises a chunk line whose envelope is in the writer's exact shape (see the module
/// documentation); `None` sends the line to the general path.
pub(super) fn scan_chunk_line(line: &[u8]) -> Option<FastLine<'_>> {
    let mut s = Scan {
        rest: line.strip_prefix(PREFIX)?,
    };
    let seq = s.number::<u64>()?;
    s.tag(br#","time":"#)?;
    // A `time` that is no `i64` is reported by the general path.
    s.time()?;
    s.tag(br#","data":{"turn":"#)?;
    let turn = s.number::<u64>()?;
    s.tag(br#","step":"#)?;
    let step = s.number::<u64>()?;
    s.tag(br#","chunk":"#)?;
    if let Some(delta) = delta_chunk(&mut s, seq, turn, step) {
        return Some(FastLine::Delta(delta));
    }
    // Any other chunk object: serde_json reads it alone, then exactly `}}` ends the line.
    let mut stream = serde_json::Deserializer::from_slice(s.rest).into_iter::<RawChunk<'_>>();
    let chunk = stream.next()?.ok()?;
    let end = stream.byte_offset();
    if &s.rest[end..] != b"}}" {
        return None;
    }
    Some(FastLine::Chunk {
        seq,
        data: ChunkData {
            turn: Some(turn),
            step: Some(step),
            chunk: Some(chunk),
        },
    })
}

/// A text or reasoning delta chunk in the writer's exact shape, to the end of the line.
fn delta_chunk<'a>(s: &mut Scan<'a>, seq: u64, turn: u64, step: u64) -> Option<DeltaLine<'a>> {
    let mut t = Scan { rest: s.rest };
    t.tag(br#"{"type":""#)?;
    let reasoning = if t.tag(br#"text-delta""#).is_some() {
        false
    } else {
        t.tag(br#"reasoning-delta""#)?;
        true
    };
    t.tag(br#","index":"#)?;
    let index = t.number::<u32>()?;
    t.tag(br#","text":"#)?;
    let text = t.string()?;
    if t.rest != b"}}}" {
        return None;
    }
    Some(DeltaLine {
        seq,
        turn,
        step,
        index,
        reasoning,
        text,
    })
}

/// What a [`DeltaLine`] means as `assistant/chunk` data (for the monitor's general path).
impl<'a> DeltaLine<'a> {
    pub(super) fn into_data(self) -> ChunkData<'a> {
        ChunkData {
            turn: Some(self.turn),
            step: Some(self.step),
            chunk: Some(RawChunk {
                kind: Cow::Borrowed(if self.reasoning {
                    "reasoning-delta"
                } else {
                    "text-delta"
                }),
                index: Some(self.index),
                block_type: None,
                text: Some(self.text),
                id: None,
                name: None,
                arguments_delta: None,
                block: None,
                usage: None,
                reason: None,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    const LINE: &str = r#"{"type":"assistant/chunk","seq":7,"time":1783000000008,"data":{"turn":1,"step":2,"chunk":{"type":"text-delta","index":0,"text":" can"}}}"#;

    fn delta(line: &[u8]) -> Option<DeltaLine<'_>> {
        match scan_chunk_line(line)? {
            FastLine::Delta(d) => Some(d),
            FastLine::Chunk { .. } => None,
        }
    }

    #[test]
    fn the_writers_shape_is_recognised() {
        let d = delta(LINE.as_bytes()).expect("the writer's shape");
        assert_eq!((d.seq, d.turn, d.step), (7, 1, 2));
        assert_eq!((d.reasoning, d.index), (false, 0));
        assert_eq!(&*d.text, " can");
        // A `time` fits an `i64` (issue 2 item 8's fast path takes what the general path
        // takes): 0, 18 digits, and 19 up to `i64::MAX`.
        for time in ["0", "999999999999999999", "9223372036854775807"] {
            let line = LINE.replace("1783000000008", time);
            assert!(delta(line.as_bytes()).is_some(), "{line}");
        }
        let escaped = LINE.replace(r#"" can""#, r#"" c\"a\u00e9n\n""#);
        let d = delta(escaped.as_bytes()).expect("escapes are decoded");
        assert_eq!(&*d.text, " c\"a\u{e9}n\n");
    }

    #[test]
    fn anything_else_takes_the_general_path() {
        for other in [
            LINE.replace(r#"" can""#, r#"" c\an""#),
            LINE.replace(r#"" can""#, r#"" c\ud800an""#),
            LINE.replace("\"seq\":7", "\"seq\":07"),
            LINE.replace("\"seq\":7", "\"seq\":-7"),
            LINE.replace("\"index\":0", "\"index\":4294967296"),
            LINE.replace("\"step\":2", "\"step\":2.0"),
            LINE.replace("\"time\":1783000000008", "\"time\":9223372036854775808"),
            LINE.replace("\"time\":1783000000008", "\"time\":01783000000008"),
            LINE.replace("\"time\":1783000000008", "\"time\":00"),
            LINE.replace("\"time\":1783000000008", "\"time\":10000000000000000000"),
            LINE.replace("\"time\":1783000000008", "\"time\":-1"),
            LINE.replace("\"time\":1783000000008", "\"time\":\"1\""),
            LINE.replace(" can", " c\u{1}an"),
            LINE.replace("}}}", "}} }"),
            format!("{LINE} "),
            LINE.replace("\"time\":", "\"time\":\"1\",\"x\":"),
            LINE.replace("}}}", "},\"type\":\"x\"}}"),
        ] {
            assert!(scan_chunk_line(other.as_bytes()).is_none(), "{other}");
        }
        let mut bad_utf8 = LINE.as_bytes().to_vec();
        let at = LINE.find(" can").expect("text") + 1;
        bad_utf8[at] = 0xff;
        assert!(scan_chunk_line(&bad_utf8).is_none());
    }

    /// A line the scanner accepts is valid JSON, with the same values serde_json reads.
    fn agrees_with_serde(line: &[u8]) -> Result<(), TestCaseError> {
        let Some(d) = delta(line) else {
            return Ok(());
        };
        let v: Value = serde_json::from_slice(line).map_err(|e| {
            TestCaseError::fail(format!(
                "accepted invalid JSON {e}: {}",
                String::from_utf8_lossy(line)
            ))
        })?;
        let kind = if d.reasoning {
            "reasoning-delta"
        } else {
            "text-delta"
        };
        prop_assert_eq!(v["type"].as_str(), Some("assistant/chunk"));
        prop_assert_eq!(v["seq"].as_u64(), Some(d.seq));
        prop_assert!(v["time"].as_i64().is_some());
        prop_assert_eq!(v["data"]["turn"].as_u64(), Some(d.turn));
        prop_assert_eq!(v["data"]["step"].as_u64(), Some(d.step));
        prop_assert_eq!(v["data"]["chunk"]["type"].as_str(), Some(kind));
        prop_assert_eq!(
            v["data"]["chunk"]["index"].as_u64(),
            Some(u64::from(d.index))
        );
        prop_assert_eq!(v["data"]["chunk"]["text"].as_str(), Some(&*d.text));
        prop_assert_eq!(v.as_object().map(|o| o.len()), Some(4));
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn accepted_lines_mean_the_same_to_serde_json(
            seq in any::<u64>(),
            turn in any::<u64>(),
            index in any::<u32>(),
            text in any::<String>(),
            reasoning in any::<bool>(),
            flip in any::<(usize, u8)>(),
        ) {
            let kind = if reasoning { "reasoning-delta" } else { "text-delta" };
            let line = serde_json::json!({
                "type": "assistant/chunk", "seq": seq, "time": 5,
                "data": {"turn": turn, "step": 1, "chunk": {"type": kind, "index": index, "text": text}}
            });
            // serde_json keeps the key order of `json!` only with `preserve_order`; write it.
            let text_json = serde_json::to_string(&text).expect("string");
            let written = format!(
                r#"{{"type":"assistant/chunk","seq":{seq},"time":5,"data":{{"turn":{turn},"step":1,"chunk":{{"type":"{kind}","index":{index},"text":{text_json}}}}}}}"#
            );
            let reread: Value = serde_json::from_str(&written).expect("written JSON");
            prop_assert_eq!(&reread, &line);
            // Integers of 20 digits are left to the general path.
            if seq < 10_000_000_000_000_000_000 && turn < 10_000_000_000_000_000_000 {
                prop_assert!(delta(written.as_bytes()).is_some(), "the writer's shape: {}", written);
            }
            agrees_with_serde(written.as_bytes())?;
            // The same line with one byte damaged: accepted only if it still agrees.
            let mut damaged = written.into_bytes();
            let at = flip.0 % damaged.len();
            damaged[at] = flip.1;
            agrees_with_serde(&damaged)?;
        }
    }
}
