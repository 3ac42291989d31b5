//! `serde_json`'s pretty layout (two spaces an indent) for a value nested in a document: the
//! formatter starts at the depth of the value's place, so that an item of a list is written
//! straight into the document, indented for its place, with no second pass over its text.

use serde_json::ser::Formatter;
use std::io;

/// Spaces written a slice at a time (16 levels); deeper levels take several slices.
const SPACES: &[u8; 32] = b"                                ";

/// A pretty-printing formatter whose outermost value sits at `depth` levels of two spaces:
/// its lines are indented as `serde_json::to_string_pretty` indents the same value at that
/// depth of a document (a line break and the indent before each element and key, `": "`
/// between a key and its value, `[]` and `{}` for empty lists and objects).
#[derive(Debug, Clone, Copy)]
pub struct Pretty {
    /// Levels of indentation of the lines inside the value being written.
    depth: usize,
    /// Whether the innermost open list or object has an element yet.
    has_value: bool,
}

impl Pretty {
    /// A formatter for a value placed at `depth` levels (1 for a value of the document's
    /// object, 2 for an item of one of its lists).
    pub fn at(depth: usize) -> Pretty {
        Pretty {
            depth,
            has_value: false,
        }
    }

    fn open<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            indent(w, self.depth)?;
        }
        w.write_all(bracket)
    }

    fn next<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        indent(w, self.depth)
    }
}

/// `depth` levels of two spaces.
fn indent<W: ?Sized + io::Write>(w: &mut W, depth: usize) -> io::Result<()> {
    let mut n = 2 * depth;
    while n > 0 {
        let k = n.min(SPACES.len());
        w.write_all(&SPACES[..k])?;
        n -= k;
    }
    Ok(())
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.next(w, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.next(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Pretty;
    use serde::Serialize;
    use serde_json::json;

    /// Issue 32 item 1 (the JSON document without `Value`s): a value written at depth 0 is
    /// what `serde_json::to_string_pretty` writes, and at depth `d` the same text with every
    /// line after the first indented by `d` levels, for nested, empty and deep values.
    #[test]
    fn a_value_at_a_depth_is_the_pretty_text_indented() {
        let mut deep = json!("core");
        for i in 0..20 {
            deep = if i % 2 == 0 {
                json!([deep, [], {}])
            } else {
                json!({ "k": deep, "e": [] })
            };
        }
        let values = [
            json!(1),
            json!("a\nb"),
            json!([]),
            json!({}),
            json!([[], [[]], {}, { "a": [] }]),
            json!({ "b": [1, 2, { "c": null }], "a": { "d": [true] } }),
            deep,
        ];
        for value in &values {
            let pretty = serde_json::to_string_pretty(value).expect("pretty");
            for depth in 0..20 {
                let mut out = Vec::new();
                let mut ser = serde_json::Serializer::with_formatter(&mut out, Pretty::at(depth));
                value.serialize(&mut ser).expect("written");
                let expected = pretty.replace('\n', &format!("\n{}", "  ".repeat(depth)));
                assert_eq!(String::from_utf8(out).expect("UTF-8"), expected, "{depth}");
            }
        }
    }
}
