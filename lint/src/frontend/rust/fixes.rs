//! Fixes for Rust, where the rewrite is unambiguous. This file holds the emits and gathers
//! the others:
//!
//! - an emit statement of a removed mirror (`ctx.emit("agent/turn-start", (agent, turn));`)
//!   is deleted. Machine-applicable when the durable twin is appended earlier in the same
//!   block (`session.append("turn/start", …)`) and the emit's arguments have no side effects;
//!   a suggestion otherwise;
//! - a subscription becomes a `session/event` subscription ([`super::subscription`]; a typed
//!   one, `bus.on::<TurnStart>(…)`, as a suggestion: [`super::typed`]);
//! - a declaration nothing uses any more is deleted ([`super::declaration`]).

use super::declaration::Deleter;
use super::facts::FileFacts;
use super::subscription::{Planned, Rewriter};
use super::syntax::{Env, local_strings};
use super::typed;
use crate::frontend::{Context, OccurrenceFix, line_removal};
use crate::hash::HashMap;
use crate::model::{Applicability, Edit, Fix, Role};
use syn::spanned::Spanned;
use syn::visit::Visit;

/// The fixes of one parsed file (`src` is the text the spans point into).
pub(super) fn collect(
    file: &syn::File,
    path: &str,
    src: &str,
    cx: Context<'_>,
) -> Vec<OccurrenceFix> {
    let facts = FileFacts::of(file);
    let locals = local_strings(file, cx.symbols);
    let handler_fns = typed::handler_fns(file);
    let rewriter = Rewriter {
        src,
        path,
        facts: &facts,
        cx,
        env: Env {
            symbols: cx.symbols,
            locals: &locals,
        },
        newline: if src.contains("\r\n") { "\r\n" } else { "\n" },
    };
    let mut f = Fixer {
        src,
        cx,
        rewriter: &rewriter,
        fixes: Vec::new(),
        subscriptions: Vec::new(),
        params: Vec::new(),
        handler_fns: &handler_fns,
    };
    f.visit_file(file);
    let planned = std::mem::take(&mut f.subscriptions);
    f.fixes.extend(rewriter.finish(planned));
    let mut deleter = Deleter {
        src,
        facts: &facts,
        cx,
        fixes: Vec::new(),
    };
    deleter.items(&file.items);
    f.fixes.extend(deleter.fixes);
    f.fixes
}

struct Fixer<'s, 'c, 'r> {
    src: &'s str,
    cx: Context<'c>,
    rewriter: &'r Rewriter<'s, 'r, 'c>,
    fixes: Vec<OccurrenceFix>,
    subscriptions: Vec<Planned>,
    /// The parameters of the enclosing functions (a typed rewrite's receiver type).
    params: Vec<(String, syn::Type)>,
    /// The file's one-parameter functions (handlers a typed subscription may name).
    handler_fns: &'r HashMap<String, typed::FnParam>,
}

/// The named parameters of a function signature.
fn named_params(sig: &syn::Signature) -> Vec<(String, syn::Type)> {
    sig.inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(t) => match &*t.pat {
                syn::Pat::Ident(i) => Some((i.ident.to_string(), (*t.ty).clone())),
                _ => None,
            },
            syn::FnArg::Receiver(_) => None,
        })
        .collect()
}

/// The call a statement consists of: method name, receiver, arguments.
fn statement_call(stmt: &syn::Stmt) -> Option<(String, Option<&syn::Expr>, Vec<&syn::Expr>)> {
    let expr = match stmt {
        syn::Stmt::Expr(e, Some(_)) => e,
        _ => return None,
    };
    call_of(expr)
}

fn call_of(expr: &syn::Expr) -> Option<(String, Option<&syn::Expr>, Vec<&syn::Expr>)> {
    match expr {
        syn::Expr::Await(a) => call_of(&a.base),
        syn::Expr::Try(t) => call_of(&t.expr),
        syn::Expr::MethodCall(m) => Some((
            m.method.to_string(),
            Some(&*m.receiver),
            m.args.iter().collect(),
        )),
        syn::Expr::Call(c) => match &*c.func {
            syn::Expr::Path(p) => Some((
                p.path.segments.last()?.ident.to_string(),
                None,
                c.args.iter().collect(),
            )),
            _ => None,
        },
        _ => None,
    }
}

fn string_literal(e: &syn::Expr) -> Option<(String, proc_macro2::Span)> {
    match e {
        syn::Expr::Lit(l) => match &l.lit {
            syn::Lit::Str(s) => Some((s.value(), s.span())),
            _ => None,
        },
        syn::Expr::Paren(p) => string_literal(&p.expr),
        _ => None,
    }
}

/// Whether evaluating `e` has no side effect.
fn pure(e: &syn::Expr) -> bool {
    match e {
        syn::Expr::Path(_) | syn::Expr::Lit(_) => true,
        syn::Expr::Reference(r) => pure(&r.expr),
        syn::Expr::Field(f) => pure(&f.base),
        syn::Expr::Paren(p) => pure(&p.expr),
        syn::Expr::Tuple(t) => t.elems.iter().all(pure),
        syn::Expr::Struct(s) => s.rest.is_none() && s.fields.iter().all(|f| pure(&f.expr)),
        _ => false,
    }
}

fn appends(stmt: &syn::Stmt, twins: &[&str]) -> bool {
    let call = match stmt {
        syn::Stmt::Local(l) => l.init.as_ref().and_then(|i| call_of(&i.expr)),
        other => statement_call(other),
    };
    call.is_some_and(|(name, _, args)| {
        name.to_ascii_lowercase().contains("append")
            && args
                .first()
                .and_then(|a| string_literal(a))
                .is_some_and(|(v, _)| twins.contains(&v.as_str()))
    })
}

impl Fixer<'_, '_, '_> {
    fn emit_statement(&mut self, stmts: &[syn::Stmt], i: usize) {
        let stmt = &stmts[i];
        let Some((name, receiver, args)) = statement_call(stmt) else {
            return;
        };
        if self.cx.calls.role_of(&name) != Some(Role::Emit) {
            return;
        }
        let Some((event, span)) = args.first().and_then(|a| string_literal(a)) else {
            return;
        };
        let Some(m) = self
            .cx
            .catalog
            .lookup(&event)
            .and_then(|e| e.migration.as_ref())
        else {
            return;
        };
        // The occurrence is the name inside the literal's quotes.
        let lit = span.byte_range();
        let Some(at) = self
            .src
            .get(lit.clone())
            .and_then(|t| t.find(event.as_str()))
        else {
            return;
        };
        let occurrence = lit.start + at..lit.start + at + event.len();
        let twins = [m.twin.as_str(), m.twin_2026_08.as_str()];
        let beside = stmts[..i].iter().any(|s| appends(s, &twins));
        let side_effect_free = args.iter().all(|a| pure(a)) && receiver.is_none_or(pure);
        let (applicability, message) = if beside && side_effect_free {
            (
                Applicability::MachineApplicable,
                format!("delete the emit: `{}` is appended just before it", twins[0]),
            )
        } else if beside {
            (
                Applicability::Suggestion,
                "delete the emit (its arguments may have side effects: check them)".to_owned(),
            )
        } else {
            (
                Applicability::Suggestion,
                format!(
                    "delete the emit, and make sure this path appends the durable `{}`",
                    twins[0]
                ),
            )
        };
        let whole = stmt.span().byte_range();
        if whole.end > self.src.len() || whole.start >= whole.end {
            return;
        }
        let r = line_removal(self.src, whole);
        self.fixes.push(OccurrenceFix {
            start: occurrence.start,
            end: occurrence.end,
            fix: Fix::new(applicability, message, vec![Edit::new(r.start, r.end, "")]),
        });
    }
}

impl<'ast> Visit<'ast> for Fixer<'_, '_, '_> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        for i in 0..b.stmts.len() {
            self.emit_statement(&b.stmts, i);
        }
        syn::visit::visit_block(self, b);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if let Some(plan) = self.rewriter.subscription(m) {
            self.subscriptions.push(plan);
        } else if let Some(fix) =
            self.rewriter
                .typed_subscription(m, &self.params, self.handler_fns)
        {
            self.fixes.push(fix);
        }
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let saved = self.params.len();
        self.params.extend(named_params(&f.sig));
        syn::visit::visit_item_fn(self, f);
        self.params.truncate(saved);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let saved = self.params.len();
        self.params.extend(named_params(&f.sig));
        syn::visit::visit_impl_item_fn(self, f);
        self.params.truncate(saved);
    }
}
