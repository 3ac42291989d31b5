//! JSON laid out for reading: indented like `to_string_pretty`, but an object or array whose
//! compact form fits on a line stays on one line (a chunk is one line, not five). It works on
//! the compact text `serde_json` writes, so the keys keep their struct order.

/// The longest compact rendering (after the indentation) kept on one line.
const LINE: usize = 100;

/// Lays out `compact` (JSON as `serde_json::to_string` writes it: no whitespace outside
/// strings) indented by two spaces per level, every object or array that fits in [`LINE`]
/// characters on one line. Text that is not such JSON is returned as it is.
pub fn layout(compact: &str) -> String {
    let b = compact.as_bytes();
    let mut out = String::with_capacity(compact.len() * 2);
    match value(b, 0, 0, &mut out) {
        Some(end) if end == b.len() => out,
        _ => compact.to_owned(),
    }
}

/// The end of the string starting at `i` (a `"`), past its closing quote.
fn string_end(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The end of the value starting at `i`.
fn value_end(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => string_end(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = string_end(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => Some(
            i + b[i..]
                .iter()
                .position(|c| matches!(c, b',' | b'}' | b']'))
                .unwrap_or(b.len() - i),
        ),
    }
}

/// Writes the value at `i`, returning where it ends.
fn value(b: &[u8], i: usize, depth: usize, out: &mut String) -> Option<usize> {
    let end = value_end(b, i)?;
    let text = std::str::from_utf8(&b[i..end]).ok()?;
    let open = b[i];
    if !matches!(open, b'{' | b'[') || text.chars().count() + depth * 2 <= LINE || end - i == 2 {
        out.push_str(text);
        return Some(end);
    }
    let close = if open == b'{' { '}' } else { ']' };
    let pad = "  ".repeat(depth + 1);
    out.push(char::from(open));
    out.push('\n');
    let mut j = i + 1;
    loop {
        out.push_str(&pad);
        if open == b'{' {
            let key_end = string_end(b, j)?;
            out.push_str(std::str::from_utf8(&b[j..key_end]).ok()?);
            out.push_str(": ");
            j = key_end + 1; // past ':'
        }
        j = value(b, j, depth + 1, out)?;
        match b.get(j)? {
            b',' => {
                out.push_str(",\n");
                j += 1;
            }
            _ => break,
        }
    }
    out.push('\n');
    out.push_str(&"  ".repeat(depth));
    out.push(close);
    Some(j + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_stay_on_one_line_and_the_json_is_the_same() {
        let long = "x".repeat(120);
        let compact = format!(
            r#"{{"calls":[{{"type":"text-delta","index":0,"text":"a,]\"}}"}},{{"text":"{long}"}}],"e":[]}}"#
        );
        let text = layout(&compact);
        assert_eq!(
            text,
            format!(
                "{{\n  \"calls\": [\n    {{\"type\":\"text-delta\",\"index\":0,\"text\":\"a,]\\\"}}\"}},\n    {{\n      \"text\": \"{long}\"\n    }}\n  ],\n  \"e\": []\n}}"
            )
        );
        let back: serde_json::Value = serde_json::from_str(&text).expect("still JSON");
        let want: serde_json::Value = serde_json::from_str(&compact).expect("JSON");
        assert_eq!(back, want);
    }

    #[test]
    fn text_that_is_not_compact_json_is_kept() {
        assert_eq!(layout("{\"a\":"), "{\"a\":");
        assert_eq!(layout("nope"), "nope");
    }
}
