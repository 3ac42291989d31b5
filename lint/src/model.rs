//! The language-neutral finding model shared by every front end, renderer, suppression and
//! baseline. Nothing in here knows about Rust.

use serde::Serialize;
use std::fmt;

/// How seriously a finding is taken. Only `error` findings make `mirrorless lint` exit 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Fails the run (exit 1).
    Error,
    /// Reported, but does not fail the run.
    Warning,
    /// Informational: comments and parse notes.
    Note,
}

impl Severity {
    /// The lowercase name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a front end found a removed event name doing at one place in the source. Each role
/// maps to exactly one rule (see [`crate::rules`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// Passed to a subscription (`on`, `once`, `off`, `subscribe`, handler attributes …).
    Subscribe,
    /// Passed to an emitter (`emit`, `dispatch`, `publish`, `parallel` …).
    Emit,
    /// Declares the event: a `const`/`static`, an associated const of a typed event, a
    /// `serde(rename)` attribute, a type-declaration entry.
    Declare,
    /// Any other use: arrays, match arms, comparisons, uses of a const or typed event.
    Reference,
    /// Quoted inside a larger string: a plugin script, a JSON document.
    Embedded,
    /// Prose inside a string: a log message, a test title, an assertion text.
    Mention,
    /// Inside a comment or doc comment.
    Comment,
}

/// One place in a file where a front end saw a removed event, before rules, severities,
/// suppressions and baselines are applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// What the name is doing there.
    pub role: Role,
    /// The removed event name, e.g. `agent/turn-start`.
    pub event: String,
    /// Byte range in the file (start inclusive, end exclusive).
    pub start: usize,
    /// End of the byte range (exclusive).
    pub end: usize,
    /// How the occurrence was resolved when the name itself is not at this place, e.g.
    /// "through const `TURN_START` declared at src/events.rs:3".
    pub via: Option<String>,
}

/// One reported finding, fully resolved: this is what every output format prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// Stable rule ID, e.g. `ML001`.
    pub rule: &'static str,
    /// Rule name, e.g. `subscribe`.
    pub rule_name: &'static str,
    /// Effective severity (after configuration).
    pub severity: Severity,
    /// The removed event name (`None` for `suppression` and `unparsed`).
    pub event: Option<String>,
    /// The file, as given or walked (forward slashes).
    pub path: String,
    /// 1-based line of the start.
    pub line: usize,
    /// 1-based column of the start, counted in Unicode scalar values (characters).
    pub column: usize,
    /// 1-based line of the end.
    pub end_line: usize,
    /// 1-based column just past the end (exclusive), in characters.
    pub end_column: usize,
    /// One-sentence description of the problem.
    pub message: String,
    /// What to do instead.
    pub help: String,
    /// Extra context: how the name was resolved, or why the file was only scanned lexically.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Stable content fingerprint (survives line shifts); used by baselines and SARIF.
    pub fingerprint: String,
    /// The text of the start line (without the line terminator), for renderers. A line longer
    /// than a few hundred bytes is clipped to a window around the finding, so that many
    /// findings on one long line cost linear memory; the window starts at `line_text_column`.
    #[serde(skip)]
    pub line_text: String,
    /// The 1-based character column of the line at which `line_text` starts (1 unless the line
    /// was clipped).
    #[serde(skip)]
    pub line_text_column: usize,
    /// The 1-based UTF-8 byte column of the line at which `line_text` starts (1 unless the
    /// line was clipped): what a renderer of byte columns (rdjson) adds to its offset in
    /// `line_text`.
    #[serde(skip)]
    pub line_text_byte_column: usize,
    /// The migration of this finding, when one is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
    /// Whether this finding is the human's part of the migration: a test pinning a removed
    /// mirror's own behaviour (a loop over the names), or a declaration only such a test still
    /// needs, which upstream rewrote by hand. It has no fix and its note says what to do; `--fix` counts
    /// it apart and does not fail on it (see `docs/lint/exit-status.md`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub human: bool,
}

/// Whether a fix may be applied without a human reading it (the rustc/clippy vocabulary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Applicability {
    /// Keeps behaviour: `mirrorless lint --fix` applies it.
    MachineApplicable,
    /// Probably right, but a human must check it: shown, applied only on request.
    Suggestion,
}

/// One replacement in the file of the finding: bytes `start..end` become `replacement`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Edit {
    /// Byte offset of the first replaced byte.
    pub start: usize,
    /// Byte offset just past the last replaced byte (`start == end` inserts).
    pub end: usize,
    /// The new text.
    pub replacement: String,
    /// Where `start..end` is as lines and columns (filled in by the engine), for the
    /// renderers that cannot read the file (SARIF, rdjson).
    pub range: TextRange,
}

impl Edit {
    /// Replaces bytes `start..end` with `replacement` (the engine fills in `range`).
    pub fn new(start: usize, end: usize, replacement: impl Into<String>) -> Edit {
        Edit {
            start,
            end,
            replacement: replacement.into(),
            range: TextRange::default(),
        }
    }
}

/// A byte range as positions: 1-based lines, 1-based columns counted in characters (SARIF,
/// the human output) and in UTF-8 bytes (rdjson).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
pub struct TextRange {
    /// Line of the start.
    pub line: usize,
    /// Character column of the start.
    pub column: usize,
    /// Line of the end.
    pub end_line: usize,
    /// Character column just past the end.
    pub end_column: usize,
    /// Byte column of the start.
    pub byte_column: usize,
    /// Byte column just past the end.
    pub end_byte_column: usize,
}

/// A rewrite that migrates one finding: a set of non-overlapping edits to the finding's file,
/// applied together or not at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// Whether `--fix` applies it.
    pub applicability: Applicability,
    /// What the fix does, in one imperative sentence ("delete the removed mirror's emit").
    pub message: String,
    /// The edits, sorted by `start`, never overlapping.
    pub edits: Vec<Edit>,
    /// The same change as whole lines (filled in by the engine): the form GitHub suggested
    /// changes take (rdjson). `None` when those lines are longer than
    /// [`LINES_MAX`](crate::lines::LINES_MAX) bytes: repeating a long line in every fix on it
    /// would make the output quadratic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<LineReplacement>,
    /// For a fix that deletes a declaration: the identifiers it deletes. The engine drops the
    /// fix when another Rust file of the run names one of them.
    #[serde(skip)]
    pub deletes: Vec<String>,
    /// For a deletion of a declaration: whether the uses of the name that are not
    /// subscriptions or emits keep compiling without it (only a typed event's impl goes, its
    /// struct stays), so that they do not hold the deletion back (see `in_use`).
    #[serde(skip)]
    pub keeps_references: bool,
    /// Ranges whose text this fix depends on without editing it: a fix with a claim is not
    /// applied in the same round as another fix whose claim on an overlapping range is
    /// exclusive (it waits for the next round, which sees the other's result).
    #[serde(skip)]
    pub claims: Vec<Claim>,
    /// For a catalogue entry's deletion: the ranges of the edits that renumber the file's
    /// line references into code (see `docs_follow`), which `--unsafe-fixes` recomputes.
    #[serde(skip)]
    pub renumbers: Vec<std::ops::Range<usize>>,
    /// What the rewrite leaves to the host's declarations, which the run-level pass settles
    /// once it has read them (see `host_events`).
    #[serde(skip)]
    pub host: HostNeeds,
}

/// The parts of a TypeScript rewrite that type-check only as the host declares them (issue
/// #29 item 1 (b)): the front end sees one file, the run-level pass `host_events` reads the
/// declarations that file sees (its imports, on disk) and spells them, or drops the fix and
/// says what is missing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostNeeds {
    /// A destructuring of `event.data` written without a cast.
    pub data_read: Option<DataRead>,
    /// A type the rewrite spells from the receiver's `on` (the agent map's
    /// `Parameters<Parameters<typeof ctx.on<'agent/created'>>[1]>[0]`), which type-checks only
    /// where that `on` is generic over the host's event map: the host's own type of the
    /// `agent/created` listener's agent replaces it.
    pub agent_type: Option<String>,
    /// How a subscription's rewrite read the removed event's handler: the handler's
    /// parameters stand for the removed mirror's arguments only where the host declares that
    /// event with the mirror's signature.
    pub handler: Option<HandlerRead>,
}

/// A removed event's handler as a rewrite read it ([`HostNeeds::handler`]): positional
/// arguments, the agent first (2026-07 code), or one payload object (2026-08 code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandlerRead {
    /// The removed event whose handler it was.
    pub mirror: String,
    /// The removed mirror's arguments, the agent first (`agent`, `turn`, `reason`).
    pub arguments: Vec<String>,
    /// Whether the handler takes one payload object rather than positional arguments.
    pub payload: bool,
}

/// A destructuring of `event.data` a rewrite writes without a cast ([`HostNeeds::data_read`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataRead {
    /// The read as an edit of the fix writes it (`const { turn } = event.data`).
    pub statement: String,
    /// What it becomes when cast, `{types}` standing for the object type of the fields
    /// (`const { turn } = event.data as {types}`).
    pub cast: String,
    /// The removed event whose handler it was.
    pub mirror: String,
    /// Each field destructured and the position (after the agent) of the removed event's
    /// argument it stands for; `None` when the handler did not take positional arguments.
    pub fields: Option<Vec<(String, usize)>>,
    /// The clause of the fix's message warning that the read is uncast (empty when none).
    pub warning: String,
}

/// A range of a file that a [`Fix`] depends on (see [`Fix::claims`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// Byte offset of the first claimed byte.
    pub start: usize,
    /// Byte offset just past the last claimed byte.
    pub end: usize,
    /// Whether no other fix claiming an overlapping range may be applied in the same round
    /// (shared claims on the same range may).
    pub exclusive: bool,
}

impl Fix {
    /// A fix from its edits (the engine fills in positions and `lines`).
    pub fn new(applicability: Applicability, message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability,
            message: message.into(),
            edits,
            lines: None,
            deletes: Vec::new(),
            keeps_references: false,
            claims: Vec::new(),
            renumbers: Vec::new(),
            host: HostNeeds::default(),
        }
    }
}

/// Lines `line..=end_line` (1-based) of the file become `text` (no final line terminator;
/// empty when the lines are deleted).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize)]
pub struct LineReplacement {
    /// First replaced line.
    pub line: usize,
    /// Last replaced line (inclusive).
    pub end_line: usize,
    /// The new text of those lines.
    pub text: String,
}

/// A problem with an input file or the run itself that is not a finding: unreadable file,
/// non-UTF-8 content, a walk error. Any such problem makes the run exit 2.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileError {
    /// The file or directory concerned.
    pub path: String,
    /// 1-based line, when the problem has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.path, line, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}
