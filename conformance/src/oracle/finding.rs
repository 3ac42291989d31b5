//! What the oracle reports: one [`Finding`] per divergence, with its [`Origin`].

use serde::Serialize;

/// Who found a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// The oracle, against the script.
    Oracle,
    /// The log checker, on the recorded log or live trace.
    Checker,
    /// The implementation crashed.
    Crash,
}

/// One divergence between what the script implies and what the implementation did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The requirement violated (`CRASH` for an implementation crash with no other finding).
    pub requirement: &'static str,
    /// Whether the requirement is a MUST here (a SHOULD finding is a warning).
    pub error: bool,
    /// The index in the durable log where the divergence shows (for a live event, the log
    /// length when it was emitted; for something missing, where it should have been).
    pub position: Option<u64>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The expected side of the window around the divergence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<String>,
    /// The observed side of the window.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub observed: Vec<String>,
    /// Who found it.
    pub origin: Origin,
}

/// The requirement a crash is reported under when nothing else diverged.
pub const CRASH: &str = "CRASH";
