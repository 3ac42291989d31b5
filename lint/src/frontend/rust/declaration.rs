//! Deleting Rust declarations of removed events that nothing uses any more:
//!
//! - `const TURN_START: &str = "agent/turn-start";` (or a `static`, or an array of removed
//!   names only);
//! - a typed event: `struct TurnStart { … }` with its `impl Event for TurnStart { const NAME:
//!   &str = "agent/turn-start"; }` (or a name method, or an event attribute on the struct), and
//!   every other impl of it in the file;
//! - an enum variant renamed to a removed name (`#[serde(rename = "agent/turn-start")]`).
//!
//! A typed event still used as a plain struct keeps it and loses its event impl only
//! ([`super::leftover`]).
//!
//! Only when its identifier appears nowhere else in the file (the engine also drops the fix
//! when another Rust file of the run names it, see [`crate::model::Fix::deletes`]).
//! Machine-applicable when the item is private to a file with no out-of-line module (so no
//! other file can name it); a suggestion when it is `pub` (another crate may use it) or, for a
//! variant, when its enum derives `Deserialize` (an old log naming the event would stop
//! parsing). No fix while something still uses it: migrate those uses first (the subscription
//! rewrite often does), and the next round of `--fix` deletes it.

use super::facts::FileFacts;
use crate::frontend::{Context, OccurrenceFix, line_removal};
use crate::model::{Applicability, Edit, Fix};
use std::ops::Range;
use syn::spanned::Spanned;

fn range<T: Spanned>(node: &T) -> Range<usize> {
    node.span().byte_range()
}

/// Collects the deletion fixes of a file's items.
pub(super) struct Deleter<'s, 'f, 'c> {
    /// The file's text, which the spans point into.
    pub src: &'s str,
    /// Its identifier uses and items.
    pub facts: &'f FileFacts,
    /// The run's catalogue.
    pub cx: Context<'c>,
    /// The fixes found so far.
    pub fixes: Vec<OccurrenceFix>,
}

/// The removed names of a string literal, with the range of the name inside it.
fn literal_name(l: &syn::LitStr, src: &str, cx: Context<'_>) -> Option<Range<usize>> {
    let value = l.value();
    cx.catalog.lookup(&value)?;
    let r = range(l);
    let at = src.get(r.clone())?.find(value.as_str())?;
    Some(r.start + at..r.start + at + value.len())
}

/// Every string literal of a const's value when each is a removed name (`"agent/x"`,
/// `["agent/x", "agent/y"]`, `&[…]`), else `None`.
fn removed_literals(e: &syn::Expr, src: &str, cx: Context<'_>) -> Option<Vec<Range<usize>>> {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(vec![literal_name(s, src, cx)?]),
        syn::Expr::Reference(r) => removed_literals(&r.expr, src, cx),
        syn::Expr::Paren(p) => removed_literals(&p.expr, src, cx),
        syn::Expr::Array(a) if !a.elems.is_empty() => {
            let mut out = Vec::new();
            for el in &a.elems {
                out.extend(removed_literals(el, src, cx)?);
            }
            Some(out)
        }
        _ => None,
    }
}

/// The removed name an item of a typed event's impl gives (`const NAME: &str = "agent/x";`,
/// `fn name(&self) -> &str { "agent/x" }`).
fn impl_name(item: &syn::ImplItem, src: &str, cx: Context<'_>) -> Option<Range<usize>> {
    let lit = match item {
        syn::ImplItem::Const(c) => &c.expr,
        syn::ImplItem::Fn(f) => match f.block.stmts.as_slice() {
            [syn::Stmt::Expr(e, None)] => e,
            _ => return None,
        },
        _ => return None,
    };
    match lit {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => literal_name(s, src, cx),
        _ => None,
    }
}

/// Removed names in string literals of an item's non-doc attributes.
fn attr_names(attrs: &[syn::Attribute], src: &str, cx: Context<'_>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for a in attrs.iter().filter(|a| !a.path().is_ident("doc")) {
        let mut lits = Vec::new();
        literals(quote::ToTokens::to_token_stream(&a.meta), &mut lits);
        out.extend(lits.iter().filter_map(|l| literal_name(l, src, cx)));
    }
    out
}

fn literals(tokens: proc_macro2::TokenStream, out: &mut Vec<syn::LitStr>) {
    for tt in tokens {
        match tt {
            proc_macro2::TokenTree::Group(g) => literals(g.stream(), out),
            proc_macro2::TokenTree::Literal(l) => {
                if let Ok(s) = syn::parse2::<syn::LitStr>(proc_macro2::TokenTree::Literal(l).into())
                {
                    out.push(s);
                }
            }
            _ => {}
        }
    }
}

fn is_private(v: &syn::Visibility) -> bool {
    matches!(v, syn::Visibility::Inherited)
}

fn self_ident(i: &syn::ItemImpl) -> Option<String> {
    match &*i.self_ty {
        syn::Type::Path(p) if p.qself.is_none() => p.path.get_ident().map(ToString::to_string),
        _ => None,
    }
}

impl Deleter<'_, '_, '_> {
    fn push(
        &mut self,
        declared_at: Vec<String>,
        occurrences: &[Range<usize>],
        ranges: &[Range<usize>],
        what: &str,
        safe: bool,
        why: &str,
    ) {
        let mut edits: Vec<Edit> = ranges
            .iter()
            .map(|r| {
                let r = line_removal(self.src, r.clone());
                Edit::new(r.start, r.end, "")
            })
            .collect();
        edits.sort_by_key(|e| (e.start, e.end));
        let (applicability, message) = if safe {
            (
                Applicability::MachineApplicable,
                format!("delete {what}: nothing uses it"),
            )
        } else {
            (Applicability::Suggestion, format!("delete {what} ({why})"))
        };
        for o in occurrences {
            let mut fix = Fix::new(applicability, message.clone(), edits.clone());
            fix.deletes = declared_at.clone();
            self.fixes.push(OccurrenceFix {
                start: o.start,
                end: o.end,
                fix,
            });
        }
    }

    /// Whether `name` appears nowhere in the file outside `within`.
    fn unused(&self, name: &str, within: &[Range<usize>]) -> bool {
        self.facts.count_outside(name, within) == 0
    }

    /// The deletions of a list of sibling items (the file's, or an inline module's).
    pub fn items(&mut self, items: &[syn::Item]) {
        let private_file = !self.facts.out_of_line_mod;
        for item in items {
            match item {
                syn::Item::Const(c) => {
                    self.constant(&c.ident, &c.vis, &c.expr, range(item), private_file)
                }
                syn::Item::Static(s) => {
                    self.constant(&s.ident, &s.vis, &s.expr, range(item), private_file)
                }
                syn::Item::Struct(s) => self.typed_event(s, items, private_file),
                syn::Item::Enum(e) => self.variants(e, private_file),
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        self.items(inner);
                    }
                }
                _ => {}
            }
        }
    }

    fn constant(
        &mut self,
        ident: &syn::Ident,
        vis: &syn::Visibility,
        value: &syn::Expr,
        whole: Range<usize>,
        private_file: bool,
    ) {
        let Some(names) = removed_literals(value, self.src, self.cx) else {
            return;
        };
        let name = ident.to_string();
        if !self.unused(&name, std::slice::from_ref(&whole)) {
            return;
        }
        let safe = is_private(vis) && private_file;
        self.push(
            vec![ident.to_string()],
            &names,
            &[whole],
            &format!("the unused `{name}`"),
            safe,
            "nothing in the linted tree uses it: check that no other crate does",
        );
    }

    /// A struct standing for a removed event, with its impls in `siblings`.
    fn typed_event(&mut self, s: &syn::ItemStruct, siblings: &[syn::Item], private_file: bool) {
        let name = s.ident.to_string();
        let mut occurrences = attr_names(&s.attrs, self.src, self.cx);
        let on_struct = !occurrences.is_empty();
        let mut ranges = vec![range(s)];
        let declared_at = vec![name.clone()];
        // The trait impls giving a removed name, with the names' ranges.
        let mut event_impls = Vec::new();
        for item in siblings {
            let syn::Item::Impl(i) = item else { continue };
            if self_ident(i).as_deref() != Some(name.as_str()) || !i.generics.params.is_empty() {
                continue;
            }
            ranges.push(range(item));
            if i.trait_.is_some() {
                let names: Vec<Range<usize>> = (i.items.iter())
                    .filter_map(|it| impl_name(it, self.src, self.cx))
                    .collect();
                occurrences.extend(names.iter().cloned());
                if !names.is_empty() {
                    event_impls.push((i, names));
                }
            }
        }
        if occurrences.is_empty() {
            return;
        }
        if !self.unused(&name, &ranges) {
            // Still used (a rewritten subscription rebuilds its value): only the impl may go.
            if !on_struct && !event_impls.is_empty() && s.generics.params.is_empty() {
                self.leftover_impls(s, siblings, &ranges, &event_impls, private_file);
            }
            return;
        }
        // `Self` inside the impls is the type itself; anything else naming it was counted.
        let safe = is_private(&s.vis) && private_file;
        self.push(
            declared_at,
            &occurrences,
            &ranges,
            &format!("the unused typed event `{name}` and its impls"),
            safe,
            "nothing in the linted tree uses it: check that no other crate does",
        );
    }

    /// Variants of an enum renamed to a removed name.
    fn variants(&mut self, e: &syn::ItemEnum, private_file: bool) {
        let deserialize = e.attrs.iter().any(|a| {
            quote::ToTokens::to_token_stream(&a.meta)
                .to_string()
                .contains("Deserialize")
        });
        let pairs: Vec<_> = e.variants.pairs().collect();
        if pairs.len() < 2 {
            return;
        }
        for pair in &pairs {
            let v = pair.value();
            let occurrences = attr_names(&v.attrs, self.src, self.cx);
            if occurrences.is_empty() {
                continue;
            }
            let mut whole = range(*v);
            if let Some(p) = pair.punct() {
                whole.end = range(*p).end;
            }
            let name = v.ident.to_string();
            if !self.unused(&name, std::slice::from_ref(&whole)) {
                continue;
            }
            let safe = is_private(&e.vis) && private_file && !deserialize;
            let why = if deserialize {
                "a log still naming the event would no longer deserialize: check your readers"
            } else {
                "nothing in the linted tree uses it: check that no other crate does"
            };
            self.push(
                vec![v.ident.to_string()],
                &occurrences,
                &[whole],
                &format!("the unused variant `{}::{name}`", e.ident),
                safe,
                why,
            );
        }
    }
}
