//! ML004 `reference`.

use super::Rule;
use crate::model::Severity;

/// Any other use of a removed event.
pub const RULE: Rule = Rule {
    id: "ML004",
    name: "reference",
    default_severity: Severity::Error,
    summary: "Uses a removed mirror event name: directly, or through a const, alias or typed event.",
    explanation: "
Real code rarely passes the name straight to `on`. It keeps names in arrays that are later iterated
into subscriptions, matches on them, compares them, imports a const (`use events::TURN_START as
TS`), re-exports it, or builds the name with `concat!`/`format!`. Each such use is reported with
the declaration it was resolved through, so the finding points at code that still depends on the
removed event even where the name itself does not appear.

Replace the use with the durable twin on `session/event`; delete arrays and match arms that only
existed for the mirror.
",
    fixes: "
None: what replaces an arbitrary use (an array entry, a comparison, a match arm) depends on the
code around it.
",
    bad: r#"
const MIRRORS: [&str; 2] = ["agent/turn-start", "agent/turn-end"];
match name { events::TURN_START => on_turn(), _ => {} }
"#,
    good: r#"
match event.kind() { "turn/start" => on_turn(), _ => {} }
"#,
};
