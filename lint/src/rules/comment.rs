//! ML007 `comment`.

use super::Rule;
use crate::model::Severity;

/// A comment naming a removed event.
pub const RULE: Rule = Rule {
    id: "ML007",
    name: "comment",
    default_severity: Severity::Note,
    summary: "A comment or doc comment mentions a removed event.",
    explanation: "
Comments are notes, never errors: a comment explaining that a mirror was removed is correct and
useful. The note exists so a reviewer can find stale documentation, such as a doc comment still
telling callers to listen for the mirror.

Update the comment if it describes current behaviour; leave historical notes alone.
",
    fixes: "
*Suggestion* (`--fix --unsafe-fixes`): name the durable twin instead. A comment that describes
history (\"this used to be `agent/turn-start`\") should stay as it is: suppress it or leave the
note.
*No fix* when the sentence already names the durable twin (it contrasts the two:
\"`step/start` is appended before `agent/step-start` is emitted\" would become \"`step/start`
is appended before `step/start` is emitted\", a falsehood): the note says so, and a human
rewords it.
",
    bad: r#"
/// Fires `agent/turn-end` when the turn closes.
fn close_turn() {}
"#,
    good: r#"
/// Appends `turn/end`; consumers see it on `session/event`.
fn close_turn() {}
"#,
};
