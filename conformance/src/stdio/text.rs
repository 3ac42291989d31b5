//! Short renderings of protocol text for fault reports: previews of long lines, the tail of
//! stderr, durations and shell-quoted command lines. Shared by the driver and the schema
//! validator, so neither imports the other.

use std::time::Duration;

/// A duration in seconds as a person writes it (`1 s`, `1.5 s`).
pub(crate) fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s} s")
    }
}

/// At most `max` characters of `s`, with an ellipsis if cut.
pub(crate) fn preview(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// The last `max_bytes` bytes of `s` (fewer, to start on a character boundary).
pub(crate) fn tail_chars(s: &str, max_bytes: usize) -> &str {
    if s.len() <= max_bytes {
        return s;
    }
    let mut start = s.len() - max_bytes;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}

/// Quotes an argument for a POSIX shell when it needs it.
pub(crate) fn shell_quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_and_previews() {
        assert_eq!(shell_quote("python3"), "python3");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(preview("héllo", 2), "hé…");
        assert_eq!(tail_chars("aé", 1), "");
        assert_eq!(secs(Duration::from_millis(1500)), "1.5 s");
    }
}
