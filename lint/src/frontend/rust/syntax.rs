//! The syn passes: declaration collection (pass 1) and context classification (pass 2).

use super::locals;
use crate::frontend::locals::{Binding, Locals};
use crate::frontend::{Context, DeclKind, Declaration, Symbols};
use crate::model::Role;
use proc_macro2::{Span, TokenStream, TokenTree};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Expr, Lit};

fn range(span: Span) -> Range<usize> {
    span.byte_range()
}

fn line_of(span: Span) -> usize {
    span.start().line
}

/// Methods that only convert a name, so `bus.on("x".to_string())` is still a direct use.
const PEEL_METHODS: &[&str] = &[
    "to_string",
    "to_owned",
    "into",
    "as_str",
    "as_ref",
    "clone",
    "borrow",
    "as_bytes",
];
const PEEL_FUNCTIONS: &[&str] = &["from", "new", "Borrowed", "Owned", "Some", "Cow", "String"];

/// What string evaluation may consult: declarations of removed names across the run, and
/// the file's own string consts (`const NS: &str = "agent/";`).
#[derive(Clone, Copy)]
pub(super) struct Env<'a> {
    pub symbols: &'a Symbols,
    pub locals: &'a HashMap<String, String>,
}

/// Evaluates `expr` as a constant string where possible: literals, `concat!`, `format!` with
/// positional, numbered, named and captured arguments, `+` and `[..].concat()`, conversions,
/// consts or typed events already declared, and the file's own string consts.
pub(super) fn eval_str(expr: &Expr, env: &Env<'_>) -> Option<String> {
    match expr {
        Expr::Lit(l) => match &l.lit {
            Lit::Str(s) => Some(s.value()),
            _ => None,
        },
        Expr::Path(p) => {
            let segs: Vec<String> = p
                .path
                .segments
                .iter()
                .map(|s| s.ident.to_string())
                .collect();
            let last = segs.last()?;
            let prev = segs.len().checked_sub(2).map(|i| segs[i].as_str());
            if let Some(d) = env.symbols.get_const(last, prev) {
                return Some(d.event.clone());
            }
            if segs.len() >= 2 {
                let owner = &segs[segs.len() - 2];
                if let Some(d) = env.symbols.get(owner, DeclKind::Type) {
                    return Some(d.event.clone());
                }
            }
            if segs.len() == 1 {
                return env.locals.get(last).cloned();
            }
            None
        }
        Expr::Reference(r) => eval_str(&r.expr, env),
        Expr::Paren(p) => eval_str(&p.expr, env),
        Expr::Group(g) => eval_str(&g.expr, env),
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => {
            Some(eval_str(&b.left, env)? + &eval_str(&b.right, env)?)
        }
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "concat" => {
            let Expr::Array(a) = peel(&m.receiver) else {
                return None;
            };
            a.elems.iter().map(|e| eval_str(e, env)).collect()
        }
        Expr::MethodCall(m)
            if m.args.is_empty() && PEEL_METHODS.contains(&m.method.to_string().as_str()) =>
        {
            eval_str(&m.receiver, env)
        }
        Expr::Call(c) if c.args.len() == 1 => {
            let Expr::Path(f) = &*c.func else { return None };
            let last = f.path.segments.last()?.ident.to_string();
            if PEEL_FUNCTIONS.contains(&last.as_str()) {
                eval_str(&c.args[0], env)
            } else {
                None
            }
        }
        Expr::Macro(m) => eval_macro(&m.mac, env),
        _ => None,
    }
}

/// Whether a path segment names a type (`Moment`, `Self`) rather than a module (`events`).
fn is_type_name(segment: &str) -> bool {
    segment.starts_with(char::is_uppercase)
}

fn peel(e: &Expr) -> &Expr {
    match e {
        Expr::Reference(r) => peel(&r.expr),
        Expr::Paren(p) => peel(&p.expr),
        Expr::Group(g) => peel(&g.expr),
        e => e,
    }
}

fn macro_name(mac: &syn::Macro) -> String {
    mac.path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

fn macro_args(mac: &syn::Macro) -> Option<Punctuated<Expr, syn::Token![,]>> {
    mac.parse_body_with(Punctuated::<Expr, syn::Token![,]>::parse_terminated)
        .ok()
}

/// `concat!("agent/", "turn-start")`, `format!("agent/{}", "step-end")`.
fn eval_macro(mac: &syn::Macro, env: &Env<'_>) -> Option<String> {
    let name = macro_name(mac);
    if name != "concat" && name != "format" {
        return None;
    }
    let args = macro_args(mac)?;
    if name == "concat" {
        let mut out = String::new();
        for a in &args {
            match a {
                Expr::Lit(l) => match &l.lit {
                    Lit::Str(s) => out.push_str(&s.value()),
                    Lit::Int(i) => out.push_str(i.base10_digits()),
                    Lit::Char(c) => out.push(c.value()),
                    _ => return None,
                },
                other => out.push_str(&eval_str(other, env)?),
            }
        }
        return Some(out);
    }
    let mut it = args.iter();
    let Expr::Lit(syn::ExprLit {
        lit: Lit::Str(fmt), ..
    }) = it.next()?
    else {
        return None;
    };
    let mut positional = Vec::new();
    let mut named = HashMap::new();
    for a in it {
        match a {
            Expr::Assign(asg) => {
                let Expr::Path(p) = &*asg.left else {
                    return None;
                };
                let key = p.path.get_ident()?.to_string();
                named.insert(key, eval_str(&asg.right, env)?);
            }
            a => positional.push(eval_str(a, env)?),
        }
    }
    let fmt = fmt.value();
    let mut out = String::new();
    let mut next = 0;
    let mut chars = fmt.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let mut spec = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    spec.push(c);
                }
                // Only plain `{}` / `{0}` / `{name}`: a format spec could change the text.
                let value = if spec.is_empty() {
                    next += 1;
                    positional.get(next - 1)?.clone()
                } else if let Ok(i) = spec.parse::<usize>() {
                    positional.get(i)?.clone()
                } else if let Some(v) = named.get(&spec) {
                    v.clone()
                } else {
                    eval_str(&syn::parse_str::<Expr>(&spec).ok()?, env)?
                };
                out.push_str(&value);
            }
            c => out.push(c),
        }
    }
    Some(out)
}

/// The file's own string consts and statics whose value can be evaluated (literals, `concat!`,
/// other such consts), for building names from pieces (`format!("{NS}turn-start")`).
pub(super) fn local_strings(file: &syn::File, symbols: &Symbols) -> HashMap<String, String> {
    struct Items<'f>(Vec<(&'f syn::Ident, &'f Expr)>);
    impl<'ast> Visit<'ast> for Items<'ast> {
        fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
            self.0.push((&i.ident, &i.expr));
        }
        fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
            self.0.push((&i.ident, &i.expr));
        }
    }
    let mut items = Items(Vec::new());
    items.visit_file(file);
    let mut locals = HashMap::new();
    // Two rounds resolve a const defined from an earlier or later one.
    for _ in 0..2 {
        for (ident, expr) in &items.0 {
            let env = Env {
                symbols,
                locals: &locals,
            };
            if let Some(v) = eval_str(expr, &env) {
                locals.insert(ident.to_string(), v);
            }
        }
    }
    locals
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

/// Pass 1: collects declarations.
pub(super) struct Collector<'a> {
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
fn expr_idents(e: &Expr, out: &mut HashSet<String>) {
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

fn token_idents(tokens: TokenStream, out: &mut HashSet<String>) {
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

/// `(Ident, "literal")` pairs in a token stream where an UpperCamelCase identifier is followed,
/// within three tokens of punctuation (`,`, `=>`, `=`, `:`), by a string literal.
fn ident_literal_pairs(tokens: TokenStream, out: &mut Vec<(syn::Ident, syn::LitStr)>) {
    let mut last_ident: Option<(syn::Ident, usize)> = None;
    for (i, tt) in tokens.into_iter().enumerate() {
        match tt {
            TokenTree::Group(g) => {
                ident_literal_pairs(g.stream(), out);
                last_ident = None;
            }
            TokenTree::Ident(id) => {
                let upper = id.to_string().starts_with(char::is_uppercase);
                last_ident = upper.then_some((id, i));
            }
            TokenTree::Punct(_) => {}
            TokenTree::Literal(l) => {
                if let Some((id, at)) = last_ident.take()
                    && i - at <= 3
                    && let Ok(s) = syn::parse2::<syn::LitStr>(TokenTree::Literal(l).into())
                {
                    out.push((id, s));
                }
            }
        }
    }
}

/// The string elements of an array or slice expression (through `&`).
fn array_strs(expr: &Expr, env: &Env<'_>, out: &mut Vec<String>) {
    match expr {
        Expr::Reference(r) => array_strs(&r.expr, env, out),
        Expr::Array(a) => {
            for e in &a.elems {
                if let Some(v) = eval_str(e, env) {
                    out.push(v);
                } else {
                    array_strs(e, env, out);
                }
            }
        }
        Expr::Tuple(t) => {
            for e in &t.elems {
                if let Some(v) = eval_str(e, env) {
                    out.push(v);
                }
            }
        }
        _ => {}
    }
}

/// The path of a pattern naming an enum variant (`A::B`, `A::B { .. }`, `A::B(..)`).
fn pat_path(p: &syn::Pat) -> Option<&syn::Path> {
    let path = match p {
        syn::Pat::Path(p) => &p.path,
        syn::Pat::Struct(s) => &s.path,
        syn::Pat::TupleStruct(t) => &t.path,
        _ => return None,
    };
    (path.segments.len() >= 2).then_some(path)
}

/// The variant path an arm body builds (`A::B`, `Some(A::B { .. })`, `Ok(A::B(..))`).
fn variant_expr_path(e: &Expr) -> Option<&syn::Path> {
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
fn pat_str(p: &syn::Pat) -> Option<String> {
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

/// What a call-like construct does with its direct arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    /// The arguments get this role.
    Role(Role),
    /// The call is on a foreign bus: not ours, report nothing.
    Ignore,
}

/// Pass 2: records the context of every byte range that decides a role, plus occurrences of
/// declared identifiers and of names built by macros.
pub(super) struct Classifier<'a> {
    pub cx: Context<'a>,
    /// The file being classified, as reported.
    pub path: &'a str,
    /// Identifiers declared in this file.
    pub declared: HashSet<String>,
    /// Identifiers imported by name, with the path prefixes they are imported through.
    pub imports: HashMap<String, Vec<Vec<String>>>,
    /// The file has a glob import, so any declared identifier may be visible.
    pub glob: bool,
    /// Enums whose variants are glob-imported (`use AgentEvent::*;`).
    pub variant_owners: HashSet<String>,
    pub contexts: Vec<(Range<usize>, Ctx)>,
    pub occurrences: Vec<(Range<usize>, String, Option<String>)>,
    /// Byte ranges where the identifier is a definition, not a use.
    skip: Vec<usize>,
    /// Self types of the enclosing impls (for `Self::Variant`).
    impl_self: Vec<String>,
    /// The file's own string consts.
    locals: HashMap<String, String>,
    /// Resolutions already made in this file, by (identifier, previous segment, bare).
    memo: std::cell::RefCell<Memo<'a>>,
    /// Enclosing `+` operations and macro bodies being evaluated ([`MAX_ASSEMBLY_DEPTH`]).
    assembly_depth: usize,
    /// Local bindings and loop variables in scope.
    local_names: Locals,
}

type Memo<'a> = HashMap<(String, Option<String>, bool), Option<&'a Declaration>>;

impl<'a> Classifier<'a> {
    pub fn new(cx: Context<'a>, path: &'a str, file: &syn::File) -> Self {
        let mut scope = Scope::default();
        scope.visit_file(file);
        Classifier {
            cx,
            path,
            declared: scope.names,
            imports: scope.imports,
            glob: scope.glob,
            variant_owners: scope.variant_owners,
            contexts: Vec::new(),
            occurrences: Vec::new(),
            skip: Vec::new(),
            impl_self: Vec::new(),
            locals: local_strings(file, cx.symbols),
            memo: Default::default(),
            assembly_depth: 0,
            local_names: Locals::default(),
        }
    }

    fn call_ctx(&self, name: &str) -> Option<Ctx> {
        self.cx.calls.role_of(name).map(Ctx::Role)
    }

    fn mark_args<'e>(&mut self, ctx: Ctx, args: impl Iterator<Item = &'e Expr>) {
        for a in args {
            if let Some(r) = direct_target(a) {
                self.contexts.push((r, ctx));
            }
        }
    }

    /// The declaration a use of `ident` refers to. `prev` is the previous path segment, if
    /// any; `single` says the identifier stands alone (so it must be declared or imported in
    /// this file).
    fn resolve(&self, ident: &str, prev: Option<&str>, single: bool) -> Option<&'a Declaration> {
        if !self.cx.symbols.contains(ident) {
            return None;
        }
        let key = (ident.to_owned(), prev.map(str::to_owned), single);
        if let Some(hit) = self.memo.borrow().get(&key) {
            return *hit;
        }
        let found = self.resolve_uncached(ident, prev, single);
        self.memo.borrow_mut().insert(key, found);
        found
    }

    fn resolve_uncached(
        &self,
        ident: &str,
        prev: Option<&str>,
        single: bool,
    ) -> Option<&'a Declaration> {
        let symbols: &'a Symbols = self.cx.symbols;
        let candidates = symbols.all_of(ident).iter().filter(|d| match d.kind {
            DeclKind::Const => match d.owner.as_deref() {
                None => true,
                Some(owner) => prev.is_some_and(|p| p == owner || p == "Self"),
            },
            DeclKind::Type => true,
            DeclKind::Variant => false,
        });
        let mut best: Option<(usize, &'a Declaration)> = None;
        for d in candidates {
            // A file declaring its own item of that name means that item, unless the removed
            // event's declaration is this very file's.
            let declared_here = d.file == self.path;
            if self.declared.contains(ident) && !declared_here && single {
                continue;
            }
            let reachable = if single {
                declared_here
                    || self
                        .imports
                        .get(ident)
                        .is_some_and(|ps| ps.iter().any(|p| reachable_through(p, d)))
                    || (self.glob && !self.imports.contains_key(ident))
            } else {
                prev.is_none_or(|p| reachable_through(&[p.to_owned()], d))
            };
            // Of several reachable declarations (the same name in several crates), the
            // nearest one in the tree is meant.
            if !reachable {
                continue;
            }
            let closeness = common_prefix(&d.file, self.path);
            if best.is_none_or(|(c, _)| closeness > c) {
                best = Some((closeness, d));
            }
        }
        best.map(|(_, d)| d)
    }

    fn hit(&mut self, span: Span, d: &Declaration) {
        let r = range(span);
        if self.skip.contains(&r.start) {
            return;
        }
        let symbols: &Symbols = self.cx.symbols;
        for d in symbols.same_site(d) {
            self.occurrences.push((
                r.clone(),
                d.event.clone(),
                Some(format!(
                    "through {} declared at {}",
                    d.description, d.location
                )),
            ));
        }
    }

    fn scan_tokens(&mut self, tokens: TokenStream) {
        let mut prev: Vec<TokenTree> = Vec::new();
        for tt in tokens {
            match &tt {
                TokenTree::Group(g) => self.scan_tokens(g.stream()),
                TokenTree::Ident(id) => {
                    let name = id.to_string();
                    let owner = match prev.as_slice() {
                        [
                            ..,
                            TokenTree::Ident(o),
                            TokenTree::Punct(a),
                            TokenTree::Punct(b),
                        ] if a.as_char() == ':' && b.as_char() == ':' => Some(o.to_string()),
                        _ => None,
                    };
                    let variant = owner
                        .as_deref()
                        .and_then(|o| self.cx.symbols.variant(o, &name));
                    if let Some(d) = variant {
                        self.hit(id.span(), d);
                    } else if let Some(d) = self.resolve(&name, owner.as_deref(), owner.is_none()) {
                        self.hit(id.span(), d);
                    }
                }
                _ => {}
            }
            prev.push(tt);
            if prev.len() > 3 {
                prev.remove(0);
            }
        }
    }

    fn visit_macro_body(&mut self, mac: &syn::Macro) {
        if self.assembly_depth >= MAX_ASSEMBLY_DEPTH {
            // Deep inside nested macros: only look for identifiers, once per token.
            return self.scan_tokens(mac.tokens.clone());
        }
        self.assembly_depth += 1;
        self.visit_macro_parsed(mac);
        self.assembly_depth -= 1;
    }

    fn visit_macro_parsed(&mut self, mac: &syn::Macro) {
        let env = Env {
            symbols: self.cx.symbols,
            locals: &self.locals,
        };
        if let Some(ev) = removed(eval_macro(mac, &env), self.cx) {
            // Only a name built from pieces needs this: a literal holding it is found anyway.
            let mut lits = Vec::new();
            token_literals(mac.tokens.clone(), &mut lits);
            if !lits.iter().any(|l| l.value() == ev) {
                let name = macro_name(mac);
                let r = range(mac.span());
                self.occurrences
                    .push((r, ev, Some(format!("built by `{name}!`"))));
            }
        }
        match macro_args(mac) {
            Some(args) => {
                if let Some(ctx) = self.call_ctx(&macro_name(mac)) {
                    self.mark_args(ctx, args.iter());
                }
                for a in &args {
                    self.visit_expr(a);
                }
            }
            None => self.scan_tokens(mac.tokens.clone()),
        }
    }
}

/// The range of the expression an argument directly passes, looking through references and
/// conversions (`&X`, `X.to_string()`, `String::from(X)`), or `None` if the argument computes
/// something else (a closure, a call).
fn direct_target(e: &Expr) -> Option<Range<usize>> {
    match e {
        Expr::Binary(b) if matches!(b.op, syn::BinOp::Add(_)) => Some(range(e.span())),
        Expr::MethodCall(m) if m.args.is_empty() && m.method == "concat" => Some(range(e.span())),
        Expr::Lit(l) if matches!(l.lit, Lit::Str(_)) => Some(range(l.span())),
        Expr::Path(p) => Some(range(p.span())),
        Expr::Macro(m) => Some(range(m.span())),
        Expr::Reference(r) => direct_target(&r.expr),
        Expr::Paren(p) => direct_target(&p.expr),
        Expr::Group(g) => direct_target(&g.expr),
        Expr::Cast(c) => direct_target(&c.expr),
        Expr::MethodCall(m)
            if m.args.is_empty() && PEEL_METHODS.contains(&m.method.to_string().as_str()) =>
        {
            direct_target(&m.receiver)
        }
        Expr::Call(c) => {
            let Expr::Path(f) = &*c.func else { return None };
            let last = f.path.segments.last()?.ident.to_string();
            if c.args.len() == 1 && PEEL_FUNCTIONS.contains(&last.as_str()) {
                direct_target(&c.args[0])
            } else {
                Some(range(f.span()))
            }
        }
        Expr::Struct(s) => Some(range(s.path.span())),
        _ => None,
    }
}

/// The last identifier of a receiver expression (`self.app_handle` → `app_handle`).
fn receiver_name(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Expr::Field(f) => match &f.member {
            syn::Member::Named(n) => Some(n.to_string()),
            syn::Member::Unnamed(_) => None,
        },
        Expr::MethodCall(m) => Some(m.method.to_string()),
        Expr::Call(c) => receiver_name(&c.func),
        Expr::Reference(r) => receiver_name(&r.expr),
        Expr::Paren(p) => receiver_name(&p.expr),
        Expr::Try(t) => receiver_name(&t.expr),
        Expr::Await(a) => receiver_name(&a.base),
        _ => None,
    }
}

/// Names are assembled from a few pieces: deeper `+` chains or macro nesting are not
/// evaluated (each level would re-evaluate everything below it: quadratic on attack input).
const MAX_ASSEMBLY_DEPTH: usize = 16;

impl Classifier<'_> {
    /// A name assembled at run time from evaluable pieces (`NS.to_owned() + "turn-start"`,
    /// `[NS, "turn-start"].concat()`): `eval` evaluates it. Returns whether it was one.
    fn assembled(
        &mut self,
        span: Span,
        eval: impl FnOnce(&Env<'_>) -> Option<String>,
        how: &str,
    ) -> bool {
        if self.assembly_depth >= MAX_ASSEMBLY_DEPTH {
            return false;
        }
        let env = Env {
            symbols: self.cx.symbols,
            locals: &self.locals,
        };
        match removed(eval(&env), self.cx) {
            Some(ev) => {
                self.occurrences
                    .push((range(span), ev, Some(format!("built by {how}"))));
                true
            }
            None => false,
        }
    }
}

/// Methods that iterate or copy without changing the names (`MIRRORS.iter()`).
const ITER_METHODS: &[&str] = &["iter", "into_iter", "copied", "cloned"];

impl Classifier<'_> {
    /// The removed names an expression bound to a local holds: a name (literal, const, built
    /// name), an array of them, a const array, or another local holding them.
    fn held_names(&self, e: &Expr) -> Vec<String> {
        let e = peel(e);
        match e {
            Expr::MethodCall(m)
                if m.args.is_empty()
                    && (ITER_METHODS.contains(&m.method.to_string().as_str())
                        || PEEL_METHODS.contains(&m.method.to_string().as_str())) =>
            {
                return self.held_names(&m.receiver);
            }
            Expr::Path(p) if p.qself.is_none() => {
                let segs: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let single = segs.len() == 1 && p.path.leading_colon.is_none();
                if single && let Some(bound) = self.local_names.get(&segs[0]) {
                    return bound.map_or_else(Vec::new, |b| b.events.clone());
                }
                let prev = segs.len().checked_sub(2).map(|i| segs[i].as_str());
                if let Some(last) = segs.last()
                    && let Some(d) = self.resolve(last, prev, single)
                {
                    let symbols: &Symbols = self.cx.symbols;
                    return symbols
                        .same_site(d)
                        .iter()
                        .map(|d| d.event.clone())
                        .collect();
                }
            }
            _ => {}
        }
        let env = Env {
            symbols: self.cx.symbols,
            locals: &self.locals,
        };
        if let Some(ev) = removed(eval_str(e, &env), self.cx) {
            return vec![ev];
        }
        let mut strs = Vec::new();
        array_strs(e, &env, &mut strs);
        strs.into_iter()
            .filter_map(|v| removed(Some(v), self.cx))
            .collect()
    }

    /// Binds the names `pat` introduces: the one name of a simple pattern to `events` (when
    /// there are any), every other name to nothing.
    fn bind_pattern(&mut self, pat: &syn::Pat, events: Vec<String>) {
        if let Some(name) = locals::single_ident(pat) {
            let binding = (!events.is_empty()).then(|| Binding {
                events,
                via: format!(
                    "through local `{name}` bound at {}:{}",
                    self.path,
                    line_of(pat.span())
                ),
            });
            self.local_names.bind(name, binding);
            return;
        }
        let mut names = Vec::new();
        locals::pattern_idents(pat, &mut names);
        for n in names {
            self.local_names.bind(n, None);
        }
    }
}

impl<'ast> Visit<'ast> for Classifier<'_> {
    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.local_names.push();
        visit::visit_block(self, b);
        self.local_names.pop();
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        // The value is read before the new name exists (`let name = name;`).
        let events = l
            .init
            .as_ref()
            .map_or_else(Vec::new, |init| self.held_names(&init.expr));
        visit::visit_local(self, l);
        self.bind_pattern(&l.pat, events);
    }

    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        self.visit_expr(&f.expr);
        let events = self.held_names(&f.expr);
        self.local_names.push();
        self.bind_pattern(&f.pat, events);
        self.visit_block(&f.body);
        self.local_names.pop();
    }

    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        self.local_names.push();
        for p in &c.inputs {
            self.bind_pattern(p, Vec::new());
        }
        visit::visit_expr_closure(self, c);
        self.local_names.pop();
    }

    fn visit_arm(&mut self, a: &'ast syn::Arm) {
        self.local_names.push();
        self.bind_pattern(&a.pat, Vec::new());
        visit::visit_arm(self, a);
        self.local_names.pop();
    }

    fn visit_expr_let(&mut self, l: &'ast syn::ExprLet) {
        visit::visit_expr_let(self, l);
        self.bind_pattern(&l.pat, Vec::new());
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let saved = self.local_names.enter_item();
        visit::visit_item_fn(self, f);
        self.local_names.restore(saved);
    }

    fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
        if !matches!(b.op, syn::BinOp::Add(_)) {
            return visit::visit_expr_binary(self, b);
        }
        let sum = |env: &Env<'_>| Some(eval_str(&b.left, env)? + &eval_str(&b.right, env)?);
        if self.assembled(b.span(), sum, "`+`") {
            return;
        }
        self.assembly_depth += 1;
        visit::visit_expr_binary(self, b);
        self.assembly_depth -= 1;
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let concat = |env: &Env<'_>| {
            let Expr::Array(a) = peel(&m.receiver) else {
                return None;
            };
            a.elems.iter().map(|e| eval_str(e, env)).collect()
        };
        if m.args.is_empty()
            && m.method == "concat"
            && self.assembled(m.span(), concat, "`concat()`")
        {
            return;
        }
        let method = m.method.to_string();
        if let Some(mut ctx) = self.call_ctx(&method) {
            if receiver_name(&m.receiver)
                .is_some_and(|r| self.cx.calls.ignore_receivers.contains(&r))
            {
                ctx = Ctx::Ignore;
            }
            self.mark_args(ctx, m.args.iter());
            if let Some(tf) = &m.turbofish {
                for arg in &tf.args {
                    self.contexts.push((range(arg.span()), ctx));
                }
            }
        }
        visit::visit_expr_method_call(self, m);
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        if let Expr::Path(f) = &*c.func
            && let Some(last) = f.path.segments.last()
            && let Some(ctx) = self.call_ctx(&last.ident.to_string())
        {
            self.mark_args(ctx, c.args.iter());
            if let syn::PathArguments::AngleBracketed(ab) = &last.arguments {
                for arg in &ab.args {
                    self.contexts.push((range(arg.span()), ctx));
                }
            }
        }
        visit::visit_expr_call(self, c);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_macro_body(mac);
        visit::visit_macro(self, mac);
    }

    fn visit_item_macro(&mut self, i: &'ast syn::ItemMacro) {
        if !i.mac.path.is_ident("macro_rules") {
            self.contexts
                .push((range(i.mac.span()), Ctx::Role(Role::Declare)));
        }
        visit::visit_item_macro(self, i);
    }

    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        self.contexts
            .push((range(i.expr.span()), Ctx::Role(Role::Declare)));
        visit::visit_item_const(self, i);
    }

    fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
        self.contexts
            .push((range(i.expr.span()), Ctx::Role(Role::Declare)));
        visit::visit_item_static(self, i);
    }

    fn visit_impl_item_const(&mut self, i: &'ast syn::ImplItemConst) {
        self.contexts
            .push((range(i.expr.span()), Ctx::Role(Role::Declare)));
        visit::visit_impl_item_const(self, i);
    }

    fn visit_trait_item_const(&mut self, i: &'ast syn::TraitItemConst) {
        if let Some((_, e)) = &i.default {
            self.contexts
                .push((range(e.span()), Ctx::Role(Role::Declare)));
        }
        visit::visit_trait_item_const(self, i);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        // `fn name(&self) -> &str { "agent/x" }` declares; `fn start() -> Self { Self::X {..} }`
        // merely builds a value.
        if let Some(e) = tail_expr(&f.block)
            && !matches!(e, Expr::Struct(_) | Expr::Call(_))
            && let Some(r) = direct_target(e)
        {
            self.contexts.push((r, Ctx::Role(Role::Declare)));
        }
        let saved = self.local_names.enter_item();
        visit::visit_impl_item_fn(self, f);
        self.local_names.restore(saved);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        // The self type of an impl is the definition site of a typed event, not a use.
        if let Some(ty) = type_ident(&i.self_ty) {
            self.skip.push(range(ty.span()).start);
        }
        let self_name = type_ident(&i.self_ty)
            .map(ToString::to_string)
            .unwrap_or_default();
        self.impl_self.push(self_name);
        visit::visit_item_impl(self, i);
        self.impl_self.pop();
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        let name = a
            .path()
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let ctx = if name == "doc" {
            Ctx::Role(Role::Comment)
        } else {
            self.call_ctx(&name).unwrap_or(Ctx::Role(Role::Declare))
        };
        self.contexts.push((range(a.span()), ctx));
        if name != "doc" {
            self.scan_tokens(quote::ToTokens::to_token_stream(&a.meta));
        }
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<&syn::PathSegment> = p.segments.iter().collect();
        let single = segs.len() == 1 && p.leading_colon.is_none();
        if single && let Some(bound) = self.local_names.get(&segs[0].ident.to_string()) {
            // A local: it holds removed names, or shadows whatever else has this name.
            if let Some(b) = bound {
                let r = range(segs[0].ident.span());
                for ev in &b.events {
                    self.occurrences
                        .push((r.clone(), ev.clone(), Some(b.via.clone())));
                }
            }
            return self.visit_path_arguments(&segs[0].arguments);
        }
        if single {
            // A variant in scope by `use Enum::*` or `use Enum::Variant`.
            let name = segs[0].ident.to_string();
            let imported_from = self
                .imports
                .get(&name)
                .into_iter()
                .flatten()
                .filter_map(|p| p.last().cloned());
            let owners: Vec<String> = self
                .variant_owners
                .iter()
                .cloned()
                .chain(imported_from)
                .collect();
            let symbols: &Symbols = self.cx.symbols;
            if let Some(d) = owners.iter().find_map(|o| symbols.variant(o, &name)) {
                self.hit(segs[0].ident.span(), d);
                self.visit_path_arguments(&segs[0].arguments);
                return;
            }
        }
        let mut found = false;
        for (i, seg) in segs.iter().enumerate() {
            let name = seg.ident.to_string();
            if i > 0 {
                let mut owner = segs[i - 1].ident.to_string();
                if owner == "Self"
                    && let Some(t) = self.impl_self.last()
                {
                    owner = t.clone();
                }
                if let Some(d) = self.cx.symbols.variant(&owner, &name) {
                    self.hit(seg.ident.span(), d);
                    found = true;
                    break;
                }
            }
            let is_last = i + 1 == segs.len();
            let prev = i.checked_sub(1).map(|j| segs[j].ident.to_string());
            let d = if is_last {
                self.resolve(&name, prev.as_deref(), single)
            } else {
                let symbols: &Symbols = self.cx.symbols;
                symbols
                    .get(&name, DeclKind::Type)
                    .and_then(|_| self.resolve(&name, prev.as_deref(), i == 0))
                    .filter(|d| d.kind == DeclKind::Type)
            };
            if let Some(d) = d {
                self.hit(seg.ident.span(), d);
                found = true;
                break;
            }
        }
        if !found {
            visit::visit_path(self, p);
        } else {
            for seg in &segs {
                self.visit_path_arguments(&seg.arguments);
            }
        }
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        // A bare const in pattern position (`TURN_START => …`) parses as an identifier pattern.
        if p.subpat.is_none()
            && let Some(d) = self.resolve(&p.ident.to_string(), None, true)
            && d.kind == DeclKind::Const
        {
            self.hit(p.ident.span(), d);
        } else if p.subpat.is_none() {
            // A unit variant in scope by `use Enum::*` also parses as an identifier pattern.
            let name = p.ident.to_string();
            let symbols: &Symbols = self.cx.symbols;
            let owners: Vec<String> = self.variant_owners.iter().cloned().collect();
            if let Some(d) = owners.iter().find_map(|o| symbols.variant(o, &name)) {
                self.hit(p.ident.span(), d);
            }
        }
        visit::visit_pat_ident(self, p);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut imported = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut imported);
        let symbols: &Symbols = self.cx.symbols;
        for (ident, _, prefix) in imported {
            let name = ident.to_string();
            let found = nearest(
                symbols.all_of(&name).iter().filter(|d| {
                    matches!(d.kind, DeclKind::Const | DeclKind::Type)
                        && d.owner.is_none()
                        && reachable_through(&prefix, d)
                }),
                self.path,
            );
            let variant = prefix
                .last()
                .and_then(|owner| symbols.variant(owner, &name));
            if let Some(d) = found.or(variant) {
                self.hit(ident.span(), d);
            }
        }
    }
}

/// Every `(imported ident, alias, path prefix)` of a use tree.
fn use_leaves(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(syn::Ident, Option<syn::Ident>, Vec<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => out.push((n.ident.clone(), None, prefix.clone())),
        syn::UseTree::Rename(r) => {
            out.push((r.ident.clone(), Some(r.rename.clone()), prefix.clone()))
        }
        syn::UseTree::Glob(_) => {}
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, out);
            }
        }
    }
}

/// Finds the identifiers a file declares or imports by name, and whether it glob-imports.
#[derive(Default)]
struct Scope {
    names: HashSet<String>,
    imports: HashMap<String, Vec<Vec<String>>>,
    glob: bool,
    /// Enums whose variants are glob-imported.
    variant_owners: HashSet<String>,
}

impl Scope {
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                self.imports
                    .entry(n.ident.to_string())
                    .or_default()
                    .push(prefix.clone());
            }
            syn::UseTree::Rename(r) => {
                // The alias is declared by pass 1 where it renames a known item.
                self.names.insert(r.rename.to_string());
            }
            syn::UseTree::Glob(_) => {
                // `use AgentEvent::*;` brings variants into scope, not items.
                match prefix.last() {
                    Some(owner) if owner.starts_with(char::is_uppercase) => {
                        self.variant_owners.insert(owner.clone());
                    }
                    _ => self.glob = true,
                }
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(t, prefix);
                }
            }
        }
    }
}

/// Number of leading path components the file `decl_path` shares with `path`.
fn common_prefix(decl_path: &str, path: &str) -> usize {
    decl_path
        .split('/')
        .zip(path.split('/'))
        .take_while(|(a, b)| a == b)
        .count()
}

/// The nearest of `decls` to `path` (ties: the first).
fn nearest<'d>(
    decls: impl Iterator<Item = &'d Declaration>,
    path: &str,
) -> Option<&'d Declaration> {
    let mut best: Option<(usize, &Declaration)> = None;
    for d in decls {
        let c = common_prefix(&d.file, path);
        if best.is_none_or(|(b, _)| c > b) {
            best = Some((c, d));
        }
    }
    best.map(|(_, d)| d)
}

/// Whether an import or qualified path through `prefix` can reach `d`: a prefix made only of
/// `crate`/`self`/`super`, or one naming a module word of the declaration. A path whose last
/// qualifier is a type (`Moment::TurnEnd`, `Self::TurnEnd`) names a variant or an associated
/// item of that type, never a free item such as a typed event or a free const.
fn reachable_through(prefix: &[String], d: &Declaration) -> bool {
    if d.owner.is_none() && prefix.last().is_some_and(|s| is_type_name(s)) {
        return false;
    }
    let named: Vec<&String> = prefix
        .iter()
        .filter(|s| !matches!(s.as_str(), "crate" | "self" | "super" | "Self"))
        .filter(|s| !s.starts_with(char::is_uppercase))
        .collect();
    named.is_empty() || named.iter().any(|s| d.modules.contains(s))
}

impl<'ast> Visit<'ast> for Scope {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&u.tree, &mut Vec::new());
    }
    fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_const(self, i);
    }
    fn visit_item_macro(&mut self, i: &'ast syn::ItemMacro) {
        let mut pairs = Vec::new();
        ident_literal_pairs(i.mac.tokens.clone(), &mut pairs);
        self.names
            .extend(pairs.into_iter().map(|(id, _)| id.to_string()));
    }
    fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_static(self, i);
    }
    fn visit_item_struct(&mut self, i: &'ast syn::ItemStruct) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_struct(self, i);
    }
    fn visit_item_enum(&mut self, i: &'ast syn::ItemEnum) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_enum(self, i);
    }
    fn visit_item_type(&mut self, i: &'ast syn::ItemType) {
        self.names.insert(i.ident.to_string());
        visit::visit_item_type(self, i);
    }
}
