//! The `impl Event for T { const NAME: &str = "agent/…"; }` a typed subscription's rewrite
//! leaves behind: the rebuilt value (`let ev = &TurnStart { turn };`) still uses the struct,
//! so [`super::declaration`] cannot delete it, but nothing needs it to be an event any more.
//! The fix deletes the trait impl only (and its `use` of the trait when nothing else names
//! the trait).
//!
//! - No fix when the struct is named in a way that may need the impl: a path through it
//!   (`T::NAME`, `<T as Event>`), a generic argument (`on::<T>`, `Vec<T>`), a type alias, or
//!   anywhere syn does not see (a macro, an attribute).
//! - Machine-applicable only when that is provable from the file: the struct is private to a
//!   file no other file can reach into, every value of it is a struct literal bound by `let x =
//!   [&]T { … };` and then only read field by field (`x.turn`), no struct pattern or type
//!   annotation names it, and neither the trait nor the impl's items are named elsewhere in the
//!   file (no `E: Event` bound, no `dyn Event`, no `Self::NAME` in another impl).
//! - Otherwise a suggestion: a value passed to a function (a path handler's
//!   `close_step(&StepEnd { … })`) may reach a generic `E: Event` this file cannot see.

use super::declaration::Deleter;
use crate::frontend::{OccurrenceFix, line_removal};
use crate::model::{Applicability, Edit, Fix};
use std::ops::Range;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

fn range<T: Spanned>(node: &T) -> Range<usize> {
    node.span().byte_range()
}

fn is_ident(p: &syn::Path, name: &str) -> bool {
    p.get_ident().is_some_and(|i| i == name)
}

/// How a struct is named outside its declaration and impls.
struct Uses<'a> {
    name: &'a str,
    /// Its declaration and impls: not visited.
    skip: &'a [Range<usize>],
    /// Every mention seen.
    seen: usize,
    /// Mentions that are a struct literal.
    literals: usize,
    /// Literals bound by `let x = [&]T { … };`: the binding and where it is visible (from the
    /// end of the `let` to the end of its block).
    bound: Vec<(String, Range<usize>)>,
    /// A mention that may need the impl (a path through it, a generic argument, an alias).
    needs_impl: bool,
    /// Inside generic arguments or a qualified self type.
    in_generics: usize,
    /// Single-identifier bases of field accesses (`x.turn`): name and offset.
    field_bases: Vec<(String, usize)>,
    /// The enclosing blocks' ends.
    block_ends: Vec<usize>,
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_item(&mut self, i: &'ast syn::Item) {
        let r = range(i);
        if self
            .skip
            .iter()
            .any(|s| s.start <= r.start && r.end <= s.end)
        {
            return;
        }
        if let syn::Item::Type(t) = i {
            let before = self.seen;
            visit::visit_item_type(self, t);
            self.needs_impl |= self.seen > before;
            return;
        }
        visit::visit_item(self, i);
    }

    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.block_ends.push(range(b).end);
        visit::visit_block(self, b);
        self.block_ends.pop();
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        if let (syn::Pat::Ident(p), Some(init)) = (&l.pat, &l.init) {
            let mut e = &*init.expr;
            if let syn::Expr::Reference(r) = e {
                e = &r.expr;
            }
            if let syn::Expr::Struct(s) = e
                && is_ident(&s.path, self.name)
                && init.diverge.is_none()
                && let Some(&end) = self.block_ends.last()
            {
                self.bound.push((p.ident.to_string(), range(l).end..end));
            }
        }
        visit::visit_local(self, l);
    }

    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        if is_ident(&s.path, self.name) {
            self.literals += 1;
        }
        visit::visit_expr_struct(self, s);
    }

    fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
        if let syn::Expr::Path(p) = &*f.base
            && p.qself.is_none()
            && let Some(i) = p.path.get_ident()
        {
            self.field_bases.push((i.to_string(), range(i).start));
        }
        visit::visit_expr_field(self, f);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let n = p.segments.len();
        if p.segments
            .iter()
            .take(n.saturating_sub(1))
            .any(|s| s.ident == self.name)
        {
            self.needs_impl = true;
        }
        visit::visit_path(self, p);
    }

    fn visit_angle_bracketed_generic_arguments(
        &mut self,
        a: &'ast syn::AngleBracketedGenericArguments,
    ) {
        self.in_generics += 1;
        visit::visit_angle_bracketed_generic_arguments(self, a);
        self.in_generics -= 1;
    }

    fn visit_qself(&mut self, q: &'ast syn::QSelf) {
        self.in_generics += 1;
        visit::visit_qself(self, q);
        self.in_generics -= 1;
    }

    fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
        if i == self.name {
            self.seen += 1;
            if self.in_generics > 0 {
                self.needs_impl = true;
            }
        }
    }
}

impl Deleter<'_, '_, '_> {
    /// The fix of the leftover event impls `impls` (each with the ranges of the removed names
    /// it gives) of the struct `s`, declared with its impls at `ranges` among `siblings`.
    pub(super) fn leftover_impls(
        &mut self,
        s: &syn::ItemStruct,
        siblings: &[syn::Item],
        ranges: &[Range<usize>],
        impls: &[(&syn::ItemImpl, Vec<Range<usize>>)],
        private_file: bool,
    ) {
        let name = s.ident.to_string();
        let mut uses = Uses {
            name: &name,
            skip: ranges,
            seen: 0,
            literals: 0,
            bound: Vec::new(),
            needs_impl: false,
            in_generics: 0,
            field_bases: Vec::new(),
            block_ends: Vec::new(),
        };
        for item in siblings {
            uses.visit_item(item);
        }
        if uses.needs_impl || uses.seen != self.facts.count_outside(&name, ranges) {
            return;
        }
        let deleted: Vec<Range<usize>> = impls.iter().map(|(i, _)| range(*i)).collect();
        let kept_impls: Vec<&Range<usize>> = (ranges.iter().skip(1))
            .filter(|r| !deleted.contains(r))
            .collect();
        // The trait and the items of the deleted impls: named elsewhere (a bound, `dyn`, a
        // `Self::NAME` in another impl of the struct), they may need the impl.
        let mut named: Vec<String> = Vec::new();
        for (i, _) in impls {
            if let Some((path, _)) = &i.trait_
                && let Some(last) = path.segments.last()
            {
                named.push(last.ident.to_string());
            }
            for it in &i.items {
                match it {
                    syn::ImplItem::Const(c) => named.push(c.ident.to_string()),
                    syn::ImplItem::Fn(f) => named.push(f.sig.ident.to_string()),
                    _ => {}
                }
            }
        }
        let trait_names: Vec<String> = impls
            .iter()
            .filter_map(|(i, _)| i.trait_.as_ref()?.0.segments.last())
            .map(|s| s.ident.to_string())
            .collect();
        // Where a trait is only implemented (`impl Event for TurnEnd`), it is not a bound.
        let mut not_a_use = deleted.clone();
        not_a_use.extend(siblings.iter().filter_map(|item| match item {
            syn::Item::Impl(i) => i.trait_.as_ref().map(|(p, _)| range(p)),
            _ => None,
        }));
        let items_named_elsewhere = named.iter().any(|n| {
            let in_kept = (self.facts.idents.get(n.as_str()).into_iter().flatten()).any(|r| {
                kept_impls
                    .iter()
                    .any(|k| k.start <= r.start && r.end <= k.end)
            });
            in_kept || (trait_names.contains(n) && self.facts.count_outside(n, &not_a_use) > 0)
        });
        let read_by_field = uses.bound.len() == uses.literals
            && uses.literals == uses.seen
            && uses.bound.iter().all(|(x, scope)| {
                let mentions = (self.facts.idents.get(x.as_str()).into_iter().flatten())
                    .filter(|r| scope.start <= r.start && r.end <= scope.end)
                    .count();
                let fields = (uses.field_bases.iter())
                    .filter(|(b, at)| b == x && scope.start <= *at && *at < scope.end)
                    .count();
                mentions == fields
            });
        let private = matches!(s.vis, syn::Visibility::Inherited) && private_file;
        let safe = private && read_by_field && !items_named_elsewhere;
        let mut edits: Vec<Edit> = deleted
            .iter()
            .map(|r| {
                let r = line_removal(self.src, r.clone());
                Edit::new(r.start, r.end, "")
            })
            .collect();
        // The trait's import goes with the last impl naming it.
        for t in &trait_names {
            if self.facts.count_outside(t, &deleted) == 0
                && let Some(leaf) = self.facts.leaf(t)
                && let Some(r) = &leaf.removal
                && !edits.iter().any(|e| e.start < r.end && r.start < e.end)
            {
                edits.push(Edit::new(r.start, r.end, ""));
            }
        }
        edits.sort_by_key(|e| (e.start, e.end));
        edits.dedup();
        let what = match trait_names.first() {
            Some(t) => format!("`impl {t} for {name}`"),
            None => format!("the event impl of `{name}`"),
        };
        let (applicability, message) = if safe {
            (
                Applicability::MachineApplicable,
                format!(
                    "delete {what}: `{name}` is no longer used as an event (its values are only read field by field)"
                ),
            )
        } else {
            let why = if private {
                "a value of it passed on may still reach a generic `E: Event`: check that nothing needs it"
            } else {
                "it is not private to this file: check that nothing else uses it as an event"
            };
            (Applicability::Suggestion, format!("delete {what} ({why})"))
        };
        for (_, occurrences) in impls {
            for o in occurrences {
                let mut fix = Fix::new(applicability, message.clone(), edits.clone());
                fix.deletes = vec![name.clone()];
                // The struct stays: its literals (references of the event until the impl goes)
                // keep compiling.
                fix.keeps_references = true;
                self.fixes.push(OccurrenceFix {
                    start: o.start,
                    end: o.end,
                    fix,
                });
            }
        }
    }
}
