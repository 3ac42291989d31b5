//! A rewrite never names a live event the host does not declare (issue #29 item 1 (b)).
//!
//! The TypeScript fixes write live event names the original code did not use: `session/event`
//! (every subscription rewrite), `agent/created` and `agent/disposed` (the map of agents by
//! session a rewrite declares, a test's stand-in announcing its agent). A host whose event map
//! lacks one rejects the result (`tsc`: TS2345 "not assignable to parameter of type keyof
//! Events", then TS7006 on the listener's untyped parameters) where the original passed.
//!
//! A front end sees one file; the host's event map is the run's. It is found here from the
//! declarations the run reports: the interfaces (`interface Events { … }`, merged by name across
//! `declare module` blocks, as TypeScript merges them) holding an entry of a removed event, when
//! they declare `session/event` too (else they may only augment a map declared outside the run).
//! When the run shows such a map, a fix naming (in a `.on(…)`/`.emit(…)`/`.once(…)` call or an
//! `on<'…'>` type argument) an event none of those interfaces declares has no fix, and its note
//! says which event is missing. When the run shows no map, nothing is known: a suggestion that
//! names an event other than `session/event` (the durable channel every host of the protocol
//! has) says to check it; a machine-applicable fix names only `session/event`.

use crate::model::{Applicability, Finding};
use crate::source::Source;
use std::collections::{BTreeSet, HashMap};

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

/// Drops (or annotates) the fixes that name a live event the run's event map does not declare
/// (see the module documentation).
pub(crate) fn keep_to_declared_events(findings: &mut [Finding], sources: &[Source]) {
    let written: Vec<(usize, BTreeSet<String>)> = findings
        .iter()
        .enumerate()
        .filter(|(_, f)| is_script(&f.path))
        .filter_map(|(i, f)| {
            let names = events_written(f.fix.as_ref()?);
            (!names.is_empty()).then_some((i, names))
        })
        .collect();
    if written.is_empty() {
        return;
    }
    let by_path: HashMap<&str, &Source> = sources.iter().map(|s| (s.display.as_str(), s)).collect();
    let map = EventMap::of_run(findings, sources, &by_path);
    for (i, names) in written {
        let f = &mut findings[i];
        match &map {
            Some(map) => {
                let missing: Vec<&String> =
                    names.iter().filter(|n| !map.keys.contains(*n)).collect();
                if let Some(first) = missing.first() {
                    let list = missing
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let why = format!(
                        "no fix: the rewrite would name {list}, which the host's event map (`interface {}` at {}) does not declare, so the host could not type it; declare `{first}` there, or migrate this by hand",
                        map.name, map.at
                    );
                    f.fix = None;
                    f.note = Some(match f.note.take() {
                        Some(n) => format!("{n}; {why}"),
                        None => why,
                    });
                }
            }
            None => {
                let beyond: Vec<String> = names
                    .iter()
                    .filter(|n| n.as_str() != SESSION_EVENT)
                    .map(|n| format!("`{n}`"))
                    .collect();
                if let Some(fix) = f.fix.as_mut()
                    && !beyond.is_empty()
                {
                    // Unknown: never machine-applicable, and it says what to check.
                    fix.applicability = Applicability::Suggestion;
                    fix.message = format!(
                        "{}; it names {}, which no event map in the linted files shows the host declares: check that it does",
                        fix.message,
                        beyond.join(", ")
                    );
                }
            }
        }
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

/// The run's event map: the interfaces holding an entry of a removed event, merged by name.
struct EventMap {
    /// The interface's name (`Events`).
    name: String,
    /// Where the first entry of a removed event is declared (`path:line`).
    at: String,
    /// Every key of every interface of that name in the run's scripts.
    keys: BTreeSet<String>,
}

impl EventMap {
    /// The map, when a declaration finding of the run is an entry of an interface.
    fn of_run(
        findings: &[Finding],
        sources: &[Source],
        by_path: &HashMap<&str, &Source>,
    ) -> Option<EventMap> {
        let (name, at) = findings
            .iter()
            .filter(|f| f.rule == DECLARE && is_script(&f.path))
            .find_map(|f| {
                let s = by_path.get(f.path.as_str())?;
                let line = crate::source::LineIndex::new(&s.text).line_range(f.line);
                let offset = s
                    .text
                    .get(line.clone())?
                    .char_indices()
                    .nth(f.column.saturating_sub(1))
                    .map(|(i, _)| line.start + i)?;
                let name = enclosing_interface(&s.text, offset)?;
                Some((name, format!("{}:{}", f.path, f.line)))
            })?;
        let mut keys = BTreeSet::new();
        let pattern = format!("interface {name}");
        for s in sources.iter().filter(|s| is_script(&s.display)) {
            for (at, _) in s.text.match_indices(&pattern) {
                let after = &s.text[at + pattern.len()..];
                // `interface EventsX` is another interface.
                if after
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
                {
                    continue;
                }
                if let Some(open) = after.find('{') {
                    let body_start = at + pattern.len() + open;
                    if let Some(body) = braced(&s.text, body_start) {
                        keys.extend(member_keys(body));
                    }
                }
            }
        }
        // Only a map that declares the durable channel is taken for the host's whole map: an
        // interface that only augments the host's (a plugin's `declare module` adding its own
        // events) says nothing of what the host declares elsewhere.
        keys.contains(SESSION_EVENT)
            .then_some(EventMap { name, at, keys })
    }
}

/// The name of the interface whose body holds `offset`, when the innermost `{ … }` around it
/// is one.
fn enclosing_interface(text: &str, offset: usize) -> Option<String> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = offset.min(bytes.len());
    while i > 0 {
        i -= 1;
        match bytes[i] {
            b'}' => depth += 1,
            b'{' if depth > 0 => depth -= 1,
            b'{' => {
                let head = text[..i].trim_end();
                let start = head
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                    .map_or(0, |p| p + 1);
                let name = &head[start..];
                // `interface Name {`, `interface Name<T> {` and `extends …` are not handled
                // beyond the plain form: the map is then unknown.
                return head[..start]
                    .trim_end()
                    .ends_with("interface")
                    .then(|| name.to_owned())
                    .filter(|n| !n.is_empty());
            }
            _ => {}
        }
    }
    None
}

/// The text inside the braces opening at `open` (brace counting, skipping strings).
fn braced(text: &str, open: usize) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    let mut i = open;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'\'' | b'"' | b'`' => quote = Some(b),
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return text.get(open + 1..i);
                    }
                }
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// The quoted keys of an interface body's members (`'name'(…)`, `'name': …`, `'name'?: …`) at
/// its top level.
fn member_keys(body: &str) -> Vec<String> {
    let bytes = body.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                let Some(len) = body[i + 1..].find(b as char) else {
                    break;
                };
                let key = &body[i + 1..i + 1 + len];
                let after = body[i + 2 + len..].trim_start();
                if depth == 0
                    && (after.starts_with('(') || after.starts_with(':') || after.starts_with('?'))
                {
                    out.push(key.to_owned());
                }
                i += len + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_of_an_interface_body_are_its_quoted_members() {
        let body = "\n  'agent/created'(agent: Agent): void\n  'agent/turn-end': (a: { x: 'no' }) => void\n  'session/event'?(s: Session): void\n  plain(x: 'not/key'): void\n";
        assert_eq!(
            member_keys(body),
            vec!["agent/created", "agent/turn-end", "session/event"]
        );
    }

    #[test]
    fn an_entry_is_in_the_interface_around_it() {
        let text = "declare module 'cordis' {\n  interface Events {\n    'agent/turn-end'(a: A): void\n  }\n}\n";
        let at = text.find("'agent/turn-end'").unwrap_or_default();
        assert_eq!(enclosing_interface(text, at).as_deref(), Some("Events"));
        let text = "const m = { 'agent/turn-end': 1 }";
        let at = text.find("'agent").unwrap_or_default();
        assert_eq!(enclosing_interface(text, at), None);
    }

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
}
