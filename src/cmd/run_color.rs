//! Color for the human report of `mirrorless run` and `replay` (`--color`): the verdict words
//! only (`FAIL`, `WARN`, `PASS`, `conformant`, `NOT CONFORMANT`, `INCOMPLETE`) at the start of
//! a headline or after its `PROFILE: `, so text quoted from an implementation is never
//! painted and the uncolored report stays byte for byte what `render_human` wrote.

/// `text` (a human report) with its verdict words colored when `color`.
pub fn paint(text: &str, color: bool) -> String {
    if !color {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        out.push_str(&paint_line(line));
    }
    out
}

/// Verdict words and their SGR codes, longest first where one starts another.
const VERDICTS: [(&str, &str); 6] = [
    ("NOT CONFORMANT", "1;31"),
    ("INCOMPLETE", "1;33"),
    ("conformant", "1;32"),
    ("FAIL ", "1;31"),
    ("WARN ", "1;33"),
    ("PASS ", "32"),
];

fn paint_line(line: &str) -> String {
    // A headline starts with the verdict, or with `PROFILE: ` (a profile has no space).
    let start = match line.split_once(": ") {
        Some((profile, _))
            if !profile.is_empty() && !profile.contains(' ') && !line.starts_with(' ') =>
        {
            profile.len() + 2
        }
        _ => 0,
    };
    for at in [0, start] {
        let rest = &line[at..];
        for (word, code) in VERDICTS {
            if let Some(after) = rest.strip_prefix(word) {
                let word = word.trim_end();
                let gap = &rest[word.len()..rest.len() - after.len()];
                // `conformant` must be the whole word (not the start of another one).
                if word == "conformant" && !after.starts_with(' ') {
                    continue;
                }
                return format!("{}\x1b[{code}m{word}\x1b[0m{gap}{after}", &line[..at]);
            }
        }
    }
    line.to_owned()
}

#[cfg(test)]
mod tests {
    use super::paint;

    #[test]
    fn only_the_verdict_words_are_painted() {
        let report = "FAIL MIRROR-3 — No `turn/start` [2026-08]\n  MIRROR-3 at log #1: conformant NOT CONFORMANT\n2026-08: NOT CONFORMANT — 256 cases\n2026-07: conformant — 256 cases\nconformant — implementation reference\n";
        assert_eq!(
            paint(report, true),
            "\x1b[1;31mFAIL\x1b[0m MIRROR-3 — No `turn/start` [2026-08]\n  MIRROR-3 at log #1: conformant NOT CONFORMANT\n2026-08: \x1b[1;31mNOT CONFORMANT\x1b[0m — 256 cases\n2026-07: \x1b[1;32mconformant\x1b[0m — 256 cases\n\x1b[1;32mconformant\x1b[0m — implementation reference\n"
        );
    }

    #[test]
    fn without_color_the_report_is_unchanged() {
        let report = "FAIL X — y\nINCOMPLETE — implementation z\n";
        assert_eq!(paint(report, false), report);
        assert!(paint(report, true).contains("\x1b[1;33mINCOMPLETE\x1b[0m"));
    }
}
