//! ML008 `suppression`.

use super::Rule;
use crate::model::Severity;

/// An unused or malformed suppression comment.
pub const RULE: Rule = Rule {
    id: "ML008",
    name: "suppression",
    default_severity: Severity::Warning,
    summary: "A `mirrorless: allow(…)` comment is unused, names an unknown rule, or gives no reason.",
    explanation: "
A suppression has the form `// mirrorless: allow(RULE[, RULE…]) reason`, where each RULE is an ID
(`ML001`) or a name (`subscribe`), optionally limited to one event (`ML004[agent/turn-start]`). It applies to the findings on its own line, or, when the comment
stands alone on its line, to the next line. The reason is required: a suppression without one
suppresses nothing. A suppression that matched no finding is reported so it cannot rot after the
code it excused is gone.

Delete unused suppressions; add the reason to bare ones.
",
    fixes: "
None.
",
    bad: r#"
bus.on("session/event", handler); // mirrorless: allow(ML001) legacy
bus.on("agent/turn-end", handler); // mirrorless: allow(ML001)
"#,
    good: r#"
bus.on("agent/turn-end", handler); // mirrorless: allow(ML001) forwarded to the v1 bridge until 2027-01
"#,
};
