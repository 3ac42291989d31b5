//! ML009 `unparsed`.

use super::Rule;
use crate::model::Severity;

/// A file the front end could not parse.
pub const RULE: Rule = Rule {
    id: "ML009",
    name: "unparsed",
    default_severity: Severity::Note,
    summary: "The file does not parse; it was scanned lexically for removed names instead.",
    explanation: "
A file that does not parse (a syntax error, a template, a file for a newer edition) is never
skipped: its strings and comments are still scanned for removed names, and each such finding says
it comes from the lexical scan. Without a syntax tree the linter cannot tell a subscription from
any other use, nor follow consts and typed events declared in the file, so the findings are
reported as `reference`, `embedded`, `mention` or `comment`. This note says where parsing stopped.

A file is also scanned lexically, and noted here, when it is too deeply nested to parse safely (an
estimated 20,000 levels: generated or hostile code) or too large to parse in bounded memory (Rust
over 4 MiB, TypeScript/JavaScript over 16 MiB). The rest of the run is never affected.

Fix the syntax error, or exclude the file in `mirrorless.toml` if it is not Rust.
",
    fixes: "
None, and no other fix is applied to a file that does not parse. `--fix` also never applies a fix
that would make a file (or a Markdown code block) stop parsing: it is dropped and reported.
",
    bad: r#"
fn broken( {
    bus.on("agent/turn-start", handler);
}
"#,
    good: r#"
fn fixed() {
    bus.on("session/event", handler);
}
"#,
};
