//! The changelog of the requirements: which IDs each spec version added, changed or retired.
//! `docs/spec/CHANGELOG.md` is generated from it; a test fails when a registry ID is in no
//! revision or the last revision is not [`SPEC_VERSION`](crate::SPEC_VERSION).

/// One version of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Revision {
    /// The spec version (`crate::SPEC_VERSION` when it is the current one).
    pub version: &'static str,
    /// IDs this version added.
    pub added: &'static [&'static str],
    /// IDs whose statement this version changed (never their meaning: see each note).
    pub changed: &'static [&'static str],
    /// IDs this version retired (never reused).
    pub retired: &'static [&'static str],
    /// What changed, in a sentence or two.
    pub note: &'static str,
}

/// Every version, oldest first.
pub const HISTORY: &[Revision] = &[Revision {
    version: "1.0",
    added: &[
        "LOG-1", "LOG-2", "LOG-3", "LOG-4", "SEQ-1", "SEQ-2", "SURF-1", "SURF-2", "SURF-3",
        "TURN-1", "TURN-2", "TURN-3", "TURN-4", "TURN-5", "TURN-6", "TURN-7", "TURN-8", "TURN-9",
        "TURN-10", "TURN-11", "STEP-1", "STEP-2", "STEP-3", "CHUNK-1", "CHUNK-2", "CHUNK-3",
        "CHUNK-4", "CHUNK-5", "CHUNK-6", "MSG-1", "MSG-2", "MSG-3", "MSG-4", "MSG-5", "MSG-6",
        "MSG-7", "MSG-8", "MSG-9", "TOOL-1", "TOOL-2", "TOOL-3", "TOOL-4", "TOOL-5", "STEER-1",
        "STEER-2", "MIRROR-1", "MIRROR-2", "MIRROR-3", "MIRROR-4", "MIRROR-5", "MIRROR-6",
        "LIVE-1", "LIVE-2", "LIVE-3", "LIVE-4", "LIVE-5", "LIVE-6", "LIVE-7", "LIVE-8", "LIVE-9",
    ],
    changed: &["CHUNK-2", "CHUNK-6", "MSG-3", "LIVE-5", "TURN-8"],
    retired: &[],
    note: "The first spec: both profiles, every requirement with its upstream evidence and its \
examples. Before the first release five statements were reworded without a change of meaning: \
CHUNK-2 and CHUNK-6 say MUST NOT where they said \"no … MUST\", MSG-3 states its 2026-07 SHOULD, LIVE-5 states its 2026-07 MAY and MUST in \
RFC 2119 words (the table's MUST is the rule for an agent that emits the event), and TURN-8 says how \
a tool result concludes a turn, and that over stdio one cannot. LIVE-9 (a mirror under another \
name) joined before the first release.",
}];

/// `docs/spec/CHANGELOG.md`.
pub fn changelog() -> String {
    let link = |ids: &[&str]| {
        ids.iter()
            .map(|id| format!("[{id}]({id}.md)"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = String::from(
        "# Changelog of the requirements\n\n\
         Generated from `conformance/src/spec/history.rs`; do not edit by hand. Which requirement IDs \
         each version of the spec added, changed or retired. An ID never changes meaning and is never \
         reused; a report states the spec version it was checked against.\n",
    );
    for rev in HISTORY.iter().rev() {
        out.push_str(&format!("\n## Spec {}\n\n{}\n", rev.version, rev.note));
        for (what, ids) in [
            ("Added", rev.added),
            ("Changed", rev.changed),
            ("Retired", rev.retired),
        ] {
            if !ids.is_empty() {
                out.push_str(&format!("\n- {what}: {}.\n", link(ids)));
            }
        }
    }
    out
}
