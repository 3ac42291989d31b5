// The harness types the TypeScript fix fixtures (fixtures/lint/fix/**/*.ts) use, for
// lint/tests/fix_typecheck.rs: a Cordis-style context whose `on`/`emit` are typed by an
// `Events` map, the durable `SessionEvent` union, and the small objects the handlers call.
// A global script (no import/export), so every fixture sees it without importing it.
// `HarnessContext` is the typed context; `harness-typed.d.ts`, `harness-any.d.ts` and
// `harness-unknown.d.ts` bind the fixtures' `Context` to it, to `any`, or to a host typing
// `session/event`'s `data` as `unknown`.

type TurnTrigger = { kind: 'message' | 'continuation' | 'injection'; source?: string };
type TurnEndReason = { kind: 'completed' | 'cancelled' | 'error' | 'max-steps' };
type StreamChunk = { type: string; delta?: string };
type ContentBlock = { type: 'text'; text: string };
type MessageSource = 'user' | 'steering' | 'system';
type Status = 'idle' | 'running';

type SessionEventData = {
  'turn/start': { turn: number; trigger: TurnTrigger };
  'turn/end': { turn: number; reason: TurnEndReason };
  'step/start': { turn: number; step: number };
  'step/end': { turn: number; step: number };
  'assistant/chunk': { turn: number; step: number; chunk: StreamChunk };
  'user/message': { content: ContentBlock[]; source: MessageSource };
  'steering/message': { turn: number; content: ContentBlock[]; source: MessageSource };
};
/** The durable envelope, discriminated on `type`. */
type SessionEvent = {
  [K in keyof SessionEventData]: { type: K; seq: number; time: number; data: SessionEventData[K] };
}[keyof SessionEventData];

interface Session {
  id: string;
  /** The durable log, in order. */
  readonly events: readonly SessionEvent[];
  append<K extends keyof SessionEventData>(type: K, data: SessionEventData[K]): Promise<void>;
  append<K extends keyof SessionEventData>(event: { type: K; data: SessionEventData[K] }): Promise<void>;
}

interface Agent {
  session: Session;
  wakeFollowUps(): void;
}

/** The live events: 2026-07 positional mirrors, the lifecycle events, `session/event`. */
interface HarnessEvents {
  'agent/created'(agent: Agent): void;
  'agent/disposed'(agent: Agent): void;
  'agent/status'(agent: Agent, status: Status): void;
  'agent/turn-start'(agent: Agent, turn: number): void;
  'agent/turn-end'(agent: Agent, turn: number, reason: TurnEndReason): void;
  'agent/step-start'(agent: Agent, turn: number, step: number): void;
  'agent/step-end'(agent: Agent, turn: number, step: number): void;
  'agent/stream-chunk'(agent: Agent, turn: number, step: number, chunk: StreamChunk): void;
  'agent/steering'(agent: Agent, content: ContentBlock[], source: MessageSource): void;
  'agent/queued'(agent: Agent, content: ContentBlock[], info: MessageSource): void;
  'session/event'(session: Session, event: SessionEvent): void;
}

/** The same events in 2026-08 form: one payload object each. */
interface HarnessPayloadEvents {
  'agent/turn-start'(payload: { agent: Agent; turn: number }): void;
  'agent/turn-end'(payload: { agent: Agent; turn: number; reason: TurnEndReason }): void;
  'agent/step-start'(payload: { agent: Agent; turn: number; step: number }): void;
  'agent/step-end'(payload: { agent: Agent; turn: number; step: number }): void;
  'agent/steering'(payload: { agent: Agent; turn: number; content: ContentBlock[]; source: MessageSource }): void;
  'session/event'(session: Session, event: SessionEvent): void;
}

interface HarnessBus<E> {
  on<K extends keyof E>(name: K, listener: E[K]): () => void;
  once<K extends keyof E>(name: K, listener: E[K]): () => void;
  emit<K extends keyof E>(name: K, ...args: E[K] extends (...a: infer A) => void ? A : never): void;
  agents: { get(id: string): Agent | undefined };
}
type HarnessContext = HarnessBus<HarnessEvents>;
type HarnessPayloadContext = HarnessBus<HarnessPayloadEvents>;

/** `E` with `session/event` typed by a host that gives `data` no type (`harness-unknown.d.ts`). */
type HarnessUnknownData<E> = {
  [K in keyof E]: K extends 'session/event'
    ? (session: Session, event: { type: string; seq: number; time: number; data: unknown }) => void
    : E[K];
};
type HarnessUnknownDataContext = HarnessBus<HarnessUnknownData<HarnessEvents>>;
type HarnessUnknownDataPayloadContext = HarnessBus<HarnessUnknownData<HarnessPayloadEvents>>;

interface Ui {
  spinnerOn(session: string, turn: number): void;
  spinnerOff(...args: [turn: number, reason: TurnEndReason | TurnEndReason['kind']] | [session: string, turn: number, reason: TurnEndReason]): void;
}
interface Meter { record(turn: number, step: number, chunk: StreamChunk): void }
interface Panel {
  show(content: ContentBlock[], source: MessageSource): void;
  showAt(turn: number, content: ContentBlock[]): void;
}
interface Inbox { show(content: ContentBlock[], info: MessageSource): void }

declare const trace: { open(turn: number, step?: number): void; close(turn: number, step: number): void };
declare const log: { warn(message: string, err: unknown): void };
declare function audit(...values: unknown[]): void;
declare function close(turn: number, step: number): void;
declare function stream(): AsyncIterable<StreamChunk>;
declare function reasonOf(agent: Agent): TurnEndReason;
declare const emit: boolean;

// What the test fixtures (`*.spec.ts`) drive the loop with, as upstream's tests do.
declare function it(name: string, body: () => Promise<void> | void): void;
declare function expect(value: unknown): { toEqual(v: unknown): void; toHaveLength(n: number): void };
declare function harness(): HarnessContext;
declare function createAgent(ctx: unknown): Agent;
declare function run(agent: Agent, text: string): Promise<void>;

declare module 'cordis' {
  export interface Events {}
}
declare module '@deepseek-ai/cordis' {
  export interface Events {}
}

// A host package the fixtures import names from, so that an import a fix leaves unused is one
// `tsc --noUnusedLocals` reports. Its types are the harness's own under other names.
type HarnessAgent = Agent;
declare module 'agent-host' {
  export type LoopAgent = HarnessAgent;
  export type TurnEnd = TurnEndReason;
  export type StepOpened = { turn: number; step: number };
  export type StepClosed = { turn: number; step: number };
  export type StepEvent = 'agent/step-start';
  export type Chunk = StreamChunk;
  export const completed: TurnEndReason;
  export const metrics: Meter;
  export const current: { turn: number };
  export default class Host {}
}
