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
  declaration listing several names.

**Imports** (TypeScript/JavaScript, also in fences): the fix also removes each import only the
deleted code named (`TurnEndReason` in `import type { Agent, TurnEndReason } from './agent'`,
for the entry `'agent/turn-end'(agent: Agent, turn: number, reason: TurnEndReason)`), and the
whole `import` declaration when nothing of it is left, so `tsc --noUnusedLocals` and eslint's
`no-unused-vars` accept the fixed file. An import stays while any other code of the file names
it, in a value or a type position, or a JSDoc type that stays names it (`{Agent}`,
`{@link Agent}`); side-effect imports (`import './x'`) are never touched; default and namespace
imports follow the same rule (a module also imported for its side effects loses them with its
last name: write `import './x'` for those). The removal is part of the same fix, with its
applicability. An import only several deletions use (two entries naming one payload type) goes
with the last of them, a round of `--fix` later. In a file that is a module only by its imports
(no export), the last one becomes `export {};`: without it the file would be a script, and its
`declare module` blocks would declare the module instead of augmenting it. `lint/tests/fix_typecheck.rs` checks every
fixed fixture with `tsc --noUnusedLocals`.

**Rust** (also in fences): a `const`/`static` whose value is a removed name (or an array of
removed names only), a typed event (the struct with its `impl Event for T { const NAME … }` or
name method, or its event attribute, and every other impl of it in the file) and an enum variant
renamed to a removed name are deleted, with their doc comments and attributes, once nothing else
names them: not the file itself, not any other Rust file of the run.

- *Machine-applicable* (`--fix`) when the item is private, the file declares no out-of-line
  module (`mod x;`) that could still use it, and, as for TypeScript, no Rust code of the run
  still subscribes to, emits or names its event after the machine-applicable fixes (otherwise a
  suggestion naming that use).
- *Suggestion* (`--fix --unsafe-fixes`) when the item is `pub` (nothing in the linted tree names
  it, but another crate may: check before applying), or when the variant's enum derives
  `Deserialize` (a log naming the removed event would no longer parse).
- *No fix* while something still names it (migrate the uses first: after `--fix` rewrites a
  subscription that named a const, the next round deletes the const), for names built with
  `concat!`/`format!`, and for an enum of a single variant.

**The event impl a typed subscription's rewrite leaves** (Rust): once `bus.on::<TurnStart>(…)`
is rewritten to `session/event`, the handler still builds `TurnStart { turn }`, so the struct
stays, but its `impl Event for TurnStart { const NAME … }` is needed by nothing. Its fix deletes
that impl only (and the trait's `use` when nothing else in the file names the trait).

- *Machine-applicable* (`--fix`) only when that is provable from the file: the struct is private
  to a file without out-of-line modules, every value of it is a literal bound by `let x =
  [&]TurnStart { … };` and then only read field by field (`x.turn`), no pattern or type
  annotation names it, the trait is named nowhere else in the file except as the trait of other
  impls (no `E: Event` bound, no `dyn Event`), the impl's items are not used by another impl of
  the struct, no other Rust file of the run names the struct, and no subscription or emit of its
  event remains in the run.
- *Suggestion* otherwise: a value passed to a function (a path handler's
  `close_step(&StepEnd { … })`) may reach a generic `E: Event` the file does not show.
- *No fix* while it is named through a path (`TurnStart::NAME`, `<TurnStart as Event>`), as a
  generic argument (`on::<TurnStart>`, `Vec<TurnStart>`), by a type alias, or inside a macro.
",
    bad: r#"
pub const TURN_START: &str = "agent/turn-start";
impl Event for TurnEnd { const NAME: &'static str = "agent/turn-end"; }
"#,
    good: r#"
pub const SESSION_EVENT: &str = "session/event";
"#,
};
