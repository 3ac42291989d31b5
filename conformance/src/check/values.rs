//! Small helpers over raw JSON values and message text, shared by the reader, the monitor and
//! the assembler (they sit below all three, so none of them imports another for these).

use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// Parses a raw JSON value as a non-negative integer.
pub(super) fn parse_u64(raw: &RawValue) -> Option<u64> {
    raw.get().parse::<u64>().ok()
}

/// A string borrowed from the input when it has no escape (serde's `Cow<str>` always copies):
/// read as `String` reads it (`deserialize_str`, an error expecting "a string"), without the
/// copy.
pub(super) struct Str<'a>(pub(super) Cow<'a, str>);

impl<'de> Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_str(StrVisitor)
    }
}

struct StrVisitor;

impl<'de> Visitor<'de> for StrVisitor {
    type Value = Str<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Str<'de>, E> {
        Ok(Str(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Str<'de>, E> {
        Ok(Str(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Str<'de>, E> {
        Ok(Str(Cow::Owned(v)))
    }
}

/// Parses `sourceEventSeqs`: seqs, where an element may also be an inclusive `[start, end]`
/// range (the compact encoding some writers use for long chunk runs).
pub(super) fn parse_seqs(raw: &RawValue) -> Option<Vec<u64>> {
    // The writer's shape, plain integers between commas, is read by bytes; anything else
    // (ranges, spaces, other numbers) by serde_json. Either way straight into the seqs, without
    // a `Value` per element (one citation per message, each listing every chunk of its call).
    // `None` for anything but integers and pairs.
    if let Some(seqs) = plain_seqs(raw.get().as_bytes()) {
        return Some(seqs);
    }
    serde_json::from_str::<Seqs>(raw.get()).ok().map(|s| s.0)
}

/// A JSON array of plain integers between commas, without spaces (`[1,2,3]`), read by bytes;
/// `None` for any other text, which serde_json then reads (and may still accept).
fn plain_seqs(text: &[u8]) -> Option<Vec<u64>> {
    let rest = text.strip_prefix(b"[")?.strip_suffix(b"]")?;
    // At most one seq per two bytes.
    let mut out = Vec::with_capacity((rest.len() / 2 + 1).min(4096));
    if rest.is_empty() {
        return Some(out);
    }
    // One loop over the bytes (a citation lists every chunk of its call): the digits of a
    // seq, then a comma or the end. A seq is what `leading_u64` reads: digits without a
    // leading zero, at most 19 of them (no overflow: the product is wrapping, and a longer
    // run is refused).
    let mut i = 0;
    loop {
        let start = i;
        let mut n: u64 = 0;
        while let Some(&b) = rest.get(i) {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            n = n.wrapping_mul(10).wrapping_add(u64::from(d));
            i += 1;
        }
        let len = i - start;
        if len == 0 || len > 19 || (len > 1 && rest[start] == b'0') {
            return None;
        }
        out.push(n);
        match rest.get(i) {
            None => return Some(out),
            Some(b',') => i += 1,
            Some(_) => return None,
        }
    }
}

/// The non-negative JSON integer `bytes` start with, and its length in bytes: digits without a
/// leading zero, at most 19 of them (so it fits a `u64` without an overflow check; a longer
/// one is `None`, for the caller's general path).
pub(super) fn leading_u64(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut n: u64 = 0;
    let mut len = 0;
    for &b in bytes.iter().take(20) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        n = n.wrapping_mul(10).wrapping_add(u64::from(d));
        len += 1;
    }
    let leading_zero = len > 1 && bytes[0] == b'0';
    (len > 0 && len <= 19 && !leading_zero).then_some((n, len))
}

/// A range longer than this is not a real chunk run; refuse it rather than allocate.
const MAX_RANGE: u64 = 1 << 24;

/// `sourceEventSeqs`, expanded.
struct Seqs(Vec<u64>);

impl<'de> Deserialize<'de> for Seqs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SeqsVisitor)
    }
}

/// Only a JSON array is a seq list.
struct SeqsVisitor;

impl<'de> Visitor<'de> for SeqsVisitor {
    type Value = Seqs;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of seqs and [start, end] ranges")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Seqs, A::Error> {
        let mut out = Vec::with_capacity(items.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = items.next_element::<SeqItem>()? {
            match item {
                SeqItem::One(n) => out.push(n),
                SeqItem::Range(a, b) => {
                    if b < a || b - a > MAX_RANGE {
                        return Err(de::Error::custom("not a chunk range"));
                    }
                    out.extend(a..=b);
                }
            }
        }
        Ok(Seqs(out))
    }
}

/// One element: a non-negative integer, or a pair of them.
enum SeqItem {
    One(u64),
    Range(u64, u64),
}

impl<'de> Deserialize<'de> for SeqItem {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SeqItemVisitor)
    }
}

/// Accepts what `Value::as_u64` accepts (a negative, fractional or too large number is not a
/// seq), and an array of exactly two such numbers.
struct SeqItemVisitor;

impl<'de> Visitor<'de> for SeqItemVisitor {
    type Value = SeqItem;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a seq or a [start, end] range")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<SeqItem, E> {
        Ok(SeqItem::One(n))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut pair: A) -> Result<SeqItem, A::Error> {
        let a = pair.next_element::<Seq>()?;
        let b = pair.next_element::<Seq>()?;
        let more = pair.next_element::<de::IgnoredAny>()?;
        match (a, b, more) {
            (Some(Seq(a)), Some(Seq(b)), None) => Ok(SeqItem::Range(a, b)),
            _ => Err(de::Error::custom("a range is a pair")),
        }
    }
}

/// A non-negative integer only (not a nested array).
struct Seq(u64);

impl<'de> Deserialize<'de> for Seq {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match SeqItem::deserialize(d)? {
            SeqItem::One(n) => Ok(Seq(n)),
            SeqItem::Range(..) => Err(de::Error::custom("a range bound is a seq")),
        }
    }
}

/// A seq list for a message (long lists are cut after a dozen).
pub(super) fn seq_list(seqs: &[u64]) -> String {
    const MAX: usize = 12;
    if seqs.len() <= MAX {
        format!("{seqs:?}")
    } else {
        let head: Vec<String> = seqs[..MAX].iter().map(u64::to_string).collect();
        format!("[{}, … ({} seqs)]", head.join(", "), seqs.len())
    }
}

/// Whether two different texts are permutations of each other (reordered deltas).
pub(super) fn same_characters(a: &str, b: &str) -> bool {
    if a.len() != b.len() || a == b {
        return false;
    }
    let mut x: Vec<char> = a.chars().collect();
    let mut y: Vec<char> = b.chars().collect();
    x.sort_unstable();
    y.sort_unstable();
    x == y
}

/// Shortens `s` for a message.
pub(super) fn clip(s: &str) -> String {
    const MAX: usize = 80;
    if s.len() <= MAX {
        return s.to_owned();
    }
    let mut end = MAX;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::Value;

    /// The reading `parse_seqs` replaced: through `Value`s.
    fn through_values(raw: &str) -> Option<Vec<u64>> {
        let items: Vec<Value> = serde_json::from_str(raw).ok()?;
        let mut out = Vec::new();
        for item in items {
            match item {
                Value::Number(n) => out.push(n.as_u64()?),
                Value::Array(pair) if pair.len() == 2 => {
                    let (a, b) = (pair[0].as_u64()?, pair[1].as_u64()?);
                    if b < a || b - a > MAX_RANGE {
                        return None;
                    }
                    out.extend(a..=b);
                }
                _ => return None,
            }
        }
        Some(out)
    }

    fn parse(text: &str) -> Option<Vec<u64>> {
        let raw: Box<RawValue> = serde_json::from_str(text).expect("valid JSON");
        parse_seqs(&raw)
    }

    #[test]
    fn seqs_and_ranges() {
        assert_eq!(parse("[1, [3, 5], 9]"), Some(vec![1, 3, 4, 5, 9]));
        assert_eq!(parse("[]"), Some(vec![]));
        assert_eq!(parse("[0,7,10]"), Some(vec![0, 7, 10]));
        assert_eq!(
            parse("[9999999999999999999,18446744073709551615]"),
            Some(vec![9_999_999_999_999_999_999, u64::MAX])
        );
        assert_eq!(leading_u64(b"12,"), Some((12, 2)));
        for not_plain in [&b"[1,]"[..], b"[,1]", b"[01]", b"[1 2]", b"[ 1]", b"[1e0]"] {
            assert_eq!(plain_seqs(not_plain), None);
        }
        assert_eq!(leading_u64(b"10000000000000000000"), None);
        for bad in [
            "[-1]",
            "[1.0]",
            "[-0]",
            "[1e2]",
            "[18446744073709551616]",
            "[[1]]",
            "[[1,2,3]]",
            "[[5,3]]",
            "[[0,16777217]]",
            "[[1,[2]]]",
            "[\"1\"]",
            "[null]",
            "{}",
            "3",
            "[{}]",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
            assert_eq!(through_values(bad), None, "{bad}");
        }
    }

    /// A JSON value made of the pieces a seq list is made of, and some that it is not.
    fn piece() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            any::<u64>().prop_map(|n| n.to_string()),
            (0u64..50).prop_map(|n| n.to_string()),
            any::<i64>().prop_map(|n| n.to_string()),
            Just("1.5".to_owned()),
            Just("-0".to_owned()),
            Just("1234567890123456789".to_owned()),
            Just("12345678901234567890".to_owned()),
            Just("2e3".to_owned()),
            Just("18446744073709551616".to_owned()),
            Just("null".to_owned()),
            Just("\"7\"".to_owned()),
            Just("{}".to_owned()),
        ];
        leaf.prop_recursive(3, 12, 4, |inner| {
            prop::collection::vec(inner, 0..4).prop_map(|v| format!("[{}]", v.join(",")))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn the_same_as_through_values(items in prop::collection::vec(piece(), 0..6)) {
            // Issue #32 item 4: the byte reading of plain lists agrees with serde_json's.
            for sep in [",", ", "] {
                let text = format!("[{}]", items.join(sep));
                prop_assert_eq!(parse(&text), through_values(&text), "{}", text);
            }
        }
    }
}
