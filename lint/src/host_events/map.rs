//! The host's event map as a script sees it, and the types a rewrite spells from it: an
//! entry's parameter types, named as the script can name them, and how the host types
//! `session/event`'s `data`.

use super::SESSION_EVENT;
use super::decls::{Kind, Param};
use super::view::{FileId, World};
use crate::hash::HashMap;
use std::collections::BTreeSet;

/// The host's event map: every interface (or type literal) of one name in a script's view.
pub(super) struct EventMap {
    /// The interface's name (`Events`).
    pub(super) name: String,
    /// Where it is declared (`path:line`).
    pub(super) at: String,
    /// Every key of every declaration of that name.
    pub(super) keys: BTreeSet<String>,
    /// Each entry's parameter types (when spelled as a signature), whether it is optional,
    /// and the file declaring it.
    members: HashMap<String, (FileId, Option<Vec<Param>>, bool)>,
    /// Every declaration of the map: file, and index in its `decls`.
    decls: Vec<(FileId, usize)>,
}

/// A type a rewrite cannot write, and why.
pub(super) struct Unspellable(pub(super) String);

impl EventMap {
    /// The event map of `view`: the interfaces named `anchor` (the run's declaration of a
    /// removed event's entry is in it), else the one name whose declarations hold
    /// `session/event`, else of those the one holding `event`; `None` when there is none, or
    /// no telling which.
    pub(super) fn find(
        world: &World,
        view: &[FileId],
        anchor: Option<&str>,
        event: Option<&str>,
    ) -> Option<EventMap> {
        let mut by_name: HashMap<&str, Vec<(FileId, usize)>> = HashMap::default();
        for &f in view {
            for (i, d) in world.files[f].decls.iter().enumerate() {
                if matches!(d.kind, Kind::Interface | Kind::Literal) {
                    by_name.entry(d.name.as_str()).or_default().push((f, i));
                }
            }
        }
        let keys_of = |decls: &[(FileId, usize)]| -> BTreeSet<String> {
            decls
                .iter()
                .flat_map(|&(f, i)| &world.files[f].decls[i].members)
                .map(|m| m.key.clone())
                .collect()
        };
        // Whether any declaration of a name has the entry `key` (no set built: every
        // interface of every file in view is asked, on every change in the language server).
        let holds = |decls: &[(FileId, usize)], key: &str| {
            (decls.iter())
                .flat_map(|&(f, i)| &world.files[f].decls[i].members)
                .any(|m| m.key == key)
        };
        let mut candidates: Vec<&str> = by_name
            .iter()
            .filter(|(_, d)| holds(d, SESSION_EVENT))
            .map(|(n, _)| *n)
            .collect();
        candidates.sort_unstable();
        let name = match anchor.filter(|a| candidates.contains(a)) {
            Some(a) => a,
            None => match candidates.as_slice() {
                [one] => *one,
                _ => {
                    let with: Vec<&str> = candidates
                        .iter()
                        .copied()
                        .filter(|n| event.is_some_and(|e| holds(&by_name[n], e)))
                        .collect();
                    match with.as_slice() {
                        [one] => *one,
                        _ => return None,
                    }
                }
            },
        };
        let decls = &by_name[name];
        let mut members = HashMap::default();
        for &(f, i) in decls {
            for m in &world.files[f].decls[i].members {
                members
                    .entry(m.key.clone())
                    .or_insert_with(|| (f, m.params.clone(), m.optional));
            }
        }
        let &(f, i) = decls.first()?;
        let file = &world.files[f];
        let line = file.decls[i].line;
        Some(EventMap {
            name: name.to_owned(),
            at: format!("{}:{line}", file.display),
            keys: keys_of(decls),
            members,
            decls: decls.clone(),
        })
    }

    /// The parameter types of entry `key`, when the map declares it as a signature that spells
    /// them (`None` when it has no such entry, or does not spell them: nothing is known).
    pub(super) fn signature(&self, key: &str) -> Option<Vec<String>> {
        let params = self.members.get(key)?.1.as_ref()?;
        Some(params.iter().map(|p| p.ty.clone()).collect())
    }

    /// The type of parameter `index` of entry `key`, written as `target` can name it.
    pub(super) fn param_type(
        &self,
        world: &mut World,
        target: FileId,
        key: &str,
        index: usize,
    ) -> Result<String, Unspellable> {
        let Some((file, params, _)) = self.members.get(key) else {
            return Err(Unspellable(format!(
                "the host's event map (`{}` at {}) has no `{key}` entry to take the type from",
                self.name, self.at
            )));
        };
        let Some(ty) = params.as_ref().and_then(|p| p.get(index)) else {
            return Err(Unspellable(format!(
                "the host's `{key}` entry (`{}` at {}) does not spell its parameters' types",
                self.name, self.at
            )));
        };
        spell(world, &ty.ty, *file, target)
    }

    /// The type of parameter `index` of entry `key` as `target` can write it: the type the
    /// entry spells when `target` can name it, else the parameter read from the map itself
    /// (`Parameters<import('cordis').Events['agent/created']>[0]`) when `target` can name
    /// the map (a host whose agent type only its event map shows, as upstream's UI plugins
    /// see it). It names no type but the map's, and the entry's key, which the map declares.
    pub(super) fn typed(
        &self,
        world: &mut World,
        target: FileId,
        key: &str,
        index: usize,
    ) -> Result<String, Unspellable> {
        let direct = self.param_type(world, target, key, index);
        let Err(why) = direct else { return direct };
        let Some(&(_, Some(ref params), optional)) = self.members.get(key) else {
            return Err(why);
        };
        if index >= params.len() {
            return Err(why);
        }
        let Some(map) = self.spelled(world, target) else {
            return Err(why);
        };
        let entry = format!("{map}['{key}']");
        let entry = if optional {
            format!("NonNullable<{entry}>")
        } else {
            entry
        };
        Ok(format!("Parameters<{entry}>[{index}]"))
    }

    /// The map's own name as `target` can write it: through a package `target` imports whose
    /// module a declaration of it augments (`import('cordis').Events`), or as a name a module
    /// `target` imports exports.
    fn spelled(&self, world: &mut World, target: FileId) -> Option<String> {
        for &(f, i) in &self.decls {
            let d = &world.files[f].decls[i];
            if d.needs_arguments {
                continue;
            }
            let (module, name) = (d.module.clone(), d.name.clone());
            match module {
                Some(m) if !m.starts_with('.') => {
                    if world.files[target].names.specifiers.contains(&m) {
                        return Some(format!("import('{m}').{name}"));
                    }
                }
                Some(_) => {}
                None => {
                    if let Ok(s) = spell(world, &name, f, target) {
                        return Some(s);
                    }
                }
            }
        }
        None
    }

    /// How the host types `session/event`'s `data`: `Some(type)` when a destructuring of it
    /// needs a cast (`unknown`, a record, a type not indexed by event), `None` when it is
    /// typed by event type (or `any`) and reads uncast.
    pub(super) fn data_needs_cast(&self, world: &mut World) -> Option<String> {
        let (file, params, _) = self.members.get(SESSION_EVENT)?;
        let Some(event_type) = params.as_ref().and_then(|p| p.get(1)) else {
            return Some("a type the map does not spell".to_owned());
        };
        let datas = match &event_type.head {
            Some(head) if event_type.datas.is_empty() => {
                let decl_file = world.origin(*file, head).map(|(f, _)| f);
                decl_file
                    .into_iter()
                    .chain(0..world.files.len())
                    .find_map(|f| {
                        world.files[f]
                            .decls
                            .iter()
                            .find(|d| &d.name == head)
                            .map(|d| d.datas.clone())
                    })
                    .unwrap_or_default()
            }
            _ => event_type.datas.clone(),
        };
        let event_type = &event_type.ty;
        let by_event =
            |t: &String| t == "any" || t.starts_with('{') || (t.contains('[') && !t.contains("[]"));
        if !datas.is_empty() && datas.iter().all(by_event) {
            return None;
        }
        Some(match datas.as_slice() {
            [] => format!("`{event_type}`, whose `data` the linted files do not show"),
            [one, ..] => format!("`{one}` (in `{event_type}`)"),
        })
    }
}

/// TypeScript's own names, which every file can write.
const GLOBAL_TYPES: &[&str] = &[
    "any",
    "unknown",
    "never",
    "void",
    "undefined",
    "null",
    "number",
    "string",
    "boolean",
    "bigint",
    "symbol",
    "object",
    "true",
    "false",
    "this",
    "typeof",
    "keyof",
    "readonly",
    "unique",
    "infer",
    "extends",
    "is",
    "asserts",
    "new",
    "Array",
    "ReadonlyArray",
    "Record",
    "Partial",
    "Required",
    "Readonly",
    "Pick",
    "Omit",
    "Exclude",
    "Extract",
    "NonNullable",
    "Parameters",
    "ReturnType",
    "InstanceType",
    "Awaited",
    "Promise",
    "PromiseLike",
    "Map",
    "Set",
    "ReadonlyMap",
    "ReadonlySet",
    "WeakMap",
    "WeakSet",
    "Date",
    "Error",
    "RegExp",
    "Function",
    "Iterable",
    "AsyncIterable",
    "Uint8Array",
    "ArrayBuffer",
];

/// `ty`, written in `from`, as `target` can write it: each name `target` binds to the same
/// declaration kept, another one `target` can import written `import('…').Name`.
pub(super) fn spell(
    world: &mut World,
    ty: &str,
    from: FileId,
    target: FileId,
) -> Result<String, Unspellable> {
    let mut out = String::new();
    let mut rest = ty;
    while let Some(c) = rest.chars().next() {
        if c == '\'' || c == '"' || c == '`' {
            let end = rest[1..].find(c).map_or(rest.len(), |e| e + 2);
            out.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        if !(c.is_alphabetic() || c == '_' || c == '$') {
            out.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(rest.len());
        let word = &rest[..end];
        let after = rest[end..].trim_start();
        let member = out.trim_end().ends_with('.');
        let key = after.starts_with(':') || after.starts_with("?:");
        rest = &rest[end..];
        if member || key || GLOBAL_TYPES.contains(&word) {
            out.push_str(word);
            continue;
        }
        let Some(origin) = world.origin(from, word) else {
            return Err(Unspellable(format!(
                "`{word}` (in `{ty}`) is not a name {} imports or declares",
                world.files[from].display
            )));
        };
        if world.origin(target, word).as_ref() == Some(&origin) {
            out.push_str(word);
            continue;
        }
        let specs: Vec<String> = world.files[target]
            .names
            .imports
            .iter()
            .map(|(.., s)| s.clone())
            .collect();
        let via = specs.into_iter().find(|s| {
            world
                .resolve(target, s)
                .and_then(|t| world.exported_origin(t, &origin.1, 0))
                .as_ref()
                == Some(&origin)
        });
        match via {
            Some(s) => out.push_str(&format!("import('{s}').{}", origin.1)),
            None => {
                return Err(Unspellable(format!(
                    "`{word}` (in `{ty}`, declared in {}) is a name {} neither imports nor can import from a module it imports",
                    world.files[origin.0].display, world.files[target].display
                )));
            }
        }
    }
    Ok(out)
}
