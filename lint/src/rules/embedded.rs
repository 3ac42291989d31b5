//! ML005 `embedded`.

use super::Rule;
use crate::model::Severity;

/// A removed name quoted inside a larger string.
pub const RULE: Rule = Rule {
    id: "ML005",
    name: "embedded",
    default_severity: Severity::Error,
    summary: "A removed event name is quoted inside a larger string: a plugin script, a JSON document.",
    explanation: "
Hosts embed plugin scripts and event manifests in string literals, often raw strings:
`r#\"ctx.on(\"agent/turn-start\", …)\"#`. The script still subscribes to the removed event even though
the Rust code around it never names it. The finding points at the exact line and column of the
name inside the string. A name inside a string that is not quoted there (prose) is a `mention`
instead.

Migrate the embedded script or document as you would source code.
",
    fixes: "
None: the embedded code is data to mirrorless; migrate it where it is maintained.
",
    bad: r##"
const PLUGIN: &str = r#"ctx.on("agent/stream-chunk", (_a, _t, _s, chunk) => print(chunk))"#;
"##,
    good: r##"
const PLUGIN: &str = r#"ctx.on("session/event", (s, e) => e.type === "assistant/chunk" && print(e.data.chunk))"#;
"##,
};
