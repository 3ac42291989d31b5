//! Baselines: accept today's findings, fail only new ones, report stale entries.
//!
//! An entry is keyed by path, rule and the finding's content fingerprint (rule, event,
//! whitespace-free line text and occurrence index, never the line number), so findings that
//! only moved survive. Matching is a multiset match: two identical findings need two
//! entries.

use crate::hash::HashMap;
use crate::model::Finding;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Format version written to and required from baseline files.
pub const BASELINE_VERSION: u32 = 1;

/// A baseline file.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// Always [`BASELINE_VERSION`].
    pub version: u32,
    /// The accepted findings.
    pub findings: Vec<Entry>,
}

/// One accepted finding.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Rule ID.
    pub rule: String,
    /// The removed event, when the rule has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The file (as reported).
    pub path: String,
    /// The finding's fingerprint.
    pub fingerprint: String,
    /// Line when the baseline was written (informational only; not used for matching).
    pub line: usize,
    /// Message when the baseline was written (informational only).
    pub message: String,
}

/// The largest baseline read (about a million findings).
const MAX_BASELINE_BYTES: u64 = 256 << 20;

/// `Ok` when `path` is absent, empty, or holds a baseline document (a JSON object with a
/// `version` and a `findings` list); otherwise the error that refuses to replace it.
fn replaceable(path: &Path) -> Result<(), String> {
    let refuse = |what: &str| {
        Err(format!(
            "refusing to write a baseline over {}: it is {what}, not a mirrorless baseline; name a new file (e.g. lint-baseline.json) or remove it first",
            path.display()
        ))
    };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot write baseline {}: {e}", path.display())),
        Ok(m) if m.is_dir() => return refuse("a directory"),
        Ok(m) if m.len() == 0 => return Ok(()),
        Ok(_) => {}
    }
    let Ok(text) = crate::config::read_capped(path, MAX_BASELINE_BYTES, "baseline") else {
        return refuse("not readable as a baseline");
    };
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(v) if v.get("version").is_some() && v.get("findings").is_some_and(|f| f.is_array()) => {
            Ok(())
        }
        Ok(_) => refuse("JSON of another kind"),
        Err(_) => refuse("not JSON"),
    }
}

impl Baseline {
    /// A baseline accepting exactly `findings`.
    pub fn from_findings(findings: &[Finding]) -> Baseline {
        Baseline {
            version: BASELINE_VERSION,
            findings: findings
                .iter()
                .map(|f| Entry {
                    rule: f.rule.to_owned(),
                    event: f.event.clone(),
                    path: f.path.clone(),
                    fingerprint: f.fingerprint.clone(),
                    line: f.line,
                    message: f.message.clone(),
                })
                .collect(),
        }
    }

    /// Reads a baseline file (at most 256 MiB). A missing or malformed file is an error, never an empty
    /// baseline.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = crate::config::read_capped(path, MAX_BASELINE_BYTES, "baseline")?;
        let b: Baseline = serde_json::from_str(&text)
            .map_err(|e| format!("invalid baseline {}: {e}", path.display()))?;
        if b.version != BASELINE_VERSION {
            return Err(format!(
                "baseline {} has version {}, this mirrorless reads version {BASELINE_VERSION}",
                path.display(),
                b.version
            ));
        }
        Ok(b)
    }

    /// Writes the baseline as pretty JSON. An existing file is replaced only when it is empty or
    /// a baseline (of any version): a source file named by mistake (`--write-baseline src/app.ts`,
    /// or a file name read as the option) is refused, never overwritten.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        replaceable(path)?;
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| format!("cannot serialize baseline: {e}"))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("cannot write baseline {}: {e}", path.display()))
    }

    /// Removes every finding the baseline accepts. `key` maps a finding path to the form
    /// used for matching (identity for a baseline file; repository-relative for
    /// `--new-since`). Returns the number of findings removed and the entries that matched
    /// nothing (stale).
    pub fn apply(
        &self,
        findings: &mut Vec<Finding>,
        key: impl Fn(&str) -> String,
    ) -> (usize, Vec<Entry>) {
        let mut pool: HashMap<(String, String, String), Vec<&Entry>> = HashMap::default();
        for e in &self.findings {
            pool.entry((key(&e.path), e.rule.clone(), e.fingerprint.clone()))
                .or_default()
                .push(e);
        }
        let before = findings.len();
        findings.retain(|f| {
            let k = (key(&f.path), f.rule.to_owned(), f.fingerprint.clone());
            match pool.get_mut(&k) {
                Some(list) if !list.is_empty() => {
                    list.pop();
                    false
                }
                _ => true,
            }
        });
        let mut stale: Vec<Entry> = pool.into_values().flatten().cloned().collect();
        stale.sort_by(|a, b| (&a.path, a.line, &a.rule).cmp(&(&b.path, b.line, &b.rule)));
        (before - findings.len(), stale)
    }
}

/// The frozen fingerprint function: FNV-1a (64 bit) over `v1`, rule, event, the start line
/// without whitespace, and the occurrence index of that tuple in the file.
pub fn fingerprint(rule: &str, event: &str, line_text: &str, index: usize) -> String {
    FingerprintPrefix::new(rule, event, &without_white_space(line_text)).with_index(index)
}

/// A [`fingerprint`] but for its occurrence index: what the findings of one rule and event on
/// one line share. The linter hashes each such line once, for all its findings, and keys the
/// count of repeats on the same stripped line.
#[derive(Debug, Clone, Copy)]
pub struct FingerprintPrefix(u64);

impl FingerprintPrefix {
    /// The hash of `v1`, `rule`, `event` and the line already stripped of its white space
    /// ([`without_white_space`]).
    pub fn new(rule: &str, event: &str, stripped: &str) -> Self {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.field(b"v1");
        h.field(rule.as_bytes());
        h.field(event.as_bytes());
        h.field(stripped.as_bytes());
        FingerprintPrefix(h.0)
    }

    /// The fingerprint of the `index`th finding with this prefix in its file.
    pub fn with_index(self, index: usize) -> String {
        let mut h = Fnv(self.0);
        h.field(itoa::Buffer::new().format(index).as_bytes());
        format!("{:016x}", h.0)
    }
}

/// `text` without its white space (`char::is_whitespace`), as [`fingerprint`] hashes it.
pub fn without_white_space(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for_each_unblank_run(text, |run| out.push_str(run));
    out
}

/// Calls `eat` with each run of `text` between white-space characters, in order: bytes are
/// read, and a character decoded only when it is not ASCII (a line is mostly ASCII, and a
/// character by character filter cost most of a finding's fingerprint).
fn for_each_unblank_run<'t>(text: &'t str, mut eat: impl FnMut(&'t str)) {
    let bytes = text.as_bytes();
    let (mut run, mut i) = (0, 0);
    while i < bytes.len() {
        let b = bytes[i];
        let (len, white) = if b.is_ascii() {
            (1, char::from(b).is_whitespace())
        } else {
            // `i` is a character boundary: runs of ASCII and whole characters lead to it.
            match text.get(i..).and_then(|rest| rest.chars().next()) {
                Some(c) => (c.len_utf8(), c.is_whitespace()),
                None => (1, false),
            }
        };
        if white {
            if run < i {
                // Runs end at character boundaries (before and after a white-space character).
                eat(&text[run..i]);
            }
            run = i + len;
        }
        i += len;
    }
    if run < bytes.len() {
        eat(&text[run..]);
    }
}

/// FNV-1a (64 bit), each field ended by a 0xff byte.
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn end_field(&mut self) {
        self.bytes(&[0xff]);
    }

    fn field(&mut self, bytes: &[u8]) {
        self.bytes(bytes);
        self.end_field();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fingerprint as first written (the line's non-white characters collected into a
    /// string, then hashed char by char): fingerprints are frozen, so the one that strips the
    /// line by runs and hashes it through [`FingerprintPrefix`] must give the same on every
    /// line.
    fn fingerprint_reference(rule: &str, event: &str, line_text: &str, index: usize) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            h ^= 0xff;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        eat(b"v1");
        eat(rule.as_bytes());
        eat(event.as_bytes());
        let normalized: String = line_text.chars().filter(|c| !c.is_whitespace()).collect();
        eat(normalized.as_bytes());
        eat(index.to_string().as_bytes());
        format!("{h:016x}")
    }

    #[test]
    fn fingerprints_are_those_of_the_reference() {
        let pieces = [
            "a",
            "bus.on(",
            "\"agent/turn-end\"",
            " ",
            "\t",
            "\u{a0}",
            "\u{2003}",
            "\u{85}",
            "\u{b}",
            "é",
            "日本",
            "🦀",
            "\r\n",
            "",
        ];
        let mut r = crate::test_rng::Rng(0x0000_f1a9_e7a1);
        for _ in 0..2000 {
            let line: String = (0..r.below(12)).map(|_| r.pick(&pieces)).collect();
            let index = r.below(30);
            let expected = fingerprint_reference("ML001", "agent/turn-end", &line, index);
            assert_eq!(
                fingerprint("ML001", "agent/turn-end", &line, index),
                expected,
                "{line:?} #{index}"
            );
            // Issue #32 item 1: the line stripped once and hashed as it is.
            let stripped = without_white_space(&line);
            let reference: String = line.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(stripped, reference, "{line:?}");
            assert_eq!(
                FingerprintPrefix::new("ML001", "agent/turn-end", &stripped).with_index(index),
                expected,
                "{line:?} #{index}"
            );
        }
    }

    #[test]
    fn fingerprint_ignores_indentation_but_not_content() {
        let a = fingerprint(
            "ML001",
            "agent/turn-start",
            "  bus.on(\"agent/turn-start\")",
            0,
        );
        let b = fingerprint(
            "ML001",
            "agent/turn-start",
            "bus.on( \"agent/turn-start\" )",
            0,
        );
        assert_eq!(a, b);
        assert_ne!(
            a,
            fingerprint(
                "ML001",
                "agent/turn-start",
                "bus.on(\"agent/turn-start\")",
                1
            )
        );
        assert_ne!(
            a,
            fingerprint(
                "ML002",
                "agent/turn-start",
                "bus.on(\"agent/turn-start\")",
                0
            )
        );
        // Frozen: changing the algorithm invalidates every committed baseline.
        assert_eq!(
            fingerprint("ML001", "agent/turn-start", "x", 0),
            "038fd75493ded345"
        );
    }
}
