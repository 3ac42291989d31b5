//! ML003 `declare`.

use super::Rule;
use crate::model::Severity;

/// A declaration of a removed event.
pub const RULE: Rule = Rule {
    id: "ML003",
    name: "declare",
    default_severity: Severity::Error,
    summary: "Declares a removed mirror event (const, static, typed event, serde rename).",
    explanation: "
A declaration keeps a removed event alive in the API: `const TURN_START: &str = \"agent/turn-start\"`,
a `static`, an associated const of a typed event (`impl Event for TurnStart { const NAME: &str =
\"agent/turn-start\"; }`), a method returning the name, a `#[serde(rename = \"agent/turn-start\")]`
variant, an event attribute on a type, or an entry of an event-map declaration. Every use of such a
declaration elsewhere in the workspace is reported too, by `reference`, `subscribe` or `emit`.

Delete the declaration and migrate its users to `session/event` and the durable twin.
",
    fixes: "
**TypeScript/JavaScript** (also in Markdown code fences): a removed event's entry in an interface
or type literal (an event map, a `declare module … { interface Events { … } }` declaration-merging
block) is deleted with its JSDoc; when every entry of a `declare module` block holding only that
interface is a removed event, the whole block is deleted, and with it the type declarations only
the deleted entry used (`type StreamChunkPayload = …` in `'agent/stream-chunk'(payload:
StreamChunkPayload)`, and the types only those use). *Machine-applicable* (`--fix`) when no
code of the run (TypeScript/JavaScript files; Markdown fences do not count) still subscribes to,
emits or names the event after the machine-applicable fixes: the compiler would reject those uses
without the entry. Otherwise a *suggestion* naming the first remaining use; `--fix` deletes the
entry in a later round once the uses are migrated.

A `const` holding a removed name (`const TURN_START = 'agent/turn-start'`, one declarator) and
a string enum member spelled with one (`enum Ev { TurnStart = 'agent/turn-start' }`) are
deleted when nothing in the file uses them; the whole enum when every member goes and nothing
names the enum.

- *Machine-applicable* (`--fix`) when unused and not exported (and, like an entry, held back as a
  suggestion while code elsewhere in the run still uses the event). While a use remains there is no
  fix: the use carries its own (`ctx.on(TURN_START, …)` is rewritten to `session/event`), and
  the next round of `--fix` deletes the declaration it no longer needs. A use without a fix
  (`once`, an emit without its durable append) keeps the declaration.
- *Suggestion* (`--fix --unsafe-fixes`) for a member of an enum that is also used as a whole
  (`Object.values(Ev)`, a parameter typed `Ev`): deleting the member changes those.
- *No fix* for an exported declaration (another file may import it), a top-level declaration
  of a script (a file without `import`/`export`: its top level is global), a `let`/`var`, and a
  declaration listing several names. Rust declarations get no fix yet: delete them once their
  uses are migrated.
",
    bad: r#"
pub const TURN_START: &str = "agent/turn-start";
impl Event for TurnEnd { const NAME: &'static str = "agent/turn-end"; }
"#,
    good: r#"
pub const SESSION_EVENT: &str = "session/event";
"#,
};
