//! Small helpers over raw JSON values and message text, shared by the reader, the monitor and
//! the assembler (they sit below all three, so none of them imports another for these).

use serde_json::Value;
use serde_json::value::RawValue;

/// Parses a raw JSON value as a non-negative integer.
pub(super) fn parse_u64(raw: &RawValue) -> Option<u64> {
    raw.get().parse::<u64>().ok()
}

/// Parses `sourceEventSeqs`: seqs, where an element may also be an inclusive `[start, end]`
/// range (the compact encoding some writers use for long chunk runs).
pub(super) fn parse_seqs(raw: &RawValue) -> Option<Vec<u64>> {
    /// A range longer than this is not a real chunk run; refuse it rather than allocate.
    const MAX_RANGE: u64 = 1 << 24;
    let items: Vec<Value> = serde_json::from_str(raw.get()).ok()?;
    let mut out = Vec::with_capacity(items.len());
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
