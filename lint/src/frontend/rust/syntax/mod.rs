//! The syn passes: declaration collection (pass 1, [`collect`]) and context classification
//! (pass 2, [`classify`]), with the constant evaluation ([`eval`]) and the name scoping
//! ([`scope`]) both use, and the helpers every part shares.

mod classify;
mod collect;
mod eval;
mod scope;

pub(super) use classify::{Classifier, Ctx};
pub(super) use collect::Collector;
pub(super) use eval::{Env, eval_str, local_strings};

use crate::frontend::Context;
use proc_macro2::{Span, TokenStream, TokenTree};
use std::ops::Range;
use syn::Expr;

fn range(span: Span) -> Range<usize> {
    span.byte_range()
}

fn line_of(span: Span) -> usize {
    span.start().line
}

fn removed<'c>(value: Option<String>, cx: Context<'c>) -> Option<String> {
    value.filter(|v| cx.catalog.lookup(v).is_some())
}

fn type_ident(ty: &syn::Type) -> Option<&syn::Ident> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| &s.ident),
        _ => None,
    }
}

/// The single expression a function body evaluates to, if the body is just that.
fn tail_expr(block: &syn::Block) -> Option<&Expr> {
    match block.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => match e {
            Expr::Return(r) => r.expr.as_deref(),
            Expr::Block(b) => tail_expr(&b.block),
            e => Some(e),
        },
        [syn::Stmt::Expr(Expr::Return(r), Some(_))] => r.expr.as_deref(),
        _ => None,
    }
}

/// String literals anywhere in a token stream.
fn token_literals(tokens: TokenStream, out: &mut Vec<syn::LitStr>) {
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => token_literals(g.stream(), out),
            TokenTree::Literal(l) => {
                if let Ok(s) = syn::parse2::<syn::LitStr>(TokenTree::Literal(l).into()) {
                    out.push(s);
                }
            }
            _ => {}
        }
    }
}

fn is_doc(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("doc")
}

/// Removed names given as exact string literals in a (non-doc) attribute.
fn attr_events(attrs: &[syn::Attribute], cx: Context<'_>) -> Option<String> {
    for a in attrs.iter().filter(|a| !is_doc(a)) {
        let mut lits = Vec::new();
        token_literals(quote::ToTokens::to_token_stream(&a.meta), &mut lits);
        for l in lits {
            if cx.catalog.lookup(&l.value()).is_some() {
                return Some(l.value());
            }
        }
    }
    None
}
