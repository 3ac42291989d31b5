//! A message's content as the one-pass reading reads it (`monitor/onepass.rs`): a text or
//! reasoning block written `{"type":"text","text":…}` (these two members, in this order) is
//! kept as its kind and its text, borrowed from the line when the text has no escape; any
//! other block is the `serde_json::Value` it reads as. MSG-3 compares a message's content with
//! the assembly of its chunks, so the writer's text blocks, nearly all of a message's bytes,
//! are compared where they lie instead of being copied into a `Value` first.
//!
//! Correct by construction: the blocks are read by the same serde_json deserializer on the same
//! bytes as `Vec<Value>` reads them; only the visitor differs, and it hands every value that
//! is not such a text block to `Value`'s own visitor (so numbers, nesting depth, keys named
//! twice and escapes are read as `Value` reads them, and what `Value` refuses fails this
//! reading too). The one member `Value` reads otherwise, serde_json's raw-value token as an
//! object's first key, fails this reading (the line is then read as before).

use super::values::Str;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, Deserialize, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::fmt;

/// The key serde_json's `Value` reads as a raw value when it is an object's first key
/// (`serde_json::raw::TOKEN`, private to serde_json; `raw_value` feature).
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// One block of a message's content.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ContentBlock<'a> {
    /// `{"type":"text"|"reasoning","text":"…"}`, exactly: the `Value` this stands for is
    /// `{"type": kind, "text": text}`.
    Text {
        /// `text` or `reasoning`.
        kind: &'static str,
        /// The text, decoded.
        text: Cow<'a, str>,
    },
    /// Any other block, as `Value` reads it.
    Value(Value),
}

impl ContentBlock<'_> {
    /// The block's `type`, `""` when it has none (as `assemble::block_type` reads a `Value`).
    pub(super) fn kind(&self) -> &str {
        match self {
            ContentBlock::Text { kind, .. } => kind,
            ContentBlock::Value(v) => v.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }

    /// The block's `text` when it is a string.
    pub(super) fn text(&self) -> Option<&str> {
        match self {
            ContentBlock::Text { text, .. } => Some(text),
            ContentBlock::Value(v) => v.get("text").and_then(Value::as_str),
        }
    }

    /// The block as a `Value` (built for a text block).
    pub(super) fn to_value(&self) -> Cow<'_, Value> {
        match self {
            ContentBlock::Text { kind, text } => {
                Cow::Owned(json!({"type": kind, "text": text.as_ref()}))
            }
            ContentBlock::Value(v) => Cow::Borrowed(v),
        }
    }

    /// The block as a `Value`, moved.
    pub(super) fn into_value(self) -> Value {
        match self {
            ContentBlock::Value(v) => v,
            text => text.to_value().into_owned(),
        }
    }
}

impl<'de> Deserialize<'de> for ContentBlock<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(BlockVisitor)
    }
}

/// A member's value: a string (borrowed when it can be), or any other value as `Value` reads
/// it.
enum Member<'a> {
    Str(Cow<'a, str>),
    Value(Value),
}

impl Member<'_> {
    /// The `Value` `Value`'s visitor builds from the same input (`visit_str` copies).
    fn into_value(self) -> Value {
        match self {
            Member::Str(s) => Value::String(s.into_owned()),
            Member::Value(v) => v,
        }
    }
}

impl<'de> Deserialize<'de> for Member<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(MemberVisitor)
    }
}

/// Reads a string as [`Member::Str`] and hands anything else to `Value`'s visitor.
struct MemberVisitor;

/// `Value` read from `d`, which gives `Value`'s visitor what it was given.
fn value<'de, D: Deserializer<'de>>(d: D) -> Result<Member<'de>, D::Error> {
    Value::deserialize(d).map(Member::Value)
}

impl<'de> Visitor<'de> for MemberVisitor {
    type Value = Member<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Member<'de>, E> {
        Ok(Member::Str(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Member<'de>, E> {
        Ok(Member::Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Member<'de>, E> {
        Ok(Member::Str(Cow::Owned(v)))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Member<'de>, E> {
        value(v.into_deserializer())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Member<'de>, E> {
        value(v.into_deserializer())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Member<'de>, E> {
        value(v.into_deserializer())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Member<'de>, E> {
        value(v.into_deserializer())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Member<'de>, E> {
        value(().into_deserializer())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Member<'de>, A::Error> {
        value(SeqAccessDeserializer::new(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Member<'de>, A::Error> {
        value(MapAccessDeserializer::new(map))
    }
}

/// Reads a text or reasoning block in the writer's shape as [`ContentBlock::Text`], and any
/// other value as `Value` reads it.
struct BlockVisitor;

impl<'de> Visitor<'de> for BlockVisitor {
    type Value = ContentBlock<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<ContentBlock<'de>, E> {
        MemberVisitor.visit_borrowed_str(v).map(block)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<ContentBlock<'de>, E> {
        MemberVisitor.visit_str(v).map(block)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<ContentBlock<'de>, E> {
        MemberVisitor.visit_string(v).map(block)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<ContentBlock<'de>, E> {
        MemberVisitor.visit_bool(v).map(block)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<ContentBlock<'de>, E> {
        MemberVisitor.visit_i64(v).map(block)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<ContentBlock<'de>, E> {
        MemberVisitor.visit_u64(v).map(block)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<ContentBlock<'de>, E> {
        MemberVisitor.visit_f64(v).map(block)
    }

    fn visit_unit<E: de::Error>(self) -> Result<ContentBlock<'de>, E> {
        MemberVisitor.visit_unit().map(block)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ContentBlock<'de>, A::Error> {
        MemberVisitor.visit_seq(seq).map(block)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ContentBlock<'de>, A::Error> {
        // The members read so far, in order, and the next key (its value still to be read).
        let mut read: Vec<(Cow<'de, str>, Member<'de>)> = Vec::new();
        let first = match map.next_key::<Str<'de>>()? {
            None => return Ok(ContentBlock::Value(Value::Object(Map::new()))),
            Some(Str(key)) if key == RAW_VALUE_TOKEN => {
                return Err(de::Error::custom("serde_json's raw value token as a key"));
            }
            Some(Str(key)) => key,
        };
        if first != "type" {
            return rest(map, read, Some(first));
        }
        let kind = map.next_value::<Member<'de>>()?;
        let kind_is = match &kind {
            Member::Str(k) if k == "text" => Some("text"),
            Member::Str(k) if k == "reasoning" => Some("reasoning"),
            _ => None,
        };
        read.push((first, kind));
        let next = map.next_key::<Str<'de>>()?.map(|k| k.0);
        let (Some(kind), Some(key)) = (kind_is, next.as_deref()) else {
            return rest(map, read, next);
        };
        if key != "text" {
            return rest(map, read, next);
        }
        let text = map.next_value::<Member<'de>>()?;
        let after = map.next_key::<Str<'de>>()?.map(|k| k.0);
        match (text, after) {
            (Member::Str(text), None) => Ok(ContentBlock::Text { kind, text }),
            (text, after) => {
                read.push((Cow::Borrowed("text"), text));
                rest(map, read, after)
            }
        }
    }
}

/// Any other object, as `Value`'s visitor builds it: the members `read` so far, then `pending`
/// (a key whose value is next) and the rest of `map`, each inserted in turn (the last of a key
/// named twice stays). `pending` is `None` only when `map` has no member left.
fn rest<'de, A: MapAccess<'de>>(
    mut map: A,
    read: Vec<(Cow<'de, str>, Member<'de>)>,
    pending: Option<Cow<'de, str>>,
) -> Result<ContentBlock<'de>, A::Error> {
    let mut object = Map::new();
    for (key, member) in read {
        object.insert(key.into_owned(), member.into_value());
    }
    if let Some(key) = pending {
        let member = map.next_value::<Value>()?;
        object.insert(key.into_owned(), member);
        while let Some((key, member)) = map.next_entry::<String, Value>()? {
            object.insert(key, member);
        }
    }
    Ok(ContentBlock::Value(Value::Object(object)))
}

/// A value that is not an object, as a block.
fn block(member: Member<'_>) -> ContentBlock<'_> {
    ContentBlock::Value(member.into_value())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A JSON value written in many ways: blocks in and out of the writer's shape, strings
    /// with escapes and unicode, numbers `Value` refuses, nesting, whitespace, keys reordered
    /// or named twice.
    fn json_text() -> impl Strategy<Value = String> {
        let string = prop_oneof![
            Just(r#""text""#.to_owned()),
            Just(r#""reasoning""#.to_owned()),
            Just(r#""tool-call""#.to_owned()),
            Just(r#""te\u0078t""#.to_owned()),
            Just(r#""a \"quoted\" line\n\t\\ \/ é 😀 \ud83d\ude00""#.to_owned()),
            Just(r#""\ud800""#.to_owned()),
            Just(r#""bad \q escape""#.to_owned()),
            Just("\"raw \u{1} control\"".to_owned()),
            Just(r#""""#.to_owned()),
            "[a-z ]{0,12}".prop_map(|s| format!("\"{s}\"")),
        ];
        let leaf = prop_oneof![
            4 => string.clone(),
            1 => Just("null".to_owned()),
            1 => Just("true".to_owned()),
            1 => Just("-12".to_owned()),
            1 => Just("18446744073709551616".to_owned()),
            1 => Just("1.5e3".to_owned()),
            1 => Just("1e400".to_owned()),
            1 => Just("01".to_owned()),
        ];
        let key = prop_oneof![
            4 => Just(r#""type""#.to_owned()),
            4 => Just(r#""text""#.to_owned()),
            1 => Just(r#""t\u0065xt""#.to_owned()),
            1 => Just(r#""id""#.to_owned()),
            1 => Just(format!("\"{RAW_VALUE_TOKEN}\"")),
            1 => Just("5".to_owned()),
        ];
        let space = prop_oneof![4 => Just(""), 1 => Just(" "), 1 => Just("\n\t ")];
        leaf.prop_recursive(4, 24, 4, move |inner| {
            prop_oneof![
                prop::collection::vec((key.clone(), inner.clone(), space.clone()), 0..4).prop_map(
                    |members| {
                        let members: Vec<String> = members
                            .iter()
                            .map(|(k, v, s)| format!("{s}{k}{s}:{s}{v}{s}"))
                            .collect();
                        format!("{{{}}}", members.join(","))
                    }
                ),
                prop::collection::vec(inner, 0..3)
                    .prop_map(|items| format!("[{}]", items.join(","))),
            ]
        })
    }

    /// A content array of generated blocks, the writer's text blocks among them.
    fn content_text() -> impl Strategy<Value = String> {
        let writers = prop_oneof![
            Just(r#"{"type":"text","text":"hi"}"#.to_owned()),
            Just(r#"{"type":"reasoning","text":" the loop é"}"#.to_owned()),
            Just(r#"{"type":"text","text":"a \"b\"\n\u00e9"}"#.to_owned()),
            Just(r#"{"type":"text","text":""}"#.to_owned()),
            Just(r#"{"type":"text","text":"x","text":"y"}"#.to_owned()),
            Just(r#"{"type":"text","type":"reasoning","text":"x"}"#.to_owned()),
            Just(r#"{"type":"text","text":5}"#.to_owned()),
            Just(r#"{"text":"x","type":"text"}"#.to_owned()),
            Just(r#"{ "type" : "text" , "text" : "x" }"#.to_owned()),
            Just(r#"{"type":"text"}"#.to_owned()),
            Just(r#"{"type":"text","text":"x","other":[1e400]}"#.to_owned()),
        ];
        prop::collection::vec(prop_oneof![writers, json_text()], 0..5)
            .prop_map(|blocks| format!("[{}]", blocks.join(",")))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4096, failure_persistence: None, ..ProptestConfig::default() })]

        /// Issue #32 item 4 ("without building a parse tree … byte-identical reports"): the
        /// content read as [`ContentBlock`]s stands for exactly the `Value`s serde_json reads,
        /// and fails only where that reading fails (or on serde_json's raw-value token).
        #[test]
        fn content_blocks_read_as_the_values_serde_json_reads(text in content_text()) {
            let values = serde_json::from_str::<Vec<Value>>(&text);
            let blocks = serde_json::from_str::<Vec<ContentBlock<'_>>>(&text);
            match (values, blocks) {
                (Ok(values), Ok(blocks)) => {
                    prop_assert_eq!(values.len(), blocks.len());
                    for (v, b) in values.iter().zip(&blocks) {
                        let built = b.to_value();
                        prop_assert_eq!(v, built.as_ref(), "{}", text);
                        prop_assert_eq!(v, &b.clone().into_value());
                        prop_assert_eq!(v.get("type").and_then(Value::as_str).unwrap_or(""), b.kind());
                        prop_assert_eq!(v.get("text").and_then(Value::as_str), b.text());
                    }
                }
                (Err(_), Err(_)) => {}
                (Ok(_), Err(e)) => prop_assert!(text.contains(RAW_VALUE_TOKEN), "{text}: {e}"),
                (Err(e), Ok(_)) => prop_assert!(false, "{text}: Value refuses it ({e}), the blocks read it"),
            }
        }
    }

    /// The writer's text blocks are read as text, borrowed when there is no escape (else the
    /// property above would compare `Value` with itself).
    #[test]
    fn the_writers_text_blocks_are_read_in_place() {
        let text = r#"[{"type":"text","text":"hi"},{"type":"reasoning","text":"a\nb"},{"type":"tool-call","id":"c"}]"#;
        let blocks: Vec<ContentBlock<'_>> = serde_json::from_str(text).expect("content");
        assert!(matches!(
            &blocks[0],
            ContentBlock::Text {
                kind: "text",
                text: Cow::Borrowed("hi")
            }
        ));
        assert!(matches!(
            &blocks[1],
            ContentBlock::Text { kind: "reasoning", text: Cow::Owned(t) } if t == "a\nb"
        ));
        assert!(matches!(&blocks[2], ContentBlock::Value(_)));
    }
}
