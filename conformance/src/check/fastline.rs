//! The fastest path of the reader: a text or reasoning delta line in the exact shape the
//! upstream writer produces, recognised by a byte scanner instead of a JSON parser.
//!
//! Such lines are most of every log (one per token), and they all look alike:
//!
//! ```text
//! {"type":"assistant/chunk","seq":7,"time":1783000000008,"data":{"turn":1,"step":1,"chunk":{"type":"text-delta","index":0,"text":" can"}}}
//! ```
//!
//! [`scan_delta_line`] accepts a line only if it is exactly that shape (these keys in this
//! order, integers without sign, fraction, exponent or leading zero, a text without escapes or
//! control characters, valid UTF-8, nothing after the last brace): such a line is valid JSON
//! and means the same to every JSON reader. Anything else returns `None` and takes the
//! general path, which parses and reports it; so the scanner can only be faster, never
//! different (a property test in this file compares it with serde_json).

use super::event::{ChunkData, RawChunk};
use std::borrow::Cow;

/// The fields of a delta line the monitor needs.
pub(super) struct DeltaLine<'a> {
    pub seq: u64,
    /// The digits of `time`, as written.
    pub time: &'a str,
    pub data: ChunkData<'a>,
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

    /// A JSON non-negative integer without leading zeros, as its digit bytes.
    fn digit_bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.rest.iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 || (n > 1 && self.rest[0] == b'0') {
            return None;
        }
        let (digits, rest) = self.rest.split_at(n);
        self.rest = rest;
        Some(digits)
    }

    /// A JSON non-negative integer without leading zeros, as its digits.
    fn digits(&mut self) -> Option<&'a str> {
        // ASCII digits are UTF-8.
        std::str::from_utf8(self.digit_bytes()?).ok()
    }

    /// A JSON non-negative integer that fits `T` (accumulated while scanning: no second pass,
    /// and no UTF-8 check of digits it has already seen are ASCII).
    fn number<T: TryFrom<u64>>(&mut self) -> Option<T> {
        let mut n: u64 = 0;
        for &d in self.digit_bytes()? {
            n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        }
        T::try_from(n).ok()
    }

    /// The body of a string up to its closing quote, when it needs no unescaping.
    fn plain_string(&mut self) -> Option<&'a str> {
        let end = memchr::memchr3(b'"', b'\\', b'\n', self.rest)?;
        if self.rest[end] != b'"' {
            return None;
        }
        let (body, rest) = self.rest.split_at(end);
        if body.iter().any(|&b| b < 0x20) {
            return None;
        }
        self.rest = &rest[1..];
        std::str::from_utf8(body).ok()
    }
}

/// Recognises a text or reasoning delta line in the writer's exact shape (see the module
/// documentation); `None` sends the line to the general path.
pub(super) fn scan_delta_line(line: &[u8]) -> Option<DeltaLine<'_>> {
    let mut s = Scan { rest: line };
    s.tag(br#"{"type":"assistant/chunk","seq":"#)?;
    let seq = s.number::<u64>()?;
    s.tag(br#","time":"#)?;
    let time = s.digits()?;
    s.tag(br#","data":{"turn":"#)?;
    let turn = s.number::<u64>()?;
    s.tag(br#","step":"#)?;
    let step = s.number::<u64>()?;
    s.tag(br#","chunk":{"type":""#)?;
    let kind = if s.tag(br#"text-delta""#).is_some() {
        "text-delta"
    } else {
        s.tag(br#"reasoning-delta""#)?;
        "reasoning-delta"
    };
    s.tag(br#","index":"#)?;
    let index = s.number::<u32>()?;
    s.tag(br#","text":""#)?;
    let text = s.plain_string()?;
    s.tag(b"}}}")?;
    if !s.rest.is_empty() {
        return None;
    }
    Some(DeltaLine {
        seq,
        time,
        data: ChunkData {
            turn: Some(turn),
            step: Some(step),
            chunk: Some(RawChunk {
                kind: Cow::Borrowed(kind),
                index: Some(index),
                block_type: None,
                text: Some(Cow::Borrowed(text)),
                id: None,
                name: None,
                arguments_delta: None,
                block: None,
                usage: None,
                reason: None,
            }),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    const LINE: &str = r#"{"type":"assistant/chunk","seq":7,"time":1783000000008,"data":{"turn":1,"step":2,"chunk":{"type":"text-delta","index":0,"text":" can"}}}"#;

    #[test]
    fn the_writers_shape_is_recognised() {
        let d = scan_delta_line(LINE.as_bytes()).expect("the writer's shape");
        assert_eq!((d.seq, d.time), (7, "1783000000008"));
        assert_eq!((d.data.turn, d.data.step), (Some(1), Some(2)));
        let chunk = d.data.chunk.expect("chunk");
        assert_eq!((&*chunk.kind, chunk.index), ("text-delta", Some(0)));
        assert_eq!(chunk.text.as_deref(), Some(" can"));
    }

    #[test]
    fn anything_else_takes_the_general_path() {
        for other in [
            LINE.replace(r#"" can""#, r#"" c\"an""#),
            LINE.replace("\"seq\":7", "\"seq\":07"),
            LINE.replace("\"seq\":7", "\"seq\":-7"),
            LINE.replace("\"index\":0", "\"index\":4294967296"),
            LINE.replace("\"step\":2", "\"step\":2.0"),
            LINE.replace(" can", " c\u{1}an"),
            LINE.replace("}}}", "}} }"),
            format!("{LINE} "),
            LINE.replace("\"time\":", "\"time\":\"1\",\"x\":"),
            LINE.replace("}}}", "},\"type\":\"x\"}}"),
        ] {
            assert!(scan_delta_line(other.as_bytes()).is_none(), "{other}");
        }
        let mut bad_utf8 = LINE.as_bytes().to_vec();
        let at = LINE.find(" can").expect("text") + 1;
        bad_utf8[at] = 0xff;
        assert!(scan_delta_line(&bad_utf8).is_none());
    }

    /// A line the scanner accepts is valid JSON, with the same values serde_json reads.
    fn agrees_with_serde(line: &[u8]) -> Result<(), TestCaseError> {
        let Some(d) = scan_delta_line(line) else {
            return Ok(());
        };
        let v: Value = serde_json::from_slice(line).map_err(|e| {
            TestCaseError::fail(format!(
                "accepted invalid JSON {e}: {}",
                String::from_utf8_lossy(line)
            ))
        })?;
        let chunk = d.data.chunk.as_ref().expect("chunk");
        prop_assert_eq!(v["type"].as_str(), Some("assistant/chunk"));
        prop_assert_eq!(v["seq"].as_u64(), Some(d.seq));
        prop_assert_eq!(v["time"].to_string(), d.time);
        prop_assert_eq!(v["data"]["turn"].as_u64(), d.data.turn);
        prop_assert_eq!(v["data"]["step"].as_u64(), d.data.step);
        prop_assert_eq!(v["data"]["chunk"]["type"].as_str(), Some(&*chunk.kind));
        prop_assert_eq!(
            v["data"]["chunk"]["index"].as_u64(),
            chunk.index.map(u64::from)
        );
        prop_assert_eq!(v["data"]["chunk"]["text"].as_str(), chunk.text.as_deref());
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
            agrees_with_serde(written.as_bytes())?;
            // The same line with one byte damaged: accepted only if it still agrees.
            let mut damaged = written.into_bytes();
            let at = flip.0 % damaged.len();
            damaged[at] = flip.1;
            agrees_with_serde(&damaged)?;
        }
    }
}
