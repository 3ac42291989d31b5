//! ML001 `subscribe`.

use super::Rule;
use crate::model::Severity;

/// A subscription to a removed event.
pub const RULE: Rule = Rule {
    id: "ML001",
    name: "subscribe",
    default_severity: Severity::Error,
    summary: "Subscribes to a removed mirror event: the handler never runs again.",
    explanation: "
The live `agent/*` mirrors were removed; nothing emits them any more, so a listener on one is dead
code that silently stops seeing turns, steps, chunks or steering. The rule fires when a removed
name, a const holding it, or a typed event declared with it is passed to a subscription: a method
or function call named `on`, `once`, `off`, `subscribe`, `listen`, `add_listener` … (configurable
with `subscribe-methods`), a turbofish such as `bus.on::<TurnStart>(…)`, or a handler attribute
such as `#[on(\"agent/turn-start\")]`.

Subscribe to `session/event` instead and filter the durable twin: the same data, in the same order,
from the log persistence and replay already use.
",
    fixes: "
**TypeScript/JavaScript** (also in Markdown code fences): `X.on('<removed>', handler)` with an
arrow or `function` handler is rewritten into `X.on('session/event', (session, event) => …)` that
returns unless `event.type` is the durable twin and destructures the handler's parameters from
`event.data`, renamed where the names differ (`(_agent, t) =>` gives `const { turn: t } =
event.data`). A handler that never used the agent gets `(_session, event)`, so code built with
`noUnusedParameters` still compiles. Positional handlers are 2026-07 code and filter the 2026-07 twin; a handler taking
one payload object (`({ turn, step }) =>`) is 2026-08 code and filters the 2026-08 twin. The
mapping (twin, argument → field) comes from the vocabulary, or from `[[lint.events]]` for an
event you declare (`twin`, `arguments`, `fields`).

Type annotations are kept, so the rewrite type-checks where the original did even when `ctx` is
untyped (`any`) and gives the new parameters no contextual type: an annotated agent
(`agent: Agent`) makes `session: Agent['session']` (`unknown` when the handler does not use it),
annotated fields make `event: { type: string; data: unknown }` and destructure
`event.data as { turn: number; … }` with the original types (`P['turn']` for a payload typed
`P`). Unannotated handlers stay unannotated (they relied on contextual typing, and still do),
so their `const { turn } = event.data` type-checks only where the host types `session/event`'s
`data` by event type (a union discriminated on `type`), not where it types it `unknown` (TS2339).
`lint/tests/fix_typecheck.rs` checks this with `tsc --noEmit --strict --noUnusedLocals`: an
import only the old handler's annotations named (the agent's type, when the handler did not use
the agent) is removed with the rewrite, the whole `import` declaration when nothing of it is
left, as for ML003's deletions.

- *Machine-applicable* (`--fix`) when the handler does not use the agent, or only as
  `agent.session` (which becomes `session`), the twin records exactly what the mirror
  announced, no emit of the mirror without its durable append stays in the run's
  TypeScript/JavaScript (a test or host emitting only the mirror would no longer be heard),
  and what it reads of `event.data` is typed whatever the host: it reads no field, or casts
  to the handler's own annotations, or the file shows that its host types `data` by event type
  (one of its own `session/event` listeners, or a callback over a session's log such as
  `agent.session.events.filter(e => …)`, reads `e.data.field` or destructures `e.data`
  without a cast, which type-checks only there).
- *Suggestion* when an unannotated handler reads fields and nothing in the file shows how the
  host types `data`: the rewrite needs a host that types it by event type (annotate the
  handler's parameters and the rewrite casts to them and is machine-applicable). Where the
  host's event map is in view (below) and its `session/event` entry types `data` otherwise
  (`unknown`, a record: `tsc` TS2339 on the uncast read), the destructuring (and a test's read
  of the durable log below, `[(e.data as { chunk: StreamChunk }).chunk]`) is cast to the
  types the map gives the removed event's arguments, as the file can name them:
  `const { turn, reason } = event.data as { turn: number; reason: import('./host').TurnEndReason }`
  (the file's own name for a type it imports, else an `import('…')` type of a module it imports
  from); when they cannot be written (the map has no entry for the removed event, does not spell
  its parameters, or the type is not reachable from the file), no fix, and the note says which.
- *Suggestion* (`--fix --unsafe-fixes`) when the handler uses the agent, or when the twin
  records more (`user/message` under 2026-08 also records prompts). The session id is not
  reliably the agent id, so the fix looks the agent up in a map of agents by session: the
  file's own, when `agent/created`/`agent/disposed` listeners keep one
  (`agents.set(agent.session.id, agent)` / `agents.delete(agent.session.id)`, or keyed by
  `agent.session`), else one it declares before the statement, kept by `agent/created` and
  `agent/disposed` listeners on the same receiver and typed from the handler's annotation or
  the receiver's `agent/created` listener; the handler returns when the session has no agent
  (one created before the listeners were registered: check that).
- *Suggestion* when the handler uses the agent only to tell it from another agent
  (`(subject) => { if (subject === agent) agent.cancel() }`, also `!==`, `==`, `!=`, either
  side, the other side a name or a member chain such as `this.agent`; or their ids or names,
  `if (a.id !== agent.id) return`, `a.name === this.agent.name`; negated, as an early return,
  inside `&&`/`||`): the comparison becomes one of sessions, `if (session === agent.session)
  …`, as upstream's `140f818a42` wrote it, with no map of agents (so an agent created before the
  listener was registered, as most hosts create it before they attach their UI, is still
  recognised). Sessions tell agents apart only while no two agents share one, which a file
  cannot show. A comparison with something that is not an agent (`a.id === agentId`, `a.name
  === 'planner'`) needs the agent itself: the map below, a suggestion.
- *Suggestion* when the handler throws (a `throw` of its own, not caught inside it and not in a
  function it only defines): on `session/event` the throw reaches the loop where it appends the
  durable event, which handles it as it handles any `session/event` listener's, not as it
  handled the mirror's (upstream reported a throwing mirror listener through `agent/error`).
  A test of how such a throw is reported (its test listens to `agent/error`) may pin the
  removed path: upstream deleted its turn-end tests of this in `140f818a42` and rewrote its
  step ones with new expectations in `05b75abbca`, while its turn-start ones pass rewritten.
- *The human's part* (no fix in the whole test, counted apart by `--fix`, which does not fail on
  it) in a test file that subscribes in a loop over the names (`for (const name of
  ['agent/turn-start', …]) ctx.on(name, …)`, pinning what they announced: upstream rewrote its
  like by hand in `05b75abbca` and `140f818a42`). The finding says so. The declarations only
  such a test still needs are the human's part too. It does not keep the loop's emit under
  `--fix --unsafe-fixes` (plain `--fix` keeps it, and so the test's behaviour).
- *Suggestion*, instead of a second listener, when the same statement list already has an
  `X.on('session/event', (session, event) => { … })` on the same receiver: the handler's code
  moves to the end of that listener as `if (event.type === '<twin>') { … }` and the old
  subscription is deleted. It then runs in that listener's order and under its error handling,
  so it is never applied by `--fix` alone. Not offered (the rewrite above is) when the listener
  returns early, when the handler returns, or when a name either reads would be shadowed.
- *Suggestion*, in a test file (`*.spec.*`, `*.test.*`, under `tests/`), for a listener whose
  rewrite above would be a suggestion and that only collects what the event carried into an
  array the test reads after the run (`const chunks: StreamChunk[] = []`, then
  `ctx.on('agent/stream-chunk', (_a, _t, _s, chunk) => void chunks.push(chunk))`, then
  `await run(…)`, then `expect(chunks)…`; a `const agent` declared before the run, made from
  the listener's own receiver, `const agent = createAgent(ctx)` for `ctx.on`): what
  upstream's own tests did, read the durable log after the run. The array and the listener
  are deleted, and right before the first read after the run comes `const chunks:
  StreamChunk[] = agent.session.events.flatMap(e => e.type === 'assistant/chunk' ?
  [e.data.chunk] : [])` (no fix of this kind when the test awaits between two reads: one read
  of the log would miss what came later). Check that the test runs
  no other agent and nothing before the listener was registered: the listener heard every
  agent of its receiver from then on, the log holds the test agent's events from its start.
  A machine-applicable live rewrite is kept instead (it keeps the test exactly, and lets
  `--fix` delete the loop's emit in the same run); an array read before the run ends, or a
  listener on another context than the agent's (a forked test's `ctx2.on(…)`), gets the
  usual rewrite.
- *No fix* when the rewrite would name a live event the host's event map does not declare: a map
  of agents kept by `agent/created`/`agent/disposed` where the host declares no
  `agent/disposed` would fail `tsc` (TS2345) where the original passed; the note names the
  missing event. The map is read from the declarations the file sees, as `tsc` does: the run's
  scripts and the files its imports reach on disk (relative imports, a package's `types` under
  `node_modules`, re-exports, side-effect imports such as `import './events'`), so a plugin
  linted alone sees its host. It is the interfaces of one name merged (across files and
  `declare module` blocks, as TypeScript merges them), or a `type Events = { … }` literal, that
  declare `session/event`: the name holding the run's declaration of a removed event, else the
  only such name, else the only one holding the subscribed event. A module augmentation no
  import reaches (only the project's `tsconfig.json` includes it) is not seen: an event only it
  declares is taken as undeclared, which loses a fix but never breaks the build.
- *No fix* when the host's event map spells signatures the rewrite does not fit: a
  `session/event` it calls with anything but `(session, event)` (one payload object
  `(e: { session; event })`: the rewritten listener would read `event.type` of `undefined`), or
  the subscribed name declared with a signature other than the removed mirror's (one payload
  where the mirror passed `(agent, turn, reason)`, or another number of arguments). Such a
  host emits an event of its own under the mirror's name: the handler reads what that event
  carries, which the durable twin does not (the rewrite would look an agent up where the
  handler had a payload, and fail `tsc` or print nothing), and even a handler that reads
  nothing would run when the twin is appended rather than when the host emits. The note
  shows both signatures. A map that does not spell the signature (`(...args: any[]) => void`)
  says nothing, and the fix is judged as before. Likewise a rewrite that keeps a map of agents
  by session has no fix when the host declares `agent/created` (or `agent/disposed`) with
  anything but the agent its mirrors passed (`(e: { agent: Agent })`, as upstream's later host
  does): the map would hold payloads, not agents.
- The map of agents a rewrite declares holds the agent type the map gives `agent/created`
  (`new Map<unknown, Agent>()`, written as the file can name it, as above) instead of
  `Parameters<Parameters<typeof ctx.on<'agent/created'>>[1]>[0]`, which type-checks only where
  `on` is generic over the map (TS2635 on `on(name: string, fn: …)`, an `EventEmitter`, or
  overloads). When the file cannot name that type (the host declares it in a package the file
  does not import, or without `export`) but can name the map, the type is read from the map
  itself: `Parameters<import('cordis').Events['agent/created']>[0]` for a map the file sees
  through a `declare module 'cordis'` augmentation of a package it imports, as upstream's UI
  plugin sees its host's `Agent`; a cast of `event.data` reads its fields' types the same way.
  No fix when neither can be written. Where no map is in view, a rewrite naming
  `agent/created`/`agent/disposed` or typing its map by `on` is a suggestion that says to check
  the host declares them and that its `on` is generic.
- *No fix* for `once`/`off`, rest or default parameters, a `function` handler reading `this` or
  `arguments`, a field the twin does not carry, and a name that reaches `on` through a loop
  over names (`for (const name of ['agent/turn-start', …]) ctx.on(name, …)`: one
  `session/event` listener filtering the twins is a human's rewrite).

**Rust** (also in fences), where the rewrite is unambiguous: `x.on(\"<removed>\", |agent: &Agent,
turn: u64, …| …)` (the name as a literal or a const; `on`, `subscribe`, `listen`, `add_listener`
…) becomes `x.on(\"session/event\", |session: &Session, event: &SessionEvent| …)`. The body first
returns unless `event.kind` is the 2026-07 twin, then reads each parameter it uses with `let
Some(turn) = event.data[\"turn\"].as_u64() else { return; };` (the field from the same
vocabulary mapping), and `agent.session_id()` becomes `session.id()`. `Session` and
`SessionEvent` are added to the `use` that imports the agent type (which is dropped when nothing
else names it), or named by the agent type's path (`&host::Agent` gives `&host::Session`).

- *Machine-applicable* when every parameter it reads is typed with a JSON scalar (`u64`, `u32`,
  `usize`, `i64`, `f64`, `bool`, `&str`, `String`), the agent is unused or used only for
  `session_id()`, and the handler returns nothing (its block ends in a statement or a loop, or
  it is one logging macro such as `println!`).
- *Suggestion* when a parameter has a host type (`chunk: &StreamChunk` is read with
  `StreamChunk::from_value(&event.data[\"chunk\"])`: check that your host has it), or when the
  handler may return a value (an expression body).
- *No fix* when the handler uses the agent beyond `session_id()` (keep a session-to-agent map
  from `agent/created`/`agent/disposed`, as the migration guide shows), reads an untyped
  parameter or one of a generic host type (`Vec<ContentBlock>`), has an untyped agent
  parameter, is not a closure, is `async` or declares a return type; for `once`/`off`; when
  the name comes from a local variable.

**Rust typed subscriptions**, always a *suggestion*: `bus.on::<TurnStart>(|ev: &TurnStart| …)`
(also `bus.subscribe::<StepEnd, _>(…)`, the other type arguments `_`) becomes
`bus.on::<SessionEvent>(|event: &SessionEvent| …)`, and `bus.listen(TurnStart::NAME, …)` (the name
taken from a typed event, through an alias too) becomes `bus.listen(\"session/event\", …)`. The
body returns unless `event.kind` is the 2026-07 twin, reads each field of the typed event's
struct from `event.data` by the field's name (the same vocabulary mapping and decoding as
above: `turn: u32` from `data[\"turn\"]`, a host type with `T::from_value`), and rebuilds the
value the handler had: `let ev = &TurnStart { turn };` (by value when the handler took it by
value; the locals renamed when the body reads a name of theirs). A handler that is a path
(`close_step`) is called with the rebuilt value from a new `move` closure. The fix assumes, and
says so, that the bus delivers `session/event` as the host's `SessionEvent { kind, data }`
through the same method, the way it delivered the typed event (by reference unless the handler
took a value; a path handler after a turbofish is assumed to take `&T` unless it is a function
of the file); `SessionEvent` is the name in scope, or is imported beside the receiver's type
(`bus: &Bus`, a parameter of the enclosing function), or comes from a glob import. The typed
struct and its `impl Event` stay while the rebuilt value uses them; once nothing does (a handler
that ignored the value) the declaration fix deletes them in the next round.

- *No fix* when the struct is not declared, with named fields (or none) and no generics, in the
  file that declares the typed event (in the run); a field has no durable counterpart in the
  mapping (`started_at`), is private to another file's module, or has a type that is neither a
  JSON scalar nor a plain host type the subscribing file names; the handler is neither a
  one-parameter closure typed with the event (or untyped, after a turbofish) nor a path; a path
  handler after a name (`listen(T::NAME, f)`) is not a function of the file taking the event; a
  turbofish has other concrete type arguments; `SessionEvent` cannot be named.
",
    bad: r#"
bus.on("agent/turn-start", |agent, turn| render_header(agent, turn));
bus.on::<TurnEnd>(|ev| close_turn(ev.turn));
"#,
    good: r#"
bus.on("session/event", |session, event| match event.kind() {
    "turn/start" => render_header(agent_by_session.get(&session.id), event.data["turn"]),
    "turn/end" => close_turn(event.data["turn"]),
    _ => {}
});
"#,
};
