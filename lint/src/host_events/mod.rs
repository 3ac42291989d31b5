//! A rewrite never names an event, type or API the host does not declare (issue #29 item 1
//! (b)).
//!
//! The TypeScript fixes write what the original code did not: live event names (`session/event`
//! in every subscription rewrite, `agent/created`/`agent/disposed` for the map of agents by
//! session a rewrite declares, a test's stand-in announcing its agent), the agent's type in that
//! map, and a destructuring of `event.data`. A front end sees one file; what the host declares
//! is read here, once per run, from the declarations each script sees ([`view`]: the run's
//! scripts and the files their imports reach on disk, a package's types under `node_modules`
//! included), as `tsc` reads them:
//!
//! - **The host's event map** ([`map::EventMap`]): the interfaces (merged by name, in
//!   `declare module` blocks too) or type literal of the name that declares `session/event`
//!   (the one holding the run's declaration of a removed event's entry, or the only one, or
//!   the only one holding the event the finding is about). A fix naming an event it does not
//!   declare has no fix, and its note says which event is missing (`tsc`: TS2345, then TS7006
//!   on the listener's parameters, where the original passed).
//! - **`data`**: a rewrite that destructures `event.data` uncast (an unannotated handler, in a
//!   file that does not show how its host types `data`) type-checks only where the host types
//!   it by event type; where the map's `session/event` entry types it otherwise (`unknown`,
//!   TS2339), the destructuring is cast to the types the map gives the removed event's
//!   arguments, as the file can name them (`import('./host').TurnEndReason` when it does not
//!   import the name), and the fix has none when they cannot be written.
//! - **The agent's type** in a map of agents the rewrite declares, spelled from the receiver's
//!   generic `on` (`typeof ctx.on<'agent/created'>`, TS2635 on an `on` that is not generic):
//!   the type the map gives `agent/created`'s agent, written as the file can name it, or no
//!   fix.
//!
//! When a script sees no map, nothing is known: a suggestion that names an event other than
//! `session/event` (the durable channel every host of the protocol has) says to check it,
//! and so does one that types its map of agents by the receiver's `on`; a machine-applicable
//! fix names only `session/event`, reads `data` only where it is typed, and spells no type of
//! the host's.

mod decls;
mod map;
mod view;
#[cfg(all(test, unix))]
mod view_layouts;

use crate::hash::{HashMap, HashSet};
use crate::model::{Applicability, Finding, Fix};
use crate::source::Source;
use map::EventMap;
use std::collections::BTreeSet;
use std::path::Path;
use view::World;

/// What a script declares, read from the parse its analysis made (issue 32 item 1: this pass
/// parsed every script of the run a second time): what [`keep_to_declared_events`] would
/// read from the same text, as `host_events::tests` checks.
#[derive(Debug, Clone)]
pub(crate) struct HostDeclarations(decls::Read);

impl HostDeclarations {
    /// The declarations of `program`, parsed from `text` as [`crate::frontend::typescript`]
    /// parses the file.
    pub(crate) fn of(program: &oxc_ast::ast::Program<'_>, text: &str) -> Self {
        HostDeclarations(decls::collect(program, text))
    }

    /// A file that did not parse: oxc stopped at byte `at` of `text` with `message`.
    pub(crate) fn unparsed(text: &str, at: usize, message: String) -> Self {
        HostDeclarations(decls::unparsed(text, at, message))
    }
}

/// The rule of a declaration.
const DECLARE: &str = "ML003";

/// The durable channel: the target of every rewrite, which every host of the protocol has.
const SESSION_EVENT: &str = "session/event";

/// Whether a path is TypeScript or JavaScript.
fn is_script(path: &str) -> bool {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext,
        "ts" | "tsx" | "mts" | "cts" | "js" | "jsx" | "mjs" | "cjs"
    )
}

/// Drops the fix, saying why in the finding's note.
fn drop_fix(f: &mut Finding, why: String) {
    f.fix = None;
    f.note = Some(match f.note.take() {
        Some(n) => format!("{n}; {why}"),
        None => why,
    });
}

/// Replaces the first occurrence of `from` in the fix's edits.
fn patch(fix: &mut Fix, from: &str, to: &str) -> bool {
    fix.edits.iter_mut().any(|e| {
        let Some(at) = e.replacement.find(from) else {
            return false;
        };
        e.replacement.replace_range(at..at + from.len(), to);
        true
    })
}

/// Settles what the run's TypeScript fixes leave to the host's declarations (see the module
/// documentation): drops or annotates the fixes that name what the host does not declare,
/// and spells the host's types where a rewrite needs them. `dropped(i)`: whether the run
/// read source `i` without keeping its text (it is read again from disk if an import
/// reaches it). `known[i]`: what source `i` declares, when its analysis read it. Returns how
/// many files it read for their declarations.
pub(crate) fn keep_to_declared_events(
    findings: &mut [Finding],
    sources: &[Source],
    dropped: &dyn Fn(usize) -> bool,
    known: Vec<Option<HostDeclarations>>,
) -> usize {
    let todo: Vec<(usize, BTreeSet<String>)> = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| is_script(&f.path))
        .filter_map(|(i, f)| {
            let fix = f.fix.as_ref()?;
            let names = events_written(fix);
            let host = &fix.host;
            (!names.is_empty()
                || host.data_read.is_some()
                || host.agent_type.is_some()
                || host.handler.is_some())
            .then_some((i, names))
        })
        .collect();
    if todo.is_empty() {
        return 0;
    }
    let with_findings: HashSet<&str> = findings
        .iter()
        .filter(|f| is_script(&f.path))
        .map(|f| f.path.as_str())
        .collect();
    let in_run = |s: &Source| with_findings.contains(s.display.as_str());
    let mut world = World::of_run(sources, dropped, is_script, in_run, known);
    drop(with_findings);
    let anchor = anchor(findings, sources, &world);
    // Per file and event: the map in view, and the files in view oxc could not parse.
    type Seen = (Option<EventMap>, Vec<String>);
    let mut maps: HashMap<(String, Option<String>), Seen> = HashMap::default();
    for (i, names) in todo {
        let f = &mut findings[i];
        let Some(file) = world.run_file(&f.path) else {
            continue;
        };
        let (map, unread) = maps
            .entry((f.path.clone(), f.event.clone()))
            .or_insert_with(|| {
                let view = world.view(file);
                let map = EventMap::find(&world, &view, anchor.as_deref(), f.event.as_deref());
                (map, world.unread(file))
            });
        let unread = unread_note(unread);
        match map {
            Some(map) => settle(f, &names, map, &mut world, file, &unread),
            None => unknown_host(f, &names, &unread),
        }
    }
    // Freeing every file read is no part of the result: done on the pool, whose threads are
    // idle now, while the run goes on (issue 32 item 1).
    let files = world.into_files();
    let read = files.len();
    rayon::spawn(move || drop((files, maps)));
    read
}

/// What a note adds when files the script sees could not be parsed.
fn unread_note(unread: &[String]) -> String {
    if unread.is_empty() {
        return String::new();
    }
    format!(
        " (what {} declare{} is not known: oxc could not parse {})",
        if unread.len() == 1 { "it" } else { "they" },
        if unread.len() == 1 { "s" } else { "" },
        unread.join(", ")
    )
}

/// The name of the interface (or type literal) holding the run's first declaration of a
/// removed event's entry.
fn anchor(findings: &[Finding], sources: &[Source], world: &World) -> Option<String> {
    // The first by path and position, not by the order the run was given its files in.
    let mut declared: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.rule == DECLARE && is_script(&f.path))
        .collect();
    declared.sort_by(|a, b| {
        (Path::new(&a.path), a.line, a.column).cmp(&(Path::new(&b.path), b.line, b.column))
    });
    declared.into_iter().find_map(|f| {
        let s = sources.iter().find(|s| s.display == f.path)?;
        let line = crate::source::LineIndex::new(&s.text).line_range(f.line);
        let offset = s
            .text
            .get(line.clone())?
            .char_indices()
            .nth(f.column.saturating_sub(1))
            .map(|(i, _)| line.start + i)?;
        let file = world.run_file(&f.path)?;
        world.enclosing_map(file, offset)
    })
}

/// A fix in a script that sees the host's event map `map`.
fn settle(
    f: &mut Finding,
    names: &BTreeSet<String>,
    map: &EventMap,
    world: &mut World,
    file: view::FileId,
    unread: &str,
) {
    let missing: Vec<&String> = names.iter().filter(|n| !map.keys.contains(*n)).collect();
    if let Some(first) = missing.first() {
        let list = missing
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let why = format!(
            "no fix: the rewrite would name {list}, which the host's event map (`{}` at {}) does not declare{unread}, so the host could not type it; declare `{first}` there, or migrate this by hand",
            map.name, map.at
        );
        return drop_fix(f, why);
    }
    if let Some(why) = f
        .fix
        .as_ref()
        .and_then(|fix| undeclared_shape(fix, names, map))
    {
        return drop_fix(f, why);
    }
    let Some(fix) = f.fix.as_mut() else { return };
    if let Some(read) = fix.host.data_read.clone()
        && let Some(data) = map.data_needs_cast(world)
    {
        let types: Result<Vec<String>, map::Unspellable> = match &read.fields {
            Some(fields) => fields
                .iter()
                .map(|(field, at)| {
                    map.typed(world, file, &read.mirror, at + 1)
                        .map(|t| format!("{field}: {t}"))
                })
                .collect(),
            None => Err(map::Unspellable(
                "the handler takes one payload object, whose type the map does not give field by field".to_owned(),
            )),
        };
        match types {
            Ok(types) => {
                let cast = read
                    .cast
                    .replace("{types}", &format!("{{ {} }}", types.join("; ")));
                if patch(fix, &read.statement, &cast) {
                    if !read.warning.is_empty() {
                        fix.message = fix.message.replacen(&read.warning, "", 1);
                    }
                    fix.message.push_str(&format!(
                        "; the host types `session/event`'s `data` as {data}, so it casts `data` to the types its event map (`{}` at {}) gives `{}`'s arguments",
                        map.name, map.at, read.mirror
                    ));
                }
            }
            Err(map::Unspellable(why)) => {
                return drop_fix(
                    f,
                    format!(
                        "no fix: the host types `session/event`'s `data` as {data}, so the rewrite's `{}` needs a cast, and {why}; annotate the handler's parameters (the rewrite casts to them), or migrate this by hand",
                        read.statement
                    ),
                );
            }
        }
    }
    let Some(fix) = f.fix.as_mut() else { return };
    if let Some(needle) = fix.host.agent_type.clone() {
        match map.typed(world, file, "agent/created", 0) {
            Ok(ty) => {
                patch(fix, &needle, &ty);
                fix.message.push_str(&format!(
                    "; its map holds `{ty}`, the agent the host's event map (`{}` at {}) gives `agent/created`",
                    map.name, map.at
                ));
            }
            Err(map::Unspellable(why)) => drop_fix(
                f,
                format!(
                    "no fix: the map of agents the rewrite declares needs the agent's type, and {why}; annotate the handler's agent parameter (the map takes its type), or migrate this by hand"
                ),
            ),
        }
    }
}

/// Why the host's event map does not give a rewrite the shapes it relies on, when it spells
/// them: a `session/event` listener called with `(session, event)`, and a removed event whose
/// handler's parameters are the mirror's arguments (the agent first, or one payload object).
/// A host that declares an event of the same name with another signature (one payload of its
/// own, another arity) emits its own event, which the durable twin does not stand for: a
/// handler reads what it carries (the rewrite would look an agent up where the handler had a
/// payload, and fail `tsc` or print nothing), and even one that reads nothing would run when
/// the twin is appended instead of when the host emits it.
fn undeclared_shape(fix: &Fix, names: &BTreeSet<String>, map: &EventMap) -> Option<String> {
    let signature = |types: &[String]| types.join(", ");
    if names.contains(SESSION_EVENT)
        && let Some(types) = map.signature(SESSION_EVENT)
        && types.len() != 2
    {
        return Some(format!(
            "no fix: the rewrite subscribes with `(session, event) =>`, and the host's event map (`{}` at {}) declares `{SESSION_EVENT}` as `({})`, so the host would not call it so; migrate this by hand",
            map.name,
            map.at,
            signature(&types)
        ));
    }
    let handler = fix.host.handler.as_ref()?;
    let mirror = map.signature(&handler.mirror)?;
    let fits = if handler.payload {
        mirror.len() == 1
    } else {
        mirror.len() == handler.arguments.len()
    };
    if !fits {
        return Some(format!(
            "no fix: the host's event map (`{}` at {}) declares `{}` as `({})`, not as the removed mirror's `({})`: it is the host's own event of that name, which the mirror's durable twin does not stand for (nor carry what a handler reads); migrate this by hand",
            map.name,
            map.at,
            handler.mirror,
            signature(&mirror),
            handler.arguments.join(", ")
        ));
    }
    // The map of agents a rewrite keeps is filled by `(agent) => map.set(agent.session,
    // agent)`: the host must pass `agent/created` and `agent/disposed` the agent its mirrors
    // passed, not a payload holding it (`{ agent }`, as upstream's later host does).
    let agent = mirror.first()?;
    ["agent/created", "agent/disposed"]
        .into_iter()
        .filter(|lifecycle| names.contains(*lifecycle))
        .find_map(|lifecycle| {
            let types = map.signature(lifecycle)?;
            (types != std::slice::from_ref(agent)).then(|| {
                format!(
                    "no fix: the rewrite keeps a map of agents by session from `{lifecycle}`, called with the agent, and the host's event map (`{}` at {}) declares `{lifecycle}` as `({})` where `{}` passes the agent as `{agent}`; migrate this by hand",
                    map.name,
                    map.at,
                    signature(&types),
                    handler.mirror
                )
            })
        })
}

/// A fix in a script that sees no event map: never machine-applicable when it names an event
/// other than `session/event`, and it says what to check.
fn unknown_host(f: &mut Finding, names: &BTreeSet<String>, unread: &str) {
    let beyond: Vec<String> = names
        .iter()
        .filter(|n| n.as_str() != SESSION_EVENT)
        .map(|n| format!("`{n}`"))
        .collect();
    let Some(fix) = f.fix.as_mut() else { return };
    if !beyond.is_empty() {
        // Unknown: never machine-applicable, and it says what to check.
        fix.applicability = Applicability::Suggestion;
        fix.message = format!(
            "{}; it names {}, which no event map in the linted files (or the files they import) shows the host declares{unread}: check that it does",
            fix.message,
            beyond.join(", ")
        );
    }
    if let Some(needle) = &fix.host.agent_type {
        fix.applicability = Applicability::Suggestion;
        fix.message.push_str(&format!(
            "; its map's type, `{needle}`, needs the receiver's `on` to be generic over the host's event map (else TS2635): check that it is, or annotate the handler's agent parameter"
        ));
    }
}

/// The live event names a fix's edits write: an edit that replaces a string with another
/// (the event argument of a rewritten call), and in longer text the first argument of `.on(`,
/// `.once(`, `.emit(` and the type argument of `on<…>`, when a string literal.
fn events_written(fix: &crate::model::Fix) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in &fix.edits {
        let text = e.replacement.as_str();
        if let [q, .., last] = text.as_bytes()
            && matches!(q, b'\'' | b'"' | b'`')
            && last == q
            && text.len() > 2
            && !text[1..text.len() - 1].contains(*q as char)
        {
            out.insert(text[1..text.len() - 1].to_owned());
            continue;
        }
        for (at, _) in text.match_indices(['.', ' ', '(']) {
            let rest = &text[at + 1..];
            let Some(rest) = ["on(", "once(", "emit(", "on<"]
                .iter()
                .find_map(|call| rest.strip_prefix(call))
            else {
                continue;
            };
            let rest = rest.trim_start();
            let Some(quote) = rest
                .chars()
                .next()
                .filter(|c| matches!(c, '\'' | '"' | '`'))
            else {
                continue;
            };
            if let Some(end) = rest[1..].find(quote) {
                out.insert(rest[1..1 + end].to_owned());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_events_a_rewrite_writes_are_its_calls_first_arguments() {
        let fix = crate::model::Fix::new(
            Applicability::Suggestion,
            "",
            vec![
                crate::model::Edit::new(
                    0,
                    0,
                    "ctx.on('session/event', (s, e) => { if (e.type !== 'turn/end') return })\n  ctx.on(\"agent/disposed\", f); new Map<unknown, typeof ctx.on<'agent/created'>>()",
                ),
                crate::model::Edit::new(1, 2, "'agent/status'"),
            ],
        );
        let names: Vec<String> = events_written(&fix).into_iter().collect();
        assert_eq!(
            names,
            vec![
                "agent/created",
                "agent/disposed",
                "agent/status",
                "session/event"
            ]
        );
    }

    /// Issue 32 item 1: what the analysis's parse hands this pass is what the pass reads
    /// from the same text itself, for every script of the TypeScript fixtures and generated
    /// event maps, modules, `declare module` blocks and texts oxc cannot parse (the shapes a
    /// run's scripts take).
    #[test]
    fn the_analysis_reads_what_the_pass_would_read() {
        use crate::catalog::Catalog;
        use crate::frontend::{CallNames, Context, Symbols};
        let catalog = Catalog::new(&[]).expect("the default catalogue");
        let (calls, symbols) = (CallNames::default(), Symbols::default());
        let cx = Context {
            catalog: &catalog,
            symbols: &symbols,
            calls: &calls,
            mentions_declared: false,
        };
        let mut texts =
            crate::test_fixtures::fixture_texts("ts", |p| is_script(&p.to_string_lossy()));
        const PARTS: &[&str] = &[
            "import { Agent } from './agent';\n",
            "import type { Events as E } from '@host/core';\n",
            "export interface Events { 'agent/turn-end': (turn: number) => void; 'session/event': (s: S, e: { data: TurnData }) => void }\n",
            "declare module '@host/core' { interface Events { 'agent/turn-start': (a: Agent) => void } }\n",
            "type Map2<T> = { 'agent/created': (agent: T) => void; data: unknown };\n",
            "export * from './more';\nexport { x as y } from './x';\n",
            "bus.on('agent/turn-end', (turn) => log(turn));\n",
            "const broken = (;\n",
            "namespace N { export type Q = { 'agent/step-end': () => void } }\n",
            "const el = <div>{'agent/turn-end'}</div>;\n",
        ];
        let mut r = crate::test_rng::Rng(0x9E37_79B9_7F4A_7C15);
        for n in 0..300 {
            let mut text = String::new();
            for _ in 0..1 + r.below(6) {
                text.push_str(PARTS[r.below(PARTS.len())]);
            }
            let path = ["host.ts", "host.d.ts", "view.tsx", "plain.js", "mod.mts"][n % 5];
            texts.push((path.to_owned(), text));
        }
        let mut compared = 0;
        for (path, text) in &texts {
            let analysis = crate::frontend::typescript::analyze_with(path, text, cx, true);
            let Some(HostDeclarations(read)) = analysis.host else {
                continue;
            };
            assert_eq!(
                format!("{read:?}"),
                format!("{:?}", decls::read(path, text)),
                "{path}:\n{text}"
            );
            compared += 1;
        }
        assert!(compared > 200, "{compared} compared");
    }
}
