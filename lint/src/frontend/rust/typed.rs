//! Typed Rust subscriptions rewritten to `session/event`, always as a suggestion:
//!
//! ```text
//! bus.on::<TurnStart>(|ev: &TurnStart| header(ev.turn));
//! bus.on::<SessionEvent>(|event: &SessionEvent| {
//!     if event.kind != "turn/start" {
//!         return;
//!     }
//!     let Some(turn) = event.data["turn"].as_u64().and_then(|n| u32::try_from(n).ok()) else {
//!         return;
//!     };
//!     let ev = &TurnStart { turn };
//!     header(ev.turn)
//! });
//! ```
//!
//! Two spellings are typed subscriptions: a turbofish naming the typed event
//! (`bus.on::<TurnStart>(h)`, `bus.subscribe::<StepEnd, _>(h)`: the typed event becomes the
//! host's `SessionEvent`, the only other type arguments allowed are `_`) and a name taken from
//! it (`bus.listen(TurnStart::NAME, h)`, through an alias too: the name becomes
//! `"session/event"`). The handler keeps its typed value: the body first returns unless
//! `event.kind` is the durable twin (2026-07, as every Rust rewrite), then reads each field of
//! the typed event's struct from `event.data` by the field's name through the vocabulary's
//! mapping, with the decoding the positional rewrite uses (see [`super::subscription`]), and
//! rebuilds the value (`let ev = &TurnStart { turn };`). A handler that is a path
//! (`close_step`) is called with the rebuilt value from a new `move` closure.
//!
//! Assumed of the host, and said in the fix's message: the bus delivers `session/event` as
//! `SessionEvent { kind, data }` through the same method (its typed event `SessionEvent`, or
//! its name `"session/event"`), passing it the way it passed the typed event (by reference,
//! unless the handler took the value). `SessionEvent` is the name in scope, or imported beside
//! the receiver's type (`bus: &Bus`, a parameter of the enclosing function).
//!
//! No fix when any of this is unknown: the struct is not declared (with named fields or none,
//! no generics) in the file declaring the typed event, a field has no durable counterpart in
//! the mapping, is private to another file's module, or has a type neither scalar nor a plain
//! host type in scope here; the handler is neither a one-parameter closure typed with the event
//! (or untyped, after a turbofish) nor a path; a path handler after a name (`listen(T::NAME,
//! f)`) that is not a function of this file taking the event; `SessionEvent` cannot be named.

use super::facts::expr_idents;
use super::subscription::{PERSISTENT, Rewriter, decoder_with, fresh, param, peel, range};
use crate::catalog::Migration;
use crate::frontend::migrate::{self, HandlerStyle, SESSION_EVENT};
use crate::frontend::{DeclKind, Declaration, OccurrenceFix};
use crate::hash::{HashMap, HashSet};
use crate::model::{Applicability, Edit, Fix, Role};
use syn::visit::{self, Visit};

/// How a function of the file takes its one parameter.
#[derive(Clone)]
pub(super) struct FnParam {
    /// The parameter's type.
    ty: syn::Type,
    /// Whether it takes a reference.
    by_ref: bool,
}

/// The file's top-level functions of one parameter, by name: the handlers a path may name.
pub(super) fn handler_fns(file: &syn::File) -> HashMap<String, FnParam> {
    let mut out = HashMap::default();
    for item in &file.items {
        let syn::Item::Fn(f) = item else { continue };
        let mut inputs = f.sig.inputs.iter();
        let (Some(syn::FnArg::Typed(t)), None) = (inputs.next(), inputs.next()) else {
            continue;
        };
        let by_ref = matches!(&*t.ty, syn::Type::Reference(r) if r.mutability.is_none());
        out.insert(
            f.sig.ident.to_string(),
            FnParam {
                ty: (*t.ty).clone(),
                by_ref,
            },
        );
    }
    out
}

/// The type `ty` names with its references taken off.
fn without_refs(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Reference(r) => without_refs(&r.elem),
        syn::Type::Paren(p) => without_refs(&p.elem),
        t => t,
    }
}

/// A plain type path as text (`agent_host::TurnEndReason`), `None` if it has generics.
fn path_text(ty: &syn::Type) -> Option<String> {
    let syn::Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let segs: Option<Vec<String>> = p
        .path
        .segments
        .iter()
        .map(|s| matches!(s.arguments, syn::PathArguments::None).then(|| s.ident.to_string()))
        .collect();
    let lead = if p.path.leading_colon.is_some() {
        "::"
    } else {
        ""
    };
    Some(format!("{lead}{}", segs?.join("::")))
}

/// Starts of the identifiers in `e` that cannot name a local: field and method names.
#[derive(Default)]
struct Members(HashSet<usize>);

impl<'ast> Visit<'ast> for Members {
    fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
        if let syn::Member::Named(n) = &f.member {
            self.0
                .insert(syn::spanned::Spanned::span(n).byte_range().start);
        }
        visit::visit_expr_field(self, f);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        self.0
            .insert(syn::spanned::Spanned::span(&m.method).byte_range().start);
        visit::visit_expr_method_call(self, m);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
        visit::visit_macro(self, m);
    }
}

impl Members {
    /// In macro tokens, an identifier right after a `.` (`ev.turn` in `println!`).
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let mut after_dot = false;
        for tt in tokens {
            match &tt {
                proc_macro2::TokenTree::Group(g) => self.tokens(g.stream()),
                proc_macro2::TokenTree::Ident(i) if after_dot => {
                    self.0.insert(i.span().byte_range().start);
                }
                _ => {}
            }
            after_dot = matches!(&tt, proc_macro2::TokenTree::Punct(p) if p.as_char() == '.');
        }
    }
}

/// The names `e` may read from its scope: its identifiers but field and method names (a new
/// local of such a name would shadow what it reads).
fn scope_names(e: &syn::Expr) -> HashSet<String> {
    let mut members = Members::default();
    members.visit_expr(e);
    expr_idents(e)
        .into_iter()
        .filter(|(_, r)| !members.0.contains(&r.start))
        .map(|(n, _)| n)
        .collect()
}

/// Which spelling of a typed subscription a call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// `bus.on::<TurnStart>(h)`.
    Turbofish,
    /// `bus.listen(TurnStart::NAME, h)`.
    Named,
}

/// The fields' reads and the rebuilt value.
struct Rebuilt {
    /// The statements reading the fields.
    lines: Vec<String>,
    /// The struct expression (`TurnStart { turn }`).
    value: String,
    /// Whether a field is decoded with a host type's `T::from_value`.
    host_decoded: bool,
}

impl<'c> Rewriter<'_, '_, 'c> {
    /// The typed event a type names (`TurnStart`, `&events::TurnStart`, an alias): its
    /// declaration in this file, or the one every declaration of that name agrees on.
    pub(super) fn typed_event_of(&self, ty: &syn::Type) -> Option<&'c Declaration> {
        let syn::Type::Path(p) = without_refs(ty) else {
            return None;
        };
        self.typed_event_named(&p.path.segments.last()?.ident.to_string())
    }

    fn typed_event_named(&self, ident: &str) -> Option<&'c Declaration> {
        let symbols = self.cx.symbols;
        let all: Vec<&'c Declaration> = symbols
            .all_of(ident)
            .iter()
            .filter(|d| d.kind == DeclKind::Type)
            .collect();
        if let Some(d) = all.iter().find(|d| d.file == self.path) {
            return Some(d);
        }
        let first = *all.first()?;
        all.iter()
            .all(|d| d.event == first.event && d.shape == first.shape)
            .then_some(first)
    }

    /// How this file names the host's `SessionEvent`, with the import edits that bring it in:
    /// the name in scope, or beside the receiver's type (a parameter of the enclosing
    /// function), or through a glob import.
    fn session_event_name(
        &self,
        receiver: &syn::Expr,
        params: &[(String, syn::Type)],
    ) -> Option<(String, Vec<Edit>)> {
        const NAME: &str = "SessionEvent";
        if self.facts.has_name(NAME) {
            return Some((NAME.to_owned(), Vec::new()));
        }
        let receiver_ty = match peel(receiver) {
            syn::Expr::Path(p) => p
                .path
                .get_ident()
                .and_then(|i| params.iter().rev().find(|(n, _)| i == n))
                .map(|(_, t)| t),
            _ => None,
        };
        if let Some(ty) = receiver_ty
            && let Some((mut names, edits)) = self.host_names(ty, &[NAME], None)
        {
            return Some((names.pop()?, edits));
        }
        self.facts.glob.then(|| (NAME.to_owned(), Vec::new()))
    }

    /// Whether code here may name type `ty` of a field declared in `declared_in`.
    fn nameable(&self, ty: &syn::Type, declared_in: &str) -> bool {
        if declared_in == self.path {
            return true;
        }
        let syn::Type::Path(p) = ty else { return false };
        if p.path.leading_colon.is_some() {
            return true;
        }
        let Some(first) = p.path.segments.first() else {
            return false;
        };
        let first = first.ident.to_string();
        matches!(first.as_str(), "crate" | "std" | "core" | "alloc")
            || (!matches!(first.as_str(), "self" | "super" | "Self")
                && (self.facts.has_name(&first) || self.facts.glob))
    }

    /// The reads of `d`'s fields from `event.data` and the value rebuilt from them; `None`
    /// when a field cannot be supplied.
    fn rebuild(
        &self,
        d: &Declaration,
        m: &Migration,
        type_text: &str,
        event: &str,
        taken: &mut HashSet<String>,
    ) -> Option<Rebuilt> {
        let shape = d.shape.as_ref()?;
        let same_file = d.file == self.path;
        let mut lines = Vec::new();
        let mut inits = Vec::new();
        let mut host_decoded = false;
        for f in &shape.fields {
            if !same_file && !f.visible {
                return None;
            }
            let field = migrate::named_field(m, HandlerStyle::Positional, &f.name)?;
            let ty: syn::Type = syn::parse_str(&f.ty).ok()?;
            let value = format!("{event}.data[\"{field}\"]");
            let read = decoder_with(&ty, &value, &path_text)?;
            if !read.exact {
                if !self.nameable(&ty, &d.file) {
                    return None;
                }
                host_decoded = true;
            }
            let local = fresh(taken, &[f.name.as_str(), &format!("{}_", f.name)]);
            taken.insert(local.clone());
            lines.push(format!(
                "let {}({local}) = {} else {{",
                read.wrapper, read.read
            ));
            lines.push("    return;".to_owned());
            lines.push("};".to_owned());
            inits.push(if local == f.name {
                local
            } else {
                format!("{}: {local}", f.name)
            });
        }
        let value = if inits.is_empty() {
            format!("{type_text} {{}}")
        } else {
            format!("{type_text} {{ {} }}", inits.join(", "))
        };
        Some(Rebuilt {
            lines,
            value,
            host_decoded,
        })
    }

    /// `bus.on::<TurnStart>(…)` or `bus.listen(TurnStart::NAME, …)` → a `session/event`
    /// subscription that filters the durable twin and rebuilds the typed value (a suggestion).
    /// `params` are the enclosing function's parameters; `fns` the file's one-parameter
    /// functions.
    pub(super) fn typed_subscription(
        &self,
        call: &syn::ExprMethodCall,
        params: &[(String, syn::Type)],
        fns: &HashMap<String, FnParam>,
    ) -> Option<OccurrenceFix> {
        let method = call.method.to_string();
        if !PERSISTENT.contains(&method.as_str())
            || self.cx.calls.role_of(&method) != Some(Role::Subscribe)
        {
            return None;
        }
        let (session_event, imports) = self.session_event_name(&call.receiver, params)?;
        let typed = self.typed_call(call, &session_event)?;
        let m = self
            .cx
            .catalog
            .lookup(&typed.decl.event)?
            .migration
            .as_ref()?;
        let target = migrate::target(m, HandlerStyle::Positional);
        let handler = match peel(typed.handler) {
            syn::Expr::Closure(c) => {
                self.closure_handler(call, c, &typed, m, target.twin, &session_event)?
            }
            syn::Expr::Path(hp) if hp.qself.is_none() => {
                self.path_handler(call, hp, &typed, fns, m, target.twin, &session_event)?
            }
            _ => return None,
        };
        let message = typed_message(target, &typed.type_text, &handler);
        let mut edits = vec![typed.name_edit];
        edits.extend(handler.edits);
        edits.extend(imports);
        edits.sort_by_key(|e| (e.start, e.end));
        Some(OccurrenceFix {
            start: typed.occurrence.start,
            end: typed.occurrence.end,
            fix: Fix::new(Applicability::Suggestion, message, edits),
        })
    }

    /// Which typed event a call subscribes to, in which spelling: `None` when it is neither
    /// form or the event is not a typed one.
    fn typed_call<'a>(
        &self,
        call: &'a syn::ExprMethodCall,
        session_event: &str,
    ) -> Option<TypedCall<'a, 'c>> {
        match (&call.turbofish, call.args.len()) {
            (Some(tf), 1) => {
                let mut args = tf.args.iter();
                let syn::GenericArgument::Type(ty) = args.next()? else {
                    return None;
                };
                if !args.all(|a| matches!(a, syn::GenericArgument::Type(syn::Type::Infer(_)))) {
                    return None;
                }
                let syn::Type::Path(p) = ty else { return None };
                let decl = self.typed_event_of(ty)?;
                let r = range(ty);
                Some(TypedCall {
                    form: Form::Turbofish,
                    decl,
                    type_text: self.src.get(r.clone())?.to_owned(),
                    occurrence: range(&p.path.segments.last()?.ident),
                    name_edit: Edit::new(r.start, r.end, session_event.to_owned()),
                    handler: &call.args[0],
                })
            }
            (None, 2) => {
                let syn::Expr::Path(p) = peel(&call.args[0]) else {
                    return None;
                };
                let segs: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
                if p.qself.is_some() || segs.len() < 2 {
                    return None;
                }
                let owner = segs[segs.len() - 2];
                let decl = self.typed_event_named(&owner.ident.to_string())?;
                let r = range(p);
                let owner_end = range(&owner.ident).end;
                Some(TypedCall {
                    form: Form::Named,
                    decl,
                    type_text: self.src.get(r.start..owner_end)?.to_owned(),
                    occurrence: range(&owner.ident),
                    name_edit: Edit::new(r.start, r.end, format!("\"{SESSION_EVENT}\"")),
                    handler: &call.args[1],
                })
            }
            _ => None,
        }
    }

    /// Whether `ty` names the same typed event as `d`.
    fn same_event(&self, ty: &syn::Type, d: &Declaration) -> bool {
        self.typed_event_of(ty).is_some_and(|t| t.event == d.event)
    }

    /// A closure handler (`|ev: &TurnStart| …`) retyped to take the `SessionEvent`, its body
    /// led by the twin's filter and, when it uses its parameter, the rebuilt value.
    fn closure_handler(
        &self,
        call: &syn::ExprMethodCall,
        c: &syn::ExprClosure,
        typed: &TypedCall<'_, 'c>,
        m: &Migration,
        twin: &str,
        session_event: &str,
    ) -> Option<HandlerRewrite> {
        if c.asyncness.is_some() || c.constness.is_some() || c.lifetimes.is_some() {
            return None;
        }
        if let syn::ReturnType::Type(_, ty) = &c.output
            && !matches!(&**ty, syn::Type::Tuple(t) if t.elems.is_empty())
        {
            return None;
        }
        if matches!(&*c.body, syn::Expr::Async(_)) || c.inputs.len() != 1 {
            return None;
        }
        let d = typed.decl;
        let (binding, ty) = param(&c.inputs[0])?;
        let by_ref = match ty {
            Some(syn::Type::Reference(r))
                if r.mutability.is_none() && self.same_event(&r.elem, d) =>
            {
                true
            }
            Some(t @ syn::Type::Path(_)) if self.same_event(t, d) => false,
            Some(_) => return None,
            // Untyped: the turbofish says what it is, the bus passes a reference.
            None if typed.form == Form::Turbofish => true,
            None => return None,
        };
        let mut notes = Vec::new();
        let mut taken = scope_names(&c.body);
        let used = binding.filter(|b| taken.contains(&b.ident.to_string()));
        let event = fresh(&taken, &["event", "ev", "session_event"]);
        taken.insert(event.clone());
        let mut lead = twin_filter(&event, twin);
        let rebuilds = used.is_some();
        if let Some(b) = used {
            let rebuilt = self.rebuild(d, m, &typed.type_text, &event, &mut taken)?;
            lead.extend(rebuilt.lines);
            let pattern = self.src.get(range(b))?;
            let amp = if by_ref { "&" } else { "" };
            lead.push(format!("let {pattern} = {amp}{};", rebuilt.value));
            if rebuilt.host_decoded {
                notes.push("decodes host types with `T::from_value`".to_owned());
            }
        }
        let inputs = c.inputs_begin.span.byte_range().start..c.inputs_end.span.byte_range().end;
        let amp = if by_ref { "&" } else { "" };
        let mut edits = vec![Edit::new(
            inputs.start,
            inputs.end,
            format!("|{event}: {amp}{session_event}|"),
        )];
        let (body_edits, unit) = self.body_edits(range(call).start, &c.body, &lead, &[], "");
        edits.extend(body_edits);
        if !unit {
            notes.push("the handler may return a value, mind the early returns".into());
        }
        Some(HandlerRewrite {
            edits,
            notes,
            rebuilds,
        })
    }

    /// A path handler (`close_step`) replaced by a `move` closure that takes the
    /// `SessionEvent`, filters the twin and calls it with the rebuilt value.
    #[allow(clippy::too_many_arguments)]
    fn path_handler(
        &self,
        call: &syn::ExprMethodCall,
        hp: &syn::ExprPath,
        typed: &TypedCall<'_, 'c>,
        fns: &HashMap<String, FnParam>,
        m: &Migration,
        twin: &str,
        session_event: &str,
    ) -> Option<HandlerRewrite> {
        let d = typed.decl;
        let mut notes = Vec::new();
        let name = hp.path.get_ident().map(ToString::to_string);
        let declared = name.as_ref().and_then(|n| fns.get(n));
        let by_ref = match (declared, typed.form) {
            (Some(f), _) if self.same_event(&f.ty, d) => f.by_ref,
            (Some(_), _) | (None, Form::Named) => return None,
            (None, Form::Turbofish) => {
                let h = self.src.get(range(hp))?;
                notes.push(format!("assumes `{h}` takes `&{}`", typed.type_text));
                true
            }
        };
        let mut taken: HashSet<String> = hp
            .path
            .segments
            .iter()
            .map(|s| s.ident.to_string())
            .collect();
        let event = fresh(&taken, &["event", "ev", "session_event"]);
        taken.insert(event.clone());
        let rebuilt = self.rebuild(d, m, &typed.type_text, &event, &mut taken)?;
        if rebuilt.host_decoded {
            notes.push("decodes host types with `T::from_value`".to_owned());
        }
        let amp = if by_ref { "&" } else { "" };
        let nl = self.newline;
        let outer = self.indent_at(range(call).start).to_owned();
        let mut lead = twin_filter(&event, twin);
        lead.extend(rebuilt.lines);
        lead.push(format!(
            "{}({amp}{});",
            self.src.get(range(hp))?,
            rebuilt.value
        ));
        let mut text = format!("move |{event}: {amp}{session_event}| {{");
        for l in &lead {
            text.push_str(&format!("{nl}{outer}    {l}"));
        }
        text.push_str(&format!("{nl}{outer}}}"));
        let r = range(typed.handler);
        Some(HandlerRewrite {
            edits: vec![Edit::new(r.start, r.end, text)],
            notes,
            rebuilds: true,
        })
    }
}

/// A typed subscription's call as read: its spelling, the typed event's declaration, the
/// text naming it, where the linter reports it, the edit of the name, and the handler.
struct TypedCall<'a, 'c> {
    form: Form,
    decl: &'c Declaration,
    type_text: String,
    occurrence: std::ops::Range<usize>,
    name_edit: Edit,
    handler: &'a syn::Expr,
}

/// A handler's rewrite: its edits, what the message must add, whether the typed value is
/// rebuilt.
struct HandlerRewrite {
    edits: Vec<Edit>,
    notes: Vec<String>,
    rebuilds: bool,
}

/// The statements that return unless `event` is the durable twin.
fn twin_filter(event: &str, twin: &str) -> Vec<String> {
    vec![
        format!("if {event}.kind != \"{twin}\" {{"),
        "    return;".to_owned(),
        "}".to_owned(),
    ]
}

/// The fix's message: the subscription's, what is rebuilt, and what is assumed of the host.
fn typed_message(target: migrate::Target<'_>, type_text: &str, handler: &HandlerRewrite) -> String {
    let mut message = migrate::subscription_message(target, None);
    if handler.rebuilds {
        message.push_str(&format!(", rebuilding `{type_text}` from its data"));
    }
    message.push_str(&format!(
        " (a typed subscription: assumes your host delivers `{SESSION_EVENT}` as \
         `SessionEvent {{ kind, data }}` through this method"
    ));
    for n in &handler.notes {
        message.push_str(&format!("; {n}"));
    }
    message.push_str(": check it)");
    message
}
