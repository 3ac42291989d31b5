//! A shape as a small TypeScript project: the plugin (what `--fix` rewrites), the simulated
//! host it runs against, the driver that runs one scripted session through both, and the
//! runner that runs every shape's driver in one Node process.
//!
//! The host is upstream's loop reduced to what a listener observes: each step of a turn is
//! appended to the session log (which announces it on `session/event`), and in mode `before`
//! the mirror of it is fired right after, as upstream did before the removal; in mode `after`
//! only the durable event is. A throwing mirror listener is reported as `agent/error` (the
//! loop caught it), a throwing `session/event` listener as a failed append. Every effect a
//! plugin has is an `out(…)` line.

use super::shape::{Data, EventsForm, Handler, HostOn, MIRRORS, Mirror, Shape, Signatures, Wiring};

/// The durable events the host appends, with their `data` types.
const DATA: &[(&str, &str)] = &[
    (
        "turn/start",
        "{ turn: number; trigger: { kind: 'message' } }",
    ),
    ("turn/end", "{ turn: number; reason: TurnEndReason }"),
    ("step/start", "{ turn: number; step: number }"),
    ("step/end", "{ turn: number; step: number }"),
    (
        "assistant/chunk",
        "{ turn: number; step: number; chunk: StreamChunk }",
    ),
];

/// The host's files for the shape's host dimensions: `host.ts`, and `events.ts` when the
/// event map is augmented there.
pub fn host_files(shape: &Shape) -> Vec<(&'static str, String)> {
    let mut files = vec![("host.ts", host(shape))];
    if matches!(shape.events, EventsForm::Augmented | EventsForm::Apart) {
        let lifecycle = if shape.lifecycle {
            lifecycle_entries(shape, "    ")
        } else {
            String::new()
        };
        let (types, turn_start) = if shape.signatures == Signatures::Own {
            ("Agent, OwnEvent", "(e: OwnEvent)")
        } else {
            ("Agent", "(agent: Agent, turn: number)")
        };
        files.push((
            "events.ts",
            format!(
                "// Entries of the host's event map declared by module augmentation (generated).\n\
                 import type {{ {types} }} from './host';\n\n\
                 declare module './host' {{\n  interface Events {{\n{lifecycle}    \
                 'agent/turn-start'{turn_start}: void;\n  }}\n}}\n"
            ),
        ));
    }
    files
}

/// The `agent/created` and `agent/disposed` entries of the event map, each line led by
/// `indent`: called with the agent, or with a payload holding it.
fn lifecycle_entries(shape: &Shape, indent: &str) -> String {
    let sig = if shape.signatures == Signatures::CreatedPayload {
        "(e: { agent: Agent })"
    } else {
        "(agent: Agent)"
    };
    format!("{indent}'agent/created'{sig}: void;\n{indent}'agent/disposed'{sig}: void;\n")
}

/// `host.ts` for the shape's host dimensions.
fn host(shape: &Shape) -> String {
    let event = "type: string; seq: number; time: number";
    let data = match shape.data {
        Data::Typed => "export type SessionEvent = {\n  [K in keyof Data]: { type: K; seq: number; time: number; data: Data[K] };\n}[keyof Data];\n".to_owned(),
        Data::Unknown => format!("export type SessionEvent = {{ {event}; data: unknown }};\n"),
        Data::Any => format!("export type SessionEvent = {{ {event}; data: any }};\n"),
        Data::Union => {
            let members: String = DATA
                .iter()
                .map(|(t, d)| format!("\n  | {{ type: '{t}'; seq: number; time: number; data: {d} }}"))
                .collect();
            format!("export type SessionEvent ={members};\n")
        }
    };
    let augmented = matches!(shape.events, EventsForm::Augmented | EventsForm::Apart);
    let lifecycle_decl = if shape.lifecycle && !augmented {
        lifecycle_entries(shape, "  ")
    } else {
        String::new()
    };
    let own = shape.signatures == Signatures::Own;
    // The mirrors' names: upstream's positional signatures, or the host's own payload.
    let sig = |upstream: &'static str| if own { "(e: OwnEvent)" } else { upstream };
    let turn_start = if augmented {
        String::new()
    } else {
        format!(
            "  'agent/turn-start'{}: void;\n",
            sig("(agent: Agent, turn: number)")
        )
    };
    let mirror_entries = format!(
        "  'agent/turn-end'{}: void;\n  'agent/step-start'{}: void;\n  'agent/step-end'{}: void;\n  'agent/stream-chunk'{}: void;\n",
        sig("(agent: Agent, turn: number, reason: TurnEndReason)"),
        sig("(agent: Agent, turn: number, step: number)"),
        sig("(agent: Agent, turn: number, step: number)"),
        sig("(agent: Agent, turn: number, step: number, chunk: StreamChunk)"),
    );
    let session_payload = shape.signatures == Signatures::SessionPayload;
    let (session_entry, announced) = if session_payload {
        (
            "  'session/event'(e: { session: Session; event: SessionEvent }): void;\n",
            "[{ session, event }]",
        )
    } else {
        (
            "  'session/event'(session: Session, event: SessionEvent): void;\n",
            "[session, event]",
        )
    };
    // The host's own events are fired whatever the mode (they are not mirrors); a mirror
    // only in mode `before`.
    let fire = if own {
        "    const own = { agentId: agent.id, label: name + ':' + String(args[0]) };\n    \
         this.bus.fire(name, [own], 'mirror');\n    agent.fire(name, [own], 'mirror');\n"
    } else {
        "    if (this.mode !== 'before') return;\n    \
         this.bus.fire(name, [agent, ...args], 'mirror');\n    agent.fire(name, [agent, ...args], 'mirror');\n"
    };
    let (events_open, events_close, import) = match shape.events {
        EventsForm::Interface => ("export interface Events {", "}", ""),
        EventsForm::Alias => ("export type Events = {", "};", ""),
        EventsForm::Augmented => ("export interface Events {", "}", "import './events';\n"),
        EventsForm::Apart => ("export interface Events {", "}", ""),
        EventsForm::Hidden => (
            "type HiddenAgent = Agent;\ntype HiddenReason = TurnEndReason;\ntype HiddenChunk = StreamChunk;\nexport interface Events {",
            "}",
            "",
        ),
    };
    let generic = "  on<K extends keyof Events>(name: K, fn: Events[K]): () => void {\n    return this.add(name, fn as Listener, false);\n  }\n  \
         once<K extends keyof Events>(name: K, fn: Events[K]): () => void {\n    return this.add(name, fn as Listener, true);\n  }\n  \
         emit<K extends keyof Events>(name: K, ...args: Parameters<Events[K]>): void {\n    this.fire(name, args, 'mirror');\n  }\n";
    let (aliases, methods) = match shape.on {
        HostOn::Map => ("", generic.to_owned()),
        HostOn::Plain => (
            "",
            "  on(name: string, fn: Listener): () => void {\n    return this.add(name, fn, false);\n  }\n  \
             once(name: string, fn: Listener): () => void {\n    return this.add(name, fn, true);\n  }\n  \
             emit(name: string, ...args: unknown[]): void {\n    this.fire(name, args, 'mirror');\n  }\n"
                .to_owned(),
        ),
        HostOn::Overloaded => (
            "",
            "  on<K extends keyof Events>(name: K, fn: Events[K]): () => void;\n  \
             on(name: string, fn: (...args: any[]) => void): () => void;\n  \
             on(name: string, fn: Listener): () => void {\n    return this.add(name, fn, false);\n  }\n  \
             once<K extends keyof Events>(name: K, fn: Events[K]): () => void;\n  \
             once(name: string, fn: (...args: any[]) => void): () => void;\n  \
             once(name: string, fn: Listener): () => void {\n    return this.add(name, fn, true);\n  }\n  \
             emit<K extends keyof Events>(name: K, ...args: Parameters<Events[K]>): void {\n    this.fire(name, args, 'mirror');\n  }\n"
                .to_owned(),
        ),
        HostOn::Constrained => (
            "export type EventName = keyof Events & string;\nexport type Handler<K extends EventName> = Events[K];\n",
            "  on<K extends EventName>(name: K, fn: Handler<K>): () => void {\n    return this.add(name, fn as Listener, false);\n  }\n  \
             once<K extends EventName>(name: K, fn: Handler<K>): () => void {\n    return this.add(name, fn as Listener, true);\n  }\n  \
             emit<K extends EventName>(name: K, ...args: Parameters<Handler<K>>): void {\n    this.fire(name, args, 'mirror');\n  }\n"
                .to_owned(),
        ),
        HostOn::Emitter => (
            "",
            "  on(name: string | symbol, fn: (...args: any[]) => void): this {\n    this.add(String(name), fn, false);\n    return this;\n  }\n  \
             once(name: string | symbol, fn: (...args: any[]) => void): this {\n    this.add(String(name), fn, true);\n    return this;\n  }\n  \
             emit(name: string | symbol, ...args: any[]): boolean {\n    this.fire(String(name), args, 'mirror');\n    return true;\n  }\n"
                .to_owned(),
        ),
    };
    let (created, disposed) = match (shape.lifecycle, shape.signatures) {
        (true, Signatures::CreatedPayload) => (
            "    this.bus.emit('agent/created', { agent });\n",
            "    this.bus.emit('agent/disposed', { agent });\n",
        ),
        (true, _) => (
            "    this.bus.emit('agent/created', agent);\n",
            "    this.bus.emit('agent/disposed', agent);\n",
        ),
        _ => ("", ""),
    };
    let entries = format!("{lifecycle_decl}{turn_start}{mirror_entries}{session_entry}");
    let entries = if shape.events == EventsForm::Hidden {
        entries
            .replace("agent: Agent", "agent: HiddenAgent")
            .replace("reason: TurnEndReason", "reason: HiddenReason")
            .replace("chunk: StreamChunk", "chunk: HiddenChunk")
    } else {
        entries
    };
    let data_map: String = DATA
        .iter()
        .map(|(t, d)| format!("  '{t}': {d};\n"))
        .collect();
    format!(
        r#"// The simulated host (generated): see lint/tests/equivalence/render.rs.
{import}export type TurnEndReason = {{ kind: 'completed' | 'cancelled' }};
export type StreamChunk = {{ type: 'text'; delta: string }};
export type OwnEvent = {{ agentId: string; label: string }};
type Data = {{
{data_map}}};
{data}
export const effects: string[] = [];
/** Every observable effect of a plugin. */
export function out(...args: unknown[]): void {{
  effects.push(JSON.stringify(args));
}}

{events_open}
{entries}{events_close}
{aliases}
type Listener = (...args: any[]) => unknown;

export class Emitter {{
  private listeners: {{ name: string; fn: Listener; once: boolean }}[] = [];
{methods}  private add(name: string, fn: Listener, once: boolean): () => void {{
    const entry = {{ name, fn, once }};
    this.listeners.push(entry);
    return () => {{
      this.listeners = this.listeners.filter((l) => l !== entry);
    }};
  }}
  /** Calls the listeners of `name`; `how` says who fired it (a mirror, or an append). */
  fire(name: string, args: unknown[], how: 'mirror' | 'append'): void {{
    for (const l of [...this.listeners]) {{
      if (l.name !== name) continue;
      if (l.once) this.listeners = this.listeners.filter((x) => x !== l);
      try {{
        const r = l.fn(...args);
        if (r instanceof Promise) r.catch((e: Error) => out('rejected', name, e.message));
      }} catch (e) {{
        out(how === 'mirror' ? 'agent/error' : 'append-listener-failed', name, (e as Error).message);
      }}
    }}
  }}
}}
export type Context = Emitter;

export class Session {{
  readonly events: SessionEvent[] = [];
  constructor(
    readonly id: string,
    private readonly announce: (session: Session, event: SessionEvent) => void,
  ) {{}}
  async append<K extends keyof Data>(type: K, data: Data[K]): Promise<void> {{
    const event = {{ type, seq: this.events.length, time: 0, data }} as SessionEvent;
    this.events.push(event);
    this.announce(this, event);
  }}
}}

export class Agent extends Emitter {{
  constructor(
    readonly id: string,
    readonly name: string,
    readonly session: Session,
  ) {{
    super();
  }}
}}

export class Host {{
  readonly bus = new Emitter();
  private readonly agents: Agent[] = [];
  constructor(private readonly mode: 'before' | 'after') {{}}
  /** An agent object, not yet announced: its session id is not its id. */
  prepare(id: string, name: string): Agent {{
    return new Agent(id, name, new Session('s-' + id, (s, e) => this.announce(s, e)));
  }}
  start(agent: Agent): void {{
    this.agents.push(agent);
{created}  }}
  dispose(agent: Agent): void {{
{disposed}  }}
  private announce(session: Session, event: SessionEvent): void {{
    this.bus.fire('session/event', {announced}, 'append');
    for (const a of this.agents) if (a.session === session) a.fire('session/event', {announced}, 'append');
  }}
  private mirror(agent: Agent, name: string, ...args: unknown[]): void {{
{fire}  }}
  async runTurn(agent: Agent, turn: number): Promise<void> {{
    const s = agent.session;
    await s.append('turn/start', {{ turn, trigger: {{ kind: 'message' }} }});
    this.mirror(agent, 'agent/turn-start', turn);
    const step = 0;
    await s.append('step/start', {{ turn, step }});
    this.mirror(agent, 'agent/step-start', turn, step);
    for (const delta of ['Hel', 'lo']) {{
      const chunk: StreamChunk = {{ type: 'text', delta }};
      await s.append('assistant/chunk', {{ turn, step, chunk }});
      this.mirror(agent, 'agent/stream-chunk', turn, step, chunk);
    }}
    await s.append('step/end', {{ turn, step }});
    this.mirror(agent, 'agent/step-end', turn, step);
    const reason: TurnEndReason = {{ kind: 'completed' }};
    await s.append('turn/end', {{ turn, reason }});
    this.mirror(agent, 'agent/turn-end', turn, reason);
  }}
}}
"#
    )
}

/// What a handler records of a payload argument.
fn recorded(param: &str) -> String {
    match param {
        "reason" => "reason.kind".to_owned(),
        "chunk" => "chunk.delta".to_owned(),
        p => p.to_owned(),
    }
}

/// The parameters after the agent, annotated or not.
fn params(m: &Mirror, annotated: bool) -> String {
    m.params
        .iter()
        .map(|(p, t)| {
            if annotated {
                format!(", {p}: {t}")
            } else {
                format!(", {p}")
            }
        })
        .collect()
}

/// `out('fx', 'agent/turn-start', turn, …EXTRA)`.
fn effect(m: &Mirror, extra: &str) -> String {
    let args: String = m
        .params
        .iter()
        .map(|(p, _)| format!(", {}", recorded(p)))
        .collect();
    format!("out('fx', '{}'{args}{extra});", m.name)
}

/// The other mirror a loop over names also subscribes to.
fn other(m: &Mirror) -> &'static str {
    if m.name == "agent/turn-end" {
        "agent/turn-start"
    } else {
        "agent/turn-end"
    }
}

/// The listener a handler dimension makes on `recv` for a host's own event of a mirror's
/// name ([`Signatures::Own`]): it reads the host's payload.
fn own_listener(shape: &Shape, recv: &str) -> String {
    let name = shape.mirror.name;
    let fx = format!("out('fx', '{name}', e.label);");
    let on = |head: &str, body: String| {
        format!("  {recv}.on('{name}', {head}(e) => {{\n    {body}\n  }});\n")
    };
    match shape.handler {
        Handler::CompareId => on(
            "",
            format!("if (e.agentId !== watched.id) return;\n    {fx}"),
        ),
        Handler::Throws => on("", format!("{fx}\n    throw new Error('boom');")),
        Handler::Async => on("async ", format!("await Promise.resolve();\n    {fx}")),
        Handler::Once => format!("  {recv}.once('{name}', (e) => {{\n    {fx}\n  }});\n"),
        Handler::Loop => format!(
            "  for (const name of ['{name}', '{}'] as const) {{\n    {recv}.on(name, (_e: OwnEvent) => {{\n      out('fx', name);\n    }});\n  }}\n",
            other(&shape.mirror)
        ),
        Handler::Annotated => format!(
            "  {recv}.on('{name}', (e: OwnEvent) => {{\n    out('fx', '{name}', e.label, e.agentId);\n  }});\n"
        ),
        _ => on("", fx),
    }
}

/// The listener registration(s) the handler dimension makes on `recv`.
fn listener(shape: &Shape, recv: &str) -> String {
    if shape.signatures == Signatures::Own {
        return own_listener(shape, recv);
    }
    let m = &shape.mirror;
    let name = m.name;
    let plain = params(m, false);
    let on = |params: String, body: String| {
        format!("  {recv}.on('{name}', ({params}) => {{\n    {body}\n  }});\n")
    };
    match shape.handler {
        Handler::Plain | Handler::EmitsAndListens => on(format!("_subject{plain}"), effect(m, "")),
        Handler::SessionId => on(format!("subject{plain}"), effect(m, ", subject.session.id")),
        Handler::AgentValue => on(format!("subject{plain}"), effect(m, ", subject.name")),
        Handler::CompareObject => on(
            format!("subject{plain}"),
            format!("if (subject !== watched) return;\n    {}", effect(m, "")),
        ),
        Handler::CompareId => on(
            format!("subject{plain}"),
            format!(
                "if (subject.id !== watched.id) return;\n    {}",
                effect(m, "")
            ),
        ),
        Handler::CompareName => on(
            format!("subject{plain}"),
            format!(
                "if (subject.name !== watched.name) return;\n    {}",
                effect(m, "")
            ),
        ),
        Handler::Throws => on(
            format!("_subject{plain}"),
            format!("{}\n    throw new Error('boom');", effect(m, "")),
        ),
        Handler::Async => format!(
            "  {recv}.on('{name}', async (_subject{plain}) => {{\n    await Promise.resolve();\n    {}\n  }});\n",
            effect(m, "")
        ),
        Handler::Once => format!(
            "  {recv}.once('{name}', (_subject{plain}) => {{\n    {}\n  }});\n",
            effect(m, "")
        ),
        Handler::Loop => format!(
            "  for (const name of ['{name}', '{}'] as const) {{\n    {recv}.on(name, (_subject: Agent) => {{\n      out('fx', name);\n    }});\n  }}\n",
            other(m)
        ),
        Handler::Annotated => on(
            format!("subject: Agent{}", params(m, true)),
            effect(m, ", subject.session.id"),
        ),
        Handler::MergeReadsData => format!(
            "  {recv}.on('session/event', (_session, event) => {{\n    if (event.type === 'turn/start') out('durable', event.data.turn);\n  }});\n{}",
            on(format!("_subject{plain}"), effect(m, ""))
        ),
        Handler::SplitScopes => on(format!("subject{plain}"), effect(m, ", subject.name")),
        Handler::Merge => format!(
            "  {recv}.on('session/event', (_session, event) => {{\n    out('durable', event.type);\n  }});\n{}",
            on(format!("_subject{plain}"), effect(m, ""))
        ),
    }
}

/// The durable data and the mirror's arguments of the twin the plugin appends itself.
fn injected(m: &Mirror) -> (String, String) {
    let data = match m.twin {
        "turn/start" => "{ turn, trigger: { kind: 'message' } }",
        "turn/end" => "{ turn, reason }",
        "assistant/chunk" => "{ turn, step, chunk }",
        _ => "{ turn, step }",
    };
    let args: String = m.params.iter().map(|(p, _)| format!(", {p}")).collect();
    (data.to_owned(), args)
}

/// `plugin.ts`: the code `--fix` rewrites.
pub fn plugin(shape: &Shape) -> String {
    // The types the plugin names, and only those: a rewrite naming another one of the host's
    // must import it (or write `import('./host').T`).
    let mut types = vec!["Agent"];
    match shape.wiring {
        Wiring::Ctx => types.push("Context"),
        Wiring::Bus => types.push("Host"),
        Wiring::Agent => {}
    }
    if shape.signatures == Signatures::Own {
        if matches!(shape.handler, Handler::Loop | Handler::Annotated) {
            types.push("OwnEvent");
        }
    } else if matches!(shape.handler, Handler::EmitsAndListens | Handler::Annotated) {
        types.extend(["StreamChunk", "TurnEndReason"]);
    }
    let mut s = format!(
        "// A generated plugin (lint/tests/equivalence/render.rs).\n\
         import {{ out }} from './host';\n\
         import type {{ {} }} from './host';\n\n",
        types.join(", ")
    );
    let (head, recv) = match shape.wiring {
        Wiring::Ctx => (
            "export function apply(ctx: Context, watched: Agent): void {\n".to_owned(),
            "ctx",
        ),
        Wiring::Bus => (
            "export function apply(host: Host, watched: Agent): void {\n  const bus = host.bus;\n"
                .to_owned(),
            "bus",
        ),
        Wiring::Agent => (
            "export function attach(agent: Agent, watched: Agent): void {\n".to_owned(),
            "agent",
        ),
    };
    s.push_str(&head);
    s.push_str("  void watched;\n");
    s.push_str(&listener(shape, recv));
    s.push_str("}\n");
    if shape.handler == Handler::SplitScopes {
        // A second function whose handler (of another mirror) reads the agent too.
        let m = MIRRORS
            .iter()
            .find(|m| m.name == other(&shape.mirror))
            .unwrap_or(&shape.mirror);
        let (head, recv) = match shape.wiring {
            Wiring::Ctx => ("export function more(ctx: Context): void {\n", "ctx"),
            Wiring::Bus => (
                "export function more(host: Host): void {\n  const bus = host.bus;\n",
                "bus",
            ),
            Wiring::Agent => ("export function more(agent: Agent): void {\n", "agent"),
        };
        let second = Shape {
            handler: Handler::AgentValue,
            mirror: *m,
            ..*shape
        };
        s.push_str(&format!("\n{head}{}}}\n", listener(&second, recv)));
    }
    if shape.handler == Handler::EmitsAndListens && shape.signatures == Signatures::Own {
        let m = &shape.mirror;
        let (data, _) = injected(m);
        let (param, emitter) = match shape.wiring {
            Wiring::Ctx => ("ctx: Context, ", "ctx"),
            Wiring::Bus => ("host: Host, ", "host.bus"),
            Wiring::Agent => ("", "agent"),
        };
        let needs = if data.contains("reason") {
            "  const reason = { kind: 'cancelled' as const };\n"
        } else if data.contains("chunk") {
            "  const chunk = { type: 'text' as const, delta: 'own' };\n"
        } else {
            ""
        };
        s.push_str(&format!(
            "\n/** Appends a durable event of its own and fires the host's own event of that name beside it. */\n\
             export async function inject({param}agent: Agent): Promise<void> {{\n  \
             const turn = 9;\n  const step = 7;\n  void step;\n{needs}  \
             await agent.session.append('{}', {data});\n  \
             {emitter}.emit('{}', {{ agentId: agent.id, label: 'own' }});\n}}\n",
            m.twin, m.name
        ));
    } else if shape.handler == Handler::EmitsAndListens {
        let m = &shape.mirror;
        let (data, args) = injected(m);
        let (param, emitter) = match shape.wiring {
            Wiring::Ctx => ("ctx: Context, ", "ctx"),
            Wiring::Bus => ("host: Host, ", "host.bus"),
            Wiring::Agent => ("", "agent"),
        };
        s.push_str(&format!(
            "\n/** Appends a durable event of its own and fires its mirror beside it, as the loop did. */\n\
             export async function inject({param}agent: Agent): Promise<void> {{\n  \
             const turn = 9;\n  const step = 7;\n  const reason: TurnEndReason = {{ kind: 'cancelled' }};\n  \
             const chunk: StreamChunk = {{ type: 'text', delta: 'own' }};\n  \
             void step; void reason; void chunk;\n  \
             await agent.session.append('{}', {data});\n  \
             {emitter}.emit('{}', agent{args});\n}}\n",
            m.twin, m.name
        ));
    }
    s
}

/// `driver.ts`: prepares the agents, attaches the plugin before or after announcing them,
/// runs one turn per agent (and the plugin's own append), disposes them, and returns the
/// effects in order.
pub fn driver(shape: &Shape) -> String {
    let names = ["alpha", "beta", "gamma"];
    let prepare: String = names
        .iter()
        .take(shape.agents)
        .enumerate()
        .map(|(i, n)| format!("  agents.push(host.prepare('a{}', '{n}'));\n", i + 1))
        .collect();
    let split = shape.handler == Handler::SplitScopes;
    let attach = match (shape.wiring, split) {
        (Wiring::Ctx, false) => "  plugin.apply(host.bus, agents[0]);\n",
        (Wiring::Ctx, true) => "  plugin.apply(host.bus, agents[0]);\n  plugin.more(host.bus);\n",
        (Wiring::Bus, false) => "  plugin.apply(host, agents[0]);\n",
        (Wiring::Bus, true) => "  plugin.apply(host, agents[0]);\n  plugin.more(host);\n",
        (Wiring::Agent, false) => "  for (const a of agents) plugin.attach(a, agents[0]);\n",
        (Wiring::Agent, true) => {
            "  for (const a of agents) {\n    plugin.attach(a, agents[0]);\n    plugin.more(a);\n  }\n"
        }
    };
    let start = "  for (const a of agents) host.start(a);\n";
    let (first, second) = if shape.created_before {
        (start, attach)
    } else {
        (attach, start)
    };
    let inject = if shape.handler == Handler::EmitsAndListens {
        match shape.wiring {
            Wiring::Ctx => "  await plugin.inject(host.bus, agents[0]);\n",
            Wiring::Bus => "  await plugin.inject(host, agents[0]);\n",
            Wiring::Agent => "  await plugin.inject(agents[0]);\n",
        }
    } else {
        ""
    };
    format!(
        "// The driver of one generated shape (lint/tests/equivalence/render.rs).\n\
         import {{ Host, effects }} from './host';\n\
         import type {{ Agent }} from './host';\n\
         import * as plugin from './plugin';\n\n\
         export async function main(mode: 'before' | 'after'): Promise<string[]> {{\n  \
         effects.length = 0;\n  const host = new Host(mode);\n  const agents: Agent[] = [];\n\
         {prepare}{first}{second}  \
         for (const a of agents) await host.runTurn(a, 1);\n\
         {inject}  for (const a of agents) host.dispose(a);\n  \
         await new Promise((resolve) => setTimeout(resolve, 0));\n  \
         return effects.slice();\n}}\n"
    )
}

/// `run.ts` at a tree's root: runs each shape's driver in `process.argv[2]`'s mode and prints
/// `### NAME` and then its effects, one a line (`!!! …` when the driver threw).
pub fn runner(names: &[String]) -> String {
    let list: String = names.iter().map(|n| format!("  '{n}',\n")).collect();
    format!(
        "// Runs every generated shape (lint/tests/equivalence/render.rs).\n\
         declare const process: {{ argv: string[] }};\n\
         const shapes: string[] = [\n{list}];\n\n\
         async function run(): Promise<void> {{\n  \
         const mode = process.argv[2] === 'after' ? 'after' : 'before';\n  \
         for (const name of shapes) {{\n    \
         console.log('### ' + name);\n    \
         try {{\n      \
         const driver = await import('./' + name + '/driver');\n      \
         for (const line of await driver.main(mode)) console.log(line);\n    \
         }} catch (e) {{\n      \
         console.log('!!! ' + String(e));\n    }}\n  }}\n  \
         console.log('### end');\n}}\n\
         void run();\n"
    )
}
