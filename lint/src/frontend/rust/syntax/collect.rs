//! Pass 1: the declarations of a file (constants, statics, enum variants and their event
//! names, types and aliases), for the workspace's symbol table.

use super::eval::{Env, array_strs, eval_str, ident_literal_pairs, macro_name};
use super::scope::{nearest, reachable_through, use_leaves};
use super::{attr_events, line_of, removed, tail_expr, type_ident};
use crate::frontend::{Context, DeclKind, Declaration, Symbols};
use crate::hash::{HashMap, HashSet};
use proc_macro2::{TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Expr, Lit};

/// Pass 1: collects declarations.
pub(in crate::frontend::rust) struct Collector<'a> {
    pub cx: Context<'a>,
    pub path: &'a str,
    pub found: Vec<Declaration>,
    /// Self types of the enclosing impls.
    pub impl_self: Vec<String>,
    /// Module words of the file (see [`Declaration::modules`]).
    pub modules: Vec<String>,
    /// Enclosing inline modules.
    pub mod_stack: Vec<String>,
    /// The file's own string consts.
    pub locals: HashMap<String, String>,
    /// Identifiers referred to by items that could not be resolved yet.
    pub pending: HashSet<String>,
    /// The file's structs by name (see [`super::shapes`]), for the typed events it declares.
    pub shapes: HashMap<String, Option<crate::frontend::TypeShape>>,
}

/// Every identifier in an expression (paths and macro tokens).
pub(super) fn expr_idents(e: &Expr, out: &mut HashSet<String>) {
    struct Idents<'o>(&'o mut HashSet<String>);
    impl<'ast> Visit<'ast> for Idents<'_> {
        fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
            self.0.insert(i.to_string());
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            token_idents(m.tokens.clone(), self.0);
            visit::visit_macro(self, m);
        }
    }
    Idents(out).visit_expr(e);
}

pub(super) fn token_idents(tokens: TokenStream, out: &mut HashSet<String>) {
    for tt in tokens {
        match tt {
            TokenTree::Group(g) => token_idents(g.stream(), out),
            TokenTree::Ident(i) => {
                out.insert(i.to_string());
            }
            _ => {}
        }
    }
}

impl Collector<'_> {
    fn add(
        &mut self,
        ident: &syn::Ident,
        kind: DeclKind,
        owner: Option<String>,
        event: String,
        description: String,
    ) {
        let shape = match kind {
            DeclKind::Type => self.shapes.get(&ident.to_string()).cloned().flatten(),
            _ => None,
        };
        self.add_shaped(ident, kind, owner, event, description, shape);
    }

    /// [`Collector::add`] with the struct shape given (an alias has its target's).
    fn add_shaped(
        &mut self,
        ident: &syn::Ident,
        kind: DeclKind,
        owner: Option<String>,
        event: String,
        description: String,
        shape: Option<crate::frontend::TypeShape>,
    ) {
        let mut modules = self.modules.clone();
        modules.extend(self.mod_stack.iter().cloned());
        let d = Declaration {
            ident: ident.to_string(),
            kind,
            owner,
            event,
            file: self.path.to_owned(),
            location: format!("{}:{}", self.path, line_of(ident.span())),
            description,
            modules,
            shape,
        };
        if !self.found.contains(&d) {
            self.found.push(d);
        }
    }

    fn eval(&self, e: &Expr) -> Option<String> {
        let env = Env {
            symbols: self.cx.symbols,
            locals: &self.locals,
        };
        removed(eval_str(e, &env), self.cx)
    }
}

impl Collector<'_> {
    /// A `const`/`static` holding a removed name, or an array/slice of names with at least
    /// one removed name (one declaration per removed event).
    fn const_item(&mut self, ident: &syn::Ident, expr: &Expr, what: &str) {
        if let Some(ev) = self.eval(expr) {
            self.add(
                ident,
                DeclKind::Const,
                None,
                ev,
                format!("{what} `{ident}`"),
            );
            return;
        }
        expr_idents(expr, &mut self.pending);
        let mut names = Vec::new();
        let env = Env {
            symbols: self.cx.symbols,
            locals: &self.locals,
        };
        array_strs(expr, &env, &mut names);
        for ev in names
            .into_iter()
            .filter(|n| self.cx.catalog.lookup(n).is_some())
        {
            self.add(
                ident,
                DeclKind::Const,
                None,
                ev,
                format!("{what} array `{ident}`"),
            );
        }
    }

    /// `match` arms that map an enum variant to a removed name (`Self::TurnStart =>
    /// "agent/turn-start"`) or back (`"agent/turn-start" => AgentEvent::TurnStart`).
    fn variant_arm(&mut self, arm: &syn::Arm) {
        let (variant_path, value) = match (pat_path(&arm.pat), variant_expr_path(&arm.body)) {
            (Some(p), _) => (p, self.eval(&arm.body)),
            (None, Some(p)) => (
                p,
                pat_str(&arm.pat).filter(|v| self.cx.catalog.lookup(v).is_some()),
            ),
            _ => return,
        };
        let Some(ev) = value else {
            expr_idents(&arm.body, &mut self.pending);
            return;
        };
        let segs: Vec<&syn::PathSegment> = variant_path.segments.iter().collect();
        let [.., owner, variant] = segs.as_slice() else {
            return;
        };
        let owner = match owner.ident.to_string().as_str() {
            "Self" => match self.impl_self.last() {
                Some(t) => t.clone(),
                None => return,
            },
            o => o.to_owned(),
        };
        let desc = format!("variant `{owner}::{}`", variant.ident);
        self.add(&variant.ident, DeclKind::Variant, Some(owner), ev, desc);
    }
}

/// The path of a pattern naming an enum variant (`A::B`, `A::B { .. }`, `A::B(..)`).
pub(super) fn pat_path(p: &syn::Pat) -> Option<&syn::Path> {
    let path = match p {
        syn::Pat::Path(p) => &p.path,
        syn::Pat::Struct(s) => &s.path,
        syn::Pat::TupleStruct(t) => &t.path,
        _ => return None,
    };
    (path.segments.len() >= 2).then_some(path)
}

/// The variant path an arm body builds (`A::B`, `Some(A::B { .. })`, `Ok(A::B(..))`).
pub(super) fn variant_expr_path(e: &Expr) -> Option<&syn::Path> {
    let path = match e {
        Expr::Path(p) => &p.path,
        Expr::Struct(s) => &s.path,
        Expr::Call(c) => match &*c.func {
            Expr::Path(f) if f.path.segments.len() == 1 && c.args.len() == 1 => {
                return variant_expr_path(&c.args[0]);
            }
            Expr::Path(f) => &f.path,
            _ => return None,
        },
        Expr::Block(b) => return tail_expr(&b.block).and_then(variant_expr_path),
        _ => return None,
    };
    let upper = |s: &syn::PathSegment| s.ident.to_string().starts_with(char::is_uppercase);
    (path.segments.len() >= 2 && path.segments.iter().rev().take(2).all(upper)).then_some(path)
}

/// The string literal of a pattern.
pub(super) fn pat_str(p: &syn::Pat) -> Option<String> {
    match p {
        syn::Pat::Lit(l) => match &l.lit {
            Lit::Str(s) => Some(s.value()),
            _ => None,
        },
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        self.const_item(&i.ident, &i.expr, "const");
        visit::visit_item_const(self, i);
    }

    fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
        self.const_item(&i.ident, &i.expr, "static");
        visit::visit_item_static(self, i);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.mod_stack.push(m.ident.to_string());
        visit::visit_item_mod(self, m);
        self.mod_stack.pop();
    }

    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        self.variant_arm(arm);
        visit::visit_arm(self, arm);
    }

    /// Item-level declaration macros such as `event!(TurnStart, "agent/turn-start");` or
    /// `events! { TurnStart => "agent/turn-start", … }`: an UpperCamelCase identifier right
    /// before a removed name becomes a typed event.
    fn visit_item_macro(&mut self, i: &'ast syn::ItemMacro) {
        if !i.mac.path.is_ident("macro_rules") {
            let mut pairs = Vec::new();
            ident_literal_pairs(i.mac.tokens.clone(), &mut pairs);
            for (ident, lit) in pairs {
                let value = lit.value();
                if self.cx.catalog.lookup(&value).is_some() {
                    let name = macro_name(&i.mac);
                    let desc = format!("typed event `{ident}` (declared by `{name}!`)");
                    self.add(&ident, DeclKind::Type, None, value, desc);
                }
            }
        }
        visit::visit_item_macro(self, i);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if let Some(ty) = type_ident(&i.self_ty) {
            for item in &i.items {
                let (ev, what) = match item {
                    // An inherent impl holding name consts is a namespace, not a typed event.
                    syn::ImplItem::Const(c) if i.trait_.is_none() => {
                        if let Some(ev) = self.eval(&c.expr) {
                            let desc = format!("associated const `{ty}::{}`", c.ident);
                            self.add(&c.ident, DeclKind::Const, Some(ty.to_string()), ev, desc);
                        } else {
                            expr_idents(&c.expr, &mut self.pending);
                        }
                        continue;
                    }
                    syn::ImplItem::Const(c) => (self.eval(&c.expr), format!("`{ty}::{}`", c.ident)),
                    syn::ImplItem::Fn(f) => (
                        tail_expr(&f.block).and_then(|e| self.eval(e)),
                        format!("`{ty}::{}()`", f.sig.ident),
                    ),
                    _ => (None, String::new()),
                };
                if let Some(ev) = ev {
                    let desc = format!("typed event `{ty}` (named by {what})");
                    self.add(ty, DeclKind::Type, None, ev, desc);
                    break;
                }
                match item {
                    syn::ImplItem::Const(c) => expr_idents(&c.expr, &mut self.pending),
                    syn::ImplItem::Fn(f) => {
                        if let Some(e) = tail_expr(&f.block) {
                            expr_idents(e, &mut self.pending);
                        }
                    }
                    _ => {}
                }
            }
        }
        let self_name = type_ident(&i.self_ty)
            .map(ToString::to_string)
            .unwrap_or_default();
        self.impl_self.push(self_name);
        visit::visit_item_impl(self, i);
        self.impl_self.pop();
    }

    fn visit_item_struct(&mut self, i: &'ast syn::ItemStruct) {
        if let Some(ev) = attr_events(&i.attrs, self.cx) {
            self.add(
                &i.ident,
                DeclKind::Type,
                None,
                ev,
                format!("typed event `{}`", i.ident),
            );
        }
        visit::visit_item_struct(self, i);
    }

    fn visit_item_enum(&mut self, i: &'ast syn::ItemEnum) {
        for v in &i.variants {
            if let Some(ev) = attr_events(&v.attrs, self.cx) {
                let desc = format!("variant `{}::{}`", i.ident, v.ident);
                self.add(
                    &v.ident,
                    DeclKind::Variant,
                    Some(i.ident.to_string()),
                    ev,
                    desc,
                );
            }
        }
        visit::visit_item_enum(self, i);
    }

    fn visit_item_type(&mut self, i: &'ast syn::ItemType) {
        if let Some(src) = type_ident(&i.ty) {
            self.pending.insert(src.to_string());
        }
        if let Some(src) = type_ident(&i.ty)
            && let Some(d) = self.cx.symbols.get(&src.to_string(), DeclKind::Type)
        {
            let (ev, desc) = (
                d.event.clone(),
                format!("`{}`, an alias of {}", i.ident, d.description),
            );
            let shape = d.shape.clone();
            self.add_shaped(&i.ident, DeclKind::Type, None, ev, desc, shape);
        }
        visit::visit_item_type(self, i);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut imported = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut imported);
        for (ident, alias, prefix) in imported {
            let Some(alias) = alias else { continue };
            self.pending.insert(ident.to_string());
            let symbols: &Symbols = self.cx.symbols;
            let reachable = symbols
                .all_of(&ident.to_string())
                .iter()
                .filter(|d| matches!(d.kind, DeclKind::Const | DeclKind::Type) && d.owner.is_none())
                .filter(|d| reachable_through(&prefix, d));
            // The alias stands for the nearest declaration (all events of a const array).
            let found: Vec<Declaration> = nearest(reachable, self.path)
                .map(|d| symbols.same_site(d).into_iter().cloned().collect())
                .unwrap_or_default();
            for d in found {
                let desc = format!("`{alias}`, an alias of {}", d.description);
                self.add_shaped(&alias, d.kind, None, d.event.clone(), desc, d.shape.clone());
            }
        }
    }
}
