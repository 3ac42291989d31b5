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
interface is a removed event, the whole block is deleted. *Machine-applicable* (`--fix`) when no
code of the run (TypeScript/JavaScript files; Markdown fences do not count) still subscribes to,
emits or names the event after the machine-applicable fixes: the compiler would reject those uses
without the entry. Otherwise a *suggestion* naming the first remaining use; `--fix` deletes the
entry in a later round once the uses are migrated. Consts, enum members and Rust declarations get no
fix yet: delete them once their uses are migrated.
",
    bad: r#"
pub const TURN_START: &str = "agent/turn-start";
impl Event for TurnEnd { const NAME: &'static str = "agent/turn-end"; }
"#,
    good: r#"
pub const SESSION_EVENT: &str = "session/event";
"#,
};
