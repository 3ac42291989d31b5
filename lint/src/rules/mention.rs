//! ML006 `mention`.

use super::Rule;
use crate::model::Severity;

/// Prose inside a string that names a removed event.
pub const RULE: Rule = Rule {
    id: "ML006",
    name: "mention",
    default_severity: Severity::Warning,
    summary: "A string mentions a removed event in prose: a log message, a test title, an assertion text.",
    explanation: "
Log messages, panic texts, test titles and assertion strings that mention a removed event are not
broken code, but they describe behaviour that no longer exists and mislead whoever reads the log or
the failing test. They are warnings: they do not fail the run. In TypeScript and JavaScript the
same goes for test titles (`it('… agent/step-end listener …')`), logger messages,
`expect.stringContaining('agent/…')` and JSX text; in Markdown, for prose, inline code, headings,
tables and code blocks in languages the linter does not parse.

Reword the text in terms of the durable event.
",
    fixes: "
*Suggestion* (`--fix --unsafe-fixes`): name the durable twin instead (`agent/turn-start` →
`turn/start`). A sentence about the removed event may need more rewording than that.
*No fix* when the sentence already names the durable twin (it contrasts the two:
\"`step/start` is appended before `agent/step-start` is emitted\" would become \"`step/start`
is appended before `step/start` is emitted\", a falsehood): the note says so, and a human
rewords it.

In Markdown, a catalogue entry of the event (a heading that names only it, in inline code, down
to the next heading of its level or higher) is deleted as a whole instead, with its line in any
index of the file (a list item or table row linking to the heading); the first such deletion in
a file also renumbers its `file:line` references into code whose declarations the run deletes,
and lowers the count of events it states (`declares 24 events`). A table that lists events in
its first cells (`` | `agent/steering` | emit | … | ``, an event taxonomy a project checks
against its declarations) loses the event: the row when its first cell names only that event,
else the name with its separator (`` `agent/created` / `agent/step-start` `` → `` `agent/created` ``).

Any of these fixes is kept only as far as the event's declaration goes in the same run: none while the
run's code keeps declaring the event (the finding stays), a suggestion while that deletion is one
or the run holds no declaration of the event, machine-applicable when the declaration's deletion
is.
",
    bad: r#"
log::warn!("listener for agent/turn-end failed: {err}");
"#,
    good: r#"
log::warn!("session/event listener failed on turn/end: {err}");
"#,
};
