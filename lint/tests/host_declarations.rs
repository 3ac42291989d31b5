//! A TypeScript rewrite names no event, type or API the host does not declare (issue #29,
//! item 1 (b): "read the `Events` interface and declaration merging the file sees; when
//! unknown, it is a suggestion that says what is missing"). A plugin is linted alone, its host
//! a relative module or a package under `node_modules`: the fixer reads the host's
//! declarations through the plugin's imports, as `tsc` does. When the pinned `tsc` is
//! installed (`tests/js-tools/setup.sh`), each fixed plugin is also type-checked against its
//! host (`MIRRORLESS_REQUIRE_TSC=1` makes its absence a failure).

use mirrorless_lint::config::Config;
use mirrorless_lint::fix::{self, FixOptions, Outcome};
use mirrorless_lint::{Options, Report};
use std::path::{Path, PathBuf};
use std::process::Command;

fn no_filter(_: &mut Report) {}

/// `--fix --unsafe-fixes` on `plugin.ts` alone, in memory; the result is written back.
fn fix_alone(dir: &Path) -> (String, Outcome) {
    let path = dir.join("plugin.ts");
    let opts = Options {
        paths: vec![path.clone()],
        jobs: Some(1),
        follow: false,
        config: Config {
            root: dir.to_path_buf(),
            ..Config::default()
        },
    };
    let outcome = fix::run(&opts, FixOptions { unsafe_fixes: true }, &no_filter);
    assert!(
        outcome.report.errors.is_empty(),
        "{:?}",
        outcome.report.errors
    );
    let text = outcome
        .files
        .first()
        .map(|f| f.fixed.clone())
        .unwrap_or_else(|| std::fs::read_to_string(&path).unwrap_or_default());
    // On disk, for `tsc`.
    std::fs::write(&path, &text).unwrap();
    (text, outcome)
}

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// `tsc --strict --noEmit` on `files` in `dir` (which resolves their imports), when installed.
fn type_checks(dir: &Path, files: &[&str]) -> Option<Result<(), String>> {
    let tsc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/js-tools/node_modules/.bin/tsc");
    if !tsc.is_file() {
        let required = std::env::var("MIRRORLESS_REQUIRE_TSC").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "MIRRORLESS_REQUIRE_TSC=1 but {} is missing",
            tsc.display()
        );
        eprintln!(
            "SKIPPED: {} is missing: the fixed plugins were not type-checked",
            tsc.display()
        );
        return None;
    }
    let out = Command::new(&tsc)
        .current_dir(dir)
        .args([
            "--strict", "--noEmit", "--pretty", "false", "--types", "", "--target", "es2022",
        ])
        .args(["--module", "commonjs"])
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tsc.display()));
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stdout).into_owned())
    })
}

const PLUGIN: &str = "import type { Context } from './host';\n\
declare function out(...args: unknown[]): void;\n\n\
export function apply(ctx: Context): void {\n  \
ctx.on('agent/turn-end', (_agent, turn, reason) => {\n    out(turn, reason.kind);\n  });\n  \
ctx.on('agent/step-end', (agent, turn) => {\n    out(agent.name, turn);\n  });\n}\n";

/// A host beside the plugin: `data` is `unknown`, no `agent/created`.
const HOST: &str = "export type TurnEndReason = { kind: string };\n\
export interface Session { id: string }\n\
export interface Agent { name: string; session: Session }\n\
export type SessionEvent = { type: string; data: unknown };\n\
export interface Events {\n  \
'agent/turn-end'(agent: Agent, turn: number, reason: TurnEndReason): void;\n  \
'agent/step-end'(agent: Agent, turn: number, step: number): void;\n  \
'session/event'(session: Session, event: SessionEvent): void;\n}\n\
export interface Context {\n  on<K extends keyof Events>(name: K, fn: Events[K]): () => void;\n}\n";

// Item 1 (b): `data` typed `unknown` by the host the plugin imports: the uncast read is cast
// to the host's own types, named through the import the plugin has; an event the host does
// not declare (`agent/created`, for the map of agents) is never written, the note says so.
#[test]
fn a_relative_hosts_declarations_decide_the_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &[("plugin.ts", PLUGIN), ("host.ts", HOST)]);
    let (text, outcome) = fix_alone(dir.path());
    assert!(
        text.contains(
            "const { turn, reason } = event.data as { turn: number; reason: import('./host').TurnEndReason }"
        ),
        "{text}"
    );
    assert!(!text.contains("agent/created"), "{text}");
    assert!(
        text.contains("'agent/step-end'"),
        "the listener needing its agent stays:\n{text}"
    );
    let left: Vec<&str> = outcome
        .report
        .findings
        .iter()
        .filter(|f| f.rule == "ML001")
        .filter_map(|f| f.note.as_deref())
        .collect();
    assert!(
        left.iter()
            .any(|n| n.contains("`agent/created`") && n.contains("`Events` at")),
        "{left:?}"
    );
    if let Some(checked) = type_checks(dir.path(), &["plugin.ts"]) {
        checked.unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}

// Item 1 (b): a host that is a package (its `types` under `node_modules`), whose `on` is not
// generic: the map of agents holds the host's agent type, written as an `import('…')` type the
// plugin can name, never `typeof ctx.on<'agent/created'>` (TS2635).
#[test]
fn a_packaged_hosts_declarations_type_the_map_of_agents() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = "import type { Context } from '@acme/host';\n\
declare function out(...args: unknown[]): void;\n\n\
export function apply(ctx: Context): void {\n  \
ctx.on('agent/turn-start', (agent, turn) => {\n    out(agent.name, turn);\n  });\n}\n";
    let types = "export interface Agent { name: string; session: unknown }\n\
export interface Events {\n  'agent/created'(agent: Agent): void;\n  'agent/disposed'(agent: Agent): void;\n  \
'agent/turn-start'(agent: Agent, turn: number): void;\n  \
'session/event'(session: unknown, event: { type: string; data: any }): void;\n}\n\
export declare class Context {\n  on(name: string, fn: (...args: any[]) => void): this;\n}\n";
    write(
        dir.path(),
        &[
            ("plugin.ts", plugin),
            (
                "node_modules/@acme/host/package.json",
                "{\"name\": \"@acme/host\", \"types\": \"types/index.d.ts\"}",
            ),
            ("node_modules/@acme/host/types/index.d.ts", types),
        ],
    );
    let (text, _) = fix_alone(dir.path());
    assert!(
        text.contains("new Map<unknown, import('@acme/host').Agent>()"),
        "{text}"
    );
    assert!(!text.contains("typeof ctx.on"), "{text}");
    // `data: any` reads uncast.
    assert!(text.contains("const { turn } = event.data;"), "{text}");
    if let Some(checked) = type_checks(dir.path(), &["plugin.ts"]) {
        checked.unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}

// Item 1 (b), "when unknown, it is a suggestion that says what is missing": with no host in
// view, the map's type stays the receiver's, and the suggestion says what to check.
/// The suggestion on the listener that needs its agent (`plugin.ts:8`), linting `plugin`
/// alone as the editor does, with `dir` as the root.
fn agent_listener_suggestion(dir: &Path, plugin: &str) -> mirrorless_lint::model::Fix {
    let path: PathBuf = dir.join("plugin.ts");
    let report = mirrorless_lint::lint_document(
        &path,
        plugin,
        &Config {
            root: dir.to_path_buf(),
            ..Config::default()
        },
    );
    let fix = report
        .findings
        .iter()
        .filter(|f| f.rule == "ML001" && f.line == 8)
        .find_map(|f| f.fix.clone())
        .expect("the listener needing its agent has a suggestion");
    assert_eq!(
        fix.applicability,
        mirrorless_lint::model::Applicability::Suggestion
    );
    fix
}

#[test]
fn without_the_hosts_declarations_the_suggestion_says_what_to_check() {
    let dir = tempfile::tempdir().unwrap();
    let plugin = PLUGIN.replace("'./host'", "'not-installed'");
    write(dir.path(), &[("plugin.ts", &plugin)]);
    let fix = agent_listener_suggestion(dir.path(), &plugin);
    assert!(
        fix.message.contains("check that it does"),
        "{}",
        fix.message
    );
    assert!(fix.message.contains("generic"), "{}", fix.message);
}

// Item 1 (b) and COMMON ("Bad input: a clear error naming the file and line, never a
// panic"): a host declaration file the parser cannot read declares nothing that is known; the
// suggestion says which file and line could not be read, and no machine-applicable fix names
// an event on its word.
#[test]
fn a_host_that_does_not_parse_is_named_in_the_note() {
    let dir = tempfile::tempdir().unwrap();
    let broken = HOST.replace(
        "'session/event'(session: Session, event: SessionEvent): void;",
        "'session/event'(session: Session, event: SessionEvent): void;\n  'agent/created'(agent: Agent): void;\n  broken(: void;",
    );
    write(dir.path(), &[("plugin.ts", PLUGIN), ("host.ts", &broken)]);
    let fix = agent_listener_suggestion(dir.path(), PLUGIN);
    assert!(
        fix.message.contains("oxc could not parse") && fix.message.contains("host.ts:10 ("),
        "{}",
        fix.message
    );
}

// Item 1 (b) at upstream's parents (`3f85f522ea`, `ui-stdio`): the host's `Agent` is declared
// in a package the UI plugin does not import, which adds the lifecycle entries to the
// framework's `Events` by augmenting its module; the plugin imports only the framework. The
// map of agents is typed through the map itself, as the plugin can name it
// (`Parameters<import('@acme/host').Events['agent/created']>[0]`), never through a name it
// cannot import, and the rewrite is not dropped (which held back the loop's emit and failed
// MIRROR-3 there).
#[test]
fn an_agent_type_only_the_map_shows_is_named_through_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let framework = "export interface Session { id: string }\n\
export interface Events {\n  'session/event'(session: Session, event: { type: string; data: any }): void;\n}\n\
export declare class Context {\n  on<K extends keyof Events>(name: K, fn: Events[K]): () => void;\n}\n";
    let agent = "import type { Session } from '@acme/host';\n\
export interface Agent { id: string; session: Session }\n\
declare module '@acme/host' {\n  interface Events {\n    'agent/created'(agent: Agent): void;\n    \
'agent/disposed'(agent: Agent): void;\n    'agent/turn-start'(agent: Agent, turn: number): void;\n  }\n}\n";
    let plugin = "import type { Context } from '@acme/host';\n\
declare function out(...args: unknown[]): void;\n\n\
export function apply(ctx: Context): void {\n  \
ctx.on('agent/turn-start', (agent, turn) => {\n    out(agent.id, turn);\n  });\n}\n";
    write(
        dir.path(),
        &[
            ("plugin.ts", plugin),
            ("agent.ts", agent),
            (
                "node_modules/@acme/host/package.json",
                "{\"name\": \"@acme/host\", \"types\": \"index.d.ts\"}",
            ),
            ("node_modules/@acme/host/index.d.ts", framework),
        ],
    );
    let path = dir.path().join("plugin.ts");
    let opts = Options {
        paths: vec![path.clone(), dir.path().join("agent.ts")],
        jobs: Some(1),
        follow: false,
        config: Config {
            root: dir.path().to_path_buf(),
            ..Config::default()
        },
    };
    let outcome = fix::run(&opts, FixOptions { unsafe_fixes: true }, &no_filter);
    let text = outcome
        .files
        .iter()
        .find(|f| f.path.ends_with("plugin.ts"))
        .map(|f| f.fixed.clone())
        .unwrap_or_default();
    assert!(
        text.contains(
            "new Map<unknown, Parameters<import('@acme/host').Events['agent/created']>[0]>()"
        ),
        "{text}"
    );
    std::fs::write(&path, &text).unwrap();
    if let Some(checked) = type_checks(dir.path(), &["plugin.ts", "agent.ts"]) {
        checked.unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}

// Issue #29: "a fix never breaks the build": JavaScript has no types, so the map of agents a
// rewrite declares there has none (its `new Map<unknown, …>()` did not parse: the fix was
// dropped).
#[test]
fn a_javascript_map_of_agents_writes_no_type() {
    let src = "export function apply(ctx) {\n  ctx.on('agent/turn-end', (agent, turn) => {\n    out(agent.name, turn);\n  });\n}\n";
    let report = mirrorless_lint::lint_document(
        Path::new("plugin.js"),
        src,
        &Config {
            root: ".".into(),
            ..Config::default()
        },
    );
    let fix = report
        .findings
        .iter()
        .find_map(|f| f.fix.as_ref())
        .expect("the listener has a suggestion");
    let written: String = fix.edits.iter().map(|e| e.replacement.as_str()).collect();
    assert!(written.contains("= new Map();"), "{written}");
    assert!(!written.contains('<'), "{written}");
}

// Item 1 (b), the rewrite of a test's collecting listener (read the durable log after the
// run, `e.data.chunk`): where the host types `data` as `unknown`, the read is cast too.
#[test]
fn a_tests_log_read_is_cast_where_the_host_types_data_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let host = "export type StreamChunk = { delta: string };\n\
export interface Session { id: string; events: SessionEvent[] }\n\
export interface Agent { session: Session }\n\
export type SessionEvent = { type: string; data: unknown };\n\
export interface Events {\n  \
'agent/stream-chunk'(agent: Agent, turn: number, step: number, chunk: StreamChunk): void;\n  \
'session/event'(session: Session, event: SessionEvent): void;\n}\n\
export interface Context {\n  on<K extends keyof Events>(name: K, fn: Events[K]): () => void;\n}\n\
export declare function harness(): Context;\n\
export declare function createAgent(ctx: Context): Agent;\n\
export declare function run(agent: Agent, prompt: string): Promise<void>;\n";
    let test = "import { createAgent, harness, run } from './host';\n\
import type { Context, StreamChunk } from './host';\n\
declare function it(title: string, f: () => Promise<void>): void;\n\
declare function expect(x: unknown): { toHaveLength(n: number): void };\n\n\
it('records raw chunks for replay', async () => {\n  \
const ctx: Context = harness();\n  \
const agent = createAgent(ctx);\n\n  \
const streamed: StreamChunk[] = [];\n  \
ctx.on('agent/stream-chunk', (_agent, _turn, _step, chunk) => void streamed.push(chunk));\n\n  \
await run(agent, 'hi');\n\n  \
expect(streamed).toHaveLength(7);\n});\n";
    write(dir.path(), &[("plugin.spec.ts", test), ("host.ts", host)]);
    let path = dir.path().join("plugin.spec.ts");
    let opts = Options {
        paths: vec![path.clone()],
        jobs: Some(1),
        follow: false,
        config: Config {
            root: dir.path().to_path_buf(),
            ..Config::default()
        },
    };
    let outcome = fix::run(&opts, FixOptions { unsafe_fixes: true }, &no_filter);
    let text = outcome
        .files
        .first()
        .map(|f| f.fixed.clone())
        .unwrap_or_default();
    assert!(
        text.contains("[(e.data as { chunk: StreamChunk }).chunk]"),
        "{text}"
    );
    std::fs::write(&path, &text).unwrap();
    if let Some(checked) = type_checks(dir.path(), &["plugin.spec.ts"]) {
        checked.unwrap_or_else(|e| panic!("{e}\n{text}"));
    }
}

// Item 1 (b) on a run that holds the host too: a host that names no removed event is past no
// prefilter, its text is not kept; the plugin's import still reaches it (read again).
#[test]
fn a_host_in_the_run_without_removed_names_is_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let host = HOST.replace(
        "  'agent/turn-end'(agent: Agent, turn: number, reason: TurnEndReason): void;\n  'agent/step-end'(agent: Agent, turn: number, step: number): void;\n",
        "",
    );
    assert_ne!(host, HOST, "the host no longer declares the mirrors");
    let plugin = "import type { Context } from './host';\n\
declare function out(...args: unknown[]): void;\n\n\
export function apply(ctx: Context): void {\n  \
(ctx as any).on('agent/step-end', (agent: { name: string }, turn: number) => {\n    out(agent.name, turn);\n  });\n}\n";
    write(dir.path(), &[("plugin.ts", plugin), ("host.ts", &host)]);
    let opts = Options {
        paths: vec![dir.path().to_path_buf()],
        jobs: Some(1),
        follow: false,
        config: Config {
            root: dir.path().to_path_buf(),
            ..Config::default()
        },
    };
    let report = mirrorless_lint::lint(&opts);
    let sub = report
        .findings
        .iter()
        .find(|f| f.rule == "ML001")
        .expect("the subscription is a finding");
    assert!(sub.fix.is_none(), "{:?}", sub.fix);
    assert!(
        sub.note
            .as_deref()
            .is_some_and(|n| n.contains("`agent/created`")),
        "{:?}",
        sub.note
    );
}
