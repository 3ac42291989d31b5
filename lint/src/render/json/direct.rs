//! A finding written straight into the document, without `serde`: the text
//! `FindingJson` serializes through [`super::Pretty`], byte for byte (issue 32 item 1: the
//! render ran on one thread after the run, and `serde_json`'s string escaping, which looks up
//! every byte in a table, was most of it). A string that needs no escape (tested eight bytes
//! at a time) is copied whole; one that does is escaped by `serde_json`. `json::tests` checks the documents against
//! `serde_json`'s serialization of the report's values, and `direct::tests` each finding
//! against its `serde` view.

use crate::model::{Edit, Finding, Fix, LineReplacement, TextRange};
use crate::render::path_bytes;

/// Spaces written a slice at a time.
const SPACES: &[u8; 32] = b"                                ";

/// An object being written: the depth of its keys' lines, and whether it has a key yet.
struct Object<'a> {
    out: &'a mut Vec<u8>,
    depth: usize,
    first: bool,
}

impl<'a> Object<'a> {
    /// Opens an object placed at `depth` (its keys one level deeper).
    fn open(out: &'a mut Vec<u8>, depth: usize) -> Self {
        out.push(b'{');
        Object {
            out,
            depth: depth + 1,
            first: true,
        }
    }

    /// Starts the entry `key` (a plain key: no character to escape); the value follows.
    fn key(&mut self, key: &str) -> &mut Vec<u8> {
        self.out
            .extend_from_slice(if self.first { b"\n" } else { b",\n" });
        self.first = false;
        indent(self.out, self.depth);
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\": ");
        self.out
    }

    fn number(&mut self, key: &str, n: usize) {
        number(self.key(key), n);
    }

    fn string(&mut self, key: &str, s: &str) {
        string(self.key(key), s);
    }

    /// The depth a value of this object is placed at.
    fn inner(&self) -> usize {
        self.depth
    }

    fn close(self) {
        if !self.first {
            self.out.push(b'\n');
            indent(self.out, self.depth - 1);
        }
        self.out.push(b'}');
    }
}

/// `depth` levels of two spaces.
fn indent(out: &mut Vec<u8>, depth: usize) {
    let mut n = 2 * depth;
    while n > 0 {
        let k = n.min(SPACES.len());
        out.extend_from_slice(&SPACES[..k]);
        n -= k;
    }
}

/// `n` in decimal.
fn number(out: &mut Vec<u8>, n: usize) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Whether any of the eight bytes of `w` is below 0x20, `"` or `\`.
fn needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The word tests "has a byte below n" (n <= 0x80) and "has a zero byte" (a byte equal
    // to the one compared with): never a false negative; a false positive only sends the
    // string to `serde_json`.
    let below = |n: u64| w.wrapping_sub(ONES * n) & !w & HIGH;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    below(0x20) != 0
        || zero(w ^ (ONES * u64::from(b'"'))) != 0
        || zero(w ^ (ONES * u64::from(b'\\'))) != 0
}

/// Whether `s` holds a byte a JSON string escapes: `"`, `\` or a C0 control.
fn any_escape(s: &str) -> bool {
    let mut words = s.as_bytes().chunks_exact(8);
    let found = words.by_ref().any(|w| {
        let mut word = [0u8; 8];
        word.copy_from_slice(w);
        needs_escape(u64::from_le_bytes(word))
    });
    found || (words.remainder().iter()).any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

/// `s` as a JSON string: copied whole between its quotes when nothing in it needs an escape
/// (most of a report's strings, tested eight bytes at a time), escaped by `serde_json`
/// otherwise.
fn string(out: &mut Vec<u8>, s: &str) {
    if any_escape(s) {
        // Writing a string to a `Vec` cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
        return;
    }
    out.reserve(s.len() + 2);
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
}

/// A value the `serde` way, at `depth` (the enums, a path's bytes).
fn serde_value<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, v: &T, depth: usize) {
    // Writing to a `Vec` fails only for a value that cannot be serialized; these can.
    let _ = super::value(out, v, depth);
}

/// The finding `f` as an item placed at `depth` of the document.
pub(super) fn finding(out: &mut Vec<u8>, f: &Finding, depth: usize) {
    let bytes = path_bytes(&f.path);
    let mut o = Object::open(out, depth);
    o.number("column", f.column);
    o.number("end_column", f.end_column);
    o.number("end_line", f.end_line);
    match &f.event {
        Some(e) => o.string("event", e),
        None => o.key("event").extend_from_slice(b"null"),
    }
    o.string("fingerprint", &f.fingerprint);
    if let Some(fix) = &f.fix {
        let at = o.inner();
        self::fix(o.key("fix"), fix, at);
    }
    o.string("help", &f.help);
    if f.human {
        o.key("human").extend_from_slice(b"true");
    }
    o.number("line", f.line);
    o.string("message", &f.message);
    if let Some(note) = &f.note {
        o.string("note", note);
    }
    o.string("path", &f.path);
    if let Some(bytes) = &bytes {
        let at = o.inner();
        serde_value(o.key("path_bytes"), bytes, at);
    }
    o.string("rule", f.rule);
    o.string("rule_name", f.rule_name);
    let at = o.inner();
    serde_value(o.key("severity"), &f.severity, at);
    o.close();
}

fn fix(out: &mut Vec<u8>, fix: &Fix, depth: usize) {
    let mut o = Object::open(out, depth);
    let at = o.inner();
    serde_value(o.key("applicability"), &fix.applicability, at);
    edits(o.key("edits"), &fix.edits, at);
    if let Some(lines) = &fix.lines {
        self::lines(o.key("lines"), lines, at);
    }
    o.string("message", &fix.message);
    o.close();
}

fn edits(out: &mut Vec<u8>, edits: &[Edit], depth: usize) {
    if edits.is_empty() {
        out.extend_from_slice(b"[]");
        return;
    }
    out.push(b'[');
    for (i, e) in edits.iter().enumerate() {
        out.extend_from_slice(if i == 0 { b"\n" } else { b",\n" });
        indent(out, depth + 1);
        edit(out, e, depth + 1);
    }
    out.push(b'\n');
    indent(out, depth);
    out.push(b']');
}

fn edit(out: &mut Vec<u8>, e: &Edit, depth: usize) {
    let mut o = Object::open(out, depth);
    o.number("end", e.end);
    let at = o.inner();
    range(o.key("range"), &e.range, at);
    o.string("replacement", &e.replacement);
    o.number("start", e.start);
    o.close();
}

fn range(out: &mut Vec<u8>, r: &TextRange, depth: usize) {
    let mut o = Object::open(out, depth);
    o.number("byte_column", r.byte_column);
    o.number("column", r.column);
    o.number("end_byte_column", r.end_byte_column);
    o.number("end_column", r.end_column);
    o.number("end_line", r.end_line);
    o.number("line", r.line);
    o.close();
}

fn lines(out: &mut Vec<u8>, l: &LineReplacement, depth: usize) {
    let mut o = Object::open(out, depth);
    o.number("end_line", l.end_line);
    o.number("line", l.line);
    o.string("text", &l.text);
    o.close();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 32 item 1: a string is escaped as `serde_json` escapes it, for every byte below
    /// 0x80 at every offset of an eight-byte word and around it, and for text beyond ASCII.
    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut texts: Vec<String> = Vec::new();
        for b in 0u8..0x80 {
            for at in 0..18 {
                let mut s = "abcdefghijklmnopq".to_owned();
                s.insert(at, char::from(b));
                texts.push(s);
            }
        }
        texts.extend(
            [
                "",
                "é😀\u{2028}\u{7f}\u{9b}",
                "ab\"\\\"cdefgh\n",
                "\u{1f}\u{0}",
            ]
            .map(String::from),
        );
        for s in &texts {
            let mut out = Vec::new();
            string(&mut out, s);
            let expected = serde_json::to_string(s).unwrap_or_default();
            assert_eq!(String::from_utf8_lossy(&out), expected, "{s:?}");
        }
        let mut out = Vec::new();
        for n in [0, 7, 10, 99, 12_345, usize::MAX] {
            out.clear();
            number(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }
}
