//! Rust subscription rewrites, where the rewrite is unambiguous:
//!
//! ```text
//! ctx.on("agent/turn-start", move |agent: &Agent, turn: u64| { ui.spinner_on(agent.session_id(), turn); });
//! ctx.on("session/event", move |session: &Session, event: &SessionEvent| {
//!     if event.kind != "turn/start" { return; }
//!     let Some(turn) = event.data["turn"].as_u64() else { return; };
//!     ui.spinner_on(session.id(), turn);
//! });
//! ```
//!
//! The twin and the field of each parameter come from the catalogue through
//! [`crate::frontend::migrate`]; this module only writes Rust. The host surface is the one the
//! migration guide shows (`SessionEvent { kind, data }`, `data["field"]` a JSON value,
//! `Session::id()` the agent's `session_id()`), and `Session`/`SessionEvent` are imported from
//! where the handler's agent type comes from. Machine-applicable only when behaviour is kept:
//! the handler's closure types every parameter it reads with a JSON scalar type (`u64`,
//! `&str`, …), does not use the agent beyond `agent.session_id()`, and returns nothing. A
//! parameter of a host type (`&StreamChunk`) is decoded with the host's `T::from_value`, and a
//! handler that may return a value keeps its tail: both make the fix a suggestion. No fix
//! when the handler needs the agent, has an untyped parameter it reads, or is not a plain
//! closure.

use super::facts::{FileFacts, expr_idents};
use super::syntax::{Env, eval_str};
use crate::catalog::Migration;
use crate::frontend::migrate::{self, HandlerStyle, SESSION_EVENT};
use crate::frontend::{Context, OccurrenceFix};
use crate::hash::HashSet;
use crate::model::{Applicability, Edit, Fix};
use std::ops::Range;
use syn::spanned::Spanned;
use syn::visit::Visit;

/// Subscription methods whose listener stays registered: a `once` or `off` rewritten to
/// `session/event` would mean something else.
pub(super) const PERSISTENT: &[&str] = &[
    "on",
    "subscribe",
    "subscribe_to",
    "listen",
    "add_listener",
    "add_event_listener",
    "add_handler",
    "on_event",
];

/// Macros that evaluate to `()`, so a handler made of one of them returns nothing.
const UNIT_MACROS: &[&str] = &[
    "println", "eprintln", "print", "eprint", "trace", "debug", "info", "warn", "error",
];

/// Everything the rewrite reads, for one file.
pub(super) struct Rewriter<'s, 'f, 'c> {
    /// The file's text, which the spans point into.
    pub src: &'s str,
    /// The file, as reported (what a declaration's `file` is compared with).
    pub path: &'s str,
    /// Its imports and identifier uses.
    pub facts: &'f FileFacts,
    /// The run's catalogue, symbols and call names.
    pub cx: Context<'c>,
    /// What a name argument is evaluated with (the run's consts, the file's own).
    pub env: Env<'f>,
    /// The file's line ending, for the lines a rewrite adds.
    pub newline: &'static str,
}

pub(super) fn range<T: Spanned>(node: &T) -> Range<usize> {
    node.span().byte_range()
}

pub(super) fn peel(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => peel(&p.expr),
        syn::Expr::Group(g) => peel(&g.expr),
        e => e,
    }
}

/// How a handler parameter is read from a JSON value.
pub(super) struct Decoder {
    /// `Some` or `Ok`: what the reading returns.
    pub wrapper: &'static str,
    /// The reading.
    pub read: String,
    /// Whether the handler takes a reference to what is read.
    pub borrow: bool,
    /// Whether the reading is exact (a JSON scalar accessor, not a host decoder).
    pub exact: bool,
}

fn exact(read: String) -> Option<Decoder> {
    Some(Decoder {
        wrapper: "Some",
        read,
        borrow: false,
        exact: true,
    })
}

/// A host type `T` is decoded with `T::from_value`.
fn host(t: String, v: &str, borrow: bool) -> Option<Decoder> {
    Some(Decoder {
        wrapper: "Ok",
        read: format!("{t}::from_value(&{v})"),
        borrow,
        exact: false,
    })
}

/// How a parameter of type `ty` is read from `v`; `None`: not a type the rewrite can read.
pub(super) fn decoder(ty: &syn::Type, v: &str, src: &str) -> Option<Decoder> {
    decoder_with(ty, v, &|t: &syn::Type| src.get(range(t)).map(str::to_owned))
}

/// [`decoder`], with the text of a type (for a host type's `T::from_value`) from `text`.
pub(super) fn decoder_with(
    ty: &syn::Type,
    v: &str,
    text: &dyn Fn(&syn::Type) -> Option<String>,
) -> Option<Decoder> {
    match ty {
        syn::Type::Reference(r) if r.mutability.is_none() => match &*r.elem {
            syn::Type::Path(p) if p.path.is_ident("str") => exact(format!("{v}.as_str()")),
            syn::Type::Path(p) if p.qself.is_none() && scalar(p).is_none() && plain(p) => {
                host(text(&r.elem)?, v, true)
            }
            _ => None,
        },
        syn::Type::Path(p) if p.qself.is_none() => match scalar(p) {
            Some(read) => exact(read.replace("{v}", v)),
            None if p.path.is_ident("String") => exact(format!("{v}.as_str().map(str::to_owned)")),
            None if plain(p) => host(text(ty)?, v, false),
            None => None,
        },
        _ => None,
    }
}

/// Whether a type path has no generic arguments (`T::from_value` is then an expression;
/// `Vec<ContentBlock>::from_value` is not, and a host is not known to decode one).
fn plain(p: &syn::TypePath) -> bool {
    p.path
        .segments
        .iter()
        .all(|s| matches!(s.arguments, syn::PathArguments::None))
}

/// The reading of a scalar type from `{v}`.
fn scalar(p: &syn::TypePath) -> Option<String> {
    let id = p.path.get_ident()?.to_string();
    Some(match id.as_str() {
        "u64" => "{v}.as_u64()".to_owned(),
        "i64" => "{v}.as_i64()".to_owned(),
        "f64" => "{v}.as_f64()".to_owned(),
        "bool" => "{v}.as_bool()".to_owned(),
        "u8" | "u16" | "u32" | "usize" => {
            format!("{{v}}.as_u64().and_then(|n| {id}::try_from(n).ok())")
        }
        "i8" | "i16" | "i32" | "isize" => {
            format!("{{v}}.as_i64().and_then(|n| {id}::try_from(n).ok())")
        }
        _ => return None,
    })
}

/// A closure parameter: its binding (if it binds a name) and its type (if written).
pub(super) fn param(p: &syn::Pat) -> Option<(Option<&syn::PatIdent>, Option<&syn::Type>)> {
    match p {
        syn::Pat::Type(t) => match &*t.pat {
            syn::Pat::Ident(i) if i.subpat.is_none() && i.by_ref.is_none() => {
                Some((Some(i), Some(&t.ty)))
            }
            syn::Pat::Wild(_) => Some((None, Some(&t.ty))),
            _ => None,
        },
        syn::Pat::Ident(i) if i.subpat.is_none() && i.by_ref.is_none() => Some((Some(i), None)),
        syn::Pat::Wild(_) => Some((None, None)),
        _ => None,
    }
}

/// Whether a block certainly evaluates to `()`: it ends in a statement, or in a loop or an
/// `if` without `else`.
fn returns_unit(b: &syn::Block) -> bool {
    match b.stmts.last() {
        None => true,
        Some(syn::Stmt::Expr(e, None)) => {
            matches!(e, syn::Expr::ForLoop(_) | syn::Expr::While(_))
                || matches!(e, syn::Expr::If(i) if i.else_branch.is_none())
        }
        Some(_) => true,
    }
}

/// `agent.session_id()` calls in a handler body.
struct SessionCalls<'a> {
    agent: &'a str,
    found: Vec<Range<usize>>,
}

impl<'ast> Visit<'ast> for SessionCalls<'_> {
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if m.method == "session_id"
            && m.args.is_empty()
            && matches!(&*m.receiver, syn::Expr::Path(p) if p.path.is_ident(self.agent))
        {
            self.found.push(range(m));
            return;
        }
        syn::visit::visit_expr_method_call(self, m);
    }
}

/// A name not in `taken`, the first of `wanted` that is free.
pub(super) fn fresh(taken: &HashSet<String>, wanted: &[&str]) -> String {
    wanted
        .iter()
        .find(|w| !taken.contains(**w))
        .map_or_else(|| format!("{}_", wanted[0]), |w| (*w).to_owned())
}

impl Rewriter<'_, '_, '_> {
    /// The removed event a subscription's first argument names, its migration, the range the
    /// linter reports it at, and the range to replace with `"session/event"`.
    fn event_arg(&self, e: &syn::Expr) -> Option<(&'_ Migration, Range<usize>, Range<usize>)> {
        let e = peel(e);
        let event = eval_str(e, &self.env)?;
        let m = self.cx.catalog.lookup(&event)?.migration.as_ref()?;
        match e {
            syn::Expr::Lit(l) => {
                let lit = range(l);
                let at = self.src.get(lit.clone())?.find(event.as_str())?;
                Some((m, lit.start + at..lit.start + at + event.len(), lit))
            }
            // A const (`TURN_START`, `events::TURN_START`): reported at its last segment.
            syn::Expr::Path(p) if p.qself.is_none() => {
                let last = p.path.segments.last()?;
                Some((m, range(&last.ident), range(p)))
            }
            _ => None,
        }
    }

    pub(super) fn indent_at(&self, offset: usize) -> &str {
        let line_start = self.src[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line = &self.src[line_start..];
        &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
    }

    /// The text of `r` with each of `subs` (sorted, inside `r`) replaced by `with`.
    fn substituted(&self, r: Range<usize>, subs: &[Range<usize>], with: &str) -> String {
        let mut out = String::new();
        let mut at = r.start;
        for s in subs {
            out.push_str(&self.src[at..s.start]);
            out.push_str(with);
            at = s.end;
        }
        out.push_str(&self.src[at..r.end]);
        out
    }

    /// The edits that make closure body `body` start with the statements `lead` (indented
    /// like the body, or like the call at `call_start` plus one level when the body is one
    /// line), with each of `subs` (ranges inside it) replaced by `with`; and whether the body
    /// certainly evaluates to `()`.
    pub(super) fn body_edits(
        &self,
        call_start: usize,
        body: &syn::Expr,
        lead: &[String],
        subs: &[Range<usize>],
        with: &str,
    ) -> (Vec<Edit>, bool) {
        let nl = self.newline;
        let outer = self.indent_at(call_start).to_owned();
        let mut edits = Vec::new();
        let unit = match body {
            syn::Expr::Block(b) if b.label.is_none() => {
                let block = &b.block;
                let open = range(&block.brace_token.span.open()).end;
                let close = range(&block.brace_token.span.close()).start;
                let first = block.stmts.first().map(|s| range(s).start);
                let multiline = first.is_some_and(|f| self.src[open..f].contains('\n'));
                if multiline {
                    let indent = first.map_or(String::new(), |f| self.indent_at(f).to_owned());
                    let text: String = lead.iter().map(|l| format!("{nl}{indent}{l}")).collect();
                    edits.push(Edit::new(open, open, text));
                    for r in subs {
                        edits.push(Edit::new(r.start, r.end, with.to_owned()));
                    }
                } else {
                    let indent = format!("{outer}    ");
                    let mut text: String =
                        lead.iter().map(|l| format!("{nl}{indent}{l}")).collect();
                    let body = self.substituted(open..close, subs, with);
                    if !body.trim().is_empty() {
                        text.push_str(&format!("{nl}{indent}{}", body.trim()));
                    }
                    text.push_str(&format!("{nl}{outer}"));
                    edits.push(Edit::new(open, close, text));
                }
                returns_unit(block)
            }
            body => {
                let unit = matches!(body, syn::Expr::Macro(m) if m.mac.path.get_ident()
                    .is_some_and(|i| UNIT_MACROS.contains(&i.to_string().as_str())));
                let indent = format!("{outer}    ");
                let expr = self.substituted(range(body), subs, with);
                let mut text = String::from("{");
                for l in lead {
                    text.push_str(&format!("{nl}{indent}{l}"));
                }
                text.push_str(&format!("{nl}{indent}{expr}{nl}{outer}}}"));
                edits.push(Edit::new(range(body).start, range(body).end, text));
                unit
            }
        };
        (edits, unit)
    }

    /// How the rewritten closure names the host's session types, and the import edits that
    /// bring them in. The agent type's import is dropped when no use of it is left outside
    /// `rewritten`: the closure parameters of the rewrites applied with this one.
    fn host_types(
        &self,
        agent_ty: &syn::Type,
        rewritten: &[Range<usize>],
    ) -> Option<(String, String, Vec<Edit>)> {
        let (mut names, edits) =
            self.host_names(agent_ty, &["Session", "SessionEvent"], Some(rewritten))?;
        let event = names.pop()?;
        let session = names.pop()?;
        Some((session, event, edits))
    }

    /// How code beside `anchor` (a host type the file names: the agent's, a bus's) names the
    /// host's `wanted` types, and the import edits that bring them in: the anchor's siblings
    /// by its path (`&host::Agent` gives `host::Session`), or imported beside it. With
    /// `rewritten`, the anchor's import is dropped when no use of it is left outside those
    /// ranges. `None` when the names cannot be found (the anchor is not a path, or is declared
    /// here without the wanted names, or by a glob-less import of nothing).
    pub(super) fn host_names(
        &self,
        anchor: &syn::Type,
        wanted: &[&str],
        rewritten: Option<&[Range<usize>]>,
    ) -> Option<(Vec<String>, Vec<Edit>)> {
        let inner = match anchor {
            syn::Type::Reference(r) => &*r.elem,
            t => t,
        };
        let syn::Type::Path(p) = inner else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        let last = p.path.segments.last()?;
        if p.path.segments.len() > 1 {
            // `&host::Agent`: its siblings by the same path.
            let prefix = self.src.get(range(p).start..range(&last.ident).start)?;
            let names = wanted.iter().map(|w| format!("{prefix}{w}")).collect();
            return Some((names, Vec::new()));
        }
        let agent = last.ident.to_string();
        let missing: Vec<&str> = wanted
            .iter()
            .copied()
            .filter(|n| !self.facts.has_name(n))
            .collect();
        let unused_after =
            rewritten.is_some_and(|r| self.facts.count_in_scope_outside(&agent, r) == 0);
        let leaf = self.facts.leaf(&agent);
        let mut edits = Vec::new();
        match (leaf, missing.is_empty()) {
            (Some(l), true) if unused_after => {
                let r = l.removal.clone()?;
                let r = if l.in_group {
                    r
                } else {
                    crate::frontend::line_removal(self.src, r)
                };
                edits.push(Edit::new(r.start, r.end, ""));
            }
            (_, true) => {}
            // A one-line group of names: written again with the names in their place.
            (Some(l), false) if l.group.is_some() => {
                let g = l.group.as_ref()?;
                let sorted = g.entries.windows(2).all(|w| w[0] <= w[1]);
                let mut entries: Vec<String> = g
                    .entries
                    .iter()
                    .filter(|e| !(unused_after && **e == agent))
                    .cloned()
                    .collect();
                entries.extend(missing.iter().map(|m| (*m).to_owned()));
                if sorted {
                    entries.sort();
                }
                edits.push(Edit::new(
                    g.braces.start,
                    g.braces.end,
                    format!("{{{}}}", entries.join(", ")),
                ));
            }
            (Some(l), false) => {
                let names = missing.join(", ");
                let text = match (l.in_group, unused_after) {
                    (true, true) => names,
                    (true, false) => format!("{agent}, {names}"),
                    (false, true) if missing.len() == 1 => names,
                    (false, true) => format!("{{{names}}}"),
                    (false, false) => format!("{{{agent}, {names}}}"),
                };
                edits.push(Edit::new(l.ident.start, l.ident.end, text));
            }
            // Declared here or brought in by a glob: the siblings are expected to be too.
            (None, false) if self.facts.glob => {}
            (None, false) => return None,
        }
        Some((wanted.iter().map(|w| (*w).to_owned()).collect(), edits))
    }

    /// `recv.on(<removed>, |agent: &Agent, …| …)` → a `session/event` subscription.
    pub fn subscription(&self, call: &syn::ExprMethodCall) -> Option<Planned> {
        let method = call.method.to_string();
        if !PERSISTENT.contains(&method.as_str())
            || self.cx.calls.role_of(&method) != Some(crate::model::Role::Subscribe)
            || call.turbofish.is_some()
            || call.args.len() != 2
        {
            return None;
        }
        let (m, occurrence, name_range) = self.event_arg(&call.args[0])?;
        let syn::Expr::Closure(c) = peel(&call.args[1]) else {
            return None;
        };
        if c.asyncness.is_some() || c.constness.is_some() || c.lifetimes.is_some() {
            return None;
        }
        if let syn::ReturnType::Type(_, ty) = &c.output
            && !matches!(&**ty, syn::Type::Tuple(t) if t.elems.is_empty())
        {
            return None;
        }
        if matches!(&*c.body, syn::Expr::Async(_)) {
            return None;
        }
        let inputs: Vec<&syn::Pat> = c.inputs.iter().collect();
        let (agent_pat, rest) = inputs.split_first()?;
        if rest.len() > m.arguments.len() {
            return None;
        }
        let (agent_binding, agent_ty) = param(agent_pat)?;
        let agent_ty = agent_ty?;
        // `|ev: &TurnStart|` is a typed handler, not an agent: see `super::typed`.
        if self.typed_event_of(agent_ty).is_some() {
            return None;
        }
        let body_idents = expr_idents(&c.body);
        let uses = |name: &str| body_idents.iter().filter(|(n, _)| n == name).count();
        let mut taken: HashSet<String> = body_idents.iter().map(|(n, _)| n.clone()).collect();

        // The agent: unused, or only for `agent.session_id()`.
        let mut session_calls = Vec::new();
        if let Some(a) = agent_binding {
            let name = a.ident.to_string();
            let mut calls = SessionCalls {
                agent: &name,
                found: Vec::new(),
            };
            calls.visit_expr(&c.body);
            if uses(&name) != calls.found.len() {
                return None;
            }
            session_calls = calls.found;
            session_calls.sort_by_key(|r| r.start);
        }

        let target = migrate::target(m, HandlerStyle::Positional);
        let mut reads: Vec<(String, String, Decoder)> = Vec::new();
        let mut exact = true;
        for (i, p) in rest.iter().enumerate() {
            let (binding, ty) = param(p)?;
            let Some(b) = binding.filter(|b| uses(&b.ident.to_string()) > 0) else {
                continue;
            };
            let field = migrate::positional_field(m, i)?;
            let value = format!("{{event}}.data[\"{field}\"]");
            let d = decoder(ty?, &value, self.src)?;
            exact &= d.exact;
            let pattern = self.src.get(range(b))?.to_owned();
            reads.push((b.ident.to_string(), pattern, d));
            taken.insert(b.ident.to_string());
        }
        // A session the body never reads is bound as `_session` (no unused-variable warning).
        let session = if session_calls.is_empty() {
            fresh(&taken, &["_session", "_sess"])
        } else {
            fresh(&taken, &["session", "sess", "session_"])
        };
        taken.insert(session.clone());
        let event = fresh(&taken, &["event", "ev", "session_event"]);

        let inputs_range = {
            let first = c.inputs_begin.span.byte_range().start;
            first..c.inputs_end.span.byte_range().end
        };
        // The import edits come in `finish`, once every rewrite of the file is known.
        let (session_ty, event_ty, _) =
            self.host_types(agent_ty, std::slice::from_ref(&inputs_range))?;
        let mut edits = Vec::new();

        // The statements the new body starts with.
        let mut lead: Vec<String> = vec![
            format!("if {event}.kind != \"{}\" {{", target.twin),
            "    return;".to_owned(),
            "}".to_owned(),
        ];
        for (name, pattern, d) in &reads {
            let read = d.read.replace("{event}", &event);
            lead.push(format!("let {}({pattern}) = {read} else {{", d.wrapper));
            lead.push("    return;".to_owned());
            lead.push("};".to_owned());
            if d.borrow {
                lead.push(format!("let {name} = &{name};"));
            }
        }

        edits.push(Edit::new(
            name_range.start,
            name_range.end,
            format!("\"{SESSION_EVENT}\""),
        ));
        edits.push(Edit::new(
            inputs_range.start,
            inputs_range.end,
            format!("|{session}: &{session_ty}, {event}: &{event_ty}|"),
        ));
        let (body_edits, unit) = self.body_edits(
            range(call).start,
            &c.body,
            &lead,
            &session_calls,
            &format!("{session}.id()"),
        );
        edits.extend(body_edits);
        edits.sort_by_key(|e| (e.start, e.end));
        let machine = migrate::keeps_behaviour(target, false) && exact && unit;
        let mut message = migrate::subscription_message(target, None);
        if !exact {
            message.push_str(
                " (decoding host types with `T::from_value`: check that your host has it)",
            );
        } else if !unit {
            message.push_str(" (the handler may return a value: check its early returns)");
        }
        let applicability = if machine {
            Applicability::MachineApplicable
        } else {
            Applicability::Suggestion
        };
        Some(Planned {
            fix: OccurrenceFix {
                start: occurrence.start,
                end: occurrence.end,
                fix: Fix::new(applicability, message, edits),
            },
            machine,
            inputs: inputs_range,
            agent_ty: agent_ty.clone(),
        })
    }

    /// The fixes of a file's planned rewrites, with their import edits. A machine-applicable
    /// rewrite assumes the file's other machine-applicable ones are applied with it (`--fix`
    /// applies them together); a suggestion assumes every rewrite is (`--unsafe-fixes`). Equal
    /// import edits are applied once; different ones conflict, and the later fix waits for the
    /// next round, which sees the imports as they are then.
    pub fn finish(&self, plans: Vec<Planned>) -> Vec<OccurrenceFix> {
        let machine: Vec<Range<usize>> = plans
            .iter()
            .filter(|p| p.machine)
            .map(|p| p.inputs.clone())
            .collect();
        let all: Vec<Range<usize>> = plans.iter().map(|p| p.inputs.clone()).collect();
        plans
            .into_iter()
            .filter_map(|mut p| {
                let rewritten = if p.machine { &machine } else { &all };
                let (_, _, imports) = self.host_types(&p.agent_ty, rewritten)?;
                p.fix.fix.edits.extend(imports);
                p.fix.fix.edits.sort_by_key(|e| (e.start, e.end));
                Some(p.fix)
            })
            .collect()
    }
}

/// A subscription rewrite before its import edits (see [`Rewriter::finish`]).
pub(super) struct Planned {
    fix: OccurrenceFix,
    machine: bool,
    /// The closure's parameters, whose mention of the agent type the rewrite removes.
    inputs: Range<usize>,
    agent_ty: syn::Type,
}
